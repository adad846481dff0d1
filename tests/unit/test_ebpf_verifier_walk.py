"""How much of the capture programs the verifier walks at load time (issue 14's start-up target).

The walk is most of ``pytrace --backend=ebpf``'s start-up, and the kernel reports it: ``processed N
insns`` in the statistics log.  N is deterministic for a program on a given kernel (no timing in
it), so the bounds below are a test of the programs' shape: execve's argv/envp loops and the
iovec and mmsghdr loops are bpf_loop callbacks, which the verifier walks about twice instead of
once per iteration.  As bounded loops they cost sys_enter 56,556 instructions walked, sys_exit
25,933 and sched_prepare_exec 31,307 (Linux 6.18, default options), and with -v -s 1000 (256
strings and iovecs) 135,854, 66,179 and 71,424.  As callbacks: 4,304, 2,899 and 2,536 with either
option set.  The bounds are generous: about 4x that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf import bpf
from pytrace.backends.ebpf import capture_progs as C
from pytrace.backends.ebpf import programs as P
from pytrace.backends.ebpf.btf import member_offset
from pytrace.backends.ebpf.capture_slots import SCRATCH_VALUE
from pytrace.backends.ebpf.capture_table import ROW_SIZE, CaptureOptions, build_table

#: Most instructions the verifier may walk per program (Linux 6.18: 4,421 / 2,939 / 2,565 by default).
BOUNDS = {"sys_enter": 18_000, "sys_exit": 12_000, "prepare_exec": 10_000}


@pytest.fixture(scope="module")
def maps() -> Iterator[C.CaptureMaps]:
    """The stream mode's maps, as backend.prepare_stream makes them (backpressure included)."""
    res = bpf.Resources()
    try:
        pids = res.map(bpf.MAP_HASH, 4, 1, 64, "pids")
        made = [res.map(bpf.MAP_ARRAY, 4, 1, P.MAX_SYSCALLS, "traced"),
                res.map(bpf.MAP_HASH, 4, ROW_SIZE, 64, "plan_in"), res.map(bpf.MAP_HASH, 4, ROW_SIZE, 64, "plan_out"),
                res.map(bpf.MAP_ARRAY, 4, SCRATCH_VALUE, bpf.cpu_count(), "scratch"),
                res.map(bpf.MAP_HASH, 4, C.INFLIGHT_VALUE, 64, "inflight"),
                res.map(bpf.MAP_RINGBUF, 0, 0, 1 << 16, "events"), res.map(bpf.MAP_PERCPU_ARRAY, 4, 8, 1, "lost")]
        held = res.map(bpf.MAP_HASH, 4, 1, 64, "held")
        hold = P.Throttle(made[-2].fd, pids.fd, False, 1 << 15, held.fd, member_offset("task_struct", "blocked"))
        yield C.CaptureMaps(pids.fd, *(m.fd for m in made), throttle=hold, quiet=True)
    finally:
        res.close()


def _walked(prog: A.Program, name: str) -> int:
    linked = prog.link()
    stats = bpf.verifier_stats(linked.bytecode, name, linked.functions)
    found = re.match(r"processed (\d+) insns", stats)
    assert found, stats
    return int(found.group(1))


@pytest.mark.parametrize("copy", [CaptureOptions(), CaptureOptions(max_strlen=1000, verbose=True)],
                         ids=["default", "-v -s 1000"])
def test_the_verifier_walks_the_capture_programs_about_once(maps: C.CaptureMaps, copy: CaptureOptions) -> None:
    plans = build_table(copy, max_nr=P.MAX_SYSCALLS)
    lay = P.Layout.from_tracefs()
    args_off = bpf.tracepoint_fields("raw_syscalls", "sys_enter")["args"][0]
    walked = {
        "sys_enter": _walked(C.capture_enter(lay, maps, plans, copy, args_off), "sys_enter"),
        "sys_exit": _walked(C.capture_exit(lay, maps, plans, copy), "sys_exit"),
        "prepare_exec": _walked(C.prepare_exec(maps, plans, copy), "prepare_exec"),
    }
    assert all(walked[name] <= bound for name, bound in BOUNDS.items()), (walked, BOUNDS)
