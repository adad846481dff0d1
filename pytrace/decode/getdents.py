"""The old getdents(2) with its ``struct linux_dirent`` records, as strace 6.1 prints it
(``dirent.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_DIRENT_HEAD = struct.Struct("<QqH")  # d_ino, d_off, d_reclen; d_name, then d_type in the record's last byte
_D_NAME_LEN_MAX = 256


def _old_dirents(p: Printer, c: Call, address: int, length: int) -> str:
    """xgetdents over struct linux_dirent: ``/* N entries */`` by default, the array with -v."""
    head = _DIRENT_HEAD.size
    verbose = p.opts.verbose
    out: list[str] = []
    count = 0
    cur = address
    while length >= head:
        raw = c.mem.read(cur, head)
        if raw is None:
            if verbose:
                out.append(f"... /* {addr(cur)} */" if count else addr(cur))
            break
        count += 1
        ino, off, reclen = _DIRENT_HEAD.unpack(raw)
        comment = ""
        step = reclen
        if reclen > length:
            comment = f" /* {'d_reclen ' if not verbose else ''}{reclen - length} bytes overflow */"
            reclen = step = length
        elif reclen < head:
            comment = f" /* {'d_reclen ' if not verbose else ''}{head - reclen} bytes underflow */"
            reclen = step = head
        if verbose:
            entry = f"{{d_ino={ino}, d_off={off & 0xFFFFFFFFFFFFFFFF}, d_reclen={reclen}{comment}"
            name_type = reclen - head
            if name_type:
                if name_type - 1:
                    got = c.mem.read_cstring(cur + head, min(name_type - 1, _D_NAME_LEN_MAX))
                    entry += p.tail((f"d_name={addr(cur + head) if got is None else p.quote(got[0])}",))
                dtype = c.mem.read(cur + reclen - 1, 1)
                entry += ", d_type=" + (addr(cur + reclen - 1) if dtype is None
                                         else p.xval(dtype[0], X.DIRENT_TYPES, "DT_???"))
            out.append(entry + "}")
        elif comment:
            out.append(comment)
        length -= step
        if not length:
            break
        cur += step
    if not verbose:
        return addr(address) + "".join(out) + f" /* {count}{'+' if length >= head else ''} entries */"
    return "[" + ", ".join(out) + "]"


@syscall("getdents")
def getdents(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.fd(c, c.args[0])
    count = c.args[2] & _U32
    if c.failed or (c.rval & 0xFFFFFFFFFFFFFFFF) > count:
        buf = addr(c.args[1])
    else:
        buf = _old_dirents(p, c, c.args[1], c.rval)
    yield p.tail((f"{buf}", f"{count}"))
