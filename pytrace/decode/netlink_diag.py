"""NETLINK_SOCK_DIAG payloads: inet_diag, unix_diag, netlink_diag and packet_diag requests and responses.

Mirrors strace's ``src/netlink_sock_diag.c``, ``netlink_inet_diag.c``,
``netlink_unix_diag.c``, ``netlink_netlink_diag.c`` and ``netlink_packet_diag.c``
(6.1).  Requests (NLM_F_REQUEST set) and responses are told apart by the
header flags, as strace does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import os
import struct
from collections.abc import Callable
from typing import Any

from pytrace.decode.format import addr
from pytrace.decode.nlattr import (
    NLM_F_REQUEST,
    NLMSG_DONE,
    Mem,
    decode_nlattr,
    hexstr,
    inet_addr,
    more_comment,
    nla_ifindex,
    nla_meminfo,
    nla_str,
    nla_struct,
    nla_u8,
    nla_u32,
    nla_u64,
    nla_uid,
    nla_xval,
    print_inet_addr,
    uint_array,
)
from pytrace.decode.nlattr import value_of as _t
from pytrace.tables import xlat as X

_AF_UNIX, _AF_INET, _AF_INET6 = (_t(X.ADDRESS_FAMILIES, n) for n in ("AF_UNIX", "AF_INET", "AF_INET6"))
_COMPAT_TYPES = frozenset(_t(X.NL_SOCK_DIAG_TYPES, n) for n in ("TCPDIAG_GETSOCK", "DCCPDIAG_GETSOCK"))


def _af(p: Printer, family: int) -> str:
    return p.xval(family, X.ADDRESS_FAMILIES, "AF_???")


def _cookie(raw: bytes) -> str:
    a, b = struct.unpack("<II", raw)
    return f"[{a}, {b}]"


def _ifindex(p: Printer, index: int) -> str:
    from pytrace.decode.inet import ifindex as print_ifindex

    return print_ifindex(p, index)


def _sockid(p: Printer, raw: bytes, family: int) -> str:
    """print_inet_diag_sockid: 48 bytes of struct inet_diag_sockid."""
    from pytrace.decode.inet import htons_field

    index = struct.unpack_from("<I", raw, 36)[0]
    return (f"{{{htons_field(p, 'idiag_sport', raw[0:2])}, {htons_field(p, 'idiag_dport', raw[2:4])}, "
            f"{print_inet_addr(p, family, raw[4:20], 'idiag_src')}, {print_inet_addr(p, family, raw[20:36], 'idiag_dst')}, "
            f"idiag_if={_ifindex(p, index)}, idiag_cookie={_cookie(raw[40:48])}}}")


_EXT_DFLT = "1<<INET_DIAG_???-1"


def _diag_struct(first_field: str, size: int, fields: Callable[[bytes, int], str],
                 attrs: Callable[[Mem, int, int], str] | None) -> Callable[..., str]:
    """A decoder for a sock_diag request or answer: a fixed structure, then (for some) attributes.

    Every family prints them alike: ``{FIRST_FIELD=AF_..., fields}``, ``...`` when the
    message is shorter than the structure, its address when it cannot be read; only the
    fields and the attribute table differ (strace's netlink_*_diag.c).
    """

    def decode(m: Mem, hdr: Any, family: int, address: int, length: int) -> str:
        text = f"{{{first_field}={_af(m.p, family)}, "
        if length < size:
            return text + "...}"
        raw = m.get(address, size)
        if raw is None:
            return text + addr(address + 1) + "}"
        text += fields(m.p, raw, family) + "}"
        return text + attrs(m, address, length) if attrs is not None else text

    return decode


def _attrs(size: int, table: Any, dflt: str, decoders: dict[int, Any]) -> Callable[[Mem, int, int], str]:
    """The attributes after an answer's structure."""

    def decode(m: Mem, address: int, length: int) -> str:
        if length <= size:
            return ""
        return ", " + decode_nlattr(m, address + size, length - size, table, dflt, decoders)

    return decode


_BC = {n: _t(X.INET_DIAG_BYTECODES, n) for n in (
    "INET_DIAG_BC_S_COND", "INET_DIAG_BC_D_COND", "INET_DIAG_BC_DEV_COND", "INET_DIAG_BC_S_GE", "INET_DIAG_BC_S_LE",
    "INET_DIAG_BC_D_GE", "INET_DIAG_BC_D_LE", "INET_DIAG_BC_MARK_COND")}
_BC_HOSTCOND = frozenset((_BC["INET_DIAG_BC_S_COND"], _BC["INET_DIAG_BC_D_COND"]))
_BC_PORTCOND = frozenset(_BC[n] for n in ("INET_DIAG_BC_S_GE", "INET_DIAG_BC_S_LE", "INET_DIAG_BC_D_GE",
                                          "INET_DIAG_BC_D_LE"))


def _bc_op(p: Printer, raw: bytes) -> str:
    """print_inet_diag_bc_op: ``{code=INET_DIAG_BC_S_COND, yes=4, no=8}``."""
    code, yes, no = struct.unpack("<BBH", raw)
    return p.struct((('code', p.xval(code, X.INET_DIAG_BYTECODES, 'INET_DIAG_BC_???')), ('yes', f"{yes}"), ('no', f"{no}")))


def _bc_data(m: Mem, address: int, length: int, code: int) -> str:
    """decode_bytecode_data: what follows an operation, by its code (hex when short or unknown)."""
    if code in _BC_HOSTCOND:
        if length < 8:
            return hexstr(m, address, length)
        raw = m.get(address, 8)
        if raw is None:
            return addr(address)
        family, prefix_len, port = struct.unpack("<BBxxI", raw)
        text = f"{{family={_af(m.p, family)}, prefix_len={prefix_len}, port={port}"
        if length > 8:
            text += ", " + inet_addr(m, address + 8, length - 8, family, "addr")
        return text + "}"
    size = 4 if code in _BC_PORTCOND or code == _BC["INET_DIAG_BC_DEV_COND"] else (
        8 if code == _BC["INET_DIAG_BC_MARK_COND"] else 0)
    if not size or length < size:
        return hexstr(m, address, length)
    raw = m.get(address, size)
    if raw is None:
        return addr(address)
    if code in _BC_PORTCOND:
        return _bc_op(m.p, raw)
    if size == 8:
        mark, mask = struct.unpack("<II", raw)
        return m.p.struct((('mark', f"{mark}"), ('mask', f"{mask}")))
    return nla_ifindex(m, address, length, None) or hexstr(m, address, length)


def _bytecode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_inet_diag_bc_op: the first operation, then its data."""
    if length < 4:
        return None
    raw = m.get(address, 4)
    if raw is None:
        return addr(address)
    text = _bc_op(m.p, raw)
    if length > 4:
        text += ", " + _bc_data(m, address + 4, length - 4, raw[0])
    return text


_REQ_DECODERS = {_t(X.INET_DIAG_REQ_ATTRS, "INET_DIAG_REQ_BYTECODE"): _bytecode,
                 _t(X.INET_DIAG_REQ_ATTRS, "INET_DIAG_REQ_PROTOCOL"): nla_xval(X.IP_PROTOCOLS, "IPPROTO_???", 0)}


def _req_attrs(m: Mem, address: int, length: int, size: int) -> str:
    off = (size + 3) & ~3
    if length > off:
        return ", " + decode_nlattr(m, address + off, length - off, X.INET_DIAG_REQ_ATTRS, "INET_DIAG_REQ_???",
                                    _REQ_DECODERS)
    return ""


def _inet_req_v2_fields(p: Printer, raw: bytes, family: int) -> str:
    proto, ext, states = raw[1], raw[2], struct.unpack_from("<I", raw, 4)[0]
    return (p.args((f"sdiag_protocol={p.xval(proto, X.IP_PROTOCOLS, 'IPPROTO_???')}", f"idiag_ext={p.flags(ext, X.INET_DIAG_EXTENDED_FLAGS, _EXT_DFLT)}", f"idiag_states={p.flags(states, X.TCP_STATE_FLAGS, '1<<TCP_???')}", f"id={_sockid(p, raw[8:56], family)}")))


_inet_req_v2 = _diag_struct("sdiag_family", 56, _inet_req_v2_fields, lambda m, a, n: _req_attrs(m, a, n, 56))


def _inet_req_compat_fields(p: Printer, raw: bytes, family: int) -> str:
    states, dbs = struct.unpack_from("<II", raw, 52)
    return (p.args((f"idiag_src_len={raw[1]}", f"idiag_dst_len={raw[2]}", f"idiag_ext={p.flags(raw[3], X.INET_DIAG_EXTENDED_FLAGS, _EXT_DFLT)}", f"id={_sockid(p, raw[4:52], family)}", f"idiag_states={p.flags(states, X.TCP_STATE_FLAGS, '1<<TCP_???')}", f"idiag_dbs={dbs}")))


_inet_req_compat = _diag_struct("idiag_family", 60, _inet_req_compat_fields, lambda m, a, n: _req_attrs(m, a, n, 60))


def _inet_req(m: Mem, hdr: Any, family: int, address: int, length: int) -> str:
    return (_inet_req_compat if hdr[1] in _COMPAT_TYPES else _inet_req_v2)(m, hdr, family, address, length)


def _shutdown(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_diag_shutdown: the kernel-internal names only as a comment (XLAT_STYLE_VERBOSE)."""
    if length > 8 or length < 1:
        return None
    raw = m.get(address, 1)
    if raw is None:
        return addr(address)
    v = raw[0]
    if not v:
        return "0"
    return f"{v:#x} /* {m.p.flags(v, X.INET_DIAG_SHUTDOWN_FLAGS, '???_SHUTDOWN')} */"


_SOCKOPT_BITS = ("recverr", "is_icsk", "freebind", "hdrincl", "mc_loop", "transparent", "mc_all", "nodefrag",
                 "bind_address_no_port", "recverr_rfc4884", "defer_connect")


def _sockopt(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """INET_DIAG_SOCKOPT: struct inet_diag_sockopt's bit fields, the set ones."""
    if length < 2:
        return None
    raw = m.get(address, 2)
    if raw is None:
        return addr(address)
    bits = int.from_bytes(raw, "little")
    shown = [f"{n}=1" for i, n in enumerate(_SOCKOPT_BITS) if bits >> i & 1]
    if bits >> len(_SOCKOPT_BITS):
        shown.append(f"unused={bits >> len(_SOCKOPT_BITS):#x}")
    return "{" + ", ".join(shown) + "}"


_INET_ATTRS = {_t(X.INET_DIAG_ATTRS, n): f for n, f in (
    ("INET_DIAG_MEMINFO", nla_struct("<IIII", ("idiag_rmem", "idiag_wmem", "idiag_fmem", "idiag_tmem"))),
    ("INET_DIAG_CONG", nla_str), ("INET_DIAG_TOS", nla_u8), ("INET_DIAG_TCLASS", nla_u8),
    ("INET_DIAG_SKMEMINFO", nla_meminfo), ("INET_DIAG_SHUTDOWN", _shutdown), ("INET_DIAG_PROTOCOL", nla_xval(X.IP_PROTOCOLS, "IPPROTO_???", 0)),
    ("INET_DIAG_SKV6ONLY", nla_u8), ("INET_DIAG_MARK", nla_u32), ("INET_DIAG_CLASS_ID", nla_u32),
    ("INET_DIAG_CGROUP_ID", nla_u64), ("INET_DIAG_SOCKOPT", _sockopt),
    ("INET_DIAG_VEGASINFO", nla_struct("<IIII", ("tcpv_enabled", "tcpv_rttcnt", "tcpv_rtt", "tcpv_minrtt"))),
    ("INET_DIAG_DCTCPINFO", nla_struct("<HHIII", ("dctcp_enabled", "dctcp_ce_state", "dctcp_alpha",
                                                  "dctcp_ab_ecn", "dctcp_ab_tot"))),
    ("INET_DIAG_BBRINFO", nla_struct("<IIIII", ("bbr_bw_lo", "bbr_bw_hi", "bbr_min_rtt", "bbr_pacing_gain",
                                                "bbr_cwnd_gain"), frozenset(("bbr_bw_lo", "bbr_bw_hi")))),
)}


def _inet_msg_fields(p: Printer, raw: bytes, family: int) -> str:
    expires, rq, wq, uid, inode = struct.unpack_from("<IIIII", raw, 52)
    return (p.args((f"idiag_state={p.xval(raw[1], X.TCP_STATES, 'TCP_???')}", f"idiag_timer={raw[2]}", f"idiag_retrans={raw[3]}", f"id={_sockid(p, raw[4:52], family)}", f"idiag_expires={expires}", f"idiag_rqueue={rq}", f"idiag_wqueue={wq}", f"idiag_uid={uid}", f"idiag_inode={inode}")))


_inet_msg = _diag_struct("idiag_family", 72, _inet_msg_fields, _attrs(72, X.INET_DIAG_ATTRS, "INET_DIAG_???", _INET_ATTRS))


def _unix_req_fields(p: Printer, raw: bytes, family: int) -> str:
    states, ino, show = struct.unpack_from("<III", raw, 4)
    return (p.args((f"sdiag_protocol={raw[1]}", f"udiag_states={p.flags(states, X.TCP_STATE_FLAGS, '1<<TCP_???')}", f"udiag_ino={ino}", f"udiag_show={p.flags(show, X.UNIX_DIAG_SHOW, 'UDIAG_SHOW_???')}", f"udiag_cookie={_cookie(raw[16:24])}")))


_unix_req = _diag_struct("sdiag_family", 24, _unix_req_fields, None)


def _unix_vfs(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 8:
        return None
    raw = m.get(address, 8)
    if raw is None:
        return addr(address)
    ino, dev = struct.unpack("<II", raw)  # struct unix_diag_vfs: ino first; strace prints dev first
    major, minor = os.major(dev), os.minor(dev)
    return (m.p.struct((('udiag_vfs_dev', f"makedev({major:#x}, {minor:#x})"), ('udiag_vfs_ino', f"{ino}")))
            .replace("(0x0,", "(0,").replace(", 0x0)", ", 0)"))


def _unix_icons(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    count = length // 4
    if not count:
        return None
    return uint_array(m, address, count, 4, lambda i, v: str(v))


_UNIX_ATTRS = {_t(X.UNIX_DIAG_ATTRS, n): f for n, f in (
    ("UNIX_DIAG_NAME", nla_str), ("UNIX_DIAG_VFS", _unix_vfs), ("UNIX_DIAG_PEER", nla_u32),
    ("UNIX_DIAG_ICONS", _unix_icons),
    ("UNIX_DIAG_RQLEN", nla_struct("<II", ("udiag_rqueue", "udiag_wqueue"))),
    ("UNIX_DIAG_MEMINFO", nla_meminfo), ("UNIX_DIAG_SHUTDOWN", nla_u8), ("UNIX_DIAG_UID", nla_uid),
)}


def _unix_msg_fields(p: Printer, raw: bytes, family: int) -> str:
    ino = struct.unpack_from("<I", raw, 4)[0]
    return (p.args((f"udiag_type={p.xval(raw[1], X.SOCKET_TYPES, 'SOCK_???')}", f"udiag_state={p.xval(raw[2], X.TCP_STATES, 'TCP_???')}", f"udiag_ino={ino}", f"udiag_cookie={_cookie(raw[8:16])}")))


_unix_msg = _diag_struct("udiag_family", 16, _unix_msg_fields, _attrs(16, X.UNIX_DIAG_ATTRS, "UNIX_DIAG_???", _UNIX_ATTRS))


# ---------------------------------------------------------------------------- netlink_diag (netlink_netlink_diag.c)

_NDIAG_PROTO_ALL = _t(X.NETLINK_DIAG_CONSTANTS, "NDIAG_PROTO_ALL")


def _netlink_req_fields(p: Printer, raw: bytes, family: int) -> str:
    proto = raw[1]
    ino, show = struct.unpack_from("<II", raw, 4)
    proto_text = ("NDIAG_PROTO_ALL" if proto == _NDIAG_PROTO_ALL
                  else p.xval(proto, X.NETLINK_PROTOCOLS, "NETLINK_???"))
    return (p.args((f"sdiag_protocol={proto_text}", f"ndiag_ino={ino}", f"ndiag_show={p.flags(show, X.NETLINK_DIAG_SHOW, 'NDIAG_SHOW_???')}", f"ndiag_cookie={_cookie(raw[12:20])}")))


_netlink_req = _diag_struct("sdiag_family", 20, _netlink_req_fields, None)


def _netlink_flags(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_netlink_diag_flags: a u32 printflags (no upper length bound, unlike decode_nla_flags)."""
    if length < 4:
        return None
    raw = m.get(address, 4)
    return addr(address) if raw is None else m.p.flags(struct.unpack("<I", raw)[0], X.NETLINK_SOCKET_FLAGS,
                                                     "NDIAG_FLAG_???")


def _group(i: int, v: int) -> str:
    """print_group: PRINT_VAL_0X of a kernel long (``%#016llx``: zero has no 0x)."""
    return "0" * 16 if v == 0 else f"{v:#016x}"


def _netlink_groups(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    count = length // 8
    return uint_array(m, address, count, 8, _group) if count else None


_NETLINK_ATTRS = {_t(X.NETLINK_DIAG_ATTRS, n): f for n, f in (
    ("NETLINK_DIAG_MEMINFO", nla_meminfo), ("NETLINK_DIAG_GROUPS", _netlink_groups),
    ("NETLINK_DIAG_RX_RING", nla_struct("<IIII", ("ndr_block_size", "ndr_block_nr", "ndr_frame_size",
                                                  "ndr_frame_nr"))),
    ("NETLINK_DIAG_TX_RING", nla_struct("<IIII", ("ndr_block_size", "ndr_block_nr", "ndr_frame_size",
                                                  "ndr_frame_nr"))),
    ("NETLINK_DIAG_FLAGS", _netlink_flags),
)}


def _netlink_msg_fields(p: Printer, raw: bytes, family: int) -> str:
    portid, dst_portid, dst_group, ino = struct.unpack_from("<IIII", raw, 4)
    return (p.args((f"ndiag_type={p.xval(raw[1], X.SOCKET_TYPES, 'SOCK_???')}", f"ndiag_protocol={p.xval(raw[2], X.NETLINK_PROTOCOLS, 'NETLINK_???')}", f"ndiag_state={p.xval(raw[3], X.NETLINK_STATES, 'NETLINK_???')}", f"ndiag_portid={portid}", f"ndiag_dst_portid={dst_portid}", f"ndiag_dst_group={dst_group}", f"ndiag_ino={ino}", f"ndiag_cookie={_cookie(raw[20:28])}")))


_netlink_msg = _diag_struct("ndiag_family", 28, _netlink_msg_fields, _attrs(28, X.NETLINK_DIAG_ATTRS, "NETLINK_DIAG_???", _NETLINK_ATTRS))


# ---------------------------------------------------------------------------- packet_diag (netlink_packet_diag.c)


def _packet_req_fields(p: Printer, raw: bytes, family: int) -> str:
    ino, show = struct.unpack_from("<II", raw, 4)
    proto = f"{raw[1]:#x}" if raw[1] else "0"
    return (p.args((f"sdiag_protocol={proto}", f"pdiag_ino={ino}", f"pdiag_show={p.flags(show, X.PACKET_DIAG_SHOW, 'PACKET_SHOW_???')}", f"pdiag_cookie={_cookie(raw[12:20])}")))


_packet_req = _diag_struct("sdiag_family", 20, _packet_req_fields, None)


def _packet_info(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    if length < 24:
        return None
    raw = m.get(address, 24)
    if raw is None:
        return addr(address)
    index, version, reserve, thresh, tstamp, pflags = struct.unpack("<6I", raw)
    return (m.p.struct((('pdi_index', _ifindex(m.p, index)), ('pdi_version', m.p.xval(version, X.AF_PACKET_VERSIONS, 'TPACKET_???')), ('pdi_reserve', f"{reserve}"), ('pdi_copy_thresh', f"{thresh}"), ('pdi_tstamp', f"{tstamp}"), ('pdi_flags', m.p.flags(pflags, X.PACKET_DIAG_INFO_FLAGS, 'PDI_???')))))


_MCLIST = struct.Struct("<IIHH32s")


def _packet_mclist(m: Mem, address: int, length: int, opaque: Any) -> str | None:

    count = length // _MCLIST.size
    if not count:
        return None
    parts = []
    for i in range(count):
        if not m.p.opts.verbose and i >= m.p.opts.max_strlen:
            parts.append("...")
            break
        raw = m.get(address + i * _MCLIST.size, _MCLIST.size)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(more_comment(address + i * _MCLIST.size))
            break
        index, cnt, mtype, alen, maddr = _MCLIST.unpack(raw)
        parts.append(m.p.struct((('pdmc_index', _ifindex(m.p, index)), ('pdmc_count', f"{cnt}"), ('pdmc_type', f"{mtype}"), ('pdmc_alen', f"{alen}"), ('pdmc_addr', m.p.quote(maddr[:min(alen, 32)], force_hex=True)))))
    return "[" + ", ".join(parts) + "]"


def _packet_filter(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    from pytrace.decode.bpf_insns import sock_filter_array

    count = length // 8
    if not count or count > 0xFFFF:
        return None
    return sock_filter_array(m.p, m.call, address, count)


_PDR = nla_struct("<7I", ("pdr_block_size", "pdr_block_nr", "pdr_frame_size", "pdr_frame_nr", "pdr_retire_tmo",
                          "pdr_sizeof_priv", "pdr_features"))
_PACKET_ATTRS = {_t(X.PACKET_DIAG_ATTRS, n): f for n, f in (
    ("PACKET_DIAG_INFO", _packet_info), ("PACKET_DIAG_MCLIST", _packet_mclist), ("PACKET_DIAG_RX_RING", _PDR),
    ("PACKET_DIAG_TX_RING", _PDR), ("PACKET_DIAG_FANOUT", nla_u32), ("PACKET_DIAG_UID", nla_uid),
    ("PACKET_DIAG_MEMINFO", nla_meminfo), ("PACKET_DIAG_FILTER", _packet_filter),
)}


def _packet_msg_fields(p: Printer, raw: bytes, family: int) -> str:
    num, ino = struct.unpack_from("<HI", raw, 2)
    return (p.args((f"pdiag_type={p.xval(raw[1], X.SOCKET_TYPES, 'SOCK_???')}", f"pdiag_num={p.xval(num, X.ETHERNET_PROTOCOLS, 'ETH_P_???')}", f"pdiag_ino={ino}", f"pdiag_cookie={_cookie(raw[8:16])}")))


_packet_msg = _diag_struct("pdiag_family", 16, _packet_msg_fields, _attrs(16, X.PACKET_DIAG_ATTRS, "PACKET_DIAG_???", _PACKET_ATTRS))


_AF_NETLINK, _AF_PACKET = (_t(X.ADDRESS_FAMILIES, n) for n in ("AF_NETLINK", "AF_PACKET"))
_DIAG = {_AF_UNIX: (_unix_req, _unix_msg), _AF_INET: (_inet_req, _inet_msg), _AF_INET6: (_inet_req, _inet_msg),
         _AF_NETLINK: (_netlink_req, _netlink_msg), _AF_PACKET: (_packet_req, _packet_msg)}


def decode_sock_diag(m: Mem, hdr: Any, address: int, length: int) -> str | None:
    """decode_netlink_sock_diag: request or response by NLM_F_REQUEST, else ``{family=AF_..., "..."}``."""
    if hdr[1] == NLMSG_DONE:
        return None
    raw = m.get(address, 1)
    if raw is None:
        return addr(address)
    family = raw[0]
    pair = _DIAG.get(family)
    if pair is not None and length > 1:
        return pair[0 if hdr[2] & NLM_F_REQUEST else 1](m, hdr, family, address, length)
    text = f"{{family={_af(m.p, family)}"
    if length > 1:
        text += ", " + hexstr(m, address + 1, length - 1)
    return text + "}"
