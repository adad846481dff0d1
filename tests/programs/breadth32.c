/* Structures as an i386 (-m32) tracee passes them: strace reads them with its 32-bit
 * layouts (mpers), and so must pytrace.  Built with gcc -m32 (see test_decode_i386.py),
 * not by the programs fixture.  Every call is made once with a valid argument and once
 * with a bad pointer (EFAULT) or descriptor (EBADF); raw syscall() is used where glibc
 * would pick a different variant.  The session's programs fixture builds every
 * tests/programs/*.c for x86_64 too: there it is an empty program.
 */
#ifndef __i386__
int main(void) { return 0; }
#else
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/time_types.h>
#include <asm/ldt.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#define BAD ((void *)8)

struct old_timespec32 { int tv_sec; int tv_nsec; };
struct old_timeval32 { int tv_sec; int tv_usec; };
struct old_itimerspec32 { struct old_timespec32 it_interval, it_value; };
struct old_itimerval32 { struct old_timeval32 it_interval, it_value; };
struct k_sigaction32 { unsigned int handler; unsigned int flags; unsigned int restorer; unsigned int mask[2]; };
struct old_sigaction32 { unsigned int handler; unsigned int mask; unsigned int flags; unsigned int restorer; };

static void handler(int sig) { (void)sig; }

int main(void)
{
    int fd = open("/dev/null", O_RDONLY);
    char buf[256];

    /* stat family: stat64/fstat64/lstat64/fstatat64 and the old struct stat */
    struct stat64 st64;
    syscall(SYS_stat64, "/dev/null", &st64);
    syscall(SYS_stat64, "/dev/null", BAD);
    syscall(SYS_lstat64, "/dev/null", &st64);
    syscall(SYS_fstat64, fd, &st64);
    syscall(SYS_fstat64, -1, &st64);
    syscall(SYS_fstatat64, AT_FDCWD, "/dev/null", &st64, 0);
    char old_stat[64];
    syscall(SYS_stat, "/dev/null", old_stat);
    syscall(SYS_fstat, fd, old_stat);
    syscall(SYS_fstat, fd, BAD);

    /* statfs */
    char sfs[128];
    syscall(SYS_statfs, "/", sfs);
    syscall(SYS_statfs64, "/", sizeof(struct statfs64), sfs);
    syscall(SYS_fstatfs, fd, sfs);
    syscall(SYS_fstatfs64, fd, sizeof(struct statfs64), sfs);
    syscall(SYS_fstatfs64, fd, sizeof(struct statfs64), BAD);

    /* time: 32-bit time_t variants */
    struct old_timespec32 ts32 = { 0, 1000 };
    syscall(SYS_nanosleep, &ts32, &ts32);
    syscall(SYS_nanosleep, BAD, NULL);
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts32);
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, BAD);
    syscall(SYS_clock_getres, CLOCK_REALTIME, &ts32);
    syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &(struct old_timespec32){ 0, 1000 }, NULL);
    struct old_timeval32 tv32;
    syscall(SYS_gettimeofday, &tv32, NULL);
    syscall(SYS_gettimeofday, BAD, NULL);
    struct old_itimerval32 itv = { { 0, 0 }, { 0, 0 } };
    syscall(SYS_setitimer, ITIMER_REAL, &itv, &itv);
    syscall(SYS_getitimer, ITIMER_REAL, &itv);
    int tid;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_NONE;
    syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tid);
    struct old_itimerspec32 its = { { 0, 0 }, { 100, 0 } };
    syscall(SYS_timer_settime, tid, 0, &its, &its);
    syscall(SYS_timer_gettime, tid, &its);
    syscall(SYS_timer_gettime, tid, BAD);
    int tfd = syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 0);
    syscall(SYS_timerfd_settime, tfd, 0, &its, NULL);
    syscall(SYS_timerfd_gettime, tfd, &its);
    int t32 = 0;
    syscall(SYS_time, &t32);
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    syscall(SYS_adjtimex, &tx);
    syscall(SYS_clock_adjtime, CLOCK_REALTIME, &tx);

    /* signals: old and rt sigaction, sigaltstack, siginfo */
    struct k_sigaction32 ka = { (unsigned int)(unsigned long)handler, SA_RESTART, 0, { 1u << (SIGINT - 1), 0 } };
    struct k_sigaction32 oka;
    syscall(SYS_rt_sigaction, SIGUSR1, &ka, &oka, 8);
    syscall(SYS_rt_sigaction, SIGUSR1, NULL, &oka, 8);
    syscall(SYS_rt_sigaction, SIGUSR1, BAD, NULL, 8);
    struct old_sigaction32 osa = { (unsigned int)(unsigned long)handler, 1u << (SIGTERM - 1), SA_NODEFER, 0 };
    struct old_sigaction32 oosa;
    syscall(SYS_sigaction, SIGUSR2, &osa, &oosa);
    syscall(SYS_sigaction, SIGUSR2, NULL, &oosa);
    stack_t ss;
    static char altstack[16384];
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    syscall(SYS_sigaltstack, &ss, NULL);
    syscall(SYS_sigaltstack, NULL, &ss);
    ss.ss_flags = SS_DISABLE;
    syscall(SYS_sigaltstack, &ss, NULL);
    syscall(SYS_sigaltstack, BAD, NULL);
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = SIGUSR1;
    si.si_code = SI_QUEUE;
    si.si_pid = getpid();
    si.si_value.sival_int = 42;
    syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8);
    kill(getpid(), SIGUSR2);
    struct old_timespec32 zero = { 0, 0 };
    syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);
    syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);

    /* vectors and messages */
    struct iovec iov[2] = { { buf, 4 }, { buf + 4, 8 } };
    syscall(SYS_readv, fd, iov, 2);
    syscall(SYS_writev, 1, (struct iovec[]){ { "hi\n", 3 } }, 1);
    syscall(SYS_readv, fd, BAD, 2);
    syscall(SYS_preadv, fd, iov, 2, 0, 0);
    int sv[2];
    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
    struct msghdr mh;
    memset(&mh, 0, sizeof mh);
    mh.msg_iov = (struct iovec[]){ { "ping", 4 } };
    mh.msg_iovlen = 1;
    syscall(SYS_sendmsg, sv[0], &mh, 0);
    char cbuf[64];
    struct msghdr rh;
    memset(&rh, 0, sizeof rh);
    rh.msg_iov = iov;
    rh.msg_iovlen = 2;
    rh.msg_control = cbuf;
    rh.msg_controllen = sizeof cbuf;
    syscall(SYS_recvmsg, sv[1], &rh, 0);
    syscall(SYS_sendmsg, sv[0], BAD, 0);
    /* two control messages: the second header sits at CMSG_ALIGN (4 on i386) of the first */
    union { char buf[CMSG_SPACE(sizeof(int)) + CMSG_SPACE(sizeof(struct ucred))]; struct cmsghdr align; } cm;
    memset(&cm, 0, sizeof cm);
    mh.msg_control = cm.buf;
    mh.msg_controllen = sizeof cm.buf;
    struct cmsghdr *ch = CMSG_FIRSTHDR(&mh);
    ch->cmsg_len = CMSG_LEN(sizeof(int));
    ch->cmsg_level = SOL_SOCKET;
    ch->cmsg_type = SCM_RIGHTS;
    memcpy(CMSG_DATA(ch), &fd, sizeof fd);
    ch = CMSG_NXTHDR(&mh, ch);
    ch->cmsg_len = CMSG_LEN(sizeof(struct ucred));
    ch->cmsg_level = SOL_SOCKET;
    ch->cmsg_type = SCM_CREDENTIALS;
    struct ucred cred = { getpid(), getuid(), getgid() };
    memcpy(CMSG_DATA(ch), &cred, sizeof cred);
    int on = 1;
    setsockopt(sv[1], SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
    syscall(SYS_sendmsg, sv[0], &mh, 0);
    syscall(SYS_recvmsg, sv[1], &rh, 0);
    struct mmsghdr mm[1];
    memset(mm, 0, sizeof mm);
    mm[0].msg_hdr.msg_iov = (struct iovec[]){ { "pong", 4 } };
    mm[0].msg_hdr.msg_iovlen = 1;
    syscall(SYS_sendmmsg, sv[0], mm, 1, 0);
    struct mmsghdr rm[2];
    memset(rm, 0, sizeof rm);
    rm[0].msg_hdr.msg_iov = iov;
    rm[0].msg_hdr.msg_iovlen = 2;
    struct old_timespec32 rto = { 0, 1000 };
    syscall(SYS_recvmmsg, sv[1], rm, 2, MSG_DONTWAIT, &rto);
    struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(9), .sin_addr = { htonl(0x7f000001) } };
    int u = socket(AF_INET, SOCK_DGRAM, 0);
    syscall(SYS_connect, u, &sin, sizeof sin);
    socklen_t alen = sizeof sin;
    syscall(SYS_getsockname, u, &sin, &alen);

    /* resources and system information */
    struct { unsigned int cur, max; } rl32;
    syscall(SYS_ugetrlimit, RLIMIT_NOFILE, &rl32);
    syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl32);
    syscall(SYS_setrlimit, RLIMIT_CORE, &rl32);
    syscall(SYS_ugetrlimit, RLIMIT_NOFILE, BAD);
    syscall(SYS_ugetrlimit, RLIMIT_STACK, &rl32);
    rl32.cur = rl32.max = 0xffffffffu;
    syscall(SYS_setrlimit, RLIMIT_CORE, &rl32);
    struct rlimit64 rl64;
    syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &rl64);
    struct rusage ru;
    syscall(SYS_getrusage, RUSAGE_SELF, &ru);
    syscall(SYS_getrusage, RUSAGE_SELF, BAD);
    struct sysinfo sinfo;
    syscall(SYS_sysinfo, &sinfo);
    syscall(SYS_sysinfo, BAD);
    struct utsname un;
    syscall(SYS_uname, &un);
    struct sched_param sp = { 0 };
    syscall(SYS_sched_getparam, 0, &sp);
    syscall(SYS_sched_rr_get_interval, 0, &ts32);

    /* select / poll / epoll */
    fd_set rfds;
    FD_ZERO(&rfds);
    FD_SET(fd, &rfds);
    struct old_timeval32 tv0 = { 0, 0 };
    syscall(SYS__newselect, fd + 1, &rfds, NULL, NULL, &tv0);
    syscall(SYS__newselect, fd + 1, BAD, NULL, NULL, &tv0);
    /* old select(82): its five arguments in a block of 32-bit words */
    unsigned int osel[5] = { fd + 1, (unsigned int)(unsigned long)&rfds, 0, 0, (unsigned int)(unsigned long)&tv0 };
    syscall(SYS_select, osel);
    syscall(SYS_select, BAD);
    struct pollfd pfd = { fd, POLLIN, 0 };
    syscall(SYS_poll, &pfd, 1, 0);
    syscall(SYS_ppoll, &pfd, 1, &zero, NULL, 8);
    int ep = epoll_create1(0);
    struct epoll_event ev = { EPOLLIN, { .u64 = 0x1122334455667788ULL } };
    syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, sv[0], &ev);
    syscall(SYS_epoll_wait, ep, &ev, 1, 0);
    syscall(SYS_epoll_ctl, ep, EPOLL_CTL_MOD, sv[0], BAD);

    /* wait4 with rusage, waitid with siginfo */
    pid_t child = fork();
    if (child == 0)
        _exit(3);
    int status;
    siginfo_t wi;
    waitid(P_PID, child, &wi, WEXITED | WNOWAIT); /* SIGCHLD is printed before wait4, not racing it */
    syscall(SYS_wait4, child, &status, 0, &ru);
    syscall(SYS_wait4, -1, &status, WNOHANG, BAD);

    /* offsets */
    long long off;
    syscall(SYS__llseek, fd, 0, 10, &off, SEEK_SET);
    syscall(SYS__llseek, -1, 0, 10, &off, SEEK_SET);
    syscall(SYS_fcntl64, fd, F_GETFL);
    syscall(SYS_fcntl64, fd, F_SETFD, FD_CLOEXEC);
    syscall(SYS_fcntl64, fd, F_GETFD);
    syscall(SYS_fcntl64, fd, F_DUPFD_CLOEXEC, 10);
    /* struct flock (32-bit off_t) and the packed struct flock64 */
    struct { short type, whence; int start, len, pid; } fl32 = { F_RDLCK, SEEK_SET, 0, 10, 0 };
    syscall(SYS_fcntl, fd, F_SETLK, &fl32);
    fl32.type = F_WRLCK;
    syscall(SYS_fcntl, fd, F_GETLK, &fl32);
    struct flock64 fl64 = { F_RDLCK, SEEK_CUR, 1LL << 33, 100, 0 };
    syscall(SYS_fcntl64, fd, F_SETLK64, &fl64);
    fl64.l_type = F_WRLCK;
    syscall(SYS_fcntl64, fd, F_GETLK64, &fl64);
    syscall(SYS_fcntl64, fd, F_OFD_GETLK, &fl64);
    syscall(SYS_fcntl64, fd, F_SETLKW64, BAD);
    syscall(SYS__llseek, fd, 1, 2, &off, SEEK_CUR);
    syscall(SYS_mmap2, NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 3);
    syscall(SYS_mmap2, NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char dents[512];
    int dfd = open("/", O_RDONLY | O_DIRECTORY);
    syscall(SYS_getdents64, dfd, dents, 0);
    /* sigevent (i386 layout): a value and SIGEV_THREAD_ID */
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = SIGUSR1;
    sev.sigev_value.sival_int = 7;
    sev._sigev_un._tid = getpid();
    syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &tid);
    syscall(SYS_timer_create, CLOCK_MONOTONIC, BAD, &tid);
    syscall(SYS_adjtimex, BAD);

    /* user_desc: set/get_thread_area (no lm on i386) and clone's tls */
    struct user_desc ud;
    memset(&ud, 0, sizeof ud);
    unsigned short gs;
    __asm__("mov %%gs, %0" : "=r"(gs));
    ud.entry_number = gs >> 3;
    syscall(SYS_get_thread_area, &ud);
    struct user_desc nd = ud;
    nd.entry_number = -1;
    syscall(SYS_set_thread_area, &nd);
    syscall(SYS_set_thread_area, BAD);
    syscall(SYS_get_thread_area, BAD);
    pid_t tc = syscall(SYS_clone, CLONE_SETTLS | SIGCHLD, 0, NULL, &ud, NULL);
    if (tc == 0)
        syscall(SYS_exit, 0);
    waitpid(tc, &status, 0);

    /* send/recv through socketcall(2) */
    unsigned int sargs[4] = { sv[0], (unsigned int)(unsigned long)"data", 4, 0 };
    syscall(SYS_socketcall, 9, sargs);
    unsigned int rargs[4] = { sv[1], (unsigned int)(unsigned long)buf, sizeof buf, MSG_DONTWAIT };
    syscall(SYS_socketcall, 10, rargs);
    syscall(SYS_socketcall, 10, rargs);
    rargs[1] = (unsigned int)(unsigned long)BAD;
    syscall(SYS_socketcall, 9, (unsigned int[]){ sv[0], 8, 4, 0 });

    /* the ipc(2) multiplexer: ipc(call, first, second, third, ptr, fifth) */
    int semid = syscall(SYS_ipc, 2, IPC_PRIVATE, 1, 0600, 0, 0);             /* semget */
    struct sembuf sb = { 0, 1, IPC_NOWAIT };
    syscall(SYS_ipc, 1, semid, 1, 0, &sb, 0);                                /* semop */
    syscall(SYS_ipc, 4, semid, 1, 0, &sb, &zero);                            /* semtimedop */
    syscall(SYS_ipc, 3, semid, 0, GETVAL, &(int){ 0 }, 0);                   /* semctl */
    syscall(SYS_ipc, 3, semid, 0, IPC_RMID, 0, 0);
    int msqid = syscall(SYS_ipc, 13, IPC_PRIVATE, 0600, 0, 0, 0);            /* msgget */
    struct { int mtype; char mtext[8]; } msg = { 1, "hello" };
    syscall(SYS_ipc, 11, msqid, 6, IPC_NOWAIT, &msg, 0);                     /* msgsnd */
    struct { void *msgp; int msgtyp; } kludge = { &msg, 0 };
    syscall(SYS_ipc, 12, msqid, 8, IPC_NOWAIT, &kludge, 0);                  /* msgrcv */
    syscall(SYS_ipc, 12 | (1 << 16), msqid, 8, IPC_NOWAIT, &msg, 0);         /* msgrcv, version 1 */
    syscall(SYS_ipc, 14, msqid, IPC_RMID, 0, 0, 0);                          /* msgctl */
    int shmid = syscall(SYS_ipc, 23, IPC_PRIVATE, 4096, 0600, 0, 0);         /* shmget */
    unsigned int raddr = 0;
    syscall(SYS_ipc, 21, shmid, SHM_RDONLY, &raddr, 0, 0);                   /* shmat */
    syscall(SYS_ipc, 22, 0, 0, 0, (void *)(unsigned long)raddr, 0);          /* shmdt */
    syscall(SYS_ipc, 24, shmid, IPC_RMID, 0, 0, 0);                          /* shmctl */
    syscall(SYS_ipc, 99, 1, 2, 3, 0, 0);
    return 0;
}
#endif
