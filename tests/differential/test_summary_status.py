"""-c / -C combined with -z, -Z and -e status=: what strace 6.1 counts.

strace 6.1 counts a call in ``syscall_exiting_trace`` *before* it decides
whether the staged line is published, so the status filter changes the
printed lines only: ``strace -c -z`` still counts (and times) the failed calls
and ``-Z`` the successful ones; calls that never return (``exit_group``) are
never counted, whatever ``unfinished`` says.  (Later strace releases moved the
count after the decision and count only published calls; the oracle here is
the installed 6.1.)  pytrace's SummarySink sees every finished call, as
strace 6.1's counter does, and the text sink alone applies the filter.

Tables are compared with test_summary's ``normalise_tables`` (timing cells
masked, everything else verbatim), sorted by calls so the row order does not
depend on timing; -C traces are normalised with the usual helpers.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer
from test_summary import normalise_tables

pytestmark = pytest.mark.differential


def _run(tracer: str, options: list[str], cmd: list[str], tmp_path: Path) -> tuple[str, str, int]:
    """(stderr, the -o file, exit status) of one run, both normalised."""
    out = tmp_path / f"{tracer}.out"
    proc = run_tracer(tracer, [*options, "-o", str(out)], cmd, cwd=tmp_path)
    text = decode(out.read_bytes()) if out.exists() else ""
    stderr = decode(proc.stderr).replace(f"{tracer}: ", "TRACER: ")
    return normalise_tables(stderr, False), normalise_tables(normalise(text, None), False), proc.returncode


def _compare(options: list[str], cmd: list[str], tmp_path: Path) -> str:
    expected = _run("strace", options, cmd, tmp_path)
    actual = _run("pytrace", options, cmd, tmp_path)
    assert actual == expected
    return actual[1]


def _table_rows(text: str) -> dict[str, str]:
    """syscall name -> "calls errors" of the table in ``text`` (the cells that do not depend on timing)."""
    rows = {}
    for line in text.splitlines():
        cells = line.split()
        if len(cells) >= 5 and cells[0] == "T" and cells[-2].isdigit():
            rows[cells[-1]] = " ".join(cells[3:-1])
    return rows


@pytest.mark.parametrize(
    "status",
    [["-z"], ["-Z"], ["-e", "status=failed"], ["-e", "status=successful"], ["-e", "status=unfinished"],
     ["-e", "status=none"], ["-z", "-Z"]],
    ids=["z", "Z", "failed", "successful", "unfinished", "none", "zZ"],
)
def test_c_counts_every_call_whatever_the_status_filter(
    status: list[str], programs: dict[str, Path], tmp_path: Path
) -> None:
    """-c with a status filter: the same table as without it (1000 getppid, 502 openat of which 500 failed...)."""
    table = _compare(["-c", "-S", "calls", *status], [str(programs["summary"])], tmp_path)
    rows = _table_rows(table)
    assert rows["getppid"] == "1000"
    assert rows["openat"] == "502 500"
    assert rows["close"] == "22 20"
    assert rows["chdir"] == "5 2"
    assert "exit_group" not in rows  # never returns: never counted, even with status=unfinished


@pytest.mark.parametrize("status", [["-z"], ["-Z"], ["-e", "status=unfinished,failed"]], ids=["z", "Z", "unf-failed"])
def test_C_prints_the_filtered_trace_and_counts_everything(
    status: list[str], programs: dict[str, Path], tmp_path: Path
) -> None:
    """-C: the published lines only, then the full table."""
    text = _compare(["-C", "-S", "calls", *status], [str(programs["summary"])], tmp_path)
    rows = _table_rows(text)
    assert rows["getppid"] == "1000"
    assert rows["openat"] == "502 500"
    if status == ["-z"]:
        assert text.count("getppid()") == 1000 and "ENOENT" not in text
    else:
        assert "getppid()" not in text and text.count("ENOENT") >= 500


def test_C_wall_clock_followed(programs: dict[str, Path], tmp_path: Path) -> None:
    """-f -C -w -Z over three processes: children's calls are counted although none of them is printed."""
    text = _compare(["-f", "-C", "-w", "-Z", "-S", "calls"], [str(programs["summary"]), "fork"], tmp_path)
    assert _table_rows(text)["getppid"] == "1200"
