/* Every fcntl(2) command strace 6.1's fcntl.c distinguishes, with valid and invalid arguments. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035
#define F_SET_RW_HINT 1036
#define F_GET_FILE_RW_HINT 1037
#define F_SET_FILE_RW_HINT 1038
#endif

#define FC(fd, cmd, arg) syscall(SYS_fcntl, (long)(fd), (long)(cmd), (long)(arg))
#define BAD ((long)0xbadc0de0UL)

int main(void)
{
	char path[] = "/tmp/subcmd_fcntl_XXXXXX";
	int fd = mkstemp(path);
	unlink(path);
	int pfd[2];
	pipe(pfd);
	int mfd = memfd_create("seals", MFD_ALLOW_SEALING);

	FC(fd, F_DUPFD, 10);
	FC(fd, F_DUPFD_CLOEXEC, 20);
	FC(fd, F_DUPFD, -1);
	FC(fd, F_GETFD, 0);
	FC(fd, F_SETFD, FD_CLOEXEC);
	FC(fd, F_GETFD, 0);
	FC(fd, F_SETFD, 6);
	FC(fd, F_SETFD, 0);
	FC(fd, F_GETFL, 0);
	FC(fd, F_SETFL, O_NONBLOCK | O_APPEND);
	FC(fd, F_GETFL, 0);
	FC(pfd[0], F_GETFL, 0);

	struct flock fl = { F_WRLCK, SEEK_SET, 0, 100, 0 };
	FC(fd, F_SETLK, &fl);
	fl.l_type = F_RDLCK;
	fl.l_whence = SEEK_CUR;
	FC(fd, F_SETLKW, &fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	FC(fd, F_GETLK, &fl);
	fl.l_type = 9;
	fl.l_whence = 7;
	FC(fd, F_SETLK, &fl);
	FC(fd, F_GETLK, BAD);
	FC(fd, F_SETLK, NULL);
	struct flock ofl = { F_RDLCK, SEEK_SET, 200, 10, 0 };
	FC(fd, F_OFD_SETLK, &ofl);
	ofl.l_type = F_UNLCK;
	FC(fd, F_OFD_SETLKW, &ofl);
	ofl.l_type = F_WRLCK;
	FC(fd, F_OFD_GETLK, &ofl);
	ofl.l_pid = 5;
	FC(fd, F_OFD_GETLK, &ofl);

	FC(fd, F_GETOWN, 0);
	FC(fd, F_SETOWN, 0);
	FC(fd, F_SETOWN, -1);
	FC(fd, F_SETOWN, -123456);
	FC(fd, F_SETOWN, 1);    /* init: -Y names it, in the argument and in F_GETOWN's result */
	FC(fd, F_GETOWN, 0);
	FC(fd, F_SETOWN, 0);
	struct f_owner_ex ox = { F_OWNER_PID, 0 };
	FC(fd, F_SETOWN_EX, &ox);
	ox.type = F_OWNER_PGRP;
	FC(fd, F_SETOWN_EX, &ox);
	ox.type = 9;
	ox.pid = 1;
	FC(fd, F_SETOWN_EX, &ox);
	FC(fd, F_SETOWN_EX, BAD);
	ox.type = F_OWNER_TID;
	ox.pid = 1;
	FC(fd, F_SETOWN_EX, &ox);
	ox.type = F_OWNER_PGRP;
	FC(fd, F_SETOWN_EX, &ox);
	FC(fd, F_GETOWN_EX, &ox);
	FC(fd, F_GETOWN_EX, BAD);

	FC(fd, F_GETSIG, 0);
	FC(fd, F_SETSIG, SIGUSR2);
	FC(fd, F_GETSIG, 0);
	FC(fd, F_SETSIG, 200);
	FC(fd, F_SETSIG, 0);

	FC(fd, F_GETLEASE, 0);
	FC(fd, F_SETLEASE, F_RDLCK);
	FC(fd, F_GETLEASE, 0);
	FC(fd, F_SETLEASE, F_UNLCK);
	FC(fd, F_SETLEASE, 9);

	int dfd = open("/tmp", O_RDONLY | O_DIRECTORY);
	FC(dfd, F_NOTIFY, DN_CREATE | DN_DELETE | DN_MULTISHOT);
	FC(dfd, F_NOTIFY, 0);
	FC(dfd, F_NOTIFY, 0x40000000);

	FC(pfd[0], F_GETPIPE_SZ, 0);
	FC(pfd[0], F_SETPIPE_SZ, 8192);
	FC(pfd[0], F_SETPIPE_SZ, -1);

	FC(mfd, F_GET_SEALS, 0);
	FC(mfd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
	FC(mfd, F_GET_SEALS, 0);
	FC(mfd, F_ADD_SEALS, 0x100);
	FC(fd, F_GET_SEALS, 0);

	uint64_t hint = 2;
	FC(fd, F_SET_RW_HINT, &hint);
	FC(fd, F_GET_RW_HINT, &hint);
	FC(fd, F_SET_FILE_RW_HINT, &hint);
	FC(fd, F_GET_FILE_RW_HINT, &hint);

	FC(fd, 0x7777, 0x1234);
	FC(fd, F_GETFD | 0x100000000L, 0);
	FC(-1, F_GETFD, 0);
	return 0;
}
