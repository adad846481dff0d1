/* -p: runs until told to stop (SIGUSR1), calling libc all the time; prints how many rounds it did. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_usr1(int sig) { (void)sig; stop = 1; }

int main(void) {
    signal(SIGUSR1, on_usr1);
    long rounds = 0;
    printf("ready\n");
    fflush(stdout);
    while (!stop) {
                usleep(2000);
        rounds++;
    }
    printf("done %d\n", rounds > 0);
    return 0;
}
