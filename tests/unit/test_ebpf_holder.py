"""The eBPF backend's fd holder (bpf.spawn_holder): at exit pytrace hands its BPF fds to a ``cat`` that
closes them once pytrace is gone, so that the kernel's detach (RCU grace periods) is not part of
pytrace's run.  It is started with posix_spawn; these check what subprocess's close_fds gave before:
the holder holds exactly the fds it was given (no other descriptor of ours, inherited or not, so a
reader of a pipe we hold sees its end when we exit), in a session of its own, and ends at the EOF of
its pipe, releasing them."""

from __future__ import annotations

import os

from pytrace.backends.ebpf.bpf import spawn_holder


def _children() -> set[int]:
    out: set[int] = set()
    for tid in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{tid}/children") as f:
            out.update(int(p) for p in f.read().split())
    return out


def _fd_targets(pid: int) -> dict[int, str]:
    base = f"/proc/{pid}/fd"
    return {int(n): os.readlink(f"{base}/{n}") for n in os.listdir(base)}


def _fd_targets_if_alive(pid: int) -> dict[int, str]:
    try:
        return _fd_targets(pid)
    except OSError:  # gone meanwhile
        return {}


def test_the_holder_holds_exactly_the_fds_given_and_ends_at_eof() -> None:
    given_r, given_w = os.pipe2(os.O_CLOEXEC)  # what it must hold: one end of a pipe we can watch
    stray_r, stray_w = os.pipe()  # inheritable, as a descriptor a caller passed us: must not be held
    before = _children()
    write_end = spawn_holder([given_w])
    try:
        # ours among new children: an xdist worker made a subreaper by an earlier test (the benchmark
        # harness's run_tree) also adopts other tests' orphans
        pipe = os.readlink(f"/proc/self/fd/{given_w}")
        (holder,) = [p for p in _children() - before if pipe in _fd_targets_if_alive(p).values()]
        fds = _fd_targets(holder)
        assert set(fds) == {0, 1, 2, given_w}, fds
        assert fds[1] == fds[2] == "/dev/null"
        assert fds[given_w] == os.readlink(f"/proc/self/fd/{given_w}")
        assert fds[0] != fds[given_w] and fds[0].startswith("pipe:")
        with open(f"/proc/{holder}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        assert int(fields[3]) == holder, "its own session (setsid)"  # field 6: session id
    finally:
        os.close(given_w)
        os.close(write_end)  # as our exit does: cat reads EOF and exits
    _, status = os.waitpid(holder, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    # Once the holder is gone, nothing holds the pipe's write end: its reader sees the end.
    assert os.read(given_r, 1) == b""
    for fd in (given_r, stray_r, stray_w):
        os.close(fd)


def test_a_standard_descriptor_is_refused_and_nothing_is_started() -> None:
    """An fd among 0-2 would be replaced by the holder's own stdin/stdout/stderr: close_later then
    closes in this process instead (spawn_holder raises; no child, no descriptor left open)."""
    import pytest

    before_children, before_fds = _children(), set(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError):
        spawn_holder([1])
    assert _children() == before_children
    assert set(os.listdir("/proc/self/fd")) == before_fds
