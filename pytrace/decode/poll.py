"""poll/ppoll, select/pselect6 and epoll, as strace's poll.c, desc.c and epoll.c print them.

poll and select describe their results in the return text (``= 1 ([{fd=3,
revents=POLLIN}])``, ``= 1 (in [3], left {...})``, ``= 0 (Timeout)``) rather than
in the arguments, so their arguments are all printed at entry and the exit half
only sets ``ret_text``; epoll_wait's events are an output argument printed at exit.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import OPTS, addr, fd, fetch, flags, signed, verbose, xval
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.signal import sigset_at
from pytrace.decode.time import hx, timespec_at, timeval_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.events import Call

MASK64 = (1 << 64) - 1


def print_array(c: Call, start: int, nmemb: int, size: int, element: Callable[[bytes], str]) -> str:
    """print_array: ``[e1, e2, ...]``, cut after -s elements unless -v, ``... /* 0xADDR */`` where memory ends.

    NULL for a null pointer, ``[]`` for no elements, and just the address when the
    first element cannot be read or the array would wrap around memory.
    """
    if not start:
        return "NULL"
    if not nmemb:
        return "[]"
    total = nmemb * size
    if total > MASK64 or start + total > MASK64:
        return addr(start)
    limit = nmemb if OPTS.verbose or nmemb <= OPTS.max_strlen else OPTS.max_strlen
    parts: list[str] = []
    for i in range(nmemb):
        cur = start + i * size
        data = fetch(c, cur, size, True)
        if data is None:
            if i == 0:
                return addr(cur)
            parts.append(f"... /* {addr(cur)} */")
            break
        if i >= limit:
            parts.append("...")
            break
        parts.append(element(data))
    return "[" + ", ".join(parts) + "]"


# ---------------------------------------------------------------- poll / ppoll

_POLLFD = struct.Struct("<ihh")


def _pollfd(c: Call, data: bytes) -> str:
    pfd, events, _ = _POLLFD.unpack(data)
    if pfd < 0:
        return f"{{fd={pfd}}}"
    return f"{{fd={fd(c, pfd)}, events={flags(events & 0xFFFF, X.POLL_EVENTS, 'POLL???')}}}"


def _poll_entry(c: Call) -> str:
    nfds = c.args[1] & 0xFFFFFFFF
    return f"{print_array(c, c.args[0], nfds, _POLLFD.size, lambda data: _pollfd(c, data))}, {nfds}, "


def _poll_result(c: Call, timeout: int) -> str | None:
    """decode_poll_exiting: the ``(...)`` text after the count; None when strace adds nothing."""
    if c.failed:
        return None
    if c.rval == 0:
        return "Timeout"
    if not verbose(c):
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
            if not OPTS.verbose and printed + 1 > OPTS.max_strlen:
                parts.append("...")
                break
            parts.append(f"{{fd={pfd}, revents={flags(revents & 0xFFFF, X.POLL_EVENTS, None)}}}")
            printed += 1
        if parts:
            text = "[" + ", ".join(parts) + "]"
    if timeout:
        text += ("left " if not text else ", left ") + timespec_at(c, timeout)
    return text or None


def _with_result(c: Call, extra: str | None) -> None:
    if extra is not None:
        c.ret_text = f"{signed(c.rval, 64)} ({extra})"


@syscall("poll")
def poll(c: Call) -> Generator[str, None, None]:
    yield _poll_entry(c) + str(signed(c.args[2], 32))
    _with_result(c, _poll_result(c, 0))
    yield ""


@syscall("ppoll")
def ppoll(c: Call) -> Generator[str, None, None]:
    size = c.args[4]
    yield f"{_poll_entry(c)}{timespec_at(c, c.args[2])}, {sigset_at(c, c.args[3], size)}, {size}"
    _with_result(c, _poll_result(c, c.args[2]))
    yield ""


# ---------------------------------------------------------------- select / pselect6

_FD_SET_NAMES = ("in", "out", "except")


def _nfds(c: Call) -> tuple[int, int]:
    """The fd count strace walks (clamped like the kernel) and the bytes of each fd_set it reads."""
    nfds = max(signed(c.args[0], 32), 0)
    nfds = min(nfds, 1024 * 1024)
    return nfds, ((nfds + 7) // 8 + _WORD - 1) & -_WORD


#: fd_sets are read in whole longs (strace's current_wordsize): 4 bytes on i386 (decode/i386.py).
_WORD = 8
#: old select(2)'s argument block (i386 ``select``, strace's oldselect): five longs.
_OLDSELECT_ARGS = struct.Struct("<5Q")


def _set_bits(data: bytes, nfds: int) -> list[int]:
    bits = int.from_bytes(data, "little")
    return [i for i in range(nfds) if bits >> i & 1]


def _select_entry(c: Call, timeout_printer: Callable[[Call, int], str]) -> str:
    nfds, size = _nfds(c)
    parts = [str(signed(c.args[0], 32))]
    for i in range(3):
        address = c.args[i + 1]
        data = fetch(c, address, size, True) if size > 0 else None
        if data is None:
            parts.append(addr(address))
        else:
            parts.append("[" + " ".join(fd(c, n) for n in _set_bits(data, nfds)) + "]")
    parts.append(timeout_printer(c, c.args[4]))
    return ", ".join(parts)


def _select_result(c: Call, timeout_printer: Callable[[Call, int], str]) -> None:
    """decode_select at exit: ``(in [3], out [4], left {...})`` or ``(Timeout)``, quirks included."""
    if c.failed:
        return
    ready = signed(c.rval, 32)
    if ready == 0:
        c.ret_text = f"{signed(c.rval, 64)} (Timeout)"
        return
    nfds, size = _nfds(c)
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
def select(c: Call) -> Generator[str, None, None]:
    yield _select_entry(c, timeval_at)
    _select_result(c, timeval_at)
    yield ""


@syscall("oldselect")
def oldselect(c: Call) -> Generator[str, None, None]:
    """i386 ``select(82)`` (decode/i386.py binds it to that name): its five arguments are in memory."""
    data = c.mem.read(c.args[0], _OLDSELECT_ARGS.size)
    if data is None:
        yield addr(c.args[0])
        return
    c.args = _OLDSELECT_ARGS.unpack(data)
    yield _select_entry(c, timeval_at)
    _select_result(c, timeval_at)
    yield ""


#: pselect6's {const sigset_t *ss; size_t ss_len}: two 32-bit words in an i386 tracee (decode/i386.py).
_SIGSET_PAIR = struct.Struct("<QQ")


def _kernel_sigset(c: Call, address: int) -> str:
    """print_kernel_sigset: pselect6's ``{sigmask=[USR1], sigsetsize=8}`` pair."""
    data = fetch(c, address, _SIGSET_PAIR.size, True)
    if data is None:
        return addr(address)
    ss, ss_len = _SIGSET_PAIR.unpack(data)
    return f"{{sigmask={sigset_at(c, ss, ss_len)}, sigsetsize={ss_len}}}"


@syscall("pselect6")
def pselect6(c: Call) -> Generator[str, None, None]:
    yield f"{_select_entry(c, timespec_at)}, {_kernel_sigset(c, c.args[5])}"
    _select_result(c, timespec_at)
    yield ""


# ---------------------------------------------------------------- epoll

_EPOLL_EVENT = struct.Struct("<IQ")  # packed on x86_64: 12 bytes
_EPOLL_CTL_DEL = 2


def _epoll_event(data: bytes) -> str:
    events, u64 = _EPOLL_EVENT.unpack(data)
    return (f"{{events={flags(events, X.EPOLL_EVENTS, 'EPOLL???')}, "
            f"data={{u32={u64 & 0xFFFFFFFF}, u64={u64}}}}}")


@syscall("epoll_create", rval=rv_fd)
def epoll_create(c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("epoll_create1", rval=rv_fd)
def epoll_create1(c: Call) -> str:
    return flags(c.args[0] & 0xFFFFFFFF, X.EPOLL_CREATE_FLAGS, "EPOLL_???")


@syscall("epoll_ctl")
def epoll_ctl(c: Call) -> str:
    op = c.args[1] & 0xFFFFFFFF
    op_text = xval(op, X.EPOLL_CTL_OPS, "EPOLL_CTL_???")
    ev = c.args[3]
    if op == _EPOLL_CTL_DEL or not ev:
        ev_text = addr(ev)
    else:
        data = fetch(c, ev, _EPOLL_EVENT.size, True)
        ev_text = addr(ev) if data is None else _epoll_event(data)
    return f"{fd(c, c.args[0])}, {op_text}, {fd(c, c.args[2])}, {ev_text}"


def _epoll_events_out(c: Call) -> str:
    # A failed call's -1 is a huge element count to strace, whose overflow check prints the address.
    if c.failed:
        return addr(c.args[1])
    return print_array(c, c.args[1], c.rval, _EPOLL_EVENT.size, _epoll_event)


def _exit_sigset(c: Call, address: int, size: int) -> str:
    """epoll_pwait's sigmask: strace prints it at exit with umoven_or_printaddr, so a failed call shows the pointer."""
    return addr(address) if c.failed else sigset_at(c, address, size)


@syscall("epoll_wait")
def epoll_wait(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c, c.args[0])}, "
    yield f"{_epoll_events_out(c)}, {signed(c.args[2], 32)}, {signed(c.args[3], 32)}"


@syscall("epoll_pwait")
def epoll_pwait(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c, c.args[0])}, "
    size = c.args[5]
    yield (f"{_epoll_events_out(c)}, {signed(c.args[2], 32)}, {signed(c.args[3], 32)}, "
           f"{_exit_sigset(c, c.args[4], size)}, {size}")


@syscall("epoll_pwait2")
def epoll_pwait2(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c, c.args[0])}, "
    size = c.args[5]
    timeout = addr(c.args[3]) if c.failed else timespec_at(c, c.args[3])
    yield (f"{_epoll_events_out(c)}, {signed(c.args[2], 32)}, {timeout}, "
           f"{_exit_sigset(c, c.args[4], size)}, {size}")
