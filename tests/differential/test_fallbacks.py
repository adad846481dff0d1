"""The documented fallbacks produce the same trace as the main paths: registers instead of
PTRACE_GET_SYSCALL_INFO (kernels before 5.3), and /proc/PID/mem instead of process_vm_readv."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import group_by_process, normalise, run_tracer, tracer_env


@pytest.mark.differential
@pytest.mark.parametrize(
    "args, cmd",
    [
        ([], ["cat", "/etc/hostname"]),
        (["-f"], ["{forker}"]),
        (["-e", "trace=%signal"], ["{signals}"]),
    ],
    ids=["cat", "forker-f", "signals"],
)
def test_register_fallback_matches_strace(args: list[str], cmd: list[str], programs: dict[str, Path],
                                          tmp_path: Path) -> None:
    cmd = [programs[c[1:-1]] if c.startswith("{") else c for c in cmd]
    env = {**tracer_env(), "PYTRACE_NO_SYSCALL_INFO": "1"}  # strace ignores it; both tracees see it
    traces = {}
    for tracer in ("strace", "pytrace"):
        out = tmp_path / f"{tracer}.txt"
        proc = run_tracer(tracer, [*args, "-o", str(out)], [str(c) for c in cmd], env=env)
        assert proc.returncode == 0, proc.stderr
        text = out.read_text()
        # Multi-process traces: group by process first (it also collapses the alignment that
        # interleaving makes scheduling-dependent), exactly as test_vs_strace does.
        traces[tracer] = normalise(group_by_process(text), None) if "-f" in args else normalise(text)
    assert traces["pytrace"] == traces["strace"]


def test_memory_reader_paths_agree() -> None:
    """Both read paths return the same bytes; unreadable memory is None, never an exception."""
    import ctypes
    import signal

    from pytrace.backends.ptrace.memory import MemoryReader

    payload = b"pytrace reads this\0and stops"
    buf = ctypes.create_string_buffer(payload)
    address = ctypes.addressof(buf)
    pid = os.fork()
    if pid == 0:  # the child has the same address space layout: wait to be read, then leave
        os.kill(os.getpid(), signal.SIGSTOP)
        os._exit(0)
    try:
        os.waitpid(pid, os.WUNTRACED)
        vm = MemoryReader(pid)
        mem = MemoryReader(pid)
        mem._use_vm = False  # force the /proc/PID/mem path
        for reader in (vm, mem):
            assert reader.read(address, len(payload)) == payload
            assert reader.read_cstring(address, 64) == (b"pytrace reads this", True)
            assert reader.read_cstring(address, 7) == (b"pytrace", False)
            assert reader.read(1, 8) is None
            assert reader.read_cstring(8, 32) is None
        mem.close()
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
