/* Classic BPF programs as seccomp(2), prctl(PR_SET_SECCOMP) and SO_ATTACH_FILTER take them.
 * The filters that get installed allow everything but sched_yield (made to fail with EACCES), so the program runs the same under any tracer; the others are refused by the kernel
 * (bad opcodes, bad pointers, bad modes) after the tracer has decoded them.
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD ((void *) 8)

static struct sock_filter allow_most[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xc000003e, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sched_yield, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 13),
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, 0x1, 1, 0),
    BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff),
    BPF_STMT(BPF_MISC | BPF_TAX, 0),
    BPF_STMT(BPF_MISC | BPF_TXA, 0),
    BPF_STMT(BPF_ST, 3),
    BPF_STMT(BPF_LDX | BPF_W | BPF_MEM, 3),
    BPF_STMT(BPF_ALU | BPF_ADD | BPF_X, 0),
    BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* Not meant to load: every field that has a name, and codes that have none. */
static struct sock_filter odd[] = {
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_THREAD),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP | 7),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 0x1234),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_LOG),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_STMT(BPF_RET | BPF_K, 0x00110000),
    BPF_STMT(BPF_RET | BPF_A, 0),
    BPF_STMT(BPF_RET | BPF_X, 0),
    BPF_STMT(BPF_RET | 0x18, 5),
    BPF_STMT(BPF_RET | 0x28, 5),
    BPF_STMT(BPF_ST | 0x8, 1),
    BPF_STMT(BPF_STX, 2),
    BPF_STMT(BPF_MISC | 0x40, 0),
    BPF_STMT(BPF_MISC | BPF_TXA | 0x8, 0),
    BPF_STMT(BPF_LD | BPF_H | BPF_IND, 2),
    BPF_STMT(BPF_LD | BPF_B | BPF_IMM, 2),
    BPF_STMT(BPF_LD | 0x18 | BPF_MSH, 2),
    BPF_STMT(BPF_LD | BPF_W | 0xc0, 2),
    BPF_STMT(BPF_LD | BPF_W | 0xe0, 2),
    BPF_STMT(BPF_ALU | BPF_NEG, 0),
    BPF_STMT(BPF_ALU | BPF_MOD | BPF_X, 0),
    BPF_STMT(BPF_ALU | 0xf0, 0),
    BPF_STMT(BPF_JMP | BPF_JA, 0),
    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_X, 0, 0, 3),
    BPF_JUMP(BPF_JMP | 0xf0, 0, 9, 3),
    BPF_STMT(0xffff, 0xffffffff),
};

static void seccomp_prog(unsigned int flags, struct sock_fprog *prog)
{
    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, prog);
}

int main(void)
{
    struct sock_fprog prog = { .len = sizeof allow_most / sizeof allow_most[0], .filter = allow_most };
    struct sock_fprog bad = { .len = sizeof odd / sizeof odd[0], .filter = odd };

    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    seccomp_prog(0, &prog);
    seccomp_prog(SECCOMP_FILTER_FLAG_LOG, &bad);
    seccomp_prog(0x80, &bad);
    seccomp_prog(0, NULL);
    seccomp_prog(0, BAD);
    struct sock_fprog bad_ptr = { .len = 3, .filter = BAD };
    seccomp_prog(0, &bad_ptr);
    struct sock_fprog empty = { .len = 0, .filter = allow_most };
    seccomp_prog(0, &empty);

    /* A filter running into unreadable memory: the last page of a mapping. */
    char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    munmap(page + 4096, 4096);
    struct sock_filter *tail = (struct sock_filter *) (page + 4096) - 2;
    tail[0] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0);
    tail[1] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog cut = { .len = 5, .filter = tail };
    seccomp_prog(0, &cut);

    /* A long filter: more instructions than -s. */
    static struct sock_filter many[40];
    for (unsigned int i = 0; i < 39; i++)
        many[i] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 4 * (i % 16));
    many[39] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    struct sock_fprog longp = { .len = 40, .filter = many };
    seccomp_prog(0, &longp);

    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL, 0, 0);
    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &bad, 0, 0);
    prctl(PR_SET_SECCOMP, 7, 0x10, 0x20, 0x30);
    prctl(PR_SET_SECCOMP, 7, &prog, 0, 0);

    /* The one call the filter refuses (EACCES): the filter is really in place under both tracers. */
    syscall(SYS_sched_yield);

    /* Socket filters: the SKF_* offsets of BPF_LD|BPF_ABS have names. */
    struct sock_filter sock_code[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_VLAN_TPID),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + 0x100),
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_NET_OFF + 9),
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_LL_OFF + 12),
        BPF_STMT(BPF_LD | BPF_B | BPF_IND, SKF_AD_OFF),
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 23),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 6, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
        BPF_STMT(BPF_RET | BPF_K, 0),
    };
    struct sock_fprog sprog = { .len = sizeof sock_code / sizeof sock_code[0], .filter = sock_code };
    int s = socket(AF_INET, SOCK_DGRAM, 0);
    setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &sprog, sizeof sprog);
    setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &sprog, sizeof sprog - 1);
    setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &sprog, sizeof sprog + 4);
    setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, BAD, sizeof sprog);
    setsockopt(s, SOL_SOCKET, SO_ATTACH_REUSEPORT_CBPF, &sprog, sizeof sprog);
    struct sock_filter accept_code[] = {
        BPF_STMT(BPF_LD | BPF_H | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
        BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_NET_OFF + 9),
        BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
    };
    struct sock_fprog aprog = { .len = 3, .filter = accept_code };
    setsockopt(s, SOL_SOCKET, SO_ATTACH_FILTER, &aprog, sizeof aprog);
    struct sock_filter got[16];
    socklen_t glen = 16;
    getsockopt(s, SOL_SOCKET, SO_GET_FILTER, got, &glen);
    glen = 2;
    getsockopt(s, SOL_SOCKET, SO_GET_FILTER, got, &glen);
    glen = 0;
    getsockopt(s, SOL_SOCKET, SO_GET_FILTER, got, &glen);
    setsockopt(s, SOL_SOCKET, SO_DETACH_FILTER, NULL, 0);
    close(s);
    puts("done");
    return 0;
}
