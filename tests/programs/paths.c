/* Syscalls that touch a file by name, by descriptor and through a directory fd, for -P and -y.
 *
 * argv[1] is a directory created here; the file of interest is argv[1]/target.
 * Run with -P DIR/target (and -P DIR for the *at calls relative to the directory fd).
 * Every kind of argument strace's pathtrace.c looks at appears once: a path
 * (open, stat, rename, link, symlink, readlink, unlink), an fd (read, write,
 * fstat, lseek, mmap, dup2, sendfile, copy_file_range, fcntl), a dirfd + path
 * (openat, newfstatat, unlinkat), fd sets (select, poll, epoll_ctl), and
 * calls that never match (getpid, pipe, socket).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char target[512], other[512], link_name[512], buf[64];
    struct stat st;
    int p[2];

    if (argc < 2)
        return 2;
    snprintf(target, sizeof target, "%s/target", argv[1]);
    snprintf(other, sizeof other, "%s/other", argv[1]);
    snprintf(link_name, sizeof link_name, "%s/link", argv[1]);
    mkdir(argv[1], 0755);

    int fd = open(target, O_CREAT | O_RDWR | O_TRUNC, 0644);
    int ofd = open(other, O_CREAT | O_RDWR | O_TRUNC, 0644);
    write(fd, "0123456789", 10);
    write(ofd, "unrelated", 9);
    lseek(fd, 0, SEEK_SET);
    read(fd, buf, 4);
    fstat(fd, &st);
    stat(target, &st);
    stat(other, &st);
    void *m = mmap(NULL, 10, PROT_READ, MAP_PRIVATE, fd, 0);
    munmap(m, 10);
    dup2(fd, 20);
    dup2(ofd, 21);
    close(21);
    sendfile(ofd, fd, NULL, 2);
    copy_file_range(fd, NULL, ofd, NULL, 2, 0);
    fcntl(20, F_GETFD);
    close(20);

    pipe(p);
    struct pollfd pfd[2] = { { p[0], POLLIN, 0 }, { fd, POLLIN, 0 } };
    poll(pfd, 1, 0);
    poll(pfd, 2, 0);
    fd_set rfds;
    struct timeval zero = { 0, 0 };
    FD_ZERO(&rfds);
    FD_SET(p[0], &rfds);
    select(p[0] + 1, &rfds, NULL, NULL, &zero);
    FD_SET(fd, &rfds);
    select((fd > p[0] ? fd : p[0]) + 1, &rfds, NULL, NULL, &zero);
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN };
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    close(ep);
    close(p[0]);
    close(p[1]);

    int dfd = open(argv[1], O_RDONLY | O_DIRECTORY);
    int tfd = openat(dfd, "target", O_RDONLY);
    fstatat(dfd, "other", &st, 0);
    close(tfd);
    symlink(target, link_name);
    readlink(link_name, buf, sizeof buf);
    link(target, other);                 /* EEXIST */
    rename(other, target);               /* now "target" is the other file; fd still the old one */
    fstat(fd, &st);                      /* fd's file is unlinked: matched by its path, "(deleted)" */
    unlinkat(dfd, "link", 0);
    close(dfd);
    getpid();
    socket(AF_UNIX, SOCK_STREAM, 0);
    close(ofd);
    close(fd);
    unlink(target);
    rmdir(argv[1]);
    return 0;
}
