"""The traced program never pays for the tracer: killing or interrupting pytrace leaves it running.

strace 6.1 sets no PTRACE_O_EXITKILL: ``kill -9`` of the tracer leaves every
tracee running, untraced (the kernel detaches them), and they finish with their
normal exit status.  pytrace must do the same (it used to set EXITKILL on the
command it launched, and -f children inherited it).  ``--kill-on-exit`` (strace
6.6) asks for the opposite, explicitly.

The fault suite then sends SIGKILL, SIGINT or SIGTERM to pytrace at seeded
random moments, from its first milliseconds (Python still importing) to the
middle of tracing, with -f on a launched multi-threaded command and with -p on a
multi-threaded process: whatever the moment, no tracee is left stopped or
traced, and each one ends as it would have untraced (or, for the launched
command under -I2, by the signal strace forwards to it).  SIGINT's moments count
from pytrace's first instruction (see fault_helpers.wait_held: before it, Python's
own start-up would turn SIGINT into its KeyboardInterrupt traceback).

The workload is tests/programs/fault_workload.c (a leader, three threads and a
forked child, spinning on cheap syscalls until a file appears); the launcher in
reaper mode (fault_launcher.c -R) collects the exit status of tracees whose
tracer is gone (tests/faults/fault_helpers.py).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest
from fault_helpers import BOUND, Reaped, all_running_untraced, exited, killed_by, task_states, wait_held
from helpers import decode, read_line, run_tracer, start_tracer, stop_process, tracer_name

pytestmark = pytest.mark.system

REPETITIONS = 20


def _launched(programs: dict[str, Path], tracer: str, tmp_path: Path, *options: str) -> tuple[Reaped, Path]:
    done = tmp_path / "done"
    done.unlink(missing_ok=True)
    run = Reaped(programs, tracer, ["-f", "-o", str(tmp_path / f"trace-{tracer}"), *options],
                 [str(programs["fault_workload"]), str(done)])
    return run, done


@pytest.mark.parametrize("tracer", ["strace", "pytrace"])
def test_sigkill_of_the_tracer_leaves_tracees_running(tracer: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """kill -9 of the tracer: every thread of the command and of its child runs on, untraced, and exits 0."""
    run, done = _launched(programs, tracer, tmp_path)
    try:
        leader, child = run.wait_ready()
        os.kill(run.tracer, signal.SIGKILL)
        assert killed_by(run.wait_reaped(run.tracer), signal.SIGKILL)
        all_running_untraced([leader, child])
        assert len(task_states(leader)) == 4  # leader and its three threads, all still there
        done.write_text("")
        assert exited(run.wait_reaped(leader), 0)  # which includes its child's exit(5)
        reaped, err = run.finish()
        assert err == ""
    finally:
        done.write_text("")
        run.kill()


def test_kill_on_exit_takes_the_tracees_along(programs: dict[str, Path], tmp_path: Path) -> None:
    """--kill-on-exit (strace 6.6): PTRACE_O_EXITKILL on the command and every -f child."""
    run, done = _launched(programs, "pytrace", tmp_path, "--kill-on-exit")
    try:
        leader, child = run.wait_ready()
        os.kill(run.tracer, signal.SIGKILL)
        assert killed_by(run.wait_reaped(run.tracer), signal.SIGKILL)
        assert killed_by(run.wait_reaped(leader), signal.SIGKILL)
        assert killed_by(run.wait_reaped(child), signal.SIGKILL)  # orphaned when its parent died
    finally:
        done.write_text("")
        run.kill()


def test_kill_on_exit_refuses_attach() -> None:
    """strace 6.6's check (src/strace.c, init): error_msg_and_die, so no usage hint, exit status 1."""
    result = run_tracer("pytrace", ["--kill-on-exit", "-p", "1"], [])
    assert decode(result.stderr) == (f"{tracer_name('pytrace')}: --kill-on-exit and -p/--attach are "
                                     "mutually exclusive options\n")
    assert result.returncode == 1


def test_kill_on_exit_with_interrupt_kills_instead_of_detaching(programs: dict[str, Path], tmp_path: Path) -> None:
    """strace 6.6's cleanup(): with EXITKILL it does not detach; its exit SIGKILLs every tracee."""
    run, done = _launched(programs, "pytrace", tmp_path, "--kill-on-exit", "-I2")
    try:
        leader, child = run.wait_ready()
        os.kill(run.tracer, signal.SIGTERM)
        assert killed_by(run.wait_reaped(run.tracer), signal.SIGTERM)
        assert killed_by(run.wait_reaped(leader), signal.SIGKILL)
        assert killed_by(run.wait_reaped(child), signal.SIGKILL)
    finally:
        done.write_text("")
        run.kill()


# ---- the fault suite ---------------------------------------------------------------------------------


def _delays(seed: str) -> list[float]:
    """REPETITIONS moments, seeded: the first ones inside pytrace's start-up, the rest up to 0.45 s."""
    rng = random.Random(seed)
    return [round(rng.uniform(0.0, 0.45) if i >= 4 else 0.02 * i, 3) for i in range(REPETITIONS)]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_fault_launched(sig: signal.Signals, programs: dict[str, Path], tmp_path: Path) -> None:
    """-f -I2 on a launched multi-threaded command, the tracer signalled at seeded random moments.

    The tracer always ends by that signal (SIGKILL; or -I2's detach and strace's raise(sig); or
    the signal's default action if pytrace had not got as far as holding it).  Whatever is left
    below it is running, untraced.  Then every process ends as allowed: the command (the one that
    said "ready") exits 0 with SIGKILL, or is killed by the signal strace's cleanup forwards to it;
    its forked child, once orphaned, exits 5; a child of pytrace's that had not reached its
    execve yet may only have been killed by the same signal, or by SIGKILL / exit(1) when pytrace
    died while it waited stopped (launcher.spawn_stopped's PR_SET_PDEATHSIG).
    pytrace never prints a traceback.
    """
    for i, delay in enumerate(_delays(f"launched-{sig.name}")):
        where = f"repetition {i} ({delay} s)"
        run, done = _launched(programs, "pytrace", tmp_path, "-I2")
        try:
            if sig == signal.SIGINT:
                wait_held(run.tracer, sig)
            time.sleep(delay)
            os.kill(run.tracer, sig)
            assert killed_by(run.wait_reaped(run.tracer), sig), where
            all_running_untraced(run.descendants())
            done.write_text("")
            reaped, err = run.finish()
            assert "Traceback" not in err, f"{where}:\n{err}"
            # the split stop path's render process (if any) wrote what it had and ended normally
            assert all(exited(s, 0) for s in run.renderers.values()), f"{where}: {run.renderers}"
            for pid, status in reaped.items():
                if pid == run.tracer:
                    continue
                if run.ready is not None and pid == run.ready[0]:  # the command itself
                    ok = exited(status, 0) if sig == signal.SIGKILL else killed_by(status, sig)
                elif run.ready is not None and pid == run.ready[1]:  # its child, orphaned
                    ok = exited(status, 5)
                else:  # not announced: a child that never got ready, or the command killed before that
                    # (SIGKILL / exit(1): pytrace's child before its execve, see spawn_stopped's PDEATHSIG)
                    ok = killed_by(status, sig) or exited(status, 5) or killed_by(status, signal.SIGKILL) or (
                        sig == signal.SIGKILL and exited(status, 1))
                assert ok, f"{where}: pid {pid} ended with status {status:#x} (ready: {run.ready})"
        finally:
            done.write_text("")
            run.kill()


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_fault_attached(sig: signal.Signals, programs: dict[str, Path], tmp_path: Path) -> None:
    """-f -p on a multi-threaded process: after the tracer's end every thread runs untraced and the
    process exits 0 when told (its child's exit(5) included)."""
    done = tmp_path / "done"
    for i, delay in enumerate(_delays(f"attached-{sig.name}")):
        done.unlink(missing_ok=True)
        workload = subprocess.Popen([str(programs["fault_workload"]), str(done)], stdout=subprocess.PIPE,
                                    stdin=subprocess.DEVNULL)
        tracer = None
        try:
            words = decode(read_line(workload.stdout, BOUND)).split()
            leader, child = int(words[1]), int(words[2])
            tracer = start_tracer("pytrace", ["-f", "-o", str(tmp_path / "trace"), "-p", str(leader)], [],
                                  stdout=subprocess.DEVNULL)
            if sig == signal.SIGINT:
                wait_held(tracer.pid, sig)
            time.sleep(delay)
            tracer.send_signal(sig)
            _, err = tracer.communicate(timeout=BOUND)
            assert tracer.returncode == -sig, f"repetition {i} ({delay} s): {tracer.returncode}\n{decode(err)}"
            assert "Traceback" not in decode(err), f"repetition {i} ({delay} s)"
            all_running_untraced([leader, child])
            assert len(task_states(leader)) == 4
            done.write_text("")
            assert workload.wait(timeout=BOUND) == 0, f"repetition {i} ({delay} s)"
        finally:
            done.write_text("")
            stop_process(tracer)
            stop_process(workload)


def _ended_or_ignoring(run: Reaped, sig: int) -> bool:
    """The tracer is gone, or SigIgn shows ``sig``: a signal sent before is then discarded for sure
    (setting SIG_IGN drops a pending one too)."""
    try:
        status = Path(f"/proc/{run.tracer}/status").read_text()
    except OSError:
        return True
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if fields.get("State", "").split()[:1] == ["Z"]:
        return True
    return bool(int(fields["SigIgn"], 16) & (1 << (sig - 1)))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_fault_output_file_ignores_signals(sig: signal.Signals, programs: dict[str, Path], tmp_path: Path) -> None:
    """-o FILE PROG: fatal signals are ignored (strace's -I3 default), from the moment pytrace holds them.

    Sent at seeded random moments: either pytrace had not yet got to its first instruction (then
    the signal's default action ends it before any command is started) or the signal is ignored,
    the command runs to its end untouched and pytrace exits with its status, 0.
    """
    for i, delay in enumerate(_delays(f"output-{sig.name}")[:10]):
        run, done = _launched(programs, "pytrace", tmp_path)
        try:
            if sig == signal.SIGINT:
                wait_held(run.tracer, sig)
            time.sleep(delay)
            os.kill(run.tracer, sig)
            deadline = time.monotonic() + BOUND
            while not _ended_or_ignoring(run, sig):
                assert time.monotonic() < deadline, f"repetition {i}: pytrace neither ended nor ignores {sig.name}"
                time.sleep(0.01)
            done.write_text("")
            reaped, err = run.finish()
            assert "Traceback" not in err, f"repetition {i} ({delay} s):\n{err}"
            status = reaped[run.tracer]
            if killed_by(status, sig):  # before pytrace's first instruction: nothing was started
                assert list(reaped) == [run.tracer], f"repetition {i} ({delay} s): {reaped}"
            else:
                assert exited(status, 0), f"repetition {i} ({delay} s): {status}"  # the command's own 0
                assert run.ready is not None
        finally:
            done.write_text("")
            run.kill()
