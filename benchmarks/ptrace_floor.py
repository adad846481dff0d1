#!/usr/bin/env python3
"""The floor of a ptrace tracer, side by side: strace, a bare C loop, the same loop in Python, pytrace -c.

Issue 15 wants ``pytrace -c`` at or below strace -c's added cost per syscall.  pytrace -c already
makes one wait4, one PTRACE_GET_SYSCALL_INFO and one resume per stop; what is left is CPython's own
cost per stop.  This script measures where that leaves it, in one run with interleaved repetitions:

* untraced (the baseline), ``strace -f -c -o /dev/null`` and ``strace -f -o /dev/null``;
* ``floor/bare_loop.c`` (compiled here with gcc): the three calls per stop and nothing else;
* ``floor/bare_loop.py``: the same loop in CPython, through pytrace's own ctypes binding;
* ``pytrace -f -c -o /dev/null``.

on W1 (getppid in a loop) and W5 (4 threads, getppid + 1-byte reads), the suite's workloads
(benchsuite/workloads.py).  The figure is the workload's own loop clock (benchsuite/measure.py's
LOOP_ENV: CLOCK_MONOTONIC around its syscall loop, no tracer start-up or exit in it): added cost per
syscall = (median traced loop - median untraced loop) / loop calls.  Next to it the CPU that
``wait4`` reports for the run's process (the tracer, and its tracee, which the tracer reaps), above
the untraced run's, per syscall: user time is almost all the tracer's (the workloads spend next to
none), system time is the stops' kernel work on both sides.  The bare loops print how many getppid
entries they saw; a run whose count differs from the workload's is invalid and left out.

    python3 benchmarks/ptrace_floor.py                     # W1 200,000 + W5 200,000, 5 repetitions
    python3 benchmarks/ptrace_floor.py --w1 1000000 --workloads W1 --reps 7
    python3 benchmarks/ptrace_floor.py --tiny --reps 1     # seconds: proves it runs (the smoke test)

Prints a markdown report (machine, load average before and after, commit, one table per workload).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from benchsuite import machine, measure, tracers, workloads  # noqa: E402

BUILD = HERE / "results" / "tmp" / "build"
FLOOR = HERE / "floor"
UNTRACED = "untraced"
STRACE_C = "strace -f -c -o /dev/null"
START_UP = "W0"  # every row also runs `true`: its CPU there is the row's start-up, taken off the CPU figures
GETPPID_RE = re.compile(r"^getppid (\d+)$", re.M)


@dataclass(frozen=True)
class Row:
    """One tracer configuration: argv prefix (empty: the workload alone); ``counts``: it prints "getppid N"."""

    name: str
    prefix: tuple[str, ...]
    counts: bool = False


@dataclass
class Run:
    """One timed run: the workload's loop clock and the run's CPU from wait4 (tracer + reaped tracee)."""

    loop_ns: int
    loop_calls: int
    user_s: float
    sys_s: float
    wall_s: float


@dataclass
class Cell:
    """One row on one workload: its valid runs, why the others were not, what a bare loop counted."""

    runs: list[Run] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)
    counted: int | None = None  # getppid entries a bare loop saw (equal to the workload's in a valid run)


def rows(pytrace: list[str], bare_c: Path) -> list[Row]:
    strace = shutil.which("strace") or "strace"
    return [
        Row(UNTRACED, ()),
        Row(STRACE_C, (strace, "-f", "-c", "-o", "/dev/null")),
        Row("strace -f -o /dev/null", (strace, "-f", "-o", "/dev/null")),
        Row("bare C loop (floor/bare_loop.c)", (str(bare_c),), counts=True),
        Row("bare Python loop (floor/bare_loop.py)", (sys.executable, str(FLOOR / "bare_loop.py")), counts=True),
        Row("pytrace -f -c -o /dev/null", (*pytrace, "-f", "-c", "-o", "/dev/null")),
    ]


def build_bare_loop(build: Path) -> Path:
    """gcc -O2 floor/bare_loop.c into the build directory (again when the source is newer)."""
    src, exe = FLOOR / "bare_loop.c", build / "bare_loop"
    if exe.exists() and exe.stat().st_mtime >= src.stat().st_mtime:
        return exe
    if shutil.which("gcc") is None:
        sys.exit("ptrace_floor.py: gcc is required to build benchmarks/floor/bare_loop.c")
    build.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["gcc", "-O2", "-Wall", "-o", str(exe), str(src)], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        sys.exit(f"ptrace_floor.py: building bare_loop.c failed:\n{done.stderr}")
    return exe


def expected_getppid(workload: str, loop_calls: int) -> int:
    """getppid calls of a run whose loop made ``loop_calls`` syscalls: W1 makes only getppid, W5
    alternates getppid and read, W0 (``true``) none, and nothing outside the loops calls getppid."""
    return {"W1": loop_calls, "W5": loop_calls // 2}.get(workload, 0)


def run_once(argv: list[str], env: dict[str, str], loop_file: Path, timeout: float,
             timed_loop: bool = True) -> tuple[Run | None, str, str]:
    """(the run, or None; why not; its stderr).  Spawned in its own session, stdout to /dev/null,
    reaped with wait4 for its rusage; killed (the whole group) after ``timeout`` seconds.  A
    ``timed_loop`` workload must have written its loop's time (W0, ``true``, has none)."""
    loop_file.unlink(missing_ok=True)
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
                                start_new_session=True)
        timer = threading.Timer(timeout, lambda: os.killpg(proc.pid, signal.SIGKILL))
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = " | ".join(stderr.strip().splitlines()[-2:])
        return None, f"exit status {proc.returncode}: {tail}", stderr
    loop = measure.read_loop(loop_file) if timed_loop else (0, 0)
    if loop is None:
        return None, "the workload wrote no loop time", stderr
    return Run(loop[0], loop[1], usage.ru_utime, usage.ru_stime, wall), "", stderr


def measure_all(chosen: list[tuple[str, list[str]]], table: list[Row], reps: int, timeout: float,
                env: dict[str, str], loop_file: Path) -> dict[tuple[str, str], Cell]:
    """Every row on every workload, repetition by repetition (interleaved), the row order rotated at
    each repetition so that no row always runs right after the same neighbour."""
    chosen = [*chosen, (START_UP, [shutil.which("true") or "/bin/true"])]
    cells = {(w, r.name): Cell() for w, _ in chosen for r in table}
    for _w, argv in chosen:  # warm-up: page cache, dentries, the workload's first run
        run_once(argv, env, loop_file, timeout, timed_loop=False)
    for rep in range(reps):
        order = table[rep % len(table):] + table[:rep % len(table)]
        for w, argv in chosen:
            for row in order:
                run, why, stderr = run_once([*row.prefix, *argv], env, loop_file, timeout, w != START_UP)
                cell = cells[(w, row.name)]
                if run is None:
                    cell.invalid.append(why)
                    continue
                if row.counts:
                    m = GETPPID_RE.search(stderr)
                    want = expected_getppid(w, run.loop_calls)
                    if m is None or int(m.group(1)) != want:
                        cell.invalid.append(f"counted getppid {m.group(1) if m else 'nothing'}, the workload made {want}")
                        continue
                    cell.counted = int(m.group(1))
                cell.runs.append(run)
                if run.loop_calls:
                    print(f"  rep {rep + 1}/{reps} {w} {row.name}: loop {run.loop_ns / run.loop_calls / 1000:.2f} "
                          "us/call", file=sys.stderr, flush=True)
    return cells


def _med(values: list[float]) -> float:
    return statistics.median(values)


def _cpu(cell: Cell) -> tuple[float, float] | None:
    """Median (user, sys) seconds of a cell's runs; None without a valid run."""
    if not cell.runs:
        return None
    return _med([r.user_s for r in cell.runs]), _med([r.sys_s for r in cell.runs])


def _added_cpu(cells: dict[tuple[str, str], Cell], w: str, row: str) -> tuple[float, float] | None:
    """(user, sys) seconds the row adds to workload ``w`` beyond its own start-up and exit: its CPU on
    ``w`` minus its CPU on ``true``, minus the same difference untraced (run.py's steady state)."""
    got = [_cpu(cells[key]) for key in ((w, row), (START_UP, row), (w, UNTRACED), (START_UP, UNTRACED))]
    if any(g is None for g in got):
        return None
    (tu, ts), (su, ss), (bu, bs), (zu, zs) = got  # type: ignore[misc]
    return (tu - su) - (bu - zu), (ts - ss) - (bs - zs)


def _loop_us(cell: Cell, calls: int) -> float:
    return _med([r.loop_ns for r in cell.runs]) / calls / 1000


def report(chosen: list[tuple[str, list[str]]], table: list[Row], cells: dict[tuple[str, str], Cell],
           reps: int, load_before: tuple[float, ...], command: str) -> str:
    """The markdown report: machine and load, one table per workload, the bare loops' counts, invalid runs."""
    info = machine.describe()
    load_after = os.getloadavg()
    out = [
        "# ptrace floor: strace, bare C and Python loops, pytrace -c",
        "",
        f"{info['date']}, commit {info['commit']}; {machine.summary_line(info)}.",
        f"Load average before: {' '.join(f'{x:.2f}' for x in load_before)}; "
        f"after: {' '.join(f'{x:.2f}' for x in load_after)}.",
        f"{reps} interleaved repetitions, medians. Command: `{command}`",
        "",
        "Loop: the workload's own clock around its syscall loop, per loop syscall; added: above the untraced",
        "median. CPU: wait4's rusage of the run (the tracer and the tracee it reaped), above the untraced run,",
        "with each row's start-up and exit (its run on `true`) taken off, per loop syscall.",
    ]
    notes: list[str] = []
    for w, argv in chosen:
        base = cells[(w, UNTRACED)]
        out += ["", f"## {w}: `{' '.join([Path(argv[0]).name, *argv[1:]])}`", ""]
        if not base.runs:
            out.append(f"no valid untraced run: {'; '.join(base.invalid)}")
            continue
        calls = base.runs[0].loop_calls
        b_loop = _loop_us(base, calls)
        ref = cells[(w, STRACE_C)]
        ref_added = _loop_us(ref, calls) - b_loop if ref.runs else None
        out.append(f"| {w}, {calls:,} syscalls | loop µs/call | added µs/call | vs strace -c "
                   "| added CPU µs/call: user | sys | user+sys | valid runs |")
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for row in table:
            cell = cells[(w, row.name)]
            notes += [f"{w} {row.name}: invalid run: {why}" for why in cell.invalid]
            notes += [f"`true` {row.name}: invalid run: {why}" for why in cells[(START_UP, row.name)].invalid]
            valid = f"{len(cell.runs)}/{reps}"
            if not cell.runs:
                out.append(f"| {row.name} | invalid | | | | | | {valid} |")
                continue
            loop = _loop_us(cell, calls)
            if row.name == UNTRACED:
                out.append(f"| {row.name} | {loop:.3f} | - | - | - | - | - | {valid} |")
                continue
            added = loop - b_loop
            ratio = f"{added / ref_added:.2f}x" if ref_added else "-"
            cpu = _added_cpu(cells, w, row.name)
            cpu_text = (f"{cpu[0] * 1e6 / calls:.2f} | {cpu[1] * 1e6 / calls:.2f} | {sum(cpu) * 1e6 / calls:.2f}"
                        if cpu is not None else "? | ? | ?")
            out.append(f"| {row.name} | {loop:.2f} | {added:.2f} | {ratio} | {cpu_text} | {valid} |")
        counted = [f"{row.name.split(' (')[0]} {cells[(w, row.name)].counted:,}"
                   for row in table if row.counts and cells[(w, row.name)].counted is not None]
        if counted:
            out += ["", f"getppid entries counted by the bare loops (the workload made "
                        f"{expected_getppid(w, calls):,}): {', '.join(counted)}."]
    startup = [f"{row.name} {sum(c) * 1000:.1f}" for row in table
               if (c := _cpu(cells[(START_UP, row.name)])) is not None]
    out += ["", f"CPU ms of each row on `true` (start-up and exit, taken off above): {'; '.join(startup)}."]
    if notes:
        out += ["", "Notes:", *[f"- {n}" for n in dict.fromkeys(notes)]]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=5, help="interleaved repetitions; medians are reported (5)")
    ap.add_argument("--workloads", default="W1,W5", help="W1, W5 or both (W1,W5)")
    ap.add_argument("--w1", type=int, help="W1's getppid calls (200,000; 200 with --tiny)")
    ap.add_argument("--w5", type=int, help="W5's syscalls over its 4 threads (200,000; 200 with --tiny)")
    ap.add_argument("--tiny", action="store_true", help="the workloads' tiny sizes: proves it runs, figures meaningless")
    ap.add_argument("--pytrace", default=f"{sys.executable} -m pytrace", help="command that starts pytrace "
                    "(default: python -m pytrace of this checkout)")
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds before one run is killed (300)")
    args = ap.parse_args(argv)
    if args.reps < 1:
        ap.error("--reps must be at least 1")
    known = workloads.by_id()
    wanted = [w.strip() for w in args.workloads.split(",") if w.strip()]
    if not wanted or any(w not in ("W1", "W5") for w in wanted):
        ap.error("--workloads takes W1, W5 or W1,W5")
    load_before = os.getloadavg()
    if not all((BUILD / known[w].source).exists() for w in wanted):  # type: ignore[operator]
        workloads.build(BUILD)
    bare_c = build_bare_loop(BUILD)
    sizes = {"W1": args.w1, "W5": args.w5}
    chosen = []
    for w in wanted:
        size = sizes[w] if sizes[w] is not None else known[w].size(args.tiny)
        chosen.append((w, known[w].argv(BUILD, size, args.tiny)))
    ctx = tracers.Context.default(shlex.split(args.pytrace))
    env = dict(ctx.env)  # PYTHONPATH: this checkout's pytrace, for pytrace and the bare Python loop
    with tempfile.TemporaryDirectory() as tmp:
        loop_file = Path(tmp) / "loop.txt"
        env[measure.LOOP_ENV] = str(loop_file)
        table = rows(list(ctx.pytrace_cmd), bare_c)
        cells = measure_all(chosen, table, args.reps, args.timeout, env, loop_file)
    command = "python3 benchmarks/ptrace_floor.py " + " ".join(shlex.quote(a) for a in (argv or sys.argv[1:]))
    print(report(chosen, table, cells, args.reps, load_before, command.strip()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
