/* ioctl requests whose argument strace 6.1 prints as a value, an fd, a constant, a struct or not
 * at all (loop, block, perf, kvm, random and fs-freeze families).  Every call is aimed at a
 * descriptor where it fails harmlessly: /dev/null (ENOTTY), the program's own file opened
 * read-only (ENOTTY for these requests) and -1 (EBADF).  FIFREEZE/FITHAW/FITRIM only ever go to
 * -1: on a real file they would act on its whole filesystem.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/kvm.h>
#include <linux/loop.h>
#include <linux/perf_event.h>
#include <linux/random.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define BAD ((void *) 8)

int main(int argc, char **argv)
{
    (void) argc;
    int null = open("/dev/null", O_RDONLY);
    int self = open(argv[0], O_RDONLY);
    int fds[] = { null, self, -1 };
    int i = 1;
    uint64_t u64 = 123456789012ULL, range[2] = { 4096, 65536 };
    long l = 0;
    unsigned short us = 0;
    struct {
        struct rand_pool_info info;
        char buf[8];
    } pool = { { 16, 5 }, "hello" };
    struct fstrim_range trim = { 0x1000, 1 << 20, 512 };

    for (unsigned k = 0; k < sizeof fds / sizeof fds[0]; k++) {
        int fd = fds[k];
        /* loop */
        ioctl(fd, LOOP_SET_FD, self);
        ioctl(fd, LOOP_CHANGE_FD, -1);
        ioctl(fd, LOOP_CLR_FD, 7);
        ioctl(fd, LOOP_SET_CAPACITY, 0);
        ioctl(fd, LOOP_CTL_ADD, -5);
        ioctl(fd, LOOP_CTL_REMOVE, 3);
        ioctl(fd, LOOP_CTL_GET_FREE);
        ioctl(fd, LOOP_SET_DIRECT_IO, 1UL);
        ioctl(fd, LOOP_SET_BLOCK_SIZE, 4096UL);
        /* block */
        ioctl(fd, BLKFLSBUF, 0);
        ioctl(fd, BLKRRPART, 0);
        ioctl(fd, BLKRASET, 256UL);
        ioctl(fd, BLKFRASET, 0xffffffffffUL);
        ioctl(fd, BLKROSET, &i);
        ioctl(fd, BLKROSET, BAD);
        ioctl(fd, BLKBSZSET, NULL);
        ioctl(fd, BLKROGET, &i);
        ioctl(fd, BLKSSZGET, &i);
        ioctl(fd, BLKPBSZGET, &i);
        ioctl(fd, BLKIOMIN, &i);
        ioctl(fd, BLKSECTGET, &us);
        ioctl(fd, BLKROTATIONAL, &us);
        ioctl(fd, BLKRAGET, &l);
        ioctl(fd, BLKGETSIZE, &l);
        ioctl(fd, BLKGETSIZE64, &u64);
        ioctl(fd, BLKDISCARD, range);
        ioctl(fd, BLKZEROOUT, BAD);
        ioctl(fd, BLKSECDISCARD, NULL);
        ioctl(fd, BLKTRACESTART, 0);
        ioctl(fd, BLKTRACESTOP, 0);
        ioctl(fd, BLKTRACETEARDOWN, 0);
        /* perf */
        ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
        ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
        ioctl(fd, PERF_EVENT_IOC_RESET, 6);
        ioctl(fd, PERF_EVENT_IOC_REFRESH, -2);
        ioctl(fd, PERF_EVENT_IOC_PERIOD, &u64);
        ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1);
        ioctl(fd, PERF_EVENT_IOC_SET_BPF, self);
        ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1);
        ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "cpu == 1");
        ioctl(fd, PERF_EVENT_IOC_ID, &u64);
        /* kvm */
        ioctl(fd, KVM_CHECK_EXTENSION, KVM_CAP_IRQCHIP);
        ioctl(fd, KVM_CHECK_EXTENSION, KVM_CAP_USER_MEMORY);
        ioctl(fd, KVM_CHECK_EXTENSION, 0xbeef);
        ioctl(fd, KVM_CREATE_VCPU, 2);
        ioctl(fd, KVM_GET_API_VERSION, 0);
        /* random */
        ioctl(fd, RNDGETENTCNT, &i);
        ioctl(fd, RNDADDTOENTCNT, &i);
        ioctl(fd, RNDADDENTROPY, &pool);
        ioctl(fd, RNDADDENTROPY, BAD);
        ioctl(fd, RNDZAPENTCNT, 0);
        ioctl(fd, RNDCLEARPOOL, 0);
        ioctl(fd, RNDRESEEDCRNG, 0);
    }
    /* whole-filesystem requests: only on an invalid descriptor */
    ioctl(-1, FIFREEZE, 0);
    ioctl(-1, FITHAW, 0);
    ioctl(-1, FITRIM, &trim);
    ioctl(-1, FITRIM, NULL);
    puts("done");
    return 0;
}
