/* Descriptors of many kinds, each shown by a syscall that takes it, for -y/-yy/--decode-fds.
 *
 * Run in an empty scratch directory (the harness's working directory).  Every
 * descriptor is printed by close/fsync/fcntl/write, whose decoders are plain,
 * so the trace shows what -y makes of the fd: a regular file, an unlinked one
 * ("(deleted)"), a name with characters strace escapes ('<', '>', '"', '\n',
 * UTF-8), a directory, /dev/null (dev), a pipe, an epoll and a timerfd
 * (anon inodes), a pidfd, unix/netlink/UDP sockets (a UDP socket printed
 * before and after connect keeps strace's first description), descriptors
 * passed with SCM_RIGHTS, and with "fork" a child whose fd 3 is another file.
 * argv[1] is a free UDP port (the harness's port block).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static void pass_fd(int fd)
{
    int sv[2];
    char c = 'x';
    struct iovec iov = { &c, 1 };
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf };
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);

    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(h), &fd, sizeof fd);
    sendmsg(sv[0], &m, 0);
    memset(u.buf, 0, sizeof u.buf);
    m.msg_controllen = sizeof u.buf;
    recvmsg(sv[1], &m, 0);
    int got;
    memcpy(&got, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof got);
    close(got);
    close(sv[0]);
    close(sv[1]);
}

static void sockets(int port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
    int one = 1;

    int u = socket(AF_INET, SOCK_DGRAM, 0);
    setsockopt(u, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    fsync(u);                                    /* not bound: only the inode */
    bind(u, (struct sockaddr *)&a, sizeof a);
    fsync(u);                                    /* bound: address, now cached */
    a.sin_port = htons(port + 1);
    connect(u, (struct sockaddr *)&a, sizeof a);
    fsync(u);                                    /* connected, but strace shows its cached text */
    close(u);

    int n = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
    bind(n, (struct sockaddr *)&nl, sizeof nl);
    fsync(n);
    close(n);
}

int main(int argc, char **argv)
{
    int port = argc > 1 ? atoi(argv[1]) : 20000;
    int p[2];

    int f = open("plain.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    write(f, "x", 1);
    int odd = open("we<i>rd\"na\nme\303\251", O_CREAT | O_RDWR, 0600);
    fsync(odd);
    unlink("we<i>rd\"na\nme\303\251");
    fsync(odd);                                  /* "(deleted)" after the brackets */
    close(odd);
    int g = open("gone", O_CREAT | O_RDWR, 0600);
    unlink("gone");
    int g2 = open("gone", O_CREAT | O_RDWR, 0600);  /* same name again: only g is deleted */
    fsync(g);
    fsync(g2);
    unlink("gone");
    close(g);
    close(g2);

    int d = open(".", O_RDONLY | O_DIRECTORY);
    fcntl(d, F_GETFD);
    close(d);
    int null = open("/dev/null", O_WRONLY);
    write(null, "discarded", 9);
    dup2(null, 9);
    close(9);
    close(null);

    pipe2(p, O_CLOEXEC);
    write(p[1], "p", 1);
    close(p[0]);
    close(p[1]);
    int ep = epoll_create1(EPOLL_CLOEXEC);
    close(ep);
    int t = timerfd_create(CLOCK_MONOTONIC, 0);
    close(t);
    int pfd = syscall(SYS_pidfd_open, getpid(), 0);
    syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
    syscall(SYS_pidfd_getfd, pfd, f, 0);
    close(pfd);

    pass_fd(f);
    sockets(port);

    if (argc > 2 && strcmp(argv[2], "fork") == 0) {
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL);
        pid_t c = fork();
        if (c == 0) {
            close(f);
            int other = open("child.txt", O_CREAT | O_WRONLY | O_TRUNC, 0600);  /* takes f's number */
            write(other, "child", 5);
            close(other);
            _exit(0);
        }
        wait4(c, NULL, 0, NULL);
        write(f, "parent", 6);
    }
    close(f);
    close(99);                                   /* not open: a bare number */
    return 0;
}
