/* Appends a counter line to argv[1] every 20 ms; exits 7 once argv[1].done exists.
 *
 * Its progress is visible from outside (file size), so a test can tell that
 * SIGSTOP really stopped it and SIGCONT resumed it.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    struct timespec tick = { 0, 20 * 1000 * 1000 };
    char done[4096];

    if (argc < 2)
        return 2;
    snprintf(done, sizeof done, "%s.done", argv[1]);
    printf("%d\n", (int)getpid());
    fflush(stdout);
    for (unsigned long n = 0; access(done, F_OK) != 0; n++) {
        FILE *f = fopen(argv[1], "a");
        if (f) {
            fprintf(f, "%lu\n", n);
            fclose(f);
        }
        nanosleep(&tick, NULL);
    }
    return 7;
}
