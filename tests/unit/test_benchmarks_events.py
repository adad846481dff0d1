"""The benchmark's event check: per-event rows are counted, and a run that lost events is never a figure.

The counting is checked on real output of strace, pytrace (both backends, text and JSON) and
ltrace for W1 at a small size; the report side on a hand-made suite with one invalid run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = REPO_ROOT / "benchmarks"
sys.path.insert(0, str(BENCH_DIR))

from benchsuite import events, report, tracers, workloads  # noqa: E402
from benchsuite.measure import RunResult  # noqa: E402

N = 300


@pytest.fixture(scope="module")
def w1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("w1") / "w1_getppid"
    res = subprocess.run(["gcc", "-O2", "-o", str(target), str(BENCH_DIR / "workloads" / "w1_getppid.c")],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    return target


@pytest.mark.parametrize("row", ["strace", "pytrace", "pytrace-json", "pytrace-ebpf", "ltrace"])
def test_every_call_of_a_real_trace_is_counted(row: str, w1: Path, tmp_path: Path) -> None:
    if shutil.which("ltrace") is None and row == "ltrace":
        pytest.fail("ltrace is a declared dependency of the benchmark suite")
    t = tracers.by_id()[row]
    ctx = tracers.Context.default()
    trace = tmp_path / "trace"
    argv = ctx.command(t, [str(w1), str(N)], trace)
    assert str(trace) in argv and "/dev/null" not in argv
    run = subprocess.run(argv, env=ctx.env, capture_output=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    counts = events.count_calls(trace, t.events)
    assert counts["getppid"] == N
    _, _, by_name = workloads.count_syscalls_by_name([str(w1), str(N)], 60)
    w = workloads.by_id()["W1"]
    expected = {n: by_name[n] for n in w.counted}
    assert expected == {"getppid": N}
    assert events.check(counts, expected) == ""


def test_a_short_count_is_reported() -> None:
    from collections import Counter

    got = events.check(Counter({"getppid": 199_000, "read": 5}), {"getppid": 200_000, "read": 5})
    assert got == "events missing or extra: printed 199,000 of 200,000 getppid"


def test_an_invalid_run_is_never_a_figure(tmp_path: Path) -> None:
    """Two runs of the eBPF row, both short of events: the cell is "invalid", with no ratio and no bar."""
    ws = [w for w in workloads.WORKLOADS if w.id in ("W0", "W1")]
    rows = [tracers.by_id()["untraced"], tracers.by_id()["pytrace-ebpf"]]
    lost = "events missing or extra: printed 40,000 of 200,000 getppid"
    data = report.SuiteData(
        machine={"cpu": "test cpu", "cores": 1, "memory": "1 GiB", "kernel": "6.1", "distribution": "x",
                 "python": "3.11", "date": "today", "commit": "abc", "load_average_at_start": [0.0]},
        versions={"pytrace": "pytrace 0.1"}, command="python3 benchmarks/run.py",
        config={"reps": 2}, workloads=ws, tracers=rows,
        availability={"untraced": tracers.Availability("ok"), "pytrace-ebpf": tracers.Availability("ok")},
        instances={"W0": report.Instance("W0", "W0", None, ["true"], "true", syscalls=30),
                   "W1": report.Instance("W1", "W1", 200_000, ["w1"], "200,000 getppid()", 200_030)},
        plan={(r.id, w.id): w.id for r in rows for w in ws},
        runs={("untraced", "W0"): [RunResult(0.001)], ("untraced", "W1"): [RunResult(0.05)],
              ("pytrace-ebpf", "W0"): [RunResult(0.3)],
              ("pytrace-ebpf", "W1"): [RunResult(0.4, invalid=True, error=lost)] * 2},
    )
    cells, _ = report.write(data, tmp_path)
    cell = next(c for c in cells if (c.tracer, c.workload) == ("pytrace-ebpf", "W1"))
    assert cell.status == "invalid" and cell.ratio is None and cell.median_s is None
    assert cell.us_per_syscall is None and cell.us_per_syscall_steady is None
    md = (tmp_path / "latest.md").read_text()
    assert "| pytrace --backend=ebpf -f -o /dev/null | invalid | 299.0 | ok |" in md  # ratio table, W0 ms
    assert "| pytrace --backend=ebpf -f -o /dev/null | invalid |\n" in md  # per-syscall table: no figure
    assert f"pytrace-ebpf on W1: invalid: {lost}" in md


@pytest.mark.parametrize("checked", [False, True], ids=["before-the-check", "counted"])
def test_lossy_figures_from_before_the_check_are_withheld(checked: bool, tmp_path: Path) -> None:
    """A results file whose eBPF per-event cells were not counted loads them as invalid; counted ones stay."""
    ws = [w for w in workloads.WORKLOADS if w.id in ("W0", "W1")]
    rows = [tracers.by_id()["untraced"], tracers.by_id()["pytrace-ebpf"], tracers.by_id()["strace"]]
    data = report.SuiteData(
        machine={"cpu": "test cpu", "cores": 1, "memory": "1 GiB", "kernel": "6.1", "distribution": "x",
                 "python": "3.11", "date": "today", "commit": "abc", "load_average_at_start": [0.0]},
        versions={}, command="python3 benchmarks/run.py",
        config={"reps": 1, **({"events_checked": True} if checked else {})}, workloads=ws, tracers=rows,
        availability={r.id: tracers.Availability("ok") for r in rows},
        instances={"W0": report.Instance("W0", "W0", None, ["true"], "true", syscalls=30),
                   "W1": report.Instance("W1", "W1", 200_000, ["w1"], "200,000 getppid()", 200_030)},
        plan={(r.id, w.id): w.id for r in rows for w in ws},
        runs={(r.id, w.id): [RunResult(0.01 if r.id == "untraced" else 0.5)] for r in rows for w in ws},
    )
    report.write(data, tmp_path)
    _, cells = report.load(tmp_path / "latest.json")
    grid = {(c.tracer, c.workload): c for c in cells}
    ebpf = grid[("pytrace-ebpf", "W1")]
    assert (ebpf.status, ebpf.ratio is None) == (("ok", False) if checked else ("invalid", True))
    assert grid[("pytrace-ebpf", "W0")].status == "ok"  # true's ~30 calls never filled a ring
    assert grid[("strace", "W1")].status == "ok"  # ptrace holds the program: nothing to withhold
