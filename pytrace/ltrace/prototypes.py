"""ltrace's prototype files (ltrace.conf(5)) and the formatting of argument values, as ltrace prints them.

A prototype is ``RET NAME(PARAM, ...);``; ``typedef NAME = TYPE;`` names a type.
Types and lenses understood (both the Debian 0.7.3 legacy file and upstream's
per-library files):

* ``void char short ushort int uint long ulong float double bool``; ``addr`` and
  ``file`` (pointers shown in hex), ``octal``, ``format`` (printf-style pack);
* ``string``, ``stringN`` (at most argument N characters; ``string0``: the return
  value), ``string[EXPR]``, ``string(TYPE)``;
* ``struct(T, ...)``, ``array(T, EXPR)``, ``T*``; ``enum(A=1, B, ...)``,
  ``enum[T](...)``; lenses ``hex(T) oct(T) hide(T) bool(T) bitvec(T)``;
* expressions ``NUM``, ``argN``, ``retval``, ``zero``, ``zero(EXPR)``;
* ``+`` before a parameter: an output argument, printed when the call returns.

Numbers print as ltrace's lenses print them (``lens_default.c``): ``int`` in
decimal at the parameter's width, unsigned types with ``%u``, ``hex`` as
``%#x``, ``oct`` as ``0%o``, ``char`` quoted, strings with ltrace's escapes
(``\\n``, ``\\t``, ``\\001`` in octal, a double quote left as is) and cut at
``-s`` characters with ``...`` after the closing quote; a NULL pointer to
anything but void prints ``nil``.  An unknown function gets ltrace's default
prototype: four ``long`` arguments and a ``long`` result through the "guess"
lens (decimal between -10000 and 10000, hex otherwise).
"""

from __future__ import annotations

import math
import os
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Kinds.
VOID, INT, CHAR, FLOAT, DOUBLE, PTR, ARRAY, STRUCT, STRING, FORMAT, ENUM = range(11)
# Lenses (how an integer is shown).
L_DEFAULT, L_HEX, L_OCT, L_HIDE, L_BOOL, L_BITVEC, L_GUESS, L_UNSIGNED = range(8)

_M64 = (1 << 64) - 1


@dataclass(eq=False)
class Type:
    kind: int
    size: int = 8
    signed: bool = True
    lens: int = L_DEFAULT
    target: Type | None = None  # PTR / ARRAY element / STRING character type
    length: Any = None  # ARRAY / STRING length expression (None: zero-terminated string)
    fields: list[Type] = field(default_factory=list)  # STRUCT
    names: dict[int, str] = field(default_factory=dict)  # ENUM
    out: bool = False  # "+": printed at return

    def copy(self, **kw: Any) -> Type:
        t = Type(self.kind, self.size, self.signed, self.lens, self.target, self.length, self.fields,
                 self.names, self.out)
        for k, v in kw.items():
            setattr(t, k, v)
        return t

    @property
    def is_float(self) -> bool:
        return self.kind in (FLOAT, DOUBLE)


class Proto:
    """A function's prototype; what the per-call code asks of it is computed once, here."""

    __slots__ = ("name", "ret", "params", "first_out", "needs_floats", "simple")

    def __init__(self, name: str, ret: Type, params: list[Type]) -> None:
        self.name = name
        self.ret = ret
        self.params = params
        # Index of the first parameter printed at return (ltrace's split of the line at a "+").
        self.first_out = next((i for i, p in enumerate(params) if p.out), len(params))
        self.needs_floats = ret.is_float or any(p.is_float or p.kind == FORMAT for p in params)
        # Only integer-class parameters from registers: their raw values are just the first words.
        self.simple = len(params) <= 6 and not any(p.is_float or p.kind == FORMAT for p in params)


def _prim(kind: int, size: int, signed: bool = True, lens: int = L_DEFAULT) -> Type:
    return Type(kind, size, signed, lens)


def _primitives() -> dict[str, Type]:
    char = _prim(CHAR, 1)
    return {
        "void": Type(VOID, 0),
        "char": char,
        "short": _prim(INT, 2),
        "ushort": _prim(INT, 2, False),
        "int": _prim(INT, 4),
        "uint": _prim(INT, 4, False),
        "long": _prim(INT, 8),
        "ulong": _prim(INT, 8, False),
        "float": _prim(FLOAT, 4),
        "double": _prim(DOUBLE, 8),
        "bool": _prim(INT, 4, True, L_BOOL),
        "addr": Type(PTR, 8, False, L_HEX, Type(VOID, 0)),
        "file": Type(PTR, 8, False, L_HEX, Type(VOID, 0)),
        "octal": _prim(INT, 4, False, L_OCT),
        "format": Type(FORMAT, 8),
        "string": Type(STRING, 8, target=char),
        "unknown": _prim(INT, 8, True, L_GUESS),
        "ignore": _prim(INT, 8, True, L_HIDE),
    }


UNKNOWN = _prim(INT, 8, True, L_GUESS)
DEFAULT_PROTO_PARAMS = 4


def default_proto(name: str, nparams: int = DEFAULT_PROTO_PARAMS) -> Proto:
    """ltrace's prototype for a function it knows nothing about."""
    return Proto(name, UNKNOWN, [UNKNOWN] * nparams)


# -- parsing ------------------------------------------------------------------------

_TOKEN = re.compile(r'\s*(?:(?P<num>-?(?:0[xX][0-9a-fA-F]+|\d+))|(?P<id>[A-Za-z_][A-Za-z0-9_]*)'
                    r'|(?P<str>"[^"]*")|(?P<p>[()\[\],=*+;]))')


class ConfError(Exception):
    pass


class _Parser:
    def __init__(self, text: str, types: dict[str, Type]) -> None:
        self.toks: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                if text[pos:].strip() == "":
                    break
                raise ConfError(f"unexpected {text[pos:pos + 10]!r}")
            pos = m.end()
            kind = m.lastgroup
            assert kind is not None
            self.toks.append((kind, m.group(kind)))
        self.i = 0
        self.types = types

    def peek(self) -> str | None:
        return self.toks[self.i][1] if self.i < len(self.toks) else None

    def take(self, want: str | None = None) -> str:
        if self.i >= len(self.toks):
            raise ConfError("unexpected end")
        v = self.toks[self.i][1]
        if want is not None and v != want:
            raise ConfError(f"expected {want!r}, got {v!r}")
        self.i += 1
        return v

    def expr(self) -> Any:
        v = self.take()
        if re.fullmatch(r"-?\d+|-?0[xX][0-9a-fA-F]+", v):
            return int(v, 0)
        if v == "retval":
            return ("retval",)
        if v.startswith("arg") and v[3:].isdigit():
            return ("arg", int(v[3:]))
        if v.startswith("elt") and v[3:].isdigit():
            return ("arg", int(v[3:]))
        if v == "zero":
            if self.peek() == "(":
                self.take("(")
                inner = self.expr()
                self.take(")")
                return ("zero", inner)
            return ("zero", None)
        raise ConfError(f"bad expression {v!r}")

    def type(self) -> Type:
        out = False
        if self.peek() == "+":
            self.take()
            out = True
        t = self.base()
        while self.peek() == "*":
            self.take()
            t = Type(PTR, 8, False, L_DEFAULT, t)
        if out:
            t = t.copy(out=True)
        return t

    def base(self) -> Type:
        name = self.take()
        lenses = {"hex": L_HEX, "oct": L_OCT, "hide": L_HIDE, "bool": L_BOOL, "bitvec": L_BITVEC}
        if name in lenses:
            self.take("(")
            inner = self.type()
            self.take(")")
            return inner.copy(lens=lenses[name])
        if name == "struct":
            self.take("(")
            fields: list[Type] = []
            while self.peek() != ")":
                fields.append(self.type())
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return Type(STRUCT, 8 * max(1, len(fields)), fields=fields)
        if name == "array":
            self.take("(")
            elt = self.type()
            self.take(",")
            length = self.expr()
            self.take(")")
            return Type(ARRAY, 8, target=elt, length=length)
        if name == "enum":
            base = self.types["int"]
            if self.peek() == "[":
                self.take("[")
                base = self.type()
                self.take("]")
            self.take("(")
            names: dict[int, str] = {}
            nxt = 0
            while self.peek() != ")":
                n = self.take()
                if self.peek() == "=":
                    self.take()
                    nxt = int(self.take(), 0)
                names.setdefault(nxt & _M64, n)
                nxt += 1
                if self.peek() == ",":
                    self.take()
            self.take(")")
            return base.copy(kind=ENUM, names=names, target=base)
        if name == "format" and self.peek() == "(":  # format(wstring_t): wide formats print as narrow ones
            self.take("(")
            self.type()
            self.take(")")
            return self.types["format"]
        if name == "string" or re.fullmatch(r"string\d+", name):
            char = self.types["char"]
            if name != "string":
                n = int(name[6:])
                return Type(STRING, 8, target=char, length=("zero", ("retval",) if n == 0 else ("arg", n)))
            if self.peek() == "[":
                self.take("[")
                length = self.expr()
                self.take("]")
                return Type(STRING, 8, target=char, length=length)
            if self.peek() == "(":
                self.take("(")
                inner = self.type()
                self.take(")")
                return _string_of(inner, char)
            return Type(STRING, 8, target=char)
        if name in self.types:
            return self.types[name]
        raise ConfError(f"unknown type {name!r}")


def _string_of(inner: Type, char: Type) -> Type:
    """string(TYPE): a char array (or pointer to one) shown as a string."""
    if inner.kind == PTR and inner.target is not None and inner.target.kind == ARRAY:
        return Type(STRING, 8, target=char, length=inner.target.length)  # exactly N chars, NULs too
    if inner.kind == ARRAY:
        return Type(STRING, 8, target=char, length=inner.length)
    return Type(STRING, 8, target=char)


class Prototypes:
    """Every prototype read so far (later files override earlier ones), looked up by name."""

    def __init__(self) -> None:
        self.types: dict[str, Type] = _primitives()
        self.protos: dict[str, Proto] = {}
        self.errors: list[str] = []

    def get(self, name: str) -> Proto | None:
        return self.protos.get(name)

    def load_file(self, path: str | Path) -> None:
        try:
            text = Path(path).read_text(errors="replace")
        except OSError as exc:
            self.errors.append(f"{path}: {exc.strerror}")
            return
        self.load_text(text, str(path))

    def load_text(self, text: str, origin: str = "<text>") -> None:
        stmt = ""
        depth = 0
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not stmt and (not line or line[0] in ";#"):
                continue
            # A statement ends at the first ';' outside parentheses; the rest of the line is a comment.
            for ch in line:
                if ch == "(":
                    depth += 1
                elif ch == ")":
                    depth -= 1
                elif ch == ";" and depth <= 0:
                    self._statement(stmt, origin, lineno)
                    stmt, depth = "", 0
                    break
                elif ch == "#" and depth <= 0 and not stmt.strip():
                    break
                stmt += ch
            else:
                stmt += " "

    def _statement(self, stmt: str, origin: str, lineno: int) -> None:
        stmt = stmt.strip()
        if not stmt or stmt.startswith("import"):
            return
        try:
            p = _Parser(stmt, self.types)
            if p.peek() == "typedef":
                p.take()
                name = p.take()
                p.take("=")
                if p.peek() == "struct" and p.i + 1 == len(p.toks):
                    self.types[name] = Type(PTR, 8, False, L_HEX, Type(VOID, 0))  # forward declaration
                    return
                self.types[name] = p.type()
                return
            ret = p.type()
            name = p.take()
            p.take("(")
            params: list[Type] = []
            while p.peek() != ")":
                params.append(p.type())
                if p.peek() == ",":
                    p.take()
            p.take(")")
            if len(params) == 1 and params[0].kind == VOID:
                params = []
            self.protos[name] = Proto(name, ret, params)
        except ConfError as exc:
            self.errors.append(f"{origin}:{lineno}: {exc}")


SHIPPED = Path(__file__).with_name("libc.conf")


def default_files() -> list[str]:
    """The prototype files read without -F, lowest priority first.

    pyltrace's own ``libc.conf`` (libc, libm, libpthread), then the system's
    legacy ``/etc/ltrace.conf`` (Debian's ltrace 0.7.3), upstream's per-library
    ``/usr/share/ltrace/*.conf`` and the user's ``~/.ltrace.conf``, so that a
    prototype the system or the user gives wins over ours.
    """
    files = [str(SHIPPED)]
    if os.path.isfile("/etc/ltrace.conf"):
        files.append("/etc/ltrace.conf")
    share = Path("/usr/share/ltrace")
    if share.is_dir():
        files.extend(str(p) for p in sorted(share.glob("*.conf")))
    home = os.path.expanduser("~/.ltrace.conf")
    if os.path.isfile(home):
        files.append(home)
    return files


# -- values --------------------------------------------------------------------------


class ArgSource:
    """The arguments of one call as the x86-64 SysV ABI passes them.

    Integer-class values come from rdi, rsi, rdx, rcx, r8, r9 (syscalls: r10 for
    rcx) and then the stack above the return address; float-class ones from
    xmm0-7 (fetched only when a prototype needs them) and then the stack.
    """

    __slots__ = ("ints", "xmm", "mem", "sp", "ni", "nf", "nstack", "get_xmm")

    def __init__(self, ints: list[int], sp: int, mem: Any, get_xmm: Callable[[], list[bytes]] | None) -> None:
        self.ints = ints
        self.xmm: list[bytes] | None = None
        self.get_xmm = get_xmm
        self.mem = mem
        self.sp = sp
        self.ni = 0
        self.nf = 0
        self.nstack = 0

    def _stack(self) -> int:
        self.nstack += 1
        data = self.mem.read(self.sp + 8 * self.nstack, 8) if self.sp else None
        return struct.unpack("<Q", data)[0] if data else 0

    def next_int(self) -> int:
        if self.ni < len(self.ints):
            self.ni += 1
            return self.ints[self.ni - 1]
        return self._stack()

    def next_float(self) -> bytes:
        if self.nf < 8:
            if self.xmm is None:
                self.xmm = self.get_xmm() if self.get_xmm else []
            self.nf += 1
            if self.nf <= len(self.xmm):
                return self.xmm[self.nf - 1]
            return bytes(16)
        return struct.pack("<Q", self._stack()) + bytes(8)


@dataclass
class FmtCtx:
    mem: Any
    strlen: int = 32
    arraylen: int = 4
    args: list[Any] = field(default_factory=list)  # raw values of the parameters, for argN
    retval: int | None = None


def hexnum(v: int) -> str:
    """C's ``%#x``: ``0`` for zero, ``0x...`` otherwise (Python's ``#x`` gives ``0x0``)."""
    return f"{v:#x}" if v else "0"


def _signed(v: int, size: int) -> int:
    bits = size * 8
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def format_int(t: Type, v: int) -> str:
    size = t.size if t.size in (1, 2, 4, 8) else 8
    u = v & ((1 << (size * 8)) - 1)
    lens = t.lens
    if lens == L_HEX:
        return hexnum(u)
    if lens == L_OCT:
        return f"0{u:o}"
    if lens == L_BOOL:
        return "true" if u else "false"
    if lens == L_GUESS:
        # ltrace extracts the word zero-extended to the width (sign-extended at 8 bytes) and prints it in
        # decimal between -10000 and 10000, in hex otherwise.
        word = _signed(u, 8) if size == 8 else u
        if word < -10000 or word > 10000:
            return hexnum(u)
        return str(_signed(u, size))
    if lens == L_UNSIGNED or not t.signed:
        return str(u)
    return str(_signed(u, size))


_ESC = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r", 92: "\\\\"}


def format_char(c: int, quoted: bool) -> str:
    c &= 0xFF
    if c in _ESC:
        s = _ESC[c]
    elif 32 <= c < 127:
        s = chr(c)
    else:
        s = f"\\{c:03o}"
    return f"'{s}'" if quoted else s


def _eval(expr: Any, ctx: FmtCtx) -> int | None:
    if expr is None:
        return None
    if isinstance(expr, int):
        return expr
    if expr[0] == "retval":
        return ctx.retval
    if expr[0] == "arg":
        i = expr[1] - 1
        return ctx.args[i] if 0 <= i < len(ctx.args) and isinstance(ctx.args[i], int) else None
    return None


def format_string(addr: int, ctx: FmtCtx, length: Any) -> str:
    if addr == 0:
        return "nil"
    limit: int | None = None
    stop_at_nul = True
    if length is not None:
        if length[0] == "zero":
            limit = _eval(length[1], ctx) if length[1] is not None else None
        else:
            limit = _eval(length, ctx)
            stop_at_nul = False
    maxlen = ctx.strlen
    want = maxlen + 1 if limit is None else max(0, min(limit, maxlen + 1))
    if limit is not None and _signed(limit, 8) < 0:
        want = 0
    if stop_at_nul:
        got = ctx.mem.read_cstring(addr, want)
        if got is None:
            return f"{addr:#x}"
        data = got[0]
    else:
        data = ctx.mem.read_upto(addr, want) if want else b""
        if data is None:
            return f"{addr:#x}"
    text = "".join(format_char(b, False) for b in data[:maxlen])
    more = len(data) >= maxlen  # ltrace's format_array: "..." once the limit is reached, even exactly
    return f'"{text}"' + ("..." if more else "")


def format_value(t: Type, raw: Any, ctx: FmtCtx) -> str:
    """One value: ``raw`` is an int (integer class) or the bytes of an xmm register (float class)."""
    k = t.kind
    if t.lens == L_HIDE:
        return ""
    if k == VOID:
        return "<void>"
    if k == FLOAT or k == DOUBLE:
        if isinstance(raw, int):
            raw = struct.pack("<Q", raw & _M64)
        f = struct.unpack_from("<f" if k == FLOAT else "<d", raw)[0]
        return _cfloat(f)
    v = raw if isinstance(raw, int) else struct.unpack_from("<Q", raw)[0]
    if k == INT:
        if t.lens == L_BITVEC:
            return _bitvec(v, t.size)
        return format_int(t, v)
    if k == CHAR:
        if t.lens != L_DEFAULT:
            return format_int(t, v)
        return format_char(v, True)
    if k == ENUM:
        size = t.size if t.size in (1, 2, 4, 8) else 4
        key = v & ((1 << (size * 8)) - 1)
        for val, name in t.names.items():
            if (val & ((1 << (size * 8)) - 1)) == key:
                return name
        return format_int(t.target or t, v)
    if k == STRING:
        return format_string(v & _M64, ctx, t.length)
    if k == PTR:
        target = t.target
        if target is None or target.kind == VOID:
            return hexnum(v & _M64)
        if v == 0:
            return "nil"
        if t.lens == L_HEX:
            return hexnum(v & _M64)
        return _deref(target, v & _M64, ctx)
    if k == ARRAY:
        return _array(t, v & _M64, ctx)
    if k == STRUCT:
        return "{ " + ", ".join(format_value(f, 0, ctx) for f in t.fields) + " }"
    return format_int(UNKNOWN, v)


def _cfloat(f: float) -> str:
    if math.isnan(f):
        return "-nan" if math.copysign(1, f) < 0 else "nan"
    if math.isinf(f):
        return "-inf" if f < 0 else "inf"
    return f"{f:f}"


def _bitvec(v: int, size: int) -> str:
    bits = [i for i in range(size * 8) if (v >> i) & 1]
    neg = len(bits) > size * 4
    if neg:
        bits = [i for i in range(size * 8) if not (v >> i) & 1]
    parts: list[str] = []
    i = 0
    while i < len(bits):
        j = i
        while j + 1 < len(bits) and bits[j + 1] == bits[j] + 1:
            j += 1
        parts.append(str(bits[i] + 1) if i == j else f"{bits[i] + 1}-{bits[j] + 1}")
        i = j + 1
    return ("~" if neg else "") + "<" + ",".join(parts) + ">"


def _sizeof(t: Type) -> int:
    if t.kind == STRUCT:
        total = 0
        align = 1
        for f in t.fields:
            s = _sizeof(f)
            a = min(max(s, 1), 8)
            align = max(align, a)
            total = (total + a - 1) // a * a + s
        return (total + align - 1) // align * align
    if t.kind in (VOID,):
        return 1
    if t.kind in (ARRAY,):
        return 8
    return t.size or 8


def _read_scalar(t: Type, addr: int, ctx: FmtCtx) -> Any:
    size = _sizeof(t)
    data = ctx.mem.read(addr, size)
    if data is None:
        return None
    if t.is_float:
        return data + bytes(16 - len(data)) if len(data) < 16 else data
    return int.from_bytes(data[:8], "little")


def _deref(t: Type, addr: int, ctx: FmtCtx) -> str:
    if t.kind == STRUCT:
        return _struct_at(t, addr, ctx)
    if t.kind == ARRAY:
        return _array(t, addr, ctx)
    raw = _read_scalar(t, addr, ctx)
    if raw is None:
        return f"{addr:#x}"
    return format_value(t, raw, ctx)


def _struct_at(t: Type, addr: int, ctx: FmtCtx) -> str:
    off = 0
    parts = []
    for f in t.fields:
        s = _sizeof(f)
        a = min(max(s, 1), 8)
        off = (off + a - 1) // a * a
        if f.kind == STRUCT:
            parts.append(_struct_at(f, addr + off, ctx))
        else:
            raw = _read_scalar(f, addr + off, ctx)
            parts.append("?" if raw is None else format_value(f, raw, ctx))
        off += s
    return "{ " + ", ".join(p for p in parts if p != "") + " }"


def _array(t: Type, addr: int, ctx: FmtCtx) -> str:
    elt = t.target or UNKNOWN
    n = _eval(t.length, ctx) if t.length is not None else None
    if n is None:
        return f"{addr:#x}"
    if addr == 0:
        return "nil"
    size = _sizeof(elt)
    parts = []
    for i in range(min(n, ctx.arraylen)):
        if elt.kind == STRUCT:
            parts.append(_struct_at(elt, addr + i * size, ctx))
            continue
        raw = _read_scalar(elt, addr + i * size, ctx)
        parts.append("?" if raw is None else format_value(elt, raw, ctx))
    more = "..." if n > ctx.arraylen else ""
    if more:
        parts.append("...")
    return "[ " + ", ".join(parts) + " ]"


# -- printf-style formats ------------------------------------------------------------------

_CONV = re.compile(r"%(?P<flags>[-+ #0']*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
                   r"(?P<len>hh|h|ll|l|L|q|j|z|Z|t)?(?P<conv>[diouxXeEfFgGaAcsSpnm%])")


def format_printf(fmt_addr: int, src: ArgSource, ctx: FmtCtx) -> list[str]:
    """ltrace's ``format`` parameter pack: the format string, then one value per conversion."""
    out = [format_string(fmt_addr, ctx, None)]
    got = ctx.mem.read_cstring(fmt_addr, 4096) if fmt_addr else None
    if got is None:
        return out
    text = got[0].decode("latin-1")
    for m in _CONV.finditer(text):
        conv = m.group("conv")
        if conv in "%m":
            continue
        for star in (m.group("width"), m.group("prec")):
            if star == "*":
                out.append(format_int(_prim(INT, 4), src.next_int()))
        ln = m.group("len") or ""
        if conv in "eEfFgGaA":
            raw = src.next_float()
            if ln == "L":
                out.append(_cfloat(0.0))  # long double: passed on the stack, not supported
            else:
                out.append(_cfloat(struct.unpack_from("<d", raw)[0]))
            continue
        v = src.next_int()
        size = 8 if ln in ("l", "ll", "q", "j", "z", "Z", "t") else 2 if ln == "h" else 1 if ln == "hh" else 4
        if conv in "di":
            out.append(str(_signed(v, size)))
        elif conv == "u":
            out.append(str(v & ((1 << (size * 8)) - 1)))
        elif conv in "xX":
            out.append(hexnum(v & ((1 << (size * 8)) - 1)))
        elif conv == "o":
            out.append(f"0{v & ((1 << (size * 8)) - 1):o}")
        elif conv == "c":
            out.append(format_char(v, True))
        elif conv == "s":
            out.append(format_string(v & _M64, ctx, None))
        elif conv == "S":
            out.append(hexnum(v & _M64))
        else:  # p, n
            out.append(hexnum(v & _M64))
    return out


def format_params(params: list[Type], raws: list[Any], src: ArgSource, ctx: FmtCtx,
                  start: int, stop: int) -> list[str]:
    """The text of parameters ``start``..``stop``-1 (hidden ones dropped, a format expanded)."""
    out: list[str] = []
    for i in range(start, stop):
        t = params[i]
        if t.kind == FORMAT:
            out.extend(format_printf(raws[i], src, ctx))
            continue
        text = format_value(t, raws[i], ctx)
        if text != "" or t.lens != L_HIDE:
            out.append(text)
    return out


def fetch_raws(params: list[Type], src: ArgSource) -> list[Any]:
    """The raw value of each declared parameter (integer word or xmm bytes), in ABI order."""
    n = len(params)
    if n <= len(src.ints) and src.ni == 0 and not any(t.is_float or t.kind == FORMAT for t in params):
        src.ni = n
        return src.ints[:n]
    out: list[Any] = []
    for t in params:
        if t.kind == FORMAT:
            out.append(src.next_int())
            break  # the pack's values are fetched when the format string is read
        out.append(src.next_float() if t.is_float else src.next_int())
    while len(out) < len(params):
        out.append(0)
    return out
