/*
 * Leftover decoder differences from the strace 6.1 test-suite sweep, one mode each
 * (tests/differential/test_leftover_cases.py compares the traces with strace's).
 * Every call fails harmlessly (invalid flags, a bad fd, a too large count).  Built for
 * x86_64 by the programs fixture and with gcc -m32 by the test for the i386 modes.
 *
 *   ldt       modify_ldt's entry_number (unsigned; -1 prints as -1)      [x86_64]
 *   perf      perf_event_open: a size below PERF_ATTR_SIZE_VER0 (E2BIG, the pointer),
 *             an unreadable attr (EFAULT), an oversized attr (E2BIG: size => kernel's),
 *             __reserved_1 bits (shown even abbreviated), HW_CACHE and HARDWARE config layouts
 *   bpfquery  BPF_PROG_QUERY failing: prog_ids with prog_cnt 0 is [], else the pointer
 *   waitv     futex_waitv with 129 waiters: 128 then "..."
 *   kexec     kexec_load's segment array: [], NULL, decoded, more than 16 -> pointer
 *   sendfile  sendfile's off_t / i386 sendfile64's loff_t, unsigned
 *   cmsg      SO_TIMESTAMP{,NS,ING}_OLD (the tracee's longs) and _NEW (64-bit) messages
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *page_end(void)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(p + page, page);
    return p + page;
}

static void ldt(void)
{
#ifdef __x86_64__
    uint32_t desc[4] = { 0xffffffffU, 0, 0, 0x51 };
    syscall(SYS_modify_ldt, 1, desc, 16);
    desc[0] = 0xfffffffeU;
    syscall(SYS_modify_ldt, 1, desc, 16);
    desc[0] = 8200;
    syscall(SYS_modify_ldt, 0x11, desc, 16);
#endif
}

static void perf(void)
{
    static uint64_t attr[32];
    memset(attr, 0, sizeof(attr));
    uint32_t *w = (uint32_t *) attr;
    w[0] = 0;                 /* PERF_TYPE_HARDWARE */
    w[1] = 8;                 /* below PERF_ATTR_SIZE_VER0: E2BIG, printed as the pointer */
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 0);
    syscall(SYS_perf_event_open, page_end() - 4, -1, -1, -1, 0);  /* size unreadable */
    w[1] = 0x100;             /* larger than the kernel knows, non-zero tail: E2BIG */
    attr[31] = 1;
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 8);
    attr[31] = 0;
    w[1] = 64;
    attr[5] = (1ULL << 40) | (1ULL << 5) | 1;  /* __reserved_1 bits: EINVAL */
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 0);
    attr[5] = 0;              /* config layouts (pid -1 with cpu -1: always EINVAL) */
    w[0] = 3;                 /* PERF_TYPE_HW_CACHE: result<<16|op<<8|cache id */
    attr[1] = (1 << 16) | (2 << 8) | 3;
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 0);
    attr[1] = (0x5ULL << 32) | (0x7ULL << 24) | (0x9 << 16) | (0x8 << 8) | 0xee;  /* PMU type, junk, unknown ids */
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 0);
    w[0] = 0;                 /* PERF_TYPE_HARDWARE with a PMU type in the high half */
    attr[1] = (0x4ULL << 32) | 1;
    syscall(SYS_perf_event_open, attr, -1, -1, -1, 0);
}

static void bpfquery(void)
{
    uint32_t ids[2];
    struct { uint32_t fd, type, qflags, aflags; uint64_t ids; uint32_t cnt, pad; } q = { 0 };
    q.fd = (uint32_t) -1;
    q.ids = (uintptr_t) ids;
    syscall(SYS_bpf, 16 /* BPF_PROG_QUERY */, &q, 28);
    q.cnt = 2;
    syscall(SYS_bpf, 16, &q, 28);
    q.ids = 0;
    syscall(SYS_bpf, 16, &q, 28);
}

#ifndef SYS_futex_waitv
# define SYS_futex_waitv 449
#endif

static void waitv(void)
{
    struct { uint64_t val, uaddr; uint32_t flags, reserved; } *v = calloc(129, sizeof(*v));
    static uint32_t word;
    for (int i = 0; i < 129; i++) {
        v[i].val = i;
        v[i].uaddr = (uintptr_t) &word;
        v[i].flags = 2 | 128;  /* FUTEX_32|FUTEX_PRIVATE_FLAG */
    }
    syscall(SYS_futex_waitv, v, 129, 0, NULL, 1);
    syscall(SYS_futex_waitv, v, 3, 0, NULL, 1);
    free(v);
}

static void kexec(void)
{
    /* KEXEC_ARCH_SH plus an unknown flag: EINVAL (or EPERM) before anything is loaded. */
    const unsigned long fl = (42UL << 16) | 0x100;
    unsigned long seg[20][4];
    for (int i = 0; i < 20; i++) {
        seg[i][0] = 0x1000 * i;
        seg[i][1] = 100 + i;
        seg[i][2] = 0x100000 + i;
        seg[i][3] = (unsigned long) -1 - i;
    }
    syscall(SYS_kexec_load, 0, 0, NULL, fl);
    syscall(SYS_kexec_load, 0, 0, seg, fl);
    syscall(SYS_kexec_load, 0, 3, seg, fl);
    syscall(SYS_kexec_load, 0, 16, seg, fl);
    syscall(SYS_kexec_load, 0, 17, seg, fl);
    syscall(SYS_kexec_load, 0, 2, page_end() - sizeof(seg[0]), fl);
}

static void sendfile_offsets(void)
{
    long off = -2;
    syscall(SYS_sendfile, -1, -1, &off, 1);
#ifdef SYS_sendfile64
    long long off64 = -3;
    syscall(SYS_sendfile64, -1, -1, &off64, 1);
#endif
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
    /* As 32-bit longs: 1, -2, 3, 4000000000, 5, 6 ...; as 64-bit: other numbers. */
    static const int32_t ts[12] = { 1, -2, 3, (int32_t) 4000000000U, 5, 6, -7, 8, 9, 10, 11, 12 };
    static const int types[] = { 29, 35, 37, 63, 64, 65 };  /* SO_TIMESTAMP{,NS,ING}_{OLD,NEW} */
    for (unsigned i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        send_cmsg(types[i], ts, sizeof(ts));
        send_cmsg(types[i], ts, 8);
        send_cmsg(types[i], ts, 4);
        send_cmsg(types[i], ts, 24);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "all";
    int all = !strcmp(mode, "all");
    if (all || !strcmp(mode, "ldt"))
        ldt();
    if (all || !strcmp(mode, "perf"))
        perf();
    if (all || !strcmp(mode, "bpfquery"))
        bpfquery();
    if (all || !strcmp(mode, "waitv"))
        waitv();
    if (all || !strcmp(mode, "kexec"))
        kexec();
    if (all || !strcmp(mode, "sendfile"))
        sendfile_offsets();
    if (all || !strcmp(mode, "cmsg"))
        cmsg();
    return 0;
}
