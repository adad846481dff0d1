"""close_range, as strace 6.1 prints it (``close_range.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("close_range")
def close_range(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((f"{a[0] & _U32}", f"{a[1] & _U32}", p.flags(a[2] & _U32, X.CLOSE_RANGE_FLAGS, 'CLOSE_RANGE_???')))
