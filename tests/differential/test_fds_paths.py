"""Descriptors, pids and paths: -y/-yy/--decode-fds, -Y/--decode-pids and -P, against strace 6.1.

Each case traces a real program with strace and with pytrace, same options,
same environment, same (fresh) working directory, and compares the trace,
the tracer's stderr, the program's stdout and the exit status after
``helpers.normalise`` (which renumbers pids, addresses, inodes, and the inode
and port-id numbers inside -yy socket descriptions).  -Y prints the tracer's
own name for a child that has not exec'd yet and for getppid (``<strace>``,
``<pytrace>``): that name is the one thing compared as ``<TRACER>``, and pids
followed by a name, wherever helpers does not already renumber them, are
renumbered here.

The programs: fdkinds.c (descriptors of every kind, printed by plain
decoders), pidnames.c (every place -Y names a pid, including strace 6.1's
stale-name quirk after a failed call), paths.c (each argument shape -P
looks at), and the corpus programs fileops, sockets, polling, ioctls,
forker, threads.
"""

from __future__ import annotations

import difflib
import re
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
)

from pytrace.tables.syscalls import rval_kinds


@dataclass(frozen=True)
class Case:
    """One differential case; ``{dir}``/``{port}``/``{PROGRAM}`` are filled in, in options too."""

    id: str
    options: tuple[str, ...]
    command: tuple[str, ...]
    output: str = "file"  # "file" (-o FILE), "ff" (-ff -o STEM), "stderr"
    multi: bool = False  # several processes in one file: compare per process (group_by_process)
    sort_stdout: bool = False  # several threads/processes write to stdout in scheduling order


def case(case_id: str, options: str, *command: str, **kw: Any) -> Case:
    return Case(case_id, tuple(options.split()), command, **kw)


CASES = [
    # ---- -y / -yy / --decode-fds --------------------------------------------------------------
    case("fdkinds-y", "-y", "{fdkinds}", "{port}"),
    case("fdkinds-yy", "-yy", "{fdkinds}", "{port}"),
    case("fdkinds-decode-fds-all", "--decode-fds=all", "{fdkinds}", "{port}"),
    case("fdkinds-decode-fds-socket", "--decode-fds=socket", "{fdkinds}", "{port}"),
    case("fdkinds-e-decode-fds-dev-pidfd", "-e decode-fds=dev,pidfd", "{fdkinds}", "{port}"),
    case("fdkinds-decode-fds-not-path", "--decode-fds=!path", "{fdkinds}", "{port}"),
    case("fdkinds-decode-fds-none", "--decode-fds=none", "{fdkinds}", "{port}"),
    case("fdkinds-yy-x", "-yy -x", "{fdkinds}", "{port}"),
    case("cat-y-xx", "-y -xx -e trace=openat,fadvise64", "cat", "/etc/hostname"),
    case("fdkinds-f-y", "-f -y", "{fdkinds}", "{port}", "fork", multi=True),
    case("fdkinds-ff-yy", "-ff -yy", "{fdkinds}", "{port}", "fork", output="ff"),
    case("fdkinds-stderr-y", "-y", "{fdkinds}", "{port}", output="stderr"),
    case("fileops-yy", "-yy", "{fileops}", "{dir}"),
    case("sockets-yy", "-yy", "{sockets}", "{port}"),
    case("polling-yy", "-yy", "{polling}"),
    case("ioctls-yy", "-yy", "{ioctls}"),
    case("ioctls-decode-fds-dev", "--decode-fds=dev", "{ioctls}"),
    case("threads-f-yy", "-f -yy -e trace=!futex", "{threads}", multi=True, sort_stdout=True),
    case("cat-y-class", "-y -e trace=%desc", "cat", "/etc/hostname"),
    # ---- -Y / --decode-pids ---------------------------------------------------------------------
    case("pidnames-f-Y", "-f -Y", "{pidnames}", multi=True),
    case("pidnames-f-Y-prctl-untraced", "-f -Y -e trace=getpid,kill,wait4,read", "{pidnames}", multi=True),
    case("pidnames-ff-decode-pids", "-ff --decode-pids=comm", "{pidnames}", output="ff"),
    case("pidnames-Y-stderr", "-Y", "{pidnames}", output="stderr"),
    case("forker-f-Y", "-f -Y", "{forker}", multi=True),
    case("forker-f-Y-none", "-f -Y -e trace=none", "{forker}", multi=True),
    case("fdkinds-Y-yy", "-Y -yy -e trace=pidfd_open,pidfd_send_signal,pidfd_getfd,close", "{fdkinds}", "{port}"),
    case("pidnames-decode-pids-pidns", "--decode-pids=pidns", "{pidnames}"),
    # ---- -P ---------------------------------------------------------------------------------------
    case("paths-P-relative", "-P d/target", "{paths}", "d"),
    case("paths-P-absolute-y", "-y -P {dir}/target -P {dir}", "{paths}", "{dir}"),
    case("paths-P-dir-only", "-P {dir}", "{paths}", "{dir}"),
    case("paths-P-not-there", "-P /nonexistent/x", "{paths}", "{dir}"),
    case("cat-P-resolved", "-P /etc/../etc/hostname", "cat", "/etc/hostname"),
    case("cat-P-resolved-quiet", "--quiet=path-resolution -P /etc/../etc/hostname", "cat", "/etc/hostname"),
    case("cat-P-twice", "-P /etc/hostname -P /etc/./hostname -P /etc/./hostname", "cat", "/etc/hostname"),
    case("forker-f-P", "-f -P /bin/true", "{forker}", multi=True),
    case("fdkinds-P-yy", "-yy -P /dev/null", "{fdkinds}", "{port}"),
    case("pidnames-f-P-Y", "-f -Y -P /nonexistent", "{pidnames}", multi=True),
    Case("cat-P-empty-string", ("-P", ""), ("cat", "/etc/hostname")),
]

# Names the test programs take on (and the tracer's own, made neutral): a pid right before one
# of them is a -Y pid, renumbered wherever helpers.normalise has not done it already.
_TRACER_NAME = re.compile(r"<(?:strace|pytrace)>")
_NAMED_PID = re.compile(r"\b(\d+)(?=<(?:TRACER|pidnames|first|renamed|kid|forker|true|fdkinds|threads)>)")


def _named_pids(text: str) -> str:
    numbers: dict[str, str] = {}
    return _NAMED_PID.sub(lambda m: numbers.setdefault(m[1], f"NAMEDPID{len(numbers) + 1}"), text)


@dataclass
class Run:
    trace: str
    stderr: str
    stdout: str
    returncode: int


def _run(tracer: str, c: Case, programs: dict[str, Path], tmp_path: Path, port: int) -> Run:
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    out = tmp_path / f"out-{tracer}"
    out.mkdir()
    values = {name: str(path) for name, path in programs.items()}
    values.update(dir=str(work / "d"), port=str(port))
    options = [item.format(**values) for item in c.options]
    command = [item.format(**values) for item in c.command]
    if c.output in ("file", "ff"):
        options += ["-o", str(out / "trace")]
    try:
        result = run_tracer(tracer, options, command, cwd=work)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out after {exc.timeout} s: {exc.cmd}")
    stderr = decode(result.stderr)
    if c.output == "file":
        path = out / "trace"
        trace = decode(path.read_bytes()) if path.exists() else f"<{tracer} wrote no trace file>\n"
        if c.multi:
            trace = group_by_process(trace)
    elif c.output == "ff":
        trace = combine_ff_files(out, "trace")
    else:
        trace, stderr = stderr, ""
    stdout = decode(result.stdout)
    if c.sort_stdout or c.multi or c.output == "ff":
        stdout = "".join(sorted(stdout.splitlines(keepends=True)))
    align = None if c.multi else 40  # checked on the lines as printed, before any renaming
    trace = _named_pids(_TRACER_NAME.sub("<TRACER>", normalise(trace, align)))
    return Run(trace, normalise(stderr), stdout, result.returncode)


def _diff(what: str, expected: str, actual: str) -> str:
    return "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        fromfile=f"strace {what} (normalised)", tofile=f"pytrace {what} (normalised)"))


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_vs_strace(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's after normalisation."""
    uses_port = "{port}" in c.command
    port = free_port_block() if uses_port else 0
    expected = _run("strace", c, programs, tmp_path, port)
    actual = _run("pytrace", c, programs, tmp_path, port)
    problems = [
        _diff(what, getattr(expected, what), getattr(actual, what)) or f"{what} differs (whitespace only?)"
        for what in ("trace", "stderr", "stdout")
        if getattr(expected, what) != getattr(actual, what)
    ]
    if expected.returncode != actual.returncode:
        problems.append(f"exit status: strace {expected.returncode}, pytrace {actual.returncode}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# Bad -y/-Y sets and combinations: strace's message and exit status, before anything is traced.
BAD_OPTIONS = [
    ("--decode-fds=foo",),
    ("--decode-fds=",),
    ("--decode-fds=!",),
    ("--decode-fds=path,all",),
    ("--decode-fds=none,path",),
    ("--decode-fds=eventfd",),
    ("-y", "--decode-fds=path"),
    ("--decode-fds", "-y"),
    ("-e", "decode-fds=dev", "-yy"),
    ("--decode-pids=foo",),
    ("--decode-pids",),  # takes "true" as its (bad) value, as strace's required argument does
]


@pytest.mark.differential
@pytest.mark.parametrize("options", BAD_OPTIONS, ids=" ".join)
def test_bad_sets_like_strace(options: tuple[str, ...], tmp_path: Path) -> None:
    runs = {}
    for tracer in ("strace", "pytrace"):
        r = run_tracer(tracer, list(options), ["true"], cwd=tmp_path)
        runs[tracer] = (normalise(decode(r.stderr)), r.returncode)
    assert runs["pytrace"] == runs["strace"]


def test_fd_and_pid_results_are_printed_as_such() -> None:
    """Every syscall strace gives RVAL_FD / RVAL_TID|TGID prints its result through rv_fd / rv_pid.

    A decoder added without ``rval=rv_fd`` would silently print a bare number
    under -y; this names it.
    """
    from pytrace.decode import DECODERS
    from pytrace.decode.registry import rv_fd, rv_pid

    assert sorted(n for n in rval_kinds("fd") if DECODERS[n].rval is not rv_fd) == []
    assert sorted(n for n in rval_kinds("pid") if DECODERS[n].rval is not rv_pid) == []
