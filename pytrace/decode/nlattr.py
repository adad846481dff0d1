"""The pieces every netlink family decoder shares, as strace 6.1 prints them: the netlink
header constants, ``Mem`` (one read of the whole buffer, sliced), and the ``struct nlattr``
attribute chains with their value decoders (strace's ``src/nlattr.c``).

Why apart from ``netlink.py``: that module dispatches each message to its family module
(``netlink_route``, ``netlink_diag``, ...), and those modules need these helpers; with the
helpers here, the families import this module and ``netlink.py`` imports the families, with
no import going back up.
"""

from __future__ import annotations

import struct
from functools import partial
from typing import TYPE_CHECKING, Any

from pytrace.decode.format import addr, quote
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.decode.printer import Printer
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

NLATTR = struct.Struct("<HH")  # struct nlattr: nla_len, nla_type
_CAP = 1 << 20  # bytes of one buffer fetched for decoding (strace reads piecewise; -s cuts far sooner)


class Mem:
    """The tracee bytes of one buffer, fetched once; ``get`` is umoven (None = unreadable)."""

    __slots__ = ("base", "call", "data", "p")

    def __init__(self, p: Printer, c: Call, base: int, length: int) -> None:
        self.p = p  # the printing context of the call the buffer belongs to
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
    data = m.get(address, min(length, m.p.opts.max_strlen))
    if data is None:
        return addr(address)
    return m.p.quote(data, force_hex=True) + ("..." if length > m.p.opts.max_strlen else "")


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
        if not m.p.opts.verbose and elt > m.p.opts.max_strlen:
            parts.append("...")
            break
        nla_len, nla_type = NLATTR.unpack(raw)
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
        names.append(m.p.print_xlat(NLA_F_NESTED, "NLA_F_NESTED"))
    if nla_type & NLA_F_NET_BYTEORDER:
        names.append(m.p.print_xlat(NLA_F_NET_BYTEORDER, "NLA_F_NET_BYTEORDER"))
    names.append(m.p.xval(kind, table, dflt) if dflt else _hex(kind))  # no dflt: strace's NULL table, bare hex
    head = m.p.struct((('nla_len', f"{nla_len}"), ('nla_type', f"{'|'.join(names)}")))
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


def nla_fixed_p(size: int, render: Callable[[Printer, bytes], str]) -> Callable[[Mem, int, int, Any], str | None]:
    """``nla_fixed`` for a ``render`` that prints through the message's printer (MAC addresses under -X)."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length < size:
            return None
        raw = m.get(address, size)
        return addr(address) if raw is None else render(m.p, raw)

    return decode


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


def _ifindex(p: Printer, index: int) -> str:
    from pytrace.decode.inet import ifindex as print_ifindex

    return print_ifindex(p, index)


nla_ifindex = nla_fixed_p(4, lambda p, raw: _ifindex(p, struct.unpack("<I", raw)[0]))


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
    return addr(address) if raw is None else m.p.fd(m.call, struct.unpack("<i", raw)[0])


def nla_str(m: Mem, address: int, length: int, opaque: Any = None) -> str:
    """decode_nla_str: printstr_ex(QUOTE_OMIT_TRAILING_0 | QUOTE_EXPECT_TRAILING_0).

    A trailing NUL (of the part shown) is dropped; without one the text ends in ``...``.
    """
    if not address:
        return "NULL"
    size = min(length, m.p.opts.max_strlen)
    data = m.get(address, min(length, m.p.opts.max_strlen + 1))
    if data is None:
        return addr(address)
    data = data[:size]
    if not data:
        return '""'
    if m.p.opts.xflag == 2 or (m.p.opts.xflag == 1 and any(c > 0x7E or (c < 0x20 and not 9 <= c <= 13) for c in data)):
        return m.p.quote(data, force_hex=True) + "..."
    if data[-1] == 0:
        return m.p.quote(data[:-1])
    return m.p.quote(data) + "..."


def _nla_number(size: int, show: Callable[[Printer, int], str]) -> Callable[[Mem, int, int, Any], str | None]:
    """An attribute holding one number of ``size`` bytes (a longer or shorter one is printed in hex)."""

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        if length > 8 or length < size:
            return None
        raw = m.get(address, min(length, size) if size else length)
        if raw is None:
            return addr(address)
        return show(m.p, int.from_bytes(raw, "little"))

    return decode


def nla_flags(table: Table, dflt: str, size: int) -> Callable[[Mem, int, int, Any], str | None]:
    """decode_nla_flags with an xlat_opts of ``size`` bytes (a shorter attribute is printed in hex)."""
    return _nla_number(size, lambda p, v: p.flags(v, table, dflt))


def nla_xval(table: Table, dflt: str, size: int) -> Callable[[Mem, int, int, Any], str | None]:
    """decode_nla_xval: one named value of ``size`` bytes."""
    return _nla_number(size, lambda p, v: p.xval(v, table, dflt))


def mac_text(p: Printer, raw: bytes, shown: int | None = None) -> str:
    """print_mac_addr / print_hwaddr: the first ``shown`` bytes (all by default) ``:``-joined.

    -X raw prints all the bytes in hex instead, -X verbose that and this in a comment.
    """
    if p.style != "abbrev":
        hexed = quote(raw, force_hex=True)
        return hexed if p.raw else f"{hexed} /* {mac_text(p.abbrev, raw, shown)} */"
    return ":".join(f"{b:02x}" for b in raw[:shown])


def nla_hwaddr(m: Mem, address: int, length: int, opaque: Any = None) -> str | None:
    """decode_nla_hwaddr: ``00:11:22:33:44:55``."""
    if length > 32:
        return None
    raw = m.get(address, length)
    if raw is None:
        return addr(address)
    return mac_text(m.p, raw)


def inet_addr(m: Mem, address: int, length: int, family: int, var: str | None = None) -> str:
    """decode_inet_addr: ``inet_addr("127.0.0.1")`` / ``inet_pton(AF_INET6, "::1")``, else hex."""
    from pytrace.decode.inet import AF_INET, AF_INET6, inet_addr_field, inet_pton_field

    size = 4 if family == AF_INET else 16 if family == AF_INET6 else 0
    prefix = f"{var}=" if var else ""
    if not size or length < size:
        return prefix + hexstr(m, address, length)
    raw = m.get(address, size)
    if raw is None:
        return prefix + addr(address)
    return print_inet_addr(m.p, family, raw, var, partial(inet_addr_field, m.p), partial(inet_pton_field, m.p))


def print_inet_addr(p: Printer, family: int, raw: bytes, var: str | None, field4: Any = None, field6: Any = None) -> str:
    """print_inet_addr for fetched bytes (4, 16 or a whole union), with or without a field name.

    -X raw/verbose show all the bytes given, as strace shows ``len`` of them.
    """
    from pytrace.decode import inet

    if family == inet.AF_INET:
        if var:
            return inet.inet_addr_field(p, var, raw)
        # no field name: ask the (-X restyled) field printer for field "_", then cut the name off
        return inet.inet_addr_field(p, "_", raw)[2:]
    if family == inet.AF_INET6 and len(raw) >= 16:
        if var:
            return inet.inet_pton_field(p, var, raw)
        text = inet.inet_pton_field(p, "_", raw)
        return text[2:] if text.startswith("_=") else text.replace(", &_)", ")")
    return (f"{var}=" if var else "") + p.quote(raw, force_hex=True)


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
        if not m.p.opts.verbose and i >= m.p.opts.max_strlen:
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

    def show(p: Printer, i: int, v: int) -> str:
        if signed and v >= 1 << (bits - 1):
            v -= 1 << bits
        return f"[{p.xval(i, table, dflt, fmt='u')}]={v}"

    def decode(m: Mem, address: int, length: int, opaque: Any) -> str | None:
        count = length // size
        return uint_array(m, address, count, size, partial(show, m.p)) if count else None

    return decode


def nla_meminfo(m: Mem, address: int, length: int, opaque: Any = None) -> str | None:
    """decode_nla_meminfo: ``[[SK_MEMINFO_RMEM_ALLOC]=0, ...]``."""
    count = length // 4
    if not count:
        return None
    return uint_array(m, address, count, 4,
                      lambda i, v: f"[{m.p.xval(i, X.NETLINK_SK_MEMINFO_INDICES, 'SK_MEMINFO_???', fmt='u')}]={v}")
