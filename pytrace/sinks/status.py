"""``-z``, ``-Z`` and ``-e status=SET``: print a syscall only if its outcome is in SET.

Whether a call succeeds is known only at its exit, so strace 6.1 *stages* the
line: at entry it points the tracee's output at a memory stream
(``strace_open_memstream``), prints the entry half there, and at exit either
copies the whole line to the real output or drops it
(``strace_close_memstream``).  Outcomes: ``successful``, ``failed``,
``unfinished`` (the thread died inside the call: ``exit_group(0) = ?``),
``unavailable`` (registers unreadable at exit) and ``detached``.

Staging changes the line discipline, and this sink reproduces strace's
exactly, quirks included:

* a staged call is never split into ``<unfinished ...>`` / ``<... resumed>``
  by other *staged* calls, since each has its own buffer;
* but a line printed directly (a signal, ``+++ exited``) while a staged call
  is the last one printed still "closes" it, and strace writes that
  `` <unfinished ...>`` into the staged buffer, so the published line reads
  ``wait4(-1,  <unfinished ...>`` followed by ``NULL, 0, NULL) = 42`` padded
  from column 0 (strace 6.1's printleader checks the *new* line's staging, not
  the open one's).

Without these options the plain StraceTextSink is used: no per-call cost.
"""

from __future__ import annotations

import io

from pytrace.sinks.strace_text import StraceTextSink, Stream

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from pytrace.events import Call, DetachEvent, ExecSupersededEvent
    from pytrace.sinks.prefix import LineSource


class _Stage(Stream):
    """strace's memstream: the staged text of one call, and the real stream it will be copied to."""

    __slots__ = ("real", "call")

    def __init__(self, real: Stream, call: Call) -> None:
        super().__init__(io.StringIO())  # never a tty: the real stream flushes when the line is published
        self.real = real
        self.call = call


class StagedTextSink(StraceTextSink):
    """StraceTextSink whose syscall lines are staged and published only for outcomes in ``statuses``."""

    def __init__(self, stream_for: Callable[[int], Stream], *, statuses: frozenset[str], **kw: Any) -> None:
        self.statuses = statuses
        self._show_ok = "successful" in statuses
        self._show_failed = "failed" in statuses
        self._stages: dict[int, _Stage] = {}  # pid -> the stage of its call in flight
        super().__init__(stream_for, **kw)

    # -- where text goes --------------------------------------------------------

    def stream(self, pid: int) -> Stream:
        stage = self._stages.get(pid)
        return stage if stage is not None else super().stream(pid)

    def _stage_of(self, call: Call) -> _Stage | None:
        stage = self._stages.get(call.pid)
        if stage is not None and stage.call is call:
            return stage
        for stage in self._stages.values():  # the pid changed under it (execve in a non-leader thread)
            if stage.call is call:
                return stage
        return None

    def _leader(self, s: Stream, pid: int, src: LineSource) -> str:
        if not isinstance(s, _Stage):
            # A line written straight out while a staged call was the last one printed: strace 6.1
            # "closes" that call's line inside its memstream (the quirk in the module doc).
            self._close_printing(s)
        s.last_pid = pid
        return self._prefix(pid, src)

    def _close_printing(self, real: Stream, but: Call | None = None) -> None:
        printing = real.open_call
        if printing is not None and printing is not but:
            stage = self._stage_of(printing)
            if stage is not None and stage.col:
                stage.f.write(" <unfinished ...>\n")
                stage.col = 0
        real.open_call = None

    def _publish(self, stage: _Stage, publish: bool, ended: bool = True) -> None:
        """strace_close_memstream (copy or drop), then line_ended() unless ``ended`` is False."""
        for pid, st in list(self._stages.items()):
            if st is stage:
                del self._stages[pid]
        real = stage.real
        if publish:
            real.f.write(stage.f.getvalue())
            if real.tty:
                real.f.flush()
        if ended:
            real.open_call = None

    # -- syscalls ------------------------------------------------------------------

    def on_entry(self, call: Call) -> None:
        real = super().stream(call.pid)
        stage = self._stages[call.pid] = _Stage(real, call)
        super().on_entry(call)  # into the stage: nothing else on the real stream is closed
        real.open_call = call  # strace's printing_tcp: the last line begun is this (staged) one
        real.last_pid = call.pid
        stage.last_pid = call.pid

    def on_exit(self, call: Call) -> None:
        if not call.printed_entry:
            return
        stage = self._stage_of(call)
        if stage is None:
            super().on_exit(call)
            return
        if stage.call.pid not in self._stages or self._stages[stage.call.pid] is not stage:
            self._stages[call.pid] = stage
        super().on_exit(call)  # never "resumed": the staged line is always continued in place
        self._publish(stage, self._show_failed if call.error else self._show_ok)

    def _never_returned(self, s: Stream, call: Call, src: LineSource) -> None:
        stage = self._stage_of(call)
        if stage is None:
            super()._never_returned(s, call, src)
            return
        if not self.separate:  # print_event_exit closes another staged call's open line first
            printing = stage.real.open_call
            self._close_printing(stage.real, but=call)
            stage.real.open_call = printing
        super()._never_returned(stage, call, src)
        self._publish(stage, "unfinished" in self.statuses)

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        """strace's maybe_switch_tcbs gives the exec'ing thread's staged execve entry to the dropped
        leader (so it is lost) and stages its exit afresh: it reads ``<... execve resumed>) = 0``."""
        stage = self._stages.get(ev.new_pid)
        if stage is not None:
            if stage.real.open_call is stage.call:
                stage.real.open_call = None  # -ff: the thread's own file gets nothing more
            self._stages[ev.new_pid] = _Stage(StraceTextSink.stream(self, ev.pid), stage.call)  # -ff: its file
        super().on_superseded(ev, unfinished)

    def on_detach(self, ev: DetachEvent) -> None:
        call = ev.call
        stage = self._stage_of(call) if call is not None else None
        if stage is None:
            super().on_detach(ev)
            return
        real = stage.real
        printing = real.open_call is call
        publish = "detached" in self.statuses
        self._publish(stage, publish, ended=False)
        if publish and stage.col and (self.separate or printing):
            real.f.write(" <detached ...>\n")
        if printing:
            real.open_call = None

    def close(self) -> None:
        for s in self.streams:  # a staged call still open has its text in its stage, not here
            if s.open_call is not None and self._stage_of(s.open_call) is not None:
                s.open_call = None
        super().close()
