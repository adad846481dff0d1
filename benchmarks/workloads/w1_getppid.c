/* W1: N getppid() calls, the cheapest real system call: the tracer's per-stop cost dominates.
 * Usage: w1_getppid N */
#include <stdlib.h>
#include <unistd.h>
#include "loop_clock.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    long long start = loop_now();
    for (long i = 0; i < n; i++)
        getppid();
    loop_report(start, n);
    return 0;
}
