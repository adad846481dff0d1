/* Known syscall counts for the -c/-C summary tests.
 *
 * 1000 getppid, 500 openat that fail (ENOENT), 20 close(-1) (EBADF), 3 chdir(".")
 * that succeed and 2 chdir that fail: counts, errors and the order under
 * -S calls/errors/name are fixed, whatever the timing.
 * With "fork": two children, one after the other, each doing 100 getppid and
 * 10 failing openat before _exit(0); the parent waits for each (so -f sums
 * three processes).  SIGCHLD is blocked first, as in forker.c: a SIGCHLD
 * arriving while waitpid blocks would make it return ERESTARTSYS and be called
 * again, depending on scheduling.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string.h>

static void work(int getppids, int opens)
{
    for (int i = 0; i < getppids; i++)
        syscall(SYS_getppid);
    for (int i = 0; i < opens; i++)
        openat(AT_FDCWD, "/nonexistent/summary", O_RDONLY);
}

int main(int argc, char **argv)
{
    work(1000, 500);
    for (int i = 0; i < 20; i++)
        close(-1);
    for (int i = 0; i < 3; i++)
        chdir(".");
    for (int i = 0; i < 2; i++)
        chdir("/nonexistent/summary");
    if (argc > 1 && strcmp(argv[1], "fork") == 0) {
        sigset_t chld;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL);
        for (int c = 0; c < 2; c++) {
            pid_t pid = fork();
            if (pid == 0) {
                work(100, 10);
                _exit(0);
            }
            waitpid(pid, NULL, 0);
        }
    }
    return 0;
}
