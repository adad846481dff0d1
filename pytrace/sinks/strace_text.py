"""strace's text output: line prefixes, column padding and the unfinished/resumed discipline.

This follows strace's ``printleader`` / ``syscall_exiting_trace`` /
``print_event_exit``: a line stays "open" after a syscall's entry half is
printed; any other line written to the same stream first closes it with
`` <unfinished ...>``, and the exit half then starts a new line with
``<... NAME resumed>``.  With ``-ff`` each process has its own stream, so a
line is only ever interrupted by its own process.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import time

from pytrace.decode.decoding import Decoding
from pytrace.decode.format import failed_result
from pytrace.decode.signal import format_siginfo, signame
from pytrace.sinks.dumpio import dump_io
from pytrace.sinks.output import Stream, silence  # Stream: defined there, named here as before
from pytrace.sinks.prefix import build_prefix, duration_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from pytrace.decode.decoding import Bound
    from pytrace.events import (
        Call,
        DetachEvent,
        ExecSupersededEvent,
        ExitEvent,
        GroupStopEvent,
        LostEvent,
        PersonalityEvent,
        SignalEvent,
    )
    from pytrace.sinks.prefix import LineOptions, LineSource



def whole_call(sink: object) -> Callable[[Call, Callable[[Call, Any], object], Any], None]:
    """How to hand ``sink`` a call whose entry and exit come together: its fused ``on_call`` when it is
    a plain StraceTextSink whose ``on_entry``/``on_exit`` no option replaced (-T's timing does, a
    subclass may), else ``on_entry``, the exit, ``on_exit``.  Decided once per trace, not per call."""
    if type(sink) is StraceTextSink and "on_entry" not in vars(sink) and "on_exit" not in vars(sink):
        return sink.on_call
    on_entry, on_exit = sink.on_entry, sink.on_exit  # type: ignore[attr-defined]

    def both(call: Call, complete: Callable[[Call, Any], object], record: Any) -> None:
        on_entry(call)
        complete(call, record)
        on_exit(call)

    return both


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
        line_options: LineOptions | None = None,
        pid_prefix_printer: Callable[[int, LineSource], str] | None = None,
        quiet_set: frozenset[str] | None = None,
        decoding: Decoding | None = None,
    ) -> None:
        self.stream_for = stream_for
        # Which decoder and printer print a call: this tracer's options decided them (decode/decoding.py).
        # x86_64 lookups until a 32-bit tracee appears (on_personality), then per personality.
        self.decoding = decoding or Decoding()
        self.bound = self.decoding.bound
        self.per_personality = False
        self.pid_prefix = pid_prefix
        self.acolumn = acolumn
        self.quiet = quiet
        self.signal_shown = signal_filter or (lambda _sig: True)
        self.separate = separate
        self.quiet_personality = quiet_personality  # strace implies it for "-o FILE PROG"
        # strace's quiet categories (pytrace/cli/quiet.py); without a set, -q's count stands for one.
        if quiet_set is None:
            self.quiet_exit, self.quiet_superseded = quiet >= 2, quiet >= 3
            self.quiet_personality |= quiet >= 1
        else:
            self.quiet_exit = "exit" in quiet_set
            self.quiet_superseded = "thread-execve" in quiet_set
            self.quiet_personality = "personality" in quiet_set
        self.nprocs = 1
        self.streams: set[Stream] = set()
        # Without -ff, the one stream every line goes to, once stream() has found it (not for a
        # subclass with a stream() of its own: StagedTextSink answers with a call's stage).
        self.single: Stream | None = None
        self.one_stream = not separate and type(self).stream is StraceTextSink.stream
        # Called after each finished syscall line (the -k stack trace prints its frames here).
        self.after_syscall: Callable[[Stream, Call], None] | None = None
        # The line prefix and the end of a syscall line are chosen here, once: a trace without
        # -t/-r/-n/-i/-T/-e read=/-e write= runs the plain methods and pays nothing for them.
        self._prefix: Callable[[int, LineSource], str] = {
            "plain": self._prefix_plain, "bracket": self._prefix_bracket,
        }.get(pid_prefix, self._prefix_none)
        if pid_prefix_printer is not None and pid_prefix != "none":  # -Y: "1234<comm> "
            self._prefix = pid_prefix_printer
        if line_options is not None:
            self._install_line_options(line_options)

    def _install_line_options(self, opts: LineOptions) -> None:
        """Wrap the prefix and the result text for the options given (see pytrace/sinks/prefix.py)."""
        extra = build_prefix(opts)
        if extra is not None:
            pid_prefix = self._prefix
            self._prefix = lambda pid, src: pid_prefix(pid, src) + extra(src)
        if opts.has_result_suffix:
            self._line_opts = opts
            self._result = self._result_extended  # type: ignore[method-assign]
        if opts.syscall_times is not None and not opts.call_clock:
            # strace measures CLOCK_MONOTONIC after the entry is printed and first thing at exit.
            self._entry_ns: dict[Call, int] = {}
            self._exit_ns: dict[Call, int] = {}
            plain_entry, plain_exit = self.on_entry, self.on_exit

            def timed_entry(call: Call) -> None:
                plain_entry(call)
                self._entry_ns[call] = time.monotonic_ns()

            def timed_exit(call: Call) -> None:
                self._exit_ns[call] = time.monotonic_ns()
                plain_exit(call)

            def forget(ev: object, unfinished: Call | None, plain: Callable[..., None]) -> None:
                plain(ev, unfinished)
                self._entry_ns.pop(unfinished, None)  # type: ignore[arg-type]

            plain_gone, plain_superseded = self.on_exit_process, self.on_superseded
            self.on_entry = timed_entry  # type: ignore[method-assign]
            self.on_exit = timed_exit  # type: ignore[method-assign]
            self.on_exit_process = lambda ev, unfinished: forget(ev, unfinished, plain_gone)  # type: ignore[method-assign]
            self.on_superseded = (  # type: ignore[method-assign]
                lambda ev, unfinished: forget(ev, unfinished, plain_superseded))

    # -- line helpers -------------------------------------------------------

    def _leader(self, s: Stream, pid: int, src: LineSource) -> str:
        """Close any open line on the stream, then return the prefix for a new one.

        ``src`` is what the line is about (a Call or an event): -n and -i read
        its syscall number and instruction pointer.
        """
        if s.open_call is not None:
            s.f.write(" <unfinished ...>\n")
            s.open_call = None
        s.last_pid = pid
        return self._prefix(pid, src)

    @staticmethod
    def _prefix_none(pid: int, src: LineSource) -> str:
        return ""

    @staticmethod
    def _prefix_plain(pid: int, src: LineSource) -> str:
        return f"{pid:<5} "

    def _prefix_bracket(self, pid: int, src: LineSource) -> str:
        return f"[pid {pid:5}] " if self.nprocs > 1 else ""

    def stream(self, pid: int) -> Stream:
        """The output stream of ``pid`` (its own file with -ff), remembered for closing; the status
        and stack (-k) sinks write their lines through it too."""
        s = self.stream_for(pid)
        self.streams.add(s)
        if self.one_stream:  # the per-call paths take it from here
            self.single = s
        return s

    def _finish(self, s: Stream, text_so_far_col: int, tail: str, head: str = "") -> None:
        """Pad to the ``=`` column and write the end of a syscall line (``head`` first: one write)."""
        pad = self.acolumn - text_so_far_col
        s.f.write(f"{head}{' ' * pad}{tail}" if pad > 0 else head + tail)
        s.open_call = None
        s.col = 0
        if s.tty:
            s.f.flush()

    # -- syscalls -----------------------------------------------------------

    def on_entry(self, call: Call) -> None:
        s = self.single or self.stream(call.pid)
        lead = self._leader(s, call.pid, call)
        b = self.bound(call)
        if b.split:
            gen = b.func(b.p, call)
            text = next(gen)
            call.decoder_state = gen
        else:
            text = b.func(b.p, call)
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
        s = self.single or self.stream(call.pid)
        b = self.bound(call)
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
            lead = self._leader(s, call.pid, call)
            head = f"{lead}<... {call.name} resumed>{rest}) "
            col = len(head)
        self._finish(s, col, self._result(call, b), head)
        if self.after_syscall is not None:
            self.after_syscall(s, call)

    def on_call(self, call: Call, complete: Callable[[Call, Any], object], record: Any) -> None:
        """``on_entry(call)``, ``complete(call, record)`` (the backend fills in the exit: result,
        exit memory), then ``on_exit(call)``, for a call whose exit is known before its entry is
        printed (the eBPF consumer read both records together): the same line, each half decoded from
        what it would have seen, with one stream lookup, one decoder lookup and one write instead of
        two of each.  Only for a plain StraceTextSink whose methods no option replaced (``whole_call``)."""
        pid = call.pid
        s = self.single or self.stream(pid)
        if s.open_call is not None:  # _leader, inline: this runs once per call
            s.f.write(" <unfinished ...>\n")
        s.last_pid = pid
        lead = self._prefix(pid, call)
        b = self.bound(call)
        if b.split:
            gen = b.func(b.p, call)
            text = next(gen)
            complete(call, record)
            text += next(gen, "")
            gen.close()
        else:
            text = b.func(b.p, call)
            complete(call, record)
        head = f"{lead}{call.name}({text}) "
        call.printed_entry = True
        pad = self.acolumn - len(head)  # _finish, inline
        s.f.write(f"{head}{' ' * pad}{self._result(call, b)}" if pad > 0 else head + self._result(call, b))
        s.open_call = None
        s.col = 0
        if s.tty:
            s.f.flush()
        if self.after_syscall is not None:
            self.after_syscall(s, call)

    def _result(self, call: Call, b: Bound) -> str:
        """The end of a syscall line from ``= `` on, newline included."""
        if call.ret_text is not None:
            ret = call.ret_text
        elif call.error:
            ret = failed_result(call.error)
        else:
            ret = b.rval(b.p, call)
        return "= " + ret + call.injected + "\n"

    def _result_extended(self, call: Call, b: Bound) -> str:
        """``_result`` plus -T's duration before the newline and the -e read=/write= dumps after it."""
        text = StraceTextSink._result(self, call, b)
        opts = self._line_opts
        if opts.syscall_times is not None:
            if opts.call_clock:  # the backend's own times of the entry and the exit (eBPF: the kernel's)
                t0, t1 = 0, round((call.exit_time - call.entry_time) * 1e9)
            else:
                t0 = self._entry_ns.pop(call, None)
                t1 = self._exit_ns.pop(call, None)
            if t0 is not None and t1 is not None:
                text = text[:-1] + duration_text(t1 - t0, *opts.syscall_times) + "\n"
        if opts.read_fds is not None or opts.write_fds is not None:
            text += dump_io(call, opts.read_fds, opts.write_fds)
        return text

    def _never_returned(self, s: Stream, call: Call, src: LineSource) -> None:
        """``= ?`` for a call the thread never came back from (exit_group, killed, superseded)."""
        if s.open_call is call and s.last_pid == call.pid:
            head = ""
            col = s.col
        else:
            head = f"{self._leader(s, call.pid, src)}<... {call.name} resumed>"
            col = 0
        if call.decoder_state is not None:  # the exit half the decoder wanted to print never comes
            head += " <unfinished ...>"
        head += ") "
        col += len(head)
        if call.decoder_state is not None:
            call.decoder_state.close()
            call.decoder_state = None
        s.f.write(head)
        self._finish(s, col, "= ?\n")

    # -- other events ------------------------------------------------------

    def _line(self, pid: int, text: str, src: LineSource) -> None:
        s = self.stream(pid)
        s.f.write(self._leader(s, pid, src) + text + "\n")
        if s.tty:
            s.f.flush()

    def on_signal(self, ev: SignalEvent) -> None:
        if not self.signal_shown(ev.signo):
            return
        info = format_siginfo(self.decoding.printer, ev.signo, ev.siginfo) if ev.siginfo else None
        name = signame(ev.signo)
        if info is None:
            self._line(ev.pid, f"--- {name} ({signal.strsignal(ev.signo)}) ---", ev)
        else:
            self._line(ev.pid, f"--- {name} {info} ---", ev)

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        if self.signal_shown(ev.signo):
            self._line(ev.pid, f"--- stopped by {signame(ev.signo)} ---", ev)

    def on_abandoned(self, call: Call) -> None:
        """strace's print_event_exit: the thread is exiting (PTRACE_EVENT_EXIT) inside ``call``, which
        never returns: its line ends ``= ?`` now, not when the exit is reported (a thread-group
        leader's exit is reported only once all its threads are gone)."""
        if call.printed_entry:
            self._never_returned(self.stream(call.pid), call, call)

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        s = self.stream(ev.pid)
        if unfinished is not None and unfinished.printed_entry:
            self._never_returned(s, unfinished, ev)
        if ev.signo:  # -qq hides normal exits only; a death by signal follows -e signal= (print_signalled)
            if self.signal_shown(ev.signo):
                core = "(core dumped) " if ev.core_dumped else ""
                self._line(ev.pid, f"+++ killed by {signame(ev.signo)} {core}+++", ev)
        elif not self.quiet_exit:
            self._line(ev.pid, f"+++ exited with {ev.status} +++", ev)

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        s = self.stream(ev.pid)
        if unfinished is not None and unfinished.printed_entry:
            self._never_returned(s, unfinished, ev)
        # strace's maybe_switch_tcbs: the exec'ing thread's execve line still open (always with -ff,
        # with one output when nothing was printed since) ends with the pid the thread now has.
        old = self.stream(ev.new_pid)
        if old.open_call is not None and old.last_pid == ev.new_pid:
            old.f.write(f" <pid changed to {ev.pid} ...>\n")
            old.open_call = None
            old.col = 0
        self.nprocs -= 1  # strace drops the leader before this line: "[pid N]" only if others remain
        if not self.quiet_superseded:
            self._line(ev.pid, f"+++ superseded by execve in pid {ev.new_pid} +++", ev)

    def on_personality(self, ev: PersonalityEvent) -> None:
        if ev.arch == "i386" and not self.per_personality:
            # First 32-bit tracee: from now on decoders are picked per personality (i386 structure
            # layouts, pytrace/decode/i386.py); pure x86_64 runs never pay for the choice.
            self.per_personality = True
            self.bound = self.decoding.bound_any
        if self.quiet_personality:
            return
        bits = {"x86_64": "64", "i386": "32"}.get(ev.arch, ev.arch)
        self._line(ev.pid, f"[ Process PID={ev.pid} runs in {bits} bit mode. ]", ev)

    def on_lost(self, ev: LostEvent) -> None:
        """A gap in the trace (eBPF records dropped), in the form of strace's own ``+++ ... +++`` lines."""
        self._line(ev.pid, f"+++ pytrace: {ev.count} events lost +++", ev)

    def on_detach(self, ev: DetachEvent) -> None:
        s = self.stream(ev.pid)
        call = ev.call
        if call is not None and s.open_call is call:
            s.f.write(" <detached ...>\n")
            s.open_call = None
            s.col = 0

    def on_process_count(self, count: int) -> None:
        self.nprocs = count

    def close(self) -> None:
        """End open lines and flush (write errors reported as strace does); later writes (the -c table)
        are not checked, as strace's are not."""
        for s in self.streams:
            if s.open_call is not None:
                s.f.write(" <unfinished ...>\n")
                s.open_call = None
            s.f.flush()
            silence(s.f)
