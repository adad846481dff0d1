/* W5: THREADS threads sharing N system calls, alternating getppid() and a one-byte read of /dev/zero,
 * so the tracer handles stops from several threads at once (ptrace serialises them, eBPF does not).
 * Usage: w5_threads THREADS N     (N is the total number of loop syscalls, split evenly) */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "loop_clock.h"

static long per_thread;

static void *worker(void *arg)
{
    (void)arg;
    char c;
    int fd = open("/dev/zero", O_RDONLY);
    if (fd < 0)
        return (void *)1;
    for (long i = 0; i < per_thread; i += 2) {
        getppid();
        if (read(fd, &c, 1) != 1)
            return (void *)1;
    }
    close(fd);
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    long n = argc > 2 ? atol(argv[2]) : 200000;
    if (threads < 1 || threads > 64)
        return 2;
    per_thread = n / threads;
    pthread_t tids[64];
    /* The loop clock spans the threads' creation to their last join: every loop syscall is inside. */
    long long start = loop_now();
    for (int t = 0; t < threads; t++)
        if (pthread_create(&tids[t], NULL, worker, NULL) != 0)
            return 1;
    int failed = 0;
    for (int t = 0; t < threads; t++) {
        void *ret;
        pthread_join(tids[t], &ret);
        failed |= ret != NULL;
    }
    loop_report(start, (per_thread + per_thread % 2) * threads);  /* each round makes two calls */
    return failed;
}
