/* Like sleeper, but with three extra threads doing the same, for attach-to-all-threads tests. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void *loop(void *arg)
{
    struct timespec tick = { 0, 50 * 1000 * 1000 };

    (void)arg;
    for (;;) {
        nanosleep(&tick, NULL);
        getppid();
    }
    return NULL;
}

int main(void)
{
    pthread_t t;

    for (int i = 0; i < 3; i++)
        pthread_create(&t, NULL, loop, NULL);
    /* Printed only once all threads exist, so an attach sees all four. */
    printf("%d\n", (int)getpid());
    fflush(stdout);
    loop(NULL);
    return 0;
}
