"""``pytrace report``: a saved JSON trace printed back as strace text or as the ``-c`` table.

The records are turned back into the events they came from (a syscall record
into an entry at ``entry_seq`` and an exit at ``seq``) and fed, in that
order, to the same text sink that prints live traces.  The sink's decoder
lookup is swapped for one that returns the recorded argument texts, so the
unfinished/resumed split, the ``[pid N]`` prefixes and the column padding
come out exactly as they did (or would have) on the terminal.
"""

from __future__ import annotations

import json
import sys
from typing import IO, TYPE_CHECKING, Any

from pytrace.decode.decoding import Bound
from pytrace.decode.registry import rv_dec
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
from pytrace.sinks.strace_text import StraceTextSink, Stream

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator

Record = dict[str, Any]


class TraceFileError(ValueError):
    """A file that is not a pytrace JSON trace (the message names the file and line)."""


def read_records(paths: Iterable[str]) -> Iterator[Record]:
    """Every record of the given JSON Lines files (``-`` is stdin), headers included."""
    for path in paths:
        f = sys.stdin if path == "-" else open(path, encoding="utf-8")  # noqa: SIM115
        try:
            for lineno, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as exc:
                    raise TraceFileError(f"{path}:{lineno}: not a JSON trace record ({exc})") from None
                if not isinstance(rec, dict) or "type" not in rec:
                    raise TraceFileError(f"{path}:{lineno}: not a JSON trace record (no \"type\")")
                yield rec
        finally:
            if f is not sys.stdin:
                f.close()


def _entry_then_exit(entry: str, exit_text: str) -> Generator[str, None, None]:
    yield entry
    yield exit_text


def _replay_bound(call: Call) -> Bound:
    return call.aux  # type: ignore[no-any-return]


class ReplayTextSink(StraceTextSink):
    """The text sink with recorded texts instead of decoders (signals print their recorded siginfo)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.bound = _replay_bound  # type: ignore[method-assign]
        self.per_personality = True  # recorded texts: no personality switch

    def on_signal(self, ev: SignalEvent) -> None:
        text, name, description = ev.siginfo  # type: ignore[misc]
        if text is None:
            self._line(ev.pid, f"--- {name} ({description}) ---", ev)
        else:
            self._line(ev.pid, f"--- {name} {text} ---", ev)


def _call_from(rec: Record) -> Call:
    raw = tuple(rec.get("raw_args") or ())
    call = Call(rec["tid"], rec.get("arch", "x86_64"), rec.get("nr", -1), rec["name"], raw, 0, 0,
                None, rec.get("timestamp") or 0.0)  # type: ignore[arg-type]
    entry, exit_text = rec.get("entry_text", ""), rec.get("exit_text")
    if exit_text is None or exit_text:  # an exit half was printed (or wanted and never came)
        call.aux = Bound(lambda p, c: _entry_then_exit(entry, exit_text or ""), True, rv_dec, None)
    else:
        call.aux = Bound(lambda p, c: entry, False, rv_dec, None)
    call.ret_text = rec.get("return_text", "?")
    tampered = rec.get("tampered")
    call.injected = f" {tampered}" if tampered else ""
    return call


def _events(records: Iterable[Record]) -> list[tuple[int, str, Record]]:
    out: list[tuple[int, str, Record]] = []
    for rec in records:
        kind = rec["type"]
        if kind == "syscall":
            out.append((rec.get("entry_seq", rec["seq"]), "entry", rec))
        if kind not in ("header", "summary"):
            out.append((rec["seq"], kind, rec))
    out.sort(key=lambda e: e[0])
    return out


def replay_text(records: list[Record], out: IO[str]) -> None:
    """Print ``records`` as strace's text on ``out``."""
    head = next((r for r in records if r["type"] == "header"), {})
    stream = Stream(out)
    pid_prefix = head.get("pid_prefix", "bracket")
    # eBPF system-wide mode's records name their process: the lines get strace -f -Y's "<comm>" prefix.
    comms: dict[int, str] | None = {} if any("comm" in r for r in records) else None
    prefix = None
    if comms is not None and pid_prefix != "none":
        from pytrace.decode import pids

        prefix = pids.prefix_printer(comms, pid_prefix, lambda: 2)
    sink = ReplayTextSink(lambda pid: stream, pid_prefix=pid_prefix,
                          acolumn=head.get("columns", 40), quiet=head.get("quiet", 0),
                          quiet_personality=head.get("quiet_personality", False), pid_prefix_printer=prefix)
    pending: dict[int, Call] = {}
    for _seq, kind, rec in _events(records):
        tid = rec.get("tid", 0)
        if comms is not None and rec.get("comm"):
            comms[tid] = rec["comm"]
        if kind == "entry":
            call = pending[tid] = _call_from(rec)
            sink.on_entry(call)
        elif kind == "syscall":
            call = pending.get(tid) or _call_from(rec)
            outcome = rec.get("outcome", "returned")
            if outcome == "returned":
                pending.pop(tid, None)
                call.exited = True
                sink.on_exit(call)
            elif outcome == "detached":
                pending.pop(tid, None)
                sink.on_detach(DetachEvent(tid, call))
            # "unfinished": the exit/superseded record that follows ends it
        elif kind == "signal":
            info = (rec.get("siginfo_text"), rec.get("signal"), rec.get("description"))
            sink.on_signal(SignalEvent(tid, rec.get("signo", 0), info))  # type: ignore[arg-type]
        elif kind == "stop":
            sink.on_group_stop(GroupStopEvent(tid, rec.get("signo", 0)))
        elif kind == "exit":
            ev = ExitEvent(tid, rec.get("exit_code") or 0, rec.get("signo") or 0, bool(rec.get("core_dumped")))
            sink.on_exit_process(ev, pending.pop(tid, None))
        elif kind == "superseded":
            sink.on_superseded(ExecSupersededEvent(tid, rec.get("new_pid", tid)), pending.pop(tid, None))
        elif kind == "lost":
            sink.on_lost(LostEvent(tid, rec.get("count", 0)))
        elif kind == "personality":
            sink.on_personality(PersonalityEvent(tid, rec.get("arch", "x86_64")))
        elif kind == "process_count":
            sink.on_process_count(rec.get("count", 1))
    sink.close()


def summary_text(records: list[Record], *, sortby: str | None = None, wall_clock: bool = False) -> str:
    """The ``-c`` table: the recorded summary if the trace has one, else counted from the syscall records.

    Counting from records uses each call's wall-clock duration (what ``-w``
    measures): per-call CPU times are not part of the record.
    """
    from pytrace.sinks.histogram import slots_from_buckets
    from pytrace.sinks.summary import TIME_PERCENT, Summary, parse_sortby

    order = parse_sortby(sortby) if sortby is not None else TIME_PERCENT
    saved = next((r for r in records if r["type"] == "summary"), None)
    if saved is not None and not wall_clock:
        # recorded with --histogram: its histograms print under the table again
        hists = any("histogram" in row for table in saved.get("tables", []) for row in table["rows"])
        summary = Summary(histogram=hists)
        for table in saved.get("tables", []):
            for row in table["rows"]:
                summary.add_totals(table["arch"], row["nr"], row["calls"], row["errors"], row["total_ns"],
                                   row["min_ns"], row["max_ns"],
                                   slots_from_buckets(row["histogram"]) if "histogram" in row else None)
        return summary.render(order, hist_name="cpu_ns" if saved.get("clock") == "cpu" else "latency_ns")
    summary = Summary()
    for rec in records:
        if rec["type"] == "syscall" and rec.get("outcome") == "returned":
            summary.add(rec.get("arch", "x86_64"), rec["nr"], round((rec.get("duration") or 0) * 1e9),
                        rec.get("errno_code") is not None)
    return summary.render(order)
