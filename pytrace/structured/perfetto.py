"""``--output-format=perfetto``: records as Chrome trace-event JSON, the format ui.perfetto.dev opens.

One track per thread (``pid`` = thread group, ``tid`` = thread), one
complete slice (``"ph":"X"``) per syscall or library call, signals, stops
and exits as instant events, and ``process_name``/``thread_name`` metadata
so the tracks are labelled with the commands.  The format is the JSON
object form of the Trace Event Format (the schema the tests validate
against is trace_event.schema.json next to this file).

Events are written as the records come, so a long trace is never held in
memory: the only state kept is per thread (its name, the end of its last
slice, a call it never returned from).  That is also why the metadata goes
last: a thread's final name is known only once the trace is over, and the
format does not care about event order.

Choices made for what Perfetto shows well:

* times are microseconds since the epoch with nanosecond decimals (the
  records' wall clock), ``displayTimeUnit`` ``ns``;
* a call that never returned (``exit_group``, a thread killed inside
  ``read``) is a complete slice ending where its thread's next event (the
  exit) happened, or at the end of the trace, marked ``outcome`` in its
  args: an unterminated ``"B"`` would make Perfetto stretch it to the end of
  the whole trace and flag an import error;
* slices of one thread never overlap: a rounding of the wall clock that
  would start a call before the previous one ended moves its start to that
  end (Perfetto rejects partially overlapping slices on a track).
"""

from __future__ import annotations

import json
from typing import IO, Any

from pytrace import __version__
from pytrace.structured.tracks import ThreadNames, call_text, event_text, syscall_class

Record = dict[str, Any]

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode
_INSTANTS = frozenset(("signal", "stop", "exit", "superseded", "personality", "exec"))


def _us(seconds: float) -> float:
    """Seconds as trace-event microseconds, kept to the nanosecond the records have."""
    return round(seconds * 1e6, 3)


class PerfettoWriter:
    """``emit`` target writing one trace-event JSON document to ``out``: the opening now, ``]}`` at ``close``.

    ``live``: the trace is being taken now, so new threads are named from
    ``/proc/TID/comm``; converting a saved trace passes ``live=False``.
    ``meta`` (e.g. the backend and argv) goes into the document's ``otherData``,
    which Perfetto shows as the trace's metadata.
    """

    def __init__(self, out: IO[str], *, live: bool = True, meta: dict[str, Any] | None = None) -> None:
        self.out = out
        self.names = ThreadNames(live=live)
        self.first = True
        self.last_end: dict[int, float] = {}  # tid -> end (µs) of its last syscall slice
        self.pending: dict[int, Record] = {}  # tid -> a call it never returned from, ended by its next event
        self.start: float | None = None  # µs, earliest time seen (metadata events are stamped with it)
        self.end = 0.0  # µs, latest time seen (calls never ended end there)
        self.other: dict[str, Any] = {"tool": "pytrace", "version": __version__, **(meta or {})}
        out.write('{"displayTimeUnit":"ns","traceEvents":[\n')

    def _write(self, event: Record) -> None:
        if self.first:
            self.first = False
            self.out.write(_dumps(event))
        else:
            self.out.write(",\n" + _dumps(event))

    def _seen(self, ts: float) -> None:
        if self.start is None or ts < self.start:
            self.start = ts
        if ts > self.end:
            self.end = ts

    def __call__(self, tid: int, rec: Record) -> None:
        kind = rec.get("type")
        if kind == "header":  # a saved trace being converted: keep how it was taken
            self.other.update(tool=rec.get("tool", "pytrace"), version=rec.get("version"),
                              backend=rec.get("backend"), argv=rec.get("argv"))
            return
        rec_tid = rec.get("tid")
        if not rec_tid:  # process counts, the summary: nothing on a track
            return
        self.names.see(rec)
        ts_s = rec.get("timestamp")
        if ts_s is None:
            return
        ts = _us(ts_s)
        pending = self.pending.pop(rec_tid, None)
        if pending is not None:
            self._slice(pending, ts)
        if kind == "syscall" or kind == "libcall":
            duration = rec.get("duration")
            if duration is None:
                self.pending[rec_tid] = rec
                self._seen(ts)
            else:
                self._slice(rec, ts + _us(duration))
        elif kind in _INSTANTS:
            self._instant(rec, ts)

    def _slice(self, rec: Record, end: float) -> None:
        tid = rec["tid"]
        ts = _us(rec["timestamp"])
        libcall = rec.get("type") == "libcall"
        if not libcall:  # library calls nest (depth) and enclose syscalls: only syscalls are kept apart
            prev = self.last_end.get(tid)
            if prev is not None and ts < prev:
                ts = prev
            end = max(end, ts)
            self.last_end[tid] = end
        self._seen(ts)
        self._seen(end)
        args: Record = {"call": call_text(rec)}
        if libcall:
            cat = "libcall"
            if rec.get("depth") is not None:
                args["depth"] = rec["depth"]
        else:
            cat = "syscall," + syscall_class(rec.get("arch", "x86_64"), rec.get("nr", -1))
            args["retval"] = rec.get("retval")
            if rec.get("errno") is not None or rec.get("errno_code") is not None:
                args["errno"] = rec.get("errno") or rec.get("errno_code")
                args["strerror"] = rec.get("strerror")
            if rec.get("tampered"):
                args["tampered"] = rec["tampered"]
        args["return"] = rec.get("return_text", "?")
        outcome = rec.get("outcome", "returned")
        if rec.get("duration") is None:
            args["outcome"] = outcome if outcome != "returned" else "unfinished"
        event: Record = {"name": rec.get("name", "?"), "cat": cat, "ph": "X", "ts": ts,
                         "dur": round(end - ts, 3), "pid": rec.get("pid") or tid, "tid": tid, "args": args}
        if args.get("errno") is not None:
            event["cname"] = "bad"  # chrome://tracing's reserved red; Perfetto colours by name
        self._write(event)

    def _instant(self, rec: Record, ts: float) -> None:
        tid = rec["tid"]
        pid = rec.get("pid") or tid
        kind = rec["type"]
        if kind == "signal":
            name = rec.get("signal") or "signal"
        elif kind == "exit":
            name = f"killed by {rec['signal']}" if rec.get("signal") else f"exit {rec.get('exit_code')}"
        else:
            name = kind
        self._seen(ts)
        # The exit of a thread group's leader ends the process: drawn on the process track.
        scope = "p" if kind == "exit" and tid == pid else "t"
        self._write({"name": name, "cat": kind, "ph": "i", "s": scope, "ts": ts, "pid": pid, "tid": tid,
                     "args": {"line": event_text(rec)}})

    def close(self) -> None:
        """End the calls still open at the end of the trace, name the tracks, close the JSON document."""
        for rec in list(self.pending.values()):
            self._slice(rec, self.end)
        self.pending.clear()
        ts = self.start if self.start is not None else 0
        names = self.names
        done: set[int] = set()
        for index, (tid, pid) in enumerate(names.pid_of.items()):
            if pid not in done:
                done.add(pid)
                self._write({"name": "process_name", "ph": "M", "ts": ts, "pid": pid, "tid": pid,
                             "args": {"name": names.process_name(pid) or f"pid {pid}"}})
                self._write({"name": "process_sort_index", "ph": "M", "ts": ts, "pid": pid, "tid": pid,
                             "args": {"sort_index": len(done)}})
            self._write({"name": "thread_name", "ph": "M", "ts": ts, "pid": pid, "tid": tid,
                         "args": {"name": names.name(tid) or f"tid {tid}"}})
            self._write({"name": "thread_sort_index", "ph": "M", "ts": ts, "pid": pid, "tid": tid,
                         "args": {"sort_index": index}})
        self.out.write('\n],"otherData":' + _dumps(self.other) + "}\n")
        self.out.flush()

