"""-yy's sockets: what a socket inode is, asked of the kernel's sock_diag netlink interface (strace's socketutils.c).

``TCP:[127.0.0.1:8080->127.0.0.1:51234]``, ``UNIX-STREAM:[83424->83425]``, ``NETLINK:[ROUTE:1234]``:
TCP/UDP/... dumps filtered by inode, a direct unix_diag query, a netlink dump.  strace keeps what
it finds in a 1024-slot cache keyed by inode and never refreshes it, so a UDP socket printed once
bound and then connected keeps showing its first description; the cache here is the same, because
the output depends on it.  Apart from fds.py because only -yy (and netlink's protocol names) need
it: its constant tables are read when it is imported, not by every run that parses -y's option.
"""

from __future__ import annotations

import struct

from pytrace.decode import format as F
from pytrace.decode.fds import sockproto
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable

_K = {name: value for value, name in X.SOCK_DIAG_CONSTANTS}
_AF = {name: value for value, name in X.ADDRESS_FAMILIES}
_IPPROTO = {name: value for value, name in X.IP_PROTOCOLS}
_NETLINK_SOCK_DIAG = next(v for v, n in X.NETLINK_PROTOCOLS if n == "NETLINK_SOCK_DIAG")
_NETLINK_NAMES = dict(X.NETLINK_PROTOCOLS)

_NLMSGHDR = struct.Struct("=IHHII")
_INET_DIAG_MSG = struct.Struct("=BBBB HH16s16sI8s IIIII")  # family..retrans, sockid, expires..inode
_UNIX_DIAG_MSG = struct.Struct("=BBBBI8s")
_NETLINK_DIAG_MSG = struct.Struct("=BBBBIIII8s")
_RTATTR = struct.Struct("=HH")
_UNIX_PATH_MAX = 108

# protocols[] of strace 6.1 in enum sock_proto order: name, kind, family, IP protocol.
_PROTOCOLS: tuple[tuple[str, str, int, int], ...] = (
    ("UNIX", "unix", _AF["AF_UNIX"], 0),
    ("UNIX-STREAM", "unix", _AF["AF_UNIX"], 0),
    ("TCP", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_TCP"]),
    ("UDP", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_UDP"]),
    ("UDPLITE", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_UDPLITE"]),
    ("DCCP", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_DCCP"]),
    ("SCTP", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_SCTP"]),
    ("L2TP/IP", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_L2TP"]),
    ("PING", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_ICMP"]),
    ("RAW", "inet", _AF["AF_INET"], _IPPROTO["IPPROTO_RAW"]),
    ("TCPv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_TCP"]),
    ("UDPv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_UDP"]),
    ("UDPLITEv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_UDPLITE"]),
    ("DCCPv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_DCCP"]),
    ("L2TP/IPv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_L2TP"]),
    ("SCTPv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_SCTP"]),
    ("PINGv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_ICMP"]),
    ("RAWv6", "inet", _AF["AF_INET6"], _IPPROTO["IPPROTO_RAW"]),
    ("NETLINK", "netlink", _AF["AF_NETLINK"], 0),
)
_BY_NAME = {p[0]: p for p in _PROTOCOLS}

_CACHE_SIZE = 1024
# inode & 1023 -> (inode, -x level, details): strace's cache, same size, same never-refreshed entries
# (the -x level is part of the key: two tracers in one process may quote socket paths differently).
_cache: list[tuple[int, int, str] | None] = [None] * _CACHE_SIZE


def _cached(inode: int, xflag: int) -> str | None:
    entry = _cache[inode & (_CACHE_SIZE - 1)]
    return entry[2] if entry is not None and entry[0] == inode and entry[1] == xflag else None


def _remember(inode: int, xflag: int, details: str) -> str:
    _cache[inode & (_CACHE_SIZE - 1)] = (inode, xflag, details)
    return details


def _query(nl: socket.socket, payload: bytes, flags: int) -> bool:
    header = _NLMSGHDR.pack(_NLMSGHDR.size + len(payload), _K["SOCK_DIAG_BY_FAMILY"], flags, 0, 0)
    try:
        nl.sendto(header + payload, (0, 0))
    except OSError:
        return False
    return True


def _responses(nl: socket.socket, parse: Callable[[bytes], int]) -> bool:
    """receive_responses: walk the replies until ``parse`` says found (>0) or failed (<0), or the dump ends."""
    import socket  # only for -yy on a socket: not a start-up import

    flags = 0
    while True:
        try:
            data = nl.recv(8192, flags)
        except BlockingIOError:
            return False
        except OSError:
            return False
        off = 0
        if len(data) < _NLMSGHDR.size:
            return False
        while off + _NLMSGHDR.size <= len(data):
            length, mtype, _, _, _ = _NLMSGHDR.unpack_from(data, off)
            if length < _NLMSGHDR.size or off + length > len(data):
                return False
            if mtype != _K["SOCK_DIAG_BY_FAMILY"]:
                return False
            rc = parse(data[off : off + length])
            if rc > 0:
                return True
            if rc < 0:
                return False
            off += (length + 3) & ~3
        flags = socket.MSG_DONTWAIT


def _inet_get(nl: socket.socket, inode: int, name: str, family: int, proto: int, xflag: int) -> str | None:
    import socket

    payload = struct.pack("=BBBxI48x", family, proto, 0, 0xFFFFFFFF)
    found: list[str] = []

    def parse(msg: bytes) -> int:
        if len(msg) < _NLMSGHDR.size + _INET_DIAG_MSG.size:
            return -1
        (fam, _, _, _, sport, dport, src, dst, _, _, _, _, _, _, ino) = _INET_DIAG_MSG.unpack_from(
            msg, _NLMSGHDR.size)
        if ino != inode:
            return 0
        if fam == _AF["AF_INET"]:
            size, ob, cb = 4, "", ""
        elif fam == _AF["AF_INET6"]:
            size, ob, cb = 16, "[", "]"
        else:
            return -1
        src_text = socket.inet_ntop(fam, src[:size])
        sport, dport = socket.ntohs(sport), socket.ntohs(dport)
        if dport or any(dst[:size]):
            dst_text = socket.inet_ntop(fam, dst[:size])
            found.append(_remember(inode, xflag, f"{name}:[{ob}{src_text}{cb}:{sport}->{ob}{dst_text}{cb}:{dport}]"))
        else:
            found.append(_remember(inode, xflag, f"{name}:[{ob}{src_text}{cb}:{sport}]"))
        return 1

    flags = _K["NLM_F_DUMP"] | _K["NLM_F_REQUEST"]
    return found[0] if _query(nl, payload, flags) and _responses(nl, parse) else None


def _unix_get(nl: socket.socket, inode: int, name: str, family: int, proto: int, xflag: int) -> str | None:
    show = _K["UDIAG_SHOW_NAME"] | _K["UDIAG_SHOW_PEER"]
    payload = struct.pack("=BBxxIIIII", family, 0, 0xFFFFFFFF, inode, show, 0xFFFFFFFF, 0xFFFFFFFF)
    found: list[str] = []

    def parse(msg: bytes) -> int:
        start = _NLMSGHDR.size + _UNIX_DIAG_MSG.size
        if len(msg) < start:
            return -1
        fam, _, _, _, ino, _ = _UNIX_DIAG_MSG.unpack_from(msg, _NLMSGHDR.size)
        if ino != inode:
            return 0
        if fam != family:
            return -1
        peer = 0
        path: bytes | None = None
        off = start
        while off + _RTATTR.size <= len(msg):
            alen, atype = _RTATTR.unpack_from(msg, off)
            if alen < _RTATTR.size or off + alen > len(msg):
                break
            body = msg[off + _RTATTR.size : off + alen]
            if atype == _K["UNIX_DIAG_NAME"] and not path:
                path = body[:_UNIX_PATH_MAX]
            elif atype == _K["UNIX_DIAG_PEER"] and len(body) >= 4:
                peer = struct.unpack_from("=I", body)[0]
            off += (alen + 3) & ~3
        if not peer and not path:
            return -1
        peer_text = f"->{peer}" if peer else ""
        path_text = ""
        if path:
            if path[0] == 0:
                path_text = ",@" + F.quote_x(path[1:].split(b"\0", 1)[0], xflag)
            else:
                path_text = "," + F.quote_x(path.split(b"\0", 1)[0], xflag)
        found.append(_remember(inode, xflag, f"{name}:[{inode}{peer_text}{path_text}]"))
        return 1

    return found[0] if _query(nl, payload, _K["NLM_F_REQUEST"]) and _responses(nl, parse) else None


def _netlink_get(nl: socket.socket, inode: int, name: str, family: int, proto: int, xflag: int) -> str | None:
    payload = struct.pack("=BBxxIIII", family, _K["NDIAG_PROTO_ALL"], 0, 0, 0, 0)
    found: list[str] = []

    def parse(msg: bytes) -> int:
        if len(msg) < _NLMSGHDR.size + _NETLINK_DIAG_MSG.size:
            return -1
        fam, _, protocol, _, portid, _, _, ino, _ = _NETLINK_DIAG_MSG.unpack_from(msg, _NLMSGHDR.size)
        if ino != inode:
            return 0
        if fam != family:
            return -1
        proto_name = _NETLINK_NAMES.get(protocol)
        if proto_name is not None:
            text = f"{name}:[{proto_name.removeprefix('NETLINK_')}:{portid}]"
        else:
            text = f"{name}:[{protocol}]"
        found.append(_remember(inode, xflag, text))
        return 1

    flags = _K["NLM_F_DUMP"] | _K["NLM_F_REQUEST"]
    return found[0] if _query(nl, payload, flags) and _responses(nl, parse) else None


_GETTERS = {"inet": _inet_get, "unix": _unix_get, "netlink": _netlink_get}


def socket_details(pid: int, fd: int, inode: int, xflag: int = 0) -> str | None:
    """get_sockaddr_by_inode: ``TCP:[src->dst]``-style text, ``PROTO:[inode]`` when not found, None if unknown."""
    import socket  # only for -yy on a socket: not a start-up import

    cached = _cached(inode, xflag)
    if cached is not None:
        return cached
    proto = _BY_NAME.get(sockproto(pid, fd) or "")
    try:
        nl = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG)
    except OSError:
        nl = None
    details = None
    if nl is not None:
        with nl:
            candidates = (proto,) if proto is not None else _PROTOCOLS
            for name, kind, family, ipproto in candidates:
                details = _GETTERS[kind](nl, inode, name, family, ipproto, xflag)
                if details:
                    break
    if details is None and proto is not None:
        details = f"{proto[0]}:[{inode}]"
    return details
