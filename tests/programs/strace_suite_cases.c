/* Calls whose decoding once differed from strace 6.1, found by running strace's own test
 * suite under both tracers (tests/differential/test_strace_suite_cases.py).  Each mode
 * reproduces one family with raw syscalls so the arguments are exactly what is wanted:
 *
 *   modes     print_numeric_umode_t: "%#03o" of an unsigned short (004, 000, 0777)
 *   flagsdflt printflags with no known bit: "0x1 \/\* O_??? \*\/" (dup3, pipe2, faccessat, ...)
 *   intargs   printxval takes an unsigned int: garbage in an int argument's upper half is ignored
 *   pageend   printstr_ex(len) on a name that ends just before an unmapped page
 *   sigsetlen sigset sizes other than NSIG_BYTES print the pointer (rt_sigpending takes 1..8)
 *   sendfile  the offset is printed unsigned (printnum_ulong)
 *   epoll     epoll_pwait/epoll_pwait2 print the sigmask (and timeout) at exit: a failed call
 *             shows the pointers
 *   mmsg      sendmmsg/recvmmsg under -e verbose=none: addresses, no "(left ...)"
 *   fsmisc    fsconfig's key and value are printstr_ex(256); mount_setattr's flags table
 *   sockaddr  AF_UNIX sun_path without a NUL is cut at 108 bytes; AF_PACKET's sockaddr_ll;
 *             MCAST_JOIN_GROUP's group_req with a longer optlen
 *   siginfo   si_errno unsigned when it has no name, si_uid -1; unshare's and pkey_alloc's
 *             arguments are 64-bit; process_mrelease's flags are hex
 *   hexstr    --strings-in-hex=none / non-ascii-chars / non-ascii / all
 *   cmsg      SOL_SOCKET timestamp control messages (SO_TIMESTAMP*, _OLD and _NEW)
 *   exttail   extensible structs bigger than strace knows (openat2, clone3, mount_setattr):
 *             print_nonzero_bytes' "/\* bytes N..M *\/" tail, or ??? when unreadable;
 *             openat2's mode is 64-bit (print_numeric_ll_umode_t)
 *   bpfinfo   BPF_OBJ_GET_INFO_BY_FD whose info_len the kernel shrinks: "info_len=256 => 104";
 *             BPF_MAP_CREATE's map_name cut by the attr size
 *   iowq      io_uring_register(IORING_REGISTER_IOWQ_MAX_WORKERS): an empty, cut or
 *             unreadable array is printed once, at entry
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/if_packet.h>
#include <linux/if_ether.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const unsigned long HIGH = 0xfacefeed00000000UL;

static void modes(void)
{
    syscall(SYS_chmod, "/nonexistent/strace_suite", 04);
    syscall(SYS_chmod, "/nonexistent/strace_suite", 0);
    syscall(SYS_mkdir, "/nonexistent/strace_suite", HIGH | 0xffff0006UL);
    syscall(SYS_mkdirat, AT_FDCWD, "/nonexistent/strace_suite", HIGH | 060);
    syscall(SYS_creat, "/nonexistent/strace_suite", 0100600);
    mode_t old = umask(0777);
    umask(04);
    umask(old);
}

static void flagsdflt(void)
{
    int fds[2];
    syscall(SYS_dup3, -5, 7, 1);
    syscall(SYS_pipe2, fds, 1);
    syscall(SYS_faccessat, -1, "/dev/null", 8);
    syscall(SYS_faccessat2, -1, "/dev/null", 0, 1);
    syscall(SYS_renameat2, -1, "a", -1, "b", 8);
    syscall(SYS_utimensat, -1, "/dev/null", NULL, 0x10000);
    /* sa_flags 0x8 has no name: "sa_flags=0x8 \/\* SA_??? \*\/" */
    struct { void *handler; unsigned long flags; void *restorer; uint64_t mask; } act = { SIG_IGN, 0x8, NULL, 0 };
    syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, 8);
}

static void intargs(void)
{
    void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    syscall(SYS_madvise, p, 4096, HIGH | MADV_RANDOM);
    syscall(SYS_madvise, p, 4096, HIGH | 0x7777);
    uint64_t rl[2];
    syscall(SYS_getrlimit, HIGH | 7 /* RLIMIT_NOFILE */, rl);
    syscall(SYS_getrlimit, HIGH | 0x10, rl);
    syscall(SYS_prlimit64, 0, HIGH | 7, NULL, rl);
    munmap(p, 4096);
}

static void pageend(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + page, page);
    char *end = p + page;
    /* A memfd name of exactly 249 bytes (MFD_NAME_MAX_LEN) with no room for a NUL. */
    memset(end - 249, 'n', 249);
    syscall(SYS_memfd_create, end - 249, HIGH | 0x40);
    /* A short terminated name: only 4 bytes are readable. */
    memcpy(end - 4, "abc", 4);
    syscall(SYS_memfd_create, end - 4, 0x40);
    char comm[16] = { 0 };
    prctl(PR_GET_NAME, comm);
    prctl(PR_SET_NAME, end - 4);
    prctl(PR_SET_NAME, comm);
    munmap(p, page);
}

static void sigsetlen(void)
{
    uint64_t set = 1UL << (SIGUSR2 - 1), old = 0;
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, &old, 16);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, &old, 4);
    syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, &old, 8);
    syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &set, NULL, 8);
    syscall(SYS_rt_sigpending, &old, 4);
    syscall(SYS_rt_sigpending, &old, 16);
    syscall(SYS_rt_sigsuspend, &set, 64);
    struct { long s, ns; } ts = { 0, 1 };
    syscall(SYS_rt_sigtimedwait, &set, NULL, &ts, 32);
}

static void do_sendfile(void)
{
    int in = open("/dev/zero", O_RDONLY);
    int out = open("/dev/null", O_WRONLY);
    int64_t off = -1;
    syscall(SYS_sendfile, out, in, &off, 1);
    off = (int64_t) 0xcafef00ddeadbeefULL;
    syscall(SYS_sendfile, out, in, &off, 1);
    close(in);
    close(out);
}

static void epoll(void)
{
    uint64_t set = 1UL << (SIGUSR1 - 1);
    char ev[64];
    struct { long s, ns; } ts = { 0, 5 };
    int e = syscall(SYS_epoll_create1, 0);
    syscall(SYS_epoll_pwait, -1, ev, 1, 0, &set, 8);
    syscall(SYS_epoll_pwait, e, ev, 1, 0, &set, 8);
    syscall(SYS_epoll_pwait, e, ev, 1, 0, NULL, 8);
    syscall(SYS_epoll_pwait2, -1, ev, 1, &ts, &set, 8);
    syscall(SYS_epoll_pwait2, e, ev, 1, &ts, &set, 8);
    syscall(SYS_epoll_pwait2, -1, ev, 1, NULL, NULL, 8);
    close(e);
}

static void mmsg(void)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
        return;
    char out[] = "x", in[8];
    struct iovec oiov = { out, 1 }, iiov = { in, sizeof(in) };
    struct mmsghdr om = { { NULL, 0, &oiov, 1, NULL, 0, 0 }, 0 };
    struct mmsghdr im = { { NULL, 0, &iiov, 1, NULL, 0, 0 }, 0 };
    struct timespec ts = { 1, 0 };
    syscall(SYS_sendmmsg, sv[1], &om, 1, MSG_DONTWAIT);
    syscall(SYS_recvmmsg, sv[0], &im, 1, MSG_DONTWAIT, NULL);
    /* Nothing left to read: fails at once, so the timeout is never "left" (a varying value). */
    syscall(SYS_recvmmsg, sv[0], &im, 1, MSG_DONTWAIT, &ts);
    close(sv[0]);
    close(sv[1]);
}

static void fsmisc(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + page, page);
    char *end = p + page;
    memset(end - 300, 'k', 300);
    end[-1] = 0;
    /* 1 = FSCONFIG_SET_STRING: a 299-byte key and value, cut at 256 bytes. */
    syscall(SYS_fsconfig, -1, 1, end - 300, end - 300, 0);
    syscall(SYS_fsconfig, -1, 1, end - 5, end - 2, 0);
    syscall(SYS_mount_setattr, -1, "", 0x8000 | 0x200 | 0x400, NULL, 32);
    syscall(SYS_mount_setattr, -1, "", 0x10000, NULL, 32);
    munmap(p, page);
}

static void sockaddr(void)
{
    struct { struct sockaddr_un un; char extra[18]; } u;
    memset(&u, '0', sizeof(u));
    u.un.sun_family = AF_UNIX;
    syscall(SYS_connect, -1, &u, sizeof(u.un));
    syscall(SYS_connect, -1, &u, sizeof(u.un) + 2);
    syscall(SYS_connect, -1, &u, 2 + 5);
    struct sockaddr_ll ll = { 0 };
    ll.sll_family = AF_PACKET;
    ll.sll_protocol = htons(ETH_P_ALL);
    ll.sll_ifindex = 1;
    ll.sll_hatype = 1;
    ll.sll_pkttype = PACKET_BROADCAST;
    ll.sll_halen = 6;
    memcpy(ll.sll_addr, "\xff\x01\x02\x03\x04\x05", 6);
    syscall(SYS_connect, -1, &ll, sizeof(ll));
    ll.sll_halen = 9;
    ll.sll_protocol = htons(0x1234);
    ll.sll_ifindex = 0x7fff0000;
    ll.sll_pkttype = 42;
    syscall(SYS_connect, -1, &ll, sizeof(ll));
    ll.sll_halen = 0;
    syscall(SYS_bind, -1, &ll, sizeof(ll));
    syscall(SYS_bind, -1, &ll, sizeof(ll) - 1);
    /* struct group_req is decoded for any optlen from its size up. */
    struct { struct group_req gr; char extra[64]; } g;
    memset(&g, 0, sizeof(g));
    g.gr.gr_interface = 1;
    struct sockaddr_in *sin = (struct sockaddr_in *) &g.gr.gr_group;
    sin->sin_family = AF_INET;
    sin->sin_addr.s_addr = htonl(0xe0000003);
    syscall(SYS_setsockopt, -1, SOL_IP, MCAST_JOIN_GROUP, &g, sizeof(g));
    syscall(SYS_setsockopt, -1, SOL_IP, MCAST_JOIN_GROUP, &g, sizeof(g.gr));
    syscall(SYS_setsockopt, -1, SOL_IP, MCAST_JOIN_GROUP, &g, sizeof(g.gr) - 1);
}

static void siginfo(void)
{
    signal(SIGUSR1, SIG_IGN);
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    si.si_signo = SIGUSR1;
    si.si_code = SI_QUEUE;
    si.si_errno = -1;
    si.si_pid = getpid();
    si.si_uid = (uid_t) -1;
    syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
    si.si_errno = 2;
    si.si_uid = 1000;
    syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
    syscall(SYS_unshare, HIGH | 0xf);
    syscall(SYS_unshare, 0x100UL << 32);
    /* pkey_alloc: flags PRINT_VAL_X and access rights printflags64, both 64-bit. */
    syscall(SYS_pkey_alloc, HIGH, HIGH | 2);
    syscall(SYS_process_mrelease, -1, 0x10);
}

static void hexstr(void)
{
    syscall(SYS_chdir, "/nonexistent/plain");
    syscall(SYS_chdir, "/nonexistent/a\016 \\\"b\377\t1\0012");
    syscall(SYS_chdir, "/nonexistent/\t\n\v\f\r hi~\177");
}

static void send_cmsg(int type, const void *data, size_t len)
{
    union { struct cmsghdr h; char buf[CMSG_SPACE(64)]; } u;
    memset(&u, 0, sizeof(u));
    u.h.cmsg_len = CMSG_LEN(len);
    u.h.cmsg_level = SOL_SOCKET;
    u.h.cmsg_type = type;
    memcpy(CMSG_DATA(&u.h), data, len);
    struct msghdr m = { 0 };
    m.msg_control = &u;
    m.msg_controllen = CMSG_LEN(len);
    syscall(SYS_sendmsg, -1, &m, 0);
}

static void cmsg(void)
{
    static const int64_t ts[6] = { 123456789, 987654321, 123456790, 987654320, -1, 999999999 };
    static const int types[] = { 29, 35, 37, 63, 64, 65 };  /* SO_TIMESTAMP{,NS,ING}_{OLD,NEW} */
    for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        send_cmsg(types[i], ts, sizeof(ts));
        send_cmsg(types[i], ts, 8);
        send_cmsg(types[i], ts, 0);
    }
}

static void exttail(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + page, page);
    char *end = p + page;
    /* struct open_how (24 bytes) at the end of the page, then 40 bytes with a tail. */
    uint64_t *how = (uint64_t *) (end - 24);
    how[0] = O_RDONLY | O_CREAT;
    how[1] = 0x1234567890UL;
    how[2] = 0;
    syscall(SYS_openat2, -1, "/nonexistent", how, 24);
    syscall(SYS_openat2, -1, "/nonexistent", how, 32);
    uint64_t *how2 = (uint64_t *) (end - 40);
    memset(how2, 0, 40);
    how2[1] = 0644;
    syscall(SYS_openat2, -1, "/nonexistent", how2, 40);
    how2[4] = 0x8786858483828180UL;
    syscall(SYS_openat2, -1, "/nonexistent", how2, 40);
    /* struct clone_args (88 bytes) followed by a tail: zero, nonzero, unreadable. */
    uint64_t *ca = (uint64_t *) (end - 96);
    memset(ca, 0, 96);
    ca[4] = 0xdeadbeefU;  /* exit_signal: invalid, so the call fails */
    syscall(SYS_clone3, ca, 96);
    ca[11] = 0xfacefeedcafef00dUL;
    syscall(SYS_clone3, ca, 96);
    uint64_t *ca2 = (uint64_t *) (end - 88);
    memmove(ca2, ca, 88);
    syscall(SYS_clone3, ca2, 96);
    /* struct mount_attr (32 bytes) and a tail. */
    uint64_t *ma = (uint64_t *) (end - 48);
    memset(ma, 0, 48);
    syscall(SYS_mount_setattr, -1, "", 0x10000, ma, 48);  /* an invalid flag: never changes a mount */
    ma[5] = 1;
    syscall(SYS_mount_setattr, -1, "", 0x10000, ma, 48);  /* an invalid flag: never changes a mount */
    syscall(SYS_mount_setattr, -1, "", 0x10000, end - 32, 48);
    munmap(p, page);
}

static void bpfinfo(void)
{
    uint32_t create[16] = { 2 /* BPF_MAP_TYPE_ARRAY */, 4, 8, 1 };
    /* map_name (at 28) cut by the attr size: print_quoted_cstring shows size - 1 characters. */
    uint32_t named[16] = { 2, 4, 8, 1, 0, 0, 0 };
    memcpy((char *) named + 28, "0123456789abcdef", 16);
    syscall(SYS_bpf, 0, named, 36);
    syscall(SYS_bpf, 0, named, 44);
    memcpy((char *) named + 28, "0123456\0", 8);
    syscall(SYS_bpf, 0, named, 36);
    int map = syscall(SYS_bpf, 0 /* BPF_MAP_CREATE */, create, sizeof(create));
    if (map < 0)
        return;
    static char info[256];
    struct { uint32_t fd, len; uint64_t info; } attr = { map, sizeof(info), (uintptr_t) info };
    syscall(SYS_bpf, 15 /* BPF_OBJ_GET_INFO_BY_FD */, &attr, sizeof(attr));
    attr.len = 8;
    syscall(SYS_bpf, 15, &attr, sizeof(attr));
    close(map);
}

static void iowq(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + page, page);
    uint32_t *w = (uint32_t *) (p + page - 12);
    w[0] = 0; w[1] = 1; w[2] = 0xbeefcafe;
    syscall(SYS_io_uring_register, -1, 19 /* IORING_REGISTER_IOWQ_MAX_WORKERS */, w, 0);
    syscall(SYS_io_uring_register, -1, 19, w + 2, 2);
    syscall(SYS_io_uring_register, -1, 19, w, 3);
    syscall(SYS_io_uring_register, -1, 19, w, 2);
    munmap(p, page);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int all = !strcmp(mode, "all");
    if (all || !strcmp(mode, "modes"))
        modes();
    if (all || !strcmp(mode, "flagsdflt"))
        flagsdflt();
    if (all || !strcmp(mode, "intargs"))
        intargs();
    if (all || !strcmp(mode, "pageend"))
        pageend();
    if (all || !strcmp(mode, "sigsetlen"))
        sigsetlen();
    if (all || !strcmp(mode, "sendfile"))
        do_sendfile();
    if (all || !strcmp(mode, "epoll"))
        epoll();
    if (all || !strcmp(mode, "mmsg"))
        mmsg();
    if (all || !strcmp(mode, "fsmisc"))
        fsmisc();
    if (all || !strcmp(mode, "sockaddr"))
        sockaddr();
    if (all || !strcmp(mode, "siginfo"))
        siginfo();
    if (all || !strcmp(mode, "hexstr"))
        hexstr();
    if (all || !strcmp(mode, "cmsg"))
        cmsg();
    if (all || !strcmp(mode, "exttail"))
        exttail();
    if (all || !strcmp(mode, "bpfinfo"))
        bpfinfo();
    if (all || !strcmp(mode, "iowq"))
        iowq();
    return 0;
}
