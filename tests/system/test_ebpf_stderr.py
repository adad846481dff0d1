"""``--backend=ebpf`` on stderr and in ``-o FILE``: a call that blocks shows its first half while it
blocks, as strace shows it.

The eBPF backend writes stderr a whole line at a time (output.LineWriter: the records are read
after the fact, so a line written in halves could be cut by what the tracee printed meanwhile);
once no record has come for a whole wait, the half it holds is written.  The blocked call here is
``cat``'s read of a pipe that this test writes only after it has seen the half on the tracer's
stderr -- no timing is involved, the bound only turns a hang into a failure.  With ``-o FILE`` the
lines are collected and written once per batch of records (output.TraceWriter, EbpfOptions.flush);
the half is written when the ring is empty, as strace has it in the file by then.
"""

from __future__ import annotations

import os
import select
import time
from pathlib import Path

import pytest
from helpers import start_tracer, stop_process, wait_until

pytestmark = pytest.mark.system

WAIT = 30.0  # a hang guard only


def _stderr_while_blocked(tracer: str, options: list[str]) -> tuple[str, str]:
    """(stderr up to the moment cat blocks in read(0, ...), the whole stderr once it has ended)."""
    read_end, write_end = os.pipe()
    proc = start_tracer(tracer, [*options, "-e", "trace=read"], ["cat"], stdin=read_end)
    os.close(read_end)
    got = b""
    try:
        assert proc.stderr is not None
        fd = proc.stderr.fileno()
        deadline = time.monotonic() + WAIT
        while not got.endswith(b"read(0, ") and time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            got += chunk
        blocked = got.decode()
        os.write(write_end, b"x\n")
        os.close(write_end)
        write_end = -1
        rest = proc.communicate(timeout=WAIT)[1]
        return blocked, (got + rest).decode()
    finally:
        if write_end >= 0:
            os.close(write_end)
        stop_process(proc)


def test_a_blocked_calls_first_half_is_on_stderr_while_it_blocks() -> None:
    want_blocked, want = _stderr_while_blocked("strace", [])
    assert want_blocked.endswith("\nread(0, "), want_blocked  # strace shows it: the expectation is the oracle's
    blocked, whole = _stderr_while_blocked("pytrace", ["--backend=ebpf"])
    assert blocked.endswith("\nread(0, "), f"nothing of the blocked read on stderr yet: {blocked!r}"
    tail = 'read(0, "x\\n", 131072)                  = 2\n'
    assert tail in want and tail in whole
    # The same lines as strace's, the half and its end making one line (cat's own "x" went to stdout).
    assert whole.splitlines()[-3:] == want.splitlines()[-3:]


def _file_while_blocked(tracer: str, options: list[str], out: str) -> tuple[str, str]:
    """(the -o file once it ends with cat's blocked ``read(0, ``, or as it is when the guard gave up;
    the whole file once cat has ended)."""
    read_end, write_end = os.pipe()
    proc = start_tracer(tracer, [*options, "-o", out, "-e", "trace=read"], ["cat"], stdin=read_end)
    os.close(read_end)

    def text() -> str:
        try:
            with open(out) as f:
                return f.read()
        except FileNotFoundError:
            return ""

    try:
        wait_until(lambda: text().endswith("read(0, "), WAIT)
        blocked = text()
        os.write(write_end, b"x\n")
        os.close(write_end)
        write_end = -1
        proc.communicate(timeout=WAIT)
        return blocked, text()
    finally:
        if write_end >= 0:
            os.close(write_end)
        stop_process(proc)


def test_a_blocked_calls_first_half_is_in_the_output_file_while_it_blocks(tmp_path: Path) -> None:
    want_blocked, want = _file_while_blocked("strace", [], str(tmp_path / "strace.txt"))
    assert want_blocked.endswith("\nread(0, "), want_blocked  # the oracle's behaviour, not an expectation of ours
    blocked, whole = _file_while_blocked("pytrace", ["--backend=ebpf"], str(tmp_path / "ebpf.txt"))
    assert blocked.endswith("\nread(0, "), f"nothing of the blocked read in the file yet: {blocked!r}"
    tail = 'read(0, "x\\n", 131072)                  = 2\n'
    assert tail in want and tail in whole
    assert whole.splitlines()[-3:] == want.splitlines()[-3:]
