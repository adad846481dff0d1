"""-P PATH (--trace-path): show only the syscalls that touch PATH, as strace 6.1's src/pathtrace.c decides.

A call matches when one of its path arguments (read from the tracee) equals a
selected path byte for byte, or one of its fd arguments resolves, through
/proc/PID/fd (a " (deleted)" suffix stripped as for -y), to one.  Which
arguments of which syscall are looked at is the ``pathtrace`` column of the
syscall tables (transcribed from pathtrace_match_set into
scripts/syscall_facts.tsv): syscalls outside strace's %file, %desc and %network
classes never match; those without a rule fall back to their first argument, a
path for %file calls and an fd otherwise.  Each -P
path is stored as given and, when it differs, as realpath() made it, which
strace announces: ``Requested path "x" resolved into "/abs/x"``.

The check runs at syscall entry, in the CallFilterSink that wraps the sinks,
so it costs nothing when -P is not used.
"""

from __future__ import annotations

import os
import struct
from functools import cache
from typing import TYPE_CHECKING

from pytrace.decode.fds import fd_path
from pytrace.decode.format import quote, signed
from pytrace.tables import xlat as X
from pytrace.tables.subcalls import pseudo_names
from pytrace.tables.syscall_classes import members
from pytrace.tables.syscalls import table

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from pytrace.events import Call

_PATH_MAX = 4096
_MAX_FDS = 1024 * 1024

# The pathtrace column: ";"-joined "fd" / "path" / "-" by position, "none" (nothing to test: the call
# makes a new fd), or "@NAME" for the layouts checked by a function of _SPECIAL.  i386 socketcall
# subcalls reach here already unpacked (tables/subcalls.py) and take the rule of the direct syscall
# of that name; one left as socketcall (an unknown call number, an unreadable array) falls to
# strace's %desc default: its first argument, the call number, as an fd.
_WORD = {"x86_64": 8, "i386": 4, "aarch64": 8}
_K = {name: value for value, name in X.PATHTRACE_CONSTANTS}


def select_paths(paths: Iterable[str], quiet: bool, message: Callable[[str], None]) -> frozenset[bytes]:
    """pathtrace_select_set for each -P: the path itself and, if different, its realpath (announced)."""
    chosen: set[bytes] = set()
    for text in paths:
        raw = os.fsencode(text)
        chosen.add(raw)
        if not raw:  # realpath(3) fails on "": nothing more to store or announce
            continue
        try:
            real = os.fsencode(os.path.realpath(raw, strict=True))
        except (OSError, ValueError):
            continue
        if real == raw:
            continue
        if not quiet:
            message(f"Requested path {quote(raw)} resolved into {quote(real)}")
        chosen.add(real)
    return frozenset(chosen)


class PathMatcher:
    """``matcher(call) -> bool``: whether a syscall touches one of the selected paths."""

    def __init__(self, paths: frozenset[bytes]) -> None:
        self.paths = paths

    def __call__(self, c: Call) -> bool:
        check = self._checks(c.arch).get(c.nr)
        return check is not None and check(self, c)

    # -- the two primitives -------------------------------------------------------

    def fd(self, c: Call, value: int) -> bool:
        """fdmatch: the fd's path (/proc/PID/fd) is selected."""
        got = fd_path(c.pid, signed(value, 32))
        return got is not None and got[0] in self.paths

    def upath(self, c: Call, address: int) -> bool:
        """upathmatch: the NUL-terminated string at ``address`` (at most PATH_MAX) is selected."""
        got = c.mem.read_cstring(address, _PATH_MAX) if address else None
        return got is not None and got[1] and got[0] in self.paths

    # -- per-syscall checks ---------------------------------------------------------

    @staticmethod
    @cache
    def _checks(arch: str) -> dict[int, Callable[[PathMatcher, Call], bool]]:
        """syscall number -> check, for the %file/%desc/%network calls of ``arch`` (others never match)."""
        tab = table(arch)
        file_calls = members(arch, "file") if arch in ("x86_64", "i386") else frozenset()
        fd_calls = (members(arch, "desc") | members(arch, "network")) if arch in ("x86_64", "i386") else frozenset()
        out: dict[int, Callable[[PathMatcher, Call], bool]] = {}
        subcalls = pseudo_names(arch)  # i386 socketcall subcalls: strace's slots (500 + call), TN
        for nr in file_calls | fd_calls:
            info = tab.by_nr.get(nr)
            if info is None:
                name = subcalls.get(nr)
                if name is None:
                    continue
                info = tab.by_name.get(name)
            rule = info.pathtrace if info is not None else ""
            if not rule:
                rule = "path" if nr in file_calls else "fd"
            out[nr] = _SPECIAL[rule[1:]] if rule.startswith("@") else _positional(
                () if rule == "none" else tuple(rule.split(";")))
        return out


def _positional(shape: tuple[str, ...]) -> Callable[[PathMatcher, Call], bool]:
    """A check for calls whose fds and paths are plain arguments at fixed positions (fds first, as strace)."""
    fds = tuple(i for i, kind in enumerate(shape) if kind == "fd")
    paths = tuple(i for i, kind in enumerate(shape) if kind == "path")

    def check(m: PathMatcher, c: Call) -> bool:
        args = c.args
        return any(m.fd(c, args[i]) for i in fds) or any(m.upath(c, args[i]) for i in paths)

    return check


def _fanotify_mark(m: PathMatcher, c: Call) -> bool:
    """x, x, 64-bit mask, fd, path: the mask takes two argument slots on 32-bit arches."""
    n = 3 if _WORD.get(c.arch, 8) == 8 else 4
    return m.fd(c, c.args[n]) or m.upath(c, c.args[n + 1])


def _select_sets(m: PathMatcher, c: Call, args: tuple[int, ...]) -> bool:
    """match_xselect_args: any fd set in the three fd_set arguments."""
    nfds = signed(args[0], 32)
    if nfds <= 0:
        return False
    nfds = min(nfds, _MAX_FDS)
    word = _WORD.get(c.arch, 8)
    size = (((nfds + 7) // 8) + word - 1) & -word
    for address in args[1:4]:
        if not address:
            continue
        data = c.mem.read(address, size)
        if data is None:
            continue
        bits = int.from_bytes(data, "little")
        fd = 0
        while bits and fd < nfds:
            if bits & 1 and m.fd(c, fd):
                return True
            bits >>= 1
            fd += 1
    return False


def _select(m: PathMatcher, c: Call) -> bool:
    return _select_sets(m, c, c.args)


def _indirect(c: Call, count: int) -> tuple[int, ...] | None:
    """fetch_indirect_syscall_args: ``count`` words of arguments stored at the first argument (i386)."""
    data = c.mem.read(c.args[0], 4 * count)
    return None if data is None else struct.unpack(f"<{count}I", data)


def _oldselect(m: PathMatcher, c: Call) -> bool:
    args = _indirect(c, 5)
    return args is not None and _select_sets(m, c, args)


def _old_mmap(m: PathMatcher, c: Call) -> bool:
    args = _indirect(c, 6)
    return args is not None and m.fd(c, args[4])


def _poll(m: PathMatcher, c: Call) -> bool:
    """Every pollfd's fd, until the array cannot be read."""
    start, nfds = c.args[0], min(c.args[1] & 0xFFFFFFFF, _MAX_FDS)
    if nfds == 0 or start + 8 * nfds > 1 << 64:
        return False
    for i in range(nfds):
        data = c.mem.read(start + 8 * i, 8)
        if data is None:
            break
        if m.fd(c, struct.unpack_from("<i", data)[0]):
            return True
    return False


def _fsconfig(m: PathMatcher, c: Call) -> bool:
    """FSCONFIG_SET_PATH(_EMPTY): path and dirfd; FSCONFIG_SET_FD: the fd."""
    cmd = c.args[1] & 0xFFFFFFFF
    if cmd in (_K["FSCONFIG_SET_PATH"], _K["FSCONFIG_SET_PATH_EMPTY"]):
        return m.fd(c, c.args[4]) or m.upath(c, c.args[3])
    if cmd == _K["FSCONFIG_SET_FD"]:
        return m.fd(c, c.args[4])
    return False


_SPECIAL: dict[str, Callable[[PathMatcher, Call], bool]] = {
    "fanotify_mark": _fanotify_mark,
    "select": _select,
    "oldselect": _oldselect,
    "old_mmap": _old_mmap,
    "poll": _poll,
    "fsconfig": _fsconfig,
}
