"""``pytrace timeline FILE.jsonl -o timeline.html``: a saved trace drawn as a self-contained HTML/SVG page.

One row per thread (labelled ``pid/tid comm``), one bar per syscall on a
shared time axis, coloured by strace's syscall class (the class tables
``-e trace=%file`` uses, via ``tracks.syscall_class``); failed calls have a
red outline and a red mark under them, calls that never returned are pale
and dashed, signals and exits are markers.  Hovering a bar shows its strace
line (an SVG ``<title>``, so the page needs no script); there is nothing to
fetch, so the file opens offline and can be mailed around.

The time axis is linear.  Its scale is chosen so that the typical distance
between two calls of a thread is a few pixels, within a page width bounded
by ``MAX_AUTO_WIDTH`` (scroll horizontally); ``--width`` overrides it.  A
call shorter than a pixel is still drawn ``MIN_BAR`` wide, and bars that
would then overlap are merged into one bar standing for several calls (its
hover text counts them by name): without that, a 100 000-call trace would
be a page of overdrawn slivers tens of megabytes large.  If merging
neighbours is not enough, the merge distance grows until at most
``--max-bars`` bars remain, and the page says so.
"""

from __future__ import annotations

import argparse
import math
import shlex
import statistics
import time
from collections import Counter
from html import escape
from typing import IO, TYPE_CHECKING, Any

from pytrace.structured.tracks import CLASS_ORDER, ThreadNames, call_text, event_text, syscall_class

if TYPE_CHECKING:
    from collections.abc import Iterable

Record = dict[str, Any]

#: Fill colour per display class (Tableau-10-like: distinct, and none is the red of failures).
COLOURS: dict[str, str] = {
    "file": "#4e79a7", "desc": "#59a14f", "network": "#f28e2b", "process": "#b07aa1", "memory": "#76b7b2",
    "signal": "#edc948", "ipc": "#ff9da7", "creds": "#9c755f", "clock": "#bab0ac", "other": "#8c8c8c",
    "libcall": "#17becf",
}
CLASS_TITLES: dict[str, str] = {
    "file": "file (paths)", "desc": "file descriptors", "network": "network", "process": "process",
    "memory": "memory", "signal": "signals", "ipc": "IPC", "creds": "credentials", "clock": "clocks",
    "other": "other", "libcall": "library calls",
}
FAILED_COLOUR = "#d62728"

ROW_H = 22
BAR_Y = 3
BAR_H = 14
LIB_H = 3  # library calls: a thin bar along the bottom of the row
AXIS_H = 26
LABEL_W = 280
MIN_BAR = 2.0  # px: the narrowest call still visible
MERGED_W = 8.0  # px: the widest a bar of merged short calls grows
AUTO_PITCH = 8.0  # px: the typical distance between two calls of a thread, when the width is automatic
MIN_AUTO_WIDTH = 1000
MAX_AUTO_WIDTH = 16000
DEFAULT_MAX_BARS = 30000


class Call:
    """One bar's worth of a call: times in seconds, its class, and its strace line."""

    __slots__ = ("cls", "end", "failed", "lib", "name", "seq", "start", "text", "unfinished")

    def __init__(self, rec: Record, end: float) -> None:
        self.start: float = rec["timestamp"]
        self.end = max(end, self.start)
        self.lib = rec.get("type") == "libcall"
        self.cls = "libcall" if self.lib else syscall_class(rec.get("arch", "x86_64"), rec.get("nr", -1))
        self.failed = rec.get("errno_code") is not None or rec.get("errno") is not None
        self.unfinished = rec.get("duration") is None
        self.name: str = rec.get("name", "?")
        self.seq: int = rec.get("seq", 0)
        self.text = call_text(rec)


class Trace:
    """The records of a trace sorted into rows: calls and markers per thread, and the time span."""

    def __init__(self) -> None:
        self.names = ThreadNames(live=False)
        self.calls: dict[int, list[Call]] = {}
        self.marks: dict[int, list[tuple[float, str, str, int]]] = {}  # tid -> (time, kind, strace line, seq)
        self.head: Record | None = None
        self.first: dict[int, float] = {}  # tid -> the earliest time it appears at
        self.t0 = math.inf
        self.t1 = -math.inf

    def _time(self, t: float) -> None:
        self.t0 = min(self.t0, t)
        self.t1 = max(self.t1, t)

    def read(self, records: Iterable[Record]) -> Trace:
        pending: dict[int, Record] = {}  # calls never returned: they end at their thread's next event
        for rec in records:
            kind = rec.get("type")
            if kind == "header":
                self.head = self.head or rec
                continue
            tid = rec.get("tid")
            ts = rec.get("timestamp")
            if not tid or ts is None:
                continue
            self.names.see(rec)
            self._time(ts)
            if ts < self.first.get(tid, math.inf):
                self.first[tid] = ts
            cut = pending.pop(tid, None)
            if cut is not None:
                self.calls.setdefault(tid, []).append(Call(cut, ts))
            if kind in ("syscall", "libcall"):
                duration = rec.get("duration")
                if duration is None:
                    pending[tid] = rec
                else:
                    self._time(ts + duration)
                    self.calls.setdefault(tid, []).append(Call(rec, ts + duration))
            elif kind in ("signal", "exit", "stop", "superseded", "personality", "exec"):
                self.marks.setdefault(tid, []).append((ts, kind, event_text(rec), rec.get("seq", 0)))
        for tid, rec in pending.items():
            self.calls.setdefault(tid, []).append(Call(rec, self.t1))
        for calls in self.calls.values():
            calls.sort(key=lambda c: (c.start, c.seq))
        return self

    def rows(self) -> list[tuple[int, int]]:
        """(pid, tid) per row: processes in order of appearance, each with its threads in order of appearance.

        Appearance is by time (the records come in the order calls *end*,
        so a thread whose first call blocks would otherwise come late).
        """
        first = self.first
        order: dict[int, list[int]] = {}
        for tid, pid in sorted(self.names.pid_of.items(), key=lambda tp: first.get(tp[0], math.inf)):
            order.setdefault(pid, []).append(tid)
        return [(pid, tid) for pid, tids in order.items() for tid in tids]


class Bar:
    """What is drawn: one call, or neighbours merged because they would overlap at this scale."""

    __slots__ = ("calls", "x0", "x1")

    def __init__(self, x0: float, x1: float, call: Call) -> None:
        self.x0 = x0
        self.x1 = x1
        self.calls = [call]


def layout(calls: list[Call], t0: float, scale: float, merge_gap: float | None) -> list[Bar]:
    """Bars for one row's calls (sorted by start); ``merge_gap`` None draws every call on its own.

    A merged bar stops growing at ``MERGED_W`` px (more as the gap grows):
    a busy second drawn as one long bar would say nothing about where in
    it the calls were, nor which.
    """
    bars: list[Bar] = []
    cur: Bar | None = None
    widest = MERGED_W + 4 * (merge_gap or 0.0)
    for call in calls:
        x0 = (call.start - t0) * scale
        x1 = max(x0 + MIN_BAR, (call.end - t0) * scale)
        if (merge_gap is not None and cur is not None and x0 < cur.x1 + merge_gap
                and x1 - cur.x0 <= widest):
            cur.calls.append(call)
            cur.x1 = max(cur.x1, x1)
        else:
            cur = Bar(x0, x1, call)
            bars.append(cur)
    return bars


def auto_scale(trace: Trace, span: float) -> float:
    """Pixels per second such that the median gap between a thread's consecutive calls is ``AUTO_PITCH``."""
    gaps: list[float] = []
    for calls in trace.calls.values():
        starts = [c.start for c in calls if not c.lib]
        gaps.extend(b - a for a, b in zip(starts, starts[1:], strict=False) if b > a)
    pitch = statistics.median(gaps) if gaps else span
    width = min(max(span * AUTO_PITCH / pitch if pitch > 0 else MIN_AUTO_WIDTH, MIN_AUTO_WIDTH), MAX_AUTO_WIDTH)
    return width / span


def _nice_step(raw: float) -> float:
    """The 1/2/5 x 10^k step at least ``raw`` (seconds)."""
    exp = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * exp >= raw:
            return m * exp
    return 10 * exp


def _fmt_offset(seconds: float, step: float) -> str:
    if step < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if step < 1:
        digits = max(0, -math.floor(math.log10(step * 1e3)))
        return f"{seconds * 1e3:.{digits}f} ms"
    return f"{seconds:g} s"


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} µs"


_STYLE = """
body{font:13px/1.4 system-ui,sans-serif;margin:12px;color:#222;background:#fff}
h1{font-size:17px;margin:0 0 4px}
.info{margin:2px 0;color:#444}
.note{margin:2px 0;color:#8a4b00}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:8px 0}
.legend span{white-space:nowrap}
.legend svg{vertical-align:middle;margin-right:4px}
.chart{display:flex;border:1px solid #ccc}
.labels{flex:none;background:#fafafa;border-right:1px solid #ccc}
.scroll{overflow-x:auto;flex:1}
text{font:12px ui-monospace,monospace;fill:#222}
.axis text{fill:#555}
.grid{stroke:#e4e4e4;stroke-width:1}
.rowbg{fill:#f6f8fa}
.procsep{stroke:#999;stroke-width:1}
.bar{stroke:none}
.bar:hover{stroke:#000;stroke-width:1}
.failed{stroke:%(failed)s;stroke-width:1.5}
.failmark{fill:%(failed)s}
.unfinished{fill-opacity:.45;stroke:#555;stroke-dasharray:2 2;stroke-width:1}
.merged{fill-opacity:.8}
.signal-mark{fill:#c7a600;stroke:#000;stroke-width:.5}
.exit-mark{fill:#000}
.killed{fill:%(failed)s}
.other-mark{fill:#666}
"""


def _css() -> str:
    rules = [_STYLE % {"failed": FAILED_COLOUR}]
    rules.extend(f".c-{cls}{{fill:{colour}}}" for cls, colour in COLOURS.items())
    return "".join(rules)


def _bar_svg(bar: Bar, y: int) -> str:
    calls = bar.calls
    first = calls[0]
    lib = first.lib
    height = LIB_H if lib else BAR_H
    top = y + (ROW_H - LIB_H - 1 if lib else BAR_Y)
    width = bar.x1 - bar.x0
    failed = sum(1 for c in calls if c.failed)
    if len(calls) == 1:
        cls = first.cls
        extra = (" failed" if failed else "") + (" unfinished" if first.unfinished else "")
        data = f'data-seq="{first.seq}" data-name="{escape(first.name)}" data-class="{cls}" data-n="1"'
        title = f"{first.text}  <{_duration(first.end - first.start)}>"
    else:
        cls = Counter(c.cls for c in calls).most_common(1)[0][0]
        extra = " merged" + (" failed" if failed else "")
        data = (f'data-seq="{first.seq}" data-last-seq="{calls[-1].seq}" data-name="" data-class="{cls}" '
                f'data-n="{len(calls)}"')
        names = ", ".join(f"{n} \u00d7{k}" for n, k in Counter(c.name for c in calls).most_common(8))
        more = "" if len({c.name for c in calls}) <= 8 else ", ..."
        title = (f"{len(calls)} calls in {_duration(calls[-1].end - first.start)} (merged at this scale): "
                 f"{names}{more}" + (f"; {failed} failed" if failed else "")
                 + f"\nfirst: {first.text}\nlast: {calls[-1].text}")
    if failed:
        data += f' data-failed="{failed}"'
    out = (f'<rect class="bar c-{cls}{extra}" x="{bar.x0:.1f}" y="{top}" width="{width:.1f}" height="{height}" '
           f"{data}><title>{escape(title, quote=False)}</title></rect>")
    if failed and not lib:
        out += (f'<rect class="failmark" x="{bar.x0:.1f}" y="{y + BAR_Y + BAR_H + 1}" '
                f'width="{max(width, 3.0):.1f}" height="3"/>')
    return out


def _mark_svg(x: float, y: int, kind: str, text: str, seq: int) -> str:
    title = f"<title>{escape(text, quote=False)}</title>"
    data = f'data-kind="{kind}" data-seq="{seq}"'
    if kind == "signal":
        return f'<path class="signal-mark" {data} d="M{x - 4:.1f},{y + 1} h8 l-4,7 z">{title}</path>'
    if kind == "exit":
        cls = "exit-mark killed" if "killed" in text else "exit-mark"
        return (f'<rect class="{cls}" {data} x="{x - 1:.1f}" y="{y + 1}" width="2.5" '
                f'height="{ROW_H - 2}">{title}</rect>')
    return f'<circle class="other-mark" {data} cx="{x:.1f}" cy="{y + ROW_H / 2}" r="3">{title}</circle>'


def render(records: Iterable[Record], out: IO[str], *, width: float | None = None, merge: bool = True,
           max_bars: int = DEFAULT_MAX_BARS, title: str | None = None) -> None:
    """Write the timeline page of ``records`` to ``out``."""
    trace = Trace().read(records)
    rows = trace.rows()
    if not rows or trace.t0 == math.inf:
        t0, span = 0.0, 1e-3
    else:
        t0 = trace.t0
        span = max(trace.t1 - trace.t0, 1e-6)
    scale = width / span if width else auto_scale(trace, span)
    chart_w = math.ceil(span * scale) + 60

    # Bars per row; the merge distance grows until the page is bounded.
    gap: float | None = 0.0 if merge else None
    while True:
        laid = {tid: layout([c for c in trace.calls.get(tid, []) if not c.lib], t0, scale, gap)
                + layout([c for c in trace.calls.get(tid, []) if c.lib], t0, scale, gap) for _pid, tid in rows}
        nbars = sum(len(b) for b in laid.values())
        if gap is None or nbars <= max_bars or gap > chart_w:
            break
        gap = max(gap * 2, 1.0)

    height = AXIS_H + ROW_H * len(rows) + 4
    parts: list[str] = []
    w = parts.append
    w(f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" width="{chart_w}" height="{height}">')
    # Axis and grid.
    step = _nice_step(110 / scale)
    w('<g class="axis">')
    k = 0
    while k * step * scale <= chart_w - 45:  # the last label must fit
        x = k * step * scale
        w(f'<line class="grid" x1="{x:.1f}" y1="{AXIS_H - 6}" x2="{x:.1f}" y2="{height}"/>'
          f'<text x="{x + 3:.1f}" y="{AXIS_H - 10}">+{_fmt_offset(k * step, step)}</text>')
        k += 1
    w("</g>")
    # Rows.
    prev_pid = None
    counts: Counter[str] = Counter()
    failed_total = unfinished_total = 0
    for i, (pid, tid) in enumerate(rows):
        y = AXIS_H + i * ROW_H
        body = [f'<g class="row" data-pid="{pid}" data-tid="{tid}">']
        if i % 2:
            body.append(f'<rect class="rowbg" x="0" y="{y}" width="{chart_w}" height="{ROW_H}"/>')
        if prev_pid is not None and pid != prev_pid:
            body.append(f'<line class="procsep" x1="0" y1="{y}" x2="{chart_w}" y2="{y}"/>')
        prev_pid = pid
        for call in trace.calls.get(tid, []):
            counts[call.cls] += 1
            failed_total += call.failed
            unfinished_total += call.unfinished
        body.extend(_bar_svg(bar, y) for bar in laid[tid])
        body.extend(_mark_svg((ts - t0) * scale, y, kind, text, seq) for ts, kind, text, seq in trace.marks.get(tid, []))
        body.append("</g>")
        w("".join(body))
    w("</svg>")
    chart = "\n".join(parts)

    labels = [f'<svg class="labels" xmlns="http://www.w3.org/2000/svg" width="{LABEL_W}" height="{height}">']
    labels.append(f'<text x="6" y="{AXIS_H - 10}">pid/tid command</text>')
    prev_pid = None
    for i, (pid, tid) in enumerate(rows):
        y = AXIS_H + i * ROW_H
        name = trace.names.name(tid)
        label = f"{pid}/{tid} {name}".rstrip()
        weight = ' font-weight="bold"' if tid == pid else ""
        if i % 2:
            labels.append(f'<rect class="rowbg" x="0" y="{y}" width="{LABEL_W}" height="{ROW_H}"/>')
        if prev_pid is not None and pid != prev_pid:
            labels.append(f'<line class="procsep" x1="0" y1="{y}" x2="{LABEL_W}" y2="{y}"/>')
        prev_pid = pid
        labels.append(f'<text class="label" x="6" y="{y + 15}"{weight} data-pid="{pid}" data-tid="{tid}">'
                      f"{escape(label, quote=False)}<title>{escape(label, quote=False)}</title></text>")
    labels.append("</svg>")

    ncalls = sum(counts.values())
    legend = ['<div class="legend">']
    for cls in (*CLASS_ORDER, "libcall"):
        if counts[cls]:
            legend.append(f'<span data-class="{cls}"><svg width="14" height="12"><rect class="c-{cls}" '
                          f'width="14" height="12"/></svg>{CLASS_TITLES[cls]} ({counts[cls]})</span>')
    legend.append(f'<span><svg width="14" height="16"><rect class="c-other failed" x="1" y="1" width="12" '
                  f'height="10"/><rect class="failmark" x="0" y="13" width="14" height="3"/></svg>'
                  f"failed ({failed_total})</span>")
    legend.append('<span><svg width="14" height="12"><rect class="c-other unfinished" x="1" y="1" width="12" '
                  f'height="10"/></svg>never returned ({unfinished_total})</span>')
    legend.append('<span><svg width="10" height="10"><path class="signal-mark" d="M1,1 h8 l-4,7 z"/></svg>'
                  "signal</span>")
    legend.append('<span><svg width="6" height="14"><rect class="exit-mark" x="2" y="0" width="2.5" '
                  'height="14"/></svg>exit</span>')
    legend.append("</div>")

    head = trace.head or {}
    argv = head.get("argv")
    heading = title or (f"{head.get('tool', 'pytrace')} {shlex.join(argv)}" if argv else "pytrace timeline")
    started = (time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t0)) + f".{int(t0 % 1 * 1e6):06d}"
               if ncalls else "-")
    nprocs = len({pid for pid, _ in rows})
    info = (f"{ncalls} calls ({failed_total} failed) in {nprocs} process{'es' if nprocs != 1 else ''}, "
            f"{len(rows)} thread{'s' if len(rows) != 1 else ''}; started {started}, "
            f"lasted {_duration(span)}; scale {_duration(1 / scale)} per pixel")
    notes = []
    if nbars < ncalls:
        how = "calls whose bars would overlap" if not gap else f"calls less than {gap:g} px apart"
        notes.append(f"{ncalls} calls are drawn as {nbars} bars: {how} are merged "
                     "(hover shows what a bar holds; pytrace timeline --width=PX or --no-merge draws more).")
    page = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(heading)}</title>",
        f"<style>{_css()}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f'<p class="info" data-calls="{ncalls}" data-bars="{nbars}">{escape(info)}</p>',
        *(f'<p class="note">{escape(n)}</p>' for n in notes),
        "".join(legend),
        '<div class="chart">',
        "".join(labels),
        '<div class="scroll">',
        chart,
        "</div></div>",
        '<p class="info">Hover a bar for its strace line and duration; colours are strace\'s syscall classes '
        "(-e trace=%file, %desc, ...).</p>",
        "</body></html>",
    ]
    out.write("\n".join(page))
    out.write("\n")


def main(argv: list[str]) -> int:
    """``pytrace timeline FILE.jsonl... [-o timeline.html] [--width PX] [--no-merge] [--max-bars N]``."""
    from pytrace.structured.convert import run_converter

    ap = argparse.ArgumentParser(prog="pytrace timeline",
                                 description="Draw a saved JSON trace (--output-format=json) as an HTML page: "
                                             "one row per thread, one bar per syscall, coloured by class.")
    ap.add_argument("files", nargs="+", metavar="FILE.jsonl", help="trace file(s) (- for stdin)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    ap.add_argument("--width", type=float, metavar="PX", help="width of the time axis in pixels (default: automatic)")
    ap.add_argument("--no-merge", dest="merge", action="store_false",
                    help="draw every call as its own bar, even where bars overlap")
    ap.add_argument("--max-bars", type=int, default=DEFAULT_MAX_BARS, metavar="N",
                    help=f"merge neighbouring calls until at most N bars remain (default: {DEFAULT_MAX_BARS})")
    ap.add_argument("--title", help="page heading (default: the traced command line)")
    args = ap.parse_args(argv)
    if args.width is not None and args.width <= 0:
        ap.error("--width must be positive")

    def draw(records: Iterable[Record], out: IO[str]) -> None:
        render(records, out, width=args.width, merge=args.merge, max_bars=args.max_bars, title=args.title)

    return run_converter(args.files, args.output, draw)
