/* -f robustness: fork a child that execs /bin/true, then 4 threads calling malloc/free; exit 3. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define ITERS 60

static void *worker(void *arg) {
    long sum = 0;
    for (int i = 0; i < ITERS; i++) {
        char *p = malloc(32 + i);
        p[0] = (char)i;
        sum += p[0];
        free(p);
    }
    return (void *)sum;
}

int main(void) {
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/true", "true", (char *)NULL);
        _exit(127);
    }
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long total = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("total=%ld child=%d\n", total, WEXITSTATUS(status));
    fflush(stdout);
    return 3;
}
