"""ltrace's filter expressions for -e and -x (upstream ltrace(1), FILTER SPECIFICATIONS).

A filter is a chain of rules ``[+-][SYMBOL][@LIBRARY]``: ``malloc+free``,
``*@libc.so*``, ``-exit``, ``str*@MAIN``, ``/^mem/@/libc/``.  Patterns are globs;
``/RE/`` makes a regular expression (``/x@y/`` is ``/x/@/y/``); a library
pattern is matched against the SONAME (the file name for objects without one),
against the path when it starts with ``/``, and ``MAIN`` means the program
itself.  Rules are applied in order: ``+`` rules add the symbols they match,
``-`` rules take them away; a chain that starts with ``-`` starts from
``*@*``.  Several -e options form several filters; a symbol is traced when any
of them selects it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fnmatch import fnmatchcase


class Rule:
    """One ``[+-]SYMBOL@LIBRARY`` of a chain (a plain class: records' per-class work is start-up cost)."""

    __slots__ = ("add", "sym", "lib", "text")

    def __init__(self, add: bool, sym: Callable[[str], bool], lib: Callable[[str, str, bool], bool],
                 text: str) -> None:
        self.add = add
        self.sym = sym
        self.lib = lib  # (soname, path, is_main)
        self.text = text


def _glob_or_re(pat: str, is_re: bool) -> Callable[[str], bool]:
    if is_re:
        rx = re.compile(pat)
        return lambda s: rx.search(s) is not None
    if pat == "*":  # every name (the default -e @MAIN): no glob to compile
        return lambda s: True
    return lambda s: fnmatchcase(s, pat)


def _lib_matcher(pat: str, is_re: bool) -> Callable[[str, str, bool], bool]:
    if not is_re and pat == "MAIN":
        return lambda soname, path, is_main: is_main
    if pat == "*" and not is_re:
        return lambda soname, path, is_main: True
    m = _glob_or_re(pat, is_re)
    if not is_re and pat.startswith("/"):
        return lambda soname, path, is_main: m(path)
    return lambda soname, path, is_main: m(soname)


def parse(expr: str) -> list[Rule]:
    """One -e / -x argument -> its rules, in order."""
    if expr.startswith("!"):  # old ltrace syntax for a leading '-'
        expr = "-" + expr[1:]
    rules: list[Rule] = []
    if expr.startswith("-"):
        rules.append(Rule(True, lambda s: True, lambda *_: True, "*@*"))
    add = True
    pos = 0
    if expr[:1] in "+-" and expr:
        add = expr[0] == "+"
        pos = 1
    while pos <= len(expr):
        # One rule runs to the next '+' or '-' that is outside /regex/ delimiters.
        end = pos
        in_re = False
        while end < len(expr):
            ch = expr[end]
            if ch == "/" and (end == pos or expr[end - 1] in "@" or in_re):
                in_re = not in_re
            elif ch in "+-" and not in_re:
                break
            end += 1
        text = expr[pos:end]
        if text:
            rules.append(_rule(add, text))
        if end >= len(expr):
            break
        add = expr[end] == "+"
        pos = end + 1
    return rules


def _rule(add: bool, text: str) -> Rule:
    sym, _, lib = text.partition("@")
    sym_re = lib_re = False
    if sym.startswith("/") and not sym.endswith("/") and lib.endswith("/"):
        sym, lib = sym[1:], "/" + lib  # /x@y/ is /x/@/y/
    if len(sym) >= 2 and sym.startswith("/") and sym.endswith("/"):
        sym, sym_re = sym[1:-1], True
    if len(lib) >= 2 and lib.startswith("/") and lib.endswith("/"):
        lib, lib_re = lib[1:-1], True
    sym = sym or "*"
    lib = lib or "*"
    sym_m = re.compile(f"^(?:{sym})$").search if sym_re else None
    return Rule(add, (lambda s: sym_m(s) is not None) if sym_m else _glob_or_re(sym, False),
                _lib_matcher(lib, lib_re), text)


class Filter:
    """Several -e (or -x) arguments: a symbol is selected if any one of them selects it."""

    def __init__(self, exprs: list[str]) -> None:
        self.chains = [parse(e) for e in exprs]

    def __bool__(self) -> bool:
        return bool(self.chains)

    def matches(self, name: str, soname: str, path: str, is_main: bool) -> bool:
        for rules in self.chains:
            selected = False
            for r in rules:
                if r.add == selected:
                    continue
                if r.lib(soname, path, is_main) and r.sym(name):
                    selected = r.add
            if selected:
                return True
        return False

    def may_match_library(self, soname: str, path: str, is_main: bool) -> bool:
        """Whether any adding rule could select a symbol of this object (saves reading its symbols)."""
        return any(r.add and r.lib(soname, path, is_main) for rules in self.chains for r in rules)


#: -e usdt:FILTER selects USDT probes (usdt_trace.py), not library calls.
USDT_PREFIX = "usdt:"


def split_exprs(exprs: list[str]) -> tuple[list[str], list[str]]:
    """-e arguments -> (library-call filters, USDT filters without their ``usdt:``)."""
    calls = [e for e in exprs if not e.startswith(USDT_PREFIX)]
    return calls, [e[len(USDT_PREFIX):] for e in exprs if e.startswith(USDT_PREFIX)]
