/* Handled SIGUSR1 via raise/kill/tgkill, a masked-then-unmasked signal, and SIGCHLD.
 *
 * Every signal is made pending while blocked (or sent to self, which delivers
 * it on return from the sending syscall), so the point where "--- SIG... ---"
 * appears in the trace is deterministic.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(int sig)
{
    write(1, sig == SIGCHLD ? "chld\n" : "usr1\n", 5);
}

int main(void)
{
    struct sigaction sa;
    sigset_t set;
    int status;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    sigaction(SIGCHLD, &sa, NULL);
    sigaction(SIGKILL, &sa, NULL);                 /* EINVAL */

    raise(SIGUSR1);
    kill(getpid(), SIGUSR1);
    syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1);

    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, NULL);
    kill(getpid(), SIGUSR1);                       /* stays pending */
    sigprocmask(SIG_UNBLOCK, &set, NULL);          /* delivered here */

    sigprocmask(SIG_BLOCK, &set, NULL);
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    wait4(pid, &status, 0, NULL);
    sigprocmask(SIG_UNBLOCK, &set, NULL);          /* SIGCHLD delivered here */

    signal(SIGUSR1, SIG_IGN);
    kill(getpid(), SIGUSR1);                       /* ignored, but still seen by the tracer */
    return 0;
}
