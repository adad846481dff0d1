/* -C without a C++ compiler: C functions given C++-mangled symbol names (asm labels), called through
 * the PLT from a library of their own, so the trace shows twice(int) and ns::hello(char const*). */
#include <stdio.h>

int twice(int) __asm__("_Z5twicei");
int hello(const char *) __asm__("_ZN2ns5helloEPKc");

#ifdef LIBRARY
int twice(int x) { return 2 * x; }
int hello(const char *s) { return puts(s); }
#else
int main(void) {
    printf("%d\n", twice(21));
    hello("hi");
    return 0;
}
#endif
