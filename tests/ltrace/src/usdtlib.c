/* libusdtlib.so for usdt.c: a probe in a shared library (loaded at a bias), behind a semaphore.
 * Built a second time with -DPROVIDER=usdtdl as libusdtdl.so, which usdt.c dlopens ("dl" mode). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#ifndef PROVIDER
#define PROVIDER usdtlib
#endif
#define PASTE(a, b) a##b
#define SEMAPHORE(p) PASTE(p, _hit_semaphore)

unsigned short SEMAPHORE(PROVIDER) __attribute__((section(".probes")));

unsigned short *usdtlib_semaphore(void) { return &SEMAPHORE(PROVIDER); }

int usdtlib_hit(int i) {
    if (!SEMAPHORE(PROVIDER))
        return 0;
    long big = 1000000000000L + i;
    STAP_PROBE2(PROVIDER, hit, i, big);
    return 1;
}
