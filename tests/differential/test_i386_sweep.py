"""i386 (gcc -m32) tracees against strace: the layouts the i386 parity sweep found wrong.

tests/programs/sweep32_layouts.c makes, with fixed values, every call whose i386 form the sweep
of tests/programs/*.c built with -m32 showed pytrace printing differently from strace 6.1:
64-bit arguments split over two registers (fallocate, pread64, fadvise64_64, fanotify_mark...),
lseek's signed 32-bit off_t, the *_time64 calls and futex_waitv (64-bit timespecs from a 32-bit
process), utime/utimes/futimesat/utimensat's 32-bit times, tv_nsec/tv_usec printed unsigned,
execve's argv/envp of 32-bit pointers, io_setup/io_submit, nodemasks of 32-bit longs,
pselect6's sigmask pair, struct sock_fprog, struct group_req, SCM_RIGHTS under -y, sendfile's
off_t and readv/preadv's vector of a failed call.  Each run is compared with strace's, after
tests/helpers.normalise, with the same options.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import build_m32, decode, normalise, run_tracer

SOURCE = Path(__file__).resolve().parents[1] / "programs" / "sweep32_layouts.c"

pytestmark = pytest.mark.differential


@pytest.fixture(scope="module")
def sweep32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_m32(SOURCE, tmp_path_factory.mktemp("sweep32") / "sweep32_layouts")


def _trace(tracer: str, options: list[str], program: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.trace"
    res = run_tracer(tracer, [*options, "-o", str(out)], [str(program)], cwd=tmp_path)
    assert res.returncode == 0, decode(res.stderr)
    return normalise(decode(out.read_bytes()))


@pytest.mark.parametrize("options", [
    [], ["-v"], ["-y"],
    # strace's raw words of the split-argument calls: two per 64-bit argument.
    ["-e", "raw=fallocate,pread64,lseek,fadvise64_64,truncate64,sync_file_range"],
], ids=["default", "v", "y", "raw"])
def test_i386_layouts_match_strace(options: list[str], sweep32: Path, tmp_path: Path) -> None:
    expected = _trace("strace", options, sweep32, tmp_path)
    actual = _trace("pytrace", options, sweep32, tmp_path)
    assert actual == expected, "".join(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True), "strace", "pytrace"))


def test_i386_layouts_cover_the_fixed_calls(sweep32: Path, tmp_path: Path) -> None:
    """The comparison above is only as good as what the program makes: the decoded forms are there."""
    text = _trace("pytrace", [], sweep32, tmp_path)
    for line in (
        "fallocate(-1, 0, 4294967296, 4096) = -1 EBADF",
        "fadvise64_64(-1, 21474836480, 200, POSIX_FADV_RANDOM) = -1 EBADF",
        "lseek(-1, -1, SEEK_SET) = -1 EBADF",
        "clock_getres_time64(CLOCK_MONOTONIC, {tv_sec=0, tv_nsec=1}) = 0",
        "{tv_sec=0, tv_nsec=18446744073709551615}, CLOCK_MONOTONIC) = -1 EINVAL",
        "clock_nanosleep(CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=4294967295}, NULL) = -1 EINVAL",
        "{sigmask=[USR1], sigsetsize=8}) = 0 (Timeout)",
        "sendfile(-1, -1, [5], 5) = -1 EBADF",
        'execve("/nonexistent/sweep32", ["/nonexistent/sweep32", "a", "b"], ADDR',
        'sin_addr=inet_addr("224.0.0.2")}}, 132) = ',
    ):
        assert line in text, line
