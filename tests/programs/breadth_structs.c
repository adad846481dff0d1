/* The structures issue 3 requires to match strace: rusage, sysinfo, utsname, statfs, clone_args,
 * mmsghdr, itimerspec, timex (read only) -- each filled by a successful call and also passed
 * as an invalid pointer.  Counters that change between runs (times, free memory, uptime) are
 * normalised by the tests.
 */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *) 8)

int main(void)
{
    struct rusage ru;
    syscall(SYS_getrusage, RUSAGE_SELF, &ru);
    syscall(SYS_getrusage, RUSAGE_CHILDREN, BAD);
    syscall(SYS_getrusage, 99, &ru);

    struct sysinfo si;
    syscall(SYS_sysinfo, &si);
    syscall(SYS_sysinfo, BAD);

    struct utsname un;
    syscall(SYS_uname, &un);
    syscall(SYS_uname, BAD);

    struct statfs sfs;
    syscall(SYS_statfs, "/proc", &sfs);
    syscall(SYS_statfs, "/proc", BAD);

    /* clone3: a child that exits at once, reaped with its rusage.  SIGCHLD is blocked: whether
     * its delivery comes before or after wait4 depends on scheduling. */
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    struct clone_args ca;
    memset(&ca, 0, sizeof ca);
    ca.exit_signal = SIGCHLD;
    long child = syscall(SYS_clone3, &ca, sizeof ca);
    if (child == 0)
        syscall(SYS_exit, 7);
    int status;
    syscall(SYS_wait4, child, &status, 0, &ru);
    syscall(SYS_clone3, BAD, sizeof ca);
    syscall(SYS_clone3, &ca, 8);
    ca.flags = CLONE_THREAD;  /* without CLONE_SIGHAND: EINVAL */
    syscall(SYS_clone3, &ca, sizeof ca);

    /* mmsghdr over a socketpair */
    int sv[2];
    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
    char a[] = "first", b[] = "second", r1[16], r2[16];
    struct iovec iov[2] = { { a, 5 }, { b, 6 } };
    struct mmsghdr out[2];
    memset(out, 0, sizeof out);
    out[0].msg_hdr.msg_iov = &iov[0];
    out[0].msg_hdr.msg_iovlen = 1;
    out[1].msg_hdr.msg_iov = &iov[1];
    out[1].msg_hdr.msg_iovlen = 1;
    syscall(SYS_sendmmsg, sv[0], out, 2, 0);
    struct iovec riov[2] = { { r1, sizeof r1 }, { r2, sizeof r2 } };
    struct mmsghdr in[2];
    memset(in, 0, sizeof in);
    in[0].msg_hdr.msg_iov = &riov[0];
    in[0].msg_hdr.msg_iovlen = 1;
    in[1].msg_hdr.msg_iov = &riov[1];
    in[1].msg_hdr.msg_iovlen = 1;
    syscall(SYS_recvmmsg, sv[1], in, 2, MSG_DONTWAIT, NULL);
    syscall(SYS_recvmmsg, sv[1], in, 2, MSG_DONTWAIT, NULL);
    syscall(SYS_sendmmsg, sv[0], BAD, 1, 0);

    /* itimerspec through POSIX timers */
    timer_t tid;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_NONE;
    syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tid);
    struct itimerspec its = { { 0, 0 }, { 0, 0 } }, old;
    syscall(SYS_timer_settime, tid, 0, &its, &old);
    syscall(SYS_timer_gettime, tid, &old);
    syscall(SYS_timer_settime, tid, 0, BAD, NULL);
    syscall(SYS_timer_delete, tid);
    return 0;
}
