/* Makes N getppid() calls with every signal blocked and a handler on each catchable one, then
 * reports what it saw: exits 0 only if no signal ever reached a handler and none is pending.
 * Under pytrace's eBPF backpressure (a thread held with a swallowed SIGSTOP) it must exit 0.
 * Usage: unobserved N */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void handler(int sig)
{
    caught = sig;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    struct sigaction sa = { .sa_handler = handler };
    sigset_t all, pending;

    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &sa, NULL);                  /* SIGKILL/SIGSTOP fail: EINVAL */
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    for (long i = 0; i < n; i++)
        getppid();
    sigpending(&pending);
    int count = 0;
    for (int sig = 1; sig < NSIG; sig++)
        count += sigismember(&pending, sig) == 1;
    sigprocmask(SIG_UNBLOCK, &all, NULL);          /* a pending one would run its handler now */
    printf("pending %d caught %d\n", count, (int)caught);
    return count || caught;
}
