"""tc actions (tcamsg), link statistics (if_stats_msg), cache reports and VF/port attributes against strace 6.1.

Same harness as test_netlink.py (imported, not copied): each case runs strace
and pytrace in fresh network namespaces on real iproute2 commands, and on
tests/programs/netlink_rtnl_more.c for what no command on this machine sends
(SR-IOV VF info, port profiles, multicast routing cache reports, bond and
MPLS statistics), then compares the netlink syscall lines.

This kernel builds in one tc action (mirred; gact and the others are modules
that cannot be loaded), so the successful ``tc actions`` commands use mirred
and the gact ones are the requests the kernel refuses (``status``).  strace
reads the action table as a string (see decode/netlink_tc_action.py), which
embeds the action's install/last-use ages (struct tcf_t, TCA_MIRRED_TM): with
``-xx`` these are fixed-width and blanked.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import decode
from test_netlink import _compare, _trace

# TCA_MIRRED_TM (nla_len 36, type 1) inside an -xx string: struct tcf_t, four jiffies ages.
_TCF_T = re.compile(r"(\\x24\\x00\\x01\\x00)(?:\\x[0-9a-f]{2}){32}")


def _require(tool: str) -> None:
    if shutil.which(tool) is None:
        pytest.fail(f"{tool} is required for this test (iproute2)")


def _compare_status(cmd: list[str], tmp_path: Path, setup: str = "", flags: tuple[str, ...] = (),
                    status: int = 0) -> str:
    """test_netlink._compare for commands that end with ``status``, with struct tcf_t blanked."""
    ours = _TCF_T.sub(r"\1TCF_T", _trace("pytrace", cmd, tmp_path, True, setup, flags, status))
    theirs = _TCF_T.sub(r"\1TCF_T", _trace("strace", cmd, tmp_path, True, setup, flags, status))
    if ours != theirs:
        diff = "\n".join(difflib.unified_diff(theirs.splitlines(), ours.splitlines(), "strace", "pytrace",
                                              lineterm=""))
        pytest.fail(f"netlink output differs for {cmd}:\n{diff[:6000]}")
    assert "nlmsg_len=" in ours, ours[:2000]
    return ours


_MIRRED = "tc actions add action mirred egress mirror dev lo index 7 cookie 0123456789abcdef"


@pytest.mark.parametrize(("cmd", "status"), [
    (["tc", "actions", "add", "action", "mirred", "egress", "redirect", "dev", "lo", "index", "5"], 0),
    (["tc", "actions", "ls", "action", "mirred"], 0),
    (["tc", "-s", "actions", "ls", "action", "mirred"], 0),
    (["tc", "actions", "get", "action", "mirred", "index", "7"], 0),
    (["tc", "actions", "del", "action", "mirred", "index", "7"], 0),
    (["tc", "actions", "flush", "action", "mirred"], 0),
    (["tc", "actions", "add", "action", "gact", "drop", "index", "5"], 255),
    (["tc", "actions", "ls", "action", "gact"], 0),
    (["tc", "actions", "flush", "action", "gact"], 1),
], ids=lambda v: "_".join(v) if isinstance(v, list) else str(v))
@pytest.mark.parametrize("flags", [(), ("-xx", "-s", "1000")], ids=["default", "xx"])
def test_tc_actions(cmd: list[str], status: int, flags: tuple[str, ...], tmp_path: Path) -> None:
    """RTM_{NEW,DEL,GET}ACTION: {tca_family=...}, the TCA_ROOT_* level named TCA_ACT_* as strace does.

    The refused gact requests also cover NLMSG_ERROR with extended ACK attributes after the request.
    """
    _require("tc")
    text = _compare_status(cmd, tmp_path, setup=_MIRRED, flags=flags, status=status)
    assert "{tca_family=AF_UNSPEC}" in text or cmd[2] == "ls"  # a dump request without attributes
    if "mirred" in cmd and ("ls" in cmd or "get" in cmd):
        assert "nla_type=TCA_ACT_INDEX}, " in text or "get" in cmd  # TCA_ROOT_COUNT
        assert "nla_type=TCA_ACT_KIND}, " in text  # TCA_ROOT_TAB, read as a string
    if status:
        assert "nla_type=NLMSGERR_ATTR_MSG}, " in text and "[{error=-E" in text


_BRIDGE = ("ip link add v0 type veth peer name v1 && ip link add br0 type bridge mcast_stats_enabled 1"
           " vlan_stats_enabled 1 && ip link set v0 master br0")


@pytest.mark.parametrize("cmd", [
    ["ip", "stats", "show"],
    ["ip", "stats", "show", "dev", "lo", "group", "link"],
    ["ip", "stats", "show", "group", "offload"],
    ["ip", "link", "xstats", "type", "bridge"],
    ["ip", "link", "xstats", "type", "bridge_slave"],
    ["ip", "link", "afstats"],
], ids=lambda c: "_".join(c))
def test_ip_stats(cmd: list[str], tmp_path: Path) -> None:
    """RTM_{GET,NEW}STATS: if_stats_msg, IFLA_STATS_LINK_64, bridge multicast/STP xstats, offload stats.

    The links stay down, so every counter is the same in both runs.
    """
    _require("ip")
    probe = subprocess.run(["unshare", "-n", "sh", "-c", _BRIDGE], capture_output=True, timeout=30, check=False)
    assert probe.returncode == 0, f"veth/bridge links are required: {decode(probe.stderr)}"
    text = _compare(cmd, tmp_path, setup=_BRIDGE, flags=("-s", "1000"))
    assert "nlmsg_type=RTM_GETSTATS" in text and "{family=AF_UNSPEC, ifindex=" in text
    if cmd == ["ip", "stats", "show"]:
        for expected in ("filter_mask=1<<IFLA_STATS_UNSPEC|1<<IFLA_STATS_LINK_64|", "nla_type=IFLA_STATS_LINK_64}, {",
                         "nla_type=BRIDGE_XSTATS_MCAST}, {igmp_v1queries=[[BR_MCAST_DIR_RX]=0, [BR_MCAST_DIR_TX]=0]",
                         "nla_type=BRIDGE_XSTATS_STP}, {transition_blk=0, "):
            assert expected in text, expected


_LINK_KINDS = ("ip link add v0 type veth peer name v1 && ip link add br0 type bridge && ip link set v0 master br0"
               " && ip link add x0 type ifb && ip link add vx0 type vxlan id 5 dstport 4789"
               " && ip link add link v1 name mv0 type macvlan && ip link add link v1 name mt0 type macvtap"
               " && ip tuntap add tap0 mode tap")


def test_link_kinds(tmp_path: Path) -> None:
    """``ip -d -s -s link show`` over every link type this kernel can create (veth, bridge, ifb, vxlan, macvlan,
    macvtap, tap): IFLA_STATS/STATS64, IFLA_LINKINFO of each kind (hex where strace 6.1 has no decoder)."""
    _require("ip")
    probe = subprocess.run(["unshare", "-n", "sh", "-c", _LINK_KINDS], capture_output=True, timeout=30, check=False)
    assert probe.returncode == 0, f"the link types are required: {decode(probe.stderr)}"
    text = _compare(["ip", "-d", "-s", "-s", "link", "show"], tmp_path, setup=_LINK_KINDS, flags=("-s", "1000"))
    for expected in ('[{nla_len=10, nla_type=IFLA_INFO_KIND}, "vxlan"]', '[{nla_len=12, nla_type=IFLA_INFO_KIND}, "macvtap"]',
                     "nla_type=IFLA_TUN_TYPE}, IFF_TAP]", "nla_type=IFLA_STATS64}, {rx_packets=0, "):
        assert expected in text, expected


@pytest.mark.parametrize("flags", [("-s", "1000"), ("-X", "verbose", "-s", "1000"), ("-xx",), ()],
                         ids=["s1000", "Xverbose", "xx", "default"])
def test_crafted_messages(programs: dict[str, Path], flags: tuple[str, ...], tmp_path: Path) -> None:
    """RTM_NEWCACHEREPORT, IFLA_VFINFO_LIST/IFLA_VF_PORTS/IFLA_PORT_SELF/IFLA_NET_NS_FD, short IFLA_STATS64,
    if_stats_msg padding and bond/bridge-VLAN/MPLS statistics, tcamsg flags: requests and the kernel's replies."""
    text = _compare([str(programs["netlink_rtnl_more"])], tmp_path, flags=flags)
    if flags != ("-s", "1000"):
        return
    for expected in (
        "{rtgen_family=RTNL_FAMILY_IPMR}, [[{nla_len=5, nla_type=IPMRA_CREPORT_MSGTYPE}, IGMPMSG_NOCACHE]",
        '[{nla_len=20, nla_type=IP6MRA_CREPORT_SRC_ADDR}, inet_pton(AF_INET6, "2001:db8::1")]',
        "{rtgen_family=0xc8 /* RTNL_FAMILY_??? */}",
        "[{nla_len=40, nla_type=IFLA_VF_MAC}, {vf=1, mac=02:00:00:00:00:07:00:",
        "{vf=1, link_state=0x7 /* IFLA_VF_LINK_STATE_??? */}",
        "[{nla_len=20, nla_type=IFLA_VF_IB_NODE_GUID}, {vf=2, guid=",  # the value looks like an address: blanked
        "{vf=1, vlan=5, qos=2, vlan_proto=htons(ETH_P_8021AD)}",
        "{vsi_mgr_id=1, vsi_type_id=\"\\x0a\\x0b\\x0c\", vsi_type_version=4, pad=\"\\x00\\x00\\x09\"}",
        "[{nla_len=8, nla_type=0x8 /* IFLA_VF_PORT_??? */}, ",
        "tx_compressed=122, rx_nohandler=123}]",
        "{family=AF_UNSPEC, pad1=0x1, pad2=0x2, ifindex=if_nametoindex(\"lo\"), filter_mask=1<<IFLA_STATS_LINK_64|0x40}",
        "flags=BRIDGE_VLAN_INFO_PVID|BRIDGE_VLAN_INFO_BRENTRY, pad2=0x7}, \"\\xef\\xbe\\xad\\xde",
        "[{nla_len=12, nla_type=0xc /* BOND_XSTATS_??? */}, ",
        "[{nla_len=76, nla_type=MPLS_STATS_LINK}, {rx_packets=0, tx_packets=1, ",
        "{family=AF_UNSPEC, ...}",
        "[{nla_len=8, nla_type=TCA_ACT_FLAGS}, TCA_ACT_FLAGS_NO_PERCPU_STATS|0x8]",
        "[{nla_len=8, nla_type=TCA_ACT_USED_HW_STATS}, 0x8 /* TCA_ACT_HW_STATS_??? */]",
    ):
        assert expected in text, expected


_VF_SETTINGS = ["vlan", "5", "qos", "2", "proto", "802.1ad", "rate", "100", "spoofchk", "on", "trust", "on", "state",
                "disable", "max_tx_rate", "50", "min_tx_rate", "10", "query_rss", "on", "node_guid",
                "00:11:22:33:44:55:66:77", "port_guid", "01:02:03:04:05:06:07:08"]


@pytest.mark.parametrize("settings", [["mac", "00:11:22:33:44:55"], _VF_SETTINGS], ids=["mac", "many"])
def test_ip_link_set_vf(settings: list[str], tmp_path: Path) -> None:
    """``ip link set DEV vf N ...``: a real IFLA_VFINFO_LIST request (a veth has no VFs: the kernel refuses it)."""
    _require("ip")
    text = _compare_status(["ip", "link", "set", "v0", "vf", "1", *settings], tmp_path,
                           setup="ip link add v0 type veth peer name v1", flags=("-s", "1000"), status=2)
    expected = ("[{nla_len=40, nla_type=IFLA_VF_MAC}, {vf=1, mac=00:11:22:33:44:55:00:" if settings[0] == "mac" else
                "{vf=1, vlan=5, qos=2, vlan_proto=htons(ETH_P_8021AD)}")
    assert expected in text, expected
