"""-e inject= / -e fault=, -D/--daemonize and -b execve against real strace.

Injection must change what the tracee sees, not only what the tracer
prints, so every case runs tests/programs/tamper.c (which prints each call's
return value and errno) under strace and under pytrace with the same options
and compares, after ``helpers.normalise``: the trace, the tracer's stderr,
the program's stdout and the exit status.  A few cases also name the effect
the program must report, so a case cannot pass by both tracers doing nothing.
Delays are exercised but never timed.

-D leaves the tracer running on its own after the command ends, so those
cases run under a small "caller" that is a child subreaper: it collects the
command's status (the command must be its direct child), then waits for the
orphaned tracer and reports whether that one ran in the caller's process
group and session, which is what -D, -DD and -DDD differ in.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    RUN_TIMEOUT,
    decode,
    group_by_process,
    normalise,
    run_tracer,
    tracer_command,
    tracer_env,
)

# The calls tamper.c makes on purpose; the dynamic loader makes none of them, so when= counts only these.
TRACE = "-e trace=chdir,getuid,umask,fchdir"


@dataclass(frozen=True)
class Case:
    id: str
    options: tuple[str, ...]
    command: tuple[str, ...] = ("{tamper}",)
    #: "file" (-o FILE), "stderr" (the trace shares stderr with the tracer's messages), "ff" (-ff -o).
    output: str = "file"
    multi: bool = False
    #: Lines the traced program must print (the injection really happened), checked on both sides.
    effects: tuple[str, ...] = ()
    #: Run under the subreaper caller (-D).
    daemon: bool = False


def case(case_id: str, options: str, *command: str, **kw: Any) -> Case:
    return Case(case_id, tuple(options.split()), command or ("{tamper}",), **kw)


CASES = [
    # ---- error= / retval= / fault= and when= ------------------------------------------------------
    case("error-when-range", f"{TRACE} -e inject=chdir:error=EPERM:when=2..3",
         effects=("parent chdir = -1 EPERM",)),
    case("retval-when-plus", f"{TRACE} -e inject=getuid:retval=42:when=2+", effects=("parent getuid = 42",)),
    case("fault-default-enosys", f"{TRACE} -e fault=umask", effects=("parent umask = -1 ENOSYS",)),
    case("fault-error-step", f"{TRACE} -e fault=chdir:error=EACCES:when=1..4+2",
         effects=("parent chdir = -1 EACCES",)),
    case("error-number-unnamed", f"{TRACE} -e inject=fchdir:error=600", effects=("parent fchdir = -1 (null)",)),
    case("error-erestartsys", f"{TRACE} -e inject=chdir:error=ERESTARTSYS:when=1"),
    case("retval-octal-umask", f"{TRACE} -e inject=umask:retval=0777", effects=("parent umask = 511",)),
    case("retval-zero-on-failing-call", f"{TRACE} -e inject=fchdir:retval=0", effects=("parent fchdir = 0",)),
    case("inject-later-overrides", f"{TRACE} -e inject=chdir,getuid:error=EPERM -e inject=getuid:retval=3",
         effects=("parent getuid = 3", "parent chdir = -1 EPERM")),
    case("inject-class-negated", "-e trace=getuid,umask -e inject=!chdir,fchdir:error=EIO:when=2",
         effects=("parent getuid = -1 EIO",)),
    case("inject-untraced-call-untouched", "-e trace=getuid -e inject=chdir:error=EPERM",
         effects=("parent chdir = 0",)),
    # ---- syscall= substitution (and strace 6.1's sticky "no fail" flag that follows it) -------------
    case("syscall-substitute", f"{TRACE} -e inject=chdir:retval=7:syscall=getuid:when=1",
         effects=("parent chdir = 7",)),
    case("syscall-then-error-fails-like-strace", f"{TRACE} -e inject=chdir:retval=7:syscall=getuid:when=1 "
         "-e inject=umask:error=EPERM", output="stderr", effects=("parent umask = -1 ENOSYS",)),
    # ---- signal= -------------------------------------------------------------------------------------
    case("signal-only", f"{TRACE} -e inject=chdir:signal=USR1:when=2", effects=("parent got USR1",)),
    case("signal-with-error", f"{TRACE} -e inject=getuid:error=EACCES:signal=SIGUSR2:when=3",
         effects=("parent got USR2", "parent getuid = -1 EACCES")),
    case("signal-kill", f"{TRACE} -e inject=getuid:signal=KILL:when=2"),
    # ---- delay_enter= / delay_exit= (never timed) ------------------------------------------------------
    case("delay-enter-exit", f"{TRACE} -e inject=getuid:delay_enter=1000:delay_exit=2ms:when=2"),
    case("delay-with-error", f"{TRACE} -e inject=chdir:error=EPERM:delay_enter=1ms:when=2",
         effects=("parent chdir = -1 EPERM",)),
    case("delay-enter-drops-signal", f"{TRACE} -e inject=chdir:signal=USR1:delay_enter=1000:when=2"),
    case("delay-exit-keeps-signal", f"{TRACE} -e inject=chdir:signal=USR1:delay_exit=1000:when=2",
         effects=("parent got USR1",)),
    # ---- poke_enter= / poke_exit= ------------------------------------------------------------------------
    case("poke-enter", f"{TRACE} -e inject=chdir:poke_enter=@arg1=2f00:when=5", effects=("parent / = 0",)),
    case("poke-enter-and-retval", f"{TRACE} -e inject=chdir:poke_enter=@arg1=2f2f00:retval=9:when=5",
         effects=("parent // = 9",)),
    case("poke-bad-pointer-and-argno", f"{TRACE} -e inject=fchdir:poke_exit=@arg1=00:retval=0 "
         "-e inject=getuid:poke_enter=@arg2=00:when=1", output="stderr"),
    # ---- several processes: when= counts per thread, as strace's per-tcb copies do ----------------
    case("f-when-per-process", f"-f {TRACE} -e inject=chdir:error=ENOENT:when=2", "{tamper}", "fork",
         multi=True, effects=("child chdir = -1 ENOENT", "parent chdir = -1 ENOENT")),
    case("f-delay-and-retval", f"-f {TRACE} -e inject=chdir:delay_enter=20ms:when=1 "
         "-e inject=getuid:delay_exit=10000:retval=5:when=2..3", "{tamper}", "fork", multi=True,
         effects=("child getuid = 5", "parent getuid = 5")),
    case("ff-signal", f"-ff {TRACE} -e inject=umask:signal=USR2", "{tamper}", "fork", output="ff",
         effects=("child got USR2", "parent got USR2")),
    case("stderr-f-fault", "-f -e trace=umask -e fault=umask:error=EBADF", "{tamper}", "fork",
         output="stderr", effects=("child umask = -1 EBADF",)),
    # ---- -b execve ------------------------------------------------------------------------------------------
    case("b-execve-sh-exec", "-b execve -e trace=execve", "sh", "-c", "exec /bin/true", output="stderr"),
    case("b-execve-status-is-strace-s", "-b execve -e trace=execve", "sh", "-c", "exec sh -c 'exit 3'"),
    case("b-execve-f-child", "-f -b execve -e trace=execve", "{tamper}", "exec", output="stderr"),
    case("b-execve-first-exec-kept", "-b execve -e trace=execve,chdir", "{tamper}"),
    # ---- -D / --daemonize ---------------------------------------------------------------------------------
    case("D", f"-D {TRACE}", output="stderr", daemon=True),
    case("DD-inject", f"-DD {TRACE} -e inject=chdir:error=EPERM:when=2", output="stderr", daemon=True,
         effects=("parent chdir = -1 EPERM",)),
    case("DDD-f", f"-DDD -f {TRACE}", "{tamper}", "fork", output="stderr", daemon=True),
    case("daemonize-pgroup-file", f"--daemonize=pgroup {TRACE}", daemon=True),
    case("daemonize-session-q", f"--daemonize=session -q {TRACE}", output="stderr", daemon=True),
    case("D-b-execve", "-D -b execve -e trace=execve", "sh", "-c", "exec /bin/true", output="stderr",
         daemon=True),
]

# The caller of a -D run: a child subreaper, so the tracer, orphaned by -D on purpose, is reaped here
# once it is done (its output complete) and its process group and session can be checked.
_CALLER = r"""
import ctypes, os, subprocess, sys
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
child = subprocess.Popen(sys.argv[1:])
status = child.wait()
facts = []
while True:
    try:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOWAIT)
    except ChildProcessError:
        break
    fields = open(f"/proc/{info.si_pid}/stat").read().rsplit(")", 1)[1].split()
    pgrp, sid = int(fields[2]), int(fields[3])
    where = lambda own, mine: "own" if own == info.si_pid else "caller's" if own == mine else "other"
    facts.append(f"{where(pgrp, os.getpgrp())} process group, {where(sid, os.getsid(0))} session")
    os.waitpid(info.si_pid, 0)
sys.stderr.write(f"caller: command pid {child.pid} exited {status}; tracer: {'; '.join(facts) or 'none'}\n")
"""


@dataclass
class Run:
    trace: str
    stderr: str
    stdout: str
    returncode: int


def _normalise_messages(text: str) -> str:
    """Tracer messages can land mid-line on stderr; their prefix and the pid they name are run-specific."""
    text = re.sub(r"(?:strace|pytrace): ", "TRACER: ", text)
    text = re.sub(r"^Try '(?:strace|pytrace) -h'", "Try 'TRACER -h'", text, flags=re.M)
    return re.sub(r"(Failed to tamper with process )\d+", r"\1PID", text)


def _run(tracer: str, c: Case, programs: dict[str, Path], tmp_path: Path) -> Run:
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    out = tmp_path / f"out-{tracer}"
    out.mkdir()
    values = {name: str(path) for name, path in programs.items()}
    command = [item.format(**values) for item in c.command]
    options = list(c.options)
    if c.output in ("file", "ff"):
        options += ["-o", str(out / "trace")]
    try:
        if c.daemon:
            result = subprocess.run(
                [sys.executable, "-c", _CALLER, *tracer_command(tracer), *options, *command],
                stdin=subprocess.DEVNULL, capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT,
                cwd=work, check=False,
            )
        else:
            result = run_tracer(tracer, options, command, cwd=work)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out after {exc.timeout} s: {exc.cmd}")
    stderr = decode(result.stderr)
    if c.daemon:
        m = re.search(r"caller: command pid (\d+) exited", stderr)
        assert m, f"{tracer}: the caller did not report:\n{stderr}"
        if "-q" not in c.options and c.output == "stderr":
            # The tracer attached to the caller's own child: the command was not started under the tracer.
            assert f"Process {m[1]} attached" in stderr, f"{tracer} did not attach to the caller's child:\n{stderr}"
        stderr = stderr.replace(f"command pid {m[1]} ", "command pid CHILD ")
    if c.output == "file":
        path = out / "trace"
        trace = decode(path.read_bytes()) if path.exists() else f"<{tracer} wrote no trace file>\n"
        if c.multi:
            trace = group_by_process(trace)
    elif c.output == "ff":
        trace = "".join(
            f"### {p.name.split('.')[0]}\n" + decode(p.read_bytes())
            for p in sorted(out.glob("trace.*"), key=lambda p: _first_line(p))
        )
    else:
        trace, stderr = stderr, ""
    stdout = decode(result.stdout)
    for effect in c.effects:
        assert effect in stdout.splitlines(), f"under {tracer} the program did not report {effect!r}:\n{stdout}"
    # Lines of several processes on one stream get split by scheduling: alignment is checked per process only.
    align = None if c.multi or (c.output == "stderr" and "-f" in c.options) else 40
    return Run(
        normalise(_normalise_messages(trace), align), normalise(_normalise_messages(stderr)), stdout,
        result.returncode,
    )


def _first_line(path: Path) -> str:
    """-ff files in a run-independent order: the child's file starts with its first call, the parent's with execve."""
    return decode(path.read_bytes()).split("\n", 1)[0]


def _diff(what: str, expected: str, actual: str) -> str:
    return "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        fromfile=f"strace {what} (normalised)", tofile=f"pytrace {what} (normalised)",
    ))


@pytest.mark.differential
@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_tamper_vs_strace(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """The trace, stderr, the program's stdout and the exit status equal strace's after normalisation."""
    expected = _run("strace", c, programs, tmp_path)
    actual = _run("pytrace", c, programs, tmp_path)
    problems = []
    for what in ("trace", "stderr", "stdout"):
        want, got = getattr(expected, what), getattr(actual, what)
        if want != got:
            problems.append(_diff(what, want, got) or f"{what} differs (whitespace only?)")
    if expected.returncode != actual.returncode:
        problems.append(f"exit status: strace {expected.returncode}, pytrace {actual.returncode}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# ---- the command line: strace's wording for every bad expression, and its warnings for good ones --------

SPECS = [
    "inject=chdir", "fault=chdir", "inject=chdir:error=EPERM:when=0", "inject=chdir:error=EFOO",
    "inject=chdir:error=eperm", "inject=chdir:error=4095", "inject=chdir:error=4096", "inject=chdir:error=0",
    "inject=chdir:signal=FOO", "inject=chdir:signal=usr1", "inject=chdir:signal=65", "inject=chdir:signal=rtmin",
    "inject=chdir:syscall=chdir:error=EPERM", "inject=chdir:syscall=getpid", "inject=chdir:syscall=getpid:error=1",
    "inject=chdir:syscall=getuid32:error=1", "inject=:error=EPERM", "inject=foo:error=EPERM",
    "inject=chdir:delay_enter=1x", "inject=chdir:delay_enter=1.5ms", "inject=chdir:delay_enter=-1",
    "inject=chdir:delay_exit=10S", "fault=chdir:retval=1", "fault=chdir:signal=1", "fault=chdir:delay_enter=1",
    "fault=chdir:syscall=getpid", "inject=chdir:when=3..2:error=EPERM", "inject=chdir:when=2..65535:error=1",
    "inject=chdir:when=65536:error=1", "inject=chdir:when=1+0:error=1", "inject=chdir:when=1.2:error=1",
    "inject=chdir:when=1..:error=1", "inject=chdir:when=2..+3:error=1", "inject=chdir:when= 2:error=1",
    "inject=chdir:retval=-1", "inject=chdir:retval=4294967295", "inject=chdir:retval=0x100000000",
    "inject=chdir:retval=99999999999999999999", "inject=chdir:retval=", "inject=chdir:retval=1x",
    "inject=chdir:error=1:retval=2", "inject=chdir:signal=9:signal=1", "inject=chdir:delay_enter=1:delay_enter=2",
    "inject=chdir:poke_enter=@arg1=2f00,@arg1=00", "inject=chdir:poke_enter=@arg8=00",
    "inject=chdir:poke_enter=@arg1=0", "inject=chdir:poke_enter=", "inject=chdir:poke_enter=@arg1=zz",
    "inject=chdir:foo=1", "inject=chdir:error", "inject=chdir::error=1:", "inject=%file:error=1",
]


@pytest.mark.differential
@pytest.mark.parametrize("spec", SPECS)
def test_inject_parsing_vs_strace(spec: str) -> None:
    """Accepted or refused exactly as strace 6.1 does, with its message, warnings and exit status."""
    runs = []
    for tracer in ("strace", "pytrace"):
        result = run_tracer(tracer, ["-e", "trace=none", "-e", spec], ["true"])
        runs.append((normalise(_normalise_messages(decode(result.stderr))), result.returncode))
    assert runs[1] == runs[0]


OPTION_ERRORS = [
    ["-DDDD", "true"], ["--daemonize=process-group", "true"], ["--daemonize=", "true"],
    ["-D", "--daemonize=session", "true"], ["-D", "-p", "1"], ["--daemonize=SESSION", "-e", "trace=none", "true"],
    ["-b", "exec", "true"], ["--detach-on=execveat", "true"],
]


@pytest.mark.differential
@pytest.mark.parametrize("args", OPTION_ERRORS, ids=[" ".join(a) for a in OPTION_ERRORS])
def test_daemonize_options_vs_strace(args: list[str], tmp_path: Path) -> None:
    """-D/--daemonize/-b values and combinations: strace's messages and exit status."""
    runs = []
    for tracer in ("strace", "pytrace"):
        result = subprocess.run(
            [sys.executable, "-c", _CALLER, *tracer_command(tracer), *args], stdin=subprocess.DEVNULL,
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, cwd=tmp_path, check=False,
        )
        text = re.sub(r"command pid \d+", "command pid CHILD", decode(result.stderr))
        runs.append((normalise(_normalise_messages(text)), result.returncode))
    assert runs[1] == runs[0]
