/* Every prctl(2) option strace 6.1's prctl.c decodes, with valid and invalid arguments.
 * Calls go through syscall(2) so that every argument register is set explicitly
 * (strace prints the unused ones of several options).  Nothing here changes state
 * that the tracer or the rest of the run depends on (no dumpable 0, no seccomp). */
#define _GNU_SOURCE
#include <linux/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define P(o, a, b, c, d) syscall(SYS_prctl, (long)(o), (long)(a), (long)(b), (long)(c), (long)(d))
#define BAD ((long)0xbadc0de0UL)

int main(void)
{
	int i = 0;
	unsigned long ul = 0;
	uint64_t cookie = 0;
	char name[32];

	P(PR_SET_PDEATHSIG, SIGUSR1, 0, 0, 0);
	P(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	P(PR_SET_PDEATHSIG, 200, 0, 0, 0);
	P(PR_SET_PDEATHSIG, 40, 0, 0, 0);
	P(PR_GET_PDEATHSIG, &i, 0, 0, 0);
	P(PR_GET_PDEATHSIG, 0, 0, 0, 0);
	P(PR_GET_PDEATHSIG, BAD, 0, 0, 0);
	P(PR_SET_PDEATHSIG, 0, 0, 0, 0);
	P(PR_GET_DUMPABLE, 0, 0, 0, 0);
	P(PR_SET_DUMPABLE, 7, 0, 0, 0);
	P(PR_GET_UNALIGN, &i, 0, 0, 0);
	P(PR_SET_UNALIGN, PR_UNALIGN_NOPRINT | PR_UNALIGN_SIGBUS, 0, 0, 0);
	P(PR_SET_UNALIGN, 0x10, 0, 0, 0);
	P(PR_GET_KEEPCAPS, 0, 0, 0, 0);
	P(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	P(PR_SET_KEEPCAPS, 5, 0, 0, 0);
	P(PR_GET_FPEMU, &i, 0, 0, 0);
	P(PR_SET_FPEMU, 1, 0, 0, 0);
	P(PR_GET_FPEXC, &i, 0, 0, 0);
	P(PR_SET_FPEXC, 1, 0, 0, 0);
	P(PR_GET_TIMING, 0, 0, 0, 0);
	P(PR_SET_TIMING, 0, 0, 0, 0);
	P(PR_SET_TIMING, 1, 0, 0, 0);
	P(PR_SET_NAME, "subcmd", 0, 0, 0);
	P(PR_GET_NAME, name, 0, 0, 0);
	P(PR_SET_NAME, "a-name-that-is-far-too-long", 0, 0, 0);
	P(PR_GET_NAME, name, 0, 0, 0);
	P(PR_SET_NAME, 0, 0, 0, 0);
	P(PR_GET_NAME, BAD, 0, 0, 0);
	P(PR_SET_NAME, "subcmd_prctl", 0, 0, 0);
	P(PR_GET_ENDIAN, &i, 0, 0, 0);
	P(PR_SET_ENDIAN, 0, 0, 0, 0);
	P(PR_GET_SECCOMP, 0, 0, 0, 0);
	P(PR_SET_SECCOMP, 0, 1, 2, 3);
	P(PR_SET_SECCOMP, 2, 0, 0, 0);
	P(PR_SET_SECCOMP, 2, BAD, 0, 0);
	P(PR_SET_SECCOMP, 9, 1, 2, 3);
	P(PR_CAPBSET_READ, 21, 0, 0, 0);
	P(PR_CAPBSET_READ, 100, 0, 0, 0);
	P(PR_CAPBSET_DROP, 100, 0, 0, 0);
	P(PR_GET_TSC, &i, 0, 0, 0);
	P(PR_GET_TSC, 0, 0, 0, 0);
	P(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0);
	P(PR_SET_TSC, 9, 0, 0, 0);
	P(PR_GET_SECUREBITS, 0, 0, 0, 0);
	P(PR_SET_SECUREBITS, 0x100, 0, 0, 0);
	P(PR_SET_SECUREBITS, 0x15, 0, 0, 0);
	P(PR_GET_SECUREBITS, 0, 0, 0, 0);
	P(PR_SET_TIMERSLACK, 50000, 0, 0, 0);
	P(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	P(PR_SET_TIMERSLACK, -5L, 0, 0, 0);
	P(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	P(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	P(PR_MCE_KILL, PR_MCE_KILL_CLEAR, 0, 0, 0);
	P(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0);
	P(PR_MCE_KILL_GET, 0, 0, 0, 0);
	P(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_DEFAULT, 0, 0);
	P(PR_MCE_KILL, PR_MCE_KILL_SET, 9, 0, 0);
	P(PR_MCE_KILL, 7, 9, 1, 2);
	P(PR_MCE_KILL_GET, 1, 2, 3, 4);
	P(PR_SET_MM, PR_SET_MM_START_CODE, BAD, 0, 0);
	P(PR_SET_MM, PR_SET_MM_EXE_FILE, 99, 0, 0);
	P(PR_SET_MM, PR_SET_MM_MAP_SIZE, &i, 0, 0);
	P(PR_SET_MM, PR_SET_MM_MAP, 0, 0, 0);
	P(PR_SET_MM, 0x100000001L, 1, 2, 3);
	P(PR_SET_MM, 77, 1, 2, 3);
	P(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
	P(PR_GET_CHILD_SUBREAPER, &i, 0, 0, 0);
	P(PR_GET_CHILD_SUBREAPER, BAD, 0, 0, 0);
	P(PR_SET_NO_NEW_PRIVS, 0, 1, 0, 0);
	P(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	P(PR_GET_NO_NEW_PRIVS, 1, 2, 3, 4);
	P(PR_GET_TID_ADDRESS, &ul, 0, 0, 0);
	P(PR_GET_TID_ADDRESS, BAD, 0, 0, 0);
	P(PR_SET_THP_DISABLE, 0, 0, 0, 0);
	P(PR_GET_THP_DISABLE, 0, 0, 0, 0);
	P(PR_MPX_ENABLE_MANAGEMENT, 0, 0, 0, 0);
	P(PR_MPX_DISABLE_MANAGEMENT, 0, 0, 0, 0);
	P(PR_SET_FP_MODE, PR_FP_MODE_FR | 4, 0, 0, 0);
	P(PR_GET_FP_MODE, 0, 0, 0, 0);
	P(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 0, 0, 0);
	P(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, 99, 1, 2);
	P(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, 12, 0, 0);
	P(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	P(PR_CAP_AMBIENT, 9, 1, 2, 3);
	P(PR_SVE_SET_VL, PR_SVE_VL_INHERIT | 16, 0, 0, 0);
	P(PR_SVE_SET_VL, 16, 0, 0, 0);
	P(PR_SVE_SET_VL, 0x80000 | PR_SVE_SET_VL_ONEXEC | 32, 0, 0, 0);
	P(PR_SVE_GET_VL, 0, 0, 0, 0);
	P(PR_SME_SET_VL, PR_SME_VL_INHERIT | 16, 0, 0, 0);
	P(PR_SME_SET_VL, 0x100000 | 8, 0, 0, 0);
	P(PR_SME_GET_VL, 0, 0, 0, 0);
	P(PR_GET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0, 0, 0);
	P(PR_GET_SPECULATION_CTRL, PR_SPEC_INDIRECT_BRANCH, 0, 0, 0);
	P(PR_GET_SPECULATION_CTRL, PR_SPEC_L1D_FLUSH, 0, 0, 0);
	P(PR_GET_SPECULATION_CTRL, 9, 0, 0, 0);
	P(PR_SET_SPECULATION_CTRL, PR_SPEC_STORE_BYPASS, 0x40, 0, 0);
	P(PR_SET_SPECULATION_CTRL, PR_SPEC_INDIRECT_BRANCH, 0, 0, 0);
	P(PR_SET_SPECULATION_CTRL, 9, 0x40, 0, 0);
	P(PR_PAC_RESET_KEYS, 0x13, 0, 0, 0);
	P(PR_PAC_RESET_KEYS, 0x100, 1, 2, 3);
	P(PR_PAC_SET_ENABLED_KEYS, 5, 0x21, 0, 0);
	P(PR_PAC_GET_ENABLED_KEYS, 0, 0, 0, 0);
	P(PR_SET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	P(PR_SET_TAGGED_ADDR_CTRL, 1 | (1UL << 2) | (0x5UL << 3) | (1UL << 30), 1, 2, 3);
	P(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0);
	P(PR_SET_IO_FLUSHER, 0, 0, 0, 0);
	P(PR_GET_IO_FLUSHER, 0, 0, 0, 0);
	P(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, 0);
	P(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, -16L, 0x20, BAD); /* offset + len overflows: EINVAL */
	P(PR_SET_SYSCALL_USER_DISPATCH, 9, 1, 2, 3);
	P(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, 0, &cookie);
	P(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, 1, BAD);
	P(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, 2, 0);
	P(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, 0, 3, 0);
	P(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_FROM, 0, 7, BAD);
	P(PR_SCHED_CORE, 9, 0, 0, 0);
	void *m = mmap(0, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	P(PR_SET_VMA, PR_SET_VMA_ANON_NAME, m, 4096, "vma-name");
	P(PR_SET_VMA, PR_SET_VMA_ANON_NAME, m, 4096, 0);
	P(PR_SET_VMA, 5, 1, 2, 3);
	P(PR_SET_PTRACER, -1, 0, 0, 0);
	P(PR_SET_PTRACER, 0, 0, 0, 0);
	P(PR_SET_PTRACER, 0x7ffffff0, 0, 0, 0);
	P(PR_SET_PTRACER, 1, 0, 0, 0);   /* init: -Y names it */
	P(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, 1, 0, 0);
	P(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, 1, 1, 0);
	P(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, 1, 2, 0);
	P(0x12345, 1, 2, 3, 4);
	P(0x100000001L, 1, 2, 3, 4);
	return 0;
}
