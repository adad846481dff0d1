/*
 * ioctl(-1, REQ, 0) for every request code listed in a file (one hex number a line), so that the
 * request names a tracer prints for a whole table can be compared (tests/differential/
 * test_ioctl_names.py); the calls fail with EBADF and touch nothing.  Built -m64 and -m32: the
 * same codes name different requests on each personality.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CODES-FILE\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    char line[64];
    while (fgets(line, sizeof(line), f))
        ioctl(-1, (unsigned long) strtoul(line, NULL, 16), 0);
    fclose(f);
    return 0;
}
