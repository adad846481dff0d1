"""Netlink message decoding (decode/netlink*.py) against strace 6.1.

Each case runs strace and pytrace, each inside its own fresh network
namespace (``unshare -n``: only ``lo``, no traffic, so link statistics,
addresses and listening sockets are the same for both runs), on ``ip``/``ss``
commands and on tests/programs/netlink_msgs.c, and compares the netlink
syscall lines.  Normalised besides what ``helpers.normalise`` does: netlink
port ids (``nl_pid``/``nlmsg_pid``, random per socket), ``nlmsg_seq`` (ip
uses the time), the address timestamps ``cstamp``/``tstamp`` (hundredths
of a second since boot), socket inodes and cookies.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import decode, normalise, tracer_command, tracer_env

_NETLINK_CALLS = re.compile(r"^(?:sendto|recvfrom|sendmsg|recvmsg|sendmmsg|recvmmsg)\(")
_VOLATILE = [
    (re.compile(r"\b(nl_pid|nlmsg_pid)=-?\d+"), r"\1=PORTID"),
    (re.compile(r"\bnlmsg_seq=\d+"), "nlmsg_seq=SEQ"),
    (re.compile(r"\b(cstamp|tstamp)=\d+"), r"\1=TIME"),
    (re.compile(r"\b(idiag_inode|udiag_ino)=\d+"), r"\1=INODE"),
    (re.compile(r"\b(idiag_cookie|udiag_cookie)=\[\d+, \d+\]"), r"\1=COOKIE"),
]


def _trace(tracer: str, cmd: list[str], tmp: Path, lo_up: bool) -> str:
    """Trace ``cmd`` in a new network namespace and return the netlink syscall lines, normalised."""
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required for the netlink tests (util-linux / iproute2)")
    out = tmp / f"{tracer}.trace"
    inner = [*tracer_command(tracer), "-e", "trace=%network", "-o", str(out), *cmd]
    script = ("ip link set lo up && " if lo_up else "") + 'exec "$@"'
    proc = subprocess.run(["unshare", "-n", "sh", "-c", script, "sh", *inner], capture_output=True,
                          env=tracer_env(), timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == 0, decode(proc.stderr)
    lines = [line for line in normalise(out.read_text()).splitlines() if _NETLINK_CALLS.match(line)]
    text = "\n".join(lines)
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return text


def _compare(cmd: list[str], tmp_path: Path, lo_up: bool = True) -> str:
    ours = _trace("pytrace", cmd, tmp_path, lo_up)
    theirs = _trace("strace", cmd, tmp_path, lo_up)
    if ours != theirs:
        diff = "\n".join(difflib.unified_diff(theirs.splitlines(), ours.splitlines(), "strace", "pytrace",
                                              lineterm=""))
        pytest.fail(f"netlink output differs for {cmd}:\n{diff[:6000]}")
    assert "nlmsg_len=" in ours, ours[:2000]
    return ours


@pytest.mark.parametrize("cmd", [
    ["ip", "link", "show", "lo"],
    ["ip", "addr", "show", "lo"],
    ["ip", "-4", "route", "show", "table", "main"],
    ["ip", "route", "get", "127.0.0.1"],
    ["ss", "-lnt"],
    ["ss", "-xa"],
], ids=lambda c: "_".join(c))
def test_ip_ss_commands(cmd: list[str], tmp_path: Path) -> None:
    if shutil.which(cmd[0]) is None:
        pytest.fail(f"{cmd[0]} is required for this test (iproute2)")
    text = _compare(cmd, tmp_path)
    if cmd[0] == "ip" and cmd[1] == "addr":
        assert 'nla_type=IFA_ADDRESS}, inet_addr("127.0.0.1")' in text
    if cmd[:2] == ["ip", "link"]:
        assert "nla_type=IFLA_MTU}, 65536]" in text


def test_netlink_msgs_program(programs: dict[str, Path], tmp_path: Path) -> None:
    """A dump read with recvfrom, a short buffer, NLMSG_ERROR with the request, an ACK, bad attributes, sock_diag."""
    text = _compare([str(programs["netlink_msgs"])], tmp_path, lo_up=False)
    for expected in (
        'sendto(3, "\\x10\\x00\\x00\\x00\\x12\\x00\\x01", 7, 0, NULL, 0) = 7',
        "{error=-EOPNOTSUPP, msg=[{nlmsg_len=32, nlmsg_type=0x7ff /* RTM_??? */",
        "nlmsg_flags=NLM_F_CAPPED",
        '[{nla_len=6, nla_type=IFLA_IFNAME}, "lo"...]',
        "nlmsg_type=NLMSG_DONE",
        "idiag_state=TCP_LISTEN",
        "udiag_show=UDIAG_SHOW_NAME|UDIAG_SHOW_PEER|UDIAG_SHOW_RQLEN",
    ):
        assert expected in text, expected


def test_non_netlink_socket_unchanged(programs: dict[str, Path], tmp_path: Path) -> None:
    """Buffers of other sockets stay strings (the sockets corpus program, same as strace)."""
    if "sockets" not in programs:
        pytest.fail("tests/programs/sockets.c is missing")
    out = {}
    for tracer in ("strace", "pytrace"):
        path = tmp_path / f"{tracer}.out"
        proc = subprocess.run([*tracer_command(tracer), "-e", "trace=sendto,recvfrom,sendmsg,recvmsg", "-o",
                               str(path), str(programs["sockets"])], capture_output=True, env=tracer_env(),
                              timeout=60, stdin=subprocess.DEVNULL, check=False, cwd=tmp_path)
        assert proc.returncode == 0, decode(proc.stderr)
        out[tracer] = normalise(path.read_text())
    assert out["pytrace"] == out["strace"]
