/* Seccomp filters and personality changes made by the tracee itself, per argv[1] mode.
 *
 * "seccomp": a filter makes getppid fail with EPERM (SECCOMP_RET_ERRNO) and getpgrp raise
 *   SIGSYS (SECCOMP_RET_TRAP, caught); then a forked child whose filter kills it on getuid
 *   (SECCOMP_RET_KILL_PROCESS) and another killed on getgid with SECCOMP_RET_KILL_THREAD.
 * "personality": queries and changes the execution domain (personality(2)).
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_sys(int sig) { (void)sig; }

static void install(int nr, unsigned int action)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, action),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = { sizeof f / sizeof f[0], f };

    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

static void child(int nr, unsigned int action)
{
    int status;
    pid_t pid = fork();

    if (pid == 0) {
        install(nr, action);
        syscall(nr);
        _exit(0);
    }
    wait4(pid, &status, 0, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";

    if (strcmp(mode, "seccomp") == 0) {
        struct sigaction sa;
        struct rlimit none = { 0, 0 };
        sigset_t chld;

        setrlimit(RLIMIT_CORE, &none);
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL);
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_sys;
        sigaction(SIGSYS, &sa, NULL);
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        child(SYS_getuid, SECCOMP_RET_KILL_PROCESS);
        child(SYS_getgid, SECCOMP_RET_KILL_THREAD);
        install(SYS_getppid, SECCOMP_RET_ERRNO | 1);
        install(SYS_getpgrp, SECCOMP_RET_TRAP | 0x42);
        syscall(SYS_getppid);
        syscall(SYS_getpgrp);
        return 0;
    }
    if (strcmp(mode, "personality") == 0) {
        syscall(SYS_personality, 0xffffffff);
        syscall(SYS_personality, PER_LINUX | ADDR_NO_RANDOMIZE);
        syscall(SYS_personality, 0xffffffff);
        syscall(SYS_personality, PER_LINUX32);
        syscall(SYS_personality, 0xffffffff);
        syscall(SYS_personality, PER_SVR4 | STICKY_TIMEOUTS);
        syscall(SYS_personality, 0x7f);
        syscall(SYS_personality, PER_LINUX);
        return 0;
    }
    return 2;
}
