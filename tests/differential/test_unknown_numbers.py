"""Syscall numbers strace has no name for are traced whatever the -e trace= set, as strace 6.1 does."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer


@pytest.mark.parametrize("expr", ["getpid", "none", "!getpid", "%process"])
def test_unknown_numbers_always_traced(expr: str, programs: dict[str, Path], tmp_path: Path) -> None:
    out = {}
    for tracer in ("strace", "pytrace"):
        res = run_tracer(tracer, ["-e", f"trace={expr}", "-o", str(tmp_path / tracer)], [str(programs["unknown_nrs"])])
        assert res.returncode == 0, decode(res.stderr)
        out[tracer] = normalise((tmp_path / tracer).read_text())
    assert "syscall_0x7fff(0x1, 0x2, 0x3, 0x4, 0x5, 0x6)" in out["strace"]
    assert out["pytrace"] == out["strace"]


@pytest.mark.parametrize(
    ("expr", "seccomp"),
    [("getpid", "--seccomp-bpf"), ("getpid", None), ("!getpid", "--seccomp-bpf"), ("%process", "--seccomp-bpf")],
    ids=["explicit", "pytrace-default", "negated-explicit", "class-explicit"],
)
def test_unknown_numbers_under_the_seccomp_filter(
    expr: str, seccomp: str | None, programs: dict[str, Path], tmp_path: Path
) -> None:
    """strace's filter stops only what its set names, so under --seccomp-bpf a number in a table hole runs unseen.

    Without the option strace runs no filter at all, and pytrace's default filter (on with -f) must
    then print the hole as strace does: the same program, the same set, both with and without it.
    """
    out = {}
    for tracer in ("strace", "pytrace"):
        options = ["-f", "-e", f"trace={expr}", *([seccomp] if seccomp else []), "-o", str(tmp_path / tracer)]
        res = run_tracer(tracer, options, [str(programs["unknown_nrs"])])
        assert res.returncode == 0, decode(res.stderr)
        out[tracer] = normalise((tmp_path / tracer).read_text())
    hole_shown = "syscall_0x190(0x6, 0x5, 0x4, 0x3, 0x2, 0x1)" in out["strace"]
    assert hole_shown == (seccomp is None or expr.startswith("!")), out["strace"]
    assert out["pytrace"] == out["strace"]
