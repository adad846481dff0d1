"""Leftover differences from the strace 6.1 test-suite sweep, each compared with real strace.

tests/programs/leftover_cases.c makes the calls (one mode each, all failing harmlessly);
the x86_64 build comes from the ``programs`` fixture, the i386 one is built here with
gcc -m32.  What each case pins down:

- ldt: modify_ldt's entry_number is PRINT_FIELD_ID (unsigned, ``-1`` for -1);
- sockaddr -X: AF_PACKET's sll_protocol is ``"\\x08\\x00"`` raw and
  ``"\\x08\\x00" /* htons(ETH_P_IP) */`` verbose (print_sll_protocol);
- perf: the attribute is read at entry (the kernel rewrites ``size`` on E2BIG),
  a size below PERF_ATTR_SIZE_VER0 or an unreadable one prints the pointer, E2BIG
  shows ``size=0x100 /* PERF_ATTR_SIZE_??? */ => PERF_ATTR_SIZE_VERn``, and
  ``__reserved_1`` is shown even abbreviated;
- bpfquery: a failed BPF_PROG_QUERY's prog_ids is ``[]`` for prog_cnt 0 (print_array's
  empty check comes before tfetch_mem's refusal), the pointer otherwise;
- waitv: futex_waitv prints at most FUTEX_WAITV_MAX (128) waiters, then ``...``;
- kexec: kexec_load's segment array (``[]``, NULL, the decoded segments, the pointer for
  more than KEXEC_SEGMENT_MAX), with 32-bit longs for an i386 tracee;
- i386 sendfile/sendfile64: the offsets are unsigned (printnum_ulong, printnum_int64 "%llu");
- i386 cmsg: SO_TIMESTAMP{,NS,ING}_OLD carry the tracee's 32-bit timeval/timespec, the
  _NEW ones 64-bit;
- -e spellings: decode-fd=, decode-pid=, q= / silent= / silence=, reads= / writes=
  (qual_options[] in filter_qualify.c).
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import build_m32, decode, normalise, run_tracer
from test_vs_strace import Case, _run, case, compare_runs

pytestmark = pytest.mark.differential

LEFT = "{leftover_cases}"
SUITE = "{strace_suite_cases}"

CASES = [
    case("ldt", "-e trace=modify_ldt", LEFT, "ldt"),
    case("sockaddr-Xraw", "-Xraw -e trace=connect,bind", SUITE, "sockaddr"),
    case("sockaddr-Xverbose", "-Xverbose -e trace=connect,bind", SUITE, "sockaddr"),
    case("perf", "-e trace=perf_event_open", LEFT, "perf"),
    case("perf-v", "-v -e trace=perf_event_open", LEFT, "perf"),
    case("perf-verbose-none", "-e verbose=none -e trace=perf_event_open", LEFT, "perf"),
    case("bpf-prog-query", "-e trace=bpf", LEFT, "bpfquery"),
    case("futex-waitv", "-s 256 -e trace=futex_waitv", LEFT, "waitv"),
    case("futex-waitv-s4", "-s 4 -e trace=futex_waitv", LEFT, "waitv"),
    case("futex-waitv-v", "-v -e trace=futex_waitv", LEFT, "waitv"),
    case("kexec", "-e trace=kexec_load", LEFT, "kexec"),
    case("kexec-s2", "-s 2 -e trace=kexec_load", LEFT, "kexec"),
    case("sendfile", "-e trace=sendfile", LEFT, "sendfile"),
    *[case(f"decode-fd-{v}", f"-e decode-fd={v} -e trace=sendfile,close", LEFT, "sendfile")
      for v in ("all", "none", "path", "socket")],
    case("decode-pid", "-e decode-pid=comm -e trace=sendfile", LEFT, "sendfile"),
    case("quiet-spellings", "-e q=attach -e silent=exit -e silence=personality -e trace=sendfile",
         LEFT, "sendfile"),
    case("read-write-spellings", "-e reads=all -e writes=all -e trace=sendfile", LEFT, "sendfile"),
]


@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_leftover_case(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's after normalisation."""
    expected = _run("strace", c, programs, tmp_path, 0)
    actual = _run("pytrace", c, programs, tmp_path, 0)
    problems = compare_runs(expected, actual)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


SOURCE = Path(__file__).resolve().parents[1] / "programs" / "leftover_cases.c"


@pytest.fixture(scope="module")
def leftover32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_m32(SOURCE, tmp_path_factory.mktemp("leftover32") / "leftover_cases")


def _trace(tracer: str, options: list[str], argv: list[str], tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.trace"
    res = run_tracer(tracer, [*options, "-o", str(out)], argv, cwd=tmp_path)
    assert res.returncode == 0, decode(res.stderr)
    return normalise(decode(out.read_bytes()))


@pytest.mark.parametrize(("mode", "options"), [
    ("sendfile", ["-e", "trace=sendfile,sendfile64"]),
    ("cmsg", ["-e", "trace=sendmsg"]),
    ("kexec", ["-e", "trace=kexec_load"]),
    ("waitv", ["-s", "256", "-e", "trace=futex_waitv"]),
    ("perf", ["-v", "-e", "trace=perf_event_open"]),
], ids=["sendfile", "cmsg", "kexec", "futex-waitv", "perf-v"])
def test_leftover_i386_matches_strace(mode: str, options: list[str], leftover32: Path, tmp_path: Path) -> None:
    expected = _trace("strace", options, [str(leftover32), mode], tmp_path)
    actual = _trace("pytrace", options, [str(leftover32), mode], tmp_path)
    assert actual == expected, "".join(difflib.unified_diff(
        expected.splitlines(True), actual.splitlines(True), "strace", "pytrace"))


def test_leftover_i386_forms(leftover32: Path, tmp_path: Path) -> None:
    """The comparison above is only as good as what the program makes: the fixed forms are there."""
    text = _trace("pytrace", ["-e", "trace=sendfile,sendfile64,sendmsg"], [str(leftover32), "sendfile"], tmp_path)
    assert "sendfile(-1, -1, [4294967294], 1)" in text
    assert "sendfile64(-1, -1, [18446744073709551613], 1)" in text
    text = _trace("pytrace", ["-e", "trace=sendmsg"], [str(leftover32), "cmsg"], tmp_path)
    assert "cmsg_type=SO_TIMESTAMP_OLD, cmsg_data={tv_sec=1, tv_usec=4294967294}}" in text
    assert "cmsg_type=SO_TIMESTAMPNS_OLD, cmsg_data={tv_sec=1, tv_nsec=4294967294}}" in text
