"""pytrace/cache.py, the helpers every on-disk cache shares (ELF facts, prototypes, eBPF programs, BTF).

An entry's name must be the same in every run, whatever the interpreter's hash salt (else every
run misses); pruning removes only the oldest entries of its own kind; a write that cannot happen
leaves nothing behind.  The caches themselves are tested through real runs in
tests/unit/test_startup_imports.py and tests/unit/test_ebpf_prog_cache.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import REPO_ROOT, tracer_env

from pytrace.cache import cache_dir, digest, prune, write_entry


def test_digest_is_the_same_in_every_process() -> None:
    """Two interpreters with different hash salts name the same key alike (str/bytes hashes differ)."""
    code = "import sys; from pytrace.cache import digest; print(digest(sys.argv[1].encode()), hash(sys.argv[1]))"
    outs = []
    for seed in ("1", "2"):
        env = {**tracer_env(), "PYTHONHASHSEED": seed}
        result = subprocess.run([sys.executable, "-c", code, "/etc/ltrace.conf"], capture_output=True, text=True,
                                env=env, cwd=REPO_ROOT, timeout=60, check=True)
        outs.append(result.stdout.split())
    assert outs[0][1] != outs[1][1], "the salts did not differ: the test shows nothing"
    assert outs[0][0] == outs[1][0] == digest(b"/etc/ltrace.conf")
    assert len(digest(b"x")) == 16 and digest(b"x") != digest(b"y")


def test_prune_keeps_the_newest_of_its_own_kind(tmp_path: Path) -> None:
    for i in range(8):
        for name in (f"elf-{i}.marshal", f"protos-{i}.marshal", f"protos-{i}.pickle"):
            (tmp_path / name).write_bytes(b"")
            os.utime(tmp_path / name, ns=(10**18 + i, 10**18 + i))
    prune(str(tmp_path), 4, "protos-")
    names = {p.name for p in tmp_path.iterdir()}
    assert {n for n in names if n.startswith("protos-") and n.endswith(".marshal")} == {
        "protos-5.marshal", "protos-6.marshal", "protos-7.marshal"}  # down to 3/4 of 4, oldest first
    assert all(f"elf-{i}.marshal" in names and f"protos-{i}.pickle" in names for i in range(8))
    prune(str(tmp_path), 4, "protos-", ".pickle")
    assert {n for n in os.listdir(tmp_path) if n.endswith(".pickle")} == {f"protos-{i}.pickle" for i in (5, 6, 7)}
    prune(str(tmp_path / "missing"), 1, "elf-")  # no directory: nothing to do, no error


def test_write_entry_is_atomic_and_silent(tmp_path: Path) -> None:
    directory = tmp_path / "cache"
    write_entry(str(directory), str(directory / "a.marshal"), b"one")
    assert (directory / "a.marshal").read_bytes() == b"one"
    assert directory.stat().st_mode & 0o777 == 0o700
    write_entry(str(directory), str(directory / "a.marshal"), b"two")
    assert os.listdir(directory) == ["a.marshal"] and (directory / "a.marshal").read_bytes() == b"two"
    blocker = tmp_path / "file"
    blocker.write_text("")
    write_entry(str(blocker), str(blocker / "a.marshal"), b"x")  # the "directory" is a file: nothing, no error
    assert blocker.read_text() == ""


def test_cache_dir_follows_the_environment() -> None:
    assert cache_dir({"XDG_CACHE_HOME": "/x", "HOME": "/h"}) == "/x/pytrace"
    assert cache_dir({"XDG_CACHE_HOME": "relative", "HOME": "/h"}) == "/h/.cache/pytrace"
    assert cache_dir({"XDG_CACHE_HOME": "/x", "PYTRACE_CACHE": "0"}) is None
