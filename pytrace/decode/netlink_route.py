"""NETLINK_ROUTE payloads: ifinfomsg, ifaddrmsg, rtmsg, ndmsg and their attributes.

Mirrors strace's ``src/netlink_route.c``, ``rtnl_link.c``, ``rtnl_addr.c``,
``rtnl_route.c`` and ``rtnl_neigh.c`` (6.1).  Message types strace decodes
with other structures (rules, qdiscs, neighbour tables, ...) fall back to
``{family=AF_..., data="..."}`` here, strace's generic form.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from pytrace.decode.format import addr, flags, xlat, xval
from pytrace.decode.netlink import (
    NLMSG_DONE,
    Mem,
    decode_nlattr,
    hexstr,
    inet_addr,
    nla_flags,
    nla_hwaddr,
    nla_ifindex,
    nla_s32,
    nla_str,
    nla_struct,
    nla_u8,
    nla_u16,
    nla_u32,
    nla_u64,
)
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    Table = tuple[tuple[int, str], ...]


def _t(table: Table, name: str) -> int:
    return next(v for v, n in table if n == name)


def xval_nodflt(value: int, table: Table) -> str:
    """printxval with a NULL default: an unknown value is a bare hex number."""
    name = xlat(value, table)
    if name is not None:
        return xval(value, table, "")
    return f"{value:#x}" if value else "0"


def _hex(v: int) -> str:
    return f"{v:#x}" if v else "0"


def _ifindex(index: int) -> str:
    from pytrace.decode.net import _ifindex as print_ifindex

    return print_ifindex(index)


def _af(family: int) -> str:
    return xval(family, X.ADDRESS_FAMILIES, "AF_???")


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
        size = def_size if length >= def_size else min_size if length == min_size else 0
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


_IFLA = {_t(X.RTNL_LINK_ATTRS, n): f for n, f in (
    ("IFLA_ADDRESS", _ifla_hwaddr), ("IFLA_BROADCAST", _ifla_hwaddr), ("IFLA_IFNAME", nla_str),
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
    ("IFLA_PERM_ADDRESS", _ifla_hwaddr), ("IFLA_PARENT_DEV_NAME", nla_str), ("IFLA_PARENT_DEV_BUS_NAME", nla_str),
    ("IFLA_GRO_MAX_SIZE", nla_u32), ("IFLA_TSO_MAX_SIZE", nla_u32), ("IFLA_TSO_MAX_SEGS", nla_u32),
    ("IFLA_ALLMULTI", nla_u32),
)}
_IFLA[_t(X.RTNL_LINK_ATTRS, "IFLA_PROP_LIST")] = lambda m, a, n, o: decode_nlattr(
    m, a, n, X.RTNL_LINK_ATTRS, "IFLA_???", None,
    by_type=lambda m2, a2, n2, t: nla_str(m2, a2, n2) if t & 0x3FFF == _t(X.RTNL_LINK_ATTRS, "IFLA_ALT_IFNAME")
    else None)

_IFINFOMSG = struct.Struct("<BxHiII")


def _ifinfomsg(m: Mem, address: int, length: int, family: int) -> str:
    text = f"{{ifi_family={_af(family)}, "
    decode = False
    if length >= _IFINFOMSG.size:
        raw = m.get(address, _IFINFOMSG.size)
        if raw is None:
            text += addr(address + 1)
        else:
            _, itype, index, iflags, change = _IFINFOMSG.unpack(raw)
            text += (f"ifi_type={xval(itype, X.ARP_HARDWARE_TYPES, 'ARPHRD_???')}, ifi_index={_ifindex(index)}, "
                     f"ifi_flags={flags(iflags, X.IFF_FLAGS, 'IFF_???')}, ifi_change={_hex(change)}")
            decode = True
    else:
        text += "..."
    text += "}"
    if decode and length > _IFINFOMSG.size:
        text += ", " + decode_nlattr(m, address + 16, length - 16, X.RTNL_LINK_ATTRS, "IFLA_???", _IFLA)
    return text


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


def _ifaddrmsg(m: Mem, address: int, length: int, family: int) -> str:
    text = f"{{ifa_family={_af(family)}, "
    decode = False
    if length >= _IFADDRMSG.size:
        raw = m.get(address, _IFADDRMSG.size)
        if raw is None:
            text += addr(address + 1)
        else:
            _, plen, aflags, scope, index = _IFADDRMSG.unpack(raw)
            text += (f"ifa_prefixlen={plen}, ifa_flags={flags(aflags, X.IFADDRFLAGS, 'IFA_F_???')}, "
                     f"ifa_scope={xval_nodflt(scope, X.ROUTING_SCOPES)}, ifa_index={_ifindex(index)}")
            decode = True
    else:
        text += "..."
    text += "}"
    if decode and length > _IFADDRMSG.size:
        text += ", " + decode_nlattr(m, address + 8, length - 8, X.RTNL_ADDR_ATTRS, "IFA_???", _IFA, family)
    return text


# ---------------------------------------------------------------------------- routes (rtnl_route.c)


def _rt_class(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 4:
        return None
    raw = m.get(address, 4)
    return addr(address) if raw is None else xval_nodflt(struct.unpack("<I", raw)[0], X.ROUTING_TABLE_IDS)


def _rtvia(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 2:
        return None
    raw = m.get(address, 2)
    if raw is None:
        return addr(address)
    fam = struct.unpack("<H", raw)[0]
    text = f"{{rtvia_family={_af(fam)}"
    if length > 2:
        text += ", " + inet_addr(m, address + 2, length - 2, fam, "rtvia_addr")
    return text + "}"


_RTA = {_t(X.RTNL_ROUTE_ATTRS, n): f for n, f in (
    ("RTA_DST", _family_addr), ("RTA_SRC", _family_addr), ("RTA_IIF", nla_ifindex), ("RTA_OIF", nla_ifindex),
    ("RTA_GATEWAY", _family_addr), ("RTA_PRIORITY", nla_u32), ("RTA_PREFSRC", _family_addr),
    ("RTA_PROTOINFO", nla_u32), ("RTA_FLOW", nla_u32),
    ("RTA_CACHEINFO", nla_struct("<IIiIIIII", ("rta_clntref", "rta_lastuse", "rta_expires", "rta_error",
                                               "rta_used", "rta_id", "rta_ts", "rta_tsage"),
                                 frozenset(("rta_id",)))),
    ("RTA_MP_ALGO", nla_u32), ("RTA_TABLE", _rt_class), ("RTA_MARK", nla_u32),
    ("RTA_MFC_STATS", nla_struct("<QQQ", ("mfcs_packets", "mfcs_bytes", "mfcs_wrong_if"))),
    ("RTA_VIA", _rtvia), ("RTA_NEWDST", _family_addr), ("RTA_PREF", nla_u8),
    ("RTA_EXPIRES", nla_u64), ("RTA_UID", nla_u32), ("RTA_TTL_PROPAGATE", nla_u8), ("RTA_IP_PROTO", nla_u8),
    ("RTA_SPORT", nla_u16), ("RTA_DPORT", nla_u16),
)}

_RTMSG = struct.Struct("<BBBBBBBBI")


def _rtmsg(m: Mem, address: int, length: int, family: int) -> str:
    text = f"{{rtm_family={_af(family)}, "
    decode = False
    if length >= _RTMSG.size:
        raw = m.get(address, _RTMSG.size)
        if raw is None:
            text += addr(address + 1)
        else:
            _, dlen, slen, tos, table, proto, scope, rtype, rflags = _RTMSG.unpack(raw)
            text += (f"rtm_dst_len={dlen}, rtm_src_len={slen}, "
                     f"rtm_tos={flags(tos, X.IP_TYPE_OF_SERVICES, 'IPTOS_TOS_???')}, "
                     f"rtm_table={xval_nodflt(table, X.ROUTING_TABLE_IDS)}, "
                     f"rtm_protocol={xval(proto, X.ROUTING_PROTOCOLS, 'RTPROT_???')}, "
                     f"rtm_scope={xval_nodflt(scope, X.ROUTING_SCOPES)}, "
                     f"rtm_type={xval(rtype, X.ROUTING_TYPES, 'RTN_???')}, "
                     f"rtm_flags={flags(rflags, X.ROUTING_FLAGS, 'RTM_F_???')}")
            decode = True
    else:
        text += "..."
    text += "}"
    if decode and length > _RTMSG.size:
        text += ", " + decode_nlattr(m, address + 12, length - 12, X.RTNL_ROUTE_ATTRS, "RTA_???", _RTA, family)
    return text


# ---------------------------------------------------------------------------- neighbours (rtnl_neigh.c)

_NDA = {_t(X.RTNL_NEIGH_ATTRS, n): f for n, f in (
    ("NDA_DST", _family_addr), ("NDA_LLADDR", _ifla_hwaddr),
    ("NDA_CACHEINFO", nla_struct("<IIII", ("ndm_confirmed", "ndm_used", "ndm_updated", "ndm_refcnt"))),
    ("NDA_PROBES", nla_u32), ("NDA_VLAN", nla_u16), ("NDA_VNI", nla_u32), ("NDA_IFINDEX", nla_ifindex),
    ("NDA_MASTER", nla_ifindex), ("NDA_LINK_NETNSID", nla_u32), ("NDA_SRC_VNI", nla_u32), ("NDA_NH_ID", nla_u32),
    ("NDA_NDM_STATE_MASK", nla_flags(X.NEIGHBOR_CACHE_ENTRY_STATES, "NUD_???", 2)),
    ("NDA_NDM_FLAGS_MASK", nla_flags(X.NEIGHBOR_CACHE_ENTRY_FLAGS, "NTF_???", 1)),
)}

_NDMSG = struct.Struct("<BxxxiHBB")


def _ndmsg(m: Mem, address: int, length: int, family: int) -> str:
    text = f"{{ndm_family={_af(family)}, "
    decode = False
    if length >= _NDMSG.size:
        raw = m.get(address, _NDMSG.size)
        if raw is None:
            text += addr(address + 1)
        else:
            _, index, state, nflags, ntype = _NDMSG.unpack(raw)
            text += (f"ndm_ifindex={_ifindex(index)}, "
                     f"ndm_state={flags(state, X.NEIGHBOR_CACHE_ENTRY_STATES, 'NUD_???')}, "
                     f"ndm_flags={flags(nflags, X.NEIGHBOR_CACHE_ENTRY_FLAGS, 'NTF_???')}, "
                     f"ndm_type={xval(ntype, X.ROUTING_TYPES, 'RTN_???')}")
            decode = True
    else:
        text += "..."
    text += "}"
    if decode and length > _NDMSG.size:
        text += ", " + decode_nlattr(m, address + 12, length - 12, X.RTNL_NEIGH_ATTRS, "NDA_???", _NDA, family)
    return text


_AF_BRIDGE = _t(X.ADDRESS_FAMILIES, "AF_BRIDGE")


def _getneigh(m: Mem, address: int, length: int, family: int) -> str:
    return (_ifinfomsg if family == _AF_BRIDGE else _ndmsg)(m, address, length, family)


def _types(*names: str) -> list[int]:
    return [_t(X.NL_ROUTE_TYPES, n) for n in names]


_ROUTE: dict[int, Any] = {}
for _n in _types("RTM_DELLINK", "RTM_GETLINK", "RTM_NEWLINK", "RTM_SETLINK"):
    _ROUTE[_n] = _ifinfomsg
for _n in _types("RTM_DELADDR", "RTM_GETADDR", "RTM_GETANYCAST", "RTM_GETMULTICAST", "RTM_NEWADDR"):
    _ROUTE[_n] = _ifaddrmsg
for _n in _types("RTM_DELROUTE", "RTM_GETROUTE", "RTM_NEWROUTE"):
    _ROUTE[_n] = _rtmsg
for _n in _types("RTM_DELNEIGH", "RTM_NEWNEIGH"):
    _ROUTE[_n] = _ndmsg
_ROUTE[_t(X.NL_ROUTE_TYPES, "RTM_GETNEIGH")] = _getneigh


def decode_route(m: Mem, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str | None:
    """decode_netlink_route: the payload by message type; None for NLMSG_DONE (the generic int)."""
    if hdr[1] == NLMSG_DONE:
        return None
    raw = m.get(address, 1)
    if raw is None:
        return addr(address)
    family = raw[0]
    decoder = _ROUTE.get(hdr[1])
    if decoder is not None:
        return decoder(m, address, length, family)
    text = f"{{family={_af(family)}"
    if length > 1:
        text += f", data={hexstr(m, address + 1, length - 1)}"
    return text + "}"
