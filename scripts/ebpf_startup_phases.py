"""Where ``pytrace --backend=ebpf`` spends its start-up: a table of phases, for issue 14's 100 ms target.

Usage (root):  python scripts/ebpf_startup_phases.py [--reps N] [--verifier-stats] [-- PYTRACE_ARGS...]
(default arguments: ``-o /dev/null true``; ``--backend=ebpf`` is always added).

Each run is a fresh interpreter started by this script, which notes CLOCK_MONOTONIC just before
the exec; the child wraps the eBPF backend's functions to time them (map creation, each program
generated, assembled and loaded, with the verifier's ``processed N insns`` from a stats-only
log with --verifier-stats, which loads each program a second time and so delays what follows), attachment, the tracee's spawn) and takes the first record's kernel time stamp
(bpf_ktime_get_ns is CLOCK_MONOTONIC, so it is comparable with the parent's clock).  The table
gives the median of each phase over the runs.  Nothing here is used by pytrace itself.
The child is ``python -c``, which imports from the working directory first: run it from the
checkout to measure (or from elsewhere with PYTHONPATH naming the checkout, to compare two).
Each run starts once the previous one's programs are gone (see ``_settle``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

CHILD = r"""
import atexit, json, os, sys, time, ctypes, re
T0 = float(sys.argv[1]); OUT = sys.argv[2]; STATS = sys.argv[3] == "1"
phases = []  # (name, start, end, extra)
def dump():
    # Run by the CLI's own exit (cli/strace_cli._exit_now runs the exit handlers, then os._exit) or the finally below.
    if not os.path.exists(OUT):
        json.dump({"t0": T0, "phases": phases, "first": first, "end": time.monotonic()}, open(OUT, "w"))
atexit.register(dump)
def note(name, t0, extra=""):
    phases.append((name, t0, time.monotonic(), extra))
t_py = time.monotonic()
phases.append(("interpreter start", T0, t_py, ""))
# -c imports none of the event stream's modules (ring, capture code): neither does this, then.
COUNT = "-c" in sys.argv[4:]
from pytrace.cli import entry
from pytrace.backends.ebpf import bpf, backend
from pytrace.backends.ptrace import launcher
from pytrace.backends.ebpf import asm
from pytrace import pipeline
from pytrace.sinks import summary as _summary
if not COUNT:
    from pytrace.backends.ebpf import ringbuf
    import pytrace.backends.ebpf.capture_progs as C
note("import eBPF backend + CLI (measured alone)", t_py)
first = {}

def wrap(mod, name, label, extra=lambda a, k, r: ""):
    fn = getattr(mod, name, None)
    if fn is None:  # a phase an older (or newer) pytrace does not have: not timed
        return
    def w(*a, **k):
        t = time.monotonic()
        r = fn(*a, **k)
        note(label, t, extra(a, k, r))
        return r
    setattr(mod, name, w)

def stats_of(bytecode, name, functions):
    # The same load again with BPF_LOG_STATS (4): the verifier's own count of what it explored.
    t = time.monotonic()
    line = bpf.verifier_stats(bytecode, name, functions)
    dt = time.monotonic() - t
    return line + f" (again with the stats log: {dt*1000:.1f} ms)"

orig_load = bpf.load_program
def load(bytecode, *a, **k):
    t = time.monotonic()
    fd = orig_load(bytecode, *a, **k)
    note("BPF_PROG_LOAD " + k.get("name", "?"), t, f"{len(bytecode)//8} insns" + ("; " + stats_of(bytecode, k.get("name", ""), k.get("functions", (0,))) if STATS else ""))
    return fd
bpf.load_program = load
orig_map = bpf.Map.__init__
def map_init(self, t, ks, vs, n, name, *a, **k):
    t0 = time.monotonic()
    orig_map(self, t, ks, vs, n, name, *a, **k)
    note("map " + name, t0, f"type {t} {ks}x{vs}x{n}")
bpf.Map.__init__ = map_init
wrap(bpf, "attach_tracepoint", "attach", lambda a, k, r: f"{a[1]}:{a[2]}")
wrap(bpf, "attach_raw_tracepoint", "attach", lambda a, k, r: f"raw {a[1]}")
wrap(asm.Program, "assemble", "assemble")
orig_setup = backend.EbpfBackend._load
def _load(self, prog, category, name, raw=False):
    return orig_setup(self, prog, category, name, raw)
for gen in () if COUNT else ("capture_enter", "capture_exit", "thread_gone", "exec_path", "prepare_exec"):
    wrap(C, gen, "generate " + gen)
from pytrace.backends.ebpf import programs as P
for gen in ("count_enter", "count_exit", "exec_done", "follow_fork"):
    wrap(P, gen, "generate " + gen)
wrap(pipeline, "build_decoding", "build the decoders")
wrap(pipeline.StracePipeline, "_build_sinks", "build the sinks")
wrap(backend.EbpfBackend, "finish_setup", "wait for the loads, attach")
wrap(launcher, "spawn_stopped", "spawn tracee (fork, stopped)")
wrap(backend.EbpfBackend, "start", "start (seize, SIGCONT)")
if not COUNT:
    wrap(ringbuf.RingBuffer, "__init__", "ring mmap")
wrap(backend.EbpfBackend, "close", "close (detach, free)")
wrap(bpf.Resources, "close", "Resources.close (every fd, waiting for the detach)")
wrap(bpf.Resources, "close_later", "Resources.close_later (the fds to the holder process)")
# -c: its maps and programs, the wait for the command, the per-CPU statistics read, the table written.
wrap(backend.EbpfBackend, "begin_count", "-c maps made, programs loaded")
wrap(backend.EbpfBackend, "count", "-c count (the command runs and is reaped, the stats read)")
orig_finished = backend.EbpfBackend._finished
def finished(self, main_done):
    t = time.monotonic()
    r = orig_finished(self, main_done)
    if r:
        note("the traced processes are gone (reaped)", t)
    return r
backend.EbpfBackend._finished = finished
wrap(_summary.SummarySink, "close", "the -c table formatted and written")
if not COUNT:
    orig_drain = ringbuf.RingBuffer.drain
    def drain(self, handle):
        def h(data):
            if "kernel" not in first:
                first["kernel"] = int.from_bytes(bytes(data[8:16]), "little") / 1e9
                first["user"] = time.monotonic()
            handle(data)
        return orig_drain(self, h)
    ringbuf.RingBuffer.drain = drain
sys.argv = ["pytrace"] + sys.argv[4:]
try:
    entry.strace_main()
except SystemExit:
    pass
finally:
    dump()
"""


def _settle(before: set[int], timeout: float = 3.0) -> None:
    """Wait until the programs the last run loaded are gone (its holder process detaches them after
    it exits, ~60 ms per tracepoint).  Back to back, the next run would wait for that detach in
    the kernel when it reads a tracepoint's format file or attaches (tens of ms): a cost of
    running pytrace in a loop, not of one start-up."""
    from pytrace.backends.ebpf.bpf import loaded_program_ids

    end = time.monotonic() + timeout
    while set(loaded_program_ids()) - before and time.monotonic() < end:
        time.sleep(0.02)


def run_once(args: list[str], stats: bool) -> dict:
    from pytrace.backends.ebpf.bpf import loaded_program_ids

    before = set(loaded_program_ids())
    try:
        return _run_once(args, stats)
    finally:
        _settle(before)


def _run_once(args: list[str], stats: bool) -> dict:
    out = f"/tmp/ebpf_phases.{os.getpid()}.json"
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as an installed pytrace runs: from cached bytecode
    t0 = time.monotonic()
    subprocess.run([sys.executable, "-c", CHILD, repr(t0), out, "1" if stats else "0", "--backend=ebpf", *args], env=env, check=False)
    gone = time.monotonic()  # its wait returned: the process is gone, as a shell sees it
    with open(out) as f:
        data = json.load(f)
    os.unlink(out)
    data["gone"] = gone
    return data


def main() -> None:
    argv = sys.argv[1:]
    reps = 5
    if argv[:1] == ["--reps"]:
        reps, argv = int(argv[1]), argv[2:]
    stats = argv[:1] == ["--verifier-stats"]
    if stats:
        argv = argv[1:]
    if argv[:1] == ["--"]:
        argv = argv[1:]
    args = argv or ["-o", "/dev/null", "true"]
    runs = [run_once(args, stats) for _ in range(reps + 1)][1:]  # the first one warms the bytecode cache
    rows: dict[str, list[float]] = {}
    extras: dict[str, str] = {}
    ends: dict[str, list[float]] = {}
    for r in runs:
        seen: dict[str, int] = {}
        for name, a, b, extra in r["phases"]:
            n = seen.get(name, 0)
            seen[name] = n + 1
            key = name if not n else f"{name} #{n + 1}"
            rows.setdefault(key, []).append((b - a) * 1000)
            ends.setdefault(key, []).append((b - r["t0"]) * 1000)
            extras[key] = extra
        if r["first"]:
            rows.setdefault("= exec of pytrace to the tracee's first record (kernel time)", []).append(
                (r["first"]["kernel"] - r["t0"]) * 1000)
            rows.setdefault("= exec of pytrace to that record read in user space", []).append(
                (r["first"]["user"] - r["t0"]) * 1000)
        rows.setdefault("= exec of pytrace to its end (the exit handlers)", []).append((r["end"] - r["t0"]) * 1000)
        rows.setdefault("= exec of pytrace to its process gone (the parent's wait returns)", []).append(
            (r["gone"] - r["t0"]) * 1000)
    print(f"pytrace --backend=ebpf {' '.join(args)}: median of {reps} runs, ms (took, ended at)")
    for key, vals in rows.items():
        end = f"{statistics.median(ends[key]):8.1f}" if key in ends else " " * 8
        print(f"{statistics.median(vals):8.1f} {end}  {key}  {extras.get(key, '')}")


if __name__ == "__main__":
    main()
