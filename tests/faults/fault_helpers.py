"""Running a tracer so that its tracees can be examined after the tracer is gone.

``Reaped`` starts ``tracer ARGS CMD`` under tests/programs/fault_launcher.c in
reaper mode (a child subreaper): when the tracer dies its tracees become the
launcher's children, so the test still learns how each of them ended.  The
launcher prints ``started PID`` (the tracer), ``reaped PID STATUS`` for every
process that ends below it, and the command's own stdout comes through the same
pipe (tests/programs/fault_workload.c prints ``ready PID CHILDPID``).

``task_states`` / ``all_running_untraced`` look at every thread through /proc:
a tracee left behind must be running or sleeping (not ``t``/``T``) and have
``TracerPid: 0``.
"""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from helpers import tracer_command, tracer_env, wait_until

#: Generous bound for anything that should happen "at once" (a busy 2-core host); never a sleep.
BOUND = 20.0


class Reaped:
    """A tracer run under fault_launcher -R, its output read line by line."""

    def __init__(
        self, programs: dict[str, Path], tracer: str, args: Sequence[str], cmd: Sequence[str],
        launcher_options: Sequence[str] = (), env: dict[str, str] | None = None,
    ) -> None:
        self.proc = subprocess.Popen(
            [str(programs["fault_launcher"]), *launcher_options, "-R", "--", *tracer_command(tracer), *args, *cmd],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=tracer_env() if env is None else env,
        )
        self.reaped: dict[int, int] = {}
        # pytrace's render process (pytrace/sinks/split.py, comm "pytrace-render"): not a tracee,
        # kept apart so the tests' rules about tracees apply to tracees only.
        self.renderers: dict[int, int] = {}
        self.ready: tuple[int, int] | None = None
        self._buf = b""
        first = self._line(BOUND)
        assert first is not None and first.startswith("started "), first
        self.tracer = int(first.split()[1])

    def _line(self, timeout: float) -> str | None:
        """The next line of the launcher's stdout, None at EOF; fails after ``timeout`` s without one."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError(f"no line from the launcher within {timeout} s (have {self._buf!r})")
            chunk = os.read(fd, 4096)
            if not chunk:
                return None
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        text = line.decode()
        words = text.split()
        if words[:1] == ["reaped"]:
            if words[3:4] == ["pytrace-render"]:
                self.renderers[int(words[1])] = int(words[2])
            else:
                self.reaped[int(words[1])] = int(words[2])
        elif words[:1] == ["ready"]:
            self.ready = (int(words[1]), int(words[2]))
        return text

    def wait_reaped(self, pid: int, timeout: float = BOUND) -> int:
        """The wait status of ``pid`` once the launcher has reaped it."""
        while pid not in self.reaped:
            if self._line(timeout) is None:
                raise AssertionError(f"launcher ended without reaping {pid}")
        return self.reaped[pid]

    def wait_ready(self, timeout: float = BOUND) -> tuple[int, int]:
        while self.ready is None:
            if self._line(timeout) is None:
                raise AssertionError("launcher ended before the workload was ready")
        return self.ready

    def children(self) -> list[int]:
        """The launcher's live children (the tracer, or orphaned tracees it adopted)."""
        try:
            text = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def descendants(self) -> list[int]:
        """Every live process below the launcher (its children, theirs, ...)."""
        out: list[int] = []
        queue = [self.proc.pid]
        while queue:
            pid = queue.pop()
            try:
                tids = os.listdir(f"/proc/{pid}/task")
            except OSError:
                continue
            for tid in tids:
                try:
                    kids = [int(k) for k in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()]
                except OSError:
                    continue
                out += kids
                queue += kids
        return out

    def ready_or_nothing_left(self, timeout: float = BOUND) -> tuple[int, int] | None:
        """After the tracer is gone: the workload's pids once it says ready, or None when no process
        is left under the launcher (the command never started, or died before saying so)."""
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while self.ready is None:
            if not self.children():
                self._drain()
                return self.ready
            if time.monotonic() > deadline:
                states = {pid: (task_states(pid), _describe(pid)) for pid in self.children()}
                raise AssertionError(f"processes left under the launcher never got ready: {states}")
            if self._pending(0.02) and self._line(BOUND) is None:
                break
        return self.ready

    def _pending(self, timeout: float) -> bool:
        """Whether a line (or EOF) can be read now, waiting up to ``timeout`` s."""
        assert self.proc.stdout is not None
        return b"\n" in self._buf or bool(select.select([self.proc.stdout.fileno()], [], [], timeout)[0])

    def _drain(self) -> None:
        while self._pending(0):
            if self._line(BOUND) is None:
                return

    def finish(self, timeout: float = BOUND) -> tuple[dict[int, int], str]:
        """Wait for every process below the launcher to end: (pid -> wait status, launcher stderr)."""
        while self._line(timeout) is not None:
            pass
        _, err = self.proc.communicate(timeout=timeout)
        return self.reaped, err.decode(errors="replace")

    def kill(self) -> None:
        """Cleanup after a failure: end whatever is left (by pid), then the launcher."""
        for pid in self.children():
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def _describe(pid: int) -> str:
    """Command line, kernel wait channel and current syscall of ``pid``, for failure messages."""
    out = []
    for name in ("cmdline", "wchan", "syscall"):
        try:
            out.append(Path(f"/proc/{pid}/{name}").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip())
        except OSError:
            out.append("?")
    return " | ".join(out)


def task_states(pid: int) -> dict[int, tuple[str, str]]:
    """(state letter, TracerPid) of every thread of ``pid``; empty once the process is gone."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
            status = Path(f"/proc/{pid}/task/{tid}/status").read_text()
        except OSError:
            continue
        tracer = next((line.split()[1] for line in status.splitlines() if line.startswith("TracerPid:")), "?")
        out[int(tid)] = (stat.rsplit(")", 1)[1].split()[0], tracer)
    return out


def running_untraced(pid: int) -> bool:
    """Every thread of ``pid`` running or sleeping, none stopped or traced (vacuously true once gone)."""
    return all(state in "RSD" and tracer == "0" for state, tracer in task_states(pid).values())


def all_running_untraced(pids: Sequence[int]) -> None:
    """Assert it for each pid, polling: a tracer's death releases its tracees asynchronously."""
    if not wait_until(lambda: all(running_untraced(p) for p in pids), BOUND):
        raise AssertionError(f"tracees not running untraced: {({p: task_states(p) for p in pids})}")


def wait_held(pid: int, sig: int) -> None:
    """Wait until ``pid`` blocks ``sig`` in its mask (pytrace's first instruction holds the fatal signals)
    or is gone.

    Before that instruction, Python's own start-up runs (site and .pth processing: 10-40 ms in a
    development venv whose editable install imports pathlib there): a SIGINT then raises Python's
    KeyboardInterrupt before any pytrace code exists to catch it.  Tests that send SIGINT at
    "any moment" count their delays from here; SIGTERM and SIGKILL need no such start.
    """

    def held_or_gone() -> bool:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return True
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return fields.get("State", "").split()[:1] == ["Z"] or bool(int(fields["SigBlk"], 16) >> (sig - 1) & 1)

    if not wait_until(held_or_gone, BOUND, interval=0.001):
        raise AssertionError(f"{pid} never blocked signal {sig}")


def exited(status: int, code: int) -> bool:
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == code


def killed_by(status: int, sig: int) -> bool:
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == sig
