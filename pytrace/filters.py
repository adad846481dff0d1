"""``-e trace=`` and ``-e signal=`` expressions, parsed exactly as strace 6.1 accepts them.

A trace set compiles to one bytearray per personality (index = syscall
number), so the backend's per-stop question "is this call traced?" is a
single index operation.  Each ``-e trace=`` replaces the previous one, as in
strace; each leading ``!`` inverts the whole set again; empty tokens are skipped
but a set with no tokens at all is an error.
"""

from __future__ import annotations

import ctypes

from pytrace.records import dataclass, field  # not dataclasses: start-up cost
from pytrace.tables import subcalls, syscall_classes
from pytrace.tables.syscalls import table

PERSONALITIES = ("x86_64", "i386")
_PERS_SUFFIX = {"64": "x86_64", "32": "i386", "x32": None}


class FilterError(ValueError):
    """A bad expression; the message is strace's wording without the program name.

    ``usage_hint``: strace words this one with error_msg_and_help, so the CLI
    adds its "Try '... -h'" line (an unknown personality designator).
    """

    def __init__(self, message: str, usage_hint: bool = False) -> None:
        super().__init__(message)
        self.usage_hint = usage_hint


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
    """Parse the value of ``-e trace=`` as strace's qualify_syscall_tokens; raises FilterError.

    Every leading ``!`` inverts the set; ``all`` and ``none`` are special only as
    the whole expression (as a token, ``none`` is an unknown name and ``all``
    the class of every named call).
    """
    s = SyscallSet()
    body = expr
    while body.startswith("!"):
        s.negated = not s.negated
        body = body[1:]
    if body == "none":
        return s
    if body == "all":
        s.everything = True
        return s
    tokens = [t for t in body.split(",") if t]
    if not tokens:
        raise FilterError(f"invalid system call '{expr}'")
    for tok in tokens:
        if not _add_token(s, tok):
            raise FilterError(f"invalid system call '{tok}'")
    return s


def _add_token(s: SyscallSet, tok: str) -> bool:
    """Add one token's numbers to ``s``; False if it names nothing (strace's qualify_syscall).

    ``?`` prefixes only make a token that names nothing acceptable; the
    ``@64``/``@32``/``@x32`` suffix is split off first, so it applies to classes,
    regexes and numbers too.  pytrace traces no x32 tracees: an ``@x32`` token
    is checked against the x86_64 table (x32 has the same names and numbers, bar
    a few obsolete calls) and selects nothing.
    """
    optional = False
    while tok.startswith("?"):
        tok = tok[1:]
        optional = True
    pers: tuple[str, ...] = PERSONALITIES
    base = tok
    if "@" in tok:
        base, _, suffix = tok.rpartition("@")
        if suffix not in _PERS_SUFFIX:
            raise FilterError(f"incorrect personality designator '{suffix}' in qualification '{tok}'", True)
        target = _PERS_SUFFIX[suffix]
        pers = (target,) if target else ()
    if base == "all" and pers == PERSONALITIES:
        # No numbers needed: bitmap() fills "all" itself, so the set parses no table
        # (the i386 one is read only if an i386 tracee shows up).
        s.everything = True
        return True
    rx = _PosixRegex(base[1:]) if base.startswith("/") else None
    found = False
    for p in pers:
        found |= _add_pers(base, p, rx, s.numbers[p])
    if not pers:
        found = _add_pers(base, "x86_64", rx, set())
    return found or optional


def _add_pers(base: str, p: str, rx: _PosixRegex | None, out: set[int]) -> bool:
    """One personality's part of a token (qualify_syscall_pers): number, /regex, class or name."""
    if base[:1].isdigit():
        if not (base.isascii() and base.isdigit()):
            return False
        nr = int(base)
        if nr in table(p).by_nr or nr <= table(p).max_nr:
            out.add(nr)
            return True
        return False
    if rx is not None:
        hits = {nr for nr, info in table(p).by_nr.items() if rx.search(info.name)}
        hits |= {nr for name, nr in subcalls.pseudo_numbers(p).items() if rx.search(name)}
        out |= hits
        return bool(hits)
    if base == "all":  # the legacy class of every named call
        out |= set(table(p).by_nr) | set(subcalls.pseudo_numbers(p).values())
        return True
    cls = syscall_classes.normalize_class(base)
    if cls is not None:
        out |= syscall_classes.members(p, cls)
        return True
    found = False
    # i386: strace's subcall slot too (``sendto`` names 369 and socketcall's 511).
    for nr in (getattr(table(p).by_name.get(base), "nr", None), subcalls.pseudo_numbers(p).get(base)):
        if nr is not None:
            out.add(nr)
            found = True
    return found


def _signal_number(tok: str) -> int | None:
    """strace's sigstr_to_uint: 0..255, or a name of signame() with or without SIG, any case.

    Only the names strace prints count (SIGRTMIN, SIGRT_1...), not libc's aliases
    (SIGCLD, SIGIOT, SIGPOLL, SIGRTMAX).
    """
    if tok[:1].isdigit():
        if not (tok.isascii() and tok.isdigit()) or int(tok) > 255:
            return None
        return int(tok)
    from pytrace.tables import xlat

    name = tok.upper()
    if name.startswith("SIG"):
        name = name[3:]
    for num, sname in sorted(xlat.SIGNAL_NAMES.items()):
        if sname.upper() == "SIG" + name:
            return num
    return None


def parse_signal_set(expr: str) -> frozenset[int]:
    """Parse ``-e signal=`` as strace's qualify_tokens; returns the signal numbers whose lines are shown.

    Every leading ``!`` inverts; ``all``/``none`` only as the whole expression.
    """
    negate = False
    body = expr
    while body.startswith("!"):
        negate = not negate
        body = body[1:]
    chosen: set[int] = set()
    if body == "all":
        chosen = set(range(256))
    elif body != "none":
        tokens = [t for t in body.split(",") if t]
        if not tokens:
            raise FilterError(f"invalid signal '{expr}'")
        for tok in tokens:
            n = _signal_number(tok)
            if n is None:
                raise FilterError(f"invalid signal '{tok}'")
            chosen.add(n)
    if negate:
        chosen = set(range(256)) - chosen
    return frozenset(chosen)
