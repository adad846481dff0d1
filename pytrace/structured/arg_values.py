"""Turn strace's argument text into per-argument JSON values.

The decoders speak strace's language (that is what keeps the text output
byte-for-byte), so the structured output reads that language back instead of
duplicating every decoder: ``split_args`` cuts an argument list at its
top-level commas (quotes, brackets, braces, parentheses and ``/* */``
comments respected) and ``value_of`` parses one argument into the nearest
JSON value.  The grammar is strace's own, small and regular:

* ``123``, ``-1``, ``0x7ffc...``, ``0644`` -> integers;
* ``NULL`` -> ``null``;
* ``"abc"`` (optionally followed by ``...``, the -s truncation mark) -> a string
  (bytes unescaped, decoded as UTF-8 with ``\\xNN`` for invalid bytes);
* ``A|B|0x40`` -> a list of its parts;
* ``[a, b]`` -> a list; ``{k=v, ...}`` -> an object (``{a, b}`` -> a list);
* ``NAME`` -> the name as a string;
* anything else (``makedev(0x1, 0x3)``, ``inet_addr("127.0.0.1")``,
  ``0x7ffd /* 20 vars */``) -> its text, unchanged.

The exact text of every argument is kept next to its value, so nothing is
lost when the parse is only approximate; the parser never raises.
"""

from __future__ import annotations

import re
from typing import Any

_SIMPLE_ESC = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, '"': 34, "\\": 92}


# Strings (possibly cut), comments and the punctuation that nests or separates: one regex scan
# per argument list instead of a Python loop per character (this runs once per traced call).
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|/\*.*?(?:\*/|$)|[\[\]{}(),|]', re.S)
_NESTING = re.compile(r'["\[{(/]')


def split_args(text: str, sep: str = ",") -> list[str]:
    """Top-level pieces of ``text`` separated by ``sep`` (followed by optional spaces), stripped."""
    if _NESTING.search(text) is None:  # the common flat case: numbers, names, flags
        return [p.strip() for p in text.split(sep)] if text.strip() else []
    out: list[str] = []
    depth = 0
    start = 0
    for m in _TOKEN.finditer(text):
        ch = m.group()[0]
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
        elif ch == sep and depth == 0:
            out.append(text[start:m.start()].strip())
            start = m.end()
    last = text[start:].strip()
    if last or out:
        out.append(last)
    return out


def _skip_string(text: str, i: int) -> int:
    """Index just past the closing quote of the string starting at ``text[i]``."""
    m = _TOKEN.match(text, i)
    return m.end() if m is not None else len(text)


def unquote(body: str) -> bytes:
    """strace's escapes (``\\n``, ``\\0``, ``\\123``, ``\\x41``) back to bytes."""
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        ch = body[i]
        if ch != "\\" or i + 1 >= n:
            out += ch.encode("utf-8", "surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _SIMPLE_ESC:
            out.append(_SIMPLE_ESC[nxt])
            i += 2
        elif nxt == "x":
            out.append(int(body[i + 2: i + 4], 16))
            i += 4
        elif nxt.isdigit():
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(int(body[i + 1: j], 8) & 0xFF)
            i = j
        else:
            out.append(ord(nxt) & 0xFF)
            i += 2
    return bytes(out)


def _int(text: str) -> int | None:
    t = text[1:] if text[:1] == "-" else text
    if not t or not t[0].isdigit():
        return None
    try:
        if t.startswith(("0x", "0X")):
            v = int(t, 16)
        elif len(t) > 1 and t[0] == "0":
            v = int(t, 8)
        else:
            v = int(t)
    except ValueError:
        return None
    return -v if text[:1] == "-" else v


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _is_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


_CACHE: dict[str, Any] = {}
_CACHE_MAX = 8192


def value_of(text: str) -> Any:
    """The JSON value of one argument's text (see the module docstring); never raises.

    Argument texts repeat a lot (``AT_FDCWD``, flag sets, small numbers, the same
    paths), so values are memoised; the records only serialise them, never mutate them.
    """
    value = _CACHE.get(text, _CACHE)
    if value is not _CACHE:
        return value
    try:
        value = _value(text.strip())
    except (ValueError, IndexError):
        value = text
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[text] = value
    return value


def _value(t: str) -> Any:
    if not t:
        return t
    first = t[0]
    if first == '"':
        end = _skip_string(t, 0)
        rest = t[end:]
        if rest in ("", "..."):
            body = t[1: end - 1]
            if "\\" not in body:  # nothing escaped: the text is the value
                return body
            return unquote(body).decode("utf-8", "backslashreplace")
        return t
    if first == "[" and t[-1] == "]" and _closes_at_end(t):
        return [_value(p) for p in split_args(t[1:-1]) if p != "..."]
    if first == "{" and t[-1] == "}" and _closes_at_end(t):
        parts = [p for p in split_args(t[1:-1]) if p != "..."]
        fields = [_field(p) for p in parts]
        if parts and all(f is not None for f in fields):
            return {k: v for k, v in fields}  # type: ignore[misc]
        return [_value(p) for p in parts]
    if t == "NULL":
        return None
    number = _int(t)
    if number is not None:
        return number
    if _is_name(t):
        return t
    if "|" in t:
        parts = split_args(t, "|")
        if len(parts) > 1 and all(p and (_is_name(p) or _int(p) is not None) for p in parts):
            return [_value(p) for p in parts]
    return t


def _closes_at_end(t: str) -> bool:
    """True when the bracket opening ``t`` is the one closing it (not ``[a] | [b]``)."""
    depth = 0
    for m in _TOKEN.finditer(t):
        ch = m.group()[0]
        if ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth -= 1
            if depth == 0:
                return m.end() == len(t)
    return False


def _field(part: str) -> tuple[str, Any] | None:
    """``name=value`` at the top level of a structure, or None for a bare element."""
    eq = part.find("=")
    if eq <= 0:
        return None
    key = part[:eq]
    if not _is_name(key.replace(".", "_").replace("[", "_").replace("]", "_")):
        return None
    return key, _value(part[eq + 1:].strip())


def arguments(text: str) -> list[dict[str, Any]]:
    """Each argument of a syscall line's argument text as ``{"text": ..., "value": ...}``."""
    return [{"text": p, "value": value_of(p)} for p in split_args(text)]
