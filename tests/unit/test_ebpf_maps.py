"""bpf.Map.lookup_array: -c's per-CPU statistics read in one BPF_MAP_LOOKUP_BATCH, the same bytes as
one BPF_MAP_LOOKUP_ELEM per row (what count() read before), on a real per-CPU array map."""

from __future__ import annotations

import struct

from pytrace.backends.ebpf import bpf


def test_lookup_array_is_every_single_lookup() -> None:
    ncpu = bpf.cpu_count()
    size = 40
    m = bpf.Map(bpf.MAP_PERCPU_ARRAY, 4, size, 512, "pytrace_test")
    try:
        for nr in (0, 1, 59, 231, 511):  # a user-space update of a per-CPU map sets every CPU's copy
            value = b"".join(struct.pack("<QQQQQ", nr + 1, cpu, nr * 1000 + cpu, 7, 9) for cpu in range(ncpu))
            m.update(struct.pack("<I", nr), value)
        rows = m.lookup_array(512, size * ncpu)
        single = [m.lookup(struct.pack("<I", nr), size * ncpu) for nr in range(512)]
        assert rows == single
        assert [nr for nr, raw in enumerate(rows) if any(raw)] == [0, 1, 59, 231, 511]
        assert struct.unpack_from("<Q", rows[231], 0)[0] == 232
        # Fewer rows than the map has: the first ones, in order.
        assert m.lookup_array(60, size * ncpu) == single[:60]
    finally:
        m.close()
