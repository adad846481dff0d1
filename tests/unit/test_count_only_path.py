"""-c alone: the ptrace loop counts x86_64 calls itself, and the counts are those of the general path.

The general path makes a Call per syscall and hands it to the sink (on_entry, on_exit); with
``TraceOptions.count_only`` the loop adds to the Summary directly, so the sink sees only what
the fast path leaves to it (the launched command's own execve, seen while it is still hidden).
The two runs of the same program must count the same calls and errors.  The byte-exact -c
tables against strace are tests/differential/test_summary*.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pytrace.backends.ptrace import launcher
from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions
from pytrace.events import Call
from pytrace.filters import parse_trace_set
from pytrace.sinks.summary import SummarySink
from pytrace.tables.syscalls import table


class _Spy(SummarySink):
    """A SummarySink that also counts the Calls it is given."""

    def __init__(self, wall_clock: bool) -> None:
        super().__init__(open(os.devnull, "w"), wall_clock=wall_clock)  # noqa: SIM115 (closed in close())
        self.entries = 0

    def on_entry(self, call: Call) -> None:
        self.entries += 1

    def close(self) -> None:
        self.out.close()


def _count(program: Path, fast: bool, wall_clock: bool) -> _Spy:
    spy = _Spy(wall_clock)
    backend = PtraceBackend(spy, TraceOptions(
        trace_bitmap=parse_trace_set("all").bitmap, cpu_times=not wall_clock, guest=True,
        count_only=spy.counter() if fast else None,
    ))
    backend.launch(launcher.spawn_stopped(str(program), [str(program)], dict(os.environ), None))
    assert backend.run().exit_status == 0
    return spy


@pytest.mark.parametrize("wall_clock", [False, True], ids=["cpu", "-w"])
def test_fast_counts_equal_the_general_path(programs: dict[str, Path], wall_clock: bool) -> None:
    general = _count(programs["summary"], False, wall_clock)
    fast = _count(programs["summary"], True, wall_clock)
    nrs = table("x86_64").by_name

    def calls_and_errors(spy: _Spy) -> dict[int, tuple[int, int]]:
        return {nr: (row[0], row[1]) for nr, row in spy.summary.counts["x86_64"].items()}

    assert calls_and_errors(fast) == calls_and_errors(general)
    assert calls_and_errors(fast)[nrs["getppid"].nr] == (1000, 0)
    assert calls_and_errors(fast)[nrs["openat"].nr][1] == 500
    # exit_group never returns, so it is never counted
    assert general.entries == sum(calls for calls, _ in calls_and_errors(general).values()) + 1
    assert fast.entries == 1  # only the hidden execve took the general path
