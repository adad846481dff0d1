"""The new mount API: fsopen, fsconfig, fsmount, fspick, open_tree, move_mount and
mount_setattr, as strace 6.1 prints them (``fsmount.c``, ``fsconfig.c``, ``open_tree.c``,
``move_mount.c``, ``mount_setattr.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
    signed,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_PAGE_SIZE = 4096  # print_nonzero_bytes looks at most at a page of an extensible struct's tail


@syscall("fsopen", rval=rv_fd)
def fsopen(p: Printer, c: Call) -> str:
    return p.args((p.cstring(c, c.args[0]), p.flags(c.args[1] & _U32, X.FSOPEN_FLAGS, 'FSOPEN_???')))


_FSC = {name: value for value, name in X.FSCONFIG_CMDS}
_FSCONFIG_SET_STRING, _FSCONFIG_SET_BINARY = _FSC["FSCONFIG_SET_STRING"], _FSC["FSCONFIG_SET_BINARY"]
_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY = _FSC["FSCONFIG_SET_PATH"], _FSC["FSCONFIG_SET_PATH_EMPTY"]
_FSCONFIG_SET_FD = _FSC["FSCONFIG_SET_FD"]
_FSCONFIG_BINARY_MAX = 1024 * 1024  # strace prints a longer blob as its address
_FSCONFIG_CMD_CREATE, _FSCONFIG_CMD_RECONFIGURE = _FSC["FSCONFIG_CMD_CREATE"], _FSC["FSCONFIG_CMD_RECONFIGURE"]


@syscall("fsconfig")
def fsconfig(p: Printer, c: Call) -> str:
    a = c.args
    cmd = a[1] & _U32
    aux = signed(a[4], 32)
    # The FSCONFIG_SET_* commands name a key; the others (CMD_CREATE, CMD_RECONFIGURE, unknown) do not.
    key = p.cstring_n(c, a[2], 256) if cmd <= _FSCONFIG_SET_FD else addr(a[2])
    if cmd == _FSCONFIG_SET_STRING:
        value = p.cstring_n(c, a[3], 256)
    elif cmd == _FSCONFIG_SET_BINARY:
        value = p.string_at(c, a[3], aux, force_hex=True) if 0 <= aux <= _FSCONFIG_BINARY_MAX else addr(a[3])
    elif cmd in (_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY):
        value = p.path(c, a[3])
    else:
        value = addr(a[3])
    aux_text = p.dirfd(c, a[4]) if cmd in (_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY) else (
        p.fd(c, a[4]) if cmd == _FSCONFIG_SET_FD else str(aux))
    return (p.args((p.fd(c, a[0]), p.xval(cmd, X.FSCONFIG_CMDS, 'FSCONFIG_???'), f"{key}", f"{value}", f"{aux_text}")))


@syscall("fsmount", rval=rv_fd)
def fsmount(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), p.flags(a[1] & _U32, X.FSMOUNT_FLAGS, 'FSMOUNT_???'), p.flags(a[2] & _U32, X.FSMOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???'))))


@syscall("fspick", rval=rv_fd)
def fspick(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.dirfd(c, a[0]), p.path(c, a[1]), p.flags(a[2] & _U32, X.FSPICK_FLAGS, 'FSPICK_???')))


@syscall("open_tree", rval=rv_fd)
def open_tree(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.dirfd(c, a[0]), p.path(c, a[1]), p.flags(a[2] & _U32, X.OPEN_TREE_FLAGS, 'OPEN_TREE_???')))


@syscall("move_mount")
def move_mount(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.dirfd(c, a[0]), p.path(c, a[1]), p.dirfd(c, a[2]), p.path(c, a[3]), p.flags(a[4] & _U32, X.MOVE_MOUNT_FLAGS, 'MOVE_MOUNT_???'))))


_MOUNT_ATTR = struct.Struct("<QQQQ")  # attr_set, attr_clr, propagation, userns_fd
_MOUNT_ATTR_SIZE_VER0 = 32
_MOUNT_ATTR_IDMAP = next(v for v, n in X.MOUNT_ATTR_FLAGS if n == "MOUNT_ATTR_IDMAP")
_INT_MAX = 0x7FFFFFFF


@syscall("mount_setattr", rval=rv_fd)  # strace 6.1 returns RVAL_FD here (a quirk: the result is 0)
def mount_setattr(p: Printer, c: Call) -> str:
    a = c.args
    size = a[4]

    def show(aset: int, aclr: int, prop: int, userns: int) -> str:
        # userns_fd is a descriptor (-y decorates it) only when MOUNT_ATTR_IDMAP is being set or cleared.
        idmap = (aset | aclr) & _MOUNT_ATTR_IDMAP and userns <= _INT_MAX
        return (p.struct((('attr_set', p.flags(aset, X.MOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???')), ('attr_clr', p.flags(aclr, X.MOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???')), ('propagation', p.xval(prop, X.MOUNT_ATTR_PROPAGATION, 'MS_???')), ('userns_fd', f"{p.fd(c, userns) if idmap else userns}{_attr_tail()}"))))

    def _attr_tail() -> str:
        if size <= _MOUNT_ATTR.size:
            return ""
        tail = p.nonzero_bytes(c, a[3], _MOUNT_ATTR.size, min(size, _PAGE_SIZE))
        return p.tail((f"{tail}",)) if tail else ""

    attr = p.umove(c, a[3], _MOUNT_ATTR, show) if size >= _MOUNT_ATTR_SIZE_VER0 else addr(a[3])
    return (p.args((p.dirfd(c, a[0]), p.path(c, a[1]), p.flags(a[2] & _U32, X.MOUNT_SETATTR_FLAGS, 'AT_???'), f"{attr}", f"{size}")))
