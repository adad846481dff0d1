"""poll/ppoll, select/pselect6 and epoll, as strace's poll.c, desc.c and epoll.c print them.

poll and select describe their results in the return text (``= 1 ([{fd=3,
revents=POLLIN}])``, ``= 1 (in [3], left {...})``, ``= 0 (Timeout)``) rather than
in the arguments, so their arguments are all printed at entry and the exit half
only sets ``ret_text``; epoll_wait's events are an output argument printed at exit.
"""

from __future__ import annotations

import struct
from functools import partial

from pytrace.decode.format import addr, print_array, signed  # noqa: F401 -- print_array: its old home
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.signal import sigset_at
from pytrace.decode.time import hx, timespec_at, timeval_at
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

MASK64 = (1 << 64) - 1


# ---------------------------------------------------------------- poll / ppoll

_POLLFD = struct.Struct("<ihh")


def _pollfd(p: Printer, c: Call, data: bytes) -> str:
    pfd, events, _ = _POLLFD.unpack(data)
    if pfd < 0:
        return p.struct((('fd', f"{pfd}"),))
    return p.struct((('fd', p.fd(c, pfd)), ('events', p.flags(events & 0xFFFF, X.POLL_EVENTS, 'POLL???'))))


def _poll_entry(p: Printer, c: Call) -> str:
    nfds = c.args[1] & 0xFFFFFFFF
    return p.head((print_array(p, c, c.args[0], nfds, _POLLFD.size, lambda data: _pollfd(p, c, data)), f"{nfds}"))


def _poll_result(p: Printer, c: Call, timeout: int) -> str | None:
    """decode_poll_exiting: the ``(...)`` text after the count; None when strace adds nothing."""
    if c.failed:
        return None
    if c.rval == 0:
        return "Timeout"
    if not p.verbose(c):
        return None
    nfds = c.args[1] & 0xFFFFFFFF
    start = c.args[0]
    end = start + nfds * _POLLFD.size
    text = ""
    if start and nfds and end <= MASK64:
        parts: list[str] = []
        printed = 0
        for cur in range(start, end, _POLLFD.size):
            data = c.mem.read(cur, _POLLFD.size)
            if data is None:
                parts.append(hx(cur))
                break
            pfd, _, revents = _POLLFD.unpack(data)
            if not revents:
                continue
            if not p.opts.verbose and printed + 1 > p.opts.max_strlen:
                parts.append("...")
                break
            parts.append(p.struct((('fd', f"{pfd}"), ('revents', p.flags(revents & 0xFFFF, X.POLL_EVENTS, None)))))
            printed += 1
        if parts:
            text = "[" + ", ".join(parts) + "]"
    if timeout:
        text += ("left " if not text else ", left ") + timespec_at(p, c, timeout)
    return text or None


def _with_result(p: Printer, c: Call, extra: str | None) -> None:
    if extra is not None:
        c.ret_text = f"{signed(c.rval, 64)} ({extra})"


@syscall("poll")
def poll(p: Printer, c: Call) -> Generator[str, None, None]:
    yield _poll_entry(p, c) + str(signed(c.args[2], 32))
    _with_result(p, c, _poll_result(p, c, 0))
    yield ""


@syscall("ppoll")
def ppoll(p: Printer, c: Call) -> Generator[str, None, None]:
    size = c.args[4]
    yield p.args((f"{_poll_entry(p, c)}{timespec_at(p, c, c.args[2])}", sigset_at(p, c, c.args[3], size), f"{size}"))
    _with_result(p, c, _poll_result(p, c, c.args[2]))
    yield ""


# ---------------------------------------------------------------- select / pselect6

_FD_SET_NAMES = ("in", "out", "except")


def _nfds(p: Printer, c: Call) -> tuple[int, int]:
    """The fd count strace walks (clamped like the kernel) and the bytes of each fd_set it reads."""
    nfds = max(signed(c.args[0], 32), 0)
    nfds = min(nfds, 1024 * 1024)
    return nfds, ((nfds + 7) // 8 + p.lay.WORD - 1) & -p.lay.WORD


#: fd_sets are read in whole longs (strace's current_wordsize): 4 bytes on i386 (decode/i386.py).
#: old select(2)'s argument block (i386 ``select``, strace's oldselect): five longs.


def _set_bits(data: bytes, nfds: int) -> list[int]:
    bits = int.from_bytes(data, "little")
    return [i for i in range(nfds) if bits >> i & 1]


def _select_entry(p: Printer, c: Call, timeout_printer: Callable[[Call, int], str]) -> str:
    nfds, size = _nfds(p, c)
    parts = [str(signed(c.args[0], 32))]
    for i in range(3):
        address = c.args[i + 1]
        data = p.fetch(c, address, size, True) if size > 0 else None
        if data is None:
            parts.append(addr(address))
        else:
            parts.append("[" + " ".join(p.fd(c, n) for n in _set_bits(data, nfds)) + "]")
    parts.append(timeout_printer(c, c.args[4]))
    return ", ".join(parts)


def _select_result(p: Printer, c: Call, timeout_printer: Callable[[Call, int], str]) -> None:
    """decode_select at exit: ``(in [3], out [4], left {...})`` or ``(Timeout)``, quirks included."""
    if c.failed:
        return
    ready = signed(c.rval, 32)
    if ready == 0:
        c.ret_text = f"{signed(c.rval, 64)} (Timeout)"
        return
    nfds, size = _nfds(p, c)
    text = ""
    sep = ""
    for i in range(3):
        if ready <= 0:
            break
        address = c.args[i + 1]
        data = c.mem.read(address, size) if address and size > 0 else None
        if data is None:
            continue
        first = True
        for j in _set_bits(data, nfds):
            if first:
                text += f"{sep}{_FD_SET_NAMES[i]} [{j}"
                first = False
                sep = ", "
            else:
                text += f" {j}"
            ready -= 1
            if ready == 0:
                break
        if text:  # strace closes the bracket whenever anything was printed so far
            text += "]"
    if c.args[4]:
        text += f"{sep}left {timeout_printer(c, c.args[4])}"
    c.ret_text = f"{signed(c.rval, 64)} ({text})"


@syscall("select", "_newselect")
def select(p: Printer, c: Call) -> Generator[str, None, None]:
    yield _select_entry(p, c, partial(timeval_at, p))
    _select_result(p, c, partial(timeval_at, p))
    yield ""


@syscall("oldselect")
def oldselect(p: Printer, c: Call) -> Generator[str, None, None]:
    """i386 ``select(82)`` (decode/i386.py binds it to that name): its five arguments are in memory."""
    data = c.mem.read(c.args[0], p.lay.OLDSELECT_ARGS.size)
    if data is None:
        yield addr(c.args[0])
        return
    c.args = p.lay.OLDSELECT_ARGS.unpack(data)
    yield _select_entry(p, c, partial(timeval_at, p))
    _select_result(p, c, partial(timeval_at, p))
    yield ""


#: pselect6's {const sigset_t *ss; size_t ss_len}: two 32-bit words in an i386 tracee (decode/i386.py).


def _kernel_sigset(p: Printer, c: Call, address: int) -> str:
    """print_kernel_sigset: pselect6's ``{sigmask=[USR1], sigsetsize=8}`` pair."""
    data = p.fetch(c, address, p.lay.SIGSET_PAIR.size, True)
    if data is None:
        return addr(address)
    ss, ss_len = p.lay.SIGSET_PAIR.unpack(data)
    return p.struct((('sigmask', sigset_at(p, c, ss, ss_len)), ('sigsetsize', f"{ss_len}")))


@syscall("pselect6")
def pselect6(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.args((_select_entry(p, c, partial(timespec_at, p)), _kernel_sigset(p, c, c.args[5])))
    _select_result(p, c, partial(timespec_at, p))
    yield ""


# ---------------------------------------------------------------- epoll

_EPOLL_EVENT = struct.Struct("<IQ")  # packed on x86_64: 12 bytes
_EPOLL_CTL_DEL = 2


def _epoll_event(p: Printer, data: bytes) -> str:
    events, u64 = _EPOLL_EVENT.unpack(data)
    return (p.struct((('events', p.flags(events, X.EPOLL_EVENTS, 'EPOLL???')), ('data', p.struct((('u32', f"{u64 & 0xFFFFFFFF}"), ('u64', f"{u64}")))))))


@syscall("epoll_create", rval=rv_fd)
def epoll_create(p: Printer, c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("epoll_create1", rval=rv_fd)
def epoll_create1(p: Printer, c: Call) -> str:
    return p.flags(c.args[0] & 0xFFFFFFFF, X.EPOLL_CREATE_FLAGS, "EPOLL_???")


@syscall("epoll_ctl")
def epoll_ctl(p: Printer, c: Call) -> str:
    op = c.args[1] & 0xFFFFFFFF
    op_text = p.xval(op, X.EPOLL_CTL_OPS, "EPOLL_CTL_???")
    ev = c.args[3]
    if op == _EPOLL_CTL_DEL or not ev:
        ev_text = addr(ev)
    else:
        data = p.fetch(c, ev, _EPOLL_EVENT.size, True)
        ev_text = addr(ev) if data is None else _epoll_event(p, data)
    return p.args((p.fd(c, c.args[0]), f"{op_text}", p.fd(c, c.args[2]), f"{ev_text}"))


def _epoll_events_out(p: Printer, c: Call) -> str:
    # A failed call's -1 is a huge element count to strace, whose overflow check prints the address.
    if c.failed:
        return addr(c.args[1])
    return print_array(p, c, c.args[1], c.rval, _EPOLL_EVENT.size, partial(_epoll_event, p))


def _exit_sigset(p: Printer, c: Call, address: int, size: int) -> str:
    """epoll_pwait's sigmask: strace prints it at exit with umoven_or_printaddr, so a failed call shows the pointer."""
    return addr(address) if c.failed else sigset_at(p, c, address, size)


@syscall("epoll_wait")
def epoll_wait(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    yield p.args((_epoll_events_out(p, c), f"{signed(c.args[2], 32)}", f"{signed(c.args[3], 32)}"))


@syscall("epoll_pwait")
def epoll_pwait(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    size = c.args[5]
    yield (p.args((_epoll_events_out(p, c), f"{signed(c.args[2], 32)}", f"{signed(c.args[3], 32)}", _exit_sigset(p, c, c.args[4], size), f"{size}")))


@syscall("epoll_pwait2")
def epoll_pwait2(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    size = c.args[5]
    timeout = addr(c.args[3]) if c.failed else timespec_at(p, c, c.args[3])
    yield (p.args((_epoll_events_out(p, c), f"{signed(c.args[2], 32)}", f"{timeout}", _exit_sigset(p, c, c.args[4], size), f"{size}")))
