"""``copier`` (the split stop path's per-syscall plan functions) copies what ``snapshot`` copies.

The split path builds one copy function per syscall and stop (pytrace/decode/capture.py
``copier``): single flat plans get a function of their own, everything else goes through
``snapshot``.  For every plan in the x86_64 and i386 tables, at both stops, strict and not, over
argument values that hit each rule (NULL, readable, running off the end of memory, unreadable,
sizes of zero and past the buffer limit, failed and successful return values), the regions must
be snapshot's, and None exactly where snapshot gives up.
"""

from __future__ import annotations

import itertools

import pytest

from pytrace.decode.capture import SnapshotMemory, copier, snapshot
from pytrace.tables.syscalls import table

BASE, SIZE = 0x10000, 0x3000
SHORT = 8 * BASE  # a few bytes with no NUL, then unreadable memory: a string cut by the end of a mapping
MEM = SnapshotMemory([(BASE, bytes(range(256)) * (SIZE // 256) + b"\0"), (SHORT, b"abc")])
#: Pointers: NULL, readable, 8 bytes before the end (short reads), past the end (unreadable), the
#: short region.
POINTERS = (0, BASE + 16, BASE + SIZE - 8, BASE + 4 * SIZE, SHORT)
#: Size arguments: zero, small, the 4-byte int at BASE+16 read by *argN plans, larger than the memory.
COUNTS = (0, 3, 100, 1 << 20)
RVALS = (None, -1, 0, 1, 64, 1 << 20)


def _plans() -> list[tuple[str, str, tuple]]:
    out = []
    for arch in ("x86_64", "i386"):
        seen = set()
        for info in table(arch).by_nr.values():
            if info.capture and info.capture not in seen:
                seen.add(info.capture)
                out.append((arch, info.name, info.capture))
    return out


@pytest.mark.parametrize(("arch", "name", "plans"), _plans(), ids=lambda v: v if isinstance(v, str) else "")
def test_copier_copies_what_snapshot_copies(arch: str, name: str, plans: tuple) -> None:
    word = 4 if arch == "i386" else 8
    for at_exit, strict in itertools.product((False, True), (False, True)):
        copy, _flat = copier(plans, at_exit, word=word, string_limit=32, buf_limit=64, strict=strict)
        for ptr, count, rval in itertools.product(POINTERS, COUNTS, RVALS if at_exit else (None,)):
            args = (ptr, ptr, count, ptr, count, count)
            want = snapshot(plans, at_exit, args, rval, MEM, sp=BASE + 64, word=word, string_limit=32,
                            strict=strict, buf_limit=64)
            got = copy(args, rval, MEM, BASE + 64)
            assert got == (None if want is None else want.regions), (at_exit, strict, args, rval)


def test_reads_buffer_is_a_flat_copy() -> None:
    """The hot case: read's buffer at exit, sized by the return value and cut at the limit."""
    plans = table("x86_64").by_name["read"].capture
    copy, flat = copier(plans, True, word=8, string_limit=32, buf_limit=64, strict=False)
    assert flat
    assert copy((3, BASE, 1000), 5, MEM, 0) == ((BASE, bytes(range(5))),)
    assert copy((3, BASE, 1000), 500, MEM, 0) == ((BASE, bytes(range(64))),)
    assert copy((3, BASE, 1000), None, MEM, 0) == ()
