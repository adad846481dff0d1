"""IFLA_VFINFO_LIST, IFLA_VF_PORTS, IFLA_PORT_SELF and IFLA_NET_NS_FD of ifinfomsg, as strace 6.1 prints them.

Mirrors the SR-IOV half of strace's ``src/rtnl_link.c`` (``decode_ifla_vfinfo_list``,
``decode_ifla_vf_ports``, ``decode_ifla_port``): per-VF settings are nested
attributes whose payloads are small fixed structures (``struct ifla_vf_mac``,
``ifla_vf_vlan``, ...).  Only drivers with virtual functions send them, so they are
kept out of netlink_route.py; ``register`` adds them to its IFLA_* decoder table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import struct
from typing import Any

from pytrace.decode.format import addr
from pytrace.decode.nlattr import (
    Mem,
    mac_text,
    nla_fd,
    nla_fixed_p,
    nla_str,
    nla_struct,
    nla_u8,
    nla_u16,
    nla_u32,
    nla_u64,
)
from pytrace.decode.nlattr import nested as _nested
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

Table = tuple[tuple[int, str], ...]



def _link_state_text(p: Printer, raw: bytes) -> str:
    vf, state = struct.unpack("<II", raw)
    return p.struct((('vf', f"{vf}"), ('link_state', p.xval(state, X.RTNL_IFLA_VF_LINK_STATES, 'IFLA_VF_LINK_STATE_???'))))


# struct ifla_vf_mac: ``{vf=0, mac=00:11:...}`` (the whole 32-byte array).
_vf_mac = nla_fixed_p(36, lambda p, raw: p.struct((('vf', f"{struct.unpack_from('<I', raw)[0]}"), ('mac', mac_text(p, raw[4:])))))
_vf_link_state = nla_fixed_p(8, _link_state_text)


def _vf_guid(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """struct ifla_vf_guid: 12 bytes (packed, i386) or 16 (guid 8-aligned); other lengths in hex."""
    if length not in (12, 16):
        return None
    raw = m.get(address, length)
    if raw is None:
        return addr(address)
    vf = struct.unpack_from("<I", raw)[0]
    guid = struct.unpack_from("<Q", raw, 4 if length == 12 else 8)[0]
    return m.p.struct((('vf', f"{vf}"), ('guid', f"{guid:#x}"))) if guid else m.p.struct((('vf', f"{vf}"), ('guid', '0')))


def _vf_vlan_info(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """struct ifla_vf_vlan_info: vlan_proto is big-endian, printed ``htons(ETH_P_8021Q)``."""
    if length < 16:
        return None
    raw = m.get(address, 16)
    if raw is None:
        return addr(address)
    vf, vlan, qos = struct.unpack_from("<III", raw)
    proto = struct.unpack_from(">H", raw, 12)[0]
    return (m.p.struct((('vf', f"{vf}"), ('vlan', f"{vlan}"), ('qos', f"{qos}"), ('vlan_proto', f"htons({m.p.xval(proto, X.ETHERNET_PROTOCOLS, 'ETH_P_???')})"))))


_vf_broadcast = nla_fixed_p(32, lambda p, raw: p.struct((('broadcast', mac_text(p, raw)),)))


_VF_STATS = {_t(X.RTNL_IFLA_VF_STATS_ATTRS, n): nla_u64 for n in (
    "IFLA_VF_STATS_RX_PACKETS", "IFLA_VF_STATS_TX_PACKETS", "IFLA_VF_STATS_RX_BYTES", "IFLA_VF_STATS_TX_BYTES",
    "IFLA_VF_STATS_BROADCAST", "IFLA_VF_STATS_MULTICAST", "IFLA_VF_STATS_RX_DROPPED", "IFLA_VF_STATS_TX_DROPPED")}
_VF_VLAN_LIST = {_t(X.RTNL_IFLA_VF_VLAN_LIST_ATTRS, "IFLA_VF_VLAN_INFO"): _vf_vlan_info}



_vf_setting = nla_struct("<II", ("vf", "setting"))
_VF_INFO = {_t(X.RTNL_IFLA_VF_INFO_ATTRS, n): f for n, f in (
    ("IFLA_VF_MAC", _vf_mac), ("IFLA_VF_VLAN", nla_struct("<III", ("vf", "vlan", "qos"))),
    ("IFLA_VF_TX_RATE", nla_struct("<II", ("vf", "rate"))), ("IFLA_VF_SPOOFCHK", _vf_setting),
    ("IFLA_VF_LINK_STATE", _vf_link_state),
    ("IFLA_VF_RATE", nla_struct("<III", ("vf", "min_tx_rate", "max_tx_rate"))),
    ("IFLA_VF_RSS_QUERY_EN", _vf_setting),
    ("IFLA_VF_STATS", _nested(X.RTNL_IFLA_VF_STATS_ATTRS, "IFLA_VF_STATS_???", _VF_STATS)),
    ("IFLA_VF_TRUST", _vf_setting), ("IFLA_VF_IB_NODE_GUID", _vf_guid), ("IFLA_VF_IB_PORT_GUID", _vf_guid),
    ("IFLA_VF_VLAN_LIST", _nested(X.RTNL_IFLA_VF_VLAN_LIST_ATTRS, "IFLA_VF_VLAN_INFO_???", _VF_VLAN_LIST)),
    ("IFLA_VF_BROADCAST", _vf_broadcast),
)}
_VFINFO_LIST = {_t(X.RTNL_IFLA_VFINFO_LIST_ATTRS, "IFLA_VF_INFO"):
                _nested(X.RTNL_IFLA_VF_INFO_ATTRS, "IFLA_VF_???", _VF_INFO)}


def _port_vsi(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """struct ifla_port_vsi: the type id in hex, the padding only when not all zero."""
    if length < 8:
        return None
    raw = m.get(address, 8)
    if raw is None:
        return addr(address)
    text = f"{{vsi_mgr_id={raw[0]}, vsi_type_id={m.p.quote(raw[1:4], force_hex=True)}, vsi_type_version={raw[4]}"
    if any(raw[5:8]):
        text += m.p.tail((f"pad={m.p.quote(raw[5:8], force_hex=True)}",))
    return text + "}"


_PORT = {_t(X.RTNL_IFLA_PORT_ATTRS, n): f for n, f in (
    ("IFLA_PORT_VF", nla_u32), ("IFLA_PORT_PROFILE", nla_str), ("IFLA_PORT_VSI_TYPE", _port_vsi),
    ("IFLA_PORT_REQUEST", nla_u8), ("IFLA_PORT_RESPONSE", nla_u16),
)}
# strace's decode_ifla_port names unknown IFLA_PORT_* attributes "IFLA_VF_PORT_???".
_ifla_port = _nested(X.RTNL_IFLA_PORT_ATTRS, "IFLA_VF_PORT_???", _PORT)


def register(ifla: dict[int, Any]) -> None:
    """Add the VF/port attributes to netlink_route's IFLA_* decoders."""
    ifla.update({_t(X.RTNL_LINK_ATTRS, n): f for n, f in (
        ("IFLA_VFINFO_LIST", _nested(X.RTNL_IFLA_VFINFO_LIST_ATTRS, "IFLA_VF_INFO_???", _VFINFO_LIST)),
        ("IFLA_VF_PORTS", _nested(X.RTNL_IFLA_VF_PORT_ATTRS, "IFLA_VF_PORT_???",
                                  {_t(X.RTNL_IFLA_VF_PORT_ATTRS, "IFLA_VF_PORT"): _ifla_port})),
        ("IFLA_PORT_SELF", _ifla_port),
        ("IFLA_NET_NS_FD", nla_fd),
    )})
