/* TCP and UDP over 127.0.0.1 and ::1, AF_UNIX socketpair, path and abstract sockets.
 *
 * argv[1] is a base port chosen by the harness (ports BASE..BASE+3 are used).
 * Fixed ports, rather than port 0, keep every address in the trace identical
 * between two runs; SO_REUSEADDR and an abortive close (SO_LINGER 0) leave no
 * TIME_WAIT behind, so the second run can bind the same ports again.
 * The unix socket names are derived from the port for the same reason.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void tcp4(int port)
{
    struct sockaddr_in addr, peer;
    socklen_t len;
    int one = 1, type = 0;
    socklen_t optlen = sizeof type;
    struct linger abortive = { 1, 0 };
    char buf[64];

    memset(&addr, 0, sizeof addr);
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

    int srv = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    bind(srv, (struct sockaddr *)&addr, sizeof addr);
    listen(srv, 4);

    int cli = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    setsockopt(cli, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    peer = addr;
    peer.sin_port = htons(port + 1);
    bind(cli, (struct sockaddr *)&peer, sizeof peer);
    connect(cli, (struct sockaddr *)&addr, sizeof addr);

    len = sizeof peer;
    int acc = accept4(srv, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
    sendto(cli, "ping", 4, 0, NULL, 0);
    len = sizeof peer;
    recvfrom(acc, buf, sizeof buf, 0, (struct sockaddr *)&peer, &len);
    send(acc, "pong!", 5, MSG_NOSIGNAL);
    recv(cli, buf, sizeof buf, 0);
    getsockopt(cli, SOL_SOCKET, SO_TYPE, &type, &optlen);
    len = sizeof peer;
    getsockname(cli, (struct sockaddr *)&peer, &len);
    len = sizeof peer;
    getpeername(cli, (struct sockaddr *)&peer, &len);
    shutdown(cli, SHUT_WR);
    recv(acc, buf, sizeof buf, 0);                       /* 0: end of stream */
    setsockopt(cli, SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
    close(cli);
    close(acc);
    connect(srv, (struct sockaddr *)&addr, sizeof addr);  /* EISCONN or EINVAL-ish failure */
    close(srv);
}

static void udp6(int port)
{
    struct sockaddr_in6 a, b, from;
    socklen_t len;
    int one = 1;
    char buf[64];

    memset(&a, 0, sizeof a);
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    a.sin6_port = htons(port + 2);
    b = a;
    b.sin6_port = htons(port + 3);

    int s1 = socket(AF_INET6, SOCK_DGRAM, 0);
    int s2 = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);
    setsockopt(s1, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    bind(s1, (struct sockaddr *)&a, sizeof a);
    bind(s2, (struct sockaddr *)&b, sizeof b);
    sendto(s2, "datagram", 8, 0, (struct sockaddr *)&a, sizeof a);
    len = sizeof from;
    recvfrom(s1, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);
    len = sizeof from;
    recvfrom(s2, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);  /* EAGAIN */
    close(s1);
    close(s2);
}

static void unix_sockets(int port)
{
    int sv[2];
    char buf[64];
    struct sockaddr_un path, abstract;
    socklen_t len;

    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    write(sv[0], "over a pair", 11);
    read(sv[1], buf, sizeof buf);
    close(sv[0]);
    close(sv[1]);

    memset(&path, 0, sizeof path);
    path.sun_family = AF_UNIX;
    snprintf(path.sun_path, sizeof path.sun_path, "sock-%d", port);
    int s = socket(AF_UNIX, SOCK_DGRAM, 0);
    unlink(path.sun_path);
    bind(s, (struct sockaddr *)&path, sizeof path);
    sendto(s, "to myself", 9, 0, (struct sockaddr *)&path, sizeof path);
    len = sizeof path;
    recvfrom(s, buf, sizeof buf, 0, (struct sockaddr *)&path, &len);
    unlink(path.sun_path);
    close(s);

    memset(&abstract, 0, sizeof abstract);
    abstract.sun_family = AF_UNIX;
    int n = snprintf(abstract.sun_path + 1, sizeof abstract.sun_path - 1, "pytrace-test-%d", port);
    socklen_t alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    bind(l, (struct sockaddr *)&abstract, alen);
    listen(l, 1);
    int c = socket(AF_UNIX, SOCK_STREAM, 0);
    connect(c, (struct sockaddr *)&abstract, alen);
    int a = accept4(l, NULL, NULL, 0);
    len = sizeof path;
    getsockname(l, (struct sockaddr *)&path, &len);
    close(a);
    close(c);
    close(l);
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? atoi(argv[1]) : 20000;

    socket(AF_INET, 12345, 0);                         /* EINVAL */
    tcp4(port);
    udp6(port);
    unix_sockets(port);
    return 0;
}
