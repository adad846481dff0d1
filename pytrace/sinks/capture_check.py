"""PYTRACE_CHECK_CAPTURE: decode every call twice, from live memory and from only its planned bytes.

A debugging aid for the capture plans of the syscall tables (pytrace/decode/capture.py): wrapped
around the ptrace backend's sink, it takes the snapshots the plan names at the entry and exit
stops (while the tracee is stopped, before it runs on), then has two private text sinks print the
call: one reading live memory, one reading only the snapshots.  Both go through
``StraceTextSink`` -- the one place calls are decoded into strace's text -- so what is compared
is exactly the line pytrace prints.  The real sink gets the call untouched.

At the end (``close``) a report is written to the file the variable names: per syscall name, how
many calls were checked and how many lines differed, then the differing lines, so a test (or a
person) can see which plans are short.  Not for production runs: it decodes each call three times.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from pytrace.decode.capture import PATH_MAX, SnapshotMemory, snapshot
from pytrace.events import Call
from pytrace.sinks.strace_text import StraceTextSink, Stream
from pytrace.tables.syscalls import ARCHES, table

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.events import PersonalityEvent, Sink
    from pytrace.tables.capture_plan import ArgPlan

#: Read once by pytrace/pipeline.py where the ptrace backend's sink is assembled: the report's path.
ENV_VAR = "PYTRACE_CHECK_CAPTURE"
_WORD = {"i386": 4}
_MAX_EXAMPLES = 20


class _Shadow:
    """A private text sink whose streams (one per thread) are kept in memory and read back per call."""

    def __init__(self) -> None:
        self.streams: dict[int, Stream] = {}
        self.sink = StraceTextSink(self._stream, quiet_personality=True)

    def _stream(self, pid: int) -> Stream:
        s = self.streams.get(pid)
        if s is None:
            s = self.streams[pid] = Stream(io.StringIO())
        return s

    def take(self, pid: int) -> str:
        """The text written for ``pid`` since the last take."""
        f = self._stream(pid).f
        text = f.getvalue()
        f.seek(0)
        f.truncate(0)
        return text


def _copy(call: Call, mem: Any) -> Call:
    return Call(call.pid, call.arch, call.nr, call.name, call.args, call.ip, call.sp, mem, call.entry_time)


class CaptureCheckSink:
    """Wraps a sink; decodes each call again from live memory and from its capture plan's snapshots."""

    def __init__(self, sink: Sink, report_path: str, *, string_limit: int = PATH_MAX,
                 plan_for: Callable[[Call], tuple[ArgPlan, ...]] | None = None) -> None:
        """``plan_for`` replaces the tables' plans (tests give a short plan to see it reported)."""
        self._sink = sink
        if plan_for is not None:
            self._plan = plan_for  # type: ignore[method-assign]
        self.report_path = report_path
        self.string_limit = max(string_limit, PATH_MAX)
        self._live = _Shadow()
        self._snap = _Shadow()
        self._plans: dict[tuple[str, int], tuple[ArgPlan, ...]] = {}
        # pid -> (call, its arguments as made, live copy, snapshot copy, entry text): in flight
        self._pending: dict[int, tuple[Call, tuple[int, ...], Call, Call, str]] = {}
        self.checked: dict[str, int] = {}
        self.differing: dict[str, int] = {}
        self.examples: list[tuple[str, str, str]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sink, name)

    def _plan(self, call: Call) -> tuple[ArgPlan, ...]:
        key = (call.arch, call.nr)
        plans = self._plans.get(key)
        if plans is None:
            info = table(call.arch).by_nr.get(call.nr) if call.arch in ARCHES else None
            plans = self._plans[key] = info.capture if info is not None else ()
        return plans

    def _compare(self, name: str, live: str, snap: str) -> None:
        if live != snap:
            self.differing[name] = self.differing.get(name, 0) + 1
            if len(self.examples) < _MAX_EXAMPLES:
                self.examples.append((name, live, snap))

    def on_entry(self, call: Call) -> None:
        # Copies and snapshot before the real sink decodes: some decoders rewrite their call's
        # arguments (i386 joins a 64-bit argument split over two registers).
        args = call.args
        mem = snapshot(self._plan(call), False, args, None, call.mem, sp=call.sp,
                       word=_WORD.get(call.arch, 8), string_limit=self.string_limit)
        live, snap = _copy(call, call.mem), _copy(call, mem)
        self._sink.on_entry(call)
        self._live.take(call.pid)
        self._snap.take(call.pid)
        self._live.sink.on_entry(live)
        self._snap.sink.on_entry(snap)
        live_text, snap_text = self._live.take(call.pid), self._snap.take(call.pid)
        self.checked[call.name] = self.checked.get(call.name, 0) + 1
        if live_text != snap_text:  # the entry half already differs: counted now, not again at exit
            self._compare(call.name, live_text, snap_text)
            self._pending.pop(call.pid, None)
            return
        self._pending[call.pid] = (call, args, live, snap, live_text)

    def on_exit(self, call: Call) -> None:
        self._sink.on_exit(call)
        pending = self._pending.pop(call.pid, None)
        if pending is None or pending[0] is not call:
            return
        _, args, live, snap, head = pending
        rval = None if call.error else call.rval
        snap.mem = snapshot(self._plan(call), True, args, rval, call.mem, sp=call.sp,
                            word=_WORD.get(call.arch, 8), string_limit=self.string_limit, earlier=snap.mem)
        for copy in (live, snap):
            copy.rval, copy.error, copy.exited = call.rval, call.error, call.exited
            copy.exit_time, copy.injected = call.exit_time, call.injected
        self._live.sink.on_exit(live)
        self._snap.sink.on_exit(snap)
        self._compare(call.name, head + self._live.take(call.pid), head + self._snap.take(call.pid))

    def on_personality(self, ev: PersonalityEvent) -> None:
        self._sink.on_personality(ev)
        self._live.sink.on_personality(ev)  # i386 tracees: decoders per personality, as the real sink
        self._snap.sink.on_personality(ev)

    def close(self) -> None:
        self._sink.close()
        self.write_report()

    def write_report(self) -> None:
        """``checked NAME N DIFFERING`` per syscall, then ``differs NAME`` with the two lines."""
        lines = [f"checked\t{name}\t{n}\t{self.differing.get(name, 0)}" for name, n in sorted(self.checked.items())]
        for name, live, snap in self.examples:
            lines.append(f"differs\t{name}\n  live: {live.rstrip()}\n  plan: {snap.rstrip()}")
        with open(self.report_path, "a", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))


__all__ = ["ENV_VAR", "CaptureCheckSink", "SnapshotMemory"]
