"""Job control of a traced process: SIGSTOP really stops it, SIGCONT resumes it, as under strace.

A tracer must not swallow the group-stop (the tracee would keep running) nor
leave the tracee stuck after SIGCONT; strace shows both signals and the stop.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from helpers import TRACERS, decode, proc_state, read_line, start_tracer, stop_process, wait_until

#: Each tracer, and pytrace's eBPF backend (its tracees are seized without syscall stops: the
#: signals and the group-stop come from the same ptrace stops).
VARIANTS = [(t, []) for t in TRACERS] + [("pytrace", ["--backend=ebpf"])]
pytestmark = [pytest.mark.system,
              pytest.mark.parametrize("tracer, options", VARIANTS, ids=[*TRACERS, "pytrace-ebpf"])]


def _size(path: Path) -> int:
    """Current size of the counter file (0 before the first write)."""
    return path.stat().st_size if path.exists() else 0


def _stays_stopped(pid: int, counter: Path, window: float) -> bool:
    """Stopped for a whole ``window``: state T/t and no counter write in every sample.

    strace keeps a group-stopped tracee in PTRACE_LISTEN, which /proc shows as
    "t" (a plain stop is "T").  A running tracee is also briefly "t" at each
    syscall stop, so one sample proves nothing; a window of them does, since
    the stopper writes every 20 ms.
    """
    size = _size(counter)
    deadline = time.monotonic() + window
    while time.monotonic() < deadline:
        if proc_state(pid) not in ("T", "t") or _size(counter) != size:
            return False
        time.sleep(0.01)
    return True


def test_stop_and_continue(tracer: str, options: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """kill -STOP stops the tracee (state T/t, no progress), kill -CONT resumes it; the trace shows both."""
    counter = tmp_path / "counter"
    trace = tmp_path / "trace"
    proc = start_tracer(tracer, [*options, "-o", str(trace)], [str(programs["stopper"]), str(counter)])
    try:
        pid = int(read_line(proc.stdout, 30))
        assert wait_until(lambda: _size(counter) > 0, 30), "stopper never wrote its counter"

        os.kill(pid, signal.SIGSTOP)
        assert wait_until(lambda: _stays_stopped(pid, counter, 0.25), 10), (
            f"state {proc_state(pid)} after SIGSTOP"
        )
        stopped_size = _size(counter)
        assert not wait_until(lambda: _size(counter) != stopped_size, 0.5), "counter grows while stopped"
        assert proc_state(pid) in ("T", "t")

        os.kill(pid, signal.SIGCONT)
        # Not checked through the state: a running tracee is in "t" at each syscall stop.
        assert wait_until(lambda: _size(counter) > stopped_size + 10, 10), (
            "counter does not grow after SIGCONT"
        )

        (tmp_path / "counter.done").touch()
        _, err = proc.communicate(timeout=30)
    finally:
        stop_process(proc)
    assert proc.returncode == 7, decode(err)

    lines = decode(trace.read_bytes()).splitlines()
    sender = f"si_pid={os.getpid()}, si_uid={os.getuid()}"
    expected = [
        f"--- SIGSTOP {{si_signo=SIGSTOP, si_code=SI_USER, {sender}}} ---",
        "--- stopped by SIGSTOP ---",
        f"--- SIGCONT {{si_signo=SIGCONT, si_code=SI_USER, {sender}}} ---",
    ]
    positions = [lines.index(line) if line in lines else -1 for line in expected]
    assert -1 not in positions, (
        f"missing signal lines; got: {[line for line in lines if line.startswith('---')]}"
    )
    assert positions == sorted(positions) and len(set(positions)) == 3
    assert lines[-1] == "+++ exited with 7 +++"
