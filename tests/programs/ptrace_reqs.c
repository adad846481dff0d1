/* ptrace(2) requests, valid and invalid, issued on a child stopped under PTRACE_TRACEME.
 *
 * The child stops itself with kill(SIGSTOP), then makes one getppid() with known arguments
 * so that PTRACE_GET_SYSCALL_INFO sees an entry and an exit stop.  The requests use the raw
 * syscall so every argument (PEEK*'s data pointer included) is the one written here.
 * Traced without -f: only this (the tracer) process's calls are shown. */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/reg.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ptrace.h>

static long pt(long req, long pid, unsigned long addr, unsigned long data)
{
	return syscall(SYS_ptrace, req, pid, addr, data);
}

static void on_usr1(int sig)
{
	(void) sig;
}

int main(void)
{
	pid_t child = fork();
	if (child < 0)
		return 1;
	if (child == 0) {
		signal(SIGUSR1, on_usr1);
		pt(PTRACE_TRACEME, 0, 0, 0);
		kill(getpid(), SIGSTOP);
		syscall(SYS_getppid, 1, 2, 3, 4, 5, 6);
		for (;;)
			pause();
	}
	int status;
	if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
		return 2;

	unsigned long word = 0;
	struct user_regs_struct regs;
	struct user_fpregs_struct fpregs;
	struct iovec iov;
	siginfo_t si[2];
	uint64_t sigmask = 0;
	unsigned long msg = 0;
	unsigned char info[128];
	struct {
		uint64_t off;
		uint32_t flags;
		uint32_t nr;
	} psi = { 0, 0, 2 };
	struct {
		uint64_t filter_off;
		uint64_t flags;
	} md = { 0, 0 };

	/* PEEKUSER / POKEUSER: struct user offsets, exact and inside a member, and past the end. */
	pt(PTRACE_PEEKUSER, child, 8 * RAX, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, 8 * ORIG_RAX, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, 8 * EFLAGS, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, offsetof(struct user, u_debugreg) + 8 * 7, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, offsetof(struct user, u_debugreg) + 3, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, offsetof(struct user, u_tsize), (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, sizeof(struct user), (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, sizeof(struct user) + 8, (unsigned long) &word);
	pt(PTRACE_PEEKUSER, child, 8 * RAX, 0);
	pt(PTRACE_POKEUSER, child, offsetof(struct user, u_debugreg) + 8 * 7, 0);
	pt(PTRACE_POKEUSER, child, 8 * R15 + 1, 0);
	pt(PTRACE_PEEKDATA, child, (unsigned long) &word, (unsigned long) &word);
	pt(PTRACE_PEEKTEXT, child, 8, (unsigned long) &word);
	pt(PTRACE_POKEDATA, child, (unsigned long) &msg, 0x2a);

	/* Registers: REGSET with full, short and bad iovecs, unknown note types, GETREGS/SETREGS. */
	iov.iov_base = &regs;
	iov.iov_len = sizeof(regs);
	pt(PTRACE_GETREGSET, child, NT_PRSTATUS, (unsigned long) &iov);
	pt(PTRACE_SETREGSET, child, NT_PRSTATUS, (unsigned long) &iov);
	iov.iov_len = 40;
	pt(PTRACE_GETREGSET, child, NT_PRSTATUS, (unsigned long) &iov);
	iov.iov_len = 12;
	pt(PTRACE_GETREGSET, child, NT_PRSTATUS, (unsigned long) &iov);
	iov.iov_base = &fpregs;
	iov.iov_len = sizeof(fpregs);
	pt(PTRACE_GETREGSET, child, NT_FPREGSET, (unsigned long) &iov);
	iov.iov_len = 64;
	pt(PTRACE_GETREGSET, child, NT_FPREGSET, (unsigned long) &iov);
	pt(PTRACE_GETREGSET, child, NT_X86_XSTATE, (unsigned long) &iov);
	pt(PTRACE_GETREGSET, child, 0x999, (unsigned long) &iov);
	pt(PTRACE_GETREGSET, child, NT_PRSTATUS, 8);
	pt(PTRACE_SETREGSET, child, NT_PRSTATUS, 8);
	pt(PTRACE_GETREGS, child, 0, (unsigned long) &regs);
	pt(PTRACE_SETREGS, child, 0, (unsigned long) &regs);
	pt(PTRACE_GETFPREGS, child, 0, (unsigned long) &fpregs);
	pt(PTRACE_SETFPREGS, child, 0, (unsigned long) &fpregs);

	/* Signal information. */
	pt(PTRACE_GETSIGINFO, child, 0, (unsigned long) &si[0]);
	pt(PTRACE_SETSIGINFO, child, 0, (unsigned long) &si[0]);
	pt(PTRACE_GETSIGINFO, child, 0, 16);
	pt(PTRACE_GETSIGMASK, child, sizeof(sigmask), (unsigned long) &sigmask);
	pt(PTRACE_SETSIGMASK, child, sizeof(sigmask), (unsigned long) &sigmask);
	pt(PTRACE_GETSIGMASK, child, 4, (unsigned long) &sigmask);
	pt(PTRACE_PEEKSIGINFO, child, (unsigned long) &psi, (unsigned long) si);
	kill(child, SIGUSR1);
	pt(PTRACE_PEEKSIGINFO, child, (unsigned long) &psi, (unsigned long) si);
	psi.flags = PTRACE_PEEKSIGINFO_SHARED;
	pt(PTRACE_PEEKSIGINFO, child, (unsigned long) &psi, (unsigned long) si);
	psi.flags = 6;
	pt(PTRACE_PEEKSIGINFO, child, (unsigned long) &psi, (unsigned long) si);
	pt(PTRACE_PEEKSIGINFO, child, 16, (unsigned long) si);

	/* Options, event messages, seccomp. */
	pt(PTRACE_SETOPTIONS, child, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXIT);
	pt(PTRACE_SETOPTIONS, child, 0, 0x80000000UL | PTRACE_O_EXITKILL);
	pt(PTRACE_GETEVENTMSG, child, 0, (unsigned long) &msg);
	pt(PTRACE_SECCOMP_GET_FILTER, child, 0, 0);
	pt(PTRACE_SECCOMP_GET_METADATA, child, sizeof(md), (unsigned long) &md);
	pt(PTRACE_SECCOMP_GET_METADATA, child, 4, (unsigned long) &md);

	/* PTRACE_GET_SYSCALL_INFO in signal stops (SIGSTOP, then the queued SIGUSR1), at the getppid
	 * entry and at its exit. */
	pt(PTRACE_GET_SYSCALL_INFO, child, sizeof(info), (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, 1, (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, 0, (unsigned long) info);
	pt(PTRACE_SYSCALL, child, 0, 0);
	waitpid(child, &status, 0);
	pt(PTRACE_GET_SYSCALL_INFO, child, sizeof(info), (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, 40, (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, sizeof(info), 8);
	pt(PTRACE_SYSCALL, child, 0, 0);
	waitpid(child, &status, 0);
	pt(PTRACE_GET_SYSCALL_INFO, child, sizeof(info), (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, 56, (unsigned long) info);
	pt(PTRACE_GETSIGINFO, child, 0, (unsigned long) &si[0]);
	pt(PTRACE_GETEVENTMSG, child, 0, (unsigned long) &msg);
	pt(PTRACE_SYSCALL, child, 0, 0);
	waitpid(child, &status, 0);
	pt(PTRACE_GET_SYSCALL_INFO, child, sizeof(info), (unsigned long) info);
	pt(PTRACE_GET_SYSCALL_INFO, child, 33, (unsigned long) info);

	/* Invalid requests: no such process, not seized, unknown request. */
	pt(PTRACE_PEEKUSER, 0x7fffffff, 8 * RAX, (unsigned long) &word);
	pt(PTRACE_CONT, 0x7fffffff, 0, SIGUSR1);
	pt(PTRACE_INTERRUPT, child, 0, 0);
	pt(PTRACE_LISTEN, child, 0, 0);
	pt(PTRACE_SEIZE, child, 0, PTRACE_O_TRACECLONE);
	pt(PTRACE_ATTACH, child, 0, 0);
	pt(0x4242, child, 0x10, 0x20);
	pt(PTRACE_GET_RSEQ_CONFIGURATION, child, 32, (unsigned long) info);
	pt(PTRACE_SINGLESTEP, 0x7fffffff, 0, 0);
	pt(PTRACE_KILL, child, 0, 0);
	waitpid(child, &status, 0);
	return 0;
}
