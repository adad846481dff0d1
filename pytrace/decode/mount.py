"""The old mount API: mount and umount2, as strace 6.1 prints them (``mount.c``,
``umount.c``).
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


_MS_MGC_VAL, _MS_MGC_MSK = 0xC0ED0000, 0xFFFF0000  # strace's own: the old magic, in no header
_MS = {name: value for value, name in X.MOUNT_FLAGS}
_MS_REMOUNT = _MS["MS_REMOUNT"]
_MS_IGNORE_TYPE_AND_DATA = (_MS["MS_BIND"] | _MS["MS_MOVE"] | _MS["MS_SHARED"] | _MS["MS_PRIVATE"]
                            | _MS["MS_SLAVE"] | _MS["MS_UNBINDABLE"])


@syscall("mount")
def mount(p: Printer, c: Call) -> str:
    """SYS_FUNC(mount): the type and data are strings unless the flags say they are ignored."""
    a = c.args
    fl = a[3]
    old_magic = fl & _MS_MGC_MSK == _MS_MGC_VAL
    if old_magic:
        fl &= ~_MS_MGC_MSK
    ignore_type = ignore_data = False
    if fl & _MS_REMOUNT:
        ignore_type = True
    elif fl & _MS_IGNORE_TYPE_AND_DATA:
        ignore_type = ignore_data = True
    ftype = addr(a[2]) if ignore_type else p.cstring(c, a[2])
    ftext = ""
    if old_magic:
        ftext = p.print_xlat(_MS_MGC_VAL, "MS_MGC_VAL") + ("|" if fl else "")
    if fl or not old_magic:
        ftext += p.flags(fl, X.MOUNT_FLAGS, "MS_???")
    data = addr(a[4]) if ignore_data else p.cstring(c, a[4])
    return p.args((p.path(c, a[0]), p.path(c, a[1]), f"{ftype}", f"{ftext}", f"{data}"))


@syscall("umount2")
def umount2(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), p.flags(c.args[1] & _U32, X.UMOUNT_FLAGS, 'MNT_???')))
