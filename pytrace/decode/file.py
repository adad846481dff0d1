"""File-name syscalls: open/openat/creat flags and modes, access, *at paths, links, dirs (strace's open.c, access.c, ...)."""

from __future__ import annotations

from pytrace.decode.format import (
    MASK64,
    addr,
    signed,
    sprintflags,
    xlat,
)
from pytrace.decode.printer import hexnum, styled_whole
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_O_CREAT = 0o100
_O_TMPFILE = 0o20000000


def mode(value: int) -> str:
    """print_numeric_umode_t: ``%#03o`` of an ``unsigned short`` (0644, 004, and 000 for zero)."""
    return ll_mode(value & 0xFFFF)


def ll_mode(value: int) -> str:
    """print_numeric_ll_umode_t: ``%#03llo`` of the whole value (openat2's how.mode is 64-bit)."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


@styled_whole(hexnum, 0xFFFFFFFF)
def open_flags(p: Printer, value: int) -> str:
    """tprint_open_modes: the access mode by name, then the other flags in table order."""
    return _open_modes(value & 0xFFFFFFFF)


@styled_whole(hexnum, MASK64)  # openat2's how.flags
def open_flags64(p: Printer, value: int) -> str:
    """tprint_open_modes64: open_flags of a 64-bit value (openat2's ``how.flags`` is a u64)."""
    return _open_modes(value)


def _open_modes(value: int) -> str:
    """The names of both; -X restyles the two printers above, never this (their twins stay abbreviated)."""
    acc = xlat(value & 3, X.OPEN_ACCMODE)
    rest = value & ~3 if acc is not None else value
    head = acc if acc is not None else ""
    if not rest:
        return head or "0"
    tail = sprintflags(rest, X.OPEN_FLAGS)
    return f"{head}|{tail}" if head else tail


# The F_GETFL annotation ``(flags O_RDWR|O_LARGEFILE)``: abbreviated whatever -X says, as in strace.
def sprint_open_modes(p: Printer, value: int) -> str:
    """The F_GETFL annotation ``(flags O_RDWR|O_LARGEFILE)``: abbreviated whatever -X says, as in strace."""
    return open_flags(p.abbrev, value)


def _open_tail(p: Printer, flag_value: int, mode_value: int) -> str:
    text = open_flags(p, flag_value)
    if flag_value & _O_CREAT or (flag_value & _O_TMPFILE) == _O_TMPFILE:
        text += p.tail((mode(mode_value),))
    return text


@syscall("open", rval=rv_fd)
def open_(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), _open_tail(p, c.args[1], c.args[2])))


@syscall("openat", rval=rv_fd)
def openat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), _open_tail(p, c.args[2], c.args[3])))


@syscall("creat", rval=rv_fd)
def creat(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), mode(c.args[1])))


def access_mode(p: Printer, value: int) -> str:
    value &= 0xFFFFFFFF
    # printflags over a table whose F_OK is 0: each part styled by -X like any flag set.
    return p.print_xlat(0, "F_OK") if value == 0 else p.flags(value, X.ACCESS_MODES, "?_OK")


@syscall("access")
def access(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), access_mode(p, c.args[1])))


@syscall("faccessat")
def faccessat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), access_mode(p, c.args[2])))


def at_flags(p: Printer, value: int) -> str:
    return p.flags(value & 0xFFFFFFFF, X.AT_FLAGS, "AT_???")


@syscall("faccessat2")
def faccessat2(p: Printer, c: Call) -> str:
    fl = p.flags(c.args[3] & 0xFFFFFFFF, X.FACCESSAT_FLAGS, "AT_???")
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), access_mode(p, c.args[2]), f"{fl}"))


@syscall("readlink")
def readlink(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.path(c, c.args[0]),))
    buf = addr(c.args[1]) if c.failed else p.string_at(c, c.args[1], c.rval)
    yield p.args((f"{buf}", f"{c.args[2]}"))


@syscall("readlinkat")
def readlinkat(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.dirfd(c, c.args[0]), p.path(c, c.args[1])))
    buf = addr(c.args[2]) if c.failed else p.string_at(c, c.args[2], c.rval)
    yield p.args((f"{buf}", f"{c.args[3]}"))


@syscall("getcwd")
def getcwd(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    if c.failed:
        buf = addr(c.args[0])
    else:
        got = c.mem.read_cstring(c.args[0], max(c.rval - 1, 0)) if c.args[0] else None

        buf = addr(c.args[0]) if got is None else p.quote(got[0]) + ("" if got[1] else "...")
    yield p.args((f"{buf}", f"{c.args[1]}"))


@syscall("chdir", "chroot", "rmdir", "unlink", "acct", "swapoff", "umount")
def one_path(p: Printer, c: Call) -> str:
    return p.path(c, c.args[0])


@syscall("mkdir", "chmod")
def path_mode(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), mode(c.args[1])))


@syscall("mkdirat", "fchmodat")
def at_path_mode(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), mode(c.args[2])))


@syscall("fchmod")
def fchmod(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), mode(c.args[1])))


@syscall("unlinkat")
def unlinkat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), at_flags(p, c.args[2])))


@syscall("rename", "link", "symlink")
def two_paths(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), p.path(c, c.args[1])))


@syscall("renameat")
def renameat(p: Printer, c: Call) -> str:
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), p.dirfd(c, c.args[2]), p.path(c, c.args[3])))


@syscall("renameat2")
def renameat2(p: Printer, c: Call) -> str:
    fl = p.flags(c.args[4] & 0xFFFFFFFF, X.RENAME_FLAGS, "RENAME_??")
    return p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), p.dirfd(c, c.args[2]), p.path(c, c.args[3]), f"{fl}"))


@syscall("linkat")
def linkat(p: Printer, c: Call) -> str:
    return (p.args((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), p.dirfd(c, c.args[2]), p.path(c, c.args[3]), at_flags(p, c.args[4]))))


@syscall("symlinkat")
def symlinkat(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), p.dirfd(c, c.args[1]), p.path(c, c.args[2])))


@syscall("truncate")
def truncate(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), f"{c.args[1]}"))  # unsigned long length: strace's PRINT_VAL_U


# chown, lchown, fchown and fchownat (uids printed as strace's printuid): chown.py.


def _umask_rval(p: Printer, c: Call) -> str:
    """RVAL_OCTAL, C's "%#03llo" of the whole value: 022, 000, 007, and 0200000 for an injected retval."""
    value = c.rval & 0xFFFFFFFFFFFFFFFF
    return (f"0{value:o}" if value else "0").rjust(3, "0")


@syscall("umask", rval=_umask_rval)
def umask(p: Printer, c: Call) -> str:
    return mode(c.args[0])


# ---------------------------------------------------------------- extended attributes (strace's xattr.c)

_XATTR_SIZE_MAX = 65536


def _xattr_value(p: Printer, c: Call, address: int, size: int) -> str:
    """print_xattr_val: the value as a string (a trailing NUL dropped), or the address when too big/failed."""
    if size > _XATTR_SIZE_MAX:
        return addr(address)
    if not address:
        return "NULL"

    shown = min(size, p.opts.max_strlen)
    data = c.mem.read(address, shown) if shown else b""
    if data is None:
        return addr(address)
    if data and data[-1] == 0:  # QUOTE_OMIT_TRAILING_0: string_quote then reports no truncation,
        return p.quote(data[:-1])   # so a value cut at -s after a NUL gets no "..." either (strace 6.1)
    return p.quote(data) + ("..." if size > p.opts.max_strlen else "")


def _xattr_name(p: Printer, c: Call, address: int) -> str:

    return p.cstring(c, address)


def _target(p: Printer, c: Call, by_fd: bool) -> str:
    return p.fd(c, c.args[0]) if by_fd else p.path(c, c.args[0])


def _getxattr(p: Printer, c: Call, by_fd: bool) -> Generator[str, None, None]:
    yield p.args((_target(p, c, by_fd), _xattr_name(p, c, c.args[1])))
    size = c.rval & 0xFFFFFFFFFFFFFFFF
    yield p.tail((_xattr_value(p, c, c.args[2], size), f"{c.args[3]}"))


@syscall("getxattr", "lgetxattr")
def getxattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _getxattr(p, c, False)


@syscall("fgetxattr")
def fgetxattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _getxattr(p, c, True)


def _setxattr(p: Printer, c: Call, by_fd: bool) -> str:
    return (p.args((_target(p, c, by_fd), _xattr_name(p, c, c.args[1]), _xattr_value(p, c, c.args[2], c.args[3]), f"{c.args[3]}", p.flags(c.args[4] & 0xFFFFFFFF, X.XATTR_FLAGS, 'XATTR_???'))))


@syscall("setxattr", "lsetxattr")
def setxattr(p: Printer, c: Call) -> str:
    return _setxattr(p, c, False)


@syscall("fsetxattr")
def fsetxattr(p: Printer, c: Call) -> str:
    return _setxattr(p, c, True)


def _listxattr(p: Printer, c: Call, by_fd: bool) -> Generator[str, None, None]:
    yield p.head((_target(p, c, by_fd),))
    size = c.args[2]
    if not size or c.failed:
        lst = addr(c.args[1])
    else:
        lst = p.string_at(c, c.args[1], c.rval)
    yield p.args((f"{lst}", f"{size}"))


@syscall("listxattr", "llistxattr")
def listxattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _listxattr(p, c, False)


@syscall("flistxattr")
def flistxattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _listxattr(p, c, True)


@syscall("removexattr", "lremovexattr")
def removexattr(p: Printer, c: Call) -> str:
    return p.args((p.path(c, c.args[0]), _xattr_name(p, c, c.args[1])))


@syscall("fremovexattr")
def fremovexattr(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), _xattr_name(p, c, c.args[1])))


@syscall("fadvise64")
def fadvise64(p: Printer, c: Call) -> str:
    advice = p.xval(c.args[3] & 0xFFFFFFFF, getattr(X, "FADVISE_ADVICE", ()), "POSIX_FADV_???")
    return p.args((p.fd(c, c.args[0]), f"{signed(c.args[1], 64)}", f"{c.args[2]}", f"{advice}"))
