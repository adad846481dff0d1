/* The test's own shared library: a call into it goes through the program's PLT (or GOT with -fno-plt). */
#include <string.h>

int mylib_twice(int x) { return 2 * x; }

/* Calls libc through libltlib's own PLT: what "-e strlen@libltlib.so" selects. */
size_t mylib_len(const char *s) { return strlen(s); }
