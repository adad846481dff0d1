"""The event stream as JSON-ready records: one dict per syscall, signal, exit... (schema: trace.schema.json).

A syscall becomes *one* record, written when it finishes (or when its thread
dies inside it): strace's ``<unfinished ...>`` / ``<... resumed>`` split is a
property of how lines interleave on a terminal, not of the call, so the record
carries the facts instead: ``entry_seq`` and ``seq`` place the entry and the
exit in the global order of events, which is all ``pytrace report`` needs to
print the exact strace text back (see replay.py).

The arguments come from the same decoders as the text output, entry half at
entry and exit half at exit (memory is read when strace reads it), printed
with the value renderer (pytrace/render/values.py): each argument's text is
strace's and its value is what the decoder printed, never the text read back.  Where the records go is
the caller's business (``emit``): JSON Lines, a Perfetto trace, the Python
API.  Durations and timestamps are wall-clock seconds (``time.time()``
epoch) as the backends stamp them.
"""

from __future__ import annotations

import signal
import time
from typing import TYPE_CHECKING, Any

from pytrace.decode.decoding import Decoding
from pytrace.decode.format import MASK64, failed_result
from pytrace.decode.signal import format_siginfo, signame
from pytrace.render.values import args_of, value_of
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable

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

SCHEMA_VERSION = 2  # 2: argument values from the value renderer (constants and flags with their numbers)
Record = dict[str, Any]


def tgid_of(tid: int, cache: dict[int, int]) -> int:
    """The thread group (process) id of a thread, read once per thread from /proc.

    Neither backend needs it to trace, so it is looked up only here; a thread
    already gone (possible with the eBPF backend, which reads its ring buffer
    later) is its own process as far as the record can tell.
    """
    tgid = cache.get(tid)
    if tgid is None:
        tgid = tid
        try:
            with open(f"/proc/{tid}/status", "rb") as f:
                for line in f:
                    if line.startswith(b"Tgid:"):
                        tgid = int(line.split()[1])
                        break
        except (OSError, ValueError):
            pass
        cache[tid] = tgid
    return tgid


def errno_fields(err: int) -> dict[str, Any]:
    return {"errno": X.ERRNO_NAMES.get(err), "errno_code": err, "strerror": X.ERRNO_TEXT.get(err)}


class RecordSink:
    """A Sink that turns events into records and passes each to ``emit(tid, record)``.

    ``statuses`` (-z/-Z/-e status=) drops syscall records whose outcome is not
    listed, as the text output drops their lines.
    """

    def __init__(self, emit: Callable[[int, Record], None], *, statuses: frozenset[str] | None = None,
                 raw_args: bool = True, process_counts: bool = True,
                 signals: Callable[[int], bool] | None = None, decoding: Decoding | None = None) -> None:
        self.emit = emit
        # This tracer's decoders and printers: x86_64 lookups until a 32-bit tracee appears.
        self.decoding = decoding or Decoding()
        self.bound = self.decoding.bound
        self.signal_shown = signals or (lambda _sig: True)  # -e signal=: the records strace would print
        if not process_counts:  # -ff: every file is one process, strace's "[pid N]" prefix never applies
            self.on_process_count = lambda count: None  # type: ignore[method-assign]
        self.seq = 0
        self.tgids: dict[int, int] = {}
        self.statuses = statuses
        self.raw_args = raw_args

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def _base(self, kind: str, tid: int) -> Record:
        return {"type": kind, "seq": self._next(), "pid": tgid_of(tid, self.tgids), "tid": tid}

    # -- syscalls -----------------------------------------------------------

    def on_thread_group(self, tid: int, tgid: int) -> None:
        """The process of a thread, learnt where it surely existed (the split stop path's tracer)."""
        self.tgids[tid] = tgid

    def on_entry(self, call: Call) -> None:
        tgid_of(call.pid, self.tgids)  # while the thread surely exists
        call.printed_entry = True
        call.entry_seq = self._next()
        b = self.bound(call)
        if b.split:
            gen = b.func(b.p, call)
            call.entry_text = next(gen)
            call.decoder_state = gen
        else:
            call.entry_text = b.func(b.p, call)

    def on_exit(self, call: Call) -> None:
        if not call.printed_entry:
            return
        gen = call.decoder_state
        rest = ""
        if gen is not None:
            rest = next(gen, "")
            gen.close()
            call.decoder_state = None
        if call.ret_text is not None:
            ret_text = call.ret_text
        elif call.error:
            ret_text = failed_result(call.error)
        else:
            b = self.bound(call)
            ret_text = b.rval(b.p, call)
        if self.statuses is not None and ("failed" if call.error else "successful") not in self.statuses:
            return
        rec = self._syscall(call, rest, "returned")
        rec["retval"] = -1 if call.error else _signed(call.rval)
        rec["return_text"] = ret_text
        rec["duration"] = round(call.exit_time - call.entry_time, 9)
        if call.error:
            rec.update(errno_fields(call.error))
        self.emit(call.pid, rec)

    def _syscall(self, call: Call, exit_text: str | None, outcome: str) -> Record:
        entry = call.entry_text
        rec: Record = {
            "type": "syscall", "seq": self._next(), "entry_seq": call.entry_seq,
            "pid": tgid_of(call.pid, self.tgids), "tid": call.pid, "arch": call.arch, "nr": call.nr,
            "name": call.name, "timestamp": call.entry_time, "outcome": outcome,
            "args": args_of(entry, exit_text), "entry_text": str(entry),
            "exit_text": None if exit_text is None else str(exit_text),
            "retval": None, "return_text": "?", "duration": None,
            "errno": None, "errno_code": None, "strerror": None,
            "tampered": call.injected.strip() or None,
        }
        if self.raw_args:
            rec["raw_args"] = [a & MASK64 for a in call.args]
        return rec

    def _never_returned(self, call: Call | None, outcome: str) -> None:
        if call is None or not call.printed_entry:
            return
        if call.decoder_state is not None:
            call.decoder_state.close()
            call.decoder_state = None
            exit_text = None  # the exit half was wanted and never came
        else:
            exit_text = ""
        call.printed_entry = False
        if self.statuses is not None and ("detached" if outcome == "detached" else "unfinished") not in self.statuses:
            return
        self.emit(call.pid, self._syscall(call, exit_text, outcome))

    # -- other events -------------------------------------------------------

    def on_signal(self, ev: SignalEvent) -> None:
        if not self.signal_shown(ev.signo):
            return
        rec = self._base("signal", ev.pid)
        text = format_siginfo(self.decoding.printer, ev.signo, ev.siginfo) if ev.siginfo else None
        rec.update(timestamp=ev.time or time.time(), signal=signame(ev.signo), signo=ev.signo,
                   siginfo_text=text, siginfo=value_of(text) if text else None,
                   description=signal.strsignal(ev.signo))
        self.emit(ev.pid, rec)

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        if not self.signal_shown(ev.signo):
            return
        rec = self._base("stop", ev.pid)
        rec.update(timestamp=ev.time or time.time(), signal=signame(ev.signo), signo=ev.signo)
        self.emit(ev.pid, rec)

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        self._never_returned(unfinished, "unfinished")
        rec = self._base("exit", ev.pid)
        rec.update(timestamp=ev.time or time.time(), exit_code=None if ev.signo else ev.status,
                   signal=signame(ev.signo) if ev.signo else None, signo=ev.signo or None,
                   core_dumped=ev.core_dumped)
        self.emit(ev.pid, rec)

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        self._never_returned(unfinished, "unfinished")
        rec = self._base("superseded", ev.pid)
        rec.update(timestamp=ev.time or time.time(), new_pid=ev.new_pid)
        self.emit(ev.pid, rec)

    def on_personality(self, ev: PersonalityEvent) -> None:
        if ev.arch == "i386":
            self.bound = self.decoding.bound_any
        rec = self._base("personality", ev.pid)
        rec.update(timestamp=ev.time or time.time(), arch=ev.arch)
        self.emit(ev.pid, rec)

    def on_detach(self, ev: DetachEvent) -> None:
        self._never_returned(ev.call, "detached")

    def on_lost(self, ev: LostEvent) -> None:
        rec = self._base("lost", ev.pid)
        rec.update(timestamp=time.time(), count=ev.count)
        self.emit(ev.pid, rec)

    def on_process_count(self, count: int) -> None:
        self.emit(0, {"type": "process_count", "seq": self._next(), "count": count})

    def close(self) -> None:
        pass


def _signed(value: int) -> int:
    value &= MASK64
    return value - (1 << 64) if value >> 63 else value
