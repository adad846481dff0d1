"""``--output-format=json``: records as JSON Lines, a header first, the ``-c`` summary as one object.

Each output stream (stderr, ``-o FILE``, or each ``FILE.PID`` of ``-ff``)
starts with a ``header`` record naming the schema version, the backend and
how strace would prefix lines (``pid_prefix``), so ``pytrace report`` can
print the text back without being told the original options.  Lines are
flushed when the output is a terminal or shared with the tracee's stderr,
as the text output is.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from orjson import dumps as _orjson_dumps

from pytrace import __version__
from pytrace.sinks import histogram
from pytrace.sinks.summary import NS_IN_S, SummarySink, to_usecs, ts_div, ts_float
from pytrace.structured.records import SCHEMA_VERSION, Record

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.sinks.strace_text import Stream

_ascii_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, check_circular=False).encode


def dumps(rec: Any) -> str:
    """One record as compact, ASCII-only JSON text.

    orjson encodes a record in about 1 us where the standard library's C encoder takes 8-10 (one
    record per syscall: it was the largest single cost of ``--json`` after ptrace itself, see
    docs/structured-output.md).  Its output is the standard encoder's except for the spelling of
    some floats (``0.00007987`` for ``7.987e-05``, the same number).  What orjson refuses (a lone
    surrogate from undecodable argv bytes, an integer past 64 bits) or writes as non-ASCII UTF-8
    goes through the standard encoder, so every line stays ASCII whatever the output's encoding.
    """
    try:
        data = _orjson_dumps(rec)
    except TypeError:  # orjson.JSONEncodeError
        return _ascii_dumps(rec)
    return data.decode("ascii") if data.isascii() else _ascii_dumps(rec)


def header(*, backend: str, argv: list[str], pid_prefix: str, acolumn: int = 40, quiet: int = 0,
           quiet_personality: bool = False, tool: str = "pytrace") -> Record:
    """What a reader needs besides the events: strace's line prefix, ``=`` column and -q level for replay."""
    return {"type": "header", "schema_version": SCHEMA_VERSION, "tool": tool, "version": __version__,
            "backend": backend, "argv": argv, "pid_prefix": pid_prefix, "columns": acolumn, "quiet": quiet,
            "quiet_personality": quiet_personality}


class JsonLinesWriter:
    """``emit`` target: one line per record on the stream of the record's thread (``-ff``: its own file)."""

    def __init__(self, stream_for: Callable[[int], Stream], main: Stream, head: Record) -> None:
        self.stream_for = stream_for
        self.main = main
        self.head = head
        self.started: set[int] = set()

    def __call__(self, tid: int, rec: Record) -> None:
        """``tid`` 0: a record about no thread (process counts, the summary): the main output."""
        s = self.stream_for(tid) if tid > 0 else self.main
        key = id(s)
        if key not in self.started:
            self.started.add(key)
            s.f.write(dumps(self.head) + "\n")
        s.f.write(dumps(rec) + "\n")
        if s.tty:
            s.f.flush()


def summary_record(sink: SummarySink) -> Record:
    """The whole ``-c`` result: per personality, strace's rows with the raw nanosecond sums that built them."""
    from pytrace.tables.syscalls import table

    tables: list[dict[str, Any]] = []
    hists = sink.summary.hists
    for arch, per_nr in sink.summary.counts.items():
        names = table(arch).names
        arch_hists = hists.get(arch, {}) if hists is not None else None
        rows = []
        total_ns = sum(e[2] for nr, e in per_nr.items() if 0 <= nr < len(names) and names[nr])
        for nr, (calls, errors, tot, tmin, tmax) in sorted(per_nr.items()):
            if not (0 <= nr < len(names) and names[nr]):
                continue
            rows.append({
                "name": names[nr], "nr": nr, "calls": calls, "errors": errors,
                "seconds": ts_float(tot), "usecs_per_call": to_usecs(ts_div(tot, calls)) if calls else 0,
                "percent_time": 100.0 * ts_float(tot) / ts_float(total_ns) if total_ns else 0.0,
                "total_ns": tot, "min_ns": tmin if calls else 0, "max_ns": tmax,
            })
            if arch_hists is not None:  # --histogram: the non-empty log2 slots of the same durations
                rows[-1]["histogram"] = histogram.nonzero_buckets(arch_hists.get(nr, []))
        if rows:
            tables.append({
                "arch": arch, "rows": rows,
                "total": {"calls": sum(r["calls"] for r in rows), "errors": sum(r["errors"] for r in rows),
                          "seconds": ts_float(total_ns)},
            })
    return {"type": "summary", "clock": sink.clock, "tables": tables}


class JsonSummarySink(SummarySink):
    """``-c``/``-C`` with JSON output: the same counting, written as one ``summary`` record."""

    def __init__(self, writer: JsonLinesWriter, *, clock: str, **kw: Any) -> None:
        super().__init__(sys.stderr, **kw)
        self.writer = writer
        self.clock = clock

    def close(self) -> None:
        if self.notices is not None:
            self.notices.close()
        self.writer(0, summary_record(self))


__all__ = ["NS_IN_S", "JsonLinesWriter", "JsonSummarySink", "header", "summary_record"]
