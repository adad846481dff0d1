"""``-e trace=`` and ``-e signal=`` expressions, parsed exactly as strace 6.1 accepts them.

A trace set compiles to one bytearray per personality (index = syscall
number), so the backend's per-stop question "is this call traced?" is a
single index operation.  Each ``-e trace=`` replaces the previous one, as in
strace; a leading ``!`` negates the whole set; empty tokens are skipped but a
set with no tokens at all is an error.
"""

from __future__ import annotations

import ctypes
import signal as _signal

from pytrace.records import dataclass, field  # not dataclasses: start-up cost
from pytrace.tables import subcalls, syscall_classes
from pytrace.tables.syscalls import table

PERSONALITIES = ("x86_64", "i386")
_PERS_SUFFIX = {"64": "x86_64", "32": "i386", "x32": None}


class FilterError(ValueError):
    """A bad expression; the message is strace's wording without the program name."""


@dataclass
class SyscallSet:
    """Which syscall numbers are traced, per personality."""

    numbers: dict[str, set[int]] = field(default_factory=lambda: {p: set() for p in PERSONALITIES})
    negated: bool = False
    everything: bool = False  # ``all``: also numbers beyond the table

    def bitmap(self, arch: str) -> tuple[bytearray, bool]:
        """(bitmap over the table's numbers, whether numbers past the table are traced: always)."""
        tab = table(arch)
        pseudo = subcalls.pseudo_numbers(arch)  # i386: strace's slots for send, recv... past the table
        size = max(tab.max_nr, *pseudo.values()) + 1 if pseudo else tab.max_nr + 1
        if self.everything:  # "all": holes in the table too (strace prints them as syscall_0x...)
            bm = bytearray(b"\x01") * size
        else:
            bm = bytearray(size)
            for nr in self.numbers.get(arch, ()):
                if nr < size:
                    bm[nr] = 1
        if self.negated:
            bm = bytearray(1 - b for b in bm)
        # Numbers strace has no entry for (holes in the table, numbers past it) keep its default
        # flags whatever the set says (qual_flags): they are always traced, printed as syscall_0x...
        for nr in (n for n, name in enumerate(tab.names) if name is None):
            bm[nr] = 1
        if pseudo:
            subcall_slots = set(pseudo.values())
            for nr in range(tab.max_nr + 1, size):
                if nr not in subcall_slots:
                    bm[nr] = 1
        return bm, True

    def is_all(self) -> bool:
        if self.negated:
            return not any(self.numbers.values()) and not self.everything
        return self.everything


class _PosixRegex:
    """libc regcomp/regexec, because strace matches ``/REGEX`` with POSIX EREs and words errors by regerror."""

    _libc = ctypes.CDLL(None)
    _REG_EXTENDED, _REG_NOSUB = 1, 8

    def __init__(self, pattern: str) -> None:
        self._buf = ctypes.create_string_buffer(256)  # regex_t is 64 bytes on glibc; generous
        rc = self._libc.regcomp(self._buf, pattern.encode(), self._REG_EXTENDED | self._REG_NOSUB)
        if rc:
            msg = ctypes.create_string_buffer(256)
            self._libc.regerror(rc, self._buf, msg, len(msg))
            raise FilterError(f"regcomp: {pattern}: {msg.value.decode()}")

    def search(self, text: str) -> bool:
        return self._libc.regexec(self._buf, text.encode(), 0, None, 0) == 0

    def __del__(self) -> None:
        self._libc.regfree(self._buf)


def _all_numbers(arch: str) -> set[int]:
    return set(table(arch).by_nr)


def parse_trace_set(expr: str) -> SyscallSet:
    """Parse the value of ``-e trace=``; raises FilterError("invalid system call '...'")."""
    s = SyscallSet()
    body = expr
    if body.startswith("!"):
        s.negated = True
        body = body[1:]
    tokens = [t for t in body.split(",") if t]
    if not tokens:
        raise FilterError(f"invalid system call '{expr}'")
    for tok in tokens:
        _add_token(s, tok)
    return s


def _add_token(s: SyscallSet, tok: str) -> None:
    optional = tok.startswith("?")
    name = tok[1:] if optional else tok
    if name == "all":
        # No numbers needed: bitmap() fills "all" itself, so the default trace set parses no table
        # (the i386 one is read only if an i386 tracee shows up).
        s.everything = True
        return
    if name == "none":
        for p in PERSONALITIES:
            s.numbers[p].clear()
        s.everything = False
        return
    cls = syscall_classes.normalize_class(name)
    if cls is not None:
        for p in PERSONALITIES:
            s.numbers[p] |= syscall_classes.members(p, cls)
        return
    if name.startswith("/"):
        rx = _PosixRegex(name[1:])
        for p in PERSONALITIES:
            s.numbers[p] |= {nr for nr, info in table(p).by_nr.items() if rx.search(info.name)}
            s.numbers[p] |= {nr for name, nr in subcalls.pseudo_numbers(p).items() if rx.search(name)}
        return
    pers = PERSONALITIES
    base = name
    if "@" in name:
        base, _, suffix = name.rpartition("@")
        if suffix not in _PERS_SUFFIX:
            if optional:
                return
            raise FilterError(f"invalid system call '{tok}'")
        target = _PERS_SUFFIX[suffix]
        pers = (target,) if target else ()
    found = False
    if base.isdigit():
        nr = int(base)
        for p in pers:
            if nr in table(p).by_nr or nr <= table(p).max_nr:
                s.numbers[p].add(nr)
                found = True
    else:
        for p in pers:
            # i386: strace's subcall slot too (``sendto`` names 369 and socketcall's 511).
            for nr in (getattr(table(p).by_name.get(base), "nr", None), subcalls.pseudo_numbers(p).get(base)):
                if nr is not None:
                    s.numbers[p].add(nr)
                    found = True
    if not found and not optional:
        raise FilterError(f"invalid system call '{tok}'")


def _signal_number(tok: str) -> int | None:
    if tok.isdigit():
        return int(tok)
    name = tok.upper()
    if not name.startswith("SIG"):
        name = "SIG" + name
    try:
        return int(_signal.Signals[name])
    except KeyError:
        pass
    from pytrace.tables import xlat

    for num, sname in xlat.SIGNAL_NAMES.items():
        if sname == name:
            return num
    return None


def parse_signal_set(expr: str) -> frozenset[int]:
    """Parse ``-e signal=``; returns the set of signal numbers whose lines are shown."""
    negate = expr.startswith("!")
    body = expr[1:] if negate else expr
    tokens = [t for t in body.split(",") if t]
    if not tokens:
        raise FilterError(f"invalid signal '{expr}'")
    chosen: set[int] = set()
    for tok in tokens:
        if tok == "all":
            chosen |= set(range(1, 256))
        elif tok == "none":
            chosen.clear()
        else:
            n = _signal_number(tok)
            if n is None:
                raise FilterError(f"invalid signal '{tok}'")
            chosen.add(n)
    if negate:
        chosen = set(range(1, 256)) - chosen
    return frozenset(chosen)
