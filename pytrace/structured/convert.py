"""``pytrace export``: a saved trace converted for other viewers.

Like ``pytrace timeline`` and ``pytrace report`` it reads saved
``--output-format=json`` traces (JSON Lines, ``-`` for stdin, several files
for ``-ff``) and writes one file through pytrace/pipeline.py's ``run_replay``;
only the rendering differs.
"""

from __future__ import annotations

import argparse
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

Record = dict[str, Any]
FORMATS = ("perfetto", "html")


def perfetto_render(records: Iterator[Record], out: IO[str]) -> None:
    """Trace-event JSON from records (``live=False``: thread names from the records, not today's /proc)."""
    from pytrace.structured.perfetto import PerfettoWriter

    writer = PerfettoWriter(out, live=False)
    for rec in records:
        writer(rec.get("tid", 0), rec)
    writer.close()


def export_main(argv: list[str]) -> int:
    """``pytrace export [--format=perfetto|html] FILE.jsonl... [-o OUT]``."""
    ap = argparse.ArgumentParser(
        prog="pytrace export",
        description="Convert a saved JSON trace (--output-format=json) for other viewers: "
                    "perfetto = Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing), "
                    "html = the timeline page of 'pytrace timeline'.")
    ap.add_argument("files", nargs="+", metavar="FILE.jsonl", help="trace file(s) (- for stdin)")
    ap.add_argument("--format", "-F", choices=FORMATS, default="perfetto", help="output format (default: perfetto)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    args = ap.parse_args(argv)
    from pytrace.pipeline import run_replay

    if args.format == "html":
        from pytrace.structured.timeline import render

        return run_replay(args.files, args.output, render)
    return run_replay(args.files, args.output, perfetto_render)
