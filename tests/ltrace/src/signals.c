/* A signal handled during the program, then death by SIGSEGV: the "---" and "+++ killed" lines. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void on_usr1(int sig) { (void)sig; }

int main(void) {
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    puts("after");
    fflush(stdout);
    volatile char *p = NULL;
    return (int)strlen((const char *)p);
}
