/* Runs until killed: prints its pid, then nanosleep(50 ms) + getppid() forever. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    struct timespec tick = { 0, 50 * 1000 * 1000 };

    printf("%d\n", (int)getpid());
    fflush(stdout);
    for (;;) {
        nanosleep(&tick, NULL);
        getppid();
    }
}
