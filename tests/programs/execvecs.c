/* execve with argv and envp pointer arrays that end against an unreadable page, of 4 and 21
 * words: the eBPF backend reads such arrays 16 words at a time, and a chunk running into the
 * unreadable page word by word (capture_slots._strv's slow path).  One execve fails (ENOENT),
 * then one runs /bin/true.  The strings are in a written page: faulted in, readable at entry.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* n strings made from prefix, as a NULL-terminated array whose NULL is the last word before end */
static char **vector(char *end, char **strings, const char *prefix, int n)
{
    char **v = (char **)end - (n + 1);
    for (int i = 0; i < n; i++) {
        v[i] = *strings;
        *strings += sprintf(*strings, "%s%02d=x", prefix, i) + 1;
    }
    v[n] = NULL;
    return v;
}

int main(void)
{
    long ps = sysconf(_SC_PAGESIZE);
    /* page 0: the strings; pages 1 and 3: the arrays, at their ends; pages 2 and 4: unreadable */
    char *m = mmap(NULL, 5 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return 1;
    mprotect(m + 2 * ps, ps, PROT_NONE);
    mprotect(m + 4 * ps, ps, PROT_NONE);
    char *strings = m;
    char **argv = vector(m + 2 * ps, &strings, "a", 3);
    strcpy(argv[0], "true");
    char **envp = vector(m + 4 * ps, &strings, "E", 20);
    execve("/nonexistent/true", argv, envp);
    execve("/bin/true", argv, envp);
    return 2;
}
