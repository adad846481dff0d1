"""Trace outputs that cannot hurt the trace, flushed when the tracer is about to sleep.

Errors.  strace writes through stdio and checks the ``fflush`` that ends each
line (``line_ended`` / ``flush_tcp_output``): when it fails it prints
``strace: FILE: <strerror>`` (``FILE.PID`` with ``-ff``; nothing at all for its
own stderr), glibc drops the buffer, and the trace goes on, so the tracee runs
to its end with its own exit status.  The flush of an entry half
(``read(0, ``) and the writes of the ``-c`` table are not checked.
``OutputFile`` is that rule as a raw file: a write error is reported once per
line it lost and never raised.

Buffering.  A trace file the tracee does not share is a ``TraceWriter``: a
write is a ``list.append`` (no encoding, no syscall), and ``PeriodicFlush``
writes what has piled up every FLUSH_INTERVAL seconds from a SIGALRM handler,
which also runs while the tracer sleeps in waitpid.  So the entry half of a
call that blocks reaches the file while it blocks (``tail -f`` shows where a
process is stuck; a SIGKILLed tracer loses nothing already shown), while a
busy trace costs one write per interval instead of one per line (strace
flushes each line).  Outputs shared with the tracee (stderr, a terminal, the
file or pipe of its own stdout/stderr) are flushed after every write
instead, as strace's are, so a traced ``write(2, "x", 1`` still appears
before the ``x``.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import IO

    from pytrace.events import Call

_os_write = os.write
_UNFINISHED = b" <unfinished ...>\n"  # strace writes it in printleader: no flush of its own, no message
#: Seconds between two flushes of the buffered trace outputs: how late ``tail -f`` can be.
FLUSH_INTERVAL = 0.05
_ENCODING = sys.getfilesystemencoding()  # the locale's, as open() would use, without importing locale


class OutputFile(io.RawIOBase):
    """A descriptor whose write errors are reported through ``report`` (None: silently) and swallowed.

    ``name`` is what strace's message names: the -o argument as given, or FILE.PID.
    """

    def __init__(self, fd: int, name: str, report: Callable[[str], None] | None, closefd: bool = True) -> None:
        super().__init__()
        self.fd = fd
        self.name = name
        self.report = report
        self.closefd = closefd

    def fileno(self) -> int:
        return self.fd

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return os.isatty(self.fd)

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        """Write everything (a short write is continued); on an error report and drop the rest."""
        try:
            done = _os_write(self.fd, b)
        except OSError as exc:
            self._lost(bytes(b), exc)
            return len(b)
        return done if done == len(b) else self._rest(memoryview(b).cast("B"), done)

    def _rest(self, view: memoryview, done: int) -> int:
        try:
            while done < len(view):
                done += _os_write(self.fd, view[done:])
        except OSError as exc:
            self._lost(bytes(view[done:]), exc)
        return len(view)

    def _lost(self, data: bytes, exc: OSError) -> None:
        if self.report is not None:
            # strace reports at each line end it could not flush; the " <unfinished ...>" that
            # closes another tracee's line is written without a flush of its own.
            for _ in range(data.count(b"\n") - data.count(_UNFINISHED)):
                self.report(f"{self.name}: {os.strerror(exc.errno or 0)}")

    def close(self) -> None:
        if not self.closed and self.closefd:
            try:
                os.close(self.fd)
            except OSError:
                pass
        super().close()


class _RawWriter:
    """What both writers answer from the OutputFile under them (fileno, isatty, closed)."""

    __slots__ = ("raw",)

    def __init__(self, raw: OutputFile) -> None:
        self.raw = raw

    def fileno(self) -> int:
        return self.raw.fd

    def isatty(self) -> bool:
        return self.raw.isatty()

    @property
    def closed(self) -> bool:
        return self.raw.closed


class DirectWriter(_RawWriter):
    """An output shared with the tracee (stderr, a terminal, its own stdout/stderr file or pipe): each
    write goes out at once, as strace flushes these, so our text and the tracee's keep their order.

    One Python call per write (a TextIOWrapper over OutputFile would make two); ``flush`` has
    nothing to do.
    """

    __slots__ = ("fd",)

    def __init__(self, raw: OutputFile) -> None:
        super().__init__(raw)
        self.fd = raw.fd

    def write(self, s: str) -> int:
        data = s.encode(_ENCODING, "backslashreplace")
        try:
            done = _os_write(self.fd, data)
        except OSError as exc:
            self.raw._lost(data, exc)
            return len(s)
        if done != len(data):
            self.raw._rest(memoryview(data), done)
        return len(s)

    def flush(self) -> None:
        pass

    def close(self) -> None:
        self.raw.close()


class LineWriter(_RawWriter):
    """An output shared with the tracee when the trace is printed after the fact (the eBPF backend
    reads records the kernel wrote): each complete line goes out in one write, so what the tracee
    writes meanwhile can come between two lines but never inside one.  A DirectWriter's per-write
    flushing buys nothing there (the tracee was never stopped between the two halves of a line).
    """

    __slots__ = ("direct", "pending")

    def __init__(self, raw: OutputFile) -> None:
        super().__init__(raw)
        self.direct = DirectWriter(raw)
        self.pending: list[str] = []

    def write(self, s: str) -> int:
        end = s.rfind("\n") + 1
        if not end:
            self.pending.append(s)
            return len(s)
        pending = self.pending
        if pending:
            pending.append(s[:end])
            self.direct.write("".join(pending))
            pending.clear()
        else:
            self.direct.write(s[:end])
        if end < len(s):
            pending.append(s[end:])
        return len(s)

    def flush(self) -> None:
        if self.pending:
            self.direct.write("".join(self.pending))
            self.pending.clear()

    def close(self) -> None:
        self.flush()
        self.raw.close()


class TraceWriter(_RawWriter):
    """A trace output written in one piece when flushed: ``write`` is the bound ``append`` of a list.

    ``flush`` may be entered again from PeriodicFlush's signal handler while the program is inside it;
    ``busy`` makes that inner call a no-op, so nothing is written twice or out of order.
    """

    __slots__ = ("parts", "write", "busy")

    def __init__(self, raw: OutputFile) -> None:
        super().__init__(raw)
        self.parts: list[str] = []
        self.write = self.parts.append
        self.busy = False

    def flush(self) -> None:
        parts = self.parts
        if parts and not self.busy and not self.raw.closed:
            self.busy = True
            try:
                data = "".join(parts).encode(_ENCODING, "backslashreplace")
                parts.clear()
                self.raw.write(data)
            finally:
                self.busy = False

    def close(self) -> None:
        if not self.raw.closed:
            self.flush()
            self.raw.close()


def _text(raw: OutputFile, buffered: bool) -> IO[str]:
    """A DirectWriter for an output shared with the tracee; else a TraceWriter (flushed by
    PeriodicFlush), or a line-buffered stream for a loop without it (the eBPF backend, pyltrace)."""
    if _shared_with_tracee(raw.fd):
        return DirectWriter(raw)  # type: ignore[return-value]
    if buffered:
        return TraceWriter(raw)  # type: ignore[return-value]
    return io.TextIOWrapper(io.BufferedWriter(raw), encoding=_ENCODING, errors="backslashreplace",
                            line_buffering=True)


def _shared_with_tracee(fd: int) -> bool:
    """A terminal, or the very file or pipe the tracee writes its own stdout/stderr to (it inherits
    ours): ``-o /dev/stdout | head``, ``-o /dev/stderr``.  Other character devices (/dev/null)
    keep nothing to order."""
    try:
        if os.isatty(fd):
            return True
        st = os.fstat(fd)
    except OSError:
        return False
    if stat.S_ISCHR(st.st_mode):
        return False
    for std in (1, 2):
        try:
            other = os.fstat(std)
        except OSError:
            continue
        if (other.st_dev, other.st_ino) == (st.st_dev, st.st_ino):
            return True
    return False


def open_file(path: str, *, append: bool, report: Callable[[str], None] | None, name: str | None = None,
              buffered: bool = True) -> IO[str]:
    """``-o FILE`` / ``FILE.PID`` as fopen(..., "w" or "a") opens it; an open error is raised (OSError)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | (os.O_APPEND if append else os.O_TRUNC)
    fd = os.open(path, flags, 0o666)
    return _text(OutputFile(fd, path if name is None else name, report), buffered)


def fd_output(fd: int, name: str, report: Callable[[str], None] | None, *, buffered: bool = True) -> IO[str]:
    """An already open descriptor (``-o /dev/fd/N``, the write end of ``-o '|cmd'``)."""
    return _text(OutputFile(fd, name, report), buffered)


def safe_stderr() -> IO[str]:
    """A stand-in for ``sys.stderr`` that never raises: strace ignores errors on its own stderr.

    Only the real stderr is replaced (a test harness capturing sys.stderr keeps its object).
    """
    current = sys.stderr
    if current is None or current is not sys.__stderr__:
        return current  # type: ignore[return-value]
    try:
        current.flush()
    except OSError:
        pass
    return io.TextIOWrapper(OutputFile(2, "stderr", None, closefd=False),  # type: ignore[arg-type]
                            encoding=current.encoding, errors="backslashreplace", write_through=True)


def stderr_output(whole_lines: bool = False) -> IO[str]:
    """The trace on our stderr (no -o): shared with the tracee, errors ignored as strace ignores them.

    ``whole_lines``: a LineWriter (a backend that prints after the fact), else a DirectWriter."""
    raw = OutputFile(2, "stderr", None, closefd=False)
    return (LineWriter(raw) if whole_lines else DirectWriter(raw))  # type: ignore[return-value]


class Stream:
    """One output destination and the call whose line is currently open on it.

    (The text sink's; here so that a run that prints no line, eBPF ``-c``, opens its output without
    importing the text sink and the decoders.)"""

    __slots__ = ("f", "open_call", "col", "last_pid", "tty")

    def __init__(self, f: IO[str]) -> None:
        self.f = f
        self.open_call: Call | None = None
        self.col = 0
        self.last_pid = 0  # who printed last; a different exit must say "resumed"
        # Output shared with the tracee's own stdout/stderr (or a terminal) is flushed before the
        # tracee runs again, so the entry half of `write(2, "x", 1` appears before the "x" it writes,
        # exactly where strace puts it.  Other outputs are flushed when the tracer goes to sleep.
        self.tty = flushes_each_write(f)


def flushes_each_write(f: IO[str]) -> bool:
    """Whether a sink must flush ``f`` after every write (the entry half of ``write(2, "x", 1``
    before the ``x``): a DirectWriter does it by itself, a TraceWriter or LineWriter never needs it, other
    streams (``pytrace report``'s) when they are stderr or a terminal."""
    if isinstance(f, (DirectWriter, LineWriter, TraceWriter)):
        return False
    if f is sys.stderr:
        return True
    try:
        return os.isatty(f.fileno())
    except (OSError, ValueError, AttributeError):
        return False


def silence(f: IO[str]) -> None:
    """From now on ``f``'s write errors go unreported: the trace is over, and strace checks neither
    the ``-c`` table's writes nor its exit-time fclose."""
    raw = getattr(f, "raw", None)
    if raw is None:
        buffer = getattr(f, "buffer", None)
        raw = getattr(buffer, "raw", buffer)
    if isinstance(raw, OutputFile):
        raw.report = None


class PeriodicFlush:
    """Writes the buffered trace outputs every FLUSH_INTERVAL seconds (ITIMER_REAL, SIGALRM).

    ``outputs`` gives the TraceWriters of the moment (-ff adds files as processes appear).  The
    handler runs between two bytecodes of the main thread, or while it sleeps in waitpid (which
    Python then resumes): never inside a ``list.append``, and a flush it interrupts is skipped
    (``TraceWriter.busy``).  ``start`` is called in the tracing process itself (interval timers do
    not survive -D's fork); ``stop`` restores the previous handler before pytrace exits.
    """

    def __init__(self, outputs: Callable[[], Iterable[object]]) -> None:
        self.outputs = outputs
        self.running = False
        self.previous: object = signal.SIG_DFL

    def flush(self) -> None:
        for f in self.outputs():
            if isinstance(f, TraceWriter):
                f.flush()

    def _tick(self, _signo: int, _frame: object) -> None:
        self.flush()

    def start(self) -> None:
        previous = signal.signal(signal.SIGALRM, self._tick)
        self.previous = signal.SIG_DFL if previous is None else previous
        self.running = True
        signal.setitimer(signal.ITIMER_REAL, FLUSH_INTERVAL, FLUSH_INTERVAL)

    def stop(self) -> None:
        if not self.running:
            return
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous)  # type: ignore[arg-type]
        self.running = False
        self.flush()
