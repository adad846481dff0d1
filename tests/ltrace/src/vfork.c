/* vfork, then exec or _exit in the child (issue 16): the child's return from vfork, its calls in the
 * parent's memory, "--- Called exec() ---", and the parent resuming only once the child let go.
 * "exec": SIGCHLD is blocked so that the child's exit (it runs another program) cannot race the
 * parent's lines; "exit": the parent is held in vfork until the child's _exit, so its SIGCHLD comes
 * deterministically before vfork returns in the parent. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status = 0;
	int do_exec = argc > 1 && strcmp(argv[1], "exec") == 0;
	if (do_exec) {
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGCHLD);
		sigprocmask(SIG_BLOCK, &set, NULL);
	}
	pid_t pid = vfork();
	if (pid == 0) {
		if (strlen(argv[0]) == 0)
			_exit(2);
		if (do_exec) {
			execl("/bin/true", "true", (char *)0);
			_exit(127);
		}
		_exit(3);
	}
	waitpid(pid, &status, 0);
	printf("status %d\n", WEXITSTATUS(status));
	puts(strlen(argv[0]) ? "done" : "?");
	return 0;
}
