"""eBPF system-wide mode: no command and no -p traces every process, ``--comm`` filters in the kernel.

A uniquely named copy of ``cat`` is started from a separate shell (not by
pytrace) once the tracer says it is attached; it lives a few milliseconds.
The tracer, interrupted with SIGINT, must have printed that process's calls
with its pid and name, the same calls the ptrace backend prints for the same
command, and exit 0.  Other processes on the machine (other test runs) never
match the unique name, so the output is deterministic.
"""

from __future__ import annotations

import json
import re
import secrets
import shutil
import signal
import subprocess
from pathlib import Path

from helpers import (
    read_line,
    run_tracer,
    start_tracer,
    stop_process,
    trace_schema_validator,
    tracer_command,
    tracer_env,
)

_READY_TIMEOUT = 60.0  # loading the programs on a busy 2-core host


def _unique_cat(tmp_path: Path) -> tuple[str, Path, Path]:
    comm = f"e3sw{secrets.token_hex(4)}"  # 12 characters: the whole name fits in the kernel's 15
    exe = tmp_path / comm
    shutil.copy("/usr/bin/cat", exe)
    target = tmp_path / f"opened-by-{comm}"
    target.write_text("x\n")
    return comm, exe, target


def _system_wide(args: list[str], comm: str, exe: Path, target: Path) -> tuple[int, int]:
    """Start the tracer, run ``exe target`` from a shell once it is ready, SIGINT it; (its status, the pid)."""
    tracer = start_tracer("pytrace", ["--backend=ebpf", *args, "--comm", comm], [])
    try:
        ready = read_line(tracer.stderr, _READY_TIMEOUT).decode()
        assert ready == f"pytrace: tracing system-wide (--comm {comm}); Ctrl-C to end\n"
        shell = subprocess.Popen(["sh", "-c", 'exec "$0" "$1" > /dev/null', str(exe), str(target)],
                                 env=tracer_env())
        assert shell.wait(timeout=30) == 0
        tracer.send_signal(signal.SIGINT)
        status = tracer.wait(timeout=60)
    finally:
        stop_process(tracer)
    return status, shell.pid


def test_openat_of_a_short_lived_process_is_caught(tmp_path: Path) -> None:
    comm, exe, target = _unique_cat(tmp_path)
    out = tmp_path / "trace.txt"
    status, pid = _system_wide(["-e", "trace=openat", "-o", str(out)], comm, exe, target)
    assert status == 0
    lines = out.read_text().splitlines()
    prefix = f"{pid}<{comm}> "
    assert f'{prefix}openat(AT_FDCWD, "{target}", O_RDONLY) = 3' in lines
    assert lines[-1] == f"{prefix}+++ exited with 0 +++"
    assert all(line.startswith(prefix) for line in lines), lines  # nothing else has that name
    # the same calls as the ptrace backend prints for the same command (pytrace's own run: -e trace=openat)
    ref = tmp_path / "ref.txt"
    assert run_tracer("pytrace", ["-e", "trace=openat", "-o", str(ref)], [str(exe), str(target)]).returncode == 0
    assert [line[len(prefix):] for line in lines] == ref.read_text().splitlines()


def test_json_names_the_process_and_reports_back(tmp_path: Path) -> None:
    comm, exe, target = _unique_cat(tmp_path)
    out = tmp_path / "trace.jsonl"
    status, pid = _system_wide(["--json", "-e", "trace=openat", "-o", str(out)], comm, exe, target)
    assert status == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    validator = trace_schema_validator()
    for rec in records:
        validator.validate(rec)
    named = [r for r in records if r["type"] in ("syscall", "exit")]
    assert named and all((r["comm"], r["tid"]) == (comm, pid) for r in named)
    assert named[-1]["type"] == "exit" and named[-1]["exit_code"] == 0
    # pytrace report prints the text run's lines: the same prefix, the ptrace backend's calls
    report = subprocess.run([*tracer_command("pytrace"), "report", str(out)], capture_output=True, text=True,
                            env=tracer_env(), timeout=60, check=False)
    assert report.returncode == 0, report.stderr
    ref = tmp_path / "ref.txt"
    assert run_tracer("pytrace", ["-e", "trace=openat", "-o", str(ref)], [str(exe), str(target)]).returncode == 0
    assert report.stdout.splitlines() == [f"{pid}<{comm}> {line}" for line in ref.read_text().splitlines()]


def test_summary_of_system_wide_run(tmp_path: Path) -> None:
    comm, exe, target = _unique_cat(tmp_path)
    out = tmp_path / "table.txt"
    status, _ = _system_wide(["-c", "--histogram", "-e", "trace=openat,close", "-o", str(out)], comm, exe, target)
    assert status == 0
    ref = tmp_path / "ref.txt"
    assert run_tracer("pytrace", ["-c", "-e", "trace=openat,close", "-o", str(ref)],
                      [str(exe), str(target)]).returncode == 0
    row = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(openat|close)$", re.M)
    counts = dict((name, calls) for calls, name in row.findall(out.read_text()))
    assert counts == dict((name, calls) for calls, name in row.findall(ref.read_text()))
    assert set(counts) == {"openat", "close"}
    assert "@latency_ns[openat]: \n" in out.read_text()


def test_comm_needs_system_wide_mode() -> None:
    proc = run_tracer("pytrace", ["--backend=ebpf", "--comm", "cat"], ["true"])
    assert proc.returncode == 1
    assert proc.stderr.decode().splitlines()[0] == (
        "pytrace: --comm needs system-wide mode: --backend=ebpf with no command and no -p")
