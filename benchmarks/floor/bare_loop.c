/* The floor of a ptrace syscall tracer in C: what the kernel charges for two stops per syscall
 * when the tracer does nothing else (benchmarks/ptrace_floor.py compares it with strace, the same
 * loop in Python and pytrace -c).
 *
 * Started like pytrace starts a command: fork, the child stops itself with SIGSTOP and then execs,
 * the parent PTRACE_SEIZEs it with TRACESYSGOOD|TRACEEXEC|TRACEFORK|TRACEVFORK|TRACECLONE (as
 * pytrace -f) and sends SIGCONT.  The loop is pytrace -c's per stop: wait4(-1, &st, __WALL, &ru),
 * PTRACE_GET_SYSCALL_INFO into one buffer, PTRACE_SYSCALL; an entry stop counts its syscall number.
 * New threads and processes (W5's) arrive with PTRACE_EVENT_STOP and are resumed; a group-stop is
 * answered with PTRACE_LISTEN; a signal is passed on.  The loop ends when wait4 says ECHILD.
 *
 * At the end it prints "getppid N" on stderr: the entries of syscall 110 (getppid on x86_64), which
 * the benchmark checks against the workload's own count, so a loop that missed stops is caught.
 * Its exit status is the command's (128+signal if killed).
 *
 * Usage: bare_loop PROGRAM [ARGS...] */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_NR 1024
#define GETPPID_NR 110

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bare_loop PROGRAM [ARGS...]\n");
        return 2;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("bare_loop: fork");
        return 1;
    }
    if (child == 0) {
        kill(getpid(), SIGSTOP);
        execvp(argv[1], argv + 1);
        perror("bare_loop: exec");
        _exit(127);
    }
    int st;
    if (waitpid(child, &st, WUNTRACED) < 0 || !WIFSTOPPED(st)) {
        fprintf(stderr, "bare_loop: the child did not stop\n");
        return 1;
    }
    long options = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK
                   | PTRACE_O_TRACECLONE;
    if (ptrace(PTRACE_SEIZE, child, 0, options) < 0) {
        perror("bare_loop: PTRACE_SEIZE");
        kill(child, SIGKILL);
        return 1;
    }
    kill(child, SIGCONT);

    static unsigned long counts[MAX_NR];
    struct __ptrace_syscall_info info; /* glibc >= 2.36's name for the kernel's struct */
    struct rusage ru;
    int exit_status = 0;
    for (;;) {
        pid_t pid = wait4(-1, &st, __WALL, &ru);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; /* ECHILD: every tracee is gone */
        }
        if (WIFEXITED(st) || WIFSIGNALED(st)) {
            if (pid == child)
                exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            continue;
        }
        int sig = WSTOPSIG(st);
        if (sig == (SIGTRAP | 0x80)) { /* the hot path: a syscall stop */
            if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof info, &info) > 0
                && info.op == PTRACE_SYSCALL_INFO_ENTRY && info.entry.nr < MAX_NR)
                counts[info.entry.nr]++;
            ptrace(PTRACE_SYSCALL, pid, 0, 0);
            continue;
        }
        int event = st >> 16;
        if (event == PTRACE_EVENT_STOP && (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)) {
            ptrace(PTRACE_LISTEN, pid, 0, 0); /* group-stop: stay stopped until SIGCONT */
            continue;
        }
        /* a ptrace event (a new thread's first stop, clone, exec) or a signal to pass on */
        ptrace(PTRACE_SYSCALL, pid, 0, event ? 0 : sig);
    }
    fprintf(stderr, "getppid %lu\n", counts[GETPPID_NR]);
    return exit_status;
}
