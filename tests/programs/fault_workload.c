/* A multi-threaded workload that outlives its tracer, for tests/faults.
 *
 *   fault_workload DONEFILE [THREADS]
 *
 * Forks one child process; the leader then starts THREADS (default 3) threads.
 * Every thread and the child loop on cheap syscalls (getppid, a 1 ms nanosleep,
 * a write to /dev/null) until DONEFILE exists.  Prints "ready PID CHILDPID" once
 * everything runs.  At the end the child exits 5; the leader joins its threads,
 * waits for the child and exits 0 only if the child's status was exit(5) and every
 * write succeeded (a call that failed, e.g. ENOSYS from a filter left behind by a
 * tracer, makes it exit 1).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *done_file;
static volatile int failures;

static void spin(void)
{
    struct timespec t = { 0, 1000 * 1000 };
    int fd = open("/dev/null", O_WRONLY);

    if (fd < 0)
        failures++;
    while (access(done_file, F_OK) != 0) {
        syscall(SYS_getppid);
        if (write(fd, "x", 1) != 1)
            failures++;
        nanosleep(&t, NULL);
    }
    close(fd);
}

static void *thread_main(void *arg)
{
    (void)arg;
    spin();
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t th[16];
    int n = argc > 2 ? atoi(argv[2]) : 3;
    int status;

    if (argc < 2 || n < 0 || n > 16)
        return 2;
    done_file = argv[1];
    pid_t child = fork();
    if (child == 0) {
        spin();
        _exit(failures ? 1 : 5);
    }
    for (int i = 0; i < n; i++)
        pthread_create(&th[i], NULL, thread_main, NULL);
    printf("ready %d %d\n", getpid(), child);
    fflush(stdout);
    spin();
    for (int i = 0; i < n; i++)
        pthread_join(th[i], NULL);
    if (waitpid(child, &status, 0) != child)
        return 1;
    return (!failures && WIFEXITED(status) && WEXITSTATUS(status) == 5) ? 0 : 1;
}
