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
