/* USDT test program (pyltrace --list-usdt, -e usdt:...): the classic "tracetest" shape.
 *
 *   usdt [N [wait | dl LIBRARY | fork]]
 *
 * Hits tracetest:loop (an int and a string pointer) and tracetest:mixed (a short, an unsigned char
 * and a global read through its symbol) N times (default 3), and the semaphore-guarded probes of
 * usdt_sem.c (tracetest:guarded, in this program) and of libusdtlib.so (usdtlib:hit), then prints
 * whether each semaphore was seen enabled.  "wait": prints the semaphores' addresses, then loops
 * forever (1 ms apart) so that a tracer can attach (-p) and detach.  "dl LIBRARY": dlopens LIBRARY (a
 * build of usdtlib.c) after the loop and calls its usdtlib_hit N times: a probe in a library loaded late.
 * "fork": after the loop, a child runs one more round (i = 100) and says whether it saw the semaphores on.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

int guarded_hit(int i);               /* usdt_sem.c: 1 when its semaphore was on */
extern unsigned short tracetest_guarded_semaphore;
int usdtlib_hit(int i);               /* libusdtlib.so */
unsigned short *usdtlib_semaphore(void);

long counter;

static void round_of(int i, const char *name, int *main_on, int *lib_on) {
    counter += i;
    STAP_PROBE2(tracetest, loop, i, name);
    STAP_PROBE3(tracetest, mixed, (short)-i, (unsigned char)(200 + i), counter);
    *main_on |= guarded_hit(i);
    *lib_on |= usdtlib_hit(i);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 3;
    int wait = argc > 2 && strcmp(argv[2], "wait") == 0;
    const char *name = "hello";
    int main_on = 0, lib_on = 0;
    if (wait) {
        printf("semaphores %p %p\n", (void *)&tracetest_guarded_semaphore, (void *)usdtlib_semaphore());
        fflush(stdout);
        for (int i = 0;; i++) {
            round_of(i, name, &main_on, &lib_on);
            usleep(1000);
        }
    }
    for (int i = 0; i < n; i++)
        round_of(i, name, &main_on, &lib_on);
    printf("semaphore guarded=%s hit=%s\n", main_on ? "on" : "off", lib_on ? "on" : "off");
    if (argc > 2 && strcmp(argv[2], "fork") == 0) {
        fflush(stdout);
        pid_t child = fork();
        if (child == 0) {
            int c_main = 0, c_lib = 0;
            round_of(100, name, &c_main, &c_lib);
            printf("child guarded=%s hit=%s\n", c_main ? "on" : "off", c_lib ? "on" : "off");
            return 0;
        }
        waitpid(child, NULL, 0);
    }
    if (argc > 3 && strcmp(argv[2], "dl") == 0) {
        void *h = dlopen(argv[3], RTLD_NOW);
        int (*hit)(int) = h ? (int (*)(int))dlsym(h, "usdtlib_hit") : NULL;
        if (!hit) {
            printf("dlopen: %s\n", dlerror());
            return 1;
        }
        int dl_on = 0;
        for (int i = 0; i < n; i++)
            dl_on |= hit(i);
        printf("dl hit=%s\n", dl_on ? "on" : "off");
    }
    return 0;
}
