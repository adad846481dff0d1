"""Kernel module loading and removal: init_module, finit_module, delete_module, as strace 6.1
prints them (``bjm.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


@syscall("init_module")
def init_module(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((addr(a[0]), f"{a[1]}", p.cstring(c, a[2])))


@syscall("finit_module")
def finit_module(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), p.cstring(c, a[1]), p.flags(a[2] & _U32, X.MODULE_INIT_FLAGS, 'MODULE_INIT_???')))


@syscall("delete_module")
def delete_module(p: Printer, c: Call) -> str:
    return p.args((p.cstring(c, c.args[0]), p.flags(c.args[1] & _U32, X.DELETE_MODULE_FLAGS, 'O_???')))
