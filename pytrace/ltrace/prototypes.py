"""Prototypes for pyltrace: which files are read, the functions found there, and their arguments' values.

The language and its reader are ltrace 0.7.3's (``protoparse.py``, the type
model in ``ctypes_model.py``); values print as ltrace prints them
(``values.py``); arguments are found where the x86-64 calling convention puts
them (``abi.py``), printf-style ``format`` packs expand as ltrace expands them
(``printf_pack.py``).

Which files: without ``-F``, ltrace 0.7.3 reads ``/etc/ltrace.conf`` and then
``~/.ltrace.conf`` (a later prototype of the same name wins).  pyltrace ships
a copy of the ``/etc/ltrace.conf`` that Debian's ltrace 0.7.3 installs
(``ltrace.conf`` next to this module) and reads it in place of the system's
file when the system has none, so a machine without ltrace prints the same.
``-F FILE`` (repeatable) replaces both, as in ltrace.  pyltrace's own richer
prototypes (``libc.conf``: strtol, memcmp, pthread_*...) are read, under all
of these, only with ``--extra-prototypes``.

An unknown function gets ltrace's default prototype: four ``long`` arguments
and a ``long`` result through the "guess" lens (decimal between -10000 and
10000, hex otherwise).
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable

from pytrace.ltrace import abi
from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace import values as V
from pytrace.ltrace.ctypes_model import Type
from pytrace.ltrace.printf_pack import pack_types

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from pytrace.ltrace.protoparse import Function

# Re-exported for the tracer: the kinds it tests.
VOID = T.VOID
FmtCtx = V.Ctx

UNKNOWN = Type(T.LONG, lens=T.GUESS)
DEFAULT_PROTO_PARAMS = 4

# Paths as str, not pathlib.Path: pathlib is ~3 ms of imports where site has not loaded it.
SHIPPED_LTRACE_CONF = os.path.join(os.path.dirname(__file__), "ltrace.conf")
EXTRA = os.path.join(os.path.dirname(__file__), "libc.conf")
SHIPPED = EXTRA  # (the older name of pyltrace's own prototypes)
MAX_CONF_BYTES = 64 << 20


class Proto:
    """A function's prototype; what the per-call code asks of it is computed once, here."""

    __slots__ = ("name", "ret", "params", "first_out", "needs_floats", "simple", "pack", "hidden_ret")

    def __init__(self, name: str, ret: Type, params: list[Type], first_out: int | None = None,
                 pack: int | None = None) -> None:
        self.name = name
        self.ret = ret
        self.params = params
        # Index of the first parameter printed at return (ltrace's "stop" at a "+").
        self.first_out = len(params) if first_out is None else first_out
        self.pack = pack
        ret_classes = abi.classify(ret) if ret.kind != T.VOID else []
        # A MEMORY-class result is written where a hidden first argument (rdi) points.
        self.hidden_ret = ret_classes is None
        self.needs_floats = (pack is not None or abi.SSE in (ret_classes or ())
                             or any(abi.classify(p) != [abi.INTEGER] for p in params))
        # Only integer-class parameters from registers: their raw values are just the first words.
        self.simple = (len(params) <= 6 and pack is None and not self.hidden_ret
                       and all(abi.classify(p) == [abi.INTEGER] for p in params))


def default_proto(name: str, nparams: int = DEFAULT_PROTO_PARAMS) -> Proto:
    """ltrace's prototype for a function it knows nothing about."""
    return Proto(name, UNKNOWN, [UNKNOWN] * nparams)


class Prototypes:
    """Every prototype read so far (later files and lines override earlier ones), looked up by name.

    ``errors`` collects ltrace's messages (``FILE:LINE: error: ...``); the CLI
    prints them on stderr as ltrace does, before the trace.
    """

    def __init__(self) -> None:
        # Not at the top: a run whose prototypes come from the cache parses nothing.
        from pytrace.ltrace.protoparse import Reader

        self.errors: list[str] = []
        self.reader = Reader(self.errors.append)
        self._protos: dict[str, Proto] = {}

    @property
    def protos(self) -> dict[str, Function]:
        return self.reader.functions

    def get(self, name: str) -> Proto | None:
        p = self._protos.get(name)
        if p is None:
            fun = self._function(name)
            if fun is None:
                return None
            p = self._protos[name] = Proto(name, fun.ret, fun.params, fun.first_out, fun.pack)
        return p

    def _function(self, name: str) -> Function | None:
        """The prototype read for ``name`` (proto_cache.StoredPrototypes rebuilds it from its entry)."""
        return self.reader.functions.get(name)

    def load_file(self, path: str | Path) -> None:
        """A file ltrace cannot open is skipped without a word, as ltrace does."""
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_CONF_BYTES)  # (-F /dev/zero: ltrace reads forever; pyltrace stops here)
        except OSError:
            return
        self.load_text(data.decode("latin-1"), str(path))

    def load_text(self, text: str, origin: str = "<text>") -> None:
        self._protos.clear()
        self.reader.read_text(text, origin)


class SearchPath:
    """Where prototype files are looked for without -F (injectable: tests hide the system's file).

    A plain class, not a record: every run makes one (pytrace.records' per-class work is start-up cost).
    """

    __slots__ = ("system", "user", "extra")
    SYSTEM = "/etc/ltrace.conf"
    USER = "~/.ltrace.conf"

    def __init__(self, system: str = SYSTEM, user: str = USER, extra: bool = False) -> None:
        self.system = system
        self.user = user
        self.extra = extra  # --extra-prototypes

    @classmethod
    def from_env(cls, extra: bool = False) -> SearchPath:
        """``PYLTRACE_SYSTEM_CONF`` names another system file (ltrace's is fixed at build time)."""
        return cls(os.environ.get("PYLTRACE_SYSTEM_CONF", cls.SYSTEM), cls.USER, extra)


def default_files(search: SearchPath | None = None) -> list[str]:
    """The prototype files read without -F, lowest priority first."""
    search = search or SearchPath()
    files = [str(EXTRA)] if search.extra else []
    files.append(search.system if os.path.isfile(search.system) else str(SHIPPED_LTRACE_CONF))
    user = search.user
    if user.startswith("~/"):
        # ltrace builds the name as "$HOME/.ltrace.conf" (so HOME=/x/ gives /x//.ltrace.conf in its
        # messages), and reads no user file without $HOME.
        if "HOME" not in os.environ:
            return files
        user = os.environ["HOME"] + user[1:]
    if os.path.isfile(user):
        files.append(user)
    return files


def config_files(configs: list[str], search: SearchPath | None = None) -> list[str]:
    """-F files if any (they replace the defaults, as in ltrace), else the defaults."""
    search = search or SearchPath()
    if configs:
        return ([str(EXTRA)] if search.extra else []) + list(configs)
    return default_files(search)


# -- fetching arguments -----------------------------------------------------------------------------


class ArgSource:
    """The arguments of one call as the x86-64 SysV ABI passes them.

    Integer-class eightbytes come from rdi, rsi, rdx, rcx, r8, r9 (syscalls: the
    six argument registers) and then the stack above the return address;
    SSE-class ones from xmm0-7 (fetched only when a prototype needs them) and
    then the stack.
    """

    __slots__ = ("ints", "xmm", "mem", "sp", "ni", "nf", "nstack", "get_xmm")
    model = T.LP64  # the type sizes of the values it fetches

    def __init__(self, ints: list[int], sp: int, mem: Any, get_xmm: Callable[[], list[bytes]] | None) -> None:
        self.ints = ints
        self.xmm: list[bytes] | None = None
        self.get_xmm = get_xmm
        self.mem = mem
        self.sp = sp
        self.ni = 0
        self.nf = 0
        self.nstack = 0

    def stack_bytes(self, size: int) -> bytes:
        """The next ``size`` bytes of stack arguments (8-byte slots)."""
        slots = max(1, (size + 7) // 8)
        addr = self.sp + 8 * (self.nstack + 1)
        self.nstack += slots
        data = self.mem.read(addr, 8 * slots) if self.sp else None
        return data[:size] if data else bytes(size)

    def _stack(self) -> int:
        return struct.unpack("<Q", self.stack_bytes(8))[0]

    def next_int(self) -> int:
        if self.ni < len(self.ints):
            self.ni += 1
            return self.ints[self.ni - 1]
        return self._stack()

    def _xmm_regs(self) -> list[bytes]:
        if self.xmm is None:
            self.xmm = self.get_xmm() if self.get_xmm else []
        return self.xmm

    def next_float(self) -> bytes:
        if self.nf < 8:
            regs = self._xmm_regs()
            self.nf += 1
            return regs[self.nf - 1] if self.nf <= len(regs) else bytes(16)
        return self.stack_bytes(8) + bytes(8)

    def fetch(self, t: Type) -> V.Val:
        """The next argument of type ``t``."""
        k = t.kind
        if k in T.FLOATS:
            return V.Val(t, self.next_float()[:T.sizeof(t)])
        if k == T.ARRAY:  # an array argument is a pointer to its first element
            return V.Val(t, None, self.next_int())
        if k != T.STRUCT:
            return V.Val(t, (self.next_int() & V.M64).to_bytes(8, "little"))
        size = T.sizeof(t)
        classes = abi.classify(t)
        if classes is None:
            return V.Val(t, self.stack_bytes(size))
        n_int = classes.count(abi.INTEGER)
        n_sse = len(classes) - n_int
        if self.ni + n_int > len(self.ints) or self.nf + n_sse > 8:
            return V.Val(t, self.stack_bytes(size))
        data = b"".join(self.next_int().to_bytes(8, "little") if c == abi.INTEGER else self.next_float()[:8]
                        for c in classes)
        return V.Val(t, data[:size])


def fetch_raws(params: list[Type], src: ArgSource, ret: Type | None = None) -> list[Any]:
    """Every argument's value, in ABI order; a ``format`` pack's values follow the declared ones.

    ``ret``: the result's type (a MEMORY-class struct takes rdi for the address it is written to).
    """
    if ret is not None and ret.kind == T.STRUCT and abi.classify(ret) is None and src.ni == 0:
        src.next_int()
    n = len(params)
    if n <= len(src.ints) and src.ni == 0 and all(p.kind in T.INTEGRAL or p.kind == T.POINTER and not p.pack
                                                  for p in params):
        src.ni = n
        return src.ints[:n]
    out: list[Any] = [src.fetch(p) for p in params]
    for i, p in enumerate(params):
        if p.pack:
            out.extend(expand_pack(out[i], src))
            break
    return out


def expand_pack(fmt_val: V.Val, src: Any) -> list[V.Val]:
    """The values a printf-style ``format`` argument asks for, fetched by ``src`` (an ArgSource, or
    abi_i386.StackArgs) one after the other."""
    ctx = V.Ctx(src.mem, 0, 0, model=src.model)
    target = fmt_val.deref(ctx)
    if target is None or fmt_val.word(ctx) == 0 or target.type.kind != T.ARRAY:
        return []
    data = target.get(ctx)
    if data is None:
        return []
    vals: list[V.Val] = []

    def last_word() -> int | None:
        return vals[-1].word(ctx) if vals else None

    for t in pack_types(data, last_word):
        vals.append(src.fetch(t))
    return vals


def return_raw(t: Type, rax: int, rdx: int, get_xmm: Callable[[], list[bytes]]) -> Any:
    """The returned value: rax (integers, pointers), xmm0 (float, double), or a struct from rax/rdx and
    xmm0/xmm1 by its eightbytes' classes (a MEMORY-class one: rax is its address)."""
    if t.kind in T.FLOATS:
        xmm = get_xmm()
        return xmm[0] if xmm else bytes(16)
    if t.kind != T.STRUCT:
        return rax
    classes = abi.classify(t)
    if classes is None:
        return V.Val(t, None, rax & V.M64)
    ints = [rax, rdx]
    sse = get_xmm() if abi.SSE in classes else []
    sse = sse if len(sse) >= 2 else [bytes(16), bytes(16)]
    parts = []
    for c in classes:
        if c == abi.INTEGER:
            parts.append((ints.pop(0) & V.M64).to_bytes(8, "little"))
        else:
            parts.append(sse.pop(0)[:8])
    return V.Val(t, b"".join(parts)[:T.sizeof(t)])


def retval_of(t: Type, raw: Any) -> V.Val | None:
    """The result as ``retval``/``arg0`` sees it: a value of the declared type (an ``int`` result is its
    low four bytes); none for ``void``."""
    if t.kind == T.VOID:
        return V.Val(t, b"")
    return V.as_val(t, raw)


# -- formatting --------------------------------------------------------------------------------------


def format_value(t: Type, raw: Any, ctx: V.Ctx) -> str:
    """One value: ``raw`` is a word (int), register bytes, or a Val."""
    if isinstance(raw, int) and t.kind == T.STRUCT and abi.classify(t) is None:
        v = V.Val(t, None, raw)  # a MEMORY-class struct returned: rax holds its address
    else:
        v = V.as_val(t, raw)
    try:
        text = V.fmt(v, ctx)
    except RecursionError:  # a pointer chain deeper than Python's stack: show the first address
        text = None
        ctx.pointers.clear()
    if text is None and ctx.unknown:  # a length from a value not known yet (retval at entry)
        ctx.unknown = False
        return "?"
    if text is None:
        # ltrace prints whatever its failed read left in the buffer; the address itself is more use.
        w = v.word(ctx) if v.data is not None else v.addr
        return "?" if w is None else (f"{w:#x}" if w else "0")
    return text


def format_params(params: list[Type], raws: list[Any], src: ArgSource | None, ctx: V.Ctx,
                  start: int, stop: int) -> list[str]:
    """The text of arguments ``start``..``stop``-1 (to the end of a pack when ``stop`` is the last parameter);
    hidden ones are left out."""
    ctx.arg_types = params
    if start < len(params) <= stop:
        stop = len(raws)
    out: list[str] = []
    for i in range(start, stop):
        raw = raws[i]
        t = params[i] if i < len(params) else raw.type
        text = format_value(t, raw, ctx)
        if text:
            out.append(text)
    return out
