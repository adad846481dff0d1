/* Event and notification descriptors (eventfd, signalfd, timerfd, inotify, fanotify) and
 * asynchronous I/O (aio, io_uring) through syscall(2), with valid and invalid arguments.
 * argv[1] is a scratch directory created here.  Timers are disarmed or expire at once,
 * so no remaining time is ever printed; the aio context id is an address (normalised).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/io_uring.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define BAD ((void *) 8)

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    mkdir(argv[1], 0755);
    if (chdir(argv[1]) != 0)
        return 2;

    /* eventfd */
    int efd = syscall(SYS_eventfd2, 3, EFD_CLOEXEC | EFD_NONBLOCK);
    syscall(SYS_eventfd2, 0, 0x4);
    syscall(SYS_eventfd2, 0, 0);
    syscall(SYS_eventfd, 5);
    uint64_t v;
    read(efd, &v, sizeof v);

    /* signalfd */
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1);
    sigaddset(&mask, SIGTERM);
    int sfd = syscall(SYS_signalfd4, -1, &mask, 8, SFD_CLOEXEC);
    syscall(SYS_signalfd4, sfd, &mask, 8, 0);
    syscall(SYS_signalfd4, -1, &mask, 8, 0x1);
    syscall(SYS_signalfd4, -1, BAD, 8, 0);
    syscall(SYS_signalfd, -1, &mask, 8);

    /* timerfd */
    int tfd = syscall(SYS_timerfd_create, CLOCK_MONOTONIC, TFD_CLOEXEC);
    syscall(SYS_timerfd_create, 99, 0);
    syscall(SYS_timerfd_create, CLOCK_REALTIME, 0x1);
    struct itimerspec its = { { 0, 0 }, { 0, 0 } }, old;
    syscall(SYS_timerfd_settime, tfd, 0, &its, &old);
    struct itimerspec abs = { { 1, 500 }, { 0, 0 } };
    syscall(SYS_timerfd_settime, tfd, TFD_TIMER_ABSTIME, &abs, NULL);
    syscall(SYS_timerfd_settime, tfd, 0x8, &its, NULL);
    syscall(SYS_timerfd_settime, tfd, 0, BAD, NULL);
    syscall(SYS_timerfd_gettime, tfd, &old);
    syscall(SYS_timerfd_gettime, 99, &old);
    syscall(SYS_timerfd_gettime, tfd, BAD);

    /* inotify */
    int ifd = syscall(SYS_inotify_init1, IN_NONBLOCK | IN_CLOEXEC);
    syscall(SYS_inotify_init1, 0x1);
    syscall(SYS_inotify_init);
    int wd = syscall(SYS_inotify_add_watch, ifd, ".", IN_CREATE | IN_DELETE | IN_ONLYDIR);
    syscall(SYS_inotify_add_watch, ifd, "nosuch", IN_ALL_EVENTS);
    syscall(SYS_inotify_add_watch, ifd, ".", 0);
    syscall(SYS_inotify_add_watch, 99, ".", IN_MODIFY | 0x4000);
    syscall(SYS_inotify_rm_watch, ifd, wd);
    syscall(SYS_inotify_rm_watch, ifd, 99);

    /* fanotify */
    int fan = syscall(SYS_fanotify_init, FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE);
    syscall(SYS_fanotify_init, 0x80000000, O_RDONLY);
    syscall(SYS_fanotify_init, FAN_CLASS_CONTENT | FAN_REPORT_FID, O_RDWR);
    syscall(SYS_fanotify_mark, fan, FAN_MARK_ADD, FAN_OPEN | FAN_CLOSE_WRITE | FAN_EVENT_ON_CHILD, AT_FDCWD, ".");
    syscall(SYS_fanotify_mark, fan, FAN_MARK_REMOVE | FAN_MARK_ONLYDIR, FAN_OPEN, AT_FDCWD, "nosuch");
    syscall(SYS_fanotify_mark, fan, 0x4000000, 0, -1, NULL);
    syscall(SYS_fanotify_mark, 99, FAN_MARK_FLUSH, 0, AT_FDCWD, NULL);

    /* Linux aio */
    aio_context_t ctx = 0;
    syscall(SYS_io_setup, 4, &ctx);
    syscall(SYS_io_setup, 0, &ctx);
    syscall(SYS_io_setup, 4, BAD);
    int data = open("data", O_CREAT | O_RDWR | O_TRUNC, 0644);
    char wbuf[8] = "aio-data";
    struct iocb cb;
    memset(&cb, 0, sizeof cb);
    cb.aio_data = 0x1234;
    cb.aio_lio_opcode = IOCB_CMD_PWRITE;
    cb.aio_fildes = data;
    cb.aio_buf = (uint64_t) (uintptr_t) wbuf;
    cb.aio_nbytes = sizeof wbuf;
    cb.aio_offset = 0;
    struct iocb *cbs[1] = { &cb };
    syscall(SYS_io_submit, ctx, 1, cbs);
    struct io_event ev[2];
    struct timespec tmo = { 1, 0 };
    syscall(SYS_io_getevents, ctx, 1, 2, ev, &tmo);
    syscall(SYS_io_getevents, ctx, 0, 2, ev, &(struct timespec){ 0, 0 });
    syscall(SYS_io_submit, ctx, 1, BAD);
    syscall(SYS_io_submit, 0, 0, NULL);
    syscall(SYS_io_cancel, ctx, &cb, ev);
    syscall(SYS_io_pgetevents, ctx, 0, 1, ev, &(struct timespec){ 0, 0 }, NULL);
    syscall(SYS_io_destroy, ctx);
    syscall(SYS_io_destroy, 0);

    /* io_uring */
    struct io_uring_params params;
    memset(&params, 0, sizeof params);
    syscall(SYS_io_uring_setup, 0, &params);
    syscall(SYS_io_uring_setup, 4, BAD);
    memset(&params, 0, sizeof params);
    int ring = syscall(SYS_io_uring_setup, 4, &params);
    syscall(SYS_io_uring_enter, ring, 0, 0, 0, NULL, 0);
    syscall(SYS_io_uring_register, ring, IORING_REGISTER_PROBE, BAD, 4);
    close(ring);
    memset(&params, 0, sizeof params);
    params.flags = 0x80000000;
    syscall(SYS_io_uring_setup, 4, &params);
    syscall(SYS_io_uring_enter, 99, 1, 1, IORING_ENTER_GETEVENTS, NULL, 8);
    syscall(SYS_io_uring_enter, 99, 0, 0, 0x80000000, NULL, 0);
    syscall(SYS_io_uring_register, 99, IORING_UNREGISTER_BUFFERS, NULL, 0);
    syscall(SYS_io_uring_register, 99, 0x1000, NULL, 0);

    close(data);
    unlink("data");
    chdir("..");
    rmdir(argv[1]);
    return 0;
}
