"""Plain integer values formatted straight from their word, for the eBPF consumer's per-record path.

Most prototypes a trace meets are integers all the way (``long labs(long)``,
ltrace's guess for an unknown function: four ``long``s through the ``guess``
lens).  Formatting such a value the general way (prototypes.format_value:
a ``Val``, its bytes, the lens chain, values.toplevel) costs several
microseconds of Python per argument; here each parameter's formatter is chosen
once per prototype -- a function of the 64-bit word -- and gives the same text
as values.toplevel for every word (tests/ltrace/test_fast_format.py checks it
against format_value).  Anything else (pointers, strings, chars, structs,
floats, ``hide``/``bool``/``enum``/``bitvec`` lenses, out-parameters) keeps the
general path: ``formatters`` then returns None.
"""

from __future__ import annotations

from collections.abc import Callable

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.prototypes import Proto

Formatter = Callable[[int], str]
_SIGNED = (T.SHORT, T.INT, T.LONG)
_UNSIGNED = (T.USHORT, T.UINT, T.ULONG)


def word_formatter(t: T.Type) -> Formatter | None:
    """The text of a value of type ``t`` from its register word, as values.toplevel prints it; None when ``t``
    is not a plain integer shown through the default, ``hex``, ``octal`` or ``guess`` lens."""
    if t.kind not in _SIGNED and t.kind not in _UNSIGNED:
        return None
    lens = t.lens.name if t.lens is not None else "default"
    size = T.sizeof(t)
    if size not in (1, 2, 4, 8):
        return None
    bits = 8 * size
    mask = (1 << bits) - 1
    top = 1 << (bits - 1)

    def signed(w: int) -> int:
        w &= mask
        return w - (1 << bits) if w & top else w

    if lens == "hex":
        return lambda w: f"{w & mask:#x}" if w & mask else "0"
    if lens == "octal":
        return lambda w: f"0{w & mask:o}"
    if lens == "guess":  # hex unless the value's bytes, read as a signed 64-bit word, are within +-10000
        def guess(w: int) -> str:
            u = w & mask
            long_ = u - (1 << 64) if u >> 63 else u
            if long_ < -10000 or long_ > 10000:
                return f"{u:#x}" if u else "0"
            return str(signed(u))
        return guess
    if lens != "default":
        return None
    if t.kind in _SIGNED:
        return lambda w: str(signed(w))
    return lambda w: str(w & mask)


def formatters(proto: Proto) -> tuple[list[Formatter], Formatter | None] | None:
    """(each parameter's formatter, the result's -- None for ``void``) when every parameter arrives in a
    register and is a plain integer printed at the entry, and so is the result; else None."""
    if not proto.simple or proto.first_out != len(proto.params):
        return None
    params = [word_formatter(p) for p in proto.params]
    if any(f is None for f in params):
        return None
    if proto.ret.kind == T.VOID:
        ret = None
    else:
        ret = word_formatter(proto.ret)
        if ret is None:
            return None
    return [f for f in params if f is not None], ret
