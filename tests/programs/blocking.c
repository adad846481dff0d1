/* Deterministic interleavings for the line-discipline tests of the output options.
 *
 * "wait": fork; the child waits until the parent sleeps in waitid (its /proc/PID/wchan says
 * do_wait), then exits 3: with -f the parent's waitid line is always interrupted by the child's
 * (waitid rather than wait4: its result is 0, not the child's pid, even on a line of its own).
 * The parent first reads a byte the child writes, so a tracer has seen the child (and counts two
 * processes) before the waitid line starts.
 * "killread": fork; the child waits until the parent sleeps reading an empty pipe, then SIGKILLs
 * it: the read never returns ("read(3,  <unfinished ...>) = ?").
 *
 * Polling /proc instead of sleeping keeps the order independent of timing; the poll gives up
 * after about ten seconds so a broken run fails the comparison instead of hanging.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void wait_for_wchan(pid_t pid, const char *what)
{
    struct timespec tick = { 0, 1000 * 1000 };
    char path[64], buf[128];

    snprintf(path, sizeof path, "/proc/%d/wchan", (int)pid);
    for (int i = 0; i < 10000; i++) {
        FILE *f = fopen(path, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;

        if (f)
            fclose(f);
        buf[n] = '\0';
        if (strstr(buf, what))
            return;
        nanosleep(&tick, NULL);
    }
}

int main(int argc, char **argv)
{
    pid_t parent = getpid();
    int fds[2];
    char c;

    if (argc > 1 && strcmp(argv[1], "killread") == 0) {
        if (pipe(fds))
            return 1;
        if (fork() == 0) {
            wait_for_wchan(parent, "pipe_read");
            kill(parent, SIGKILL);
            _exit(0);
        }
        read(fds[0], &c, 1);
        return 0;
    }
    if (pipe(fds))
        return 1;
    if (fork() == 0) {
        write(fds[1], "x", 1);
        wait_for_wchan(parent, "do_wait");
        _exit(3);
    }
    read(fds[0], &c, 1);
    siginfo_t info;
    waitid(P_ALL, 0, &info, WEXITED);
    return 0;
}
