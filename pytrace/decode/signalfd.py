"""signalfd and signalfd4 with their signal sets, as strace 6.1 prints them
(``signalfd.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.signal import sigset_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("signalfd", rval=rv_fd)
def signalfd(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), sigset_at(p, c, a[1], a[2]), f"{a[2]}"))


@syscall("signalfd4", rval=rv_fd)
def signalfd4(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), sigset_at(p, c, a[1], a[2]), f"{a[2]}", p.flags(a[3] & _U32, X.SIGNALFD_FLAGS, 'SFD_???')))
