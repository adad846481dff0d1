"""fast_format's integer formatters print exactly what the general formatter (prototypes.format_value) prints."""

from __future__ import annotations

import pytest

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace import prototypes as P
from pytrace.ltrace.fast_format import formatters, word_formatter

WORDS = [0, 1, 7, 9999, 10000, 10001, 65535, 65536, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**63 - 1, 2**63,
         2**64 - 1, 2**64 - 10000, 2**64 - 10001, 2**64 - 2**31, 0x7FFF, 0x8000, 0xDEADBEEF, 0x5555_1234_5678]
KINDS = [T.SHORT, T.USHORT, T.INT, T.UINT, T.LONG, T.ULONG]
LENSES = [None, T.HEX, T.OCTAL, T.GUESS]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lens", LENSES, ids=lambda x: x.name if x else "default")
def test_same_text_as_format_value(kind: str, lens: T.Lens | None) -> None:
    t = T.Type(kind, lens=lens)
    f = word_formatter(t)
    assert f is not None
    ctx = P.FmtCtx(None, 32, 4, [])
    for w in WORDS:
        assert f(w) == P.format_value(t, w, ctx), (kind, lens, w)


def test_general_path_kept_for_everything_else() -> None:
    assert word_formatter(T.Type(T.CHAR)) is None
    assert word_formatter(T.Type(T.INT, lens=T.BOOL)) is None
    assert word_formatter(T.Type(T.INT, lens=T.HIDE)) is None
    assert word_formatter(T.Type(T.POINTER, target=T.Type(T.CHAR))) is None
    assert formatters(P.Proto("f", T.Type(T.INT), [T.Type(T.INT), T.Type(T.DOUBLE)])) is None
    assert formatters(P.Proto("f", T.Type(T.INT), [T.Type(T.INT), T.Type(T.INT)], first_out=1)) is None
    fmts = formatters(P.default_proto("unknown"))  # ltrace's guess: four longs and a long through ``guess``
    assert fmts is not None and len(fmts[0]) == 4 and fmts[1] is not None
    void = formatters(P.Proto("g", T.Type(T.VOID), [T.Type(T.LONG)]))
    assert void is not None and void[1] is None
