/* Threads that end on command, for "the tracer ends when what it attached to has exited" tests.
 *
 * Prints "PID TID" (TID: the worker thread) once both threads exist.  The worker reads
 * commands from stdin, one letter per line:
 *   g  call getppid() in the worker (a syscall the trace can be watched for)
 *   G  call getppid() in the main thread
 *   u  call getuid() in the worker, U in the main thread (a second syscall, told apart from getppid)
 *   m  make the main thread pthread_exit(): the leader turns zombie, the process goes on
 *   t  make the worker itself pthread_exit(): the main thread goes on (blocked on its pipe)
 *   q  exit_group(0) from the worker
 * g, G, u and U are acknowledged on stdout ("ok g", ...) once done.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int to_main[2];

static void *worker(void *arg)
{
    char line[16];

    (void)arg;
    printf("%d %ld\n", (int)getpid(), (long)syscall(SYS_gettid));
    fflush(stdout);
    while (fgets(line, sizeof(line), stdin)) {
        switch (line[0]) {
        case 'g':
            getppid();
            break;
        case 'u':
            getuid();
            break;
        case 'm':
        case 'G':
        case 'U':
            /* the main thread acknowledges G; its exit (m) is seen by the test in /proc */
            if (write(to_main[1], line, 1) != 1)
                exit(1);
            continue;
        case 't':
            pthread_exit(NULL);
        case 'q':
            exit(0);
        default:
            continue;
        }
        printf("ok %c\n", line[0]);
        fflush(stdout);
    }
    exit(0);
}

int main(void)
{
    pthread_t t;
    char c;

    if (pipe(to_main) != 0 || pthread_create(&t, NULL, worker, NULL) != 0)
        return 1;
    while (read(to_main[0], &c, 1) == 1) {
        if (c == 'm')
            pthread_exit(NULL);
        if (c == 'U')
            getuid();
        else
            getppid();
        printf("ok %c\n", c);
        fflush(stdout);
    }
    return 0;
}
