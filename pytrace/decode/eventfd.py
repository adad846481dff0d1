"""eventfd and eventfd2, as strace 6.1 prints them (``eventfd.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("eventfd", rval=rv_fd)
def eventfd(p: Printer, c: Call) -> str:
    return str(c.args[0] & _U32)


@syscall("eventfd2", rval=rv_fd)
def eventfd2(p: Printer, c: Call) -> str:
    return p.args((f"{c.args[0] & _U32}", p.flags(c.args[1] & _U32, X.EVENTFD_FLAGS, 'EFD_???')))
