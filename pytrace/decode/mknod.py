"""Device nodes: mknod and mknodat, as strace 6.1 prints them (``mknod.c``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    dirfd,
    path,
)
from pytrace.decode.registry import syscall
from pytrace.decode.stat import makedev, symbolic_mode

if TYPE_CHECKING:
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_S_IFMT, _S_IFCHR, _S_IFBLK = 0o170000, 0o020000, 0o060000


def _mknod_tail(mode_arg: int, dev: int) -> str:
    """decode_mknod: the mode is an unsigned short; the device only for character and block nodes."""
    m = mode_arg & 0xFFFF
    text = symbolic_mode(m)
    if m & _S_IFMT in (_S_IFCHR, _S_IFBLK):
        text += f", {makedev(dev & _U32)}"
    return text


@syscall("mknod")
def mknod(c: Call) -> str:
    return f"{path(c, c.args[0])}, {_mknod_tail(c.args[1], c.args[2])}"


@syscall("mknodat")
def mknodat(c: Call) -> str:
    return f"{dirfd(c, c.args[0])}, {path(c, c.args[1])}, {_mknod_tail(c.args[2], c.args[3])}"
