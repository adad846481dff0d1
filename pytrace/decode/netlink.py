"""Netlink messages inside socket buffers, printed as strace 6.1 prints them.

Mirrors strace's ``src/netlink.c``: a buffer sent to or received from a netlink
socket is an array of ``struct nlmsghdr`` each followed by a family-specific
payload (``netlink_route``, ``netlink_diag``) and a chain of ``struct nlattr``
attributes, some of them nested (``nlattr.py``, strace's ``src/nlattr.c``).

Which buffers: ``send``/``sendto``/``recv``/``recvfrom`` on a descriptor
whose socket protocol (the ``system.sockprotoname`` xattr) is NETLINK, and the
``msg_iov`` of ``sendmsg``/``recvmsg``/``*mmsg`` whose ``msg_name`` is an
``AF_NETLINK`` address (strace's two rules).  The netlink family (ROUTE,
SOCK_DIAG, ...) comes from sock_diag, through the same inode cache ``-yy``
uses (``decode.fds.socket_details``), so it works without ``-y``.

Cost: a non-netlink socket buffer costs one ``readlink`` of /proc/PID/fd/FD
per call plus a dict lookup; what is learnt about an inode is cached by
(pid, fd, inode).  The decoding itself reads the whole buffer once
(``Mem``) and slices it, instead of strace's many small reads.
"""

from __future__ import annotations

import os
import struct
from typing import TYPE_CHECKING, Any

from pytrace.decode import format as F
from pytrace.decode.format import addr
from pytrace.decode.nlattr import (
    NLATTR,
    NLM_F_CAPPED,
    NLMSG_DONE,
    NLMSG_ERROR,
    NLMSG_HDRLEN,
    NLMSG_MIN_TYPE,
    Mem,
    Table,
    decode_nlattr,
    hexstr,
    more_comment,
    nla_str,
    nla_u32,
    uint_array,
)
from pytrace.decode.nlattr import value_of as _v
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_P = dict((n, v) for v, n in X.NETLINK_PROTOCOLS)
NETLINK_ROUTE, NETLINK_SOCK_DIAG, NETLINK_GENERIC = _P["NETLINK_ROUTE"], _P["NETLINK_SOCK_DIAG"], _P["NETLINK_GENERIC"]
NETLINK_NETFILTER, NETLINK_CRYPTO, NETLINK_XFRM = _P["NETLINK_NETFILTER"], _P["NETLINK_CRYPTO"], _P["NETLINK_XFRM"]
NETLINK_KOBJECT_UEVENT = _P["NETLINK_KOBJECT_UEVENT"]

_HDR = struct.Struct("<IHHIi")


# ---------------------------------------------------------------------------- nlmsghdr (netlink.c)

_TYPES: dict[int, tuple[Table, str]] = {
    _P["NETLINK_AUDIT"]: (X.NL_AUDIT_TYPES, "AUDIT_???"),
    NETLINK_CRYPTO: (X.NL_CRYPTO_TYPES, "CRYPTO_MSG_???"),
    NETLINK_ROUTE: (X.NL_ROUTE_TYPES, "RTM_???"),
    _P["NETLINK_SELINUX"]: (X.NL_SELINUX_TYPES, "SELNL_MSG_???"),
    NETLINK_SOCK_DIAG: (X.NL_SOCK_DIAG_TYPES, "SOCK_DIAG_???"),
    NETLINK_XFRM: (X.NL_XFRM_TYPES, "XFRM_MSG_???"),
}

_genl_families: Table | None = None


def _genl_table() -> Table:
    """genl_families_xlat: the generic netlink families the kernel has now, asked once (CTRL_CMD_GETFAMILY)."""
    global _genl_families
    if _genl_families is not None:
        return _genl_families
    rows: list[tuple[int, str]] = []
    try:
        import socket

        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC) as s:
            # GENL_ID_CTRL (0x10), NLM_F_REQUEST|NLM_F_DUMP, CTRL_CMD_GETFAMILY (3), version 1
            s.sendto(_HDR.pack(20, 0x10, 0x301, 0, 0) + bytes((3, 1, 0, 0)), (0, 0))
            done = False
            while not done:
                data = s.recv(65536)
                off = 0
                while off + 16 <= len(data):
                    mlen, mtype = struct.unpack_from("<IH", data, off)
                    if mlen < 16 or mtype in (NLMSG_DONE, NLMSG_ERROR):
                        done = True
                        break
                    fid, name = None, None
                    a = off + 20
                    while a + 4 <= off + mlen:
                        alen, atype = NLATTR.unpack_from(data, a)
                        if alen < 4:
                            break
                        body = data[a + 4:a + alen]
                        if atype == 1 and len(body) >= 2:  # CTRL_ATTR_FAMILY_ID
                            fid = struct.unpack_from("<H", body)[0]
                        elif atype == 2:  # CTRL_ATTR_FAMILY_NAME
                            name = body.split(b"\0", 1)[0].decode("ascii", "replace")
                        a += (alen + 3) & ~3
                    if fid is not None and name:
                        rows.append((fid, name))
                    off += (mlen + 3) & ~3
    except OSError:
        pass
    _genl_families = tuple(rows)
    return _genl_families


def _nlmsg_type(p: Printer, mtype: int, family: int) -> str:
    if mtype >= NLMSG_MIN_TYPE:
        if family == NETLINK_GENERIC:
            return p.xval(mtype, _genl_table(), "GENERIC_FAMILY_???")
        if family == NETLINK_NETFILTER:
            from pytrace.decode import netlink_nf

            return netlink_nf.nlmsg_type(p, mtype)
        entry = _TYPES.get(family)
        if entry is not None:
            return p.xval(mtype, entry[0], entry[1])
    return p.xval(mtype, X.NETLINK_TYPES, "NLMSG_???")


def _route_flags(mtype: int) -> Table:
    if mtype == _v(X.NL_ROUTE_TYPES, "RTM_DELACTION"):
        return X.NETLINK_GET_FLAGS
    return (X.NETLINK_NEW_FLAGS, X.NETLINK_DELETE_FLAGS, X.NETLINK_GET_FLAGS, ())[mtype & 3]


_CRYPTO_FLAGS = {_v(X.NL_CRYPTO_TYPES, "CRYPTO_MSG_NEWALG"): X.NETLINK_NEW_FLAGS,
                 _v(X.NL_CRYPTO_TYPES, "CRYPTO_MSG_DELALG"): X.NETLINK_DELETE_FLAGS,
                 _v(X.NL_CRYPTO_TYPES, "CRYPTO_MSG_DELRNG"): X.NETLINK_DELETE_FLAGS,
                 _v(X.NL_CRYPTO_TYPES, "CRYPTO_MSG_GETALG"): X.NETLINK_GET_FLAGS}
_XFRM_FLAGS = {_v(X.NL_XFRM_TYPES, n): X.NETLINK_NEW_FLAGS for n in (
    "XFRM_MSG_NEWSA", "XFRM_MSG_NEWPOLICY", "XFRM_MSG_NEWAE", "XFRM_MSG_NEWSADINFO", "XFRM_MSG_NEWSPDINFO")}
_XFRM_FLAGS.update({_v(X.NL_XFRM_TYPES, n): X.NETLINK_DELETE_FLAGS for n in ("XFRM_MSG_DELSA", "XFRM_MSG_DELPOLICY")})
_XFRM_FLAGS.update({_v(X.NL_XFRM_TYPES, n): X.NETLINK_GET_FLAGS for n in (
    "XFRM_MSG_GETSA", "XFRM_MSG_GETPOLICY", "XFRM_MSG_GETAE", "XFRM_MSG_GETSADINFO", "XFRM_MSG_GETSPDINFO")})


def _nlmsg_flags(p: Printer, value: int, mtype: int, family: int) -> str:
    table: Table = ()
    if mtype < NLMSG_MIN_TYPE:
        if mtype == NLMSG_ERROR:
            table = X.NETLINK_ACK_FLAGS
    elif family == NETLINK_ROUTE:
        table = _route_flags(mtype)
    elif family == NETLINK_SOCK_DIAG:
        table = X.NETLINK_GET_FLAGS
    elif family == NETLINK_CRYPTO:
        table = _CRYPTO_FLAGS.get(mtype, ())
    elif family == NETLINK_XFRM:
        table = _XFRM_FLAGS.get(mtype, ())
    elif family == NETLINK_NETFILTER:
        from pytrace.decode import netlink_nf

        table = netlink_nf.nlmsg_flags_table(mtype)
    return p.flags(value, X.NETLINK_FLAGS + table, "NLM_F_???")


def _print_nlmsghdr(p: Printer, hdr: tuple[int, int, int, int, int], family: int) -> str:
    length, mtype, mflags, seq, pid = hdr
    return (p.struct((('nlmsg_len', f"{length}"), ('nlmsg_type', _nlmsg_type(p, mtype, family)), ('nlmsg_flags', _nlmsg_flags(p, mflags, mtype, family)), ('nlmsg_seq', f"{seq}"), ('nlmsg_pid', p.pid(pid)))))


def _fetch_hdr(m: Mem, address: int, length: int, in_array: bool) -> tuple[tuple[int, int, int, int, int] | None, str]:
    """fetch_nlmsghdr: the header, or the text strace prints instead (hex of a short buffer, an address)."""
    if length < NLMSG_HDRLEN:
        return None, hexstr(m, address, length)
    raw = m.get(address, NLMSG_HDRLEN)
    if raw is None:
        return None, more_comment(address) if in_array else addr(address)
    return _HDR.unpack(raw), ""


#: family -> payload decoder (m, hdr, address, length) -> text or None (None: strace's "return false").
PayloadDecoder = "Callable[[Mem, tuple[int, int, int, int, int], int, int], str | None]"
_DECODERS: dict[int, Any] = {}


def _register_route_extensions(p: Printer, route: Any) -> None:
    """Message types and IFLA_* attributes of NETLINK_ROUTE decoded in their own modules, added to
    netlink_route's tables here rather than by netlink_route itself: those modules import its
    helpers, so netlink_route importing them back would be an import cycle."""
    from pytrace.decode import (
        netlink_bridge,
        netlink_cachereport,
        netlink_link_vf,
        netlink_stats,
        netlink_tc_action,
    )

    netlink_link_vf.register(route.IFLA)
    netlink_tc_action.register(route.ROUTE)
    netlink_stats.register(route.ROUTE)
    netlink_cachereport.register(route.ROUTE)
    netlink_bridge.register(route.ROUTE, route.AF_SPEC_BY_FAMILY)


def _family_decoder(p: Printer, family: int) -> Any:
    if not _DECODERS:
        from pytrace.decode import netlink_diag, netlink_nf, netlink_route, netlink_selinux

        _register_route_extensions(p, netlink_route)
        _DECODERS[NETLINK_ROUTE] = netlink_route.decode_route
        _DECODERS[NETLINK_SOCK_DIAG] = netlink_diag.decode_sock_diag
        netlink_nf.register(_DECODERS, NETLINK_NETFILTER)
        netlink_selinux.register(_DECODERS, _P["NETLINK_SELINUX"])
    return _DECODERS.get(family)


def _err(p: Printer, value: int) -> str:
    """PRINT_FIELD_ERR_D (print_err): ``-ENODEV`` for a negated known errno, else the number (-X styled)."""
    name = X.ERRNO_NAMES.get(-value) if value < 0 else None
    if name is None:
        return str(value)
    return p.print_xlat(value, f"-{name}", "int")


def _nlmsgerr(m: Mem, family: int, address: int, length: int, capped: bool) -> str:
    """decode_nlmsgerr: ``{error=..., msg=...}``, bracketed with the extended ACK attributes when some follow.

    struct nlmsgerr (error and the request's header) is read whole; a request
    header whose nlmsg_len is below its own size counts as the header alone.
    """
    if length < 4 + NLMSG_HDRLEN:
        return hexstr(m, address, length)
    raw = m.get(address, 4 + NLMSG_HDRLEN)
    if raw is None:
        return addr(address)
    hdr = _HDR.unpack_from(raw, 4)
    address += 4
    length -= 4
    payload = min(length, NLMSG_HDRLEN if capped else max(NLMSG_HDRLEN, hdr[0]))
    text = m.p.struct((('error', _err(m.p, struct.unpack_from('<i', raw)[0])), ('msg', _with_payload(m, family, hdr, address, payload))))
    if length > payload:
        attrs = decode_nlattr(m, address + payload, length - payload, X.NLMSGERR_ATTRS, "NLMSGERR_ATTR_???",
                              _NLMSGERR_DECODERS)
        text = f"[{text}, {attrs}]"
    return text


def _cookie(m: Mem, address: int, length: int, opaque: Any) -> str:
    return uint_array(m, address, length, 1, lambda i, v: str(v))


_NLMSGERR_DECODERS = {_v(X.NLMSGERR_ATTRS, "NLMSGERR_ATTR_MSG"): nla_str,
                      _v(X.NLMSGERR_ATTRS, "NLMSGERR_ATTR_OFFS"): nla_u32,
                      _v(X.NLMSGERR_ATTRS, "NLMSGERR_ATTR_COOKIE"): _cookie}


def _payload(m: Mem, family: int, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str:
    mtype = hdr[1]
    if mtype == NLMSG_ERROR:
        return _nlmsgerr(m, family, address, length, bool(hdr[2] & NLM_F_CAPPED))
    if mtype >= NLMSG_MIN_TYPE or mtype == NLMSG_DONE:
        decoder = _family_decoder(m.p, family)
        if decoder is not None:
            text = decoder(m, hdr, address, length)
            if text is not None:
                return text
    if mtype == NLMSG_DONE and length == 4:
        raw = m.get(address, 4)
        return addr(address) if raw is None else str(struct.unpack("<i", raw)[0])
    return hexstr(m, address, length)


def _with_payload(m: Mem, family: int, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str:
    shown = min(hdr[0], length)
    head = _print_nlmsghdr(m.p, hdr, family)
    if shown <= NLMSG_HDRLEN:
        return head
    return f"[{head}, {_payload(m, family, hdr, address + NLMSG_HDRLEN, shown - NLMSG_HDRLEN)}]"


def decode_netlink(p: Printer, c: Call, fd: int, address: int, length: int) -> str:
    """decode_netlink: the messages in ``length`` bytes at ``address`` of a netlink socket ``fd``."""
    family = fd_family(c.pid, fd)
    if family == NETLINK_KOBJECT_UEVENT:
        from pytrace.decode.netlink_uevent import decode_uevent

        return decode_uevent(p, c, address, length)
    if not address:
        return "NULL"
    m = Mem(p, c, address, length)
    parts: list[str] = []
    is_array = False
    elt = 0
    while True:
        hdr, failed = _fetch_hdr(m, address, length, is_array)
        if hdr is None:
            parts.append(failed)
            break
        if not p.opts.verbose and elt == p.opts.max_strlen:
            parts.append("...")
            break
        elt += 1
        step = (hdr[0] + 3) & ~3
        next_addr = next_len = 0
        if hdr[0] >= NLMSG_HDRLEN:
            next_len = length - step if length >= step else 0
            if next_len:
                next_addr = address + step
        if not is_array and next_addr:
            is_array = True
        parts.append(_with_payload(m, family, hdr, address, length))
        if not next_addr:
            break
        address, length = next_addr, next_len
    text = ", ".join(parts)
    return f"[{text}]" if is_array else text


# ---------------------------------------------------------------------------- which sockets


_families: dict[tuple[int, int, int], int | None] = {}


def fd_family(pid: int, fd: int) -> int:
    """get_fd_nl_family: the netlink protocol of ``fd`` (-1 unknown), from the -yy socket cache.

    Like strace, a socket sock_diag cannot describe yields ``NETLINK:[INODE]``,
    whose digits strace then takes for the protocol number.
    """
    from pytrace.decode import fds

    got = fds.fd_path(pid, fd)
    inode = fds.socket_inode(got[0]) if got else 0
    if not inode:
        return -1
    details = fds.socket_details(pid, fd, inode)
    if not details or not details.startswith("NETLINK:["):
        return -1
    rest = details[9:]
    for value, name in X.NETLINK_PROTOCOLS:
        if rest.startswith(name.removeprefix("NETLINK_")):
            return value
    digits = ""
    for ch in rest:
        if not ch.isdigit():
            break
        digits += ch
    return int(digits) if digits else -1


def is_netlink_fd(p: Printer, c: Call, fd: int) -> bool:
    """getfdproto(...) == SOCK_PROTO_NETLINK, cached by (pid, fd, inode): one readlink per call after the first."""
    if fd < 0:
        return False
    try:
        link = os.readlink(f"/proc/{c.pid}/fd/{fd}")
    except OSError:
        return False
    if not link.startswith("socket:["):
        return False
    key = (c.pid, fd, int(link[8:-1]) if link[8:-1].isdigit() else 0)
    known = _families.get(key)
    if known is None and key not in _families:
        from pytrace.decode.fds import sockproto

        known = 1 if sockproto(c.pid, fd) == "NETLINK" else 0
        if len(_families) > 4096:
            _families.clear()
        _families[key] = known
    return bool(known)


def sockbuf(p: Printer, c: Call, fd: int, address: int, length: int) -> str:
    """decode_sockbuf: a send/recv buffer, as netlink messages on a netlink socket, else as a string."""
    if p.verbose(c) and is_netlink_fd(p, c, F.signed(fd, 32)):
        return decode_netlink(p, c, F.signed(fd, 32), address, length)
    return p.string_at(c, address, length)


def iovec_netlink(p: Printer, c: Call, address: int, count: int, data_limit: int | None) -> str:
    """tprint_iov_upto(..., IOV_DECODE_NETLINK): each iov_base decoded as netlink messages of fd arg 0.

    strace chooses this for a msghdr whose msg_name is an AF_NETLINK address.
    """
    iovec = p.lay.IOVEC
    if not address:
        return "NULL"
    if count <= 0:
        return "[]"
    if not p.verbose(c):
        from pytrace.decode.desc import iovec_array

        return iovec_array(p, c, address, count, data_limit)
    sock = F.signed(c.args[0], 32)
    parts = []
    remaining = data_limit
    for i in range(min(count, 1024)):
        if i >= p.opts.max_strlen:
            parts.append("...")
            break
        raw = p.fetch(c, address + i * iovec.size, iovec.size, True)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(more_comment(address + i * iovec.size))
            break
        base, length = iovec.unpack(raw)
        show = length if remaining is None else min(length, remaining)
        if remaining is not None:
            remaining -= show
        parts.append(p.struct((('iov_base', decode_netlink(p, c, sock, base, show)), ('iov_len', f"{length}"))))
    return "[" + ", ".join(parts) + "]"
