"""The fallback decoder: print each argument by its kernel type from the syscall table.

strace has a hand-written printer for every syscall; until pytrace has one
too, the argument types the generator took from tracefs give output that is
usually identical (ints signed, sizes unsigned, modes octal, pointers as
addresses, path arguments as strings) and always has the right arity.
"""

from __future__ import annotations

from functools import cache

from pytrace.decode.format import MASK64, addr, signed
from pytrace.decode.printer import hexnum
from pytrace.tables.syscalls import table

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_PATH_NAMES = frozenset(
    ("filename", "pathname", "path", "oldname", "newname", "oldpath", "newpath", "specialfile",
     "dev_name", "dir_name", "new_root", "put_old", "library", "uservaddr_path")
)
_UNSIGNED_32 = frozenset(("unsigned int", "unsigned", "u32", "uid_t", "gid_t", "const __u32", "__u32", "qid_t"))
_SIGNED_32 = frozenset(("int", "pid_t", "const clockid_t", "clockid_t", "key_t", "timer_t", "mqd_t", "const int"))
_UNSIGNED_64 = frozenset(("unsigned long", "size_t", "u64", "__u64", "aio_context_t", "loff_t", "off_t", "long unsigned int"))
_SIGNED_64 = frozenset(("long", "ssize_t", "__s64", "s64"))
_OCTAL = frozenset(("umode_t", "mode_t"))
# Integer arguments strace prints as descriptors (printfd / print_dirfd) or as process ids (printpid).
_FD_NAMES = frozenset(("fd", "ufd", "epfd", "fanotify_fd", "fd_in", "fd_out", "fdin", "fdout", "in_fd", "out_fd",
                       "fs_fd", "group_fd", "initrd_fd", "kernel_fd", "pidfd", "ruleset_fd", "oldfd", "newfd",
                       "mountdirfd"))
_DIRFD_NAMES = frozenset(("dfd", "olddfd", "newdfd", "from_dfd", "to_dfd"))
_PID_NAMES = frozenset(("pid", "tgid"))
_NUMBERED_FDS = frozenset(("close_range",))  # an fd range: strace prints the bounds as numbers


def _arg_printer(ctype: str, name: str) -> Callable[[Printer, Call, int], str]:
    if "*" not in ctype:
        # The printer's fd/pid printers: -y/-Y chose them when it was built.
        if name in _FD_NAMES:
            return lambda p, c, v: p.fd(c, v)
        if name in _DIRFD_NAMES:
            return lambda p, c, v: p.dirfd(c, v)
        if name in _PID_NAMES:
            return lambda p, c, v: p.pid(v)
    if "*" in ctype:
        if "char" in ctype and name in _PATH_NAMES and "const" in ctype:
            return lambda p, c, v: p.path(c, v)
        return lambda p, c, v: addr(v)
    if ctype in _OCTAL:
        return lambda p, c, v: f"{v & 0xFFFFFFFF:#o}" if v & 0xFFFFFFFF else "000"
    if ctype in _SIGNED_32:
        return lambda p, c, v: str(signed(v, 32))
    if ctype in _UNSIGNED_32:
        return lambda p, c, v: str(v & 0xFFFFFFFF)
    if ctype in _SIGNED_64:
        return lambda p, c, v: str(signed(v, 64))
    if ctype in _UNSIGNED_64:
        return lambda p, c, v: str(v)
    return lambda p, c, v: f"{v:#x}"


@cache
def _printers(arch: str, nr: int) -> tuple[Callable[[Printer, Call, int], str], ...] | None:
    info = table(arch).by_nr.get(nr)
    if info is None:
        return None
    plain = info.name in _NUMBERED_FDS
    return tuple(_arg_printer(t, "" if plain else n) for t, n in zip(info.arg_types, info.arg_names, strict=True))


def generic(p: Printer, c: Call) -> str:
    printers = _printers(c.arch, c.nr)
    if printers is None:  # a number strace does not know: six raw words
        return ", ".join(f"{a:#x}" if a else "0" for a in c.args)  # C's %#lx: plain 0
    if not printers:  # getpid, getppid, sched_yield...: nothing to join
        return ""
    return ", ".join([show(p, c, a) for show, a in zip(printers, c.args, strict=False)])


def printargs(p: Printer, c: Call) -> str:
    """strace's printargs (``-e raw=``): every argument the syscall takes, as ``%#lx`` (zero is ``0``)."""
    from pytrace.decode.obsolete import PRINTARGS_NARGS

    info = table(c.arch).by_nr.get(c.nr)
    n = PRINTARGS_NARGS.get(c.name) or (len(info.arg_types) if info is not None else len(c.args))
    return ", ".join(hexnum(a & MASK64) for a in c.args[:n])


def rv_raw(p: Printer, c: Call) -> str:
    """The return value of a raw-printed syscall: ``%#lx``."""
    return hexnum(c.rval & MASK64)
