/* Nesting deeper than ltrace's fixed limit of 64: depth(n) calls itself n times (traced with -x). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int depth(int n) { return n == 0 ? 0 : 1 + depth(n - 1); }

int main(int argc, char **argv) {
    printf("%d\n", depth(argc > 1 ? atoi(argv[1]) : 100));
    return 0;
}
