"""Signal dispositions and masks, and strace's -I modes, compared with strace 6.1.

* What the command inherits: strace passes on the signal mask and the ignored
  signals it was started with (``nohup strace -o log cmd`` keeps SIGHUP ignored
  in cmd).  tests/programs/fault_launcher.c sets up a state (-i ignore, -b block)
  and execs the tracer; the command prints SigIgn/SigBlk of /proc/self/status.
  SIGPIPE and SIGXFSZ are left out: the Python interpreter sets both to SIG_IGN
  before any pytrace code runs, so what pytrace inherited for them is lost (they
  are handed on as SIG_DFL, what Python's own subprocess restores).
* -I1..-I4 with SIGHUP/SIGINT/SIGQUIT/SIGPIPE/SIGTERM sent to the tracer: how the
  tracer, the launched command and its forked child end must be strace's.  With
  -I2 a SIGHUP that the tracer's parent blocked (and left pending) does nothing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fault_helpers import BOUND, Reaped
from helpers import RUN_TIMEOUT, decode, tracer_command, tracer_env

pytestmark = pytest.mark.system

TRACERS = ("strace", "pytrace")

STATES = {
    "nohup": ["-i", "1"],
    "ignored-and-blocked": ["-i", "1", "-i", "2", "-i", "3", "-i", "10", "-i", "15", "-i", "17", "-i", "22",
                            "-b", "1", "-b", "10", "-b", "15", "-b", "12", "-b", "34"],
    "fatal-blocked": ["-b", "1", "-b", "2", "-b", "3", "-b", "13", "-b", "15"],
    "pending-blocked": ["-b", "1", "-r", "1", "-b", "10", "-r", "10"],
}


def _status_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("SigIgn", "SigBlk"))]


@pytest.mark.parametrize("state", list(STATES), ids=list(STATES))
@pytest.mark.parametrize("options", [["-o", "TRACE"], ["-e", "trace=none"], ["-I1", "-o", "TRACE"],
                                     ["-I2", "-o", "TRACE"], ["-f", "-o", "TRACE"]],
                         ids=["o", "stderr", "I1", "I2", "f"])
def test_command_inherits_the_tracers_signal_state(
    state: str, options: list[str], programs: dict[str, Path], tmp_path: Path
) -> None:
    """SigIgn and SigBlk of the traced command are those of the same command under strace."""
    seen = {}
    for tracer in TRACERS:
        args = [str(tmp_path / f"trace-{tracer}") if o == "TRACE" else o for o in options]
        result = subprocess.run(
            [str(programs["fault_launcher"]), *STATES[state], "--", *tracer_command(tracer), *args,
             "grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"],
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
        seen[tracer] = (_status_lines(decode(result.stdout)), result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert len(seen["strace"][0]) == 2 and seen["strace"][1] == 0


# The other launch paths hand on the same state: the eBPF backend's (compared with strace) and
# pyltrace's on both backends (compared with ltrace 0.7.3, which passes on what it inherited too).
OTHER_LAUNCHERS = {
    "ebpf": (["strace"], [sys.executable, "-m", "pytrace", "--backend=ebpf"]),
    "pyltrace": (["ltrace"], [sys.executable, "-m", "pytrace.cli.ltrace_cli"]),
    "pyltrace-ebpf": (["ltrace"], [sys.executable, "-m", "pytrace.cli.ltrace_cli", "--backend=ebpf"]),
}


@pytest.mark.parametrize("state", ["nohup", "ignored-and-blocked"])
@pytest.mark.parametrize("launcher", list(OTHER_LAUNCHERS))
def test_other_launchers_hand_on_the_signal_state(
    launcher: str, state: str, programs: dict[str, Path], tmp_path: Path
) -> None:
    """SigIgn and SigBlk of a command started by the eBPF backend or by pyltrace are those it has
    under strace or ltrace (the eBPF and pyltrace launchers used to reset both to Python's defaults)."""
    seen = []
    for command in OTHER_LAUNCHERS[launcher]:
        result = subprocess.run(
            [str(programs["fault_launcher"]), *STATES[state], "--", *command, "-o", str(tmp_path / "trace"),
             "grep", "-E", "^Sig(Ign|Blk)", "/proc/self/status"],
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
        seen.append((_status_lines(decode(result.stdout)), result.returncode))
    assert seen[0][0], seen
    assert seen[1] == seen[0]


def test_real_nohup(tmp_path: Path) -> None:
    """``nohup TRACER -o log cmd``: SIGHUP stays ignored in cmd."""
    seen = {}
    for tracer in TRACERS:
        result = subprocess.run(
            ["nohup", *tracer_command(tracer), "-o", str(tmp_path / f"log-{tracer}"),
             "grep", "-E", "^SigIgn", "/proc/self/status"],
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL, check=False,
            cwd=tmp_path)
        seen[tracer] = _status_lines(decode(result.stdout))
    assert seen["pytrace"] == seen["strace"]
    assert int(seen["strace"][0].split()[1], 16) & 1  # SIGHUP


# ---- -I modes ------------------------------------------------------------------------------------


def _disposition_ready(pid: int, sig: int, mode: int) -> bool:
    """The tracer has set ``sig`` up as mode ``mode`` says (or is gone): -I1 as inherited (not blocked),
    -I2 caught, -I3/-I4 ignored.  Strace and pytrace must both get there."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    fields = {k: v.strip() for k, _, v in (line.partition(":") for line in text.splitlines())}
    bit = 1 << (sig - 1)
    if mode == 1:
        return not int(fields["SigBlk"], 16) & bit and not int(fields["SigCgt"], 16) & bit
    if mode == 2:
        return bool(int(fields["SigCgt"], 16) & bit)
    return bool(int(fields["SigIgn"], 16) & bit)


def _outcome(programs: dict[str, Path], tracer: str, mode: int, sig: int, tmp_path: Path) -> tuple[object, ...]:
    done = tmp_path / f"done-{tracer}"
    done.unlink(missing_ok=True)
    run = Reaped(programs, tracer, [f"-I{mode}", "-f", "-o", str(tmp_path / f"trace-{tracer}")],
                 [str(programs["fault_workload"]), str(done)])
    try:
        leader, child = run.wait_ready()
        deadline = time.monotonic() + BOUND
        while not _disposition_ready(run.tracer, sig, mode):
            assert time.monotonic() < deadline, f"{tracer} -I{mode}: signal {sig} never set up"
            time.sleep(0.005)
        os.kill(run.tracer, sig)
        if mode <= 2:  # acted on: wait for the tracer to be gone before the command may end
            run.wait_reaped(run.tracer)
        done.write_text("")
        reaped, err = run.finish()
        return reaped[run.tracer], reaped.get(leader), reaped.get(child), err.replace(tracer, "TRACER")
    finally:
        done.write_text("")
        run.kill()


@pytest.mark.parametrize("mode", [1, 2, 3, 4])
@pytest.mark.parametrize("sig", [signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM],
                         ids=lambda s: s.name)
def test_interruptible_modes(mode: int, sig: signal.Signals, programs: dict[str, Path], tmp_path: Path) -> None:
    """The wait statuses of the tracer, the command and the command's child, and the tracer's stderr.

    (-I1: the tracer dies of the signal, the tracees run on; -I2: it detaches, the command gets
    the signal, its child runs on; -I3/-I4: ignored, everything ends normally.)
    """
    seen = {tracer: _outcome(programs, tracer, mode, sig, tmp_path) for tracer in TRACERS}
    assert seen["pytrace"] == seen["strace"]


@pytest.mark.parametrize("mode", [1, 2])
def test_blocked_pending_sighup_does_nothing(mode: int, programs: dict[str, Path], tmp_path: Path) -> None:
    """SIGHUP blocked and pending when the tracer starts: it stays blocked, the trace runs to its end."""
    seen = {}
    for tracer in TRACERS:
        result = subprocess.run(
            [str(programs["fault_launcher"]), "-b", "1", "-r", "1", "--", *tracer_command(tracer), f"-I{mode}",
             "-o", str(tmp_path / f"trace-{tracer}"), "sh", "-c", "exit 3"],
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
        seen[tracer] = (result.returncode, decode(result.stderr).replace(tracer, "TRACER"))
    assert seen["pytrace"] == seen["strace"] == (3, "")
