/* File-descriptor and path syscalls, successes and failures, inside argv[1].
 *
 * Every call uses a relative path after chdir(argv[1]) so the trace is the
 * same wherever the harness puts its scratch directory (only getcwd shows it,
 * and the harness runs both tracers in the same directory).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/stat.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    char buf[256];
    struct stat st;
    struct statx stx;
    int p[2];

    if (argc < 2)
        return 2;
    mkdir(argv[1], 0755);
    mkdir(argv[1], 0755);                          /* EEXIST */
    if (chdir(argv[1]) != 0)
        return 2;
    chdir("/nonexistent/dir");                     /* ENOENT */
    getcwd(buf, sizeof buf);

    int fd = openat(AT_FDCWD, "a.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
    openat(AT_FDCWD, "a.txt", O_CREAT | O_EXCL | O_WRONLY, 0600);  /* EEXIST */
    openat(AT_FDCWD, "nosuch/x", O_RDONLY);        /* ENOENT */
    write(fd, "hello world\n", 12);
    lseek(fd, 0, SEEK_SET);
    read(fd, buf, 5);
    pread(fd, buf, 5, 6);
    pwrite(fd, "HELLO", 5, 0);
    lseek(fd, -3, SEEK_END);
    syscall(SYS_fstat, fd, &st);
    fstat(fd, &st);
    stat("a.txt", &st);
    lstat("nosuch", &st);                          /* ENOENT */
    statx(AT_FDCWD, "a.txt", AT_STATX_SYNC_AS_STAT, STATX_BASIC_STATS, &stx);
    statx(AT_FDCWD, "nosuch", 0, STATX_ALL, &stx); /* ENOENT */

    mkdir("sub", 0700);
    mkdir("sub", 0700);                            /* EEXIST */
    symlink("a.txt", "link");
    readlink("link", buf, sizeof buf);
    readlink("a.txt", buf, sizeof buf);            /* EINVAL */

    int dfd = open(".", O_RDONLY | O_DIRECTORY);
    syscall(SYS_getdents64, dfd, buf, sizeof buf);
    syscall(SYS_getdents64, 99, buf, sizeof buf);  /* EBADF */
    close(dfd);

    rename("a.txt", "b.txt");
    rename("a.txt", "b.txt");                      /* ENOENT */
    renameat2(AT_FDCWD, "b.txt", AT_FDCWD, "c.txt", RENAME_NOREPLACE);
    renameat2(AT_FDCWD, "c.txt", AT_FDCWD, "link", RENAME_NOREPLACE);  /* EEXIST */

    int d = dup(fd);
    dup2(fd, 10);
    dup3(fd, 11, O_CLOEXEC);
    dup3(fd, fd, 0);                               /* EINVAL */
    dup2(99, 12);                                  /* EBADF */
    close(d);
    close(10);
    close(11);
    close(99);                                     /* EBADF */
    read(99, buf, 1);                              /* EBADF */

    pipe2(p, O_CLOEXEC | O_NONBLOCK);
    read(p[0], buf, sizeof buf);                   /* EAGAIN */
    fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    fcntl(fd, F_GETFD);
    fcntl(p[0], F_SETFL, O_NONBLOCK | O_APPEND);
    int d2 = fcntl(fd, F_DUPFD_CLOEXEC, 20);
    close(d2);
    close(p[0]);
    close(p[1]);

    access("c.txt", R_OK | W_OK);
    access("nosuch", F_OK);                        /* ENOENT */
    syscall(SYS_faccessat2, AT_FDCWD, "c.txt", R_OK, AT_EACCESS);
    syscall(SYS_faccessat2, AT_FDCWD, "nosuch", F_OK, AT_SYMLINK_NOFOLLOW);  /* ENOENT */
    close(fd);
    close(fd);                                     /* EBADF */

    unlink("c.txt");
    unlink("c.txt");                               /* ENOENT */
    unlink("link");
    rmdir("sub");
    chdir("..");
    rmdir(argv[1]);
    return 0;
}
