"""Clocks, sleeps and timers: timespec/timeval/itimer structures as strace's time.c and print_timespec.h print them.

The struct printers here (``timespec_at`` and friends) are shared with poll.py and
futex.py, which print timeouts the same way.  Output structures are printed at exit
and only as their address when the call failed; the sleeps' "remaining time"
argument is shown only when the sleep was interrupted (ERESTART*), because
otherwise the kernel never wrote it.
"""

from __future__ import annotations

import struct
from functools import partial

from pytrace.decode.format import RESTART_ERRNOS, addr, signed, xlat
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.signal import printsignal
from pytrace.decode.stat import sprinttime_nsec
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

# Structure layouts come from the printer (p.lay: pytrace/decode/layouts.py), per personality.
# tv_nsec / tv_usec are printed unsigned, zero-extended from their own width (strace's
# zero_extend_signed_to_ull): -1 is 18446744073709551615 here, 4294967295 from an i386 tracee.
_TIME_T = struct.Struct("<q")


def hx(value: int) -> str:
    """C's ``%#x``: like Python's ``#x`` except that zero is plain ``0``."""
    return f"{value:#x}" if value else "0"


def xval0(p: Printer, value: int, table: tuple[tuple[int, str], ...], dflt: str) -> str:
    """printxval with an unsigned value: the name, else ``%#x`` and a ``/* dflt */`` comment."""
    if p.style != "abbrev":
        return p.xval(value, table, dflt)
    name = xlat(value, table)
    return name if name is not None else f"{hx(value)} /* {dflt} */"


def is_erestart(p: Printer, c: Call) -> bool:
    return c.error in RESTART_ERRNOS  # ERESTARTSYS & co.: the call was interrupted


def _pair(p: Printer, c: Call, address: int) -> tuple[int, int] | None:
    data = p.fetch(c, address, p.lay.PAIR.size, True)
    return None if data is None else p.lay.PAIR.unpack(data)


def timespec_text(sec: int, nsec: int) -> str:
    return f"{{tv_sec={sec}, tv_nsec={nsec}}}"


def timespec_at(p: Printer, c: Call, address: int) -> str:
    """print_timespec: ``{tv_sec=1, tv_nsec=2}``, NULL, or the address if unreadable."""
    if not address:
        return "NULL"
    got = _pair(p, c, address)
    return addr(address) if got is None else timespec_text(*got)


def timeval_at(p: Printer, c: Call, address: int) -> str:
    """print_timeval: ``{tv_sec=1, tv_usec=2}``."""
    if not address:
        return "NULL"
    got = _pair(p, c, address)
    return addr(address) if got is None else p.struct((('tv_sec', f"{got[0]}"), ('tv_usec', f"{got[1]}")))


def _two(p: Printer, c: Call, address: int, unit: str) -> str:
    data = p.fetch(c, address, p.lay.FOUR.size, True)
    if data is None:
        return addr(address)
    i_s, i_f, v_s, v_f = p.lay.FOUR.unpack(data)
    return (p.struct((('it_interval', f"{{tv_sec={i_s}, {unit}={i_f}}}"), ('it_value', f"{{tv_sec={v_s}, {unit}={v_f}}}"))))


def itimerspec_at(p: Printer, c: Call, address: int) -> str:
    """print_itimerspec: ``{it_interval={tv_sec=.., tv_nsec=..}, it_value={...}}``."""
    return _two(p, c, address, "tv_nsec")


def itimerval_at(p: Printer, c: Call, address: int) -> str:
    """print_itimerval: the same with ``tv_usec``."""
    return _two(p, c, address, "tv_usec")


def out(p: Printer, c: Call, address: int, printer: Callable[[Call, int], str]) -> str:
    """An output struct at exit: its address when the call failed (umove_or_printaddr), else decoded."""
    if c.failed:
        return addr(address)
    return printer(c, address)


def clockname(p: Printer, value: int) -> str:
    """printclockname: CLOCK_* by name, else ``%#x`` of the int with ``/* CLOCK_??? */``."""
    v = value & 0xFFFFFFFF
    return xval0(p, v, X.CLOCK_IDS, "CLOCK_???")


def timer_flags(p: Printer, value: int) -> str:
    return p.flags(value & 0xFFFFFFFF, X.TIMER_FLAGS, "TIMER_???")


def timerfd_flags(p: Printer, value: int) -> str:
    return p.flags(value & 0xFFFFFFFF, X.TIMERFD_FLAGS, "TFD_???")


# ---------------------------------------------------------------- clocks


@syscall("clock_gettime", "clock_getres")
def clock_gettime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((clockname(p, c.args[0]),))
    yield out(p, c, c.args[1], partial(timespec_at, p))


@syscall("clock_settime")
def clock_settime(p: Printer, c: Call) -> str:
    return p.args((clockname(p, c.args[0]), timespec_at(p, c, c.args[1])))


def _remaining(p: Printer, c: Call, address: int, shown: bool) -> str:
    """The sleeps' ``rem`` argument: written by the kernel only when the sleep was interrupted."""
    if shown and is_erestart(p, c):
        return timespec_at(p, c, address)
    return addr(address)


@syscall("clock_nanosleep")
def clock_nanosleep(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((clockname(p, c.args[0]), timer_flags(p, c.args[1]), timespec_at(p, c, c.args[2])))
    yield _remaining(p, c, c.args[3], not c.args[1])


@syscall("nanosleep")
def nanosleep(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((timespec_at(p, c, c.args[0]),))
    yield _remaining(p, c, c.args[1], True)


def _timezone_at(p: Printer, c: Call, address: int) -> str:
    if not address:
        return "NULL"
    data = c.mem.read(address, 8)
    if data is None:
        return addr(address)
    west, dst = struct.unpack("<ii", data)
    return p.struct((('tz_minuteswest', f"{west}"), ('tz_dsttime', f"{dst}")))


@syscall("gettimeofday")
def gettimeofday(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    yield p.args((out(p, c, c.args[0], partial(timeval_at, p)), out(p, c, c.args[1], partial(_timezone_at, p))))


@syscall("settimeofday")
def settimeofday(p: Printer, c: Call) -> str:
    return p.args((timeval_at(p, c, c.args[0]), _timezone_at(p, c, c.args[1])))


def _time_rval(p: Printer, c: Call) -> str:
    """``= 1700000000 (2023-11-14T22:13:20+0000)``: the result is a time, so strace dates it."""
    text = sprinttime_nsec(signed(c.rval, 64), 0)
    when = text[4:-3] if text else ""
    return f"{signed(c.rval, 64)} ({when})" if when else str(signed(c.rval, 64))


@syscall("time", rval=_time_rval)
def time_(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    address = c.args[0]
    if not address or c.failed:
        yield addr(address)
        return
    data = c.mem.read(address, _TIME_T.size)
    if data is None:
        yield addr(address)
        return
    (t,) = _TIME_T.unpack(data)
    yield f"[{t}{sprinttime_nsec(t, 0)}]"


# ---------------------------------------------------------------- interval timers


def _which(p: Printer, value: int) -> str:
    return xval0(p, value & 0xFFFFFFFF, X.ITIMER_WHICH, "ITIMER_???")


@syscall("getitimer")
def getitimer(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((_which(p, c.args[0]),))
    yield out(p, c, c.args[1], partial(itimerval_at, p))


@syscall("setitimer")
def setitimer(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((_which(p, c.args[0]), itimerval_at(p, c, c.args[1])))
    yield out(p, c, c.args[2], partial(itimerval_at, p))


@syscall("alarm", rval=lambda p, c: str(c.rval & 0xFFFFFFFFFFFFFFFF))
def alarm(p: Printer, c: Call) -> str:
    return str(c.args[0] & 0xFFFFFFFF)


# ---------------------------------------------------------------- POSIX timers

_SIGEV_SIGNAL, _SIGEV_THREAD, _SIGEV_THREAD_ID = 0, 2, 4


def sigevent_at(p: Printer, c: Call, address: int) -> str:
    """print_sigevent: ``{sigev_value=..., sigev_signo=SIGUSR1, sigev_notify=SIGEV_SIGNAL}``."""
    if not address:
        return "NULL"
    data = c.mem.read(address, p.lay.SIGEVENT.size)
    if data is None:
        return addr(address)
    value, signo, notify, un0, un1 = p.lay.SIGEVENT.unpack(data)
    text = "{"
    if value:
        text += p.head((f"sigev_value={{sival_int={signed(value, 32)}, sival_ptr={addr(value)}}}",))
    if notify in (_SIGEV_SIGNAL, _SIGEV_THREAD, _SIGEV_THREAD_ID):
        text += f"sigev_signo={printsignal(p, signo)}"
    else:
        text += f"sigev_signo={signo & 0xFFFFFFFF}"
    text += p.tail((f"sigev_notify={xval0(p, notify & 0xFFFFFFFF, getattr(X, 'SIGEV_NOTIFY', ()), 'SIGEV_???')}",))
    if notify == _SIGEV_THREAD_ID:
        text += p.tail((f"sigev_notify_thread_id={signed(un0, 32)}",))
    elif notify == _SIGEV_THREAD:
        text += p.tail((f"sigev_notify_function={addr(un0)}", f"sigev_notify_attributes={addr(un1)}"))
    return text + "}"


def int_at(p: Printer, c: Call, address: int) -> str:
    """printnum_int: ``[N]``, NULL, or the address (and the address when the call failed)."""
    if not address:
        return "NULL"
    data = None if c.failed else c.mem.read(address, 4)
    return addr(address) if data is None else f"[{struct.unpack('<i', data)[0]}]"


@syscall("timer_create")
def timer_create(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((clockname(p, c.args[0]), sigevent_at(p, c, c.args[1])))
    yield int_at(p, c, c.args[2])


@syscall("timer_settime")
def timer_settime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((f"{signed(c.args[0], 32)}", timer_flags(p, c.args[1]), itimerspec_at(p, c, c.args[2])))
    yield out(p, c, c.args[3], partial(itimerspec_at, p))


@syscall("timer_gettime")
def timer_gettime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((f"{signed(c.args[0], 32)}",))
    yield out(p, c, c.args[1], partial(itimerspec_at, p))


@syscall("timer_getoverrun", "timer_delete")
def timer_id(p: Printer, c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("timerfd_create", rval=rv_fd)
def timerfd_create(p: Printer, c: Call) -> str:
    return p.args((clockname(p, c.args[0]), timerfd_flags(p, c.args[1])))


@syscall("timerfd_settime")
def timerfd_settime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]), timerfd_flags(p, c.args[1]), itimerspec_at(p, c, c.args[2])))
    yield out(p, c, c.args[3], partial(itimerspec_at, p))


@syscall("timerfd_gettime")
def timerfd_gettime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    yield out(p, c, c.args[1], partial(itimerspec_at, p))
