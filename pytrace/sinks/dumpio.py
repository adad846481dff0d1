"""``-e read=FDS`` / ``-e write=FDS``: strace's hex dumps of the data a call read or wrote.

After the line of a finished call whose first argument is a descriptor in the
set, strace 6.1 (``dumpio``) dumps the buffer: for writes the *requested*
length (``write``, ``pwrite64``, ``send``, ``sendto``, ``mq_timedsend``; the
iovecs of ``writev``, ``pwritev``, ``pwritev2``, ``vmsplice``, ``sendmsg``,
``sendmmsg``) even when the call failed; for reads only on success and only
what was returned (``read``, ``pread64``, ``recv``, ``recvfrom``,
``mq_timedreceive``; ``readv``, ``preadv``, ``preadv2``, ``recvmsg``,
``recvmmsg``).  Each 16 bytes make one line::

     | 00000  68 65 6c 6c 6f 0a                                 hello.           |

(offset in at least 5 hex digits, two groups of eight bytes, then the bytes
as ASCII with ``.`` for anything unprintable); iovec buffers get a
`` * N bytes in buffer I`` header and mmsghdr vectors a
`` = N buffers in vector I`` one.
"""

from __future__ import annotations

import struct

from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from pytrace.events import Call

_INT_MAX = 0x7FFFFFFF


@dataclass(frozen=True)
class FdSet:
    """A set of descriptors as strace's number sets: ``numbers`` XOR ``negated`` (``all`` = negated empty)."""

    numbers: frozenset[int]
    negated: bool = False

    def __contains__(self, fd: int) -> bool:
        return (fd in self.numbers) != self.negated

    def __bool__(self) -> bool:
        return bool(self.numbers) or self.negated


def parse_fd_set(expr: str) -> FdSet:
    """``-e read=`` / ``-e write=`` as strace's qualify_tokens: ``!`` inverts, ``all``/``none``, commas.

    Raises ValueError worded as strace: ``invalid descriptor 'X'``.
    """
    body = expr
    negated = False
    while body.startswith("!"):
        negated = not negated
        body = body[1:]
    if body == "none":
        return FdSet(frozenset(), negated)
    if body == "all":
        return FdSet(frozenset(), not negated)
    numbers: set[int] = set()
    for tok in body.split(","):
        if not tok:
            continue
        if not tok.isdigit() or int(tok) > _INT_MAX:
            raise ValueError(f"invalid descriptor '{tok}'")
        numbers.add(int(tok))
    if not numbers:
        raise ValueError(f"invalid descriptor '{expr}'")
    return FdSet(frozenset(numbers), negated)


# Syscall names (both personalities) by the way their data is found.
_WRITE_BUF = frozenset(("write", "pwrite64", "send", "sendto", "mq_timedsend", "mq_timedsend_time64"))
_WRITE_IOV = frozenset(("writev", "pwritev", "pwritev2", "vmsplice"))
_READ_BUF = frozenset(("read", "pread64", "recv", "recvfrom", "mq_timedreceive", "mq_timedreceive_time64"))
_READ_IOV = frozenset(("readv", "preadv", "preadv2"))
_MMSG = frozenset(("recvmmsg", "recvmmsg_time64"))

_CHUNK = 1 << 16  # strace fetches at most 64 KiB at a time
_UNBOUNDED = (1 << 64) - 1


def dump_io(call: Call, reads: FdSet | None, writes: FdSet | None) -> str:
    """The dump lines strace prints after ``call``'s line, or "" (``dumpio`` in syscall.c)."""
    fd = call.args[0] & 0xFFFFFFFF
    if fd > _INT_MAX:  # a negative int
        return ""
    out: list[str] = []
    name = call.name
    a = call.args
    if writes is not None and fd in writes:
        if name in _WRITE_BUF:
            _dumpstr(call, a[1], a[2], out)
        elif name in _WRITE_IOV:
            _dumpiov(call, a[2], a[1], _UNBOUNDED, out)
        elif name == "sendmsg":
            _dump_msghdr(call, a[1], _UNBOUNDED, out)
        elif name == "sendmmsg":
            _dump_mmsghdr(call, a[1], out)
    if call.error or reads is None or fd not in reads:
        return "".join(out)
    rval = call.rval & _UNBOUNDED
    if name in _READ_BUF:
        _dumpstr(call, a[1], rval, out)
    elif name in _READ_IOV:
        _dumpiov(call, a[2], a[1], rval, out)
    elif name == "recvmsg":
        _dump_msghdr(call, a[1], rval, out)
    elif name in _MMSG:
        _dump_mmsghdr(call, a[1], out)
    return "".join(out)


def _hexdump_line(offset: int, width: int, data: bytes) -> str:
    hexes = [f"{b:02x}" for b in data] + ["  "] * (16 - len(data))
    text = "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in data).ljust(16)
    return f" | {offset:0{width}x}  {' '.join(hexes[:8])}  {' '.join(hexes[8:])}  {text} |\n"


def _dumpstr(call: Call, addr: int, length: int, out: list[str]) -> None:
    """strace's dumpstr: nothing if the first fetch fails, a ``<Cannot fetch ...>`` line if a later one does."""
    if length == 0 or length + 16 > _UNBOUNDED or addr + length > _UNBOUNDED:
        return
    width = 1 + ((length - 1).bit_length() - 1) // 4 if length > 1 << 20 else 5
    pos = 0
    while pos < length:
        fetch = min(length - pos, _CHUNK)
        data = call.mem.read(addr + pos, fetch)
        if data is None:
            if pos:
                s = "" if fetch == 1 else "s"
                out.append(f" | <Cannot fetch {fetch} byte{s} from pid {call.pid} @{addr + pos:#x}>\n")
            return
        for i in range(0, fetch, 16):
            out.append(_hexdump_line(pos + i, width, data[i:i + 16]))
        pos += fetch


def _words(call: Call) -> tuple[int, str]:
    """(word size, struct letter) of the tracee's personality."""
    return (4, "I") if call.arch == "i386" else (8, "Q")


def _dumpiov(call: Call, count: int, addr: int, data_size: int, out: list[str]) -> None:
    """strace's dumpiov_upto: each iovec (up to ``data_size`` bytes in all) with its buffer number."""
    count = count & 0xFFFFFFFF
    if count > _INT_MAX:  # the count is an int in strace: negative means nothing
        return
    word, letter = _words(call)
    raw = call.mem.read(addr, count * 2 * word) if count else b""
    if raw is None:
        return
    fields = struct.unpack(f"<{count * 2}{letter}", raw)
    for i in range(count):
        base, length = fields[2 * i], fields[2 * i + 1]
        length = min(length, data_size)
        if not length:
            break
        data_size -= length
        out.append(f" * {length} bytes in buffer {i}\n")
        _dumpstr(call, base, length, out)


def _msghdr_iov(call: Call, addr: int) -> tuple[int, int] | None:
    """(msg_iov, msg_iovlen) of the struct msghdr at ``addr``."""
    word, letter = _words(call)
    raw = call.mem.read(addr, 4 * word)  # name, namelen (+pad), iov, iovlen
    if raw is None:
        return None
    _, _, iov, iovlen = struct.unpack(f"<4{letter}", raw)
    return iov, iovlen


def _dump_msghdr(call: Call, addr: int, data_size: int, out: list[str]) -> None:
    hdr = _msghdr_iov(call, addr)
    if hdr is not None:
        _dumpiov(call, hdr[1], hdr[0], data_size, out)


def _dump_mmsghdr(call: Call, addr: int, out: list[str]) -> None:
    """strace's dumpiov_in_mmsghdr: ``rval`` messages, each with its msg_len bytes."""
    word, letter = _words(call)
    size = 8 * word if word == 8 else 32  # struct mmsghdr: msghdr (56 / 28 bytes) + msg_len, padded
    count = call.rval & 0xFFFFFFFF
    for i in range(count):
        raw = call.mem.read(addr + i * size, size)
        if raw is None:
            break
        _, _, iov, iovlen = struct.unpack_from(f"<4{letter}", raw)
        msg_len = struct.unpack_from("<I", raw, 7 * word)[0]
        out.append(f" = {iovlen} buffers in vector {i}\n")
        _dumpiov(call, iovlen, iov, msg_len, out)
