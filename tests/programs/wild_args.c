/* wild_args: replay a file of raw syscalls (number + 6 argument words) in a sandbox.
 *
 * Driven by tests/faults/test_wild_args.py, which generates the calls with a fixed seed
 * (wild high bits, -1, huge lengths, wild pointers) and decides what is safe to call;
 * this program only executes them, so strace and pytrace can be compared on the same run.
 *
 * Usage: wild_args RECORDS_FILE
 * The file is a sequence of records of 8 little-endian uint64 words:
 *   nr, arg0..arg5, control
 * control bits 0-7: how to fill the scratch area before the call (see fill_scratch);
 * bit 8: close every descriptor >= FIRST_FREE_FD after the call (the call may create fds);
 * bits 32-63: seed of the scratch contents.
 *
 * Sandbox (set up before the first record, so the tracers see the same set-up calls):
 * own mount/net/ipc/uts/pid namespaces (unshare), tmpfs over /tmp, /var/tmp and /dev/shm,
 * a fresh cwd on that tmpfs, the fuzzing process is pid 1 of its pid namespace and leader of
 * its own session (so kill(0, ...) and kill(1, ...) only reach itself, and the kernel ignores
 * fatal signals it sends itself), RLIMITs (no new processes, small files and address space,
 * no core dumps), every catchable signal but SIGALRM ignored, then uid/gid 65534 (nobody)
 * with no supplementary groups.  Each call is preceded by alarm(2) with a SIGALRM handler
 * installed without SA_RESTART, so a call that blocks is interrupted instead of hanging.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCRATCH ((char *)0x200000000UL) /* random-ish bytes, refilled before each call */
#define SCRATCH_SIZE 0x10000UL
#define ZERO ((char *)0x200010000UL) /* all zero bytes: valid empty structs, zero timeouts */
#define ZERO_SIZE 0x1000UL
#define FIRST_FREE_FD 10

static uint64_t rng;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void fill_scratch(unsigned mode, uint64_t seed)
{
	uint64_t *w = (uint64_t *)SCRATCH;
	size_t n = SCRATCH_SIZE / 8;

	memset(ZERO, 0, ZERO_SIZE);
	rng = seed * 2654435761u + 0x9e3779b97f4a7c15ULL;
	switch (mode) {
	case 0: /* zeros */
		memset(SCRATCH, 0, SCRATCH_SIZE);
		break;
	case 1: /* random bytes */
		for (size_t i = 0; i < n; i++)
			w[i] = next();
		break;
	case 2: /* a short path, then small integers: plausible flags, counts and lengths */
		for (size_t i = 0; i < n; i++)
			w[i] = (next() & 0xf) | ((next() & 0x7) << 32);
		strcpy(SCRATCH, "wild");
		break;
	default: /* words that are pointers into the scratch area or small lengths: iovecs, msghdrs */
		for (size_t i = 0; i < n; i++) {
			uint64_t r = next();
			w[i] = (r & 1) ? (uint64_t)SCRATCH + ((r >> 8) & 0xff0) : (r >> 8) & 0x1f;
		}
		break;
	}
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A fault in the fuzzer itself ends it with status 100 + signal.  Without a handler the
 * kernel ignores the fault of a traced pid-namespace init and restarts the faulting
 * instruction forever.  The same signals sent by a fuzzed kill/tgkill/rt_sigqueueinfo
 * (si_code <= 0) are ignored. */
static void on_fault(int sig, siginfo_t *info, void *ucontext)
{
	(void)ucontext;
	if (info->si_code > 0)
		_exit(100 + sig);
}

static void die(const char *what)
{
	perror(what);
	_exit(111);
}

static void sandbox_mounts(void)
{
	static const char *const dirs[] = {"/tmp", "/var/tmp", "/dev/shm"};

	if (mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL))
		die("mount --make-rprivate /");
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (mount("wild", dirs[i], "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=1777"))
			die(dirs[i]);
	if (mkdir("/tmp/w", 0777) || chown("/tmp/w", 65534, 65534) || chdir("/tmp/w"))
		die("/tmp/w");
}

static void open_fds(void)
{
	int p[2], s[2];
	int null = open("/dev/null", O_RDWR);

	if (null < 0)
		die("/dev/null");
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	if (null > 2)
		close(null);
	/* fds 3..9: a pipe, a socketpair, an eventfd, a file, a directory; all non-blocking */
	if (pipe2(p, O_NONBLOCK) || p[0] != 3)
		die("pipe2");
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, s) || s[0] != 5)
		die("socketpair");
	if (eventfd(1, EFD_NONBLOCK) != 7)
		die("eventfd");
	if (open("file", O_RDWR | O_CREAT | O_NONBLOCK, 0644) != 8)
		die("file");
	if (open(".", O_RDONLY | O_DIRECTORY) != 9)
		die("dir");
	if (write(8, "wild args file contents\n", 24) != 24)
		die("write");
}

static void limits(void)
{
	static const struct { int res; rlim_t value; } table[] = {
		{RLIMIT_NPROC, 0}, {RLIMIT_CORE, 0}, {RLIMIT_FSIZE, 1 << 20},
		{RLIMIT_AS, 1UL << 30}, {RLIMIT_NOFILE, 64}, {RLIMIT_MEMLOCK, 0},
		{RLIMIT_CPU, 120}, {RLIMIT_MSGQUEUE, 1 << 16}, {RLIMIT_LOCKS, 16},
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		struct rlimit rl = {table[i].value, table[i].value};
		if (setrlimit(table[i].res, &rl))
			die("setrlimit");
	}
}

static void signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	for (int sig = 1; sig < 32; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP || sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
		    sig == SIGFPE || sig == SIGTRAP || sig == SIGSYS || sig == SIGABRT || sig == SIGALRM)
			continue;
		sigaction(sig, &sa, NULL);
	}
	sa.sa_handler = on_alarm; /* no SA_RESTART: a blocked call returns EINTR */
	if (sigaction(SIGALRM, &sa, NULL))
		die("sigaction");
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	for (int sig = 1; sig < 32; sig++)
		if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP ||
		    sig == SIGSYS || sig == SIGABRT)
			sigaction(sig, &sa, NULL);
}

static int fuzz(const uint64_t *rec, size_t count)
{
	sigset_t none;

	sigemptyset(&none);
	if (setsid() < 0)
		die("setsid");
	if (mmap(SCRATCH, SCRATCH_SIZE + ZERO_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0) != SCRATCH)
		die("mmap scratch");
	open_fds();
	limits();
	signals();
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		die("drop privileges");
	for (size_t i = 0; i < count; i++, rec += 8) {
		fill_scratch(rec[7] & 0xff, rec[7] >> 32);
		alarm(2);
		syscall(rec[0], rec[1], rec[2], rec[3], rec[4], rec[5], rec[6]);
		if (rec[7] & 0x100)
			syscall(SYS_close_range, FIRST_FREE_FD, ~0U, 0);
		if (rec[0] == SYS_rt_sigprocmask)
			sigprocmask(SIG_SETMASK, &none, NULL);
	}
	alarm(0);
	return 0;
}

int main(int argc, char **argv)
{
	FILE *f;
	long size;
	uint64_t *rec;
	pid_t pid;
	int status;

	if (argc != 2) {
		fprintf(stderr, "usage: %s RECORDS_FILE\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || size % 64 || fseek(f, 0, SEEK_SET))
		die(argv[1]);
	rec = malloc(size);
	if (!rec || fread(rec, 1, size, f) != (size_t)size)
		die("read records");
	fclose(f);
	if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWPID))
		die("unshare");
	sandbox_mounts();
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0)
		_exit(fuzz(rec, size / 64));
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "wild_args: fuzzing child killed by signal %d\n", WTERMSIG(status));
		return 112;
	}
	return WEXITSTATUS(status);
}
