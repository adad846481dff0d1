"""NETLINK_NETFILTER (nfnetlink): message type names, per-message flag sets and ``struct nfgenmsg``.

Mirrors strace 6.1's decode_nlmsg_type_netfilter / decode_nlmsg_flags_netfilter
(netlink.c) and decode_netlink_netfilter (netlink_netfilter.c).  nlmsg_type is
split into an 8-bit subsystem and an 8-bit message type, each named from its
own table; the payload is ``struct nfgenmsg`` then attributes strace prints
with no names (it has no per-subsystem attribute tables).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import struct
from typing import Any

from pytrace.decode import format as F
from pytrace.decode.format import addr
from pytrace.decode.nlattr import NLMSG_MIN_TYPE, Mem, decode_nlattr, hexstr
from pytrace.decode.nlattr import value_of as _v
from pytrace.tables import xlat as X

Table = tuple[tuple[int, str], ...]

_S = dict((n, v) for v, n in X.NL_NETFILTER_SUBSYS_IDS)
_NFTABLES = _S["NFNL_SUBSYS_NFTABLES"]
_BATCH_BEGIN = _v(X.NL_NETFILTER_MSG_TYPES, "NFNL_MSG_BATCH_BEGIN")
_BATCH_END = _v(X.NL_NETFILTER_MSG_TYPES, "NFNL_MSG_BATCH_END")

#: nf_nlmsg_types: subsystem id -> (message type table, default); index 0 (NONE) has none.
_SUBSYS_TYPES: dict[int, tuple[Table, str | None]] = {
    _S["NFNL_SUBSYS_NONE"]: ((), None),
    _S["NFNL_SUBSYS_CTNETLINK"]: (X.NF_CTNETLINK_MSG_TYPES, "IPCTNL_MSG_CT_???"),
    _S["NFNL_SUBSYS_CTNETLINK_EXP"]: (X.NF_CTNETLINK_EXP_MSG_TYPES, "IPCTNL_MSG_EXP_???"),
    _S["NFNL_SUBSYS_QUEUE"]: (X.NF_QUEUE_MSG_TYPES, "NFQNL_MSG_???"),
    _S["NFNL_SUBSYS_ULOG"]: (X.NF_ULOG_MSG_TYPES, "NFULNL_MSG_???"),
    _S["NFNL_SUBSYS_OSF"]: (X.NF_OSF_MSG_TYPES, "OSF_MSG_???"),
    _S["NFNL_SUBSYS_IPSET"]: (X.NF_IPSET_MSG_TYPES, "IPSET_CMD_???"),
    _S["NFNL_SUBSYS_ACCT"]: (X.NF_ACCT_MSG_TYPES, "NFNL_MSG_ACCT_???"),
    _S["NFNL_SUBSYS_CTNETLINK_TIMEOUT"]: (X.NF_CTTIMEOUT_MSG_TYPES, "IPCTNL_MSG_TIMEOUT_???"),
    _S["NFNL_SUBSYS_CTHELPER"]: (X.NF_CTHELPER_MSG_TYPES, "NFNL_MSG_CTHELPER_???"),
    _S["NFNL_SUBSYS_NFTABLES"]: (X.NF_NFTABLES_MSG_TYPES, "NFT_MSG_???"),
    _S["NFNL_SUBSYS_NFT_COMPAT"]: (X.NF_NFT_COMPAT_MSG_TYPES, "NFNL_MSG_COMPAT_???"),
    _S["NFNL_SUBSYS_HOOK"]: (X.NF_HOOK_MSG_TYPES, "NFT_MSG_HOOK_???"),
}


def _flag_map() -> dict[int, Table]:
    """decode_nlmsg_flags_netfilter as one (subsys << 8 | type) -> flag table map, built once."""
    groups: list[tuple[str, Table, Table, tuple[str, ...]]] = [
        ("NFNL_SUBSYS_CTNETLINK", X.NF_CTNETLINK_MSG_TYPES, X.NETLINK_NEW_FLAGS, ("IPCTNL_MSG_CT_NEW",)),
        ("NFNL_SUBSYS_CTNETLINK", X.NF_CTNETLINK_MSG_TYPES, X.NETLINK_GET_FLAGS, (
            "IPCTNL_MSG_CT_GET", "IPCTNL_MSG_CT_GET_CTRZERO", "IPCTNL_MSG_CT_GET_STATS_CPU",
            "IPCTNL_MSG_CT_GET_STATS", "IPCTNL_MSG_CT_GET_DYING", "IPCTNL_MSG_CT_GET_UNCONFIRMED")),
        ("NFNL_SUBSYS_CTNETLINK", X.NF_CTNETLINK_MSG_TYPES, X.NETLINK_DELETE_FLAGS, ("IPCTNL_MSG_CT_DELETE",)),
        ("NFNL_SUBSYS_CTNETLINK_EXP", X.NF_CTNETLINK_EXP_MSG_TYPES, X.NETLINK_NEW_FLAGS, ("IPCTNL_MSG_EXP_NEW",)),
        ("NFNL_SUBSYS_CTNETLINK_EXP", X.NF_CTNETLINK_EXP_MSG_TYPES, X.NETLINK_GET_FLAGS,
         ("IPCTNL_MSG_EXP_GET", "IPCTNL_MSG_EXP_GET_STATS_CPU")),
        ("NFNL_SUBSYS_CTNETLINK_EXP", X.NF_CTNETLINK_EXP_MSG_TYPES, X.NETLINK_DELETE_FLAGS,
         ("IPCTNL_MSG_EXP_DELETE",)),
        ("NFNL_SUBSYS_ACCT", X.NF_ACCT_MSG_TYPES, X.NETLINK_NEW_FLAGS, ("NFNL_MSG_ACCT_NEW",)),
        ("NFNL_SUBSYS_ACCT", X.NF_ACCT_MSG_TYPES, X.NETLINK_GET_FLAGS,
         ("NFNL_MSG_ACCT_GET", "NFNL_MSG_ACCT_GET_CTRZERO")),
        ("NFNL_SUBSYS_ACCT", X.NF_ACCT_MSG_TYPES, X.NETLINK_DELETE_FLAGS, ("NFNL_MSG_ACCT_DEL",)),
        ("NFNL_SUBSYS_CTNETLINK_TIMEOUT", X.NF_CTTIMEOUT_MSG_TYPES, X.NETLINK_NEW_FLAGS,
         ("IPCTNL_MSG_TIMEOUT_NEW",)),
        ("NFNL_SUBSYS_CTNETLINK_TIMEOUT", X.NF_CTTIMEOUT_MSG_TYPES, X.NETLINK_GET_FLAGS,
         ("IPCTNL_MSG_TIMEOUT_GET",)),
        ("NFNL_SUBSYS_CTNETLINK_TIMEOUT", X.NF_CTTIMEOUT_MSG_TYPES, X.NETLINK_DELETE_FLAGS,
         ("IPCTNL_MSG_TIMEOUT_DELETE",)),
        ("NFNL_SUBSYS_CTHELPER", X.NF_CTHELPER_MSG_TYPES, X.NETLINK_NEW_FLAGS, ("NFNL_MSG_CTHELPER_NEW",)),
        ("NFNL_SUBSYS_CTHELPER", X.NF_CTHELPER_MSG_TYPES, X.NETLINK_GET_FLAGS, ("NFNL_MSG_CTHELPER_GET",)),
        ("NFNL_SUBSYS_CTHELPER", X.NF_CTHELPER_MSG_TYPES, X.NETLINK_DELETE_FLAGS, ("NFNL_MSG_CTHELPER_DEL",)),
        ("NFNL_SUBSYS_NFTABLES", X.NF_NFTABLES_MSG_TYPES, X.NETLINK_NEW_FLAGS, (
            "NFT_MSG_NEWTABLE", "NFT_MSG_NEWCHAIN", "NFT_MSG_NEWRULE", "NFT_MSG_NEWSET", "NFT_MSG_NEWSETELEM",
            "NFT_MSG_NEWGEN", "NFT_MSG_NEWOBJ", "NFT_MSG_NEWFLOWTABLE")),
        ("NFNL_SUBSYS_NFTABLES", X.NF_NFTABLES_MSG_TYPES, X.NETLINK_GET_FLAGS, (
            "NFT_MSG_GETTABLE", "NFT_MSG_GETCHAIN", "NFT_MSG_GETRULE", "NFT_MSG_GETSET", "NFT_MSG_GETSETELEM",
            "NFT_MSG_GETGEN", "NFT_MSG_GETOBJ", "NFT_MSG_GETOBJ_RESET", "NFT_MSG_GETFLOWTABLE")),
        ("NFNL_SUBSYS_NFTABLES", X.NF_NFTABLES_MSG_TYPES, X.NETLINK_DELETE_FLAGS, (
            "NFT_MSG_DELTABLE", "NFT_MSG_DELCHAIN", "NFT_MSG_DELRULE", "NFT_MSG_DELSET", "NFT_MSG_DELSETELEM",
            "NFT_MSG_DELOBJ", "NFT_MSG_DELFLOWTABLE")),
        ("NFNL_SUBSYS_NFT_COMPAT", X.NF_NFT_COMPAT_MSG_TYPES, X.NETLINK_GET_FLAGS, ("NFNL_MSG_COMPAT_GET",)),
        ("NFNL_SUBSYS_HOOK", X.NF_HOOK_MSG_TYPES, X.NETLINK_GET_FLAGS, ("NFNL_MSG_HOOK_GET",)),
    ]
    out: dict[int, Table] = {}
    for subsys, types, table, names in groups:
        for name in names:
            out.setdefault(_S[subsys] << 8 | _v(types, name), table)
    return out


_FLAGS = _flag_map()


def nlmsg_type(p: Printer, mtype: int) -> str:
    """decode_nlmsg_type_netfilter: ``NFNL_SUBSYS_ACCT<<8|NFNL_MSG_ACCT_NEW``, batch messages by name."""
    name = F.xlat(mtype, X.NL_NETFILTER_MSG_TYPES)
    if name is not None:
        return p.print_xlat(mtype, name)
    subsys_id, msg = mtype >> 8, mtype & 0xFF
    subsys = p.xval(subsys_id, X.NL_NETFILTER_SUBSYS_IDS, "NFNL_SUBSYS_???")
    entry = _SUBSYS_TYPES.get(subsys_id)
    if entry is None or entry[1] is None:
        return f"{subsys}<<8|{msg:#x}" if msg else f"{subsys}<<8|0"
    return f"{subsys}<<8|{p.xval(msg, entry[0], entry[1])}"


def nlmsg_flags_table(mtype: int) -> Table:
    """decode_nlmsg_flags_netfilter: the NEW/GET/DELETE flag set this message type uses (none if unknown)."""
    return _FLAGS.get(mtype, ())


def _res_id(p: Printer, subsys_id: int, raw_res: int) -> str:
    """res_id is big-endian, except nftables' historic host-order NFNL_SUBSYS_NFTABLES (strace's workaround)."""
    res = ((raw_res & 0xFF) << 8) | (raw_res >> 8)
    if subsys_id == _NFTABLES and res == _NFTABLES:
        return p.print_xlat(raw_res, "htons(NFNL_SUBSYS_NFTABLES)")
    if subsys_id == _NFTABLES and raw_res == _NFTABLES:
        return p.print_xlat(raw_res, "NFNL_SUBSYS_NFTABLES")
    return f"htons({res})"


def decode_netfilter(m: Mem, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str | None:
    """decode_netlink_netfilter: ``{nfgen_family=AF_INET, version=NFNETLINK_V0, res_id=htons(0)}`` + attributes."""
    mtype = hdr[1]
    if mtype < NLMSG_MIN_TYPE:  # NLMSG_DONE: strace's generic fallback
        return None
    if length < 4:
        return hexstr(m, address, length)
    raw = m.get(address, 4)
    if raw is None:
        return addr(address)
    family, version, res = struct.unpack("<BBH", raw)
    text = (m.p.struct((('nfgen_family', m.p.xval(family, X.ADDRESS_FAMILIES, 'AF_???')), ('version', m.p.xval(version, X.NETFILTER_VERSIONS, 'NFNETLINK_???')), ('res_id', _res_id(m.p, mtype >> 8, res)))))
    if length > 4:
        if _BATCH_BEGIN <= mtype <= _BATCH_END:
            rest = hexstr(m, address + 4, length - 4)
        else:
            rest = decode_nlattr(m, address + 4, length - 4, (), "", None)
        text = m.p.args((f"{text}", f"{rest}"))
    return text


def register(decoders: dict[int, Any], netfilter: int) -> None:
    """Hook the payload decoder into netlink.py's family table."""
    decoders[netfilter] = decode_netfilter
