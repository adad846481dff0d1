"""The Python API: ``pytrace.trace([...])`` and ``pytrace.attach(pid)`` yield typed events.

The tracer runs as its own process (``python -m pytrace --output-format=json``)
and hands its JSON records over a pipe; this module turns them into the
dataclasses of ``pytrace.structured.types``.  A separate process, rather than
the ptrace loop in a thread of the caller, because a tracer owns
process-wide state a library must not take from its host: it reaps children
with ``waitpid(-1)`` (which would steal the caller's own subprocesses),
installs signal handlers and may be killed by the tracee's misbehaviour.
The JSON schema is then the single contract between the two sides, so the
API sees exactly what ``--output-format=json`` users see, with either backend.

    with pytrace.trace(["ls", "-l"], syscalls={"openat", "read"}) as t:
        for event in t:
            if isinstance(event, pytrace.Syscall) and event.failed:
                print(event.line)
    print(t.exit_code)
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from pytrace.structured.types import Event, Summary, Syscall, from_record


class TraceError(RuntimeError):
    """The tracer could not run (bad command, no permission...): the message is pytrace's own."""


class Trace:
    """One tracing session; iterate it for events, then read ``exit_code`` and ``summary``.

    Use it as a context manager: leaving the block normally waits for the
    traced program to finish (the remaining events are discarded); leaving it
    with an exception stops the tracer, which detaches (and kills a program it
    started, as ``subprocess.run`` does on an exception).
    """

    def __init__(
        self,
        command: Sequence[str] | None = None,
        *,
        pid: int | None = None,
        syscalls: Iterable[str] | str | None = None,
        follow_forks: bool = True,
        backend: str = "ptrace",
        summary: bool = False,
        strace_options: Sequence[str] = (),
        stdin: Any = None,
        stdout: Any = None,
        stderr: Any = None,
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> None:
        if (command is None) == (pid is None):
            raise ValueError("give either a command or a pid")
        if command is not None:
            if isinstance(command, str):
                raise TypeError("command must be a sequence of arguments, e.g. ['ls', '-l']")
            if not command:
                raise ValueError("empty command")
        self.command = list(command) if command is not None else None
        self.pid = pid
        self.summary: Summary | None = None
        self.exit_code: int | None = None
        self._want_summary = summary
        self._options = self._build_options(syscalls, follow_forks, backend, summary, strace_options)
        self._popen_kw = {"stdin": stdin, "stdout": stdout, "stderr": stderr, "env": env, "cwd": cwd}
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: IO[str] | None = None
        self._launched: set[int] = set()
        self._header_seen = False

    @staticmethod
    def _build_options(syscalls: Iterable[str] | str | None, follow_forks: bool, backend: str, summary: bool,
                       extra: Sequence[str]) -> list[str]:
        opts = ["--output-format=json", f"--backend={backend}", "-q"]  # -q: no "attached" chatter on stderr
        if follow_forks:
            opts.append("-f")
        if syscalls is not None:
            names = [syscalls] if isinstance(syscalls, str) else sorted(syscalls)
            opts += ["-e", "trace=" + (",".join(names) if names else "none")]
        if summary:
            opts.append("-C")
        return opts + list(extra)

    # -- running ------------------------------------------------------------

    def start(self) -> Trace:
        if self._proc is not None:
            return self
        if self.command is not None and os.sep not in self.command[0] and shutil.which(self.command[0]) is None:
            raise FileNotFoundError(f"pytrace: Can't stat '{self.command[0]}': No such file or directory")
        rfd, wfd = os.pipe()
        target = ["-p", str(self.pid)] if self.pid is not None else ["--", *self.command]  # type: ignore[list-item]
        argv = [sys.executable, "-m", "pytrace", *self._options, "-o", f"/dev/fd/{wfd}", *target]
        try:
            self._proc = subprocess.Popen(argv, pass_fds=(wfd,), **self._popen_kw)
        finally:
            os.close(wfd)
        self._reader = open(rfd, encoding="utf-8")  # noqa: SIM115 -- closed in _finish
        return self

    def __enter__(self) -> Trace:
        return self.start()

    def __iter__(self) -> Iterator[Event]:
        self.start()
        if self._reader is None:  # already run to the end
            return
        for line in self._reader:
            rec = json.loads(line)
            kind = rec.get("type")
            if kind == "header":
                self._header_seen = True
                continue
            if kind == "process_count":
                continue
            event = from_record(rec)
            if isinstance(event, Summary):
                self.summary = event
                continue
            if isinstance(event, Syscall) and event.name in ("execve", "execveat") and self.command is not None:
                self._launched.add(event.pid)
            if event is not None:
                yield event
        self._finish()

    def events(self) -> list[Event]:
        """Run to the end and return every event (convenient for small programs)."""
        return list(self)

    def wait(self) -> int:
        """Drain the remaining events and return the traced program's exit code."""
        for _ in self:
            pass
        assert self.exit_code is not None
        return self.exit_code

    def stop(self) -> None:
        """Stop tracing now: the tracer detaches (a program it started is killed)."""
        proc = self._proc
        if proc is None or proc.poll() is not None:
            self._finish()
            return
        proc.send_signal(signal.SIGTERM)  # pytrace detaches from every tracee on SIGTERM
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for pid in self._launched:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        self._finish()

    def _finish(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._proc is not None and self.exit_code is None:
            code = self._proc.wait()
            self.exit_code = code if code >= 0 else 128 - code
            if not self._header_seen and code != 0:
                raise TraceError(f"pytrace exited with status {self.exit_code} before tracing anything "
                                 "(its message is on stderr)")

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        if exc_type is not None or self.pid is not None:  # attach(): leaving the block detaches
            self.stop()
        else:
            self.wait()


def trace(command: Sequence[str], **options: Any) -> Trace:
    """Trace ``command`` (argv list); keyword options as in ``Trace``.

    ``syscalls``: names or strace's classes (``{"%file", "read"}``); ``backend``:
    "ptrace" or "ebpf"; ``summary=True`` also counts (``trace.summary`` after the
    run); ``follow_forks`` (default True); ``strace_options``: any other strace
    option, e.g. ``["-s", "256", "-y"]``; stdin/stdout/stderr/env/cwd for the program.
    """
    return Trace(command, **options)


def attach(pid: int, **options: Any) -> Trace:
    """Attach to a running process (``pytrace -p PID``); leaving the block detaches, the process runs on."""
    return Trace(pid=pid, **options)
