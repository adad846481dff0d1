"""The benchmark suite (benchmarks/run.py) must keep working: run it tiny, check what it writes.

Timing figures are never asserted (they are the suite's output, not a test
oracle); what is asserted is that every requested row and workload is in the
table, JSON and chart, that measurable rows were measured, and that rows
which cannot be measured are reported with a reason instead of dropped.
"""

from __future__ import annotations

import json
import os
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

WORKLOAD_IDS = ["W0", "W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8"]
SYSCALL_WORKLOADS = ["W0", "W1", "W2", "W3", "W4", "W5", "W7"]  # W6/W8: untraced and library-call/USDT rows only
LIBCALL_ROWS = ["ltrace-lib", "ltrace-lib-c", "pyltrace", "pyltrace-c", "pyltrace-ebpf", "pyltrace-ebpf-c",
                "bpftrace-uprobe"]
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
    assert set(cells) == {(t, w) for t in rows for w in SYSCALL_WORKLOADS} | {("untraced", "W6"), ("untraced", "W8")}
    for tracer in ("untraced", "strace", "bpftrace"):
        for w in SYSCALL_WORKLOADS:
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
    assert ratio_rows[0][6] == "W6" and ratio_rows[3][6] == "-"  # strace does not run the library-call loop
    per_syscall = _table_rows(md, "## Added cost per syscall")
    assert len(per_syscall) == 2 + 3 and all(len(r) == 7 for r in per_syscall)
    # The loop-timed workloads report the program's own loop time, and what each row added inside it.
    for tracer in ("untraced", "strace", "bpftrace"):
        for w in ("W1", "W2", "W5", "W7"):
            c = cells[(tracer, w)]
            assert c["loop_ms"] > 0, c
            assert (c["us_per_syscall_in_program"] is None) == (tracer == "untraced"), c
        assert cells[(tracer, "W3")]["loop_ms"] is None  # W3 does not time its loop
    in_program = _table_rows(md, "## Added cost per syscall inside the traced program")
    assert in_program[0] == ["tracer", "W1", "W2", "W5", "W7"]
    assert [r[0] for r in in_program[2:5]] == [rows[t]["label"] for t in ("untraced", "strace", "bpftrace")]
    assert all(re.fullmatch(r"(-|-?[\d.]+) \([\d.]+\)", cell) for r in in_program[2:5] for cell in r[1:]), in_program

    png = (out / "latest.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def _ltrace_c_total(argv: list[str], tracer: list[str], env: dict[str, str], tmp_path: Path) -> int:
    """Library calls counted by ``tracer -c`` (ltrace 0.7.3's summary table, pyltrace's too)."""
    out = tmp_path / "count.txt"
    run = subprocess.run([*tracer, "-c", "-o", str(out), *argv], capture_output=True, text=True,
                         env=env, timeout=60, check=False)
    text = out.read_text()
    m = re.search(r"^100\.00\s+\S+\s+(\d+)\s+total\s*$", text, re.M)
    assert m, f"{tracer} -c printed no total (exit {run.returncode}):\n{text}\n{run.stderr}"
    return int(m.group(1))


def test_w6_library_call_rows_are_merged_into_earlier_results(tmp_path: Path) -> None:
    """W6 (labs() loop): pyltrace and ltrace rows, per-library-call figures, --update keeping W1's cells."""
    _require("gcc", "strace", "ltrace")
    out = tmp_path / "results"
    base_cmd = [sys.executable, str(BENCH_DIR / "run.py"), "--tiny", "--reps", "1", "--out", str(out),
                "--timeout", "60"]
    base = subprocess.run([*base_cmd, "--tracers", "strace", "--workloads", "W1"],
                          capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path)
    assert base.returncode == 0, f"run.py failed:\n{base.stderr[-3000:]}"
    before = json.loads((out / "latest.json").read_text())
    update = subprocess.run([*base_cmd, "--workloads", "W6", "--update"],
                            capture_output=True, text=True, timeout=180, check=False, cwd=tmp_path)
    assert update.returncode == 0, f"run.py --update failed:\n{update.stderr[-3000:]}"

    data = json.loads((out / "latest.json").read_text())
    # --workloads W6 keeps only the rows that run W6; the earlier strace row and its W1 cells stay as they were.
    assert [t["id"] for t in data["tracers"]] == ["untraced", "strace", *LIBCALL_ROWS]
    assert all(t["status"] == "ok" for t in data["tracers"]), data["tracers"]
    old_w1 = [c for c in before["cells"] if c["workload"] == "W1"]
    assert [c for c in data["cells"] if c["workload"] == "W1"] == old_w1
    # W0 cells are start-up figures of their own run: the earlier rows keep theirs.
    old_w0 = [c for c in before["cells"] if c["workload"] == "W0"]
    assert [c for c in data["cells"] if c["workload"] == "W0" and c["tracer"] in ("untraced", "strace")] == old_w0
    assert data["command"] == before["command"] and data["updates"][0]["workloads"] == ["W6"]
    assert {"ltrace", "pyltrace"} <= set(data["versions"])
    cells = {(c["tracer"], c["workload"]): c for c in data["cells"]}
    assert set(cells) == {("untraced", w) for w in ("W0", "W1", "W6")} | {("strace", "W0"), ("strace", "W1")} | {
        (t, w) for t in LIBCALL_ROWS for w in ("W0", "W6")}
    for t in LIBCALL_ROWS:
        c = cells[(t, "W6")]
        assert c["status"] == "ok" and c["size"] == 1000 and c["lib_calls"] == 1001, c
        assert c["ratio"] > 0 and c["us_per_lib_call"] is not None and c["us_per_lib_call_steady"] is not None, c
        assert c["us_per_syscall"] is None, c  # W6's 29 syscalls are not what these rows stop at

    md = (out / "latest.md").read_text()
    lib_rows = _table_rows(md, "## Added cost per library call")
    assert lib_rows[0] == ["tracer", "W6 median s", "W6 ratio", "W6 us/call steady", "W6 us/call end-to-end"]
    assert [r[0] for r in lib_rows[2:]] == [
        "ltrace -o /dev/null", "ltrace -c -o /dev/null", "pyltrace -o /dev/null", "pyltrace -c -o /dev/null",
        "pyltrace --backend=ebpf -o /dev/null", "pyltrace --backend=ebpf -c -o /dev/null",
        "bpftrace: uprobe+uretprobe libc:labs { @n = count(); }"]
    assert all(re.fullmatch(r"[\d.]+x", r[2]) for r in lib_rows[2:]), lib_rows
    assert _table_rows(md, "## Added cost per syscall")[2][0] == "strace -f -o /dev/null"
    assert "Updated " in md and "W6 measured for untraced, ltrace-lib" in md

    # The library-call counts the figures divide by are the ones both tracers count.
    w6 = [str(out / "tmp" / "build" / "w6_labs"), "1000"]
    ctx = tracers.Context.default()
    pyltrace = ctx.program_argv("pyltrace")
    assert pyltrace is not None
    for tracer in (["ltrace"], pyltrace, [*pyltrace, "--backend=ebpf"]):
        assert _ltrace_c_total(w6, tracer, ctx.env, tmp_path) == 1001
        assert _ltrace_c_total(["true"], tracer, ctx.env, tmp_path) == 0


USDT_ROWS = ["pyltrace-usdt", "pyltrace-ebpf-usdt", "pyltrace-ebpf-usdt-c", "bpftrace-usdt"]


def test_w8_usdt_rows(tmp_path: Path) -> None:
    """W8 (a USDT probe hit 1,000 times at --tiny): pyltrace's two backends and bpftrace's usdt: count, each
    run's events counted (bpftrace's @n too) and valid; per-hit figures in the per-call table."""
    _require("gcc", "bpftrace")
    out = tmp_path / "results"
    run = subprocess.run([sys.executable, str(BENCH_DIR / "run.py"), "--tiny", "--reps", "1", "--out", str(out),
                          "--timeout", "60", "--workloads", "W8", "--tracers", ",".join(USDT_ROWS)],
                         capture_output=True, text=True, timeout=180, check=False, cwd=tmp_path)
    assert run.returncode == 0, f"run.py failed:\n{run.stderr[-3000:]}"
    data = json.loads((out / "latest.json").read_text())
    assert [t["id"] for t in data["tracers"]] == ["untraced", *USDT_ROWS]
    assert all(t["status"] == "ok" for t in data["tracers"]), data["tracers"]
    cells = {(c["tracer"], c["workload"]): c for c in data["cells"]}
    for t in USDT_ROWS:
        c = cells[(t, "W8")]
        assert c["status"] == "ok" and c["us_per_lib_call"] is not None, c
        assert c["lib_calls"] == (100 if t == "pyltrace-usdt" else 1000), c  # (ptrace: at 1/10 of the size)
    assert cells[("bpftrace-usdt", "W8")]["bpftrace_count"] == 1000
    md = (out / "latest.md").read_text()
    rows = _table_rows(md, "## Added cost per library call")
    assert rows[0][:2] == ["tracer", "W8 median s"] and len(rows) == 2 + len(USDT_ROWS)


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


def test_update_merge_keeps_each_rows_cells_with_their_own_start_up() -> None:
    """--update: W6 cells and the W6-only rows' W0 come from the new run; everything else is kept."""
    ws = workloads.by_id()
    rows = tracers.by_id()

    def suite(tracer_ids: list[str], workload_ids: list[str], date: str) -> report.SuiteData:
        return report.SuiteData(
            machine={"date": date, "commit": date, "load_average_at_start": [1.0]}, versions={"x": date},
            command=f"run {date}", config={"reps": 1}, workloads=[ws[w] for w in workload_ids],
            tracers=[rows[t] for t in tracer_ids],
            availability={t: tracers.Availability("ok") for t in tracer_ids}, instances={}, plan={},
        )

    def cells(pairs: list[tuple[str, str]], median: float) -> list[report.Cell]:
        return [report.Cell(t, w, "ok", instance=w, median_s=median) for t, w in pairs]

    old = suite(["untraced", "strace", "pyltrace"], ["W0", "W1", "W6"], "old")
    old_cells = cells([("untraced", "W0"), ("untraced", "W1"), ("untraced", "W6"), ("strace", "W0"),
                       ("strace", "W1"), ("pyltrace", "W0"), ("pyltrace", "W6")], 1.0)
    old.updates = [{"workloads": ["W1"], "tracers": ["untraced", "strace"], "command": "w1 again"},
                   {"workloads": ["W6"], "tracers": ["untraced", "pyltrace"], "command": "w6 before"}]
    new = suite(["untraced", "pyltrace", "ltrace-lib"], ["W0", "W6"], "new")
    new_cells = cells([("untraced", "W0"), ("untraced", "W6"), ("pyltrace", "W0"), ("pyltrace", "W6"),
                       ("ltrace-lib", "W0"), ("ltrace-lib", "W6")], 2.0)
    data, merged = report.merge(old, old_cells, new, new_cells, ["W0", "W6"])
    got = {(c.tracer, c.workload): c.median_s for c in merged}
    assert got == {
        ("untraced", "W0"): 1.0, ("untraced", "W1"): 1.0, ("untraced", "W6"): 2.0,  # untraced keeps its W0
        ("strace", "W0"): 1.0, ("strace", "W1"): 1.0,
        ("pyltrace", "W0"): 2.0, ("pyltrace", "W6"): 2.0,  # a W6-only row: its W0 moves with its W6
        ("ltrace-lib", "W0"): 2.0, ("ltrace-lib", "W6"): 2.0,
    }
    assert [t.id for t in data.tracers] == ["untraced", "strace", "ltrace-lib", "pyltrace"]  # TRACERS order
    assert [(c.tracer, c.workload) for c in merged][:3] == [("untraced", "W0"), ("untraced", "W1"),
                                                            ("untraced", "W6")]
    # The earlier W6 update is measured again in full: it is dropped from the header; the W1 one stays.
    assert data.command == "run old" and [u["command"] for u in data.updates] == ["w1 again", "run new"]
    assert data.updates[-1]["workloads"] == ["W6"] and data.versions == {"x": "new"}


def test_bpf_cost_compares_the_programs_of_both_tracers() -> None:
    """benchmarks/bpf_cost.py (the in-kernel cost of eBPF -c against bpftrace's count probe) runs and
    reads every row's programs: bpftrace's count probe runs once a call, the latency script and
    pytrace's -c twice (entry and exit), each over the workload's calls."""
    _require("bpftrace")
    out = subprocess.run([sys.executable, str(BENCH_DIR / "bpf_cost.py"), "--calls", "50000", "--reps", "1",
                          "--pytrace", f"{sys.executable} -m pytrace"],
                         capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    runs = dict(re.findall(r"^  (\S.*?) +[\d.]+ ns .*; ([\d.]+) program runs a call\)$", out.stdout, re.M))
    assert set(runs) == {"bpftrace: count sys_enter of the pid", "bpftrace: count, errors, latency per syscall",
                         "pytrace --backend=ebpf -f -c"}, out.stdout
    # other processes' calls run the raw_syscalls programs too: a little above the exact figure
    assert 1.0 <= float(runs["bpftrace: count sys_enter of the pid"]) < 2.0, out.stdout
    assert 2.0 <= float(runs["pytrace --backend=ebpf -f -c"]) < 4.0, out.stdout


def test_tracers_run_from_cached_bytecode(monkeypatch: pytest.MonkeyPatch) -> None:
    """The benchmark's pytrace runs use .pyc files as an installed copy does: with PYTHONDONTWRITEBYTECODE
    inherited, every module changed since its .pyc was written would be compiled at every start (~19 ms
    for the eBPF backend's three largest), a fixed cost no user pays."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = tracers.Context.default().env
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PYTHONPATH"].split(":")[0] == str(REPO_ROOT)


FLOOR_ROWS = ["untraced", "strace -f -c -o /dev/null", "strace -f -o /dev/null", "bare C loop (floor/bare_loop.c)",
              "bare Python loop (floor/bare_loop.py)", "pytrace -f -c -o /dev/null"]


def test_ptrace_floor_runs_every_row_and_the_bare_loops_see_every_call() -> None:
    """benchmarks/ptrace_floor.py (issue 15's -c floor: strace, the bare C and Python loops, pytrace -c)
    runs at a tiny size: every row has a valid run on W1 and W5, and the bare loops counted exactly the
    getppid calls the workloads made (a loop that missed or doubled stops makes its runs invalid)."""
    _require("strace", "gcc")
    out = subprocess.run([sys.executable, str(BENCH_DIR / "ptrace_floor.py"), "--tiny", "--reps", "1",
                          "--pytrace", f"{sys.executable} -m pytrace"],
                         capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)
    assert out.returncode == 0, out.stderr
    for w, calls, getppid in (("W1", 200, 200), ("W5", 200, 100)):
        rows = _table_rows(out.stdout, f"## {w}: ")
        assert rows[0][0] == f"{w}, {calls} syscalls", out.stdout
        assert [r[0] for r in rows[2:]] == FLOOR_ROWS, out.stdout
        assert all(r[-1] == "1/1" for r in rows[2:]), out.stdout
        assert rows[3][3] == "1.00x", out.stdout  # the strace -c row is the ratios' reference
        section = out.stdout.split(f"## {w}: ", 1)[1]
        assert (f"getppid entries counted by the bare loops (the workload made {getppid}): "
                f"bare C loop {getppid}, bare Python loop {getppid}.") in section, out.stdout
    assert "Notes:" not in out.stdout  # no invalid run


@pytest.mark.parametrize("loop", ["c", "py"])
def test_bare_loops_count_getppid_and_pass_the_exit_status_on(loop: str) -> None:
    """The bare loops count every getppid entry of a run (1,234 here, as the workload's argument says),
    threads included (W5's four), and exit with the traced command's status."""
    _require("gcc")
    import ptrace_floor  # benchmarks/ is on sys.path (above)

    build = ptrace_floor.BUILD
    workloads.build(build)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    prefix = ([str(ptrace_floor.build_bare_loop(build))] if loop == "c"
              else [sys.executable, str(BENCH_DIR / "floor" / "bare_loop.py")])
    for argv, want in (([str(build / "w1_getppid"), "1234"], 1234), ([str(build / "w5_threads"), "4", "400"], 200)):
        run = subprocess.run([*prefix, *argv], capture_output=True, text=True, timeout=60, env=env)
        assert run.returncode == 0 and run.stderr == f"getppid {want}\n", run.stderr
    run = subprocess.run([*prefix, "/bin/sh", "-c", "exit 3"], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 3, run.stderr
