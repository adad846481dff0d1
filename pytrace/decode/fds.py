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
  netlink dump: decode/sockdiag.py, imported on the first socket described).
  strace keeps what it finds in a 1024-slot cache keyed by inode and never
  refreshes it, so a UDP socket printed once bound and then connected keeps
  showing its first description; the cache here is the same, because the
  output depends on it;
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

from pytrace.decode import format as F
from pytrace.decode.format import signed
from pytrace.qualify import OptionError, qualify  # noqa: F401 -- re-exported: pids.py, strace_cli

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
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

def socket_inode(path: bytes) -> int:
    """get_inode_of_socket_path: N of ``socket:[N]``, 0 if the path is not one."""
    if path.startswith(b"socket:[") and path.endswith(b"]"):
        digits = path[8:-1]
        if digits.isdigit():
            return int(digits)
    return 0


def sockproto(pid: int, fd: int) -> str | None:
    """getfdproto: the protocol name the kernel gives the socket (xattr system.sockprotoname)."""
    try:
        raw = os.getxattr(f"/proc/{pid}/fd/{fd}", "system.sockprotoname")
    except OSError:
        return None
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def socket_details(pid: int, fd: int, inode: int, xflag: int = 0) -> str | None:
    """get_sockaddr_by_inode (decode/sockdiag.py, imported on the first socket described)."""
    from pytrace.decode.sockdiag import socket_details as details

    return details(pid, fd, inode, xflag)


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
