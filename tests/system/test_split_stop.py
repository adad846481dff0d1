"""The split stop path (pytrace/sinks/split.py): a render process prints what the tracer copied.

Each test runs pytrace on the same real program forced split (PYTRACE_SPLIT=1, which also allows
it on one CPU: the render process is forked once the run proves long, a short run is rendered by
the tracer at its end; PYTRACE_SPLIT=2: forked before the trace starts) and with the whole pipeline
in the tracer (PYTRACE_SPLIT=0), and requires the same normalised output; where strace prints the
same thing, strace's output too.  That the split really happened is checked, not assumed: the
render process is found in /proc by its command name and by a token in its environment (other
tests run at the same time), or reaped by name under tests/programs/fault_launcher.c.
The semantics that depend on timing are shown by states the test waits for, never by sleeps:
a blocked call's entry half in the file while it blocks, Ctrl-C's ``<detached ...>``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import uuid
from pathlib import Path

import pytest
from helpers import (
    RUN_TIMEOUT,
    combine_ff_files,
    free_port_block,
    group_by_process,
    normalise,
    pair_tracee_pids,
    run_tracer,
    tracer_command,
    tracer_env,
    wait_until,
)

from pytrace.sinks.split import BATCH, RENDER_COMM

pytestmark = pytest.mark.system

WAIT = 20.0  # upper bound for one awaited state; reaching it is a failure, never the verdict


def _env(split: bool | str, token: str = "") -> dict[str, str]:
    """``split``: True (PYTRACE_SPLIT=1), False (0) or the variable's value itself."""
    env = tracer_env()
    env["PYTRACE_SPLIT"] = split if isinstance(split, str) else "1" if split else "0"
    if token:
        env["SPLIT_TEST_TOKEN"] = token
    return env


def _renderers(token: str) -> list[int]:
    """Live render processes started for this test (comm and the token in their environment)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if Path(f"/proc/{entry}/comm").read_text().strip() != RENDER_COMM:
                continue
            if f"SPLIT_TEST_TOKEN={token}".encode() in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                found.append(int(entry))
        except OSError:
            continue
    return found


CASES = {
    # program and arguments, pytrace options: single process, -f with children, threads, signals
    "fileops": ((), ()),
    "forker": ((), ("-f",)),
    "signals": ((), ()),
    "breadth_io": ((), ()),
    "polling": ((), ()),
    "sockets": (("{port}",), ("-f",)),  # a free port block: fixed ports would meet other tests' ports
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_split_prints_what_one_process_prints(name: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """Byte for byte (after normalisation) the single-process output, decoded from copied bytes, with
    the render process forked at the start ("2") and where the run decides ("1")."""
    args, opts = CASES[name]
    if "{port}" in args:
        port = str(free_port_block())
        args = tuple(port if a == "{port}" else a for a in args)
    texts = {}
    for split in ("2", "1", "0"):
        out = tmp_path / f"trace-{split}"
        res = run_tracer("pytrace", [*opts, "-o", str(out)], [str(programs[name]), *args], env=_env(split))
        assert b"Traceback" not in res.stderr, res.stderr.decode()
        text = out.read_text()
        # -f: threads and processes interleave as the scheduler decides, in either path
        texts[split] = normalise(group_by_process(text), None) if "-f" in opts else normalise(text)
    assert texts["2"] == texts["0"]
    assert texts["1"] == texts["0"]
    assert texts["0"].count("\n") > 10


def test_a_long_run_forks_the_render_process_mid_run(tmp_path: Path, programs: dict[str, Path]) -> None:
    """PYTRACE_SPLIT=1 and well over a batch of records (dd copying byte by byte): the render
    process is forked while the command runs (reaped by name: it existed), from whatever state
    the tracer is in by then, and prints what the single-process path prints."""
    from faults.fault_helpers import Reaped, exited

    cmd = ["dd", "if=/dev/zero", "of=/dev/null", "bs=1", f"count={2 * BATCH}", "status=none"]
    texts = {}
    for split in ("1", "0"):
        out = tmp_path / f"trace-{split}"
        run = Reaped(programs, "pytrace", ["-o", str(out)], cmd, env=_env(split))
        try:
            reaped, err = run.finish()
        finally:
            run.kill()
        assert exited(reaped[run.tracer], 0) and "Traceback" not in err, err
        assert [exited(s, 0) for s in run.renderers.values()] == ([True] if split == "1" else [])
        texts[split] = normalise(out.read_text())
    assert texts["1"] == texts["0"]
    assert texts["0"].count("read(0, \"\\0\", 1)") == 2 * BATCH


def test_split_big_buffers_print_whole(tmp_path: Path) -> None:
    """getdents64 of a 2,000-entry directory (records decoded through the whole size returned) and a
    64 KiB write (a printed prefix): what a decoder walks whole is copied whole."""
    big = tmp_path / "big"
    big.mkdir()
    for i in range(2000):
        (big / f"entry-{i:05d}-{'x' * 40}").touch()
    texts = {}
    for split in (True, False):
        out = tmp_path / f"trace-{split}"
        run_tracer("pytrace", ["-f", "-v", "-e", "trace=getdents64,write", "-o", str(out)],
                   ["sh", "-c", f"ls -f {big} >/dev/null; head -c 65536 /dev/zero >/dev/null"], env=_env(split))
        texts[split] = normalise(group_by_process(out.read_text()), None)
    assert texts[True] == texts[False]
    assert texts[True].count("d_name=") > 2000 and "write(1, \"\\0\\0" in texts[True]


def test_split_json_records_equal(programs: dict[str, Path], tmp_path: Path) -> None:
    """--json: the records (values included) are those of the single-process path."""
    recs, pids = {}, {}
    for split in (True, False):
        out = tmp_path / f"trace-{split}.jsonl"
        run_tracer("pytrace", ["--json", "-o", str(out)], [str(programs["fileops"])], env=_env(split))
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        pids[split] = sorted({str(rec["pid"]) for rec in lines if rec.get("pid")})
        recs[split] = "\n".join(_masked(rec) for rec in lines)
    # The pid where it is a value (set_tid_address's result): renumbered only where both runs hold
    # their own, not wherever its digits occur (a size equal to one run's pid would differ).
    with_split, without = pair_tracee_pids(recs[True], recs[False], pids[True], pids[False])
    assert with_split == without and with_split.count("\n") > 10


def _masked(rec: dict) -> str:
    """A record without what differs between two runs: times, pid fields, addresses."""
    text = json.dumps({k: v for k, v in rec.items() if k not in ("timestamp", "duration", "pid", "tid", "argv")})
    return re.sub(r"0x[0-9a-f]{8,}|\b[0-9]{12,}\b", "ADDR", text)


def test_split_ff_files(programs: dict[str, Path], tmp_path: Path) -> None:
    """-ff: one file per process, the same files with and without the split."""
    texts = {}
    for split in (True, False):
        d = tmp_path / f"ff-{split}"
        d.mkdir()
        run_tracer("pytrace", ["-ff", "-o", str(d / "t")], [str(programs["forker"])], env=_env(split))
        texts[split] = normalise(combine_ff_files(d, "t"), None)
    assert texts[True] == texts[False] and "+++ exited" in texts[True]


def _start_blocked(programs: dict[str, Path], out: Path, token: str, *opts: str) -> tuple[subprocess.Popen[bytes], int]:
    """pytrace (split) on blocked_read, whose stdin is a pipe we hold: (tracer, write end).

    Its stderr goes to OUT.err, not a pipe: the traced program holds it open after pytrace ends.
    """
    r, w = os.pipe()
    with open(f"{out}.err", "wb") as err:
        proc = subprocess.Popen([*tracer_command("pytrace"), *opts, "-o", str(out), str(programs["blocked_read"])],
                                stdin=r, stdout=subprocess.DEVNULL, stderr=err, env=_env(True, token))
    os.close(r)
    return proc, w


def _start_blocked_single(programs: dict[str, Path], out: Path, token: str,
                          *opts: str) -> tuple[subprocess.Popen[bytes], int]:
    """As _start_blocked, with the whole pipeline in the tracer (PYTRACE_SPLIT=0)."""
    r, w = os.pipe()
    with open(f"{out}.err", "wb") as err:
        proc = subprocess.Popen([*tracer_command("pytrace"), *opts, "-o", str(out), str(programs["blocked_read"])],
                                stdin=r, stdout=subprocess.DEVNULL, stderr=err, env=_env(False, token))
    os.close(r)
    return proc, w


def _stderr(out: Path) -> bytes:
    return Path(f"{out}.err").read_bytes()


def test_blocked_call_shown_while_it_blocks_and_the_rest_after(programs: dict[str, Path], tmp_path: Path) -> None:
    """The entry half reaches the file while the call blocks (the tracer's tick sends it); then
    the whole trace equals strace's."""
    token = uuid.uuid4().hex
    out = tmp_path / "trace"
    proc, w = _start_blocked(programs, out, token)
    try:
        assert wait_until(lambda: out.exists() and out.read_bytes().endswith(b"read(0, "), WAIT), \
            out.read_bytes()[-200:] if out.exists() else "no file"
        assert len(_renderers(token)) == 1, "the split stop path did not start its render process"
        os.write(w, b"x")
    finally:
        os.close(w)
    assert proc.wait(timeout=RUN_TIMEOUT) == 3 and b"Traceback" not in _stderr(out)
    assert wait_until(lambda: not _renderers(token), WAIT), "the render process outlived pytrace"
    r, w2 = os.pipe()
    os.write(w2, b"x")
    os.close(w2)
    ref = tmp_path / "strace"
    subprocess.run(["strace", "-o", str(ref), str(programs["blocked_read"])], stdin=r, check=False,
                   stdout=subprocess.DEVNULL, timeout=RUN_TIMEOUT, env=_env(True, token))
    os.close(r)
    assert normalise(out.read_text()) == normalise(ref.read_text())


def test_ctrl_c_detaches_and_the_line_ends_detached(programs: dict[str, Path], tmp_path: Path) -> None:
    """-I2 and SIGINT while the call blocks: the in-flight line ends ``<detached ...>`` exactly as
    without the split, and the render process ends with pytrace."""
    texts = {}
    for split in (True, False):
        token = uuid.uuid4().hex
        out = tmp_path / f"trace-{split}"
        proc, w = _start_blocked(programs, out, token, "-I2")
        if not split:
            proc.kill()
            proc.wait()
            os.close(w)
            proc, w = _start_blocked_single(programs, out, token, "-I2")
        try:
            assert wait_until(lambda out=out: out.exists() and out.read_bytes().endswith(b"read(0, "), WAIT)
            assert bool(_renderers(token)) == split
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=RUN_TIMEOUT)
            assert b"Traceback" not in _stderr(out)
            texts[split] = normalise(out.read_text())
        finally:
            os.close(w)  # strace's cleanup sent SIGINT to the program too
        assert wait_until(lambda token=token: not _renderers(token), WAIT)
    assert texts[True] == texts[False]
    assert texts[True].endswith("read(0,  <detached ...>\n"), texts[True][-200:]


def test_sigkill_leaves_what_was_shown(programs: dict[str, Path], tmp_path: Path) -> None:
    """A SIGKILLed tracer: the render process writes what it had and nothing more, and ends."""
    token = uuid.uuid4().hex
    out = tmp_path / "trace"
    proc, w = _start_blocked(programs, out, token)
    try:
        assert wait_until(lambda: out.exists() and out.read_bytes().endswith(b"read(0, "), WAIT)
        assert _renderers(token)
        proc.kill()
        proc.wait(timeout=RUN_TIMEOUT)
        assert wait_until(lambda: not _renderers(token), WAIT)
        assert out.read_bytes().endswith(b"read(0, ")
    finally:
        os.write(w, b"x")
        os.close(w)


def test_no_split_where_order_with_the_program_matters(programs: dict[str, Path], tmp_path: Path) -> None:
    """-y (descriptors read at print time): one process, whatever PYTRACE_SPLIT allows."""
    token = uuid.uuid4().hex
    r, w = os.pipe()
    proc = subprocess.Popen([*tracer_command("pytrace"), "-y", "-o", str(tmp_path / "t"),
                             str(programs["blocked_read"])], stdin=r, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=_env(True, token))
    os.close(r)
    try:
        trace = tmp_path / "t"
        assert wait_until(lambda: trace.exists() and b"read(0<pipe:[" in trace.read_bytes(), WAIT)
        assert not _renderers(token)
    finally:
        os.write(w, b"x")
        os.close(w)
        proc.communicate(timeout=RUN_TIMEOUT)


def test_syscall_times_are_the_calls_own(tmp_path: Path) -> None:
    """-T in the render process: a 0.3 s sleep lasts at least 0.3 s, as the stops saw it.

    The render process sees the entry's record when its batch arrives (the next 50 ms tick while
    the call blocks), so its own clock would show the sleep shorter than it was.  The kernel never
    ends the sleep early: the lower bound holds on any machine, however busy.
    """
    durations = {}
    for split in (True, False):
        out = tmp_path / f"trace-{split}"
        res = run_tracer("pytrace", ["-T", "-e", "trace=clock_nanosleep", "-o", str(out)], ["sleep", "0.3"],
                         env=_env(split))
        assert res.returncode == 0, res.stderr.decode()
        found = re.findall(r"^clock_nanosleep\(.*\) = 0 <(\d+\.\d{6})>$", out.read_text(), re.M)
        assert len(found) == 1, out.read_text()
        durations[split] = float(found[0])
    assert durations[True] >= 0.3 and durations[False] >= 0.3, durations
