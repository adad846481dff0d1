"""``pytrace timeline``: the HTML/SVG page, rendered by a real browser (headless Chromium from Debian).

A real program is traced to JSON Lines and drawn; Chromium loads the page
(its script draws the bars of the current view) and reports what it laid
out (``--dump-dom`` of a copy with a small probe script appended that writes
each element's computed colour and rendered box into data attributes, or
that drives the page with synthetic wheel, pointer and key events and writes
what it read back into the DOM), and takes screenshots.  Checked:

* one bar per syscall record, in the row of the record's pid/tid, of the
  record's class and painted that class's colour, at least ``MIN_BAR`` px
  wide, failed calls outlined and underlined in red, hover text = the
  strace line;
* the hover texts and markers, per thread, equal real strace's trace of the
  same program (normalised as in the differential tests);
* the screenshot is a valid PNG of the window's size whose chart area shows
  the class colours and the red failure marks;
* a real ``make -j2`` run (a dozen processes, one of them threaded): the page
  opens on the whole trace, every row shows bars on the first screen, the
  page ends under the last row, the wheel, drag and keys move the view as
  they should, rows are the process tree (children after and indented under
  their parent, threads under their process) with a fork mark and a line on
  the parent's row for every child and an exec mark for every execve;
* a 100 000-call trace still gives a page of bounded size that draws a
  bounded number of bars with every call accounted for.
"""

from __future__ import annotations

import difflib
import json
import math
import shutil
import struct
import subprocess
import sys
import zlib
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import helpers
import pytest

from pytrace.structured.timeline import COLOURS, FAILED_COLOUR, INDENT, MIN_BAR, Trace, render
from pytrace.structured.tracks import call_text, syscall_class

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]

# Appended to a copy of the page: the browser's own view of it, readable in --dump-dom.
PROBE = """<script>
for (const el of document.querySelectorAll('rect, path, line, .chart, text.label')) {
  const s = getComputedStyle(el), b = el.getBoundingClientRect();
  el.dataset.fill = s.fill; el.dataset.stroke = s.stroke;
  el.dataset.box = [b.left, b.top, b.width, b.height].map(v => v.toFixed(1)).join(' ');
}
</script>"""


#: The markers that are lines of strace's output (fork, new-thread and execve marks are the page's own).
STRACE_MARKS = frozenset(("signal", "exit", "stop", "superseded", "personality"))


def _rgb(colour: str) -> str:
    return "rgb({}, {}, {})".format(*bytes.fromhex(colour.lstrip("#")))


def _chromium(tmp_path: Path, args: list[str], page: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("chromium")
    if exe is None:
        pytest.fail("chromium is required to render the timeline (Debian: apt-get install chromium); "
                    "it is in the README's test set-up command")
    profile = tmp_path / "chromium-profile"  # one per test: parallel runs never share a profile
    try:
        res = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args, page.as_uri()],
                             capture_output=True, text=True, timeout=120, check=False,
                             env={**helpers.tracer_env(), "HOME": str(tmp_path)})
    except subprocess.TimeoutExpired:
        pytest.fail(f"chromium did not finish rendering {page} in 120 s")
    assert res.returncode == 0, f"chromium failed ({res.returncode}):\n{res.stderr[-3000:]}"
    return res


class Dom(HTMLParser):
    """Elements with their attributes, their <title> text and their enclosing row's pid/tid."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict[str, Any]] = []
        self.stack: list[dict[str, Any]] = []
        self.row: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = {"tag": tag, **{k: v or "" for k, v in attrs}, "title": "", "row": self.row}
        if tag == "g" and el.get("class") == "row":
            self.row = el
        self.elements.append(el)
        if tag not in ("meta", "link", "br", "hr", "img", "input"):  # HTML void elements have no end tag
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            el = self.stack.pop()
            if el["tag"] == "g" and el is self.row:
                self.row = {}
            if el["tag"] == tag:
                break

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if self.stack and self.stack[-1]["tag"] == "title" and len(self.stack) > 1:
            self.stack[-2]["title"] += data
        elif self.stack and self.stack[-1]["tag"] == "pre":
            self.stack[-1]["text"] = self.stack[-1].get("text", "") + data

    def having(self, cls: str) -> list[dict[str, Any]]:
        return [e for e in self.elements if cls in e.get("class", "").split()]


def _png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and RGB rows of a PNG, checking its structure (signature, chunk CRCs, sizes) on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in the {kind!r} chunk"
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    assert ihdr is not None, "no IHDR chunk"
    width, height, depth, colour_type, _comp, _filt, interlace = ihdr
    assert depth == 8 and colour_type in (2, 6) and interlace == 0, f"unexpected PNG layout {ihdr}"
    bpp = 3 if colour_type == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    assert len(raw) == height * (stride + 1), "image data does not match the header's size"
    prev, rows = bytearray(stride), []
    for y in range(height):
        kind_ = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind_ == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif kind_ == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif kind_ == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif kind_ == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        else:
            assert kind_ == 0, f"unknown PNG filter {kind_}"
        rows.append(bytes(line) if bpp == 3 else bytes(b for i, b in enumerate(line) if i % 4 != 3))
        prev = line
    return width, height, rows


@pytest.fixture(scope="module")
def forker_trace(programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """forker traced with -f to JSON Lines (three processes, failed calls, exit_group, exits)."""
    work = tmp_path_factory.mktemp("timeline")
    jsonl = work / "trace.jsonl"
    res = helpers.run_tracer("pytrace", ["--json", "-f", "-o", str(jsonl)], [str(programs["forker"])], cwd=work)
    assert jsonl.exists(), helpers.decode(res.stderr)
    return jsonl, [json.loads(line) for line in jsonl.read_text().splitlines()]


def _timeline(tmp_path: Path, jsonl: Path, *options: str) -> Path:
    out = tmp_path / "timeline.html"
    res = subprocess.run([sys.executable, "-m", "pytrace", "timeline", *options, str(jsonl), "-o", str(out)],
                         capture_output=True, text=True, env=helpers.tracer_env(), timeout=120, check=False)
    assert res.returncode == 0, res.stderr
    return out


def _rendered_dom(tmp_path: Path, page: Path, window: str = "1200,400") -> Dom:
    probed = tmp_path / "probed.html"
    probed.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    dom = Dom()
    dom.feed(_chromium(tmp_path, ["--dump-dom", f"--window-size={window}"], probed).stdout)
    assert dom.having("bar"), "the rendered page has no bars"
    return dom


@pytest.mark.differential
def test_rendered_bars_match_records_and_strace(forker_trace: tuple[Path, list[dict[str, Any]]],
                                                 programs: dict[str, Path], tmp_path: Path) -> None:
    jsonl, records = forker_trace
    dom = _rendered_dom(tmp_path, _timeline(tmp_path, jsonl, "--no-merge"))
    calls = {r["seq"]: r for r in records if r["type"] == "syscall"}
    bars = dom.having("bar")
    assert sorted(int(b["data-seq"]) for b in bars) == sorted(calls), "not one bar per syscall record"
    failed = 0
    for bar in bars:
        rec = calls[int(bar["data-seq"])]
        cls = syscall_class(rec["arch"], rec["nr"])
        where = f"bar of {call_text(rec)}"
        assert (bar["row"]["data-pid"], bar["row"]["data-tid"]) == (str(rec["pid"]), str(rec["tid"])), where
        assert (bar["data-name"], bar["data-class"], bar["data-n"]) == (rec["name"], cls, "1"), where
        assert f"c-{cls}" in bar["class"].split() and bar["data-fill"] == _rgb(COLOURS[cls]), where
        assert float(bar["data-box"].split()[2]) >= MIN_BAR - 0.05, f"{where} is narrower than {MIN_BAR} px"
        assert bar["title"].startswith(call_text(rec) + "  <"), where
        if rec["errno"] is not None:
            failed += 1
            assert "failed" in bar["class"].split() and bar["data-stroke"] == _rgb(FAILED_COLOUR), where
        else:
            assert "failed" not in bar["class"].split(), where
    assert failed > 0, "forker has failing calls (access, ...): the test must see some"
    assert len([m for m in dom.having("failmark") if m.get("row")]) == failed
    assert all(m["data-fill"] == _rgb(FAILED_COLOUR) for m in dom.having("failmark"))
    # Rows: one per thread, labelled "pid/tid comm" (the vfork child is "true" after its execve).
    labels = sorted(e["title"] for e in dom.having("label"))
    tids = {(r["pid"], r["tid"]) for r in calls.values()}
    assert len(labels) == len(tids) == 3
    assert sorted(label.split(" ", 1)[1] for label in labels) == ["forker", "forker", "true"]
    assert {tuple(map(int, label.split(" ")[0].split("/"))) for label in labels} == tids
    # Legend: every class drawn is explained, with its count.
    legend = Counter(syscall_class(r["arch"], r["nr"]) for r in calls.values())
    for cls, count in legend.items():
        entry = next(e for e in dom.elements if e["tag"] == "span" and e.get("data-class") == cls)
        assert entry is not None and count
    # The hover lines and markers, per thread in event order, are strace's trace of the program.
    items = [(int(b["row"]["data-tid"]), int(b["data-seq"]), b["title"].rsplit("  <", 1)[0]) for b in bars]
    items += [(int(m["row"]["data-tid"]), int(m["data-seq"]), m["title"])
              for m in dom.elements if m.get("data-kind") in STRACE_MARKS and m.get("row")]
    text = "".join(f"{tid:<5} {line}\n" for tid, _seq, line in sorted(items))
    actual = helpers.normalise(helpers.group_by_process(text), None)
    out = tmp_path / "strace.txt"
    helpers.run_tracer("strace", ["-f", "-o", str(out)], [str(programs["forker"])], cwd=tmp_path)
    expected = helpers.normalise(helpers.group_by_process(helpers.decode(out.read_bytes())), None)
    assert actual == expected, "\n" + "".join(
        difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "strace", "timeline"))


def _evenly_timed(records: list[dict[str, Any]], step: float = 1e-3) -> list[dict[str, Any]]:
    """The records with the n-th timed one at 1000 + n * ``step`` s and each call lasting 0.6 ``step``."""
    out = []
    n = 0
    for record in records:
        record = dict(record)
        if record.get("timestamp") is not None:
            record["timestamp"] = 1000.0 + n * step
            n += 1
            if record.get("duration") is not None:
                record["duration"] = 0.6 * step
        out.append(record)
    return out


def test_screenshot_shows_the_classes(forker_trace: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The PNG is valid and not blank, and each bar the browser laid out clear of others has its class's colour.

    The probe's boxes and the screenshot come from the same window size, so
    a bar's box is where its pixels are: in every bar that no other bar or marker
    overlaps, a pixel column it covers whole must be its class colour (no
    anti-aliasing there; failed bars' red outline is left out of it), and
    the centre of every failure mark red.
    """
    _jsonl, records = forker_trace
    # The layout follows the calls' times, which a busy host stretches (bars then crowd each other out
    # of the check): the same records, evenly timed in their order, give the same picture every run.
    jsonl = tmp_path / "evenly-timed.jsonl"
    jsonl.write_text("".join(json.dumps(r) + "\n" for r in _evenly_timed(records)))
    page = _timeline(tmp_path, jsonl, "--width=860", "--no-merge")
    window = (1200, 400)
    dom = _rendered_dom(tmp_path, page, f"{window[0]},{window[1]}")
    png = tmp_path / "timeline.png"
    _chromium(tmp_path, [f"--screenshot={png}", f"--window-size={window[0]},{window[1]}"], page)
    width, height, rows = _png(png.read_bytes())
    assert (width, height) == window
    colours = Counter(row[i:i + 3] for row in rows for i in range(0, len(row), 3))
    assert len(colours) > 20, "the screenshot is (nearly) blank"
    assert colours.most_common(1)[0][1] < 0.95 * width * height, "the screenshot is (nearly) one colour"

    def box(el: dict[str, Any]) -> tuple[float, float, float, float]:
        x, y, w, h = (float(v) for v in el["data-box"].split())
        return x, y, w, h

    def nearest_class_colour(hex_colour: str) -> str | None:
        """The palette colour within a few units of ``hex_colour`` per channel, or None.

        Chromium's compositor occasionally shifts a solid fill by a unit or two
        (seen: #75b6b0 for #76b7b2); the palette's colours are far apart, so
        a tolerance of 8 per channel still tells every class from the others.
        """
        rgb = bytes.fromhex(hex_colour[1:])
        near = [c for c in (*COLOURS.values(), FAILED_COLOUR)
                if max(abs(a - b) for a, b in zip(rgb, bytes.fromhex(c[1:]), strict=True)) <= 8]
        return near[0] if len(near) == 1 else None

    def pixel(x: float, y: float) -> str:
        xi, yi = int(x), int(y)
        return "#" + rows[yi][3 * xi:3 * xi + 3].hex()

    bars = [b for b in dom.having("bar") if b.get("row")]
    covering = bars + [m for m in dom.elements if m.get("data-kind") and m.get("row") and m.get("data-box")]
    connectors = [c for c in dom.elements if "connector" in c.get("class", "").split() and c.get("data-box")]
    checked: Counter[str] = Counter()
    for bar in bars:
        x, y, w, h = box(bar)
        failed = "failed" in bar["class"].split()
        column = math.ceil(x + (1 if failed else 0))  # the outline is drawn 0.75 px into the bar
        if column + 1 > x + w - (1 if failed else 0) or x + w > width - 1 or y + h > height - 1 \
                or "unfinished" in bar["class"].split():
            continue
        # Boxes are rounded to 0.1 px: a neighbour that ends within that of our left edge may still
        # bleed its anti-aliased edge into the pixel column sampled, so it counts as touching.
        if any(o is not bar and o["row"] is bar["row"] and box(o)[0] < x + w + 0.1 and box(o)[0] + box(o)[2] > x - 0.1
               for o in covering):
            continue
        # A fork connector (a dashed line from a parent's row down to its child's) crossing the sampled
        # pixel tints it, whichever rows lie between: where the lines fall depends on the run's timing.
        if any(box(c)[0] - 1 <= column <= box(c)[0] + box(c)[2] + 1 and box(c)[1] <= y + h / 2 <= box(c)[1] + box(c)[3]
               for c in connectors):
            continue
        cls = bar["data-class"]
        got = pixel(column, y + h / 2)
        assert nearest_class_colour(got) == COLOURS[cls], f"bar {bar['title']!r} is painted {got}, not {cls}'s colour"
        checked[cls] += 1
    assert sum(checked.values()) >= 10 and len(checked) >= 3, f"too few bars clear of others to check: {checked}"
    marks = [m for m in dom.having("failmark") if m.get("row")]
    assert marks
    for mark in marks:
        x, y, w, h = box(mark)
        if x + w < width - 1:
            assert nearest_class_colour(pixel(x + w / 2, y + h / 2)) == FAILED_COLOUR, "a failure mark is not red"


def test_large_trace_is_bounded(tmp_path: Path) -> None:
    """100 000 calls on 4 threads: a page of bounded size; the browser draws at most --max-bars bars, counting every call."""
    n = 100_000
    names = [("read", 0), ("write", 1), ("openat", 257), ("mmap", 9), ("futex", 202)]
    records: list[dict[str, Any]] = [{"type": "header", "argv": ["-f", "synthetic"]}]
    for i in range(n):
        name, nr = names[i % len(names)]
        tid = 100 + i % 4
        fail = i % 97 == 0
        records.append({
            "type": "syscall", "seq": i + 1, "pid": 100, "tid": tid, "arch": "x86_64", "nr": nr, "name": name,
            "timestamp": 1000.0 + i * 20e-6, "duration": 5e-6, "outcome": "returned", "entry_text": "3, ",
            "exit_text": "\"x\", 1", "return_text": "-1 EAGAIN (Resource temporarily unavailable)" if fail else "1",
            "errno": "EAGAIN" if fail else None, "errno_code": 11 if fail else None,
        })
    page = tmp_path / "big.html"
    with page.open("w") as f:
        render(iter(records), f, max_bars=400)
    size = page.stat().st_size
    assert size < 12_000_000, f"{size} bytes for {n} calls"
    dom = Dom()
    dom.feed(_chromium(tmp_path, ["--dump-dom", "--window-size=1200,500"], page).stdout)
    bars = [b for b in dom.having("bar") if b.get("row")]
    assert sum(int(b["data-n"]) for b in bars) == n, "not every call is in some bar"
    assert 4 <= len(bars) <= 400
    view = next(e for e in dom.elements if e.get("id") == "view")
    assert (view["data-calls"], view["data-bars"]) == (str(n), str(len(bars)))


def test_timeline_errors(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "pytrace", "timeline", str(tmp_path / "nope.jsonl")],
                         capture_output=True, text=True, env=helpers.tracer_env(), timeout=60, check=False)
    assert res.returncode == 1 and "Can't open" in res.stderr


@pytest.mark.parametrize("name, cls", [
    ("openat", "file"), ("newfstatat", "file"), ("read", "desc"), ("fstat", "desc"), ("socket", "network"),
    ("mmap", "memory"), ("kill", "signal"), ("clone", "process"), ("pipe2", "desc"), ("shmget", "ipc"),
    ("setuid", "creds"), ("clock_gettime", "clock"), ("getpid", "other"), ("futex", "other"),
])
def test_display_class_comes_from_straces_class_tables(name: str, cls: str) -> None:
    """A call in several of strace's classes is filed under the most specific one (openat: file, not desc)."""
    from pytrace.tables.syscalls import table

    assert syscall_class("x86_64", table("x86_64").names.index(name)) == cls


# Run inside the page after it has drawn: the rows, marks and view it shows, then what wheel, drag and keys do.
DRIVE = """<script>
(() => {
  const T = window.pytraceTimeline, pane = document.getElementById("pane"), svg = document.getElementById("chart");
  const box = el => { const b = el.getBoundingClientRect(); return [b.left, b.top + scrollY, b.width, b.height]; };
  const R = {span: T.span, view0: T.view(), page_height: document.documentElement.scrollHeight};
  R.status0 = Object.assign({}, document.getElementById("view").dataset);
  R.chart = box(svg);
  R.bands = [...svg.querySelectorAll("rect.rowband")].map(box);
  R.labels = [...document.querySelectorAll("text.label")].map(t => ({
    pid: +t.dataset.pid, tid: +t.dataset.tid, depth: +t.dataset.depth, row: +t.dataset.row, box: box(t)}));
  R.rows = [...svg.querySelectorAll("g.row")].map(g => ({pid: +g.dataset.pid, tid: +g.dataset.tid,
    bars: g.querySelectorAll(".bar").length}));
  R.marks = [...svg.querySelectorAll("g.row [data-kind]")].map(m => ({kind: m.dataset.kind,
    child: +(m.dataset.child || 0), seq: +m.dataset.seq, row: +m.closest("g.row").dataset.row}));
  R.connectors = [...svg.querySelectorAll(".connector")].map(c => [+c.dataset.parentRow, +c.dataset.childRow]);
  const cb = svg.getBoundingClientRect(), x = Math.round(cb.left + cb.width / 4), y = Math.round(cb.top + 40);
  const wheel = o => pane.dispatchEvent(new WheelEvent("wheel", Object.assign(
    {clientX: x, clientY: y, bubbles: true, cancelable: true}, o)));
  const pointer = (type, px) => pane.dispatchEvent(new PointerEvent(type,
    {clientX: px, clientY: y, button: 0, pointerId: 1, isPrimary: true, bubbles: true, cancelable: true}));
  const key = k => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true, cancelable: true}));
  R.pointer = x - cb.left;
  const before = T.timeAt(x);
  wheel({deltaY: -500});
  R.wheel_in = {view: T.view(), before: before, after: T.timeAt(x)};
  T.draw();
  R.zoomed = Object.assign({}, document.getElementById("view").dataset);
  wheel({deltaY: 200, shiftKey: true}); R.shift_wheel = T.view();
  wheel({deltaX: -150}); R.h_wheel = T.view();
  pointer("pointerdown", x); pointer("pointermove", x + 100); pointer("pointerup", x + 100); R.drag = T.view();
  key("+"); R.plus = T.view();
  key("ArrowRight"); R.right = T.view();
  key("ArrowLeft"); R.left = T.view();
  key("-"); R.minus = T.view();
  key("0"); R.zero = T.view();
  key("+"); key("+"); key("Home"); R.home = T.view();
  wheel({deltaY: -300}); wheel({deltaY: 3000}); R.wheel_out = T.view();
  const out = document.createElement("pre");
  out.id = "drive-result";
  out.textContent = JSON.stringify(R);
  document.body.append(out);
})();
</script>"""

MAKEFILE = """\
all: seq par thr
seq:
\tsh -c 'sleep 0.05; cat /etc/hostname'
\tsh -c 'sleep 0.05; echo seq done'
par:
\tsh -c 'sleep 0.1; ls / > /dev/null'
\tsh -c 'sleep 0.05; cat /etc/hostname'
thr: seq
\tsh -c 'sleep 0.05; {threads}'
"""


@pytest.fixture(scope="module")
def make_trace(programs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    """``make -j2`` traced with -f: a dozen short processes in sequence and in parallel, one with 4 threads."""
    if shutil.which("make") is None:
        pytest.fail("make is required for the timeline's make -j2 trace (Debian: apt-get install make); "
                    "it is in the README's test set-up command")
    work = tmp_path_factory.mktemp("make")
    (work / "Makefile").write_text(MAKEFILE.format(threads=programs["threads"]))
    jsonl = work / "t.jsonl"
    res = helpers.run_tracer("pytrace", ["-f", "--json", "-o", str(jsonl)], ["make", "-f", "Makefile", "-j2"], cwd=work)
    assert res.returncode == 0 and jsonl.exists(), helpers.decode(res.stderr)
    return jsonl, [json.loads(line) for line in jsonl.read_text().splitlines()]


def _drive(tmp_path: Path, page: Path, window: tuple[int, int]) -> dict[str, Any]:
    driven = tmp_path / "driven.html"
    driven.write_text(page.read_text().replace("</body>", DRIVE + "</body>"))
    dom = Dom()
    dom.feed(_chromium(tmp_path, ["--dump-dom", f"--window-size={window[0]},{window[1]}"], driven).stdout)
    pre = next((e for e in dom.elements if e.get("id") == "drive-result"), None)
    assert pre is not None, "the page's script failed: the probe wrote no result"
    return dict(json.loads(pre["text"]))


def _width(view: list[float]) -> float:
    return view[1] - view[0]


def test_make_trace_first_screen(make_trace: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The first screen of a real make -j2 trace: the whole trace, every row with bars, no empty space under them."""
    jsonl, records = make_trace
    page = _timeline(tmp_path, jsonl)
    window = (1280, 800)
    got = _drive(tmp_path, page, window)
    timed = [r for r in records if "timestamp" in r and r.get("tid")]
    t0 = min(r["timestamp"] for r in timed)
    t1 = max(r["timestamp"] + (r.get("duration") or 0) for r in timed)
    span_us = (t1 - t0) * 1e6
    assert span_us > 200_000, f"the make run lasted only {span_us} µs: the Makefile's sleeps did not run"
    assert abs(got["span"] - span_us) < 1, (got["span"], span_us)
    v0, v1 = got["view0"]
    assert v0 <= 0 and v1 >= got["span"], f"the first view {got['view0']} is not the whole trace {got['span']}"
    calls = sum(1 for r in records if r["type"] == "syscall")
    assert int(got["status0"]["calls"]) == calls, "the first view does not draw every call"
    tids = {r["tid"] for r in timed}
    assert len(got["bands"]) == len(got["labels"]) == len(tids) >= 10

    png = tmp_path / "first.png"
    _chromium(tmp_path, [f"--screenshot={png}", f"--window-size={window[0]},{window[1]}"], page)
    width, height, rows = _png(png.read_bytes())
    assert (width, height) == window
    # A bar's pixels: its class colour, or that colour at the merged bars' opacity over either row background.
    painted = []
    for colour in (*COLOURS.values(), FAILED_COLOUR):
        rgb = bytes.fromhex(colour.lstrip("#"))
        painted.append(rgb)
        for bg in (b"\xff\xff\xff", bytes.fromhex("f6f8fa")):
            painted.append(bytes(round(0.8 * c + 0.2 * g) for c, g in zip(rgb, bg, strict=True)))

    def is_bar(px: bytes) -> bool:
        return any(all(abs(a - b) <= 2 for a, b in zip(px, p, strict=True)) for p in painted)

    left, _top, chart_w, _h = got["chart"]
    for label, (_x, top, _w, band_h) in zip(got["labels"], got["bands"], strict=True):
        assert top + band_h <= height, f"row {label['pid']}/{label['tid']} is below the first screen"
        seen = sum(is_bar(rows[y][3 * x:3 * x + 3]) for y in range(int(top) + 1, int(top + band_h) - 1)
                   for x in range(int(left) + 1, int(left + chart_w) - 1))
        assert seen >= 6, f"row {label['pid']}/{label['tid']} shows no bars on the first screen"
    last_bottom = got["bands"][-1][1] + got["bands"][-1][3]
    assert got["page_height"] - last_bottom < 80, f"{got['page_height'] - last_bottom} px of page under the last row"


def test_make_trace_zoom_and_pan(make_trace: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """Wheel zooms around the pointer, shift+wheel, horizontal wheel and drag pan, + - arrows 0 Home as labelled."""
    jsonl, _records = make_trace
    got = _drive(tmp_path, _timeline(tmp_path, jsonl), (1280, 800))
    span = got["span"]
    whole = got["view0"]
    wheel = got["wheel_in"]
    assert _width(wheel["view"]) < 0.5 * span, f"wheel up did not zoom in: {wheel['view']}"
    assert abs(wheel["after"] - wheel["before"]) < 1e-6 * span, "the time under the pointer moved while zooming"
    assert int(got["zoomed"]["calls"]) < int(got["status0"]["calls"]), "zoomed in, the page still draws every call"
    px = _width(wheel["view"]) / (got["chart"][2] - 18)  # µs per pixel (the chart's inner width)
    shift = got["shift_wheel"]
    assert _width(shift) == pytest.approx(_width(wheel["view"])) and shift[0] > wheel["view"][0], "shift+wheel"
    assert shift[0] - wheel["view"][0] == pytest.approx(200 * px, rel=0.01)
    h = got["h_wheel"]
    assert _width(h) == pytest.approx(_width(shift)) and h[0] == pytest.approx(shift[0] - 150 * px, rel=0.01)
    drag = got["drag"]  # dragging right by 100 px shows what was 100 px to the left
    assert _width(drag) == pytest.approx(_width(h)) and drag[0] == pytest.approx(h[0] - 100 * px, rel=0.01)
    assert _width(got["plus"]) == pytest.approx(_width(drag) / 1.5)
    assert sum(got["plus"]) == pytest.approx(sum(drag)), "+ zooms around the middle of the view"
    assert _width(got["right"]) == pytest.approx(_width(got["plus"])) and got["right"][0] > got["plus"][0]
    assert got["left"] == pytest.approx(got["plus"])
    assert _width(got["minus"]) == pytest.approx(_width(got["left"]) * 1.5)
    for key in ("zero", "home", "wheel_out"):
        assert got[key] == pytest.approx(whole), f"{key} did not show the whole trace again"


def test_make_trace_rows_are_the_process_tree(make_trace: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """Children after and indented under their parent, threads under their process, fork, thread and exec marks."""
    jsonl, records = make_trace
    got = _drive(tmp_path, _timeline(tmp_path, jsonl), (1280, 800))
    labels = got["labels"]
    pid_of = {r["tid"]: r["pid"] for r in records if r.get("tid")}
    assert [(lb["pid"], lb["tid"]) for lb in labels] == [(r["pid"], r["tid"]) for r in got["rows"]]
    assert sorted(lb["tid"] for lb in labels) == sorted(pid_of)
    row_of = {lb["tid"]: i for i, lb in enumerate(labels)}
    clones = [r for r in records if r["type"] == "syscall" and r["name"] in ("clone", "clone3", "fork", "vfork")
              and r["outcome"] == "returned" and r["errno"] is None and r["retval"] in pid_of]
    forks = [r for r in clones if pid_of[r["retval"]] != r["pid"]]
    threads = [r for r in clones if pid_of[r["retval"]] == r["pid"]]
    assert len(forks) >= 9 and len(threads) == 4, (len(forks), len(threads))
    parent_pid = {r["retval"]: r["pid"] for r in forks}
    make = next(r["pid"] for r in records if r["type"] == "syscall")
    # Tree order: a row's parent is the nearest row above it one level up.
    for i, lb in enumerate(labels):
        tid = lb["tid"]
        if lb["pid"] != tid:  # a thread: one level under its process's row
            up = row_of[lb["pid"]]
        elif tid in parent_pid:  # a process: one level under its parent's
            up = row_of[parent_pid[tid]]
        else:
            assert lb["depth"] == 0 and i == 0 and tid == make, f"{tid} is a root but make ({make}) is the only one"
            continue
        assert up < i and lb["depth"] == labels[up]["depth"] + 1, f"row {tid} is not under row {labels[up]['tid']}"
        assert all(labels[j]["depth"] > labels[up]["depth"] for j in range(up + 1, i)), f"row {tid} is out of its parent's subtree"
        # Indented: the label starts INDENT px further right per level.
        assert lb["box"][0] - labels[0]["box"][0] == pytest.approx(INDENT * lb["depth"], abs=1.5)
    # A fork (or new thread) mark on the cloning thread's row for every child, with a line down to the child's row.
    marks = Counter((m["row"], m["kind"], m["child"], m["seq"]) for m in got["marks"])
    for rec in clones:
        child = rec["retval"]
        kind = "fork" if child in parent_pid else "thread"
        assert marks[(row_of[rec["tid"]], kind, child, rec["seq"])] == 1, f"no {kind} mark for {child}"
        assert [row_of[rec["tid"]], row_of[child]] in got["connectors"]
    # An exec mark on the row of every thread that made a successful execve.
    execs = Counter(row_of[r["tid"]] for r in records if r["type"] == "syscall" and r["name"] == "execve"
                    and r["outcome"] == "returned" and r["errno"] is None)
    assert execs == Counter(m["row"] for m in got["marks"] if m["kind"] == "execve")
    assert len(execs) >= 10


def test_rows_with_reused_pids_in_a_loop() -> None:
    """Two processes each claiming to have forked the other (pid reuse in a long trace): both still get a row."""
    def call(seq: int, pid: int, child: int) -> dict[str, Any]:
        return {"type": "syscall", "seq": seq, "pid": pid, "tid": pid, "arch": "x86_64", "nr": 57, "name": "fork",
                "timestamp": 1.0 + seq, "duration": 0.1, "outcome": "returned", "entry_text": "", "exit_text": "",
                "return_text": str(child), "retval": child, "errno": None, "errno_code": None}

    def exit_(seq: int, pid: int) -> dict[str, Any]:
        return {"type": "exit", "seq": seq, "pid": pid, "tid": pid, "timestamp": 1.0 + seq, "exit_code": 0}

    trace = Trace().read([call(1, 10, 20), call(2, 20, 10), call(3, 20, 30), exit_(4, 30)])
    rows = trace.rows()
    assert sorted(r.tid for r in rows) == [10, 20, 30]
    order = {r.tid: (i, r.depth) for i, r in enumerate(rows)}
    assert order[30][0] > order[20][0] and order[30][1] == order[20][1] + 1, "30 is not under 20"
