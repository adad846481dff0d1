"""The script of the timeline page: it draws the bars of the current view, and zooms and pans it.

The page carries the calls as data (``timeline.py`` writes them into a
``<script type="application/json">``) rather than as drawn bars, because what
a bar is depends on the zoom: at the whole-trace view a busy millisecond is
one merged bar, zoomed in it is its calls.  So this script does the layout
``timeline.py`` used to do once (same rules: a call is at least ``minBar``
px wide, bars that would overlap merge up to ``mergedW`` px, the merge
distance grows until at most ``maxBars`` bars are drawn), for the view
``[v0, v1]`` (microseconds from the trace's start), and redraws it when the
view changes.  Only the calls that overlap the view are laid out, so a zoomed
in view of a big trace is cheap.

It is kept as a Python string (not a ``.js`` file) so the package needs no
data files for it; nothing in it is fetched, the page stays self-contained.
``window.pytraceTimeline`` exposes the view for tests and for the console.
"""

SCRIPT = r"""
(function () {
"use strict";
const D = JSON.parse(document.getElementById("timeline-data").textContent);
const pane = document.getElementById("pane");
const svg = document.getElementById("chart");
const status = document.getElementById("view");
const PAD_L = 4, PAD_R = 14, MIN_VIEW = 1;  // px, px, µs
const span = Math.max(D.span, 1);
let v0 = 0, v1 = span, W = 0, frame = 0, drag = null, lastBars = 0, lastCalls = 0;

function esc(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
function duration(us) { return us >= 1000 ? (us / 1000).toFixed(3) + " ms" : us.toFixed(1) + " µs"; }
function niceStep(raw) {
  const exp = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 5, 10]) if (m * exp >= raw) return m * exp;
  return 10 * exp;
}
// A time from the trace's start, in the unit the view's end needs, to the step's precision.
function offset(us, step) {
  const [unit, name] = v1 >= 1e6 ? [1e6, " s"] : v1 >= 1000 ? [1000, " ms"] : [1, " µs"];
  return (us / unit).toFixed(Math.min(9, Math.max(0, -Math.floor(Math.log10(step / unit) + 1e-9)))) + name;
}
function chartWidth() { return D.width || Math.max(200, pane.clientWidth); }
function scale() { return (W - PAD_L - PAD_R) / (v1 - v0); }
function xOf(t) { return PAD_L + (t - v0) * scale(); }
function timeAt(clientX) { return v0 + (clientX - svg.getBoundingClientRect().left - PAD_L) / scale(); }

// The first index whose start is >= t (calls are sorted by start).
function lowerBound(calls, t) {
  let lo = 0, hi = calls.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (calls[mid][0] < t) lo = mid + 1; else hi = mid; }
  return lo;
}

// Bars of one row's calls inside the view; gap null draws every call on its own.
function layout(calls, maxDur, sc, gap) {
  const bars = [];
  let cur = null;
  const widest = D.mergedW + 4 * (gap || 0);
  const end = lowerBound(calls, v1 + 1e-9);
  for (let i = lowerBound(calls, v0 - maxDur); i < end; i++) {
    const c = calls[i];
    if (c[1] < v0) continue;
    const x0 = PAD_L + (c[0] - v0) * sc, x1 = Math.max(x0 + D.minBar, PAD_L + (c[1] - v0) * sc);
    if (gap !== null && cur !== null && x0 < cur.x1 + gap && x1 - cur.x0 <= widest) {
      cur.calls.push(c); cur.x1 = Math.max(cur.x1, x1);
    } else {
      cur = {x0: x0, x1: x1, calls: [c]};
      bars.push(cur);
    }
  }
  return bars;
}

function barSvg(bar, y, lib) {
  const calls = bar.calls, first = calls[0], last = calls[calls.length - 1];
  const h = lib ? D.libH : D.barH, top = y + (lib ? D.rowH - D.libH - 1 : D.barY);
  const x0 = Math.max(bar.x0, -10), x1 = Math.min(bar.x1, W + 10), w = Math.max(x1 - x0, 0);
  let failed = 0;
  for (const c of calls) failed += c[3] & 1;
  let cls, extra, data, title;
  if (calls.length === 1) {
    cls = D.classes[first[2]];
    extra = (failed ? " failed" : "") + (first[3] & 2 ? " unfinished" : "");
    data = `data-seq="${first[4]}" data-name="${esc(first[5])}" data-class="${cls}" data-n="1"`;
    title = `${first[6]}  <${duration(first[1] - first[0])}>`;
  } else {
    const byClass = new Map(), byName = new Map();
    for (const c of calls) {
      byClass.set(c[2], (byClass.get(c[2]) || 0) + 1);
      byName.set(c[5], (byName.get(c[5]) || 0) + 1);
    }
    let best = -1, bestN = 0;
    for (const [k, n] of byClass) if (n > bestN) { best = k; bestN = n; }
    cls = D.classes[best];
    extra = " merged" + (failed ? " failed" : "");
    data = `data-seq="${first[4]}" data-last-seq="${last[4]}" data-name="" data-class="${cls}" data-n="${calls.length}"`;
    const names = [...byName].sort((a, b) => b[1] - a[1]);
    title = `${calls.length} calls in ${duration(last[1] - first[0])} (merged at this zoom): `
      + names.slice(0, 8).map(([n, k]) => `${n} \u00d7${k}`).join(", ") + (names.length > 8 ? ", ..." : "")
      + (failed ? `; ${failed} failed` : "") + `\nfirst: ${first[6]}\nlast: ${last[6]}`;
  }
  if (failed) data += ` data-failed="${failed}"`;
  let out = `<rect class="bar c-${cls}${extra}" x="${x0.toFixed(1)}" y="${top}" width="${w.toFixed(1)}" `
    + `height="${h}" ${data}><title>${esc(title)}</title></rect>`;
  if (failed && !lib) {
    out += `<rect class="failmark" x="${x0.toFixed(1)}" y="${y + D.barY + D.barH + 1}" `
      + `width="${Math.max(w, 3).toFixed(1)}" height="3"/>`;
  }
  return out;
}

function markSvg(m, y, notBefore) {
  const x = Math.max(xOf(m[0]), notBefore + 1), kind = m[1];
  if (x < -10 || x > W + 10) return "";
  const title = `<title>${esc(m[2])}</title>`;
  let data = `data-kind="${kind}" data-seq="${m[3]}"`;
  if (kind === "signal") return `<path class="signal-mark" ${data} d="M${(x - 4).toFixed(1)},${y + 1} h8 l-4,7 z">${title}</path>`;
  if (kind === "exit") {
    const cls = m[2].indexOf("killed") >= 0 ? "exit-mark killed" : "exit-mark";
    return `<rect class="${cls}" ${data} x="${(x - 1).toFixed(1)}" y="${y + 1}" width="2.5" height="${D.rowH - 2}">${title}</rect>`;
  }
  if (kind === "fork" || kind === "thread") {
    data += ` data-child="${m[4]}"`;
    return `<path class="${kind}-mark" ${data} d="M${(x - 4.5).toFixed(1)},${y + D.rowH - 9} h9 l-4.5,7 z">${title}</path>`;
  }
  if (kind === "execve") {
    return `<path class="exec-mark" ${data} d="M${(x - 4).toFixed(1)},${y + D.rowH / 2} l4,-5 l4,5 l-4,5 z">${title}</path>`;
  }
  return `<circle class="other-mark" ${data} cx="${x.toFixed(1)}" cy="${y + D.rowH / 2}" r="3">${title}</circle>`;
}

// Lines from a fork mark down to the child's row, under the bars.
function connectorSvg(m, y, rowIndex) {
  const child = D.rowOf[m[4]];
  if (child === undefined) return "";
  const x = xOf(m[0]);
  if (x < -10 || x > W + 10) return "";
  const y2 = D.axisH + child * D.rowH + D.rowH / 2;
  return `<line class="connector ${m[1]}-link" data-parent-row="${rowIndex}" data-child-row="${child}" `
    + `x1="${x.toFixed(1)}" y1="${y + D.rowH - 2}" x2="${x.toFixed(1)}" y2="${y2}"/>`;
}

function draw() {
  frame = 0;
  W = chartWidth();
  const height = D.axisH + D.rows.length * D.rowH + 4;
  svg.setAttribute("width", W);
  svg.setAttribute("height", height);
  const sc = scale();
  let gap = D.merge ? 0 : null, laid, nbars;
  for (;;) {
    laid = D.rows.map(r => [layout(r.calls, r.maxDur, sc, gap), layout(r.libs, r.maxLibDur, sc, gap)]);
    nbars = laid.reduce((n, [a, b]) => n + a.length + b.length, 0);
    if (gap === null || nbars <= D.maxBars || gap > W) break;
    gap = Math.max(gap * 2, 1);
  }
  const parts = ['<g class="axis">'];
  const step = niceStep(110 / sc);
  for (let k = Math.ceil(v0 / step); ; k++) {
    const x = xOf(k * step);
    if (x > W - 45) break;
    parts.push(`<line class="grid" x1="${x.toFixed(1)}" y1="${D.axisH - 6}" x2="${x.toFixed(1)}" y2="${height}"/>`
      + `<text x="${(x + 3).toFixed(1)}" y="${D.axisH - 10}">+${offset(k * step, step)}</text>`);
  }
  parts.push("</g>");
  let calls = 0;
  D.rows.forEach((r, i) => {
    const y = D.axisH + i * D.rowH;
    const body = [`<g class="band" data-row="${i}">`];
    body.push(`<rect class="rowband${i % 2 ? " rowbg" : ""}" x="0" y="${y}" width="${W}" height="${D.rowH}"/>`);
    if (i > 0 && r.pid !== D.rows[i - 1].pid) body.push(`<line class="procsep" x1="0" y1="${y}" x2="${W}" y2="${y}"/>`);
    body.push("</g>");
    parts.push(body.join(""));
  });
  // Connectors go under every row's bars; then each row's bars and marks.
  D.rows.forEach((r, i) => {
    const y = D.axisH + i * D.rowH;
    for (const m of r.marks) if (m[1] === "fork" || m[1] === "thread") parts.push(connectorSvg(m, y, i));
  });
  D.rows.forEach((r, i) => {
    const y = D.axisH + i * D.rowH;
    const [bars, libs] = laid[i];
    const body = [`<g class="row" data-pid="${r.pid}" data-tid="${r.tid}" data-row="${i}">`];
    for (const b of bars) { body.push(barSvg(b, y, false)); calls += b.calls.length; }
    for (const b of libs) { body.push(barSvg(b, y, true)); calls += b.calls.length; }
    // An exit is after the thread's last call, but a call widened to minBar may reach past it: the mark
    // goes after the bar rather than over it (a thread of a few short calls is otherwise just its exit mark).
    let reach = -Infinity;
    for (const b of bars) reach = Math.max(reach, b.x1);
    for (const m of r.marks) body.push(markSvg(m, y, m[1] === "exit" ? reach : -Infinity));
    body.push("</g>");
    parts.push(body.join(""));
  });
  svg.innerHTML = parts.join("");
  lastBars = nbars; lastCalls = calls;
  showStatus(gap);
}

function showStatus(gap) {
  const sc = scale();
  status.dataset.v0 = v0; status.dataset.v1 = v1; status.dataset.span = D.span;
  status.dataset.bars = lastBars; status.dataset.calls = lastCalls;
  const whole = v0 <= 0 && v1 >= span;
  const step = niceStep((v1 - v0) / 4);
  const merged = lastBars < lastCalls
    ? `; ${lastCalls} calls drawn as ${lastBars} bars (` + (gap ? `calls under ${gap} px apart` : "overlapping calls")
      + " merged: zoom in to separate them)" : `; ${lastCalls} calls`;
  status.textContent = (whole ? "Whole trace" : `Showing +${offset(v0, step)} to +${offset(v1, step)}`)
    + ` (${duration(v1 - v0)}, ${duration(1 / sc)} per pixel)` + merged + ".";
}

function request() {
  if (!frame) frame = requestAnimationFrame(draw);
  showStatus(null);
}

function setView(a, b) {
  let w = Math.min(Math.max(b - a, MIN_VIEW), span);
  a = Math.min(Math.max(a, 0), span - w);
  v0 = a; v1 = a + w;
  request();
}
function zoom(factor, at) { setView(at - (at - v0) * factor, at + (v1 - at) * factor); }
function pan(px) { const dt = px / scale(); setView(v0 + dt, v1 + dt); }
function fit() { setView(0, span); }

pane.addEventListener("wheel", e => {
  const unit = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? W : 1;
  let dx = e.deltaX * unit, dy = e.deltaY * unit;
  if (e.shiftKey && !dx) { dx = dy; dy = 0; }
  if (!dx && !dy) return;
  e.preventDefault();
  if (Math.abs(dx) > Math.abs(dy)) pan(dx);
  else zoom(Math.exp(Math.max(-4, Math.min(4, dy * 0.002))), timeAt(e.clientX));
}, {passive: false});
pane.addEventListener("pointerdown", e => {
  if (e.button !== 0) return;
  drag = {x: e.clientX, v0: v0, v1: v1, moved: false};
  try { pane.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
});
pane.addEventListener("pointermove", e => {
  if (!drag) return;
  const dx = e.clientX - drag.x;
  if (Math.abs(dx) > 2) { drag.moved = true; pane.classList.add("dragging"); }
  const dt = dx / ((W - PAD_L - PAD_R) / (drag.v1 - drag.v0));
  setView(drag.v0 - dt, drag.v1 - dt);
});
function endDrag() { drag = null; pane.classList.remove("dragging"); }
pane.addEventListener("pointerup", endDrag);
pane.addEventListener("pointercancel", endDrag);
document.addEventListener("keydown", e => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const mid = (v0 + v1) / 2;
  switch (e.key) {
    case "+": case "=": zoom(1 / 1.5, mid); break;
    case "-": case "_": zoom(1.5, mid); break;
    case "ArrowLeft": pan(-(W - PAD_L - PAD_R) / 5); break;
    case "ArrowRight": pan((W - PAD_L - PAD_R) / 5); break;
    case "0": case "Home": fit(); break;
    default: return;
  }
  e.preventDefault();
});
document.getElementById("fit").addEventListener("click", fit);
window.addEventListener("resize", () => { if (!D.width) request(); });
window.pytraceTimeline = {view: () => [v0, v1], span: D.span, setView: setView, fit: fit, draw: draw, timeAt: timeAt};
draw();
})();
"""
