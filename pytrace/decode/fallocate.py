"""Space and sync management of a file range: fallocate, sync_file_range and readahead, as
strace 6.1 prints them (``fallocate.c``, ``sync_file_range.c``, ``readahead.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    signed,
)
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("fallocate")
def fallocate(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), p.flags(a[1] & _U32, X.FALLOC_FLAGS, 'FALLOC_FL_???'), f"{signed(a[2], 64)}", f"{signed(a[3], 64)}")))


@syscall("sync_file_range")
def sync_file_range(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), f"{signed(a[1], 64)}", f"{signed(a[2], 64)}", p.flags(a[3] & _U32, X.SYNC_FILE_RANGE_FLAGS, 'SYNC_FILE_RANGE_???'))))


@syscall("readahead")
def readahead(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), f"{signed(c.args[1], 64)}", f"{c.args[2]}"))
