"""``pytrace report``, ``timeline`` and ``export``: tools over a saved ``--output-format=json`` trace.

They are sub-commands of ``pytrace`` rather than options because they trace
nothing; a program that happens to be called ``report`` or ``timeline`` is
traced with ``pytrace -- report ...``.
"""

from __future__ import annotations

import argparse
import sys

SUBCOMMANDS = ("report", "timeline", "export")


def _fail(msg: str) -> None:
    sys.stderr.write(f"pytrace: {msg}\n")
    sys.exit(1)


def report(argv: list[str]) -> int:
    from pytrace.structured.replay import replay_text, summary_text

    ap = argparse.ArgumentParser(prog="pytrace report",
                                 description="Print a saved JSON trace as strace's text or its -c summary.")
    ap.add_argument("files", nargs="+", metavar="FILE.jsonl", help="trace file(s) (- for stdin)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("-c", "--summary-only", action="store_true", help="print the -c table only")
    mode.add_argument("-C", "--summary", action="store_true", help="print the trace, then the table")
    ap.add_argument("-S", "--summary-sort-by", metavar="SORTBY", help="sort the table as strace -S does")
    ap.add_argument("-w", "--summary-wall-clock", action="store_true",
                    help="count from the calls' wall-clock durations even if the trace holds a -c summary")
    ap.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    args = ap.parse_args(argv)
    from pytrace.pipeline import SetupError, load_records, replay_output

    try:
        records = load_records(args.files)
    except SetupError as exc:
        _fail(str(exc))
    if next((r for r in records if r["type"] == "header"), {}).get("tool") == "pyltrace":
        from pytrace.structured.ltrace_replay import report as ltrace_report  # ltrace's text and table

        if args.summary_sort_by is not None:
            _fail("option -S does not apply to a pyltrace trace (ltrace's table is sorted by time)")
        with replay_output(args.output) as out:
            return ltrace_report(records, out, summary_only=args.summary_only, summary=args.summary)
    if args.summary_sort_by is not None:
        from pytrace.sinks.summary import SummaryOptionError, parse_sortby

        try:
            parse_sortby(args.summary_sort_by)
        except SummaryOptionError as exc:
            _fail(str(exc))
    with replay_output(args.output) as out:
        if not args.summary_only:
            replay_text(records, out)
        if args.summary_only or args.summary:
            out.write(summary_text(records, sortby=args.summary_sort_by, wall_clock=args.summary_wall_clock))
    return 0


def timeline(argv: list[str]) -> int:
    from pytrace.structured.timeline import main as timeline_main

    return timeline_main(argv)


def export(argv: list[str]) -> int:
    from pytrace.structured.convert import export_main

    return export_main(argv)


def run(name: str, argv: list[str]) -> None:
    sys.exit({"report": report, "timeline": timeline, "export": export}[name](argv))
