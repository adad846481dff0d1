"""File-descriptor syscalls: read/write and their vectored and positioned forms, close, dup, pipe, lseek, fcntl."""

from __future__ import annotations

import struct

from pytrace.decode.file import open_flags, sprint_open_modes
from pytrace.decode.format import (
    MASK64,
    addr,
    fd,
    print_array,
    quote,
    signed,
    xlat,
)
from pytrace.decode.registry import rv_fd, rv_hex, syscall
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call


@syscall("read")
def read(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    buf = addr(c.args[1]) if c.failed else p.string_at(c, c.args[1], c.rval)
    yield p.args((f"{buf}", f"{c.args[2]}"))


@syscall("write")
def write(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.string_at(c, c.args[1], c.args[2]), f"{c.args[2]}"))


@syscall("pread64")
def pread64(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    buf = addr(c.args[1]) if c.failed else p.string_at(c, c.args[1], c.rval)
    yield p.args((f"{buf}", f"{c.args[2]}", f"{signed(c.args[3], 64)}"))


@syscall("pwrite64")
def pwrite64(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.string_at(c, c.args[1], c.args[2]), f"{c.args[2]}", f"{signed(c.args[3], 64)}"))




def iovec_array(p: Printer, c: Call, address: int, count: int, data_limit: int | None) -> str:
    """tprint_iov_upto: ``[{iov_base="...", iov_len=N}, ...]``; ``data_limit`` bytes of contents in all."""
    if not address:
        return "NULL"
    if count <= 0:
        return "[]"
    if address + count * p.lay.IOVEC.size > MASK64:  # print_array: a vector that would wrap memory
        return addr(address)
    parts = []
    remaining = data_limit
    limit = count if p.opts.verbose or count <= p.opts.max_strlen else p.opts.max_strlen
    for i in range(min(count, 1024)):
        raw = p.fetch(c, address + i * p.lay.IOVEC.size, p.lay.IOVEC.size, True)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(f"... /* {addr(address + i * p.lay.IOVEC.size)} */")
            break
        if i >= limit:  # print_array reads the element before it abbreviates
            parts.append("...")
            break
        base, length = p.lay.IOVEC.unpack(raw)
        show = length if remaining is None else min(length, remaining)
        if remaining is not None:
            remaining -= show
        parts.append(p.struct((('iov_base', p.string_at(c, base, show)), ('iov_len', f"{length}"))))
    return "[" + ", ".join(parts) + "]"


def iov_addrs(p: Printer, c: Call, address: int, count: int) -> str:
    """tprint_iov with IOV_DECODE_ADDR: ``[{iov_base=0x..., iov_len=N}, ...]``, even for a failed call."""

    def one(raw: bytes) -> str:
        base, length = p.lay.IOVEC.unpack(raw)
        return p.struct((('iov_base', addr(base)), ('iov_len', f"{length}")))

    return print_array(p, c, address, count, p.lay.IOVEC.size, one)


@syscall("readv")
def readv(p: Printer, c: Call) -> Generator[str, None, None]:
    """A failed call's vector is still printed, with addresses only (strace's IOV_DECODE_ADDR)."""
    yield p.head((p.fd(c, c.args[0]),))
    vec = iov_addrs(p, c, c.args[1], c.args[2]) if c.failed else iovec_array(p, c, c.args[1], c.args[2], c.rval)
    yield p.args((f"{vec}", f"{c.args[2]}"))  # unsigned long iovcnt: strace's %lu


@syscall("writev")
def writev(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), iovec_array(p, c, c.args[1], c.args[2], None), f"{c.args[2]}"))


@syscall("preadv")
def preadv(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    vec = iov_addrs(p, c, c.args[1], c.args[2]) if c.failed else iovec_array(p, c, c.args[1], c.args[2], c.rval)
    yield p.args((f"{vec}", f"{c.args[2]}", f"{signed(c.args[3], 64)}"))


@syscall("pwritev")
def pwritev(p: Printer, c: Call) -> str:
    return (p.args((p.fd(c, c.args[0]), iovec_array(p, c, c.args[1], c.args[2], None), f"{c.args[2]}", f"{signed(c.args[3], 64)}")))


@syscall("close", "fsync", "fdatasync", "fchdir", "syncfs")
def close(p: Printer, c: Call) -> str:
    return p.fd(c, c.args[0])


@syscall("dup", rval=rv_fd)
def dup(p: Printer, c: Call) -> str:
    return p.fd(c, c.args[0])


@syscall("dup2", rval=rv_fd)
def dup2(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.fd(c, c.args[1])))


@syscall("dup3", rval=rv_fd)
def dup3(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.fd(c, c.args[1]), p.flags(c.args[2] & 0xFFFFFFFF, X.DUP3_FLAGS, 'O_???')))


def fd_pair(p: Printer, c: Call, address: int) -> str:
    """decode_pair_fd: a two-element print_array, so -s 0/1 and a pair at a mapping's end abbreviate it."""
    if c.failed:
        return addr(address)
    return print_array(p, c, address, 2, 4, lambda data: p.fd(c, int.from_bytes(data, "little", signed=True)))


@syscall("pipe")
def pipe(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    yield fd_pair(p, c, c.args[0])


@syscall("pipe2")
def pipe2(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    yield p.args((fd_pair(p, c, c.args[0]), p.flags(c.args[1] & 0xFFFFFFFF, X.PIPE_FLAGS, 'O_???')))


@syscall("lseek")
def lseek(p: Printer, c: Call) -> str:
    whence = p.xval(c.args[2] & 0xFFFFFFFF, X.SEEK_WHENCE, "SEEK_???")
    return p.args((p.fd(c, c.args[0]), f"{signed(c.args[1], 64)}", f"{whence}"))


@syscall("_llseek")
def llseek(p: Printer, c: Call) -> Generator[str, None, None]:
    """i386 _llseek: the offset in two 32-bit halves, the resulting 64-bit offset stored at arg 3."""
    a = c.args
    yield p.head((p.fd(c, a[0]), f"{signed((a[1] & 0xFFFFFFFF) << 32 | (a[2] & 0xFFFFFFFF), 64)}"))
    data = p.fetch(c, a[3], 8)
    result = addr(a[3]) if data is None else f"[{struct.unpack('<Q', data)[0]}]"
    yield p.args((f"{result}", p.xval(a[4] & 0xFFFFFFFF, X.SEEK_WHENCE, 'SEEK_???')))


@syscall("ftruncate")
def ftruncate(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), f"{c.args[1]}"))  # unsigned long length: strace's PRINT_VAL_U


# ---------------------------------------------------------------- fcntl

# x86_64 struct flock: l_type, l_whence (short), 4 bytes of padding, l_start, l_len (off_t), l_pid, padding.
# struct flock64 of the OFD and (fcntl64) F_*LK64 commands: the same on x86_64; i386 swaps in its own
# 32-bit struct flock and packed struct flock64 (decode/i386.py).
# Command numbers by name, from the generated table (strace's fcntlcmds).
_F = {name: value for value, name in X.FCNTL_CMDS}


def _flock(p: Printer, c: Call, address: int, getlk: bool, layout: struct.Struct) -> str:
    """print_struct_flock64: l_pid only for the F_*GETLK results."""
    data = c.mem.read(address, layout.size) if address else None
    if data is None:
        return addr(address)
    ltype, whence, start, length, pid = layout.unpack(data)
    t = p.xval(ltype & 0xFFFF, X.FLOCK_TYPES, "F_???")
    w = p.xval(whence & 0xFFFF, X.SEEK_WHENCE, "SEEK_???")
    text = f"{{l_type={t}, l_whence={w}, l_start={start}, l_len={length}"
    return text + (f", l_pid={pid}}}" if getlk else "}")


def _hx(value: int) -> str:
    """C's ``%#x`` (zero is ``0``)."""
    return f"{value:#x}" if value else "0"


def _owner_ex(p: Printer, c: Call, address: int) -> str:
    data = c.mem.read(address, 8) if address else None
    if data is None:
        return addr(address)
    otype, owner = struct.unpack("<ii", data)
    otype &= 0xFFFFFFFF
    # A thread or process owner is a pid (-Y names it), a process group is not.
    who = p.pid(owner) if xlat(otype, X.F_OWNER_TYPES) in ("F_OWNER_TID", "F_OWNER_PID") else owner
    return p.struct((('type', p.xval(otype, X.F_OWNER_TYPES, 'F_OWNER_???')), ('pid', f"{who}")))


def _fcntl_ret(p: Printer, c: Call) -> str:
    """The annotated results: ``0x1 (flags FD_CLOEXEC)``, ``0x8002 (flags O_RDWR|...)``, ``10 (SIGUSR1)``."""
    cmd = c.args[1] & 0xFFFFFFFF
    rv = c.rval & 0xFFFFFFFFFFFFFFFF
    if cmd == _F["F_GETFD"] and rv:
        return f"{rv:#x} (flags {p.flags(rv, X.FD_FLAGS)})"
    if cmd == _F["F_GETFL"]:
        return f"{_hx(rv)} (flags {sprint_open_modes(p, rv)})"
    if cmd == _F["F_GET_SEALS"] and rv:
        return f"{rv:#x} (seals {p.flags(rv, X.SEAL_FLAGS)})"
    if cmd == _F["F_GETLEASE"]:
        name = xlat(rv, X.FLOCK_TYPES)
        return f"{_hx(rv)} ({name})" if name else _hx(rv)
    if cmd == _F["F_GETSIG"] and rv:
        from pytrace.decode.signal import signame

        return f"{rv} ({signame(rv)})"
    if cmd in (_F["F_DUPFD"], _F["F_DUPFD_CLOEXEC"]):
        return rv_fd(p, c)
    if cmd == _F["F_GETOWN"] and signed(c.rval, 32) > 0:  # RVAL_TGID (-Y names it); a process group is not
        return p.pid(c.rval)
    return str(signed(c.rval, 64))


#: The commands whose argument points to a struct flock or f_owner_ex: the only ones that read memory.
_FCNTL_READS = frozenset(_F[name] for name in (
    "F_GETLK", "F_SETLK", "F_SETLKW", "F_GETLK64", "F_SETLK64", "F_SETLKW64", "F_OFD_GETLK", "F_OFD_SETLK",
    "F_OFD_SETLKW", "F_GETOWN_EX", "F_SETOWN_EX") if name in _F)


def _fcntl_reads(args: tuple[int, ...]) -> bool:
    return (args[1] & 0xFFFFFFFF) in _FCNTL_READS


@syscall("fcntl", "fcntl64", rval=_fcntl_ret, reads=_fcntl_reads)
def fcntl(p: Printer, c: Call) -> Generator[str, None, None]:
    """print_fcntl: the argument by command; the F_*GETLK and F_GETOWN_EX results are printed at exit."""
    cmd = c.args[1] & 0xFFFFFFFF
    name = p.xval(cmd, X.FCNTL_CMDS, "F_???")
    head = p.args((p.fd(c, c.args[0]), f"{name}"))
    arg = c.args[2]
    F = _F
    if cmd in (F["F_GETFD"], F["F_GETFL"], F["F_GET_SEALS"], F["F_GETOWN"], F["F_GETLEASE"], F["F_GETSIG"],
               F["F_GETPIPE_SZ"]):
        yield head
        yield ""
    elif cmd in (F["F_GETLK"], F["F_OFD_GETLK"]) or (cmd == F["F_GETLK64"] and c.name == "fcntl64"):
        yield head
        yield p.tail((f"{addr(arg) if c.failed else _flock(p, c, arg, True, p.lay.FLOCK if cmd == F['F_GETLK'] else p.lay.FLOCK64)}",))
    elif cmd == F["F_GETOWN_EX"]:
        yield head
        yield p.tail((f"{addr(arg) if c.failed else _owner_ex(p, c, arg)}",))
    else:
        if cmd == F["F_SETFD"]:
            text = p.flags(arg & 0xFFFFFFFF, X.FD_FLAGS, "FD_???")  # strace: printflags of an unsigned int
        elif cmd == F["F_SETFL"]:
            text = open_flags(p, arg)
        elif cmd in (F["F_SETOWN"], F["F_SETPIPE_SZ"], F["F_DUPFD"], F["F_DUPFD_CLOEXEC"]):
            text = str(signed(arg, 64)) if cmd != F["F_SETOWN"] else p.pid(arg)
        elif cmd in (F["F_SETLK"], F["F_SETLKW"]):
            text = _flock(p, c, arg, False, p.lay.FLOCK)
        elif cmd in (F["F_OFD_SETLK"], F["F_OFD_SETLKW"]) or (
                cmd in (F["F_SETLK64"], F["F_SETLKW64"]) and c.name == "fcntl64"):
            text = _flock(p, c, arg, False, p.lay.FLOCK64)
        elif cmd == F["F_SETOWN_EX"]:
            text = _owner_ex(p, c, arg)
        elif cmd == F["F_NOTIFY"]:
            text = p.flags(arg, getattr(X, "NOTIFY_FLAGS", ()), "DN_???")
        elif cmd == F["F_SETLEASE"]:
            text = p.xval(arg, X.FLOCK_TYPES, "F_???")
        elif cmd == F["F_ADD_SEALS"]:
            text = p.flags(arg, X.SEAL_FLAGS, "F_SEAL_???")
        elif cmd == F["F_SETSIG"]:
            from pytrace.decode.signal import printsignal

            text = printsignal(p, arg)
        else:
            text = _hx(arg)
        yield p.args((f"{head}", f"{text}"))
        yield ""


@syscall("flock")
def flock(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.flags(c.args[1] & 0xFFFFFFFF, X.FLOCK_OPS, 'LOCK_???')))


_ = quote  # re-exported for decoders that quote raw bytes
__all__ = ["fd", "iovec_array", "rv_hex"]

