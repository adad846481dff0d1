"""Self-tests of the comparison helpers: what they must hide, and what they must still let through.

A normaliser that hides too much turns every differential test into one that
cannot fail; these cases pin down that real differences survive it.
"""

from __future__ import annotations

import pytest
from helpers import group_by_process, normalise

pytestmark = pytest.mark.differential


def test_run_to_run_values_are_hidden() -> None:
    """Two runs differing only in pids, addresses, inodes, clocks and random bytes normalise equal."""
    first = (
        'execve("/bin/x", ["x"], 0x7ffc73035938 /* 4 vars */) = 0\n'
        "getpid()                                = 4242\n"
        "socket(AF_UNIX, SOCK_STREAM, 0)         = 3<socket:[20011]>\n"
        "clock_gettime(CLOCK_MONOTONIC, {tv_sec=429, tv_nsec=755967457}) = 0\n"
        'getrandom("\\xcd\\x2b", 2, 0)            = 2\n'
        "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=4243, si_uid=0, si_status=0, si_utime=1, si_stime=0} ---\n"
    )
    second = (
        'execve("/bin/x", ["x"], 0x7ffd926d8c68 /* 4 vars */) = 0\n'
        "getpid()                                = 977\n"
        "socket(AF_UNIX, SOCK_STREAM, 0)         = 3<socket:[31337]>\n"
        "clock_gettime(CLOCK_MONOTONIC, {tv_sec=5, tv_nsec=12}) = 0\n"
        'getrandom("\\x00\\xff", 2, 0)            = 2\n'
        "--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=978, si_uid=0, si_status=0, si_utime=0, si_stime=0} ---\n"
    )
    assert normalise(first) == normalise(second)


@pytest.mark.parametrize(
    ("strace_line", "other_line"),
    [
        # The same pid must not be printed where strace prints a different one.
        ("kill(4242, SIGUSR1) = 0\ngetpid() = 4243\n", "kill(4242, SIGUSR1) = 0\ngetpid() = 4242\n"),
        # Addresses are renumbered, not erased: munmap of another mapping is caught.
        (
            "mmap(NULL, 8192, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f42f7678000\nmunmap(0x7f42f7678000, 8192) = 0\n",
            "mmap(NULL, 8192, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f42f7678000\nmunmap(0x7f42f7679000, 8192) = 0\n",
        ),
        # Small hex values are flags and sizes, compared verbatim.
        (
            "fcntl(3, F_GETFL) = 0x8002 (flags O_RDWR|O_LARGEFILE)\n",
            "fcntl(3, F_GETFL) = 0x8003 (flags O_RDWR|O_LARGEFILE)\n",
        ),
        # Ordinary numbers and strings stay verbatim.
        ('write(1, "hello\\n", 6)                 = 6\n', 'write(1, "hello\\n", 6)                 = 5\n'),
        # Alignment is checked: one space too many or too few is a difference.
        ("getuid()                                = 0\n", "getuid()                                 = 0\n"),
        ("getuid()                                = 0\n", "getuid() = 0\n"),
        # Pid prefix padding ("%-5d ") is checked.
        ("1234  exit_group(0) = ?\n", "1234 exit_group(0) = ?\n"),
        # The number of random bytes printed is kept.
        ('getrandom("\\xcd\\x2b", 2, 0) = 2\n', 'getrandom("\\xcd", 2, 0) = 2\n'),
        # Timestamps keep their shape (-tt has microseconds, -t not).
        ("19:44:18.252058 getuid() = 0\n", "19:44:18 getuid() = 0\n"),
    ],
)
def test_real_differences_survive(strace_line: str, other_line: str) -> None:
    """Each pair differs in something a tracer must get right; normalising must not hide it."""
    assert normalise(strace_line) != normalise(other_line)


def test_pid_width_change_is_not_a_difference() -> None:
    """A pid that gains a digit shifts the alignment and padding; correct layouts stay equal."""
    narrow = f"{'9999  kill(9999, SIGUSR1)':<40}= 0\n"
    wide = f"{'10000 kill(10000, SIGUSR1)':<40}= 0\n"
    assert normalise(narrow) == normalise(wide)


def test_group_by_process_joins_split_calls() -> None:
    """An unfinished/resumed pair equals the same call printed in one piece, whatever the interleaving."""
    split = (
        '100   execve("/bin/x", ["x"], 0x7ffc73035938 /* 4 vars */) = 0\n'
        "100   clone(child_stack=NULL, flags=SIGCHLD) = 101\n"
        "100   wait4(-1,  <unfinished ...>\n"
        "101   exit_group(3)                     = ?\n"
        "101   +++ exited with 3 +++\n"
        "100   <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 101\n"
    )
    whole = (
        '200   execve("/bin/x", ["x"], 0x7ffd926d8c68 /* 4 vars */) = 0\n'
        "200   clone(child_stack=NULL, flags=SIGCHLD) = 201\n"
        "201   exit_group(3)                     = ?\n"
        "200   wait4(-1, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 201\n"
        "201   +++ exited with 3 +++\n"
    )
    assert normalise(group_by_process(split), None) == normalise(group_by_process(whole), None)


def test_group_by_process_orders_by_creation_not_pid() -> None:
    """After pid wrap-around a child has a smaller pid than its parent; the parent still comes first."""
    text = "32760 clone(child_stack=NULL, flags=SIGCHLD) = 301\n301   exit_group(0)                     = ?\n"
    assert group_by_process(text).splitlines()[0].startswith("32760 ")


def test_group_by_process_keeps_a_mismatched_resume() -> None:
    """A resumed line that does not continue the pending call is left as printed, so it shows."""
    text = "100   read(3,  <unfinished ...>\n100   <... write resumed>) = 1\n"
    assert "<... write resumed>" in group_by_process(text)
