/* Children, threads and an exec'd program that a tracer without -f does not show.
 *
 * Under `pytrace --seccomp-bpf -e trace=openat` (no -f) they all inherit the seccomp filter
 * from the traced parent; pytrace must follow them silently, or their openat would fail with
 * ENOSYS.  Each one reports on stdout whether its openat worked; the parent reports how each
 * child ended (exit code, killing signal, stop), so signals and statuses are checked too.
 * The first line is the parent's seccomp mode (2: a filter is installed).
 *
 * `silent_children exec` is the program a child execs: it probes and exits with 5.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}

static void probe(const char *who) {
    char line[200];
    int fd = openat(AT_FDCWD, "/etc/hostname", O_RDONLY);
    int err = fd < 0 ? errno : 0;
    if (fd >= 0)
        close(fd);
    snprintf(line, sizeof line, "%s: openat %s\n", who, err ? strerror(err) : "ok");
    say(line);
}

static void seccomp_mode(void) {
    char buf[4096], line[64];
    int fd = open("/proc/self/status", O_RDONLY);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    const char *mode = NULL;
    if (fd >= 0)
        close(fd);
    if (n > 0) {
        buf[n] = 0;
        mode = strstr(buf, "\nSeccomp:\t");
    }
    snprintf(line, sizeof line, "filter %c\n", mode ? mode[10] : '?');
    say(line);
}

static void report(const char *what, pid_t pid, int options) {
    char line[200];
    int status;
    if (waitpid(pid, &status, options) != pid) {
        snprintf(line, sizeof line, "%s: waitpid: %s\n", what, strerror(errno));
    } else if (WIFEXITED(status)) {
        snprintf(line, sizeof line, "%s: exited %d\n", what, WEXITSTATUS(status));
    } else if (WIFSIGNALED(status)) {
        snprintf(line, sizeof line, "%s: killed by %s\n", what, sigabbrev_np(WTERMSIG(status)));
    } else if (WIFCONTINUED(status)) {
        snprintf(line, sizeof line, "%s: continued\n", what);
    } else if (WIFSTOPPED(status)) {
        snprintf(line, sizeof line, "%s: stopped by %s\n", what, sigabbrev_np(WSTOPSIG(status)));
    } else {
        snprintf(line, sizeof line, "%s: status %#x\n", what, status);
    }
    say(line);
}

static volatile sig_atomic_t got_usr1;

static void on_usr1(int sig) {
    (void)sig;
    got_usr1 = 1;
}

static void *thread_main(void *arg) {
    (void)arg;
    probe("thread");
    return NULL;
}

int main(int argc, char **argv) {
    pid_t pid;
    pthread_t thread;
    int up[2], go[2];
    char byte;

    if (argc > 1 && strcmp(argv[1], "exec") == 0) {
        probe(argv[2]);
        return 5;
    }
    seccomp_mode();
    probe("parent");

    if ((pid = fork()) == 0) {  /* a plain child: its calls and its exit code */
        probe("child");
        _exit(3);
    }
    report("child", pid, 0);

    if ((pid = fork()) == 0) {  /* signals: one handled, one fatal */
        signal(SIGUSR1, on_usr1);
        raise(SIGUSR1);
        say(got_usr1 ? "signalled child: SIGUSR1 handled\n" : "signalled child: SIGUSR1 lost\n");
        probe("signalled child");
        raise(SIGTERM);
        _exit(0);
    }
    report("signalled child", pid, 0);

    /* A group-stop seen by its parent, then SIGCONT.  The SIGCHLD for "continued" is raised by the child
     * as it resumes; it says so on `up` and exits only after `go`, so that SIGCHLD has reached the parent
     * before the one for its exit is raised (standard signals do not queue: they would merge). */
    if (pipe(up) != 0 || pipe(go) != 0)
        return 1;
    if ((pid = fork()) == 0) {
        char c = 'x';
        close(up[0]);
        close(go[1]);
        raise(SIGSTOP);
        if (write(up[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(1);
        probe("stopped child");
        _exit(4);
    }
    close(up[1]);
    close(go[0]);
    report("stopped child", pid, WUNTRACED);
    kill(pid, SIGCONT);
    if (read(up[0], &byte, 1) != 1)
        return 1;
    report("stopped child", pid, WCONTINUED);
    if (write(go[1], &byte, 1) != 1)
        return 1;
    close(up[0]);
    close(go[1]);
    report("stopped child", pid, 0);

    if ((pid = fork()) == 0) {  /* a grandchild */
        pid_t inner = fork();
        if (inner == 0) {
            probe("grandchild");
            _exit(6);
        }
        report("grandchild", inner, 0);
        _exit(0);
    }
    report("middle child", pid, 0);

    if ((pid = vfork()) == 0) {  /* vfork, then exec: the new program's calls too */
        execl("/proc/self/exe", argv[0], "exec", "vforked program", (char *)NULL);
        _exit(127);
    }
    report("vforked program", pid, 0);

    if ((pid = fork()) == 0) {  /* fork, then exec */
        execl("/proc/self/exe", argv[0], "exec", "exec'd program", (char *)NULL);
        _exit(127);
    }
    report("exec'd program", pid, 0);

    pthread_create(&thread, NULL, thread_main, NULL);  /* a thread: strace without -f shows only the main one */
    pthread_join(thread, NULL);

    probe("parent again");
    return 7;
}
