/* Starts a tracer (or any command) in a chosen process state, for tests/faults.
 *
 *   fault_launcher [-i SIG]... [-b SIG]... [-r SIG]... [-c FD]... [-R] -- CMD [ARGS]
 *
 * -i SIG  set SIG's disposition to SIG_IGN      (what nohup does for SIGHUP)
 * -b SIG  block SIG in the signal mask
 * -r SIG  raise SIG before exec (block it too, or it acts at once): a pending signal
 * -c FD   close FD before exec
 * -R      reaper mode: become a child subreaper, fork and exec CMD, print
 *         "started PID" and then "reaped PID STATUS COMM" (raw wait status) for every
 *         process that ends below us, orphans included, until none is left.  A
 *         test kills the tracer and still learns how its orphaned tracees ended.
 * Without -R the launcher execs CMD itself, so CMD inherits exactly that state.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    sigset_t block;
    int reaper = 0, opt;
    int raise_list[64], nraise = 0;

    sigemptyset(&block);
    while ((opt = getopt(argc, argv, "+i:b:r:c:R")) != -1) {
        switch (opt) {
        case 'i':
            signal(atoi(optarg), SIG_IGN);
            break;
        case 'b':
            sigaddset(&block, atoi(optarg));
            break;
        case 'r':
            raise_list[nraise++] = atoi(optarg);
            break;
        case 'c':
            close(atoi(optarg));
            break;
        case 'R':
            reaper = 1;
            break;
        default:
            return 2;
        }
    }
    if (optind >= argc)
        return 2;
    sigprocmask(SIG_BLOCK, &block, NULL);
    for (int i = 0; i < nraise; i++)
        raise(raise_list[i]);
    if (!reaper) {
        execvp(argv[optind], argv + optind);
        perror("exec");
        return 127;
    }
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    setvbuf(stdout, NULL, _IOLBF, 0);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[optind], argv + optind);
        perror("exec");
        _exit(127);
    }
    printf("started %d\n", pid);
    for (;;) {
        int status;
        siginfo_t info;
        char path[64], comm[64] = "?";
        /* Look before reaping: a zombie's comm is still readable (pytrace's render process is
         * told apart by it, see pytrace/sinks/split.py). */
        if (waitid(P_ALL, 0, &info, WEXITED | WNOWAIT | __WALL) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        snprintf(path, sizeof path, "/proc/%d/comm", (int)info.si_pid);
        FILE *f = fopen(path, "r");
        if (f) {
            if (fgets(comm, sizeof comm, f))
                comm[strcspn(comm, "\n")] = 0;
            fclose(f);
        }
        pid_t done = waitpid(info.si_pid, &status, __WALL);
        if (done < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        printf("reaped %d %d %s\n", done, status, comm[0] ? comm : "?");
    }
    return 0;
}
