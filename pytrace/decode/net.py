"""Socket syscalls: socket/bind/connect/accept, send*/recv*, msghdr and cmsg, socket options.

Mirrors strace's ``src/net.c``, ``src/sockaddr.c``, ``src/msghdr.c`` and
``src/mmsghdr.c``.  The entry/exit split of each decoder is where strace's
decoder returns 0 at entry, because that is where ``<unfinished ...>`` cuts the line:
output arguments (peer addresses, received data, option values, lengths that
the kernel rewrites as ``[128 => 16]``) are printed at exit.
"""

from __future__ import annotations

import struct
from functools import cache, partial
from typing import TYPE_CHECKING

from pytrace.decode.bpf_insns import sock_filter_array, sock_fprog
from pytrace.decode.desc import fd_pair, iovec_array
from pytrace.decode.format import (
    MASK64,
    addr,
    signed,
    xlat,
)
from pytrace.decode.inet import htons_field, inet_addr_field, inet_pton_field, styled_field
from pytrace.decode.inet import ifindex as _ifindex
from pytrace.decode.netlink import iovec_netlink, sockbuf
from pytrace.decode.nlattr import mac_text
from pytrace.decode.registry import rv_fd, syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]



def _val(table: Table, name: str) -> int | None:
    """The value of constant ``name`` (dispatch uses the generated tables, not typed-in numbers)."""
    return next((v for v, n in table if n == name), None)


_AF_UNIX, _AF_INET, _AF_INET6, _AF_NETLINK = (_val(X.ADDRESS_FAMILIES, n) for n in
                                              ("AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"))
_SOL_IP, _SOL_SOCKET, _SOL_TCP, _SOL_UDP, _SOL_IPV6, _SOL_NETLINK = (
    _val(X.SOCKET_LEVELS, n) for n in ("SOL_IP", "SOL_SOCKET", "SOL_TCP", "SOL_UDP", "SOL_IPV6", "SOL_NETLINK"))
_SOCKADDR_STORAGE = 128
_IOV_MAX = 1024

# Tables that scripts/gen_xlat.py does not generate yet: degrade to numbers until it does.
_NETLINK_PROTOCOLS: Table = getattr(X, "NETLINK_PROTOCOLS", ())
_SCM_TYPES: Table = getattr(X, "SCM_TYPES", ())
_IP_CMSG_TYPES: Table = getattr(X, "IP_CMSG_TYPES", ())



def _hex(value: int) -> str:
    """C's ``%#x``: zero has no 0x prefix."""
    return f"{value:#x}" if value else "0"


def _abbrev(p: Printer) -> bool:
    """strace truncates arrays at -s elements unless -v."""
    return not p.opts.verbose


def _u32(v: int) -> int:
    return v & 0xFFFFFFFF


def _print_id(v: int) -> str:
    """PRINT_FIELD_ID: uid/gid, with (uid_t)-1 shown as -1."""
    v &= 0xFFFFFFFF
    return "-1" if v == 0xFFFFFFFF else str(v)


def _read_int(p: Printer, c: Call, address: int) -> int | None:
    data = p.fetch(c, address, 4, True)
    return None if data is None else struct.unpack("<i", data)[0]


def _printnum_int(p: Printer, c: Call, address: int) -> str:
    """printnum_int: ``[N]`` or the address if unreadable."""
    v = _read_int(p, c, address)
    return addr(address) if v is None else f"[{v}]"


# ---------------------------------------------------------------- sockaddr


# Network-order fields, ``name=htons(80)`` and so on (inet_addr_field, inet_pton_field and htons_field
# live in inet.py, shared with netlink); -X restyles them (inet.styled_field) into
# ``name="\x00\x50"`` (raw) or ``name="\x00\x50" /* htons(80) */`` (verbose), as strace does.


def sll_protocol_field(p: Printer, name: str, raw: bytes) -> str:
    """print_sll_protocol: ``htons(ETH_P_IP)`` (-X styles it as the other network-order fields)."""
    if p.style != "abbrev":
        return styled_field(p, name, raw, 2, sll_protocol_field(p.abbrev, name, raw))
    proto = int.from_bytes(raw[:2], "big")
    found = xlat(proto, getattr(X, "ETHERNET_PROTOCOLS", ()))
    return f"{name}=htons({found if found is not None else f'{_hex0(proto)} /* ETH_P_??? */'})"


def _hex0(value: int) -> str:
    """C's ``%#x``: ``0`` for zero."""
    return f"{value:#x}" if value else "0"


def htonl_field(p: Printer, name: str, raw: bytes) -> str:
    if p.style != "abbrev":
        return styled_field(p, name, raw, 4, htonl_field(p.abbrev, name, raw))
    return f"{name}=htonl({int.from_bytes(raw[:4], 'big')})"


def _sa_un(p: Printer, buf: bytes, addrlen: int) -> str:
    path_len = min(addrlen, 110) - 2
    path = buf[2:]
    if path[0]:
        # print_quoted_string(sun_path, path_len + 1, QUOTE_0_TERMINATED): at most path_len bytes.
        text = path[:path_len]
        nul = text.find(b"\0")
        return f"sun_path={p.quote(text if nul < 0 else text[:nul])}"
    return f"sun_path=@{p.quote(path[1:path_len] if path_len > 1 else b'')}"


def _sa_in(p: Printer, buf: bytes, addrlen: int) -> str:
    return p.args((htons_field(p, 'sin_port', buf[2:4]), inet_addr_field(p, 'sin_addr', buf[4:8])))


def _sa_in6(p: Printer, buf: bytes, addrlen: int) -> str:
    a6 = buf[8:24]
    text = (p.args((htons_field(p, 'sin6_port', buf[2:4]), htonl_field(p, 'sin6_flowinfo', buf[4:8]), inet_pton_field(p, 'sin6_addr', a6))))
    if addrlen <= 24:
        return text
    scope = struct.unpack("<I", buf[24:28])[0]
    if (a6[0] == 0xFE and a6[1] & 0xC0 == 0x80) or (a6[0] == 0xFF and a6[1] & 0xF == 2):
        return p.args((f"{text}", f"sin6_scope_id={_ifindex(p, scope)}"))
    return p.args((f"{text}", f"sin6_scope_id={scope}"))


def _sa_nl(p: Printer, buf: bytes, addrlen: int) -> str:
    pad, pid, groups = struct.unpack("<HiI", buf[2:12])
    grp = "00000000" if groups == 0 else f"{groups:#08x}"  # C's %#08x: the 0x counts in the width
    head = p.head((f"nl_pad={pad:#x}",)) if pad else ""
    return p.args((f"{head}nl_pid={pid}", f"nl_groups={grp}"))


_SOCKADDR_LL = struct.Struct("<IHBB")  # sll_ifindex, sll_hatype, sll_pkttype, sll_halen (after family, protocol)
_SLL_ADDR_OFFSET = 12


def _sa_ll(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr_data_ll: AF_PACKET's link-level address (the protocol always abbreviated, as strace)."""
    ifindex, hatype, pkttype, halen = _SOCKADDR_LL.unpack_from(buf, 4)
    text = (p.args((sll_protocol_field(p, 'sll_protocol', buf[2:4]), f"sll_ifindex={_ifindex(p, ifindex)}", f"sll_hatype={p.xval(hatype, X.ARP_HARDWARE_TYPES, 'ARPHRD_???')}", f"sll_pkttype={p.xval(pkttype, X.AF_PACKET_TYPES, 'PACKET_???')}", f"sll_halen={halen}")))
    if halen:
        oob = addrlen - _SLL_ADDR_OFFSET
        items = []
        for i in range(halen):
            if i >= oob:
                items.append("...")
                break
            byte = buf[_SLL_ADDR_OFFSET + i]
            items.append(hex(byte) if byte else "00")  # C's %#0*x, width 2: 0x1, 00
        text += p.tail((f"sll_addr=[{', '.join(items)}]",))
    return text


def _ax25_style(call: bytes) -> str:
    """check_ax25_address: "raw" (unprintable), "verbose" (odd but printable) or "default"."""
    style = "default"
    space_seen = char_seen = False
    for byte in call[:6]:
        if byte & 1:
            style = "verbose"
        ch = byte >> 1
        if ch == 0x20:
            space_seen = True
        else:
            char_seen = True
        if not (0x30 <= ch <= 0x39 or 0x41 <= ch <= 0x5A or ch == 0x20):
            style = "verbose"
        if ch != 0x20 and space_seen:
            style = "verbose"
        if ch < 0x20 or ch > 0x7E or ch in (0x2A, 0x2F):
            return "raw"
    if call[6] & ~0x1E or (not char_seen and call[6]):
        style = "verbose"
    return style


def _ax25_str(call: bytes) -> str:
    """ax25_addr2str: the callsign without trailing spaces, ``-SSID``; ``*`` for an empty one."""
    end = 6
    while end and call[end - 1] >> 1 == 0x20:
        end -= 1
    text = "".join(chr(b >> 1) for b in call[:end]) + f"-{(call[6] >> 1) & 0xF}"
    return "*" if text.startswith("-0") else text


def ax25_addr(p: Printer, call: bytes) -> str:
    """print_ax25_addr (default -X style): the callsign, or the raw bytes when it is not a sane one."""
    style = _ax25_style(call)
    if style == "default":
        return _ax25_str(call)
    raw = p.struct((('ax25_call', p.quote(call, force_hex=True)),))
    return raw if style == "raw" else f"{raw} /* {_ax25_str(call)} */"


_AX25_CALL_LEN, _AX25_SIZE, _AX25_MAX_DIGIS = 7, 16, 8  # ax25_address, struct sockaddr_ax25


def _sa_ax25(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr_data_ax25: struct full_sockaddr_ax25 when digipeaters are there."""
    ndigis = struct.unpack_from("<i", buf, 12)[0]
    length = max(addrlen, 0)
    full = bool(ndigis) or length > _AX25_SIZE
    text = p.args((f"sax25_call={ax25_addr(p, buf[2:9])}", f"sax25_ndigis={ndigis}"))
    if not full:
        return text
    text = f"fsa_ax25={{{text}}}"
    has = min((length - _AX25_SIZE) // _AX25_CALL_LEN, _AX25_MAX_DIGIS)
    want = min(max(ndigis, 0), _AX25_MAX_DIGIS)
    digis = min(has, want)
    if want:
        items = [ax25_addr(p, buf[_AX25_SIZE + i * _AX25_CALL_LEN:_AX25_SIZE + (i + 1) * _AX25_CALL_LEN])
                 for i in range(digis)]
        if want > has:
            items.append("/* ??? */")
        text += p.tail((f"fsa_digipeater=[{', '.join(items)}]",))
    if length > has * _AX25_CALL_LEN + _AX25_SIZE:
        text += ", ..."
    return text


def _c_0x(value: int, width: int) -> str:
    """C's ``%#0*x``: zero is all zeros, others 0x-prefixed and zero-padded to ``width`` in all."""
    return "0" * width if not value else f"{value:#0{width}x}"


def _sa_ipx(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr_data_ipx."""
    port, network = struct.unpack_from(">HI", buf, 2)
    node = ", ".join(_c_0x(b, 2) for b in buf[8:14])
    return (p.args((f"sipx_port=htons({port})", f"sipx_network=htonl({_hex0(network)})", f"sipx_node=[{node}]", f"sipx_type={_c_0x(buf[14], 2)}")))


def _sa_x25(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr_data_x25: the 16-byte X.121 address as a C string."""
    raw = buf[2:18]
    end = raw.find(b"\0")
    return f"sx25_addr={{x25_addr={p.quote(raw[:-1]) + '...' if end < 0 else p.quote(raw[:end])}}}"


def _mac(raw: bytes) -> str:
    """print_mac_addr: ``xx:xx:...``."""
    return ":".join(f"{b:02x}" for b in raw)


def _sa_bt(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr_data_bt: HCI, SCO and RFCOMM addresses, told apart by their length.

    L2CAP addresses (12 or 14 bytes) are printed raw here: strace names their PSM and CID
    ranges from tables pytrace does not have yet.
    """
    if addrlen in (4, 6):
        text = f"hci_dev=htobs({struct.unpack_from('<H', buf, 2)[0]})"
        if addrlen == 6:
            text += p.tail((f"hci_channel={p.xval(struct.unpack_from('<H', buf, 4)[0], X.HCI_CHANNELS, 'HCI_CHANNEL_???')}",))
        return text
    if addrlen == 8:
        return f"sco_bdaddr={_mac(buf[2:8])}"
    if addrlen == 10:  # sizeof(struct sockaddr_rc): 9 bytes padded to 10
        return p.args((f"rc_bdaddr={_mac(buf[2:8])}", f"rc_channel={buf[8]}"))
    return f"sa_data={p.quote(buf[2:addrlen])}"


# family -> (printer, minimum address length), as sa_printers[] in sockaddr.c.
_SA_PRINTERS: dict[int, tuple[Callable[[bytes, int], str], int]] = {
    _AF_UNIX: (_sa_un, 3),
    _AF_INET: (_sa_in, 16),
    _val(X.ADDRESS_FAMILIES, "AF_AX25"): (_sa_ax25, _AX25_SIZE),
    _val(X.ADDRESS_FAMILIES, "AF_IPX"): (_sa_ipx, 16),
    _val(X.ADDRESS_FAMILIES, "AF_X25"): (_sa_x25, 18),
    _AF_INET6: (_sa_in6, 24),
    _AF_NETLINK: (_sa_nl, 12),
    _val(X.ADDRESS_FAMILIES, "AF_PACKET"): (_sa_ll, 20),
    _val(X.ADDRESS_FAMILIES, "AF_BLUETOOTH"): (_sa_bt, 3),
}


def print_sockaddr(p: Printer, buf: bytes, addrlen: int) -> str:
    """print_sockaddr: ``{sa_family=AF_INET, sin_port=htons(80), ...}`` from bytes already fetched."""
    buf = buf[:addrlen].ljust(_SOCKADDR_STORAGE + 1, b"\0")
    family = struct.unpack("<H", buf[:2])[0]
    text = f"{{sa_family={p.xval(family, X.ADDRESS_FAMILIES, 'AF_???')}"
    if addrlen > 2:
        printer = _SA_PRINTERS.get(family)
        if printer is not None and addrlen >= printer[1]:
            text += ", " + printer[0](p, buf, addrlen)
        else:
            text += p.tail((f"sa_data={p.quote(buf[2:addrlen])}",))
    return text + "}"


def sockaddr_at(p: Printer, c: Call, address: int, addrlen: int) -> tuple[str, int | None]:
    """decode_sockaddr: the text and the family (None when only the address was printed)."""
    addrlen = signed(addrlen, 32)
    if addrlen < 2 or not address:
        return addr(address), None
    addrlen = min(addrlen, _SOCKADDR_STORAGE)
    data = p.fetch(c, address, addrlen, True)
    if data is None:
        return addr(address), None
    return print_sockaddr(p, data, addrlen), struct.unpack("<H", data[:2])[0]


def sockaddr(p: Printer, c: Call, address: int, addrlen: int) -> str:
    return sockaddr_at(p, c, address, addrlen)[0]


def _len_pair(ulen: int, rlen: int) -> str:
    """``[16]`` or ``[128 => 16]`` when the kernel changed the caller's length."""
    return f"[{rlen}]" if ulen == rlen else f"[{ulen} => {rlen}]"


# ---------------------------------------------------------------- socket, socketpair


def sock_type(p: Printer, value: int) -> str:
    """tprint_sock_type: the base type by name, then SOCK_CLOEXEC/SOCK_NONBLOCK."""
    value = _u32(value)
    name = xlat(value & 0xF, X.SOCKET_TYPES)
    if name is None:
        return p.flags(value, X.SOCK_TYPE_FLAGS, "SOCK_???")
    rest = value & ~0xF
    text = p.print_xlat(value & 0xF, name)
    return text if not rest else f"{text}|{p.flags(rest, X.SOCK_TYPE_FLAGS, 'SOCK_???')}"


def _family(name: str) -> int | None:
    return _val(X.ADDRESS_FAMILIES, name)


# socket(2)'s protocol per family: (table, default comment), as the switch in strace's SYS_FUNC(socket).
# Tables the generator does not provide yet are looked up by name so they start working once it does.
_PROTOCOL_TABLES: dict[int | None, tuple[Table, str]] = {
    _AF_INET: (X.IP_PROTOCOLS, "IPPROTO_???"),
    _AF_INET6: (X.IP_PROTOCOLS, "IPPROTO_???"),
    _AF_NETLINK: (_NETLINK_PROTOCOLS, "NETLINK_???"),
    _family("AF_AX25"): (X.AX25_PROTOCOLS, "AX25_P_???"),
    _family("AF_IRDA"): (getattr(X, "CAN_PROTOCOLS", ()), "IRDAPROTO_???"),
    _family("AF_CAN"): (getattr(X, "CAN_PROTOCOLS", ()), "CAN_???"),
    _family("AF_BLUETOOTH"): (getattr(X, "BT_PROTOCOLS", ()), "BTPROTO_???"),
    _family("AF_RXRPC"): (X.ADDRESS_FAMILIES, "AF_???"),
    _family("AF_ISDN"): (getattr(X, "ISDN_PROTOCOLS", ()), "ISDN_P_???"),
    _family("AF_PHONET"): (getattr(X, "PHONET_PROTOCOLS", ()), "PN_PROTO_???"),
    _family("AF_CAIF"): (getattr(X, "CAIF_PROTOCOLS", ()), "CAIFPROTO_???"),
    _family("AF_NFC"): (getattr(X, "NFC_PROTOCOLS", ()), "NFC_SOCKPROTO_???"),
    _family("AF_KCM"): (getattr(X, "KCM_PROTOCOLS", ()), "KCMPROTO_???"),
    _family("AF_SMC"): (getattr(X, "SMC_PROTOCOLS", ()), "SMCPROTO_???"),
}
_AF_PACKET = _family("AF_PACKET")
_ETHERNET_PROTOCOLS: Table = getattr(X, "ETHERNET_PROTOCOLS", ())


def _ntohs(value: int) -> int:
    return ((value & 0xFF) << 8) | ((value >> 8) & 0xFF)


@syscall("socket", rval=rv_fd)
def socket(p: Printer, c: Call) -> str:
    # The family prints as an int, but strace 6.1 picks the protocol's table by the whole register
    # (syscall_tables' decode column keeps it 64-bit): socket(0x100000002, ...) prints AF_INET and
    # a numeric protocol.
    family, proto = c.args[0], c.args[2]
    entry = _PROTOCOL_TABLES.get(family)
    if entry is not None:
        proto_text = p.xval(proto, entry[0], entry[1])
    elif family == _AF_PACKET:
        proto_text = f"htons({p.xval(_ntohs(proto), _ETHERNET_PROTOCOLS, 'ETH_P_???')})"
    else:
        proto_text = str(proto)
    return p.args((p.xval(family & 0xFFFFFFFF, X.ADDRESS_FAMILIES, 'AF_???'), sock_type(p, c.args[1]), f"{proto_text}"))


def _fd_pair(p: Printer, c: Call, address: int) -> str:
    """decode_pair_fd, shared with pipe/pipe2 (desc.py)."""
    return fd_pair(p, c, address)


@syscall("socketpair")
def socketpair(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.xval(c.args[0], X.ADDRESS_FAMILIES, 'AF_???'), sock_type(p, c.args[1]), f"{c.args[2]}"))
    yield _fd_pair(p, c, c.args[3])


# ---------------------------------------------------------------- bind, connect, listen, shutdown


@syscall("bind", "connect")
def bind(p: Printer, c: Call) -> str:
    length = signed(c.args[2], 32)
    return p.args((p.fd(c, c.args[0]), sockaddr(p, c, c.args[1], length), f"{length}"))


@syscall("listen")
def listen(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), f"{signed(c.args[1], 32)}"))


@syscall("shutdown")
def shutdown(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.xval(c.args[1], X.SHUTDOWN_MODES, 'SHUT_???')))


# ---------------------------------------------------------------- accept, getsockname


def _sockname(p: Printer, c: Call, tail: Callable[[], str]) -> Generator[str, None, None]:
    """decode_sockname: the caller's length is read at entry, the address and new length at exit."""
    head = p.head((p.fd(c, c.args[0]),))
    sa, lenp = c.args[1], c.args[2]
    ulen = _read_int(p, c, lenp) if sa and lenp else None
    if ulen is None:
        yield p.args((f"{head}{addr(sa)}", f"{addr(lenp)}{tail()}"))
        yield ""
        return
    yield head
    rlen = None if c.failed else _read_int(p, c, lenp)
    if rlen is None:
        yield p.args((addr(sa), f"[{ulen}]{tail()}"))
    else:
        yield p.args((sockaddr(p, c, sa, min(ulen, rlen)), f"{_len_pair(ulen, rlen)}{tail()}"))


@syscall("getsockname", "getpeername")
@syscall("accept", rval=rv_fd)
def accept(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _sockname(p, c, lambda: "")


@syscall("accept4", rval=rv_fd)
def accept4(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _sockname(p, c, lambda: p.tail((p.flags(c.args[3], X.SOCK_TYPE_FLAGS, 'SOCK_???'),)))


# ---------------------------------------------------------------- sendto, recvfrom


def msg_flags(p: Printer, value: int) -> str:
    return p.flags(value, X.MSG_FLAGS, "MSG_???")


@syscall("sendto", live=True)  # sockbuf: netlink or not, from /proc/PID/fd
def sendto(p: Printer, c: Call) -> str:
    length = signed(c.args[5], 32)
    return (p.args((p.fd(c, c.args[0]), sockbuf(p, c, c.args[0], c.args[1], c.args[2]), f"{c.args[2]}", msg_flags(p, c.args[3]), sockaddr(p, c, c.args[4], length), f"{length}")))


@syscall("socketcall")
def socketcall(p: Printer, c: Call) -> str:
    """i386 socketcall(2) left as such (tables/subcalls.py prints the others as their subcall): an
    unknown call number or an unreadable argument array.  strace's printxval_d, without a default."""
    call = signed(c.args[0], 32)
    name = xlat(call, X.SOCKETCALLS)
    return p.args((f"{str(call) if name is None else p.print_xlat(call, name, 'int')}", addr(c.args[1])))


@syscall("send", live=True)  # sockbuf: netlink or not, from /proc/PID/fd
def send(p: Printer, c: Call) -> str:
    """i386 socketcall SYS_SEND: sendto without the address (strace's own ``send`` decoder)."""
    return p.args((p.fd(c, c.args[0]), sockbuf(p, c, c.args[0], c.args[1], c.args[2]), f"{c.args[2]}", msg_flags(p, c.args[3])))


@syscall("recv", live=True)  # sockbuf: netlink or not, from /proc/PID/fd
def recv(p: Printer, c: Call) -> Generator[str, None, None]:
    """i386 socketcall SYS_RECV: the buffer is printed at exit, as recvfrom's."""
    yield p.head((p.fd(c, c.args[0]),))
    buf = addr(c.args[1]) if c.failed else sockbuf(p, c, c.args[0], c.args[1], min(c.rval & MASK64, c.args[2]))
    yield p.args((f"{buf}", f"{c.args[2]}", msg_flags(p, c.args[3])))


@syscall("recvfrom", live=True)  # sockbuf: netlink or not, from /proc/PID/fd
def recvfrom(p: Printer, c: Call) -> Generator[str, None, None]:
    sa, lenp = c.args[4], c.args[5]
    ulen = _read_int(p, c, lenp) if sa and lenp else None
    yield p.head((p.fd(c, c.args[0]),))
    buf = addr(c.args[1]) if c.failed else sockbuf(p, c, c.args[0], c.args[1], min(c.rval & MASK64, c.args[2]))
    text = p.head((f"{buf}", f"{c.args[2]}", msg_flags(p, c.args[3])))
    rlen = _read_int(p, c, lenp) if sa and lenp else None
    if rlen is None:
        yield p.args((f"{text}{addr(sa)}", addr(lenp)))
    elif c.failed:
        yield p.args((f"{text}{addr(sa)}", f"[{ulen or 0}]"))
    else:
        u = ulen or 0
        yield p.args((f"{text}{sockaddr(p, c, sa, min(u, rlen))}", _len_pair(u, rlen)))


# ---------------------------------------------------------------- msghdr and control messages



@cache
def _optmem_max() -> int:
    """get_optmem_max: the cap strace puts on how much control data it fetches."""
    try:
        with open("/proc/sys/net/core/optmem_max") as f:
            v = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        v = 0
    return 8 * (2 * 1024 + 512) if v <= 0 else (v + 7) & ~7


def _int_array(p: Printer, values: list[int], fmt: Callable[[int], str]) -> str:
    """print_local_array: ``[a, b, ...]`` cut at -s elements."""
    parts = []
    for i, v in enumerate(values):
        if _abbrev(p) and i >= p.opts.max_strlen:
            parts.append("...")
            break
        parts.append(fmt(v))
    return "[" + ", ".join(parts) + "]"


def _scm_rights(p: Printer, data: bytes, c: Call | None = None) -> str:
    """The passed descriptors, printed as fds of the calling process (-y shows what they are)."""
    n = len(data) // 4
    values = list(struct.unpack(f"<{n}i", data[: n * 4]))
    return _int_array(p, values, str if c is None else lambda v: p.fd(c, v))


def _scm_creds(p: Printer, data: bytes) -> str:
    pid, uid, gid = struct.unpack("<iII", data[:12])
    return p.struct((('pid', f"{pid}"), ('uid', _print_id(uid)), ('gid', _print_id(gid))))


def _cmsg_pktinfo(p: Printer, data: bytes) -> str:
    index = struct.unpack("<I", data[:4])[0]
    return (f"{{ipi_ifindex={_ifindex(p, index)}, {inet_addr_field(p, 'ipi_spec_dst', data[4:8])}, "
            f"{inet_addr_field(p, 'ipi_addr', data[8:12])}}}")


def _cmsg_uint(p: Printer, data: bytes) -> str:
    n = len(data) // 4
    return _int_array(p, list(struct.unpack(f"<{n}I", data[: n * 4])), str)


def _cmsg_xint8(p: Printer, data: bytes) -> str:
    return _int_array(p, list(data), _hex)


def _cmsg_recverr(p: Printer, data: bytes) -> str:
    e_errno, origin, etype, code, _pad, info, edata = struct.unpack("<IBBBBII", data[:16])
    return (p.struct((('ee_errno', f"{e_errno}"), ('ee_origin', f"{origin}"), ('ee_type', f"{etype}"), ('ee_code', f"{code}"), ('ee_info', f"{info}"), ('ee_data', f"{edata}"), ('offender', print_sockaddr(p, data[16:32], 16)))))


def _cmsg_origdst(p: Printer, data: bytes) -> str:
    return print_sockaddr(p, data, min(len(data), _SOCKADDR_STORAGE))


_TIME_PAIR = struct.Struct("<qQ")  # timeval / timespec (64-bit): seconds signed, the fraction unsigned


#: The _OLD timestamps' timeval / timespec: the tracee's longs (decode/i386.py swaps in "<iI").


def _timeval_with(layout: struct.Struct, data: bytes) -> str:
    """print_struct_timeval_data_size: ``???`` when the data is shorter than a timeval."""
    if len(data) < layout.size:
        return "???"
    sec, usec = layout.unpack_from(data)
    return f"{{tv_sec={sec}, tv_usec={usec}}}"


def _timespec_with(layout: struct.Struct, data: bytes) -> str:
    """print_timespec{32,64}_data_size."""
    if len(data) < layout.size:
        return "???"
    sec, nsec = layout.unpack_from(data)
    return f"{{tv_sec={sec}, tv_nsec={nsec}}}"


def _timestamping_with(layout: struct.Struct, data: bytes) -> str:
    """print_timespec{32,64}_array_data_size(..., 3, ...): SO_TIMESTAMPING's three timestamps."""
    size = layout.size
    if len(data) < 3 * size:
        return "???"
    return "[" + ", ".join(_timespec_with(layout, data[i * size:]) for i in range(3)) + "]"


def _scm_timeval(p: Printer, data: bytes) -> str:
    return _timeval_with(_TIME_PAIR, data)


def _scm_timespec(p: Printer, data: bytes) -> str:
    return _timespec_with(_TIME_PAIR, data)


def _scm_timestamping(p: Printer, data: bytes) -> str:
    return _timestamping_with(_TIME_PAIR, data)


def _scm_timeval_old(p: Printer, data: bytes) -> str:
    return _timeval_with(p.lay.OLD_TIME_PAIR, data)


def _scm_timespec_old(p: Printer, data: bytes) -> str:
    return _timespec_with(p.lay.OLD_TIME_PAIR, data)


def _scm_timestamping_old(p: Printer, data: bytes) -> str:
    return _timestamping_with(p.lay.OLD_TIME_PAIR, data)



def _scm_security(p: Printer, data: bytes) -> str:
    """SCM_SECURITY: the security context as a string."""
    return p.quote(data)


_SCM_PRINTERS: dict[int | None, tuple[Callable[[bytes], str], int]] = {
    1: (_scm_rights, 4),  # SCM_RIGHTS
    2: (_scm_creds, 12),  # SCM_CREDENTIALS
    3: (_scm_security, 1),  # SCM_SECURITY
    # cmsg_socket_printers[]: the timestamps (the _OLD ones in the tracee's longs, _NEW ones 64-bit).
    **{_val(_SCM_TYPES, name): printer for name, printer in (
        ("SO_TIMESTAMP_OLD", (_scm_timeval_old, 1)),
        ("SO_TIMESTAMPNS_OLD", (_scm_timespec_old, 1)),
        ("SO_TIMESTAMPING_OLD", (_scm_timestamping_old, 1)),
        ("SO_TIMESTAMP_NEW", (_scm_timeval, 1)),
        ("SO_TIMESTAMPNS_NEW", (_scm_timespec, 1)),
        ("SO_TIMESTAMPING_NEW", (_scm_timestamping, 1)),
    )},
}
# SOL_IP control messages reuse the IP_* option numbers (cmsg_ip_printers[] in msghdr.c).
_IP_CMSG_PRINTERS: dict[int | None, tuple[Callable[[bytes], str], int]] = {
    _val(X.IP_OPTIONS, name): printer
    for name, printer in (
        ("IP_PKTINFO", (_cmsg_pktinfo, 12)),
        ("IP_TTL", (_cmsg_uint, 4)),
        ("IP_TOS", (_cmsg_xint8, 1)),
        ("IP_RECVOPTS", (_cmsg_xint8, 1)),
        ("IP_RETOPTS", (_cmsg_xint8, 1)),
        ("IP_RECVERR", (_cmsg_recverr, 32)),
        ("IP_ORIGDSTADDR", (_cmsg_origdst, 16)),
        ("IP_CHECKSUM", (_cmsg_uint, 4)),
    )
}
_IP_CMSG_PRINTERS[3] = (_scm_security, 1)  # SCM_SECURITY (3), which no generated table names yet


def _cmsg_type_data(p: Printer, level: int, ctype: int, data: bytes, c: Call | None = None) -> str:
    if level == _SOL_SOCKET:
        table, printers, dflt = _SCM_TYPES, _SCM_PRINTERS, "SCM_???"
    elif level == _SOL_IP:
        table, printers, dflt = _IP_CMSG_TYPES, _IP_CMSG_PRINTERS, "IP_???"
    else:
        return _hex(_u32(ctype))
    text = p.xval(ctype & MASK64, table, dflt)
    printer = printers.get(_u32(ctype))
    if printer is not None and len(data) >= printer[1]:
        shown = _scm_rights(p, data, c) if printer[0] is _scm_rights else printer[0](p, data)
        text += p.tail((f"cmsg_data={shown}",))
    return text


def _msg_control(p: Printer, c: Call, address: int, in_len: int) -> str:
    """decode_msg_control: the cmsg chain, ``[{cmsg_len=20, cmsg_level=SOL_SOCKET, ...}]``."""
    control_len = min(in_len, _optmem_max())
    buf_len = control_len
    buf = c.mem.read(address, buf_len) if buf_len >= p.lay.CMSGHDR.size and address else None
    if buf is None:
        return addr(address)
    parts = []
    off = 0
    while buf_len >= p.lay.CMSGHDR.size:
        cmsg_len, level, ctype = p.lay.CMSGHDR.unpack_from(buf, off)
        length = min(cmsg_len, buf_len)
        data = buf[off + p.lay.CMSGHDR.size: off + length] if length > p.lay.CMSGHDR.size else b""
        parts.append(p.struct((('cmsg_len', f"{cmsg_len}"), ('cmsg_level', p.xval(level & MASK64, X.SOCKET_LEVELS, 'SOL_???')), ('cmsg_type', _cmsg_type_data(p, level, ctype, data, c)))))
        if length < p.lay.CMSGHDR.size:
            buf_len -= p.lay.CMSGHDR.size
            break
        length = (cmsg_len + p.lay.CMSG_ALIGN) & ~p.lay.CMSG_ALIGN
        if length >= buf_len:
            buf_len = 0
            break
        off += length
        buf_len -= length
    if buf_len:
        parts.append(f"... /* {addr(address + control_len - buf_len)} */")
    elif control_len < in_len:
        parts.append("...")
    return "[" + ", ".join(parts) + "]"


def _msghdr_fields(p: Printer, c: Call, raw: bytes, user_namelen: int | None, data_size: int | None) -> str:
    """print_struct_msghdr: every field of a fetched ``struct msghdr``."""
    name, namelen, iov, iovlen, control, controllen, mflags = p.lay.MSGHDR.unpack(raw)
    snamelen = signed(namelen, 32)
    use_len = user_namelen if user_namelen is not None and snamelen > user_namelen else snamelen
    name_text, family = sockaddr_at(p, c, name, use_len)
    iov_text = (partial(iovec_netlink, p) if family == _AF_NETLINK else partial(iovec_array, p))(c, iov, iovlen, data_size)
    nl = f"{user_namelen} => {snamelen}" if user_namelen is not None and user_namelen != snamelen else str(snamelen)
    text = (f"{{msg_name={name_text}, msg_namelen={nl}, msg_iov={iov_text}, "
            f"msg_iovlen={iovlen}")
    if controllen:
        text += p.tail((f"msg_control={_msg_control(p, c, control, controllen)}",))
    return text + f", msg_controllen={controllen}, msg_flags={msg_flags(p, mflags)}}}"


def msghdr(p: Printer, c: Call, address: int, user_namelen: int | None, data_size: int | None) -> str:
    raw = c.mem.read(address, p.lay.MSGHDR.size) if address else None
    if raw is None:
        return addr(address)
    return _msghdr_fields(p, c, raw, user_namelen, data_size)


@syscall("sendmsg", live=True)  # netlink iovecs: the family from the socket (/proc, sock_diag)
def sendmsg(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), msghdr(p, c, c.args[1], None, None), msg_flags(p, c.args[2])))


@syscall("recvmsg", live=True)  # netlink iovecs: the family from the socket (/proc, sock_diag)
def recvmsg(p: Printer, c: Call) -> Generator[str, None, None]:
    head = p.head((p.fd(c, c.args[0]),))
    raw = c.mem.read(c.args[1], p.lay.MSGHDR.size) if c.args[1] else None
    if raw is None:
        yield p.args((f"{head}{addr(c.args[1])}", msg_flags(p, c.args[2])))
        yield ""
        return
    namelen = signed(p.lay.MSGHDR.unpack(raw)[1], 32)
    yield head
    if c.failed:
        msg = p.struct((('msg_namelen', f"{namelen}"),))
    else:
        msg = msghdr(p, c, c.args[1], namelen, c.rval)
    yield p.args((f"{msg}", msg_flags(p, c.args[2])))


# ---------------------------------------------------------------- sendmmsg, recvmmsg



def _mmsgvec(p: Printer, c: Call, address: int, vlen: int, msg_len_vlen: int, use_msg_len: bool,
             namelens: list[int] | None, fetch: bool) -> str:
    """decode_mmsgvec: print_array of ``{msg_hdr={...}, msg_len=N}``."""
    if not address:
        return "NULL"
    if vlen == 0:
        return "[]"
    count = _IOV_MAX if namelens is None else min(_IOV_MAX, len(namelens))
    parts = []
    for i in range(vlen):
        cur = address + i * p.lay.MMSGHDR_SIZE
        raw = c.mem.read(cur, p.lay.MMSGHDR_SIZE) if fetch else None
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(f"... /* {addr(cur)} */")
            break
        if _abbrev(p) and i >= p.opts.max_strlen:
            parts.append("...")
            break
        if i >= count:
            parts.append("...")
            break
        msg_len = struct.unpack_from("<I", raw, p.lay.MSGHDR.size)[0]
        user = namelens[i] if namelens is not None else None
        text = f"{{msg_hdr={_msghdr_fields(p, c, raw[: p.lay.MSGHDR.size], user, msg_len if use_msg_len else None)}"
        if i < msg_len_vlen:
            text += p.tail((f"msg_len={msg_len}",))
        parts.append(text + "}")
    return "[" + ", ".join(parts) + "]"


@syscall("sendmmsg", live=True)  # netlink iovecs: the family from the socket (/proc, sock_diag)
def sendmmsg(p: Printer, c: Call) -> Generator[str, None, None]:
    if not p.verbose(c):  # -e verbose=!sendmmsg: the vector's address, all known at entry
        yield p.args((p.fd(c, c.args[0]), addr(c.args[1]), f"{_u32(c.args[2])}", msg_flags(p, c.args[3])))
        yield ""
        return
    yield p.head((p.fd(c, c.args[0]),))
    done = 0 if c.failed else c.rval
    vec = _mmsgvec(p, c, c.args[1], _u32(c.args[2]), done, False, None, True)
    yield p.args((f"{vec}", f"{_u32(c.args[2])}", msg_flags(p, c.args[3])))




def _timespec(p: Printer, c: Call, address: int) -> str:
    if not address:
        return "NULL"
    data = c.mem.read(address, p.lay.TIMESPEC.size)
    if data is None:
        return addr(address)
    sec, nsec = p.lay.TIMESPEC.unpack(data)
    return p.struct((('tv_sec', f"{sec}"), ('tv_nsec', f"{nsec}")))


@syscall("recvmmsg", live=True)  # netlink iovecs: the family from the socket (/proc, sock_diag)
def recvmmsg(p: Printer, c: Call) -> Generator[str, None, None]:
    if not p.verbose(c):  # -e verbose=!recvmmsg: addresses at entry, "(Timeout)" still annotated
        yield (p.args((p.fd(c, c.args[0]), addr(c.args[1]), f"{_u32(c.args[2])}", msg_flags(p, c.args[3]), addr(c.args[4]))))
        if not c.failed and c.rval == 0:
            c.ret_text = "0 (Timeout)"
        yield ""
        return
    vlen = min(_u32(c.args[2]), _IOV_MAX)
    namelens = []
    for i in range(vlen):
        raw = c.mem.read(c.args[1] + i * p.lay.MMSGHDR_SIZE, p.lay.MSGHDR.size)
        if raw is None:
            break
        namelens.append(signed(p.lay.MSGHDR.unpack(raw)[1], 32))
    timeout = _timespec(p, c, c.args[4])
    yield p.head((p.fd(c, c.args[0]),))
    got = _u32(c.rval)
    vec = _mmsgvec(p, c, c.args[1], got, got, True, namelens, not c.failed)
    if not c.failed:
        if c.rval == 0:
            c.ret_text = "0 (Timeout)"
        elif c.args[4]:
            c.ret_text = f"{c.rval} (left {_timespec(p, c, c.args[4])})"
    yield p.args((f"{vec}", f"{_u32(c.args[2])}", msg_flags(p, c.args[3]), f"{timeout}"))


# ---------------------------------------------------------------- setsockopt, getsockopt

_SO_LINGER, _SO_PEERCRED, _SO_ERROR, _SO_TXREHASH = (
    _val(X.SOCKET_OPTIONS, n) for n in ("SO_LINGER", "SO_PEERCRED", "SO_ERROR", "SO_TXREHASH"))
_IP_MREQ = frozenset(_val(X.IP_OPTIONS, n) for n in ("IP_ADD_MEMBERSHIP", "IP_DROP_MEMBERSHIP"))
_IPV6_MREQ = frozenset(_val(X.IPV6_OPTIONS, n) for n in (
    "IPV6_ADD_MEMBERSHIP", "IPV6_DROP_MEMBERSHIP", "IPV6_JOIN_ANYCAST", "IPV6_LEAVE_ANYCAST"))
_GROUP_REQ = frozenset(_val(X.IP_OPTIONS, n) for n in ("MCAST_JOIN_GROUP", "MCAST_LEAVE_GROUP"))
_SOCK_TXREHASH_VALS: Table = getattr(X, "SOCK_TXREHASH_VALS", ())

# The SOL_SOCKET options strace 6.1 knows to take an int ("All known int-like options" in net.c):
# a shorter value is shown as hex bytes (get) or as its address (set) instead of as a string.
_INT_SO_NAMES = frozenset((
    "SO_DEBUG", "SO_REUSEADDR", "SO_DONTROUTE", "SO_BROADCAST", "SO_SNDBUF", "SO_RCVBUF", "SO_KEEPALIVE",
    "SO_OOBINLINE", "SO_NO_CHECK", "SO_PRIORITY", "SO_BSDCOMPAT", "SO_REUSEPORT", "SO_PASSCRED",
    "SO_RCVLOWAT", "SO_SNDLOWAT", "SO_DETACH_FILTER", "SO_TIMESTAMP_OLD", "SO_ACCEPTCONN", "SO_SNDBUFFORCE",
    "SO_RCVBUFFORCE", "SO_PASSSEC", "SO_TIMESTAMPNS_OLD", "SO_MARK", "SO_TIMESTAMPING_OLD", "SO_RXQ_OVFL",
    "SO_WIFI_STATUS", "SO_PEEK_OFF", "SO_NOFCS", "SO_LOCK_FILTER", "SO_SELECT_ERR_QUEUE", "SO_BUSY_POLL",
    "SO_INCOMING_CPU", "SO_CNX_ADVICE", "SO_INCOMING_NAPI_ID", "SO_ZEROCOPY", "SO_TIMESTAMP_NEW",
    "SO_TIMESTAMPNS_NEW", "SO_TIMESTAMPING_NEW", "SO_DETACH_REUSEPORT_BPF", "SO_PREFER_BUSY_POLL",
    "SO_BUSY_POLL_BUDGET", "SO_RESERVE_MEM", "SO_RCVMARK",
))
_INT_SO = frozenset(v for v, n in X.SOCKET_OPTIONS if n in _INT_SO_NAMES)
_ATTACH_CBPF = frozenset(v for v, n in X.SOCKET_OPTIONS + X.SETSOCK_OPTIONS
                         if n in ("SO_ATTACH_FILTER", "SO_ATTACH_REUSEPORT_CBPF"))
_SO_GET_FILTER = _val(X.GETSOCK_OPTIONS, "SO_GET_FILTER")


def _txrehash(p: Printer, c: Call, address: int, length: int) -> str:
    """print_txrehash: ``[SOCK_TXREHASH_ENABLED]``; a short value is hex bytes at exit, an address at entry."""
    if length < 4:
        return p.string_at(c, address, length, force_hex=True) if c.exited else addr(address)
    v = _read_int(p, c, address)
    if v is None:
        return addr(address)
    return f"[{p.xval(v, _SOCK_TXREHASH_VALS, 'SOCK_TXREHASH_???', fmt='int')}]"


def _level(name: str) -> int:
    value = _val(X.SOCKET_LEVELS, name)
    assert value is not None, name
    return value


# print_sockopt_fd_level_name: the option-name table of each level strace names options at.
_OPTNAMES: dict[int, tuple[Table, str]] = {
    _level(level): (table, dflt) for level, table, dflt in (
        ("SOL_SOCKET", X.SOCKET_OPTIONS, "SO_???"),
        ("SOL_IP", X.IP_OPTIONS, "IP_???"),
        ("AF_VSOCK", X.SOCK_VSOCK_OPTIONS, "SO_VM_???"),
        ("SOL_IPV6", X.IPV6_OPTIONS, "IPV6_???"),
        ("SOL_IPX", X.SOCK_IPX_OPTIONS, "IPX_???"),
        ("SOL_AX25", X.SOCK_AX25_OPTIONS, "AX25_???"),
        ("SOL_PACKET", X.SOCK_PACKET_OPTIONS, "PACKET_???"),
        ("SOL_TCP", X.TCP_OPTIONS, "TCP_???"),
        ("SOL_CAN_RAW", X.SOCK_CAN_RAW_OPTIONS, "CAN_RAW_???"),
        ("SOL_SCTP", X.SOCK_SCTP_OPTIONS, "SCTP_???"),
        ("SOL_RAW", X.SOCK_RAW_OPTIONS, "RAW_???"),
        ("SOL_NETLINK", X.SOCK_NETLINK_OPTIONS, "NETLINK_???"),
        ("SOL_UDP", X.SOCK_UDP_OPTIONS, "UDP_???"),
        ("SOL_IRDA", X.SOCK_IRDA_OPTIONS, "IRLMP_???"),
        ("SOL_LLC", X.SOCK_LLC_OPTIONS, "LLC_OPT_???"),
        ("SOL_DCCP", X.SOCK_DCCP_OPTIONS, "DCCP_SOCKOPT_???"),
        ("SOL_TIPC", X.SOCK_TIPC_OPTIONS, "TIPC_???"),
        ("SOL_RXRPC", X.SOCK_RXRPC_OPTIONS, "RXRPC_???"),
        ("SOL_PPPOL2TP", X.SOCK_PPPOL2TP_OPTIONS, "PPPOL2TP_SO_???"),
        ("SOL_BLUETOOTH", X.SOCK_BLUETOOTH_OPTIONS, "BT_???"),
        ("SOL_PNPIPE", X.SOCK_PNP_OPTIONS, "PNPIPE_???"),
        ("SOL_RDS", X.SOCK_RDS_OPTIONS, "RDS_???"),
        ("SOL_IUCV", X.SOCK_IUCV_OPTIONS, "SO_???"),
        ("SOL_CAIF", X.SOCK_CAIF_OPTIONS, "CAIFSO_???"),
        ("SOL_ALG", X.SOCK_ALG_OPTIONS, "ALG_???"),
        ("SOL_NFC", X.SOCK_NFCLLCP_OPTIONS, "NFC_LLCP_???"),
        ("SOL_KCM", X.SOCK_KCM_OPTIONS, "KCM_???"),
        ("SOL_TLS", X.SOCK_TLS_OPTIONS, "TLS_???"),
        ("SOL_XDP", X.SOCK_XDP_OPTIONS, "XDP_???"),
    )
}
# printxvals(common, get-only/set-only): names only one direction knows (SO_GET_FILTER vs SO_ATTACH_FILTER...).
_OPTNAMES_GET: dict[int, Table] = {_SOL_SOCKET: X.GETSOCK_OPTIONS, _SOL_IP: X.GETSOCK_IP_OPTIONS,
                                   _SOL_IPV6: X.GETSOCK_IPV6_OPTIONS}
_OPTNAMES_SET: dict[int, Table] = {_SOL_SOCKET: X.SETSOCK_OPTIONS, _SOL_IP: X.SETSOCK_IP_OPTIONS,
                                   _SOL_IPV6: X.SETSOCK_IPV6_OPTIONS}


def _optname(p: Printer, level: int, name: int, get: bool) -> str:
    entry = _OPTNAMES.get(level)
    if entry is None:
        return str(name)
    table, dflt = entry
    if xlat(name, table) is None:
        only = (_OPTNAMES_GET if get else _OPTNAMES_SET).get(level)
        if only is not None and xlat(name, only) is not None:
            table = only
    return p.xval(name, table, dflt)


def _sockopt_head(p: Printer, c: Call) -> str:
    level = _u32(c.args[1])
    name = _optname(p, level, _u32(c.args[2]), c.name == "getsockopt")
    return p.head((p.fd(c, c.args[0]), p.xval(level, X.SOCKET_LEVELS, 'SOL_??'), f"{name}"))


def _fields_upto(p: Printer, data: bytes, fields: list[tuple[str, int, int, Callable[[bytes], str]]], length: int) -> str:
    """MAYBE_PRINT_FIELD_LEN: the fields that fit in ``length``, a partial one in hex."""
    parts = []
    for name, start, size, fmt in fields:
        if length <= start:
            break
        if length >= start + size:
            parts.append(f"{name}={fmt(data[start:start + size])}")
        else:
            parts.append(f"{name}={p.quote(data[start:length], force_hex=True)}")
    return "{" + ", ".join(parts) + "}"


def _i32(b: bytes) -> str:
    return str(struct.unpack("<i", b)[0])


_SOL_PACKET, _SOL_RAW = (_val(X.SOCKET_LEVELS, n) for n in ("SOL_PACKET", "SOL_RAW"))
_PACKET_STATISTICS = _val(X.SOCK_PACKET_OPTIONS, "PACKET_STATISTICS")
_PACKET_RINGS = frozenset(_val(X.SOCK_PACKET_OPTIONS, n) for n in ("PACKET_RX_RING", "PACKET_TX_RING"))
_PACKET_MREQS = frozenset(_val(X.SOCK_PACKET_OPTIONS, n) for n in ("PACKET_ADD_MEMBERSHIP",
                                                                   "PACKET_DROP_MEMBERSHIP"))
_ICMP_FILTER = _val(X.SOCK_RAW_OPTIONS, "ICMP_FILTER")
_NETLINK_LIST_MEMBERSHIPS = _val(X.SOCK_NETLINK_OPTIONS, "NETLINK_LIST_MEMBERSHIPS")
_TPACKET_REQ = struct.Struct("<4I")
_PACKET_MREQ = struct.Struct("<iHH8s")


def _u32s(b: bytes) -> str:
    return str(struct.unpack("<I", b)[0])


def _tpacket_stats(p: Printer, c: Call, address: int, length: int) -> str:
    """print_tpacket_stats: the fields of struct tpacket_stats that ``length`` covers."""
    n = min(length, 12)
    data = c.mem.read(address, n)
    if data is None:
        return addr(address)
    return _fields_upto(p, data, [("tp_packets", 0, 4, _u32s), ("tp_drops", 4, 4, _u32s),
                               ("tp_freeze_q_cnt", 8, 4, _u32s)], n)


def _icmp_filter(p: Printer, c: Call, address: int, length: int) -> str:
    """print_icmp_filter: the ICMP types as a bitset, ``~[...]`` for those not set when most bits are."""
    if length <= 0:
        return addr(address)
    n = min(length, 4)
    data = p.fetch(c, address, n, True)
    if data is None:
        return addr(address)
    bits = int.from_bytes(data + b"\xff" * (4 - n), "little")  # the rest of the ~0U the kernel starts from
    prefix = ""
    if bits.bit_count() > 16:
        bits ^= 0xFFFFFFFF
        prefix = "~"
    names = [p.xval(i, X.ICMP_FILTER_FLAGS, "ICMP_???") for i in range(32) if bits >> i & 1]
    return f"{prefix}[{' '.join(names)}]"


def _tpacket_req(p: Printer, c: Call, address: int, length: int) -> str:
    data = p.fetch(c, address, _TPACKET_REQ.size, True) if length == _TPACKET_REQ.size else None
    if data is None:
        return addr(address)
    values = _TPACKET_REQ.unpack(data)
    names = ("tp_block_size", "tp_block_nr", "tp_frame_size", "tp_frame_nr")
    return "{" + ", ".join(f"{n}={v}" for n, v in zip(names, values, strict=True)) + "}"


def _packet_mreq(p: Printer, c: Call, address: int, length: int) -> str:
    data = p.fetch(c, address, _PACKET_MREQ.size, True) if length == _PACKET_MREQ.size else None
    if data is None:
        return addr(address)
    index, kind, alen, mac = _PACKET_MREQ.unpack(data)
    return (p.struct((('mr_ifindex', _ifindex(p, index & 0xFFFFFFFF)), ('mr_type', p.xval(kind, X.PACKET_MREQ_TYPE, 'PACKET_MR_???')), ('mr_alen', f"{alen}"), ('mr_address', mac_text(p, mac[:min(alen, len(mac))])))))


def _get_sockopt_value(p: Printer, c: Call, level: int, name: int, address: int, ulen: int, rlen: int) -> str:
    if ulen <= 0 or rlen <= 0:
        return addr(address)
    if address and level == _SOL_SOCKET:
        if name == _SO_LINGER:
            n = min(rlen, 8)
            data = c.mem.read(address, n)
            if data is None:
                return addr(address)
            return _fields_upto(p, data, [("l_onoff", 0, 4, _i32), ("l_linger", 4, 4, _i32)], n)
        if name == _SO_PEERCRED:
            n = min(rlen, 12)
            data = c.mem.read(address, n)
            if data is None:
                return addr(address)
            return _fields_upto(p, data, [("pid", 0, 4, lambda b: p.pid(struct.unpack("<i", b)[0])),
                                       ("uid", 4, 4, lambda b: _print_id(struct.unpack("<I", b)[0])),
                                       ("gid", 8, 4, lambda b: _print_id(struct.unpack("<I", b)[0]))], n)
        if name == _SO_ERROR:
            if rlen < 4:
                return p.string_at(c, address, rlen, force_hex=True)
            data = c.mem.read(address, 4)
            if data is None:
                return addr(address)
            err = struct.unpack("<I", data)[0]
            name = X.ERRNO_NAMES.get(err)  # print_err: styled like a constant (-X raw: the number)
            return f"[{p.print_xlat(err, name, 'u') if name else err}]"
        if name == _SO_TXREHASH:
            return _txrehash(p, c, address, rlen)
        if name == _SO_GET_FILTER:  # the kernel's length is sock_fprog.len, an unsigned short
            return sock_filter_array(p, c, address, rlen) if rlen <= 0xFFFF else addr(address)
        if name in _INT_SO:
            return _printnum_int(p, c, address) if rlen >= 4 else p.string_at(c, address, rlen, force_hex=True)
    if address and level == _SOL_PACKET and name == _PACKET_STATISTICS:
        return _tpacket_stats(p, c, address, rlen)
    if address and level == _SOL_RAW and name == _ICMP_FILTER:
        return _icmp_filter(p, c, address, rlen)
    if address and level == _SOL_NETLINK:
        if name == _NETLINK_LIST_MEMBERSHIPS:
            n = min(ulen, rlen) // 4
            data = c.mem.read(address, n * 4)
            if data is None:
                return addr(address)
            return _int_array(p, list(struct.unpack(f"<{n}I", data)), str)
        return _printnum_int(p, c, address)
    if rlen == 4:
        return _printnum_int(p, c, address) if address else "NULL"
    return p.string_at(c, address, rlen)


@syscall("getsockopt")
def getsockopt(p: Printer, c: Call) -> Generator[str, None, None]:
    head = _sockopt_head(p, c)
    optval, lenp = c.args[3], c.args[4]
    ulen = _read_int(p, c, lenp)
    if ulen is None:
        yield p.args((f"{head}{addr(optval)}", addr(lenp)))
        yield ""
        return
    yield head
    rlen = _read_int(p, c, lenp)
    if rlen is None:
        yield p.args((addr(optval), f"[{ulen}]"))
    elif c.failed:  # strace: on error only the length passed in, even if the kernel changed it
        yield p.args((addr(optval), f"[{ulen}]"))
    else:
        value = _get_sockopt_value(p, c, _u32(c.args[1]), _u32(c.args[2]), optval, ulen, rlen)
        yield p.args((f"{value}", _len_pair(ulen, rlen)))


def _mreq(p: Printer, c: Call, address: int, length: int) -> str:
    data = c.mem.read(address, 8) if length >= 8 else None
    if data is None:
        return addr(address)
    return f"{{{inet_addr_field(p, 'imr_multiaddr', data[:4])}, {inet_addr_field(p, 'imr_interface', data[4:8])}}}"


def _mreq6(p: Printer, c: Call, address: int, length: int) -> str:
    data = c.mem.read(address, 20) if length >= 20 else None
    if data is None:
        return addr(address)
    index = struct.unpack("<I", data[16:20])[0]
    return f"{{{inet_pton_field(p, 'ipv6mr_multiaddr', data[:16])}, ipv6mr_interface={_ifindex(p, index)}}}"


#: struct group_req: u32 interface, then a sockaddr_storage aligned to a long (at 4, 132 in all, on i386).
_GROUP_REQ_SIZE, _GR_GROUP_OFF = 136, 8


def _group_req(p: Printer, c: Call, address: int, length: int) -> str:
    # print_group_req: any optlen from sizeof(struct group_req) up is decoded (the kernel reads that much).
    data = c.mem.read(address, p.lay.GROUP_REQ_SIZE) if signed(length, 32) >= p.lay.GROUP_REQ_SIZE else None
    if data is None:
        return addr(address)
    index = struct.unpack("<I", data[:4])[0]
    group = print_sockaddr(p, data[p.lay.GR_GROUP_OFF:p.lay.GR_GROUP_OFF + _SOCKADDR_STORAGE], _SOCKADDR_STORAGE)
    return p.struct((('gr_interface', _ifindex(p, index)), ('gr_group', f"{group}")))


def _set_sockopt_value(p: Printer, c: Call, level: int, name: int, address: int, length: int) -> str:
    if not p.verbose(c):  # -e verbose=!setsockopt: the value's address only
        return addr(address)
    if address:
        if level == _SOL_SOCKET and name == _SO_LINGER:
            data = p.fetch(c, address, 8, True) if length >= 8 else None
            if data is None:
                return addr(address)
            on, linger = struct.unpack("<ii", data)
            return p.struct((('l_onoff', f"{on}"), ('l_linger', f"{linger}")))
        if level == _SOL_SOCKET and name == _SO_TXREHASH:
            return _txrehash(p, c, address, length)
        if level == _SOL_SOCKET and name in _INT_SO:
            return addr(address) if length < 4 else _printnum_int(p, c, address)
        if level == _SOL_SOCKET and name in _ATTACH_CBPF:
            return sock_fprog(p, c, address) if length == p.lay.SOCK_FPROG_SIZE else addr(address)
        if level == _SOL_IP and name in _IP_MREQ:
            return _mreq(p, c, address, length)
        if level == _SOL_IPV6 and name in _IPV6_MREQ:
            return _mreq6(p, c, address, length)
        if level in (_SOL_IP, _SOL_IPV6) and name in _GROUP_REQ:
            return _group_req(p, c, address, length)
        if level == _SOL_NETLINK:
            return addr(address) if length < 4 else _printnum_int(p, c, address)
        if level == _SOL_PACKET and name in _PACKET_RINGS:
            return _tpacket_req(p, c, address, length)
        if level == _SOL_PACKET and name in _PACKET_MREQS:
            return _packet_mreq(p, c, address, length)
        if level == _SOL_RAW and name == _ICMP_FILTER:
            return _icmp_filter(p, c, address, length)
    if length == 4:
        return _printnum_int(p, c, address) if address else "NULL"
    return p.string_at(c, address, length & MASK64)


@syscall("setsockopt")
def setsockopt(p: Printer, c: Call) -> str:
    length = signed(c.args[4], 32)
    value = _set_sockopt_value(p, c, _u32(c.args[1]), _u32(c.args[2]), c.args[3], length)
    return p.args((f"{_sockopt_head(p, c)}{value}", f"{length}"))
