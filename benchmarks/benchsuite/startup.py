"""The start-up table: what each tracer costs to start, trace `true` and exit, against Python's floor.

pytrace and pyltrace are Python programs, so their floor is the interpreter's own
start-up (``python3 -c pass`` with the same interpreter and environment, the
venv's site and .pth files included).  Issue 15's targets are ratios to that
floor: ``pytrace true`` <= 1.5x and ``pyltrace true`` <= 2x its CPU time.  The
commands run interleaved (one of each, then again) so that drift of a shared
machine spreads over all of them; each figure is the median of the repetitions.
"""

from __future__ import annotations

import os
import statistics
import sys
from dataclasses import dataclass

from benchsuite import measure
from benchsuite.tracers import Context

#: The row every ratio is taken to.
FLOOR_ID = "python -c pass"


@dataclass(frozen=True)
class StartupRow:
    id: str
    program: str  # "python", "pytrace", "pyltrace", or a program looked up on PATH
    args: tuple[str, ...]


STARTUP_ROWS = (
    StartupRow(FLOOR_ID, "python", ("-c", "pass")),
    StartupRow("pytrace true", "pytrace", ("-o", os.devnull, "true")),
    StartupRow("pyltrace true", "pyltrace", ("-o", os.devnull, "true")),
    StartupRow("pytrace --backend=ebpf true", "pytrace", ("--backend=ebpf", "-o", os.devnull, "true")),
    StartupRow("strace true", "strace", ("-o", os.devnull, "true")),
    StartupRow("ltrace true", "ltrace", ("-o", os.devnull, "true")),
)


def _argv(row: StartupRow, ctx: Context) -> list[str] | None:
    if row.program == "python":
        return [sys.executable, *row.args]
    prefix = ctx.program_argv(row.program)
    return None if prefix is None else [*prefix, *row.args]


def measure_startup(ctx: Context, reps: int, timeout: float) -> dict[str, object]:
    """Median CPU (user+sys, tracer and tracee) and wall time of every start-up row, JSON-ready."""
    argvs = {r.id: _argv(r, ctx) for r in STARTUP_ROWS}
    runs: dict[str, list[measure.RunResult]] = {r.id: [] for r in STARTUP_ROWS}
    for argv in argvs.values():  # warm: page cache, .pyc files
        if argv is not None:
            measure.run_exec(argv, ctx.env, timeout)
    for _ in range(reps):
        for row in STARTUP_ROWS:
            argv = argvs[row.id]
            if argv is not None:
                runs[row.id].append(measure.run_exec(argv, ctx.env, timeout))
    rows = []
    for row in STARTUP_ROWS:
        argv = argvs[row.id]
        ok = [r for r in runs[row.id] if r.ok]
        failed = [r for r in runs[row.id] if not r.ok]
        entry: dict[str, object] = {"id": row.id, "argv": argv, "runs": len(runs[row.id]), "failed": len(failed)}
        if argv is None:
            entry["status"] = "not installed"
        elif not ok:
            entry["status"] = f"failed: {failed[0].error}" if failed else "not run"
        else:
            entry["status"] = "ok"
            entry["cpu_ms"] = round(1000 * statistics.median(r.cpu_s for r in ok), 2)
            entry["wall_ms"] = round(1000 * statistics.median(r.wall_s for r in ok), 2)
            entry["cpu_ms_all"] = [round(1000 * r.cpu_s, 2) for r in ok]
            entry["wall_ms_all"] = [round(1000 * r.wall_s, 3) for r in ok]
        rows.append(entry)
    return {"reps": reps, "rows": rows}


def markdown(startup: dict[str, object], when: str) -> list[str]:
    """The start-up table's section of latest.md."""
    rows = startup.get("rows", [])
    assert isinstance(rows, list)
    floor = next((r for r in rows if r["id"] == FLOOR_ID and r.get("status") == "ok"), None)
    lines = [
        "## Start-up: `true` under each tracer",
        "",
        f"{when}; {startup.get('reps')} runs of each command, interleaved; median. CPU = user+sys of the "
        "tracer and `true` (rusage of the process and its waited-for children); ratios to "
        f"`{FLOOR_ID}` (the same interpreter and environment as pytrace: Python's floor). Output to "
        "/dev/null. pyltrace's ELF and prototype cache (~/.cache/pytrace) is warm: the untimed first run "
        "fills it. Targets (issue 15): pytrace <= 1.5x, pyltrace <= 2x the CPU of python -c pass.",
        "",
        "| command | CPU ms | CPU / python | wall ms | wall / python |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        if r.get("status") != "ok":
            lines.append(f"| `{r['id']}` | {r.get('status')} | | | |")
            continue
        cpu_ratio = f"{r['cpu_ms'] / floor['cpu_ms']:.2f}x" if floor and floor["cpu_ms"] else "n/a"
        wall_ratio = f"{r['wall_ms'] / floor['wall_ms']:.2f}x" if floor and floor["wall_ms"] else "n/a"
        lines.append(f"| `{r['id']}` | {r['cpu_ms']:.1f} | {cpu_ratio} | {r['wall_ms']:.1f} | {wall_ratio} |")
    return lines
