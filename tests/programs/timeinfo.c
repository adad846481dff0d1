/* Clocks, sleeps, uname, getrandom, rlimits and the id getters.
 *
 * clock_gettime/clock_getres go through syscall(): glibc would otherwise
 * answer them from the vDSO and the tracer would see nothing.
 */
#define _GNU_SOURCE
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    struct timespec ts, sleep_for = { 0, 1000000 };
    struct utsname un;
    struct rlimit64 rl;
    unsigned char rnd[16];

    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    syscall(SYS_clock_getres, CLOCK_REALTIME, &ts);
    syscall(SYS_clock_gettime, 12345, &ts);                   /* EINVAL */
    nanosleep(&sleep_for, NULL);
    clock_nanosleep(CLOCK_MONOTONIC, 0, &sleep_for, NULL);
    uname(&un);
    getrandom(rnd, sizeof rnd, 0);
    getrandom(rnd, 4, GRND_NONBLOCK);
    prlimit64(0, RLIMIT_NOFILE, NULL, &rl);
    prlimit64(0, RLIMIT_CORE, &rl, NULL);
    getpid();
    getppid();
    gettid();
    getuid();
    geteuid();
    getgid();
    getegid();
    return 0;
}
