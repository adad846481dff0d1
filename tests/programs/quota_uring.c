/* quotactl(2) commands and io_uring_register(2) opcodes, valid and invalid.
 *
 * quotactl: "/" is not a block device and quotas are not enabled anywhere here, so the calls fail
 * (ENOENT, ENOTBLK, EFAULT, EINVAL...): what is shown is how each command's arguments are printed,
 * the structures of the SET commands at entry and the GET ones' pointers after a failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/quota.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/dqblk_xfs.h>
#include <linux/io_uring.h>

static long qc(unsigned int cmd, const char *special, long id, void *addr)
{
	return syscall(SYS_quotactl, cmd, special, id, addr);
}

static long reg(int fd, unsigned int op, const void *arg, unsigned int nr)
{
	return syscall(SYS_io_uring_register, fd, op, arg, nr);
}

int main(void)
{
	struct if_dqblk dq = { 100, 50, 4096, 10, 5, 2, 0, 0, QIF_LIMITS };
	struct if_nextdqblk ndq;
	struct if_dqinfo dqi = { 604800, 86400, DQF_ROOT_SQUASH, IIF_BGRACE | IIF_FLAGS | 8 };
	fs_disk_quota_t xdq;
	fs_quota_stat_t xqs;
	struct fs_quota_statv xqsv;
	unsigned int fmt = 0, xflags = FS_QUOTA_UDQ_ACCT | FS_QUOTA_GDQ_ENFD;

	memset(&xdq, 0, sizeof(xdq));
	xdq.d_version = FS_DQUOT_VERSION;
	xdq.d_flags = FS_USER_QUOTA;
	xdq.d_fieldmask = FS_DQ_BSOFT | FS_DQ_BHARD;
	xdq.d_id = 1000;
	xdq.d_blk_hardlimit = 2048;
	xdq.d_blk_softlimit = 1024;
	memset(&xqsv, 0, sizeof(xqsv));
	xqsv.qs_version = FS_QSTATV_VERSION1;

	qc(QCMD(Q_QUOTAON, USRQUOTA), "/", QFMT_VFS_V1, "/aquota.user");
	qc(QCMD(Q_QUOTAON, GRPQUOTA), "/nonexistent", 9, "/aquota.group");
	qc(QCMD(Q_QUOTAOFF, USRQUOTA), "/", 0, NULL);
	qc(QCMD(Q_SYNC, PRJQUOTA), NULL, 0, NULL);
	qc(QCMD(Q_GETQUOTA, USRQUOTA), "/", 1000, &dq);
	qc(QCMD(Q_GETQUOTA, GRPQUOTA), "/", -1, NULL);
	qc(QCMD(Q_SETQUOTA, USRQUOTA), "/", 1000, &dq);
	qc(QCMD(Q_SETQUOTA, USRQUOTA), "/", 1000, (void *) 8);
	qc(QCMD(Q_GETNEXTQUOTA, USRQUOTA), "/", 0, &ndq);
	qc(QCMD(Q_GETINFO, USRQUOTA), "/", 0, &dqi);
	qc(QCMD(Q_SETINFO, GRPQUOTA), "/", 0, &dqi);
	qc(QCMD(Q_GETFMT, USRQUOTA), "/", 0, &fmt);
	qc(QCMD(Q_XQUOTAON, USRQUOTA), "/", 0, &xflags);
	qc(QCMD(Q_XQUOTAOFF, USRQUOTA), "/", 0, &xflags);
	qc(QCMD(Q_XQUOTARM, USRQUOTA), "/", 0, &xflags);
	qc(QCMD(Q_XGETQUOTA, USRQUOTA), "/", 1000, &xdq);
	qc(QCMD(Q_XSETQLIM, PRJQUOTA), "/", 1000, &xdq);
	qc(QCMD(Q_XGETNEXTQUOTA, USRQUOTA), "/", 0, &xdq);
	qc(QCMD(Q_XGETQSTAT, USRQUOTA), "/", 0, &xqs);
	qc(QCMD(Q_XGETQSTATV, USRQUOTA), "/", 0, &xqsv);
	qc(QCMD(Q_XQUOTASYNC, USRQUOTA), "/", 0, NULL);
	qc(QCMD(0x5a, 7), "/", 42, &dq);
	qc(QCMD(Q_GETQUOTA, USRQUOTA), (const char *) 8, 0, &dq);
	int root = open("/", O_RDONLY | O_DIRECTORY);
	syscall(443 /* quotactl_fd */, root, QCMD(Q_SETINFO, USRQUOTA), 0, &dqi);
	syscall(443 /* quotactl_fd */, root, QCMD(Q_GETNEXTQUOTA, PRJQUOTA), 5, &ndq);
	syscall(443 /* quotactl_fd */, root, QCMD(Q_SYNC, USRQUOTA), 0, NULL);
	close(root);

	/* io_uring_register */
	struct io_uring_params params;
	memset(&params, 0, sizeof(params));
	int ring = syscall(SYS_io_uring_setup, 4, &params);
	if (ring < 0)
		return 1;
	int devnull = open("/dev/null", O_RDONLY);
	int fds[3] = { devnull, -1, devnull };
	reg(ring, IORING_REGISTER_FILES, fds, 2);
	int upd_fds[3] = { -1, devnull, IORING_REGISTER_FILES_SKIP };
	struct io_uring_files_update upd = { 0, 0, (uintptr_t) upd_fds };
	reg(ring, IORING_REGISTER_FILES_UPDATE, &upd, 3);
	reg(ring, IORING_REGISTER_FILES_UPDATE, (void *) 8, 1);
	reg(ring, IORING_UNREGISTER_FILES, NULL, 0);

	struct {
		struct io_uring_probe probe;
		struct io_uring_probe_op ops[4];
	} probe;
	memset(&probe, 0, sizeof(probe));
	reg(ring, IORING_REGISTER_PROBE, &probe, 4);
	reg(ring, IORING_REGISTER_PROBE, &probe, 4);
	reg(ring, IORING_REGISTER_PROBE, &probe, 300);
	reg(ring, IORING_REGISTER_PROBE, (void *) 8, 2);

	long id = reg(ring, IORING_REGISTER_PERSONALITY, NULL, 0);
	reg(ring, IORING_UNREGISTER_PERSONALITY, NULL, id);
	reg(ring, IORING_UNREGISTER_PERSONALITY, NULL, 12345);

	struct io_uring_restriction res[5];
	memset(res, 0, sizeof(res));
	res[0].opcode = IORING_RESTRICTION_REGISTER_OP;
	res[0].register_op = IORING_REGISTER_PROBE;
	res[1].opcode = IORING_RESTRICTION_SQE_OP;
	res[1].sqe_op = IORING_OP_READV;
	res[2].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	res[2].sqe_flags = IOSQE_FIXED_FILE | IOSQE_IO_LINK;
	res[3].opcode = IORING_RESTRICTION_SQE_FLAGS_REQUIRED;
	res[3].sqe_flags = 0x80;
	res[3].resv = 3;
	res[4].opcode = 9;
	res[4].register_op = 7;
	reg(ring, IORING_REGISTER_RESTRICTIONS, res, 5);
	reg(ring, IORING_REGISTER_ENABLE_RINGS, NULL, 0);

	unsigned char cpus[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
	reg(ring, IORING_REGISTER_IOWQ_AFF, cpus, sizeof(cpus));
	reg(ring, IORING_UNREGISTER_IOWQ_AFF, NULL, 0);
	unsigned int workers[2] = { 0, 0 };
	reg(ring, IORING_REGISTER_IOWQ_MAX_WORKERS, workers, 2);
	workers[0] = 4;
	reg(ring, IORING_REGISTER_IOWQ_MAX_WORKERS, workers, 2);
	reg(ring, IORING_REGISTER_IOWQ_MAX_WORKERS, workers, 3);

	struct io_uring_rsrc_update rfd[2] = { { -1U, 0, ring }, { 5, 1, 0 } };
	reg(ring, IORING_REGISTER_RING_FDS, rfd, 1);
	reg(ring, IORING_UNREGISTER_RING_FDS, rfd, 2);
	/* Resource registration with tags, updates, buffers, provided-buffer rings. */
	static char bufmem[8192] __attribute__((aligned(4096)));
	uint64_t tags[2] = { 0x1234, 0 };
	struct iovec iov[2] = { { bufmem, 4096 }, { bufmem + 4096, 4096 } };
	struct io_uring_rsrc_register rr;
	memset(&rr, 0, sizeof(rr));
	rr.nr = 2;
	rr.data = (uintptr_t) fds;
	rr.tags = (uintptr_t) tags;
	reg(ring, IORING_REGISTER_FILES2, &rr, sizeof(rr));
	struct io_uring_rsrc_update2 up2;
	memset(&up2, 0, sizeof(up2));
	up2.data = (uintptr_t) upd_fds;
	up2.tags = (uintptr_t) tags;
	up2.nr = 1;
	up2.resv2 = 5;
	reg(ring, IORING_REGISTER_FILES_UPDATE2, &up2, sizeof(up2));
	reg(ring, IORING_REGISTER_FILES2, &rr, 16);
	unsigned char big[48];
	memset(big, 0, sizeof(big));
	memcpy(big, &rr, sizeof(rr));
	big[40] = 7;
	reg(ring, IORING_REGISTER_FILES2, big, sizeof(big));
	big[40] = 0;
	reg(ring, IORING_REGISTER_FILES2, big, sizeof(big));
	reg(ring, IORING_UNREGISTER_FILES, NULL, 0);
	reg(ring, IORING_REGISTER_BUFFERS, iov, 2);
	reg(ring, IORING_UNREGISTER_BUFFERS, NULL, 0);
	rr.data = (uintptr_t) iov;
	rr.flags = IORING_RSRC_REGISTER_SPARSE | 0x10;
	reg(ring, IORING_REGISTER_BUFFERS2, &rr, sizeof(rr));
	up2.data = (uintptr_t) iov;
	up2.resv2 = 0;
	reg(ring, IORING_REGISTER_BUFFERS_UPDATE, &up2, sizeof(up2));
	struct io_uring_buf_reg br;
	memset(&br, 0, sizeof(br));
	br.ring_addr = (uintptr_t) bufmem;
	br.ring_entries = 8;
	br.bgid = 1;
	reg(ring, IORING_REGISTER_PBUF_RING, &br, 1);
	br.pad = 1;
	br.resv[1] = 2;
	reg(ring, IORING_UNREGISTER_PBUF_RING, &br, 1);
	reg(ring, IORING_REGISTER_PBUF_RING, (void *) 8, 1);
	reg(ring, 0x77, (void *) 0x1000, 3);
	reg(-1, IORING_REGISTER_EVENTFD, fds, 1);
	close(ring);
	return 0;
}
