/* Dies by a signal: "segv" (NULL store) or "term" (kill(getpid(), SIGTERM)).
 *
 * RLIMIT_CORE is set to 0 first so "(core dumped)" never depends on the
 * environment the tests run in.
 */
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct rlimit none = { 0, 0 };

    setrlimit(RLIMIT_CORE, &none);
    if (argc > 1 && strcmp(argv[1], "term") == 0) {
        kill(getpid(), SIGTERM);
    } else {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    return 0;
}
