/* quotactl(2) on a real ext4 file system (a loop-mounted image made by the test).
 *
 * Usage: quota_ok real DEVICE MOUNTPOINT | quota_ok answers DEVICE
 *
 * "real": every command on the device.  This kernel has CONFIG_QUOTA but no quota format
 * (CONFIG_QFMT_V2 unset), so ext4 cannot turn quotas on: Q_SYNC, Q_XQUOTASYNC, Q_XGETQSTAT and
 * Q_XGETQSTATV succeed (the generic get_state answers with quotas off) and the per-id commands
 * fail with ESRCH, which is what the kernel really answers.
 *
 * "answers": the GET commands' buffers are filled in first and the test runs this with
 * -e inject=quotactl:retval=0, so both tracers decode the buffers as the kernel's answer (as
 * for the evdev requests in ioctl_structs.c). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/quota.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/dqblk_xfs.h>

#ifndef Q_GETNEXTQUOTA
#define Q_GETNEXTQUOTA 0x800009
#endif
#ifndef SYS_quotactl_fd
#define SYS_quotactl_fd 443
#endif

static long qc(unsigned int cmd, const char *special, long id, void *addr)
{
	return syscall(SYS_quotactl, cmd, special, id, addr);
}

static void real(const char *dev, const char *mnt)
{
	struct if_dqblk dq;
	struct if_nextdqblk ndq;
	struct if_dqinfo dqi;
	unsigned int fmt = 0;
	fs_quota_stat_t xqs;
	struct fs_quota_statv xqsv;
	fs_disk_quota_t xdq;

	memset(&xqsv, 0, sizeof(xqsv));
	xqsv.qs_version = FS_QSTATV_VERSION1;
	qc(QCMD(Q_SYNC, USRQUOTA), dev, 0, NULL);
	qc(QCMD(Q_SYNC, GRPQUOTA), dev, 0, NULL);
	qc(QCMD(Q_XQUOTASYNC, USRQUOTA), dev, 0, NULL);
	qc(QCMD(Q_XGETQSTAT, USRQUOTA), dev, 0, &xqs);
	qc(QCMD(Q_XGETQSTATV, USRQUOTA), dev, 0, &xqsv);
	qc(QCMD(Q_GETFMT, USRQUOTA), dev, 0, &fmt);
	qc(QCMD(Q_GETINFO, USRQUOTA), dev, 0, &dqi);
	qc(QCMD(Q_GETQUOTA, USRQUOTA), dev, 0, &dq);
	qc(QCMD(Q_GETNEXTQUOTA, GRPQUOTA), dev, 0, &ndq);
	qc(QCMD(Q_XGETQUOTA, USRQUOTA), dev, 0, &xdq);
	memset(&dq, 0, sizeof(dq));
	dq.dqb_bhardlimit = 2048;
	dq.dqb_bsoftlimit = 1024;
	dq.dqb_ihardlimit = 20;
	dq.dqb_isoftlimit = 10;
	dq.dqb_valid = QIF_LIMITS;
	qc(QCMD(Q_SETQUOTA, USRQUOTA), dev, 1000, &dq);
	int fd = open(mnt, O_RDONLY | O_DIRECTORY);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_SYNC, USRQUOTA), 0, NULL);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_XGETQSTAT, GRPQUOTA), 0, &xqs);
	syscall(SYS_quotactl_fd, fd, QCMD(Q_GETQUOTA, USRQUOTA), 0, &dq);
	close(fd);
}

static void answers(const char *dev)
{
	struct if_dqblk dq = { 2048, 1024, 65536, 20, 10, 3, 1700000000, 1700000100,
			       QIF_LIMITS | QIF_USAGE };
	struct if_nextdqblk ndq = { 4096, 0, 8192, 0, 0, 1, 0, 0, QIF_ALL, 1001 };
	struct if_dqinfo dqi = { 604800, 86400, DQF_ROOT_SQUASH | 0x8, IIF_ALL };
	unsigned int fmt = QFMT_VFS_V1;
	fs_quota_stat_t xqs;
	struct fs_quota_statv xqsv;
	fs_disk_quota_t xdq;

	memset(&xqs, 0, sizeof(xqs));
	xqs.qs_version = FS_QSTAT_VERSION;
	xqs.qs_flags = FS_QUOTA_UDQ_ACCT | FS_QUOTA_UDQ_ENFD;
	xqs.qs_uquota.qfs_ino = 3;
	xqs.qs_uquota.qfs_nblks = 2;
	xqs.qs_uquota.qfs_nextents = 1;
	xqs.qs_gquota.qfs_ino = 4;
	xqs.qs_incoredqs = 7;
	xqs.qs_btimelimit = 604800;
	xqs.qs_itimelimit = 604800;
	xqs.qs_bwarnlimit = 5;
	memset(&xqsv, 0, sizeof(xqsv));
	xqsv.qs_version = FS_QSTATV_VERSION1;
	xqsv.qs_flags = FS_QUOTA_GDQ_ACCT | FS_QUOTA_PDQ_ENFD;
	xqsv.qs_incoredqs = 9;
	xqsv.qs_pquota.qfs_ino = 5;
	xqsv.qs_pquota.qfs_nblks = 8;
	xqsv.qs_itimelimit = 3600;
	xqsv.qs_iwarnlimit = 2;
	memset(&xdq, 0, sizeof(xdq));
	xdq.d_version = FS_DQUOT_VERSION;
	xdq.d_flags = FS_GROUP_QUOTA;
	xdq.d_fieldmask = FS_DQ_BSOFT | FS_DQ_BHARD;
	xdq.d_id = 1002;
	xdq.d_blk_hardlimit = 400;
	xdq.d_bcount = 12;
	xdq.d_icount = 3;
	xdq.d_itimer = 1700000000;
	xdq.d_bwarns = 1;

	qc(QCMD(Q_GETQUOTA, USRQUOTA), dev, 1000, &dq);
	qc(QCMD(Q_GETNEXTQUOTA, USRQUOTA), dev, 1000, &ndq);
	qc(QCMD(Q_GETINFO, GRPQUOTA), dev, 0, &dqi);
	qc(QCMD(Q_GETFMT, USRQUOTA), dev, 0, &fmt);
	qc(QCMD(Q_XGETQSTAT, USRQUOTA), dev, 0, &xqs);
	qc(QCMD(Q_XGETQSTATV, USRQUOTA), dev, 0, &xqsv);
	qc(QCMD(Q_XGETQUOTA, GRPQUOTA), dev, 1002, &xdq);
	qc(QCMD(Q_XGETNEXTQUOTA, GRPQUOTA), dev, 1002, &xdq);
	qc(QCMD(Q_SETQUOTA, USRQUOTA), dev, 1000, &dq);
	qc(QCMD(Q_SETINFO, USRQUOTA), dev, 0, &dqi);
	qc(QCMD(Q_SYNC, USRQUOTA), dev, 0, NULL);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "real") == 0)
		real(argv[2], argv[3]);
	else if (argc == 3 && strcmp(argv[1], "answers") == 0)
		answers(argv[2]);
	else {
		fprintf(stderr, "usage: quota_ok real DEVICE MOUNTPOINT | quota_ok answers DEVICE\n");
		return 2;
	}
	return 0;
}
