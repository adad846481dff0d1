"""Bridge rtnetlink decoding (decode/netlink_bridge.py) against strace 6.1.

RTM_*MDB (br_port_msg, MDBA_* nests, br_mdb_entry), the AF_BRIDGE form of IFLA_AF_SPEC
(IFLA_BRIDGE_*, bridge_vlan_info), IFLA_PROTINFO / IFLA_INFO_DATA of bridges and RTM_*DCB,
from ``bridge``/``dcb``/``ip`` commands and tests/programs/netlink_bridge.c, each traced by
both tracers in a fresh network namespace (test_netlink.py's harness and normalisation).

The namespace has a bridge br0 with a veth port, both up (the kernel wants a running bridge
and an enabled port for MDB entries), IPv6 off so that no neighbour discovery runs; what
still moves between the two runs is normalised here: packet counters and running timers.
Some commands fail on kernels without VLAN filtering or DCB drivers (veth has none): their
requests and the kernel's NLMSG_ERROR echo are what is compared, so their exit status is not.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import decode, normalise, tracer_command, tracer_env
from test_netlink import _NETLINK_CALLS, _VOLATILE

_BRIDGE = " && ".join((
    "sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1",
    "ip link add veth0 type veth peer name veth1",
    "ip link add br0 type bridge",
    "ip link set veth0 master br0",
    "ip link set br0 up", "ip link set veth0 up", "ip link set veth1 up",
    "bridge link set dev veth0 mcast_router 2",
    "bridge mdb add dev br0 port veth0 grp 239.1.1.1 permanent",
    "bridge mdb add dev br0 port veth0 grp ff0e::5 permanent vid 1",
    "bridge mdb add dev br0 port br0 grp 01:00:5e:01:02:03 permanent",
    # operstate and carrier counters change asynchronously (linkwatch, delayed under load): wait for all three
    # links to be UP before tracing, so that both runs see the same link state (at most 10 s, never a failure)
    "for i in $(seq 200); do [ $(ip -br link show | grep -c ' UP ') -ge 3 ] && break; sleep 0.05; done",
))

_MOVING = [
    # traffic between the runs (the bridge's own frames) and timers that run during them
    (re.compile(r"\b((?:rx|tx)_\w+|multicast)=\d+"), r"\1=N"),
    (re.compile(r"\[((?:IPSTATS|ICMP6)_MIB_\w+)\]=\d+"), r"[\1]=N"),
    (re.compile(r"(nla_type=\w+_TIMER\}, )\d+(?: /\* [\d.]+ s \*/)?"), r"\1TIMER"),
]


def _trace(tracer: str, cmd: list[str], tmp: Path, setup: str, flags: tuple[str, ...]) -> str:
    """test_netlink's _trace, for commands that may fail: the netlink lines of ``cmd``, normalised."""
    out = tmp / f"{tracer}.trace"
    inner = [*tracer_command(tracer), *flags, "-e", "trace=%network", "-o", str(out), *cmd]
    script = "ip link set lo up && " + (f"{setup} && " if setup else "") + 'exec "$@"'
    proc = subprocess.run(["unshare", "-n", "sh", "-c", script, "sh", *inner], capture_output=True,
                          env=tracer_env(), timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert out.exists(), decode(proc.stderr)
    text = "\n".join(line for line in normalise(out.read_text()).splitlines() if _NETLINK_CALLS.match(line))
    for pattern, repl in _VOLATILE + (_MOVING if setup else []):
        text = pattern.sub(repl, text)
    return text


def _first_differences(theirs: str, ours: str) -> str:
    """Where each differing line first differs (dump lines run to kilobytes: a line diff would be cut short)."""
    a, b = theirs.splitlines(), ours.splitlines()
    if len(a) != len(b):
        return "\n".join(difflib.unified_diff(a, b, "strace", "pytrace", lineterm=""))[:6000]
    out = []
    for x, y in zip(a, b, strict=True):
        if x != y:
            i = next((i for i in range(min(len(x), len(y))) if x[i] != y[i]), min(len(x), len(y)))
            out.append(f"strace : ...{x[max(0, i - 300):i + 150]}\npytrace: ...{y[max(0, i - 300):i + 150]}")
    return "\n\n".join(out)


def _compare(cmd: list[str], tmp_path: Path, setup: str = _BRIDGE, flags: tuple[str, ...] = ("-s", "1000")) -> str:
    for tool in ("unshare", "ip", cmd[0]):
        if shutil.which(tool) is None and not Path(tool).exists():
            pytest.fail(f"{tool} is required for the bridge netlink tests (util-linux / iproute2)")
    ours = _trace("pytrace", cmd, tmp_path, setup, flags)
    theirs = _trace("strace", cmd, tmp_path, setup, flags)
    if ours != theirs:
        pytest.fail(f"netlink output differs for {cmd}:\n{_first_differences(theirs, ours)}")
    assert "nlmsg_len=" in ours, ours[:2000]
    return ours


@pytest.fixture(scope="module")
def bridge_ready() -> None:
    """The set-up itself must work here (veth, bridge, MDB entries): fail with its message, not a diff."""
    probe = subprocess.run(["unshare", "-n", "sh", "-c", _BRIDGE], capture_output=True, timeout=30, check=False)
    assert probe.returncode == 0, f"a bridge with MDB entries is required: {decode(probe.stderr)}"


_COMMANDS = [
    (["bridge", "-d", "mdb", "show"], (
        "{family=AF_UNSPEC, ifindex=if_nametoindex(\"br0\")}, [[{nla_len=",
        "nla_type=MDBA_MDB_ENTRY_INFO}, {ifindex=if_nametoindex(\"veth0\"), state=MDB_PERMANENT, flags=0, vid=0, "
        "addr={u=\"\\xef\\x01\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\", "
        "proto=htons(0x800 /* AF_??? */)}}",
        "vid=1, addr={u=\"\\xff\\x0e\\x00",
        "proto=htons(AF_UNSPEC)}}",
        "[{nla_len=8, nla_type=MDBA_MDB_EATTR_TIMER}, TIMER]",
        "[{nla_len=40, nla_type=MDBA_ROUTER_PORT}, if_nametoindex(\"veth0\"), [[{nla_len=8, "
        "nla_type=MDBA_ROUTER_PATTR_TIMER}, TIMER], [{nla_len=5, nla_type=MDBA_ROUTER_PATTR_TYPE}, "
        "MDB_RTR_TYPE_PERM]",
    )),
    (["bridge", "mdb", "add", "dev", "br0", "port", "veth0", "grp", "239.1.1.9", "permanent", "vid", "1"], (
        "nlmsg_type=RTM_NEWMDB, nlmsg_flags=NLM_F_REQUEST|NLM_F_ACK|NLM_F_EXCL|NLM_F_CREATE",
        "{family=AF_BRIDGE, ifindex=if_nametoindex(\"br0\")}, [{nla_len=32, nla_type=MDBA_MDB}, "
        "{nla_len=3, nla_type=MDBA_MDB_UNSPEC}]",
    )),
    (["bridge", "mdb", "del", "dev", "br0", "port", "veth0", "grp", "239.1.1.1", "permanent"], (
        "nlmsg_type=RTM_DELMDB",
    )),
    (["bridge", "link", "set", "dev", "veth0", "hwmode", "vepa"], (
        "{ifi_family=AF_BRIDGE, ifi_type=ARPHRD_NETROM, ifi_index=if_nametoindex(\"veth0\"), ifi_flags=0, "
        "ifi_change=0}, [{nla_len=4, nla_type=NLA_F_NESTED|IFLA_PROTINFO}, [{nla_len=20, nla_type=IFLA_AF_SPEC}, "
        "[[{nla_len=6, nla_type=IFLA_BRIDGE_FLAGS}, BRIDGE_FLAGS_SELF], [{nla_len=6, nla_type=IFLA_BRIDGE_MODE}, "
        "BRIDGE_MODE_VEPA]",
    )),
    (["bridge", "vlan", "add", "dev", "veth0", "vid", "10", "pvid", "untagged"], (
        "[{nla_len=8, nla_type=IFLA_BRIDGE_VLAN_INFO}, {flags=BRIDGE_VLAN_INFO_PVID|BRIDGE_VLAN_INFO_UNTAGGED, "
        "vid=10}]",
    )),
    (["bridge", "link", "set", "dev", "veth0", "cost", "5"], (
        "[{nla_len=8, nla_type=IFLA_BRPORT_COST}, 5]",
    )),
    ("bridge link set dev veth0 state 2 priority 10 guard on hairpin on fastleave on root_block on learning off "
     "flood off mcast_flood off bcast_flood off mcast_to_unicast on neigh_suppress on vlan_tunnel on isolated on "
     "locked on".split(), ("[{nla_len=5, nla_type=IFLA_BRPORT_LOCKED}, 1]", "[{nla_len=6, nla_type=IFLA_BRPORT_PRIORITY}, 10]")),
    ("ip link set dev veth0 type bridge_slave cost 9 priority 7 learning off mcast_router 0 backup_port veth1".split(), (
        # ip sends the kind without its NUL and IFLA_INFO_SLAVE_DATA without IFLA_INFO_SLAVE_KIND: all hex
        '[{nla_len=16, nla_type=IFLA_INFO_KIND}, "bridge_slave"...], [{nla_len=44, nla_type=IFLA_INFO_SLAVE_DATA}, "',
    )),
    ("ip link add br1 type bridge stp_state 1 forward_delay 400 hello_time 300 max_age 1000 ageing_time 1000 "
     "priority 5 vlan_protocol 802.1ad group_fwd_mask 8 mcast_snooping 0 nf_call_iptables 1".split(), (
        "[{nla_len=8, nla_type=IFLA_BR_FORWARD_DELAY}, 400 /* 4.00 s */]",
        "[{nla_len=6, nla_type=IFLA_BR_VLAN_PROTOCOL}, htons(ETH_P_8021AD)]",
    )),
    ("bridge mdb add dev br0 port veth0 grp 232.1.1.1 src 10.0.0.1 permanent".split(), ("nlmsg_type=RTM_NEWMDB",)),
    ("bridge fdb add 02:00:00:00:00:01 dev veth0 master static".split(), (
        "{ndm_family=AF_BRIDGE, ndm_ifindex=if_nametoindex(\"veth0\"), ndm_state=NUD_REACHABLE|NUD_NOARP, "
        "ndm_flags=NTF_MASTER, ",
    )),
    (["bridge", "-d", "vlan", "show"], ("nlmsg_type=RTM_GETVLAN", "{family=AF_BRIDGE, data=")),  # strace: generic
    (["ip", "-d", "link", "show", "br0"], (
        "[{nla_len=11, nla_type=IFLA_INFO_KIND}, \"bridge\"]", "[{nla_len=5, nla_type=IFLA_BR_MCAST_ROUTER}, 1]",
    )),
    (["dcb", "ets", "show", "dev", "veth0"], (
        "{dcb_family=AF_UNSPEC, cmd=DCB_CMD_IEEE_GET}, [{nla_len=10, nla_type=DCB_ATTR_IFNAME}, "
        "\"\\x76\\x65\\x74\\x68\\x30\\x00\"]",
    )),
    (["dcb", "dcbx", "set", "dev", "veth0", "host"], (
        "{dcb_family=AF_UNSPEC, cmd=DCB_CMD_SDCBX}, [[{nla_len=10, nla_type=DCB_ATTR_IFNAME}, ",
        "[{nla_len=5, nla_type=DCB_ATTR_DCBX}, \"\\x01\"]]",
    )),
]


@pytest.mark.parametrize(("cmd", "expected"), _COMMANDS, ids=["_".join(cmd) for cmd, _ in _COMMANDS])
def test_bridge_commands(cmd: list[str], expected: tuple[str, ...], tmp_path: Path, bridge_ready: None) -> None:
    """bridge/dcb/ip commands: MDB dumps and requests, bridge IFLA_AF_SPEC and IFLA_PROTINFO requests, DCB."""
    text = _compare(cmd, tmp_path)
    for piece in expected:
        assert piece in text, piece


@pytest.mark.parametrize("flags", [("-s", "1000"), (), ("-X", "verbose", "-s", "1000"), ("-X", "raw")],
                         ids=["s1000", "default", "Xverbose", "Xraw"])
def test_crafted_bridge_messages(flags: tuple[str, ...], programs: dict[str, Path], tmp_path: Path) -> None:
    """Every IFLA_BRIDGE_*, MDBA_* and DCB form, short and unknown ones included, and their NLMSG_ERROR echoes."""
    text = _compare([str(programs["netlink_bridge"])], tmp_path, setup="", flags=flags)
    if flags == ("-s", "1000"):
        for piece in (
            "[{nla_len=6, nla_type=IFLA_BRIDGE_FLAGS}, BRIDGE_FLAGS_SELF|0x10]",
            "[{nla_len=6, nla_type=IFLA_BRIDGE_MODE}, BRIDGE_MODE_UNDEF]",
            "[{nla_len=6, nla_type=IFLA_BRIDGE_MODE}, 0x7 /* BRIDGE_MODE_??? */]",
            "{flags=BRIDGE_VLAN_INFO_PVID|BRIDGE_VLAN_INFO_UNTAGGED|0x100, vid=10}, \"\\x01\\x02\\x03\\x00\"]",
            "[{nla_len=6, nla_type=IFLA_BRIDGE_VLAN_INFO}, \"\\x06\\x01\"]",
            "[{nla_len=6, nla_type=IFLA_BRIDGE_VLAN_TUNNEL_FLAGS}, BRIDGE_VLAN_INFO_RANGE_BEGIN]",
            "[{nla_len=8, nla_type=IFLA_BRIDGE_MRP}, \"\\x04\\x03\\x02\\x01\"]",
            "addr={u=inet_addr(\"239.1.2.3\"), proto=htons(AF_INET)}",
            "addr={inet_pton(AF_INET6, \"ff0e::7\", &u), proto=htons(AF_INET6)}",
            "[{nla_len=8, nla_type=MDBA_MDB_EATTR_TIMER}, 2500 /* 25.00 s */]",
            "[{nla_len=8, nla_type=MDBA_MDB_ENTRY_INFO}, \"\\xef\\x01\\x02\\x03\"]",
            "[{nla_len=5, nla_type=MDBA_ROUTER_PATTR_TYPE}, 0x9 /* MDB_RTR_TYPE_??? */]",
            "[{nla_len=6, nla_type=MDBA_ROUTER_PORT}, \"\\x01\\x00\"]",
            "{family=AF_BRIDGE, ...}",
            "{dcb_family=AF_UNSPEC, cmd=DCB_CMD_SSTATE}, [[{nla_len=7, nla_type=DCB_ATTR_IFNAME}, \"\\x6c\\x6f\\x00\"]",
            "cmd=0x4d /* DCB_CMD_??? */",
        ):
            assert piece in text, piece
    elif "verbose" in flags:
        assert "nla_type=0x8000 /* NLA_F_NESTED */|0x1a /* IFLA_AF_SPEC */" in text
        assert "error=-95 /* -EOPNOTSUPP */" in text
