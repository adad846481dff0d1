"""``pytrace report`` of a pyltrace JSON trace: ltrace's text (or its -c table) back from the records.

The records are turned back into the tracer's calls on ``format.Output`` in the
order they happened: a ``libcall``/``syscall`` record into ``left`` at its
``entry_seq`` and ``right`` (or ``no_return``) at its ``seq``; signal, exit,
exec and usdt records into their lines.  Output's own logic then closes open lines with
``<unfinished ...>``, prints ``<... name resumed>``, pads to the ``-a`` column
and writes the -n/-i/-t/-r prefixes from the header's options, exactly as it did
live; -t/-r stamps use the recorded times (entry: ``timestamp``, return:
``timestamp + duration``).
"""

from __future__ import annotations

from typing import IO, Any

from pytrace.ltrace.format import Output, OutputOptions, Summary

Record = dict[str, Any]
_CALLS = ("libcall", "syscall")
_PID_PREFIX = {"none": "", "plain": "file", "bracket": "bracket"}  # the header's words -> format.OutputOptions'


def _options(head: Record) -> OutputOptions:
    lt = head.get("ltrace") or {}
    return OutputOptions(align=head.get("columns", 50), indent=lt.get("indent", 0),
                         pid_prefix=_PID_PREFIX.get(head.get("pid_prefix", "none"), ""), relative=bool(lt.get("relative")),
                         timestamps=lt.get("timestamps", 0), instruction_pointer=bool(lt.get("instruction_pointer")),
                         show_time=bool(lt.get("show_time")), summary=bool(lt.get("summary")))


def _events(records: list[Record]) -> list[tuple[int, bool, Record]]:
    """(seq, is_entry, record) in the order of events."""
    out: list[tuple[int, bool, Record]] = []
    for rec in records:
        kind = rec["type"]
        if kind in ("header", "summary"):
            continue
        if kind in _CALLS and rec.get("entry_seq") is not None and not rec.get("inherited"):
            out.append((rec["entry_seq"], True, rec))
        out.append((rec["seq"], False, rec))
    out.sort(key=lambda e: (e[0], not e[1]))
    return out


def _left_text(rec: Record) -> str:
    name = "SYS_" + rec["name"] if rec["type"] == "syscall" else rec.get("display") or rec["name"]
    return f"{name}({rec.get('entry_text') or ''}"


def _summary_of(rec: Record) -> Summary:
    summary = Summary()
    for row in rec.get("rows", []):
        summary.stats[row["name"]] = [row["calls"], row["seconds"]]
    return summary


def counted_summary(records: list[Record]) -> Summary:
    """-c's table from the calls' durations, when the trace was not recorded with -c."""
    summary = Summary()
    for rec in records:
        if rec["type"] in _CALLS and rec.get("duration") is not None:
            summary.add("SYS_" + rec["name"] if rec["type"] == "syscall" else rec["name"], rec["duration"])
        elif rec["type"] == "usdt":  # a probe hit: counted as pyltrace -c counts it, with no time
            summary.add(f"usdt:{rec['provider']}:{rec['name']}", 0.0)
    return summary


def summary_text(records: list[Record]) -> str:
    """The -c table: the recorded one, else counted from the call records."""
    saved = next((r for r in records if r["type"] == "summary"), None)
    return (_summary_of(saved) if saved is not None else counted_summary(records)).render()


def replay_text(records: list[Record], out: IO[str]) -> None:
    """Print a pyltrace JSON trace on ``out`` as pyltrace printed (or would have printed) it."""
    head = next((r for r in records if r["type"] == "header"), {})
    clock = [0.0]
    output = Output(out, _options(head))
    output.now = lambda: clock[0]  # type: ignore[method-assign]
    for _seq, is_entry, rec in _events(records):
        kind = rec["type"]
        tid = rec.get("tid", 0)
        ip = rec.get("ip")
        ts = rec.get("timestamp") or 0.0
        if kind in _CALLS:
            if is_entry:
                clock[0] = ts
                output.left(rec, tid, ip, rec.get("depth", 1), _left_text(rec))
            elif rec.get("outcome") == "returned":
                duration = rec.get("duration")
                clock[0] = ts + (duration or 0.0)
                name = "SYS_" + rec["name"] if kind == "syscall" else rec["name"]
                output.right(rec, tid, ip, rec.get("depth", 1), name, rec.get("exit_text") or "",
                             rec.get("return_text") or "", duration)
                for line in rec.get("backtrace") or ():
                    output.raw(line + "\n")
            else:
                output.no_return(rec)
            continue
        clock[0] = ts
        if kind == "signal":
            output.signal(tid, rec.get("signo") or 0, ip)
        elif kind == "exit":
            output.exited(tid, rec.get("pid", tid), rec.get("exit_code") or 0, rec.get("signo") or 0,
                          bool(rec.get("core_dumped")), ip)
        elif kind == "exec":
            output.exec(tid, ip)
        elif kind == "usdt":
            output.probe(tid, ip, rec.get("depth", 1), f"usdt:{rec['provider']}:{rec['name']}",
                         [a["text"] for a in rec.get("args") or ()])
    saved = next((r for r in records if r["type"] == "summary"), None)
    output.close(_summary_of(saved) if saved is not None else None)


def report(records: list[Record], out: IO[str], *, summary_only: bool, summary: bool) -> int:
    """``pytrace report [-c|-C] [-o FILE]`` of a pyltrace trace: the text, the table, or the text then the table.

    A trace recorded with -c holds only the table: its text *is* the table, printed once.
    """
    head = next((r for r in records if r["type"] == "header"), {})
    recorded_table = bool((head.get("ltrace") or {}).get("summary"))
    if not summary_only:
        replay_text(records, out)
    if summary_only or (summary and not recorded_table):
        out.write(summary_text(records))
    return 0
