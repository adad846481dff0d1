"""Obsolete and unimplemented entries of the x86_64 table: the printargs ones, _sysctl
(``sysctl.c``), lookup_dcookie, ustat, uselib and sysfs, as strace 6.1 prints them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import syscall
from pytrace.decode.stat import makedev
from pytrace.decode.time import hx

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


#: strace's argument counts for the entries the kernel no longer (or never) implemented, which have
#: no tracefs prototype to take them from (syscall_tables marks them "unknown"); also used by -e raw=.
PRINTARGS_NARGS = {
    "create_module": 2, "get_kernel_syms": 1, "query_module": 5, "nfsservctl": 3, "getpmsg": 5,
    "putpmsg": 5, "afs_syscall": 5, "tuxcall": 3, "security": 3, "set_thread_area": 1,
    "get_thread_area": 1, "epoll_ctl_old": 4, "epoll_wait_old": 4, "vserver": 5,
}


@syscall("create_module", "get_kernel_syms", "query_module", "nfsservctl", "getpmsg", "putpmsg", "afs_syscall",
         "tuxcall", "security", "epoll_ctl_old", "epoll_wait_old", "vserver")
def printargs(p: Printer, c: Call) -> str:
    """strace has no decoder for these: its printargs, the raw words, as many as its table says."""
    return ", ".join(hx(v) for v in c.args[:PRINTARGS_NARGS[c.name]])




@syscall("_sysctl")
def sysctl(p: Printer, c: Call) -> str:
    """strace's SYS_FUNC(sysctl): the struct's pointers and lengths, nothing they point to."""
    return p.umove(c, c.args[0], p.lay.SYSCTL_ARGS, lambda name, nlen, oldval, oldlenp, newval, newlen: (
        p.struct((('name', addr(name)), ('nlen', f"{nlen}"), ('oldval', addr(oldval)), ('oldlenp', addr(oldlenp)), ('newval', addr(newval)), ('newlen', f"{newlen}")))))


@syscall("lookup_dcookie")
def lookup_dcookie(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((f"{a[0]}", addr(a[1]), f"{a[2]}"))


@syscall("ustat")
def ustat(p: Printer, c: Call) -> str:
    return p.args((makedev(p, c.args[0] & _U32), addr(c.args[1])))


@syscall("uselib")
def uselib(p: Printer, c: Call) -> str:
    return p.path(c, c.args[0])


@syscall("sysfs")
def sysfs(p: Printer, c: Call) -> str:
    """strace prints sysfs's three raw words (printargs)."""
    return ", ".join(hx(v) for v in c.args[:3])
