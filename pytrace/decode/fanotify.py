"""fanotify_init and fanotify_mark, as strace 6.1 prints them (``fanotify.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.file import open_flags
from pytrace.decode.format import (
    signed,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_FAN_ALL_CLASS_BITS = 0
for _value, _name in X.FAN_CLASSES:
    _FAN_ALL_CLASS_BITS |= _value


@syscall("fanotify_init", rval=rv_fd)
def fanotify_init(p: Printer, c: Call) -> str:
    value = c.args[0] & _U32
    text = p.xval(value & _FAN_ALL_CLASS_BITS, X.FAN_CLASSES, "FAN_CLASS_???")
    rest = value & ~_FAN_ALL_CLASS_BITS
    if rest:
        text += "|" + p.flags(rest, X.FAN_INIT_FLAGS, "FAN_???")
    return p.args((f"{text}", open_flags(p, c.args[1])))


_FAN_NOFD = -1


@syscall("fanotify_mark")
def fanotify_mark(p: Printer, c: Call) -> str:
    a = c.args
    dfd = signed(a[3], 32)
    dtext = p.print_xlat(dfd, "FAN_NOFD", "int") if dfd == _FAN_NOFD else p.dirfd(c, a[3])
    return (p.args((p.fd(c, a[0]), p.flags(a[1] & _U32, X.FAN_MARK_FLAGS, 'FAN_MARK_???'), p.flags(a[2], X.FAN_EVENT_FLAGS, 'FAN_???'), f"{dtext}", p.path(c, a[4]))))
