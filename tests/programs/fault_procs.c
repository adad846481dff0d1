/* Process shapes at the edges of what a tracer follows, for tests/faults.
 *
 *   fault_procs leader-exit   the leader calls exit(42) (SYS_exit: the thread only); once it is a
 *                             zombie, a second thread execs this program ("done": exit 0)
 *   fault_procs leader-read   a second thread execs ("done") while the leader blocks in readv(2)
 *   fault_procs clone-ptrace  raw clone(CLONE_PTRACE|SIGCHLD): the child writes a line and exits 3;
 *                             the parent waits for it
 *   fault_procs clone-parent  raw clone(CLONE_PARENT): the child (our sibling: the tracer's child)
 *                             exits 4; a second one is killed by SIGTERM; the parent waits on a pipe
 *                             until both are gone
 *   fault_procs done          exits 0
 * Ordering between threads is made deterministic by /proc and pipes, never by sleeping alone.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *self;
static pid_t leader;
static int fds[2];

/* The leader's state letter (Z once it has exited) or, for "syscall", its current syscall number. */
static int leader_state(void)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", leader, leader);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

static long leader_syscall(void)
{
    char path[64];
    long nr = -2;
    snprintf(path, sizeof path, "/proc/%d/task/%d/syscall", leader, leader);
    FILE *f = fopen(path, "r");
    if (f) {
        if (fscanf(f, "%ld", &nr) != 1)
            nr = -2;
        fclose(f);
    }
    return nr;
}

static void pause_briefly(void)
{
    struct timespec t = { 0, 5 * 1000 * 1000 };
    nanosleep(&t, NULL);
}

static void exec_done(void)
{
    char *argv[] = { self, "done", NULL };
    char *envp[] = { NULL };
    syscall(SYS_execve, self, argv, envp);
}

static void *exec_after_exit(void *arg)
{
    (void)arg;
    while (leader_state() != 'Z')
        pause_briefly();
    exec_done();
    return NULL;
}

static void *exec_during_read(void *arg)
{
    (void)arg;
    /* S state and readv(2) as the current call: the leader is blocked in it */
    while (leader_state() != 'S' || leader_syscall() != SYS_readv)
        pause_briefly();
    exec_done();
    return NULL;
}

static char stack[2][65536];

static int child_main(void *arg)
{
    long code = (long)arg;
    if (code == 15)
        syscall(SYS_kill, syscall(SYS_getpid), SIGTERM);
    syscall(SYS_write, 1, "child\n", 6);
    syscall(SYS_exit, code);
    return 0;
}

int main(int argc, char **argv)
{
    pthread_t th;
    const char *mode = argc > 1 ? argv[1] : "";

    self = argv[0];
    leader = getpid();
    if (strcmp(mode, "done") == 0)
        return 0;
    if (strcmp(mode, "leader-exit") == 0) {
        pthread_create(&th, NULL, exec_after_exit, NULL);
        syscall(SYS_exit, 42);
    }
    if (strcmp(mode, "leader-read") == 0) {
        char c;
        struct iovec iov = { &c, 1 };
        if (pipe(fds))
            return 1;
        pthread_create(&th, NULL, exec_during_read, NULL);
        syscall(SYS_readv, fds[0], &iov, 1);
        return 1;
    }
    if (strcmp(mode, "clone-ptrace") == 0) {
        int status;
        pid_t pid = clone(child_main, stack[0] + sizeof stack[0], CLONE_PTRACE | SIGCHLD, (void *)3L);
        if (pid < 0)
            return 1;
        if (waitpid(pid, &status, __WALL) != pid)
            return 1;
        return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? 0 : 1;
    }
    if (strcmp(mode, "clone-parent") == 0) {
        /* The children are not ours to wait for: we learn of their end from the pipe's write end
         * closing (each holds a copy until it exits). */
        char c;
        if (pipe(fds))
            return 1;
        if (clone(child_main, stack[0] + sizeof stack[0], CLONE_PARENT | SIGCHLD, (void *)4L) < 0)
            return 1;
        if (clone(child_main, stack[1] + sizeof stack[1], CLONE_PARENT | SIGCHLD, (void *)15L) < 0)
            return 1;
        close(fds[1]);
        while (read(fds[0], &c, 1) > 0)
            ;
        return 0;
    }
    return 2;
}
