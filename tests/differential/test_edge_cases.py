"""Edge cases of process/signal handling and option combinations, each compared with real strace 6.1.

Every case here once differed from strace: a non-leader thread's execve
(``+++ superseded by execve in pid TID +++``, ``<pid changed to PID ...>``),
the quiet categories of -q/-qq/-qqq and --quiet=, ``+++ killed by`` under
-e signal=, SIGSYS's siginfo, -ff never creating the bare FILE, strace's
"umoven: short read" warning and the one byte it reads past -s, print_array's
abbreviation of arrays with -s 0 / -s 1, and the restart_syscall of a process
attached with -p.  The programs are tests/programs/edge_*.c; the comparison
is test_vs_strace's (trace, stderr, stdout and exit status after
``helpers.normalise``).
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import (
    decode,
    normalise,
    read_line,
    run_tracer,
    start_tracer,
    stop_process,
    tracer_name,
)
from test_vs_strace import Case, _run, case, compare_runs

CASES = [
    # ---- a non-leader thread calls execve ---------------------------------------------------------
    case("mtexec-f", "-f", "{edge_proc}", "mtexec", multi=True),
    case("mtexec-ff", "-ff", "{edge_proc}", "mtexec", output="ff"),
    case("mtexec-f-qq", "-f -qq", "{edge_proc}", "mtexec", multi=True),  # -qq keeps "superseded"
    case("mtexec-f-qqq", "-f -qqq", "{edge_proc}", "mtexec", multi=True),
    case("mtexec-f-quiet-thread-execve", "-f --quiet=thread-execve", "{edge_proc}", "mtexec", multi=True),
    # The leader prints nothing in between: the execve line is still open when the pid changes.
    case("mtexec-f-leader-silent", "-f -e trace=!nanosleep", "{edge_proc}", "mtexec", multi=True),
    case("mtexec-ff-leader-silent", "-ff -e trace=!nanosleep", "{edge_proc}", "mtexec", output="ff"),
    # On stderr: the superseded line has no "[pid N]" once the leader is gone.
    case("mtexec-stderr", "-f -q -e trace=execve", "{edge_proc}", "mtexec", output="stderr"),
    # -z/-Z stage lines: the thread's staged execve entry is lost, its exit reads "<... execve resumed>".
    case("mtexec-f-z", "-f -z", "{edge_proc}", "mtexec", multi=True),
    case("mtexec-ff-z", "-ff -z", "{edge_proc}", "mtexec", output="ff"),
    case("mtexec-ff-Z", "-ff -Z", "{edge_proc}", "mtexec", output="ff"),
    case("mtexec-f-status-unfinished", "-f -e status=successful,unfinished", "{edge_proc}", "mtexec", multi=True),
    # clone3's parent_tid is a thread id (-Y names it), its pidfd a descriptor (-y decodes it).
    case("clone3-parent-tid-Y", "-f -Y -e trace=clone3", "{edge_proc}", "mtexec", multi=True),
    case("clone3-pidfd-y", "-f -y -e trace=clone3,waitid,close", "{edge_proc}", "clone3", multi=True),
    # The leader is not in a call the exec interrupts but exits first (SYS_exit, a zombie until the exec):
    # strace prints "exit(42) = ?" at the leader's PTRACE_EVENT_EXIT and "<pid changed to N ...>" on the
    # execve line; with the leader in readv the readv line ends "= ?" as the exec kills it.  Only
    # execve/exit/readv are traced: the exec'ing thread polls /proc with read(2) a varying number of times.
    case("leader-exit-f", "-f -e trace=execve,exit,readv", "{fault_procs}", "leader-exit", multi=True),
    case("leader-exit-ff", "-ff -e trace=execve,exit,readv", "{fault_procs}", "leader-exit", output="ff"),
    case("leader-exit", "-e trace=execve,exit,readv", "{fault_procs}", "leader-exit"),
    case("leader-readv-f", "-f -e trace=execve,exit,readv", "{fault_procs}", "leader-read", multi=True),
    case("leader-readv-ff", "-ff -e trace=execve,exit,readv", "{fault_procs}", "leader-read", output="ff"),
    case("leader-readv", "-e trace=execve,exit,readv", "{fault_procs}", "leader-read"),
    # ---- other process shapes under -f ------------------------------------------------------------
    case("vfork-f", "-f", "{edge_proc}", "vfork", multi=True),
    case("clone3-pidfd-f", "-f", "{edge_proc}", "clone3", multi=True),
    case("thread-exit-f", "-f", "{edge_proc}", "threxit", multi=True),
    case("exit-group-from-thread-f", "-f", "{edge_proc}", "exitgroup", multi=True),
    # ---- quiet categories (the attach messages go to stderr; one child, so one order) --------------
    case("quiet-exit", "-f --quiet=exit", "{edge_proc}", "vfork", multi=True),
    case("quiet-list", "-f --quiet=attach,exit,personality,thread-execve", "{edge_proc}", "mtexec", multi=True),
    case("quiet-not-attach", "-f --quiet=!attach", "{edge_proc}", "vfork", multi=True),
    case("quiet-none", "-f --quiet=none", "{edge_proc}", "vfork", multi=True),
    case("quiet-bare", "-f --quiet", "{edge_proc}", "vfork", multi=True),
    case("e-quiet", "-f -e quiet=exits,superseded", "{edge_proc}", "mtexec", multi=True),
    # ---- signals ----------------------------------------------------------------------------------
    case("sig-eintr", "", "{edge_sig}", "eintr"),
    case("sig-restart", "", "{edge_sig}", "restart"),
    case("sig-pause", "", "{edge_sig}", "pause"),
    case("sig-nanosleep", "", "{edge_sig}", "nanosleep"),
    case("sig-ignored-restart-syscall", "", "{edge_sig}", "ignored"),
    case("sig-queue-values", "", "{edge_sig}", "sigqueue"),
    case("sig-segv-caught", "", "{edge_sig}", "segv"),
    case("sig-bus-caught", "", "{edge_sig}", "bus"),
    case("sig-stop-cont-f", "-f", "{edge_sig}", "stop", multi=True),
    case("sig-stop-cont-ff", "-ff", "{edge_sig}", "stop", output="ff"),
    case("ptrace-in-tracee", "", "{edge_sig}", "traceme"),
    case("killed-core", "", "{edge_sig}", "core"),
    case("killed-signal-none", "-e signal=none", "{edge_sig}", "core"),
    case("killed-signal-not-segv", "-e signal=!SIGSEGV", "{edge_sig}", "core"),
    case("killed-qq-signal-other", "-qq -e signal=SIGSEGV", "{edge_sig}", "abort"),
    case("seccomp-in-tracee-f", "-f", "{edge_misc}", "seccomp", multi=True),
    case("personality", "", "{edge_misc}", "personality"),
    # ---- data -------------------------------------------------------------------------------------
    case("strings-s0", "-s 0", "{edge_data}", "strings"),
    case("strings-s1-x", "-s 1 -x", "{edge_data}", "strings"),
    case("strings-s4096-xx", "-s 4096 -xx", "{edge_data}", "strings"),
    case("efault", "", "{edge_data}", "efault"),
    case("efault-s4", "-s 4", "{edge_data}", "efault"),
    case("efault-s0", "-s 0", "{edge_data}", "efault"),
    case("arrays-s0", "-s 0", "{edge_data}", "arrays"),
    case("arrays-s1", "-s 1", "{edge_data}", "arrays"),
]


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_edge_case(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's after normalisation."""
    expected = _run("strace", c, programs, tmp_path, 0)
    actual = _run("pytrace", c, programs, tmp_path, 0)
    problems = compare_runs(expected, actual)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# ---- option errors: strace's words and exit status ---------------------------------------------------

ERRORS = [
    ("quiet-bad-token", ["--quiet=bogus"]),
    ("quiet-empty-list", ["-e", "quiet=,"]),
    ("quiet-with-q", ["-q", "--quiet=exit"]),
    ("ff-pipe", ["-ff", "-o", "|cat"]),
    ("ff-missing-dir", ["-ff", "-o", "/nonexistent/dir/trace"]),
    ("s-too-big", ["-s", "1073741824"]),
    ("s-trailing-garbage", ["-s", "5x"]),
    ("s-underscore", ["-s", "1_0"]),
    ("a-over-int-max", ["-a", "2147483648"]),
    ("I-out-of-range", ["-I", "5"]),
]


@pytest.mark.differential
@pytest.mark.parametrize(("options"), [pytest.param(o, id=i) for i, o in ERRORS])
def test_option_error(options: list[str], tmp_path: Path) -> None:
    """The same message (program name aside, pids renumbered) and exit status 1."""
    results = {tracer: run_tracer(tracer, options, ["true"], cwd=tmp_path) for tracer in ("strace", "pytrace")}

    def text(tracer: str) -> str:
        out = normalise(decode(results[tracer].stderr)).replace(f"'{tracer_name(tracer)} -h'", "'TRACER -h'")
        return re.sub(r"(/trace)\.\d+'", r"\1.PID'", out)  # -ff's FILE.PID of the child that was started

    assert text("pytrace") == text("strace")
    assert results["pytrace"].returncode == results["strace"].returncode == 1


@pytest.mark.differential
def test_ff_creates_only_per_process_files(programs: dict[str, Path], tmp_path: Path) -> None:
    """-ff -o STEM writes STEM.PID files only; strace never creates STEM itself."""
    for tracer in ("strace", "pytrace"):
        out = tmp_path / tracer
        out.mkdir()
        result = run_tracer(tracer, ["-ff", "-qq", "-e", "trace=exit_group", "-o", str(out / "t")],
                            [str(programs["edge_proc"]), "threxit"], cwd=tmp_path)
        assert result.returncode == 0, decode(result.stderr)
        names = sorted(p.name for p in out.iterdir())
        assert "t" not in names, f"{tracer} created the bare -o file: {names}"
        assert len(names) == 2 and all(n.startswith("t.") for n in names), names


# ---- -p: threads caught blocked in a syscall ---------------------------------------------------------


def _attach_lines(tracer: str, pid: int, options: list[str], trace: Path) -> tuple[str, list[str]]:
    """Attach, let the tracer settle, detach with SIGINT: (first stderr line, trace lines sans pid prefix)."""
    proc = start_tracer(tracer, [*options, "-o", str(trace), "-p", str(pid)], [])
    try:
        first = decode(read_line(proc.stderr, 10)).rstrip("\n")
        time.sleep(0.5)  # every thread has had its first stop; strace's file is written at detach
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10)
    finally:
        stop_process(proc)
    lines = [re.sub(r"^\d+ +", "", line) for line in trace.read_text().splitlines()]
    return first.replace(f"{tracer_name(tracer)}: ", "TRACER: ").replace(str(pid), "PID"), sorted(lines)


@pytest.mark.differential
@pytest.mark.parametrize("follow", [pytest.param([], id="p"), pytest.param(["-f"], id="f-p")])
def test_attach_blocked(follow: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """-p of threads asleep in nanosleep: each one's restart_syscall names "read", as strace's does.

    (strace takes the name from its syscall-info buffer, which a non-syscall stop
    leaves untouched: 0, read.)  Without -f only the thread given is seized.
    """
    sleepers = subprocess.Popen([str(programs["edge_proc"]), "sleepers"], stdout=subprocess.PIPE,
                                stdin=subprocess.DEVNULL)
    try:
        pid = int(read_line(sleepers.stdout, 10))
        seen = {tracer: _attach_lines(tracer, pid, follow, tmp_path / f"trace-{tracer}")
                for tracer in ("strace", "pytrace")}
    finally:
        stop_process(sleepers)
    threads = " with 4 threads" if follow else ""
    assert seen["strace"][0] == seen["pytrace"][0] == f"TRACER: Process PID attached{threads}"
    if not follow:
        assert seen["pytrace"][1] == seen["strace"][1]
        return
    # With -f strace's name depends on whether it reaped all four first stops before any syscall
    # stop (then "read" for all, as on an idle machine) or not (a busy one: some say
    # "restart_syscall"); pytrace always gives the idle machine's answer.
    assert len(seen["pytrace"][1]) == len(seen["strace"][1]) == 4
    names = {m[1] if (m := re.search(r"resuming interrupted (\w+)", line)) else line for line in seen["pytrace"][1]}
    assert names == {"read"}
