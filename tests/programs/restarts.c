/* Syscalls interrupted by signals and restarted, for -n (and restart_syscall's name).
 *
 * "sleep": getppid, then a 900 ms nanosleep interrupted twice by SIGWINCH from two
 * one-shot POSIX timers (at 150 and 450 ms).  SIGWINCH is ignored by default, so the
 * kernel restarts the sleep with restart_syscall each time -- the second restart
 * resumes an interrupted restart_syscall.  Timers, not another process, send the
 * signals: no SIGCHLD races with the lines.
 * "read": a read on an empty pipe interrupted by SIGUSR1 (handler, SA_RESTART) at
 * 150 ms -- the same read is restarted by the kernel (ERESTARTSYS) -- then by SIGALRM
 * at 450 ms whose handler writes the byte the read returns.
 */
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fds[2];

static void on_usr1(int sig) { (void)sig; }
static void on_alrm(int sig) { (void)sig; (void)!write(fds[1], "x", 1); }

static void arm(int sig, long ms)
{
    struct sigevent sev;
    timer_t id;
    struct itimerspec when = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000000L } };

    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = sig;
    timer_create(CLOCK_MONOTONIC, &sev, &id);
    timer_settime(id, 0, &when, NULL);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "read") == 0) {
        struct sigaction sa;
        char c;

        memset(&sa, 0, sizeof sa);
        sa.sa_flags = SA_RESTART;
        sa.sa_handler = on_usr1;
        sigaction(SIGUSR1, &sa, NULL);
        sa.sa_handler = on_alrm;
        sigaction(SIGALRM, &sa, NULL);
        if (pipe(fds) != 0)
            return 1;
        arm(SIGUSR1, 150);
        arm(SIGALRM, 450);
        return read(fds[0], &c, 1) == 1 ? 0 : 1;
    }
    struct timespec ts = { 0, 900 * 1000 * 1000 };

    syscall(SYS_getppid);
    arm(SIGWINCH, 150);
    arm(SIGWINCH, 450);
    return nanosleep(&ts, NULL);
}
