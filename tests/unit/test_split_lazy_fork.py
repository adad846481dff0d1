"""When the split stop path starts its render process (pytrace/sinks/split.py, RenderProcess).

A short run never forks: the tracer renders its records itself at the end, through the same
Renderer and sinks.  A run forks once it proves long: at the first full batch, or at the SIGALRM
tick, but from the tick only while the loop sleeps in waitpid (the tick can interrupt the tracer
half-way through an import or a decoder's cache, which a process forked then would inherit half
done; otherwise the fork waits for the next record).  Every record, from the first, then goes to
the render process, in order.  These tests drive SplitSink directly with real Calls and a
RenderProcess whose fork hands back a pipe instead of starting a process, so each decision is
shown without timing.
"""

from __future__ import annotations

import os
import pickle

import pytest

from pytrace.cli.strace_cli import configure
from pytrace.events import Call
from pytrace.pipeline import build_decoding
from pytrace.sinks import split
from pytrace.tables.syscalls import table

GETPPID = table("x86_64").by_name["getppid"].nr


class Collect:
    """The render side's sink: what it was given, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int]] = []
        self.closed = False

    def on_entry(self, call: Call) -> None:
        self.seen.append(("entry", call.pid))

    def on_exit(self, call: Call) -> None:
        self.seen.append(("exit", call.rval))

    def on_process_count(self, count: int) -> None:
        self.seen.append(("count", count))

    def close(self) -> None:
        self.closed = True


class PipeRender(split.RenderProcess):
    """fork() opens a pipe and returns its write end; the test reads the records back."""

    def __init__(self, sink: Collect, fail: bool = False) -> None:
        self.finished = 0
        super().__init__(sink, self._finish, flusher=None, settle=lambda: None)  # type: ignore[arg-type]
        self.forks = 0
        self.fail = fail
        self.rfd = -1

    def _finish(self) -> None:
        self.finished += 1

    def fork(self) -> int:
        self.forks += 1
        if self.fail:
            raise OSError(11, "Resource temporarily unavailable")
        self.rfd, self.fd = os.pipe()
        return self.fd

    def records(self) -> list[tuple[object, ...]]:
        """Every record sent, read back in order until the tracer closed the pipe."""
        out: list[tuple[object, ...]] = []
        while True:
            head = split._read_exact(self.rfd, 8)
            if head is None:
                break
            data = split._read_exact(self.rfd, int.from_bytes(head, "little"))
            assert data is not None
            out.extend(pickle.loads(data))
        os.close(self.rfd)
        return out


def _sink(render: PipeRender) -> split.SplitSink:
    cfg, _ = configure(["-o", "/dev/null", "true"])
    decoding = build_decoding(cfg, lambda text: None, replay=True)
    return split.SplitSink(render, decoding.decoders, string_limit=32, bytes_limit=split.MIN_BYTES,
                           abandoned=False)


def _calls(sink: split.SplitSink, n: int, start: int = 0) -> None:
    """n getppid calls of thread 100+i, entry then exit (rval i): nothing to copy, nothing decoded."""
    for i in range(start, start + n):
        call = Call(100 + i, "x86_64", GETPPID, "getppid", (0,) * 6, 0, 0, None, 0.0)  # type: ignore[arg-type]
        sink.on_entry(call)
        call.rval, call.exited = i, True
        sink.on_exit(call)


def _expected(n: int) -> list[tuple[str, int]]:
    return [item for i in range(n) for item in (("entry", 100 + i), ("exit", i))]


def _replay(records: list[tuple[object, ...]]) -> list[tuple[str, int]]:
    """What the render process would print from the records it received."""
    got = Collect()
    renderer = split.Renderer(got)  # type: ignore[arg-type]
    assert records[-1] == (split._CLOSE,)
    for rec in records[:-1]:
        renderer.handle(rec)
    return got.seen


def test_a_short_run_renders_in_the_tracer_and_never_forks() -> None:
    out = Collect()
    render = PipeRender(out)
    sink = _sink(render)
    sink.on_process_count(1)
    _calls(sink, 10)
    sink.close()
    assert render.forks == 0
    assert out.seen == [("count", 1), *_expected(10)]
    assert out.closed and render.finished == 1
    sink.tick(True)  # a tick after the end starts nothing
    assert render.forks == 0
    render.wait()  # nothing to wait for


def test_a_full_batch_forks_and_every_record_goes_to_the_render_process() -> None:
    out = Collect()
    render = PipeRender(out)
    sink = _sink(render)
    n = split.BATCH  # 2 records per call: the batch fills half-way through
    _calls(sink, n)
    assert render.forks == 1
    sink.close()
    assert render.forks == 1 and out.seen == [] and render.finished == 0  # the tracer printed nothing
    assert _replay(render.records()) == _expected(n)


def test_a_tick_outside_waitpid_forks_at_the_next_record() -> None:
    out = Collect()
    render = PipeRender(out)
    sink = _sink(render)
    _calls(sink, 3)
    sink.tick(False)  # the loop is busy: maybe inside an import or a decoder
    assert render.forks == 0 and sink.limit == 0
    _calls(sink, 1, start=3)  # the entry record's end is the first safe point
    assert render.forks == 1 and sink.limit == split.BATCH
    _calls(sink, 2, start=4)
    sink.close()
    assert render.forks == 1 and out.seen == []
    assert _replay(render.records()) == _expected(6)


def test_a_tick_in_waitpid_forks_at_once() -> None:
    out = Collect()
    render = PipeRender(out)
    sink = _sink(render)
    _calls(sink, 2)
    sink.tick(True)
    assert render.forks == 1
    sink.tick(True)  # later ticks send, never fork again
    _calls(sink, 1, start=2)
    sink.close()
    assert render.forks == 1
    assert _replay(render.records()) == _expected(3)


@pytest.mark.parametrize("n", [3, split.BATCH])
def test_a_failed_fork_keeps_the_records_for_the_tracer(n: int) -> None:
    out = Collect()
    render = PipeRender(out, fail=True)
    sink = _sink(render)
    _calls(sink, n)
    sink.tick(True)
    _calls(sink, 2, start=n)
    sink.close()
    assert render.forks == 1  # tried once, never again
    assert out.seen == _expected(n + 2) and render.finished == 1
