/* Where -Y (--decode-pids=comm) names processes: pid arguments and results, siginfo, the -f prefix.
 *
 * SIGCHLD is blocked so its delivery never races the waits.  The child renames
 * itself with prctl(PR_SET_NAME) (strace re-reads a tracee's name then, even
 * when prctl is not traced) and is killed by SIGTERM in sigsuspend(); the parent
 * renames itself twice, the first time right after a failed kill (strace 6.1
 * then keeps the old name in its line prefix), kills the child, and reaps it
 * with waitid (still there: named) and wait4 (a reaped pid: no name left).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    sigset_t chld;
    siginfo_t si;
    struct rlimit rl;
    int p[2], go[2];
    char c;

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    pid_t me = getpid();
    getppid();
    syscall(SYS_gettid);
    kill(me, 0);
    syscall(SYS_tkill, me, 0);
    syscall(SYS_tgkill, me, me, 0);
    prlimit(me, RLIMIT_NOFILE, NULL, &rl);
    prctl(PR_SET_NAME, "first");
    getpid();
    kill(-1234567, 0);                       /* a process group: never named; fails */
    prctl(PR_SET_NAME, "renamed");           /* the prefix keeps "first" */
    getpid();
    prctl(PR_SET_NAME, "renamed");           /* now it changes */
    getpid();

    pipe(p);
    pipe(go);
    pid_t kid = fork();
    if (kid == 0) {
        sigset_t term, none;
        sigemptyset(&term);
        sigaddset(&term, SIGTERM);
        sigemptyset(&none);
        sigprocmask(SIG_BLOCK, &term, NULL);  /* pending until sigsuspend, wherever it arrives */
        read(go[0], &c, 1);                   /* renamed only after fork has returned in the parent */
        prctl(PR_SET_NAME, "kid");
        write(p[1], "r", 1);
        sigsuspend(&none);
        _exit(3);
    }
    write(go[1], "g", 1);
    read(p[0], &c, 1);                       /* the child has its new name */
    kill(kid, SIGTERM);
    waitid(P_PID, kid, &si, WEXITED | WNOWAIT);
    wait4(kid, NULL, 0, NULL);
    return 0;
}
