"""JSON output round-trips: every case of the differential corpus, traced with ``--output-format=json``
and printed back by ``pytrace report``, equals real strace's text output (same normalisation as
test_vs_strace), and every JSON line parses with jq and validates against the schema.

The "pytrace" side of the shared harness is swapped for json_report_tracer.py, which runs pytrace with
JSON output and replaces each trace file by its report.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import helpers
import jsonschema
import pytest
from test_vs_strace import CASES, Case, _run, compare_runs

HERE = Path(__file__).resolve().parent

# Line-prefix options print clocks read when the line is written (-t, -r) or measured around it (-T):
# a record keeps the call's own timestamps instead, which report does not turn back into those prefixes.
# And when the tracee writes to the same stderr as the trace, the text interleaves byte by byte with it.
NOT_ROUND_TRIPPED = {
    "t-true": "-t prints the clock read when the line is written",
    "tt-true": "-tt prints the clock read when the line is written",
    "ttt-T-echo": "-ttt/-T print clocks read when the line is written",
    "r-true": "-r prints the clock read when the line is written",
    "T-cat": "-T prints the time measured around the line",
    "forker-f-tt-process": "-tt prints the clock read when the line is written",
    "stderr-ls-nonexistent": "the tracee's stderr interleaves with the trace text",
}
ROUND_TRIP_CASES = [c for c in CASES if c.id not in NOT_ROUND_TRIPPED]


def _json_tracer() -> list[str]:
    return [sys.executable, str(HERE / "json_report_tracer.py")]


@pytest.fixture
def json_tracer(monkeypatch: pytest.MonkeyPatch) -> None:
    real = helpers.tracer_command
    monkeypatch.setattr(helpers, "tracer_command", lambda t: _json_tracer() if t == "pytrace" else real(t))


def test_every_excluded_case_exists() -> None:
    assert set(NOT_ROUND_TRIPPED) <= {c.id for c in CASES}


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in ROUND_TRIP_CASES])
def test_report_equals_strace(c: Case, programs: dict[str, Path], tmp_path: Path, json_tracer: None) -> None:
    port = helpers.free_port_block() if "{port}" in c.command else 0
    expected = _run("strace", c, programs, tmp_path, port)
    actual = _run("pytrace", c, programs, tmp_path, port)
    problems = compare_runs(expected, actual)
    # The JSON itself (kept by the stand-in tracer; a stderr trace is checked by the report alone).
    files = sorted((tmp_path / "out-pytrace" / "json").glob("*")) if c.output != "stderr" else []
    assert files or c.output == "stderr", "no JSON trace was kept"
    validator = helpers.trace_schema_validator()
    jq = shutil.which("jq")
    assert jq, "jq is missing: it is in the README's test set-up command"
    for f in files:
        res = subprocess.run([jq, "-c", "."], stdin=f.open("rb"), capture_output=True, check=False)
        if res.returncode != 0:
            problems.append(f"jq rejects {f.name}: {res.stderr.decode()}")
        for lineno, line in enumerate(f.read_text().splitlines(), 1):
            try:
                validator.validate(json.loads(line))
            except jsonschema.ValidationError as exc:
                problems.append(f"{f.name}:{lineno}: schema: {exc.message}")
                break
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
