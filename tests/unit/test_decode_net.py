"""Socket decoders (pytrace/decode/net.py) against the oracle: strace 6.1 on the same programs.

Each test builds a small C program (or uses tests/programs/sockets.c), runs it
under strace and under ``python -m pytrace`` with ``-e trace=`` limited to the
socket syscalls, and compares the normalised traces.  Only values that differ
between two runs of the same program are normalised (addresses under ASLR,
pids, the tracer-assigned netlink port id); everything else must be identical.
All traffic stays on 127.0.0.1 / ::1 / AF_UNIX.
"""

from __future__ import annotations

import random
import re
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NET_CALLS = (
    "socket,socketpair,bind,connect,listen,accept,accept4,getsockname,getpeername,sendto,recvfrom,"
    "sendmsg,recvmsg,sendmmsg,recvmmsg,setsockopt,getsockopt,shutdown"
)

pytestmark = pytest.mark.skipif(
    shutil.which("strace") is None or shutil.which("gcc") is None, reason="needs strace (the oracle) and gcc"
)


def _normalise(text: str) -> str:
    """Blank what legitimately differs between two runs: addresses, pids, netlink port ids."""
    # Addresses only: a value with a /* comment */ is a constant, nl_groups is a bit mask.
    text = re.sub(r"(?<!nl_groups=)\b0x[0-9a-f]{5,}\b(?! /\*)", "ADDR", text)
    text = re.sub(r"^\d+ +", "PID ", text, flags=re.M)
    text = re.sub(r"\b(pid|nl_pid)=-?\d+", r"\1=PID", text)
    return text


def _trace(tracer: str, out: Path, cmd: list[str], extra: tuple[str, ...] = ()) -> str:
    prefix = ["strace"] if tracer == "strace" else [sys.executable, "-m", "pytrace"]
    subprocess.run(
        [*prefix, *extra, "-o", str(out), *cmd],
        check=False,
        timeout=60,
        cwd=out.parent,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    return _normalise(out.read_text())


def _compare(tmp_path: Path, cmd: list[str], calls: str = NET_CALLS, flags: tuple[str, ...] = ()) -> None:
    extra = (*flags, "-e", f"trace={calls}")
    ref = _trace("strace", tmp_path / "strace.txt", cmd, extra)
    ours = _trace("pytrace", tmp_path / "pytrace.txt", cmd, extra)
    assert ours.splitlines() == ref.splitlines()


def _build(tmp_path: Path, name: str, source: str) -> Path:
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    exe = tmp_path / name
    subprocess.run(["gcc", "-O0", "-o", str(exe), str(src), "-lpthread"], check=True, capture_output=True)
    return exe


def _free_ports(count: int) -> int:
    """A base port with ``count`` consecutive TCP/UDP ports free on loopback (fixed ports keep traces equal)."""
    for _ in range(50):
        base = random.randrange(20000, 60000 - count)
        try:
            for p in range(base, base + count):
                for fam, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
                    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
                        with socket.socket(fam, kind) as s:
                            s.bind((host, p))
        except OSError:
            continue
        return base
    pytest.skip("no free loopback ports")




def test_sockets_program(tmp_path: Path) -> None:
    """tests/programs/sockets.c: TCP/UDP over 127.0.0.1 and ::1, socketpair, path and abstract unix sockets."""
    exe = tmp_path / "sockets"
    subprocess.run(["gcc", "-O0", "-o", str(exe), str(REPO / "tests/programs/sockets.c")], check=True)
    _compare(tmp_path, [str(exe), str(_free_ports(4))])


SOCKADDRS = r"""
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
int main(void)
{
    char buf[64]; socklen_t len; int sv[2];
    int u6 = socket(AF_INET6, SOCK_DGRAM, 0);
    struct sockaddr_in6 ll = { AF_INET6, htons(5), htonl(7) };
    inet_pton(AF_INET6, "fe80::1", &ll.sin6_addr); ll.sin6_scope_id = 1;
    connect(u6, (struct sockaddr *)&ll, sizeof ll);        /* if_nametoindex("lo") */
    connect(u6, (struct sockaddr *)&ll, 24);               /* no sin6_scope_id */
    connect(u6, (struct sockaddr *)&ll, 20);               /* too short: sa_data */
    connect(u6, (struct sockaddr *)&ll, 1);
    connect(u6, (struct sockaddr *)8, 16);
    connect(u6, NULL, 16);
    struct sockaddr_un un = { AF_UNIX };
    bind(u6, (struct sockaddr *)&un, 2);
    bind(u6, (struct sockaddr *)&un, 3);
    strcpy(un.sun_path + 1, "abs\001tract");
    bind(u6, (struct sockaddr *)&un, sizeof un);           /* abstract name padded with NULs */
    struct sockaddr odd = { 99, "xy\1\2z" };
    bind(u6, &odd, sizeof odd);
    close(u6);
    socket(AF_INET + 200, SOCK_STREAM, 7);
    socket(AF_UNIX, SOCK_STREAM | 0x10, 0);
    socket(AF_UNIX, 12345, 0);
    socketpair(AF_INET, SOCK_STREAM, 0, sv);
    socketpair(AF_UNIX, SOCK_STREAM, 0, (int *)8);
    accept(0, NULL, NULL);
    len = 16; accept(0, (struct sockaddr *)buf, &len);
    len = 16; accept4(0, (struct sockaddr *)buf, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    accept4(0, (struct sockaddr *)buf, (socklen_t *)8, 0);
    getsockname(0, (struct sockaddr *)buf, NULL);
    shutdown(0, 7);
    shutdown(0, SHUT_RDWR);
    listen(0, -1);
    sendto(0, "x\0y\377", 4, MSG_DONTWAIT | MSG_MORE | 0x100000, NULL, 0);
    recvfrom(-1, buf, 10, MSG_PEEK, NULL, &len);
    len = 16; recvfrom(-1, buf, 10, MSG_PEEK, (struct sockaddr *)buf, &len);
    return 0;
}
"""


def test_sockaddr_forms_and_errors(tmp_path: Path) -> None:
    """Every sockaddr length rule of decode_sockaddr, bad pointers, unknown constants, failed calls."""
    _compare(tmp_path, [str(_build(tmp_path, "sa", SOCKADDRS))])


def test_sockaddr_hex_strings(tmp_path: Path) -> None:
    """-x applies to sun_path/sa_data and -s does not cut them."""
    _compare(tmp_path, [str(_build(tmp_path, "sa", SOCKADDRS))], flags=("-x", "-s", "4"))


SOCKOPTS = r"""
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void)
{
    int one = 1, v = 0, sv[2]; socklen_t l; char cc[32];
    struct { int a, b; } lg;
    int t = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(t, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    l = sizeof v; getsockopt(t, IPPROTO_TCP, TCP_NODELAY, &v, &l);
    l = sizeof v; getsockopt(t, SOL_SOCKET, SO_ERROR, &v, &l);
    l = 2; getsockopt(t, SOL_SOCKET, SO_ERROR, &v, &l);
    l = sizeof lg; getsockopt(t, SOL_SOCKET, SO_LINGER, &lg, &l);
    l = 4; getsockopt(t, SOL_SOCKET, SO_LINGER, &lg, &l);
    l = 6; getsockopt(t, SOL_SOCKET, SO_LINGER, &lg, &l);
    l = 100; getsockopt(t, SOL_SOCKET, SO_RCVBUF, cc, &l);
    l = 2; getsockopt(t, SOL_SOCKET, SO_RCVBUF, &v, &l);
    l = 2; getsockopt(t, SOL_SOCKET, SO_TYPE, &v, &l);
    l = sizeof cc; getsockopt(t, IPPROTO_TCP, TCP_CONGESTION, cc, &l);
    l = 4; getsockopt(t, SOL_SOCKET, 9999, &v, &l);
    l = -1; getsockopt(t, SOL_SOCKET, SO_RCVBUF, &v, &l);
    l = 4; getsockopt(t, SOL_SOCKET, SO_RCVBUF, (void *)8, &l);
    getsockopt(t, SOL_SOCKET, SO_TYPE, &v, NULL);
    setsockopt(t, SOL_SOCKET, SO_RCVBUF, &one, 8);
    setsockopt(t, SOL_SOCKET, SO_RCVBUF, &one, 0);
    setsockopt(t, SOL_SOCKET, SO_TYPE, "abcdefgh", 8);
    setsockopt(t, SOL_SOCKET, SO_RCVTIMEO, "abcdefghijklmnopqrstuvwxyz0123456789", 36);
    setsockopt(t, 12345, 1, &one, 4);
    setsockopt(t, SOL_IP, 0, &one, 0);
    lg.a = 1; lg.b = 0; setsockopt(t, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    setsockopt(t, SOL_SOCKET, SO_LINGER, &lg, 4);
    int u = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
    struct ip_mreq mr;
    mr.imr_multiaddr.s_addr = inet_addr("239.1.2.3"); mr.imr_interface.s_addr = htonl(INADDR_LOOPBACK);
    setsockopt(u, IPPROTO_IP, IP_ADD_MEMBERSHIP, &mr, sizeof mr);
    setsockopt(u, IPPROTO_IP, IP_DROP_MEMBERSHIP, &mr, 4);
    setsockopt(u, IPPROTO_IP, IP_TTL, &one, 4);
    int u6 = socket(AF_INET6, SOCK_DGRAM, 0);
    struct ipv6_mreq m6; inet_pton(AF_INET6, "ff02::1:3", &m6.ipv6mr_multiaddr); m6.ipv6mr_interface = 1;
    setsockopt(u6, IPPROTO_IPV6, IPV6_ADD_MEMBERSHIP, &m6, sizeof m6);
    setsockopt(u6, IPPROTO_IPV6, IPV6_V6ONLY, &one, 4);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    l = 6; getsockopt(sv[0], SOL_SOCKET, SO_PEERCRED, cc, &l);
    return 0;
}
"""


def test_socket_options(tmp_path: Path) -> None:
    """setsockopt/getsockopt: ints, linger, ucred, errors, strings, mreq/mreq6, ``[ulen => rlen]``."""
    _compare(tmp_path, [str(_build(tmp_path, "so", SOCKOPTS))])


MSGHDR = r"""
#define _GNU_SOURCE
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
    int sv[2], one = 1;
    char buf[64], cbuf[CMSG_SPACE(2 * sizeof(int))], rc[256];
    struct iovec iov = { "hello", 5 };
    struct msghdr m = {0}, r = {0};
    struct cmsghdr *cm;
    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv);
    m.msg_iov = &iov; m.msg_iovlen = 1; m.msg_control = cbuf; m.msg_controllen = sizeof cbuf;
    cm = CMSG_FIRSTHDR(&m);
    cm->cmsg_level = SOL_SOCKET; cm->cmsg_type = SCM_RIGHTS; cm->cmsg_len = CMSG_LEN(2 * sizeof(int));
    ((int *)CMSG_DATA(cm))[0] = 0; ((int *)CMSG_DATA(cm))[1] = 1;
    sendmsg(sv[0], &m, 0);
    struct iovec riov[2] = { { buf, 3 }, { buf + 3, 30 } };
    r.msg_iov = riov; r.msg_iovlen = 2; r.msg_control = rc; r.msg_controllen = sizeof rc;
    recvmsg(sv[1], &r, MSG_CMSG_CLOEXEC);
    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &one, sizeof one);
    send(sv[0], "cred", 4, MSG_DONTWAIT);
    r.msg_controllen = sizeof rc; r.msg_iovlen = 1;
    recvmsg(sv[1], &r, 0);
    recvmsg(sv[1], &r, MSG_DONTWAIT);
    recvmsg(sv[1], NULL, 0);
    recvmsg(sv[1], (void *)8, 0);
    sendmsg(sv[0], (void *)8, 0);
    struct sockaddr_un un = { AF_UNIX, "/nonexistent/x" };
    m.msg_name = &un; m.msg_namelen = sizeof un; m.msg_control = NULL; m.msg_controllen = 0;
    sendmsg(sv[0], &m, MSG_NOSIGNAL);
    struct mmsghdr mm[3];
    struct iovec iv[3] = { { "one", 3 }, { "two", 3 }, { "three", 5 } };
    memset(mm, 0, sizeof mm);
    for (int i = 0; i < 3; i++) { mm[i].msg_hdr.msg_iov = &iv[i]; mm[i].msg_hdr.msg_iovlen = 1; }
    sendmmsg(sv[0], mm, 3, 0);
    char b1[8], b2[8], b3[8];
    struct iovec rv[3] = { { b1, 8 }, { b2, 2 }, { b3, 8 } };
    struct mmsghdr rm[3];
    memset(rm, 0, sizeof rm);
    for (int i = 0; i < 3; i++) { rm[i].msg_hdr.msg_iov = &rv[i]; rm[i].msg_hdr.msg_iovlen = 1; }
    recvmmsg(sv[1], rm, 3, MSG_DONTWAIT, NULL);
    recvmmsg(sv[1], rm, 3, MSG_DONTWAIT, NULL);
    struct timespec ts = { 0, 0 };
    recvmmsg(sv[1], rm, 3, MSG_DONTWAIT, &ts);
    return 0;
}
"""


def test_msghdr_and_control_messages(tmp_path: Path) -> None:
    """sendmsg/recvmsg with SCM_RIGHTS and SCM_CREDENTIALS, failures, msg_name, sendmmsg/recvmmsg."""
    _compare(tmp_path, [str(_build(tmp_path, "msg", MSGHDR))])


def test_msghdr_without_control_messages(tmp_path: Path) -> None:
    """The same program with the cmsg-bearing calls filtered out, so the rest is checked whatever the tables."""
    _compare(tmp_path, [str(_build(tmp_path, "msg", MSGHDR))], calls="socketpair,sendmmsg,recvmmsg,sendto")


NETLINK = r"""
#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>
int main(void)
{
    int nl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    struct sockaddr_nl sa = { AF_NETLINK };
    socklen_t len = sizeof sa;
    bind(nl, (struct sockaddr *)&sa, sizeof sa);
    getsockname(nl, (struct sockaddr *)&sa, &len);
    sa.nl_groups = 5;
    bind(nl, (struct sockaddr *)&sa, sizeof sa);
    sa.nl_groups = 0x12345678; sa.nl_pad = 3;
    bind(nl, (struct sockaddr *)&sa, sizeof sa);
    close(nl);
    return 0;
}
"""


def test_netlink_socket(tmp_path: Path) -> None:
    """AF_NETLINK: ``socket(..., NETLINK_ROUTE)`` and ``{sa_family=AF_NETLINK, nl_pid=..., nl_groups=...}``."""
    _compare(tmp_path, [str(_build(tmp_path, "nl", NETLINK))])


def test_netlink_sockaddr(tmp_path: Path) -> None:
    _compare(tmp_path, [str(_build(tmp_path, "nl", NETLINK))], calls="bind,getsockname")


THREADS = r"""
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static int srv, sv[2], dg[2];
static void *acceptor(void *p)
{
    struct sockaddr_in peer; socklen_t len = sizeof peer;
    int a = accept4(srv, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
    char buf[32]; struct sockaddr_in from; socklen_t fl = sizeof from;
    recvfrom(a, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl);
    struct iovec iov = { buf, sizeof buf };
    struct msghdr m = {0}; m.msg_iov = &iov; m.msg_iovlen = 1;
    recvmsg(sv[1], &m, 0);
    struct mmsghdr mm; memset(&mm, 0, sizeof mm); mm.msg_hdr.msg_iov = &iov; mm.msg_hdr.msg_iovlen = 1;
    recvmmsg(dg[1], &mm, 1, 0, NULL);
    accept(srv, NULL, NULL);
    return 0;
}
int main(int argc, char **argv)
{
    int port = atoi(argv[1]), one = 1;
    struct sockaddr_in a = { AF_INET, htons(port), { htonl(INADDR_LOOPBACK) } };
    struct sockaddr_in b = { AF_INET, htons(port + 1), { htonl(INADDR_LOOPBACK) } };
    struct timespec d = { 0, 50000000 };
    srv = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bind(srv, (struct sockaddr *)&a, sizeof a); listen(srv, 2);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    socketpair(AF_UNIX, SOCK_DGRAM, 0, dg);
    pthread_t t; pthread_create(&t, 0, acceptor, 0);
    nanosleep(&d, 0);
    int c = socket(AF_INET, SOCK_STREAM, 0);
    setsockopt(c, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bind(c, (struct sockaddr *)&b, sizeof b);
    connect(c, (struct sockaddr *)&a, sizeof a);
    nanosleep(&d, 0);
    sendto(c, "data", 4, 0, NULL, 0);
    nanosleep(&d, 0);
    write(sv[0], "msg", 3);
    nanosleep(&d, 0);
    write(dg[0], "mm", 2);
    nanosleep(&d, 0);
    int c2 = socket(AF_INET, SOCK_STREAM, 0);
    connect(c2, (struct sockaddr *)&a, sizeof a);
    pthread_join(t, 0);
    return 0;
}
"""


_SPLIT = re.compile(r"^PID (\w+)\((.*) <unfinished \.\.\.>$")


def _split_heads(text: str) -> dict[str, set[str]]:
    heads: dict[str, set[str]] = {}
    for line in text.splitlines():
        if m := _SPLIT.match(line):
            heads.setdefault(m.group(1), set()).add(m.group(2))
    return heads


def test_unfinished_split_points(tmp_path: Path) -> None:
    """-f with a blocked thread: accept4/recvfrom/recvmsg/recvmmsg/accept are cut where strace cuts them.

    Whether a given call gets cut depends on scheduling (another thread must print in between),
    so the merged lines are compared per process, and the cut points wherever both tracers cut
    the same call.  The calls that block until another thread acts are always cut by both.
    """
    exe = _build(tmp_path, "thr", THREADS)
    cmd = [str(exe), str(_free_ports(2))]
    extra = ("-f", "-e", f"trace={NET_CALLS},write")
    ref_raw = _trace("strace", tmp_path / "strace.txt", cmd, extra)
    our_raw = _trace("pytrace", tmp_path / "pytrace.txt", cmd, extra)
    ref_heads, our_heads = _split_heads(ref_raw), _split_heads(our_raw)
    for name in ("accept4", "recvfrom", "recvmsg"):
        assert name in ref_heads and name in our_heads, (name, ref_raw, our_raw)
    for name in ref_heads.keys() & our_heads.keys():
        assert our_heads[name] == ref_heads[name], name
    assert _merged(our_raw) == _merged(ref_raw)


_RESUMED = re.compile(r"^PID <\.\.\. (\w+) resumed>(.*)$")


def _merged(text: str) -> list[str]:
    """Each split call joined back into one line (pids are normalised, so pair by call name), sorted."""
    done: list[str] = []
    open_calls: dict[str, list[str]] = {}
    for line in text.splitlines():
        if m := _SPLIT.match(line):
            open_calls.setdefault(m.group(1), []).append(f"PID {m.group(1)}({m.group(2)}")
        elif (m := _RESUMED.match(line)) and open_calls.get(m.group(1)):
            done.append(open_calls[m.group(1)].pop(0) + m.group(2))
        else:
            done.append(line)
    return sorted(re.sub(r"\) +=", ") =", line) for line in done)


def test_python_client(tmp_path: Path) -> None:
    """A real program: Python's socket.create_connection to a local listener, and a UDP datagram to ::1."""
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]

    def serve() -> None:
        for _ in range(2):
            conn, _ = srv.accept()
            with conn:
                conn.sendall(b"hi\n")

    worker = threading.Thread(target=serve, daemon=True)
    worker.start()
    code = (
        f"import socket; s = socket.create_connection(('127.0.0.1', {port})); s.recv(10); s.close(); "
        "u = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); u.sendto(b'x' * 40, ('::1', 9)); u.close()"
    )
    try:
        _compare(tmp_path, ["/usr/bin/python3", "-c", code], calls="socket,connect,recvfrom,sendto")
    finally:
        worker.join(timeout=10)
        srv.close()
