"""The tracer's exit status is the tracee's, as a shell sees it ($?), including death by a signal.

strace exits with the tracee's code, and when the tracee is killed by a
signal it kills itself with the same signal, so $? is 128+N in both cases.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import TRACERS, decode, run_tracer, tracer_command, tracer_env

pytestmark = [pytest.mark.system, pytest.mark.parametrize("tracer", TRACERS)]

STATUS_CASES = [
    ("exit-0", "exitcode", "0", 0, "+++ exited with 0 +++"),
    ("exit-3", "exitcode", "3", 3, "+++ exited with 3 +++"),
    ("exit-255", "exitcode", "255", 255, "+++ exited with 255 +++"),
    ("killed-SIGTERM", "killed", "term", 128 + 15, "+++ killed by SIGTERM +++"),
    ("killed-SIGSEGV", "killed", "segv", 128 + 11, "+++ killed by SIGSEGV +++"),
]


@pytest.mark.parametrize(
    ("program", "arg", "status", "last_line"), [c[1:] for c in STATUS_CASES], ids=[c[0] for c in STATUS_CASES]
)
def test_exit_status(
    tracer: str,
    program: str,
    arg: str,
    status: int,
    last_line: str,
    programs: dict[str, Path],
    tmp_path: Path,
) -> None:
    """Run the tracer under sh and compare the literal $? it reports."""
    trace = tmp_path / "trace"
    script = '"$@"; echo "status=$?"'
    argv = [*tracer_command(tracer), "-o", str(trace), str(programs[program]), arg]
    result = subprocess.run(
        ["sh", "-c", script, "sh", *argv],
        capture_output=True,
        env=tracer_env(),
        stdin=subprocess.DEVNULL,
        timeout=60,
        check=False,
    )
    assert decode(result.stdout).splitlines()[-1:] == [f"status={status}"], decode(result.stderr)
    assert decode(trace.read_bytes()).splitlines()[-1] == last_line


def test_exit_status_without_o(tracer: str, programs: dict[str, Path]) -> None:
    """Same status when the trace goes to stderr (no -o)."""
    result = run_tracer(tracer, [], [str(programs["exitcode"]), "42"])
    assert result.returncode == 42
    assert decode(result.stderr).splitlines()[-1] == "+++ exited with 42 +++"
