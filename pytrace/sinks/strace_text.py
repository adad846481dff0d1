"""strace's text output: line prefixes, column padding and the unfinished/resumed discipline.

This follows strace's ``printleader`` / ``syscall_exiting_trace`` /
``print_event_exit``: a line stays "open" after a syscall's entry half is
printed; any other line written to the same stream first closes it with
`` <unfinished ...>``, and the exit half then starts a new line with
``<... NAME resumed>``.  With ``-ff`` each process has its own stream, so a
line is only ever interrupted by its own process.
"""

from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING

from pytrace.decode import decoder_for
from pytrace.decode.format import errno_suffix
from pytrace.decode.signal import format_siginfo, signame

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
    )

# Errors the kernel uses internally; strace prints them as ``= ? ERESTARTSYS (...)``.
_RESTART_ERRNOS = frozenset((512, 513, 514, 516))


class Stream:
    """One output destination and the call whose line is currently open on it."""

    __slots__ = ("f", "open_call", "col", "last_pid", "tty")

    def __init__(self, f: IO[str]) -> None:
        self.f = f
        self.open_call: Call | None = None
        self.col = 0
        self.last_pid = 0  # who printed last; a different exit must say "resumed"
        # Output shared with the tracee's own stderr (or a terminal) is flushed before the tracee
        # runs again, so the entry half of `write(2, "x", 1` appears before the "x" it writes,
        # exactly where strace puts it.
        try:
            self.tty = f is sys.stderr or os.isatty(f.fileno())
        except (OSError, ValueError, AttributeError):
            self.tty = False


class StraceTextSink:
    """Prints the event stream exactly as strace 6.1 does."""

    def __init__(
        self,
        stream_for: Callable[[int], Stream],
        *,
        pid_prefix: str = "none",  # "none" | "plain" (-o with -f) | "bracket" (stderr, >1 process)
        acolumn: int = 40,
        quiet: int = 0,
        signal_filter: Callable[[int], bool] | None = None,
        separate: bool = False,
        quiet_personality: bool = False,
    ) -> None:
        self.stream_for = stream_for
        self.pid_prefix = pid_prefix
        self.acolumn = acolumn
        self.quiet = quiet
        self.signal_shown = signal_filter or (lambda _sig: True)
        self.separate = separate
        self.quiet_personality = quiet_personality  # strace implies it for "-o FILE PROG"
        self.nprocs = 1
        self.streams: set[Stream] = set()
        # Called after each finished syscall line (the -k stack trace prints its frames here).
        self.after_syscall: Callable[[Stream, Call], None] | None = None

    # -- line helpers -------------------------------------------------------

    def _leader(self, s: Stream, pid: int) -> str:
        """Close any open line on the stream, then return the prefix for a new one."""
        if s.open_call is not None:
            s.f.write(" <unfinished ...>\n")
            s.open_call = None
        s.last_pid = pid
        if self.pid_prefix == "plain":
            return f"{pid:<5} "
        if self.pid_prefix == "bracket" and self.nprocs > 1:
            return f"[pid {pid:5}] "
        return ""

    def _stream(self, pid: int) -> Stream:
        s = self.stream_for(pid)
        self.streams.add(s)
        return s

    def _finish(self, s: Stream, text_so_far_col: int, tail: str) -> None:
        """Pad to the ``=`` column and write the end of a syscall line."""
        pad = self.acolumn - text_so_far_col
        s.f.write(" " * pad + tail if pad > 0 else tail)
        s.open_call = None
        s.col = 0
        if s.tty:
            s.f.flush()

    # -- syscalls -----------------------------------------------------------

    def on_entry(self, call: Call) -> None:
        s = self._stream(call.pid)
        lead = self._leader(s, call.pid)
        dec = decoder_for(call)
        if dec.split:
            gen = dec.func(call)
            text = next(gen)
            call.decoder_state = gen
        else:
            text = dec.func(call)
        line = f"{lead}{call.name}({text}"
        s.f.write(line)
        s.col = len(line)
        s.open_call = call
        call.printed_entry = True
        if s.tty:
            s.f.flush()

    def on_exit(self, call: Call) -> None:
        if not call.printed_entry:
            return
        s = self._stream(call.pid)
        dec = decoder_for(call)
        gen = call.decoder_state
        rest = ""
        if gen is not None:
            rest = next(gen, "")
            gen.close()
            call.decoder_state = None
        if s.open_call is call and s.last_pid == call.pid:
            head = rest + ") "
            col = s.col + len(head)
        else:
            lead = self._leader(s, call.pid)
            head = f"{lead}<... {call.name} resumed>{rest}) "
            col = len(head)
        s.f.write(head)
        self._finish(s, col, "= " + self._retval(call, dec.rval) + call.injected + "\n")
        if self.after_syscall is not None:
            self.after_syscall(s, call)

    @staticmethod
    def _retval(call: Call, rval: Callable[[Call], str]) -> str:
        if call.ret_text is not None:
            return call.ret_text
        if call.error:
            if call.error in _RESTART_ERRNOS:
                return "?" + errno_suffix(call.error)
            return "-1" + errno_suffix(call.error)
        return rval(call)

    def _never_returned(self, s: Stream, call: Call) -> None:
        """``= ?`` for a call the thread never came back from (exit_group, killed, superseded)."""
        if s.open_call is call and s.last_pid == call.pid:
            head = ") "
            col = s.col + 2
        else:
            lead = self._leader(s, call.pid)
            head = f"{lead}<... {call.name} resumed>"
            if call.decoder_state is not None:
                head += " <unfinished ...>"
            head += ") "
            col = len(head)
        if call.decoder_state is not None:
            call.decoder_state.close()
            call.decoder_state = None
        s.f.write(head)
        self._finish(s, col, "= ?\n")

    # -- other events ------------------------------------------------------

    def _line(self, pid: int, text: str) -> None:
        s = self._stream(pid)
        s.f.write(self._leader(s, pid) + text + "\n")
        if s.tty:
            s.f.flush()

    def on_signal(self, ev: SignalEvent) -> None:
        if not self.signal_shown(ev.signo):
            return
        info = format_siginfo(ev.signo, ev.siginfo) if ev.siginfo else None
        name = signame(ev.signo)
        if info is None:
            self._line(ev.pid, f"--- {name} ({os.strsignal(ev.signo)}) ---")
        else:
            self._line(ev.pid, f"--- {name} {info} ---")

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        if self.signal_shown(ev.signo):
            self._line(ev.pid, f"--- stopped by {signame(ev.signo)} ---")

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        s = self._stream(ev.pid)
        if unfinished is not None and unfinished.printed_entry:
            self._never_returned(s, unfinished)
        if ev.signo:  # -qq hides normal exits only; a death by signal is always reported
            core = "(core dumped) " if ev.core_dumped else ""
            self._line(ev.pid, f"+++ killed by {signame(ev.signo)} {core}+++")
        elif self.quiet < 2:
            self._line(ev.pid, f"+++ exited with {ev.status} +++")

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        s = self._stream(ev.pid)
        if unfinished is not None and unfinished.printed_entry:
            self._never_returned(s, unfinished)
        if self.quiet < 2:
            self._line(ev.pid, f"+++ superseded by execve in pid {ev.new_pid} +++")

    def on_personality(self, ev: PersonalityEvent) -> None:
        if self.quiet or self.quiet_personality:
            return
        bits = {"x86_64": "64", "i386": "32"}.get(ev.arch, ev.arch)
        self._line(ev.pid, f"[ Process PID={ev.pid} runs in {bits} bit mode. ]")

    def on_detach(self, ev: DetachEvent) -> None:
        s = self._stream(ev.pid)
        call = ev.call
        if call is not None and s.open_call is call:
            s.f.write(" <detached ...>\n")
            s.open_call = None
            s.col = 0

    def on_process_count(self, count: int) -> None:
        self.nprocs = count

    def close(self) -> None:
        for s in self.streams:
            if s.open_call is not None:
                s.f.write(" <unfinished ...>\n")
                s.open_call = None
            try:
                s.f.flush()
            except OSError:
                pass
