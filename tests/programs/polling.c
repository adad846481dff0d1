/* poll/ppoll/select/pselect6/epoll on a pipe, with ready and not-ready fds.
 *
 * Only zero or NULL timeouts are used on ready fds: with a real timeout the
 * kernel reports the time left, which differs from run to run.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    int p[2];
    char buf[16];
    struct pollfd pfd[2];
    struct timespec short_wait = { 0, 1000000 };
    struct timeval zero = { 0, 0 };
    fd_set rfds, wfds;
    sigset_t mask;

    pipe(p);
    pfd[0].fd = p[0];
    pfd[0].events = POLLIN;
    pfd[1].fd = p[1];
    pfd[1].events = POLLOUT;
    poll(pfd, 1, 10);                                      /* times out */
    write(p[1], "ready", 5);
    poll(pfd, 2, 0);
    ppoll(pfd, 2, NULL, NULL);

    FD_ZERO(&rfds);
    FD_ZERO(&wfds);
    FD_SET(p[0], &rfds);
    FD_SET(p[1], &wfds);
    select(p[1] + 1, &rfds, &wfds, NULL, &zero);
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1);
    FD_ZERO(&rfds);
    FD_SET(p[0], &rfds);
    pselect(p[0] + 1, &rfds, NULL, NULL, NULL, &mask);

    int ep = epoll_create1(EPOLL_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 42 };
    struct epoll_event out[4];
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);               /* EEXIST */
    epoll_wait(ep, out, 4, 0);
    read(p[0], buf, sizeof buf);
    epoll_wait(ep, out, 4, 5);                             /* times out */
    epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);
    close(ep);

    pfd[0].events = POLLIN;
    ppoll(pfd, 1, &short_wait, &mask);                     /* times out */
    close(p[1]);
    poll(pfd, 1, -1);                                      /* POLLHUP */
    close(p[0]);
    return 0;
}
