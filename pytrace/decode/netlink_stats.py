"""RTM_NEWSTATS/GETSTATS (``ip stats``, ``ip link xstats``, ``ip link afstats``): struct if_stats_msg and the
IFLA_STATS_* attributes, as strace 6.1 prints them.

Mirrors strace's ``src/rtnl_stats.c``: 64-bit link counters, bridge and bond
extended statistics (nested per link type), offload counters and per-family
(AF_MPLS) statistics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import struct
from typing import Any

from pytrace.decode.format import addr
from pytrace.decode.nlattr import Mem, decode_nlattr, hexstr, nla_u64, struct_fields
from pytrace.decode.nlattr import nested as _nested
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

Table = tuple[tuple[int, str], ...]




def _with_rest(m: Mem, address: int, length: int, size: int, text: str) -> str:
    """The bytes after a structure, in hex after it (strace's ``if (len > sizeof(st))`` tail)."""
    if length > size:
        return m.p.args((f"{text}", hexstr(m, address + size, length - size)))
    return text


def _bridge_vlan(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """struct bridge_vlan_xstats: counters, vid, flags, pad2 only when non-zero."""
    if length < 40:
        return None
    raw = m.get(address, 40)
    if raw is None:
        return addr(address)
    rxb, rxp, txb, txp, vid, vflags, pad2 = struct.unpack("<QQQQHHI", raw)
    text = (f"{{rx_bytes={rxb}, rx_packets={rxp}, tx_bytes={txb}, tx_packets={txp}, vid={vid}, "
            f"flags={m.p.flags(vflags, X.NL_BRIDGE_VLAN_FLAGS, 'BRIDGE_VLAN_INFO_???')}")
    if pad2:
        text += m.p.tail((f"pad2={pad2:#x}",))
    return _with_rest(m, address, length, 40, text + "}")


# struct br_mcast_stats: (field, is an [RX, TX] array) in order; 30 u64 in all.
_MCAST_FIELDS = (("igmp_v1queries", True), ("igmp_v2queries", True), ("igmp_v3queries", True),
                 ("igmp_leaves", True), ("igmp_v1reports", True), ("igmp_v2reports", True),
                 ("igmp_v3reports", True), ("igmp_parse_errors", False), ("mld_v1queries", True),
                 ("mld_v2queries", True), ("mld_leaves", True), ("mld_v1reports", True), ("mld_v2reports", True),
                 ("mld_parse_errors", False), ("mcast_bytes", True), ("mcast_packets", True))
_MCAST_SIZE = 8 * sum(2 if pair else 1 for _, pair in _MCAST_FIELDS)


def _dir_array(p: Printer, values: tuple[int, ...]) -> str:
    """PRINT_FIELD_ARRAY_INDEXED over BR_MCAST_DIR_*: ``[[BR_MCAST_DIR_RX]=0, [BR_MCAST_DIR_TX]=0]``."""
    parts = []
    for i, v in enumerate(values):
        if not p.opts.verbose and i >= p.opts.max_strlen:
            parts.append("...")
            break
        name = p.xval(i, X.IFSTATS_XSTATS_BRIDGE_MCAST_INDICES, "", fmt="u")
        parts.append(f"[{name}]={v}")
    return "[" + ", ".join(parts) + "]"


def _bridge_mcast(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < _MCAST_SIZE:
        return None
    raw = m.get(address, _MCAST_SIZE)
    if raw is None:
        return addr(address)
    values = struct.unpack(f"<{_MCAST_SIZE // 8}Q", raw)
    parts, i = [], 0
    for name, pair in _MCAST_FIELDS:
        if pair:
            parts.append(f"{name}={_dir_array(m.p, values[i:i + 2])}")
            i += 2
        else:
            parts.append(f"{name}={values[i]}")
            i += 1
    return _with_rest(m, address, length, _MCAST_SIZE, "{" + ", ".join(parts) + "}")


def _fixed_u64s(names: tuple[str, ...]) -> Any:
    """A structure of u64 counters (PRINT_FIELD_U each), any bytes after it in hex."""
    size = 8 * len(names)

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length < size:
            return None
        raw = m.get(address, size)
        if raw is None:
            return addr(address)
        return _with_rest(m, address, length, size, struct_fields(raw, f"<{len(names)}Q", names))

    return decode


_BRIDGE = {_t(X.IFSTATS_XSTATS_BRIDGE_ATTRS, n): f for n, f in (
    ("BRIDGE_XSTATS_VLAN", _bridge_vlan), ("BRIDGE_XSTATS_MCAST", _bridge_mcast),
    ("BRIDGE_XSTATS_STP", _fixed_u64s(("transition_blk", "transition_fwd", "rx_bpdu", "tx_bpdu", "rx_tcn",
                                       "tx_tcn"))),
)}
_BOND_3AD = {_t(X.IFSTATS_XSTATS_BOND_3AD_ATTRS, n): nla_u64 for n in (
    "BOND_3AD_STAT_LACPDU_RX", "BOND_3AD_STAT_LACPDU_TX", "BOND_3AD_STAT_LACPDU_UNKNOWN_RX",
    "BOND_3AD_STAT_LACPDU_ILLEGAL_RX", "BOND_3AD_STAT_MARKER_RX", "BOND_3AD_STAT_MARKER_TX",
    "BOND_3AD_STAT_MARKER_RESP_RX", "BOND_3AD_STAT_MARKER_RESP_TX", "BOND_3AD_STAT_MARKER_UNKNOWN_RX")}
# strace names unknown BOND_3AD_STAT_* attributes "BOND_XSTATS_???".
_BOND = {_t(X.IFSTATS_XSTATS_BOND_ATTRS, "BOND_XSTATS_3AD"):
         _nested(X.IFSTATS_XSTATS_BOND_3AD_ATTRS, "BOND_XSTATS_???", _BOND_3AD)}
_XSTATS = {_t(X.IFSTATS_XSTATS_TYPE_ATTRS, n): f for n, f in (
    ("LINK_XSTATS_TYPE_BRIDGE", _nested(X.IFSTATS_XSTATS_BRIDGE_ATTRS, "BRIDGE_XSTATS_???", _BRIDGE)),
    ("LINK_XSTATS_TYPE_BOND", _nested(X.IFSTATS_XSTATS_BOND_ATTRS, "BOND_XSTATS_???", _BOND)),
)}
_xstats = _nested(X.IFSTATS_XSTATS_TYPE_ATTRS, "LINK_XSTATS_TYPE_???", _XSTATS)

_MPLS = {_t(X.IFSTATS_AF_SPEC_MPLS_ATTRS, "MPLS_STATS_LINK"): _fixed_u64s((
    "rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
    "rx_noroute"))}
_AF_MPLS = _t(X.ADDRESS_FAMILIES, "AF_MPLS")


def _af_spec(m: Mem, address: int, length: int, opaque: Any) -> str:
    """IFLA_STATS_AF_SPEC: attributes keyed by AF_*; AF_MPLS nests MPLS_STATS_*, any other family is hex."""

    def by_family(m2: Mem, a: int, n: int, family: int) -> str:
        if family & 0xFF == _AF_MPLS:
            return decode_nlattr(m2, a, n, X.IFSTATS_AF_SPEC_MPLS_ATTRS, "MPLS_STATS_???", _MPLS)
        return hexstr(m2, a, n)

    return decode_nlattr(m, address, length, X.ADDRESS_FAMILIES, "AF_???", None, by_type=by_family)


_IFSTATSMSG = struct.Struct("<BBHiI")


def register(route: dict[int, Any]) -> None:
    """Add the if_stats_msg decoder to netlink_route's message-type table (called once, by netlink.py when it loads netlink_route)."""
    from pytrace.decode.inet import ifindex as _ifindex
    from pytrace.decode.netlink_route import IFLA, header_msg

    def fields(p: Printer, v: tuple[int, ...]) -> str:
        pad1, pad2, index, mask = v
        text = p.head((f"pad1={pad1:#x}",)) if pad1 else ""
        if pad2:
            text += p.head((f"pad2={pad2:#x}",))
        return text + p.args((f"ifindex={_ifindex(p, index)}", f"filter_mask={p.flags(mask, X.IFSTATS_ATTR_FLAGS, '1<<IFLA_STATS_???')}"))

    decoders = {_t(X.IFSTATS_ATTRS, n): f for n, f in (
        ("IFLA_STATS_LINK_64", IFLA[_t(X.RTNL_LINK_ATTRS, "IFLA_STATS64")]),  # decode_nla_rtnl_link_stats64
        ("IFLA_STATS_LINK_XSTATS", _xstats), ("IFLA_STATS_LINK_XSTATS_SLAVE", _xstats),
        ("IFLA_STATS_LINK_OFFLOAD_XSTATS", _nested(X.IFSTATS_OFFLOAD_ATTRS, "IFLA_OFFLOAD_XSTATS_???", {
            _t(X.IFSTATS_OFFLOAD_ATTRS, "IFLA_OFFLOAD_XSTATS_CPU_HIT"): IFLA[_t(X.RTNL_LINK_ATTRS, "IFLA_STATS64")]})),
        ("IFLA_STATS_AF_SPEC", _af_spec),
    )}
    ifstatsmsg = header_msg("family", _IFSTATSMSG, fields, X.IFSTATS_ATTRS, "IFLA_STATS_???", decoders)
    for name in ("RTM_NEWSTATS", "RTM_GETSTATS"):
        route[_t(X.NL_ROUTE_TYPES, name)] = ifstatsmsg
