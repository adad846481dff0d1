"""Ownership: chown, lchown, fchown and fchownat with strace's printuid, as strace 6.1
prints them (``chown.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.process import uid
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("chown", "lchown")
def chown(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), uid(c.args[1]), uid(c.args[2])))


@syscall("fchown")
def fchown(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), uid(c.args[1]), uid(c.args[2])))


@syscall("fchownat")
def fchownat(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.dirfd(c, a[0]), p.path(c, a[1]), uid(a[2]), uid(a[3]), p.flags(a[4] & _U32, X.AT_FLAGS, 'AT_???'))))
