"""A failing trace output never harms the tracee; a blocked call is in the output while it blocks.

Every case runs real strace 6.1 (ltrace 0.7.3 for pyltrace) the same way and compares what the user
sees: the tracer's messages (one ``strace: FILE: <strerror>`` per trace line it could not write,
nothing for its own stderr), its exit status and the traced program's own output.

The outputs are broken deterministically: ``/dev/full`` (ENOSPC from the first write), a
pseudo-terminal whose master is closed while the tracee waits (EIO), a pipe whose reader goes away
while the tracee waits (EPIPE, and SIGPIPE), a 4 KiB tmpfs filled up in a private mount namespace
(ENOSPC for ``-ff``'s FILE.PID).  tests/programs/blocked_read.c waits in ``read(0, &c, 1)`` on a
pipe the test holds, so "while it waits" is a state the test observes (the entry half in the
output, the tracee sleeping in pipe_read), never a sleep.
"""

from __future__ import annotations

import difflib
import os
import select
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from helpers import RUN_TIMEOUT, decode, normalise, tracer_command, tracer_env, tracer_name, wait_until

ENTRY = b"read(0, "  # blocked_read's entry half, the last thing shown while it waits
SLEEP_ENTRY = b"clock_nanosleep(CLOCK_REALTIME, 0, {tv_sec=30, tv_nsec=0}, "
WAIT = 20.0  # upper bound for one awaited state; reaching it is a failure, never the verdict


def command(tracer: str) -> list[str]:
    if tracer == "pyltrace":
        return [sys.executable, "-m", "pytrace.cli.ltrace_cli"]
    if tracer == "ltrace":
        return ["ltrace"]
    return tracer_command(tracer)


def message_prefix(tracer: str) -> str:
    return f"{tracer_name(tracer)}: " if tracer in ("strace", "pytrace") else f"{tracer}: "


def tracee_pid(tracer: subprocess.Popen[bytes], comm: str) -> int | None:
    """The traced program (a child of the tracer, by its command name), once it has exec'd."""
    try:
        children = Path(f"/proc/{tracer.pid}/task/{tracer.pid}/children").read_text().split()
    except OSError:
        return None
    for child in children:
        try:
            if Path(f"/proc/{child}/comm").read_text().strip() == comm:
                return int(child)
        except OSError:
            continue
    return None


def sleeping_in(pid: int, where: str) -> bool:
    """Whether ``pid`` sleeps in a kernel function named like ``where`` (pipe_read: anon_pipe_read too)."""
    try:
        return where in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


class Collector:
    """Reads a pipe (the tracer's stderr or stdout) as data comes, without blocking the test."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = b""
        os.set_blocking(fd, False)

    def poll(self) -> bytes:
        while select.select([self.fd], [], [], 0)[0]:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            self.data += chunk
        return self.data

    def until_closed(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not select.select([self.fd], [], [], 0.1)[0]:
                continue
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return self.data
            self.data += chunk
        raise AssertionError(f"output still open after {timeout} s")


@dataclass
class Outcome:
    """What a run shows: the tracer's messages, its exit status, the tracee's own output."""

    messages: list[str]
    status: int
    tracee_output: str
    notes: list[str] = field(default_factory=list)


def outcome_diff(want: Outcome, got: Outcome, what: tuple[str, str]) -> list[str]:
    problems = []
    if want.messages != got.messages:
        problems.append("".join(difflib.unified_diff(
            [m + "\n" for m in want.messages], [m + "\n" for m in got.messages],
            fromfile=f"{what[0]} messages", tofile=f"{what[1]} messages")))
    if want.status != got.status:
        problems.append(f"exit status: {what[0]} {want.status}, {what[1]} {got.status}")
    if want.tracee_output != got.tracee_output:
        problems.append(f"tracee output: {what[0]} {want.tracee_output!r}, {what[1]} {got.tracee_output!r}")
    return problems


def messages(stderr: bytes, tracer: str, names: dict[str, str]) -> list[str]:
    """The tracer's stderr lines, its name and the run's own file names replaced by placeholders."""
    text = decode(stderr).replace(message_prefix(tracer), "TRACER: ")
    for real, placeholder in names.items():
        text = text.replace(real, placeholder)
    return text.splitlines()


# ---------------------------------------------------------------------------------------------
# Broken outputs
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """``break_by``: how the output fails.

    full: it is /dev/full (or stderr is) from the start; the tracee's byte is already there.
    tmpfs: -ff files on a full 4 KiB tmpfs (a private mount namespace around the tracer).
    pty: the output is a pseudo-terminal whose master the test closes once the tracee waits.
    pipe: the output is a pipe (stdout or stderr) whose reader the test closes once the tracee waits.
    """

    id: str
    options: tuple[str, ...]
    break_by: str
    stderr_is_output: bool = False
    program: str = "blocked_read"
    compare_tracee: bool = True
    reported: bool = True  # strace says something (not for its own stderr, nor for the -c table)


CASES = [
    Case("o-full", ("-o", "/dev/full"), "full"),
    Case("f-o-full", ("-f", "-e", "trace=waitid,exit_group", "-o", "/dev/full"), "full", program="blocking"),
    Case("c-o-full", ("-c", "-o", "/dev/full"), "full", reported=False),
    Case("C-o-full", ("-C", "-o", "/dev/full"), "full"),
    Case("stderr-full", (), "full", stderr_is_output=True, reported=False),
    Case("ff-full-tmpfs", ("-ff", "-o", "{dir}/trace"), "tmpfs"),
    Case("o-hung-up-pty", ("-o", "{pty}"), "pty"),
    Case("stderr-hung-up-pty", (), "pty", stderr_is_output=True, reported=False),
    Case("o-closed-pipe", ("-o", "/dev/stdout"), "pipe"),
    # strace dies of the SIGPIPE (after sending it to the program it started, which may or may not
    # have written its output by then): only the status is compared.
    Case("stderr-closed-pipe", (), "pipe", stderr_is_output=True, compare_tracee=False, reported=False),
]

LTRACE_CASES = [  # ltrace checks none of its writes
    Case("lt-o-full", ("-o", "/dev/full"), "full", reported=False),
    Case("lt-o-hung-up-pty", ("-o", "{pty}"), "pty", reported=False),
    Case("lt-o-closed-pipe", ("-o", "/dev/stdout"), "pipe", compare_tracee=False, reported=False),
]

FULL_TMPFS = (
    "unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
    'mount -t tmpfs -o size=4k tmpfs "$0" && { head -c 8192 /dev/zero >"$0/fill"; } 2>/dev/null;'
    ' exec "$@"',
)


def run_broken(tracer: str, c: Case, programs: dict[str, Path], tmp: Path) -> Outcome:
    """Run ``tracer`` on the case's program with its output broken as the case says."""
    tmp.mkdir(parents=True)
    got = tmp / "got"
    names = {str(tmp): "TMP"}
    options = [o.replace("{dir}", str(tmp / "mnt")) for o in c.options]
    isolate: list[str] = []
    if c.break_by == "tmpfs":
        (tmp / "mnt").mkdir()
        isolate = [*FULL_TMPFS, str(tmp / "mnt")]
    cmd = [str(programs["blocked_read"]), str(got)] if c.program == "blocked_read" else [
        str(programs["blocking"]), "wait"]
    r, w = os.pipe()
    master = slave = -1
    stdout: int | None = subprocess.DEVNULL
    stderr: int | None = subprocess.PIPE
    if c.break_by in ("full", "tmpfs"):
        os.write(w, b"x")
        if c.stderr_is_output:
            stderr = os.open("/dev/full", os.O_WRONLY)
    if c.break_by == "pty":
        master, slave = os.openpty()
        names[os.ttyname(slave)] = "PTY"
        options = [o.replace("{pty}", os.ttyname(slave)) for o in options]
        if c.stderr_is_output:
            stderr = slave
    if c.break_by == "pipe" and not c.stderr_is_output:
        stdout = subprocess.PIPE
    proc = subprocess.Popen([*isolate, *command(tracer), *options, *cmd], stdin=r, stdout=stdout, stderr=stderr,
                            env=tracer_env())
    os.close(r)
    if isinstance(stderr, int) and stderr >= 0:
        os.close(stderr)  # the tracer has it now (the pty's slave: our copy is not needed either)
        slave = -1 if stderr == slave else slave
    # With -o PTY our slave stays open until the break: a pty with no slave open at all reads as EIO.
    err = Collector(proc.stderr.fileno()) if proc.stderr is not None else None
    try:
        if c.break_by in ("pty", "pipe"):
            if c.break_by == "pty":
                shown = Collector(master)
            else:
                assert (proc.stdout or proc.stderr) is not None
                shown = Collector(proc.stdout.fileno()) if proc.stdout is not None else err  # type: ignore[assignment]
            # strace and pytrace show the entry half while the call waits; ltrace keeps it buffered,
            # so for it the tracee sleeping in pipe_read is the sign.  The output is read meanwhile:
            # a full pipe or terminal would stop the tracer before the tracee gets there.
            def waiting() -> bool:
                data = shown.poll()
                pid = tracee_pid(proc, "blocked_read")
                return (pid is not None and sleeping_in(pid, "pipe_read")
                        and (tracer not in ("strace", "pytrace") or data.endswith(ENTRY)))

            assert wait_until(waiting, WAIT), f"{tracer}: never seen waiting: {shown.poll()[-200:]!r}"
            if c.break_by == "pty":
                os.close(master)
                master = -1
                if slave >= 0:
                    os.close(slave)
                    slave = -1
            elif proc.stdout is not None:
                proc.stdout.close()
            else:
                assert proc.stderr is not None
                proc.stderr.close()
                err = None
            os.write(w, b"x")
        os.close(w)
        w = -1
        stderr_data = err.until_closed(RUN_TIMEOUT) if err is not None else b""
        status = proc.wait(timeout=RUN_TIMEOUT)
    finally:
        for fd in (w, master, slave):
            if fd >= 0:
                os.close(fd)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    output = got.read_text() if got.exists() else ""
    if c.program == "blocking":
        output = ""  # it writes nothing of its own
    msgs = messages(stderr_data, tracer, names)
    return Outcome(msgs, 128 - status if status < 0 else status, output if c.compare_tracee else "")


def _renumber_pid_files(lines: list[str]) -> list[str]:
    """FILE.PID names in -ff messages: the pids differ between runs, the file they name does not."""
    import re

    seen: dict[str, str] = {}
    return [re.sub(r"(TMP/mnt/trace)\.(\d+)", lambda m: f"{m[1]}.PID{seen.setdefault(m[2], str(len(seen) + 1))}", line)
            for line in lines]


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_broken_output_as_strace(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """strace's messages, exit status and tracee output, with no traceback, when the output fails."""
    want = run_broken("strace", c, programs, tmp_path / "strace")
    got = run_broken("pytrace", c, programs, tmp_path / "pytrace")
    want.messages, got.messages = _renumber_pid_files(want.messages), _renumber_pid_files(got.messages)
    assert not any("Traceback" in m for m in got.messages), "\n".join(got.messages)
    problems = outcome_diff(want, got, ("strace", "pytrace"))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
    assert bool(want.messages) == c.reported, want.messages  # the case broke what it meant to break


@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in LTRACE_CASES])
def test_broken_output_as_ltrace(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pyltrace: ltrace's (lack of) messages and its exit status when the output fails.

    ltrace 0.7.3 exits 0 where pyltrace passes the program's status on (a documented difference), so
    each tool's status is compared with its own status on a working output.
    """
    results = {}
    for tool in ("ltrace", "pyltrace"):
        broken = run_broken(tool, c, programs, tmp_path / tool)
        working = run_broken(tool, Case("ok", ("-o", str(tmp_path / f"{tool}.ok")), "full"), programs,
                             tmp_path / f"{tool}-ok")
        if c.break_by != "pipe":  # a dead reader: both die of SIGPIPE, as the status itself shows
            broken.status = int(broken.status == working.status)
        results[tool] = broken
    assert not any("Traceback" in m for m in results["pyltrace"].messages)
    problems = outcome_diff(results["ltrace"], results["pyltrace"], ("ltrace", "pyltrace"))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_json_output_errors(programs: dict[str, Path], tmp_path: Path) -> None:
    """--json (pytrace's own format) fails as the text does: one message per record lost, tracee intact."""
    ok = run_broken("pytrace", Case("ok", ("--json", "-o", str(tmp_path / "ok.jsonl")), "full"), programs,
                    tmp_path / "ok")
    records = (tmp_path / "ok.jsonl").read_text().count("\n")
    full = run_broken("pytrace", Case("full", ("--json", "-o", "/dev/full"), "full"), programs, tmp_path / "full")
    assert ok.messages == [] and records > 10
    assert full.messages == ["TRACER: /dev/full: No space left on device"] * records
    assert (full.status, full.tracee_output) == (3, "got x\n") == (ok.status, ok.tracee_output)


# ---------------------------------------------------------------------------------------------
# A blocked call is shown while it blocks
# ---------------------------------------------------------------------------------------------


def trace_while_blocked(tracer: str, output: str, program: str, programs: dict[str, Path], tmp: Path) -> str:
    """The trace as it stands while the program waits; then the tracer is SIGKILLed and the file must
    still hold all of it, and the program, released, must still finish on its own."""
    tmp.mkdir(parents=True)
    got = tmp / "got"
    options = {"file": ["-o", str(tmp / "trace")], "ff": ["-ff", "-o", str(tmp / "trace")], "stderr": []}[output]
    if program == "sleep":
        cmd, comm, entry, wchan = ["sleep", "30"], "sleep", SLEEP_ENTRY, "hrtimer_nanosleep"
    else:
        cmd, comm, entry, wchan = [str(programs["blocked_read"]), str(got)], "blocked_read", ENTRY, "pipe_read"
    r, w = os.pipe()
    proc = subprocess.Popen([*command(tracer), *options, *cmd], stdin=r, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, env=tracer_env())
    os.close(r)
    assert proc.stderr is not None
    err = Collector(proc.stderr.fileno())
    tracee = None
    try:
        def shown() -> bytes:
            if output == "stderr":
                return err.poll()
            files = sorted(tmp.glob("trace*"))
            return files[0].read_bytes() if len(files) == 1 else b""

        assert wait_until(lambda: shown().endswith(entry), WAIT), f"{tracer}: not shown while blocked: {shown()[-300:]!r}"
        tracee = tracee_pid(proc, comm)
        assert tracee is not None and wait_until(lambda: sleeping_in(tracee, wchan), WAIT)
        seen = shown()
        proc.kill()  # SIGKILL: nothing that was shown may be lost
        proc.wait(timeout=RUN_TIMEOUT)
        if output != "stderr":
            assert shown() == seen, f"{tracer}: the file changed when the tracer was killed"
        if program == "sleep":
            os.kill(tracee, signal.SIGKILL)
        else:
            try:
                os.write(w, b"x")
            except BrokenPipeError:
                pytest.fail(f"{tracer}: the program died with its tracer")
            assert wait_until(lambda: got.exists() and got.read_text() == "got x\n", WAIT), (
                f"{tracer}: the program did not finish after its tracer was killed")
    finally:
        os.close(w)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if tracee is not None and program == "sleep":
            try:
                os.kill(tracee, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return normalise(decode(seen))


@pytest.mark.differential
@pytest.mark.parametrize(("output", "program"), [
    ("file", "blocked_read"), ("file", "sleep"), ("ff", "blocked_read"), ("stderr", "blocked_read"),
])
def test_blocked_call_shown_while_it_blocks(output: str, program: str, programs: dict[str, Path],
                                            tmp_path: Path) -> None:
    """-o FILE, -ff and stderr hold the entry half of a blocked call, exactly strace's text at that point."""
    want = trace_while_blocked("strace", output, program, programs, tmp_path / "strace")
    got = trace_while_blocked("pytrace", output, program, programs, tmp_path / "pytrace")
    if want != got:
        pytest.fail("".join(difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                                 fromfile="strace", tofile="pytrace")), pytrace=False)
