"""Structures passed by an i386 (-m32) tracee are read with 32-bit layouts, as strace 6.1 does (mpers).

tests/programs/breadth32.c is built with ``gcc -m32`` here (the session's
``programs`` fixture builds 64-bit programs) and traced by both tracers; each
call is made with a valid argument and with a bad pointer or descriptor.  The
comparison covers the families whose i386 layouts pytrace/decode/i386.py
provides (``COVERED``); values that change between two runs (clocks, free
blocks) are masked only when they have a plausible size, so a field read with
the wrong layout (a 64-bit garbage number) still fails the comparison.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential

SOURCE = Path(__file__).resolve().parent.parent / "programs" / "breadth32.c"

#: Calls whose structures are decoded with i386 layouts (the rest of breadth32.c is pending).
COVERED = (
    "stat64,lstat64,fstat64,fstatat64,stat,fstat,statfs,statfs64,fstatfs,fstatfs64,"
    "nanosleep,clock_gettime,clock_getres,clock_nanosleep,gettimeofday,setitimer,getitimer,"
    "timer_settime,timer_gettime,timerfd_settime,timerfd_gettime,time,"
    "rt_sigaction,readv,writev,preadv,connect,getsockname,uname,prlimit64,sched_getparam,"
    "sched_rr_get_interval,poll,ppoll,epoll_ctl,epoll_wait,rt_sigprocmask"
)

# Run-dependent values, masked only when they are of a sane size (at most 10 digits).
_VARYING = [
    (re.compile(r"\b(tv_sec|tv_nsec|tv_usec|f_bfree|f_bavail|f_ffree)=\d{1,10}\b"), r"\1=N"),
    (re.compile(r"\btime\(\[\d{1,10} /\* [^*]+ \*/\]\) += \d+ \([^)]+\)"), "time([T]) = T"),
    (re.compile(r"\bhtons\(\d+\)"), "htons(P)"),
]


@pytest.fixture(scope="module")
def breadth32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("breadth32") / "breadth32"
    res = subprocess.run(["gcc", "-m32", "-O0", "-g", "-o", str(target), str(SOURCE)],
                         capture_output=True, text=True, check=False)
    if res.returncode:
        pytest.fail(f"gcc -m32 failed (gcc-multilib is a declared test dependency): {res.stderr}")
    return target


def _trace(tracer: str, options: list[str], program: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.trace"
    proc = run_tracer(tracer, [*options, "-o", str(out)], [str(program)], cwd=tmp_path)
    assert proc.returncode == 0, decode(proc.stderr)
    text = decode(out.read_bytes())
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return normalise(text)


@pytest.mark.parametrize("verbose", [False, True], ids=["abbrev", "verbose"])
def test_i386_structures(verbose: bool, breadth32: Path, tmp_path: Path) -> None:
    """stat64/stat, statfs(64), timespec/timeval/itimer*, k_sigaction, iovec: strace's text, valid and bad."""
    options = ["-e", f"trace={COVERED}", *(["-v"] if verbose else [])]
    expected = _trace("strace", options, breadth32, tmp_path)
    actual = _trace("pytrace", options, breadth32, tmp_path)
    assert actual == expected
    assert re.search(r'stat64\("/dev/null", \{.*st_mode=S_IFCHR\|0666, .*st_rdev=makedev\(0x1, 0x3\)', actual)
    assert "nanosleep({tv_sec=N, tv_nsec=N}" in actual and "nanosleep(0x8, NULL) = -1 EFAULT" in actual
    assert "readv(3, [{iov_base=\"\", iov_len=4}, {iov_base=\"\", iov_len=8}], 2) = 0" in actual
    assert "rt_sigaction(SIGUSR1, {sa_handler=" in actual and "sa_mask=[INT], sa_flags=SA_RESTART}" in actual


def test_x86_64_run_keeps_the_plain_decoder_lookup(tmp_path: Path) -> None:
    """The per-personality lookup is installed by the first i386 tracee only (no cost for x86_64)."""
    import io

    from pytrace.decode import decoder_for
    from pytrace.events import PersonalityEvent
    from pytrace.sinks.strace_text import StraceTextSink, Stream

    sink = StraceTextSink(lambda pid: Stream(io.StringIO()))
    assert sink.decoder_for is decoder_for
    sink.on_personality(PersonalityEvent(1, "x86_64", 0, 0))
    assert sink.decoder_for is decoder_for
    sink.on_personality(PersonalityEvent(1, "i386", 0, 0))
    assert sink.decoder_for is not decoder_for
