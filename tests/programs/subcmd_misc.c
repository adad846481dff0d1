/* Other syscalls whose first argument selects an operation, each operation strace 6.1 tells
 * apart: seccomp, membarrier, kcmp, syslog, reboot (wrong magic: refused), SysV msgctl/semctl/
 * shmctl commands, madvise advice, mbind/set_mempolicy modes, ioprio_get/set "which", sysfs. */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD ((long)0xbadc0de0UL)

int main(void)
{
	/* seccomp: only queries and failing calls (no filter is installed) */
	unsigned int act = SECCOMP_RET_KILL_PROCESS;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	act = 0x12345678;
	syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &act);
	struct seccomp_notif_sizes sizes;
	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG, NULL);
	syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 1, NULL);
	syscall(SYS_seccomp, 9, 0x100, BAD);

	/* membarrier */
	syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
	syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
	syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
	syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ, MEMBARRIER_CMD_FLAG_CPU, 0);
	syscall(SYS_membarrier, 0x4000, 0, 0);

	/* kcmp */
	syscall(SYS_kcmp, 0, 0, 0 /* KCMP_FILE */, 1, 2);
	syscall(SYS_kcmp, 0, 0, 1 /* KCMP_VM */, 0, 0);
	syscall(SYS_kcmp, 0, 0, 7 /* KCMP_EPOLL_TFD */, 0, BAD);
	syscall(SYS_kcmp, 0, 0, 99, 1, 2);

	/* syslog */
	char buf[64];
	syscall(SYS_syslog, 10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	syscall(SYS_syslog, 3 /* SYSLOG_ACTION_READ_ALL */, buf, 0);
	syscall(SYS_syslog, 8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 99);
	syscall(SYS_syslog, 77, buf, 3);

	/* reboot with a wrong magic: EINVAL before anything happens */
	syscall(SYS_reboot, 0x12345678, 0x28121969, 0x01234567, NULL);
	syscall(SYS_reboot, 0xfee1dead, 1, 0xa1b2c3d4, "x");

	/* SysV IPC commands */
	syscall(SYS_msgctl, -1, IPC_STAT, NULL);
	syscall(SYS_msgctl, -1, IPC_RMID | 0x100, NULL);
	syscall(SYS_msgctl, 0, MSG_INFO, BAD);
	syscall(SYS_msgctl, 0, 99, NULL);
	syscall(SYS_semctl, -1, 0, IPC_RMID, 0);
	syscall(SYS_semctl, -1, 0, GETVAL, 0);
	syscall(SYS_semctl, -1, 0, SETVAL, 5);
	syscall(SYS_semctl, 0, 0, SEM_INFO, BAD);
	syscall(SYS_semctl, -1, 0, 99, 0);
	syscall(SYS_shmctl, -1, IPC_STAT, NULL);
	syscall(SYS_shmctl, -1, SHM_LOCK, NULL);
	syscall(SYS_shmctl, 0, SHM_INFO, BAD);
	syscall(SYS_shmctl, -1, 99 | 0x100 /* IPC_64 */, NULL);

	/* madvise advice */
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_madvise, m, 4096, MADV_NORMAL);
	syscall(SYS_madvise, m, 4096, MADV_DONTNEED);
	syscall(SYS_madvise, m, 4096, MADV_HUGEPAGE);
	syscall(SYS_madvise, m, 4096, MADV_COLD);
	syscall(SYS_madvise, m, 4096, 25 /* MADV_POPULATE_WRITE */);
	syscall(SYS_madvise, m, 4096, 1000);

	/* NUMA policy modes */
	unsigned long mask = 1;
	syscall(SYS_mbind, m, 4096, 0 /* MPOL_DEFAULT */, NULL, 0, 0);
	syscall(SYS_mbind, m, 4096, 1 /* MPOL_PREFERRED */ | 0x8000 /* MPOL_F_STATIC_NODES */, &mask, 64, 2 /* MPOL_MF_MOVE */);
	syscall(SYS_mbind, m, 4096, 99, &mask, 64, 0x80);
	syscall(SYS_set_mempolicy, 2 /* MPOL_BIND */ | 0x4000 /* MPOL_F_RELATIVE_NODES */, &mask, 64);
	syscall(SYS_set_mempolicy, 0, NULL, 0);
	int mode;
	syscall(SYS_get_mempolicy, &mode, NULL, 0, NULL, 0);
	syscall(SYS_get_mempolicy, &mode, &mask, 64, m, 3 /* MPOL_F_NODE|MPOL_F_ADDR */);

	/* ioprio */
	syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0);
	syscall(SYS_ioprio_get, 2 /* IOPRIO_WHO_PGRP */, 0);
	syscall(SYS_ioprio_set, 1, 0, (2 << 13) | 4);
	syscall(SYS_ioprio_set, 9, 0, (7 << 13) | 0x1fff);
	syscall(SYS_ioprio_get, 3 /* IOPRIO_WHO_USER */, 0);

	/* sysfs */
	syscall(SYS_sysfs, 1, "proc");
	syscall(SYS_sysfs, 2, 0, buf);
	syscall(SYS_sysfs, 3);
	syscall(SYS_sysfs, 9, 1, 2);
	return 0;
}
