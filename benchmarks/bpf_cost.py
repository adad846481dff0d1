#!/usr/bin/env python3
"""What a tracer's BPF programs cost the kernel per traced syscall, read from the kernel's own counters.

The end-to-end added cost of an in-kernel counter (pytrace --backend=ebpf -c, bpftrace's
``count()``) is a fraction of a microsecond per syscall: below the noise of a timed run on this
VM.  The kernel measures its BPF programs itself (``kernel.bpf_stats_enabled=1``: ``run_cnt`` and
``run_time_ns`` in each program's fdinfo), so the programs' cost can be compared exactly, side by
side, whatever the machine's speed of the day.

For each tracer the workload (W1's getppid loop, N calls) is started held behind a FIFO; once the
tracer is attached the counters of every BPF program its processes hold are read, the workload is
released, and they are read again when the loop is done (before the workload exits).  The figure
is the programs' total run time in that window divided by the workload's syscalls.  Programs on
``raw_syscalls`` run for every syscall on the machine, so other processes' calls are in the
window too (at the price of a scope check each); the calls counted are printed next to it.

Usage: benchmarks/bpf_cost.py [--calls N] [--reps K] [--pytrace "python -m pytrace"] (root; needs bpftrace)
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchsuite import workloads  # noqa: E402

BUILD = HERE / "results" / "tmp" / "build"
W1 = BUILD / "w1_getppid"
STATS = Path("/proc/sys/kernel/bpf_stats_enabled")


def _tree(root: int) -> list[int]:
    """``root`` and its descendants (through /proc's children lists)."""
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                todo += [int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return out


def _programs(root: int) -> dict[int, tuple[int, int]]:
    """prog_id -> (run_cnt, run_time_ns) of every BPF program held by ``root``'s process tree."""
    progs: dict[int, tuple[int, int]] = {}
    for pid in _tree(root):
        try:
            fds = os.listdir(f"/proc/{pid}/fdinfo")
        except OSError:
            continue
        for fd in fds:
            try:
                text = Path(f"/proc/{pid}/fdinfo/{fd}").read_text()
            except OSError:
                continue
            if "prog_id:" not in text or "run_cnt:" not in text:
                continue
            info = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
            progs[int(info["prog_id"])] = (int(info["run_cnt"]), int(info["run_time_ns"]))
    return progs


#: bpftrace's count probe: the issue's yardstick (benchmarks/benchsuite/tracers.py's BPFTRACE_COUNT).
BPFTRACE_COUNT = "tracepoint:raw_syscalls:sys_enter /pid == $1/ { @n = count(); }"
#: bpftrace doing -c's job: each syscall's calls, errors and latency (what bcc's syscount -L and
#: pytrace -c measure), written as a bpftrace user would.
BPFTRACE_LATENCY = (
    "tracepoint:raw_syscalls:sys_enter /pid == $1/ { @s[tid] = nsecs; } "
    "tracepoint:raw_syscalls:sys_exit /@s[tid]/ { @calls[args->id] = count(); "
    "@ns[args->id] = sum(nsecs - @s[tid]); if (args->ret < 0) { @errors[args->id] = count(); } delete(@s[tid]); }"
)


def measure(tracer: list[str], calls: int, bpftrace: str) -> tuple[float, int]:
    """(ns of BPF program time per workload syscall, program runs counted) for one run of ``tracer``,
    or with ``bpftrace`` (a program) of bpftrace attached to the held workload."""
    with tempfile.TemporaryDirectory() as tmp:
        go, done, leave = (Path(tmp, n) for n in ("go", "done", "leave"))
        for f in (go, done, leave):
            os.mkfifo(f)
        if bpftrace:
            # bpftrace's filter is ``pid == $1``: the workload keeps the held shell's pid (exec), and
            # bpftrace, which outlives it, is read once it has exited.
            held = subprocess.Popen(["/bin/sh", "-c", f'read _ < {go}; exec {W1} {calls}'], stdout=subprocess.DEVNULL)
            program = 'BEGIN { printf("READY\\n"); } ' + bpftrace
            proc = subprocess.Popen(["bpftrace", "-e", program, str(held.pid)], stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL)
            assert proc.stdout is not None
            while b"READY" not in proc.stdout.readline():
                pass
            before = _programs(proc.pid)
            with open(go, "w") as f:
                f.write("\n")
            held.wait()
            after = _programs(proc.pid)
            proc.terminate()
            proc.wait()
        else:
            # pytrace (-f) follows the shell's child, and exits with the shell: read before it ends.
            script = f'read _ < {go}; {W1} {calls}; echo > {done}; read _ < {leave}'
            proc = subprocess.Popen([*tracer, "/bin/sh", "-c", script], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            time.sleep(1.5)  # attached long before: the tracer launches the command only then
            before = _programs(proc.pid)
            with open(go, "w") as f:
                f.write("\n")
            Path(done).read_text()
            after = _programs(proc.pid)
            with open(leave, "w") as f:
                f.write("\n")
            proc.wait()
    runs = sum(after[p][0] - before[p][0] for p in after if p in before)
    ns = sum(after[p][1] - before[p][1] for p in after if p in before)
    return ns / calls, runs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=1_000_000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pytrace", default=f"{sys.executable} -m pytrace")
    args = ap.parse_args()
    if not W1.exists():
        workloads.build(BUILD)
    rows = {
        "bpftrace: count sys_enter of the pid": ([], BPFTRACE_COUNT),
        "bpftrace: count, errors, latency per syscall": ([], BPFTRACE_LATENCY),
        "pytrace --backend=ebpf -f -c": ([*shlex.split(args.pytrace), "--backend=ebpf", "-f", "-c", "-o",
                                          "/dev/null"], ""),
    }
    old = STATS.read_text().strip()
    STATS.write_text("1")
    results: dict[str, list[tuple[float, int]]] = {name: [] for name in rows}
    try:
        for _ in range(args.reps):  # interleaved: both rows see the same machine
            for name, (cmd, program) in rows.items():
                results[name].append(measure(cmd, args.calls, program))
    finally:
        STATS.write_text(old)
    print(f"BPF program time per traced syscall, W1 ({args.calls:,} getppid), {args.reps} interleaved runs, "
          f"median; load average {os.getloadavg()[0]:.2f}")
    base = statistics.median(ns for ns, _ in results["bpftrace: count sys_enter of the pid"])
    for name, got in results.items():
        med = statistics.median(ns for ns, _ in got)
        runs = statistics.median(r for _, r in got)
        print(f"  {name:40} {med:7.1f} ns   ({med / base:.2f}x bpftrace; {runs / args.calls:.2f} program runs a call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
