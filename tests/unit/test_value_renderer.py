"""The value renderer prints the text renderer's text, whatever the value, table and style."""

from __future__ import annotations

import random

import pytest

from pytrace.decode.printer import PrintOptions, build_printer
from pytrace.render.values import V, value_of
from pytrace.tables import xlat as X

TABLES = [X.OPEN_FLAGS, X.AT_FLAGS, X.STATX_MASK, X.MMAP_PROT, X.ADDRESS_FAMILIES, X.SOCKET_TYPES, X.FCNTL_CMDS]


@pytest.mark.parametrize("style", ["abbrev", "raw", "verbose"])
def test_constants_and_flags_print_the_same_text(style: str) -> None:
    text = build_printer(PrintOptions(style=style))
    values = build_printer(PrintOptions(style=style), values=True)
    rnd = random.Random(13)
    for table in TABLES:
        numbers = [0, 1, 2, 3, 0x40, 0x80000, 0x7FFFFFFF, 0x100, 0xFFFFFFFF] + [v for v, _n in table]
        numbers += [rnd.getrandbits(32) for _ in range(50)]
        for n in numbers:
            for dflt in ("0", None, "XX_???"):
                got = values.flags(n, table, dflt)
                assert isinstance(got, V) and str(got) == text.flags(n, table, dflt), (n, dflt)
                assert got.value["value"] == n
            got = values.xval(n, table, "XX_???")
            assert str(got) == text.xval(n, table, "XX_???")


def test_literal_values() -> None:
    assert value_of("123") == 123 and value_of("0644") == 0o644 and value_of("0x1f") == 31
    assert value_of("-1") == -1 and value_of("NULL") is None and value_of("0") == 0
    assert value_of('"a\\nb\\x41\\0"...') == "a\nbA\x00"
    assert value_of("makedev(0x1, 0x3)") == "makedev(0x1, 0x3)"
