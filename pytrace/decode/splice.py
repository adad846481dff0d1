"""Data movement between descriptors: sendfile, copy_file_range, splice, tee and vmsplice,
as strace 6.1 prints them (``sendfile.c``, ``copy_file_range.c``, ``splice.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
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
_I64 = struct.Struct("<q")


def num64(p: Printer, c: Call, address: int, ignore_error: bool = True) -> str:
    """printnum_int64: ``[N]`` (a loff_t the kernel reads or updates), or the pointer."""
    return p.umove(c, address, _I64, lambda v: f"[{v}]", ignore_error)


#: sendfile's off_t: 32-bit in an i386 tracee (decode/i386.py), whose sendfile64 has this loff_t.
#: Unsigned, as strace prints it with printnum_ulong (a negative offset shows as 2**64 - n).


@syscall("sendfile")
def sendfile(p: Printer, c: Call) -> Generator[str, None, None]:
    """The offset is printed at entry and, when the call moved data, ``=> [new]`` at exit."""
    head = p.head((p.fd(c, c.args[0]), p.fd(c, c.args[1])))
    off = c.args[2]
    data = p.fetch(c, off, p.lay.OFF_T.size, True)
    if data is None:
        yield p.args((f"{head}{addr(off)}", f"{c.args[3]}"))
        yield ""
        return
    yield f"{head}[{p.lay.OFF_T.unpack(data)[0]}]"
    changed = ""
    if not c.failed and c.rval:
        changed = f" => {p.umove(c, off, p.lay.OFF_T, lambda v: f'[{v}]', True)}"
    yield p.args((f"{changed}", f"{c.args[3]}"))


@syscall("copy_file_range")
def copy_file_range(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), num64(p, c, a[1]), p.fd(c, a[2]), num64(p, c, a[3]), f"{a[4]}", f"{a[5] & _U32}")))


def splice_flags(p: Printer, value: int) -> str:
    return p.flags(value & _U32, X.SPLICE_FLAGS, "SPLICE_F_???")


@syscall("splice")
def splice(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), num64(p, c, a[1]), p.fd(c, a[2]), num64(p, c, a[3]), f"{a[4]}", splice_flags(p, a[5]))))


@syscall("tee")
def tee(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), p.fd(c, a[1]), f"{a[2]}", splice_flags(p, a[3])))


@syscall("vmsplice")
def vmsplice(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), iovec_array(p, c, a[1], a[2], None), f"{a[2]}", splice_flags(p, a[3])))
