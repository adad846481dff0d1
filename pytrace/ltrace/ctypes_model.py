"""The type model of ltrace 0.7.3's prototype language: types, lenses and length expressions.

ltrace describes every value by an ``arg_type_info``: a kind (``int``,
``struct``, a pointer, an array...) and an optional *lens* that says how to
show it.  A value without a lens of its own is shown through the lens of the
nearest enclosing value that has one (``hex(struct(int, int))`` prints both
fields in hex), and through the default lens when none has.  Sizes and
alignment depend on the tracee's ABI (a ``DataModel``): x86-64's LP64, or
i386's ILP32 where ``long`` and pointers are 4 bytes and a ``double`` in a
struct is 4-aligned (ltrace's ``arch_type_sizeof``/``arch_type_alignof`` for x86).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

# Kinds (ltrace's enum arg_type).
VOID, INT, UINT, LONG, ULONG, CHAR, SHORT, USHORT, FLOAT, DOUBLE, ARRAY, STRUCT, POINTER = range(13)

SCALAR_SIZE = {VOID: 0, CHAR: 1, SHORT: 2, USHORT: 2, INT: 4, UINT: 4, LONG: 8, ULONG: 8, FLOAT: 4, DOUBLE: 8,
               POINTER: 8}
INTEGRAL = frozenset((CHAR, SHORT, USHORT, INT, UINT, LONG, ULONG))
UNSIGNED = frozenset((USHORT, UINT, ULONG))
FLOATS = frozenset((FLOAT, DOUBLE))


class DataModel:
    """The size and the alignment (in a struct) of each scalar kind for one ABI.

    The classes of this module are plain classes, not records: every run makes them, and
    pytrace.records' per-class work (~0.2 ms each) would be start-up cost (issue 15).
    """

    __slots__ = ("name", "size", "align", "word")

    def __init__(self, name: str, size: dict[int, int], align: dict[int, int], word: int) -> None:
        self.name = name
        self.size = size
        self.align = align
        self.word = word  # bytes of a pointer, of a stack slot and of a register


LP64 = DataModel("LP64", SCALAR_SIZE, SCALAR_SIZE, 8)
ILP32 = DataModel("ILP32", {**SCALAR_SIZE, LONG: 4, ULONG: 4, POINTER: 4},
                  {**SCALAR_SIZE, LONG: 4, ULONG: 4, POINTER: 4, DOUBLE: 4}, 4)


class Lens:
    """How a value is shown: ``name`` is one of default, hide, octal, bitvec, hex, bool, guess, string, enum."""

    __slots__ = ("name", "entries")

    def __init__(self, name: str, entries: list[tuple[str, int]] | None = None) -> None:
        self.name = name
        self.entries = [] if entries is None else entries  # enum: (name, value) in declaration order

    def __repr__(self) -> str:
        return f"Lens({self.name!r}, {self.entries!r})"


DEFAULT_LENS = Lens("default")
HIDE, OCTAL, BITVEC, HEX, BOOL, GUESS, STRING = (Lens(n) for n in ("hide", "octal", "bitvec", "hex", "bool", "guess",
                                                                    "string"))
# ltrace's name2lens table, in its order ("octal" before "oct": the longer keyword wins).
NAMED_LENSES: tuple[tuple[str, Lens], ...] = (("hide", HIDE), ("octal", OCTAL), ("oct", OCTAL), ("bitvec", BITVEC),
                                               ("hex", HEX), ("bool", BOOL), ("guess", GUESS))


class Type:
    """One ``arg_type_info``; identity matters (recursive structs are recognised by it)."""

    __slots__ = ("kind", "lens", "target", "length", "fields", "pack")

    def __init__(self, kind: int, lens: Lens | None = None, target: Type | None = None, length: Any = None,
                 fields: list[Type] | None = None, pack: bool = False) -> None:
        self.kind = kind
        self.lens = lens
        self.target = target  # POINTER: the pointee; ARRAY: the element
        self.length = length  # ARRAY: a length expression (see ``Expr``)
        self.fields: list[Type] = [] if fields is None else fields  # STRUCT
        self.pack = pack  # a "format" parameter: its printf-style values follow the declared parameters

    def __repr__(self) -> str:  # the kind and lens only: a recursive struct's fields would never end
        return f"Type({self.kind}, lens={self.lens!r})"

    def copy(self) -> Type:
        return Type(self.kind, self.lens, self.target, self.length, list(self.fields), self.pack)

    def assign(self, other: Type) -> None:
        """``*this = *other`` (a forward struct gets its definition; references to it stay valid)."""
        self.kind, self.lens, self.target, self.length = other.kind, other.lens, other.target, other.length
        self.fields = list(other.fields)
        self.pack = other.pack

    @property
    def is_float(self) -> bool:
        return self.kind in FLOATS


# -- length expressions -------------------------------------------------------------------------


class Expr:
    """``NUM`` (const), ``argN`` (arg, 0-based), ``retval``, ``eltN`` (elt, 0-based), ``zero``/``zero(E)``.

    A value: equal and hashed by its parts.
    """

    __slots__ = ("op", "n", "inner")

    def __init__(self, op: str, n: int = 0, inner: Expr | None = None) -> None:
        self.op = op
        self.n = n
        self.inner = inner

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Expr:
            return NotImplemented
        return (self.op, self.n, self.inner) == (other.op, other.n, other.inner)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.op, self.n, self.inner))

    def __repr__(self) -> str:
        return f"Expr({self.op!r}, {self.n!r}, {self.inner!r})"


ZERO = Expr("zero")


def const_length(e: Any) -> int | None:
    """The value of a length known without running the program (ltrace: a compile-time constant)."""
    if isinstance(e, Expr) and e.op == "const":
        return e.n
    return None


# -- size and alignment ----------------------------------------------------------------------------


def _align(v: int, a: int) -> int:
    return (v + a - 1) // a * a if a > 1 else v


def alignof(t: Type, model: DataModel = LP64, _seen: frozenset[int] = frozenset()) -> int:
    if t.kind == STRUCT:
        if id(t) in _seen:
            return 1
        return max((alignof(f, model, _seen | {id(t)}) for f in t.fields), default=1)
    if t.kind == ARRAY:
        return alignof(t.target, model, _seen) if t.target is not None else 1
    return max(1, model.align.get(t.kind, 1))


def struct_layout(t: Type, model: DataModel = LP64, _seen: frozenset[int] = frozenset()) -> tuple[list[int], int]:
    """(offset of each field, size) as C lays the struct out (a struct inside itself counts as empty)."""
    offs = []
    sz = 0
    top = 0
    seen = _seen | {id(t)}
    for f in t.fields:
        a = alignof(f, model)
        sz = _align(sz, a)
        offs.append(sz)
        fs = 0 if f.kind == STRUCT and id(f) in seen else sizeof(f, model, seen)
        sz += max(fs, 0)
        top = max(top, a)
    return offs, _align(sz, top) if top else sz


def sizeof(t: Type, model: DataModel = LP64, _seen: frozenset[int] = frozenset()) -> int:
    """The size in bytes; 0 for an array whose length is known only at run time (ltrace's type.c:
    "flexible arrays don't count into the sizeof")."""
    if t.kind == STRUCT:
        return 0 if id(t) in _seen else struct_layout(t, model, _seen)[1]
    if t.kind == ARRAY:
        n = const_length(t.length)
        if t.target is None:
            return -1
        if n is None:
            return 0
        es = sizeof(t.target, model, _seen)
        return -1 if es < 0 else n * es
    return model.size.get(t.kind, model.word)
