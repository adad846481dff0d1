/* Known call chains for the -k (stack trace) tests, built by tests/differential/test_stack.py with
 * several flag sets (frame pointers or not, with or without CFI, stripped + MiniDebugInfo):
 *
 *   main -> f1 -> f2 -> getpid          a chain of our own functions
 *   main -> puts -> ... -> write        a syscall deep inside libc (stdout is line buffered)
 *   handler -> getppid                  unwinding through the signal trampoline back into raise()
 *   clock_gettime(CPUTIME) -> [vdso]    a syscall made from the vDSO (no ELF file to read)
 *   exit_group                          walked at entry, printed after "+++ exited with 0 +++"
 *
 * "exec": a child execs /bin/true (walked at entry in the old image, printed at exit).
 * "thread": a thread's syscall and exit (its stack ends in clone3's child path).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) int f2(void)
{
	int r = getpid();
	__asm__ volatile("" ::: "memory"); /* no tail call: f2 keeps a frame at -O2 too */
	return r;
}

__attribute__((noinline)) int f1(void)
{
	int r = f2();
	__asm__ volatile("" ::: "memory");
	return r + 1;
}

static void handler(int sig)
{
	(void)sig;
	getppid();
	__asm__ volatile("" ::: "memory");
}

static void *thread_main(void *arg)
{
	(void)arg;
	getppid();
	__asm__ volatile("" ::: "memory");
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec ts;

	setvbuf(stdout, NULL, _IOLBF, 0);
	f1();
	puts("hello from puts");
	signal(SIGUSR1, handler);
	raise(SIGUSR1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	if (argc > 1 && strcmp(argv[1], "exec") == 0) {
		sigset_t set;
		pid_t pid;

		/* SIGCHLD would land at a scheduling-dependent point: keep it pending. */
		sigemptyset(&set);
		sigaddset(&set, SIGCHLD);
		sigprocmask(SIG_BLOCK, &set, NULL);
		pid = fork();
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		waitpid(pid, NULL, 0);
	}
	if (argc > 1 && strcmp(argv[1], "thread") == 0) {
		pthread_t t;

		pthread_create(&t, NULL, thread_main, NULL);
		pthread_join(t, NULL);
	}
	return 0;
}
