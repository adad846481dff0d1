/* Operation selectors of smaller syscalls, every value strace 6.1 tells apart plus unknown ones:
 * epoll_ctl ops, io_uring_register opcodes, shutdown's how, setns' nstype, scheduling policies,
 * adjtimex/clock_adjtime modes (read-only calls), lseek whence, mremap/msync/mlockall flags,
 * getrandom flags, pidfd_send_signal, rseq, sched_get_priority_*. */
#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>

#define BAD ((long)0xbadc0de0UL)

int main(void)
{
	int ep = epoll_create1(EPOLL_CLOEXEC);
	int pfd[2];
	pipe(pfd);
	struct epoll_event ev = { EPOLLIN | EPOLLET, { .u64 = 0x1122334455667788ULL } };
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, pfd[0], &ev);
	ev.events = EPOLLOUT | EPOLLONESHOT | EPOLLEXCLUSIVE;
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_MOD, pfd[0], &ev);
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_DEL, pfd[0], NULL);
	syscall(SYS_epoll_ctl, ep, 9, pfd[0], &ev);
	syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, pfd[0], BAD);

	/* io_uring_register on a non-ring fd: every opcode is refused with EOPNOTSUPP/EBADF */
	int fds[2] = { pfd[0], pfd[1] };
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_BUFFERS, NULL, 0);
	syscall(SYS_io_uring_register, pfd[0], IORING_UNREGISTER_BUFFERS, NULL, 0);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_FILES, fds, 2);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_EVENTFD, fds, 1);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_PROBE, NULL, 0);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_PERSONALITY, NULL, 0);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_ENABLE_RINGS, NULL, 0);
	syscall(SYS_io_uring_register, pfd[0], IORING_REGISTER_IOWQ_MAX_WORKERS, fds, 2);
	syscall(SYS_io_uring_register, pfd[0], 99, BAD, 3);

	/* shutdown */
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	syscall(SYS_shutdown, sv[0], SHUT_RD);
	syscall(SYS_shutdown, sv[0], SHUT_WR);
	syscall(SYS_shutdown, sv[0], SHUT_RDWR);
	syscall(SYS_shutdown, sv[0], 7);

	/* setns with a wrong descriptor: nothing changes */
	syscall(SYS_setns, pfd[0], CLONE_NEWNET);
	syscall(SYS_setns, pfd[0], 0);
	syscall(SYS_setns, pfd[0], CLONE_NEWUSER | CLONE_NEWPID);
	syscall(SYS_setns, -1, 0x10);

	/* scheduling policies */
	struct sched_param sp = { 0 };
	syscall(SYS_sched_setscheduler, 0, SCHED_OTHER | SCHED_RESET_ON_FORK, &sp);
	syscall(SYS_sched_setscheduler, 0, SCHED_BATCH, &sp);
	syscall(SYS_sched_setscheduler, 0, 42, &sp);
	syscall(SYS_sched_setscheduler, 0, SCHED_IDLE, BAD);
	syscall(SYS_sched_getscheduler, 0);
	syscall(SYS_sched_get_priority_max, SCHED_FIFO);
	syscall(SYS_sched_get_priority_min, SCHED_RR);
	syscall(SYS_sched_get_priority_max, 77);
	syscall(SYS_sched_setscheduler, 0, SCHED_OTHER, &sp);

	/* adjtimex / clock_adjtime: mode 0 only reads */
	struct timex tx;
	memset(&tx, 0, sizeof(tx));
	syscall(SYS_clock_adjtime, CLOCK_REALTIME, BAD);
	syscall(SYS_clock_adjtime, 99, &tx);
	tx.modes = ADJ_OFFSET_SS_READ;
	syscall(SYS_clock_adjtime, CLOCK_MONOTONIC, &tx);

	/* lseek whence */
	syscall(SYS_lseek, pfd[0], 0, SEEK_SET);
	syscall(SYS_lseek, pfd[0], 5, SEEK_DATA);
	syscall(SYS_lseek, pfd[0], -1, SEEK_HOLE);
	syscall(SYS_lseek, pfd[0], 0, 9);

	/* memory management flags */
	void *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_msync, m, 4096, MS_SYNC | MS_INVALIDATE);
	syscall(SYS_msync, m, 4096, MS_ASYNC | 0x10);
	syscall(SYS_mremap, m, 8192, 4096, 0);
	syscall(SYS_mremap, m, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED | 0x100, BAD);
	syscall(SYS_mlockall, 0x40);
	syscall(SYS_munlockall);

	/* getrandom flags */
	char buf[4];
	syscall(SYS_getrandom, buf, 0, GRND_NONBLOCK | GRND_RANDOM);
	syscall(SYS_getrandom, buf, 0, GRND_INSECURE);
	syscall(SYS_getrandom, buf, 0, 0x80);

	/* pidfd_send_signal with a non-pidfd */
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	syscall(SYS_pidfd_send_signal, pfd[0], SIGUSR1, NULL, 0);
	syscall(SYS_pidfd_send_signal, pfd[0], 0, &si, 1);

	/* rseq with bad arguments */
	syscall(SYS_rseq, NULL, 0, 0, 0);
	syscall(SYS_rseq, BAD, 32, 1 /* RSEQ_FLAG_UNREGISTER */, 0x53053053);
	syscall(SYS_rseq, BAD, 32, 2, 0);
	return 0;
}
