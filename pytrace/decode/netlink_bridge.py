"""NETLINK_ROUTE bridge payloads: RTM_*MDB (br_port_msg), RTM_*DCB (dcbmsg) and the AF_BRIDGE
form of IFLA_AF_SPEC (IFLA_BRIDGE_*, bridge_vlan_info), printed as strace 6.1 prints them.

Mirrors strace's ``src/rtnl_mdb.c``, ``src/rtnl_dcb.c`` and the AF_BRIDGE branch of
``decode_ifla_af_spec`` in ``src/rtnl_link.c``.  Kept apart from ``netlink_route``, whose
helpers it reuses; netlink.py calls ``register`` once, when it first loads netlink_route.

strace quirks kept on purpose, for byte-for-byte output:

* ``br_mdb_entry.addr.proto`` holds an ethertype (``htons(ETH_P_IP)``), but strace reads it
  as an address family: group addresses print as 16 bytes in hex and the protocol as
  ``htons(0x800 /* AF_??? */)``.
* A request's MDBA_SET_ENTRY (type 1) is named MDBA_MDB and its ``br_mdb_entry`` is read
  as nested MDBA_MDB_* attributes (strace has a single table for requests and answers).
* DCB attributes are printed by name with their bytes in hex: strace decodes none of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import struct
from typing import Any

from pytrace.decode.format import addr
from pytrace.decode.inet import ifindex as _ifindex
from pytrace.decode.netlink_route import AF_BRIDGE, header_msg, nla_clock_t
from pytrace.decode.nlattr import (
    Mem,
    decode_nlattr,
    hexstr,
    nla_flags,
    nla_u16,
    nla_u32,
    nla_xval,
    print_inet_addr,
)
from pytrace.decode.nlattr import nested as _nested
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

# ---------------------------------------------------------------------------- IFLA_AF_SPEC of AF_BRIDGE (rtnl_link.c)

_VLAN_FLAGS = X.NL_BRIDGE_VLAN_FLAGS


def _bridge_vlan_info(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_ifla_bridge_vlan_info: ``{flags=BRIDGE_VLAN_INFO_PVID|..., vid=1}``, extra bytes in hex."""
    if length < 4:
        return None
    raw = m.get(address, 4)
    if raw is None:
        return addr(address)
    vflags, vid = struct.unpack("<HH", raw)
    text = m.p.struct((('flags', m.p.flags(vflags, _VLAN_FLAGS, 'BRIDGE_VLAN_INFO_???')), ('vid', f"{vid}")))
    if length > 4:
        text += ", " + hexstr(m, address + 4, length - 4)
    return text


_VLAN_TUNNEL = {_t(X.RTNL_IFLA_AF_SPEC_BRIDGE_VLAN_TUNNEL_INFO_ATTRS, n): f for n, f in (
    ("IFLA_BRIDGE_VLAN_TUNNEL_ID", nla_u32), ("IFLA_BRIDGE_VLAN_TUNNEL_VID", nla_u16),
    ("IFLA_BRIDGE_VLAN_TUNNEL_FLAGS", nla_flags(_VLAN_FLAGS, "BRIDGE_VLAN_INFO_???", 2)),
)}
# IFLA_BRIDGE_MRP, _CFM and _MST: unimplemented in strace 6.1 too (bytes in hex).
_AF_SPEC_BRIDGE = {_t(X.RTNL_IFLA_AF_SPEC_BRIDGE_ATTRS, n): f for n, f in (
    ("IFLA_BRIDGE_FLAGS", nla_flags(X.RTNL_IFLA_BRIDGE_FLAGS, "BRIDGE_FLAGS_???", 2)),
    ("IFLA_BRIDGE_MODE", nla_xval(X.RTNL_IFLA_BRIDGE_MODES, "BRIDGE_MODE_???", 2)),
    ("IFLA_BRIDGE_VLAN_INFO", _bridge_vlan_info),
    ("IFLA_BRIDGE_VLAN_TUNNEL_INFO", _nested(X.RTNL_IFLA_AF_SPEC_BRIDGE_VLAN_TUNNEL_INFO_ATTRS,
                                             "IFLA_BRIDGE_VLAN_TUNNEL_???", _VLAN_TUNNEL)),
)}


def _ifla_af_spec_bridge(m: Mem, address: int, length: int, family: Any) -> str:
    """IFLA_AF_SPEC of an AF_BRIDGE message: IFLA_BRIDGE_* directly, not per-family nests (``bridge vlan``)."""
    return decode_nlattr(m, address, length, X.RTNL_IFLA_AF_SPEC_BRIDGE_ATTRS, "IFLA_BRIDGE_???", _AF_SPEC_BRIDGE,
                         family)


# ---------------------------------------------------------------------------- MDB (rtnl_mdb.c)

_BR_MDB_ENTRY = struct.Struct("<IBBH16s2s")  # struct br_mdb_entry: 26 bytes, 28 with its tail padding
_BR_MDB_ENTRY_SIZE = 28


def _mdb_entry_info(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_mdba_mdb_entry_info: struct br_mdb_entry, then MDBA_MDB_EATTR_* attributes.

    ``addr.proto`` is printed as an address family, as strace does (see the module docstring).
    """
    if length < _BR_MDB_ENTRY_SIZE:
        return None
    raw = m.get(address, _BR_MDB_ENTRY_SIZE)
    if raw is None:
        text = addr(address)
    else:
        index, state, eflags, vid, group, proto_raw = _BR_MDB_ENTRY.unpack_from(raw)
        proto = int.from_bytes(proto_raw, "big")
        text = (m.p.struct((('ifindex', _ifindex(m.p, index)), ('state', m.p.xval(state, X.MDB_STATES, 'MDB_???')), ('flags', m.p.flags(eflags, X.MDB_FLAGS, 'MDB_FLAGS_???')), ('vid', f"{vid}"), ('addr', f"{{{print_inet_addr(m.p, proto, group, 'u')}, proto=htons({m.p.xval(proto, X.ADDRESS_FAMILIES, 'AF_???')})}}"))))
    if length > _BR_MDB_ENTRY_SIZE:
        text += ", " + decode_nlattr(m, address + _BR_MDB_ENTRY_SIZE, length - _BR_MDB_ENTRY_SIZE,
                                     X.RTNL_MDBA_MDB_EATTR_ATTRS, "MDBA_MDB_EATTR_???", _MDB_EATTR)
    return text


_MDB_EATTR = {_t(X.RTNL_MDBA_MDB_EATTR_ATTRS, "MDBA_MDB_EATTR_TIMER"): nla_clock_t}
_MDB_ENTRY = {_t(X.RTNL_MDBA_MDB_ENTRY_ATTRS, "MDBA_MDB_ENTRY_INFO"): _mdb_entry_info}
_MDB = {_t(X.RTNL_MDBA_MDB_ATTRS, "MDBA_MDB_ENTRY"):
        _nested(X.RTNL_MDBA_MDB_ENTRY_ATTRS, "MDBA_MDB_ENTRY_???", _MDB_ENTRY)}


def _router_type(m: Mem, address: int, length: int, opaque: Any) -> str:
    """decode_multicast_router_type: one byte, whatever the attribute's length."""
    raw = m.get(address, 1)
    return addr(address) if raw is None else m.p.xval(raw[0], X.MULTICAST_ROUTER_TYPES, "MDB_RTR_TYPE_???")


_ROUTER_PATTR = {_t(X.RTNL_MDBA_ROUTER_PATTR_ATTRS, n): f for n, f in (
    ("MDBA_ROUTER_PATTR_TIMER", nla_clock_t), ("MDBA_ROUTER_PATTR_TYPE", _router_type),
    ("MDBA_ROUTER_PATTR_INET_TIMER", nla_clock_t), ("MDBA_ROUTER_PATTR_INET6_TIMER", nla_clock_t),
)}


def _router_port(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_mdba_router_port: the port's ifindex, then MDBA_ROUTER_PATTR_* attributes."""
    if length < 4:
        return None
    raw = m.get(address, 4)
    text = addr(address) if raw is None else _ifindex(m.p, struct.unpack("<I", raw)[0])
    if length > 4:
        text += ", " + decode_nlattr(m, address + 4, length - 4, X.RTNL_MDBA_ROUTER_PATTR_ATTRS,
                                     "MDBA_ROUTER_PATTR_???", _ROUTER_PATTR)
    return text


_ROUTER = {_t(X.RTNL_MDBA_ROUTER_ATTRS, "MDBA_ROUTER_PORT"): _router_port}
_MDBA = {_t(X.RTNL_MDB_ATTRS, n): f for n, f in (
    ("MDBA_MDB", _nested(X.RTNL_MDBA_MDB_ATTRS, "MDBA_MDB_???", _MDB)),
    ("MDBA_ROUTER", _nested(X.RTNL_MDBA_ROUTER_ATTRS, "MDBA_ROUTER_???", _ROUTER)),
)}

_BR_PORT_MSG = struct.Struct("<BxxxI")


def _br_port_msg_fields(p: Printer, v: tuple[int, ...]) -> str:
    return f"ifindex={_ifindex(p, v[0])}"


# decode_br_port_msg: RTM_{NEW,DEL,GET}MDB (``bridge mdb``).
_br_port_msg = header_msg("family", _BR_PORT_MSG, _br_port_msg_fields, X.RTNL_MDB_ATTRS, "MDBA_???", _MDBA,
                           with_family=False)

# ---------------------------------------------------------------------------- DCB (rtnl_dcb.c)

_DCBMSG = struct.Struct("<BBH")


def _dcbmsg_fields(p: Printer, v: tuple[int, ...]) -> str:
    return f"cmd={p.xval(v[0], X.DCB_COMMANDS, 'DCB_CMD_???')}"


# decode_dcbmsg: RTM_GETDCB/RTM_SETDCB (``dcb``, lldpad); the DCB_ATTR_* payloads stay in hex.
_dcbmsg = header_msg("dcb_family", _DCBMSG, _dcbmsg_fields, X.RTNL_DCB_ATTRS, "DCB_ATTR_???", {},
                      with_family=False)

# ---------------------------------------------------------------------------- registration


def register(route: dict[int, Any], af_spec_by_family: dict[int, Any]) -> None:
    """Add the MDB and DCB decoders to netlink_route's message-type table and AF_BRIDGE's IFLA_AF_SPEC
    decoder to its per-family table (called once, by netlink.py when it loads netlink_route)."""
    for name in ("RTM_NEWMDB", "RTM_DELMDB", "RTM_GETMDB"):
        route[_t(X.NL_ROUTE_TYPES, name)] = _br_port_msg
    for name in ("RTM_GETDCB", "RTM_SETDCB"):
        route[_t(X.NL_ROUTE_TYPES, name)] = _dcbmsg
    af_spec_by_family[AF_BRIDGE] = _ifla_af_spec_bridge
