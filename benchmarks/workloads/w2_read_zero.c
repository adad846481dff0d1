/* W2: N one-byte read()s of /dev/zero: a call with a buffer argument the tracer must fetch and print.
 * Usage: w2_read_zero N */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "loop_clock.h"

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    char c;
    int fd = open("/dev/zero", O_RDONLY);
    if (fd < 0) {
        perror("/dev/zero");
        return 1;
    }
    long long start = loop_now();
    for (long i = 0; i < n; i++)
        if (read(fd, &c, 1) != 1)
            return 1;
    loop_report(start, n);
    return close(fd) != 0;
}
