#!/usr/bin/env python3
"""Generate ``pytrace/tables/tips.py``: strace 6.1's ``--tips`` texts and its speech-bubble art.

Why generate: ``--tips`` must print exactly what strace prints, and the tips,
the mascot (Der Strauss) and the bubble's borders are data in strace's
``src/strauss.c``.  Typing them by hand would invite typos nobody notices (and
strace's own quirks, such as two adjacent string literals concatenated without
a space, must be kept); extracting them from the source keeps them strace's.

Getting the source (Debian 12; needs a ``deb-src`` line in the apt sources)::

    mkdir -p /tmp/src && cd /tmp/src && apt-get source strace   # -> /tmp/src/strace-6.1/src/strauss.c

Command (from the repository root)::

    python3 scripts/gen_tips.py /tmp/src/strace-6.1/src/strauss.c [--strace /usr/bin/strace | --define NAME ...]

strauss.c picks some tips with ``#ifdef ENABLE_STACKTRACE`` / ``USE_DEMANGLE`` /
``ENABLE_SECONTEXT`` (what the binary was built with).  By default the
generator uses Debian 12's build (stack traces with demangling, no SELinux);
``--strace BINARY`` reads the set from ``BINARY -V`` ("Optional features
enabled: ..."), ``--define NAME`` (repeatable) gives it explicitly.  The macros
used are written into the generated header.

How: the file is run through a tiny preprocessor (``#ifdef``/``#ifndef``/
``#if defined``/``#else``/``#endif``, line continuations), tokenized (comments
dropped, string literals decoded with C's escapes, adjacent literals joined as
the compiler joins them), and the initializers of ``strauss``,
``tips_tricks_tweaks``, ``tip_top``, ``tip_bottom``, ``tip_left`` and
``tip_right`` plus the ``MAX_TIP_LINES`` enum constant are read.  Anything
unexpected (an unknown directive in an active region, a non-string element, a
tip longer than MAX_TIP_LINES, non-ASCII text) stops the generator with an
error instead of writing a wrong table.

Output: a Python module of tuples of str; a tip's tuple holds exactly the
initializers strace gives it (C pads the row with NULL up to MAX_TIP_LINES,
and strace's printer treats NULL and "" differently, so the length matters).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = REPO_ROOT / "pytrace" / "tables" / "tips.py"
# Debian 12's strace 6.1: "Optional features enabled: stack-trace=libunwind stack-demangle m32-mpers mx32-mpers".
DEBIAN_DEFINES = ("ENABLE_STACKTRACE", "USE_DEMANGLE")
# strace -V feature words -> the strauss.c macros they mean.
FEATURE_MACROS = {"stack-trace": "ENABLE_STACKTRACE", "stack-demangle": "USE_DEMANGLE", "secontext": "ENABLE_SECONTEXT"}


class GenError(Exception):
    """strauss.c does not look as expected: refuse rather than write a wrong table."""


def preprocess(text: str, defines: set[str]) -> str:
    """Keep the lines of the active #ifdef branches; directives become blank lines."""
    text = text.replace("\\\n", "")
    out: list[str] = []
    stack: list[tuple[bool, bool]] = []  # (this branch active, some branch of this #if already taken)
    for line in text.split("\n"):
        active = all(a for a, _ in stack)
        m = re.match(r"\s*#\s*(\w+)\s*(.*?)\s*$", line)
        if not m:
            out.append(line if active else "")
            continue
        directive, rest = m[1], m[2]
        if directive in ("ifdef", "ifndef"):
            cond = (rest in defines) == (directive == "ifdef")
            stack.append((cond, cond))
        elif directive == "if":
            dm = re.fullmatch(r"(!?)\s*defined\s*\(?\s*(\w+)\s*\)?", rest)
            if dm is None:
                if active:
                    raise GenError(f"unsupported #if expression: {line.strip()!r}")
                stack.append((False, True))
            else:
                cond = (dm[2] in defines) != bool(dm[1])
                stack.append((cond, cond))
        elif directive == "else":
            if not stack:
                raise GenError("#else without #if")
            _, taken = stack[-1]
            stack[-1] = (not taken, True)
        elif directive == "endif":
            if not stack:
                raise GenError("#endif without #if")
            stack.pop()
        elif directive in ("include", "define", "undef", "pragma", "error", "warning") or not active:
            pass  # nothing that shapes the tables we read
        else:
            raise GenError(f"unsupported directive in an active region: {line.strip()!r}")
        out.append("")
    if stack:
        raise GenError("unterminated #if")
    return "\n".join(out)


_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<char>'(?:[^'\\\n]|\\.)+')
  | (?P<word>[A-Za-z_0-9]+)
  | (?P<punct>.)
""", re.VERBOSE | re.DOTALL)

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
                   "\\": "\\", '"': '"', "'": "'", "?": "?"}


def c_string(literal: str) -> str:
    """The text of one C string literal (quotes included), escapes decoded."""
    body = literal[1:-1]

    def unescape(m: re.Match[str]) -> str:
        esc = m[1]
        if esc[0] in "01234567":
            return chr(int(esc, 8))
        if esc[0] == "x":
            return chr(int(esc[1:], 16))
        if esc in _SIMPLE_ESCAPES:
            return _SIMPLE_ESCAPES[esc]
        raise GenError(f"unknown escape \\{esc} in {literal}")

    return re.sub(r"\\([0-7]{1,3}|x[0-9A-Fa-f]+|.)", unescape, body)


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        assert kind is not None
        if kind in ("ws", "comment"):
            continue
        tokens.append((kind, m[0]))
    return tokens


def _parse_value(tokens: list[tuple[str, str]], i: int) -> tuple[Any, int]:
    """One initializer at tokens[i]: a brace list (-> list) or adjacent string literals (-> str)."""
    kind, text = tokens[i]
    if text == "{":
        items: list[Any] = []
        i += 1
        while tokens[i][1] != "}":
            value, i = _parse_value(tokens, i)
            items.append(value)
            if tokens[i][1] == ",":
                i += 1
            elif tokens[i][1] != "}":
                raise GenError(f"expected ',' or '}}' in an initializer, got {tokens[i][1]!r}")
        return items, i + 1
    if kind == "string":
        parts = []
        while tokens[i][0] == "string":  # "a" "b" is one literal "ab", as the compiler joins them
            parts.append(c_string(tokens[i][1]))
            i += 1
        return "".join(parts), i
    raise GenError(f"unexpected initializer element {text!r}")


def initializer(tokens: list[tuple[str, str]], name: str) -> Any:
    """The initializer of the declaration of ``name`` (``... name[...] = INIT;``)."""
    for i, (kind, text) in enumerate(tokens):
        if kind != "word" or text != name:
            continue
        j = i + 1
        while tokens[j][1] == "[":  # array dimensions: [] or [MAX_TIP_LINES]
            while tokens[j][1] != "]":
                j += 1
            j += 1
        if tokens[j][1] != "=":
            continue  # a use, not the definition
        value, j = _parse_value(tokens, j + 1)
        if tokens[j][1] != ";":
            raise GenError(f"{name}: expected ';' after the initializer")
        return value
    raise GenError(f"no definition of {name} found")


def _ascii(value: Any, what: str) -> None:
    strings = [value] if isinstance(value, str) else [s for v in value for s in ([v] if isinstance(v, str) else v)]
    for s in strings:
        if not s.isascii() or any(c < " " for c in s):
            raise GenError(f"{what}: unexpected character in {s!r}")


def extract(source: str, defines: set[str]) -> dict[str, Any]:
    tokens = tokenize(preprocess(source, defines))
    m = re.search(r"MAX_TIP_LINES\s*=\s*(\d+)", source)
    if m is None:
        raise GenError("MAX_TIP_LINES not found")
    data: dict[str, Any] = {"MAX_TIP_LINES": int(m[1])}
    for name, key, shape in (("strauss", "STRAUSS", "list"), ("tips_tricks_tweaks", "TIPS", "rows"),
                             ("tip_top", "TIP_TOP", "str"), ("tip_bottom", "TIP_BOTTOM", "str"),
                             ("tip_left", "TIP_LEFT", "list"), ("tip_right", "TIP_RIGHT", "list")):
        value = initializer(tokens, name)
        ok = (isinstance(value, str) if shape == "str" else
              isinstance(value, list) and all(isinstance(v, str) for v in value) if shape == "list" else
              isinstance(value, list) and all(isinstance(r, list) and all(isinstance(v, str) for v in r)
                                              for r in value))
        if not ok or (shape != "str" and not value):
            raise GenError(f"{name}: not a {shape} of strings")
        _ascii(value, name)
        data[key] = value
    for n, row in enumerate(data["TIPS"]):
        if len(row) > data["MAX_TIP_LINES"]:
            raise GenError(f"tip {n} has {len(row)} lines, more than MAX_TIP_LINES")
    if len(data["STRAUSS"]) < 3 or len(data["TIP_LEFT"]) < 2 or len(data["TIP_RIGHT"]) < 2:
        raise GenError("the art is shorter than strace's printer assumes")
    return data


def features_from(strace: str) -> set[str]:
    out = subprocess.run([strace, "-V"], check=True, capture_output=True, text=True).stdout
    m = re.search(r"^Optional features enabled:(.*)$", out, re.MULTILINE)
    if m is None:
        raise GenError(f"{strace} -V does not list its optional features")
    return {FEATURE_MACROS[w.split("=")[0]] for w in m[1].split() if w.split("=")[0] in FEATURE_MACROS}


def render(data: dict[str, Any], defines: set[str]) -> str:
    def tup(items: list[str], indent: str) -> str:
        return "(\n" + "".join(f"{indent}    {s!r},\n" for s in items) + f"{indent})"

    rows = "".join(f"    {tup(row, '    ')},\n" for row in data["TIPS"])
    return f'''"""strace 6.1's ``--tips``: the tips, tricks and tweaks, the mascot and the speech bubble.

GENERATED by scripts/gen_tips.py from strace 6.1's src/strauss.c, built with
{", ".join(sorted(defines)) or "no optional features"} defined (the #ifdef branches strace's binary was built with).
Do not edit by hand: re-run the generator (its docstring says how to fetch the source).
"""

# Rows of tips_tricks_tweaks hold at most this many lines (C pads the rest with NULL).
MAX_TIP_LINES = {data["MAX_TIP_LINES"]}

# Der Strauss, line by line (strauss[]; line 0 is empty).
STRAUSS: tuple[str, ...] = {tup(data["STRAUSS"], "")}

# tips_tricks_tweaks[]: each tuple holds the lines strace initializes; the missing ones are NULL.
TIPS: tuple[tuple[str, ...], ...] = (
{rows})

TIP_TOP = {data["TIP_TOP"]!r}
TIP_BOTTOM = {data["TIP_BOTTOM"]!r}
TIP_LEFT: tuple[str, ...] = {tup(data["TIP_LEFT"], "")}
TIP_RIGHT: tuple[str, ...] = {tup(data["TIP_RIGHT"], "")}
'''


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    ap.add_argument("strauss_c", type=Path, help="strace 6.1's src/strauss.c (apt-get source strace)")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--strace", help="read the #ifdef macros from this binary's -V feature list")
    group.add_argument("--define", action="append", default=None, metavar="NAME",
                       help="a macro strace was built with (repeatable); default: Debian 12's set")
    args = ap.parse_args(argv)
    defines = (features_from(args.strace) if args.strace else
               set(args.define) if args.define is not None else set(DEBIAN_DEFINES))
    try:
        data = extract(args.strauss_c.read_text(encoding="utf-8"), defines)
    except GenError as exc:
        print(f"gen_tips.py: {args.strauss_c}: {exc}", file=sys.stderr)
        return 1
    args.out.write_text(render(data, defines), encoding="utf-8")
    print(f"wrote {args.out}: {len(data['TIPS'])} tips, {len(data['STRAUSS'])} art lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
