/* FUTEX_WAKE with no waiters, FUTEX_WAIT on a mismatched value, a timed-out wait. */
#include <linux/futex.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int word;

int main(void)
{
    struct timespec timeout = { 0, 1000000 };

    syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);      /* EAGAIN */
    syscall(SYS_futex, &word, FUTEX_WAIT, 0, &timeout, NULL, 0);          /* ETIMEDOUT */
    syscall(SYS_futex, &word, FUTEX_WAKE, 2147483647, NULL, NULL, 0);
    syscall(SYS_futex, &word, 99, 0, NULL, NULL, 0);                      /* ENOSYS */
    return 0;
}
