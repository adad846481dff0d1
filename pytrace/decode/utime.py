"""File times: utime, utimes, futimesat and utimensat (with UTIME_NOW/UTIME_OMIT), as
strace 6.1 prints them (``utime.c``, ``utimes.c``).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from pytrace.decode.registry import syscall
from pytrace.decode.stat import sprinttime_nsec
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def _sprinttime(sec: int, frac: str = "") -> str:
    """`` /* 2001-09-09T01:46:40[.frac]+0000 */`` (strace's sprinttime_ex), or "" when out of range.

    Like sprinttime_ex, nothing for the epoch itself (``actime=0``).
    """
    if sec == 0 and not frac:
        return ""
    try:
        tm = time.localtime(sec)
    except (OverflowError, OSError, ValueError):
        return ""
    return f" /* {time.strftime('%Y-%m-%dT%H:%M:%S', tm)}{frac}{time.strftime('%z', tm)} */"


def _timeval_utime(sec: int, usec: int) -> str:
    """print_timeval_utimes element: ``{tv_sec=S, tv_usec=U} /* date */``."""
    comment = ""
    if not (sec == 0 and usec == 0) and 0 <= usec <= 999_999:
        comment = _sprinttime(sec, f".{usec:06d}" if usec else "")
    return f"{{tv_sec={sec}, tv_usec={usec}}}{comment}"


_UTIME_NOW = (1 << 30) - 1
_UTIME_OMIT = (1 << 30) - 2


def utime_special(p: Printer, sec: int, nsec: int, name: str) -> str:
    """UTIME_NOW / UTIME_OMIT in a utimensat pair: -X raw shows the timespec, -X verbose both."""
    if p.style == "abbrev":
        return name
    pair = p.struct((('tv_sec', f"{sec}"), ('tv_nsec', f"{nsec}")))
    return pair if p.raw else f"{pair} /* {name} */"


def _timespec_utime(p: Printer, sec: int, nsec: int) -> str:
    """print_timespec_t_utime: UTIME_NOW / UTIME_OMIT by name, else the time with its date."""
    if nsec in (_UTIME_NOW, _UTIME_OMIT):
        return utime_special(p, sec, nsec, "UTIME_NOW" if nsec == _UTIME_NOW else "UTIME_OMIT")
    return f"{{tv_sec={sec}, tv_nsec={nsec}}}{sprinttime_nsec(sec, nsec)}"


#: struct utimbuf: two time_t (decode/i386.py swaps in 32-bit ones).


@syscall("utime")
def utime(p: Printer, c: Call) -> str:
    def show(actime: int, modtime: int) -> str:
        return p.struct((('actime', f"{actime}{_sprinttime(actime)}"), ('modtime', f"{modtime}{_sprinttime(modtime)}")))

    return p.args((p.path(c, c.args[0]), p.umove(c, c.args[1], p.lay.UTIMBUF, show)))


def _utimes(p: Printer, c: Call, address: int) -> str:
    return p.umove(c, address, p.lay.PAIR2,
                 lambda s0, u0, s1, u1: f"[{_timeval_utime(s0, u0)}, {_timeval_utime(s1, u1)}]")


@syscall("utimes")
def utimes(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), _utimes(p, c, c.args[1])))


@syscall("futimesat")
def futimesat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), _utimes(p, c, c.args[2])))


@syscall("utimensat")
def utimensat(p: Printer, c: Call) -> str:
    a = c.args
    times = p.umove(c, a[2], p.lay.PAIR2,
                  lambda s0, n0, s1, n1: f"[{_timespec_utime(p, s0, n0)}, {_timespec_utime(p, s1, n1)}]")
    return p.args((p.dirfd(c, a[0]), p.path(c, a[1]), f"{times}", p.flags(a[3] & _U32, X.AT_FLAGS, 'AT_???')))
