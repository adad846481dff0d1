"""``-c --histogram``: per-syscall log2 latency histograms, in bpftrace's ``hist()`` format.

The format is judged by real bpftrace: the same slot counts are handed to
bpftrace (``hist(v)`` of a value in each slot, as many times as the slot
counts) and its text must equal ours, for a synthetic set spanning every label
kind (``[0]``, ``[1]``, K, M, G, T) and for the histograms of real runs of both
backends.  The counts must add up to the ``calls`` column of the -c table,
row by row, and the JSON summary must carry the same histograms.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from helpers import run_tracer, trace_schema_validator, tracer_command, tracer_env

from pytrace.sinks import histogram

_TABLE_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(?P<calls>\d+)\s+(?:\d+\s+)?(?P<name>\w+)$")
_HIST_HEAD = re.compile(r"^@(?P<map>\w+)\[(?P<key>\w+)\]: $")
_HIST_ROW = re.compile(r"^(?P<label>\S.*?)\s+(?P<count>\d+) \|[@ ]{52}\|$")


def _bpftrace_render(hists: dict[str, list[int]], name: str = "h") -> dict[str, str]:
    """bpftrace's own text of a map ``@name[key]`` of hist(), fed values that land in the given slots."""
    body = []
    for key, values in hists.items():
        for i, count in enumerate(values):
            low, _ = histogram.bucket_bounds(i)
            while count > 0:
                n = min(count, 100)  # unroll() takes at most 100
                body.append(f'unroll({n}) {{ @{name}["{key}"] = hist({low}); }}')
                count -= n
    proc = subprocess.run(["bpftrace", "-e", "BEGIN { " + " ".join(body) + " exit(); }"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    return _blocks(proc.stdout)


def _blocks(text: str) -> dict[str, str]:
    """Each ``@map[key]: `` block of a bpftrace-style output, by key: its header, rows and blank line."""
    out: dict[str, str] = {}
    key = None
    for line in text.splitlines(keepends=True):
        m = _HIST_HEAD.match(line.rstrip("\n"))
        if m:
            key = m.group("key")
            out[key] = line
        elif key is not None:
            out[key] += line
            if line == "\n":
                key = None
    return out


def _counts(block: str) -> int:
    return sum(int(m.group("count")) for m in map(_HIST_ROW.match, block.splitlines()[1:]) if m)


def _slots(block: str) -> list[int]:
    """A printed histogram back into slot counts (by its row labels)."""
    labels = {histogram.bucket_label(i): i for i in range(histogram.SLOTS)}
    values = [0] * histogram.SLOTS
    for line in block.splitlines()[1:]:
        m = _HIST_ROW.match(line)
        if m:
            values[labels[m.group("label")]] = int(m.group("count"))
    return values


def test_format_matches_bpftrace() -> None:
    """Labels up to G, bars of many lengths (bpftrace sizes them in single precision), one-row maps.

    bpftrace 0.17's log2 stops at 32 bits (every value from 4G up lands in [2G, 4G)), so it is
    the judge up to that slot; the T labels beyond are checked against its labelling rule below.
    """
    wide = [0] * histogram.SLOTS
    for i, count in zip(range(1, 34), [3, 1, 7, 0, 52, 51, 26, 13, 9, 100, 0, 0, 5, 17, 33, 99, 98, 2, 1, 0,
                                       4, 41, 77, 65, 12, 0, 0, 1, 8, 150, 149, 3, 176], strict=True):
        wide[i] = count
    single = [0] * histogram.SLOTS
    single[12] = 4
    ours = {"wide": wide, "single": single}
    expected = _bpftrace_render(ours)
    assert set(expected) == set(ours)
    for key, values in ours.items():
        assert histogram.render_map("h", [(key, values)]) == expected[key]


def test_labels_past_bpftrace_range() -> None:
    """hist_index_label: K/M/G/T by powers of 2**10, T keeps counting past 1024T."""
    assert histogram.bucket_label(34) == "[4G, 8G)"
    assert histogram.bucket_label(42) == "[1T, 2T)"
    assert histogram.bucket_label(52) == "[1024T, 2048T)"
    assert histogram.slot((1 << 40) + 5) == 42 and histogram.slot(1 << 200) == histogram.SLOTS - 1


def _table_and_hists(text: str) -> tuple[dict[str, int], dict[str, str]]:
    calls = {}
    for line in text.splitlines():
        m = _TABLE_ROW.match(line)
        if m and m.group("name") != "total":
            calls[m.group("name")] = int(m.group("calls"))
    return calls, _blocks(text)


@pytest.mark.differential
@pytest.mark.parametrize("backend, hist_map", [("ptrace", "cpu_ns"), ("ebpf", "latency_ns")])
def test_run_histograms_sum_to_calls_and_print_as_bpftrace(backend: str, hist_map: str, tmp_path: Path) -> None:
    out = tmp_path / "c.txt"
    proc = run_tracer("pytrace", [f"--backend={backend}", "-c", "--histogram", "-e", "trace=openat,read,close,fstat",
                                  "-o", str(out)], ["cat", "/etc/hostname", "/etc/passwd", "/nonexistent"])
    assert proc.returncode == 1, proc.stderr  # cat's own status: /nonexistent
    text = out.read_text()
    calls, blocks = _table_and_hists(text)
    assert {"openat", "read", "close"} <= set(calls), text
    assert set(blocks) == set(calls), text
    assert all(b.startswith(f"@{hist_map}[") for b in blocks.values()), text
    for name, n in calls.items():
        assert _counts(blocks[name]) == n, (name, text)
    # the histograms follow the table after one blank line, in the table's row order
    table_end = text.index("\n\n")
    assert list(calls) == [_HIST_HEAD.match(line).group("key")  # type: ignore[union-attr]
                           for line in text[table_end + 2:].splitlines() if _HIST_HEAD.match(line)]
    reference = _bpftrace_render({name: _slots(block) for name, block in blocks.items()}, hist_map)
    assert reference == blocks


@pytest.mark.differential
@pytest.mark.parametrize("backend", ["ptrace", "ebpf"])
def test_json_summary_has_the_histograms(backend: str, tmp_path: Path) -> None:
    out = tmp_path / "c.jsonl"
    proc = run_tracer("pytrace", [f"--backend={backend}", "--json", "-c", "--histogram", "-e", "trace=openat,close",
                                  "-o", str(out)], ["cat", "/etc/hostname"])
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    validator = trace_schema_validator()
    for rec in records:
        validator.validate(rec)
    (summary,) = [r for r in records if r["type"] == "summary"]
    rows = summary["tables"][0]["rows"]
    assert {r["name"] for r in rows} == {"openat", "close"}
    for row in rows:
        buckets = row["histogram"]
        assert sum(b["count"] for b in buckets) == row["calls"]
        for b in buckets:  # each bucket is one log2 slot: [0, 1), [1, 2), [2, 4), ...
            assert b["high_ns"] == (1 if b["low_ns"] == 0 else 2 * b["low_ns"])
        # the table's shortest and longest call fall in the first and last non-empty slots
        assert buckets[0]["low_ns"] <= row["min_ns"] < buckets[0]["high_ns"]
        assert buckets[-1]["low_ns"] <= row["max_ns"] < buckets[-1]["high_ns"]
    # pytrace report -c prints the recorded table and its histograms again
    report = subprocess.run([*tracer_command("pytrace"), "report", "-c", str(out)], capture_output=True, text=True,
                            env=tracer_env(), timeout=60, check=False)
    assert report.returncode == 0, report.stderr
    blocks = _blocks(report.stdout)
    hist_map = "cpu_ns" if summary["clock"] == "cpu" else "latency_ns"
    assert set(blocks) == {r["name"] for r in rows}
    for row in rows:
        assert blocks[row["name"]].startswith(f"@{hist_map}[{row['name']}]: \n")
        assert _slots(blocks[row["name"]]) == histogram.slots_from_buckets(row["histogram"])


def test_histogram_needs_a_summary() -> None:
    proc = run_tracer("pytrace", ["--histogram"], ["true"])
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines()[0] == (
        "pytrace: --histogram must be given with (-c/--summary-only or -C/--summary)")


def test_kernel_slots_go_past_32_bits() -> None:
    """A 4.4 s call: 4.4e9 ns needs the 33rd bit, where bpftrace 0.17's log2 stops; the kernel program's does not."""
    proc = run_tracer("pytrace", ["--backend=ebpf", "-c", "--histogram", "-e", "trace=clock_nanosleep"],
                      ["sleep", "4.4"])
    assert proc.returncode == 0, proc.stderr
    blocks = _blocks(proc.stderr.decode())
    assert blocks["clock_nanosleep"] == (
        "@latency_ns[clock_nanosleep]: \n"
        "[4G, 8G)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|\n\n")
