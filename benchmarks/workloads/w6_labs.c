/* W6: N calls of labs() through the PLT, nothing else: the per-call cost of a library-call tracer.
 * Usage: w6_labs N [time]
 * Built with -fno-builtin (gcc would otherwise inline labs() as a few instructions) and the
 * argument is volatile, so every iteration really calls libc's labs() through the PLT.
 * "time": the loop's own duration per call in ns on stderr -- the cost inside the traced program
 * (uprobe and uretprobe traps, the BPF programs), apart from what a tracer spends printing elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    volatile long x = -1;
    long sum = 0;
    int timing = argc > 2 && strcmp(argv[2], "time") == 0;  /* (no other library call without it) */
    struct timespec t0, t1;
    if (timing)
        clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++)
        sum += labs(x);
    if (timing && n > 0) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        fprintf(stderr, "loop %.1f ns/call\n",
                ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double)n);
    }
    return sum == n ? 0 : 1;
}
