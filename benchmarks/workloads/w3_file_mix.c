/* W3: N x (openat, fstat, read, close) of FILE, each followed by some CPU work on the data read,
 * so the syscalls are a realistic fraction of the run time rather than all of it.
 * Usage: w3_file_mix N FILE */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* About 20 us of integer work per iteration on a 2020s x86 core (xorshift steps the compiler cannot fold). */
#define CPU_STEPS 8000

static volatile uint64_t sink;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000;
    const char *path = argc > 2 ? argv[2] : "/etc/os-release";
    char buf[4096];
    struct stat st;
    for (long i = 0; i < n; i++) {
        int fd = openat(AT_FDCWD, path, O_RDONLY);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        if (fstat(fd, &st) != 0)
            return 1;
        ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0)
            return 1;
        close(fd);
        uint64_t x = (uint64_t)got + (uint64_t)i + 0x9e3779b97f4a7c15ULL;
        for (int k = 0; k < CPU_STEPS; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x += (unsigned char)buf[k % (got > 0 ? got : 1)];
        }
        sink = x;
    }
    return 0;
}
