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
import subprocess
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


def startup_env(env: dict[str, str]) -> dict[str, str]:
    """The environment of the start-up runs: the suite's, with Python allowed to write .pyc files.

    With PYTHONDONTWRITEBYTECODE set (as in some CI and sandbox shells) a checkout run with
    ``python -m pytrace`` compiles every module from source at every start: ~3x the CPU time of
    what a user sees (pip compiles an installed copy's .pyc files at install time).
    """
    return {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure_startup(ctx: Context, reps: int, timeout: float) -> dict[str, object]:
    """Median CPU (user+sys of every process of the run) and wall time of every start-up row, JSON-ready.

    Each run is a ``measure.run_tree``: the harness is the subreaper of the run, so the CPU of
    pytrace's render process (double-forked for ``-o FILE`` on two CPUs, nobody's waitable
    child) is counted with the tracer's and the tracee's.
    """
    env = startup_env(ctx.env)
    argvs = {r.id: _argv(r, ctx) for r in STARTUP_ROWS}
    runs: dict[str, list[measure.RunResult]] = {r.id: [] for r in STARTUP_ROWS}
    for argv in argvs.values():  # warm: page cache, .pyc files
        if argv is not None:
            measure.run_tree(argv, env, timeout)
    for _ in range(reps):
        for row in STARTUP_ROWS:
            argv = argvs[row.id]
            if argv is not None:
                runs[row.id].append(measure.run_tree(argv, env, timeout).run)
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
    return {"reps": reps, "cpu_of": "tree", "editable_finder": _editable_finder(env), "rows": rows}


def _editable_finder(env: dict[str, str]) -> bool:
    """Whether the interpreter's site imports a pip editable install's finder (part of the floor then)."""
    probe = subprocess.run(
        [sys.executable, "-c", "import sys; print(any(m.startswith('__editable__') for m in sys.modules))"],
        env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    return probe.stdout.strip() == "True"


def markdown(startup: dict[str, object], when: str) -> list[str]:
    """The start-up table's section of latest.md."""
    rows = startup.get("rows", [])
    assert isinstance(rows, list)
    floor = next((r for r in rows if r["id"] == FLOOR_ID and r.get("status") == "ok"), None)
    lines = [
        "## Start-up: `true` under each tracer",
        "",
        f"{when}; {startup.get('reps')} runs of each command, interleaved; median. CPU = user+sys of "
        + ("every process of the run: the tracer, `true` and pytrace's render process (the harness reaps it as "
           "the run's subreaper); .pyc files written and used; ratios to "
           if startup.get("cpu_of") == "tree" else  # tables measured before run_tree
           "the tracer and `true` (rusage of the process and its waited-for children); ratios to ")
        + f"`{FLOOR_ID}` (the same interpreter and environment as pytrace: Python's floor"
        + ("; its site imports an editable install's finder, as every start of pytrace from that "
           "environment does" if startup.get("editable_finder") else "")
        + "). Output to "
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
