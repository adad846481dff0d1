/* W8: N hits of one USDT probe (bench:hit, its argument the loop counter), nothing else: the per-hit
 * cost of a USDT tracer (pyltrace -e usdt:bench:hit on either backend, bpftrace usdt:).
 * Usage: w8_usdt N [time]
 * The probe is a nop with a note (<sys/sdt.h>, Debian's systemtap-sdt-dev); untraced, the loop costs
 * next to nothing.  No semaphore: every tracer pays the same trap, none computes extra arguments.
 * "time": the loop's own duration per hit in ns on stderr -- the cost inside the traced program (the
 * uprobe trap and the BPF program), apart from what a tracer spends printing elsewhere. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++)
        STAP_PROBE1(bench, hit, i);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (argc > 2 && strcmp(argv[2], "time") == 0 && n > 0)
        fprintf(stderr, "loop %.1f ns/hit\n",
                ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / (double)n);
    return 0;
}
