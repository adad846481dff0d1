"""Bad command lines: pytrace words each error exactly as strace does, with its own name as the prefix.

The expected texts are written out here and are checked against real strace
on every run as well, so they cannot drift from strace 6.1's wording.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import TRACERS, decode, run_tracer, tracer_name

pytestmark = [pytest.mark.system, pytest.mark.parametrize("tracer", TRACERS)]

ERROR_CASES = [
    ("nonexistent-command", ["nosuch"], "Can't stat 'nosuch': No such file or directory"),
    ("invalid-syscall", ["-e", "trace=foo", "true"], "invalid system call 'foo'"),
    ("invalid-signal", ["-e", "signal=SIGFOO", "true"], "invalid signal 'SIGFOO'"),
    ("unknown-long-option", ["--nosuch", "true"], "unrecognized option '--nosuch'"),
    ("unknown-short-option", ["-j", "true"], "invalid option -- 'j'"),
    ("bad-s-value", ["-s", "abc", "true"], "invalid -s argument: 'abc'"),
    ("negative-s-value", ["-s", "-1", "true"], "invalid -s argument: '-1'"),
    ("bad-a-value", ["-a", "x", "true"], "invalid -a argument: 'x'"),
    ("p-not-a-number", ["-p", "abc"], "Invalid process id: 'abc'"),
    ("p-zero", ["-p", "0"], "Invalid process id: '0'"),
    ("p-negative", ["-p", "-5"], "Invalid process id: '-5'"),
    ("no-command", [], "must have PROG [ARGS] or -p PID"),
    (
        "unwritable-output",
        ["-o", "/nonexistent/dir/x", "true"],
        "Can't fopen '/nonexistent/dir/x': No such file or directory",
    ),
]


@pytest.mark.parametrize(("args", "message"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES])
def test_usage_error(tracer: str, args: list[str], message: str, tmp_path: Path) -> None:
    """First stderr line is strace's, with the tracer's name as prefix; the status is strace's (1)."""
    reference = run_tracer("strace", args, [], cwd=tmp_path)
    reference_lines = decode(reference.stderr).splitlines()
    assert reference_lines[:1] == [f"strace: {message}"], "strace 6.1 words this differently"
    assert reference.returncode == 1

    result = run_tracer(tracer, args, [], cwd=tmp_path)
    assert decode(result.stderr).splitlines()[:1] == [f"{tracer_name(tracer)}: {message}"]
    assert result.returncode == reference.returncode
