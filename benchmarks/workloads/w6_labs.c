/* W6: N calls of labs() through the PLT, nothing else: the per-call cost of a library-call tracer.
 * Usage: w6_labs N
 * Built with -fno-builtin (gcc would otherwise inline labs() as a few instructions) and the
 * argument is volatile, so every iteration really calls libc's labs() through the PLT. */
#include <stdlib.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
    volatile long x = -1;
    long sum = 0;
    for (long i = 0; i < n; i++)
        sum += labs(x);
    return sum == n ? 0 : 1;
}
