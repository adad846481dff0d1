"""A sink wrapper that lets only some syscalls through: how -P hides calls that touch none of its paths.

The backend traces a call as usual; this wrapper decides at entry whether the
sinks behind it see the call at all (entry, exit, and the ``unfinished`` call
of an exit/superseded/detach event).  A dropped call is invisible to every
sink after it, the text trace and -c's counts alike, as strace marks such a
call filtered at entry.  ``before_exit`` sees every call's exit, dropped or
not, before the sinks do: -Y uses it to refresh a tracee's name after execve
or prctl(PR_SET_NAME), which strace does even when those are not traced.  Built only when -P or -Y asks for it, so a plain trace pays
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.events import (
        Call,
        DetachEvent,
        ExecSupersededEvent,
        ExitEvent,
        GroupStopEvent,
        PersonalityEvent,
        SignalEvent,
        Sink,
    )


def wrap(
    sink: Sink,
    trace_bitmap: Callable[[str], tuple[bytearray, bool]],
    *,
    path_match: Callable[[Call], bool] | None = None,
    forced: tuple[str, ...] = (),
    before_exit: Callable[[Call, bool], None] | None = None,
) -> tuple[CallFilterSink, Callable[[str], tuple[bytearray, bool]]]:
    """The sink and trace bitmap to hand the backend for -P (``path_match``) and -Y (``forced``, ``before_exit``).

    ``forced`` syscalls are added to the bitmap so the backend stops for them
    (and builds a Call) even when -e trace= leaves them out; the wrapper then
    hides them again from the sinks unless the user's own set has them.
    """
    from pytrace.tables.syscalls import table

    user_maps: dict[str, tuple[bytearray, bool]] = {}

    def bitmap(arch: str) -> tuple[bytearray, bool]:
        bm, unknown = trace_bitmap(arch)
        user_maps[arch] = (bm, unknown)
        if forced:
            bm = bytearray(bm)
            tab = table(arch)
            for name in forced:
                info = tab.by_name.get(name)
                if info is not None and info.nr < len(bm):
                    bm[info.nr] = 1
        return bm, unknown

    def user_traced(call: Call) -> bool:
        bm, unknown = user_maps[call.arch]
        return bool(bm[call.nr]) if call.nr < len(bm) else unknown

    if forced and path_match is not None:
        match = path_match

        def keep(call: Call) -> bool:
            return user_traced(call) and match(call)
    elif forced:
        keep = user_traced
    elif path_match is not None:
        keep = path_match
    else:
        def keep(call: Call) -> bool:
            return True

    return CallFilterSink(sink, keep, before_exit), bitmap


class CallFilterSink:
    """Forwards events to ``inner``, syscalls only when ``keep(call)`` said yes at their entry."""

    def __init__(
        self, inner: Sink, keep: Callable[[Call], bool], before_exit: Callable[[Call, bool], None] | None = None,
    ) -> None:
        self.inner = inner
        self.keep = keep
        self.before_exit = before_exit  # (call, whether the sinks see it)
        self._kept: dict[int, Call] = {}  # id(call) -> call, for calls forwarded at entry and not yet done

    def _passed(self, call: Call | None) -> Call | None:
        """``call`` if it was forwarded (and forget it), else None."""
        if call is None:
            return None
        return self._kept.pop(id(call), None)

    def on_entry(self, call: Call) -> None:
        if self.keep(call):
            self._kept[id(call)] = call
            self.inner.on_entry(call)

    def on_exit(self, call: Call) -> None:
        kept = self._kept.pop(id(call), None) is not None
        if self.before_exit is not None:
            self.before_exit(call, kept)
        if kept:
            self.inner.on_exit(call)

    def on_signal(self, ev: SignalEvent) -> None:
        self.inner.on_signal(ev)

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        self.inner.on_group_stop(ev)

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        self.inner.on_exit_process(ev, self._passed(unfinished))

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        self.inner.on_superseded(ev, self._passed(unfinished))

    def on_personality(self, ev: PersonalityEvent) -> None:
        self.inner.on_personality(ev)

    def on_detach(self, ev: DetachEvent) -> None:
        if ev.call is not None and self._passed(ev.call) is None:
            ev.call = None
        self.inner.on_detach(ev)

    def on_process_count(self, count: int) -> None:
        self.inner.on_process_count(count)

    def close(self) -> None:
        self.inner.close()

    def __getattr__(self, name: str) -> object:
        """Any other sink hook (added to the protocol later) goes straight to the wrapped sink."""
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
