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



_PR_SET_CHILD_SUBREAPER = 36


@dataclass
class TreeResult:
    """One run of a command with every process it started, double-forked helpers included.

    ``run.cpu_s`` is user+sys of the whole tree: the command (with the children it waited for)
    and every orphan the harness reaped as their subreaper (pytrace's render process).
    ``peak_kb`` is peak RSS by process: "tracer" (the command's own process: its VmHWM polled
    from /proc, so not mixed with its tracee's; only with ``watch_memory``), the ``comm`` of
    each reaped orphan (its own ``ru_maxrss`` from wait4: exact; an ``exec_helpers`` one: its
    VmHWM after its exec, see run_tree), and with ``watch_memory`` "pss_sum", the largest PSS of
    the command and its adopted orphans together.
    """

    run: RunResult
    peak_kb: dict[str, int]


def _subreaper(on: bool) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _vm_hwm_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _exe_name(pid: int) -> str | None:
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return None


def _read_helpers(pids: list[int], names: frozenset[str], helpers: dict[int, tuple[str, int]]) -> None:
    """The VmHWM of each of ``pids`` that runs a program named in ``names`` (its comm and its
    /proc/PID/exe both say so: it has exec'ed it), into ``helpers`` (pid -> (comm, largest reading))."""
    for pid in pids:
        comm = _comm(pid)
        if comm not in names or _exe_name(pid) != comm:
            continue  # another process, or still the tracer's vfork child before its exec
        hwm = _vm_hwm_kb(pid)
        if hwm is not None:
            helpers[pid] = (comm, max(hwm, helpers.get(pid, (comm, 0))[1]))


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return "helper"


def run_tree(argv: list[str], env: dict[str, str], timeout: float, watch_memory: bool = False,
             exec_helpers: frozenset[str] = frozenset()) -> TreeResult:
    """Run argv as ``run_exec`` does, but count the whole process tree (and, if asked, its peak memory).

    The harness makes itself the child subreaper for the run (prctl), so a process the command
    double-forks (pytrace's render process, nobody's waitable child otherwise) is reparented to
    the harness and reaped here: its CPU time is counted and its peak RSS (``ru_maxrss``) kept
    under its ``comm``, read while it is a zombie.  With ``watch_memory`` the command's own peak
    is its VmHWM, read from /proc every 50 ms while it runs (its wait4 rusage would mix in its
    tracee's), and the wall time is known to those 50 ms; without it the harness sleeps in
    wait4 and the wall time is exact.  The harness must have no other child meanwhile.

    ``exec_helpers``: the names of programs the command starts by vfork and exec (the eBPF
    backend's fd holder, ``cat``).  Their wait4 ``ru_maxrss`` is not theirs: exec keeps the
    high-water mark of the address space it leaves, and a vfork child's is the tracer's whole
    one.  Such a process is measured by its VmHWM read from /proc after its exec (its comm and
    /proc/PID/exe name the program), polled with the command (a child of the command) and while
    the harness waits for the orphans (every 5 ms); one never seen running after its exec is
    left out of ``peak_kb`` rather than reported with the tracer's memory.
    """
    peaks: dict[str, int] = {}
    helpers: dict[int, tuple[str, int]] = {}
    _subreaper(True)
    try:
        with tempfile.TemporaryFile() as err:
            t0 = time.perf_counter()
            proc = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
                start_new_session=True,
            )
            if watch_memory:
                rc, cpu, timed_out = _poll_wait(proc, t0 + timeout, peaks, exec_helpers, helpers)
            else:
                rc, cpu, timed_out = _wait_timed(proc, timeout)
            wall = time.perf_counter() - t0
            cpu += _reap_orphans(peaks, time.perf_counter() + max(5.0, timeout - wall), exec_helpers, helpers)
            error = ""
            if timed_out:
                error = f"timed out after {timeout:g} s"
            elif rc != 0:
                error = f"{_status(rc)}: {_tail(err)}".rstrip(": ")
    finally:
        _subreaper(False)
    return TreeResult(RunResult(wall, cpu, rc, timed_out, error), peaks)


def _pss_kb(pid: int) -> int:
    """Proportional set size: pages shared with other processes (a fork's copy-on-write) count in part."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _adopted(parent: int | None = None) -> list[int]:
    """Processes whose parent is the harness (its children and the orphans it adopted as subreaper),
    or ``parent``."""
    me = str(os.getpid() if parent is None else parent).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                ppid = f.read().rsplit(b")", 1)[1].split()[1]
        except (OSError, IndexError):
            continue
        if ppid == me:
            found.append(int(entry))
    return found


def _poll_wait(proc: subprocess.Popen[bytes], deadline: float, peaks: dict[str, int],
               exec_helpers: frozenset[str] = frozenset(),
               helpers: dict[int, tuple[str, int]] | None = None) -> tuple[int, float, bool]:
    """wait4 the command without blocking, reading its VmHWM every 50 ms (5 ms in its first half
    second); killed at the deadline.

    Each reading also sums the PSS of the command and the orphans adopted so far (pytrace's
    render process): ``peaks["pss_sum"]`` is the largest sum, the memory of the tracer's
    processes together with the pages they share (the render process is a fork) counted once.
    The command's children named in ``exec_helpers`` are read into ``helpers`` (run_tree).
    """
    timed_out = False
    start = time.perf_counter()
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        hwm = _vm_hwm_kb(proc.pid)  # None once it is a zombie: the last reading stands
        if hwm is not None:
            peaks["tracer"] = max(peaks.get("tracer", 0), hwm)
            pss = sum(_pss_kb(p) for p in _adopted())
            peaks["pss_sum"] = max(peaks.get("pss_sum", 0), pss)
            if exec_helpers and helpers is not None:
                _read_helpers(_adopted(proc.pid), exec_helpers, helpers)
        now = time.perf_counter()
        if not timed_out and now > deadline:
            timed_out = True
            _kill_group(proc.pid)
        time.sleep(0.005 if now - start < 0.5 else 0.05)  # short runs get readings too
    peaks.setdefault("tracer", usage.ru_maxrss)  # it ended before the first reading
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime, timed_out


def _reap_orphans(peaks: dict[str, int], deadline: float, exec_helpers: frozenset[str] = frozenset(),
                  helpers: dict[int, tuple[str, int]] | None = None) -> float:
    """wait4 every process reparented to the harness: their CPU; their peak RSS under their comm
    (an ``exec_helpers`` one: its VmHWM read while it ran after its exec, if it was: run_tree)."""
    helpers = {} if helpers is None else helpers
    cpu = 0.0
    while True:
        try:
            info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return cpu
        if info is None:  # orphans still running (the render process writing its last lines)
            if exec_helpers:
                _read_helpers(_adopted(), exec_helpers, helpers)
            if time.perf_counter() > deadline:
                _kill_orphans()
                deadline = float("inf")
            time.sleep(0.005)
            continue
        name = _comm(info.si_pid)  # a zombie keeps its comm until reaped
        _, _, usage = os.wait4(info.si_pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
        if name in exec_helpers:
            seen = helpers.pop(info.si_pid, None)
            if seen is not None:
                peaks[name] = max(peaks.get(name, 0), seen[1])
            continue
        peaks[name] = max(peaks.get(name, 0), usage.ru_maxrss)


def _kill_orphans() -> None:
    """SIGKILL the processes reparented to the harness (a helper that outlived its deadline)."""
    for pid in _adopted():
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
