"""The tracer's standard descriptors, compared with strace 6.1.

* Once the command runs, the tracer holds no reference to its own stdin/stdout
  (strace's redirect_standard_fds): in ``TRACER -o log cmd | reader`` the reader
  sees EOF as soon as cmd closes its stdout.  Both tracers' fds 0 and 1 then lead
  to a pipe read end with no writer.
* Started with fd 0, 1 or 2 closed, the tracer works (pytrace used to crash with
  fd 1 closed) and the command starts with that fd closed, as under strace
  (tests/programs/fault_fds.c reports what its fds 0-2 are).
"""

from __future__ import annotations

import os
import select
import subprocess
from pathlib import Path

import pytest
from fault_helpers import BOUND
from helpers import RUN_TIMEOUT, decode, normalise, tracer_command, tracer_env, wait_until

pytestmark = pytest.mark.system

TRACERS = ("strace", "pytrace")


def _fd_kind(pid: int, fd: int) -> str:
    """"pipe r", "/dev/null w"...: where ``fd`` of ``pid`` leads (inode numbers dropped) and its access mode."""
    target = os.readlink(f"/proc/{pid}/fd/{fd}")
    if target.startswith(("pipe:", "socket:")):
        target = target.split(":")[0]
    flags = int(next(line.split()[1] for line in Path(f"/proc/{pid}/fdinfo/{fd}").read_text().splitlines()
                     if line.startswith("flags:")), 8)
    return f"{target} {'rw'[flags & 3] if flags & 3 < 2 else 'rw'}"


def test_tracer_lets_go_of_stdin_and_stdout(programs: dict[str, Path], tmp_path: Path) -> None:
    """After the start: the tracer's fds 0 and 1 are strace's (a read-only pipe), and the command's
    closing of its stdout is EOF for the reader, while the command still runs."""
    seen = {}
    for tracer in TRACERS:
        done = tmp_path / f"done-{tracer}"
        script = f'exec 1>&-; while [ ! -e "{done}" ]; do sleep 0.02; done'
        proc = subprocess.Popen([*tracer_command(tracer), "-o", str(tmp_path / f"trace-{tracer}"), "sh", "-c", script],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=tracer_env())
        try:
            assert proc.stdout is not None
            ready, _, _ = select.select([proc.stdout], [], [], BOUND)
            assert ready, f"{tracer}: no EOF on its stdout while the command runs"
            eof = proc.stdout.read() == b""
            still_running = proc.poll() is None
            assert wait_until(lambda p=proc.pid: _fd_kind(p, 0).startswith("pipe"), BOUND)
            kinds = (_fd_kind(proc.pid, 0), _fd_kind(proc.pid, 1))
            seen[tracer] = (eof, still_running, kinds)
        finally:
            done.write_text("")
            proc.communicate(timeout=BOUND)
        assert proc.returncode == 0
    assert seen["pytrace"] == seen["strace"] == (True, True, ("pipe r", "pipe r"))


@pytest.mark.parametrize("closed", [0, 1, 2])
@pytest.mark.parametrize("output", ["file", "stderr"])
def test_started_with_a_standard_fd_closed(closed: int, output: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """What the command gets on fds 0-2, the exit status and (when open) stderr are strace's."""
    seen = {}
    for tracer in TRACERS:
        report = tmp_path / f"fds-{tracer}"
        trace = tmp_path / f"trace-{tracer}"
        args = ["-o", str(trace)] if output == "file" else ["-e", "trace=none"]
        result = subprocess.run(
            [str(programs["fault_launcher"]), "-c", str(closed), "--", *tracer_command(tracer), *args,
             str(programs["fault_fds"]), str(report)],
            capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
        fds = report.read_text().replace(str(tmp_path), "TMP") if report.exists() else None
        trace_text = normalise(decode(trace.read_bytes())) if trace.exists() else None
        seen[tracer] = (fds, result.returncode, decode(result.stderr).replace(f"{tracer}:", "TRACER:"),
                        trace_text is not None and "+++ exited with 0 +++" in trace_text)
    assert seen["pytrace"] == seen["strace"]
    assert seen["strace"][1] == 0 and f"{closed} closed" in (seen["strace"][0] or "")
