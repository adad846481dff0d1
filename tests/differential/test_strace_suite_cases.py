"""Decoder differences found by running strace 6.1's own test suite under strace and pytrace.

strace's tests/ programs (one per syscall, options from gen_tests.in) were run
under both tracers and the normalised traces diffed; every decoder difference
fixed from that sweep has a case here, reproduced by our own program
(tests/programs/strace_suite_cases.c, raw syscalls with the exact argument
shapes) and compared with real strace, so CI needs no strace source tree:

- modes: print_numeric_umode_t is ``%#03o`` of an unsigned short (``004``, ``006``
  for a mode with garbage above bit 15), for chmod/mkdir/mkdirat/creat/umask;
- flagsdflt: printflags with no known bit set prints ``0x1 /* O_??? */`` (dup3,
  pipe2, faccessat, faccessat2, renameat2, utimensat, rt_sigaction's sa_flags);
- intargs: printxval takes an unsigned int, so madvise's advice and the rlimit
  resource ignore an argument's upper 32 bits;
- pageend: printstr_ex with a length (memfd_create's name, prctl PR_SET_NAME /
  PR_GET_NAME) reads at most min(len, -s + 1) bytes and stops at the NUL, so a
  name just before an unmapped page still prints; with a larger -s strace's
  read crosses the page and the address is printed;
- sigsetlen: a sigset size other than NSIG_BYTES (8) prints the pointer
  (rt_sigpending accepts 1..8);
- sendfile: the offset is unsigned (printnum_ulong);
- epoll: epoll_pwait/epoll_pwait2 print the sigmask and timeout at exit with
  umoven_or_printaddr, so a failed call (EINTR in any event loop) shows pointers;
- mmsg: sendmmsg/recvmmsg under ``-e verbose=none`` print the vector and the
  timeout as addresses, at entry;
- fsmisc: fsconfig's key and string value are printstr_ex(256) (cut at 256
  bytes even with a larger -s); mount_setattr's flags use strace's own table;
- sockaddr: an AF_UNIX sun_path without a NUL is cut at 108 bytes even when
  addrlen is larger; AF_PACKET's sockaddr_ll is decoded (protocol, ifindex,
  hatype, pkttype, halen, sll_addr with ``...`` past addrlen); a group_req
  is decoded for any optlen from its size up;
- siginfo: si_errno without a name is unsigned, si_uid (uid_t) -1 is ``-1``;
  unshare's flags and pkey_alloc's arguments are 64-bit (bits above 31 are
  shown), process_mrelease's flags hex;
- hexstr: ``--strings-in-hex=none`` is strace's default quoting and
  ``non-ascii-chars`` escapes only the unprintable bytes as ``\\xNN``;
- cmsg: SOL_SOCKET timestamp control messages (SO_TIMESTAMP, _TIMESTAMPNS,
  _TIMESTAMPING, old and new) are decoded, ``???`` when too short;
- exttail: extensible structs larger than strace knows (openat2's open_how,
  clone3's clone_args, mount_setattr's mount_attr) show their non-zero tail as
  ``/* bytes N..M */ "\\x.."`` or ``???`` when unreadable; openat2's mode is the
  64-bit print_numeric_ll_umode_t;
- bpfinfo: BPF_OBJ_GET_INFO_BY_FD's info_len changed by the kernel prints as
  ``info_len=256 => 104`` (one arrow); map_name in a short attr shows at most
  size - 1 characters (print_quoted_cstring);
- iowq: io_uring_register(IORING_REGISTER_IOWQ_MAX_WORKERS) prints an empty or
  partly unreadable array once, at entry, without `` => `` (one cut at -s does
  get its exit part);
- everything at once, with strace's default output (``all``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_vs_strace import Case, _run, case, compare_runs

SUITE = "{strace_suite_cases}"

CASES = [
    case("modes", "-e trace=chmod,mkdir,mkdirat,creat,umask", SUITE, "modes"),
    case("flags-dflt", "-e trace=dup3,pipe2,faccessat,faccessat2,renameat2,utimensat,rt_sigaction",
         SUITE, "flagsdflt"),
    case("flags-dflt-Xverbose", "-Xverbose -e trace=dup3,pipe2,faccessat,faccessat2,renameat2,rt_sigaction",
         SUITE, "flagsdflt"),
    case("flags-dflt-Xraw", "-Xraw -e trace=dup3,faccessat,faccessat2,access", SUITE, "flagsdflt"),
    case("int-args", "-e trace=madvise,getrlimit,prlimit64", SUITE, "intargs"),
    case("page-end-names", "-e trace=memfd_create,prctl", SUITE, "pageend"),
    case("page-end-names-s300", "-s 300 -e trace=memfd_create,prctl", SUITE, "pageend"),
    case("page-end-names-s2", "-s 2 -e trace=memfd_create,prctl", SUITE, "pageend"),
    case("sigset-sizes", "-e trace=rt_sigprocmask,rt_sigpending,rt_sigsuspend,rt_sigtimedwait",
         SUITE, "sigsetlen"),
    case("sendfile-offset", "-e trace=sendfile", SUITE, "sendfile"),
    case("epoll-pwait-failed", "-e trace=epoll_pwait,epoll_pwait2", SUITE, "epoll"),
    case("mmsg-verbose-none", "-e verbose=none -e trace=sendmmsg,recvmmsg", SUITE, "mmsg"),
    case("mmsg-verbose", "-e trace=sendmmsg,recvmmsg", SUITE, "mmsg"),
    case("fs-misc", "-e trace=fsconfig,mount_setattr", SUITE, "fsmisc"),
    case("fs-misc-s300", "-s 300 -e trace=fsconfig,mount_setattr", SUITE, "fsmisc"),
    case("sockaddr", "-e trace=connect,bind,setsockopt", SUITE, "sockaddr"),
    case("siginfo-unshare", "-e trace=rt_sigqueueinfo,unshare,pkey_alloc,process_mrelease", SUITE, "siginfo"),
    *[case(f"strings-in-hex-{v}", f"--strings-in-hex={v} -e trace=chdir", SUITE, "hexstr")
      for v in ("none", "non-ascii-chars", "non-ascii", "all")],
    case("cmsg-timestamps", "-e trace=sendmsg", SUITE, "cmsg"),
    case("extensible-tails", "-e trace=openat2,clone3,mount_setattr", SUITE, "exttail"),
    case("extensible-tails-s4", "-s 4 -e trace=openat2,clone3,mount_setattr", SUITE, "exttail"),
    case("bpf-info-len", "-e trace=bpf", SUITE, "bpfinfo"),
    case("iowq-max-workers", "-e trace=io_uring_register", SUITE, "iowq"),
    case("iowq-max-workers-s2", "-s 2 -e trace=io_uring_register", SUITE, "iowq"),
    case("all-default", "", SUITE, "all"),
]


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_strace_suite_case(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's after normalisation."""
    expected = _run("strace", c, programs, tmp_path, 0)
    actual = _run("pytrace", c, programs, tmp_path, 0)
    problems = compare_runs(expected, actual)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
