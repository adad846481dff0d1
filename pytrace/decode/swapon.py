"""swapon with its flags and priority, as strace 6.1 prints it (``swapon.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_SWAP_FLAG_PRIO_MASK = 0x7FFF


@syscall("swapon")
def swapon(p: Printer, c: Call) -> str:
    value = c.args[1] & _U32
    prio = value & _SWAP_FLAG_PRIO_MASK
    value &= ~_SWAP_FLAG_PRIO_MASK
    text = f"{p.flags(value, X.SWAP_FLAGS, 'SWAP_FLAG_???')}|" if value else ""
    return p.args((p.path(c, c.args[0]), f"{text}{prio}"))
