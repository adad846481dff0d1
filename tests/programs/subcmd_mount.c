/* The new mount API's sub-commands (fsconfig's FSCONFIG_*, fsopen/fsmount/fspick/open_tree/
 * move_mount/mount_setattr flags), mount(2)'s flag shapes, and the small multiplexers strace 6.1
 * decodes: sched_setattr/getattr, capget/capset, arch_prctl, personality.  Nothing is attached
 * to the mount tree: mount(2) calls fail, and the fsmount result is only closed. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/mount.h>
#include <linux/sched/types.h>
#include <stdint.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BAD ((long)0xbadc0de0UL)

int main(void)
{
	/* mount(2) */
	syscall(SYS_mount, "none", "/nonexistent/dir", "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=1m");
	syscall(SYS_mount, "none", "/nonexistent/dir", NULL, MS_REMOUNT | MS_BIND, NULL);
	syscall(SYS_mount, NULL, "/nonexistent/dir", NULL, MS_PRIVATE | MS_REC, NULL);
	syscall(SYS_mount, "/a", "/nonexistent/dir", NULL, MS_MOVE, NULL);
	syscall(SYS_mount, "none", "/nonexistent/dir", "tmpfs", MS_MGC_VAL | MS_NOEXEC, "x");
	syscall(SYS_mount, "none", "/nonexistent/dir", "tmpfs", 0x80000000UL | 0x40000000, BAD);
	syscall(SYS_umount2, "/nonexistent/dir", 2 /* MNT_DETACH */ | 8 /* UMOUNT_NOFOLLOW */);
	syscall(SYS_umount2, "/nonexistent/dir", 0x100);

	/* fsopen / fsconfig / fsmount */
	int fsfd = syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	syscall(SYS_fsopen, "nosuchfs", 0x10);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FLAG, "nosuchflag", NULL, 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, "size", "1m", 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_STRING, "mode", BAD, 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_BINARY, "blob", "\x01\x02\x03", 3);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_BINARY, "blob", "\x01\x02\x03", -1);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_PATH, "source", "/dev/null", AT_FDCWD);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_PATH_EMPTY, "source", "", 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FD, "fd", NULL, 0);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_CMD_RECONFIGURE, NULL, NULL, 0);
	syscall(SYS_fsconfig, fsfd, 99, BAD, BAD, 7);
	syscall(SYS_fsconfig, fsfd, FSCONFIG_SET_FLAG, "ro", NULL, 0);
	syscall(SYS_fsconfig, -1, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
	int fsfd2 = syscall(SYS_fsopen, "tmpfs", 0);
	syscall(SYS_fsconfig, fsfd2, FSCONFIG_CMD_CREATE, NULL, NULL, 0);
	int mfd = syscall(SYS_fsmount, fsfd2, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOATIME);
	syscall(SYS_fsmount, fsfd2, 0x2, MOUNT_ATTR_NODIRATIME | 0x10000000);
	syscall(SYS_fsmount, -1, 0, MOUNT_ATTR_STRICTATIME);

	/* fspick / open_tree / move_mount / mount_setattr */
	syscall(SYS_fspick, AT_FDCWD, "/nonexistent", FSPICK_CLOEXEC | FSPICK_SYMLINK_NOFOLLOW);
	syscall(SYS_fspick, -1, "", FSPICK_EMPTY_PATH | 0x100);
	syscall(SYS_open_tree, AT_FDCWD, "/nonexistent", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	syscall(SYS_open_tree, -1, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW | 0x2);
	syscall(SYS_move_mount, mfd, "", AT_FDCWD, "/nonexistent/dir", MOVE_MOUNT_F_EMPTY_PATH);
	syscall(SYS_move_mount, AT_FDCWD, "/a", AT_FDCWD, "/b", MOVE_MOUNT_T_SYMLINKS | MOVE_MOUNT_SET_GROUP | 0x1000);
	struct mount_attr ma;
	memset(&ma, 0, sizeof(ma));
	ma.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID;
	ma.attr_clr = MOUNT_ATTR__ATIME;
	ma.propagation = MS_SHARED;
	syscall(SYS_mount_setattr, mfd, "", AT_EMPTY_PATH, &ma, sizeof(ma));
	ma.attr_set = MOUNT_ATTR_IDMAP;
	ma.userns_fd = 99;
	ma.propagation = 0;
	syscall(SYS_mount_setattr, -1, "/nonexistent", AT_RECURSIVE, &ma, sizeof(ma));
	syscall(SYS_mount_setattr, -1, "/nonexistent", 0, &ma, 8);
	syscall(SYS_mount_setattr, -1, "/nonexistent", 0, BAD, sizeof(ma));
	close(mfd);

	/* sched_setattr / sched_getattr */
	struct sched_attr sa;
	memset(&sa, 0, sizeof(sa));
	syscall(SYS_sched_getattr, 0, &sa, sizeof(sa), 0);
	syscall(SYS_sched_getattr, 0, &sa, 16, 0);
	syscall(SYS_sched_getattr, 0, BAD, sizeof(sa), 0);
	sa.size = sizeof(sa);
	sa.sched_policy = 0;
	sa.sched_flags = 0x1; /* SCHED_FLAG_RESET_ON_FORK */
	sa.sched_nice = 0;
	syscall(SYS_sched_setattr, 0, &sa, 0);
	sa.sched_policy = 6; /* SCHED_DEADLINE */
	sa.sched_flags = 0x80;
	sa.sched_runtime = 1000;
	sa.sched_deadline = 2000;
	sa.sched_period = 3000;
	syscall(SYS_sched_setattr, 0, &sa, 1);
	sa.sched_policy = 99;
	sa.sched_util_min = 1;
	sa.sched_util_max = 2;
	syscall(SYS_sched_setattr, 0, &sa, 0);
	sa.size = 8;
	syscall(SYS_sched_setattr, 0, &sa, 0);

	/* capget / capset */
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	memset(data, 0, sizeof(data));
	syscall(SYS_capget, &hdr, data);
	syscall(SYS_capset, &hdr, data);
	hdr.version = _LINUX_CAPABILITY_VERSION_1;
	syscall(SYS_capget, &hdr, data);
	hdr.version = 0x12345678;
	syscall(SYS_capget, &hdr, data);
	hdr.version = _LINUX_CAPABILITY_VERSION_3;
	syscall(SYS_capget, &hdr, NULL);
	syscall(SYS_capget, BAD, data);
	hdr.pid = -1;
	syscall(SYS_capset, &hdr, data);

	/* arch_prctl */
	unsigned long v;
	syscall(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, &v);
	syscall(SYS_arch_prctl, 0x1004 /* ARCH_GET_GS */, BAD);
	syscall(SYS_arch_prctl, 0x1011 /* ARCH_GET_CPUID */, 0);
	syscall(SYS_arch_prctl, 0x1012 /* ARCH_SET_CPUID */, 1);
	uint64_t feat;
	syscall(SYS_arch_prctl, 0x1021 /* ARCH_GET_XCOMP_SUPP */, &feat);
	syscall(SYS_arch_prctl, 0x1022 /* ARCH_GET_XCOMP_PERM */, &feat);
	syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18);
	syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 1);
	syscall(SYS_arch_prctl, 0x1024 /* ARCH_GET_XCOMP_GUEST_PERM */, BAD);
	syscall(SYS_arch_prctl, 0x1025 /* ARCH_REQ_XCOMP_GUEST_PERM */, 77);
	syscall(SYS_arch_prctl, 0x2001 /* ARCH_MAP_VDSO_X32 */, 0);
	syscall(SYS_arch_prctl, 0x9999, 0x1234);

	/* personality */
	syscall(SYS_personality, 0xffffffff);
	syscall(SYS_personality, PER_LINUX | ADDR_NO_RANDOMIZE);
	syscall(SYS_personality, PER_LINUX32 | 0x8000000);
	syscall(SYS_personality, 0x7f);
	syscall(SYS_personality, PER_LINUX);
	return 0;
}
