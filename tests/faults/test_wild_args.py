"""Fuzz: every syscall pytrace decodes, called with wild arguments, printed as strace prints it.

tests/faults/wild_calls.py generates, with a fixed seed, 6,000 calls of every x86_64 syscall that
has a decoder (pytrace/decode/registry.py DECODERS) minus an explicit denylist, with junk in the
upper half of 32-bit arguments (0xdeadbeef00000000|small), -1, huge lengths and wild pointers;
tests/programs/wild_args.c replays them in a sandbox (own namespaces, tmpfs /tmp, nobody, RLIMITs,
a 2 s alarm per call).  The same record file is run under strace and under pytrace, and every
call line must match after tests/helpers.normalise, line by line.  The only lines allowed to
differ are the kernel-written data listed in VOLATILE, each class with its reason: there the
line is compared with its numbers and comments blanked, so its shape (field names, flags, structure) still
has to match.  Any other difference, a traceback, a hang (every run has a timeout) or a fuzzer
killed by a signal fails the test.

Run: ``.venv/bin/python -m pytest tests/faults/test_wild_args.py -n 2``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers import decode, group_by_process, normalise, run_tracer  # noqa: E402
from wild_calls import SEED, chunks, write_records  # noqa: E402

pytestmark = pytest.mark.differential

TOTAL_CALLS = 6000
PARTS = 4
#: ASLR off for both runs (setarch -R): the fuzzer's own addresses (get_robust_list's head, brk)
#: are then the same in both, so they need no exception.
NO_ASLR = ("setarch", "x86_64", "-R")

#: Syscalls whose output is kernel-written data that differs between the strace run and the
#: pytrace run of the same records; their lines are compared with every number blanked.
VOLATILE: dict[str, str] = {
    "time": "the current time",
    "gettimeofday": "the current time",
    "clock_gettime": "the current time",
    "clock_adjtime": "the clock's state includes the current time",
    "adjtimex": "the clock's state includes the current time",
    "times": "CPU times and the clock-tick counter",
    "getrusage": "CPU times and page-fault counters",
    "sysinfo": "uptime, free memory and process count of the host",
    "getcpu": "the CPU the fuzzer happens to run on",
    "getitimer": "the time left on the per-call 2 s alarm",
    "setitimer": "the old value is the time left on the per-call 2 s alarm",
    "alarm": "returns the seconds left on the per-call 2 s alarm",
    "timer_gettime": "the time left on a timer",
    "timerfd_gettime": "the time left on a timer",
    "getrandom": "random bytes",
    "fstatfs": "a descriptor the fuzz replaced (memfd, pipe) may live on a host-wide filesystem whose "
               "free counts change",
    "statfs": "paths such as /dev or / are host-wide filesystems whose free counts change",
    "syslog": "the kernel log of the host",
    "sched_rr_get_interval": "the scheduler's time slice depends on the host's load",
    "kcmp": "orders two kernel objects by their (per-boot obfuscated) addresses, which differ between runs",
    "msgctl": "IPC_STAT/MSG_STAT report the queue's creation and last send/receive times",
    "shmctl": "IPC_STAT/SHM_STAT report the segment's creation and attach times",
}
_NUMBER = re.compile(r"\d+")
_COMMENT = re.compile(r" /\* [^*]*\*/")  # "/* 0.01 s */", "/* 2026-...+0000 */": there for some values only


def _blanked(line: str) -> str:
    """A VOLATILE line's shape: comments dropped, every number N."""
    return _NUMBER.sub("N", _COMMENT.sub("", line))
_CHILD_START = re.compile(r"^\d+ +alarm\(2\)", re.M)


def _calls(trace: str) -> list[str]:
    """The fuzzing child's lines from its first alarm(2) on, processes grouped, unfinished calls merged."""
    lines = group_by_process(trace).splitlines()
    for i, line in enumerate(lines):
        if _CHILD_START.match(line):
            return [re.sub(r"^\d+ +", "", line) for line in lines[i:]]
    raise AssertionError("the fuzzing child never reached its first call:\n" + "\n".join(lines[-20:]))


def _name(line: str) -> str:
    return line.split("(", 1)[0]


def _trace(tracer: str, program: Path, records: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.trace"
    res = run_tracer(tracer, ["-f", "-o", str(out)], [str(program), str(records)], isolate=NO_ASLR, cwd=tmp_path)
    err = decode(res.stderr)
    assert "Traceback" not in err, err
    assert res.returncode == 0, f"{tracer} exited {res.returncode}: {err[-2000:]}"
    return decode(out.read_bytes())


@pytest.fixture(scope="module")
def record_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    directory = tmp_path_factory.mktemp("wild_args")
    return [write_records(directory / f"records{i}", part) for i, part in enumerate(chunks(SEED, TOTAL_CALLS, PARTS))]


def test_enough_calls() -> None:
    """The brief: at least 5,000 random calls, spread over every decoded syscall not denied."""
    parts = chunks(SEED, TOTAL_CALLS, PARTS)
    calls = [info.name for part in parts for info, _, _ in part]
    assert len(calls) == TOTAL_CALLS >= 5000
    from wild_calls import fuzzed_syscalls

    assert set(calls) == {info.name for info in fuzzed_syscalls()}


@pytest.mark.parametrize("part", range(PARTS))
def test_wild_arguments_match_strace(part: int, record_files: list[Path], programs: dict[str, Path],
                                     tmp_path: Path) -> None:
    records = record_files[part]
    expected = _calls(_trace("strace", programs["wild_args"], records, tmp_path))
    actual = _calls(_trace("pytrace", programs["wild_args"], records, tmp_path))
    assert expected[-1] == actual[-1] == "+++ exited with 0 +++", "the fuzzing child did not finish normally"
    assert len(actual) == len(expected), f"{len(actual)} lines from pytrace, {len(expected)} from strace"
    differences = []
    for want, got in zip(expected, actual, strict=True):
        # Each line alone: one line's new address must not renumber the rest of the trace.
        want_n, got_n = normalise(want, None), normalise(got, None)
        if want_n == got_n:
            continue
        if _name(want) == _name(got) and _name(want) in VOLATILE:
            if _blanked(want_n) == _blanked(got_n):
                continue
        differences.append(f"strace:  {want}\npytrace: {got}")
    assert not differences, f"{len(differences)} lines differ:\n" + "\n\n".join(differences[:20])


#: Lines of tests/programs/wild_widths.c as strace 6.1 prints them (pytrace must print the same,
#: checked by the comparison below; listed so the examples cannot silently disappear).
WIDTH_EXAMPLES = (
    # int domain/type cut to 32 bits; the protocol's table is chosen by the whole register.
    "socket(AF_INET, SOCK_DGRAM, 16045690981097406481) = ",
    "socket(AF_UNIX, SOCK_STREAM, 0) = ",
    "socketpair(AF_UNIX, SOCK_DGRAM, 16045690981097406464, NULL) = -1 EFAULT",
    # unsigned long iovcnt printed unsigned; a vector that would wrap memory is an address.
    "readv(-1, ADDR1, 18446744073709551615) = -1 EBADF",
    "writev(-1, ADDR1, 16045690981097406466) = -1 EBADF",
    'writev(1, [{iov_base="wild", iov_len=4}, {iov_base="args", iov_len=4}], 2) = 8',
    # int flags and options cut to 32 bits.
    'sendto(-1, "x", 1, MSG_DONTWAIT, NULL, 0) = -1 EBADF',
    "recvfrom(2147483647, ADDR1, 16, MSG_PEEK|MSG_TRUNC, NULL, NULL) = -1 EBADF",
    "accept4(-1, NULL, NULL, SOCK_CLOEXEC) = -1 EBADF",
    "wait4(PID1, NULL, WNOHANG, NULL) = -1 ECHILD",  # 0x7ffffff0, renumbered by normalise
    "waitid(P_PID, PID1, NULL, WEXITED, NULL) = -1 ECHILD",
    # mmap: prot from the whole register, flags as strace's unsigned int.
    # (normalise writes 0xdeadbeef00000000 and 0x600000000 as ADDRn, like any 5+ digit hex number)
    "mmap(NULL, 4096, PROT_READ|ADDR1, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = ADDR2",
    "ftruncate(-1, 18446744073709551615) = -1 EINVAL",
    # openat2's how.flags is 64-bit.
    'openat2(AT_FDCWD, "/", {flags=O_RDONLY|ADDR1, resolve=0}, 24) = -1 EINVAL',
    'openat2(AT_FDCWD, "/", {flags=O_RDONLY|O_CLOEXEC, resolve=0}, 24) = 5',
    # pselect6 failing with EINVAL: empty sets print as [].
    "pselect6(2, [], [], NULL, {tv_sec=0, tv_nsec=2000000000}, NULL) = -1 EINVAL",
    "kill(PID1, 0) = -1 ESRCH",
)


def test_argument_widths_match_strace(programs: dict[str, Path], tmp_path: Path) -> None:
    """Fixed 64-bit register values (wild_widths.c): each argument printed at the width strace 6.1 reads."""
    traces = {}
    for tracer in ("strace", "pytrace"):
        out = tmp_path / f"{tracer}.trace"
        res = run_tracer(tracer, ["-o", str(out)], [str(programs["wild_widths"])], cwd=tmp_path)
        assert res.returncode == 0, decode(res.stderr)
        text = decode(out.read_bytes())
        start = text.index("socket(")
        traces[tracer] = [normalise(line, None) for line in text[start:].splitlines()]
    assert traces["pytrace"] == traces["strace"]
    blob = "\n".join(re.sub(r"\)\s+= ", ") = ", line) for line in traces["strace"])
    for example in WIDTH_EXAMPLES:
        assert example in blob, example
