"""Netlink messages inside socket buffers, printed as strace 6.1 prints them.

Mirrors strace's ``src/netlink.c`` and ``src/nlattr.c``: a buffer sent to or
received from a netlink socket is an array of ``struct nlmsghdr`` each
followed by a family-specific payload (``netlink_route``, ``netlink_diag``)
and a chain of ``struct nlattr`` attributes, some of them nested.

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
from pytrace.decode.format import OPTS, addr, flags, quote, string_at, xval
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]


def value_of(table: Table, name: str) -> int:
    """A constant's value from a generated table (dispatch never uses typed-in numbers)."""
    return next(v for v, n in table if n == name)


_v = value_of


_K = dict((n, v) for v, n in X.NETLINK_CONSTANTS)
NLMSG_MIN_TYPE = _K["NLMSG_MIN_TYPE"]
NLMSG_HDRLEN = _K["NLMSG_HDRLEN"]
NLA_HDRLEN = _K["NLA_HDRLEN"]
NLA_F_NESTED = _K["NLA_F_NESTED"]
NLA_F_NET_BYTEORDER = _K["NLA_F_NET_BYTEORDER"]
NLA_TYPE_MASK = _K["NLA_TYPE_MASK"] & 0xFFFF
NLMSG_ERROR = _v(X.NETLINK_TYPES, "NLMSG_ERROR")
NLMSG_DONE = _v(X.NETLINK_TYPES, "NLMSG_DONE")
NLM_F_REQUEST = _v(X.NETLINK_FLAGS, "NLM_F_REQUEST")
NLM_F_CAPPED = _v(X.NETLINK_ACK_FLAGS, "NLM_F_CAPPED")
_P = dict((n, v) for v, n in X.NETLINK_PROTOCOLS)
NETLINK_ROUTE, NETLINK_SOCK_DIAG, NETLINK_GENERIC = _P["NETLINK_ROUTE"], _P["NETLINK_SOCK_DIAG"], _P["NETLINK_GENERIC"]
NETLINK_NETFILTER, NETLINK_CRYPTO, NETLINK_XFRM = _P["NETLINK_NETFILTER"], _P["NETLINK_CRYPTO"], _P["NETLINK_XFRM"]
NETLINK_KOBJECT_UEVENT = _P["NETLINK_KOBJECT_UEVENT"]

_HDR = struct.Struct("<IHHIi")
_NLA = struct.Struct("<HH")
_CAP = 1 << 20  # bytes of one buffer fetched for decoding (strace reads piecewise; -s cuts far sooner)


class Mem:
    """The tracee bytes of one buffer, fetched once; ``get`` is umoven (None = unreadable)."""

    __slots__ = ("base", "call", "data")

    def __init__(self, c: Call, base: int, length: int) -> None:
        self.base = base
        self.call = c  # for the few decoders that print through other modules' Call-based printers
        got = c.mem.read_upto(base, min(length, _CAP)) if base and length > 0 else None
        self.data = got or b""

    def get(self, address: int, size: int) -> bytes | None:
        off = address - self.base
        if off < 0 or off + size > len(self.data):
            return None
        return self.data[off:off + size]


def hexstr(m: Mem, address: int, length: int) -> str:
    """printstr_ex(..., QUOTE_FORCE_HEX): the bytes in \\x form, cut at -s with ``...``."""
    if not address:
        return "NULL"
    data = m.get(address, min(length, OPTS.max_strlen))
    if data is None:
        return addr(address)
    return quote(data, force_hex=True) + ("..." if length > OPTS.max_strlen else "")


def more_comment(address: int) -> str:
    """tprint_more_data_follows + printaddr_comment: where an array stopped being readable."""
    return f"... /* {addr(address)} */"


# ---------------------------------------------------------------------------- nlattr (nlattr.c)

#: A payload decoder: (memory, address, length, opaque) -> text, or None for "print it in hex".
Decoder = "Callable[[Mem, int, int, Any], str | None]"


def decode_nlattr(m: Mem, address: int, length: int, table: Table, dflt: str,
                  decoders: dict[int, Any] | None, opaque: Any = None,
                  by_type: Any = None) -> str:
    """decode_nlattr: ``[{nla_len=8, nla_type=IFLA_MTU}, 65536]`` or an array of them.

    ``by_type`` is strace's zero-sized decoder table: one decoder for every
    attribute, passed the attribute's type instead of ``opaque``.
    """
    parts: list[str] = []
    is_array = False
    elt = 0
    while True:
        if length < NLA_HDRLEN:
            parts.append(hexstr(m, address, length))
            break
        raw = m.get(address, NLA_HDRLEN)
        if raw is None:
            parts.append(more_comment(address) if is_array else addr(address))
            break
        elt += 1
        if not OPTS.verbose and elt > OPTS.max_strlen:
            parts.append("...")
            break
        nla_len, nla_type = _NLA.unpack(raw)
        step = (nla_len + 3) & ~3
        next_addr = next_len = 0
        if nla_len >= NLA_HDRLEN:
            next_len = length - step if length >= step else 0
            if next_len:
                next_addr = address + step
        if not is_array and next_addr:
            is_array = True
        parts.append(_nlattr_with_data(m, nla_len, nla_type, address, length, table, dflt, decoders,
                                       opaque, by_type))
        if not next_addr:
            break
        address, length = next_addr, next_len
    text = ", ".join(parts)
    return f"[{text}]" if is_array else text


def _nlattr_with_data(m: Mem, nla_len: int, nla_type: int, address: int, length: int, table: Table,
                      dflt: str, decoders: dict[int, Any] | None, opaque: Any, by_type: Any) -> str:
    shown = min(nla_len, length)
    kind = nla_type & NLA_TYPE_MASK
    names = []
    if nla_type & NLA_F_NESTED:
        names.append(F.print_xlat(NLA_F_NESTED, "NLA_F_NESTED"))
    if nla_type & NLA_F_NET_BYTEORDER:
        names.append(F.print_xlat(NLA_F_NET_BYTEORDER, "NLA_F_NET_BYTEORDER"))
    names.append(xval(kind, table, dflt) if dflt else _hex(kind))  # no dflt: strace's NULL table, bare hex
    head = f"{{nla_len={nla_len}, nla_type={'|'.join(names)}}}"
    if shown <= NLA_HDRLEN:
        return head
    start, size = address + NLA_HDRLEN, shown - NLA_HDRLEN
    text = None
    if by_type is not None:
        text = by_type(m, start, size, nla_type)
    elif decoders is not None:
        func = decoders.get(kind)
        if func is not None:
            text = func(m, start, size, opaque)
    if text is None:
        text = hexstr(m, start, size)
    return f"[{head}, {text}]"


def nla_fixed(size: int, render: Callable[[bytes], str]) -> Callable[[Mem, int, int, Any], str | None]:
    """A decoder for an attribute holding ``size`` bytes (strace's ``len < sizeof``: shorter ones print
    in hex); unreadable, it is the address, else ``render`` of the first ``size`` bytes."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length < size:
            return None
        raw = m.get(address, size)
        return addr(address) if raw is None else render(raw)

    return decode


def _int_decoder(fmt: str, show: Callable[[int], str]) -> Callable[[Mem, int, int, Any], str | None]:
    st = struct.Struct(fmt)
    return nla_fixed(st.size, lambda raw: show(st.unpack(raw)[0]))


def _hex(v: int) -> str:
    return f"{v:#x}" if v else "0"


nla_u8 = _int_decoder("<B", str)
nla_u16 = _int_decoder("<H", str)
nla_u32 = _int_decoder("<I", str)
nla_u64 = _int_decoder("<Q", str)
nla_s32 = _int_decoder("<i", str)
nla_x16 = _int_decoder("<H", _hex)
nla_x32 = _int_decoder("<I", _hex)
nla_be16 = _int_decoder(">H", lambda v: f"htons({v})")
nla_be64 = _int_decoder(">Q", lambda v: f"htobe64({v})")


def _ifindex(index: int) -> str:
    from pytrace.decode.net import _ifindex as print_ifindex

    return print_ifindex(index)


nla_ifindex = _int_decoder("<I", _ifindex)


# decode_nla_uid: printuid, -1 for (uid_t)-1.
nla_uid = _int_decoder("<I", lambda v: "-1" if v == 0xFFFFFFFF else str(v))


def nested(table: Table, dflt: str, decoders: dict[int, Any] | None) -> Callable[[Mem, int, int, Any], str]:
    """A decoder printing a nested attribute list (strace's decode_nlattr call in a decoder)."""
    return lambda m, a, n, o: decode_nlattr(m, a, n, table, dflt, decoders, o)


def nla_fd(m: Mem, address: int, length: int, opaque: Any) -> str | None:
    """decode_nla_fd: the descriptor, printed by printfd (its path under -y)."""
    if length < 4:
        return None
    raw = m.get(address, 4)
    return addr(address) if raw is None else F.fd(m.call, struct.unpack("<i", raw)[0])


def nla_str(m: Mem, address: int, length: int, opaque: Any = None) -> str:
    """decode_nla_str: printstr_ex(QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0).

    A trailing NUL (of the part shown) is dropped; without one the text ends in ``...``.
    """
    if not address:
        return "NULL"
    size = min(length, OPTS.max_strlen)
    data = m.get(address, min(length, OPTS.max_strlen + 1))
    if data is None:
        return addr(address)
    data = data[:size]
    if not data:
        return '""'
    if OPTS.xflag == 2 or (OPTS.xflag == 1 and any(c > 0x7E or (c < 0x20 and not 9 <= c <= 13) for c in data)):
        return quote(data, force_hex=True) + "..."
    if data[-1] == 0:
        return quote(data[:-1])
    return quote(data) + "..."


def nla_flags(table: Table, dflt: str, size: int) -> Callable[[Mem, int, int, Any], str | None]:
    """decode_nla_flags with an xlat_opts of ``size`` bytes (a shorter attribute is printed in hex)."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length > 8 or length < size:
            return None
        raw = m.get(address, min(length, size) if size else length)
        if raw is None:
            return addr(address)
        return flags(int.from_bytes(raw, "little"), table, dflt)

    return decode


def nla_xval(table: Table, dflt: str, size: int) -> Callable[[Mem, int, int, Any], str | None]:
    """decode_nla_xval: one named value of ``size`` bytes."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length > 8 or length < size:
            return None
        raw = m.get(address, min(length, size) if size else length)
        if raw is None:
            return addr(address)
        return xval(int.from_bytes(raw, "little"), table, dflt)

    return decode


def mac_text(raw: bytes, shown: int | None = None) -> str:
    """print_mac_addr / print_hwaddr: the first ``shown`` bytes (all by default) ``:``-joined.

    -X raw prints all the bytes in hex instead, -X verbose that and this in a comment (decode.styles).
    """
    return ":".join(f"{b:02x}" for b in raw[:shown])


def nla_hwaddr(m: Mem, address: int, length: int, opaque: Any = None) -> str | None:
    """decode_nla_hwaddr: ``00:11:22:33:44:55``."""
    if length > 32:
        return None
    raw = m.get(address, length)
    if raw is None:
        return addr(address)
    return mac_text(raw)


def inet_addr(m: Mem, address: int, length: int, family: int, var: str | None = None) -> str:
    """decode_inet_addr: ``inet_addr("127.0.0.1")`` / ``inet_pton(AF_INET6, "::1")``, else hex."""
    from pytrace.decode.net import _AF_INET, _AF_INET6, inet_addr_field, inet_pton_field

    size = 4 if family == _AF_INET else 16 if family == _AF_INET6 else 0
    prefix = f"{var}=" if var else ""
    if not size or length < size:
        return prefix + hexstr(m, address, length)
    raw = m.get(address, size)
    if raw is None:
        return prefix + addr(address)
    return print_inet_addr(family, raw, var, inet_addr_field, inet_pton_field)


def print_inet_addr(family: int, raw: bytes, var: str | None, field4: Any = None, field6: Any = None) -> str:
    """print_inet_addr for fetched bytes (4, 16 or a whole union), with or without a field name.

    -X raw/verbose show all the bytes given, as strace shows ``len`` of them.
    """
    from pytrace.decode import net

    if family == net._AF_INET:
        if var:
            return net.inet_addr_field(var, raw)
        # no field name: ask the (-X restyled) field printer for field "_", then cut the name off
        return net.inet_addr_field("_", raw)[2:]
    if family == net._AF_INET6 and len(raw) >= 16:
        if var:
            return net.inet_pton_field(var, raw)
        text = net.inet_pton_field("_", raw)
        return text[2:] if text.startswith("_=") else text.replace(", &_)", ")")
    return (f"{var}=" if var else "") + quote(raw, force_hex=True)


def struct_fields(raw: bytes, fmt: str, names: tuple[str, ...], hex_fields: frozenset[str] = frozenset()) -> str:
    """PRINT_FIELD_U / PRINT_FIELD_X of a plain structure: ``{a=1, b=0x2}``."""
    values = struct.unpack(fmt, raw[:struct.calcsize(fmt)])
    return "{" + ", ".join(f"{n}={_hex(v) if n in hex_fields else v}" for n, v in zip(names, values, strict=False)) + "}"


def nla_struct(fmt: str, names: tuple[str, ...], hex_fields: frozenset[str] = frozenset(),
               exact: bool = False) -> Callable[[Mem, int, int, Any], str | None]:
    """A decoder for a fixed structure (shorter attributes print in hex, as strace's ``len < sizeof``)."""
    size = struct.calcsize(fmt)

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length < size:
            return None
        raw = m.get(address, size)
        return addr(address) if raw is None else struct_fields(raw, fmt, names, hex_fields)

    return decode


def uint_array(m: Mem, address: int, count: int, size: int, show: Callable[[int, int], str]) -> str:
    """print_array of ``count`` unsigned elements of ``size`` bytes, cut at -s elements."""
    parts = []
    for i in range(count):
        if not OPTS.verbose and i >= OPTS.max_strlen:
            parts.append("...")
            break
        raw = m.get(address + i * size, size)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(more_comment(address + i * size))
            break
        parts.append(show(i, int.from_bytes(raw, "little")))
    return "[" + ", ".join(parts) + "]"


def nla_indexed_array(size: int, signed: bool, table: Table, dflt: str) -> Callable[[Mem, int, int, Any], str | None]:
    """print_array_ex with PAF_PRINT_INDICES: ``[[DEVCONF_HOPLIMIT]=64, ...]`` (decimal indices)."""
    bits = size * 8

    def show(i: int, v: int) -> str:
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        return f"[{xval(i, table, dflt, fmt='u')}]={v}"

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        count = length // size
        return uint_array(m, address, count, size, show) if count else None

    return decode


def nla_meminfo(m: Mem, address: int, length: int, opaque: Any = None) -> str | None:
    """decode_nla_meminfo: ``[[SK_MEMINFO_RMEM_ALLOC]=0, ...]``."""
    count = length // 4
    if not count:
        return None
    return uint_array(m, address, count, 4,
                      lambda i, v: f"[{xval(i, X.NETLINK_SK_MEMINFO_INDICES, 'SK_MEMINFO_???', fmt='u')}]={v}")


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
                        alen, atype = _NLA.unpack_from(data, a)
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


def _nlmsg_type(mtype: int, family: int) -> str:
    if mtype >= NLMSG_MIN_TYPE:
        if family == NETLINK_GENERIC:
            return xval(mtype, _genl_table(), "GENERIC_FAMILY_???")
        if family == NETLINK_NETFILTER:
            from pytrace.decode import netlink_nf

            return netlink_nf.nlmsg_type(mtype)
        entry = _TYPES.get(family)
        if entry is not None:
            return xval(mtype, entry[0], entry[1])
    return xval(mtype, X.NETLINK_TYPES, "NLMSG_???")


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


def _nlmsg_flags(value: int, mtype: int, family: int) -> str:
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
    return flags(value, X.NETLINK_FLAGS + table, "NLM_F_???")


def _print_nlmsghdr(hdr: tuple[int, int, int, int, int], family: int) -> str:
    length, mtype, mflags, seq, pid = hdr
    return (f"{{nlmsg_len={length}, nlmsg_type={_nlmsg_type(mtype, family)}, "
            f"nlmsg_flags={_nlmsg_flags(mflags, mtype, family)}, nlmsg_seq={seq}, nlmsg_pid={F.pid(pid)}}}")


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


def _family_decoder(family: int) -> Any:
    if not _DECODERS:
        from pytrace.decode import netlink_diag, netlink_nf, netlink_route, netlink_selinux

        _DECODERS[NETLINK_ROUTE] = netlink_route.decode_route
        _DECODERS[NETLINK_SOCK_DIAG] = netlink_diag.decode_sock_diag
        netlink_nf.register(_DECODERS, NETLINK_NETFILTER)
        netlink_selinux.register(_DECODERS, _P["NETLINK_SELINUX"])
    return _DECODERS.get(family)


def _err(value: int) -> str:
    """PRINT_FIELD_ERR_D (print_err): ``-ENODEV`` for a negated known errno, else the number (-X styled)."""
    name = X.ERRNO_NAMES.get(-value) if value < 0 else None
    if name is None:
        return str(value)
    return F.print_xlat(value, f"-{name}", "int")


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
    text = f"{{error={_err(struct.unpack_from('<i', raw)[0])}, msg={_with_payload(m, family, hdr, address, payload)}}}"
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
        decoder = _family_decoder(family)
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
    head = _print_nlmsghdr(hdr, family)
    if shown <= NLMSG_HDRLEN:
        return head
    return f"[{head}, {_payload(m, family, hdr, address + NLMSG_HDRLEN, shown - NLMSG_HDRLEN)}]"


def decode_netlink(c: Call, fd: int, address: int, length: int) -> str:
    """decode_netlink: the messages in ``length`` bytes at ``address`` of a netlink socket ``fd``."""
    family = fd_family(c.pid, fd)
    if family == NETLINK_KOBJECT_UEVENT:
        from pytrace.decode.netlink_uevent import decode_uevent

        return decode_uevent(c, address, length)
    if not address:
        return "NULL"
    m = Mem(c, address, length)
    parts: list[str] = []
    is_array = False
    elt = 0
    while True:
        hdr, failed = _fetch_hdr(m, address, length, is_array)
        if hdr is None:
            parts.append(failed)
            break
        if not OPTS.verbose and elt == OPTS.max_strlen:
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


def is_netlink_fd(c: Call, fd: int) -> bool:
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
        from pytrace.decode.fds import _sockproto

        known = 1 if _sockproto(c.pid, fd) == "NETLINK" else 0
        if len(_families) > 4096:
            _families.clear()
        _families[key] = known
    return bool(known)


def sockbuf(c: Call, fd: int, address: int, length: int) -> str:
    """decode_sockbuf: a send/recv buffer, as netlink messages on a netlink socket, else as a string."""
    if F.verbose(c) and is_netlink_fd(c, F.signed(fd, 32)):
        return decode_netlink(c, F.signed(fd, 32), address, length)
    return string_at(c, address, length)


def iovec_netlink(c: Call, address: int, count: int, data_limit: int | None) -> str:
    """tprint_iov_upto(..., IOV_DECODE_NETLINK): each iov_base decoded as netlink messages of fd arg 0.

    strace chooses this for a msghdr whose msg_name is an AF_NETLINK address.
    """
    from pytrace.decode.desc import _IOVEC

    if not address:
        return "NULL"
    if count <= 0:
        return "[]"
    if not F.verbose(c):
        from pytrace.decode.desc import iovec_array

        return iovec_array(c, address, count, data_limit)
    sock = F.signed(c.args[0], 32)
    parts = []
    remaining = data_limit
    for i in range(min(count, 1024)):
        if i >= OPTS.max_strlen:
            parts.append("...")
            break
        raw = F.fetch(c, address + i * 16, 16, True)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(more_comment(address + i * 16))
            break
        base, length = _IOVEC.unpack(raw)
        show = length if remaining is None else min(length, remaining)
        if remaining is not None:
            remaining -= show
        parts.append(f"{{iov_base={decode_netlink(c, sock, base, show)}, iov_len={length}}}")
    return "[" + ", ".join(parts) + "]"
