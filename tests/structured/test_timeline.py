"""``pytrace timeline``: the HTML/SVG page, rendered by a real browser (headless Chromium from Debian).

A real program is traced to JSON Lines and drawn; Chromium loads the page
and reports what it laid out (``--dump-dom`` of a copy with a small probe
script appended that writes each element's computed colour and rendered
box into data attributes), and takes a screenshot.  Checked:

* one bar per syscall record, in the row of the record's pid/tid, of the
  record's class and painted that class's colour, at least ``MIN_BAR`` px
  wide, failed calls outlined and underlined in red, hover text = the
  strace line;
* the hover texts and markers, per thread, equal real strace's trace of the
  same program (normalised as in the differential tests);
* the screenshot is a valid PNG of the window's size whose chart area shows
  the class colours and the red failure marks;
* a 100 000-call trace still gives a page of bounded size with every call
  accounted for.
"""

from __future__ import annotations

import difflib
import json
import math
import re
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

from pytrace.structured.timeline import COLOURS, FAILED_COLOUR, MIN_BAR, render
from pytrace.structured.tracks import call_text, syscall_class

CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--hide-scrollbars", "--force-device-scale-factor=1"]

# Appended to a copy of the page: the browser's own view of it, readable in --dump-dom.
PROBE = """<script>
for (const el of document.querySelectorAll('rect, path, .chart, text.label')) {
  const s = getComputedStyle(el), b = el.getBoundingClientRect();
  el.dataset.fill = s.fill; el.dataset.stroke = s.stroke;
  el.dataset.box = [b.left, b.top, b.width, b.height].map(v => v.toFixed(1)).join(' ');
}
</script>"""


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
              for m in dom.elements if m.get("data-kind") and m.get("row")]
    text = "".join(f"{tid:<5} {line}\n" for tid, _seq, line in sorted(items))
    actual = helpers.normalise(helpers.group_by_process(text), None)
    out = tmp_path / "strace.txt"
    helpers.run_tracer("strace", ["-f", "-o", str(out)], [str(programs["forker"])], cwd=tmp_path)
    expected = helpers.normalise(helpers.group_by_process(helpers.decode(out.read_bytes())), None)
    assert actual == expected, "\n" + "".join(
        difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "strace", "timeline"))


def test_screenshot_shows_the_classes(forker_trace: tuple[Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The PNG is valid and not blank, and each bar the browser laid out clear of others has its class's colour.

    The probe's boxes and the screenshot come from the same window size, so
    a bar's box is where its pixels are: in every bar that no other bar
    overlaps, a pixel column it covers whole must be its class colour (no
    anti-aliasing there; failed bars' red outline is left out of it), and
    the centre of every failure mark red.
    """
    jsonl, _records = forker_trace
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

    def pixel(x: float, y: float) -> str:
        xi, yi = int(x), int(y)
        return "#" + rows[yi][3 * xi:3 * xi + 3].hex()

    bars = [b for b in dom.having("bar") if b.get("row")]
    checked: Counter[str] = Counter()
    for bar in bars:
        x, y, w, h = box(bar)
        failed = "failed" in bar["class"].split()
        column = math.ceil(x + (1 if failed else 0))  # the outline is drawn 0.75 px into the bar
        if column + 1 > x + w - (1 if failed else 0) or x + w > width - 1 or y + h > height - 1 \
                or "unfinished" in bar["class"].split():
            continue
        if any(o is not bar and o["row"] is bar["row"] and box(o)[0] < x + w and box(o)[0] + box(o)[2] > x
               for o in bars):
            continue
        cls = bar["data-class"]
        assert pixel(column, y + h / 2) == COLOURS[cls], f"bar {bar['title']!r} is not painted {cls}'s colour"
        checked[cls] += 1
    assert sum(checked.values()) >= 10 and len(checked) >= 3, f"too few bars clear of others to check: {checked}"
    marks = [m for m in dom.having("failmark") if m.get("row")]
    assert marks
    for mark in marks:
        x, y, w, h = box(mark)
        if x + w < width - 1:
            assert pixel(x + w / 2, y + h / 2) == FAILED_COLOUR, "a failure mark is not red"


def test_large_trace_is_bounded(tmp_path: Path) -> None:
    """100 000 calls on 4 threads: a page of bounded size, every call counted in some bar."""
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
    out = tmp_path / "big.html"
    with out.open("w") as f:
        render(iter(records), f)
    html = out.read_text()
    assert len(html) < 15_000_000, f"{len(html)} bytes for {n} calls"
    bars = [int(v) for v in re.findall(r'class="bar [^"]*"[^>]* data-n="(\d+)"', html)]
    assert sum(bars) == n
    assert len(bars) <= 30000
    assert f"{n} calls are drawn as {len(bars)} bars" in html


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
