"""Device nodes: mknod and mknodat, as strace 6.1 prints them (``mknod.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.registry import syscall
from pytrace.decode.stat import makedev, symbolic_mode

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_S_IFMT, _S_IFCHR, _S_IFBLK = 0o170000, 0o020000, 0o060000


def _mknod_tail(p: Printer, mode_arg: int, dev: int) -> str:
    """decode_mknod: the mode is an unsigned short; the device only for character and block nodes."""
    m = mode_arg & 0xFFFF
    text = symbolic_mode(p, m)
    if m & _S_IFMT in (_S_IFCHR, _S_IFBLK):
        text += p.tail((makedev(p, dev & _U32),))
    return text


@syscall("mknod")
def mknod(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), _mknod_tail(p, c.args[1], c.args[2])))


@syscall("mknodat")
def mknodat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), _mknod_tail(p, c.args[2], c.args[3])))
