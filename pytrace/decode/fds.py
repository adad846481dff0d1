"""-y / -yy / --decode-fds: what a file descriptor refers to, printed as strace 6.1 prints it.

``3</etc/hostname>``, ``AT_FDCWD</tmp>``, ``1</dev/null<char 1:3>>``,
``4<pipe:[1234]>``, ``5<TCP:[127.0.0.1:8080->127.0.0.1:51234]>``,
``6<UNIX-STREAM:[83424->83425]>``, ``7<pid:1234>``, ``8</tmp/x>(deleted)``.

Where the information comes from (strace's ``printfd_pid`` in util.c,
``get_proc_pid_fd_path`` in pathtrace.c, ``socketutils.c``):

* the path: ``readlink /proc/PID/fd/FD``, read when the fd is printed (an fd
  argument at syscall entry, a returned fd at exit).  Nothing is cached per
  (pid, fd): a descriptor is reused, dup2'ed over or inherited between any two
  printed calls (including untraced ones we never see), so only a fresh
  readlink is right;
* ``socket``: the kernel's sock_diag netlink interface, asked for the socket's
  inode (TCP/UDP/... dumps filtered by inode, a direct unix_diag query, a
  netlink dump).  strace keeps what it finds in a 1024-slot cache keyed by
  inode and never refreshes it, so a UDP socket printed once bound and then
  connected keeps showing its first description; the cache here is the same,
  because the output depends on it;
* ``dev``: ``stat`` of the path (``<char 1:3>``, ``<block 7:0>``);
* ``pidfd``: the ``Pid:`` line of /proc/PID/fdinfo/FD (``<pid:1234>``).

Nothing here runs without -y: the plain printers in ``format`` print bare
numbers, and a printer built with -y holds the ones ``fd_printers`` makes,
so a trace without -y pays nothing per fd.
"""

from __future__ import annotations

import os
import re
import stat
import struct

from pytrace.decode import format as F
from pytrace.decode.format import signed
from pytrace.qualify import OptionError, qualify  # noqa: F401 -- re-exported: pids.py, strace_cli
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    import socket
    from collections.abc import Callable, Iterable

    from pytrace.events import Call

#: strace 6.1's --decode-fds elements (decode_fd_str_to_uint), in its order.
FD_TOKENS = ("path", "socket", "dev", "pidfd")

_PATH_MAX = 4096
_DELETED = b" (deleted)"


def decode_fd_set(entries: Iterable[str | None]) -> frozenset[str]:
    """The --decode-fds set from the command line: each -y is None, each --decode-fds/-e decode-fds a string.

    -y means ``path``, -yy (or more) ``all``; strace refuses -y together with
    --decode-fds, and of several --decode-fds the last one wins.
    """
    entries = list(entries)
    ys = sum(1 for e in entries if e is None)
    specs = [e for e in entries if e is not None]
    chosen: frozenset[str] = frozenset()
    for spec in specs:
        chosen = qualify(spec, FD_TOKENS, "decode-fds")
    if ys and specs:
        raise OptionError("-y and --decode-fds cannot be provided simultaneously")
    if ys:
        return frozenset(("path",)) if ys == 1 else frozenset(FD_TOKENS)
    return chosen


# ---------------------------------------------------------------------------- quoting


def _octal_bracket(match: re.Match[str]) -> str:
    """``<``/``>`` as strace's short octal escape (three digits when an octal digit follows)."""
    code = ord(match[1])
    return f"\\{code:03o}" if match[2] else f"\\{code:o}"


_BRACKET = re.compile(r"([<>])([0-7]?)")


def quote_in_brackets(data: bytes, xflag: int = 0) -> str:
    """print_quoted_string_ex(..., QUOTE_OMIT_LEADING_TRAILING_QUOTES, "<>"): a string quoted without its quotes.

    Everything ``format.quote`` escapes (and -x/-xx hex) applies; ``<`` and ``>``
    are escaped too, as octal, so the text cannot close the angle brackets.
    """
    text = F.quote_x(data, xflag)[1:-1]
    if "<" in text or ">" in text:
        text = _BRACKET.sub(lambda m: _octal_bracket(m) + m[2], text)
    return text


# ---------------------------------------------------------------------------- /proc


def fd_path(pid: int, fd: int) -> tuple[bytes, bool] | None:
    """get_proc_pid_fd_path: the fd's link text and whether it names a deleted file, None if unreadable.

    The kernel appends " (deleted)" to the link of an unlinked file; strace
    strips it (and prints ``(deleted)`` after the brackets) only when a file
    of that literal name is not the same file, as here.
    """
    if fd < 0:
        return None
    link = f"/proc/{pid}/fd/{fd}"
    try:
        buf = os.readlink(link.encode())[:_PATH_MAX]
    except OSError:
        return None
    if len(buf) <= len(_DELETED) + 1 or not buf.endswith(_DELETED):
        return buf, False
    try:
        st_link = os.stat(link)
    except OSError:
        return buf, False
    try:
        st_path = os.lstat(buf)
    except OSError:
        return buf[: -len(_DELETED)], True
    if st_link.st_ino != st_path.st_ino or st_link.st_dev != st_path.st_dev:
        return buf[: -len(_DELETED)], True
    return buf, False


def cwd_path(pid: int) -> bytes | None:
    """The link text of /proc/PID/cwd (what ``AT_FDCWD<...>`` shows; no deleted handling, as strace)."""
    try:
        return os.readlink(f"/proc/{pid}/cwd".encode())[:_PATH_MAX]
    except OSError:
        return None


def _fdinfo_pid(pid: int, fd: int) -> int:
    """pidfd_get_pid: the ``Pid:`` field of /proc/PID/fdinfo/FD, -1 when absent."""
    try:
        with open(f"/proc/{pid}/fdinfo/{fd}", "rb") as f:
            for line in f:
                if line.startswith(b"Pid:\t"):
                    return int(line[5:].strip() or b"-1")
    except (OSError, ValueError):
        pass
    return -1


# ---------------------------------------------------------------------------- sockets (socketutils.c)

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


def socket_inode(path: bytes) -> int:
    """get_inode_of_socket_path: N of ``socket:[N]``, 0 if the path is not one."""
    if path.startswith(b"socket:[") and path.endswith(b"]"):
        digits = path[8:-1]
        if digits.isdigit():
            return int(digits)
    return 0


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


def sockproto(pid: int, fd: int) -> str | None:
    """getfdproto: the protocol name the kernel gives the socket (xattr system.sockprotoname)."""
    try:
        raw = os.getxattr(f"/proc/{pid}/fd/{fd}", "system.sockprotoname")
    except OSError:
        return None
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


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


# ---------------------------------------------------------------------------- the printers


def _dev(path: bytes, xflag: int) -> str | None:
    """printdev: ``PATH<char M:m>`` for device files."""
    if not path.startswith(b"/"):
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if stat.S_ISCHR(st.st_mode):
        kind = "char"
    elif stat.S_ISBLK(st.st_mode):
        kind = "block"
    else:
        return None
    return f"<{quote_in_brackets(path, xflag)}<{kind} {os.major(st.st_rdev)}:{os.minor(st.st_rdev)}>>"


def _pidfd(pid: int, fd: int, path: bytes, show_pid: Callable[[int], str]) -> str | None:
    """printpidfd: ``<pid:N>`` for a pidfd (N printed like any pid, so -Y adds its comm)."""
    if path != b"anon_inode:[pidfd]" and not path.startswith(b"pidfd:"):
        return None
    target = _fdinfo_pid(pid, fd)
    if target > 0:
        return f"<pid:{show_pid(target)}>"
    return f"<{path.decode('latin-1')}>"


def make_fd_printer(decode: frozenset[str], xflag: int = 0,
                    show_pid: Callable[[int], str] = F.pid) -> Callable[[int, int], str]:
    """printfd_pid for the chosen --decode-fds set: ``(pid, fd) -> text``, built once.

    The checks run in strace's order (socket, dev, pidfd, then the path), each
    only if its element was asked for.
    """
    want_socket = "socket" in decode
    want_dev = "dev" in decode
    want_pidfd = "pidfd" in decode
    want_path = "path" in decode

    def describe(pid: int, fd: int) -> str:
        got = fd_path(pid, fd)
        if got is None:
            return str(fd)
        path, deleted = got
        if want_socket:
            inode = socket_inode(path)
            if inode:
                details = socket_details(pid, fd, inode, xflag)
                return f"{fd}<{details if details is not None else path.decode('latin-1')}>"
        if want_dev:
            text = _dev(path, xflag)
            if text is not None:
                return f"{fd}{text}"
        if want_pidfd:
            text = _pidfd(pid, fd, path, show_pid)
            if text is not None:
                return f"{fd}{text}"
        if want_path:
            return f"{fd}<{quote_in_brackets(path, xflag)}>" + ("(deleted)" if deleted else "")
        return str(fd)

    return describe


def fd_printers(decode: frozenset[str], xflag: int = 0, show_pid: Callable[[int], str] = F.pid,
                plain_dirfd: Callable[[Call, int], str] = F.dirfd) -> tuple[Callable[..., str], ...]:
    """fd, dirfd, fd_in, fd_via_pidfd for -y/-yy: each describes its descriptor (the printer holds them).

    ``plain_dirfd`` prints AT_FDCWD in the -X style before the cwd is appended.
    """
    describe = make_fd_printer(decode, xflag, show_pid)
    want_path = "path" in decode

    def fd(c: Call, value: int) -> str:
        return describe(c.pid, signed(value, 32))

    def dirfd(c: Call, value: int) -> str:
        v = signed(value, 32)
        if v != -100:
            return describe(c.pid, v)
        text = plain_dirfd(c, value)
        if want_path:
            cwd = cwd_path(c.pid)
            if cwd is not None:
                text += f"<{quote_in_brackets(cwd, xflag)}>"
        return text

    def fd_in(c: Call, pid: int, value: int) -> str:
        target = signed(pid, 32)
        v = signed(value, 32)
        return describe(target, v) if target > 0 else str(v)

    def fd_via_pidfd(c: Call, pidfd: int, value: int) -> str:
        return fd_in(c, _fdinfo_pid(c.pid, signed(pidfd, 32)), value)

    return fd, dirfd, fd_in, fd_via_pidfd
