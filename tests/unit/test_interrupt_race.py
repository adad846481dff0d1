"""A fatal signal that lands just after waitpid took a stop's status must not swallow that stop's signal.

The ptrace loop's handler for SIGINT/SIGTERM raises out of a blocking waitpid.  CPython runs the
handler when the call returns, so it can also run just after waitpid has taken a status and
before the loop looked at it: that stop is never handled.  When it was a signal-delivery stop,
detaching with no signal would drop the tracee's signal.  The detach reads the stop from the
tracee's siginfo and hands the signal over.

The race is made exact, not timed: the loop's waitpid is wrapped so that the interrupt arrives
precisely after the SIGUSR1 stop's status was taken (the handler sees the loop still "in wait"
and raises, as it would in the real window).  The tracee, a shell, traps SIGUSR1 and writes a
mark: the mark is there only if the signal reached it after the detach.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from pytrace.backends.ptrace import launcher
from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions
from pytrace.filters import parse_trace_set


class _Quiet:
    """A sink that only keeps what the test checks: the detached pids."""

    def __init__(self) -> None:
        self.detached: list[int] = []

    def on_detach(self, ev: object) -> None:
        self.detached.append(ev.pid)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return lambda *args: None


def _interrupted_run(tmp_path: Path, race: bool) -> tuple[str, int, _Quiet]:
    mark = tmp_path / "mark"
    script = (f"trap '' INT; trap 'echo usr1 >>{mark}' USR1; kill -USR1 $$; "
              f"echo after >>{mark}")
    sink = _Quiet()
    backend = PtraceBackend(sink, TraceOptions(  # type: ignore[arg-type]
        trace_bitmap=parse_trace_set("all").bitmap, guest=True))
    plain_wait = backend._waitpid

    def wait(pid: int, options: int) -> tuple[int, int]:
        got = plain_wait(pid, options)
        status = got[1]
        if (race and os.WIFSTOPPED(status) and status >> 16 == 0
                and os.WSTOPSIG(status) == signal.SIGUSR1):
            backend._on_fatal_signal(signal.SIGINT, None)  # the loop is still in its wait: this raises
        return got

    backend._waitpid = wait  # type: ignore[method-assign]
    child = launcher.spawn_stopped("/bin/sh", ["/bin/sh", "-c", script], dict(os.environ), None)
    backend.launch(child)
    result = backend.run()
    if race:  # detached, our own child runs on to its end: wait for it (traced, the loop reaped it)
        _, status = os.waitpid(child, 0)
        assert os.WIFEXITED(status), status
    return mark.read_text(), result.interrupted_by, sink


def test_signal_of_a_stop_taken_before_the_interrupt_reaches_the_tracee(tmp_path: Path) -> None:
    text, interrupted_by, sink = _interrupted_run(tmp_path, race=True)
    assert interrupted_by == signal.SIGINT
    assert sink.detached  # the loop did stop on the interrupt, at the SIGUSR1 stop
    assert text == "usr1\nafter\n"


def test_without_the_interrupt_the_trap_runs_too(tmp_path: Path) -> None:
    """The control: the same script, traced to its end, writes the same mark."""
    text, interrupted_by, sink = _interrupted_run(tmp_path, race=False)
    assert interrupted_by == 0 and not sink.detached
    assert text == "usr1\nafter\n"
