/* i386 argument and structure layouts that differ from x86_64's, each with fixed values so the
 * trace is the same in every run (tests/differential/test_i386_sweep.py builds it with -m32):
 * 64-bit arguments split over two registers, signed 32-bit longs (off_t), the *_time64 calls
 * and futex_waitv (64-bit timespecs in a 32-bit process), 32-bit timevals/timespecs/utimbuf,
 * unsigned tv_nsec/tv_usec, pointer arrays (execve argv, io_submit), nodemasks of 32-bit longs,
 * pselect6's sigmask pair, sock_fprog, group_req, SCM_RIGHTS and sendfile's off_t.
 * Built for x86_64 too by the programs fixture, where it does nothing. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#if defined(__i386__)

struct ts64 { int64_t sec; int64_t nsec; };
struct its64 { struct ts64 interval, value; };
struct ts32 { int32_t sec; int32_t nsec; };

/* A 64-bit value as the two registers (low word first) an i386 syscall takes it in. */
#define LL(v) (uint32_t) ((uint64_t) (v) & 0xffffffffu), (uint32_t) ((uint64_t) (v) >> 32)

static void split_args(void)
{
    char buf[16] = "0123456789abcde";
    struct iovec iov = {buf, sizeof buf};
    syscall(SYS_fallocate, -1, 0, LL(0x100000000LL), LL(4096));
    syscall(SYS_readahead, -1, LL(0x200000000LL), 4096);
    syscall(SYS_sync_file_range, -1, LL(-1LL), LL(0x300000000LL), 0);
    syscall(SYS_fadvise64, -1, LL(0x400000000LL), 100, 0);
    syscall(SYS_fadvise64_64, -1, LL(0x500000000LL), LL(200), 1);
    syscall(SYS_pread64, -1, buf, 10, LL(0x600000000LL));
    syscall(SYS_pwrite64, -1, "x", 1, LL(-2LL));
    syscall(SYS_truncate64, "/nonexistent/sweep32", LL(0x700000000LL));
    syscall(SYS_ftruncate64, -1, LL(0x800000000LL));
    syscall(SYS_preadv, -1, &iov, 1, LL(0x900000000LL));
    syscall(SYS_pwritev2, -1, &iov, 1, LL(0xa00000000LL), 0);
    syscall(SYS_fanotify_mark, -1, 1 /* FAN_MARK_ADD */, LL(0x100000001LL), AT_FDCWD, ".");
    /* off_t and friends: signed 32-bit longs. */
    syscall(SYS_lseek, -1, -1, SEEK_SET);
    syscall(SYS_ftruncate, -1, -5);
    syscall(SYS_truncate, "/nonexistent/sweep32", -6);
}

static void time64_calls(void)
{
    struct ts64 t = {0, 1000}, zero = {0, 0}, res;
    struct its64 it = {{1, 2}, {3, 4}};
    int word = 0;
    sigset_t set;
    struct { const sigset_t *ss; uint32_t len; } mask = {&set, 8};
    struct { uint64_t val, uaddr; uint32_t flags, reserved; } waiter = {0, 0, 2, 0};

    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    syscall(SYS_clock_nanosleep_time64, CLOCK_MONOTONIC, 0, &t, NULL);
    syscall(SYS_clock_getres_time64, CLOCK_MONOTONIC, &res);
    syscall(SYS_timer_settime64, 99, 0, &it, NULL);
    syscall(SYS_timerfd_settime64, -1, 0, &it, NULL);
    syscall(SYS_futex_time64, &word, FUTEX_WAIT_PRIVATE, 1, &t, NULL, 0);
    syscall(SYS_utimensat_time64, AT_FDCWD, "/nonexistent/sweep32", (struct ts64[2]){{1000000000, 7}, {5, 999999999}}, 0);
    syscall(SYS_ppoll_time64, NULL, 0, &zero, NULL, 8);
    syscall(SYS_pselect6_time64, 0, NULL, NULL, NULL, &zero, &mask);
    syscall(SYS_recvmmsg_time64, -1, NULL, 0, 0, &t);
    syscall(SYS_rt_sigtimedwait_time64, &set, NULL, &zero, 8);
    syscall(SYS_mq_timedsend_time64, -1, "m", 1, 0, &t);
    syscall(SYS_semtimedop_time64, -1, NULL, 0, &t);
    /* futex_waitv takes a 64-bit timespec everywhere; a timespec's tv_nsec prints unsigned. */
    waiter.uaddr = (uintptr_t) &word;
    syscall(SYS_futex_waitv, &waiter, 1, 0, &(struct ts64){0, -1}, CLOCK_MONOTONIC);
    syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &(struct ts32){0, -1}, NULL);
    syscall(SYS_pselect6, 0, NULL, NULL, NULL, &(struct ts32){0, 0}, &mask);
}

static void layouts(void)
{
    int32_t times[4] = {1000000000, 5, 1000000001, -1};
    int32_t off = 5;
    int64_t off64 = 6;
    uint32_t nodes[2] = {1, 0};
    aio_context_t ctx = 0;
    char data[] = "aio-data";
    struct iocb cb;
    struct iocb *cbs[1] = {&cb};
    char *argv[] = {"/nonexistent/sweep32", "a", "b", NULL};
    char *envp[] = {"X=1", NULL};

    syscall(SYS_utime, "/nonexistent/sweep32", times);
    syscall(SYS_utimes, "/nonexistent/sweep32", times);
    syscall(SYS_futimesat, AT_FDCWD, "/nonexistent/sweep32", times);
    syscall(SYS_utimensat, AT_FDCWD, "/nonexistent/sweep32", times, 0);
    syscall(SYS_sendfile, -1, -1, &off, 5);
    syscall(SYS_sendfile64, -1, -1, &off64, 5);
    syscall(SYS_set_mempolicy, 0x63, nodes, 64);
    syscall(SYS_migrate_pages, 0, 64, nodes, nodes);
    if (syscall(SYS_io_setup, 4, &ctx) == 0) {
        int devnull = open("/dev/null", O_WRONLY);
        memset(&cb, 0, sizeof cb);
        cb.aio_data = 0x1234;
        cb.aio_lio_opcode = IOCB_CMD_PWRITE;
        cb.aio_fildes = devnull;
        cb.aio_buf = (uintptr_t) data;
        cb.aio_nbytes = 8;
        syscall(SYS_io_submit, ctx, 1, cbs);
        syscall(SYS_io_destroy, ctx);
        close(devnull);
    }
    execve(argv[0], argv, envp);
}

static void sockets(void)
{
    struct sock_filter insn[] = {BPF_STMT(BPF_RET | BPF_K, 0xffffffff)};
    struct sock_fprog prog = {1, insn};
    struct sock_fprog empty = {0, insn};
    struct { uint32_t interface; struct sockaddr_storage group; } __attribute__((packed, aligned(4))) req;
    struct sockaddr_in *sin = (struct sockaddr_in *) &req.group;
    int sv[2], passed, udp = socket(AF_INET, SOCK_DGRAM, 0);
    char byte = 'x';
    struct iovec iov = {&byte, 1};
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } control;
    struct msghdr msg = {0};
    struct cmsghdr *cmsg;

    setsockopt(udp, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof prog);
    memset(&req, 0, sizeof req);
    req.interface = 1;
    sin->sin_family = AF_INET;
    sin->sin_addr.s_addr = htonl(0xe0000002);
    setsockopt(udp, SOL_IP, MCAST_JOIN_GROUP, &req, sizeof req);
    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &empty);

    socketpair(AF_UNIX, SOCK_DGRAM, 0, sv);
    passed = open("/dev/null", O_RDONLY);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    cmsg = CMSG_FIRSTHDR(&msg);
    cmsg->cmsg_level = SOL_SOCKET;
    cmsg->cmsg_type = SCM_RIGHTS;
    cmsg->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(cmsg), &passed, sizeof passed);
    sendmsg(sv[0], &msg, 0);
    close(passed);
    close(sv[0]);
    close(sv[1]);
    close(udp);
}

int main(void)
{
    split_args();
    time64_calls();
    sockets();
    layouts();
    return 0;
}

#else

int main(void)
{
    return 0;
}

#endif
