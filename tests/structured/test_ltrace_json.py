"""``pyltrace --output-format=json`` and ``pytrace report`` of its traces, on the pyltrace test programs.

A JSON run and a text run cannot be the same run, so every comparison traces
the (deterministic) program twice with the same options and normalises what
legitimately differs between two runs (addresses, pids, times: the pyltrace
tests' normaliser).  The programs and the ``lt`` fixture that builds them are
the pyltrace tests' own (tests/ltrace/).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

_LTRACE_TESTS = Path(__file__).resolve().parent.parent / "ltrace"
sys.path.insert(0, str(_LTRACE_TESTS))  # lthelp, importable as the pyltrace tests import it

from helpers import REPO_ROOT, trace_schema_validator, tracer_env  # noqa: E402
from lthelp import normalise, run, summary_rows  # noqa: E402


def _ltrace_fixtures() -> Any:
    spec = importlib.util.spec_from_file_location("ltrace_conftest_for_json", _LTRACE_TESTS / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lt = _ltrace_fixtures().lt  # the compiled test programs (tests/ltrace/conftest.py)

Record = dict[str, Any]


def _traces(lt_args: list[str], cmd: list[str | Path], tmp_path: Path,
            json_flag: str = "--json") -> tuple[str, list[Record], str, subprocess.CompletedProcess[str]]:
    """(text trace, JSON records, the JSON file's text, the JSON run) of two runs with the same options."""
    text_f, json_f = tmp_path / "trace.txt", tmp_path / "trace.jsonl"
    text_run = run("pyltrace", lt_args + ["-o", str(text_f)], cmd)
    json_run = run("pyltrace", [json_flag] + lt_args + ["-o", str(json_f)], cmd)
    assert json_run.returncode == text_run.returncode, json_run.stderr
    assert json_run.stdout == text_run.stdout
    raw = json_f.read_text()
    records = [json.loads(line) for line in raw.splitlines()]
    return text_f.read_text(), records, raw, json_run


def _report(path: Path, *opts: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytrace", "report", *opts, str(path)], capture_output=True,
                          text=True, env=tracer_env(), cwd=str(REPO_ROOT), timeout=60, check=False)


def _calls_from_text(text: str) -> list[str]:
    """Every call line of ltrace's text, its unfinished and resumed halves merged, in entry order."""
    out: list[list[str | None]] = []
    stack: list[int] = []
    for line in text.splitlines():
        if line.startswith(("---", "+++")):
            continue
        m = re.match(r"^<\.\.\. (.+) resumed> (.*)\) += (.*)$", line)
        if m:
            i = stack.pop()
            out[i][1] = f"{out[i][1]}{m.group(2)}"
            out[i][2] = m.group(3)
            continue
        m = re.match(r"^([^(]+)\((.*) <(unfinished|no return) \.\.\.>$", line)
        if m:
            if m.group(3) == "unfinished":
                stack.append(len(out))
            out.append([m.group(1), m.group(2), None])
            continue
        m = re.match(r"^([^(]+)\((.*)\) += (.*)$", line)
        assert m, f"not a call line: {line!r}"
        out.append([m.group(1), m.group(2), m.group(3)])
    return [f"{name}({args}) = {ret}" for name, args, ret in out]


def _calls_from_records(records: list[Record]) -> list[str]:
    calls = sorted((r for r in records if r["type"] in ("libcall", "syscall")), key=lambda r: r["entry_seq"])
    out = []
    for r in calls:
        name = r["display"] if r["type"] == "libcall" else "SYS_" + r["name"]
        args = r["args_text"] if r["outcome"] == "returned" else r["entry_text"]
        out.append(f"{name}({args}) = {r['return_text'] if r['outcome'] == 'returned' else None}")
    return out


def _check_file(raw: str, records: list[Record]) -> None:
    """Every line is a record jq accepts and the schema validates; a pyltrace header comes first."""
    jq = shutil.which("jq")
    assert jq, "jq is missing: it is in the README's test set-up command"
    res = subprocess.run([jq, "-c", "."], input=raw, capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
    assert len(res.stdout.splitlines()) == len(records)
    validator = trace_schema_validator()
    for rec in records:
        validator.validate(rec)
    head = records[0]
    assert head["type"] == "header" and head["tool"] == "pyltrace" and head["schema_version"] == 2
    assert sum(1 for r in records if r["type"] == "header") == 1
    seqs = [r["seq"] for r in records[1:] if r["type"] != "summary"]
    assert len(set(seqs)) == len(seqs)


@pytest.mark.parametrize("variant", ["default", "noplt", "ibtnow"])
def test_every_call_is_a_record(lt: dict[str, Path], variant: str, tmp_path: Path) -> None:
    """The same calls, arguments and return values as the text, one record per call, nesting merged."""
    text, records, raw, json_run = _traces([], [lt[variant], "5"], tmp_path)
    _check_file(raw, records)
    assert json_run.returncode == 5 and json_run.stderr == ""
    assert normalise("\n".join(_calls_from_records(records))) == normalise("\n".join(_calls_from_text(text)))
    calls = [r for r in records if r["type"] == "libcall"]
    assert len(calls) == 28 and all(r["outcome"] == "returned" for r in calls)
    by_name: dict[str, list[Record]] = {}
    for r in calls:
        by_name.setdefault(r["name"], []).append(r)
    malloc = by_name["malloc"][0]
    assert malloc["args"] == [{"text": "16", "value": 16}] and malloc["args_text"] == "16"
    assert malloc["retval"] == int(malloc["return_text"], 16) and malloc["library"] == "libc.so.6"
    assert malloc["caller"] == f"ltprog_{variant}" and malloc["depth"] == 1
    snprintf = by_name["snprintf"][0]  # the text buffer is an output argument: printed at the return
    assert snprintf["entry_text"] == "" and snprintf["exit_text"] == snprintf["args_text"]
    assert [a["value"] for a in snprintf["args"]] == ["item 0", 16, "item %d", 0]
    free = by_name["free"][0]
    assert free["return_text"] == "<void>" and free["retval"] is None
    assert by_name["strcmp"][0]["retval"] == -5
    assert by_name["mylib_twice"][0]["library"] == "libltlib.so"
    qsort = by_name["qsort"][0]
    for cmp in by_name["strcmp"]:  # called from the comparison callback while qsort runs
        assert cmp["depth"] == 2 and qsort["entry_seq"] < cmp["entry_seq"] < cmp["seq"] < qsort["seq"]
        assert cmp["duration"] <= qsort["duration"]
    exits = [r for r in records if r["type"] == "exit"]
    assert len(exits) == 1 and exits[0]["exit_code"] == 5 and exits[0]["signal"] is None
    assert records[-1] is exits[0]
    assert all(r["pid"] == r["tid"] == exits[0]["pid"] for r in calls)


def test_syscalls(lt: dict[str, Path], tmp_path: Path) -> None:
    """-S: syscall records shaped as pytrace's, named without SYS_, nested among the library calls."""
    text, records, raw, json_run = _traces(["-S"], [lt["default"], "5"], tmp_path)
    _check_file(raw, records)
    assert normalise("\n".join(_calls_from_records(records))) == normalise("\n".join(_calls_from_text(text)))
    sys_recs = [r for r in records if r["type"] == "syscall"]
    assert len(sys_recs) == len(re.findall(r"^SYS_", text, re.M))
    names = {r["name"] for r in sys_recs}
    assert {"brk", "mmap", "write", "exit_group"} <= names and not any(n.startswith("SYS_") for n in names)
    flush = next(r for r in records if r["type"] == "libcall" and r["name"] == "fflush")  # stdout is a pipe
    write = next(r for r in sys_recs if r["name"] == "write" and flush["entry_seq"] < r["entry_seq"] < flush["seq"])
    assert write["depth"] == 2 and write["nr"] == 1 and write["arch"] == "x86_64"
    assert write["args"][0] == {"text": "1", "value": 1} and write["retval"] == len(json_run.stdout)
    failed = next(r for r in sys_recs if r["errno"] is not None)
    assert failed["errno"] == "ENOENT" and failed["retval"] == -2 and failed["return_text"] == "-2"
    last = next(r for r in sys_recs if r["name"] == "exit_group")
    assert last["outcome"] == "unfinished" and last["duration"] is None and last["exit_text"] is None


def test_summary(lt: dict[str, Path], tmp_path: Path) -> None:
    """-c: one summary record with the text table's rows; report prints the table, or counts one from calls."""
    text, records, raw, _ = _traces(["-c"], [lt["default"]], tmp_path)
    _check_file(raw, records)
    [summary] = [r for r in records if r["type"] == "summary"]
    assert summary["tool"] == "pyltrace"
    rows = {row["name"]: row["calls"] for row in summary["rows"]}
    assert rows == summary_rows(text) and rows["strcmp"] == 3 and rows["printf"] == 5
    for row in summary["rows"]:
        assert set(row) == {"name", "calls", "seconds", "usecs_per_call", "percent_time"}
    assert not [r for r in records if r["type"] == "libcall"]
    assert [r["exit_code"] for r in records if r["type"] == "exit"] == [0]
    table = _report(tmp_path / "trace.jsonl")
    assert table.returncode == 0, table.stderr
    assert summary_rows(table.stdout) == rows
    assert table.stdout.splitlines()[:2] == text.splitlines()[:2] and table.stdout.count("total") == 1
    for opt in ("-c", "-C"):  # -C of a -c trace: its text is the table, printed once
        assert _report(tmp_path / "trace.jsonl", opt).stdout == table.stdout
    _traces([], [lt["default"]], tmp_path)  # no -c: report -c counts from the calls' durations
    counted = _report(tmp_path / "trace.jsonl", "-c")
    assert counted.returncode == 0 and summary_rows(counted.stdout) == rows


def test_signal_and_killed(lt: dict[str, Path], tmp_path: Path) -> None:
    """Signal records, the call cut by the fatal signal as no_return, the exit record with the signal."""
    text, records, raw, json_run = _traces([], [lt["signals"]], tmp_path)
    _check_file(raw, records)
    assert json_run.returncode in (-11, 128 + 11)
    signals = [r["signal"] for r in records if r["type"] == "signal"]
    assert signals == ["SIGUSR1", "SIGSEGV"]
    [cut] = [r for r in records if r.get("outcome") == "no_return"]
    assert cut["name"] == "strlen" and cut["duration"] is None and cut["return_text"] is None
    assert cut["args"] == [{"text": "nil", "value": None}] and cut["library"] == "libc.so.6"
    [end] = [r for r in records if r["type"] == "exit"]
    assert end["exit_code"] is None and end["signal"] == "SIGSEGV" and end["signo"] == 11
    rep = _report(tmp_path / "trace.jsonl")
    assert normalise(rep.stdout) == normalise(text)


@pytest.mark.parametrize(("opts", "prog"), [
    ([], "default"), (["-S", "-T", "-n", "3"], "default"), (["-n", "2", "-i"], "default"), (["-tt"], "default"),
    (["-r"], "default"), (["-a", "30", "-s", "3", "-A", "2"], "default"), (["-e", "mylib_*"], "default"),
    (["-x", "cmp+mylib_twice"], "default"), (["-l", "libltlib.so"], "noplt"), (["-w", "2"], "default"),
    (["-C"], "cxx"), (["-f"], "default"), (["-b"], "signals"), (["-L", "-x", "depth", "-n", "1"], "recurse"),
], ids=lambda o: " ".join(o) if isinstance(o, list) else o)
def test_report_is_the_text(lt: dict[str, Path], tmp_path: Path, opts: list[str], prog: str) -> None:
    """``pytrace report`` of the JSON prints exactly what a text run prints (after normalisation)."""
    text, records, raw, _ = _traces(opts, [lt[prog], "5"], tmp_path, json_flag="--output-format=json")
    _check_file(raw, records)
    rep = _report(tmp_path / "trace.jsonl")
    assert rep.returncode == 0, rep.stderr
    assert rep.stderr == ""
    assert normalise(rep.stdout) == normalise(text)
    if "-w" in opts:
        assert all(len(r["backtrace"]) == 2 for r in records if r["type"] == "libcall")


def test_exec(lt: dict[str, Path], tmp_path: Path) -> None:
    """A program that execs: the exec record ends the open calls, and report prints ltrace's exec line."""
    text, records, raw, _ = _traces(["-S", "-e", "malloc"], ["sh", "-c", f"exec {lt['default']} 3"], tmp_path)
    _check_file(raw, records)
    [execd] = [r for r in records if r["type"] == "exec"]
    execve = next(r for r in records if r["type"] == "syscall" and r["name"] == "execve")
    assert execve["outcome"] == "unfinished" and execve["seq"] < execd["seq"]
    assert [r["exit_code"] for r in records if r["type"] == "exit"] == [3]
    rep = _report(tmp_path / "trace.jsonl")
    pid_results = re.compile(r"^(SYS_get\w*pid\(.*\) += )(?:0x)?[0-9a-f]+$", re.M)  # sh's getppid: a pid in a result
    assert pid_results.sub(r"\1PID", normalise(rep.stdout)) == pid_results.sub(r"\1PID", normalise(text))
    assert "--- Called exec() ---" in rep.stdout


def test_output_format_option(lt: dict[str, Path], tmp_path: Path) -> None:
    """--output-format=text is the default output; a bad format is a usage error; JSON goes to stderr without -o."""
    plain = run("pyltrace", [], [lt["default"]])
    text = run("pyltrace", ["--output-format=text"], [lt["default"]])
    assert normalise(text.stderr) == normalise(plain.stderr) and "malloc(16)" in text.stderr
    bad = run("pyltrace", ["--output-format=xml"], [lt["default"]])
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("pyltrace: invalid --output-format argument: 'xml' (available: text, json)\n")
    js = run("pyltrace", ["--json"], [lt["default"]])
    lines = [json.loads(line) for line in js.stderr.splitlines()]
    assert lines[0]["type"] == "header" and lines[-1]["type"] == "exit"
    assert js.stdout == plain.stdout


def test_report_rejects_sort(lt: dict[str, Path], tmp_path: Path) -> None:
    _traces([], [lt["default"]], tmp_path)
    rep = _report(tmp_path / "trace.jsonl", "-c", "-S", "calls")
    assert rep.returncode == 1 and "-S does not apply to a pyltrace trace" in rep.stderr
