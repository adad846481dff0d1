"""A sink that hands every event to several sinks, in order: how ``-C`` prints the trace *and* counts it.

Sinks only read the events (the text sink fills per-call decoder scratch on
the Call, which no other sink looks at), so they can share one event stream.
``close`` goes in the same order, which is what puts strace's summary table
after the last trace line (the text sink closes any open line first).
Only built when more than one consumer is wanted, so a plain trace pays
nothing for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.events import (
        Call,
        DetachEvent,
        ExecSupersededEvent,
        ExitEvent,
        GroupStopEvent,
        LostEvent,
        PersonalityEvent,
        SignalEvent,
        Sink,
    )


class TeeSink:
    """Forwards each event to ``sinks`` in the order given."""

    def __init__(self, *sinks: Sink) -> None:
        self.sinks = sinks

    def on_thread_group(self, tid: int, tgid: int) -> None:
        for s in self.sinks:
            note = getattr(s, "on_thread_group", None)
            if note is not None:
                note(tid, tgid)

    def on_entry(self, call: Call) -> None:
        for s in self.sinks:
            s.on_entry(call)

    def on_exit(self, call: Call) -> None:
        for s in self.sinks:
            s.on_exit(call)

    def on_signal(self, ev: SignalEvent) -> None:
        for s in self.sinks:
            s.on_signal(ev)

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        for s in self.sinks:
            s.on_group_stop(ev)

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        for s in self.sinks:
            s.on_exit_process(ev, unfinished)

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        for s in self.sinks:
            s.on_superseded(ev, unfinished)

    def on_personality(self, ev: PersonalityEvent) -> None:
        for s in self.sinks:
            s.on_personality(ev)

    def on_detach(self, ev: DetachEvent) -> None:
        for s in self.sinks:
            s.on_detach(ev)

    def on_lost(self, ev: LostEvent) -> None:
        for s in self.sinks:
            s.on_lost(ev)

    def on_process_count(self, count: int) -> None:
        for s in self.sinks:
            s.on_process_count(count)

    def close(self) -> None:
        for s in self.sinks:
            s.close()
