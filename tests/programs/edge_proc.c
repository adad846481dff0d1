/* Process and thread edge cases for -f, one per argv[1] mode.
 *
 * "mtexec": a second thread calls execve (of this program, mode "done") while the
 *   leader blocks in nanosleep: the leader is superseded and the thread takes its pid.
 * "vfork": vfork, the child execs "/bin/true"; the parent waits (SIGCHLD blocked until then).
 * "clone3": clone3 with CLONE_PIDFD; the child exits 5; the parent waits with waitid(P_PIDFD).
 * "threxit": a thread exits (SYS_exit) while the leader blocks in read on a pipe the
 *   thread wrote to just before; then the leader reads it.
 * "exitgroup": a thread calls exit_group(3) while the leader blocks in nanosleep.
 * "sleepers": four threads blocked in 10 s sleeps, for -p (prints its pid once they sleep).
 * "done": exits 0 (the target of "mtexec").
 * Ordering between threads is made deterministic by pipes, never by sleeping alone.
 */
#define _GNU_SOURCE
#include <linux/sched.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *self;
static int fds[2];

static void *execer(void *arg)
{
    char *argv[] = { self, "done", NULL };
    char *envp[] = { NULL };
    struct timespec t = { 0, 100 * 1000 * 1000 };

    (void)arg;
    nanosleep(&t, NULL); /* lets the leader enter its nanosleep first */
    syscall(SYS_execve, self, argv, envp);
    return NULL;
}

static void *exiter(void *arg)
{
    struct timespec t = { 0, 100 * 1000 * 1000 };

    (void)arg;
    nanosleep(&t, NULL);
    syscall(SYS_write, fds[1], "x", 1);
    syscall(SYS_exit, 0);
    return NULL;
}

static void *group_exiter(void *arg)
{
    struct timespec t = { 0, 100 * 1000 * 1000 };

    (void)arg;
    nanosleep(&t, NULL);
    syscall(SYS_exit_group, 3);
    return NULL;
}

static void *sleeper(void *arg)
{
    struct timespec t = { 10, 0 };

    (void)arg;
    for (;;)
        syscall(SYS_nanosleep, &t, NULL);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th;
    const char *mode = argc > 1 ? argv[1] : "";
    struct timespec longer = { 2, 0 };

    self = argv[0];
    if (strcmp(mode, "done") == 0)
        return 0;
    if (strcmp(mode, "mtexec") == 0) {
        pthread_create(&th, NULL, execer, NULL);
        syscall(SYS_nanosleep, &longer, NULL);
        return 1;
    }
    if (strcmp(mode, "vfork") == 0) {
        /* SIGCHLD is blocked until the child is reaped, so its delivery comes after wait4 in every
         * run: otherwise whether it lands before or during the wait depends on scheduling. */
        int status;
        sigset_t chld, old;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, &old);
        pid_t pid = vfork();
        if (pid == 0) {
            char *args[] = { "true", NULL };
            execve("/bin/true", args, (char *[]){ NULL });
            _exit(127);
        }
        wait4(pid, &status, 0, NULL);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return 0;
    }
    if (strcmp(mode, "clone3") == 0) {
        int pidfd = -1;
        struct clone_args ca;
        siginfo_t info;
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL); /* no SIGCHLD racing with waitid */
        memset(&ca, 0, sizeof ca);
        ca.flags = CLONE_PIDFD;
        ca.pidfd = (uintptr_t)&pidfd;
        ca.exit_signal = SIGCHLD;
        long pid = syscall(SYS_clone3, &ca, sizeof ca);
        if (pid == 0)
            syscall(SYS_exit_group, 5);
        syscall(SYS_waitid, P_PIDFD, pidfd, &info, WEXITED, NULL);
        close(pidfd);
        return 0;
    }
    if (strcmp(mode, "threxit") == 0) {
        char c;
        if (pipe(fds) != 0)
            return 2;
        pthread_create(&th, NULL, exiter, NULL);
        syscall(SYS_read, fds[0], &c, 1);
        syscall(SYS_nanosleep, &(struct timespec){ 0, 50 * 1000 * 1000 }, NULL);
        return 0;
    }
    if (strcmp(mode, "sleepers") == 0) {
        for (int i = 0; i < 3; i++)
            pthread_create(&th, NULL, sleeper, NULL);
        syscall(SYS_nanosleep, &(struct timespec){ 0, 100 * 1000 * 1000 }, NULL); /* all asleep */
        printf("%d\n", (int)getpid());
        fflush(stdout);
        sleeper(NULL);
    }
    if (strcmp(mode, "exitgroup") == 0) {
        pthread_create(&th, NULL, group_exiter, NULL);
        syscall(SYS_nanosleep, &longer, NULL);
        return 1;
    }
    return 2;
}
