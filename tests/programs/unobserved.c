/* Makes N getppid() calls with a handler on each catchable signal, then reports what it saw:
 * exits 0 only if no signal ever reached a handler and none is pending.
 * By default every signal is blocked during the calls (pytrace's eBPF backpressure then holds the
 * thread with SIGSTOP, which cannot be blocked); with "unblocked" none is (it holds it with SIGURG).
 * Either way, under the backpressure stops (swallowed by pytrace) it must exit 0.
 * Usage: unobserved N [unblocked] */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void handler(int sig)
{
    caught = sig;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    int blocked = !(argc > 2 && strcmp(argv[2], "unblocked") == 0);
    struct sigaction sa = { .sa_handler = handler };
    sigset_t all, pending;

    for (int sig = 1; sig < NSIG; sig++)
        sigaction(sig, &sa, NULL);                  /* SIGKILL/SIGSTOP fail: EINVAL */
    sigfillset(&all);
    if (blocked)
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
