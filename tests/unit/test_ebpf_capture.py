"""The eBPF capture, without a kernel: plans compiled into slot rows, records read back into Calls."""

from __future__ import annotations

import struct

import pytest

from pytrace.backends.ebpf import capture_progs as C
from pytrace.backends.ebpf import capture_table as T
from pytrace.backends.ebpf import records as R
from pytrace.backends.ebpf.programs import MAX_SYSCALLS, Layout
from pytrace.decode import decoder_for_name
from pytrace.decode.decoding import Decoding
from pytrace.decode.printer import PrintOptions
from pytrace.tables.syscalls import table


def test_every_plan_the_tables_name_has_a_slot() -> None:
    """Nothing a plan names is silently left out: only deep plans (and the stack without BTF) get no slot."""
    opts = T.CaptureOptions(stack_pointer=True)
    missing = []
    for info in table("x86_64").by_nr.values():
        if info.nr >= MAX_SYSCALLS:
            continue
        for plan in info.capture:
            if not plan.deep and T.slot_for(plan, opts) is None:
                missing.append((info.name, plan))
        assert len([p for p in info.capture if not p.deep]) <= T.MAX_SLOTS
    assert missing == []
    assert T.slot_for(table("x86_64").by_name["rt_sigreturn"].capture[0], T.CaptureOptions()) is None


def test_caps_follow_the_options() -> None:
    tab = table("x86_64")
    write = tab.by_name["write"].nr
    assert T.build_table(T.CaptureOptions(max_strlen=5)).entry[write][0].cap == 6  # -s + 1
    assert T.build_table(T.CaptureOptions(max_strlen=5, whole_buffers=True)).entry[write][0].cap == T.CHUNK
    connect = tab.by_name["connect"].nr  # a sockaddr is decoded whole, whatever -s says
    assert T.build_table(T.CaptureOptions(max_strlen=5)).entry[connect][0].cap == T.CHUNK
    assert T.CaptureOptions(max_strlen=5).string_cap == T.PATH_MAX + 1  # paths ignore -s
    assert T.CaptureOptions(verbose=True).strv_strings == T.MAX_VERBOSE_STRINGS


def _record(kind: int, nr: int, tid: int, ns: int | None, body: bytes, regions: list[tuple[int, bytes]],
            flags: int = 0) -> memoryview:
    """A record as the programs write it; ``ns`` None: a run whose records carry no time."""
    data = R.HEAD.pack(kind, flags, nr, tid) + (b"" if ns is None else struct.pack("<Q", ns)) + body
    for addr, blob in regions:
        data += struct.pack("<QI", addr, len(blob)) + blob
    return memoryview(data)


def test_only_the_traced_syscalls_rows_reach_the_programs() -> None:
    """``-e trace=openat`` compiles openat's rows alone: the programs then handle only the kinds those
    rows use (the verifier's walk is most of the start-up), and the rest of the rows are the same."""
    tab = table("x86_64")
    openat, execve = tab.by_name["openat"].nr, tab.by_name["execve"].nr
    opts = T.CaptureOptions()
    whole = T.build_table(opts, max_nr=MAX_SYSCALLS)
    only = T.build_table(opts, max_nr=MAX_SYSCALLS, only={openat})
    assert set(only.entry) | set(only.exit) == {openat}
    assert only.entry[openat] == whole.entry[openat]
    assert execve in whole.entry and T.K_STRV in set().union(*whole.kinds_at("entry"))
    assert set().union(*only.kinds_at("entry")) == {T.K_STR}
    maps = C.CaptureMaps(*range(3, 11))
    layout = Layout(enter_id=8, exit_id=8, exit_ret=16, fork_child=24)
    small = len(C.capture_enter(layout, maps, only, opts, 16).assemble())
    assert small * 5 < len(C.capture_enter(layout, maps, whole, opts, 16).assemble())


@pytest.mark.parametrize("timed", [True, False], ids=["timed", "timeless"])
def test_records_become_calls_that_decode_like_ptrace(timed: bool) -> None:
    """An openat entry and a read's exit, as the programs write them, print strace's lines; with or
    without the kernel time in the header (CaptureMaps.timed), the same Calls but for their times."""
    tab = table("x86_64")
    reader = R.RecordReader(tab, 0.0, timed)
    ns = (lambda t: t) if timed else (lambda t: None)
    decoding = Decoding(PrintOptions())
    openat, read = tab.by_name["openat"].nr, tab.by_name["read"].nr
    path = 0x7000
    entry = _record(C.T_ENTRY, openat, 42, ns(10**9), struct.pack("<4Q", (1 << 64) - 100, path, 0o2000000, 0),
                    [(path, b"/etc/hostname\0")])
    call = reader.entry(entry, 0, openat, 42)
    assert call.args[:3] == (-100 & 0xFFFFFFFF, path, 0o2000000) and call.entry_time == (1.0 if timed else 0.0)
    bound = decoding.bound(call)
    assert bound.func is decoder_for_name("openat").func
    assert bound.func(bound.p, call).startswith('AT_FDCWD, "/etc/hostname", O_RDONLY|O_CLOEXEC')

    buf = 0x9000
    entry = _record(C.T_ENTRY, read, 42, ns(2 * 10**9), struct.pack("<3Q", 3, buf, 100), [])
    call = reader.entry(entry, 0, read, 42)
    assert reader.finish(call, _record(C.T_EXIT, read, 42, ns(3 * 10**9), struct.pack("<q", 5), [(buf, b"hello")])) is False
    assert (call.rval, call.error, call.exit_time) == (5, 0, 3.0 if timed else 0.0)
    bound = decoding.bound(call)
    halves = bound.func(bound.p, call)
    assert next(halves) == "3, " and next(halves) == '"hello", 100'


def test_a_held_entry_gets_the_regions_copied_again() -> None:
    """FLAG_RETRY: the entry could not read its path; the exit record's second copy is the entry's."""
    tab = table("x86_64")
    reader = R.RecordReader(tab, 0.0)
    unlink = tab.by_name["unlink"].nr
    entry = _record(C.T_ENTRY, unlink, 7, 0, struct.pack("<Q", 0x5000), [], flags=R.FLAG_RETRY)
    call = reader.entry(entry, R.FLAG_RETRY, unlink, 7)
    assert call.mem.read_cstring(0x5000, 100) is None
    held = reader.finish(call, _record(C.T_EXIT, unlink, 7, 0, struct.pack("<q", -2), [(0x5000, b"gone\0")]))
    assert held and call.error == 2 and call.mem.read_cstring(0x5000, 100) == (b"gone", True)
