"""Capture plans at work (pytrace/decode/capture.py, pytrace/sinks/capture_check.py).

``SnapshotMemory`` must answer exactly as the live ``MemoryReader`` would if the tracee's memory
were only the copied regions; these tests compare the two on real memory (this process's own,
read through process_vm_readv like a tracee's), check each size rule of the plans, and show the
checker reporting a plan that is too short.
"""

from __future__ import annotations

import ctypes
import io
import os

import pytest

from pytrace.backends.ptrace.memory import MemoryReader
from pytrace.decode.capture import SnapshotMemory, snapshot
from pytrace.events import Call
from pytrace.sinks.capture_check import CaptureCheckSink
from pytrace.sinks.strace_text import StraceTextSink, Stream
from pytrace.tables.capture_plan import ArgPlan
from pytrace.tables.syscalls import table


class FakeMemory:
    """Tracee memory as a dict of regions, with the live reader's semantics (used to build snapshots)."""

    def __init__(self, regions: dict[int, bytes]) -> None:
        self.snap = SnapshotMemory(regions.items())
        self.reads: list[tuple[str, int, int]] = []

    def read(self, addr: int, size: int) -> bytes | None:
        self.reads.append(("read", addr, size))
        return self.snap.read(addr, size)

    def read_upto(self, addr: int, size: int) -> bytes | None:
        self.reads.append(("read_upto", addr, size))
        return self.snap.read_upto(addr, size)

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None:
        self.reads.append(("read_cstring", addr, limit))
        return self.snap.read_cstring(addr, limit)


def test_snapshot_memory_reads_only_inside_regions() -> None:
    mem = SnapshotMemory([(0x1000, b"abcdef"), (0x2000, b"xy\0z")])
    assert mem.read(0x1002, 3) == b"cde"
    assert mem.read(0x1000, 6) == b"abcdef"
    assert mem.read(0x1004, 3) is None  # runs past the region: unreadable, as a short read is
    assert mem.read(0x0FFF, 2) is None
    assert mem.read(0x3000, 0) == b""
    assert mem.read_upto(0x1004, 10) == b"ef"
    assert mem.read_upto(0x1006, 1) is None
    assert mem.read_cstring(0x2000, 32) == (b"xy", True)
    assert mem.read_cstring(0x1000, 3) == (b"abc", False)  # limit + 1 bytes seen, no NUL
    assert mem.read_cstring(0x1000, 10) is None  # region ends before a NUL or the limit


@pytest.mark.parametrize("limit", [0, 1, 4, 5, 6, 32])
def test_snapshot_of_a_string_answers_like_live_memory(limit: int) -> None:
    """A ``nul`` plan copied from real memory gives read_cstring's answers for every limit."""
    buf = ctypes.create_string_buffer(b"hello\0tail", 16)
    addr = ctypes.addressof(buf)
    live = MemoryReader(os.getpid())
    snap = snapshot((ArgPlan(0, "path", "nul", "entry"),), False, (addr,), None, live, string_limit=4096)
    assert snap.read_cstring(addr, limit) == live.read_cstring(addr, limit)
    assert snap.read(addr, 6) == live.read(addr, 6) == b"hello\0"
    assert snap.read(addr, 7) is None  # past the NUL: not planned, so not copied


def test_long_string_keeps_one_byte_past_the_limit() -> None:
    buf = ctypes.create_string_buffer(b"x" * 100, 128)
    addr = ctypes.addressof(buf)
    live = MemoryReader(os.getpid())
    snap = snapshot((ArgPlan(0, "str", "nul", "entry"),), False, (addr,), None, live, string_limit=32)
    assert snap.read_cstring(addr, 32) == live.read_cstring(addr, 32) == (b"x" * 32, False)


def test_sizes_and_stops() -> None:
    regions = {0x1000: bytes(range(64)), 0x2000: (12).to_bytes(4, "little"), 0x3000: bytes(64)}
    plans = (
        ArgPlan(0, "bytes", "ret", "exit"),
        ArgPlan(1, "bytes", "*arg2", "exit"),
        ArgPlan(2, "int", "4", "both"),
        ArgPlan(3, "bytes", "bitmask(arg4)", "both"),
        ArgPlan(5, "deep", "deep", "deep"),
    )
    args = (0x1000, 0x3000, 0x2000, 0x1000, 65, 0x1000)
    live = FakeMemory(regions)
    entry = snapshot(plans, False, args, None, live)
    assert entry.read(0x2000, 4) is not None  # "both": copied at entry
    assert entry.read(0x1000, 16) == bytes(range(16))  # the fd_set: 65 bits -> 2 longs
    assert entry.read(0x1000, 17) is None  # ret-sized and deep plans are not copied at entry
    exit_ = snapshot(plans, True, args, 40, live)
    assert exit_.read(0x1000, 40) == bytes(range(40))  # the return value's worth
    assert exit_.read(0x1000, 41) is None
    assert exit_.read(0x3000, 12) == bytes(12)  # *arg2: the int behind argument 2
    assert exit_.read(0x3000, 13) is None
    failed = snapshot(plans, True, args, None, live)
    assert failed.read(0x1000, 17) is None  # no result, no ret-sized buffer
    i386_set = snapshot((ArgPlan(0, "bytes", "bitmask(arg1)", "entry"),), False, (0x1000, 33), None, live, word=4)
    assert i386_set.read(0x1000, 8) is not None and i386_set.read(0x1000, 9) is None


def test_stack_pointer_plan() -> None:
    (plan,) = table("x86_64").by_name["rt_sigreturn"].capture
    live = FakeMemory({0x7000 + 296: b"\x01\0\0\0\0\0\0\0"})
    snap = snapshot((plan,), False, (0,) * 6, None, live, sp=0x7000)
    assert snap.read(0x7000 + 296, 8) == b"\x01" + bytes(7)


def _write_call(mem: object, addr: int) -> Call:
    nr = table("x86_64").by_name["write"].nr
    return Call(1234, "x86_64", nr, "write", (1, addr, 11, 0, 0, 0), 0, 0, mem, 0.0)


def _run_write(plan_for: object, tmp_path: object) -> tuple[CaptureCheckSink, str]:
    buf = ctypes.create_string_buffer(b"hello world", 16)
    out = io.StringIO()
    stream = Stream(out)
    report = f"{tmp_path}/report.txt"
    check = CaptureCheckSink(StraceTextSink(lambda pid: stream), report, plan_for=plan_for)  # type: ignore[arg-type]
    call = _write_call(MemoryReader(os.getpid()), ctypes.addressof(buf))
    check.on_entry(call)
    call.rval, call.exited = 11, True
    check.on_exit(call)
    check.close()
    return check, out.getvalue()


def test_checker_passes_the_tables_plan_and_leaves_the_real_line_alone(tmp_path: object) -> None:
    check, line = _run_write(None, tmp_path)
    assert line == 'write(1, "hello world", 11)             = 11\n'
    assert check.checked == {"write": 1} and check.differing == {}
    with open(f"{tmp_path}/report.txt") as f:
        assert f.read() == "checked\twrite\t1\t0\n"


def test_checker_reports_a_short_plan(tmp_path: object) -> None:
    check, _ = _run_write(lambda call: (ArgPlan(1, "bytes", "4", "entry"),), tmp_path)
    assert check.differing == {"write": 1}
    name, live, snap = check.examples[0]
    assert name == "write"
    # the entry half already differs (write prints its buffer at entry): reported there
    assert live == 'write(1, "hello world", 11' and snap.startswith("write(1, 0x")
    with open(f"{tmp_path}/report.txt") as f:
        assert f.read().startswith("checked\twrite\t1\t1\ndiffers\twrite\n")


def test_strict_snapshot_gives_up_on_an_unreadable_vector() -> None:
    """``strict`` (the split stop path) returns None when a planned non-NULL pointer gave nothing, for
    the plans that follow pointers (strv, iovec, ...) as for strings and sized buffers, so that the
    call is decoded from live memory; a readable vector is copied whole, the same as without it."""
    argv, s0 = 0x1000, 0x2000
    mem = FakeMemory({argv: s0.to_bytes(8, "little") + bytes(8), s0: b"/bin/true\0"})
    strv = (ArgPlan(0, "strv", "nul", "entry"),)
    iov = (ArgPlan(0, "iovec", "arg1", "entry"),)
    assert snapshot(strv, False, (0x9000,), None, mem, strict=True) is None
    assert snapshot(iov, False, (0x9000, 1), None, mem, strict=True) is None
    loose = snapshot(strv, False, (0x9000,), None, mem)
    assert loose is not None and loose.regions == ()
    got = snapshot(strv, False, (argv,), None, mem, strict=True)
    assert got is not None and got.read_cstring(s0, 32) == (b"/bin/true", True)
    assert got.regions == snapshot(strv, False, (argv,), None, mem).regions  # type: ignore[union-attr]
