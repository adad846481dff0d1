"""File handles: name_to_handle_at and open_by_handle_at with ``struct file_handle``, as
strace 6.1 prints them (``file_handle.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.file import open_flags
from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_HANDLE_HEAD = struct.Struct("<Ii")
_MAX_HANDLE_SZ = 128


def _f_handle(p: Printer, c: Call, address: int, nbytes: int) -> str:
    n = min(nbytes, _MAX_HANDLE_SZ)
    data = c.mem.read(address + _HANDLE_HEAD.size, n) if address > _HANDLE_HEAD.size else None
    if data is None:
        return "???"
    return p.quote(data, force_hex=True) + ("..." if nbytes > n else "")


@syscall("name_to_handle_at")
def name_to_handle_at(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    head = p.head((p.dirfd(c, a[0]), p.path(c, a[1])))
    fl = p.flags(a[4] & _U32, X.NAME_TO_HANDLE_AT_FLAGS, "AT_???")
    data = p.fetch(c, a[2], _HANDLE_HEAD.size)
    if data is None:
        yield p.args((f"{head}{addr(a[2])}", addr(a[3]), f"{fl}"))
        yield ""
        return
    before = _HANDLE_HEAD.unpack(data)[0]
    yield f"{head}{{handle_bytes={before}"
    text = ""
    if not c.failed or c.error == 75:  # EOVERFLOW: the kernel wrote the size it needs
        after = c.mem.read(a[2], _HANDLE_HEAD.size)
        if after is not None:
            nbytes, htype = _HANDLE_HEAD.unpack(after)
            if nbytes != before:
                text += f" => {nbytes}"
            if not c.failed:
                text += p.tail((f"handle_type={htype}", f"f_handle={_f_handle(p, c, a[2], nbytes)}"))
    mount_id = p.umove(c, a[3], struct.Struct("<i"), lambda v: f"[{v}]")
    yield f"{text}}}, {mount_id}, {fl}"


@syscall("open_by_handle_at", rval=rv_fd)
def open_by_handle_at(p: Printer, c: Call) -> str:
    a = c.args

    def show(nbytes: int, htype: int) -> str:
        return p.struct((('handle_bytes', f"{nbytes}"), ('handle_type', f"{htype}"), ('f_handle', _f_handle(p, c, a[1], nbytes))))

    return p.args((p.fd(c, a[0]), p.umove(c, a[1], _HANDLE_HEAD, show), open_flags(p, a[2])))
