/* Signals meeting blocking syscalls, one scenario per argv[1] mode.
 *
 * "eintr": SIGALRM (handler, no SA_RESTART) interrupts read on an empty pipe: ERESTARTSYS, EINTR.
 * "restart": the same with SA_RESTART: the read is restarted and then gets a byte the handler wrote.
 * "pause": SIGALRM interrupts pause(): ERESTARTNOHAND.
 * "nanosleep": SIGALRM (handler) interrupts nanosleep: ERESTART_RESTARTBLOCK, EINTR with the remainder.
 * "ignored": SIGWINCH (default action: ignore, so no handler runs) interrupts nanosleep: restart_syscall.
 * "sigqueue": rt_sigqueueinfo and rt_tgsigqueueinfo to itself with a custom si_value, then
 *   sigtimedwait / rt_sigtimedwait picks them up.
 * "segv": SIGSEGV at address 0x8 (SEGV_MAPERR) and at a PROT_NONE page (SEGV_ACCERR), each
 *   caught by a handler that siglongjmps out.
 * "bus": SIGBUS (BUS_ADRERR) reading a mapping past the end of an empty file, caught.
 * "core": dies by SIGSEGV with RLIMIT_CORE set to unlimited (core dumped unless core_pattern forbids).
 * "abort": dies by SIGABRT with RLIMIT_CORE 0 (no core).
 * "stop": a child stops itself with SIGSTOP; the parent sees it (waitid WSTOPPED), sends SIGCONT, reaps it.
 * "traceme": PTRACE_TRACEME fails (the tracer is already attached), and so does PTRACE_ATTACH to itself.
 * Timing comes from one-shot itimers; each scenario waits long enough that the signal always
 * lands inside the blocking call.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static sigjmp_buf env;

static void on_alrm(int sig) { (void)sig; }
static void on_alrm_write(int sig) { (void)sig; (void)!write(fds[1], "x", 1); }
static void on_fault(int sig) { (void)sig; siglongjmp(env, 1); }

static void handle(int sig, void (*fn)(int), int flags)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = fn;
    sa.sa_flags = flags;
    sigaction(sig, &sa, NULL);
}

static void alarm_ms(long ms)
{
    struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };

    setitimer(ITIMER_REAL, &it, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    char c;

    if (strcmp(mode, "eintr") == 0 || strcmp(mode, "restart") == 0) {
        int restart = mode[0] == 'r';
        if (pipe(fds) != 0)
            return 2;
        handle(SIGALRM, restart ? on_alrm_write : on_alrm, restart ? SA_RESTART : 0);
        alarm_ms(100);
        return syscall(SYS_read, fds[0], &c, 1) == 1 ? 0 : 1;
    }
    if (strcmp(mode, "pause") == 0) {
        handle(SIGALRM, on_alrm, 0);
        alarm_ms(100);
        syscall(SYS_pause);
        return 0;
    }
    if (strcmp(mode, "nanosleep") == 0) {
        struct timespec req = { 5, 0 };
        handle(SIGALRM, on_alrm, 0);
        alarm_ms(100);
        syscall(SYS_nanosleep, &req, NULL); /* no remainder: it would differ from run to run */
        return 0;
    }
    if (strcmp(mode, "ignored") == 0) {
        struct timespec req = { 0, 300 * 1000 * 1000 };
        struct sigevent sev;
        timer_t id;
        struct itimerspec when = { { 0, 0 }, { 0, 100 * 1000 * 1000 } };
        memset(&sev, 0, sizeof sev);
        sev.sigev_notify = SIGEV_SIGNAL;
        sev.sigev_signo = SIGWINCH;
        sev.sigev_value.sival_int = 77;
        syscall(SYS_timer_create, CLOCK_MONOTONIC, &sev, &id);
        syscall(SYS_timer_settime, id, 0, &when, NULL);
        syscall(SYS_nanosleep, &req, NULL);
        return 0;
    }
    if (strcmp(mode, "sigqueue") == 0) {
        sigset_t set;
        siginfo_t si;
        struct timespec zero = { 0, 0 };
        sigemptyset(&set);
        sigaddset(&set, SIGUSR1);
        sigaddset(&set, SIGRTMIN + 2);
        sigprocmask(SIG_BLOCK, &set, NULL);
        memset(&si, 0, sizeof si);
        si.si_signo = SIGUSR1;
        si.si_code = SI_QUEUE;
        si.si_pid = getpid();
        si.si_uid = getuid();
        si.si_value.sival_int = 0x12345678;
        syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
        si.si_signo = SIGRTMIN + 2;
        si.si_value.sival_ptr = (void *)0xdeadbeef;
        syscall(SYS_rt_tgsigqueueinfo, getpid(), getpid(), SIGRTMIN + 2, &si);
        syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);
        syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);
        syscall(SYS_rt_sigtimedwait, &set, &si, &zero, 8);
        si.si_code = SI_USER; /* the kernel refuses a forged SI_USER from another process... */
        syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, &si);
        syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1, (void *)8);
        return 0;
    }
    if (strcmp(mode, "segv") == 0) {
        char *page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        handle(SIGSEGV, on_fault, SA_NODEFER);
        if (sigsetjmp(env, 1) == 0)
            *(volatile int *)8 = 1;
        if (sigsetjmp(env, 1) == 0)
            *(volatile char *)page = 1;
        return 0;
    }
    if (strcmp(mode, "bus") == 0) {
        int fd = open("bus.tmp", O_RDWR | O_CREAT | O_TRUNC, 0600); /* in the (fresh) working directory */
        char *p;
        unlink("bus.tmp");
        p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
        handle(SIGBUS, on_fault, 0);
        if (sigsetjmp(env, 1) == 0)
            c = *(volatile char *)p;
        return 0;
    }
    if (strcmp(mode, "core") == 0 || strcmp(mode, "abort") == 0) {
        struct rlimit lim = { RLIM_INFINITY, RLIM_INFINITY }, none = { 0, 0 };
        if (mode[0] == 'c') {
            setrlimit(RLIMIT_CORE, &lim);
            *(volatile int *)0 = 1;
        }
        setrlimit(RLIMIT_CORE, &none);
        abort();
    }
    if (strcmp(mode, "stop") == 0) {
        siginfo_t si;
        sigset_t chld;
        pid_t pid;
        sigemptyset(&chld);
        sigaddset(&chld, SIGCHLD);
        sigprocmask(SIG_BLOCK, &chld, NULL); /* no SIGCHLD racing with the waits */
        pid = fork();
        if (pid == 0) {
            raise(SIGSTOP);
            _exit(4);
        }
        waitid(P_PID, pid, &si, WSTOPPED);
        kill(pid, SIGCONT);
        waitid(P_PID, pid, &si, WEXITED);
        return 0;
    }
    if (strcmp(mode, "traceme") == 0) {
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        ptrace(PTRACE_ATTACH, getpid(), NULL, NULL); /* never the parent: that is the tracer */
        return 0;
    }
    return 2;
}
