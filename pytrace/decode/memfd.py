"""memfd_create with its name and MFD_* flags (huge page size included), as strace 6.1
prints it (``memfd_create.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    sprintflags,
)
from pytrace.decode.printer import hexnum, styled_whole
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_MFD_HUGE_SHIFT, _MFD_HUGE_MASK = 26, 0x3F
_MFD_NAME_MAX = 255 - len("memfd:")


def memfd_flags(p: Printer, value: int) -> str:
    """memfd_create's flags, styled as one value by -X; a zero is a bare ``0`` in every style."""
    return _memfd_names(p, value) if value & _U32 else "0"


@styled_whole(hexnum, _U32)
def _memfd_names(p: Printer, value: int) -> str:
    """memfd_create's flags: names, then the huge page size as ``N<<MFD_HUGE_SHIFT``."""
    value &= _U32
    mask = _MFD_HUGE_MASK << _MFD_HUGE_SHIFT
    huge = value & mask
    rest = value & ~mask
    parts = []
    if rest or not huge:
        parts.append(sprintflags(rest, X.MEMFD_CREATE_FLAGS, "MFD_???"))
    if huge:
        parts.append(f"{huge >> _MFD_HUGE_SHIFT}<<MFD_HUGE_SHIFT")
    return "|".join(parts)


@syscall("memfd_create", rval=rv_fd)
def memfd_create(p: Printer, c: Call) -> str:
    name = p.cstring_n(c, c.args[0], _MFD_NAME_MAX + 1)
    return p.args((f"{name}", memfd_flags(p, c.args[1])))
