"""NETLINK_ROUTE payloads: ifinfomsg, ifaddrmsg, rtmsg, ndmsg, fib_rule_hdr, tcmsg, netconfmsg,
ndtmsg, ifaddrlblmsg, nsid (rtgenmsg), nhmsg and their attributes.

Mirrors strace's ``src/netlink_route.c``, ``rtnl_link.c``, ``rtnl_addr.c``,
``rtnl_route.c``, ``rtnl_neigh.c``, ``rtnl_rule.c``, ``rtnl_tc.c``, ``rtnl_netconf.c``,
``rtnl_neightbl.c``, ``rtnl_addrlabel.c``, ``rtnl_nsid.c`` and ``rtnl_nh.c`` (6.1).  Other
message types and attributes live in their own modules, which netlink.py registers into
this module's tables (``ROUTE``, ``IFLA``, ``AF_SPEC_BY_FAMILY``) when it first loads it: tcamsg (netlink_tc_action), if_stats_msg (netlink_stats), cache
reports (netlink_cachereport), IFLA_VFINFO_LIST/IFLA_VF_PORTS (netlink_link_vf), br_port_msg (MDB),
dcbmsg and AF_BRIDGE's IFLA_AF_SPEC (netlink_bridge).  Types
without a decoder print as ``{family=AF_..., data="..."}``, strace's generic form.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from pytrace.decode.format import addr, xlat
from pytrace.decode.nlattr import (
    NLMSG_DONE,
    Mem,
    decode_nlattr,
    hexstr,
    inet_addr,
    mac_text,
    more_comment,
    nla_be16,
    nla_be64,
    nla_fd,
    nla_fixed,
    nla_flags,
    nla_hwaddr,
    nla_ifindex,
    nla_indexed_array,
    nla_s32,
    nla_str,
    nla_struct,
    nla_u8,
    nla_u16,
    nla_u32,
    nla_u64,
    nla_uid,
    nla_x16,
    nla_x32,
    nla_xval,
    struct_fields,
    uint_array,
)
from pytrace.decode.nlattr import nested as _nested
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.decode.printer import Printer

    Table = tuple[tuple[int, str], ...]



def xval_nodflt(p: Printer, value: int, table: Table) -> str:
    """printxval with a NULL default: an unknown value is a bare hex number."""
    name = xlat(value, table)
    if name is not None:
        return p.xval(value, table, "")
    return f"{value:#x}" if value else "0"


def _hex(v: int) -> str:
    return f"{v:#x}" if v else "0"


def _ifindex(p: Printer, index: int) -> str:
    from pytrace.decode.inet import ifindex as print_ifindex

    return print_ifindex(p, index)


def _af(p: Printer, family: int) -> str:
    return p.xval(family, X.ADDRESS_FAMILIES, "AF_???")


# ---------------------------------------------------------------------------- links (rtnl_link.c)

_STATS_NAMES = ("rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors", "rx_dropped",
                "tx_dropped", "multicast", "collisions", "rx_length_errors", "rx_over_errors", "rx_crc_errors",
                "rx_frame_errors", "rx_fifo_errors", "rx_missed_errors", "tx_aborted_errors",
                "tx_carrier_errors", "tx_fifo_errors", "tx_heartbeat_errors", "tx_window_errors",
                "rx_compressed", "tx_compressed", "rx_nohandler")


def _link_stats(width: int, extra: tuple[str, ...]) -> Any:
    """decode_rtnl_link_stats{,64}: the whole structure, or up to tx_compressed when exactly that long."""
    names = _STATS_NAMES + extra
    def_size = width * len(names)
    min_size = width * 23
    code = "I" if width == 4 else "Q"

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        # rtnl_link_stats64 is also accepted up to rx_nohandler (24 fields) when exactly that long
        size = (def_size if length >= def_size else length if length in (min_size, min_size + width) else 0)
        if not size:
            return None
        raw = m.get(address, size)
        if raw is None:
            return addr(address)
        values = struct.unpack(f"<{size // width}{code}", raw)
        return "{" + ", ".join(f"{n}={v}" for n, v in zip(names, values, strict=False)) + "}"

    return decode


def _ifla_hwaddr(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    return nla_hwaddr(m, address, length)


# print_mac.c's hwaddr_sizes: the address length of each ARPHRD_* device type (255: the whole attribute).
_HWADDR_SIZES = {_t(X.ARP_HARDWARE_TYPES, n): size for n, size in (
    ("ARPHRD_NETROM", 7), ("ARPHRD_ETHER", 6), ("ARPHRD_AX25", 7), ("ARPHRD_IEEE802", 6), ("ARPHRD_ARCNET", 1),
    ("ARPHRD_DLCI", 2), ("ARPHRD_IEEE1394", 16), ("ARPHRD_EUI64", 8), ("ARPHRD_INFINIBAND", 20),
    ("ARPHRD_SLIP", 0), ("ARPHRD_ROSE", 5), ("ARPHRD_X25", 0), ("ARPHRD_CAN", 0), ("ARPHRD_MCTP", 1),
    ("ARPHRD_PPP", 0), ("ARPHRD_RAWHDLC", 0), ("ARPHRD_RAWIP", 0), ("ARPHRD_TUNNEL", 4), ("ARPHRD_TUNNEL6", 16),
    ("ARPHRD_LOOPBACK", 6), ("ARPHRD_LOCALTLK", 1), ("ARPHRD_FDDI", 6), ("ARPHRD_SIT", 4), ("ARPHRD_IPDDP", 0),
    ("ARPHRD_IPGRE", 4), ("ARPHRD_PIMREG", 0), ("ARPHRD_HIPPI", 6), ("ARPHRD_IRDA", 4), ("ARPHRD_IEEE80211", 6),
    ("ARPHRD_IEEE80211_PRISM", 6), ("ARPHRD_IEEE80211_RADIOTAP", 6), ("ARPHRD_IEEE802154", 8),
    ("ARPHRD_IEEE802154_MONITOR", 8), ("ARPHRD_PHONET", 1), ("ARPHRD_PHONET_PIPE", 1), ("ARPHRD_CAIF", 0),
    ("ARPHRD_IP6GRE", 16), ("ARPHRD_NETLINK", 0), ("ARPHRD_6LOWPAN", 8), ("ARPHRD_VSOCKMON", 0),
)}


def _ifla_hwaddr_family(m: Mem, address: int, length: int, family: Any) -> str | None:
    """decode_ifla_hwaddr: strace passes ifi_family where an ARPHRD_* type is expected, so the printed
    length follows the family read as a device type (AF_BRIDGE = ARPHRD_ARCNET: one byte)."""
    if length > 32:
        return None
    raw = m.get(address, length)
    if raw is None:
        return addr(address)
    return mac_text(m.p, raw, _HWADDR_SIZES.get(family, 255))


IFLA = {_t(X.RTNL_LINK_ATTRS, n): f for n, f in (
    ("IFLA_ADDRESS", _ifla_hwaddr_family), ("IFLA_BROADCAST", _ifla_hwaddr_family), ("IFLA_IFNAME", nla_str),
    ("IFLA_MTU", nla_u32), ("IFLA_LINK", nla_u32), ("IFLA_QDISC", nla_str), ("IFLA_STATS", _link_stats(4, ())),
    ("IFLA_MASTER", nla_u32), ("IFLA_TXQLEN", nla_u32),
    ("IFLA_MAP", nla_struct("<QQQHBB", ("mem_start", "mem_end", "base_addr", "irq", "dma", "port"),
                            frozenset(("mem_start", "mem_end", "base_addr")))),
    ("IFLA_WEIGHT", nla_u32), ("IFLA_OPERSTATE", nla_u8), ("IFLA_LINKMODE", nla_u8),
    ("IFLA_NET_NS_PID", nla_u32), ("IFLA_IFALIAS", nla_str), ("IFLA_NUM_VF", nla_u32),
    ("IFLA_STATS64", _link_stats(8, ("rx_otherhost_dropped",))), ("IFLA_GROUP", nla_u32),
    ("IFLA_EXT_MASK", nla_flags(X.RTNL_IFLA_EXT_FILTER_FLAGS, "RTEXT_FILTER_???", 4)),
    ("IFLA_PROMISCUITY", nla_u32), ("IFLA_NUM_TX_QUEUES", nla_u32), ("IFLA_NUM_RX_QUEUES", nla_u32),
    ("IFLA_CARRIER", nla_u8), ("IFLA_CARRIER_CHANGES", nla_u32), ("IFLA_LINK_NETNSID", nla_s32),
    ("IFLA_PHYS_PORT_NAME", nla_str), ("IFLA_PROTO_DOWN", nla_u8), ("IFLA_GSO_MAX_SEGS", nla_u32),
    ("IFLA_GSO_MAX_SIZE", nla_u32), ("IFLA_NEW_NETNSID", nla_s32), ("IFLA_IF_NETNSID", nla_s32),
    ("IFLA_CARRIER_UP_COUNT", nla_u32), ("IFLA_CARRIER_DOWN_COUNT", nla_u32), ("IFLA_NEW_IFINDEX", nla_ifindex),
    ("IFLA_MIN_MTU", nla_u32), ("IFLA_MAX_MTU", nla_u32), ("IFLA_ALT_IFNAME", nla_str),
    ("IFLA_PERM_ADDRESS", _ifla_hwaddr_family), ("IFLA_PARENT_DEV_NAME", nla_str), ("IFLA_PARENT_DEV_BUS_NAME", nla_str),
    ("IFLA_GRO_MAX_SIZE", nla_u32), ("IFLA_TSO_MAX_SIZE", nla_u32), ("IFLA_TSO_MAX_SEGS", nla_u32),
    ("IFLA_ALLMULTI", nla_u32),
)}
IFLA[_t(X.RTNL_LINK_ATTRS, "IFLA_PROP_LIST")] = lambda m, a, n, o: decode_nlattr(
    m, a, n, X.RTNL_LINK_ATTRS, "IFLA_???", None,
    by_type=lambda m2, a2, n2, t: nla_str(m2, a2, n2) if t & 0x3FFF == _t(X.RTNL_LINK_ATTRS, "IFLA_ALT_IFNAME")
    else None)


# Nested IFLA_* attributes (rtnl_link.c).  The ifinfomsg's family is the opaque value of the top level
# decoders: IFLA_AF_SPEC and IFLA_PROTINFO are laid out differently per family.

_AF_INET = _t(X.ADDRESS_FAMILIES, "AF_INET")
_AF_INET6 = _t(X.ADDRESS_FAMILIES, "AF_INET6")
AF_BRIDGE = _t(X.ADDRESS_FAMILIES, "AF_BRIDGE")
_AF_MCTP = _t(X.ADDRESS_FAMILIES, "AF_MCTP")


def nla_clock_t(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_nla_clock_t: up to 8 bytes, with strace's seconds comment."""
    from pytrace.decode.signal import clock_t_text

    if length > 8:
        return None
    raw = m.get(address, length)
    return addr(address) if raw is None else clock_t_text(m.p, int.from_bytes(raw, "little"))


def _in6_addr(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    return inet_addr(m, address, length, _AF_INET6) if length >= 16 else None


def _in_addr(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    return inet_addr(m, address, length, _AF_INET) if length >= 4 else None


# decode_ifla_bridge_id: ``{prio=[128, 0], addr=00:00:00:00:00:00}``.
_bridge_id = nla_fixed(8, lambda raw: f"{{prio=[{raw[0]}, {raw[1]}], addr={':'.join(f'{b:02x}' for b in raw[2:])}}}")


def _ether_proto(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_nla_ether_proto: ``htons(ETH_P_8021Q)``."""
    if length > 8 or length < 2:
        return None
    raw = m.get(address, 2)
    if raw is None:
        return addr(address)
    return f"htons({m.p.xval(int.from_bytes(raw, 'big'), X.ETHERNET_PROTOCOLS, 'ETHER_P_???')})"



_BRPORT = {_t(X.RTNL_IFLA_BRPORT_ATTRS, n): f for n, f in (
    ("IFLA_BRPORT_STATE", nla_u8), ("IFLA_BRPORT_PRIORITY", nla_u16), ("IFLA_BRPORT_COST", nla_u32),
    ("IFLA_BRPORT_MODE", nla_u8), ("IFLA_BRPORT_GUARD", nla_u8), ("IFLA_BRPORT_PROTECT", nla_u8),
    ("IFLA_BRPORT_FAST_LEAVE", nla_u8), ("IFLA_BRPORT_LEARNING", nla_u8), ("IFLA_BRPORT_UNICAST_FLOOD", nla_u8),
    ("IFLA_BRPORT_PROXYARP", nla_u8), ("IFLA_BRPORT_LEARNING_SYNC", nla_u8), ("IFLA_BRPORT_PROXYARP_WIFI", nla_u8),
    ("IFLA_BRPORT_ROOT_ID", _bridge_id), ("IFLA_BRPORT_BRIDGE_ID", _bridge_id),
    ("IFLA_BRPORT_DESIGNATED_PORT", nla_u16), ("IFLA_BRPORT_DESIGNATED_COST", nla_u16),
    ("IFLA_BRPORT_ID", nla_u16), ("IFLA_BRPORT_NO", nla_u16), ("IFLA_BRPORT_TOPOLOGY_CHANGE_ACK", nla_u8),
    ("IFLA_BRPORT_CONFIG_PENDING", nla_u8), ("IFLA_BRPORT_MESSAGE_AGE_TIMER", nla_clock_t),
    ("IFLA_BRPORT_FORWARD_DELAY_TIMER", nla_clock_t), ("IFLA_BRPORT_HOLD_TIMER", nla_clock_t),
    ("IFLA_BRPORT_MULTICAST_ROUTER", nla_u8), ("IFLA_BRPORT_MCAST_FLOOD", nla_u8),
    ("IFLA_BRPORT_MCAST_TO_UCAST", nla_u8), ("IFLA_BRPORT_VLAN_TUNNEL", nla_u8),
    ("IFLA_BRPORT_BCAST_FLOOD", nla_u8), ("IFLA_BRPORT_GROUP_FWD_MASK", nla_x16),
    ("IFLA_BRPORT_NEIGH_SUPPRESS", nla_u8), ("IFLA_BRPORT_ISOLATED", nla_u8),
    ("IFLA_BRPORT_BACKUP_PORT", nla_ifindex), ("IFLA_BRPORT_MRP_RING_OPEN", nla_u8),
    ("IFLA_BRPORT_MRP_IN_OPEN", nla_u8), ("IFLA_BRPORT_MCAST_EHT_HOSTS_LIMIT", nla_u32),
    ("IFLA_BRPORT_MCAST_EHT_HOSTS_CNT", nla_u32), ("IFLA_BRPORT_LOCKED", nla_u8),
)}
_brport = _nested(X.RTNL_IFLA_BRPORT_ATTRS, "IFLA_BRPORT_???", _BRPORT)

_INET6 = {_t(X.RTNL_IFLA_AF_SPEC_INET6_ATTRS, n): f for n, f in (
    ("IFLA_INET6_FLAGS", nla_flags(X.INET6_IF_FLAGS, "IF_???", 4)),
    ("IFLA_INET6_CONF", nla_indexed_array(4, True, X.INET6_DEVCONF_INDICES, "DEVCONF_???")),
    ("IFLA_INET6_STATS", nla_indexed_array(8, False, X.SNMP_IP_STATS, "IPSTATS_MIB_???")),
    ("IFLA_INET6_CACHEINFO", nla_struct("<IIII", ("max_reasm_len", "tstamp", "reachable_time", "retrans_time"))),
    ("IFLA_INET6_ICMP6STATS", nla_indexed_array(8, False, X.SNMP_ICMP6_STATS, "ICMP6_MIB_???")),
    ("IFLA_INET6_TOKEN", _in6_addr),
    ("IFLA_INET6_ADDR_GEN_MODE", nla_xval(X.IN6_ADDR_GEN_MODE, "IN6_ADDR_GEN_MODE_???", 1)),
    ("IFLA_INET6_RA_MTU", nla_u32),
)}
_INET = {_t(X.RTNL_IFLA_AF_SPEC_INET_ATTRS, "IFLA_INET_CONF"):
         nla_indexed_array(4, True, X.INET_DEVCONF_INDICES, "IPV4_DEVCONF_???")}
_MCTP = {_t(X.RTNL_IFLA_AF_SPEC_MCTP_ATTRS, "IFLA_MCTP_NET"): nla_u32}

# decode_nla_af_spec's per-family descriptions: (table, default name, decoders).
_AF_SPEC_DESCS = {
    _AF_INET: (X.RTNL_IFLA_AF_SPEC_INET_ATTRS, "IFLA_INET_???", _INET),
    _AF_INET6: (X.RTNL_IFLA_AF_SPEC_INET6_ATTRS, "IFLA_INET6_???", _INET6),
    _AF_MCTP: (X.RTNL_IFLA_AF_SPEC_MCTP_ATTRS, "IFLA_MCTP_???", _MCTP),
}
_PROTINFO_DESCS = {
    AF_BRIDGE: (X.RTNL_IFLA_BRPORT_ATTRS, "IFLA_BRPORT_???", _BRPORT),
    _AF_INET6: (X.RTNL_IFLA_AF_SPEC_INET6_ATTRS, "IFLA_INET6_???", _INET6),
}


def _af_spec_desc(m: Mem, address: int, length: int, family: int, descs: dict[int, Any]) -> str:
    """decode_nla_af_spec: the family's nested attributes, or the bytes in hex for other families."""
    desc = descs.get(family & 0xFF)
    if desc is None:
        return hexstr(m, address, length)
    return decode_nlattr(m, address, length, desc[0], desc[1], desc[2])


#: IFLA_AF_SPEC laid out by the message's family instead (AF_BRIDGE: IFLA_BRIDGE_*), from netlink_bridge.
AF_SPEC_BY_FAMILY: dict[int, Any] = {}


def _ifla_af_spec(m: Mem, address: int, length: int, family: Any) -> str | None:
    """IFLA_AF_SPEC: per-family attributes keyed by AF_* (bridge messages nest IFLA_BRIDGE_* instead)."""
    special = AF_SPEC_BY_FAMILY.get(family)
    if special is not None:
        return special(m, address, length, family)
    return decode_nlattr(m, address, length, X.ADDRESS_FAMILIES, "AF_???", None,
                         by_type=lambda m2, a2, n2, t: _af_spec_desc(m2, a2, n2, t, _AF_SPEC_DESCS))


def _ifla_protinfo(m: Mem, address: int, length: int, family: Any) -> str | None:
    return _af_spec_desc(m, address, length, family, _PROTINFO_DESCS)


def _br_boolopt(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 8:
        return None
    raw = m.get(address, 8)
    if raw is None:
        return addr(address)
    val, mask = struct.unpack("<II", raw)
    tbl = X.RTNL_IFLA_BR_BOOLOPT_FLAGS
    return m.p.struct((('optval', m.p.flags(val, tbl, '1<<BR_BOOLOPT_???')), ('optmask', m.p.flags(mask, tbl, '1<<BR_BOOLOPT_???'))))


_BR_QUERIER = {_t(X.RTNL_IFLA_BR_MCAST_QUERIER_ATTRS, n): f for n, f in (
    ("BRIDGE_QUERIER_IP_ADDRESS", _in_addr), ("BRIDGE_QUERIER_IP_PORT", nla_ifindex),
    ("BRIDGE_QUERIER_IP_OTHER_TIMER", nla_clock_t), ("BRIDGE_QUERIER_IPV6_ADDRESS", _in6_addr),
    ("BRIDGE_QUERIER_IPV6_PORT", nla_ifindex), ("BRIDGE_QUERIER_IPV6_OTHER_TIMER", nla_clock_t),
)}
_BR = {_t(X.RTNL_IFLA_INFO_DATA_BRIDGE_ATTRS, n): f for n, f in (
    ("IFLA_BR_FORWARD_DELAY", nla_clock_t), ("IFLA_BR_HELLO_TIME", nla_clock_t), ("IFLA_BR_MAX_AGE", nla_clock_t),
    ("IFLA_BR_AGEING_TIME", nla_clock_t), ("IFLA_BR_STP_STATE", nla_u32), ("IFLA_BR_PRIORITY", nla_u16),
    ("IFLA_BR_VLAN_FILTERING", nla_u8), ("IFLA_BR_VLAN_PROTOCOL", _ether_proto),
    ("IFLA_BR_GROUP_FWD_MASK", nla_x16), ("IFLA_BR_ROOT_ID", _bridge_id), ("IFLA_BR_BRIDGE_ID", _bridge_id),
    ("IFLA_BR_ROOT_PORT", nla_u16), ("IFLA_BR_ROOT_PATH_COST", nla_u32), ("IFLA_BR_TOPOLOGY_CHANGE", nla_u8),
    ("IFLA_BR_TOPOLOGY_CHANGE_DETECTED", nla_u8), ("IFLA_BR_HELLO_TIMER", nla_clock_t),
    ("IFLA_BR_TCN_TIMER", nla_clock_t), ("IFLA_BR_TOPOLOGY_CHANGE_TIMER", nla_clock_t), ("IFLA_BR_GC_TIMER", nla_clock_t),
    ("IFLA_BR_GROUP_ADDR", _ifla_hwaddr), ("IFLA_BR_MCAST_ROUTER", nla_u8), ("IFLA_BR_MCAST_SNOOPING", nla_u8),
    ("IFLA_BR_MCAST_QUERY_USE_IFADDR", nla_u8), ("IFLA_BR_MCAST_QUERIER", nla_u8),
    ("IFLA_BR_MCAST_HASH_ELASTICITY", nla_u32), ("IFLA_BR_MCAST_HASH_MAX", nla_u32),
    ("IFLA_BR_MCAST_LAST_MEMBER_CNT", nla_u32), ("IFLA_BR_MCAST_STARTUP_QUERY_CNT", nla_u32),
    ("IFLA_BR_MCAST_LAST_MEMBER_INTVL", nla_clock_t), ("IFLA_BR_MCAST_MEMBERSHIP_INTVL", nla_clock_t),
    ("IFLA_BR_MCAST_QUERIER_INTVL", nla_clock_t), ("IFLA_BR_MCAST_QUERY_INTVL", nla_clock_t),
    ("IFLA_BR_MCAST_QUERY_RESPONSE_INTVL", nla_clock_t), ("IFLA_BR_MCAST_STARTUP_QUERY_INTVL", nla_clock_t),
    ("IFLA_BR_NF_CALL_IPTABLES", nla_u8), ("IFLA_BR_NF_CALL_IP6TABLES", nla_u8),
    ("IFLA_BR_NF_CALL_ARPTABLES", nla_u8), ("IFLA_BR_VLAN_DEFAULT_PVID", nla_u16),
    ("IFLA_BR_VLAN_STATS_ENABLED", nla_u8), ("IFLA_BR_MCAST_STATS_ENABLED", nla_u8),
    ("IFLA_BR_MCAST_IGMP_VERSION", nla_u8), ("IFLA_BR_MCAST_MLD_VERSION", nla_u8),
    ("IFLA_BR_VLAN_STATS_PER_PORT", nla_u8), ("IFLA_BR_MULTI_BOOLOPT", _br_boolopt),
    ("IFLA_BR_MCAST_QUERIER_STATE", _nested(X.RTNL_IFLA_BR_MCAST_QUERIER_ATTRS, "BRIDGE_QUERIER_???", _BR_QUERIER)),
)}
_TUN = {_t(X.RTNL_IFLA_INFO_DATA_TUN_ATTRS, n): f for n, f in (
    ("IFLA_TUN_OWNER", nla_uid), ("IFLA_TUN_GROUP", nla_uid),
    ("IFLA_TUN_TYPE", nla_xval(X.TUN_DEVICE_TYPES, "IFF_???", 1)), ("IFLA_TUN_PI", nla_u8),
    ("IFLA_TUN_VNET_HDR", nla_u8), ("IFLA_TUN_PERSIST", nla_u8), ("IFLA_TUN_MULTI_QUEUE", nla_u8),
    ("IFLA_TUN_NUM_QUEUES", nla_u32), ("IFLA_TUN_NUM_DISABLED_QUEUES", nla_u32),
)}
_INFO_DATA = {
    "bridge": _nested(X.RTNL_IFLA_INFO_DATA_BRIDGE_ATTRS, "IFLA_BR_???", _BR),
    "tun": _nested(X.RTNL_IFLA_INFO_DATA_TUN_ATTRS, "IFLA_TUN_???", _TUN),
}
_INFO_XSTATS = {"can": nla_struct("<IIIIII", ("bus_error", "error_warning", "error_passive", "bus_off",
                                              "arbitration_lost", "restarts"))}
_INFO_SLAVE_DATA = {"bridge": _brport}


def _ctx_kind(m: Mem, address: int, length: int) -> str:
    """update_ctx_str: the kind string for the later IFLA_INFO_*DATA attributes ("" when too long/unread)."""
    if length >= 64:
        return ""
    raw = m.get(address, length)
    return "" if raw is None else raw.split(b"\0", 1)[0].decode("latin-1")


def _info_kind(key: str) -> Any:
    def decode(m: Mem, address: int, length: int, ctx: dict[str, str]) -> str | None:
        ctx[key] = _ctx_kind(m, address, length)
        return nla_str(m, address, length)

    return decode


def _info_by_kind(key: str, table: dict[str, Any]) -> Any:
    def decode(m: Mem, address: int, length: int, ctx: dict[str, str]) -> str | None:
        func = table.get(ctx[key])
        return func(m, address, length, ctx) if func is not None else None

    return decode


_LINKINFO = {_t(X.RTNL_IFLA_INFO_ATTRS, n): f for n, f in (
    ("IFLA_INFO_KIND", _info_kind("kind")), ("IFLA_INFO_DATA", _info_by_kind("kind", _INFO_DATA)),
    ("IFLA_INFO_XSTATS", _info_by_kind("kind", _INFO_XSTATS)), ("IFLA_INFO_SLAVE_KIND", _info_kind("slave")),
    ("IFLA_INFO_SLAVE_DATA", _info_by_kind("slave", _INFO_SLAVE_DATA)),
)}


def _ifla_linkinfo(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_ifla_linkinfo: IFLA_INFO_KIND decides how IFLA_INFO_DATA/XSTATS/SLAVE_DATA read."""
    return decode_nlattr(m, address, length, X.RTNL_IFLA_INFO_ATTRS, "IFLA_INFO_???", _LINKINFO,
                         {"kind": "", "slave": ""})


_XDP = {_t(X.RTNL_IFLA_XDP_ATTRS, n): f for n, f in (
    ("IFLA_XDP_FD", nla_fd), ("IFLA_XDP_ATTACHED", nla_xval(X.RTNL_IFLA_XDP_ATTACHED_MODE, "XDP_ATTACHED_???", 1)),
    ("IFLA_XDP_FLAGS", nla_flags(X.XDP_FLAGS, "XDP_FLAGS_???", 4)), ("IFLA_XDP_PROG_ID", nla_u32),
    ("IFLA_XDP_DRV_PROG_ID", nla_u32), ("IFLA_XDP_SKB_PROG_ID", nla_u32), ("IFLA_XDP_HW_PROG_ID", nla_u32),
    ("IFLA_XDP_EXPECTED_FD", nla_fd),
)}
_PROTO_DOWN_REASON = {_t(X.RTNL_IFLA_PROTO_DOWN_REASON_ATTRS, n): nla_x32 for n in (
    "IFLA_PROTO_DOWN_REASON_MASK", "IFLA_PROTO_DOWN_REASON_VALUE")}


def _printxval(size: int, table: Table, dflt: str) -> Any:
    """A fixed-size printxval attribute (no upper length bound, unlike decode_nla_xval)."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length < size:
            return None
        raw = m.get(address, size)
        return addr(address) if raw is None else m.p.xval(int.from_bytes(raw, "little"), table, dflt)

    return decode


_ifla_event = _printxval(4, X.RTNL_IFLA_EVENTS, "IFLA_EVENT_???")


IFLA.update({_t(X.RTNL_LINK_ATTRS, n): f for n, f in (
    ("IFLA_PROTINFO", _ifla_protinfo), ("IFLA_LINKINFO", _ifla_linkinfo), ("IFLA_AF_SPEC", _ifla_af_spec),
    ("IFLA_XDP", _nested(X.RTNL_IFLA_XDP_ATTRS, "IFLA_XDP_???", _XDP)), ("IFLA_EVENT", _ifla_event),
    ("IFLA_PROTO_DOWN_REASON", _nested(X.RTNL_IFLA_PROTO_DOWN_REASON_ATTRS, "IFLA_PROTO_DOWN_REASON_???",
                                       _PROTO_DOWN_REASON)),
)})

def header_msg(family_field: str, hdr: struct.Struct, fields: Callable[[tuple[int, ...]], str], attrs: Table,
                dflt: str, decoders: dict[int, Any], with_family: bool = True) -> Callable[..., str]:
    """A decoder for the rtnetlink messages made of a fixed header and attributes (strace's rtnl_*.c).

    They all print the same way: ``{FAMILY_FIELD=AF_..., fields}``, ``...`` when the
    message is shorter than the header, the address when it cannot be read, then the
    attributes after the header; only the header fields differ.
    """

    def decode(m: Mem, address: int, length: int, family: int) -> str:
        text = f"{{{family_field}={_af(m.p, family)}, "
        if length < hdr.size:
            return text + "...}"
        raw = m.get(address, hdr.size)
        if raw is None:
            return text + addr(address + 1) + "}"
        text += fields(m.p, hdr.unpack(raw)[1:]) + "}"
        if length > hdr.size:
            text += ", " + decode_nlattr(m, address + hdr.size, length - hdr.size, attrs, dflt, decoders,
                                         family if with_family else None)
        return text

    return decode


_IFINFOMSG = struct.Struct("<BxHiII")


def _ifinfomsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    itype, index, iflags, change = v
    return (p.args((f"ifi_type={p.xval(itype, X.ARP_HARDWARE_TYPES, 'ARPHRD_???')}", f"ifi_index={_ifindex(p, index)}", f"ifi_flags={p.flags(iflags, X.IFF_FLAGS, 'IFF_???')}", f"ifi_change={_hex(change)}")))


_ifinfomsg = header_msg("ifi_family", _IFINFOMSG, _ifinfomsg_fields, X.RTNL_LINK_ATTRS, "IFLA_???", IFLA)


# ---------------------------------------------------------------------------- addresses (rtnl_addr.c)


def _family_addr(m: Mem, address: int, length: int, family: Any) -> str:
    return inet_addr(m, address, length, family)


_IFA_CACHEINFO = nla_struct("<IIII", ("ifa_prefered", "ifa_valid", "cstamp", "tstamp"))
_IFA = {_t(X.RTNL_ADDR_ATTRS, n): f for n, f in (
    ("IFA_ADDRESS", _family_addr), ("IFA_LOCAL", _family_addr), ("IFA_LABEL", nla_str),
    ("IFA_BROADCAST", _family_addr), ("IFA_ANYCAST", _family_addr), ("IFA_CACHEINFO", _IFA_CACHEINFO),
    ("IFA_MULTICAST", _family_addr), ("IFA_FLAGS", nla_flags(X.IFADDRFLAGS, "IFA_F_???", 4)),
    ("IFA_RT_PRIORITY", nla_u32), ("IFA_TARGET_NETNSID", nla_s32),
)}

_IFADDRMSG = struct.Struct("<BBBBI")


def _ifaddrmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    plen, aflags, scope, index = v
    return (p.args((f"ifa_prefixlen={plen}", f"ifa_flags={p.flags(aflags, X.IFADDRFLAGS, 'IFA_F_???')}", f"ifa_scope={xval_nodflt(p, scope, X.ROUTING_SCOPES)}", f"ifa_index={_ifindex(p, index)}")))


_ifaddrmsg = header_msg("ifa_family", _IFADDRMSG, _ifaddrmsg_fields, X.RTNL_ADDR_ATTRS, "IFA_???", _IFA)


# ---------------------------------------------------------------------------- routes (rtnl_route.c)


def _rt_class(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 4:
        return None
    raw = m.get(address, 4)
    return addr(address) if raw is None else xval_nodflt(m.p, struct.unpack("<I", raw)[0], X.ROUTING_TABLE_IDS)


def _rtvia(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 2:
        return None
    raw = m.get(address, 2)
    if raw is None:
        return addr(address)
    fam = struct.unpack("<H", raw)[0]
    text = f"{{rtvia_family={_af(m.p, fam)}"
    if length > 2:
        text += ", " + inet_addr(m, address + 2, length - 2, fam, "rtvia_addr")
    return text + "}"


_RTA = {_t(X.RTNL_ROUTE_ATTRS, n): f for n, f in (
    ("RTA_DST", _family_addr), ("RTA_SRC", _family_addr), ("RTA_IIF", nla_ifindex), ("RTA_OIF", nla_ifindex),
    ("RTA_GATEWAY", _family_addr), ("RTA_PRIORITY", nla_u32), ("RTA_PREFSRC", _family_addr),
    ("RTA_PROTOINFO", nla_u32), ("RTA_FLOW", nla_u32),
    ("RTA_CACHEINFO", nla_struct("<IIIIIIII", ("rta_clntref", "rta_lastuse", "rta_expires", "rta_error",
                                               "rta_used", "rta_id", "rta_ts", "rta_tsage"),
                                 frozenset(("rta_id",)))),
    ("RTA_MP_ALGO", nla_u32), ("RTA_TABLE", _rt_class), ("RTA_MARK", nla_u32),
    ("RTA_MFC_STATS", nla_struct("<QQQ", ("mfcs_packets", "mfcs_bytes", "mfcs_wrong_if"))),
    ("RTA_VIA", _rtvia), ("RTA_NEWDST", _family_addr), ("RTA_PREF", nla_u8),
    ("RTA_EXPIRES", nla_u64), ("RTA_UID", nla_u32), ("RTA_TTL_PROPAGATE", nla_u8), ("RTA_IP_PROTO", nla_u8),
    ("RTA_SPORT", nla_u16), ("RTA_DPORT", nla_u16),
)}

_RTAX = {_t(X.RTNL_RTA_METRICS_ATTRS, n): nla_u32 for n in (
    "RTAX_LOCK", "RTAX_MTU", "RTAX_WINDOW", "RTAX_RTT", "RTAX_RTTVAR", "RTAX_SSTHRESH", "RTAX_CWND", "RTAX_ADVMSS",
    "RTAX_REORDERING", "RTAX_HOPLIMIT", "RTAX_INITCWND", "RTAX_FEATURES", "RTAX_RTO_MIN", "RTAX_INITRWND",
    "RTAX_QUICKACK")}
_RTAX[_t(X.RTNL_RTA_METRICS_ATTRS, "RTAX_CC_ALGO")] = nla_str
_RTNEXTHOP = struct.Struct("<HBBi")


def _rta_multipath(m: Mem, address: int, length: int, family: Any) -> str | None:
    """decode_rta_multipath: rtnexthop structures, each followed by its own RTA_* attributes."""
    if length < _RTNEXTHOP.size:
        return None
    out = []
    is_array = False
    cur, left = address, length
    while True:
        raw = m.get(cur, _RTNEXTHOP.size)
        if raw is None:
            out.append(addr(cur))
            break
        nh_len, nh_flags, hops, index = _RTNEXTHOP.unpack(raw)
        shown = min(left, nh_len)
        if cur == address and nh_len < length:
            out.append("[")
            is_array = True
        if cur > address:
            out.append(", ")
        head = (m.p.struct((('rtnh_len', f"{nh_len}"), ('rtnh_flags', m.p.flags(nh_flags, X.ROUTE_NEXTHOP_FLAGS, 'RTNH_F_???')), ('rtnh_hops', f"{hops}"), ('rtnh_ifindex', _ifindex(m.p, index)))))
        if shown > _RTNEXTHOP.size:
            attrs = decode_nlattr(m, cur + 8, shown - 8, X.RTNL_ROUTE_ATTRS, "RTA_???", _RTA, family)
            out.append(f"[{head}, {attrs}]")
        else:
            out.append(head)
        step = (shown + 3) & ~3
        if step >= left or not step:  # strace would loop forever on a zero rtnh_len
            break
        cur += step
        left -= step
    if is_array:
        out.append("]")
    return "".join(out)


_RTA.update({_t(X.RTNL_ROUTE_ATTRS, n): f for n, f in (
    ("RTA_METRICS", lambda m, a, n, o: decode_nlattr(m, a, n, X.RTNL_RTA_METRICS_ATTRS, "RTAX_???", _RTAX, o)),
    ("RTA_MULTIPATH", _rta_multipath),
    ("RTA_ENCAP_TYPE", _printxval(2, X.LWTUNNEL_ENCAP_TYPES, "LWTUNNEL_ENCAP_???")),
)})

_RTMSG = struct.Struct("<BBBBBBBBI")


def _rtmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    dlen, slen, tos, table, proto, scope, rtype, rflags = v
    return (p.args((f"rtm_dst_len={dlen}", f"rtm_src_len={slen}", f"rtm_tos={p.flags(tos, X.IP_TYPE_OF_SERVICES, 'IPTOS_TOS_???')}", f"rtm_table={xval_nodflt(p, table, X.ROUTING_TABLE_IDS)}", f"rtm_protocol={p.xval(proto, X.ROUTING_PROTOCOLS, 'RTPROT_???')}", f"rtm_scope={xval_nodflt(p, scope, X.ROUTING_SCOPES)}", f"rtm_type={p.xval(rtype, X.ROUTING_TYPES, 'RTN_???')}", f"rtm_flags={p.flags(rflags, X.ROUTING_FLAGS, 'RTM_F_???')}")))


_rtmsg = header_msg("rtm_family", _RTMSG, _rtmsg_fields, X.RTNL_ROUTE_ATTRS, "RTA_???", _RTA)


# ---------------------------------------------------------------------------- neighbours (rtnl_neigh.c)

_NDA = {_t(X.RTNL_NEIGH_ATTRS, n): f for n, f in (
    ("NDA_DST", _family_addr), ("NDA_LLADDR", _ifla_hwaddr),
    ("NDA_CACHEINFO", nla_struct("<IIII", ("ndm_confirmed", "ndm_used", "ndm_updated", "ndm_refcnt"))),
    ("NDA_PROBES", nla_u32), ("NDA_VLAN", nla_u16), ("NDA_VNI", nla_u32), ("NDA_IFINDEX", nla_ifindex),
    ("NDA_MASTER", nla_ifindex), ("NDA_LINK_NETNSID", nla_u32), ("NDA_SRC_VNI", nla_u32), ("NDA_NH_ID", nla_u32),
    ("NDA_PORT", nla_be16), ("NDA_PROTOCOL", nla_xval(X.IP_PROTOCOLS, "IPPROTO_???", 0)),
    ("NDA_FDB_EXT_ATTRS", lambda m, a, n, o: decode_nlattr(
        m, a, n, X.RTNL_NEIGH_FDB_EXT_ATTRS, "NFEA_???",
        {_t(X.RTNL_NEIGH_FDB_EXT_ATTRS, "NFEA_ACTIVITY_NOTIFY"): nla_flags(X.FDB_NOTIFY_FLAGS, "FDB_NOTIFY_???", 1)},
        o)),
    ("NDA_FLAGS_EXT", nla_flags(X.NEIGHBOR_CACHE_ENTRY_EXT_FLAGS, "NTF_EXT_???", 4)),
    ("NDA_NDM_STATE_MASK", nla_flags(X.NEIGHBOR_CACHE_ENTRY_STATES, "NUD_???", 2)),
    ("NDA_NDM_FLAGS_MASK", nla_flags(X.NEIGHBOR_CACHE_ENTRY_FLAGS, "NTF_???", 1)),
)}

_NDMSG = struct.Struct("<BxxxiHBB")


def _ndmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    index, state, nflags, ntype = v
    return (p.args((f"ndm_ifindex={_ifindex(p, index)}", f"ndm_state={p.flags(state, X.NEIGHBOR_CACHE_ENTRY_STATES, 'NUD_???')}", f"ndm_flags={p.flags(nflags, X.NEIGHBOR_CACHE_ENTRY_FLAGS, 'NTF_???')}", f"ndm_type={p.xval(ntype, X.ROUTING_TYPES, 'RTN_???')}")))


_ndmsg = header_msg("ndm_family", _NDMSG, _ndmsg_fields, X.RTNL_NEIGH_ATTRS, "NDA_???", _NDA)


# ---------------------------------------------------------------------------- rules (rtnl_rule.c)

_rt_proto = nla_xval(X.ROUTING_PROTOCOLS, "RTPROT_???", 1)
_ip_proto = nla_xval(X.IP_PROTOCOLS, "IPPROTO_???", 0)
_range = nla_struct("<HH", ("start", "end"))
_FRA = {_t(X.RTNL_RULE_ATTRS, n): f for n, f in (
    ("FRA_DST", _family_addr), ("FRA_SRC", _family_addr), ("FRA_IIFNAME", nla_str), ("FRA_GOTO", nla_u32),
    ("FRA_PRIORITY", nla_u32), ("FRA_FWMARK", nla_u32), ("FRA_FLOW", nla_u32), ("FRA_TUN_ID", nla_be64),
    ("FRA_SUPPRESS_IFGROUP", nla_u32), ("FRA_SUPPRESS_PREFIXLEN", nla_u32), ("FRA_TABLE", _rt_class),
    ("FRA_FWMASK", nla_u32), ("FRA_OIFNAME", nla_str), ("FRA_L3MDEV", nla_u8),
    ("FRA_UID_RANGE", nla_struct("<II", ("start", "end"))), ("FRA_PROTOCOL", _rt_proto),
    ("FRA_IP_PROTO", _ip_proto), ("FRA_SPORT_RANGE", _range), ("FRA_DPORT_RANGE", _range),
)}

_FIB_RULE_HDR = struct.Struct("<BBBBBBBBI")


def _fib_rule_fields(p: Printer, v: tuple[int, ...]) -> str:
    dlen, slen, tos, table, _r1, _r2, action, rflags = v
    return (p.args((f"dst_len={dlen}", f"src_len={slen}", f"tos={p.flags(tos, X.IP_TYPE_OF_SERVICES, 'IPTOS_TOS_???')}", f"table={p.xval(table, X.ROUTING_TABLE_IDS, 'RT_TABLE_???')}", f"action={p.xval(action, X.FIB_RULE_ACTIONS, 'FR_ACT_???')}", f"flags={p.flags(rflags, X.FIB_RULE_FLAGS, 'FIB_RULE_???')}")))


# decode_fib_rule_hdr: RTM_{NEW,DEL,GET}RULE (``ip rule``).
_fib_rule_hdr = header_msg("family", _FIB_RULE_HDR, _fib_rule_fields, X.RTNL_RULE_ATTRS, "FRA_???", _FRA)


# ---------------------------------------------------------------------------- traffic control (rtnl_tc.c)


def family_only(table: Table, dflt: str, decoders: dict[int, Any], field: str, opaque: bool = False) -> Any:
    """Messages whose header is the family byte alone (netconfmsg, ndtmsg, rtgenmsg): ``{ncm_family=AF_INET}``.

    The attributes start at NLMSG_ALIGN(1) = 4 whatever the message's length.
    """

    def decode(m: Mem, address: int, length: int, family: int) -> str:
        text = f"{{{field}={_af(m.p, family)}}}"
        if length > 4:
            text += ", " + decode_nlattr(m, address + 4, length - 4, table, dflt, decoders, family if opaque else None)
        return text

    return decode


def _stab_data(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    count = length // 2
    return uint_array(m, address, count, 2, lambda i, v: str(v)) if count else None


_TCA_STATS = {_t(X.RTNL_TCA_STATS_ATTRS, n): f for n, f in (
    ("TCA_STATS_BASIC", nla_struct("<QI", ("bytes", "packets"))),
    ("TCA_STATS_RATE_EST", nla_struct("<II", ("bps", "pps"))),
    ("TCA_STATS_QUEUE", nla_struct("<IIIII", ("qlen", "backlog", "drops", "requeues", "overlimits"))),
    ("TCA_STATS_RATE_EST64", nla_struct("<QQ", ("bps", "pps"))),
    ("TCA_STATS_BASIC_HW", nla_struct("<QI", ("bytes", "packets"))),
    ("TCA_STATS_PKT64", nla_u64),
)}
_TCA_STAB = {_t(X.RTNL_TCA_STAB_ATTRS, n): f for n, f in (
    ("TCA_STAB_BASE", nla_struct("<BBhiIIII", ("cell_log", "size_log", "cell_align", "overhead", "linklayer",
                                               "mpu", "mtu", "tsize"))),
    ("TCA_STAB_DATA", _stab_data),
)}
TCA = {_t(X.RTNL_TC_ATTRS, n): f for n, f in (
    ("TCA_KIND", nla_str),
    ("TCA_STATS", nla_struct("<QIIIIIII", ("bytes", "packets", "drops", "overlimits", "bps", "pps", "qlen",
                                           "backlog"))),
    ("TCA_RATE", nla_struct("<bB", ("interval", "ewma_log"))), ("TCA_FCNT", nla_u32),
    ("TCA_STATS2", _nested(X.RTNL_TCA_STATS_ATTRS, "TCA_STATS_???", _TCA_STATS)),
    ("TCA_STAB", _nested(X.RTNL_TCA_STAB_ATTRS, "TCA_STAB_???", _TCA_STAB)),
    ("TCA_CHAIN", nla_u32), ("TCA_HW_OFFLOAD", nla_u8), ("TCA_INGRESS_BLOCK", nla_u32),
    ("TCA_EGRESS_BLOCK", nla_u32), ("TCA_DUMP_FLAGS", nla_u32),
)}

_TCMSG = struct.Struct("<BxxxiIII")


def _tcmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    index, handle, parent, info = v
    return p.args((f"tcm_ifindex={_ifindex(p, index)}", f"tcm_handle={handle}", f"tcm_parent={parent}", f"tcm_info={info}"))


# decode_tcmsg: RTM_*QDISC, RTM_*TCLASS, RTM_*TFILTER, RTM_*CHAIN (``tc``); attributes without the family.
_tcmsg = header_msg("tcm_family", _TCMSG, _tcmsg_fields, X.RTNL_TC_ATTRS, "TCA_???", TCA, with_family=False)


# ---------------------------------------------------------------------------- netconf (rtnl_netconf.c)

_NETCONFA = {_t(X.RTNL_NETCONF_ATTRS, n): nla_s32 for n in (
    "NETCONFA_FORWARDING", "NETCONFA_RP_FILTER", "NETCONFA_MC_FORWARDING", "NETCONFA_PROXY_NEIGH",
    "NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN", "NETCONFA_INPUT", "NETCONFA_BC_FORWARDING")}
_NETCONFA[_t(X.RTNL_NETCONF_ATTRS, "NETCONFA_IFINDEX")] = nla_ifindex
_netconfmsg = family_only(X.RTNL_NETCONF_ATTRS, "NETCONFA_???", _NETCONFA, "ncm_family")


# ---------------------------------------------------------------------------- neighbour tables (rtnl_neightbl.c)


def _hex0(value: int, width: int) -> str:
    """PRINT_VAL_0X: ``%#0*x`` with width twice the field's size (the ``0x`` counts in the width)."""
    return f"{value:#0{width}x}" if value else "0" * width


def _ndt_config(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    size = 32
    if length < size:
        return None
    raw = m.get(address, size)
    if raw is None:
        return addr(address)
    v = struct.unpack("<HHIIIIIII", raw)
    return (m.p.struct((('ndtc_key_len', f"{v[0]}"), ('ndtc_entry_size', f"{v[1]}"), ('ndtc_entries', f"{v[2]}"), ('ndtc_last_flush', f"{v[3]}"), ('ndtc_last_rand', f"{v[4]}"), ('ndtc_hash_rnd', f"{v[5]}"), ('ndtc_hash_mask', _hex0(v[6], 8)), ('ndtc_hash_chain_gc', f"{v[7]}"), ('ndtc_proxy_qlen', f"{v[8]}"))))


_NDT_STATS_NAMES = ("ndts_allocs", "ndts_destroys", "ndts_hash_grows", "ndts_res_failed", "ndts_lookups",
                    "ndts_hits", "ndts_rcv_probes_mcast", "ndts_rcv_probes_ucast", "ndts_periodic_gc_runs",
                    "ndts_forced_gc_runs", "ndts_table_fulls")


def _ndt_stats(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """struct ndt_stats: the full 88 bytes, or exactly the 80 of kernels before ndts_table_fulls."""
    size = 88 if length >= 88 else 80 if length == 80 else 0
    if not size:
        return None
    raw = m.get(address, size)
    if raw is None:
        return addr(address)
    return struct_fields(raw, f"<{size // 8}Q", _NDT_STATS_NAMES)


_NDTPA = {_t(X.RTNL_NEIGHTBL_PARMS_ATTRS, n): f for n, f in (
    ("NDTPA_IFINDEX", nla_ifindex), ("NDTPA_REFCNT", nla_u32), ("NDTPA_REACHABLE_TIME", nla_u64),
    ("NDTPA_BASE_REACHABLE_TIME", nla_u64), ("NDTPA_RETRANS_TIME", nla_u64), ("NDTPA_GC_STALETIME", nla_u64),
    ("NDTPA_DELAY_PROBE_TIME", nla_u64), ("NDTPA_QUEUE_LEN", nla_u32), ("NDTPA_APP_PROBES", nla_u32),
    ("NDTPA_UCAST_PROBES", nla_u32), ("NDTPA_MCAST_PROBES", nla_u32), ("NDTPA_ANYCAST_DELAY", nla_u64),
    ("NDTPA_PROXY_DELAY", nla_u64), ("NDTPA_PROXY_QLEN", nla_u32), ("NDTPA_LOCKTIME", nla_u64),
    ("NDTPA_QUEUE_LENBYTES", nla_u32), ("NDTPA_MCAST_REPROBES", nla_u32),
    ("NDTPA_INTERVAL_PROBE_TIME_MS", nla_u64),
)}
_NDTA = {_t(X.RTNL_NEIGHTBL_ATTRS, n): f for n, f in (
    ("NDTA_NAME", nla_str), ("NDTA_THRESH1", nla_u32), ("NDTA_THRESH2", nla_u32), ("NDTA_THRESH3", nla_u32),
    ("NDTA_CONFIG", _ndt_config),
    ("NDTA_PARMS", _nested(X.RTNL_NEIGHTBL_PARMS_ATTRS, "NDTPA_???", _NDTPA)),
    ("NDTA_STATS", _ndt_stats), ("NDTA_GC_INTERVAL", nla_u64),
)}
_ndtmsg = family_only(X.RTNL_NEIGHTBL_ATTRS, "NDTA_???", _NDTA, "ndtm_family")


# ---------------------------------------------------------------------------- address labels (rtnl_addrlabel.c)

_IFAL = {_t(X.RTNL_ADDRLABEL_ATTRS, "IFAL_ADDRESS"): _family_addr, _t(X.RTNL_ADDRLABEL_ATTRS, "IFAL_LABEL"): nla_u32}
_IFADDRLBLMSG = struct.Struct("<BxBBII")


def _ifaddrlblmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    plen, lflags, index, seq = v
    return p.args((f"ifal_prefixlen={plen}", f"ifal_flags={lflags}", f"ifal_index={_ifindex(p, index)}", f"ifal_seq={seq}"))


# decode_ifaddrlblmsg: RTM_*ADDRLABEL (``ip addrlabel``).
_ifaddrlblmsg = header_msg("ifal_family", _IFADDRLBLMSG, _ifaddrlblmsg_fields, X.RTNL_ADDRLABEL_ATTRS,
                            "IFAL_???", _IFAL)


# ---------------------------------------------------------------------------- netns ids (rtnl_nsid.c)

_NETNSA = {_t(X.RTNL_NSID_ATTRS, n): f for n, f in (
    ("NETNSA_NSID", nla_s32), ("NETNSA_PID", nla_u32), ("NETNSA_FD", nla_fd), ("NETNSA_TARGET_NSID", nla_s32),
    ("NETNSA_CURRENT_NSID", nla_s32),
)}
_nsid = family_only(X.RTNL_NSID_ATTRS, "NETNSA_???", _NETNSA, "rtgen_family")


# ---------------------------------------------------------------------------- nexthops (rtnl_nh.c)


def _nh_grp(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """NHA_GROUP: an array of struct nexthop_grp; the reserved fields only when non-zero."""
    count = length // 8
    if not count:
        return None
    parts = []
    for i in range(count):
        if not m.p.opts.verbose and i >= m.p.opts.max_strlen:
            parts.append("...")
            break
        raw = m.get(address + i * 8, 8)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(more_comment(address + i * 8))
            break
        nh_id, weight, resvd1, resvd2 = struct.unpack("<IBBH", raw)
        text = f"{{id={nh_id}, weight={weight}"
        if resvd1:
            text += m.p.tail((f"resvd1={resvd1:#x}",))
        if resvd2:
            text += m.p.tail((f"resvd2={resvd2:#x}",))
        parts.append(text + "}")
    return "[" + ", ".join(parts) + "]"


_NHA_RES_GROUP = {_t(X.RTNL_NHA_RES_GROUP_ATTRS, n): f for n, f in (
    ("NHA_RES_GROUP_BUCKETS", nla_u16), ("NHA_RES_GROUP_IDLE_TIMER", nla_clock_t),
    ("NHA_RES_GROUP_UNBALANCED_TIMER", nla_clock_t), ("NHA_RES_GROUP_UNBALANCED_TIME", nla_clock_t),
)}
_NHA_RES_BUCKET = {_t(X.RTNL_NHA_RES_BUCKET_ATTRS, n): f for n, f in (
    ("NHA_RES_BUCKET_INDEX", nla_u16), ("NHA_RES_BUCKET_IDLE_TIME", nla_clock_t), ("NHA_RES_BUCKET_NH_ID", nla_u32),
)}
_NHA = {_t(X.RTNL_NEXTHOP_ATTRS, n): f for n, f in (
    ("NHA_ID", nla_u32), ("NHA_GROUP", _nh_grp),
    ("NHA_GROUP_TYPE", nla_xval(X.RTNL_NEXTHOP_GRP_TYPES, "NEXTHOP_GRP_TYPE_???", 2)),
    ("NHA_BLACKHOLE", nla_u32), ("NHA_OIF", nla_ifindex), ("NHA_GATEWAY", _family_addr),
    ("NHA_ENCAP_TYPE", _RTA[_t(X.RTNL_ROUTE_ATTRS, "RTA_ENCAP_TYPE")]), ("NHA_GROUPS", nla_u32),
    ("NHA_MASTER", nla_ifindex), ("NHA_FDB", nla_u32),
    ("NHA_RES_GROUP", _nested(X.RTNL_NHA_RES_GROUP_ATTRS, "NHA_RES_GROUP_???", _NHA_RES_GROUP)),
    ("NHA_RES_BUCKET", _nested(X.RTNL_NHA_RES_BUCKET_ATTRS, "NHA_RES_BUCKET_???", _NHA_RES_BUCKET)),
)}
_NHMSG = struct.Struct("<BBBBI")


def _nhmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    scope, proto, resvd, nflags = v
    text = (p.head((f"nh_scope={xval_nodflt(p, scope, X.ROUTING_SCOPES)}", f"nh_protocol={p.xval(proto, X.ROUTING_PROTOCOLS, 'RTPROT_???')}")))
    if resvd:
        text += p.head((f"resvd={resvd:#x}",))
    return text + f"nh_flags={p.flags(nflags, X.ROUTE_NEXTHOP_FLAGS, 'RTNH_F_???')}"


# decode_nhmsg: RTM_*NEXTHOP (``ip nexthop``).
_nhmsg = header_msg("nh_family", _NHMSG, _nhmsg_fields, X.RTNL_NEXTHOP_ATTRS, "NHA_???", _NHA)



def _getneigh(m: Mem, address: int, length: int, family: int) -> str:
    return (_ifinfomsg if family == AF_BRIDGE else _ndmsg)(m, address, length, family)


def _types(*names: str) -> list[int]:
    return [_t(X.NL_ROUTE_TYPES, n) for n in names]


ROUTE: dict[int, Any] = {}
for _n in _types("RTM_DELLINK", "RTM_GETLINK", "RTM_NEWLINK", "RTM_SETLINK"):
    ROUTE[_n] = _ifinfomsg
for _n in _types("RTM_DELADDR", "RTM_GETADDR", "RTM_GETANYCAST", "RTM_GETMULTICAST", "RTM_NEWADDR"):
    ROUTE[_n] = _ifaddrmsg
for _n in _types("RTM_DELROUTE", "RTM_GETROUTE", "RTM_NEWROUTE"):
    ROUTE[_n] = _rtmsg
for _n in _types("RTM_DELNEIGH", "RTM_NEWNEIGH"):
    ROUTE[_n] = _ndmsg
ROUTE[_t(X.NL_ROUTE_TYPES, "RTM_GETNEIGH")] = _getneigh
for _n in _types("RTM_DELRULE", "RTM_GETRULE", "RTM_NEWRULE"):
    ROUTE[_n] = _fib_rule_hdr
for _n in _types("RTM_NEWQDISC", "RTM_DELQDISC", "RTM_GETQDISC", "RTM_NEWTCLASS", "RTM_DELTCLASS", "RTM_GETTCLASS",
                 "RTM_NEWTFILTER", "RTM_DELTFILTER", "RTM_GETTFILTER", "RTM_NEWCHAIN", "RTM_DELCHAIN", "RTM_GETCHAIN"):
    ROUTE[_n] = _tcmsg
for _n in _types("RTM_NEWNETCONF", "RTM_DELNETCONF", "RTM_GETNETCONF"):
    ROUTE[_n] = _netconfmsg
for _n in _types("RTM_NEWNEIGHTBL", "RTM_GETNEIGHTBL", "RTM_SETNEIGHTBL"):
    ROUTE[_n] = _ndtmsg
for _n in _types("RTM_NEWADDRLABEL", "RTM_DELADDRLABEL", "RTM_GETADDRLABEL"):
    ROUTE[_n] = _ifaddrlblmsg
for _n in _types("RTM_NEWNSID", "RTM_DELNSID", "RTM_GETNSID"):
    ROUTE[_n] = _nsid
for _n in _types("RTM_NEWNEXTHOP", "RTM_DELNEXTHOP", "RTM_GETNEXTHOP"):
    ROUTE[_n] = _nhmsg


def decode_route(m: Mem, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str | None:
    """decode_netlink_route: the payload by message type; None for NLMSG_DONE (the generic int)."""
    if hdr[1] == NLMSG_DONE:
        return None
    raw = m.get(address, 1)
    if raw is None:
        return addr(address)
    family = raw[0]
    decoder = ROUTE.get(hdr[1])
    if decoder is not None:
        return decoder(m, address, length, family)
    text = f"{{family={_af(m.p, family)}"
    if length > 1:
        text += m.p.tail((f"data={hexstr(m, address + 1, length - 1)}",))
    return text + "}"
