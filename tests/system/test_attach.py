"""Attaching with -p and detaching on SIGINT/SIGTERM, as strace does it.

Run for both tracers, so every expectation here is first proven against real
strace: the tracee must be left running (not stopped, not traced), the
tracer must say "Process N attached"/"detached" and die by the same signal
it received (strace re-raises it after detaching).
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from helpers import (
    TRACERS,
    decode,
    proc_state,
    proc_status_field,
    read_line,
    run_tracer,
    start_tracer,
    stop_process,
    thread_ids,
    tracer_name,
    wait_until,
)

pytestmark = [pytest.mark.system, pytest.mark.parametrize("tracer", TRACERS)]

#: Time allowed for a tracer to attach and print its first lines (pytrace starts a Python interpreter).
ATTACH_TIMEOUT = 20.0


def _start_target(program: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Start an untraced long runner; it prints its pid once it is ready to be attached to."""
    target = subprocess.Popen([str(program)], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    return target, int(read_line(target.stdout, 10))


def _assert_running_untraced(pid: int) -> None:
    """Every thread of ``pid`` runs on: not stopped, no tracer, and still making syscalls."""
    for tid in thread_ids(pid):
        assert proc_state(tid) in ("R", "S"), f"thread {tid} left in state {proc_state(tid)}"
        assert proc_status_field(tid, "TracerPid") == "0", f"thread {tid} still traced"
    switches = int(proc_status_field(pid, "voluntary_ctxt_switches") or 0)
    # Each 50 ms nanosleep is a voluntary context switch.
    assert wait_until(
        lambda: int(proc_status_field(pid, "voluntary_ctxt_switches") or 0) >= switches + 3, 10
    ), f"process {pid} makes no progress after detach"


def _attach_and_interrupt(
    tracer: str, sig: signal.Signals, pid: int, options: list[str], trace: Path
) -> tuple[int, list[str]]:
    """Attach to ``pid``, wait for traced getppid calls, send ``sig`` to the tracer; its status and stderr."""
    proc = start_tracer(tracer, [*options, "-p", str(pid), "-o", str(trace)], [])
    try:
        # strace writes each line to the -o file as it happens, so they can be watched while it runs.
        seen = wait_until(
            lambda: trace.exists() and trace.read_text().count("getppid()") >= 3, ATTACH_TIMEOUT
        )
        if not seen:
            running = proc.poll() is None
            stop_process(proc)
            content = trace.read_text() if trace.exists() else "<no trace file>"
            pytest.fail(
                f"no traced getppid() lines in the -o file within {ATTACH_TIMEOUT} s "
                f"(tracer {'still running' if running else f'exited {proc.returncode}'}; "
                f"stderr {decode(proc.stderr.read() if proc.stderr else b'')!r}; trace {content[-500:]!r})"
            )
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        stop_process(proc)
    return proc.returncode, decode(err).splitlines()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_attach_detach(tracer: str, sig: signal.Signals, programs: dict[str, Path], tmp_path: Path) -> None:
    """-p PID; the signal makes the tracer detach, report it, and die by that signal; the tracee runs on."""
    target, pid = _start_target(programs["sleeper"])
    try:
        status, lines = _attach_and_interrupt(tracer, sig, pid, [], tmp_path / "trace")
        name = tracer_name(tracer)
        assert lines == [f"{name}: Process {pid} attached", f"{name}: Process {pid} detached"]
        assert status == -sig
        _assert_running_untraced(pid)
    finally:
        stop_process(target)


def test_attach_all_threads(tracer: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """-f -p PID of a multithreaded process attaches every thread and detaches every thread."""
    target, pid = _start_target(programs["threaded_sleeper"])
    try:
        tids = thread_ids(pid)
        assert len(tids) == 4
        status, lines = _attach_and_interrupt(tracer, signal.SIGINT, pid, ["-f"], tmp_path / "trace")
        name = tracer_name(tracer)
        assert lines[0] == f"{name}: Process {pid} attached with 4 threads"
        assert sorted(lines[1:]) == sorted(f"{name}: Process {tid} detached" for tid in tids)
        assert status == -signal.SIGINT
        _assert_running_untraced(pid)
    finally:
        stop_process(target)


def test_attach_quiet(tracer: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """-q suppresses the attached/detached messages and nothing else changes."""
    target, pid = _start_target(programs["sleeper"])
    try:
        status, lines = _attach_and_interrupt(tracer, signal.SIGINT, pid, ["-q"], tmp_path / "trace")
        assert lines == []
        assert status == -signal.SIGINT
        _assert_running_untraced(pid)
    finally:
        stop_process(target)


def test_attach_nonexistent_pid(tracer: str) -> None:
    """Attaching to a pid that does not exist fails with strace's exact message and status 1."""
    assert not os.path.exists("/proc/999999"), "pid 999999 unexpectedly exists"
    result = run_tracer(tracer, ["-p", "999999"], [])
    assert (
        decode(result.stderr)
        == f"{tracer_name(tracer)}: attach: ptrace(PTRACE_SEIZE, 999999): No such process\n"
    )
    assert result.returncode == 1
