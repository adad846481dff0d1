"""ltrace 0.7.3's ``format`` parameter pack (``printf.c``): the types a printf-style format asks for.

The format string is walked as ltrace walks it, quirks included, because the
types decide what is fetched and how it prints:

* flags ``# -+I'`` are skipped; digits of the width *and* of the precision (the
  ``.`` is just skipped) are collected, and only a ``%s`` uses them, as the
  maximum length of the string (``%5.3s`` reads at most 53 characters);
* ``*`` is an ``int`` argument of its own; its value (and the value of every
  argument fetched after it until a ``%s`` takes it) becomes the next ``%s``'s
  maximum length;
* ``h``/``l`` pick ``char``/``short``/``int``/``long``/``ulong`` (``%hhd`` prints as a
  quoted character, ``%lld`` as unsigned); ``q`` and ``j`` count as ``ll``, ``z``
  ``Z`` ``t`` as ``l``; every floating conversion is a ``double`` (``%Lf`` too);
* ``%o`` prints in octal, ``%x``/``%X`` in hex, ``%c`` as a character, ``%s`` as a
  string, ``%p``/``%n`` as a pointer; ``%m`` and ``%%`` take nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.ctypes_model import Expr, Type

_INTS = (T.CHAR, T.SHORT, T.INT, T.LONG, T.ULONG)
_UINTS = (T.CHAR, T.USHORT, T.UINT, T.ULONG, T.ULONG)


def pack_types(fmt: bytes, last_word: Callable[[], int | None]) -> Iterator[Type]:
    """The type of each value the format consumes, in order.

    ``last_word`` gives the word of the value fetched for the previous type
    (ltrace's ``param_printf_stop``): a ``*`` length comes from it.
    """
    percent = False
    future: int | None = None
    have_future = False
    i = 0
    n = len(fmt)
    while True:
        hlf = lng = 0
        len_buf = ""
        lens: T.Lens | None = None
        kind = None
        elt = None
        while i < n:
            ch = chr(fmt[i])
            if not percent:
                if ch == "%":
                    percent = True
                i += 1
                continue
            if ch in "# -+I'":
                i += 1
                continue
            if ch == "*":
                have_future = True
                i += 1
                kind = T.INT
                break
            if ch.isdigit():
                if len(len_buf) < 24:
                    len_buf += ch
                i += 1
                continue
            if ch == "h":
                hlf = min(hlf + 1, 2)
            elif ch == "l":
                lng = min(lng + 1, 2)
            elif ch in "qj":
                lng = 2
            elif ch in "LtZz":
                lng = 1
            elif ch in "di":
                kind = T.INT
            elif ch in "oxXu":
                lens = T.OCTAL if ch == "o" else T.HEX if ch in "xX" else None
                kind = T.UINT
            elif ch in "eEfFgGaA":
                kind = T.DOUBLE
            elif ch in "Cc":
                if ch == "C" and lng == 0:
                    lng = 1
                kind = T.CHAR
            elif ch in "Ss":
                if ch == "S" and lng == 0:
                    lng = 1
                kind = T.ARRAY
                elt = T.CHAR
                lens = T.STRING
            elif ch in "pn":
                kind = T.POINTER
                elt = T.VOID
            elif ch in "m%":
                lng = hlf = 0
                percent = False
                i += 1
                continue
            else:
                i += 1
                continue
            if kind is not None:
                percent = False
                break
            i += 1
        if kind is None:
            return
        if kind == T.INT:
            kind = _INTS[2 + lng - hlf]
        elif kind == T.UINT:
            kind = _UINTS[2 + lng - hlf]
        if kind == T.ARRAY:
            if len_buf or have_future:
                if have_future:
                    length = future if future is not None else 0
                    have_future = False
                    future = None
                else:
                    length = _atol(len_buf)
                size = Expr("zero", inner=Expr("const", length))
            else:
                size = T.ZERO
            t = Type(T.POINTER, lens=lens, target=Type(T.ARRAY, target=Type(elt or T.CHAR), length=size))
        elif kind == T.POINTER:
            t = Type(T.POINTER, lens=lens, target=Type(T.VOID))
        else:
            t = Type(kind, lens=lens)
        yield t
        if have_future:
            w = last_word()
            if w is not None:
                future = w if w < (1 << 63) else w - (1 << 64)


def _atol(text: str) -> int:
    v = 0
    for ch in text:
        v = v * 10 + int(ch)
    return v
