"""The Python API: ``pytrace.trace([...])`` and ``pytrace.attach(pid)`` yield typed events.

The tracer runs inside the calling process, on a thread of its own that owns
the ptrace relationship (every ptrace and waitpid call comes from it), built
by the same pipeline as the command line (pytrace/pipeline.py) with a
``Host`` that makes it a guest: its records are the ``--output-format=json``
records, handed over in memory and turned into the dataclasses of
``pytrace.structured.types``.  What a tracer would otherwise take from its
host process is left alone:

* it waits only for its own thread's children and tracees (``__WNOTHREAD``),
  never ``waitpid(-1)`` over the process, so the caller's own subprocesses
  are not reaped behind its back;
* it installs no signal handler and changes no disposition or mask; it is
  stopped by a request plus a wake-up: a tiny ``head -c 1`` child of the
  tracing thread that exits when a byte is written to it, so a loop asleep in
  waitpid returns (nothing is sent to the tracees themselves);
* failures raise ``TraceError`` with pytrace's own message; nothing exits.

    with pytrace.trace(["ls", "-l"], syscalls={"openat", "read"}) as t:
        for event in t:
            if isinstance(event, pytrace.Syscall) and event.failed:
                print(event.line)
    print(t.exit_code)

Each trace has its own printing context (pytrace/decode/printer.py), so traces
with different decoding options (``-s``, ``-x``, ``-y``, ``-X`` in
``strace_options``) can run at the same time.
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from pytrace.structured.types import Event, Summary, from_record

_END = object()  # the tracing thread is done (followed by nothing)
_QUEUE_SIZE = 4096  # records in flight: a consumer that stops reading holds the tracees, as a full pipe did


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
        self._options = self._build_options(syscalls, follow_forks, backend, summary, strace_options)
        self._stdio_spec = (stdin, stdout, stderr)
        self._env = dict(env) if env is not None else None
        self._cwd = os.fspath(cwd) if cwd is not None else None
        self._queue: queue.Queue[Any] = queue.Queue(_QUEUE_SIZE)
        self._thread: threading.Thread | None = None
        self._pipeline: Any = None
        self._stop = threading.Event()
        self._doorbell: _Doorbell | None = None
        self._doorbell_ready = threading.Event()
        self._messages: list[str] = []
        self._failure: BaseException | None = None
        self._result: Any = None
        self._launched: list[int] = []  # pids seen exec'ing (the first is the command): killed by stop()
        self._exited: set[int] = set()  # pids whose exit was reported: already reaped, never signalled
        self._done = False  # the end marker was taken from the queue
        self._close_fds: list[int] = []

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

    # -- setting up -----------------------------------------------------------

    def _config(self) -> tuple[Any, Any]:
        """The options parsed and checked by pytrace's own command line, its messages on our stderr."""
        from pytrace.cli.strace_cli import Refused, configure

        target = ["-p", str(self.pid)] if self.pid is not None else ["--", *self.command]  # type: ignore[list-item]
        try:
            cfg, line_opts = configure([*self._options, *target])
        except Refused as exc:  # the option parser's die(): strace's words, also on stderr
            raise TraceError(f"pytrace: {exc.message}") from None
        except SystemExit:  # -h / -V: printed, nothing to trace
            raise TraceError(f"pytrace: nothing to trace with the options {self._options!r}") from None
        if cfg.daemonize_level:
            raise TraceError("option -D is not supported by the Python API (it forks the calling process)")
        return cfg, line_opts

    def _stdio(self) -> tuple[int | None, int | None, int | None]:
        """stdin/stdout/stderr as fds for the command: None, DEVNULL, STDOUT (stderr), an fd or a file."""
        fds: list[int | None] = []
        for n, spec in enumerate(self._stdio_spec):
            if spec is None:
                fds.append(None)
            elif spec == subprocess.DEVNULL:
                fd = os.open(os.devnull, os.O_RDWR | os.O_CLOEXEC)
                self._close_fds.append(fd)
                fds.append(fd)
            elif spec == subprocess.STDOUT and n == 2:
                fds.append(fds[1] if fds[1] is not None else 1)
            elif spec == subprocess.PIPE:
                raise ValueError("subprocess.PIPE is not supported: pass a file, an fd or DEVNULL")
            elif isinstance(spec, int) and spec >= 0:
                fds.append(spec)
            elif hasattr(spec, "fileno"):
                fds.append(spec.fileno())
            else:
                raise ValueError(f"unsupported stdio value: {spec!r}")
        return fds[0], fds[1], fds[2]

    # -- running ------------------------------------------------------------

    def start(self) -> Trace:
        if self._thread is not None or self._done:
            return self
        if self.command is not None and os.sep not in self.command[0] and shutil.which(self.command[0]) is None:
            raise FileNotFoundError(f"pytrace: Can't stat '{self.command[0]}': No such file or directory")
        if self._cwd is not None and not os.path.isdir(self._cwd):
            raise FileNotFoundError(f"No such directory: {self._cwd!r}")
        from pytrace.pipeline import Host, SetupError, StracePipeline

        cfg, line_opts = self._config()
        host = Host(
            argv=[*self._options], message=self._message, warn=self._message, line_options=line_opts,
            emit=self._emit, stop_requested=self._stop.is_set, env=self._env, stdio=self._stdio(), cwd=self._cwd,
        )
        pipeline = StracePipeline(cfg, host)
        try:
            pipeline.prepare()
        except SetupError as exc:
            self._close_stdio()
            raise TraceError(f"pytrace: {exc}") from None
        self._pipeline = pipeline
        self._thread = threading.Thread(target=self._trace_thread, name="pytrace-tracer", daemon=True)
        self._thread.start()
        return self

    def _message(self, text: str) -> None:
        """strace's notes ("pytrace: ..."): on our stderr, as the command-line tool's, and kept for errors."""
        self._messages.append(text)
        try:
            sys.stderr.write(f"pytrace: {text}\n")
        except (OSError, ValueError, AttributeError):
            pass

    def _emit(self, tid: int, record: dict[str, Any]) -> None:
        self._queue.put(record)

    def _trace_thread(self) -> None:
        """The tracer: this thread forks or seizes the tracees and is the only one to ptrace or wait for them."""
        from pytrace.pipeline import NothingAttached, SetupError

        pipeline = self._pipeline
        try:
            if self._pipeline.cfg.backend == "ptrace":
                self._doorbell = _Doorbell()  # our child, so the loop's waitpid sees it go
                pipeline.host.own_children = frozenset((self._doorbell.pid,))
            self._doorbell_ready.set()
            if self._stop.is_set():
                pipeline.request_stop(signal.SIGTERM)
            self._result = pipeline.run()
        except NothingAttached:
            self._failure = TraceError("pytrace: " + (self._messages[-1] if self._messages else "nothing attached"))
        except SetupError as exc:
            self._failure = TraceError(f"pytrace: {exc}")
        except BaseException as exc:  # noqa: BLE001 -- handed to the consumer, raised there
            self._failure = exc
        finally:
            self._doorbell_ready.set()
            if self._doorbell is not None:
                self._doorbell.close()
            self._close_stdio()
            self._queue.put(_END)

    def _close_stdio(self) -> None:
        while self._close_fds:
            os.close(self._close_fds.pop())

    def __enter__(self) -> Trace:
        return self.start()

    def _next_record(self) -> Any:
        return self._queue.get()

    def __iter__(self) -> Iterator[Event]:
        self.start()
        while not self._done:
            rec = self._next_record()
            if rec is _END:
                self._end()
                return
            self._note(rec)
            event = from_record(rec)
            if isinstance(event, Summary):
                self.summary = event
                continue
            if event is not None:
                yield event

    def _note(self, rec: dict[str, Any]) -> None:
        """Which processes exec'd and which are gone: what stop() may kill and reap."""
        kind = rec.get("type")
        if kind == "exit":
            self._exited.add(rec["pid"])
        elif kind == "syscall" and self.command is not None and rec.get("name") in ("execve", "execveat"):
            if rec["pid"] not in self._launched:
                self._launched.append(rec["pid"])

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
        if self._thread is None or self._done:
            return
        self._stop.set()
        self._doorbell_ready.wait()
        self._pipeline.request_stop(signal.SIGTERM)  # strace's cleanup: the command gets SIGTERM
        if self._doorbell is not None:
            self._doorbell.ring()
        while not self._done:  # the tracer may be waiting for room in the queue
            rec = self._next_record()
            if rec is _END:
                self._end(raise_failure=False)
            else:
                self._note(rec)
        for pid in self._launched:
            if pid not in self._exited:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
        backend = self._pipeline.backend
        main = backend.main_pid if backend is not None else (self._launched[0] if self._launched else 0)
        if main and main not in self._exited:  # the command is our child (the tracing thread forked it)
            try:
                os.kill(main, signal.SIGKILL)
                os.waitpid(main, 0)
            except OSError:
                pass

    def _end(self, raise_failure: bool = True) -> None:
        """The tracing thread is done: the exit code as the command-line tool would have exited."""
        self._done = True
        assert self._thread is not None
        self._thread.join()
        result = self._result
        if result is not None:
            if result.events_lost and not self._pipeline.cfg.allow_loss:
                self.exit_code = 1  # the trace has gaps (its Lost events): the command line's status too
            elif result.killed_by:
                self.exit_code = 128 + result.killed_by
            elif result.interrupted_by:
                self.exit_code = 128 + result.interrupted_by
            else:
                self.exit_code = result.exit_status
        failure = self._failure
        if failure is not None:
            if self.exit_code is None:
                self.exit_code = 1
            if raise_failure:
                raise failure

    def __exit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        if exc_type is not None or self.pid is not None:  # attach(): leaving the block detaches
            self.stop()
        else:
            self.wait()


class _Doorbell:
    """A child of the tracing thread that exits when rung: wakes that thread's waitpid without a signal.

    ``head -c 1`` reads one byte from a pipe only we hold; it also ends when our process
    does (end of file), so it never outlives its host.  A pidfd reaps it without a pid race
    (the tracing loop may already have reaped it as one of its own children).
    """

    def __init__(self) -> None:
        read_end, self._write_end = os.pipe2(os.O_CLOEXEC)
        try:
            self.pid = os.posix_spawnp("head", ["head", "-c", "1"], dict(os.environ), file_actions=[
                (os.POSIX_SPAWN_DUP2, read_end, 0),
                (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            ])
        finally:
            os.close(read_end)
        self._pidfd = os.pidfd_open(self.pid)
        self._rung = False

    def ring(self) -> None:
        if not self._rung:
            self._rung = True
            try:
                os.write(self._write_end, b"!")
            except OSError:
                pass

    def close(self) -> None:
        self.ring()
        try:
            os.waitid(os.P_PIDFD, self._pidfd, os.WEXITED)
        except ChildProcessError:
            pass  # reaped by the loop's waitpid already
        os.close(self._pidfd)
        os.close(self._write_end)


def trace(command: Sequence[str], **options: Any) -> Trace:
    """Trace ``command`` (argv list); keyword options as in ``Trace``.

    ``syscalls``: names or strace's classes (``{"%file", "read"}``); ``backend``:
    "ptrace" or "ebpf"; ``summary=True`` also counts (``trace.summary`` after the
    run); ``follow_forks`` (default True); ``strace_options``: any other strace
    option, e.g. ``["-s", "256", "-y"]``; stdin/stdout/stderr (None, DEVNULL, a
    file or an fd; STDOUT for stderr), env and cwd for the program.
    """
    return Trace(command, **options)


def attach(pid: int, **options: Any) -> Trace:
    """Attach to a running process (``pytrace -p PID``); leaving the block detaches, the process runs on."""
    return Trace(pid=pid, **options)
