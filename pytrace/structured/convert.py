"""``pytrace export`` and the input/output plumbing it shares with ``pytrace timeline``.

Both read saved ``--output-format=json`` traces (JSON Lines, ``-`` for
stdin, several files for ``-ff``) record by record through
``replay.read_records`` and write one file; only the rendering differs.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

Record = dict[str, Any]
FORMATS = ("perfetto", "html")


def fail(msg: str) -> int:
    sys.stderr.write(f"pytrace: {msg}\n")
    return 1


@contextmanager
def output(path: str | None) -> Iterator[IO[str]]:
    """The file named by ``-o`` (stdout without one), closed or flushed afterwards."""
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with open(path, "w", encoding="utf-8") as f:
        yield f


def run_converter(paths: list[str], out_path: str | None, render: Callable[[Iterator[Record], IO[str]], None]) -> int:
    """Feed the records of ``paths`` to ``render`` writing to ``out_path``; errors become pytrace's messages.

    ``render`` gets a lazy iterator, so a converter that streams (Perfetto)
    never holds the trace.
    """
    from pytrace.structured.replay import TraceFileError, read_records

    try:
        for path in paths:  # before anything is written: a typo must not leave a half-written output
            if path != "-":
                open(path, "rb").close()  # noqa: SIM115
        with output(out_path) as out:
            render(read_records(paths), out)
    except OSError as exc:
        return fail(f"Can't open '{exc.filename}': {exc.strerror}")
    except TraceFileError as exc:
        if out_path not in (None, "-"):
            Path(out_path).unlink(missing_ok=True)  # a truncated page or trace would only mislead
        return fail(str(exc))
    return 0


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
    if args.format == "html":
        from pytrace.structured.timeline import render

        return run_converter(args.files, args.output, render)
    return run_converter(args.files, args.output, perfetto_render)
