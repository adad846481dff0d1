/* A target for -e inject= / -e fault=: every call's result and errno are printed,
 * so a test sees what the tracee saw, not only what the tracer printed.
 *
 * Usage: tamper [fork | exec]
 *
 * Each process runs the same sequence of calls the dynamic loader and libc
 * startup never make (chdir, umask, getuid via syscall(), fchdir), so
 * "when=" occurrence numbers count only these.  With "fork" a child runs the
 * sequence before its parent (which waits for it), so a per-process counter
 * and a shared one give different results.  SIGCHLD is blocked so its
 * delivery point does not depend on scheduling.  A SIGUSR1/SIGUSR2 handler
 * prints the signal, for "signal=".  The output goes through write(2) of a
 * formatted buffer, one line per call, and stays untouched by the injections
 * these tests make.  With "exec" (for -b execve) a forked child execs /bin/true
 * while the parent only waits for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *who = "parent";

static void say(const char *what, long rc, int err)
{
    char line[160];
    int n = snprintf(line, sizeof line, "%s %s = %ld%s%s\n", who, what, rc,
                     rc < 0 ? " " : "", rc < 0 ? strerrorname_np(err) : "");
    write(1, line, n);
}

static void handler(int sig)
{
    char line[64];
    int n = snprintf(line, sizeof line, "%s got %s\n", who, sigabbrev_np(sig));
    write(1, line, n);
}

static void sequence(void)
{
    char path[16];
    long rc;

    for (int i = 1; i <= 4; i++) {
        strcpy(path, ".");
        errno = 0;
        rc = syscall(SYS_chdir, path);
        say("chdir", rc, errno);
    }
    strcpy(path, "..");
    errno = 0;
    rc = syscall(SYS_chdir, path);
    say(path, rc, errno);  /* the path as the tracee sees it after the call: poke_enter shows here */

    for (int i = 1; i <= 3; i++) {
        errno = 0;
        rc = syscall(SYS_getuid);
        say("getuid", rc, errno);
    }
    errno = 0;
    rc = syscall(SYS_umask, 022);
    say("umask", rc, errno);
    errno = 0;
    rc = syscall(SYS_fchdir, 99);
    say("fchdir", rc, errno);
}

int main(int argc, char **argv)
{
    struct sigaction sa;
    sigset_t chld;
    int status;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGUSR2, &sa, NULL);
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);

    if (argc > 1 && strcmp(argv[1], "fork") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            who = "child";
            sequence();
            _exit(0);
        }
        wait4(pid, &status, 0, NULL);
    }
    if (argc > 1 && strcmp(argv[1], "exec") == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        wait4(pid, &status, 0, NULL);
        return WEXITSTATUS(status);
    }
    sequence();
    return 0;
}
