"""The Python API traces from a thread of the calling process and leaves the host's own state alone.

What a library must not take from the program that imports it (api.py's docstring): no second
Python process, no reaping of the host's children, no signal disposition or timer changed, no exit;
and two traces at once each see only their own tracees.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import pytrace
from pytrace.structured.types import Exit, Syscall, from_record


def _descendants(root: int) -> dict[int, str]:
    """pid -> realpath of its executable, for every live process below ``root``."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, ppid in parent.items():
            if ppid == pid and child not in found:
                try:
                    found[child] = os.path.realpath(f"/proc/{child}/exe")
                except OSError:
                    found[child] = "?"
                frontier.append(child)
    return found


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_no_second_python_process(programs: dict[str, Path]) -> None:
    """While the command runs, the processes below us are the command and the doorbell, none a Python."""
    read_end, write_end = os.pipe()
    try:
        with pytrace.trace([str(programs["blocked_read"])], syscalls={"execve"}, stdin=read_end,
                           stdout=subprocess.DEVNULL) as t:
            events = iter(t)
            first = next(events)  # execve's record: written once the exec returned, so /proc/PID/exe is the program
            assert isinstance(first, Syscall) and first.name == "execve"
            below = _descendants(os.getpid())
            tracer = int(Path(f"/proc/{first.pid}/status").read_text().split("TracerPid:")[1].split()[0])
            threads = {int(tid) for tid in os.listdir("/proc/self/task")}
            os.write(write_end, b"x")
            rest = list(events)
    finally:
        os.close(read_end)
        os.close(write_end)
    python = os.path.realpath(sys.executable)
    assert python not in below.values(), below
    assert sorted(below.values()) == sorted([str(programs["blocked_read"].resolve()),
                                             os.path.realpath(subprocess.run(["sh", "-c", "command -v head"],
                                                                             capture_output=True, text=True,
                                                                             check=True).stdout.strip())])
    assert below[first.pid] == str(programs["blocked_read"].resolve())
    assert tracer in threads and tracer != os.getpid()  # traced by a thread of ours, not the main one
    assert isinstance(rest[-1], Exit) and rest[-1].exit_code == 3 and t.exit_code == 3


def test_the_hosts_own_child_is_not_reaped(programs: dict[str, Path], capfd: pytest.CaptureFixture[str]) -> None:
    """A zombie child of the host stays for the host to wait for: the tracer waits only for its own."""
    proc = subprocess.Popen(["true"])
    while _state(proc.pid) != "Z":  # exited, not yet waited for
        os.sched_yield()
    with pytrace.trace([str(programs["summary"]), "fork"], syscalls={"wait4", "exit_group"}) as t:
        events = t.events()
    assert t.exit_code == 0
    assert sum(isinstance(e, Syscall) and e.name == "wait4" for e in events) == 2  # the traced parent's own waits
    assert _state(proc.pid) == "Z"
    assert proc.wait() == 0
    assert "unknown pid" not in capfd.readouterr().err


def _signal_state() -> tuple[object, ...]:
    handlers = []
    for sig in range(1, signal.NSIG):
        try:
            handlers.append(signal.getsignal(sig))
        except (ValueError, OSError):
            handlers.append(None)
    return (*handlers, signal.pthread_sigmask(signal.SIG_BLOCK, []), signal.getitimer(signal.ITIMER_REAL))


@pytest.mark.parametrize("backend", ["ptrace", "ebpf"])
def test_signals_and_timers_untouched_and_stop_kills_the_command(backend: str, programs: dict[str, Path]) -> None:
    before = _signal_state()
    with pytest.raises(RuntimeError, match="the caller's own error"):  # noqa: PT012
        with pytrace.trace([str(programs["sleeper"])], syscalls={"getppid"}, stdout=subprocess.DEVNULL,
                           backend=backend) as t:
            first = next(iter(t))
            assert _state(first.pid) in ("R", "S", "t")
            raise RuntimeError("the caller's own error")
    assert _signal_state() == before
    with pytest.raises(ChildProcessError):  # killed and reaped: no zombie left behind
        os.waitpid(first.pid, os.WNOHANG)
    assert _descendants(os.getpid()) == {}
    assert t.exit_code == 128 + signal.SIGTERM  # as the command-line tracer, stopped by SIGTERM, reports it


def test_errors_are_exceptions_not_exits(capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(pytrace.TraceError, match="^pytrace: invalid -s argument: 'minus-one'$"):
        pytrace.trace(["true"], strace_options=["-s", "minus-one"]).start()
    assert "invalid -s argument: 'minus-one'" in capfd.readouterr().err  # strace's words, also on our stderr
    dead = subprocess.Popen(["true"])
    dead.wait()  # a pid that no longer exists
    with pytest.raises(pytrace.TraceError, match=rf"ptrace\(PTRACE_SEIZE, {dead.pid}\): No such process"):
        with pytrace.attach(dead.pid) as t:
            t.events()
    with pytest.raises(pytrace.TraceError, match="-D is not supported"):
        pytrace.trace(["true"], strace_options=["-D"]).start()


def test_two_traces_at_once_see_only_their_own(programs: dict[str, Path]) -> None:
    """Two tracer threads in one process: each waits for its own tracees only, each gets its own records."""
    pipes = [os.pipe(), os.pipe()]
    traces = [pytrace.trace([str(programs["blocked_read"])], syscalls={"read"}, stdin=r, stdout=subprocess.DEVNULL)
              for r, _ in pipes]
    results: list[list[object]] = [[], []]
    for tr in traces:
        tr.start()
    workers = [threading.Thread(target=lambda i=i: results[i].extend(traces[i])) for i in range(2)]
    for w in workers:
        w.start()
    for (_, w_end), byte in zip(pipes, (b"a", b"b"), strict=True):
        os.write(w_end, byte)
    for w in workers:
        w.join()
    for r, w_end in pipes:
        os.close(r)
        os.close(w_end)
    for events, byte, tr in zip(results, "ab", traces, strict=True):
        reads = [e for e in events if isinstance(e, Syscall) and e.name == "read" and e.args[0].value == 0]
        assert [e.line for e in reads] == [f'read(0, "{byte}", 1) = 1']
        pids = {e.pid for e in events}
        assert len(pids) == 1 and tr.exit_code == 3
    assert {e.pid for e in results[0]} != {e.pid for e in results[1]}


def _comparable(event: object) -> object:
    """What differs between two runs of the same program: pids, clocks and raw pointer values."""
    if isinstance(event, Syscall):
        return dataclasses.replace(event, pid=0, tid=0, timestamp=0.0, duration=None, raw_args=())
    if isinstance(event, Exit):
        return dataclasses.replace(event, pid=0, tid=0, timestamp=0.0)
    return event


def test_events_are_the_json_outputs(programs: dict[str, Path]) -> None:
    """The API's events equal what ``pytrace --json`` writes for the same run, typed the same way."""
    argv = [str(programs["summary"])]  # one process: the order of its records is fixed
    names = {"openat", "close", "chdir"}  # not getppid: the parent is pytrace in one run, us in the other
    cli = subprocess.run(
        [sys.executable, "-m", "pytrace", "--json", "-q", "-f", "-e", "trace=" + ",".join(sorted(names)),
         "-o", "/dev/stdout", *argv], capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in cli.stdout.splitlines()]
    from_cli = [e for e in map(from_record, records) if e is not None]
    with pytrace.trace(argv, syscalls=names) as t:
        from_api = t.events()
    assert len(from_api) > 500
    assert [_comparable(e) for e in from_api] == [_comparable(e) for e in from_cli]
