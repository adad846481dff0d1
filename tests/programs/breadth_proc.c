/* Process, scheduling, credential and memory-policy syscalls without a decoder of their own
 * before issue 3, called through syscall(2) with valid and invalid arguments.
 *
 * Nothing printed depends on the run except pids (normalised by the tests) and the
 * few counters noted below; calls that would change the machine (sethostname,
 * reboot, ...) are made with arguments the kernel refuses before acting.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *) 8)

struct sched_attr {  /* <linux/sched/types.h> clashes with glibc's sched.h */
    uint32_t size, sched_policy;
    uint64_t sched_flags;
    int32_t sched_nice;
    uint32_t sched_priority;
    uint64_t sched_runtime, sched_deadline, sched_period;
    uint32_t sched_util_min, sched_util_max;
};
#define SCHED_FLAG_DL_OVERRUN 0x04

int main(void)
{
    pid_t me = getpid();

    /* ids */
    syscall(SYS_getuid);
    syscall(SYS_geteuid);
    syscall(SYS_getgid);
    syscall(SYS_getegid);
    syscall(SYS_getpgrp);
    syscall(SYS_getpgid, 0);
    syscall(SYS_getsid, 0);
    syscall(SYS_getpgid, -1);
    syscall(SYS_setpgid, 0, 0);
    syscall(SYS_setpgid, -1, 0);
    syscall(SYS_gettid);

    /* scheduling */
    struct sched_param sp = { .sched_priority = 0 };
    syscall(SYS_sched_getscheduler, 0);
    syscall(SYS_sched_getscheduler, -1);
    syscall(SYS_sched_getparam, 0, &sp);
    syscall(SYS_sched_getparam, 0, BAD);
    syscall(SYS_sched_setparam, 0, &sp);
    syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp);
    syscall(SYS_sched_setscheduler, 0, SCHED_BATCH | SCHED_RESET_ON_FORK, &sp);
    syscall(SYS_sched_setscheduler, 0, 77, &sp);
    syscall(SYS_sched_setscheduler, 0, SCHED_FIFO, BAD);
    syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp);
    syscall(SYS_sched_get_priority_max, SCHED_FIFO);
    syscall(SYS_sched_get_priority_min, SCHED_RR);
    syscall(SYS_sched_get_priority_max, 99);
    struct timespec rr;
    syscall(SYS_sched_rr_get_interval, 0, &rr);
    syscall(SYS_sched_rr_get_interval, -1, &rr);
    struct sched_attr attr;
    memset(&attr, 0, sizeof attr);
    syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0);
    syscall(SYS_sched_getattr, 0, &attr, 8, 0);
    syscall(SYS_sched_getattr, 0, BAD, sizeof attr, 0);
    attr.size = sizeof attr;
    attr.sched_policy = SCHED_OTHER;
    attr.sched_nice = 0;
    syscall(SYS_sched_setattr, 0, &attr, 0);
    attr.sched_policy = SCHED_DEADLINE;
    attr.sched_runtime = 1000000;
    attr.sched_deadline = 2000000;
    attr.sched_period = 3000000;
    attr.sched_flags = SCHED_FLAG_DL_OVERRUN;
    syscall(SYS_sched_setattr, -1, &attr, 0);
    syscall(SYS_sched_setattr, 0, BAD, 0);
    syscall(SYS_sched_yield);
    unsigned cpu, node;
    syscall(SYS_getcpu, NULL, NULL, NULL);
    syscall(SYS_getcpu, BAD, NULL, NULL);
    (void) cpu; (void) node;

    /* I/O priority */
    syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
    syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 4);
    syscall(SYS_ioprio_set, 1, 0, (7 << 13));
    syscall(SYS_ioprio_get, 9, 0);

    /* capabilities */
    struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
    struct __user_cap_data_struct data[2];
    syscall(SYS_capget, &hdr, data);
    syscall(SYS_capset, &hdr, data);
    struct __user_cap_header_struct bad_hdr = { 0x12345678, 0 };
    syscall(SYS_capget, &bad_hdr, NULL);
    syscall(SYS_capget, BAD, data);

    /* pidfds, process relations */
    int pfd = syscall(SYS_pidfd_open, me, 0);
    syscall(SYS_pidfd_open, me, 0x8);
    syscall(SYS_pidfd_open, -1, 0);
    syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
    syscall(SYS_pidfd_send_signal, pfd, SIGWINCH, NULL, 3);
    syscall(SYS_pidfd_send_signal, 99, SIGKILL, NULL, 0);
    syscall(SYS_pidfd_getfd, pfd, 0, 0);
    syscall(SYS_pidfd_getfd, pfd, 99, 0);
    syscall(SYS_kcmp, me, me, 0 /* KCMP_FILE */, 0, 0);
    syscall(SYS_kcmp, me, me, 5 /* KCMP_SYSVSEM */, 0, 0);
    syscall(SYS_kcmp, me, me, 99, 0, 0);
    syscall(SYS_kcmp, -1, me, 1 /* KCMP_VM */, 0, 0);
    char local[16] = "abcdefghijklmnop", remote[16];
    struct iovec liov = { remote, 8 }, riov = { local, 8 };
    syscall(SYS_process_vm_readv, me, &liov, 1, &riov, 1, 0);
    syscall(SYS_process_vm_writev, me, &riov, 1, &liov, 1, 0);
    syscall(SYS_process_vm_readv, me, &liov, 1, &riov, 1, 1);
    syscall(SYS_process_vm_readv, -1, BAD, 1, BAD, 1, 0);
    syscall(SYS_ptrace, PTRACE_PEEKDATA, 1, 0, 0);
    syscall(SYS_ptrace, PTRACE_TRACEME, 0, 0, 0);
    syscall(SYS_ptrace, PTRACE_CONT, me, 0, SIGCONT);
    syscall(SYS_ptrace, 0x4206 /* PTRACE_SEIZE */, 1, 0, 0x1);
    syscall(SYS_ptrace, 12345, 1, 0, 0);
    siginfo_t si;
    syscall(SYS_waitid, P_ALL, 0, &si, WEXITED | WNOHANG, NULL);
    syscall(SYS_waitid, P_PID, 1, &si, WEXITED, NULL);
    syscall(SYS_waitid, P_PIDFD, pfd, &si, WEXITED | WNOHANG, NULL);
    syscall(SYS_waitid, 7, 0, &si, 0, NULL);

    /* signals */
    syscall(SYS_rt_sigqueueinfo, me, 0, BAD);
    siginfo_t qi;
    memset(&qi, 0, sizeof qi);
    qi.si_code = SI_QUEUE;
    qi.si_pid = 1;
    qi.si_uid = 0;
    qi.si_value.sival_int = 42;
    syscall(SYS_rt_sigqueueinfo, me, 0, &qi);
    syscall(SYS_rt_tgsigqueueinfo, me, me, 0, &qi);
    syscall(SYS_rt_tgsigqueueinfo, -1, -1, SIGUSR1, &qi);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR2);
    struct timespec zero = { 0, 0 };
    syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, 8);
    syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);
    syscall(SYS_rt_sigtimedwait, &set, NULL, BAD, 8);
    stack_t ss, old;
    static char altstack[65536];
    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    syscall(SYS_sigaltstack, &ss, &old);
    syscall(SYS_sigaltstack, NULL, &old);
    ss.ss_flags = SS_DISABLE;
    syscall(SYS_sigaltstack, &ss, NULL);
    ss.ss_flags = 0x7;
    syscall(SYS_sigaltstack, &ss, NULL);
    syscall(SYS_sigaltstack, BAD, NULL);

    /* namespaces, personality, security */
    syscall(SYS_unshare, 0);
    syscall(SYS_unshare, 0x1);
    syscall(SYS_setns, 99, CLONE_NEWNET);
    syscall(SYS_setns, 99, 0);
    syscall(SYS_seccomp, 2 /* SECCOMP_GET_ACTION_AVAIL */, 0, BAD);
    uint32_t action = 0x7fff0000; /* SECCOMP_RET_ALLOW */
    syscall(SYS_seccomp, 2, 0, &action);
    syscall(SYS_seccomp, 99, 0, NULL);
    syscall(SYS_seccomp, 1 /* SECCOMP_SET_MODE_FILTER */, 0x40, NULL);

    /* machine-wide knobs, all refused */
    syscall(SYS_sethostname, "x", 1000);
    syscall(SYS_setdomainname, "x", -1);
    syscall(SYS_reboot, 0, 0, 0, NULL);
    syscall(SYS_syslog, 10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
    syscall(SYS_syslog, 99, NULL, 0);
    syscall(SYS_iopl, 4);
    syscall(SYS_ioperm, 0x10000, 8, 1);
    char ldt[16] = { 0 };
    syscall(SYS_modify_ldt, 99, ldt, sizeof ldt);

    /* memory policy */
    unsigned long mask = 1;
    syscall(SYS_set_mempolicy, 0 /* MPOL_DEFAULT */, NULL, 0);
    syscall(SYS_set_mempolicy, 99, &mask, 64);
    int mode;
    syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
    syscall(SYS_get_mempolicy, NULL, NULL, 0, NULL, 0x8);
    syscall(SYS_mbind, NULL, 0, 0, NULL, 0, 0);
    syscall(SYS_mbind, BAD, 4096, 1 /* MPOL_PREFERRED */, &mask, 64, 1 << 1);
    syscall(SYS_migrate_pages, 0, 64, &mask, &mask);
    syscall(SYS_move_pages, 0, 0, NULL, NULL, NULL, 0);
    syscall(SYS_move_pages, -1, 1, BAD, NULL, BAD, 0x4);
    syscall(SYS_pkey_alloc, 0, 0);
    syscall(SYS_pkey_alloc, 0x1, 0x7);
    syscall(SYS_pkey_free, 99);
    syscall(SYS_set_mempolicy_home_node, 0, 4096, 0, 0x1);
    syscall(SYS_process_mrelease, 99, 0);
    syscall(SYS_memfd_secret, 0x1234);
    syscall(SYS_userfaultfd, 0x1234);
    syscall(SYS_futex_waitv, NULL, 0, 0, NULL, 0);
    syscall(SYS_futex_waitv, BAD, 1, 0x10, NULL, CLOCK_MONOTONIC);
    syscall(SYS_munlockall);
    return 0;
}
