/* The workload's own clock around its syscall loop, for the suite's "inside the traced program"
 * figure: what the tracer adds to each syscall while the program runs, without the tracer's
 * start-up, its exit, or the time its consumer needs after the program has ended.
 * With BENCH_LOOP_FILE set, loop_report() writes "NANOSECONDS CALLS\n" there (CLOCK_MONOTONIC,
 * read through the vDSO: no syscall of its own inside the loop); without it, nothing is done. */
#ifndef LOOP_CLOCK_H
#define LOOP_CLOCK_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline long long loop_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline void loop_report(long long start, long calls)
{
    long long ns = loop_now() - start;
    const char *path = getenv("BENCH_LOOP_FILE");
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    fprintf(f, "%lld %ld\n", ns, calls);
    fclose(f);
}
#endif
