"""helpers.pair_tracee_pids: the comparison of two runs' traces renumbers pids only where both texts
hold their own pid, so a size or flag word equal to one run's pid (small pids in a fresh CI
container) does not make two equal traces differ."""

from __future__ import annotations

from helpers import pair_tracee_pids


def test_pid_equal_to_a_size_in_one_run_is_left_alone() -> None:
    ref = "getpid() = 4096\nread(3, \"x\", 4096) = 4096\nkcmp(4096, 4096, KCMP_FILE, 1, 2) = 0\n"
    got = "getpid() = 4107\nread(3, \"x\", 4096) = 4096\nkcmp(4107, 4107, KCMP_FILE, 1, 2) = 0\n"
    a, b = pair_tracee_pids(ref, got, ["4096"], ["4107"])
    assert a == b == ("getpid() = TRACEE0\nread(3, \"x\", 4096) = 4096\n"
                      "kcmp(TRACEE0, TRACEE0, KCMP_FILE, 1, 2) = 0\n")


def test_hex_words_and_several_pids() -> None:
    ref = "gettid() = 0x1f40\nclone() = 8001\ntgkill(0x1f40, 8001, SIGUSR1) = 0\n"
    got = "gettid() = 0x2710\nclone() = 10001\ntgkill(0x2710, 10001, SIGUSR1) = 0\n"
    a, b = pair_tracee_pids(ref, got, ["8000", "8001"], ["10000", "10001"])
    assert a == b == "gettid() = TRACEE0\nclone() = TRACEE1\ntgkill(TRACEE0, TRACEE1, SIGUSR1) = 0\n"


def test_a_real_difference_still_shows() -> None:
    a, b = pair_tracee_pids("kill(500, SIGTERM) = 0\n", "kill(501, SIGTERM) = 0\n", ["500"], ["777"])
    assert a != b
