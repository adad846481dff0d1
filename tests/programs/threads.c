/* Four threads, each calling getppid() and write(); all created, then joined.
 *
 * The threads wait on a barrier before exiting, i.e. until the main thread
 * has created all of them.  clone3 shares its parent_tid word with the new
 * thread, which clears it when it exits (CLONE_CHILD_CLEARTID); without the
 * barrier a thread could exit before the tracer reads that word at clone3's
 * return, and the trace would show [0] instead of the tid depending on
 * scheduling.  (The barrier's futex calls are filtered out by the tests.)
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_barrier_t all_created;

static void *worker(void *arg)
{
    char line[16];
    int n = snprintf(line, sizeof line, "thread %d\n", (int)(long)arg);

    getppid();
    write(1, line, (size_t)n);
    getppid();
    write(1, line, (size_t)n);
    pthread_barrier_wait(&all_created);
    return NULL;
}

int main(void)
{
    pthread_t t[4];

    pthread_barrier_init(&all_created, NULL, 5);
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pthread_barrier_wait(&all_created);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    write(1, "joined\n", 7);
    return 0;
}
