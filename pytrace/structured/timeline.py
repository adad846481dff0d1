"""``pytrace timeline FILE.jsonl -o timeline.html``: a saved trace drawn as a self-contained HTML/SVG page.

One row per thread, one bar per syscall on a shared time axis, coloured by
strace's syscall class (the class tables ``-e trace=%file`` uses, via
``tracks.syscall_class``); failed calls have a red outline and a red mark
under them, calls that never returned are pale and dashed, signals and exits
are markers.  Rows are the process tree: a process comes under the one that
forked it (labels indented), its threads under it; the parent's row has a
fork mark where the child starts, with a line down to the child's row, and
an ``execve`` is marked on the row of the thread that made it.  Hovering a
bar shows its strace line.

The page opens on the whole trace fitted to the window; the mouse wheel
zooms around the pointer, shift+wheel (or a horizontal wheel) and dragging
pan, and ``+ - <- -> 0/Home`` do the same from the keyboard.  A call shorter
than a pixel is still drawn ``MIN_BAR`` wide, and bars that would overlap are
merged into one bar standing for several calls (its hover text counts them
by name), at the current zoom: the embedded script (timeline_script.py)
lays the bars out for each view from the calls, which the page carries as
JSON.  If merging neighbours is not enough, the merge distance grows until
at most ``--max-bars`` bars are drawn.  Nothing is fetched: the file opens
offline and can be mailed around.
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import time
from collections import Counter
from html import escape
from typing import IO, TYPE_CHECKING, Any

from pytrace.structured.timeline_script import SCRIPT
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
CLASSES = tuple(COLOURS)

ROW_H = 22
BAR_Y = 3
BAR_H = 14
LIB_H = 3  # library calls: a thin bar along the bottom of the row
AXIS_H = 26
INDENT = 14  # px per level of the process tree in the labels
MIN_LABEL_W = 200
MAX_LABEL_W = 460
MIN_BAR = 2.0  # px: the narrowest call still visible
MERGED_W = 8.0  # px: the widest a bar of merged short calls grows
DEFAULT_MAX_BARS = 30000

_CLONES = frozenset(("clone", "clone3", "fork", "vfork"))
_EXECS = frozenset(("execve", "execveat"))
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
    """The records of a trace sorted into rows: calls and markers per thread, who cloned whom, the time span."""

    def __init__(self) -> None:
        self.names = ThreadNames(live=False)
        self.calls: dict[int, list[Call]] = {}
        self.marks: dict[int, list[tuple[float, str, str, int, int]]] = {}  # tid -> (time, kind, text, seq, child)
        self.clones: list[tuple[int, int, Record]] = []  # (cloning tid, new tid, the clone record)
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
                    if kind == "syscall":
                        self._process_call(tid, rec, ts + duration)
            elif kind in ("signal", "exit", "stop", "superseded", "personality", "exec"):
                self.marks.setdefault(tid, []).append((ts, kind, event_text(rec), rec.get("seq", 0), 0))
        for tid, rec in pending.items():
            self.calls.setdefault(tid, []).append(Call(rec, self.t1))
        for calls in self.calls.values():
            calls.sort(key=lambda c: (c.start, c.seq))
        self._fork_marks()
        return self

    def _process_call(self, tid: int, rec: Record, end: float) -> None:
        """Note a successful clone (its child) or exec (a mark where the new program starts)."""
        if rec.get("outcome") != "returned" or rec.get("errno_code") is not None:
            return
        name = rec.get("name")
        if name in _CLONES:
            child = rec.get("retval")
            if isinstance(child, int) and child > 0:
                self.clones.append((tid, child, rec))
        elif name in _EXECS:
            self.marks.setdefault(tid, []).append((end, "execve", call_text(rec), rec.get("seq", 0), 0))

    def _fork_marks(self) -> None:
        """A mark on the cloning thread's row where each child starts (its first record, else the clone's return)."""
        pid_of = self.names.pid_of
        for parent, child, rec in self.clones:
            if child not in pid_of:
                continue
            start = self.first.get(child, rec["timestamp"] + (rec.get("duration") or 0.0))
            thread = pid_of[child] == pid_of.get(parent)
            what = f"thread {child}" if thread else f"process {child} ({self.names.name(child) or '?'})"
            text = f"{call_text(rec)}: {what} starts"
            self.marks.setdefault(parent, []).append(
                (start, "thread" if thread else "fork", text, rec.get("seq", 0), child))

    def rows(self) -> list[Row]:
        """The rows in process-tree order: each process, then its other threads, then its children, indented.

        Appearance is by time (the records come in the order calls *end*,
        so a thread whose first call blocks would otherwise come late); the
        leader thread is its process's row.  A process whose parent is not
        in the trace (the traced command, ``-p`` attaches) is a root.
        """
        first = self.first
        pid_of = self.names.pid_of
        threads: dict[int, list[int]] = {}
        for tid in sorted(pid_of, key=lambda t: first.get(t, math.inf)):
            threads.setdefault(pid_of[tid], []).append(tid)
        for pid, tids in threads.items():
            if pid in tids:
                tids.remove(pid)
                tids.insert(0, pid)
        parent: dict[int, int] = {}
        for cloner, child, _rec in self.clones:
            child_pid, parent_pid = pid_of.get(child), pid_of.get(cloner)
            if child_pid is not None and parent_pid is not None and child_pid != parent_pid:
                parent.setdefault(child_pid, parent_pid)
        children: dict[int, list[int]] = {}
        for pid in threads:  # in order of appearance
            if pid in parent:
                children.setdefault(parent[pid], []).append(pid)
        out: list[Row] = []
        seen: set[int] = set()
        # Roots first; a process left over is in a loop of reused pids and becomes a root too.
        for root in [p for p in threads if p not in parent] + list(threads):
            stack = [(root, 0)]
            while stack:
                pid, depth = stack.pop()
                if pid in seen:
                    continue
                seen.add(pid)
                tids = threads[pid]
                out.append(Row(pid, tids[0], depth, None if depth == 0 else parent.get(pid)))
                out.extend(Row(pid, tid, depth + 1, pid) for tid in tids[1:])
                stack.extend((c, depth + 1) for c in reversed(children.get(pid, [])))
        return out


class Row:
    """One thread's row: its process, its depth in the process tree, and the pid it hangs from (None: a root)."""

    __slots__ = ("depth", "parent", "pid", "tid")

    def __init__(self, pid: int, tid: int, depth: int, parent: int | None) -> None:
        self.pid = pid
        self.tid = tid
        self.depth = depth
        self.parent = parent


def _duration(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.1f} µs"


_STYLE = """
body{font:13px/1.4 system-ui,sans-serif;margin:12px;color:#222;background:#fff}
h1{font-size:17px;margin:0 0 4px}
.info{margin:2px 0;color:#444}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;margin:8px 0}
.legend span{white-space:nowrap}
.legend svg{vertical-align:middle;margin-right:4px}
.controls{display:flex;align-items:center;gap:10px;margin:6px 0}
.controls button{font:inherit;padding:1px 10px}
.controls .help{color:#666}
.chart{display:flex;border:1px solid #ccc}
.labels{flex:none;background:#fafafa;border-right:1px solid #ccc}
#pane{flex:1;min-width:0;overflow:hidden;cursor:grab;touch-action:none;user-select:none}
#pane.fixed{overflow-x:auto}
#pane.dragging{cursor:grabbing}
#chart{display:block}
text{font:12px ui-monospace,monospace;fill:#222}
.axis text{fill:#555}
.grid{stroke:#e4e4e4;stroke-width:1}
.rowband{fill:none}
.rowbg,.rowband.rowbg{fill:#f6f8fa}
.procsep{stroke:#bbb;stroke-width:1}
.tree{stroke:#aaa;stroke-width:1;fill:none}
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
.fork-mark{fill:#5b2a86;stroke:#fff;stroke-width:.5}
.thread-mark{fill:#fff;stroke:#5b2a86;stroke-width:1.2}
.exec-mark{fill:#fff;stroke:#1b5e20;stroke-width:1.6}
.connector{stroke:#5b2a86;stroke-opacity:.55;stroke-width:1;stroke-dasharray:3 2}
.thread-link{stroke-dasharray:1 2}
"""


def _css() -> str:
    rules = [_STYLE % {"failed": FAILED_COLOUR}]
    rules.extend(f".c-{cls}{{fill:{colour}}}" for cls, colour in COLOURS.items())
    return "".join(rules)


def _us(seconds: float) -> float:
    return round(seconds * 1e6, 1)


def _row_data(trace: Trace, row: Row, t0: float) -> dict[str, Any]:
    """A row's calls and marks as the page script reads them (times in µs from the trace's start)."""
    def calls(lib: bool) -> list[list[Any]]:
        return [[_us(c.start - t0), _us(c.end - t0), CLASSES.index(c.cls),
                 int(c.failed) | int(c.unfinished) << 1, c.seq, c.name, c.text]
                for c in trace.calls.get(row.tid, []) if c.lib == lib]

    syscalls, libs = calls(False), calls(True)
    marks = sorted(trace.marks.get(row.tid, []), key=lambda m: (m[0], m[3]))
    return {
        "pid": row.pid, "tid": row.tid, "depth": row.depth, "calls": syscalls, "libs": libs,
        "maxDur": max((c[1] - c[0] for c in syscalls), default=0.0),
        "maxLibDur": max((c[1] - c[0] for c in libs), default=0.0),
        "marks": [[_us(t - t0), kind, text, seq, child] for t, kind, text, seq, child in marks],
    }


def _labels_svg(trace: Trace, rows: list[Row]) -> str:
    """The label column: ``pid/tid command``, indented by tree depth, with lines from each row to its parent's."""
    texts = [f"{r.pid}/{r.tid} {trace.names.name(r.tid)}".rstrip() for r in rows]
    width = min(max(max((INDENT * r.depth + 7.3 * len(t) + 26 for r, t in zip(rows, texts, strict=True)),
                        default=0), MIN_LABEL_W), MAX_LABEL_W)
    height = AXIS_H + ROW_H * len(rows) + 4
    out = [f'<svg class="labels" xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}">',
           f'<text x="6" y="{AXIS_H - 10}">pid/tid command</text>']
    row_of = {r.pid: i for i, r in reversed(list(enumerate(rows)))}  # a process's first row is its leader's
    for i, row in enumerate(rows):
        y = AXIS_H + i * ROW_H
        if i % 2:
            out.append(f'<rect class="rowbg" x="0" y="{y}" width="{width:.0f}" height="{ROW_H}"/>')
        if i and row.pid != rows[i - 1].pid:
            out.append(f'<line class="procsep" x1="0" y1="{y}" x2="{width:.0f}" y2="{y}"/>')
    for i, row in enumerate(rows):
        up = row_of.get(row.parent) if row.parent is not None else None
        if up is not None and up < i:
            x = 6 + INDENT * (row.depth - 1) + 4
            y = AXIS_H + i * ROW_H + ROW_H // 2
            out.append(f'<path class="tree" d="M{x},{AXIS_H + up * ROW_H + ROW_H - 4} V{y - 4} '
                       f'q0,4 4,4 H{x + INDENT - 6}"/>')
    for i, (row, label) in enumerate(zip(rows, texts, strict=True)):
        y = AXIS_H + i * ROW_H
        weight = ' font-weight="bold"' if row.tid == row.pid else ""
        out.append(f'<text class="label" x="{6 + INDENT * row.depth}" y="{y + 15}"{weight} data-pid="{row.pid}" '
                   f'data-tid="{row.tid}" data-depth="{row.depth}" data-row="{i}">'
                   f"{escape(label, quote=False)}<title>{escape(label, quote=False)}</title></text>")
    out.append("</svg>")
    return "".join(out)


def _legend(counts: Counter[str], failed: int, unfinished: int) -> str:
    legend = ['<div class="legend">']
    for cls in (*CLASS_ORDER, "libcall"):
        if counts[cls]:
            legend.append(f'<span data-class="{cls}"><svg width="14" height="12"><rect class="c-{cls}" '
                          f'width="14" height="12"/></svg>{CLASS_TITLES[cls]} ({counts[cls]})</span>')
    legend.append(f'<span><svg width="14" height="16"><rect class="c-other failed" x="1" y="1" width="12" '
                  f'height="10"/><rect class="failmark" x="0" y="13" width="14" height="3"/></svg>'
                  f"failed ({failed})</span>")
    legend.append('<span><svg width="14" height="12"><rect class="c-other unfinished" x="1" y="1" width="12" '
                  f'height="10"/></svg>never returned ({unfinished})</span>')
    legend.append('<span><svg width="10" height="10"><path class="signal-mark" d="M1,1 h8 l-4,7 z"/></svg>'
                  "signal</span>")
    legend.append('<span><svg width="6" height="14"><rect class="exit-mark" x="2" y="0" width="2.5" '
                  'height="14"/></svg>exit</span>')
    legend.append('<span><svg width="11" height="16"><path class="fork-mark" d="M1,1 h9 l-4.5,7 z"/>'
                  '<line class="connector" x1="5.5" y1="8" x2="5.5" y2="16"/></svg>fork (line to the child)</span>')
    legend.append('<span><svg width="11" height="10"><path class="thread-mark" d="M1,1 h9 l-4.5,7 z"/></svg>'
                  "new thread</span>")
    legend.append('<span><svg width="11" height="12"><path class="exec-mark" d="M1,6 l4,-5 l4,5 l-4,5 z"/></svg>'
                  "execve</span>")
    legend.append("</div>")
    return "".join(legend)


def render(records: Iterable[Record], out: IO[str], *, width: float | None = None, merge: bool = True,
           max_bars: int = DEFAULT_MAX_BARS, title: str | None = None) -> None:
    """Write the timeline page of ``records`` to ``out``; ``width`` fixes the chart's width (default: the window's)."""
    trace = Trace().read(records)
    rows = trace.rows()
    if not rows or trace.t0 == math.inf:
        t0, span = 0.0, 1e-3
    else:
        t0 = trace.t0
        span = max(trace.t1 - trace.t0, 1e-6)

    counts: Counter[str] = Counter()
    failed_total = unfinished_total = 0
    for _row in rows:
        for call in trace.calls.get(_row.tid, []):
            counts[call.cls] += 1
            failed_total += call.failed
            unfinished_total += call.unfinished
    data = {
        "span": _us(span), "width": width or 0, "merge": merge, "maxBars": max_bars, "classes": CLASSES,
        "rowH": ROW_H, "barY": BAR_Y, "barH": BAR_H, "libH": LIB_H, "axisH": AXIS_H, "minBar": MIN_BAR,
        "mergedW": MERGED_W, "rowOf": {str(r.tid): i for i, r in enumerate(rows)},
        "rows": [_row_data(trace, r, t0) for r in rows],
    }
    # Inside <script>, "</script>" or "<!--" would end or confuse it: no "<" at all (JSON's \u003c reads back as "<").
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")

    head = trace.head or {}
    argv = head.get("argv")
    heading = title or (f"{head.get('tool', 'pytrace')} {shlex.join(argv)}" if argv else "pytrace timeline")
    ncalls = sum(counts.values())
    started = (time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t0)) + f".{int(t0 % 1 * 1e6):06d}"
               if ncalls else "-")
    nprocs = len({r.pid for r in rows})
    info = (f"{ncalls} calls ({failed_total} failed) in {nprocs} process{'es' if nprocs != 1 else ''}, "
            f"{len(rows)} thread{'s' if len(rows) != 1 else ''}; started {started}, lasted {_duration(span)}")
    height = AXIS_H + ROW_H * len(rows) + 4
    page = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width">',
        f"<title>{escape(heading)}</title>",
        f"<style>{_css()}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f'<p class="info" data-calls="{ncalls}">{escape(info)}</p>',
        _legend(counts, failed_total, unfinished_total),
        '<div class="controls"><button id="fit" type="button" title="show the whole trace (0 or Home)">Fit</button>'
        '<span class="help">wheel: zoom at the pointer; shift+wheel or drag: pan; keys + \u2212 \u2190 \u2192, '
        "0/Home: whole trace</span></div>",
        '<p id="view" class="info"></p>',
        '<div class="chart">',
        _labels_svg(trace, rows),
        ('<div id="pane" class="fixed">' if width else '<div id="pane">')
        + f'<svg id="chart" class="timeline" xmlns="http://www.w3.org/2000/svg" width="{width or 0}" '
        f'height="{height}"></svg></div>',
        "</div>",
        "<noscript><p>The bars are drawn by the page's script: enable JavaScript to see them.</p></noscript>",
        '<p class="info">Hover a bar for its strace line and duration; colours are strace\'s syscall classes '
        "(-e trace=%file, %desc, ...).</p>",
        f'<script type="application/json" id="timeline-data">{payload}</script>',
        f"<script>{SCRIPT}</script>",
        "</body></html>",
    ]
    out.write("\n".join(page))
    out.write("\n")


def main(argv: list[str]) -> int:
    """``pytrace timeline FILE.jsonl... [-o timeline.html] [--width PX] [--no-merge] [--max-bars N]``."""
    from pytrace.pipeline import run_replay

    ap = argparse.ArgumentParser(prog="pytrace timeline",
                                 description="Draw a saved JSON trace (--output-format=json) as an HTML page: "
                                             "one row per thread, one bar per syscall, coloured by class.")
    ap.add_argument("files", nargs="+", metavar="FILE.jsonl", help="trace file(s) (- for stdin)")
    ap.add_argument("-o", "--output", metavar="FILE", help="write there instead of stdout")
    ap.add_argument("--width", type=float, metavar="PX", help="width of the chart in pixels (default: the window's)")
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

    return run_replay(args.files, args.output, draw)
