/* pyltrace's main test program, built five ways (default, -z now, -fno-plt, IBT .plt.sec lazy and
 * with -z now): libc calls in a loop, a qsort callback that calls strcmp (nested calls: qsort is still
 * open while strcmp runs), a call into the test's own shared library, and an exit status from argv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mylib_twice(int);
size_t mylib_len(const char *);

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    const char *v[3] = {"pear", "apple", "fig"};
    for (int i = 0; i < 3; i++) {
        char *p = malloc(16 + i);
        snprintf(p, 16, "item %d", i);
        puts(p);
        printf("len=%zu\n", strlen(p));
        free(p);
    }
    qsort(v, 3, sizeof v[0], cmp);
    printf("%d\n", mylib_twice(3));
    printf("%zu\n", mylib_len(v[0]));
    fflush(stdout);
    return argc > 1 ? atoi(argv[1]) : 0;
}
