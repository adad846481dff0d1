"""``--output-format=perfetto`` and ``pytrace export``: Chrome trace-event JSON that Perfetto opens.

Real programs are traced and the file is checked three ways:

* against the Trace Event Format itself: the JSON Schema written from the
  format's specification (pytrace/structured/trace_event.schema.json), which
  is first shown to reject what the specification forbids;
* against real strace: the slices' and instants' strace lines, laid out per
  thread as ``strace -f -o`` prints them, equal strace's trace of the same
  program (the usual normalisation of pids, addresses, times);
* against the records: a saved JSON trace exported with ``pytrace export``
  has exactly one slice per syscall record on the record's pid/tid track at
  the record's time, one instant per signal/exit, the slices of a thread do
  not overlap, and every process and thread is named.
"""

from __future__ import annotations

import difflib
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import helpers
import jsonschema
import pytest

from pytrace.structured.tracks import call_text, event_text

SCHEMA_PATH = helpers.REPO_ROOT / "pytrace" / "structured" / "trace_event.schema.json"
Event = dict[str, Any]


def _validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _validate(doc: Any) -> None:
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in _validator().iter_errors(doc)]
    assert not errors, "not valid trace-event JSON:\n" + "\n".join(errors[:20])


def _perfetto(tmp_path: Path, options: list[str], cmd: list[str], name: str = "trace.json") -> dict[str, Any]:
    out = tmp_path / name
    result = helpers.run_tracer("pytrace", ["--output-format=perfetto", *options, "-o", str(out)], cmd,
                                cwd=tmp_path)
    assert out.exists(), f"no trace written; stderr:\n{helpers.decode(result.stderr)}"
    doc = json.loads(out.read_text())
    _validate(doc)
    return doc  # type: ignore[no-any-return]


def _strace(tmp_path: Path, options: list[str], cmd: list[str]) -> str:
    out = tmp_path / "strace.txt"
    helpers.run_tracer("strace", [*options, "-o", str(out)], cmd, cwd=tmp_path)
    return helpers.normalise(helpers.group_by_process(helpers.decode(out.read_bytes())), None)


def _as_strace_text(doc: dict[str, Any]) -> str:
    """The events as ``strace -f -o`` lines ("TID   line"), in time order, grouped like strace's."""
    lines = []
    for ev in doc["traceEvents"]:
        if ev["ph"] == "X" and ev["cat"].startswith("syscall"):
            lines.append((ev["ts"], 0, ev["tid"], ev["args"]["call"]))
        elif ev["ph"] == "i":
            lines.append((ev["ts"], 1, ev["tid"], ev["args"]["line"]))
    lines.sort()
    text = "".join(f"{tid:<5} {line}\n" for _ts, _o, tid, line in lines)
    return helpers.normalise(helpers.group_by_process(text), None)


def _slices(doc: dict[str, Any]) -> list[Event]:
    return [e for e in doc["traceEvents"] if e["ph"] == "X"]


def _metadata(doc: dict[str, Any], name: str) -> dict[tuple[int, int], Any]:
    return {(e["pid"], e["tid"]): next(iter(e["args"].values()))
            for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == name}


def _check_tracks(doc: dict[str, Any]) -> None:
    """Slices of a thread never overlap; every pid and tid with events has its name (and sort order)."""
    by_tid: dict[int, list[Event]] = {}
    for ev in _slices(doc):
        if ev["cat"].startswith("syscall"):
            by_tid.setdefault(ev["tid"], []).append(ev)
    for tid, evs in by_tid.items():
        evs.sort(key=lambda e: e["ts"])
        for a, b in zip(evs, evs[1:], strict=False):
            assert b["ts"] >= a["ts"] + a["dur"], f"tid {tid}: {a['name']} and {b['name']} overlap: {a} {b}"
    tracks = {(e["pid"], e["tid"]) for e in doc["traceEvents"] if e["ph"] in ("X", "i")}
    threads = _metadata(doc, "thread_name")
    processes = {pid: name for (pid, _tid), name in _metadata(doc, "process_name").items()}
    assert tracks <= set(threads), f"threads without a name: {tracks - set(threads)}"
    assert {pid for pid, _ in tracks} <= set(processes), "processes without a name"
    assert all(threads.values()) and all(processes.values())
    assert set(_metadata(doc, "thread_sort_index")) == set(threads)


# -- the schema is the specification's ------------------------------------------------------------


@pytest.mark.parametrize("event", [
    pytest.param({"ph": "X", "name": "a", "ts": 1, "pid": 1, "tid": 1}, id="complete-without-dur"),
    pytest.param({"ph": "X", "name": "a", "ts": 1, "pid": 1, "tid": 1, "dur": -1}, id="negative-dur"),
    pytest.param({"ph": "B", "name": "a", "pid": 1, "tid": 1}, id="no-ts"),
    pytest.param({"ph": "Q", "name": "a", "ts": 1, "pid": 1, "tid": 1}, id="unknown-phase"),
    pytest.param({"ph": "i", "name": "a", "ts": 1, "pid": 1, "tid": 1, "s": "x"}, id="bad-instant-scope"),
    pytest.param({"ph": "i", "name": "a", "ts": 1, "pid": 1}, id="thread-instant-without-tid"),
    pytest.param({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {}}, id="name-without-name"),
    pytest.param({"ph": "M", "name": "colour", "pid": 1, "tid": 1, "args": {}}, id="unknown-metadata"),
    pytest.param({"ph": "M", "name": "process_sort_index", "pid": 1, "args": {"sort_index": "1"}},
                 id="sort-index-not-integer"),
    pytest.param({"ph": "C", "name": "c", "ts": 1, "pid": 1, "args": {"v": "x"}}, id="counter-not-number"),
    pytest.param({"ph": "b", "name": "a", "cat": "c", "ts": 1, "pid": 1, "tid": 1}, id="async-without-id"),
    pytest.param({"ph": "X", "name": "a", "ts": "1", "dur": 1, "pid": 1, "tid": 1}, id="ts-string"),
])
def test_schema_rejects_what_the_specification_forbids(event: Event) -> None:
    assert not _validator().is_valid({"traceEvents": [event]})


def test_schema_accepts_the_specifications_examples() -> None:
    _validate({"traceEvents": [
        {"name": "myFunction", "cat": "foo", "ph": "B", "ts": 123, "pid": 2343, "tid": 2347,
         "args": {"first": 1}},
        {"ph": "E", "ts": 145, "pid": 2343, "tid": 2347},
        {"name": "myFunction", "cat": "foo", "ph": "X", "ts": 123, "dur": 234, "pid": 2343, "tid": 2347},
        {"name": "OutOfMemory", "ph": "i", "ts": 1234523.3, "pid": 2343, "tid": 2347, "s": "g"},
        {"name": "ctr", "ph": "C", "ts": 0, "pid": 0, "args": {"cats": 0, "dogs": 7}},
        {"name": "url1", "cat": "foo", "ph": "b", "ts": 1, "pid": 1, "tid": 1, "id": "0x100"},
        {"name": "thread_name", "ph": "M", "pid": 2343, "tid": 2347, "args": {"name": "RendererThread"}},
        {"name": "process_sort_index", "ph": "M", "pid": 2343, "args": {"sort_index": -7}},
    ], "displayTimeUnit": "ns", "otherData": {"version": "My Application v1.0"}})


# -- live traces of real programs, against strace --------------------------------------------------


@pytest.mark.differential
@pytest.mark.parametrize("name, options", [
    ("forker", ["-f"]),
    ("threads", ["-f", "-e", "trace=!futex"]),
    ("signals", ["-f"]),
])
def test_perfetto_lines_equal_strace(name: str, options: list[str], programs: dict[str, Path],
                                     tmp_path: Path) -> None:
    cmd = [str(programs[name])]
    doc = _perfetto(tmp_path, options, cmd)
    _check_tracks(doc)
    assert doc["displayTimeUnit"] == "ns"
    expected = _strace(tmp_path, options, cmd)
    actual = _as_strace_text(doc)
    assert actual == expected, "\n" + "".join(
        difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "strace", "perfetto"))


def test_tracks_and_names_of_live_traces(programs: dict[str, Path], tmp_path: Path) -> None:
    """forker: three processes, the vfork child renamed by its execve; threads: one process, five threads."""
    doc = _perfetto(tmp_path, ["-f"], [str(programs["forker"])], "forker.json")
    processes = _metadata(doc, "process_name")
    assert sorted(processes.values()) == ["forker", "forker", "true"]
    assert all(pid == tid for pid, tid in processes)
    exits = [e for e in doc["traceEvents"] if e["ph"] == "i" and e["cat"] == "exit"]
    assert sorted(e["name"] for e in exits) == ["exit 0", "exit 0", "exit 3"]
    assert all(e["s"] == "p" for e in exits)
    # exit_group never returns: its slice ends at its process's exit, marked as such.
    for ev in _slices(doc):
        if ev["name"] == "exit_group":
            assert ev["args"]["outcome"] == "unfinished"
            assert any(x["pid"] == ev["pid"] and x["ts"] == pytest.approx(ev["ts"] + ev["dur"], abs=0.5)
                       for x in exits)

    doc = _perfetto(tmp_path, ["-f"], [str(programs["threads"])], "threads.json")
    threads = _metadata(doc, "thread_name")
    assert len(threads) == 5 and len({pid for pid, _ in threads}) == 1
    assert set(threads.values()) == {"threads"}
    _check_tracks(doc)
    failed = [e for e in _slices(doc) if "errno" in e["args"]]
    assert failed and all(e["args"]["call"].endswith(f"{e['args']['errno']} ({e['args']['strerror']})")
                          for e in failed)


# -- saved traces: one slice per record -------------------------------------------------------------


def _record_checks(records: list[dict[str, Any]], doc: dict[str, Any]) -> None:
    slices = Counter((e["pid"], e["tid"], e["name"], e["ts"], e["args"]["call"]) for e in _slices(doc))
    calls = [r for r in records if r["type"] == "syscall"]
    assert sum(slices.values()) == len(calls)
    for rec in calls:
        key = (rec["pid"], rec["tid"], rec["name"], round(rec["timestamp"] * 1e6, 3), call_text(rec))
        assert slices[key] == 1, f"no slice for {rec}"
        slices[key] -= 1
    for ev in _slices(doc):
        assert ev["cat"].split(",")[0] == "syscall"
    instants = Counter((e["pid"], e["tid"], e["args"]["line"]) for e in doc["traceEvents"] if e["ph"] == "i")
    events = Counter((r["pid"], r["tid"], event_text(r)) for r in records
                     if r["type"] in ("signal", "exit", "stop", "superseded", "personality"))
    assert instants == events
    _check_tracks(doc)


@pytest.mark.parametrize("name", ["forker", "threads", "signals"])
def test_export_has_one_slice_per_record(name: str, programs: dict[str, Path], tmp_path: Path) -> None:
    jsonl = tmp_path / "trace.jsonl"
    helpers.run_tracer("pytrace", ["--json", "-f", "-o", str(jsonl)], [str(programs[name])], cwd=tmp_path)
    out = tmp_path / "trace.json"
    res = subprocess.run([sys.executable, "-m", "pytrace", "export", "--format=perfetto", str(jsonl), "-o", str(out)],
                         capture_output=True, text=True, env=helpers.tracer_env(), timeout=60, check=False)
    assert res.returncode == 0, res.stderr
    doc = json.loads(out.read_text())
    _validate(doc)
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    _record_checks(records, doc)
    assert doc["otherData"]["argv"] == records[0]["argv"]
    # A saved trace names its tracks from the records (never from today's /proc): forker's execve.
    names = set(_metadata(doc, "process_name").values())
    assert names == {"forker": {"forker", "true"}, "threads": {"threads"}, "signals": {"signals"}}[name]


def test_export_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for args, message in (([str(tmp_path / "missing.jsonl")], "Can't open"), ([str(bad)], "bad.jsonl:1")):
        res = subprocess.run([sys.executable, "-m", "pytrace", "export", *args], capture_output=True, text=True,
                             env=helpers.tracer_env(), timeout=60, check=False)
        assert res.returncode == 1 and message in res.stderr, res.stderr


def test_unfinished_and_libcall_records() -> None:
    """A call cut by the end of the trace ends there; pyltrace's library calls are slices too."""
    import io

    from pytrace.structured.perfetto import PerfettoWriter

    out = io.StringIO()
    w = PerfettoWriter(out, live=False)
    base = {"pid": 10, "tid": 11, "arch": "x86_64", "entry_text": "0, ", "args": [], "errno": None,
            "errno_code": None, "tampered": None}
    w(11, {**base, "type": "syscall", "seq": 2, "nr": 0, "name": "read", "timestamp": 100.0,
           "outcome": "detached", "exit_text": None, "return_text": "?", "duration": None, "retval": None})
    w(12, {"type": "libcall", "seq": 3, "pid": 10, "tid": 12, "name": "malloc", "timestamp": 100.5,
           "duration": 0.25, "args_text": "16", "return_text": "0x1234", "depth": 0})
    w(12, {"type": "signal", "seq": 4, "pid": 10, "tid": 12, "timestamp": 101.0, "signal": "SIGINT",
           "siginfo_text": None, "description": "Interrupt"})
    w.close()
    doc = json.loads(out.getvalue())
    _validate(doc)
    read, malloc = sorted(_slices(doc), key=lambda e: e["ts"])
    assert (read["ts"], read["dur"], read["args"]["outcome"]) == (100e6, 1e6, "detached")
    assert read["args"]["call"] == "read(0,  <detached ...>"
    assert (malloc["cat"], malloc["dur"], malloc["args"]["call"]) == ("libcall", 250e3, "malloc(16) = 0x1234")
    assert set(_metadata(doc, "thread_name")) == {(10, 11), (10, 12)}
