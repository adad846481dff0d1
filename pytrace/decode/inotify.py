"""inotify_init1, inotify_add_watch and inotify_rm_watch, as strace 6.1 prints them
(``inotify.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    signed,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("inotify_init1", rval=rv_fd)
def inotify_init1(p: Printer, c: Call) -> str:
    return p.flags(c.args[0] & _U32, X.INOTIFY_INIT_FLAGS, "IN_???")


@syscall("inotify_add_watch")
def inotify_add_watch(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), p.path(c, a[1]), p.flags(a[2] & _U32, X.INOTIFY_FLAGS, 'IN_???')))


@syscall("inotify_rm_watch")
def inotify_rm_watch(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), f"{signed(c.args[1], 32)}"))
