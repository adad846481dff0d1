/* Calls through .plt.got (issue 16): a PIE program that both calls malloc/free/strcmp and takes their
 * addresses in code makes the linker bind them through GLOB_DAT slots, reached through 8-byte .plt.got stubs
 * (as Debian's ls, sort and git do) instead of lazy .plt ones.  puts and strlen stay in .plt. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *(*volatile alloc_fn)(size_t);
void (*volatile free_fn)(void *);
int (*volatile cmp_fn)(const char *, const char *);

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    char *names[3];
    /* Stored at run time, so the code loads each address from a GOT slot (a data initialiser would
     * need only a dynamic relocation of the data). */
    alloc_fn = malloc;
    free_fn = free;
    cmp_fn = strcmp;
    names[0] = strdup("pear");
    names[1] = strdup("apple");
    names[2] = strdup("fig");
    char *buf = malloc(16);
    strcpy(buf, names[0]);
    qsort(names, 3, sizeof names[0], by_name);
    for (int i = 0; i < 3; i++) {
        puts(names[i]);
        free(names[i]);
    }
    printf("%zu %d\n", strlen(buf), strcmp(buf, "pear"));
    free(buf);
    return 0;
}
