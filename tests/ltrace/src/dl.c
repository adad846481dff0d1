/* dlopen: the library is not there at start; pyltrace finds it through the r_debug breakpoint. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    void *h = dlopen(argc > 1 ? argv[1] : "libltlib.so", RTLD_NOW);
    if (!h) {
        puts(dlerror());
        return 1;
    }
    int (*twice)(int) = (int (*)(int))dlsym(h, "mylib_twice");
    unsigned long (*len)(const char *) = (unsigned long (*)(const char *))dlsym(h, "mylib_len");
    printf("%d %lu\n", twice(21), len("hello"));
    dlclose(h);
    return 0;
}
