"""The value renderer: the same decoders, printing typed values next to strace's text (JSON output).

Decoders print through their printer ``p`` (pytrace/decode/printer.py).  The plain printer is the
text renderer: every printer returns ``str``, byte for byte strace's.  ``ValuePrinter`` is built
from the same options and returns ``V`` objects instead: a ``str`` (the very same text) that also
carries what it stands for, so one decoder run gives both the line and the values:

* a named constant (``p.xval``, ``p.print_xlat``): ``{"name": "AT_FDCWD", "value": -100}``, and
  an unknown one its number;
* a flag set (``p.flags``): ``{"flags": ["O_RDONLY", "O_CLOEXEC"], "value": 524288}``;
* a string or path: the bytes as text (UTF-8, ``\\xNN`` for invalid bytes), ``null`` for NULL;
* a structure (``p.struct``): an object of its fields' values; an array (``p.inline_array``): a list;
* descriptors and ids: their number;
* anything printed without the vocabulary (an address, a number in an f-string): its literal value
  when the text is one (``123``, ``0x7ffd...``, ``0644``, ``NULL``), else the text.

``ArgList`` is what ``p.args``/``p.head``/``p.tail`` return: the arguments of a syscall half, so a
record lists a call's arguments without reading its text back (structured/records.py joins the
entry and exit halves).  Text written outside the vocabulary (an f-string around a value) is still
right; only its value degrades to the text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from pytrace.decode.format import flag_parts, signed, xlat
from pytrace.decode.printer import Printer

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from pytrace.decode.layouts import Layouts
    from pytrace.decode.printer import PrintOptions
    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]


class V(str):
    """strace's text of one value, with the value itself (``value``); made by ``_v`` (no Python __new__:
    one is made for each value a JSON trace prints)."""

    value: Any = None

    def __format__(self, spec: str) -> str:
        """``f"{v}"`` alone is ``v`` itself (CPython keeps the object a lone replacement field formats to)."""
        return self if not spec else str.__format__(self, spec)

    def __add__(self, other: str) -> str:  # type: ignore[override]
        if type(other) is ArgList and other.lead:  # "O_CREAT" + ", 0644": more arguments follow this one
            return _arglist(str.__add__(self, other), [self, *other.items], trail=other.trail)
        if other == "...":  # a string cut at -s keeps its value
            return _v(str.__add__(self, other), self.value)
        return str.__add__(self, other)


class ArgList(V):
    """Arguments of one half of a syscall line, each kept with its value; made by ``_arglist``."""

    items: list[str]
    lead: bool = False  # the text starts with ", " (it continues an entry half)
    trail: bool = False  # the text ends with ", " (more arguments come at exit)

    def __add__(self, other: str) -> str:  # type: ignore[override]
        if type(other) is ArgList and other.lead and not self.trail:
            return _arglist(str.__add__(self, other), [*self.items, *other.items], self.lead, other.trail)
        return str.__add__(self, other)


def _v(text: str, value: Any) -> V:
    v = V(text)
    v.value = value
    return v


def _arglist(text: str, items: list[str], lead: bool = False, trail: bool = False) -> ArgList:
    a = ArgList(text)
    a.items = items
    if lead:
        a.lead = True
    if trail:
        a.trail = True
    return a


_INT = re.compile(r"-?(?:0x[0-9a-f]+|\d+)")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"(?:\.\.\.)?')
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)")
_SIMPLE = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "a": 7, "b": 8, "e": 27}


def _unescape(body: str) -> str:
    """A C string literal's escapes (as strace and ltrace print bytes) back to text."""
    def one(m: re.Match[str]) -> str:
        e = m.group(1)
        if e[0] == "x" and len(e) == 3:
            return chr(int(e[1:], 16))
        if e[0] in "01234567":
            return chr(int(e, 8))
        return chr(_SIMPLE[e]) if e in _SIMPLE else e
    return _ESCAPE.sub(one, body)


def value_of(item: object) -> Any:
    """The value of one printed item: its own for a ``V``, else the literal its text is."""
    if isinstance(item, V):
        return item.value
    if not isinstance(item, str):  # a number put in a structure as it is
        return item
    if item.isdigit():  # the common case: a count, a descriptor
        return int(item) if item[0] != "0" or len(item) == 1 else int(item, 8)
    if item == "NULL":
        return None
    if _INT.fullmatch(item):
        if item.startswith(("0x", "-0x")):
            return int(item, 16)
        if len(item) > 1 and item[0] == "0":
            return int(item, 8)  # a mode: 0644
        return int(item)
    m = _QUOTED.fullmatch(item)  # a string printed outside the vocabulary (pyltrace's parameters)
    if m is not None:
        return _unescape(m.group(1))
    return item


def _text(data: bytes) -> str:
    return data.decode("utf-8", "backslashreplace")


def _flag_names(value: int, table: Table) -> list[str]:
    if value == 0:
        name = xlat(0, table)
        return [name] if name is not None else []
    names, rest = flag_parts(value, table)
    if rest:
        names.append(f"{rest:#x}")
    return names


def args_of(entry: str, exit_text: str | None) -> list[dict[str, Any]]:
    """A record's ``args``: the items of a call's entry and exit halves, as ``{"text", "value"}``.

    The texts may be ``V`` objects: they are ``str`` to every reader (json encodes them as such).
    """
    if type(entry) is ArgList and entry.trail and type(exit_text) is ArgList and not exit_text.lead:
        items = entry.items + exit_text.items  # the common split call: read(3, <unfinished ...>) then the rest
    else:
        items = []
        for half in (entry, exit_text or ""):
            if not half:
                continue
            got = half.items if type(half) is ArgList else [half]
            if items and not (type(half) is ArgList and half.lead) and not (
                    type(entry) is ArgList and entry.trail):
                # the exit half continues the entry's last argument (``{entry_number=6`` + `` => 7, ...}``)
                items[-1] = str(items[-1]) + str(got[0])
                got = got[1:]
            items.extend(got)
    return [{"text": i, "value": i.value if isinstance(i, V) else value_of(i)} for i in items]


class ValuePrinter(Printer):
    """A printer whose printers return ``V``: the text renderer's text, with typed values."""

    def __init__(self, opts: PrintOptions, lay: Layouts, *, structures: Callable[[Call], bool] | None = None,
                 outer_style: str | None = None) -> None:
        super().__init__(opts, lay, structures=structures, outer_style=outer_style)
        text_fd, text_dirfd, text_pid = self.fd, self.dirfd, self.pid
        text_xval, text_flags, text_print_xlat = self.xval, self.flags, self.print_xlat
        text_quote, text_array = self.quote, self.inline_array
        text_string_at, text_cstring, text_cstring_n, text_path = (
            self.string_at, self.cstring, self.cstring_n, self.path)

        def fd(c: Call, value: int) -> str:  # under -y the text says more than the number
            return _v(text_fd(c, value), signed(value, 32))

        def dirfd(c: Call, value: int) -> str:
            v = signed(value, 32)
            return _v(text_dirfd(c, value), {"name": "AT_FDCWD", "value": v} if v == -100 else v)

        def pid(value: int) -> str:
            return _v(text_pid(value), signed(value, 32))

        def xval(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
            name = xlat(value, table)
            return _v(text_xval(value, table, dflt, fmt), value if name is None else {"name": name, "value": value})

        def flags(value: int, table: Table, dflt: str | None = "0") -> str:
            return _v(text_flags(value, table, dflt), {"flags": _flag_names(value, table), "value": value})

        def print_xlat(value: int, name: str, fmt: str = "hex") -> str:
            return _v(text_print_xlat(value, name, fmt), {"name": name, "value": value})

        def quote(data: bytes, force_hex: bool = False) -> str:
            return _v(text_quote(data, force_hex), _text(data))

        def inline_array(items: list[str]) -> str:
            return _v(text_array(items), [value_of(i) for i in items])

        # Without -y/-Y a descriptor or pid prints as its number: the plain text already is its value.
        if opts.decode_fds:
            self.fd = fd
        if opts.decode_pids:
            self.pid = pid
        self.dirfd = dirfd
        if opts.style == "abbrev":  # the name is the text: look it up once
            def xval_abbrev(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
                name = xlat(value, table)
                if name is not None:
                    return _v(name, {"name": name, "value": value})
                return _v(text_xval(value, table, dflt, fmt), value)

            def flags_abbrev(value: int, table: Table, dflt: str | None = "0") -> str:
                names = _flag_names(value, table)
                if not names:
                    text = "0"
                elif len(names) == 1 and names[0][:2] == "0x" and dflt and dflt != "0":
                    text = f"{names[0]} /* {dflt} */"  # printflags: an unknown bit set alone
                else:
                    text = "|".join(names)
                return _v(text, {"flags": names, "value": value})

            xval, flags = xval_abbrev, flags_abbrev
        self.xval, self.flags, self.print_xlat = xval, flags, print_xlat
        self.quote = quote
        # The string printers quote through the printer's own quote: rebuilt here so they return V.
        from pytrace.decode.format import string_printers

        # They quote through ``quote`` above, so their text comes back as a V; NULL and an unreadable
        # address stay plain text, whose literal value is right (null, the address).
        strings = string_printers(opts.max_strlen, opts.xflag, quote)
        self.string_at = strings.string_at
        self.cstring = strings.cstring
        self.cstring_n = strings.cstring_n
        self.path = strings.path
        del text_string_at, text_cstring, text_cstring_n, text_path
        self.inline_array = inline_array
        self.values = True
        self.composite = _composite
        self.args = _args
        self.head = _head
        self.tail = _tail
        self.struct = _struct


def _composite(text: str, names: str, value: int, flags: bool) -> str:
    """A value printed whole (open/mmap flags, modes, ioctl requests): its parts by name, and the number."""
    return _v(text, {"flags": names.split("|"), "value": value} if flags else {"name": names, "value": value})


def _flat(items: Iterable[str]) -> list[str]:
    """Arguments, with a helper's own argument list (``O_CREAT, 0644`` of open's tail) spliced in."""
    if type(items) is not tuple:
        items = tuple(items)
    if ArgList not in map(type, items):  # the common case: nothing to splice
        return list(items)
    out: list[str] = []
    for i in items:
        if type(i) is ArgList and not i.lead and not i.trail:
            out.extend(i.items)
        else:
            out.append(i)
    return out


def _args(items: Iterable[str]) -> str:
    items = _flat(items)
    return _arglist(", ".join(items), items)


def _head(items: Iterable[str]) -> str:
    items = _flat(items)
    return _arglist(", ".join(items) + ", ", items, trail=True)


def _tail(items: Iterable[str]) -> str:
    items = _flat(items)
    return _arglist(", " + ", ".join(items), items, lead=True)


def _struct(items: tuple[tuple[str, str] | str, ...]) -> str:
    text = "{" + ", ".join([f"{i[0]}={i[1]}" if type(i) is tuple else i for i in items]) + "}"  # type: ignore[index]
    return _v(text, {i[0]: value_of(i[1]) for i in items if type(i) is tuple})
