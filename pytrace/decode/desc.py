"""File-descriptor syscalls: read/write and their vectored and positioned forms, close, dup, pipe, lseek, fcntl."""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.file import open_flags
from pytrace.decode.format import OPTS, addr, flags, quote, signed, string_at, xlat
from pytrace.decode.registry import rv_hex, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.events import Call


def fd(v: int) -> str:
    return str(signed(v, 32))


@syscall("read")
def read(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c.args[0])}, "
    buf = addr(c.args[1]) if c.failed else string_at(c, c.args[1], c.rval)
    yield f"{buf}, {c.args[2]}"


@syscall("write")
def write(c: Call) -> str:
    return f"{fd(c.args[0])}, {string_at(c, c.args[1], c.args[2])}, {c.args[2]}"


@syscall("pread64")
def pread64(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c.args[0])}, "
    buf = addr(c.args[1]) if c.failed else string_at(c, c.args[1], c.rval)
    yield f"{buf}, {c.args[2]}, {signed(c.args[3], 64)}"


@syscall("pwrite64")
def pwrite64(c: Call) -> str:
    return f"{fd(c.args[0])}, {string_at(c, c.args[1], c.args[2])}, {c.args[2]}, {signed(c.args[3], 64)}"


_IOVEC = struct.Struct("<QQ")


def iovec_array(c: Call, address: int, count: int, data_limit: int | None) -> str:
    """tprint_iov_upto: ``[{iov_base="...", iov_len=N}, ...]``; ``data_limit`` bytes of contents in all."""
    if not address:
        return "NULL"
    if count <= 0:
        return "[]"
    parts = []
    remaining = data_limit
    for i in range(min(count, 1024)):
        if i >= OPTS.max_strlen:
            parts.append("...")
            break
        raw = c.mem.read(address + i * 16, 16)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(f"... /* {addr(address + i * 16)} */")
            break
        base, length = _IOVEC.unpack(raw)
        show = length if remaining is None else min(length, remaining)
        if remaining is not None:
            remaining -= show
        parts.append(f"{{iov_base={string_at(c, base, show)}, iov_len={length}}}")
    return "[" + ", ".join(parts) + "]"


@syscall("readv")
def readv(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c.args[0])}, "
    vec = addr(c.args[1]) if c.failed else iovec_array(c, c.args[1], c.args[2], c.rval)
    yield f"{vec}, {signed(c.args[2], 32)}"


@syscall("writev")
def writev(c: Call) -> str:
    return f"{fd(c.args[0])}, {iovec_array(c, c.args[1], c.args[2], None)}, {signed(c.args[2], 32)}"


@syscall("preadv")
def preadv(c: Call) -> Generator[str, None, None]:
    yield f"{fd(c.args[0])}, "
    vec = addr(c.args[1]) if c.failed else iovec_array(c, c.args[1], c.args[2], c.rval)
    yield f"{vec}, {signed(c.args[2], 32)}, {signed(c.args[3], 64)}"


@syscall("pwritev")
def pwritev(c: Call) -> str:
    return (f"{fd(c.args[0])}, {iovec_array(c, c.args[1], c.args[2], None)}, {signed(c.args[2], 32)}, "
            f"{signed(c.args[3], 64)}")


@syscall("close", "fsync", "fdatasync", "fchdir", "syncfs")
def close(c: Call) -> str:
    return fd(c.args[0])


@syscall("dup")
def dup(c: Call) -> str:
    return fd(c.args[0])


@syscall("dup2")
def dup2(c: Call) -> str:
    return f"{fd(c.args[0])}, {fd(c.args[1])}"


@syscall("dup3")
def dup3(c: Call) -> str:
    return f"{fd(c.args[0])}, {fd(c.args[1])}, {flags(c.args[2] & 0xFFFFFFFF, X.DUP3_FLAGS)}"


def _fd_pair(c: Call, address: int) -> str:
    data = None if c.failed else c.mem.read(address, 8)
    if data is None:
        return addr(address)
    a, b = struct.unpack("<ii", data)
    return f"[{a}, {b}]"


@syscall("pipe")
def pipe(c: Call) -> Generator[str, None, None]:
    yield ""
    yield _fd_pair(c, c.args[0])


@syscall("pipe2")
def pipe2(c: Call) -> Generator[str, None, None]:
    yield ""
    yield f"{_fd_pair(c, c.args[0])}, {flags(c.args[1] & 0xFFFFFFFF, X.PIPE_FLAGS)}"


@syscall("lseek")
def lseek(c: Call) -> str:
    whence = xlat(c.args[2] & 0xFFFFFFFF, X.SEEK_WHENCE) or f"{c.args[2] & 0xFFFFFFFF:#x} /* SEEK_??? */"
    return f"{fd(c.args[0])}, {signed(c.args[1], 64)}, {whence}"


@syscall("ftruncate")
def ftruncate(c: Call) -> str:
    return f"{fd(c.args[0])}, {signed(c.args[1], 64)}"


# ---------------------------------------------------------------- fcntl

_FLOCK = struct.Struct("<hhqqi4x")


def _flock(c: Call, address: int) -> str:
    data = c.mem.read(address, _FLOCK.size)
    if data is None:
        return addr(address)
    ltype, whence, start, length, pid = _FLOCK.unpack(data)
    t = xlat(ltype, X.FLOCK_TYPES) if hasattr(X, "FLOCK_TYPES") else None
    w = xlat(whence, X.SEEK_WHENCE)
    return (f"{{l_type={t or ltype}, l_whence={w or whence}, l_start={start}, l_len={length}"
            + (f", l_pid={pid}" if c.exited and not c.failed else "") + "}")


_F_DUPFD, _F_GETFD, _F_SETFD, _F_GETFL, _F_SETFL = 0, 1, 2, 3, 4
_F_GETLK, _F_SETLK, _F_SETLKW = 5, 6, 7
_F_DUPFD_CLOEXEC = 1030
_F_GET_SEALS = 1034


def _fcntl_ret(c: Call) -> str:
    cmd = c.args[1] & 0xFFFFFFFF
    if cmd == _F_GETFD:
        return f"{c.rval:#x} (flags {flags(c.rval, X.FD_FLAGS)})" if c.rval else "0"
    if cmd == _F_GETFL:
        return f"{c.rval:#x} (flags {open_flags(c.rval)})"
    if cmd == _F_GET_SEALS and c.rval and hasattr(X, "SEAL_FLAGS"):
        return f"{c.rval:#x} (seals {flags(c.rval, X.SEAL_FLAGS)})"
    return str(signed(c.rval, 64))


@syscall("fcntl", rval=_fcntl_ret)
def fcntl(c: Call) -> Generator[str, None, None]:
    cmd = c.args[1] & 0xFFFFFFFF
    name = xlat(cmd, X.FCNTL_CMDS) or f"{cmd:#x} /* F_??? */"
    head = f"{fd(c.args[0])}, {name}"
    arg = c.args[2]
    if cmd in (_F_GETFD, _F_GETFL, _F_GET_SEALS, 9, 1025, 1032, 1031, 11):  # no argument
        yield head
        yield ""
    elif cmd == _F_SETFD:
        yield f"{head}, {flags(arg & 0xFFFFFFFF, X.FD_FLAGS)}"
        yield ""
    elif cmd == _F_SETFL:
        yield f"{head}, {open_flags(arg)}"
        yield ""
    elif cmd in (_F_SETLK, _F_SETLKW, 37, 38):
        yield f"{head}, {_flock(c, arg)}"
        yield ""
    elif cmd in (_F_GETLK, 36):
        yield f"{head}, "
        yield addr(arg) if c.failed else _flock(c, arg)
    elif cmd == 1033 and hasattr(X, "SEAL_FLAGS"):  # F_ADD_SEALS
        yield f"{head}, {flags(arg & 0xFFFFFFFF, X.SEAL_FLAGS)}"
        yield ""
    elif cmd in (_F_DUPFD, _F_DUPFD_CLOEXEC, 8, 1031, 1024, 1026, 1031):
        yield f"{head}, {signed(arg, 32)}"
        yield ""
    else:
        yield f"{head}, {arg:#x}" if arg > 9 else f"{head}, {arg}"
        yield ""


_ = quote  # re-exported for decoders that quote raw bytes
__all__ = ["fd", "iovec_array", "rv_hex"]
