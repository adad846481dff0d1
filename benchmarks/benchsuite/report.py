"""From timed runs to figures, and from figures to latest.md / latest.json / latest.png.

For tracer T on workload W (``t`` = median wall time, ``S`` = syscalls of W):

* ratio = t_T(W) / t_untraced(W) -- what a user waits, start-up included;
* added us/syscall, end to end = (t_T(W) - t_untraced(W)) / S(W);
* added us/syscall, steady state = ((t_T(W) - t_0(W)) - (t_T(true) - t_0(true))) / (S(W) - S(true)):
  the same difference taken again against ``true`` (W0), the smallest run of
  a program, which removes the tracer's fixed cost (Python's start-up,
  bpftrace's attach, exec handling) -- the "two sizes, take the difference"
  method, with ``true`` as the small size so that it also works for W4,
  whose size cannot be chosen.

A row run at a reduced size (ltrace) gets its full-size ratio extrapolated
from its steady-state cost and is marked with "~"; a timeout gives a lower
bound (">").

On a library-call workload (W6) the same two figures are per library call
(``S`` = the library calls it makes, ``Workload.lib_calls``): that is what a
library-call tracer stops at, while the ~30 syscalls of W6 would make a
per-syscall figure meaningless.

``merge`` folds the cells of a partial run (``run.py --update``) into an
earlier latest.json, so W6 can be re-measured without re-running W1-W5.
"""

from __future__ import annotations

import json
import statistics
import textwrap
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from benchsuite import memory as memory_table
from benchsuite import startup as startup_table
from benchsuite import tracers as tracer_rows
from benchsuite import workloads as workload_defs
from benchsuite.machine import summary_line
from benchsuite.measure import RunResult
from benchsuite.tracers import STATUS_OK, Availability, Tracer
from benchsuite.workloads import CALL_UNITS, LIBCALL, SYSCALL, USDT, Workload

STARTUP_ID = "W0"
BASELINE_ID = "untraced"


def runs_on(tracer: Tracer, workload: Workload) -> bool:
    """Is ``tracer`` timed on ``workload``?  On W0 always (its fixed cost), else if it traces the unit."""
    return workload.id == STARTUP_ID or workload.unit in tracer.traces


@dataclass
class Instance:
    """A workload at one size (the full size, or a tracer's reduced size)."""

    key: str
    workload: str
    size: int | None
    argv: list[str]
    description: str
    syscalls: int | None = None
    count_method: str = ""
    lib_calls: int | None = None  # library-call workloads: Workload.lib_calls at this size
    syscall_counts: dict[str, int] = field(default_factory=dict)  # strace -f -c, per syscall name


@dataclass
class SuiteData:
    """Everything one run of the suite produced (what latest.json is made from)."""

    machine: dict[str, object]
    versions: dict[str, str]
    command: str
    config: dict[str, object]
    workloads: list[Workload]
    tracers: list[Tracer]
    availability: dict[str, Availability]
    instances: dict[str, Instance]
    #: (tracer id, workload id) -> the instance key that tracer runs for that workload
    plan: dict[tuple[str, str], str]
    runs: dict[tuple[str, str], list[RunResult]] = field(default_factory=dict)
    elapsed_s: float = 0.0
    #: Later partial runs merged in (run.py --update): what each measured, when, on which commit.
    updates: list[dict[str, Any]] = field(default_factory=list)
    #: The start-up table (benchsuite/startup.py), with the date and commit it was measured on.
    startup: dict[str, Any] | None = None
    #: The memory table (benchsuite/memory.py), with the date and commit it was measured on.
    memory: dict[str, Any] | None = None


@dataclass
class Cell:
    """One tracer x workload figure set.  status: ok, failed, timeout, or the tracer's availability."""

    tracer: str
    workload: str
    status: str
    reason: str = ""
    instance: str = ""
    size: int | None = None
    syscalls: int | None = None
    wall_s: list[float] = field(default_factory=list)
    median_s: float | None = None
    baseline_s: float | None = None
    ratio: float | None = None
    ratio_kind: str = ""  # measured | extrapolated | lower bound
    ratio_at_size: float | None = None
    us_per_syscall: float | None = None  # end to end
    us_per_syscall_steady: float | None = None
    lib_calls: int | None = None  # library-call workloads: the calls the figures below divide by
    us_per_lib_call: float | None = None  # end to end
    us_per_lib_call_steady: float | None = None
    fixed_ms: float | None = None  # W0 only: added start-up + tear-down
    failed_runs: int = 0  # runs that crashed while others of the same cell succeeded (marked "*")
    cpu_s: float | None = None
    bpftrace_count: int | None = None
    attach_s: float | None = None
    #: The row's events were counted in these runs (events.py); cells of earlier files lack it.
    events_checked: bool = False
    #: Loop-timed workloads (Workload.loop_timed): the median time of the program's own syscall loop,
    #: and what the tracer added to each syscall inside it (against the untraced loop's median).
    loop_ms: float | None = None
    us_per_syscall_in_program: float | None = None


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _baseline(data: SuiteData, instance: str) -> float | None:
    runs = data.runs.get((BASELINE_ID, instance), [])
    return _median([r.wall_s for r in runs if r.ok])


def _loop(runs: list[RunResult]) -> tuple[float, int] | None:
    """Median loop time (ns) of the runs that timed their loop, and the calls in it."""
    timed = [r for r in runs if r.ok and r.loop_ns is not None and r.loop_calls]
    if not timed:
        return None
    return statistics.median(r.loop_ns for r in timed), timed[0].loop_calls  # type: ignore[misc]


def _in_program(data: SuiteData, cell: Cell, runs: list[RunResult]) -> None:
    """The loop figures of a cell: (traced loop - untraced loop) / calls, both medians of this run."""
    mine = _loop(runs)
    if mine is None:
        return
    cell.loop_ms = mine[0] / 1e6
    base = _loop(data.runs.get((BASELINE_ID, cell.instance), []))
    if base is not None and cell.tracer != BASELINE_ID:
        cell.us_per_syscall_in_program = (mine[0] - base[0]) / mine[1] / 1e3


def compute(data: SuiteData) -> list[Cell]:
    """Every cell of the table, in tracer x workload order (W0 first, it feeds the others)."""
    cells: list[Cell] = []
    fixed: dict[str, float] = {}
    for tracer in data.tracers:
        avail = data.availability[tracer.id]
        for workload in data.workloads:
            if not runs_on(tracer, workload):
                continue
            if avail.status != STATUS_OK:
                cells.append(Cell(tracer.id, workload.id, avail.status, avail.reason))
                continue
            key = data.plan[(tracer.id, workload.id)]
            inst = data.instances[key]
            runs = data.runs.get((tracer.id, key), [])
            cell = Cell(tracer.id, workload.id, "ok", instance=key, size=inst.size, syscalls=inst.syscalls,
                        lib_calls=inst.lib_calls,
                        events_checked=bool(tracer.events) and bool(data.config.get("events_checked")))
            cell.wall_s = [round(r.wall_s, 6) for r in runs]
            cell.baseline_s = _baseline(data, key)
            good = [r for r in runs if r.ok]
            bad = [r for r in runs if not r.ok]
            cell.failed_runs = len(bad)
            if bad:
                cell.reason = f"{len(bad)} of {len(runs)} runs failed: {bad[0].error}"
            if not runs:
                cell.status, cell.reason = "not run", "no measurement"
            elif not good:
                cell.status = "timeout" if bad[0].timed_out else "invalid" if bad[0].invalid else "failed"
                cell.reason = bad[0].error
                if bad[0].timed_out and cell.baseline_s:
                    cell.ratio = bad[0].wall_s / cell.baseline_s
                    cell.ratio_kind = "lower bound"
                cells.append(cell)
                continue
            else:  # the figures of the runs that succeeded; failed ones are counted and footnoted
                cell.median_s = _median([r.wall_s for r in good])
                cell.cpu_s = _median([r.cpu_s for r in good])
                counts = [r.syscalls_seen for r in good if r.syscalls_seen is not None]
                cell.bpftrace_count = int(statistics.median(counts)) if counts else None
                attach = [r.attach_s for r in good if r.attach_s is not None]
                cell.attach_s = _median(attach)
                _in_program(data, cell, good)
            if cell.median_s is not None and cell.baseline_s:
                added = cell.median_s - cell.baseline_s
                cell.ratio_at_size = cell.median_s / cell.baseline_s
                cell.ratio, cell.ratio_kind = cell.ratio_at_size, "measured"
                if workload.id == STARTUP_ID:
                    fixed[tracer.id] = added
                    cell.fixed_ms = added * 1e3
                elif workload.unit in CALL_UNITS:
                    if inst.lib_calls:
                        cell.us_per_lib_call = added / inst.lib_calls * 1e6
                elif inst.syscalls:
                    cell.us_per_syscall = added / inst.syscalls * 1e6
            cells.append(cell)
        _steady_state(data, tracer, fixed.get(tracer.id), cells)
    return cells


def _steady_state(data: SuiteData, tracer: Tracer, fixed_s: float | None, cells: list[Cell]) -> None:
    """Fill the steady-state cost, and extrapolate full-size ratios of reduced-size rows."""
    if fixed_s is None:
        return
    start = data.instances[data.plan[(tracer.id, STARTUP_ID)]]
    units = {w.id: w.unit for w in data.workloads}
    for cell in cells:
        if cell.tracer != tracer.id or cell.workload == STARTUP_ID or cell.median_s is None:
            continue
        lib = units[cell.workload] in CALL_UNITS
        count, start_count = (cell.lib_calls, start.lib_calls) if lib else (cell.syscalls, start.syscalls)
        start_count = start_count or 0
        if not count or cell.baseline_s is None or count <= start_count:
            continue
        per = (cell.median_s - cell.baseline_s - fixed_s) / (count - start_count)
        if lib:
            cell.us_per_lib_call_steady = per * 1e6
        else:
            cell.us_per_syscall_steady = per * 1e6
        full = data.instances[data.plan[(BASELINE_ID, cell.workload)]]
        full_count = full.lib_calls if lib else full.syscalls
        if cell.instance != full.key and full_count:
            full_base = _baseline(data, full.key)
            if full_base:
                estimate = full_base + fixed_s + per * (full_count - start_count)
                cell.ratio, cell.ratio_kind = estimate / full_base, "extrapolated"


# ----------------------------------------------------------------------------------------------
# Markdown
# ----------------------------------------------------------------------------------------------


def _fmt_number(r: float) -> str:
    """Three significant digits without exponents: 1.23, 12.3, 123, 1234."""
    return f"{r:.2f}" if r < 10 else f"{r:.1f}" if r < 100 else f"{r:.0f}"


def _fmt_ratio(cell: Cell) -> str:
    if cell.ratio is None:
        return cell.status if cell.status in ("timeout", "failed", "invalid", "not run") else "n/a"
    text = _fmt_number(cell.ratio)
    prefix = {"extrapolated": "~", "lower bound": ">"}.get(cell.ratio_kind, "")
    return f"{prefix}{text}x" + ("*" if cell.failed_runs and cell.status == STATUS_OK else "")


def _fmt_us(value: float | None) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f}" if abs(value) < 10 else f"{value:.1f}" if abs(value) < 1000 else f"{value:.0f}"


def _status_text(avail: Availability) -> str:
    return avail.status + (f": {avail.reason}" if avail.reason else "")


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _cell_text(grid: dict[tuple[str, str], Cell], tracer: str, workload: str, fmt: Any) -> str:
    """A figure of one cell, its status when it was not measured, "-" when the row does not run there."""
    cell = grid.get((tracer, workload))
    if cell is None:
        return "-"
    return fmt(cell) if cell.status == STATUS_OK else cell.status


def markdown(data: SuiteData, cells: list[Cell]) -> str:
    grid = {(c.tracer, c.workload): c for c in cells}
    measured = [w for w in data.workloads if w.id != STARTUP_ID]
    sys_workloads = [w for w in measured if w.unit == SYSCALL]
    lib_workloads = [w for w in measured if w.unit in CALL_UNITS]
    reps = data.config.get("reps")
    lines = [
        "# pytrace benchmark results",
        "",
        f"Taken {data.machine.get('date')} on: {summary_line(data.machine)}; "
        f"commit {data.machine.get('commit')}; load average at start "
        f"{' '.join(str(x) for x in data.machine.get('load_average_at_start', []))}.",
        "",
        "Tracers: " + "; ".join(f"{k}: {v}" for k, v in sorted(data.versions.items())) + ".",
        "",
        f"Command: `{data.command}` ({reps} repetition{'' if reps == 1 else 's'} per cell, median; "
        f"suite took {data.elapsed_s:.0f} s).",
        "",
    ]
    for u in data.updates:
        u_reps = u.get("reps")
        lines += [
            f"Updated {u.get('date')}: {', '.join(u.get('workloads', []))} measured for "
            f"{', '.join(u.get('tracers', []))} (commit {u.get('commit')}; load average at start "
            f"{' '.join(str(x) for x in u.get('load_average_at_start', []))}; command `{u.get('command')}`, "
            f"{u_reps} repetition{'' if u_reps == 1 else 's'} per cell, {u.get('elapsed_s', 0):.0f} s).",
            "",
        ]
    lines += [
        "## Workloads",
        "",
        "| id | workload | syscalls | library calls | untraced median |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for w in data.workloads:
        inst = data.instances[data.plan[(BASELINE_ID, w.id)]]
        base_cell = grid.get((BASELINE_ID, w.id))
        base = base_cell.median_s if base_cell is not None else None
        lines.append(
            f"| {w.id} | {_md_escape(inst.description)} | "
            f"{inst.syscalls if inst.syscalls is not None else 'unknown'} | "
            f"{inst.lib_calls if inst.lib_calls is not None else '-'} | "
            f"{f'{base * 1e3:.1f} ms' if base else 'n/a'} |"
        )
    lines += [
        "",
        "## Overhead: median wall time traced / untraced (lower is better)",
        "",
        "| tracer | " + " | ".join(w.id for w in measured) + " | start-up (W0), ms | status |",
        "| --- | " + " | ".join("---:" for _ in measured) + " | ---: | --- |",
    ]
    for t in data.tracers:
        avail = data.availability[t.id]
        row = [_fmt_ratio(grid[(t.id, w.id)]) if (t.id, w.id) in grid else "-" for w in measured]
        w0 = grid.get((t.id, STARTUP_ID))
        start = _fmt_us(w0.fixed_ms) if w0 is not None else "n/a"
        if avail.status != STATUS_OK:
            row = ["-" for _ in measured]
            start = "-"
        lines.append(f"| {_md_escape(t.label)} | " + " | ".join(row) + f" | {start} | "
                     f"{_md_escape(_status_text(avail))} |")
    lines += [
        "",
        "## Added cost per syscall, us (steady state: the tracer's start-up removed, see README)",
        "",
        "| tracer | " + " | ".join(w.id for w in sys_workloads) + " |",
        "| --- | " + " | ".join("---:" for _ in sys_workloads) + " |",
    ]
    for t in data.tracers:
        if t.id == BASELINE_ID or SYSCALL not in t.traces:
            continue
        if data.availability[t.id].status != STATUS_OK:
            row = [data.availability[t.id].status for _ in sys_workloads]
        else:
            row = [_cell_text(grid, t.id, w.id, lambda c: _fmt_us(c.us_per_syscall_steady)) for w in sys_workloads]
        lines.append(f"| {_md_escape(t.label)} | " + " | ".join(row) + " |")
    lines += _in_program_table(data, grid)
    lib_rows = [t for t in data.tracers if t.id != BASELINE_ID and set(CALL_UNITS) & set(t.traces)]
    if lib_workloads and lib_rows:
        lines += [
            "",
            "## Added cost per library call, us (library-call tracers side by side)",
            "",
            "| tracer | " + " | ".join(
                f"{w.id} median s | {w.id} ratio | {w.id} us/call steady | {w.id} us/call end-to-end"
                for w in lib_workloads) + " |",
            "| --- | " + " | ".join("---: | ---: | ---: | ---:" for _ in lib_workloads) + " |",
        ]
        for t in lib_rows:
            row = []
            for w in lib_workloads:
                if data.availability[t.id].status != STATUS_OK:
                    row += [data.availability[t.id].status] * 4
                    continue
                row += [
                    _cell_text(grid, t.id, w.id, lambda c: f"{c.median_s:.3f}"),
                    _cell_text(grid, t.id, w.id, _fmt_ratio),
                    _cell_text(grid, t.id, w.id, lambda c: _fmt_us(c.us_per_lib_call_steady)),
                    _cell_text(grid, t.id, w.id, lambda c: _fmt_us(c.us_per_lib_call)),
                ]
            lines.append(f"| {_md_escape(t.label)} | " + " | ".join(row) + " |")
    notes = _notes(data, cells)
    if notes:
        lines += ["", "Notes:", ""] + [f"- {_md_escape(n)}" for n in notes]
    if data.startup:
        s = data.startup
        when = (f"Taken {s.get('date')} (commit {s.get('commit')}; load average at start "
                f"{' '.join(str(x) for x in s.get('load_average_at_start', []))})")
        lines += ["", *startup_table.markdown(s, when)]
    if data.memory:
        m = data.memory
        when = (f"Taken {m.get('date')} (commit {m.get('commit')}; load average at start "
                f"{' '.join(str(x) for x in m.get('load_average_at_start', []))})")
        lines += ["", *memory_table.markdown(m, when)]
    units = {w.id: w.unit for w in data.workloads}
    lines += [
        "",
        "## Details",
        "",
        "us/call: per syscall, per library call on " + (", ".join(w.id for w in lib_workloads) or "W6") + ".",
        "",
        "| tracer | workload | size | syscalls | library calls | median s | min-max s | ratio "
        "| us/call end-to-end | us/call steady | CPU s |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for c in cells:
        if c.status in (STATUS_OK,) or c.wall_s:
            spread = f"{min(c.wall_s):.3f}-{max(c.wall_s):.3f}" if c.wall_s else "n/a"
            lib = units.get(c.workload) in CALL_UNITS
            per, steady = (c.us_per_lib_call, c.us_per_lib_call_steady) if lib else (
                c.us_per_syscall, c.us_per_syscall_steady)
            lines.append(
                f"| {c.tracer} | {c.workload} | {c.size if c.size is not None else '-'} | "
                f"{c.syscalls if c.syscalls is not None else '?'} | "
                f"{c.lib_calls if c.lib_calls is not None else '-'} | "
                f"{f'{c.median_s:.3f}' if c.median_s is not None else c.status} | {spread} | "
                f"{_fmt_ratio(c)} | {_fmt_us(per)} | {_fmt_us(steady)} | "
                f"{f'{c.cpu_s:.2f}' if c.cpu_s is not None else 'n/a'} |"
            )
    return "\n".join(lines) + "\n"


def _in_program_table(data: SuiteData, grid: dict[tuple[str, str], Cell]) -> list[str]:
    """Added cost per syscall inside the traced program: the loop-timed workloads' own clocks."""
    timed = [w for w in data.workloads if w.loop_timed and any(
        c.loop_ms is not None for (_, wid), c in grid.items() if wid == w.id)]
    if not timed:
        return []
    lines = [
        "",
        "## Added cost per syscall inside the traced program, us (the program's own clock around its "
        "syscall loop)",
        "",
        "| tracer | " + " | ".join(w.id for w in timed) + " |",
        "| --- | " + " | ".join("---:" for _ in timed) + " |",
    ]

    def fmt(c: Cell) -> str:
        if c.loop_ms is None:
            return "n/a"
        per = "-" if c.tracer == BASELINE_ID else _fmt_us(c.us_per_syscall_in_program)
        return f"{per} ({_fmt_us(c.loop_ms)})"

    for t in data.tracers:
        if SYSCALL not in t.traces or data.availability[t.id].status != STATUS_OK:
            continue
        if not any(grid.get((t.id, w.id)) is not None and grid[(t.id, w.id)].loop_ms is not None for w in timed):
            continue
        lines.append(f"| {_md_escape(t.label)} | " + " | ".join(_cell_text(grid, t.id, w.id, fmt) for w in timed)
                     + " |")
    return [*lines, "",
            "What the tracer adds to each syscall while the program runs: (loop time traced - untraced) / "
            "the loop's syscalls, CLOCK_MONOTONIC read by the program itself (benchmarks/workloads/loop_clock.h), "
            "so the tracer's start-up, its exit and a consumer still catching up after the program ended are not "
            "in it. In parentheses: the loop's median time, ms."]


def _notes(data: SuiteData, cells: list[Cell]) -> list[str]:
    units = {w.id: w.unit for w in data.workloads}
    notes = [
        "Every ptrace syscall tracer runs with -f so that W5's threads are traced "
        "(without it only W5's main thread would be, and the row would measure nothing).",
    ]
    per_event = {t.id for t in data.tracers if t.events}
    event_cells = [c for c in cells if c.tracer in per_event and c.workload != STARTUP_ID]
    if any(c.events_checked for c in event_cells):
        notes.append(
            "Per-event rows write their trace to a file whose calls are counted against the workload's "
            "(strace -f -c's counts of the calls it makes a fixed number of times): a run that lost or added "
            "events is 'invalid' and never becomes a figure.")
    if any(not c.events_checked for c in event_cells):
        notes.append(
            "Some per-event cells were measured before their events were counted: ptrace rows hold the program "
            "at every call and lose nothing, but the eBPF per-event row of that time dropped most of its events "
            "(issue 14), so its figures from then are withheld ('invalid').")
    notes += [
        "'~' = extrapolated to full size from a run at reduced size; '>' = lower bound (the run timed out); "
        "'*' = some runs of that cell failed (listed below), the figure is the median of the others; "
        "'-' = the row does not run on that workload.",
    ]
    lib = [w for w in data.workloads if w.unit == LIBCALL]
    if lib:
        notes.append(
            f"{', '.join(w.id for w in lib)}: library calls, so only the library-call rows (ltrace and "
            "pyltrace without -S) run it, and those rows run nothing else but W0; their per-call figures are per "
            "library call (W6: the labs() calls and the one strtol() that reads the count; `true` makes none)."
        )
    usdt = [w for w in data.workloads if w.unit == USDT]
    if usdt:
        notes.append(
            f"{', '.join(w.id for w in usdt)}: USDT probe hits, run by the USDT rows only (pyltrace -e usdt: on "
            "both backends, bpftrace usdt:); their per-call figures are per probe hit, in the library-call "
            "columns; bpftrace's count must equal the hits, else its run is invalid.")
    for t in data.tracers:
        if t.note and data.availability[t.id].status == STATUS_OK:
            notes.append(f"{t.label}: {t.note}.")
    attach = [c.attach_s for c in cells if c.attach_s is not None]
    if attach:
        notes.append(f"bpftrace needs {statistics.median(attach):.2f} s (median) to compile and attach "
                     "before the workload is released; that time is not in its figures.")
    for c in cells:
        if c.status in ("failed", "timeout", "invalid", "not run"):
            notes.append(f"{c.tracer} on {c.workload}: {c.status}: {c.reason}")
        elif c.failed_runs:
            notes.append(f"{c.tracer} on {c.workload}: {c.reason}")
    own_program = {t.id for t in data.tracers if t.bpftrace_program}  # (they count probe hits, not syscalls)
    for c in cells:
        if c.bpftrace_count is not None and c.tracer not in own_program and units.get(c.workload) == SYSCALL and c.syscalls and abs(
                c.bpftrace_count - c.syscalls) > max(
                20, 0.01 * c.syscalls):
            notes.append(f"bpftrace counted {c.bpftrace_count} syscalls on {c.workload}, strace -c {c.syscalls}.")
    return notes


# ----------------------------------------------------------------------------------------------
# JSON and chart
# ----------------------------------------------------------------------------------------------


def to_json(data: SuiteData, cells: list[Cell]) -> dict[str, object]:
    return {
        "machine": data.machine,
        "versions": data.versions,
        "command": data.command,
        "config": data.config,
        "elapsed_s": round(data.elapsed_s, 1),
        "workloads": [
            {"id": w.id, "what": w.what, "instances": [asdict(i) for i in data.instances.values()
                                                       if i.workload == w.id]}
            for w in data.workloads
        ],
        "tracers": [
            {**asdict(t), **asdict(data.availability[t.id])} for t in data.tracers
        ],
        "cells": [asdict(c) for c in cells],
        "updates": data.updates,
        "startup": data.startup,
        "memory": data.memory,
    }


def chart(data: SuiteData, cells: list[Cell], path: Path) -> None:
    """Grouped bars of the overhead ratio, log scale; rows not measured are named under the plot.

    Raises ImportError when matplotlib (the ``bench`` extra) is missing.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = {(c.tracer, c.workload): c for c in cells}
    measured = [w for w in data.workloads if w.id != STARTUP_ID]
    shown = [t for t in data.tracers if t.id != BASELINE_ID and data.availability[t.id].status == STATUS_OK]
    missing = [t for t in data.tracers if data.availability[t.id].status != STATUS_OK]
    fig, ax = plt.subplots(figsize=(min(16.0, max(9.0, 2 + 0.4 * len(measured) * len(shown))), 7.0))
    # Each workload's group holds only the rows that run it (W6: the library-call rows), centred.
    slots = {w.id: [t.id for t in shown if (t.id, w.id) in grid] for w in measured}
    width = 0.8 / max(1, max((len(v) for v in slots.values()), default=1))
    # One colour family per program (strace blues, pytrace greens...), shades within it.
    families = {"strace": "Blues", "ltrace": "Purples", "bpftrace": "Oranges", "pytrace": "Greens",
                "pytrace-ebpf": "Reds", "pyltrace": "Greys"}

    def family(t: Tracer) -> str:
        return t.program + ("-ebpf" if "--backend=ebpf" in t.args else "")

    members: dict[str, list[str]] = {}
    for t in shown:
        members.setdefault(family(t), []).append(t.id)

    def colour(t: Tracer) -> object:
        group = members[family(t)]
        shade = 0.85 - 0.5 * group.index(t.id) / max(1, len(group) - 1) if len(group) > 1 else 0.6
        return plt.get_cmap(families.get(family(t), "Greys"))(shade)

    for t in shown:
        xs, ys, hatches = [], [], []
        for j, w in enumerate(measured):
            c = grid.get((t.id, w.id))
            if c is None or c.ratio is None:
                continue
            group = slots[w.id]
            xs.append(j - width * len(group) / 2 + width * (group.index(t.id) + 0.5))
            ys.append(c.ratio)
            hatches.append({"extrapolated": "//", "lower bound": "xx"}.get(c.ratio_kind, ""))
        bars = ax.bar(xs, ys, width, label=t.label, color=colour(t), edgecolor="black", linewidth=0.4)
        for bar, hatch, y in zip(bars, hatches, ys, strict=True):
            bar.set_hatch(hatch)
            ax.annotate(_fmt_number(y), (bar.get_x() + bar.get_width() / 2, y), ha="center", va="bottom",
                        fontsize=6, rotation=90, xytext=(0, 2), textcoords="offset points")
    ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(measured)))
    ax.set_xticklabels([f"{w.id}\n{_short(data, w.id)}" for w in measured], fontsize=7)
    ax.set_ylabel("wall time traced / untraced (log scale)")
    lowest = min((c.ratio for c in cells if c.ratio), default=1.0)
    ax.set_ylim(bottom=min(0.5, lowest / 1.5))
    title = f"Tracer overhead per workload (median of {data.config.get('reps')} runs)"
    ax.set_title(title + "\n" + textwrap.fill(summary_line(data.machine), 110), fontsize=8)
    if shown:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", which="both", alpha=0.3)
    invalid = [c for c in cells if c.status == "invalid"]
    if missing or invalid:
        parts = [f"{t.label} ({data.availability[t.id].status})" for t in missing]
        parts += [f"{c.tracer} on {c.workload} (invalid: events lost, no bar)" for c in invalid]
        fig.text(0.01, 0.01, "Not measured: " + "; ".join(parts), fontsize=7, wrap=True)
    fig.text(0.99, 0.01, "hatched //: extrapolated from a reduced size; xx: lower bound (timeout)",
             fontsize=6, ha="right")
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _short(data: SuiteData, workload_id: str) -> str:
    inst = data.instances[data.plan[(BASELINE_ID, workload_id)]]
    return textwrap.fill(inst.description.replace("`", ""), 22)


def write(data: SuiteData, out_dir: Path) -> tuple[list[Cell], str | None]:
    """Write latest.md, latest.json and latest.png; returns the cells and the chart error, if any."""
    cells = compute(data)
    return cells, render(data, cells, out_dir)


def render(data: SuiteData, cells: list[Cell], out_dir: Path) -> str | None:
    """Write the three files from figures already computed; returns the chart error, if any."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "latest.md").write_text(markdown(data, cells))
    (out_dir / "latest.json").write_text(json.dumps(to_json(data, cells), indent=1) + "\n")
    try:
        chart(data, cells, out_dir / "latest.png")
    except ImportError as exc:
        return f"chart not written: {exc} (install the bench extra: pip install -e '.[bench]')"
    return None


# ----------------------------------------------------------------------------------------------
# Merging a partial run into earlier results (run.py --update)
# ----------------------------------------------------------------------------------------------


def _from_dict(cls: Any, d: dict[str, Any]) -> Any:
    """A dataclass from its asdict(); keys it does not know (or no longer has) are dropped."""
    known = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in known})


def load(path: Path) -> tuple[SuiteData, list[Cell]]:
    """An earlier latest.json back as SuiteData (without the raw runs: its cells carry the figures).

    Workloads and tracer rows are taken from the current definitions when their id still exists
    (so an old file gains the fields added since), else rebuilt from the file.
    """
    j = json.loads(path.read_text())
    known_w = workload_defs.by_id()
    known_t = tracer_rows.by_id()
    ws = [known_w[w["id"]] for w in j["workloads"] if w["id"] in known_w]
    instances = {
        i["key"]: _from_dict(Instance, i) for w in j["workloads"] if w["id"] in known_w for i in w["instances"]
    }
    ts: list[Tracer] = []
    availability: dict[str, Availability] = {}
    for t in j["tracers"]:
        if t["id"] in known_t:
            row = known_t[t["id"]]
        else:
            row = _from_dict(Tracer, {k: tuple(v) if isinstance(v, list) else v for k, v in t.items()})
        ts.append(row)
        availability[row.id] = Availability(t.get("status", STATUS_OK), t.get("reason", ""))
    cells = [_from_dict(Cell, c) for c in j["cells"] if c["workload"] in known_w]
    lossy = {t.id for t in ts if t.lossy}
    for c in cells:
        if c.tracer in lossy and not c.events_checked and c.status == STATUS_OK and c.workload != STARTUP_ID:
            _withhold(c)
    plan = {(c.tracer, c.workload): c.instance for c in cells if c.instance}
    data = SuiteData(
        machine=j["machine"], versions=j["versions"], command=j["command"], config=j["config"],
        workloads=ws, tracers=ts, availability=availability, instances=instances, plan=plan,
        elapsed_s=j.get("elapsed_s", 0.0), updates=list(j.get("updates", [])), startup=j.get("startup"),
        memory=j.get("memory"),
    )
    return data, cells


def _withhold(c: Cell) -> None:
    """A figure of a row that can drop events, measured before its events were counted: not a figure.

    (W0 is kept: ``true``'s ~30 calls never filled a ring buffer.)  The eBPF per-event row of
    that time lost ~80% of its events on W1 (issue 14), which made it look fast.
    """
    c.status = "invalid"
    c.reason = "measured before events were counted, with a backend that could drop them (issue 14)"
    for name in ("median_s", "ratio", "ratio_at_size", "us_per_syscall", "us_per_syscall_steady",
                 "us_per_lib_call", "us_per_lib_call_steady", "cpu_s", "loop_ms", "us_per_syscall_in_program"):
        setattr(c, name, None)
    c.ratio_kind = ""


def merge(old: SuiteData, old_cells: list[Cell], new: SuiteData, new_cells: list[Cell],
          replaced: list[str]) -> tuple[SuiteData, list[Cell]]:
    """The earlier results with the cells of workloads ``replaced`` (W0 excluded) taken from ``new``.

    A row's W0 cell (its start-up figure, subtracted for its steady states) stays with the run
    its other cells come from: it is taken from ``new`` only for rows that keep no earlier cell
    of another workload (rows measured on the replaced workloads only, like the library-call
    rows on W6); the untraced row and rows measured on other workloads too keep theirs.  Each
    cell keeps the figures computed within its own run (its own untraced baseline and W0), so
    cells of different runs are never mixed in one figure.  The header keeps the earlier run's
    machine and command and lists the update under it.
    """
    replaced_set = set(replaced) - {STARTUP_ID}
    new_keys = {(c.tracer, c.workload) for c in new_cells}
    # Rows with earlier cells the update does not replace: their W0 belongs with those.
    anchored = {c.tracer for c in old_cells if c.workload != STARTUP_ID and c.workload not in replaced_set}
    new_w0 = {c.tracer for c in new_cells if c.workload == STARTUP_ID and c.tracer not in anchored}

    def replaced_by_new(c: Cell) -> bool:
        if c.workload == STARTUP_ID:
            return c.tracer in new_w0
        return c.workload in replaced_set and (c.tracer, c.workload) in new_keys

    keep = [c for c in old_cells if not replaced_by_new(c)]
    added = [c for c in new_cells if c.workload in replaced_set or c.tracer in new_w0]
    w_order = [w.id for w in workload_defs.WORKLOADS]
    t_order = [t.id for t in tracer_rows.TRACERS]
    ws = {w.id: w for w in [*old.workloads, *new.workloads]}
    ts = {t.id: t for t in [*old.tracers, *new.tracers]}

    def rank(order: list[str], key: str) -> tuple[int, str]:
        return (order.index(key) if key in order else len(order), key)

    tracers_sorted = sorted(ts.values(), key=lambda t: rank(t_order, t.id))
    t_rank = {t.id: i for i, t in enumerate(tracers_sorted)}
    cells = sorted([*keep, *added], key=lambda c: (t_rank[c.tracer], rank(w_order, c.workload)))
    # An earlier update whose every cell this one measures again is history no figure comes from.
    new_ids = {t.id for t in new.tracers}
    superseded_dropped = [u for u in old.updates if not (
        set(u.get("workloads", [])) <= replaced_set and set(u.get("tracers", [])) <= new_ids)]
    availability = dict(old.availability)
    availability.update(new.availability)
    instances = dict(old.instances)
    instances.update(new.instances)
    versions = dict(old.versions)
    versions.update(new.versions)
    data = SuiteData(
        machine=old.machine, versions=versions, command=old.command, config=old.config,
        workloads=sorted(ws.values(), key=lambda w: rank(w_order, w.id)), tracers=tracers_sorted,
        availability=availability, instances=instances,
        plan={(c.tracer, c.workload): c.instance for c in cells if c.instance},
        elapsed_s=old.elapsed_s,
        updates=[*superseded_dropped, {
            "date": new.machine.get("date"), "commit": new.machine.get("commit"),
            "load_average_at_start": new.machine.get("load_average_at_start", []),
            "command": new.command, "reps": new.config.get("reps"), "elapsed_s": round(new.elapsed_s, 1),
            "workloads": sorted(replaced_set, key=lambda w: rank(w_order, w)),
            "tracers": [t.id for t in new.tracers],
        }],
        startup=new.startup or old.startup,
        memory=new.memory or old.memory,
    )
    return data, cells
