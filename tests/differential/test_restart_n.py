"""-n around interrupted and restarted syscalls, and restart_syscall's name, against strace 6.1.

strace keeps two things per thread that pytrace must keep the same way:

* the number -n prints on signal and exit lines is the thread's *current*
  syscall number (``tcp->scno``), i.e. the last syscall entered, traced or not:
  after the kernel restarts an interrupted nanosleep it is restart_syscall's
  (219 on x86_64), not the sleep's;
* restart_syscall's ``<... resuming interrupted NAME ...>`` names the last
  *traced* call the thread returned from (``s_prev_ent``): "system call" when
  there is none, "restart_syscall" when a restart is itself restarted, the
  previous traced call when the interrupted one is not traced.

tests/programs/restarts.c makes the signals with POSIX timers, so the line
order does not depend on another process being scheduled.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential


def _trace(tracer: str, options: list[str], cmd: list[str], tmp_path: Path) -> tuple[str, int]:
    out = tmp_path / f"{tracer}.trace"
    proc = run_tracer(tracer, [*options, "-o", str(out)], cmd, cwd=tmp_path)
    return normalise(decode(out.read_bytes())), proc.returncode


def _compare(options: list[str], cmd: list[str], tmp_path: Path) -> str:
    expected = _trace("strace", options, cmd, tmp_path)
    actual = _trace("pytrace", options, cmd, tmp_path)
    assert actual == expected
    return actual[0]


@pytest.mark.parametrize(
    "options",
    [
        ["-n"],
        ["-n", "-e", "trace=restart_syscall,getppid"],  # the sleep untraced: named after getppid
        ["-n", "-e", "trace=restart_syscall"],  # nothing traced before: "system call"
        ["-n", "-z"],  # an unpublished call still counts as the last traced one
        ["-n", "-e", "trace=clock_nanosleep,getppid"],
    ],
    ids=["all", "getppid", "restart-only", "successful", "no-restart"],
)
def test_restart_syscall_numbers_and_names(options: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """nanosleep restarted twice (SIGWINCH, ignored): signal lines after a restart carry restart_syscall's number."""
    text = _compare(options, [str(programs["restarts"]), "sleep"], tmp_path)
    assert text.count("--- SIGWINCH") == 2
    if "trace=restart_syscall,getppid" in options:
        assert "[ 219] restart_syscall(<... resuming interrupted getppid ...>)" in text
        assert "[ 219] --- SIGWINCH" in text
    if "trace=restart_syscall" in options:
        assert "[ 219] restart_syscall(<... resuming interrupted system call ...>)" in text
    if options == ["-n"]:
        assert "[ 219] restart_syscall(<... resuming interrupted clock_nanosleep ...>)" in text
        assert "[ 219] restart_syscall(<... resuming interrupted restart_syscall ...>) = 0" in text


@pytest.mark.parametrize("options", [["-n"], ["-n", "-e", "trace=read,write"], ["-n", "-Z"]], ids=["all", "io", "failed"])
def test_sa_restart_read(options: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """A read restarted by the kernel after SA_RESTART handlers (same number, no restart_syscall)."""
    text = _compare(options, [str(programs["restarts"]), "read"], tmp_path)
    assert "--- SIGUSR1 {si_signo=SIGUSR1, si_code=SI_TIMER, si_timerid=0, si_overrun=0, si_int=0, si_ptr=NULL}" in text
