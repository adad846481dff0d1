#!/usr/bin/env python3
"""Run the tracer benchmark suite: every tracer on every workload, side by side, in one run.

    python3 benchmarks/run.py                 # full suite, 3 repetitions (~15-25 min on 2 vCPUs)
    python3 benchmarks/run.py --reps 5
    python3 benchmarks/run.py --tiny --reps 1 --tracers strace,pytrace   # seconds: the smoke test
    python3 benchmarks/run.py --workloads W6 --update   # pyltrace vs ltrace only, merged into latest.*
    python3 benchmarks/run.py --startup       # only the start-up table, merged into latest.*
    python3 benchmarks/run.py --memory        # only the memory table (peak RSS on W1), merged into latest.*
    python3 benchmarks/run.py --list

Writes benchmarks/results/latest.md, latest.json and latest.png (or --out DIR).
Methodology: benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchsuite import events, machine, measure, memory, report, startup, tracers, workloads  # noqa: E402
from benchsuite.report import BASELINE_ID, STARTUP_ID, Instance, SuiteData, runs_on  # noqa: E402
from benchsuite.tracers import STATUS_OK  # noqa: E402

DEFAULT_OUT = Path(__file__).resolve().parent / "results"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="benchmarks/run.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--reps", type=int, default=3, help="repetitions per cell; the median is reported (3)")
    p.add_argument("--tiny", action="store_true", help="tiny workload sizes: checks the suite works, "
                   "figures meaningless")
    p.add_argument("--scale", type=float, default=1.0, help="multiply the workload sizes (1.0)")
    p.add_argument("--tracers", help="comma-separated tracer ids (default: all; 'untraced' is always run)")
    p.add_argument("--workloads", help="comma-separated workload ids (default: all; W0 is always run)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"results directory ({DEFAULT_OUT})")
    p.add_argument("--build-dir", type=Path, help="where workloads are compiled (OUT/tmp/build)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds before one run is killed (300)")
    p.add_argument("--pytrace", help="command that starts pytrace (default: python3 -m pytrace of this checkout)")
    p.add_argument("--pyltrace", help="command that starts pyltrace (default: python3 -m "
                   "pytrace.cli.ltrace_cli of this checkout)")
    p.add_argument("--update", action="store_true", help="merge into OUT/latest.json instead of replacing it: "
                   "the cells of the workloads run now replace theirs, every other cell is kept")
    p.add_argument("--startup", action="store_true", help="measure only the start-up table (python -c pass, "
                   "pytrace, pyltrace, the eBPF backend, strace, ltrace on `true`) and merge it into OUT/latest.*")
    p.add_argument("--memory", action="store_true", help="measure only the memory table (peak RSS of strace, "
                   "pytrace, pytrace -c and the eBPF backend on W1 at 100,000 and 1,000,000 syscalls; "
                   "200 with --tiny) and merge it into OUT/latest.*")
    p.add_argument("--startup-reps", type=int, default=21, help="runs of each start-up command; the median is "
                   "reported (21; 3 with --tiny)")
    p.add_argument("--list", action="store_true", help="list tracer and workload ids and exit")
    args = p.parse_args(argv)
    if args.reps < 1 or args.startup_reps < 1:
        p.error("--reps and --startup-reps must be at least 1")
    return args


def _select(ids: str | None, known: dict[str, object], always: str, what: str) -> list[str]:
    if not ids:
        return list(known)
    chosen = [s.strip() for s in ids.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in known]
    if unknown:
        sys.exit(f"run.py: unknown {what} {', '.join(unknown)} (known: {', '.join(known)})")
    return [k for k in known if k == always or k in chosen]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def plan_instances(
    data_workloads: list[workloads.Workload], rows: list[tracers.Tracer], build: Path, tiny: bool, scale: float
) -> tuple[dict[str, Instance], dict[tuple[str, str], str]]:
    """The workload sizes to run: the full size for everyone, a reduced one for rows with a scale."""
    instances: dict[str, Instance] = {}
    plan: dict[tuple[str, str], str] = {}
    for w in data_workloads:
        for t in rows:
            if not runs_on(t, w):
                continue
            size = w.size(tiny, scale * t.scale) if w.full_size is not None else None
            key = w.id if size is None else f"{w.id}@{size}"
            reduced = size is None and bool(w.reduced) and t.scale < 1.0 and not tiny
            if reduced:
                key = f"{w.id}@reduced"
            if key not in instances:
                argv = w.argv(build, size, tiny or reduced)
                text = w.describe(size) + (f" (reduced: {w.reduced})" if reduced else "")
                lib_calls = w.lib_calls(size) if w.lib_calls is not None else None
                instances[key] = Instance(key, w.id, size, argv, text, lib_calls=lib_calls)
            plan[(t.id, w.id)] = key
    return instances, plan


def expected_events(t: tracers.Tracer, w: workloads.Workload, inst: Instance) -> dict[str, int] | None:
    """The calls a per-event row must print (or a counting bpftrace row count) on this instance (events.py);
    None: nothing to check."""
    if not t.events and not t.bpftrace_program:
        return None
    if w.known_calls is not None:
        return w.known_calls(inst.size)
    names = [n for n in w.counted if not t.only or n in t.only]
    return {n: inst.syscall_counts[n] for n in names if n in inst.syscall_counts} or None


def _run_one(t: tracers.Tracer, inst: Instance, ctx: tracers.Context, timeout: float,
             expected: dict[str, int] | None = None, trace: Path | None = None,
             loop: Path | None = None) -> measure.RunResult:
    """One timed run of row ``t`` on a workload instance; with ``expected``, its events are counted;
    with ``loop`` (a loop-timed workload's LOOP_ENV file), the time of its syscall loop is read."""
    if loop is None:
        return _run_timed(t, inst, ctx, timeout, expected, trace)
    loop.unlink(missing_ok=True)
    result = _run_timed(t, inst, ctx, timeout, expected, trace)
    got = measure.read_loop(loop) if result.ok else None
    if got is not None:
        result.loop_ns, result.loop_calls = got
    return result


def _run_timed(t: tracers.Tracer, inst: Instance, ctx: tracers.Context, timeout: float,
               expected: dict[str, int] | None, trace: Path | None) -> measure.RunResult:
    if t.kind == "bpftrace":
        bpf = ctx.program_argv("bpftrace")
        assert bpf is not None  # probed before
        program = t.bpftrace_program.replace("{exe}", inst.argv[0]) or tracers.BPFTRACE_PROGRAM
        result = measure.run_bpftrace(bpf, program, inst.argv, ctx.env, timeout)
        want = sum(expected.values()) if t.bpftrace_program and expected else None
        if result.ok and want is not None and result.syscalls_seen != want:
            result.invalid, result.error = True, f"events missing or extra: counted {result.syscalls_seen} of {want:,}"
        return result
    if expected is None or trace is None:
        return measure.run_exec(ctx.command(t, inst.argv), ctx.env, timeout)
    try:
        result = measure.run_exec(ctx.command(t, inst.argv, trace), ctx.env, timeout)
        if result.ok:
            wrong = events.check(events.count_calls(trace, t.events), expected)
            if wrong:
                result.invalid, result.error = True, wrong
    finally:
        trace.unlink(missing_ok=True)
    return result


def measure_startup(ctx: tracers.Context, reps: int, timeout: float) -> dict[str, object]:
    """The start-up table, stamped with the machine's state when it was taken."""
    now = machine.describe()
    log(f"start-up table: {reps} runs of each command")
    table = startup.measure_startup(ctx, reps, timeout)
    for row in table["rows"]:  # type: ignore[union-attr]
        log(f"start-up {row['id']:30} " + (f"{row['cpu_ms']:7.1f} ms CPU {row['wall_ms']:7.1f} ms wall"
                                            if row["status"] == "ok" else row["status"]))
    return _stamped(now, table)


def measure_memory(ctx: tracers.Context, build: Path, tiny: bool, timeout: float) -> dict[str, object]:
    """The memory table, stamped with the machine's state when it was taken."""
    now = machine.describe()
    log("memory table: peak RSS on W1")
    table = memory.measure_memory(ctx, build, tiny, timeout)
    for row in table["rows"]:  # type: ignore[union-attr]
        log(f"memory {row['tracer']:14} {row['syscalls']:>9} syscalls: "
            + (f"{row['peak_kb']} kB" if row["status"] == "ok" else row["status"]))
    return _stamped(now, table)


def _stamped(now: dict[str, object], table: dict[str, object]) -> dict[str, object]:
    """``table`` with the date, commit and load average of the machine state ``now``."""
    return {"date": now.get("date"), "commit": now.get("commit"),
            "load_average_at_start": now.get("load_average_at_start", []), **table}


def memory_only(args: argparse.Namespace) -> int:
    """--memory: measure the memory table and merge it into OUT/latest.*, every other table kept."""
    build = args.build_dir or args.out / "tmp" / "build"

    def fill(data: SuiteData, ctx: tracers.Context) -> bool:
        try:
            workloads.build(build)
        except workloads.WorkloadError as exc:
            log(f"run.py: {exc}")
            return False
        data.memory = measure_memory(ctx, build, args.tiny, args.timeout)
        return True

    return _merge_one_table(args, "--memory", "memory", fill)


def startup_only(args: argparse.Namespace) -> int:
    """--startup: measure the start-up table and merge it into OUT/latest.*, every other table kept."""

    def fill(data: SuiteData, ctx: tracers.Context) -> bool:
        data.startup = measure_startup(ctx, 3 if args.tiny else args.startup_reps, args.timeout)
        return True

    return _merge_one_table(args, "--startup", "start-up", fill)


def _merge_one_table(args: argparse.Namespace, option: str, what: str,
                     fill: Callable[[SuiteData, tracers.Context], bool]) -> int:
    """Measure one table (``fill`` sets it; False: it could not, and said why) and merge it into
    OUT/latest.*, every other table kept."""
    previous = args.out / "latest.json"
    if not previous.exists():
        log(f"run.py: {option} merges into {previous}, which does not exist yet: run the suite first")
        return 2
    ctx = tracers.Context.default(shlex.split(args.pytrace) if args.pytrace else None,
                                  shlex.split(args.pyltrace) if args.pyltrace else None)
    data, cells = report.load(previous)
    if not fill(data, ctx):
        return 2
    chart_error = report.render(data, cells, args.out)
    log(f"merged the {what} table into {args.out / 'latest.md'}, {previous}")
    print((args.out / "latest.md").read_text())
    if chart_error:
        log(f"run.py: {chart_error}")
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    all_tracers, all_workloads = tracers.by_id(), workloads.by_id()
    if args.list:
        for t in tracers.TRACERS:
            print(f"{t.id:26} {t.label:46} ({', '.join(t.traces)} workloads)")
        for w in workloads.WORKLOADS:
            print(f"{w.id:26} {w.describe(w.full_size)}")
        return 0
    started = time.perf_counter()
    if args.startup:
        return startup_only(args)
    if args.memory:
        return memory_only(args)
    rows = [all_tracers[i] for i in _select(args.tracers, all_tracers, BASELINE_ID, "tracer")]
    if rows[0].id != BASELINE_ID:
        rows.insert(0, all_tracers[BASELINE_ID])
    chosen = [all_workloads[i] for i in _select(args.workloads, all_workloads, STARTUP_ID, "workload")]
    if chosen[0].id != STARTUP_ID:
        chosen.insert(0, all_workloads[STARTUP_ID])
    # A row that runs on none of the chosen workloads (W0 aside) would measure only its start-up:
    # `--workloads W6` runs the library-call rows, `--workloads W1` the syscall ones.
    rows = [t for t in rows if t.id == BASELINE_ID or any(runs_on(t, w) for w in chosen[1:])]
    out_dir: Path = args.out
    build = args.build_dir or out_dir / "tmp" / "build"
    ctx = tracers.Context.default(shlex.split(args.pytrace) if args.pytrace else None,
                                  shlex.split(args.pyltrace) if args.pyltrace else None)

    traces = out_dir / "tmp" / "traces"  # per-event rows' output, counted and deleted after each run
    traces.mkdir(parents=True, exist_ok=True)
    loop_file = traces / "loop.txt"  # where loop-timed workloads write their loop's time (measure.LOOP_ENV)
    ctx.env[measure.LOOP_ENV] = str(loop_file)

    log(f"building workloads in {build}")
    try:
        workloads.build(build)
    except workloads.WorkloadError as exc:
        log(f"run.py: {exc}")
        return 2

    availability: dict[str, tracers.Availability] = {}
    for t in rows:
        availability[t.id] = tracers.probe(t, ctx)
        a = availability[t.id]
        log(f"tracer {t.id}: {a.status}" + (f" ({a.reason})" if a.reason else ""))
    usable = [t for t in rows if availability[t.id].status == STATUS_OK]

    instances, plan = plan_instances(chosen, usable, build, args.tiny, args.scale)
    for inst in instances.values():
        inst.syscalls, inst.count_method, inst.syscall_counts = workloads.count_syscalls_by_name(
            inst.argv, args.timeout, ctx.env)
        log(f"{inst.key}: {inst.description}: {inst.syscalls} syscalls ({inst.count_method})")
        warm = measure.run_exec(inst.argv, ctx.env, args.timeout)  # page cache, dentries, binaries
        if not warm.ok:
            log(f"run.py: workload {inst.key} fails untraced: {warm.error}")
            return 2

    data = SuiteData(
        machine=machine.describe(),
        versions=tracers.versions(ctx, {t.program for t in rows if t.program}),
        command="python3 benchmarks/run.py" + "".join(f" {shlex.quote(a)}" for a in (
            sys.argv[1:] if argv is None else argv)),
        config={"reps": args.reps, "tiny": args.tiny, "scale": args.scale, "timeout_s": args.timeout,
                "events_checked": True},
        workloads=chosen, tracers=rows, availability=availability, instances=instances,
        plan=plan,
    )
    # Every (row, size) pair to time, by workload; the untraced baseline at every size in use (ltrace's too).
    blocks: list[tuple[list[str], list[tuple[tracers.Tracer, str]]]] = []
    for w in chosen:
        keys = sorted({k for (_, wid), k in plan.items() if wid == w.id})
        jobs = [(all_tracers[BASELINE_ID], key) for key in keys]
        jobs += [(t, plan[(t.id, w.id)]) for t in usable if t.id != BASELINE_ID and (t.id, w.id) in plan]
        blocks.append((keys, jobs))
    given_up: set[tuple[str, str]] = set()
    # Repetitions are interleaved (rep 1 of everything, then rep 2...) so slow drift of the machine
    # (other load, thermal, cache) spreads over all rows instead of biasing the ones run last.
    for rep in range(1, args.reps + 1):
        for keys, jobs in blocks:
            # An untimed untraced run opens each block: minutes pass between two blocks of the same
            # workload, enough for the kernel to drop find's dentries and inodes, and the first run
            # after that (W4 untraced, without this) pays the refill: 2.7 s instead of 0.5 s here.
            for key in keys:
                measure.run_exec(instances[key].argv, ctx.env, args.timeout)
            for t, key in jobs:
                if (t.id, key) in given_up:
                    continue
                w = all_workloads[instances[key].workload]
                expected = expected_events(t, w, instances[key])
                result = _run_one(t, instances[key], ctx, args.timeout, expected, traces / f"{t.id}.trace",
                                  loop_file if w.loop_timed else None)
                data.runs.setdefault((t.id, key), []).append(result)
                log(f"[{rep}/{args.reps}] {key:12} {t.id:26} {result.wall_s:8.3f} s"
                    + ("" if result.ok else f"  {result.error}"))
                if result.timed_out:  # would time out again: spend no more time on it
                    given_up.add((t.id, key))

    if not args.update:  # an --update of some workloads keeps the earlier start-up table
        data.startup = measure_startup(ctx, 3 if args.tiny else args.startup_reps, args.timeout)
        data.memory = measure_memory(ctx, build, args.tiny, args.timeout)
    data.elapsed_s = time.perf_counter() - started
    cells = report.compute(data)
    previous = out_dir / "latest.json"
    if args.update and previous.exists():
        old, old_cells = report.load(previous)
        data, cells = report.merge(old, old_cells, data, cells, [w.id for w in chosen])
        log(f"merged into {previous}: {', '.join(w.id for w in chosen if w.id != STARTUP_ID)} replaced")
    elif args.update:
        log(f"run.py: --update: no {previous} yet, writing a new one")
    chart_error = report.render(data, cells, out_dir)
    log(f"wrote {out_dir / 'latest.md'}, {out_dir / 'latest.json'}"
        + ("" if chart_error else f", {out_dir / 'latest.png'}"))
    print((out_dir / "latest.md").read_text())
    if chart_error:
        log(f"run.py: {chart_error}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
