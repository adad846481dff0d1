/* libusdtlib.so for usdt.c: a probe in a shared library (loaded at a bias), behind a semaphore. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short usdtlib_hit_semaphore __attribute__((section(".probes")));

unsigned short *usdtlib_semaphore(void) { return &usdtlib_hit_semaphore; }

int usdtlib_hit(int i) {
    if (!usdtlib_hit_semaphore)
        return 0;
    long big = 1000000000000L + i;
    STAP_PROBE2(usdtlib, hit, i, big);
    return 1;
}
