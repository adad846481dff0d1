"""Values and how ltrace 0.7.3 prints them (``value.c``, ``lens_default.c``, ``lens_enum.c``, ``zero.c``).

A ``Val`` is typed data either held (a register's bytes, a struct passed by
value) or still in the tracee's memory at an address, read when it is shown.
Elements of structs and arrays and the targets of pointers are values whose
``parent`` is the value they came from: a value without a lens of its own is
shown through the nearest ancestor's lens (``hex(array(int, 3)*)`` prints the
ints in hex).  Every ``fmt_*`` function returns the text, or None where
ltrace's formatter fails (unreadable memory, a length it cannot evaluate).
"""

from __future__ import annotations

import math
import struct

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.ctypes_model import Expr, Lens, Type

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

M64 = (1 << 64) - 1
SCAN_CAP = 1 << 16  # elements a zero-terminated array is searched for its terminator


class Ctx:
    """What formatting needs besides the value: memory, -s/-A, the call's arguments and return value."""

    __slots__ = ("mem", "strlen", "arraylen", "args", "retval", "pointers", "unknown", "arg_types", "model")

    def __init__(self, mem: Any, strlen: int = 32, arraylen: int = 4, args: list[Any] | None = None,
                 retval: Any = None, model: T.DataModel = T.LP64) -> None:
        self.mem = mem
        self.model = model  # the tracee's type sizes: LP64 (x86-64) or ILP32 (i386)
        self.strlen = strlen
        self.arraylen = arraylen
        self.args = args if args is not None else []  # Val or int (the raw word) per declared parameter
        self.retval = retval  # Val or int, once the call returned
        self.pointers: list[Val] = []  # pointers being expanded (recursion detection)
        self.unknown = False  # a length named a value not known (yet): ltrace prints "?"
        self.arg_types: list[Type] = []  # the declared parameters' types (argN is a value of its type)


class Val:
    __slots__ = ("type", "data", "addr", "parent")

    def __init__(self, type_: Type, data: bytes | None = None, addr: int = 0, parent: Val | None = None) -> None:
        self.type = type_
        self.data = data
        self.addr = addr
        self.parent = parent

    def size(self, ctx: Ctx) -> int:
        t = self.type
        if t.kind != T.ARRAY:
            return T.sizeof(t, ctx.model)
        n = eval_expr(t.length, self, ctx)
        es = T.sizeof(t.target, ctx.model) if t.target is not None else -1
        if n is None or es < 0:
            return -1
        return n * es

    def get(self, ctx: Ctx) -> bytes | None:
        """The value's bytes (value_get_data): read from the tracee the first time."""
        if self.data is None:
            size = self.size(ctx)
            if size < 0 or size > SCAN_CAP * 8:
                return None
            data = ctx.mem.read(self.addr, size) if size else b""
            if data is None:
                return None
            self.data = data
        return self.data

    def word(self, ctx: Ctx) -> int | None:
        """value_extract_word: the first ``sizeof`` bytes, zero-extended (a signed long in ltrace)."""
        size = T.sizeof(self.type, ctx.model if ctx is not None else T.LP64)  # (held data needs no ctx)
        if size == 0:
            return 0
        if self.data is not None and size >= 0:
            raw = self.data[:min(size, 8)]
        else:
            got = self.get(ctx)
            if got is None:
                return None
            raw = got[:8]
        return int.from_bytes(raw, "little")

    def element(self, i: int, model: T.DataModel = T.LP64) -> Val:
        t = self.type
        if t.kind == T.STRUCT:
            off = T.struct_layout(t, model)[0][i]
            et = t.fields[i]
        else:
            assert t.target is not None
            et = t.target
            off = i * max(T.sizeof(et, model), 0)
        if self.data is not None:
            size = T.sizeof(et, model)
            if off + max(size, 0) <= len(self.data):
                return Val(et, self.data[off:off + size], 0, self)
        return Val(et, None, self.addr + off, self)

    def deref(self, ctx: Ctx) -> Val | None:
        w = self.word(ctx)
        if w is None or self.type.target is None:
            return None
        return Val(self.type.target, None, w, self)


def as_val(t: Type, raw: Any) -> Val:
    """A parameter's value from what the registers gave: an int (a word) or bytes (an xmm register, a struct)."""
    if isinstance(raw, Val):
        return raw
    if isinstance(raw, int) and t.kind == T.ARRAY:  # an array argument: the address of its first element
        return Val(t, None, raw & M64)
    if isinstance(raw, int):
        return Val(t, (raw & M64).to_bytes(8, "little"))
    return Val(t, bytes(raw))


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


# -- expressions (expr.c, zero.c) ------------------------------------------------------------------


def _word_of(x: Any, ctx: Ctx) -> int | None:
    if x is None:
        return None
    if isinstance(x, int):
        return x & M64
    return x.word(ctx)


def eval_expr(e: Any, self_val: Val, ctx: Ctx) -> int | None:
    """A length expression in the context of the array value it measures; None if it cannot be evaluated."""
    if not isinstance(e, Expr):
        return None
    if e.op == "const":
        return e.n
    if e.op in ("arg", "retval"):
        got = ctx.retval if e.op == "retval" else ctx.args[e.n] if 0 <= e.n < len(ctx.args) else None
        if got is None:
            ctx.unknown = True
            return None
        if isinstance(got, int) and e.op == "arg" and e.n < len(ctx.arg_types):
            got = as_val(ctx.arg_types[e.n], got)  # an int argument is its low four bytes
        return _word_of(got, ctx)
    if e.op == "elt":
        parent = self_val.parent
        while parent is not None and parent.type.kind != T.STRUCT:
            parent = parent.parent
        if parent is None or not 0 <= e.n < len(parent.type.fields):
            ctx.unknown = True
            return None
        return parent.element(e.n, ctx.model).word(ctx)
    if e.op == "zero":
        limit = SCAN_CAP if e.inner is None else eval_expr(e.inner, self_val, ctx)
        if limit is None:
            return None
        return _zero_length(self_val, min(limit & M64, SCAN_CAP), ctx)
    return None


def _zero_length(arr: Val, limit: int, ctx: Ctx) -> int | None:
    """How many elements come before the first all-zero one (at most ``limit``)."""
    et = arr.type.target
    es = T.sizeof(et, ctx.model) if et is not None else -1
    if es <= 0:
        return 0 if es == 0 else None
    if arr.data is not None:
        data = arr.data
        for i in range(min(limit, len(data) // es)):
            if not any(data[i * es:(i + 1) * es]):
                return i
        return min(limit, len(data) // es)
    i = 0
    chunk = 256 * es
    while i < limit:
        block = ctx.mem.read_upto(arr.addr + i * es, chunk)
        if not block:
            return None
        for j in range(len(block) // es):
            if i >= limit:
                return i
            if not any(block[j * es:(j + 1) * es]):
                return i
            i += 1
        if len(block) < es:
            return None
    return i


# -- formatting (lens_default.c) -------------------------------------------------------------------

INT_I, INT_U, INT_O, INT_X, INT_UNKNOWN, INT_DEFAULT = range(6)


def fmt(v: Val, ctx: Ctx) -> str | None:
    """format_argument: through the nearest lens up the parent chain."""
    p: Val | None = v
    while p is not None and p.type.lens is None:
        p = p.parent
    lens = p.type.lens if p is not None and p.type.lens is not None else T.DEFAULT_LENS
    return fmt_lens(lens, v, ctx)


def fmt_lens(lens: Lens, v: Val, ctx: Ctx) -> str | None:
    name = lens.name
    if name == "default":
        return toplevel(v, INT_DEFAULT, ctx)
    if name == "hide":
        return ""
    if name == "octal":
        return toplevel(v, INT_O, ctx)
    if name == "hex":
        return toplevel(v, INT_X, ctx)
    if name == "guess":
        return toplevel(v, INT_UNKNOWN, ctx)
    if name == "bool":
        if v.type.kind in T.INTEGRAL:
            data = v.get(ctx)
            return None if data is None else ("true" if any(data[:T.sizeof(v.type, ctx.model)]) else "false")
        return toplevel(v, INT_DEFAULT, ctx)
    if name == "string":
        return _string_lens(lens, v, ctx)
    if name == "bitvec":
        return _bitvec(v, ctx)
    if name == "enum":
        size = T.sizeof(v.type, ctx.model)
        data = v.get(ctx)
        if data is None:
            return None
        mask = (1 << (8 * size)) - 1 if size > 0 else 0
        mine = int.from_bytes(data[:size], "little")
        for key, val in lens.entries:
            if (val & mask) == mine:
                return key
        return toplevel(v, INT_DEFAULT, ctx)
    return toplevel(v, INT_DEFAULT, ctx)


def format_integer(v: Val, fmt_: int, ctx: Ctx) -> str | None:
    size = T.sizeof(v.type, ctx.model)
    if size not in (1, 2, 4, 8):
        return None
    word = v.word(ctx)
    if word is None:
        return None
    bits = size * 8
    i = _signed(word, bits)
    u = word & ((1 << bits) - 1)
    if fmt_ == INT_UNKNOWN:
        long_ = _signed(word, 64)
        fmt_ = INT_X if long_ < -10000 or long_ > 10000 else INT_I
    if fmt_ == INT_X:
        return f"{u:#x}" if u else "0"
    if fmt_ == INT_U:
        return str(u)
    if fmt_ == INT_O:
        return f"0{u:o}"
    return str(i)


_CHAR_ESC = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 92: "\\\\"}


def char_text(c: int) -> str:
    """format_char without the quotes (C locale: printable is 32..126)."""
    if c == -1:
        return "EOF"
    if c in _CHAR_ESC:
        return _CHAR_ESC[c]
    if 32 <= c < 127:
        return chr(c)
    return f"\\{c & 0xFFFFFFFF:03o}"


_CHAR_TEXT = [char_text(c) for c in range(256)]


def c_double(d: float, hex_: bool) -> str:
    """C's ``%f`` (or ``%a`` for the hex lens)."""
    if math.isnan(d):
        return "-nan" if math.copysign(1.0, d) < 0 else "nan"
    if math.isinf(d):
        return "-inf" if d < 0 else "inf"
    if not hex_:
        return f"{d:f}"
    if d == 0:
        return "-0x0p+0" if math.copysign(1.0, d) < 0 else "0x0p+0"
    text = d.hex()  # '-0x1.8000000000000p+1'
    mant, exp = text.split("p")
    if "." in mant:
        mant = mant.rstrip("0").rstrip(".")
    return f"{mant}p{exp}"


def toplevel(v: Val, fmt_: int, ctx: Ctx) -> str | None:
    k = v.type.kind
    if k == T.VOID:
        return "<void>"
    if k in (T.SHORT, T.INT, T.LONG):
        return format_integer(v, fmt_, ctx)
    if k in (T.USHORT, T.UINT, T.ULONG):
        return format_integer(v, INT_U if fmt_ in (INT_I, INT_DEFAULT) else fmt_, ctx)
    if k == T.CHAR:
        if fmt_ == INT_DEFAULT:
            w = v.word(ctx)
            return None if w is None else f"'{char_text(w)}'"
        return format_integer(v, fmt_, ctx)
    if k in T.FLOATS:
        data = v.get(ctx)
        if data is None or len(data) < T.sizeof(v.type, ctx.model):
            return None
        d = struct.unpack_from("<f" if k == T.FLOAT else "<d", data)[0]
        return c_double(d, fmt_ == INT_X)
    if k == T.STRUCT:
        parts = ["{ "]
        need_delim = False
        for i in range(len(v.type.fields)):
            s = fmt(v.element(i, ctx.model), ctx)
            if s is None:
                return None
            if need_delim and s:
                parts.append(", ")
            parts.append(s)
            need_delim = need_delim or bool(s)
        parts.append(" }")
        return "".join(parts)
    if k == T.POINTER:
        if v.type.target is not None and v.type.target.kind != T.VOID:
            return format_pointer(v, ctx)
        return format_integer(v, INT_X, ctx)
    if k == T.ARRAY:
        return format_array(v, ctx, ctx.arraylen, True, "[ ", " ]", ", ")
    return None


def format_pointer(v: Val, ctx: Ctx) -> str | None:
    data = v.get(ctx)
    if data is None:
        return None
    word = ctx.model.word
    if not any(data[:word]):
        return "nil"
    pointee = v.type.target
    stack = ctx.pointers
    if pointee is not None and pointee.kind == T.STRUCT:
        depth = sum(1 for old in stack if old.type.target is pointee)
        if depth >= ctx.arraylen:
            return "..."
    mine = data[:word]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i].get(ctx) is not None and stack[i].data[:word] == mine:  # type: ignore[index]
            return "recurse" + "^" * (len(stack) - i - 1)
    stack.append(v)
    try:
        el = v.deref(ctx)
        text = None if el is None else fmt(el, ctx)
    finally:
        stack.pop()
    if text is None and not ctx.unknown:
        # Unreadable memory: ltrace shows whatever its failed read left in the buffer; the address
        # tells more, and the rest of the enclosing value still prints.
        w = int.from_bytes(mine, "little")
        return f"{w:#x}"
    return text


def format_array(v: Val, ctx: Ctx, maxlen: int, before: bool, open_: str, close: str, delim: str) -> str | None:
    n = eval_expr(v.type.length, v, ctx)
    if n is None:
        return None
    n &= M64
    et = v.type.target
    es = T.sizeof(et, ctx.model) if et is not None else -1
    if v.data is None and es > 0:  # read the part shown at once, not element by element
        want = min(n, maxlen) * es
        block = ctx.mem.read(v.addr, want) if want else b""
        if block is not None:
            v = Val(v.type, block, v.addr, v.parent)
    if not before and et is not None and et.kind == T.CHAR and et.lens is None and v.data is not None:
        # A string of plain chars (the common case): the same text as the loop below, in one pass.
        shown = min(n, maxlen)
        if len(v.data) >= shown:
            text = "".join([_CHAR_TEXT[b] for b in v.data[:shown]])
            return f"{open_}{text}{close}" + ("..." if n >= maxlen else "")
    out = [open_]
    i = 0
    while i < n and i <= maxlen:
        if i == maxlen:
            if before:
                out.append("...")
            break
        if i > 0:
            out.append(delim)
        s = fmt(v.element(i, ctx.model), ctx)
        if s is None:
            return None
        out.append(s)
        i += 1
    out.append(close)
    if i == maxlen and not before:
        out.append("...")
    return "".join(out)


def _string_lens(lens: Lens, v: Val, ctx: Ctx) -> str | None:
    k = v.type.kind
    if k == T.POINTER and v.type.target is not None and v.type.target.kind == T.CHAR:
        arr = Type(T.ARRAY, target=v.type.target, length=T.ZERO)
        ptr = Type(T.POINTER, lens=lens, target=arr)
        return fmt_lens(lens, Val(ptr, v.data, v.addr, v.parent), ctx)
    if k == T.CHAR:
        w = v.word(ctx)
        return None if w is None else char_text(w)
    if k == T.ARRAY:
        return format_array(v, ctx, ctx.strlen, False, '"', '"', "")
    return toplevel(v, INT_DEFAULT, ctx)


def _bitvec(v: Val, ctx: Ctx) -> str | None:
    k = v.type.kind
    if k == T.POINTER:
        return format_pointer(v, ctx)
    data = v.get(ctx)
    if data is None:
        return None
    sz = T.sizeof(v.type, ctx.model)
    data = data[:sz]
    bits = sum(bin(b).count("1") for b in data)
    neg = 0xFF if bits > sz * 4 else 0
    ranges: list[str] = []
    low = -1
    bitno = 0
    for byte in data:
        d = byte ^ neg
        for m in range(8):
            bit = (d >> m) & 1
            if low < 0:
                if bit:
                    low = bitno
            elif not bit:
                ranges.append(str(low) if low == bitno - 1 else f"{low}-{bitno - 1}")
                low = -1
            bitno += 1
    if low >= 0:
        ranges.append(str(low) if low == bitno - 1 else f"{low}-{bitno - 1}")
    return ("~" if neg else "") + "<" + ",".join(ranges) + ">"
