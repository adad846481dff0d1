"""Builds the sink for ``--output-format=json|perfetto`` (the text output's counterpart in pipeline.py).

Kept apart so a text trace never imports the structured-output modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.cli.strace_cli import Config
    from pytrace.decode.decoding import Decoding
    from pytrace.events import Sink
    from pytrace.sinks.strace_text import Stream
    from pytrace.structured.records import Record


def build_sink(
    cfg: Config, argv: list[str], stream_for: Callable[[int], Stream], main: Stream, pid_prefix: str,
    statuses: frozenset[str] | None, signals: Callable[[int], bool] | None, decoding: Decoding,
    comm_of: dict[int, str] | None = None,
) -> tuple[Sink, Callable[[], None]]:
    """The record sink (plus the summary for -c/-C) and a ``finish`` to call once tracing ended.

    ``comm_of``: eBPF system-wide mode's names (thread id -> name): JSON syscall and exit records
    then carry ``comm``, as its text lines carry ``<comm>``.
    """
    from pytrace.structured.jsonl import JsonLinesWriter, header
    from pytrace.structured.records import RecordSink

    if cfg.output_format == "perfetto":
        from pytrace.structured.perfetto import PerfettoWriter

        writer = PerfettoWriter(main.f, meta={"backend": cfg.backend, "argv": argv})
        records = RecordSink(writer, statuses=statuses, signals=signals, decoding=decoding)
        return records, writer.close
    head = header(backend=cfg.backend, argv=argv, pid_prefix=pid_prefix, acolumn=cfg.acolumn, quiet=cfg.quiet,
                  quiet_personality=bool(cfg.output and cfg.command))
    emit: Callable[[int, Record], None] = JsonLinesWriter(stream_for, main, head)
    if comm_of is not None:
        emit = naming_processes(emit, comm_of)
    return record_sinks(cfg, emit, statuses, signals, decoding), lambda: None


def naming_processes(emit: Callable[[int, Record], None], comm_of: dict[int, str]) -> Callable[[int, Record], None]:
    """``emit`` with each syscall and exit record given its thread's name (``comm``)."""
    named = ("syscall", "exit")
    get = comm_of.get

    def emit_named(tid: int, rec: Record) -> None:
        if rec["type"] in named:
            rec["comm"] = get(tid)
        emit(tid, rec)

    return emit_named


def record_sinks(
    cfg: Config, emit: Callable[[int, Record], None], statuses: frozenset[str] | None,
    signals: Callable[[int], bool] | None, decoding: Decoding,
) -> Sink:
    """--output-format=json's records (and its -c/-C summary record) handed to ``emit(tid, record)``:
    the JSON Lines writer, or the Python API's queue."""
    from pytrace.sinks import summary as summary_opts
    from pytrace.structured.jsonl import JsonSummarySink
    from pytrace.structured.records import RecordSink

    records = RecordSink(emit, statuses=statuses, process_counts=not cfg.separate, signals=signals,
                         decoding=decoding)
    if not cfg.summary:
        return records
    wall = cfg.summary_wall or cfg.backend != "ptrace"
    summary = JsonSummarySink(
        emit, clock="wall" if wall else "cpu", wall_clock=wall,  # type: ignore[arg-type]
        overhead_ns=summary_opts.parse_overhead(cfg.summary_overhead) if cfg.summary_overhead else 0,
        notices=records if cfg.summary == "only" else None, histogram=cfg.summary_histogram,
    )
    if cfg.summary == "only":
        return summary
    from pytrace.sinks.tee import TeeSink

    return TeeSink(records, summary)
