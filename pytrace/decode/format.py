"""strace's printing primitives: quoting, flags, constants, addresses, paths.

Every decoder builds its text from these, so strace's conventions live in one
place (they mirror ``string_quote``, ``printflags``, ``printxval``,
``printaddr`` and ``printpath`` in strace's ``src/util.c``).
"""

from __future__ import annotations

from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from struct import Struct

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

PATH_MAX = 4096
MASK64 = (1 << 64) - 1


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
_PLAIN_BYTES = bytes(sorted(_PLAIN))  # for bytes.translate: deleting them leaves what needs escaping


def _needs_hex(data: bytes) -> bool:
    """-x: the whole string goes hex if any byte is neither printable nor \\t\\n\\v\\f\\r."""
    return any(c > 0x7E or (c < 0x20 and not 9 <= c <= 13) for c in data)


def quote_x(data: bytes, xflag: int, force_hex: bool = False) -> str:
    """Quote bytes exactly like strace's string_quote (without the ellipsis), for -x level ``xflag``."""
    if force_hex or xflag == 2 or (xflag == 1 and _needs_hex(data)):
        return '"' + "".join(f"\\x{c:02x}" for c in data) + '"'
    if not data.translate(None, _PLAIN_BYTES):  # the common case: nothing to escape (one C call)
        return '"' + data.decode("ascii") + '"'
    if xflag == 3:  # --strings-in-hex=non-ascii-chars: \xNN for each unprintable byte only
        return '"' + "".join(_ESC.get(c) or (chr(c) if 0x20 <= c < 0x7F else f"\\x{c:02x}") for c in data) + '"'
    out = []
    last = len(data) - 1
    for i, c in enumerate(data):
        if (c < 0x20 or c >= 0x7F) and c not in _ESC and i < last and data[i + 1] in _OCTAL_DIGITS:
            out.append(_BYTE_TEXT_LONG[c])  # \ooo so the next digit isn't read as part of it
        else:
            out.append(_BYTE_TEXT[c])
    return '"' + "".join(out) + '"'


def quote(data: bytes, force_hex: bool = False) -> str:
    """string_quote without -x: the default style (the printer's ``quote`` is this unless -x is given)."""
    if force_hex:
        return '"' + "".join(f"\\x{c:02x}" for c in data) + '"'
    if not data.translate(None, _PLAIN_BYTES):
        return '"' + data.decode("ascii") + '"'
    return quote_x(data, 0)


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
    value &= 0xFFFFFFFF  # signed(value, 32), inline: this runs for most printed numbers
    return str(value - 0x100000000 if value & 0x80000000 else value)


def slong(value: int) -> str:
    return str(signed(value, 64))


def ulong(value: int) -> str:
    return str(value & MASK64)


def uint(value: int) -> str:
    return str(value & 0xFFFFFFFF)


def fd(c: Call, value: int) -> str:
    """printfd: a file descriptor of ``c``'s process, the one place every fd is printed.

    Plain int here; a printer built with ``-y``/``-yy`` holds the /proc-resolving
    ones of ``decode.fds`` instead (and for ``dirfd``, ``pid``), so an fd costs
    nothing extra when they are off.  It takes the Call because the path
    belongs to that call's process.
    """
    value &= 0xFFFFFFFF  # signed(value, 32), inline
    return str(value - 0x100000000 if value & 0x80000000 else value)


def dirfd(c: Call, value: int) -> str:
    """print_dirfd: ``AT_FDCWD`` or an fd (``-y`` adds the directory, ``AT_FDCWD</cwd>``)."""
    v = signed(value, 32)
    return "AT_FDCWD" if v == -100 else str(v)


def fd_in(c: Call, pid: int, value: int) -> str:
    """printfd_pid: a descriptor of process ``pid``, not of the caller (kcmp's KCMP_FILE indexes)."""
    return str(signed(value, 32))


def fd_via_pidfd(c: Call, pidfd: int, value: int) -> str:
    """pidfd_getfd's target: a descriptor of the process ``pidfd`` refers to (``-y`` looks there)."""
    return str(signed(value, 32))


def pid(value: int) -> str:
    """printpid for a thread/process id (PT_TID/PT_TGID); a ``-Y`` printer adds ``<comm>`` (pids.pid_printer).

    Process-group and session ids are printed as plain ints, never through here,
    because strace names only threads and processes.
    """
    value &= 0xFFFFFFFF  # signed(value, 32), inline
    return str(value - 0x100000000 if value & 0x80000000 else value)


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


def flag_parts(value: int, table: tuple[tuple[int, str], ...]) -> tuple[list[str], int]:
    """The names of ``value``'s set bits in table order, and the bits no name covers (printflags' walk)."""
    parts = []
    rest = value
    for val, name in table:
        if val and (rest & val) == val:
            parts.append(name)
            rest &= ~val
            if not rest:
                break
    return parts, rest


def flags(value: int, table: tuple[tuple[int, str], ...], dflt: str | None = "0") -> str:
    """printflags: names of the set bits in table order, leftover bits in hex, ``|``-joined.

    The walk is ``flag_parts``'s, written out here: this is the text path's most used printer.
    """
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


#: printflags_ex(..., XLAT_STYLE_ABBREV): ``flags`` above is the abbrev style whatever -X says, so composite
#: printers (open flags, mmap flags) that build names first and style the whole value call it directly.
sprintflags = flags


def umove(c: Call, address: int, layout: Struct | int, show: Callable[..., str], ignore_error: bool = False) -> str:
    """umove_or_printaddr: ``show`` applied to the structure at ``address``, else the address.

    The rule every structure printer shares: NULL prints ``NULL``; an output of a
    failed call (checked at exit unless ``ignore_error``) and unreadable memory
    print the pointer.  ``layout`` is a ``struct.Struct`` (``show`` gets the
    unpacked fields) or a byte count (``show`` gets the bytes).  ``-e verbose=``
    printer (pytrace.decode.printer) makes its own for the calls it leaves out.
    """
    if isinstance(layout, int):
        data = fetch(c, address, layout, ignore_error)
        return addr(address) if data is None else show(data)
    data = fetch(c, address, layout.size, ignore_error)
    return addr(address) if data is None else show(*layout.unpack(data))


def fetch(c: Call, address: int, size: int, ignore_error: bool = False) -> bytes | None:
    """umove's test and read, for printers that unpack by hand: None means "print ``addr(address)``"."""
    if not address or (c.exited and c.error and not ignore_error):
        return None
    return c.mem.read(address, size)


def verbose(c: Call) -> bool:
    """strace's verbose(tcp) without ``-e verbose=``: every call's structures are decoded."""
    return True


@dataclass(slots=True, frozen=True)
class StringPrinters:
    """The -s/-x dependent printers of one printing context (pytrace.decode.printer builds them once)."""

    quote: Callable[..., str]
    string_at: Callable[..., str]
    cstring: Callable[..., str]
    cstring_n: Callable[..., str]
    nonzero_bytes: Callable[..., str | None]
    path: Callable[..., str]


def string_printers(limit: int, xflag: int, quote_with: Callable[..., str] | None = None) -> StringPrinters:
    """printstr and friends for ``-s limit`` and ``-x`` level ``xflag``, as closures (no option reads per call).

    ``quote_with`` replaces the quoting (the value renderer's quote returns text with its value).
    """
    if quote_with is not None:
        quote_ = quote_with
    elif xflag == 0:
        quote_ = quote
    else:
        def quote_(data: bytes, force_hex: bool = False) -> str:
            return quote_x(data, xflag, force_hex)

    def string_at(c: Call, address: int, length: int, force_hex: bool = False) -> str:
        """printstr_ex with a length: a buffer of ``length`` bytes, cut at -s with a trailing ``...``."""
        if not address:
            return "NULL"
        size = min(length, limit + 1)  # strace reads one byte past -s (its umoven fails on it too)
        data = c.mem.read(address, size) if size else b""
        if data is None:
            return addr(address)
        text = quote_(data[:limit], force_hex)
        return text + "..." if length > limit else text

    def cstring(c: Call, address: int, lim: int | None = None) -> str:
        """printstr with len -1: a NUL-terminated string cut at -s (or ``lim``)."""
        if not address:
            return "NULL"
        got = c.mem.read_cstring(address, limit if lim is None else lim)
        if got is None:
            return addr(address)
        data, terminated = got
        text = quote_(data)
        return text if terminated else text + "..."

    def cstring_n(c: Call, address: int, length: int) -> str:
        """printstr_ex(addr, len, QUOTE_0_TERMINATED): a NUL-terminated string in a buffer of ``length`` bytes.

        strace reads min(len, -s + 1) bytes with umovestr, which stops at the NUL
        and only touches the pages it needs, so a name ending right before an
        unmapped page still prints; without a NUL the ``length`` (or -s) bytes are
        shown followed by ``...``.
        """
        if not address:
            return "NULL"
        size = min(length, limit + 1)
        if size <= 0:
            return '""'
        got = c.mem.read_cstring(address, size - 1)
        if got is None:
            return addr(address)
        data, terminated = got
        if terminated:
            return quote_(data)
        data += c.mem.read_upto(address + size - 1, 1) or b""
        return quote_(data[:limit]) + "..."

    def nonzero_bytes(c: Call, start_addr: int, start_offs: int, total_len: int) -> str | None:
        """print_nonzero_bytes(..., QUOTE_FORCE_HEX): an extensible struct's tail beyond the known fields.

        None when there is nothing to print (no tail, or all of it zero); ``???`` when
        it cannot be read; else ``/* bytes 88..95 */ "\\x.."`` cut at -s.  The caller
        adds the separator.  ``total_len`` is already capped at a page, as strace does.
        """
        if start_offs >= total_len:
            return None
        length = total_len - start_offs
        data = c.mem.read(start_addr + start_offs, length)
        if data is None:
            return "???"
        if not any(data):
            return None
        size = min(length, limit)
        text = f"/* bytes {start_offs}..{total_len - 1} */ {quote_(data[:size], True)}"
        return text + "..." if size < length else text

    def path(c: Call, address: int) -> str:
        """printpath: a NUL-terminated path, limited by PATH_MAX and not by -s."""
        return cstring(c, address, PATH_MAX - 1)

    return StringPrinters(quote_, string_at, cstring, cstring_n, nonzero_bytes, path)


# Errors the kernel uses internally; strace prints a call failing with one as ``= ? ERESTARTSYS (...)``.
RESTART_ERRNOS = frozenset((512, 513, 514, 516))


def failed_result(err: int) -> str:
    """A failed call's return text: ``-1 ENOENT (No such file or directory)``, ``? ERESTARTSYS (...)``."""
    return ("?" if err in RESTART_ERRNOS else "-1") + errno_suffix(err)


def errno_suffix(err: int) -> str:
    """`` ENOENT (No such file or directory)`` for a failed call's return text."""
    from pytrace.tables import xlat as X

    name = X.ERRNO_NAMES.get(err)
    if name is None:
        return f" (errno {err})"  # strace's print_err_ret for a number it has no name for (-e inject=:error=600)
    text = X.ERRNO_TEXT.get(err)
    return f" {name} ({text})" if text else f" {name}"


def print_array(p: Printer, c: Call, start: int, nmemb: int, size: int, element: Callable[[bytes], str]) -> str:
    """print_array: ``[e1, e2, ...]``, cut after -s elements unless -v, ``... /* 0xADDR */`` where memory ends.

    NULL for a null pointer, ``[]`` for no elements, and just the address when the
    first element cannot be read or the array would wrap around memory.
    """
    if not start:
        return "NULL"
    if not nmemb:
        return "[]"
    total = nmemb * size
    if total > MASK64 or start + total > MASK64:
        return addr(start)
    limit = nmemb if p.opts.verbose or nmemb <= p.opts.max_strlen else p.opts.max_strlen
    parts: list[str] = []
    for i in range(nmemb):
        cur = start + i * size
        data = p.fetch(c, cur, size, True)
        if data is None:
            if i == 0:
                return addr(cur)
            parts.append(f"... /* {addr(cur)} */")
            break
        if i >= limit:
            parts.append("...")
            break
        parts.append(element(data))
    return "[" + ", ".join(parts) + "]"
