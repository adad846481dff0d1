"""The printing context: everything the options decide about how arguments print, chosen once.

A ``Printer`` is built from ``PrintOptions`` (-s, -x/-xx, -X, -y/-yy, -Y, -v,
-e verbose=, the personality's structure layouts) and handed explicitly to
every decoder as its first argument (``def openat(p, c)``).  The printers it
holds are picked when it is built, so a decoder never tests an option per
argument: ``p.fd`` *is* the plain fd printer without -y and the /proc-reading
one with it, ``p.flags`` *is* the abbrev, raw or verbose flag printer.

Two printers with different options live side by side in one process (two
tracers, the i386 personality next to x86_64, the derived printers of
``-e abbrev=/verbose=``): nothing here is a module global written after import.

The emitter half (``args``, ``head``, ``struct``, ``array``, ``changed``) is
the vocabulary decoders use for punctuation, so that the same decoder feeds
strace's text and typed JSON values (``pytrace.render.values``).  The plain
printer returns ``str`` everywhere: the text path pays nothing for structure.
"""

from __future__ import annotations

from pytrace.decode import format as F
from pytrace.decode.format import addr, signed, xlat
from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from struct import Struct
    from typing import Any

    from pytrace.decode.layouts import Layouts
    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]

#: -X styles, in strace's xlat_verbosity order.
ABBREV, RAW, VERBOSE = "abbrev", "raw", "verbose"


@dataclass(slots=True, frozen=True)
class PrintOptions:
    """The knobs of the command line that change how a value prints (decided once per tracer)."""

    max_strlen: int = 32  # -s
    xflag: int = 0  # -x / -xx / --strings-in-hex: 0 none, 1 non-ascii, 2 all, 3 non-ascii-chars
    verbose: bool = False  # -v: structures and arrays unabbreviated
    style: str = ABBREV  # -X
    decode_fds: frozenset[str] = frozenset()  # -y / -yy / --decode-fds
    decode_pids: frozenset[str] = frozenset()  # -Y / --decode-pids
    kvm_vcpu: bool = False  # -e kvm=vcpu


def hexnum(value: int) -> str:
    """C's ``%#x``: zero is a bare ``0``."""
    return f"{value:#x}" if value else "0"


def _number(value: int, fmt: str) -> str:
    """The number printxval prints in -X raw/verbose for ``fmt`` (hex, int, or unsigned)."""
    if fmt == "hex":
        return hexnum(value)
    return str(signed(value, 32) if fmt == "int" else value)


# ------------------------------------------------------------------ constants, three styles each


def _xval_raw(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
    return _number(value, fmt)


def _xval_verbose(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
    name = xlat(value, table)
    return f"{_number(value, fmt)} /* {dflt if name is None else name} */"


def _flags_raw(value: int, table: Table, dflt: str | None = "0") -> str:
    """printflags_ex raw: the number; nothing at all for 0 without a default (statx's ``, ,``, as strace)."""
    return "" if value == 0 and dflt is None else hexnum(value)


def _flags_verbose(value: int, table: Table, dflt: str | None = "0") -> str:
    """printflags_ex in the verbose style: ``0x3 /* A|B */``, ``0 /* ZERO_NAME */``, ``0x40 /* DFLT */``."""
    if value == 0:
        name = xlat(0, table)
        if name is None:
            return "" if dflt is None else "0"
        return f"0 /* {name} */"
    parts, rest = F.flag_parts(value, table)
    if not parts:
        return f"{value:#x} /* {dflt} */" if dflt and dflt != "0" else f"{value:#x}"
    if rest:
        parts.append(f"{rest:#x}")
    return f"{value:#x} /* {'|'.join(parts)} */"


def _print_xlat_abbrev(value: int, name: str, fmt: str = "hex") -> str:
    return name


def _print_xlat_raw(value: int, name: str, fmt: str = "hex") -> str:
    return _number(value, fmt)


def _print_xlat_verbose(value: int, name: str, fmt: str = "hex") -> str:
    return f"{_number(value, fmt)} /* {name} */"


_XVAL = {ABBREV: F.xval, RAW: _xval_raw, VERBOSE: _xval_verbose}
_FLAGS = {ABBREV: F.flags, RAW: _flags_raw, VERBOSE: _flags_verbose}
_PRINT_XLAT = {ABBREV: _print_xlat_abbrev, RAW: _print_xlat_raw, VERBOSE: _print_xlat_verbose}


def _whole_abbrev(number: str, names: str) -> str:
    return names


def _whole_raw(number: str, names: str) -> str:
    return number


def _whole_verbose(number: str, names: str) -> str:
    return f"{number} /* {names} */"


_WHOLE = {ABBREV: _whole_abbrev, RAW: _whole_raw, VERBOSE: _whole_verbose}


def _dirfd_raw(c: Call, value: int) -> str:
    return str(signed(value, 32))


def _dirfd_verbose(c: Call, value: int) -> str:
    v = signed(value, 32)
    return "-100 /* AT_FDCWD */" if v == -100 else str(v)


_DIRFD = {ABBREV: F.dirfd, RAW: _dirfd_raw, VERBOSE: _dirfd_verbose}


# ------------------------------------------------------------------ the emitter (text)
# Decoders say where arguments and fields begin; the plain printer turns that into strace's
# punctuation, the value printer (pytrace/render/values.py) into typed values as well.

_args = ", ".join  # argument texts -> "a, b, c" (C-level: the text path pays one call)


def _head(items: tuple[str, ...]) -> str:
    """An entry half with more arguments to come at exit: ``3, `` of ``read(3, <unfinished ...>``."""
    return ", ".join(items) + ", "


def _tail(items: tuple[str, ...]) -> str:
    """An exit half continuing an entry half that ended without a separator: ``, [8]``."""
    return ", " + ", ".join(items)


def _struct(items: tuple[tuple[str, str] | str, ...]) -> str:
    """``{name=value, ...}``; a bare item (``...``, a comment) prints as it is."""
    return "{" + ", ".join([f"{i[0]}={i[1]}" if type(i) is tuple else i for i in items]) + "}"  # type: ignore[index]


def _changed(old: str, new: str) -> str:
    return f"{old} => {new}"


class Printer:
    """How this tracer prints arguments: the printers the options chose, and the personality's layouts.

    Attributes hold plain functions (not methods), so ``p.fd(c, v)`` costs one
    attribute load and one call, as the module-level function did.
    """

    def __init__(self, opts: PrintOptions, lay: Layouts, *, structures: Callable[[Call], bool] | None = None,
                 outer_style: str | None = None) -> None:
        self.opts = opts
        self.lay = lay
        self.style = opts.style
        self.values = False  # the value renderer (pytrace/render/values.py) sets it: composites carry values
        # The -X style of the line this printer's text ends up in: the abbrev printer that builds a
        # composite's names under -X verbose still knows the names land in a comment.
        self.outer_style = opts.style if outer_style is None else outer_style
        self.raw = opts.style == RAW
        self.verbose_style = opts.style == VERBOSE
        self._structures = structures
        self._abbrev: Printer | None = None
        self._derived: dict[tuple[Any, ...], Printer] = {}
        limit = opts.max_strlen
        full = opts.verbose

        # -- strings: -s and -x are folded into the closures once
        strings = F.string_printers(limit, opts.xflag)
        self.quote = strings.quote
        self.string_at = strings.string_at
        self.cstring = strings.cstring
        self.cstring_n = strings.cstring_n
        self.nonzero_bytes = strings.nonzero_bytes
        self.path = strings.path

        def inline_array(items: list[str]) -> str:
            """print_array over elements already read with their structure: cut after -s elements unless -v."""
            if full or len(items) <= limit:
                return "[" + ", ".join(items) + "]"
            return "[" + ", ".join([*items[:limit], "..."]) + "]"

        self.inline_array = inline_array

        # -- constants
        self.xval = _XVAL[opts.style]
        self.flags = _FLAGS[opts.style]
        self.print_xlat = _PRINT_XLAT[opts.style]
        self.whole = _WHOLE[opts.style]

        # -- descriptors and ids
        if "comm" in opts.decode_pids:
            from pytrace.decode.pids import pid_printer

            self.pid = pid_printer(opts.xflag)
        else:
            self.pid = F.pid
        self.fd, self.dirfd, self.fd_in, self.fd_via_pidfd = _fd_printers(opts, self.pid)

        # -- structures: -e verbose=SET prints the others' structures as addresses
        if structures is None:
            self.fetch = F.fetch
            self.verbose = _always
            self.umove = F.umove
        else:
            real_fetch = F.fetch

            def fetch(c: Call, address: int, size: int, ignore_error: bool = False) -> bytes | None:
                return real_fetch(c, address, size, ignore_error) if structures(c) else None

            def umove(c: Call, address: int, layout: Struct | int, show: Callable[..., str],
                      ignore_error: bool = False) -> str:
                if isinstance(layout, int):
                    data = fetch(c, address, layout, ignore_error)
                    return addr(address) if data is None else show(data)
                data = fetch(c, address, layout.size, ignore_error)
                return addr(address) if data is None else show(*layout.unpack(data))

            self.fetch = fetch
            self.verbose = structures
            self.umove = umove

        # -- emitter
        self.args = _args
        self.head = _head
        self.tail = _tail
        self.struct = _struct
        self.changed = _changed

    @property
    def abbrev(self) -> Printer:
        """This printer in the abbrev style: names inside composite values and auxstr annotations."""
        if self.style == ABBREV:
            return self
        if self._abbrev is None:
            self._abbrev = self.derive(style=ABBREV, outer_style=self.outer_style)
        return self._abbrev

    def derive(self, *, lay: Layouts | None = None, structures: Callable[[Call], bool] | None = None,
               outer_style: str | None = None, **changes: Any) -> Printer:
        """A printer like this one with some options or layouts changed (cached: built once per variant)."""
        key = (id(lay), id(structures), outer_style, tuple(sorted(changes.items())))
        got = self._derived.get(key)
        if got is None:
            opts = self.opts
            if changes:
                values = {name: getattr(opts, name) for name in PrintOptions.__slots__}
                values.update(changes)
                opts = PrintOptions(**values)
            got = type(self)(opts, self.lay if lay is None else lay,
                          structures=self._structures if structures is None else structures,
                          outer_style=outer_style)
            self._derived[key] = got
        return got


def _always(c: Call) -> bool:
    return True


def _fd_printers(opts: PrintOptions, show_pid: Callable[[int], str]) -> tuple[Callable[..., str], ...]:
    """fd, dirfd, fd_in, fd_via_pidfd: plain, or describing the descriptor under -y/-yy (AT_FDCWD styled by -X)."""
    dirfd = _DIRFD[opts.style]
    if not opts.decode_fds:
        return F.fd, dirfd, F.fd_in, F.fd_via_pidfd
    from pytrace.decode import fds

    return fds.fd_printers(opts.decode_fds, opts.xflag, show_pid, dirfd)


def build_printer(opts: PrintOptions, personality: str = "x86_64", *, values: bool = False) -> Printer:
    """The printer of one personality for these options: strace's text, or (``values``) text with typed
    values for the JSON records (pytrace/render/values.py)."""
    from pytrace.decode.layouts import layouts_for

    if values:
        from pytrace.render.values import ValuePrinter

        return ValuePrinter(opts, layouts_for(personality))
    return Printer(opts, layouts_for(personality))


def octnum(value: int) -> str:
    """C's ``%#03o`` (file modes)."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


def styled_whole(number: Callable[[int], str], mask: int,
                 flags: bool = True) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """A composite printer (open flags, mmap flags, modes) that -X styles as one value.

    strace computes such names in the abbrev style and prints the raw number in
    front: ``0x812 /* MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE */`` (print_xlat_ex over
    the whole).  The decorated function builds the names; it always gets an abbrev
    printer.  For the JSON values the whole is a flag set (``flags``) or one name.
    """

    def wrap(func: Callable[..., str]) -> Callable[..., str]:
        def styled(p: Printer, value: int, *rest: Any) -> str:
            if p.style == ABBREV:
                names = text = func(p, value, *rest)
            else:
                names = func(p.abbrev, value, *rest)
                text = p.whole(number(value & mask), names)
            return p.composite(text, names, value & mask, flags) if p.values else text

        styled.__name__ = func.__name__
        styled.__qualname__ = func.__qualname__
        styled.__doc__ = func.__doc__
        return styled

    return wrap
