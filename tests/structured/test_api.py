"""The Python API used the way a user's own test suite would use it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from dataclasses import fields
from pathlib import Path

import pytest

import pytrace
from pytrace.structured.schema import load_schema
from pytrace.structured.types import TYPES

WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT")


def _module(tmp_path: Path, body: str) -> Path:
    (tmp_path / "lib").mkdir(exist_ok=True)
    (tmp_path / "lib" / "reports.py").write_text(textwrap.dedent(body))
    return tmp_path / "lib"


def _files_written_outside(lib: Path, out_dir: Path) -> list[str]:
    """What a user's test asserts on: paths the code under test opened for writing outside ``out_dir``."""
    code = f"import sys; sys.path.insert(0, {str(lib)!r}); import reports; reports.save({str(out_dir)!r})"
    outside = []
    # -B: the interpreter's own .pyc of the module is not the code under test's write (and whether
    # Python writes one depends on PYTHONDONTWRITEBYTECODE in the environment the suite runs in)
    with pytrace.trace([sys.executable, "-B", "-c", code], syscalls={"open", "openat", "creat"}) as t:
        for ev in t:
            if not isinstance(ev, pytrace.Syscall) or ev.failed:
                continue
            path = ev.args[1].value if ev.name == "openat" else ev.args[0].value
            flags = ev.args[2].value if ev.name == "openat" else ev.args[1].value
            flags = flags["flags"] if isinstance(flags, dict) else [flags]  # {"flags": [names], "value": n}
            writes = ev.name == "creat" or any(f in WRITE_FLAGS for f in flags)
            if writes and not os.path.realpath(path).startswith(str(out_dir)):
                outside.append(path)
    assert t.exit_code == 0
    return outside


def test_function_under_test_writes_only_in_its_directory(tmp_path: Path) -> None:
    lib = _module(tmp_path, """
        import json, os
        def save(out):
            with open(os.path.join(out, "report.json"), "w") as f:
                json.dump({"ok": True}, f)
            with open("/etc/hostname") as f:  # reading elsewhere is fine
                f.read()
    """)
    out = tmp_path / "out"
    out.mkdir()
    assert _files_written_outside(lib, out) == []
    assert (out / "report.json").exists()


def test_the_same_check_catches_a_stray_write(tmp_path: Path) -> None:
    stray = tmp_path / "stray.log"
    lib = _module(tmp_path, f"""
        import os
        def save(out):
            open(os.path.join(out, "report.json"), "w").close()
            open({str(stray)!r}, "a").close()
    """)
    out = tmp_path / "out"
    out.mkdir()
    assert _files_written_outside(lib, out) == [str(stray)]


def test_events_are_typed_and_summary_is_an_object(programs: dict[str, Path]) -> None:
    with pytrace.trace([str(programs["summary"])], syscalls={"getppid", "openat", "close"}, summary=True) as t:
        events = t.events()
    calls = [e for e in events if isinstance(e, pytrace.Syscall)]
    assert sum(e.name == "getppid" for e in calls) == 1000
    failed = [e for e in calls if e.name == "openat" and e.failed]
    assert len(failed) == 500 and failed[0].errno == "ENOENT" and failed[0].retval == -1
    assert failed[0].line == 'openat(AT_FDCWD, "/nonexistent/summary", O_RDONLY) = -1 ENOENT (No such file or directory)'
    assert isinstance(events[-1], pytrace.Exit) and events[-1].exit_code == 0
    assert t.summary is not None and t.summary.calls("getppid") == 1000
    assert t.summary.calls("close") == sum(e.name == "close" for e in calls) >= 20
    assert t.exit_code == 0


def test_ebpf_backend_through_the_api(programs: dict[str, Path]) -> None:
    with pytrace.trace([str(programs["summary"])], syscalls={"getppid"}, backend="ebpf") as t:
        n = sum(1 for e in t if isinstance(e, pytrace.Syscall) and e.name == "getppid")
    assert n == 1000


def test_exit_code_and_signal_passed_through(programs: dict[str, Path]) -> None:
    with pytrace.trace([str(programs["exitcode"]), "42"], syscalls=set()) as t:
        assert [type(e) for e in t] == [pytrace.Exit]
    assert t.exit_code == 42
    with pytrace.trace([str(programs["killed"]), "segv"], syscalls=set()) as t:
        evs = t.events()
    assert isinstance(evs[-1], pytrace.Exit) and evs[-1].signal == "SIGSEGV"


def test_attach_leaves_the_process_running(programs: dict[str, Path]) -> None:
    proc = subprocess.Popen([str(programs["sleeper"])], stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.3)
        with pytrace.attach(proc.pid) as t:
            first = next(iter(t))
        assert first.pid == proc.pid
        time.sleep(0.3)
        assert proc.poll() is None
        state = Path(f"/proc/{proc.pid}/status").read_text().split("State:")[1].split()[0]
        assert state in ("S", "R")
    finally:
        proc.kill()
        proc.wait()


def test_missing_command_is_an_error() -> None:
    with pytest.raises(FileNotFoundError, match="Can't stat 'no-such-command-xyz'"):
        pytrace.trace(["no-such-command-xyz"]).start()


def test_dataclasses_match_the_schema() -> None:
    """The API's event fields are the JSON record's fields (same names, nothing missing)."""
    defs = load_schema()["$defs"]
    for kind, cls in TYPES.items():
        props = set(defs[kind]["properties"]) - {"type"}
        assert {f.name for f in fields(cls)} == props, kind
