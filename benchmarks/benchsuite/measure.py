"""Timed runs: one command from spawn to exit, or a workload released under an attached bpftrace.

Wall time is taken with ``time.perf_counter`` around spawn and ``wait4``; the
harness sleeps in ``wait4`` meanwhile, so it competes for no CPU.  Every run
is bounded by a timeout (the process group is killed), so a tracer that hangs
becomes a "timeout" cell, never a stuck suite.
"""

from __future__ import annotations

import os
import re
import selectors
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO


@dataclass
class RunResult:
    """One timed run.  ``ok`` means exit status 0 within the timeout."""

    wall_s: float
    cpu_s: float = 0.0  # user+sys of the spawned process and the children it waited for
    returncode: int = 0
    timed_out: bool = False
    error: str = ""
    syscalls_seen: int | None = None  # bpftrace's own count of the workload's syscalls
    attach_s: float | None = None  # bpftrace: spawn -> probes attached (not part of wall_s)
    invalid: bool = False  # a per-event row printed fewer (or more) events than the workload made
    loop_ns: int | None = None  # the workload's own clock around its syscall loop (LOOP_ENV), if it has one
    loop_calls: int | None = None  # the syscalls inside that loop

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.returncode == 0 and not self.error and not self.invalid


#: The variable that asks a loop-timed workload (benchmarks/workloads/loop_clock.h) where to write
#: "NANOSECONDS CALLS" of its syscall loop.
LOOP_ENV = "BENCH_LOOP_FILE"


def read_loop(path: Path) -> tuple[int, int] | None:
    """(nanoseconds, calls) of the loop a workload just timed, None when it wrote nothing."""
    try:
        ns, calls = path.read_text().split()
        return int(ns), int(calls)
    except (OSError, ValueError):
        return None


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _wait_timed(proc: subprocess.Popen[bytes], timeout: float) -> tuple[int, float, bool]:
    """wait4 the process (its rusage is the CPU figure) with a timeout that kills its process group."""
    fired = threading.Event()

    def expire() -> None:
        fired.set()
        _kill_group(proc.pid)

    timer = threading.Timer(timeout, expire)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: keep Popen from waiting again
    return proc.returncode, usage.ru_utime + usage.ru_stime, fired.is_set()


def _tail(f: IO[bytes]) -> str:
    f.seek(0)
    text = f.read()[-4000:].decode("utf-8", "replace")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return " | ".join(lines[-3:])[:300]


def _status(returncode: int) -> str:
    """'exit status N' or 'killed by SIGSEGV' (Popen's negative return codes are signals)."""
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


def run_exec(argv: list[str], env: dict[str, str], timeout: float) -> RunResult:
    """Run argv once (its own session, stdout to /dev/null, stderr to a file) and time it."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
            start_new_session=True,
        )
        rc, cpu, timed_out = _wait_timed(proc, timeout)
        wall = time.perf_counter() - t0
        error = ""
        if timed_out:
            error = f"timed out after {timeout:g} s"
        elif rc != 0:
            error = f"{_status(rc)}: {_tail(err)}".rstrip(": ")
    return RunResult(wall, cpu, rc, timed_out, error)


_COUNT_RE = re.compile(rb"^@n:\s*(\d+)\s*$", re.M)


def _interrupt(bpf: subprocess.Popen[bytes], attempts: int = 30) -> bytes:
    """SIGINT bpftrace (it then prints its maps and exits) and collect the rest of its output.

    bpftrace 0.17 loses a SIGINT that arrives just after BEGIN ran (about one
    run in three with a workload that ends within milliseconds: it then waits
    forever), so the signal is repeated every half second until it exits.
    """
    for _ in range(attempts):
        bpf.send_signal(signal.SIGINT)
        try:
            rest, _ = bpf.communicate(timeout=0.5)
            return rest
        except subprocess.TimeoutExpired:
            continue
    _kill_group(bpf.pid)
    rest, _ = bpf.communicate()
    return rest


def run_bpftrace(
    bpftrace: list[str], program: str, workload: list[str], env: dict[str, str], timeout: float
) -> RunResult:
    """Time the workload while bpftrace counts its syscalls; bpftrace's start-up is kept out of it.

    The workload is started first, held in ``sh -c 'read _; exec ...'`` on a
    pipe, so its pid is known and fixed (exec keeps it) before bpftrace starts
    with a ``pid == $1`` filter.  BEGIN prints READY after every probe is
    attached; only then is the pipe written and the clock started.  So
    ``wall_s`` covers exec-to-exit of the workload under the live probe, like
    an untraced run, and ``attach_s`` (compile + load + attach) is reported
    apart.
    """
    gate_r, gate_w = os.pipe()
    with tempfile.TemporaryFile() as werr, tempfile.TemporaryFile() as berr:
        held = subprocess.Popen(
            ["/bin/sh", "-c", 'read _ && exec "$@" </dev/null', "sh", *workload],
            stdin=gate_r, stdout=subprocess.DEVNULL, stderr=werr, env=env, start_new_session=True,
        )
        os.close(gate_r)
        t_spawn = time.perf_counter()
        bpf = subprocess.Popen(
            [*bpftrace, "-e", program, str(held.pid)],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=berr, env=env, start_new_session=True,
        )
        assert bpf.stdout is not None
        out = b""
        ready = False
        with selectors.DefaultSelector() as sel:
            sel.register(bpf.stdout, selectors.EVENT_READ)
            deadline = t_spawn + timeout
            while not ready and time.perf_counter() < deadline:
                if not sel.select(timeout=max(0.0, deadline - time.perf_counter())):
                    break
                chunk = os.read(bpf.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
                ready = b"READY\n" in out
        attach = time.perf_counter() - t_spawn
        if not ready:
            _kill_group(bpf.pid)
            bpf.wait()
            os.close(gate_w)
            _kill_group(held.pid)
            held.wait()
            return RunResult(attach, returncode=-1, error=f"bpftrace did not attach: {_tail(berr)}")
        t0 = time.perf_counter()
        os.write(gate_w, b"go\n")
        os.close(gate_w)
        rc, cpu, timed_out = _wait_timed(held, timeout)
        wall = time.perf_counter() - t0
        out += _interrupt(bpf)
        m = _COUNT_RE.search(out)
        error = ""
        if timed_out:
            error = f"timed out after {timeout:g} s"
        elif rc != 0:
            error = f"workload {_status(rc)}: {_tail(werr)}".rstrip(": ")
        elif m is None:
            error = f"bpftrace printed no count: {_tail(berr)}"
        return RunResult(
            wall, cpu, rc, timed_out, error, syscalls_seen=int(m.group(1)) if m else None, attach_s=attach
        )
