"""The eBPF program cache (pytrace/backends/ebpf/prog_cache.py): a hit is the bytecode a cold run
makes, another option set or map fd is a miss, a corrupt entry is a miss, PYTRACE_CACHE=0 writes
nothing; the capture table's cache likewise (a hit is build_table's table); and a real traced run
prints the same trace from a cold cache, a warm one and none."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import REPO_ROOT, normalise, run_tracer, tracer_env

from pytrace.backends.ebpf import capture_progs as C
from pytrace.backends.ebpf.capture_table import CaptureOptions, build_table
from pytrace.backends.ebpf.prog_cache import PREFIX, TABLE_PREFIX, ProgramCache, cached_table
from pytrace.backends.ebpf.programs import MAX_SYSCALLS, Layout
from pytrace.cache import cache_dir

LAYOUT = Layout(enter_id=8, exit_id=8, exit_ret=16, fork_child=24)
MAPS = C.CaptureMaps(*range(3, 11))


def _args(opts: CaptureOptions, maps: C.CaptureMaps = MAPS) -> tuple[object, ...]:
    plans = build_table(opts, max_nr=MAX_SYSCALLS, only=frozenset(range(0, 300)))
    return (LAYOUT, maps, plans, opts, 16)


def _entries(directory: Path) -> dict[str, tuple[int, int, bytes]]:
    """name -> (inode, mtime, content): a rewrite (a temporary file renamed over it) changes the inode."""
    if not directory.exists():
        return {}
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns, p.read_bytes())
            for p in directory.iterdir() if p.name.startswith(PREFIX)}


def test_a_hit_is_the_cold_bytecode_and_other_keys_miss(tmp_path: Path) -> None:
    opts = CaptureOptions()
    cold = C.capture_enter(*_args(opts)).link()
    first = ProgramCache(str(tmp_path))
    assert first.link(C.capture_enter, _args(opts)) == cold and first.hits == 0
    stored = _entries(tmp_path)
    assert len(stored) == 1
    second = ProgramCache(str(tmp_path))
    assert second.link(C.capture_enter, _args(opts)) == cold and second.hits == 1
    assert _entries(tmp_path) == stored, "a hit rewrites nothing"
    # Another option set, another map fd, another generator: misses, each with the right bytecode.
    longer = CaptureOptions(max_strlen=100)
    other_fds = C.CaptureMaps(*range(4, 12))
    for make, args in ((C.capture_enter, _args(longer)), (C.capture_enter, _args(opts, other_fds)),
                       (C.capture_exit, _args(opts)[:4])):
        cache = ProgramCache(str(tmp_path))
        assert cache.link(make, args) == make(*args).link() and cache.hits == 0
    assert len(_entries(tmp_path)) == 4
    assert C.capture_enter(*_args(longer)).link() != cold and C.capture_enter(*_args(opts, other_fds)).link() != cold


def test_a_corrupt_entry_is_a_miss_and_is_replaced(tmp_path: Path) -> None:
    opts = CaptureOptions()
    cold = C.capture_enter(*_args(opts)).link()
    ProgramCache(str(tmp_path)).link(C.capture_enter, _args(opts))
    (name,) = _entries(tmp_path)
    good = (tmp_path / name).read_bytes()
    assert ProgramCache(str(tmp_path)).link(C.capture_enter, _args(opts)) == cold
    for bad in (b"", b"\x00garbage", good[: len(good) // 2]):
        (tmp_path / name).write_bytes(bad)
        cache = ProgramCache(str(tmp_path))
        assert cache.link(C.capture_enter, _args(opts)) == cold and cache.hits == 0
        assert (tmp_path / name).read_bytes() == good


def test_no_cache_directory_no_entry(tmp_path: Path) -> None:
    env = {"PYTRACE_CACHE": "0", "XDG_CACHE_HOME": str(tmp_path)}
    assert cache_dir(env) is None
    cache = ProgramCache(cache_dir(env))
    assert cache.link(C.capture_enter, _args(CaptureOptions())) == C.capture_enter(*_args(CaptureOptions())).link()
    assert list(tmp_path.iterdir()) == []


def _tables(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in directory.iterdir() if p.name.startswith(TABLE_PREFIX)}


def test_the_capture_table_cache_gives_build_tables_table(tmp_path: Path) -> None:
    """Cold, the table is built and stored; warm, the stored one is build_table's (equal slots, equal
    rows) and nothing is rewritten; other options or traced syscalls are other entries; a corrupt
    entry is a miss and is replaced; no directory, no file."""
    only = frozenset(range(0, 300))
    opts = CaptureOptions()
    want = build_table(opts, max_nr=MAX_SYSCALLS, only=only)
    assert cached_table(str(tmp_path), opts, MAX_SYSCALLS, only) == want
    stored = _tables(tmp_path)
    assert len(stored) == 1
    warm = cached_table(str(tmp_path), opts, MAX_SYSCALLS, only)
    assert warm == want and warm.rows() == want.rows() and _tables(tmp_path) == stored
    for other_opts, other_only in ((CaptureOptions(max_strlen=100, verbose=True), only),
                                   (opts, frozenset({2, 257}))):
        assert cached_table(str(tmp_path), other_opts, MAX_SYSCALLS, other_only) == build_table(
            other_opts, max_nr=MAX_SYSCALLS, only=other_only)
    assert len(_tables(tmp_path)) == 3
    name = next(iter(stored))
    for bad in (b"", b"\x00garbage", stored[name][: len(stored[name]) // 2]):
        (tmp_path / name).write_bytes(bad)
        assert cached_table(str(tmp_path), opts, MAX_SYSCALLS, only) == want
        assert (tmp_path / name).read_bytes() == stored[name]
    assert cached_table(None, opts, MAX_SYSCALLS, only) == want


TRACED = ["-e", "trace=openat,read,write,close,execve", "cat", str(REPO_ROOT / "pyproject.toml")]


def _env(cache: Path, no_cache: bool = False) -> dict[str, str]:
    """The same variables in every run (the trace of execve counts them)."""
    return {**tracer_env(), "XDG_CACHE_HOME": str(cache), "PYTRACE_CACHE": "0" if no_cache else "1"}


def _trace(cache: Path, *extra: str, no_cache: bool = False) -> str:
    env = _env(cache, no_cache)
    result = subprocess.run([sys.executable, "-m", "pytrace", "--backend=ebpf", *extra, *TRACED],
                            capture_output=True, text=True, env=env, timeout=60, check=False, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr[-2000:]
    return normalise(result.stderr)


def test_a_traced_run_prints_the_same_from_a_cold_cache_a_warm_one_and_none(tmp_path: Path) -> None:
    """Each is strace's trace of the same command; the warm run writes no entry (every program found)."""
    cache = tmp_path / "cache"
    cold = _trace(cache)
    entries = _entries(cache / "pytrace")
    assert {n.split("-")[2] for n in entries} == {"capture_enter", "capture_exit", "prepare_exec"}
    tables = _tables(cache / "pytrace")
    assert len(tables) == 1
    strace = run_tracer("strace", [], TRACED, cwd=tmp_path, env=_env(cache))
    assert cold == normalise(strace.stderr.decode())
    assert _trace(cache) == cold
    # Every program found: the map fds (in the keys) are the same from run to run, the ring's too,
    # though it is made in a thread of its own (bpf.MapInThread).
    assert _entries(cache / "pytrace") == entries, "the warm run found every program"
    assert _tables(cache / "pytrace") == tables, "the warm run found the capture table"
    assert _trace(cache, "-s", "64") != cold  # another option set: other programs, stored beside
    assert len(_entries(cache / "pytrace")) == 2 * len(entries)
    none = tmp_path / "none"
    assert _trace(none, no_cache=True) == cold
    assert not none.exists() or not os.listdir(none)
