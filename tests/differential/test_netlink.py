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
    (re.compile(r"<net:\[\d+\]>"), "<net:[NSINODE]>"),  # -y: each run's unshare -n makes a new netns
    (re.compile(r"\bnlmsg_seq=\d+"), "nlmsg_seq=SEQ"),
    (re.compile(r"\b(cstamp|tstamp)=\d+"), r"\1=TIME"),
    (re.compile(r"\b(idiag_inode|udiag_ino)=\d+"), r"\1=INODE"),
    (re.compile(r"\b(idiag_cookie|udiag_cookie)=\[\d+, \d+\]"), r"\1=COOKIE"),
    # random per link: veth/bridge MAC addresses (also in bridge ids) and IPv6 neighbour reachable_time
    (re.compile(r"(nla_type=IFLA_(?:ADDRESS|BROADCAST|PERM_ADDRESS)\}, )[0-9a-f:]+"), r"\1MAC"),
    (re.compile(r"\baddr=[0-9a-f]{2}(?::[0-9a-f]{2}){5}"), "addr=MAC"),
    (re.compile(r"\breachable_time=\d+"), "reachable_time=TIME"),
    (re.compile(r"\b(ndm_confirmed|ndm_used|ndm_updated)=\d+"), r"\1=TIME"),
    (re.compile(r"\b(pdiag_ino|ndiag_ino|ndiag_portid|ndiag_dst_portid)=\d+"), r"\1=ID"),
    (re.compile(r"\b(pdiag_cookie|ndiag_cookie)=\[\d+, \d+\]"), r"\1=COOKIE"),
    # neighbour tables are shared by all namespaces: their statistics and flush times move between the runs
    (re.compile(r"(nla_type=NDTPA_REACHABLE_TIME\}, )\d+"), r"\1TIME"),
    (re.compile(r"\b(ndtc_last_flush|ndtc_last_rand)=\d+"), r"\1=TIME"),
    (re.compile(r"\b(ndts_\w+)=\d+"), r"\1=N"),
]


def _trace(tracer: str, cmd: list[str], tmp: Path, lo_up: bool, setup: str = "", flags: tuple[str, ...] = (),
           status: int = 0) -> str:
    """Trace ``cmd`` in a new network namespace and return the netlink syscall lines, normalised.

    ``status``: the exit status ``cmd`` is expected to end with (non-zero for requests the kernel refuses).
    """
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required for the netlink tests (util-linux / iproute2)")
    out = tmp / f"{tracer}.trace"
    inner = [*tracer_command(tracer), *flags, "-e", "trace=%network", "-o", str(out), *cmd]
    script = ("ip link set lo up && " if lo_up else "") + (f"{setup} && " if setup else "") + 'exec "$@"'
    proc = subprocess.run(["unshare", "-n", "sh", "-c", script, "sh", *inner], capture_output=True,
                          env=tracer_env(), timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert proc.returncode == status, decode(proc.stderr)
    lines = [line for line in normalise(out.read_text()).splitlines() if _NETLINK_CALLS.match(line)]
    text = "\n".join(lines)
    for pattern, repl in _VOLATILE:
        text = pattern.sub(repl, text)
    return text


def _sort_messages(text: str) -> str:
    """Sort the messages of each received dump: netlink_diag lists sockets in port-id hash order, random per run."""
    lines = []
    for line in text.splitlines():
        start, end = line.find("iov_base=[[{nlmsg_len="), line.find("], iov_len=")
        if start >= 0 and end > start:
            start += len("iov_base=[")
            msgs = line[start:end].split(", [{nlmsg_len=")
            msgs = [msgs[0]] + ["[{nlmsg_len=" + m for m in msgs[1:]]
            line = line[:start] + ", ".join(sorted(msgs)) + line[end:]
        lines.append(line)
    return "\n".join(lines)


def _compare(cmd: list[str], tmp_path: Path, lo_up: bool = True, setup: str = "",
             flags: tuple[str, ...] = (), sort_messages: bool = False) -> str:
    ours = _trace("pytrace", cmd, tmp_path, lo_up, setup, flags)
    theirs = _trace("strace", cmd, tmp_path, lo_up, setup, flags)
    if sort_messages:
        ours, theirs = _sort_messages(ours), _sort_messages(theirs)
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


_RULES = " && ".join((
    "ip rule add from 10.0.0.0/8 to 192.168.1.0/24 table 100 uidrange 1000-2000 sport 100-200 dport 53"
    " ipproto tcp fwmark 5/7 prio 10 iif lo oif lo tos 0x10",
    "ip rule add not from 1.2.3.4 goto 10 prio 5",
    "ip rule add prohibit from 5.5.5.5 prio 20 suppress_ifgroup 3 suppress_prefixlength 8 realms 3/4 proto static",
    "ip -6 rule add from 2001:db8::/32 table 200",
))


@pytest.mark.parametrize("hexstr", ["non-ascii-chars", "non-ascii", "all"])
def test_strings_in_hex(hexstr: str, tmp_path: Path) -> None:
    """--strings-in-hex=VALUE on string attributes (decode_nla_str): non-ascii-chars escapes only what it must."""
    text = _compare(["ip", "link", "show", "lo"], tmp_path, flags=(f"--strings-in-hex={hexstr}",))
    if hexstr == "non-ascii-chars":  # the trailing NUL is dropped, not hex-dumped as under -x
        assert 'nla_type=IFLA_IFNAME}, "lo"]' in text, text[:2000]


@pytest.mark.parametrize("cmd", [["ip", "rule", "show"], ["ip", "-6", "rule"]], ids=lambda c: "_".join(c))
def test_rules(cmd: list[str], tmp_path: Path) -> None:
    """RTM_*RULE: fib_rule_hdr and the FRA_* attributes of rules covering most selectors."""
    text = _compare(cmd, tmp_path, setup=_RULES, flags=("-s", "256"))
    assert "action=FR_ACT_TO_TBL" in text
    if "-6" in cmd:
        assert 'nla_type=FRA_SRC}, inet_pton(AF_INET6, "2001:db8::")]' in text
    else:
        for expected in ("[{nla_len=12, nla_type=FRA_UID_RANGE}, {start=1000, end=2000}]",
                         "[{nla_len=5, nla_type=FRA_IP_PROTO}, IPPROTO_TCP]", "flags=FIB_RULE_INVERT",
                         "[{nla_len=8, nla_type=FRA_TABLE}, RT_TABLE_MAIN]", "action=FR_ACT_PROHIBIT",
                         '[{nla_len=7, nla_type=FRA_IIFNAME}, "lo"]'):
            assert expected in text, expected


_LINKS = ("ip link add v0 type veth peer name v1 && ip link add br0 type bridge && ip link set v0 master br0"
          " && ip addr add 192.0.2.1/24 dev v1")


@pytest.mark.parametrize("cmd", [
    ["ip", "-d", "link", "show"],
    ["ip", "-6", "addr", "show", "lo"],
    ["bridge", "-d", "link", "show"],
], ids=lambda c: "_".join(c))
def test_link_nested_attributes(cmd: list[str], tmp_path: Path) -> None:
    """IFLA_AF_SPEC, IFLA_LINKINFO (veth, bridge data, bridge port slave data), IFLA_XDP, IFLA_PROTINFO.

    Links are a veth pair (one end a bridge port) and a bridge, made inside the test's namespace;
    -s 1000 keeps strace from cutting the attribute lists (32 elements by default).
    """
    if shutil.which(cmd[0]) is None:
        pytest.fail(f"{cmd[0]} is required for this test (iproute2)")
    probe = subprocess.run(["unshare", "-n", "sh", "-c", _LINKS], capture_output=True, timeout=30, check=False)
    assert probe.returncode == 0, f"veth/bridge links are required: {decode(probe.stderr)}"
    text = _compare(cmd, tmp_path, setup=_LINKS, flags=("-s", "1000"))
    if cmd[0] == "bridge":
        assert "[{nla_len=5, nla_type=IFLA_BRPORT_STATE}, 0]" in text
    elif "-d" in cmd:
        for expected in ("[{nla_len=5, nla_type=IFLA_INET6_ADDR_GEN_MODE}, IN6_ADDR_GEN_MODE_EUI64]",
                         "[IPV4_DEVCONF_FORWARDING-1]=0", "[IPSTATS_MIB_NUM]=", "[ICMP6_MIB_INMSGS]=",
                         "[{nla_len=5, nla_type=IFLA_XDP_ATTACHED}, XDP_ATTACHED_NONE]",
                         '[{nla_len=9, nla_type=IFLA_INFO_KIND}, "veth"]', "nla_type=IFLA_BR_MULTI_BOOLOPT",
                         '[{nla_len=11, nla_type=IFLA_INFO_SLAVE_KIND}, "bridge"]',
                         "[{nla_len=8, nla_type=IFLA_BR_HELLO_TIME}, 200 /* 2.00 s */]"):
            assert expected in text, expected


_ROUTES = " && ".join((
    "ip addr add 192.0.2.1/24 dev lo",
    "ip route add 10.1.0.0/16 via 192.0.2.2 dev lo mtu lock 1400 advmss 1300 window 1000 rtt 10 initcwnd 5"
    " congctl cubic hoplimit 9",
    "ip route add 10.2.0.0/16 nexthop via 203.0.113.2 dev lo weight 2 onlink"
    " nexthop via 203.0.113.3 dev lo weight 3 onlink",
    "ip route add 10.3.0.0/16 encap ip id 5 dst 1.2.3.4 dev lo",
    "ip -6 route add 2001:db8:1::/48 dev lo mtu 1300",
    "ip neigh add 192.0.2.9 lladdr 02:00:00:00:00:09 dev lo nud permanent",
    "ip neigh add 192.0.2.10 dev lo nud noarp lladdr 02:00:00:00:00:0a protocol 6",
))


@pytest.mark.parametrize("cmd", [
    ["ip", "route", "show"],
    ["ip", "-6", "route", "show"],
    ["ip", "neigh", "show"],
], ids=lambda c: "_".join(c))
def test_route_neigh_attributes(cmd: list[str], tmp_path: Path) -> None:
    """RTA_METRICS, RTA_MULTIPATH (rtnexthop + nested RTA_*), RTA_ENCAP_TYPE, NDA_PROTOCOL, on lo only."""
    text = _compare(cmd, tmp_path, setup=_ROUTES, flags=("-s", "1000"))
    if cmd[1] == "route":
        for expected in ("[{nla_len=8, nla_type=RTAX_LOCK}, 4]", "[{nla_len=10, nla_type=RTAX_CC_ALGO}, \"cubic\"]",
                         "{rtnh_len=16, rtnh_flags=RTNH_F_ONLINK, rtnh_hops=1, rtnh_ifindex=if_nametoindex(\"lo\")}",
                         "[{nla_len=6, nla_type=RTA_ENCAP_TYPE}, LWTUNNEL_ENCAP_IP]"):
            assert expected in text, expected
    elif cmd[1] == "-6":
        assert "[{nla_len=8, nla_type=RTAX_MTU}, 1300]" in text
    else:
        assert "[{nla_len=5, nla_type=NDA_PROTOCOL}, IPPROTO_TCP]" in text


def test_sock_diag_meminfo(tmp_path: Path) -> None:
    """INET_DIAG_SKMEMINFO (``ss -m``): ``[[SK_MEMINFO_RMEM_ALLOC]=0, ...]`` of a listening socket.

    The listener's parent returns only after listen(), so the socket exists before ss runs; the child
    keeps it open a few seconds (the namespace goes with it), away from the output pipes the test waits on.
    """
    listener = ("python3 -c 'import os, socket, time; s = socket.socket(); s.bind((\"127.0.0.1\", 5555)); "
                "s.listen(); os.fork() or time.sleep(10)' </dev/null >/dev/null 2>&1")
    text = _compare(["ss", "-ltm"], tmp_path, setup=listener, flags=("-s", "1000"))
    assert "[[SK_MEMINFO_RMEM_ALLOC]=0, [SK_MEMINFO_RCVBUF]=" in text


# A packet socket bound to lo with a classic BPF filter (SO_ATTACH_FILTER, 26: Python's socket module lacks
# the name), kept open by a child after the parent returns.
_PACKET_SOCKET = """
import ctypes, os, socket, struct, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("lo", 0))
insns = struct.pack("<HBBI", 0x28, 0, 0, 12) + struct.pack("<HBBI", 0x6, 0, 0, 0xFFFF)
prog = (ctypes.c_uint8 * len(insns)).from_buffer_copy(insns)
s.setsockopt(socket.SOL_SOCKET, 26, struct.pack("<HxxxxxxQ", 2, ctypes.addressof(prog)))
os.fork() or time.sleep(10)
"""


@pytest.mark.parametrize("cmd", [["ss", "-0a"], ["ss", "-a", "-A", "netlink"]], ids=lambda c: "_".join(c))
def test_packet_netlink_diag(cmd: list[str], tmp_path: Path) -> None:
    """packet_diag (info, uid, meminfo, the filter's instructions under -v) and netlink_diag messages."""
    script = tmp_path / "packet_socket.py"
    script.write_text(_PACKET_SOCKET)
    setup = f"python3 {script} </dev/null >/dev/null 2>&1"
    text = _compare(cmd, tmp_path, setup=setup, flags=("-v", "-s", "1000"), sort_messages=True)
    if cmd[1] == "-0a":
        for expected in ("pdiag_show=PACKET_SHOW_INFO|", "pdiag_type=SOCK_RAW, pdiag_num=ETH_P_ALL",
                         "pdi_version=TPACKET_V1", "[{nla_len=8, nla_type=PACKET_DIAG_UID}, 0]",
                         "[BPF_STMT(BPF_LD|BPF_H|BPF_ABS, 0xc), BPF_STMT(BPF_RET|BPF_K, 0xffff)]"):
            assert expected in text, expected
    else:
        assert "{sdiag_family=AF_NETLINK, sdiag_protocol=NDIAG_PROTO_ALL, ndiag_ino=ID, " in text
        assert "ndiag_protocol=NETLINK_ROUTE" in text


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


_QDISCS = " && ".join((
    "tc qdisc add dev lo root handle 1: stab overhead 20 linklayer atm mtu 2048 tsize 16 htb default 10",
    "tc class add dev lo parent 1: classid 1:10 htb rate 1mbit",
    "tc qdisc add dev lo parent 1:10 handle 10: pfifo limit 50",
    "tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip dst 10.0.0.1/32 flowid 1:10",
    "tc qdisc add dev lo ingress",
))


@pytest.mark.parametrize("cmd", [
    ["tc", "qdisc", "show", "dev", "lo"],
    ["tc", "-s", "qdisc"],
    ["tc", "-s", "class", "show", "dev", "lo"],
    ["tc", "filter", "show", "dev", "lo"],
    ["tc", "chain", "show", "dev", "lo"],
], ids=lambda c: "_".join(c))
def test_tc(cmd: list[str], tmp_path: Path) -> None:
    """RTM_*QDISC/TCLASS/TFILTER/CHAIN: tcmsg, TCA_KIND, TCA_STATS, TCA_STATS2 (gnet stats), TCA_STAB, TCA_CHAIN."""
    if shutil.which("tc") is None:
        pytest.fail("tc is required for this test (iproute2)")
    text = _compare(cmd, tmp_path, setup=_QDISCS, flags=("-s", "1000"))
    assert "{tcm_family=AF_UNSPEC, tcm_ifindex=if_nametoindex(\"lo\"), tcm_handle=" in text
    assert '[{nla_len=8, nla_type=TCA_KIND}, "htb"]' in text or cmd[1] in ("filter", "chain")
    if "-s" in cmd:
        for expected in ("nla_type=TCA_STATS_BASIC}, {bytes=0, packets=0}]", "nla_type=TCA_STATS}, {bytes=0, ",
                         "nla_type=TCA_STATS_QUEUE}, {qlen=0, backlog=0, drops=0, requeues=0, overlimits=0}]"):
            assert expected in text, expected
    if cmd[1] in ("filter", "chain"):
        assert "[{nla_len=8, nla_type=TCA_CHAIN}, 0]" in text
    if cmd[1] == "qdisc":
        assert ("[{nla_len=28, nla_type=TCA_STAB_BASE}, {cell_log=8, size_log=0, cell_align=-1, overhead=20, "
                "linklayer=2, mpu=0, mtu=2048, tsize=16}]") in text


@pytest.mark.parametrize("cmd", [
    ["ip", "netconf"],
    ["ip", "ntable", "show"],
    ["ip", "addrlabel", "list"],
    ["ip", "netns", "list-id"],
], ids=lambda c: "_".join(c))
def test_netconf_ntable_addrlabel_nsid(cmd: list[str], tmp_path: Path) -> None:
    """netconfmsg (NETCONFA_*), ndtmsg (NDTA_* with ndt_config, ndt_stats, nested NDTPA_*), ifaddrlblmsg, nsid."""
    text = _compare(cmd, tmp_path, flags=("-s", "1000"))
    expected = {
        "netconf": "[{nla_len=8, nla_type=NETCONFA_IFINDEX}, if_nametoindex(\"lo\")]",
        "ntable": '[{nla_len=14, nla_type=NDTA_NAME}, "arp_cache"]',
        "addrlabel": "{ifal_family=AF_INET6, ifal_prefixlen=",
        "netns": "{rtgen_family=AF_UNSPEC}",
    }[cmd[1]]
    assert expected in text, expected


# RTM_GETNSID (90) requests for the initial namespace by pid (NETNSA_PID, 2), for its own by fd (NETNSA_FD, 3): the
# kernel answers RTM_NEWNSID with NETNSA_NSID -1 (not assigned) or an error; ip has no command sending these.
_NSID_REQUESTS = """
import os, socket, struct
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
s.connect((0, 0))  # send(), not sendto(): Python leaves sockaddr_nl's nl_pad uninitialised
fd = os.open("/proc/self/ns/net", os.O_RDONLY)
for seq, (kind, value) in enumerate(((2, 1), (3, fd)), 1):
    s.send(struct.pack("<IHHIIBxxxHHI", 28, 90, 1, seq, 0, 0, 8, kind, value))
    s.recv(4096)
"""


@pytest.mark.parametrize("flags", [(), ("-y",)], ids=["default", "decode-fds"])
def test_nsid(flags: tuple[str, ...], tmp_path: Path) -> None:
    """RTM_GETNSID/RTM_NEWNSID: rtgenmsg and the NETNSA_* attributes; NETNSA_FD is printfd'd (-y: its path)."""
    script = tmp_path / "nsid.py"
    script.write_text(_NSID_REQUESTS)
    text = _compare(["python3", str(script)], tmp_path, flags=flags)
    for expected in ("{rtgen_family=AF_UNSPEC}, [{nla_len=8, nla_type=NETNSA_PID}, 1]]",
                     "nlmsg_type=RTM_NEWNSID", "[{nla_len=8, nla_type=NETNSA_NSID}, -1]"):
        assert expected in text, expected
    if flags:
        assert "nla_type=NETNSA_FD}, 4<net:[NSINODE]>]]" in text, text


_NEXTHOPS = " && ".join((
    "ip addr add 192.0.2.1/24 dev lo",
    "ip nexthop add id 1 via 192.0.2.2 dev lo",
    "ip nexthop add id 5 via 192.0.2.5 dev lo",
    "ip nexthop add id 2 blackhole",
    "ip nexthop add id 3 group 1/5,5",
    "ip nexthop add id 4 group 1 type resilient buckets 8 idle_timer 10",
    "ip -6 nexthop add id 6 dev lo",
))


def test_nexthop(tmp_path: Path) -> None:
    """RTM_*NEXTHOP: nhmsg, NHA_GATEWAY, NHA_GROUP (nexthop_grp array), NHA_RES_GROUP (clock_t attributes)."""
    text = _compare(["ip", "nexthop", "show"], tmp_path, setup=_NEXTHOPS, flags=("-s", "1000"))
    for expected in ("{nh_family=AF_INET, nh_scope=RT_SCOPE_UNIVERSE, nh_protocol=RTPROT_UNSPEC, nh_flags=0}",
                     '[{nla_len=8, nla_type=NHA_GATEWAY}, inet_addr("192.0.2.2")]',
                     "nla_type=NHA_GROUP}, [{id=1, weight=0}, {id=5, weight=4}]]",
                     "[{nla_len=8, nla_type=NHA_RES_GROUP_IDLE_TIMER}, 1000 /* 10.00 s */]"):
        assert expected in text, expected
