/* fork + child exit(3) + wait4, then vfork + exec /bin/true + wait4.
 *
 * SIGCHLD is blocked for the whole run: otherwise where "--- SIGCHLD" lands
 * relative to wait4 depends on scheduling, and the trace would not be
 * deterministic.
 */
#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
    sigset_t chld;
    int status;

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);

    pid_t pid = fork();
    if (pid == 0)
        _exit(3);
    wait4(-1, &status, 0, NULL);

    pid = vfork();
    if (pid == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    wait4(pid, &status, 0, NULL);
    wait4(-1, &status, WNOHANG, NULL);   /* ECHILD */
    return WEXITSTATUS(status);
}
