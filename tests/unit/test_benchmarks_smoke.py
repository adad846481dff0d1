"""The benchmark suite (benchmarks/run.py) must keep working: run it tiny, check what it writes.

Timing figures are never asserted (they are the suite's output, not a test
oracle); what is asserted is that every requested row and workload is in the
table, JSON and chart, that measurable rows were measured, and that rows
which cannot be measured are reported with a reason instead of dropped.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = REPO_ROOT / "benchmarks"
sys.path.insert(0, str(BENCH_DIR))

from benchsuite import report, tracers, workloads  # noqa: E402
from benchsuite.measure import RunResult  # noqa: E402

WORKLOAD_IDS = ["W0", "W1", "W2", "W3", "W4", "W5"]
STATUSES = {"ok", "not installed", "unsupported", "not working"}


def _require(*programs: str) -> None:
    missing = [p for p in programs if shutil.which(p) is None]
    if missing:
        pytest.fail(f"the benchmark suite needs {', '.join(missing)} (apt-get install -y {' '.join(missing)})")


def _table_rows(md: str, heading: str) -> list[list[str]]:
    """Rows of the markdown table under ``heading`` (header and separator included)."""
    section = md.split(heading, 1)[1]
    rows = []
    for line in section.splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]])
    return rows


def test_tiny_suite_writes_table_json_and_chart(tmp_path: Path) -> None:
    _require("gcc", "strace", "bpftrace")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pytest.fail("matplotlib is required for the chart: pip install -e '.[bench]'")
    out = tmp_path / "results"
    run = subprocess.run(
        [sys.executable, str(BENCH_DIR / "run.py"), "--tiny", "--reps", "1",
         "--tracers", "strace,bpftrace,pytrace", "--out", str(out), "--timeout", "60"],
        capture_output=True, text=True, timeout=240, check=False, cwd=tmp_path,
    )
    assert run.returncode == 0, f"run.py failed:\n{run.stderr[-3000:]}"

    data = json.loads((out / "latest.json").read_text())
    assert data["machine"]["cpu"] and data["machine"]["kernel"]
    assert {"strace", "bpftrace", "pytrace"} <= set(data["versions"])
    rows = {t["id"]: t for t in data["tracers"]}
    assert list(rows) == ["untraced", "strace", "bpftrace", "pytrace"]
    assert all(t["status"] in STATUSES for t in rows.values()), rows
    # strace and bpftrace are installed dependencies of the suite: they must have been measured.
    assert rows["strace"]["status"] == "ok" and rows["bpftrace"]["status"] == "ok", rows
    cells = {(c["tracer"], c["workload"]): c for c in data["cells"]}
    assert set(cells) == {(t, w) for t in rows for w in WORKLOAD_IDS}
    for tracer in ("untraced", "strace", "bpftrace"):
        for w in WORKLOAD_IDS:
            c = cells[(tracer, w)]
            assert c["status"] == "ok", c
            assert c["median_s"] > 0 and c["ratio"] > 0 and c["syscalls"] > 0, c
    assert cells[("bpftrace", "W1")]["bpftrace_count"] >= 200  # the workload's 200 getppid()s, at least

    md = (out / "latest.md").read_text()
    ratio_rows = _table_rows(md, "## Overhead")
    assert ratio_rows[0][:6] == ["tracer", "W1", "W2", "W3", "W4", "W5"]
    assert all(len(r) == len(ratio_rows[0]) for r in ratio_rows), ratio_rows
    labels = [r[0] for r in ratio_rows[2:]]
    assert labels == [t["label"] for t in rows.values()]
    assert all(re.fullmatch(r"[~>]?[\d.]+x", cell) for cell in ratio_rows[3][1:6]), ratio_rows[3]
    per_syscall = _table_rows(md, "## Added cost per syscall")
    assert len(per_syscall) == 2 + 3 and all(len(r) == 6 for r in per_syscall)

    png = (out / "latest.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def test_rows_that_cannot_run_are_reported_with_their_reason() -> None:
    ctx = tracers.Context.default()
    missing = tracers.Tracer("x", "nosuch -c", "exec", "/nonexistent/nosuch-tracer", ("-c",))
    assert tracers.probe(missing, ctx).status == "not installed"
    refused = tracers.Tracer("y", "pytrace --backend=nosuch", "exec", "pytrace", ("--backend=nosuch",))
    avail = tracers.probe(refused, ctx)
    assert avail.status == "unsupported" and "nosuch" in avail.reason, avail
    assert tracers.classify(1, "Traceback ...\nTypeError: boom\n").status == "not working"
    broken = tracers.classify(1, "Traceback ...\nBPF verifier: invalid size of register fill\n")
    assert broken.status == "not working" and "register fill" in broken.reason
    assert tracers.classify(1, "pytrace: option -c/-C is not implemented yet\n").status == "unsupported"
    assert tracers.classify(0, "").status == "ok"


def test_report_keeps_unavailable_rows_and_failed_runs(tmp_path: Path) -> None:
    """Untraced, a row with one crashed run of two, a refused row: each is shown for what it is."""
    build = tmp_path / "build"
    ws = [w for w in workloads.WORKLOADS if w.id in ("W0", "W1")]
    base = tracers.by_id()["untraced"]
    refused = tracers.Tracer("pytrace-z", "pytrace -z", "exec", "pytrace", ("-z",))
    flaky = tracers.by_id()["strace"]
    crash = RunResult(0.05, returncode=-11, error="killed by SIGSEGV")
    instances = {
        "W0": report.Instance("W0", "W0", None, ["true"], "true", syscalls=30),
        "W1@10": report.Instance("W1@10", "W1", 10, [str(build / "w1_getppid"), "10"], "10 getppid()", 40),
    }
    data = report.SuiteData(
        machine={"cpu": "test cpu", "cores": 1, "memory": "1 GiB", "kernel": "6.1", "distribution": "x",
                 "python": "3.11", "date": "today", "commit": "abc", "load_average_at_start": [0.0]},
        versions={"pytrace": "pytrace 0.1"}, command="python3 benchmarks/run.py --tiny",
        config={"reps": 2}, workloads=ws, tracers=[base, flaky, refused],
        availability={"untraced": tracers.Availability("ok"), "strace": tracers.Availability("ok"),
                      "pytrace-z": tracers.Availability("unsupported", "option -z is not implemented yet")},
        instances=instances,
        plan={("untraced", "W0"): "W0", ("untraced", "W1"): "W1@10",
              ("strace", "W0"): "W0", ("strace", "W1"): "W1@10"},
        runs={("untraced", "W0"): [RunResult(0.001)], ("untraced", "W1@10"): [RunResult(0.002)],
              ("strace", "W0"): [RunResult(0.003)], ("strace", "W1@10"): [RunResult(0.008), crash]},
    )
    cells, chart_error = report.write(data, tmp_path / "out")
    md = (tmp_path / "out" / "latest.md").read_text()
    assert "| pytrace -z | - | - | unsupported: option -z is not implemented yet |" in md
    assert "| pytrace -z | unsupported |" in md
    assert {c.status for c in cells if c.tracer == "pytrace-z"} == {"unsupported"}
    assert "| strace -f -o /dev/null | 4.00x* |" in md  # median of the run that succeeded, marked
    assert "strace on W1: 1 of 2 runs failed: killed by SIGSEGV" in md
    saved = json.loads((tmp_path / "out" / "latest.json").read_text())
    assert saved["tracers"][2]["status"] == "unsupported"
    assert chart_error is None, chart_error
