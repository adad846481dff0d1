"""benchmarks/run.py --startup: the start-up table is measured and merged, every other table kept.

No figure is asserted (timings are the suite's output, not an oracle): the
test checks that each start-up command has its row (measured, or its reason),
that the ratios are taken to ``python -c pass``, and that the tables already in
latest.md come out unchanged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import without_section

REPO_ROOT = Path(__file__).resolve().parents[2]
RESULTS = REPO_ROOT / "benchmarks" / "results"
ROWS = ["python -c pass", "pytrace true", "pyltrace true", "pytrace --backend=ebpf true", "strace true", "ltrace true"]
HEADING = "## Start-up: `true` under each tracer"


def test_startup_table_merges_into_existing_results(tmp_path: Path) -> None:
    out = tmp_path / "results"
    shutil.copytree(RESULTS, out)
    before_md = (out / "latest.md").read_text()
    before = json.loads((out / "latest.json").read_text())
    result = subprocess.run(
        [sys.executable, "benchmarks/run.py", "--startup", "--startup-reps", "1", "--out", str(out)],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode in (0, 1), result.stderr[-2000:]  # 1: only the chart could not be drawn
    md = (out / "latest.md").read_text()
    assert HEADING in md
    section = md.split(HEADING, 1)[1].split("\n## ", 1)[0]  # (the memory table may follow)
    table = [line for line in section.splitlines() if line.startswith("| `")]
    assert [line.split("`")[1] for line in table] == ROWS
    for line in table:
        cells = [c.strip() for c in line.split("|")[1:-1]]
        if line.startswith("| `python -c pass`"):
            assert cells[2] == "1.00x" and cells[4] == "1.00x"
        if line.startswith(("| `pytrace true`", "| `pyltrace true`", "| `strace true`")):
            assert cells[2].endswith("x"), line  # measured, with its ratio
    assert without_section(md, HEADING) == without_section(before_md, HEADING)
    after = json.loads((out / "latest.json").read_text())
    assert [r["id"] for r in after["startup"]["rows"]] == ROWS
    assert after["cells"] == before["cells"]
