"""Differential tests: the same command traced by strace and by pytrace must give the same output.

Each case runs real strace and then pytrace with identical options, the same
environment and the same working directory (recreated empty for each run, so
paths printed in the trace are identical), then compares, after
``helpers.normalise``: the trace, the tracer's stderr, the tracee's stdout and
the tracer's exit status.  ``PYTRACE_TEST_TRACER_CMD=strace`` puts strace on
both sides, which proves that every case is deterministic under the
normalisation (i.e. that a failure here is pytrace's, not the harness's).
"""

from __future__ import annotations

import difflib
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    combine_ff_files,
    decode,
    free_port_block,
    group_by_process,
    normalise,
    run_tracer,
    shell_status,
)


@dataclass(frozen=True)
class Case:
    """One differential case.

    ``command`` items are formatted with the program paths by name
    (``{fileops}``), ``{dir}`` (a scratch path inside the working directory)
    and ``{port}`` (a free port block for the sockets program).
    """

    id: str
    options: tuple[str, ...]
    command: tuple[str, ...]
    #: Where the trace goes: "file" (-o FILE), "ff" (-ff -o STEM: one file per process), "stderr".
    output: str = "file"
    #: Several processes in one trace file: compare each process's lines (see group_by_process).
    multi: bool = False
    #: False when the tracee's stdout legitimately differs between runs (the current time).
    compare_stdout: bool = True
    #: Several threads write to stdout in scheduling order: compare its lines sorted.
    unordered_stdout: bool = False


def case(case_id: str, options: str, *command: str, **kw: Any) -> Case:
    """Terse table rows: options as one space-separated string (no option here needs quoting)."""
    return Case(case_id, tuple(options.split()), command, **kw)


CASES = [
    # ---- real commands -----------------------------------------------------------------------
    case("true", "", "true"),
    case("echo-hi", "", "echo", "hi"),
    case("ls-root", "", "ls", "/"),
    case("ls-nonexistent", "", "ls", "/nonexistent"),
    case("cat-hostname", "", "cat", "/etc/hostname"),
    case("sh-exit-7", "", "sh", "-c", "exit 7"),
    case("uname-a", "", "uname", "-a"),
    case("env-desc", "-e trace=%desc", "env"),
    case("date-file", "-e trace=%file", "date", compare_stdout=False),
    case("head-dev-zero", "", "head", "-c", "100", "/dev/zero"),
    case("ls-not-memory", "-e trace=!%memory", "ls", "/"),
    case("cat-regex-read-write", "-e trace=/^(read|write)$", "cat", "/etc/hostname"),
    case("env-E-set-unset", "-E FOO=bar -E HOME -e trace=execve,write", "env"),
    case("id-u-nobody", "-u nobody -e trace=%creds", "id"),
    case("id-64-suffix", "-e trace=getuid@64,geteuid", "id"),
    # ---- trace written to stderr, interleaved with the tracee's own stderr --------------------
    case("stderr-echo", "", "echo", "hi", output="stderr"),
    case("stderr-ls-nonexistent", "", "ls", "/nonexistent", output="stderr"),
    case("stderr-q-sh", "-q", "sh", "-c", "exit 7", output="stderr"),
    # ---- timestamps and durations ------------------------------------------------------------
    case("t-true", "-t", "true"),
    case("tt-true", "-tt", "true"),
    case("ttt-T-echo", "-ttt -T", "echo", "hi"),
    case("r-true", "-r", "true"),
    case("T-cat", "-T", "cat", "/etc/hostname"),
    # ---- C programs --------------------------------------------------------------------------
    case("fileops", "", "{fileops}", "{dir}"),
    case("fileops-file", "-e trace=%file", "{fileops}", "{dir}"),
    case("fileops-y", "-y", "{fileops}", "{dir}"),
    case("fileops-v-fstat", "-v -e trace=%fstat", "{fileops}", "{dir}"),
    case("fileops-a60", "-a 60", "{fileops}", "{dir}"),
    case("strings", "", "{strings}"),
    case("strings-s8", "-s 8", "{strings}"),
    case("strings-s100", "-s 100", "{strings}"),
    case("strings-x", "-x", "{strings}"),
    case("strings-xx", "-xx", "{strings}"),
    case("strings-read-write", "-e trace=read,write", "{strings}"),
    case("memory", "", "{memory}"),
    case("memory-class", "-e trace=%memory", "{memory}"),
    case("timeinfo", "", "{timeinfo}"),
    case("timeinfo-unknown-name", "-e trace=?nosuchsyscall,getpid", "{timeinfo}"),
    case("ioctls", "", "{ioctls}"),
    case("futexes", "", "{futexes}"),
    case("polling", "", "{polling}"),
    case("polling-desc", "-e trace=%desc", "{polling}"),
    case("sockets", "", "{sockets}", "{port}"),
    case("sockets-network", "-e trace=%network", "{sockets}", "{port}"),
    case("sockets-y", "-y", "{sockets}", "{port}"),
    case("signals", "", "{signals}"),
    case("signals-class", "-e trace=%signal", "{signals}"),
    case("signals-none", "-e signal=none", "{signals}"),
    case("signals-not-chld", "-e signal=!SIGCHLD", "{signals}"),
    # pthread_join's futex wait happens or not depending on whether the thread has already
    # exited, so futex is filtered out wherever the threads program is traced.
    case("threads-main-only", "-e trace=!futex", "{threads}", unordered_stdout=True),
    # ---- exit status -------------------------------------------------------------------------
    case("exitcode-42", "", "{exitcode}", "42"),
    case("exitcode-255", "-qq", "{exitcode}", "255"),
    case("killed-segv", "", "{killed}", "segv"),
    case("killed-term", "", "{killed}", "term"),
    case("killed-term-qq", "-qq", "{killed}", "term"),
    # ---- several processes -------------------------------------------------------------------
    case("forker-f", "-f", "{forker}", multi=True),
    case("forker-f-q", "-f -q", "{forker}", multi=True),
    case("forker-f-qq", "-f -qq", "{forker}", multi=True),
    case("forker-f-process", "-f -e trace=%process", "{forker}", multi=True),
    case("forker-f-tt-process", "-f -tt -e trace=%process", "{forker}", multi=True),
    case("forker-ff", "-ff", "{forker}", output="ff"),
    case("threads-f", "-f -e trace=!futex", "{threads}", multi=True),
    case("threads-ff", "-ff -e trace=!futex", "{threads}", output="ff"),
]


@dataclass
class Run:
    """What one tracer run produced, already normalised for comparison."""

    trace: str
    stderr: str
    stdout: str
    returncode: int


def _run(tracer: str, c: Case, programs: dict[str, Path], tmp_path: Path, port: int) -> Run:
    """Trace ``c`` with ``tracer`` in tmp_path/work (fresh), the trace going to tmp_path/out-TRACER."""
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    out = tmp_path / f"out-{tracer}"
    out.mkdir()
    values = {name: str(path) for name, path in programs.items()}
    command = [item.format(**values, dir=work / "d", port=port) for item in c.command]
    options = list(c.options)
    if c.output in ("file", "ff"):
        options += ["-o", str(out / "trace")]
    try:
        result = run_tracer(tracer, options, command, cwd=work)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out after {exc.timeout} s: {exc.cmd}")
    stderr = decode(result.stderr)
    if c.output == "file":
        trace_path = out / "trace"
        trace = (
            decode(trace_path.read_bytes()) if trace_path.exists() else f"<{tracer} wrote no trace file>\n"
        )
        if c.multi:
            trace = group_by_process(trace)
    elif c.output == "ff":
        trace = combine_ff_files(out, "trace")
    else:
        trace, stderr = stderr, ""
    stdout = decode(result.stdout)
    if c.multi or c.output == "ff" or c.unordered_stdout:
        # Processes and threads write to the shared stdout in scheduling order.
        stdout = "".join(sorted(stdout.splitlines(keepends=True)))
    if not c.compare_stdout:
        stdout = "<not compared>"
    # Multi-process traces had their alignment collapsed by group_by_process (lines get split).
    align = None if c.multi else int(c.options[c.options.index("-a") + 1]) if "-a" in c.options else 40
    return Run(normalise(trace, align), normalise(stderr), stdout, result.returncode)


def _describe(returncode: int) -> str:
    """An exit status as both subprocess and a shell see it."""
    how = f"killed by signal {-returncode}" if returncode < 0 else f"exited {returncode}"
    return f"{how} ($?={shell_status(returncode)})"


def _diff(what: str, expected: str, actual: str) -> str:
    """A unified diff, strace's side first, that pytest prints on failure."""
    lines = difflib.unified_diff(
        expected.splitlines(keepends=True),
        actual.splitlines(keepends=True),
        fromfile=f"strace {what} (normalised)",
        tofile=f"pytrace {what} (normalised)",
    )
    return "".join(lines)


def compare_runs(expected: Run, actual: Run) -> list[str]:
    """Every difference between strace's run and pytrace's, as diffs pytest prints."""
    problems = []
    for what in ("trace", "stderr", "stdout"):
        want, got = getattr(expected, what), getattr(actual, what)
        if want != got:
            problems.append(_diff(what, want, got) or f"{what} differs (whitespace only?)")
    if expected.returncode != actual.returncode:
        # Compared raw: strace dies by the tracee's signal (returncode -N), it does not exit 128+N.
        problems.append(
            f"exit status: strace {_describe(expected.returncode)}, pytrace {_describe(actual.returncode)}"
        )
    return problems


# Options that issue #3 (strace parity: timestamps, -T, -y) brings. The cases stay in the corpus as
# strict expected failures, so the day an option lands its case must pass (an XPASS fails the run).
PENDING_ISSUE_3: dict[str, str] = {}


def _params() -> list[Any]:
    out = []
    for c in CASES:
        marks = []
        if c.id in PENDING_ISSUE_3:
            reason = f"issue #3: {PENDING_ISSUE_3[c.id]} is not implemented yet (pytrace refuses it clearly)"
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


@pytest.mark.differential
@pytest.mark.parametrize("c", _params())
def test_vs_strace(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's after normalisation."""
    port = free_port_block() if "{port}" in c.command else 0
    expected = _run("strace", c, programs, tmp_path, port)
    actual = _run("pytrace", c, programs, tmp_path, port)
    problems = compare_runs(expected, actual)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
