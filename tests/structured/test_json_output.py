"""--output-format=json on real programs: schema, -c against strace -c, -ff, -z, both backends, errors."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from helpers import run_tracer, trace_schema_validator

from pytrace.structured.schema import load_schema


def _records(path: Path) -> list[dict]:
    recs = [json.loads(line) for line in path.read_text().splitlines()]
    validator = trace_schema_validator()
    for rec in recs:
        validator.validate(rec)
    return recs


def _strace_counts(text: str) -> dict[str, tuple[int, int]]:
    """name -> (calls, errors) from strace's -c table."""
    out = {}
    for line in text.splitlines():
        m = re.match(r"\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(\d*)\s+(\w+)$", line)
        if m and m.group(3) != "total":
            out[m.group(3)] = (int(m.group(1)), int(m.group(2) or 0))
    return out


def test_schema_is_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(load_schema())


@pytest.mark.parametrize("backend", ["ptrace", "ebpf"])
def test_summary_record_counts_equal_strace(backend: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """-c as one JSON object: calls and errors per syscall equal strace -c's for a program with fixed counts."""
    strace = run_tracer("strace", ["-f", "-c", "-o", str(tmp_path / "s.txt")], [str(programs["summary"]), "fork"])
    assert strace.returncode == 0
    res = run_tracer("pytrace", ["-f", "-c", "--json", f"--backend={backend}", "-o", str(tmp_path / "p.jsonl")],
                     [str(programs["summary"]), "fork"])
    assert res.returncode == 0, res.stderr
    recs = _records(tmp_path / "p.jsonl")
    assert [r["type"] for r in recs][0] == "header"
    summaries = [r for r in recs if r["type"] == "summary"]
    assert len(summaries) == 1 and not any(r["type"] == "syscall" for r in recs)
    ours = {row["name"]: (row["calls"], row["errors"]) for t in summaries[0]["tables"] for row in t["rows"]}
    theirs = _strace_counts((tmp_path / "s.txt").read_text())
    for name in ("getppid", "openat", "close", "chdir", "wait4"):
        assert ours.get(name) == theirs.get(name), name


def test_report_c_prints_strace_table_from_json(programs: dict[str, Path], tmp_path: Path) -> None:
    """`pytrace report -c` renders the recorded summary with strace's table layout and counts."""
    run_tracer("strace", ["-c", "-S", "calls", "-o", str(tmp_path / "s.txt")], [str(programs["summary"])])
    run_tracer("pytrace", ["-c", "--json", "-o", str(tmp_path / "p.jsonl")], [str(programs["summary"])])
    rep = subprocess.run(["python3", "-m", "pytrace", "report", "-c", "-S", "calls", str(tmp_path / "p.jsonl")],
                         capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2])
    strip = [re.sub(r"^\s*[\d.]+\s+[\d.]+\s+\d+", "", ln) for ln in rep.stdout.splitlines()]
    want = [re.sub(r"^\s*[\d.]+\s+[\d.]+\s+\d+", "", ln) for ln in (tmp_path / "s.txt").read_text().splitlines()]
    assert strip[:2] == want[:2]  # header and dashes
    assert [ln.split()[-3:] for ln in strip[2:7]] == [ln.split()[-3:] for ln in want[2:7]]


def test_ff_gives_one_json_file_per_process(programs: dict[str, Path], tmp_path: Path) -> None:
    res = run_tracer("pytrace", ["-ff", "--json", "-o", str(tmp_path / "t")], [str(programs["forker"])])
    assert res.returncode == 0, res.stderr
    files = sorted(tmp_path.glob("t.*"))
    assert len(files) >= 2
    for f in files:
        recs = _records(f)
        assert recs[0]["type"] == "header"
        tids = {r["tid"] for r in recs if "tid" in r}
        assert tids == {int(f.suffix[1:])}


def test_successful_only_drops_failed_records(programs: dict[str, Path], tmp_path: Path) -> None:
    run_tracer("pytrace", ["-z", "--json", "-e", "trace=openat,getppid", "-o", str(tmp_path / "z.jsonl")],
               [str(programs["summary"])])
    calls = [r for r in _records(tmp_path / "z.jsonl") if r["type"] == "syscall"]
    assert calls and all(r["errno"] is None for r in calls)
    assert sum(r["name"] == "getppid" for r in calls) == 1000


def test_ebpf_stream_records(programs: dict[str, Path], tmp_path: Path) -> None:
    res = run_tracer("pytrace", ["--backend=ebpf", "--json", "-e", "trace=%file", "-o", str(tmp_path / "e.jsonl")],
                     [str(programs["fileops"]), str(tmp_path / "d")])
    assert res.returncode == 0, res.stderr
    recs = _records(tmp_path / "e.jsonl")
    assert recs[0]["backend"] == "ebpf"
    opens = [r for r in recs if r["type"] == "syscall" and r["name"] == "openat"]
    assert any(r["args"][1]["value"] == "a.txt" for r in opens)  # paths captured in the kernel
    assert any(r["name"] == "mkdir" and r["args"][0]["value"] == str(tmp_path / "d") for r in recs
               if r["type"] == "syscall")
    t0 = recs[1]["timestamp"] if "timestamp" in recs[1] else opens[0]["timestamp"]
    assert abs(t0 - opens[0]["timestamp"]) < 60  # wall-clock seconds, as with ptrace


def test_signal_and_exit_records(programs: dict[str, Path], tmp_path: Path) -> None:
    res = run_tracer("pytrace", ["--json", "-o", str(tmp_path / "k.jsonl")], [str(programs["killed"]), "segv"])
    assert res.returncode < 0
    recs = _records(tmp_path / "k.jsonl")
    sig = [r for r in recs if r["type"] == "signal"]
    assert sig and sig[0]["signal"] == "SIGSEGV" and sig[0]["siginfo"]["si_signo"] == "SIGSEGV"
    exits = [r for r in recs if r["type"] == "exit"]
    assert len(exits) == 1 and exits[0]["signal"] == "SIGSEGV" and exits[0]["exit_code"] is None


@pytest.mark.parametrize(("args", "message"), [
    (["--output-format=xml", "true"], "pytrace: invalid --output-format argument: 'xml' (available: text, json, perfetto)"),
    (["--json", "-k", "true"], "pytrace: option -k is not supported with --output-format=json"),
    (["--output-format=perfetto", "-c", "true"],
     "pytrace: options -c/-C are not supported with --output-format=perfetto (use --output-format=json)"),
])
def test_bad_combinations_are_one_line_errors(args: list[str], message: str) -> None:
    res = run_tracer("pytrace", args, [])
    assert res.returncode != 0
    assert res.stderr.decode().splitlines()[0] == message


def test_report_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    for path, text in ((bad, f"pytrace: {bad}:1: not a JSON trace record"),
                       (tmp_path / "missing", f"pytrace: Can't open '{tmp_path / 'missing'}': No such file")):
        res = subprocess.run(["python3", "-m", "pytrace", "report", str(path)], capture_output=True, text=True,
                             cwd=Path(__file__).parents[2], check=False)
        assert res.returncode == 1 and res.stderr.startswith(text), res.stderr


def test_argument_values_come_from_the_value_renderer(programs: dict[str, Path], tmp_path: Path) -> None:
    """Typed values straight from the decoders (no text read back): constants and flags carry their
    number, strings their bytes, structures their fields; each argument's text is strace's."""
    out = tmp_path / "v.jsonl"
    res = run_tracer("pytrace", ["--json", "-o", str(out), "-e", "trace=openat,newfstatat,read,rt_sigaction"],
                     ["cat", "/etc/hostname"])
    assert res.returncode == 0, res.stderr
    recs = [r for r in _records(out) if r["type"] == "syscall"]
    opened = next(r for r in recs if r["name"] == "openat" and r["args"][1]["value"] == "/etc/hostname")
    assert opened["args"][0] == {"text": "AT_FDCWD", "value": {"name": "AT_FDCWD", "value": -100}}
    assert opened["args"][2] == {"text": "O_RDONLY", "value": {"flags": ["O_RDONLY"], "value": 0}}
    stat = [r for r in recs if r["name"] == "newfstatat" and r["args"][1]["value"] == ""][-1]  # cat's own fstat
    st = stat["args"][2]["value"]
    mode = os.stat("/etc/hostname").st_mode
    assert st["st_mode"] == {"flags": ["S_IFREG", f"0{mode & 0o7777:o}"], "value": mode} and isinstance(st["st_size"], int)
    assert stat["args"][3]["value"] == {"flags": ["AT_EMPTY_PATH"], "value": 0x1000}
    data = [r for r in recs if r["name"] == "read" and r["retval"] > 0 and r["args"][0]["value"] == 3][-1]
    assert data["args"][1]["value"] == Path("/etc/hostname").read_text()[:32]
    for r in recs:  # every argument list splits the call's text exactly, halves joined
        assert ", ".join(a["text"] for a in r["args"]) == r["entry_text"] + (r["exit_text"] or "")


def test_lines_stay_ascii_json_with_non_ascii_and_undecodable_bytes(tmp_path: Path) -> None:
    """Paths with UTF-8 and with invalid bytes, and an argv that is not UTF-8: every line is ASCII JSON.

    The fast encoder (orjson) writes UTF-8 and refuses lone surrogates; those records go through
    the standard encoder, so the values still read back as the text strace's escapes stand for.
    """
    utf8 = "caf\u00e9-json"
    (tmp_path / utf8).write_text("x")
    odd = os.fsencode(str(tmp_path)) + b"/bad-\xff-name"
    out = tmp_path / "t.jsonl"
    cmd = [b"/bin/cat", os.fsencode(str(tmp_path / utf8)), odd]
    res = subprocess.run([os.fsencode(sys.executable), b"-m", b"pytrace", b"--json", b"-e", b"trace=openat",
                          b"-o", os.fsencode(str(out)), *cmd], capture_output=True)
    assert res.returncode == 1  # cat: the second file does not exist
    raw = out.read_bytes()
    assert raw.isascii()
    recs = _records(out)
    assert recs[0]["argv"][-1] == os.fsdecode(odd)  # the surrogate-escaped argv, through the fallback
    paths = [r["args"][1]["value"] for r in recs if r["type"] == "syscall" and r["name"] == "openat"]
    assert str(tmp_path / utf8) in paths
    assert os.fsencode(str(tmp_path)).decode() + "/bad-\\xff-name" in paths

