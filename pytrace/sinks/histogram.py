"""``--histogram``: log2 latency histograms per syscall, printed the way bpftrace prints ``hist()``.

The slots are bpftrace's: slot 0 would hold negative values (a duration never
is), slot 1 the value 0, slot 2 the value 1, and slot ``k >= 3`` the range
``[2**(k-2), 2**(k-1))``.  For a value ``d >= 0`` the slot is therefore
``d.bit_length() + 1``; the eBPF backend computes the same number in the kernel
(``programs._log2_slot``), so both backends fill the same array.

``render`` is a port of bpftrace 0.17's ``TextOutput::hist_to_str`` and
``hist_index_label`` (src/output.cpp), down to the single-precision float that
sizes the bars, so the text can be compared with real bpftrace's byte for byte
(tests/differential/test_histogram.py does).  Durations are in nanoseconds.
"""

from __future__ import annotations

import struct

#: Slots kept per syscall: up to [2**61, 2**62) ns (146 years); longer durations land in the last one.
SLOTS = 64
_F32 = struct.Struct("<f")
_BAR_WIDTH = 52


def slot(ns: int) -> int:
    """The bpftrace hist() slot of a non-negative duration."""
    s = ns.bit_length() + 1
    return s if s < SLOTS else SLOTS - 1


def _f32(x: float) -> float:
    """x rounded to a C float, as bpftrace computes the bar width."""
    return _F32.unpack(_F32.pack(x))[0]


def _index_label(power: int) -> str:
    """bpftrace's hist_index_label: 2**power with a K/M/G/T suffix per 10 powers (1024T and up stay T)."""
    suffix = ""
    for limit, name in ((40, "T"), (30, "G"), (20, "M"), (10, "K")):
        if power >= limit:
            suffix, power = name, power - limit
            break
    return f"{1 << power}{suffix}"


def bucket_label(i: int) -> str:
    """The row header of slot ``i``: ``(..., 0)``, ``[0]``, ``[1]``, then ``[2, 4)``, ``[4, 8)``, ..."""
    if i == 0:
        return "(..., 0)"
    if i == 1:
        return "[0]"
    if i == 2:
        return "[1]"
    return f"[{_index_label(i - 2)}, {_index_label(i - 1)})"


def bucket_bounds(i: int) -> tuple[int, int]:
    """Slot ``i``'s range as [low, high) integers (slot 1, the value 0: [0, 1))."""
    if i <= 1:
        return 0, 1
    return 1 << (i - 2), 1 << (i - 1)


def render(values: list[int]) -> str:
    """The rows bpftrace prints for one histogram: from the first to the last non-empty slot."""
    used = [i for i, v in enumerate(values) if v > 0]
    if not used:
        return ""
    top = max(values)
    rows = []
    for i in range(used[0], used[-1] + 1):
        v = values[i]
        bar = "@" * int(_f32(_f32(_f32(float(v)) / _f32(float(top))) * _BAR_WIDTH))
        rows.append(f"{bucket_label(i):<16}{v:>8} |{bar:<{_BAR_WIDTH}}|\n")
    return "".join(rows)


def render_map(name: str, hists: list[tuple[str, list[int]]]) -> str:
    """A bpftrace map of histograms keyed by a string: ``@name[key]: `` then the rows and a blank line each."""
    return "".join(f"@{name}[{key}]: \n{render(values)}\n" for key, values in hists)


def nonzero_buckets(values: list[int]) -> list[dict[str, int]]:
    """The JSON form: one object per non-empty slot, its range in nanoseconds and its count."""
    out = []
    for i, v in enumerate(values):
        if v:
            low, high = bucket_bounds(i)
            out.append({"low_ns": low, "high_ns": high, "count": v})
    return out


def slots_from_buckets(buckets: list[dict[str, int]]) -> list[int]:
    """``nonzero_buckets`` read back (a saved trace's summary rows) into slot counts."""
    values = [0] * SLOTS
    for b in buckets:
        values[slot(b["low_ns"])] += b["count"]
    return values
