"""The memory table and the whole-tree measurement behind it and behind the start-up table.

``measure.run_tree`` must count what a plain wait4 misses: a process the command
double-forks (pytrace's render process) is reaped by the harness as subreaper,
so its CPU time and its peak RSS are in the result, under its comm.  Checked with
a Python command that double-forks a helper which touches a known amount of
memory and burns CPU.  Then ``run.py --memory --tiny`` must write the memory
table (every row measured or with its reason) and leave the other tables as
they were.  No figure is compared with an expected timing; the sizes checked
are lower bounds the helper's own allocation guarantees.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import without_section

REPO_ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = REPO_ROOT / "benchmarks"
RESULTS = BENCH_DIR / "results"
sys.path.insert(0, str(BENCH_DIR))

from benchsuite import measure, memory  # noqa: E402

HEADING = "## Memory: peak RSS tracing W1 (getppid loop)"

# Parent exits at once; the grandchild (comm "bench-helper") touches 40 MB, spins ~0.2 s of CPU, exits.
DOUBLE_FORK = """
import os, time
if os.fork() == 0:
    if os.fork() == 0:
        with open("/proc/self/comm", "w") as f:
            f.write("bench-helper")
        block = bytearray(40 * 1024 * 1024)
        for i in range(0, len(block), 4096):
            block[i] = 1
        end = time.process_time() + 0.2
        while time.process_time() < end:
            pass
        os._exit(0)
    os._exit(0)
os.wait()
"""


def test_run_tree_counts_a_double_forked_helper() -> None:
    plain = measure.run_exec([sys.executable, "-c", DOUBLE_FORK], {}, 60)
    tree = measure.run_tree([sys.executable, "-c", DOUBLE_FORK], {}, 60, watch_memory=True)
    assert plain.ok and tree.run.ok, (plain.error, tree.run.error)
    assert plain.cpu_s < 0.2 <= tree.run.cpu_s  # wait4 alone misses the orphan's CPU
    assert tree.peak_kb["bench-helper"] >= 40 * 1024
    assert 0 < tree.peak_kb["tracer"] < 40 * 1024  # the command's own peak, not its helper's


# Touches 40 MB, then starts `cat` (subprocess: vfork and exec) on a pipe it holds for 0.5 s, as the eBPF
# backend starts its fd holder; then exits, and cat with it (EOF).
EXEC_HELPER = """
import os, subprocess, time
block = bytearray(40 * 1024 * 1024)
for i in range(0, len(block), 4096):
    block[i] = 1
r, w = os.pipe()
subprocess.Popen(["cat"], stdin=r, stdout=subprocess.DEVNULL, start_new_session=True)
os.close(r)
time.sleep(0.5)
"""


def test_run_tree_measures_an_exec_helper_after_its_exec() -> None:
    """A helper the command vforks and execs (the eBPF backend's fd holder, `cat`): wait4 gives it the
    command's 40 MB (exec keeps the old address space's high-water mark); with ``exec_helpers`` it is
    measured by its own VmHWM after its exec, and reaped all the same."""
    argv = [sys.executable, "-c", EXEC_HELPER]
    plain = measure.run_tree(argv, {}, 60, watch_memory=True)
    assert plain.run.ok, plain.run.error
    assert plain.peak_kb["cat"] >= 40 * 1024, "the problem the option solves did not show"
    helped = measure.run_tree(argv, {}, 60, watch_memory=True, exec_helpers=memory.EXEC_HELPERS)
    assert helped.run.ok, helped.run.error
    assert helped.peak_kb["tracer"] >= 40 * 1024
    assert 0 < helped.peak_kb["cat"] < 20 * 1024, helped.peak_kb  # cat's own memory: a few MB at most


def test_memory_table_merges_into_existing_results(tmp_path: Path) -> None:
    out = tmp_path / "results"
    shutil.copytree(RESULTS, out)
    before_md = (out / "latest.md").read_text()
    before = json.loads((out / "latest.json").read_text())
    result = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--memory", "--tiny", "--out", str(out),
         "--build-dir", str(tmp_path / "build")],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode in (0, 1), result.stderr[-2000:]  # 1: only the chart could not be drawn
    md = (out / "latest.md").read_text()
    assert HEADING in md
    table = [line for line in md.split(HEADING, 1)[1].split("\n## ", 1)[0].splitlines() if line.startswith("| `")]
    labels = [line.split("`")[1] for line in table]
    assert labels == ["strace -f -o /dev/null", "pytrace -f -o /dev/null", "pytrace -f -c",
                      "pytrace --backend=ebpf -f -o /dev/null"]
    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in table]
    assert all(cells[1] == "200" and float(cells[2]) >= 0 for cells in rows), table  # all measured
    # strace may end between two readings of a 200-call run; Python alone takes longer than that
    assert all(float(cells[2]) > 0 for cells in rows[1:]), table
    assert float(rows[1][3]) > 0  # -o FILE on two CPUs: the render process, found and measured
    assert without_section(md, HEADING) == without_section(before_md, HEADING)
    after = json.loads((out / "latest.json").read_text())
    assert [r["tracer"] for r in after["memory"]["rows"]] == ["strace", "pytrace", "pytrace-c", "pytrace-ebpf"]
    ebpf = after["memory"]["rows"][3]
    assert ebpf["status"] == "ok", ebpf
    # The fd holder, if seen, with its own few MB, not pytrace's ~80 (ring buffer included); never in the sum.
    assert ebpf["peak_kb"].get("cat", 0) < 20 * 1024 and ebpf["total_kb"] == ebpf["peak_kb"]["tracer"], ebpf
    assert after["cells"] == before["cells"]
