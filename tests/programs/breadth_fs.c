/* File-system syscalls without a decoder of their own before issue 3, called through
 * syscall(2) with valid and invalid arguments (EFAULT pointers, EBADF fds, bogus flags).
 *
 * argv[1] is a scratch directory created here (relative paths after chdir, so the
 * trace does not depend on where the harness puts it).  Every call's result is
 * deterministic: no timestamps, inode numbers or free-space counters are printed
 * except through structures the tests normalise.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/openat2.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>
#include <utime.h>

#define BAD ((void *) 8)  /* a pointer the kernel cannot read: EFAULT */

int main(int argc, char **argv)
{
    char buf[256];
    int p[2];

    if (argc < 2)
        return 2;
    mkdir(argv[1], 0755);
    if (chdir(argv[1]) != 0)
        return 2;

    int fd = open("a.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    int fd2 = open("b.txt", O_CREAT | O_RDWR | O_TRUNC, 0600);
    write(fd, "hello, breadth\n", 15);

    /* data movement between descriptors */
    off_t off = 0;
    syscall(SYS_sendfile, fd2, fd, &off, 5);
    syscall(SYS_sendfile, fd2, fd, NULL, 0);
    syscall(SYS_sendfile, 99, fd, NULL, 5);
    syscall(SYS_sendfile, fd2, fd, BAD, 5);
    loff_t in_off = 1, out_off = 0;
    syscall(SYS_copy_file_range, fd, &in_off, fd2, &out_off, 4, 0);
    syscall(SYS_copy_file_range, fd, NULL, fd2, NULL, 4, 0);
    syscall(SYS_copy_file_range, fd, NULL, fd2, NULL, 4, 7);
    pipe(p);
    loff_t soff = 0;
    syscall(SYS_splice, fd, &soff, p[1], NULL, 6, SPLICE_F_MOVE | SPLICE_F_MORE);
    syscall(SYS_splice, p[0], NULL, fd2, NULL, 6, 0);
    syscall(SYS_splice, 99, NULL, p[1], NULL, 6, 0x40);
    int q[2];
    pipe(q);
    write(p[1], "tee!", 4);
    syscall(SYS_tee, p[0], q[1], 4, SPLICE_F_NONBLOCK);
    syscall(SYS_tee, p[0], p[1], 4, 0);
    struct iovec iov = { "vmsplice", 8 };
    syscall(SYS_vmsplice, q[1], &iov, 1, SPLICE_F_GIFT);
    syscall(SYS_vmsplice, q[1], BAD, 1, 0);
    struct iovec wv = { "v2", 2 };
    char rb[4];
    struct iovec rv = { rb, sizeof rb };
    syscall(SYS_pwritev2, fd2, &wv, 1, 0, 0, RWF_DSYNC);
    syscall(SYS_preadv2, fd2, &rv, 1, 0, 0, RWF_NOWAIT);
    syscall(SYS_preadv2, fd2, &rv, 1, -1, 0, 0);
    syscall(SYS_pwritev2, fd2, &wv, 1, 0, 0, 0x100);
    syscall(SYS_preadv2, 99, &rv, 1, 0, 0, 0);

    /* space management and sync */
    syscall(SYS_fallocate, fd, 0, 0, 4096);
    syscall(SYS_fallocate, fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, 10);
    syscall(SYS_fallocate, fd, 0x100, 0, 10);
    syscall(SYS_fallocate, 99, 0, 0, 10);
    syscall(SYS_sync_file_range, fd, 0, 100, SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE);
    syscall(SYS_sync_file_range, fd, 0, 0, 0x10);
    syscall(SYS_readahead, fd, 0, 4096);
    syscall(SYS_readahead, 99, 0, 4096);
    syscall(SYS_sync);
    syscall(SYS_syncfs, fd);
    syscall(SYS_flock, fd, LOCK_SH | LOCK_NB);
    syscall(SYS_flock, fd, LOCK_UN);
    syscall(SYS_flock, 99, LOCK_EX);
    syscall(SYS_flock, fd, 0x40);

    /* ownership, times, nodes */
    syscall(SYS_chown, "a.txt", 0, 0);
    syscall(SYS_chown, "a.txt", -1, -1);
    syscall(SYS_lchown, "nosuch", 1, 2);
    syscall(SYS_fchown, fd, 0, -1);
    syscall(SYS_fchown, 99, 0, 0);
    syscall(SYS_fchownat, AT_FDCWD, "a.txt", 0, 0, AT_SYMLINK_NOFOLLOW);
    syscall(SYS_fchownat, AT_FDCWD, "", 0, 0, AT_EMPTY_PATH);
    struct utimbuf ut = { 1000000000, 1000000001 };
    syscall(SYS_utime, "a.txt", &ut);
    syscall(SYS_utime, "a.txt", NULL);
    syscall(SYS_utime, "a.txt", BAD);
    struct timeval tv[2] = { { 1000000000, 5 }, { 1000000001, 6 } };
    syscall(SYS_utimes, "a.txt", tv);
    syscall(SYS_utimes, "nosuch", NULL);
    syscall(SYS_futimesat, AT_FDCWD, "a.txt", tv);
    syscall(SYS_futimesat, 99, "a.txt", NULL);
    struct timespec ts[2] = { { 1000000000, 7 }, { 0, UTIME_NOW } };
    syscall(SYS_utimensat, AT_FDCWD, "a.txt", ts, 0);
    struct timespec ts2[2] = { { 0, UTIME_OMIT }, { 1, 999999999 } };
    syscall(SYS_utimensat, fd, NULL, ts2, 0);
    syscall(SYS_utimensat, AT_FDCWD, "a.txt", NULL, AT_SYMLINK_NOFOLLOW);
    syscall(SYS_utimensat, AT_FDCWD, "a.txt", BAD, 0x400);
    syscall(SYS_mknod, "fifo", S_IFIFO | 0644, 0);
    syscall(SYS_mknod, "chr", S_IFCHR | 0600, makedev(1, 3));
    syscall(SYS_mknod, "fifo", S_IFIFO | 0644, 0);
    syscall(SYS_mknodat, AT_FDCWD, "reg", S_IFREG | 0640, 0);
    syscall(SYS_mknodat, 99, "blk", S_IFBLK | 0600, makedev(8, 1));
    syscall(SYS_mknodat, AT_FDCWD, "sock", S_IFSOCK | 0777, 0);

    /* statfs */
    struct statfs { char x[120]; } sfs;
    syscall(SYS_statfs, "/proc", &sfs);
    syscall(SYS_fstatfs, fd, &sfs);
    syscall(SYS_statfs, "nosuch", &sfs);
    syscall(SYS_statfs, ".", BAD);
    syscall(SYS_fstatfs, 99, &sfs);
    syscall(SYS_fstatfs, fd, BAD);

    /* directories, old getdents */
    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    syscall(SYS_getdents, dfd, buf, 8);
    syscall(SYS_getdents, 99, buf, sizeof buf);

    /* openat2 */
    struct open_how how = { .flags = O_RDONLY | O_CLOEXEC, .mode = 0, .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS };
    int o2 = syscall(SYS_openat2, AT_FDCWD, "a.txt", &how, sizeof how);
    struct open_how how2 = { .flags = O_CREAT | O_WRONLY, .mode = 0600, .resolve = 0 };
    syscall(SYS_openat2, dfd, "c.txt", &how2, sizeof how2);
    syscall(SYS_openat2, AT_FDCWD, "a.txt", &how, 8);
    syscall(SYS_openat2, AT_FDCWD, "a.txt", BAD, sizeof how);
    struct open_how how3 = { .flags = O_RDONLY, .mode = 0, .resolve = 0x80 };
    syscall(SYS_openat2, AT_FDCWD, "a.txt", &how3, sizeof how3);

    /* close_range, memfd */
    dup2(fd, 40);
    dup2(fd, 41);
    syscall(SYS_close_range, 40, 41, 0);
    syscall(SYS_close_range, 50, 60, 2 /* CLOSE_RANGE_CLOEXEC */);
    syscall(SYS_close_range, 60, 50, 0);
    syscall(SYS_close_range, 3, 3, 0x8);
    int mfd = syscall(SYS_memfd_create, "breadth", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    syscall(SYS_memfd_create, "", 0);
    syscall(SYS_memfd_create, BAD, 0);
    syscall(SYS_memfd_create, "x", 0x100);

    /* handles */
    struct { unsigned int handle_bytes; int handle_type; unsigned char f_handle[128]; } fh;
    int mount_id;
    fh.handle_bytes = 128;
    syscall(SYS_name_to_handle_at, AT_FDCWD, "a.txt", &fh, &mount_id, 0);
    fh.handle_bytes = 0;
    syscall(SYS_name_to_handle_at, AT_FDCWD, "a.txt", &fh, &mount_id, AT_SYMLINK_FOLLOW);
    syscall(SYS_name_to_handle_at, AT_FDCWD, "nosuch", BAD, &mount_id, 0);
    syscall(SYS_open_by_handle_at, 99, BAD, O_RDONLY);

    /* mount family: a tmpfs on a scratch directory, then invalid variants */
    mkdir("mnt", 0755);
    syscall(SYS_mount, "none", "mnt", "tmpfs", MS_NOSUID | MS_NODEV, "size=64k,mode=0755");
    syscall(SYS_mount, NULL, "mnt", NULL, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL);
    syscall(SYS_mount, "none", "mnt", NULL, MS_PRIVATE | MS_REC, NULL);
    syscall(SYS_mount, "nosuch", "nowhere", "ext4", 0, NULL);
    syscall(SYS_mount, BAD, "mnt", "tmpfs", 0, NULL);
    syscall(SYS_umount2, "mnt", MNT_DETACH);
    syscall(SYS_umount2, "mnt", 0);
    syscall(SYS_umount2, "mnt", 0x80);
    syscall(SYS_pivot_root, "nosuch", "nowhere");
    syscall(SYS_chroot, "nosuch");
    syscall(SYS_swapon, "nosuch", 0x8000 | 3);
    syscall(SYS_swapoff, "nosuch");
    syscall(SYS_acct, "nosuch");
    syscall(SYS_quotactl, 0x800002 /* QCMD(Q_GETFMT, USRQUOTA)... */, "/dev/nosuch", 0, buf);

    close(mfd);
    close(o2);
    unlink("fifo");
    unlink("chr");
    unlink("reg");
    unlink("sock");
    unlink("c.txt");
    rmdir("mnt");
    unlink("a.txt");
    unlink("b.txt");
    chdir("..");
    rmdir(argv[1]);
    return 0;
}
