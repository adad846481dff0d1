/* Part of usdt.c's program: a probe behind a semaphore (sys/sdt.h's _SDT_HAS_SEMAPHORES convention). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

unsigned short tracetest_guarded_semaphore __attribute__((section(".probes")));

int guarded_hit(int i) {
    if (!tracetest_guarded_semaphore)
        return 0;
    STAP_PROBE1(tracetest, guarded, i * 10);
    return 1;
}
