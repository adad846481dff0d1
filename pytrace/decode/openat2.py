"""openat2 with its extensible ``struct open_how``, as strace 6.1 prints it (``open.c``)."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.file import ll_mode, open_flags64
from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call


_OPEN_HOW = struct.Struct("<QQQ")
_PAGE_SIZE = 4096  # print_nonzero_bytes looks at most at a page of an extensible struct's tail
_O_CREAT, _O_TMPFILE = 0o100, 0o20000000


def _open_how(p: Printer, c: Call, address: int, size: int) -> str:
    if size < _OPEN_HOW.size:
        return addr(address)

    def show(fl: int, mode_v: int, resolve: int) -> str:
        text = f"{{flags={open_flags64(p, fl)}"
        if mode_v or fl & (_O_CREAT | _O_TMPFILE):
            text += p.tail((f"mode={ll_mode(mode_v)}",))
        text += p.tail((f"resolve={p.flags(resolve, X.OPEN_RESOLVE_FLAGS, 'RESOLVE_???')}",))
        tail = p.nonzero_bytes(c, address, _OPEN_HOW.size, min(size, _PAGE_SIZE)) if size > _OPEN_HOW.size else None
        return f"{text}, {tail}}}" if tail else text + "}"

    return p.umove(c, address, _OPEN_HOW, show)


@syscall("openat2", rval=rv_fd)
def openat2(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.dirfd(c, a[0]), p.path(c, a[1]), _open_how(p, c, a[2], a[3]), f"{a[3]}"))
