/* Memory-management syscalls, including failures, for %memory filters. */
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    p[0] = 1;
    mprotect(p, 4096, PROT_READ);
    mprotect(p, 4096, PROT_READ | PROT_WRITE | PROT_EXEC);
    madvise(p, 8192, MADV_DONTNEED);
    madvise(p, 8192, MADV_SEQUENTIAL);
    mprotect(p, 4096, PROT_READ | PROT_WRITE);
    p = mremap(p, 8192, 16384, MREMAP_MAYMOVE);
    munmap(p, 16384);
    munmap((void *)1, 4096);                                          /* EINVAL */
    mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);     /* EINVAL */
    mmap(NULL, 4096, PROT_READ, MAP_SHARED, -1, 0);                   /* EBADF */
    mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_POPULATE, -1, 0);

    uintptr_t cur = (uintptr_t)syscall(SYS_brk, 0);
    syscall(SYS_brk, cur + 65536);
    syscall(SYS_brk, cur);
    return 0;
}
