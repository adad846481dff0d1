"""RTM_NEWCACHEREPORT (multicast routing cache misses, ipmr/ip6mr): rtgenmsg and IPMRA_/IP6MRA_CREPORT_*
attributes, as strace 6.1 prints them.

Mirrors strace's ``src/rtnl_cachereport.c``: the family byte is an RTNL_FAMILY_*
(IPMR 128, IP6MR 129) or else an AF_*; the attributes after the 4-byte header
are decoded for those two families only, in hex for any other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

from typing import Any

from pytrace.decode.format import xlat
from pytrace.decode.nlattr import Mem, decode_nlattr, hexstr, inet_addr, nla_u32, nla_xval
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

Table = tuple[tuple[int, str], ...]



_AF_INET = _t(X.ADDRESS_FAMILIES, "AF_INET")
_AF_INET6 = _t(X.ADDRESS_FAMILIES, "AF_INET6")


def _in_addr(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    return inet_addr(m, address, length, _AF_INET) if length >= 4 else None


def _in6_addr(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    return inet_addr(m, address, length, _AF_INET6) if length >= 16 else None


_IPMRA = {_t(X.RTNL_IPMRA_CREPORT_ATTR, n): f for n, f in (
    ("IPMRA_CREPORT_MSGTYPE", nla_xval(X.RTNL_IPMRA_MSG_TYPES, "IGMPMSG_???", 1)),
    ("IPMRA_CREPORT_VIF_ID", nla_u32), ("IPMRA_CREPORT_SRC_ADDR", _in_addr), ("IPMRA_CREPORT_DST_ADDR", _in_addr),
    ("IPMRA_CREPORT_TABLE", nla_u32),
)}
_IP6MRA = {_t(X.RTNL_IP6MRA_CREPORT_ATTR, n): f for n, f in (
    ("IP6MRA_CREPORT_MSGTYPE", nla_xval(X.RTNL_IP6MRA_MSG_TYPES, "MRT6MSG_???", 1)),
    ("IP6MRA_CREPORT_MIF_ID", nla_u32), ("IP6MRA_CREPORT_SRC_ADDR", _in6_addr),
    ("IP6MRA_CREPORT_DST_ADDR", _in6_addr),
)}
_DESCS = {
    _t(X.RTNL_FAMILY, "RTNL_FAMILY_IPMR"): (X.RTNL_IPMRA_CREPORT_ATTR, "IPMRA_CREPORT_???", _IPMRA),
    _t(X.RTNL_FAMILY, "RTNL_FAMILY_IP6MR"): (X.RTNL_IP6MRA_CREPORT_ATTR, "IP6MRA_CREPORT_???", _IP6MRA),
}


def _family(p: Printer, family: int) -> str:
    """printxvals_ex(family, "RTNL_FAMILY_???", rtnl_family, addrfams): the first table that names it."""
    if xlat(family, X.RTNL_FAMILY) is not None:
        return p.xval(family, X.RTNL_FAMILY, "RTNL_FAMILY_???")
    return p.xval(family, X.ADDRESS_FAMILIES, "RTNL_FAMILY_???")


def _cachereport(m: Mem, address: int, length: int, family: int) -> str:
    text = m.p.struct((('rtgen_family', _family(m.p, family)),))
    if length > 4:
        desc = _DESCS.get(family)
        body = (decode_nlattr(m, address + 4, length - 4, *desc) if desc is not None
                else hexstr(m, address + 4, length - 4))
        text += ", " + body
    return text


def register(route: dict[int, Any]) -> None:
    """Add the cache report decoder to netlink_route's message-type table (called once, by netlink.py when it loads netlink_route)."""
    route[_t(X.NL_ROUTE_TYPES, "RTM_NEWCACHEREPORT")] = _cachereport
