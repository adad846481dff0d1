"""strace's printing primitives: quoting, flags, constants, addresses, paths.

Every decoder builds its text from these, so strace's conventions live in one
place (they mirror ``string_quote``, ``printflags``, ``printxval``,
``printaddr`` and ``printpath`` in strace's ``src/util.c``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.events import Call

PATH_MAX = 4096
MASK64 = (1 << 64) - 1


@dataclass(slots=True)
class DecodeOptions:
    """Output knobs set once from the command line and read by every decoder."""

    max_strlen: int = 32  # -s
    xflag: int = 0  # -x / -xx
    verbose: bool = False  # -v
    decode_fds: bool = False  # -y (later)


OPTS = DecodeOptions()

# Byte -> escaped text, for the default (octal) style; built once.
_ESC = {ord('"'): '\\"', ord("\\"): "\\\\", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v"}


def _octal_short(c: int) -> str:
    if c >> 6:
        return f"\\{c >> 6}{(c >> 3) & 7}{c & 7}"
    if c >> 3:
        return f"\\{(c >> 3) & 7}{c & 7}"
    return f"\\{c}"


_BYTE_TEXT: list[str] = []
for _c in range(256):
    if _c in _ESC:
        _BYTE_TEXT.append(_ESC[_c])
    elif 0x20 <= _c < 0x7F:
        _BYTE_TEXT.append(chr(_c))
    else:
        _BYTE_TEXT.append(_octal_short(_c))
_BYTE_TEXT_LONG = [f"\\{c >> 6}{(c >> 3) & 7}{c & 7}" for c in range(256)]
_OCTAL_DIGITS = frozenset(b"01234567")
_PLAIN = frozenset(range(0x20, 0x7F)) - {ord('"'), ord("\\")}


def _needs_hex(data: bytes) -> bool:
    """-x: the whole string goes hex if any byte is neither printable nor \\t\\n\\v\\f\\r."""
    return any(c > 0x7E or (c < 0x20 and not 9 <= c <= 13) for c in data)


def quote(data: bytes, force_hex: bool = False) -> str:
    """Quote bytes exactly like strace's string_quote (without the ellipsis)."""
    if force_hex or OPTS.xflag > 1 or (OPTS.xflag == 1 and _needs_hex(data)):
        return '"' + "".join(f"\\x{c:02x}" for c in data) + '"'
    if all(c in _PLAIN for c in data):  # the common case: nothing to escape
        return '"' + data.decode("ascii") + '"'
    out = []
    last = len(data) - 1
    for i, c in enumerate(data):
        if (c < 0x20 or c >= 0x7F) and c not in _ESC and i < last and data[i + 1] in _OCTAL_DIGITS:
            out.append(_BYTE_TEXT_LONG[c])  # \ooo so the next digit isn't read as part of it
        else:
            out.append(_BYTE_TEXT[c])
    return '"' + "".join(out) + '"'


def addr(value: int) -> str:
    """printaddr: NULL or 0x..."""
    return "NULL" if value == 0 else f"{value:#x}"


def hexval(value: int) -> str:
    return f"{value:#x}"


def signed(value: int, bits: int = 64) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def sint(value: int) -> str:
    """A C ``int`` argument (strace prints the low 32 bits, signed)."""
    return str(signed(value, 32))


def slong(value: int) -> str:
    return str(signed(value, 64))


def ulong(value: int) -> str:
    return str(value & MASK64)


def uint(value: int) -> str:
    return str(value & 0xFFFFFFFF)


def fd(value: int) -> str:
    """A file descriptor: an int (AT_FDCWD is handled by the *at decoders)."""
    return str(signed(value, 32))


def dirfd(value: int) -> str:
    v = signed(value, 32)
    return "AT_FDCWD" if v == -100 else str(v)


def xlat(value: int, table: tuple[tuple[int, str], ...], default: str | None = None) -> str | None:
    """The name of ``value`` in ``table``, or None (printxval's lookup half)."""
    for val, name in table:
        if val == value:
            return name
    return default


def xval(value: int, table: tuple[tuple[int, str], ...], dflt: str, fmt: str = "hex") -> str:
    """printxval: the constant's name, else the number with a ``/* dflt */`` comment like strace."""
    name = xlat(value, table)
    if name is not None:
        return name
    num = (f"{value:#x}" if value else "0") if fmt == "hex" else str(signed(value, 32) if fmt == "int" else value)
    return f"{num} /* {dflt} */"


def flags(value: int, table: tuple[tuple[int, str], ...], dflt: str | None = "0") -> str:
    """printflags: names of the set bits in table order, leftover bits in hex, ``|``-joined."""
    if value == 0:
        for val, name in table:
            if val == 0:
                return name
        return "0" if dflt is not None else "0"
    parts = []
    rest = value
    for val, name in table:
        if val and (rest & val) == val:
            parts.append(name)
            rest &= ~val
            if not rest:
                break
    if rest:
        parts.append(f"{rest:#x}")
        if len(parts) == 1 and dflt and dflt != "0":
            return f"{rest:#x} /* {dflt} */"
    return "|".join(parts)


def string_at(c: Call, address: int, length: int, force_hex: bool = False) -> str:
    """printstr_ex with a length: a buffer of ``length`` bytes, cut at -s with a trailing ``...``."""
    if not address:
        return "NULL"
    size = min(length, OPTS.max_strlen)
    data = c.mem.read(address, size) if size else b""
    if data is None:
        return addr(address)
    text = quote(data, force_hex)
    return text + "..." if length > OPTS.max_strlen else text


def cstring(c: Call, address: int, limit: int | None = None) -> str:
    """printstr with len -1: a NUL-terminated string cut at -s."""
    if not address:
        return "NULL"
    lim = OPTS.max_strlen if limit is None else limit
    got = c.mem.read_cstring(address, lim)
    if got is None:
        return addr(address)
    data, terminated = got
    text = quote(data)
    return text if terminated else text + "..."


def path(c: Call, address: int) -> str:
    """printpath: a NUL-terminated path, limited by PATH_MAX and not by -s."""
    return cstring(c, address, PATH_MAX - 1)


def errno_suffix(err: int) -> str:
    """`` ENOENT (No such file or directory)`` for a failed call's return text."""
    from pytrace.tables import xlat as X

    name = X.ERRNO_NAMES.get(err)
    if name is None:
        return f" {err}"
    text = X.ERRNO_TEXT.get(err)
    return f" {name} ({text})" if text else f" {name}"
