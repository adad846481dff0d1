/* Data-shaped edge cases: long/binary strings (for -s and -x/-xx) and invalid pointers.
 *
 * "strings": writes to /dev/null a 5000-byte text, every byte value 0..255, UTF-8 text,
 *   text with quotes/escapes/NULs, an empty buffer, and path arguments of odd shapes.
 * "arrays": arrays strace prints with print_array (fd pairs, iovecs, statfs's f_fsid,
 *   unreadable ones), for -s 0 / -s 1 abbreviation.
 * "efault": every output argument (and a few inputs) of common syscalls given an
 *   unmapped address (0x8, or the end of a mapping), so each fails with EFAULT or
 *   succeeds without the kernel writing; the tracer must print the address, not data.
 * Raw syscall(2) is used so libc never checks or rewrites the arguments.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *)8)

static void strings(void)
{
    static char big[5000], all[256];
    const char utf8[] = "gr\xc3\xbc\xc3\x9f dich \xe2\x82\xac \xf0\x9f\x98\x80 end";
    const char esc[] = "q\"uo\\te\t\n\v\f\r\a\b\x1b\x7f nul\0mid\0";
    int fd = open("/dev/null", O_WRONLY);

    for (unsigned i = 0; i < sizeof big; i++)
        big[i] = "abcdefghijklmnopqrstuvwxyz0123456789 "[i % 37];
    for (unsigned i = 0; i < sizeof all; i++)
        all[i] = (char)i;
    syscall(SYS_write, fd, big, sizeof big);
    syscall(SYS_write, fd, all, sizeof all);
    syscall(SYS_write, fd, all + 128, 128);
    syscall(SYS_write, fd, utf8, sizeof utf8 - 1);
    syscall(SYS_write, fd, esc, sizeof esc - 1);
    syscall(SYS_write, fd, "", 0);
    syscall(SYS_write, fd, "0123456789", 1);
    syscall(SYS_write, fd, "\1\2" "3", 3);
    syscall(SYS_write, fd, "\0" "12", 3);
    syscall(SYS_access, big, F_OK);  /* a 5000-byte path: ENAMETOOLONG */
    syscall(SYS_access, "/tmp/\xff\xfe\t\"x", F_OK);
    syscall(SYS_access, "", F_OK);
    syscall(SYS_access, BAD, F_OK);
    close(fd);
}

static void efault(void)
{
    /* The last byte of a mapping: buffers that start there run into unmapped memory. */
    char *map = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    char *edge;
    int zero = open("/dev/zero", O_RDONLY);
    int sv[2];
    struct timespec ts = { 0, 0 };

    munmap(map + 4096, 4096);
    edge = map + 4095;
    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
    syscall(SYS_read, zero, BAD, 16);
    syscall(SYS_read, zero, edge, 16);
    syscall(SYS_pread64, zero, BAD, 16, 0);
    syscall(SYS_write, sv[0], BAD, 16);
    syscall(SYS_write, sv[0], edge, 16);
    syscall(SYS_write, sv[0], edge, 100);
    syscall(SYS_nanosleep, edge, NULL);
    syscall(SYS_poll, edge, 1, 0);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, edge, NULL, 8);
    syscall(SYS_rt_sigaction, SIGUSR1, edge, NULL, 8);
    syscall(SYS_setrlimit, RLIMIT_NOFILE, edge);
    syscall(SYS_connect, sv[0], edge, 16);
    syscall(SYS_writev, sv[0], edge, 1);
    syscall(SYS_sendmsg, sv[0], edge, 0);
    syscall(SYS_open, edge, O_RDONLY);
    syscall(SYS_readv, zero, BAD, 1);
    syscall(SYS_fstat, zero, BAD);
    syscall(SYS_stat, "/", BAD);
    syscall(SYS_newfstatat, AT_FDCWD, "/", BAD, 0);
    syscall(SYS_statx, AT_FDCWD, "/", 0, 0x7ff, BAD);
    syscall(SYS_statfs, "/", BAD);
    syscall(SYS_fstatfs, zero, BAD);
    syscall(SYS_uname, BAD);
    syscall(SYS_sysinfo, BAD);
    syscall(SYS_times, BAD);
    syscall(SYS_getrusage, 0, BAD);
    syscall(SYS_gettimeofday, BAD, NULL);
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, BAD);
    syscall(SYS_clock_getres, CLOCK_MONOTONIC, BAD);
    syscall(SYS_getrlimit, RLIMIT_NOFILE, BAD);
    syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, BAD);
    syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, BAD, NULL);
    syscall(SYS_pipe, BAD);
    syscall(SYS_pipe2, BAD, O_CLOEXEC);
    syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, BAD);
    syscall(SYS_getcwd, BAD, 100);
    syscall(SYS_readlink, "/proc/self/exe", BAD, 100);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, BAD, 8);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, BAD, NULL, 8);
    syscall(SYS_rt_sigaction, SIGUSR1, NULL, BAD, 8);
    syscall(SYS_rt_sigaction, SIGUSR1, BAD, NULL, 8);
    syscall(SYS_rt_sigpending, BAD, 8);
    syscall(SYS_sigaltstack, NULL, BAD);
    syscall(SYS_getresuid, BAD, BAD, BAD);
    syscall(SYS_getresgid, BAD, BAD, BAD);
    syscall(SYS_getgroups, 10, BAD);
    syscall(SYS_nanosleep, BAD, NULL);
    syscall(SYS_nanosleep, &ts, BAD);
    syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, BAD, NULL);
    syscall(SYS_poll, BAD, 1, 0);
    syscall(SYS_select, 1, BAD, NULL, NULL, &ts);
    syscall(SYS_getsockname, sv[0], BAD, BAD);
    syscall(SYS_getpeername, sv[0], BAD, BAD);
    syscall(SYS_getsockopt, sv[0], SOL_SOCKET, SO_TYPE, BAD, BAD);
    syscall(SYS_recvfrom, sv[1], BAD, 16, MSG_DONTWAIT, NULL, NULL);
    syscall(SYS_recvmsg, sv[1], BAD, MSG_DONTWAIT);
    syscall(SYS_sendmsg, sv[0], BAD, 0);
    syscall(SYS_getitimer, ITIMER_REAL, BAD);
    syscall(SYS_sched_getaffinity, 0, 128, BAD);
    syscall(SYS_sched_getparam, 0, BAD);
    syscall(SYS_getdents64, zero, BAD, 100);
    syscall(SYS_get_robust_list, 0, BAD, BAD);
    syscall(SYS_getcpu, BAD, BAD, NULL);
    syscall(SYS_getrandom, BAD, 8, 0);
    syscall(SYS_waitid, P_ALL, 0, BAD, WEXITED | WNOHANG, NULL);
    syscall(SYS_wait4, -1, BAD, WNOHANG, BAD);
    syscall(SYS_epoll_wait, -1, BAD, 1, 0);
    syscall(SYS_open, BAD, O_RDONLY);
    syscall(SYS_execve, BAD, NULL, NULL);
    syscall(SYS_execve, "/nonexistent", BAD, BAD);
    syscall(SYS_rt_sigtimedwait, BAD, BAD, BAD, 8);
    syscall(SYS_timer_gettime, 0, BAD);
    syscall(SYS_capget, BAD, BAD);
    syscall(SYS_sched_getattr, 0, BAD, 48, 0);
    syscall(SYS_mincore, map, 4096, BAD);
    syscall(SYS_futex, BAD, 0, 1, NULL, NULL, 0);
    syscall(SYS_utimensat, AT_FDCWD, "/nonexistent", BAD, 0);
    syscall(SYS_setrlimit, RLIMIT_NOFILE, BAD);
    syscall(SYS_settimeofday, BAD, NULL);
    syscall(SYS_sethostname, BAD, 5);
    syscall(SYS_connect, sv[0], BAD, 16);
    syscall(SYS_bind, sv[0], BAD, 16);
}

static void arrays(void)
{
    int fds[2];
    struct iovec iov[3] = { { "ab", 2 }, { "cd", 2 }, { "ef", 2 } };
    struct statfs sfs;
    int null = open("/dev/null", O_WRONLY);

    syscall(SYS_pipe2, fds, O_CLOEXEC);
    syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, fds);
    syscall(SYS_writev, null, iov, 3);
    syscall(SYS_statfs, "/proc", &sfs);
    syscall(SYS_move_pages, -1, 1, BAD, NULL, BAD, 0);
    syscall(SYS_futex_waitv, BAD, 1, 0, NULL, CLOCK_MONOTONIC);
    syscall(SYS_getgroups, 0, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (strcmp(mode, "strings") == 0)
        strings();
    else if (strcmp(mode, "efault") == 0)
        efault();
    else if (strcmp(mode, "arrays") == 0)
        arrays();
    else
        return 2;
    return 0;
}
