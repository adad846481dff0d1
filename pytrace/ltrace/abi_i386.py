"""Where the i386 System V calling convention (cdecl) puts each argument and the return value.

Every argument is on the stack: at a PLT stub's first instruction ``[esp]`` is
the return address and the arguments follow from ``[esp+4]``, each in a slot
of its size rounded up to 4 bytes (a ``char`` takes 4, a ``double`` 8, a struct
passed by value is copied there whole).  Variadic arguments are no different.
Integers and pointers come back in ``eax``, floating-point values in the x87
register ``st(0)`` (80-bit extended precision, converted to the declared
type), and a struct is always returned through a hidden pointer pushed before
the first argument, which the callee also returns in ``eax``.

Type sizes are ILP32 (``ctypes_model.ILP32``): ``long`` and pointers are 4 bytes.
ltrace's prototype language has no 64-bit integer type, so ``edx`` (the high
half of a ``long long`` result) is never read, as in ltrace.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace import values as V
from pytrace.ltrace.ctypes_model import Type
from pytrace.ltrace.prototypes import expand_pack

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

MODEL = T.ILP32
_M32 = 0xFFFFFFFF
_BLOCK = 64  # stack bytes read at once: most calls' arguments in one read


class StackArgs:
    """The arguments of one i386 call, read from the stack one after the other.

    It offers what prototypes.fetch_raws and expand_pack ask of an argument
    source: ``fetch``, ``mem``, ``model``, and an empty ``ints`` (no register
    arguments, so their register fast path never applies).
    """

    __slots__ = ("mem", "sp", "offset", "ints", "ni", "_block", "_block_at")
    model = MODEL

    def __init__(self, mem: Any, sp: int) -> None:
        self.mem = mem
        self.sp = sp  # esp at the function's entry: [sp] is the return address
        self.offset = 4
        self.ints: list[int] = []
        self.ni = 0
        self._block = b""
        self._block_at = 0

    def take(self, size: int) -> bytes:
        """The next argument slot's first ``size`` bytes (zeros where the stack cannot be read)."""
        slot = max(4, (size + 3) & ~3)
        off = self.offset
        self.offset += slot
        lo = off - self._block_at
        if lo < 0 or lo + size > len(self._block):
            block = self.mem.read_upto(self.sp + off, max(_BLOCK, slot)) if self.sp else None
            self._block, self._block_at, lo = (block or b""), off, 0
        data = self._block[lo:lo + size]
        return data if len(data) == size else bytes(size)

    def skip_hidden_result(self) -> None:
        """A struct result: the caller pushed the address to write it to before the first argument."""
        self.offset += 4

    def fetch(self, t: Type) -> V.Val:
        """The next argument of type ``t``."""
        k = t.kind
        if k == T.ARRAY:  # an array argument is a pointer to its first element
            return V.Val(t, None, int.from_bytes(self.take(4), "little"))
        size = T.sizeof(t, MODEL)
        return V.Val(t, self.take(max(size, 0)))


def fetch_raws(params: list[Type], ret: Type, src: StackArgs) -> list[Any]:
    """Every argument's value in order; a ``format`` pack's values follow the declared ones."""
    if ret.kind == T.STRUCT:
        src.skip_hidden_result()
    out: list[Any] = [src.fetch(p) for p in params]
    for i, p in enumerate(params):
        if p.pack:
            out.extend(expand_pack(out[i], src))
            break
    return out


def x87_to_float(raw: bytes) -> float:
    """An 80-bit x87 extended-precision value (10 bytes, little-endian) as a Python float."""
    mant = int.from_bytes(raw[:8], "little")
    se = int.from_bytes(raw[8:10], "little")
    sign = -1.0 if se >> 15 else 1.0
    exp = se & 0x7FFF
    if exp == 0x7FFF:
        return sign * math.inf if not mant << 1 & ((1 << 64) - 1) else math.copysign(math.nan, sign)
    try:
        return sign * math.ldexp(mant, exp - 16383 - 63)
    except OverflowError:
        return sign * math.inf


def return_raw(t: Type, eax: int, get_st0: Callable[[], bytes | None]) -> Any:
    """The returned value: eax (integers, pointers), st(0) as the declared float type, or the struct
    eax points to (the hidden result pointer, which the callee returns)."""
    if t.kind in T.FLOATS:
        st0 = get_st0()
        d = x87_to_float(st0) if st0 else 0.0
        if t.kind == T.FLOAT:
            try:
                return struct.pack("<f", d)
            except OverflowError:
                return struct.pack("<f", math.copysign(math.inf, d))
        return struct.pack("<d", d)
    if t.kind == T.STRUCT:
        return V.Val(t, None, eax & _M32)
    return eax & _M32
