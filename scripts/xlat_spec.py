"""Spec for scripts/gen_xlat.py: which constants go in each strace-style name table.

Why a spec and not a hand-written table: values are never typed in.  Each table names the
headers to compile against and the macro names it holds; gen_xlat.py asks the C compiler
for the values.  Names come from a pattern over the headers' macros where strace's table is
simply "every such macro, in value order"; where strace uses a particular subset or order
(flag tables, whose order decides output like ``O_RDONLY|O_CLOEXEC``), the names are listed
explicitly, in strace 6.1's order (taken from its src/xlat/*.in lists and checked against
/usr/bin/strace 6.1 with ``gen_xlat.py --crosscheck-strace``).

Entry syntax in ``entries``: ``NAME`` (value of the C identifier NAME), ``NAME=EXPR`` (print
NAME, value of the C expression EXPR, for names strace spells differently from the
headers), ``?NAME`` (drop NAME if this machine's headers lack it; the generated module
records what was dropped).  Names that no installed header exports (kernel-internal ones)
take their value from the table's ``fallbacks``: strace's own values for them.

Header choice: kernel uapi headers (<linux/...>, <asm/...>) wherever they define the
constant, because the tracee talks to the kernel, not to glibc (e.g. glibc's O_LARGEFILE is
0 on x86_64, the kernel's is 0o100000, and strace prints the kernel's).  glibc headers are
used only for constants the uapi headers do not export (AF_*, MSG_*, SOCK_*, ...).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """One generated table.

    name: the Python name in pytrace/tables/xlat.py.
    doc: comment written above the table (why it exists, how strace uses it).
    headers: #include <...> lines, in order.
    prelude: C text placed before the includes (feature macros, header-view overrides).
    entries: explicit names in strace's order (syntax in the module docstring).
    pattern: regex; every object-like macro matching it (fully) becomes an entry.
    pattern_files: limit pattern matches to macros defined in headers ending with these paths.
    exclude: names a pattern must skip (aliases, limits); each must exist, so stale ones fail.
    order: "value" sorts a pattern table by value (strace's order there), "name" by name.
    kernel_internal: (value, name) rows the kernel uses but exports in no installed header;
        the only typed-in numbers, kept for the errno codes strace prints (ERESTARTSYS...).
    style: "flags" (bit sets; hex literals) or "values" (enumerations; decimal literals).
    kind: "pairs" (tuple in strace order), "dict" (value -> name, first wins),
        "ioctl" (code -> names sharing it, " or "-joined), "strerror" (errno -> text).
    alias_of: strace reuses another table for this syscall argument; emit a reference.
    rt_bounds: C expressions for the kernel's SIGRTMIN/SIGRTMAX (signal names only).
    keys_from: for kind "strerror", the table whose values are the errno numbers.
    text_overrides: for kind "strerror", texts strace prints instead of strerror()'s.
    fallbacks: (NAME, C expression) for names that no installed header defines: constants
        internal to the kernel (SUID_DUMP_*, XFEATURE_*, SCM_SECURITY) or from headers this
        machine lacks (bluetooth/bluetooth.h, mISDNif.h).  The values are the ones strace 6.1
        itself falls back to in its src/xlat/*.in lists.  Each is #defined only #ifndef NAME,
        so a header that does define the name wins; the module records which were used.
    strace_xlat: False for helper tables with no counterpart in strace's xlat tables
        (skipped by the cross-check).
    parts: sub-tables compiled separately and concatenated in order, for tables whose
        names come from headers that cannot be included together (glibc vs. kernel).
    """

    name: str
    doc: str = ""
    headers: tuple[str, ...] = ()
    prelude: str = ""
    entries: tuple[str, ...] = ()
    pattern: str | None = None
    pattern_files: tuple[str, ...] = ()
    exclude: frozenset[str] = frozenset()
    order: str = "value"
    kernel_internal: tuple[tuple[int, str], ...] = ()
    style: str = "flags"
    kind: str = "pairs"
    alias_of: str | None = None
    rt_bounds: tuple[str, str] | None = None
    keys_from: str | None = None
    text_overrides: tuple[tuple[int, str], ...] = ()
    fallbacks: tuple[tuple[str, str], ...] = ()
    strace_xlat: bool = True
    parts: tuple[Table, ...] = ()


MODULE_DOC = """
strace 6.1's constant and flag-name tables ("xlat"), for x86_64 tracees.

Generated from this machine's kernel uapi and glibc headers by scripts/gen_xlat.py
(names and order: scripts/xlat_spec.py; values: the C compiler).

Shapes:
- ``tuple[tuple[int, str], ...]``: (value, name) rows in strace's order.  For flag sets
  strace walks the rows in order and prints every row whose value is non-zero and whose
  bits are all set, clearing those bits, then any leftover bits as ``0x...``; so the
  order decides output such as ``O_RDWR|O_LARGEFILE|O_TMPFILE``.  For single values the
  first row with an equal value wins.
- ``dict[int, str]``: value -> the one name strace prints for it.
"""

# The table lists below are data laid out by hand (names packed in strace's order), so
# the formatter leaves them alone.
# fmt: off

# --------------------------------------------------------------------------------------
# Files, paths, modes
# --------------------------------------------------------------------------------------

FILES = [
    Table(
        name="OPEN_ACCMODE",
        doc="open(2) access mode (flags & O_ACCMODE); strace prints it first, then OPEN_FLAGS.",
        headers=("asm/fcntl.h",),
        entries=("O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"),
        style="values",
    ),
    Table(
        name="OPEN_FLAGS",
        doc=(
            "open(2) flags other than the access mode.  Kernel values: O_LARGEFILE is 0o100000\n"
            "and strace prints it on x86_64 too.  O_TMPFILE precedes __O_TMPFILE and O_DIRECTORY,\n"
            "O_SYNC precedes __O_SYNC and O_DSYNC, so the composite names win."
        ),
        headers=("asm/fcntl.h",),
        entries=(
            "O_CREAT", "O_EXCL", "O_NOCTTY", "O_TRUNC", "O_APPEND", "O_NONBLOCK", "O_SYNC",
            "__O_SYNC", "O_DSYNC", "O_DIRECT", "O_LARGEFILE", "O_NOFOLLOW", "O_NOATIME",
            "O_CLOEXEC", "O_PATH", "O_TMPFILE", "__O_TMPFILE", "O_DIRECTORY", "FASYNC",
        ),
    ),
    Table(
        name="PIPE_FLAGS",
        doc=(
            "pipe2(2) flags: strace 6.1 prints them with the open(2) flag table (so\n"
            "O_NOTIFICATION_PIPE shows as its alias O_EXCL)."
        ),
        alias_of="OPEN_FLAGS",
    ),
    Table(
        name="DUP3_FLAGS",
        doc="dup3(2) flags: strace 6.1 prints them with the open(2) flag table.",
        alias_of="OPEN_FLAGS",
    ),
    Table(
        name="AT_FLAGS",
        doc="*at(2) flags (unlinkat, fstatat, linkat, ...).  AT_EACCESS is in FACCESSAT_FLAGS.",
        headers=("linux/fcntl.h",),
        entries=(
            "AT_SYMLINK_NOFOLLOW", "AT_REMOVEDIR", "AT_SYMLINK_FOLLOW", "AT_NO_AUTOMOUNT",
            "AT_EMPTY_PATH", "AT_RECURSIVE",
        ),
    ),
    Table(
        name="FACCESSAT_FLAGS",
        doc="faccessat2(2) flags (AT_EACCESS shares its value with AT_REMOVEDIR).",
        headers=("linux/fcntl.h",),
        entries=("AT_SYMLINK_NOFOLLOW", "AT_EACCESS", "AT_EMPTY_PATH"),
    ),
    Table(
        name="AT_STATX_SYNC_TYPES",
        doc="statx(2) sync type bits; strace prints these before the AT_FLAGS part.",
        headers=("linux/fcntl.h",),
        entries=("AT_STATX_SYNC_AS_STAT", "AT_STATX_FORCE_SYNC", "AT_STATX_DONT_SYNC", "AT_STATX_SYNC_TYPE"),
    ),
    Table(
        name="ACCESS_MODES",
        doc="access(2) mode; F_OK (0) is what strace prints for a zero mode.",
        headers=("unistd.h",),
        entries=("F_OK", "R_OK", "W_OK", "X_OK"),
    ),
    Table(
        name="MODE_TYPE",
        doc="File type (mode & S_IFMT), looked up as a single value.",
        headers=("sys/stat.h",),
        entries=("S_IFREG", "S_IFSOCK", "S_IFIFO", "S_IFLNK", "S_IFDIR", "S_IFBLK", "S_IFCHR"),
        style="values",
    ),
    Table(
        name="MODE_BITS",
        doc=(
            "Special mode bits, in the order strace prints them before the octal permissions\n"
            "(strace hard-codes these rather than using an xlat table)."
        ),
        headers=("sys/stat.h",),
        entries=("S_ISUID", "S_ISGID", "S_ISVTX"),
        strace_xlat=False,
    ),
    Table(
        name="SEEK_WHENCE",
        doc="lseek(2) whence.",
        headers=("linux/fs.h",),
        entries=("SEEK_SET", "SEEK_CUR", "SEEK_END", "SEEK_DATA", "SEEK_HOLE"),
        style="values",
    ),
    Table(
        name="FADVISE_ADVICE",
        doc="fadvise64(2) advice (strace's advise.in order; DONTNEED/NOREUSE are the x86_64 values).",
        headers=("linux/fadvise.h",),
        entries=(
            "POSIX_FADV_NORMAL", "POSIX_FADV_RANDOM", "POSIX_FADV_SEQUENTIAL", "POSIX_FADV_WILLNEED",
            "POSIX_FADV_DONTNEED", "POSIX_FADV_NOREUSE",
        ),
        style="values",
    ),
    Table(
        name="FCNTL_CMDS",
        doc=(
            "fcntl(2) commands.  strace also names the 32-bit F_*LK64 commands (12..14) on\n"
            "x86_64; the uapi header defines them only when __BITS_PER_LONG is 32, so this\n"
            "table is compiled with that view of asm-generic/fcntl.h."
        ),
        prelude="#include <asm/bitsperlong.h>\n#undef __BITS_PER_LONG\n#define __BITS_PER_LONG 32",
        headers=("linux/fcntl.h",),
        entries=(
            "F_DUPFD", "F_GETFD", "F_SETFD", "F_GETFL", "F_SETFL", "F_GETLK", "F_SETLK", "F_SETLKW",
            "F_SETOWN", "F_GETOWN", "F_SETSIG", "F_GETSIG", "F_GETLK64", "F_SETLK64", "F_SETLKW64",
            "F_SETOWN_EX", "F_GETOWN_EX", "F_GETOWNER_UIDS", "F_OFD_GETLK", "F_OFD_SETLK",
            "F_OFD_SETLKW", "F_SETLEASE", "F_GETLEASE", "F_NOTIFY", "F_CANCELLK", "F_DUPFD_CLOEXEC",
            "F_SETPIPE_SZ", "F_GETPIPE_SZ", "F_ADD_SEALS", "F_GET_SEALS",
        ),
        style="values",
    ),
    Table(
        name="FLOCK_TYPES",
        doc="struct flock l_type (F_GETLK/F_SETLK...).",
        headers=("linux/fcntl.h",),
        entries=("F_RDLCK", "F_WRLCK", "F_UNLCK", "F_EXLCK", "F_SHLCK"),
        style="values",
    ),
    Table(
        name="SEAL_FLAGS",
        doc="F_ADD_SEALS/F_GET_SEALS seals.",
        headers=("linux/fcntl.h",),
        entries=("F_SEAL_SEAL", "F_SEAL_SHRINK", "F_SEAL_GROW", "F_SEAL_WRITE", "F_SEAL_FUTURE_WRITE"),
    ),
    Table(
        name="FD_FLAGS",
        doc="F_GETFD/F_SETFD flags.",
        headers=("fcntl.h",),
        entries=("FD_CLOEXEC",),
    ),
    Table(
        name="F_OWNER_TYPES",
        doc="F_GETOWN_EX/F_SETOWN_EX struct f_owner_ex type.",
        headers=("linux/fcntl.h",),
        entries=("F_OWNER_TID", "F_OWNER_PID", "F_OWNER_PGRP"),
        style="values",
    ),
    Table(
        name="NOTIFY_FLAGS",
        doc="F_NOTIFY (dnotify) event bits.",
        headers=("linux/fcntl.h",),
        entries=("DN_ACCESS", "DN_MODIFY", "DN_CREATE", "DN_DELETE", "DN_RENAME", "DN_ATTRIB", "DN_MULTISHOT"),
    ),
    Table(
        name="RENAME_FLAGS",
        doc="renameat2(2) flags.",
        headers=("linux/fs.h",),
        entries=("RENAME_NOREPLACE", "RENAME_EXCHANGE", "RENAME_WHITEOUT"),
    ),
    Table(
        name="STATX_MASK",
        doc="statx(2) mask; the composite STATX_ALL and STATX_BASIC_STATS come first.",
        headers=("linux/stat.h",),
        entries=(
            "STATX_ALL", "STATX_BASIC_STATS", "STATX_TYPE", "STATX_MODE", "STATX_NLINK", "STATX_UID",
            "STATX_GID", "STATX_ATIME", "STATX_MTIME", "STATX_CTIME", "STATX_INO", "STATX_SIZE",
            "STATX_BLOCKS", "STATX_BTIME", "STATX_MNT_ID", "STATX_DIOALIGN",
        ),
    ),
    Table(
        name="STATX_ATTRS",
        doc="statx stx_attributes bits.",
        headers=("linux/stat.h",),
        entries=(
            "STATX_ATTR_COMPRESSED", "STATX_ATTR_IMMUTABLE", "STATX_ATTR_APPEND", "STATX_ATTR_NODUMP",
            "STATX_ATTR_ENCRYPTED", "STATX_ATTR_AUTOMOUNT", "STATX_ATTR_MOUNT_ROOT", "STATX_ATTR_VERITY",
            "STATX_ATTR_DAX",
        ),
    ),
    Table(
        name="FS_MAGIC",
        doc=(
            "statfs(2) f_type: filesystem magic numbers, in value order (strace's table is sorted).\n"
            "linux/magic.h has most; the others live in filesystems' private headers."
        ),
        headers=("linux/magic.h",),
        entries=(
            "QNX4_SUPER_MAGIC", "Z3FOLD_MAGIC", "AUTOFS_SUPER_MAGIC", "DEVFS_SUPER_MAGIC",
            "EXT_SUPER_MAGIC", "MINIX_SUPER_MAGIC", "MINIX_SUPER_MAGIC2", "DEVPTS_SUPER_MAGIC",
            "MINIX2_SUPER_MAGIC", "MINIX2_SUPER_MAGIC2", "NILFS_SUPER_MAGIC", "HFS_SUPER_MAGIC",
            "HFSPLUS_SUPER_MAGIC", "MSDOS_SUPER_MAGIC", "MINIX3_SUPER_MAGIC", "SMB_SUPER_MAGIC",
            "NCP_SUPER_MAGIC", "EXOFS_SUPER_MAGIC", "NFS_SUPER_MAGIC", "ROMFS_MAGIC", "JFFS2_SUPER_MAGIC",
            "ISOFS_SUPER_MAGIC", "PROC_SUPER_MAGIC", "OPENPROM_SUPER_MAGIC", "USBDEVICE_SUPER_MAGIC",
            "ADFS_SUPER_MAGIC", "AFFS_SUPER_MAGIC", "EXT2_OLD_SUPER_MAGIC", "EXT2_SUPER_MAGIC",
            "ECRYPTFS_SUPER_MAGIC", "UFS_MAGIC", "CGROUP_SUPER_MAGIC", "EFS_SUPER_MAGIC",
            "HOSTFS_SUPER_MAGIC", "CEPH_SUPER_MAGIC", "TMPFS_MAGIC", "V9FS_MAGIC", "GFS2_MAGIC",
            "XIAFS_SUPER_MAGIC", "XENIX_SUPER_MAGIC", "SYSV4_SUPER_MAGIC", "SYSV2_SUPER_MAGIC",
            "COH_SUPER_MAGIC", "SHMFS_SUPER_MAGIC", "ANON_INODE_FS_MAGIC", "FUTEXFS_SUPER_MAGIC",
            "MTD_INODE_FS_MAGIC", "BALLOON_KVM_MAGIC", "UDF_SUPER_MAGIC", "BFS_MAGIC", "EXFAT_SUPER_MAGIC",
            "UBIFS_SUPER_MAGIC", "CRAMFS_MAGIC", "ZFS_SUPER_MAGIC", "JFS_SUPER_MAGIC", "BEFS_SUPER_MAGIC",
            "BINFMTFS_MAGIC", "SMACK_MAGIC", "DMA_BUF_MAGIC", "CRAMFS_MAGIC_WEND", "DEVMEM_MAGIC",
            "GPFS_SUPER_MAGIC", "PIPEFS_MAGIC", "REISERFS_SUPER_MAGIC", "SECRETMEM_MAGIC",
            "AFS_SUPER_MAGIC", "NTFS_SB_MAGIC", "SOCKFS_MAGIC", "UFS_CIGAM", "VZFS_SUPER_MAGIC",
            "STACK_END_MAGIC", "ZSMALLOC_MAGIC", "XFS_SUPER_MAGIC", "AAFS_MAGIC", "ZONEFS_MAGIC",
            "PSTOREFS_MAGIC", "AUFS_SUPER_MAGIC", "BDEVFS_MAGIC", "CONFIGFS_MAGIC", "SYSFS_MAGIC",
            "CGROUP2_SUPER_MAGIC", "DEBUGFS_MAGIC", "DAXFS_MAGIC", "FUSE_CTL_SUPER_MAGIC",
            "FUSE_SUPER_MAGIC", "QNX6_SUPER_MAGIC", "AFS_FS_MAGIC", "BINDERFS_SUPER_MAGIC", "NSFS_MAGIC",
            "SECURITYFS_MAGIC", "SQUASHFS_MAGIC", "BTRFS_TEST_MAGIC", "CODA_SUPER_MAGIC",
            "OCFS2_SUPER_MAGIC", "TRACEFS_MAGIC", "OVERLAYFS_SUPER_MAGIC", "RAMFS_MAGIC",
            "BTRFS_SUPER_MAGIC", "HUGETLBFS_MAGIC", "VXFS_SUPER_MAGIC", "XENFS_SUPER_MAGIC",
            "PPC_CMM_MAGIC", "LOGFS_MAGIC", "BPF_FS_MAGIC", "EFIVARFS_MAGIC", "EROFS_SUPER_MAGIC_V1",
            "F2FS_SUPER_MAGIC", "SELINUX_MAGIC", "HPFS_SUPER_MAGIC", "SMB2_SUPER_MAGIC", "CIFS_SUPER_MAGIC",
        ),
        fallbacks=(
            ("Z3FOLD_MAGIC", "0x00000033"), ("DEVFS_SUPER_MAGIC", "0x00001373"),
            ("EXT_SUPER_MAGIC", "0x0000137d"), ("HFS_SUPER_MAGIC", "0x00004244"),
            ("HFSPLUS_SUPER_MAGIC", "0x0000482b"), ("EXOFS_SUPER_MAGIC", "0x00005df5"),
            ("ROMFS_MAGIC", "0x00007275"), ("EXT2_OLD_SUPER_MAGIC", "0x0000ef51"), ("UFS_MAGIC", "0x00011954"),
            ("GFS2_MAGIC", "0x01161970"), ("XIAFS_SUPER_MAGIC", "0x012fd16d"),
            ("XENIX_SUPER_MAGIC", "0x012ff7b4"), ("SYSV4_SUPER_MAGIC", "0x012ff7b5"),
            ("SYSV2_SUPER_MAGIC", "0x012ff7b6"), ("COH_SUPER_MAGIC", "0x012ff7b7"),
            ("SHMFS_SUPER_MAGIC", "0x02011994"), ("BALLOON_KVM_MAGIC", "0x13661366"),
            ("BFS_MAGIC", "0x1badface"), ("UBIFS_SUPER_MAGIC", "0x24051905"), ("ZFS_SUPER_MAGIC", "0x2fc12fc1"),
            ("JFS_SUPER_MAGIC", "0x3153464a"), ("BEFS_SUPER_MAGIC", "0x42465331"),
            ("GPFS_SUPER_MAGIC", "0x47504653"), ("NTFS_SB_MAGIC", "0x5346544e"), ("UFS_CIGAM", "0x54190100"),
            ("VZFS_SUPER_MAGIC", "0x565a4653"), ("ZSMALLOC_MAGIC", "0x58295829"),
            ("AUFS_SUPER_MAGIC", "0x61756673"), ("CONFIGFS_MAGIC", "0x62656570"),
            ("FUSE_CTL_SUPER_MAGIC", "0x65735543"), ("VXFS_SUPER_MAGIC", "0xa501fcf5"),
            ("PPC_CMM_MAGIC", "0xc7571590"), ("LOGFS_MAGIC", "0xc97e8168"),
        ),
    ),
    Table(
        name="STATFS_FLAGS",
        doc=(
            "statfs(2) f_flags (ST_*; glibc's names, as the kernel exports none).  ST_VALID is the\n"
            "kernel's \"f_flags is filled in\" bit, which strace lists first."
        ),
        prelude="#define _GNU_SOURCE",
        headers=("sys/statvfs.h",),
        entries=(
            "ST_VALID", "ST_RDONLY", "ST_NOSUID", "ST_NODEV", "ST_NOEXEC", "ST_SYNCHRONOUS", "ST_MANDLOCK",
            "ST_NOATIME", "ST_NODIRATIME", "ST_RELATIME", "ST_NOSYMFOLLOW",
        ),
        fallbacks=(("ST_VALID", "0x0020"), ("ST_NOSYMFOLLOW", "0x2000")),
    ),
    Table(
        name="DIRENT_TYPES",
        doc="getdents(2) d_type (glibc's DT_*; the kernel exports none).",
        prelude="#define _DEFAULT_SOURCE",
        headers=("dirent.h",),
        entries=("DT_UNKNOWN", "DT_FIFO", "DT_CHR", "DT_DIR", "DT_BLK", "DT_REG", "DT_LNK", "DT_SOCK", "DT_WHT"),
        style="values",
    ),
    Table(
        name="XATTR_FLAGS",
        doc="setxattr(2) flags.",
        headers=("linux/xattr.h",),
        entries=("XATTR_CREATE", "XATTR_REPLACE"),
    ),
    Table(
        name="MOUNT_FLAGS",
        doc="mount(2) flags (MS_*), including the kernel-internal superblock bits uapi exports.",
        headers=("linux/mount.h",),
        entries=(
            "MS_RDONLY", "MS_NOSUID", "MS_NODEV", "MS_NOEXEC", "MS_SYNCHRONOUS", "MS_REMOUNT",
            "MS_MANDLOCK", "MS_DIRSYNC", "MS_NOSYMFOLLOW", "MS_NOATIME", "MS_NODIRATIME", "MS_BIND",
            "MS_MOVE", "MS_REC", "MS_SILENT", "MS_POSIXACL", "MS_UNBINDABLE", "MS_PRIVATE", "MS_SLAVE",
            "MS_SHARED", "MS_RELATIME", "MS_KERNMOUNT", "MS_I_VERSION", "MS_STRICTATIME", "MS_LAZYTIME",
            "MS_SUBMOUNT", "MS_NOREMOTELOCK", "MS_NOSEC", "MS_BORN", "MS_ACTIVE", "MS_NOUSER",
        ),
    ),
    Table(
        name="UMOUNT_FLAGS",
        doc="umount2(2) flags (the kernel does not export these; glibc does).",
        headers=("sys/mount.h",),
        entries=("MNT_FORCE", "MNT_DETACH", "MNT_EXPIRE", "UMOUNT_NOFOLLOW"),
    ),
    Table(
        name="INOTIFY_FLAGS",
        doc="inotify event mask bits (inotify_add_watch(2), struct inotify_event).",
        headers=("linux/inotify.h",),
        entries=(
            "IN_ACCESS", "IN_MODIFY", "IN_ATTRIB", "IN_CLOSE_WRITE", "IN_CLOSE_NOWRITE", "IN_OPEN",
            "IN_MOVED_FROM", "IN_MOVED_TO", "IN_CREATE", "IN_DELETE", "IN_DELETE_SELF", "IN_MOVE_SELF",
            "IN_UNMOUNT", "IN_Q_OVERFLOW", "IN_IGNORED", "IN_ONLYDIR", "IN_DONT_FOLLOW",
            "IN_EXCL_UNLINK", "IN_MASK_CREATE", "IN_MASK_ADD", "IN_ISDIR", "IN_ONESHOT",
        ),
    ),
    Table(
        name="INOTIFY_INIT_FLAGS",
        doc="inotify_init1(2) flags.",
        headers=("linux/inotify.h",),
        entries=("IN_NONBLOCK", "IN_CLOEXEC"),
    ),
    Table(
        name="FLOCK_OPS",
        doc="flock(2) operation.",
        headers=("linux/fcntl.h",),
        entries=("LOCK_SH", "LOCK_EX", "LOCK_NB", "LOCK_UN", "LOCK_MAND", "LOCK_RW", "LOCK_READ", "LOCK_WRITE"),
    ),
    Table(
        name="FALLOC_FLAGS",
        doc="fallocate(2) mode.",
        headers=("linux/falloc.h",),
        entries=(
            "FALLOC_FL_KEEP_SIZE", "FALLOC_FL_PUNCH_HOLE", "FALLOC_FL_NO_HIDE_STALE",
            "FALLOC_FL_COLLAPSE_RANGE", "FALLOC_FL_ZERO_RANGE", "FALLOC_FL_INSERT_RANGE",
            "FALLOC_FL_UNSHARE_RANGE",
        ),
    ),
    Table(
        name="SPLICE_FLAGS",
        doc="splice(2)/tee(2)/vmsplice(2) flags.",
        prelude="#define _GNU_SOURCE",
        headers=("fcntl.h",),
        entries=("SPLICE_F_MOVE", "SPLICE_F_NONBLOCK", "SPLICE_F_MORE", "SPLICE_F_GIFT"),
    ),
]

# --------------------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------------------

MEMORY = [
    Table(
        name="MMAP_PROT",
        doc="mmap(2)/mprotect(2) protection; PROT_NONE is what strace prints for 0.",
        headers=("linux/mman.h",),
        entries=("PROT_NONE", "PROT_READ", "PROT_WRITE", "PROT_EXEC", "PROT_SEM", "PROT_GROWSDOWN", "PROT_GROWSUP"),
    ),
    Table(
        name="MMAP_FLAGS",
        doc=(
            "mmap(2) flags.  The first three rows are the MAP_TYPE field (MAP_SHARED,\n"
            "MAP_PRIVATE, MAP_SHARED_VALIDATE): strace looks up flags & MAP_TYPE as a value,\n"
            "then prints the remaining bits with the rest of the table in this order."
        ),
        headers=("linux/mman.h",),
        entries=(
            "MAP_SHARED", "MAP_PRIVATE", "MAP_SHARED_VALIDATE", "MAP_FIXED", "MAP_ANONYMOUS",
            "MAP_32BIT", "MAP_NORESERVE", "MAP_POPULATE", "MAP_NONBLOCK", "MAP_GROWSDOWN",
            "MAP_DENYWRITE", "MAP_EXECUTABLE", "MAP_FILE", "MAP_LOCKED", "MAP_STACK", "MAP_HUGETLB",
            "MAP_SYNC", "MAP_UNINITIALIZED", "MAP_FIXED_NOREPLACE",
        ),
    ),
    Table(
        name="MREMAP_FLAGS",
        doc="mremap(2) flags.",
        headers=("linux/mman.h",),
        entries=("MREMAP_MAYMOVE", "MREMAP_FIXED", "MREMAP_DONTUNMAP"),
    ),
    Table(
        name="MADVISE_ADVICE",
        doc="madvise(2) advice: every MADV_* the kernel defines, in value order.",
        headers=("linux/mman.h",),
        pattern=r"MADV_[A-Z0-9_]+",
        pattern_files=("asm-generic/mman-common.h",),
        style="values",
    ),
    Table(
        name="MSYNC_FLAGS",
        doc="msync(2) flags; strace lists MS_SYNC first.",
        headers=("linux/mman.h",),
        entries=("MS_SYNC", "MS_ASYNC", "MS_INVALIDATE"),
    ),
    Table(
        name="MLOCK_FLAGS",
        doc="mlock2(2) flags.",
        headers=("linux/mman.h",),
        entries=("MLOCK_ONFAULT",),
    ),
    Table(
        name="MLOCKALL_FLAGS",
        doc="mlockall(2) flags.",
        headers=("linux/mman.h",),
        entries=("MCL_CURRENT", "MCL_FUTURE", "MCL_ONFAULT"),
    ),
    Table(
        name="MEMBARRIER_CMDS",
        doc="membarrier(2) commands (looked up as one value, not as a flag set).",
        headers=("linux/membarrier.h",),
        entries=(
            "MEMBARRIER_CMD_QUERY", "MEMBARRIER_CMD_GLOBAL", "MEMBARRIER_CMD_GLOBAL_EXPEDITED",
            "MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED", "MEMBARRIER_CMD_PRIVATE_EXPEDITED",
            "MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED", "MEMBARRIER_CMD_PRIVATE_EXPEDITED_SYNC_CORE",
            "MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_SYNC_CORE",
            "MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ", "MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED_RSEQ",
        ),
    ),
    Table(
        name="MEMBARRIER_FLAGS",
        doc="membarrier(2) flags.",
        headers=("linux/membarrier.h",),
        entries=("MEMBARRIER_CMD_FLAG_CPU",),
    ),
]

# --------------------------------------------------------------------------------------
# Processes, scheduling, resources
# --------------------------------------------------------------------------------------

# x86 XSAVE feature numbers: an enum in the kernel's arch/x86/include/asm/fpu/types.h, which
# no uapi header exports (strace's x86_xfeature_bits.in values); the masks are built from them.
XFEATURE_BITS = (
    ("XFEATURE_FP", "0"), ("XFEATURE_SSE", "1"), ("XFEATURE_YMM", "2"), ("XFEATURE_BNDREGS", "3"),
    ("XFEATURE_BNDCSR", "4"), ("XFEATURE_OPMASK", "5"), ("XFEATURE_ZMM_Hi256", "6"),
    ("XFEATURE_Hi16_ZMM", "7"), ("XFEATURE_PT_UNIMPLEMENTED_SO_FAR", "8"), ("XFEATURE_PKRU", "9"),
    ("XFEATURE_PASID", "10"), ("XFEATURE_LBR", "15"), ("XFEATURE_XTILE_CFG", "17"),
    ("XFEATURE_XTILE_DATA", "18"),
)

PROCESS = [
    Table(
        name="ARCH_PRCTL_CODES",
        doc="arch_prctl(2) codes (x86).",
        headers=("asm/prctl.h",),
        pattern=r"ARCH_[A-Z0-9_]+",
        pattern_files=("asm/prctl.h",),
        style="values",
    ),
    Table(
        name="X86_XFEATURES",
        doc=(
            "arch_prctl(ARCH_GET_XCOMP_SUPP/_PERM) feature masks; the composite FPSSE, AVX512 and\n"
            "XTILE masks precede their parts so that they print as one name."
        ),
        entries=(
            "XFEATURE_MASK_FPSSE", "XFEATURE_MASK_FP", "XFEATURE_MASK_SSE", "XFEATURE_MASK_YMM",
            "XFEATURE_MASK_BNDREGS", "XFEATURE_MASK_BNDCSR", "XFEATURE_MASK_AVX512", "XFEATURE_MASK_OPMASK",
            "XFEATURE_MASK_ZMM_Hi256", "XFEATURE_MASK_Hi16_ZMM", "XFEATURE_MASK_PT", "XFEATURE_MASK_PKRU",
            "XFEATURE_MASK_PASID", "XFEATURE_MASK_LBR", "XFEATURE_MASK_XTILE", "XFEATURE_MASK_XTILE_CFG",
            "XFEATURE_MASK_XTILE_DATA",
        ),
        fallbacks=XFEATURE_BITS + (
            ("XFEATURE_MASK_FPSSE", "XFEATURE_MASK_FP | XFEATURE_MASK_SSE"),
            ("XFEATURE_MASK_FP", "1 << XFEATURE_FP"),
            ("XFEATURE_MASK_SSE", "1 << XFEATURE_SSE"),
            ("XFEATURE_MASK_YMM", "1 << XFEATURE_YMM"),
            ("XFEATURE_MASK_BNDREGS", "1 << XFEATURE_BNDREGS"),
            ("XFEATURE_MASK_BNDCSR", "1 << XFEATURE_BNDCSR"),
            ("XFEATURE_MASK_AVX512", "XFEATURE_MASK_OPMASK | XFEATURE_MASK_ZMM_Hi256 | XFEATURE_MASK_Hi16_ZMM"),
            ("XFEATURE_MASK_OPMASK", "1 << XFEATURE_OPMASK"),
            ("XFEATURE_MASK_ZMM_Hi256", "1 << XFEATURE_ZMM_Hi256"),
            ("XFEATURE_MASK_Hi16_ZMM", "1 << XFEATURE_Hi16_ZMM"),
            ("XFEATURE_MASK_PT", "1 << XFEATURE_PT_UNIMPLEMENTED_SO_FAR"),
            ("XFEATURE_MASK_PKRU", "1 << XFEATURE_PKRU"),
            ("XFEATURE_MASK_PASID", "1 << XFEATURE_PASID"),
            ("XFEATURE_MASK_LBR", "1 << XFEATURE_LBR"),
            ("XFEATURE_MASK_XTILE", "XFEATURE_MASK_XTILE_DATA | XFEATURE_MASK_XTILE_CFG"),
            ("XFEATURE_MASK_XTILE_CFG", "1 << XFEATURE_XTILE_CFG"),
            ("XFEATURE_MASK_XTILE_DATA", "1 << XFEATURE_XTILE_DATA"),
        ),
    ),
    Table(
        name="X86_XFEATURE_BITS",
        doc="arch_prctl(ARCH_REQ_XCOMP_PERM/_GUEST_PERM) feature number.",
        entries=tuple(name for name, _ in XFEATURE_BITS),
        fallbacks=XFEATURE_BITS,
        style="values",
    ),
    Table(
        name="PRCTL_OPTIONS",
        doc="prctl(2) options.",
        headers=("linux/prctl.h",),
        entries=(
            "PR_SET_PDEATHSIG", "PR_GET_PDEATHSIG", "PR_GET_DUMPABLE", "PR_SET_DUMPABLE",
            "PR_GET_UNALIGN", "PR_SET_UNALIGN", "PR_GET_KEEPCAPS", "PR_SET_KEEPCAPS", "PR_GET_FPEMU",
            "PR_SET_FPEMU", "PR_GET_FPEXC", "PR_SET_FPEXC", "PR_GET_TIMING", "PR_SET_TIMING",
            "PR_SET_NAME", "PR_GET_NAME", "PR_GET_ENDIAN", "PR_SET_ENDIAN", "PR_GET_SECCOMP",
            "PR_SET_SECCOMP", "PR_CAPBSET_READ", "PR_CAPBSET_DROP", "PR_GET_TSC", "PR_SET_TSC",
            "PR_GET_SECUREBITS", "PR_SET_SECUREBITS", "PR_SET_TIMERSLACK", "PR_GET_TIMERSLACK",
            "PR_TASK_PERF_EVENTS_DISABLE", "PR_TASK_PERF_EVENTS_ENABLE", "PR_MCE_KILL",
            "PR_MCE_KILL_GET", "PR_SET_MM", "PR_SET_CHILD_SUBREAPER", "PR_GET_CHILD_SUBREAPER",
            "PR_SET_NO_NEW_PRIVS", "PR_GET_NO_NEW_PRIVS", "PR_GET_TID_ADDRESS", "PR_SET_THP_DISABLE",
            "PR_GET_THP_DISABLE", "PR_MPX_ENABLE_MANAGEMENT", "PR_MPX_DISABLE_MANAGEMENT",
            "PR_SET_FP_MODE", "PR_GET_FP_MODE", "PR_CAP_AMBIENT", "PR_SVE_SET_VL", "PR_SVE_GET_VL",
            "PR_GET_SPECULATION_CTRL", "PR_SET_SPECULATION_CTRL", "PR_PAC_RESET_KEYS",
            "PR_SET_TAGGED_ADDR_CTRL", "PR_GET_TAGGED_ADDR_CTRL", "PR_SET_IO_FLUSHER",
            "PR_GET_IO_FLUSHER", "PR_SET_SYSCALL_USER_DISPATCH", "PR_PAC_SET_ENABLED_KEYS",
            "PR_PAC_GET_ENABLED_KEYS", "PR_SCHED_CORE", "PR_SME_SET_VL", "PR_SME_GET_VL", "PR_SET_VMA",
            "PR_SET_PTRACER",
        ),
        style="values",
    ),
    Table(
        name="PR_DUMPABLE",
        doc="PR_SET_DUMPABLE argument and PR_GET_DUMPABLE result (kernel-internal SUID_DUMP_*).",
        entries=("SUID_DUMP_DISABLE", "SUID_DUMP_USER", "SUID_DUMP_ROOT"),
        fallbacks=(("SUID_DUMP_DISABLE", "0"), ("SUID_DUMP_USER", "1"), ("SUID_DUMP_ROOT", "2")),
        style="values",
    ),
    Table(
        name="PR_UNALIGN_FLAGS",
        doc="PR_SET_UNALIGN/PR_GET_UNALIGN flags.",
        headers=("linux/prctl.h",),
        entries=("PR_UNALIGN_NOPRINT", "PR_UNALIGN_SIGBUS"),
    ),
    Table(
        name="CAP",
        doc="Capability numbers (PR_CAPBSET_READ/DROP, PR_CAP_AMBIENT).",
        headers=("linux/capability.h",),
        entries=(
            "CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL",
            "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE",
            "CAP_NET_BROADCAST", "CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
            "CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE", "CAP_SYS_PACCT",
            "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE", "CAP_SYS_RESOURCE", "CAP_SYS_TIME",
            "CAP_SYS_TTY_CONFIG", "CAP_MKNOD", "CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL",
            "CAP_SETFCAP", "CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
            "CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF", "CAP_CHECKPOINT_RESTORE",
        ),
        style="values",
    ),
    Table(
        name="PR_TSC",
        doc="PR_SET_TSC/PR_GET_TSC mode.",
        headers=("linux/prctl.h",),
        entries=("PR_TSC_ENABLE", "PR_TSC_SIGSEGV"),
        style="values",
    ),
    Table(
        name="PR_CAP_AMBIENT",
        doc="PR_CAP_AMBIENT sub-operations (arg2).",
        headers=("linux/prctl.h",),
        entries=("PR_CAP_AMBIENT_IS_SET", "PR_CAP_AMBIENT_RAISE", "PR_CAP_AMBIENT_LOWER",
                 "PR_CAP_AMBIENT_CLEAR_ALL"),
        style="values",
    ),
    Table(
        name="SECBITS",
        doc="PR_SET_SECUREBITS/PR_GET_SECUREBITS bits.",
        headers=("linux/securebits.h",),
        entries=(
            "SECBIT_NOROOT", "SECBIT_NOROOT_LOCKED", "SECBIT_NO_SETUID_FIXUP",
            "SECBIT_NO_SETUID_FIXUP_LOCKED", "SECBIT_KEEP_CAPS", "SECBIT_KEEP_CAPS_LOCKED",
            "SECBIT_NO_CAP_AMBIENT_RAISE", "SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED",
        ),
    ),
    Table(
        name="PR_MCE_KILL",
        doc="PR_MCE_KILL second argument.",
        headers=("linux/prctl.h",),
        entries=("PR_MCE_KILL_CLEAR", "PR_MCE_KILL_SET"),
        style="values",
    ),
    Table(
        name="PR_MCE_KILL_POLICY",
        doc="PR_MCE_KILL_SET policy and PR_MCE_KILL_GET result.",
        headers=("linux/prctl.h",),
        entries=("PR_MCE_KILL_LATE", "PR_MCE_KILL_EARLY", "PR_MCE_KILL_DEFAULT"),
        style="values",
    ),
    Table(
        name="PR_SET_MM",
        doc="PR_SET_MM sub-option.",
        headers=("linux/prctl.h",),
        entries=(
            "PR_SET_MM_START_CODE", "PR_SET_MM_END_CODE", "PR_SET_MM_START_DATA", "PR_SET_MM_END_DATA",
            "PR_SET_MM_START_STACK", "PR_SET_MM_START_BRK", "PR_SET_MM_BRK", "PR_SET_MM_ARG_START",
            "PR_SET_MM_ARG_END", "PR_SET_MM_ENV_START", "PR_SET_MM_ENV_END", "PR_SET_MM_AUXV",
            "PR_SET_MM_EXE_FILE", "PR_SET_MM_MAP", "PR_SET_MM_MAP_SIZE",
        ),
        style="values",
    ),
    Table(
        name="PR_FP_MODE",
        doc="PR_SET_FP_MODE/PR_GET_FP_MODE bits.",
        headers=("linux/prctl.h",),
        entries=("PR_FP_MODE_FR", "PR_FP_MODE_FRE"),
    ),
    Table(
        name="PR_SPEC_CMDS",
        doc="PR_GET/SET_SPECULATION_CTRL misfeature.",
        headers=("linux/prctl.h",),
        entries=("PR_SPEC_STORE_BYPASS", "PR_SPEC_INDIRECT_BRANCH", "PR_SPEC_L1D_FLUSH"),
        style="values",
    ),
    Table(
        name="PR_SPEC_GET_STORE_BYPASS_FLAGS",
        doc="PR_GET_SPECULATION_CTRL result bits (PR_SPEC_NOT_AFFECTED for 0).",
        headers=("linux/prctl.h",),
        entries=(
            "PR_SPEC_NOT_AFFECTED", "PR_SPEC_PRCTL", "PR_SPEC_ENABLE", "PR_SPEC_DISABLE",
            "PR_SPEC_FORCE_DISABLE", "PR_SPEC_DISABLE_NOEXEC",
        ),
    ),
    Table(
        name="PR_SPEC_SET_STORE_BYPASS_FLAGS",
        doc="PR_SET_SPECULATION_CTRL control value.",
        headers=("linux/prctl.h",),
        entries=("PR_SPEC_ENABLE", "PR_SPEC_DISABLE", "PR_SPEC_FORCE_DISABLE", "PR_SPEC_DISABLE_NOEXEC"),
    ),
    Table(
        name="PR_SET_VMA",
        doc="PR_SET_VMA sub-option.",
        headers=("linux/prctl.h",),
        entries=("PR_SET_VMA_ANON_NAME",),
        style="values",
    ),
    Table(
        name="PR_SUD_CMDS",
        doc="PR_SET_SYSCALL_USER_DISPATCH mode (arg2).",
        headers=("linux/prctl.h",),
        entries=("PR_SYS_DISPATCH_OFF", "PR_SYS_DISPATCH_ON"),
        style="values",
    ),
    Table(
        name="PR_SCHED_CORE_CMDS",
        doc="PR_SCHED_CORE command (arg2).",
        headers=("linux/prctl.h",),
        entries=("PR_SCHED_CORE_GET", "PR_SCHED_CORE_CREATE", "PR_SCHED_CORE_SHARE_TO",
                 "PR_SCHED_CORE_SHARE_FROM"),
        style="values",
    ),
    Table(
        name="PR_SCHED_CORE_PIDTYPES",
        doc="PR_SCHED_CORE pid type (arg4): the kernel-internal enum pid_type, no uapi header has it.",
        entries=("PIDTYPE_PID", "PIDTYPE_TGID", "PIDTYPE_PGID", "PIDTYPE_SID"),
        fallbacks=(("PIDTYPE_PID", "0"), ("PIDTYPE_TGID", "1"), ("PIDTYPE_PGID", "2"), ("PIDTYPE_SID", "3")),
        style="values",
    ),
    Table(
        name="PR_TAGGED_ADDR_ENABLE",
        doc="PR_SET/GET_TAGGED_ADDR_CTRL enable bit; strace names its absence ``!PR_TAGGED_ADDR_ENABLE``.",
        headers=("linux/prctl.h",),
        entries=("!PR_TAGGED_ADDR_ENABLE=0", "PR_TAGGED_ADDR_ENABLE"),
    ),
    Table(
        name="PR_TAGGED_ADDR_MTE_TCF",
        doc="PR_SET/GET_TAGGED_ADDR_CTRL MTE tag check fault mode (value & PR_MTE_TCF_MASK).",
        headers=("linux/prctl.h",),
        entries=("PR_MTE_TCF_NONE", "PR_MTE_TCF_SYNC", "PR_MTE_TCF_ASYNC", "PR_MTE_TCF_MASK"),
    ),
    Table(
        name="PR_PAC_KEYS",
        doc="PR_PAC_RESET_KEYS keys beyond PR_PAC_ENABLED_KEYS (strace prints both tables, this one second).",
        headers=("linux/prctl.h",),
        entries=("PR_PAC_APGAKEY",),
    ),
    Table(
        name="PR_PAC_ENABLED_KEYS",
        doc="PR_PAC_SET/GET_ENABLED_KEYS key bits.",
        headers=("linux/prctl.h",),
        entries=("PR_PAC_APIAKEY", "PR_PAC_APIBKEY", "PR_PAC_APDAKEY", "PR_PAC_APDBKEY"),
    ),
    Table(
        name="PR_SVE_VL_FLAGS",
        doc="PR_SVE_SET_VL/PR_SVE_GET_VL flag bits above the vector length.",
        headers=("linux/prctl.h",),
        entries=("PR_SVE_SET_VL_ONEXEC", "PR_SVE_VL_INHERIT"),
    ),
    Table(
        name="PR_SME_VL_FLAGS",
        doc="PR_SME_SET_VL/PR_SME_GET_VL flag bits above the vector length.",
        headers=("linux/prctl.h",),
        entries=("PR_SME_SET_VL_ONEXEC", "PR_SME_VL_INHERIT"),
    ),
    Table(
        name="CLONE_FLAGS",
        doc="clone(2) flags (the low byte, CSIGNAL, is the exit signal and printed separately).",
        headers=("linux/sched.h",),
        entries=(
            "CLONE_VM", "CLONE_FS", "CLONE_FILES", "CLONE_SIGHAND", "CLONE_PIDFD", "CLONE_PTRACE",
            "CLONE_VFORK", "CLONE_PARENT", "CLONE_THREAD", "CLONE_NEWNS", "CLONE_SYSVSEM",
            "CLONE_SETTLS", "CLONE_PARENT_SETTID", "CLONE_CHILD_CLEARTID", "CLONE_UNTRACED",
            "CLONE_CHILD_SETTID", "CLONE_NEWCGROUP", "CLONE_NEWUTS", "CLONE_NEWIPC", "CLONE_NEWUSER",
            "CLONE_NEWPID", "CLONE_NEWNET", "CLONE_IO",
        ),
    ),
    Table(
        name="CLONE3_FLAGS",
        doc="clone3(2) flags beyond CLONE_FLAGS (strace prints CLONE_FLAGS rows, then these).",
        headers=("linux/sched.h",),
        entries=("CLONE_NEWTIME", "CLONE_CLEAR_SIGHAND", "CLONE_INTO_CGROUP"),
    ),
    Table(
        name="UNSHARE_FLAGS",
        doc="unshare(2)/setns(2) flags.",
        headers=("linux/sched.h",),
        entries=(
            "CLONE_NEWTIME", "CLONE_VM", "CLONE_FS", "CLONE_FILES", "CLONE_SIGHAND", "CLONE_THREAD",
            "CLONE_NEWNS", "CLONE_SYSVSEM", "CLONE_NEWCGROUP", "CLONE_NEWUTS", "CLONE_NEWIPC",
            "CLONE_NEWUSER", "CLONE_NEWPID", "CLONE_NEWNET",
        ),
    ),
    Table(
        name="WAIT_OPTIONS",
        doc="wait4(2)/waitid(2) options; WUNTRACED has WSTOPPED's value and strace prints WSTOPPED.",
        headers=("linux/wait.h",),
        entries=("WNOHANG", "WEXITED", "WSTOPPED", "WCONTINUED", "WNOWAIT", "__WCLONE", "__WALL", "__WNOTHREAD"),
    ),
    Table(
        name="PTRACE_EVENTS",
        doc="PTRACE_EVENT_* in a wait status (status >> 16).",
        headers=("linux/ptrace.h",),
        entries=(
            "PTRACE_EVENT_FORK", "PTRACE_EVENT_VFORK", "PTRACE_EVENT_CLONE", "PTRACE_EVENT_EXEC",
            "PTRACE_EVENT_VFORK_DONE", "PTRACE_EVENT_EXIT", "PTRACE_EVENT_SECCOMP", "PTRACE_EVENT_STOP",
        ),
        style="values",
    ),
    Table(
        name="WAITID_TYPES",
        doc="waitid(2) idtype.",
        headers=("linux/wait.h",),
        entries=("P_ALL", "P_PID", "P_PGID", "P_PIDFD"),
        style="values",
    ),
    Table(
        name="SCHED_POLICIES",
        doc="sched_setscheduler(2) policy (SCHED_RESET_ON_FORK is printed separately).",
        prelude="#define _GNU_SOURCE",
        headers=("sched.h",),
        entries=("SCHED_OTHER", "SCHED_FIFO", "SCHED_RR", "SCHED_BATCH", "?SCHED_ISO", "SCHED_IDLE", "SCHED_DEADLINE"),
        style="values",
    ),
    Table(
        name="SCHED_FLAGS",
        doc="sched_setattr(2) sched_flags.",
        headers=("linux/sched.h",),
        entries=(
            "SCHED_FLAG_RESET_ON_FORK", "SCHED_FLAG_RECLAIM", "SCHED_FLAG_DL_OVERRUN",
            "SCHED_FLAG_KEEP_POLICY", "SCHED_FLAG_KEEP_PARAMS", "SCHED_FLAG_UTIL_CLAMP_MIN",
            "SCHED_FLAG_UTIL_CLAMP_MAX",
        ),
    ),
    Table(
        name="PERSONALITY_TYPES",
        doc="personality(2) execution domain (persona & PER_MASK).",
        headers=("linux/personality.h",),
        entries=(
            "PER_LINUX", "PER_LINUX_32BIT", "PER_LINUX_FDPIC", "PER_SVR4", "PER_SVR3", "PER_SCOSVR3",
            "PER_OSR5", "PER_WYSEV386", "PER_ISCR4", "PER_BSD", "PER_SUNOS", "PER_XENIX", "PER_LINUX32",
            "PER_LINUX32_3GB", "PER_IRIX32", "PER_IRIXN32", "PER_IRIX64", "PER_RISCOS", "PER_SOLARIS",
            "PER_UW7", "PER_OSF4", "PER_HPUX", "PER_MASK",
        ),
    ),
    Table(
        name="PERSONALITY_FLAGS",
        doc="personality(2) flag bits.",
        headers=("linux/personality.h",),
        entries=(
            "UNAME26", "ADDR_NO_RANDOMIZE", "FDPIC_FUNCPTRS", "MMAP_PAGE_ZERO", "ADDR_COMPAT_LAYOUT",
            "READ_IMPLIES_EXEC", "ADDR_LIMIT_32BIT", "SHORT_INODE", "WHOLE_SECONDS", "STICKY_TIMEOUTS",
            "ADDR_LIMIT_3GB",
        ),
    ),
    Table(
        name="RLIMIT_RESOURCES",
        doc="getrlimit(2)/prlimit64(2) resource: every RLIMIT_* the kernel defines.",
        headers=("asm/resource.h",),
        pattern=r"RLIMIT_[A-Z]+",
        style="values",
    ),
    Table(
        name="PRIO_WHICH",
        doc="getpriority(2)/setpriority(2) which.",
        headers=("linux/resource.h",),
        entries=("PRIO_PROCESS", "PRIO_PGRP", "PRIO_USER"),
        style="values",
    ),
    Table(
        name="RUSAGE_WHO",
        doc="getrusage(2) who (RUSAGE_CHILDREN and RUSAGE_BOTH are negative).",
        headers=("linux/resource.h",),
        entries=("RUSAGE_SELF", "RUSAGE_CHILDREN", "RUSAGE_BOTH", "RUSAGE_THREAD"),
        style="values",
    ),
    Table(
        name="GETRANDOM_FLAGS",
        doc="getrandom(2) flags.",
        headers=("linux/random.h",),
        entries=("GRND_NONBLOCK", "GRND_RANDOM", "GRND_INSECURE"),
    ),
    Table(
        name="AUDIT_ARCH",
        doc="AUDIT_ARCH_* (seccomp data, PTRACE_GET_SYSCALL_INFO), strace lists them by name.",
        headers=("linux/audit.h",),
        entries=(
            "AUDIT_ARCH_AARCH64", "AUDIT_ARCH_ALPHA", "AUDIT_ARCH_ARCOMPACT", "AUDIT_ARCH_ARCOMPACTBE",
            "AUDIT_ARCH_ARCV2", "AUDIT_ARCH_ARCV2BE", "AUDIT_ARCH_ARM", "AUDIT_ARCH_ARMEB",
            "AUDIT_ARCH_C6X", "AUDIT_ARCH_C6XBE", "AUDIT_ARCH_CRIS", "AUDIT_ARCH_CSKY", "AUDIT_ARCH_FRV",
            "AUDIT_ARCH_H8300", "AUDIT_ARCH_HEXAGON", "AUDIT_ARCH_I386", "AUDIT_ARCH_IA64",
            "AUDIT_ARCH_LOONGARCH32", "AUDIT_ARCH_LOONGARCH64", "AUDIT_ARCH_M32R", "AUDIT_ARCH_M68K",
            "AUDIT_ARCH_MICROBLAZE", "AUDIT_ARCH_MIPS", "AUDIT_ARCH_MIPS64", "AUDIT_ARCH_MIPS64N32",
            "AUDIT_ARCH_MIPSEL", "AUDIT_ARCH_MIPSEL64", "AUDIT_ARCH_MIPSEL64N32", "AUDIT_ARCH_NDS32",
            "AUDIT_ARCH_NDS32BE", "AUDIT_ARCH_NIOS2", "AUDIT_ARCH_OPENRISC", "AUDIT_ARCH_PARISC",
            "AUDIT_ARCH_PARISC64", "AUDIT_ARCH_PPC", "AUDIT_ARCH_PPC64", "AUDIT_ARCH_PPC64LE",
            "AUDIT_ARCH_RISCV32", "AUDIT_ARCH_RISCV64", "AUDIT_ARCH_S390", "AUDIT_ARCH_S390X",
            "AUDIT_ARCH_SH", "AUDIT_ARCH_SH64", "AUDIT_ARCH_SHEL", "AUDIT_ARCH_SHEL64", "AUDIT_ARCH_SPARC",
            "AUDIT_ARCH_SPARC64", "AUDIT_ARCH_TILEGX", "AUDIT_ARCH_TILEGX32", "AUDIT_ARCH_TILEPRO",
            "AUDIT_ARCH_UNICORE", "?AUDIT_ARCH_V850", "AUDIT_ARCH_X86_64", "AUDIT_ARCH_XTENSA",
        ),
    ),
    Table(
        name="SECCOMP_BPF_CONSTANTS",
        doc=(
            "Classic-BPF opcodes and seccomp/prctl constants (helper: the --seccomp-bpf filter that\n"
            "pytrace/backends/ptrace/seccomp.py assembles and the launcher installs)."
        ),
        headers=("linux/filter.h", "linux/seccomp.h", "linux/audit.h", "linux/prctl.h", "asm/unistd.h"),
        entries=(
            "BPF_LD", "BPF_JMP", "BPF_RET", "BPF_ALU", "BPF_MISC", "BPF_W", "BPF_ABS", "BPF_IMM", "BPF_K",
            "BPF_X", "BPF_JA", "BPF_JEQ", "BPF_JGT", "BPF_JGE", "BPF_JSET", "BPF_AND", "BPF_LSH", "BPF_RSH",
            "BPF_TAX", "BPF_MAXINSNS", "SECCOMP_RET_ALLOW", "SECCOMP_RET_TRACE", "SECCOMP_MODE_FILTER",
            "SECCOMP_SET_MODE_FILTER", "PR_SET_NO_NEW_PRIVS", "PR_SET_SECCOMP", "AUDIT_ARCH_X86_64",
            "AUDIT_ARCH_I386", "__X32_SYSCALL_BIT",
        ),
        style="values",
        strace_xlat=False,
    ),
]

# --------------------------------------------------------------------------------------
# Signals, time, synchronisation
# --------------------------------------------------------------------------------------

SIGNALS = [
    Table(
        name="SIGNAL_NAMES",
        doc=(
            "Signal number -> name.  Real-time signals are named from the kernel's SIGRTMIN (32,\n"
            "glibc's __SIGRTMIN), as strace 6.1 does: SIGRTMIN, SIGRT_1 ... SIGRT_32; other\n"
            "numbers print as decimal.  glibc's header, because the kernel's x86 uapi header has\n"
            "no SIGRTMAX value; the numbers are the kernel's."
        ),
        headers=("signal.h",),
        pattern=r"SIG[A-Z0-9]+",
        pattern_files=("bits/signum-generic.h", "bits/signum-arch.h"),
        exclude=frozenset({"SIGIOT", "SIGPOLL", "SIGCLD", "SIGRTMIN", "SIGRTMAX"}),
        rt_bounds=("__SIGRTMIN", "__SIGRTMAX"),
        kind="dict",
        style="values",
    ),
    Table(
        name="SIGACTION_FLAGS",
        doc=(
            "struct sigaction sa_flags, in strace's order (SA_RESTORER first).  SA_RESTORER is\n"
            "only in the kernel's header, SA_INTERRUPT only in glibc's, hence three parts."
        ),
        parts=(
            Table(name="", headers=("asm/signal.h",), entries=("SA_RESTORER", "SA_ONSTACK", "SA_RESTART")),
            Table(name="", prelude="#define _GNU_SOURCE", headers=("signal.h",), entries=("SA_INTERRUPT",)),
            Table(
                name="",
                headers=("asm/signal.h",),
                entries=("SA_NODEFER", "SA_RESETHAND", "SA_SIGINFO", "SA_NOCLDSTOP", "SA_NOCLDWAIT"),
            ),
        ),
    ),
    Table(
        name="SIGEV_NOTIFY",
        doc="struct sigevent sigev_notify (timer_create(2), mq_notify(2)).",
        headers=("asm/siginfo.h",),
        entries=("SIGEV_SIGNAL", "SIGEV_NONE", "SIGEV_THREAD", "SIGEV_THREAD_ID"),
        style="values",
    ),
    Table(
        name="SIGPROCMASK_HOW",
        doc="rt_sigprocmask(2) how.",
        headers=("asm/signal.h",),
        entries=("SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK"),
        style="values",
    ),
    Table(
        name="SIGINFO_CODES",
        doc="siginfo si_code values common to all signals (SI_*), several negative.",
        headers=("asm/siginfo.h",),
        entries=(
            "SI_USER", "SI_KERNEL", "SI_QUEUE", "SI_TIMER", "SI_MESGQ", "SI_ASYNCIO", "SI_SIGIO",
            "SI_TKILL", "SI_DETHREAD", "SI_ASYNCNL",
        ),
        style="values",
    ),
    Table(
        name="CLD_CODES",
        doc="si_code for SIGCHLD.",
        headers=("asm/siginfo.h",),
        entries=("CLD_EXITED", "CLD_KILLED", "CLD_DUMPED", "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED"),
        style="values",
    ),
    Table(
        name="SEGV_CODES",
        doc="si_code for SIGSEGV.",
        headers=("asm/siginfo.h",),
        entries=(
            "SEGV_MAPERR", "SEGV_ACCERR", "SEGV_BNDERR", "SEGV_PKUERR", "SEGV_ACCADI", "SEGV_ADIDERR",
            "SEGV_ADIPERR", "SEGV_MTEAERR", "SEGV_MTESERR",
        ),
        style="values",
    ),
    Table(
        name="BUS_CODES",
        doc="si_code for SIGBUS.",
        headers=("asm/siginfo.h",),
        entries=("BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO"),
        style="values",
    ),
    Table(
        name="ILL_CODES",
        doc="si_code for SIGILL.",
        headers=("asm/siginfo.h",),
        entries=(
            "ILL_ILLOPC", "ILL_ILLOPN", "ILL_ILLADR", "ILL_ILLTRP", "ILL_PRVOPC", "ILL_PRVREG",
            "ILL_COPROC", "ILL_BADSTK", "ILL_BADIADDR",
        ),
        style="values",
    ),
    Table(
        name="FPE_CODES",
        doc="si_code for SIGFPE.",
        headers=("asm/siginfo.h",),
        entries=(
            "FPE_INTDIV", "FPE_INTOVF", "FPE_FLTDIV", "FPE_FLTOVF", "FPE_FLTUND", "FPE_FLTRES",
            "FPE_FLTINV", "FPE_FLTSUB", "FPE_FLTUNK", "FPE_CONDTRAP",
        ),
        style="values",
    ),
    Table(
        name="TRAP_CODES",
        doc="si_code for SIGTRAP.",
        headers=("asm/siginfo.h",),
        entries=("TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF"),
        style="values",
    ),
    Table(
        name="POLL_CODES",
        doc="si_code for SIGPOLL/SIGIO.",
        headers=("asm/siginfo.h",),
        entries=("POLL_IN", "POLL_OUT", "POLL_MSG", "POLL_ERR", "POLL_PRI", "POLL_HUP"),
        style="values",
    ),
    Table(
        name="SYS_CODES",
        doc="si_code for SIGSYS.",
        headers=("asm/siginfo.h",),
        entries=("SYS_SECCOMP", "SYS_USER_DISPATCH"),
        style="values",
    ),
    Table(
        name="SIGNALFD_FLAGS",
        doc="signalfd4(2) flags.",
        headers=("linux/signalfd.h",),
        entries=("SFD_CLOEXEC", "SFD_NONBLOCK"),
    ),
    Table(
        name="FUTEX_OPS",
        doc=(
            "futex(2) op, looked up as one value: the base commands, their _PRIVATE forms and the\n"
            "FUTEX_CLOCK_REALTIME combinations strace names; other values print as hex."
        ),
        headers=("linux/futex.h",),
        entries=(
            "FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE", "FUTEX_WAKE_OP",
            "FUTEX_LOCK_PI", "FUTEX_UNLOCK_PI", "FUTEX_TRYLOCK_PI", "FUTEX_WAIT_BITSET",
            "FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI", "FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
            "FUTEX_WAIT_PRIVATE", "FUTEX_WAKE_PRIVATE", "FUTEX_FD|FUTEX_PRIVATE_FLAG",
            "FUTEX_REQUEUE_PRIVATE", "FUTEX_CMP_REQUEUE_PRIVATE", "FUTEX_WAKE_OP_PRIVATE",
            "FUTEX_LOCK_PI_PRIVATE", "FUTEX_UNLOCK_PI_PRIVATE", "FUTEX_TRYLOCK_PI_PRIVATE",
            "FUTEX_WAIT_BITSET_PRIVATE", "FUTEX_WAKE_BITSET_PRIVATE", "FUTEX_WAIT_REQUEUE_PI_PRIVATE",
            "FUTEX_CMP_REQUEUE_PI_PRIVATE", "FUTEX_LOCK_PI2_PRIVATE", "FUTEX_WAIT|FUTEX_CLOCK_REALTIME",
            "FUTEX_WAIT_PRIVATE|FUTEX_CLOCK_REALTIME", "FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME",
            "FUTEX_WAIT_BITSET_PRIVATE|FUTEX_CLOCK_REALTIME", "FUTEX_WAIT_REQUEUE_PI|FUTEX_CLOCK_REALTIME",
            "FUTEX_WAIT_REQUEUE_PI_PRIVATE|FUTEX_CLOCK_REALTIME",
        ),
        style="values",
    ),
    Table(
        name="FUTEX_OP_FLAGS",
        doc="futex(2) op modifier bits (helper: strace folds them into FUTEX_OPS names).",
        headers=("linux/futex.h",),
        entries=("FUTEX_PRIVATE_FLAG", "FUTEX_CLOCK_REALTIME"),
        strace_xlat=False,
    ),
    Table(
        name="FUTEX_WAKE_OPS",
        doc="FUTEX_WAKE_OP operation field of val3.",
        headers=("linux/futex.h",),
        entries=("FUTEX_OP_SET", "FUTEX_OP_ADD", "FUTEX_OP_OR", "FUTEX_OP_ANDN", "FUTEX_OP_XOR"),
        style="values",
    ),
    Table(
        name="FUTEX_WAKE_CMPS",
        doc="FUTEX_WAKE_OP comparison field of val3.",
        headers=("linux/futex.h",),
        entries=(
            "FUTEX_OP_CMP_EQ", "FUTEX_OP_CMP_NE", "FUTEX_OP_CMP_LT", "FUTEX_OP_CMP_LE", "FUTEX_OP_CMP_GT",
            "FUTEX_OP_CMP_GE",
        ),
        style="values",
    ),
    Table(
        name="FUTEX_BITSET",
        doc="FUTEX_WAIT_BITSET/FUTEX_WAKE_BITSET val3: only the match-any value has a name.",
        headers=("linux/futex.h",),
        entries=("FUTEX_BITSET_MATCH_ANY",),
    ),
    Table(
        name="CLOCK_IDS",
        doc="clock_gettime(2) etc. clock ids: every CLOCK_* in linux/time.h, in value order.",
        headers=("linux/time.h",),
        pattern=r"CLOCK_[A-Z_]+",
        pattern_files=("linux/time.h",),
        style="values",
    ),
    Table(
        name="TIMER_FLAGS",
        doc="clock_nanosleep(2)/timer_settime(2) flags.",
        headers=("linux/time.h",),
        entries=("TIMER_ABSTIME",),
    ),
    Table(
        name="TIMERFD_FLAGS",
        doc="timerfd_create(2)/timerfd_settime(2) flags (one table in strace).",
        headers=("sys/timerfd.h",),
        entries=("TFD_TIMER_ABSTIME", "TFD_TIMER_CANCEL_ON_SET", "TFD_CLOEXEC", "TFD_NONBLOCK"),
    ),
    Table(
        name="EVENTFD_FLAGS",
        doc="eventfd2(2) flags (the kernel does not export these; glibc does).",
        headers=("sys/eventfd.h",),
        entries=("EFD_SEMAPHORE", "EFD_CLOEXEC", "EFD_NONBLOCK"),
    ),
    Table(
        name="ITIMER_WHICH",
        doc="getitimer(2)/setitimer(2) which.",
        headers=("linux/time.h",),
        entries=("ITIMER_REAL", "ITIMER_VIRTUAL", "ITIMER_PROF"),
        style="values",
    ),
]

# --------------------------------------------------------------------------------------
# I/O multiplexing
# --------------------------------------------------------------------------------------

POLLING = [
    Table(
        name="POLL_EVENTS",
        doc="poll(2) events/revents.",
        headers=("linux/types.h", "linux/poll.h"),
        entries=(
            "POLLIN", "POLLPRI", "POLLOUT", "POLLERR", "POLLHUP", "POLLNVAL", "POLLRDNORM", "POLLRDBAND",
            "POLLWRNORM", "POLLWRBAND", "POLLMSG", "POLLREMOVE", "POLLRDHUP", "POLL_BUSY_LOOP",
        ),
    ),
    Table(
        name="EPOLL_EVENTS",
        doc="struct epoll_event events.",
        headers=("linux/eventpoll.h",),
        entries=(
            "EPOLLIN", "EPOLLPRI", "EPOLLOUT", "EPOLLERR", "EPOLLHUP", "EPOLLNVAL", "EPOLLRDNORM",
            "EPOLLRDBAND", "EPOLLWRNORM", "EPOLLWRBAND", "EPOLLMSG", "EPOLLRDHUP", "EPOLLEXCLUSIVE",
            "EPOLLWAKEUP", "EPOLLONESHOT", "EPOLLET",
        ),
    ),
    Table(
        name="EPOLL_CTL_OPS",
        doc="epoll_ctl(2) op.",
        headers=("linux/eventpoll.h",),
        entries=("EPOLL_CTL_ADD", "EPOLL_CTL_DEL", "EPOLL_CTL_MOD"),
        style="values",
    ),
    Table(
        name="EPOLL_CREATE_FLAGS",
        doc="epoll_create1(2) flags.",
        headers=("linux/eventpoll.h",),
        entries=("EPOLL_CLOEXEC",),
    ),
]

# --------------------------------------------------------------------------------------
# Sockets
# --------------------------------------------------------------------------------------

SOCKETS = [
    Table(
        name="ADDRESS_FAMILIES",
        doc="Address families: every AF_* glibc defines (the kernel does not export them), aliases left out.",
        headers=("sys/socket.h",),
        pattern=r"AF_[A-Za-z0-9_]+",
        exclude=frozenset({"AF_LOCAL", "AF_FILE", "AF_ROUTE", "AF_MAX"}),
        style="values",
    ),
    Table(
        name="SOCKET_TYPES",
        doc="socket(2) type & 0xf.",
        headers=("sys/socket.h",),
        entries=("SOCK_STREAM", "SOCK_DGRAM", "SOCK_RAW", "SOCK_RDM", "SOCK_SEQPACKET", "SOCK_DCCP", "SOCK_PACKET"),
        style="values",
    ),
    Table(
        name="SOCK_TYPE_FLAGS",
        doc="socket(2)/socketpair(2)/accept4(2) type flags.",
        headers=("sys/socket.h",),
        entries=("SOCK_CLOEXEC", "SOCK_NONBLOCK"),
    ),
    Table(
        name="IP_PROTOCOLS",
        doc="IPPROTO_* (socket(2) protocol for AF_INET/AF_INET6), in value order, aliases left out.",
        headers=("linux/in.h", "linux/in6.h"),
        pattern=r"IPPROTO_[A-Z0-9_]+",
        exclude=frozenset({"IPPROTO_HOPOPTS"}),
        style="values",
    ),
    Table(
        name="NETLINK_PROTOCOLS",
        doc="socket(2) protocol for AF_NETLINK.",
        headers=("linux/netlink.h",),
        entries=(
            "NETLINK_ROUTE", "NETLINK_UNUSED", "NETLINK_USERSOCK", "NETLINK_FIREWALL", "NETLINK_SOCK_DIAG",
            "NETLINK_NFLOG", "NETLINK_XFRM", "NETLINK_SELINUX", "NETLINK_ISCSI", "NETLINK_AUDIT",
            "NETLINK_FIB_LOOKUP", "NETLINK_CONNECTOR", "NETLINK_NETFILTER", "NETLINK_IP6_FW",
            "NETLINK_DNRTMSG", "NETLINK_KOBJECT_UEVENT", "NETLINK_GENERIC", "NETLINK_SCSITRANSPORT",
            "NETLINK_ECRYPTFS", "NETLINK_RDMA", "NETLINK_CRYPTO", "NETLINK_SMC",
        ),
        style="values",
    ),
    Table(
        name="ETHERNET_PROTOCOLS",
        doc=(
            "socket(2) protocol for AF_PACKET (ntohs of it) and sockaddr_ll sll_protocol: the ETH_P_*\n"
            "strace 6.1 knows, in value order (newer headers add ETH_P_PROFINET, ETH_P_ETHERCAT)."
        ),
        headers=("linux/if_ether.h",),
        entries=(
            "ETH_P_802_3", "ETH_P_AX25", "ETH_P_ALL", "ETH_P_802_2", "ETH_P_SNAP", "ETH_P_DDCMP",
            "ETH_P_WAN_PPP", "ETH_P_PPP_MP", "ETH_P_LOCALTALK", "ETH_P_CAN", "ETH_P_CANFD", "ETH_P_CANXL",
            "ETH_P_PPPTALK", "ETH_P_TR_802_2", "ETH_P_MOBITEX", "ETH_P_CONTROL", "ETH_P_IRDA",
            "ETH_P_ECONET", "ETH_P_HDLC", "ETH_P_ARCNET", "ETH_P_DSA", "ETH_P_TRAILER", "ETH_P_LOOP",
            "ETH_P_PHONET", "ETH_P_IEEE802154", "ETH_P_CAIF", "ETH_P_XDSA", "ETH_P_MAP", "ETH_P_MCTP",
            "ETH_P_PUP", "ETH_P_PUPAT", "ETH_P_802_3_MIN", "ETH_P_IP", "ETH_P_X25", "ETH_P_ARP",
            "ETH_P_BPQ", "ETH_P_IEEEPUP", "ETH_P_IEEEPUPAT", "ETH_P_ERSPAN2", "ETH_P_TSN", "ETH_P_BATMAN",
            "ETH_P_DEC", "ETH_P_DNA_DL", "ETH_P_DNA_RC", "ETH_P_DNA_RT", "ETH_P_LAT", "ETH_P_DIAG",
            "ETH_P_CUST", "ETH_P_SCA", "ETH_P_TEB", "ETH_P_RARP", "ETH_P_ATALK", "ETH_P_AARP",
            "ETH_P_8021Q", "ETH_P_IPX", "ETH_P_IPV6", "ETH_P_PAUSE", "ETH_P_SLOW", "ETH_P_WCCP",
            "ETH_P_MPLS_UC", "ETH_P_MPLS_MC", "ETH_P_ATMMPOA", "ETH_P_PPP_DISC", "ETH_P_PPP_SES",
            "ETH_P_LINK_CTL", "ETH_P_ATMFATE", "ETH_P_PAE", "ETH_P_REALTEK", "ETH_P_AOE", "ETH_P_8021AD",
            "ETH_P_802_EX1", "ETH_P_ERSPAN", "ETH_P_PREAUTH", "ETH_P_TIPC", "ETH_P_LLDP", "ETH_P_MRP",
            "ETH_P_MACSEC", "ETH_P_8021AH", "ETH_P_MVRP", "ETH_P_1588", "ETH_P_NCSI", "ETH_P_PRP",
            "ETH_P_CFM", "ETH_P_FCOE", "ETH_P_TDLS", "ETH_P_FIP", "ETH_P_IBOE", "ETH_P_80221", "ETH_P_HSR",
            "ETH_P_NSH", "ETH_P_LOOPBACK", "ETH_P_QINQ1", "ETH_P_QINQ2", "ETH_P_QINQ3", "ETH_P_EDSA",
            "ETH_P_DSA_8021Q", "ETH_P_DSA_A5PSW", "ETH_P_IFE", "ETH_P_AF_IUCV",
        ),
    ),
    Table(
        name="CAN_PROTOCOLS",
        doc="socket(2) protocol for AF_CAN.",
        headers=("linux/can.h",),
        entries=("CAN_RAW", "CAN_BCM", "CAN_TP16", "CAN_TP20", "CAN_MCNET", "CAN_ISOTP", "CAN_J1939"),
        style="values",
    ),
    Table(
        name="BT_PROTOCOLS",
        doc="socket(2) protocol for AF_BLUETOOTH (BlueZ's bluetooth/bluetooth.h; not installed here).",
        entries=(
            "BTPROTO_L2CAP", "BTPROTO_HCI", "BTPROTO_SCO", "BTPROTO_RFCOMM", "BTPROTO_BNEP", "BTPROTO_CMTP",
            "BTPROTO_HIDP", "BTPROTO_AVDTP",
        ),
        fallbacks=(
            ("BTPROTO_L2CAP", "0"), ("BTPROTO_HCI", "1"), ("BTPROTO_SCO", "2"), ("BTPROTO_RFCOMM", "3"),
            ("BTPROTO_BNEP", "4"), ("BTPROTO_CMTP", "5"), ("BTPROTO_HIDP", "6"), ("BTPROTO_AVDTP", "7"),
        ),
        style="values",
    ),
    Table(
        name="ISDN_PROTOCOLS",
        doc="socket(2) protocol for AF_ISDN (the kernel's mISDNif.h, not exported).",
        entries=(
            "ISDN_P_BASE", "ISDN_P_TE_S0", "ISDN_P_NT_S0", "ISDN_P_TE_E1", "ISDN_P_NT_E1", "ISDN_P_LAPD_TE",
            "ISDN_P_LAPD_NT", "ISDN_P_B_RAW", "ISDN_P_B_HDLC", "ISDN_P_B_X75SLP", "ISDN_P_B_L2DTMF",
            "ISDN_P_B_L2DSP", "ISDN_P_B_L2DSPHDLC",
        ),
        fallbacks=(
            ("ISDN_P_BASE", "0"), ("ISDN_P_TE_S0", "1"), ("ISDN_P_NT_S0", "2"), ("ISDN_P_TE_E1", "3"),
            ("ISDN_P_NT_E1", "4"), ("ISDN_P_LAPD_TE", "0x10"), ("ISDN_P_LAPD_NT", "0x11"),
            ("ISDN_P_B_RAW", "0x21"), ("ISDN_P_B_HDLC", "0x22"), ("ISDN_P_B_X75SLP", "0x23"),
            ("ISDN_P_B_L2DTMF", "0x24"), ("ISDN_P_B_L2DSP", "0x25"), ("ISDN_P_B_L2DSPHDLC", "0x26"),
        ),
        style="values",
    ),
    Table(
        name="PHONET_PROTOCOLS",
        doc="socket(2) protocol for AF_PHONET.",
        headers=("sys/socket.h", "linux/phonet.h"),
        entries=("PN_PROTO_TRANSPORT", "PN_PROTO_PHONET", "PN_PROTO_PIPE"),
        style="values",
    ),
    Table(
        name="CAIF_PROTOCOLS",
        doc="socket(2) protocol for AF_CAIF.",
        headers=("sys/socket.h", "linux/caif/caif_socket.h"),
        entries=(
            "CAIFPROTO_AT", "CAIFPROTO_DATAGRAM", "CAIFPROTO_DATAGRAM_LOOP", "CAIFPROTO_UTIL", "CAIFPROTO_RFM",
            "CAIFPROTO_DEBUG",
        ),
        style="values",
    ),
    Table(
        name="NFC_PROTOCOLS",
        doc="socket(2) protocol for AF_NFC.",
        headers=("linux/nfc.h",),
        entries=("NFC_SOCKPROTO_RAW", "NFC_SOCKPROTO_LLCP"),
        style="values",
    ),
    Table(
        name="KCM_PROTOCOLS",
        doc="socket(2) protocol for AF_KCM.",
        headers=("linux/kcm.h",),
        entries=("KCMPROTO_CONNECTED",),
        style="values",
    ),
    Table(
        name="HCI_CHANNELS",
        doc="struct sockaddr_hci's hci_channel (bluetooth/hci.h, not installed here).",
        entries=("HCI_CHANNEL_RAW", "HCI_CHANNEL_USER", "HCI_CHANNEL_MONITOR", "HCI_CHANNEL_CONTROL",
                 "HCI_CHANNEL_LOGGING"),
        fallbacks=(("HCI_CHANNEL_RAW", "0"), ("HCI_CHANNEL_USER", "1"), ("HCI_CHANNEL_MONITOR", "2"),
                   ("HCI_CHANNEL_CONTROL", "3"), ("HCI_CHANNEL_LOGGING", "4")),
        style="values",
    ),
    Table(
        name="AX25_PROTOCOLS",
        doc="socket(2) protocol for AF_AX25 (the kernel's include/net/ax25.h, not exported).",
        entries=("AX25_P_ROSE", "AX25_P_VJCOMP", "AX25_P_VJUNCOMP", "AX25_P_SEGMENT", "AX25_P_TEXNET",
                 "AX25_P_LQ", "AX25_P_ATALK", "AX25_P_ATALK_ARP", "AX25_P_IP", "AX25_P_ARP",
                 "AX25_P_FLEXNET", "AX25_P_NETROM", "AX25_P_TEXT"),
        fallbacks=(("AX25_P_ROSE", "0x01"), ("AX25_P_VJCOMP", "0x06"), ("AX25_P_VJUNCOMP", "0x07"),
                   ("AX25_P_SEGMENT", "0x08"), ("AX25_P_TEXNET", "0xc3"), ("AX25_P_LQ", "0xc4"),
                   ("AX25_P_ATALK", "0xca"), ("AX25_P_ATALK_ARP", "0xcb"), ("AX25_P_IP", "0xcc"),
                   ("AX25_P_ARP", "0xcd"), ("AX25_P_FLEXNET", "0xce"), ("AX25_P_NETROM", "0xcf"),
                   ("AX25_P_TEXT", "0xf0")),
        style="values",
    ),
    Table(
        name="SMC_PROTOCOLS",
        doc="socket(2) protocol for AF_SMC (the kernel's net/smc/smc.h, not exported).",
        entries=("SMCPROTO_SMC", "SMCPROTO_SMC6"),
        fallbacks=(("SMCPROTO_SMC", "0"), ("SMCPROTO_SMC6", "1")),
        style="values",
    ),
    Table(
        name="SOCKET_LEVELS",
        doc=(
            "setsockopt(2)/getsockopt(2) level.  strace names level 40 AF_VSOCK.  SOL_SCTP and\n"
            "SOL_UDPLITE are exported by no header; like SOL_TCP/SOL_UDP they equal the protocol\n"
            "number, which is where their values come from."
        ),
        headers=(
            "sys/socket.h", "netinet/in.h", "netinet/tcp.h", "netinet/udp.h", "linux/can/raw.h",
            "linux/sctp.h", "netipx/ipx.h", "netax25/ax25.h", "netatalk/at.h", "netrom/netrom.h",
            "netrose/rose.h",
        ),
        entries=(
            "SOL_IP", "SOL_SOCKET", "SOL_TCP", "SOL_UDP", "AF_VSOCK", "SOL_IPV6", "SOL_ICMPV6",
            "SOL_CAN_BASE", "SOL_CAN_RAW", "SOL_SCTP=IPPROTO_SCTP", "SOL_UDPLITE=IPPROTO_UDPLITE", "SOL_RAW", "SOL_IPX", "SOL_AX25",
            "SOL_ATALK", "SOL_NETROM", "SOL_ROSE", "SOL_DECNET", "SOL_X25", "SOL_PACKET", "SOL_ATM",
            "SOL_AAL", "SOL_IRDA", "SOL_NETBEUI", "SOL_LLC", "SOL_DCCP", "SOL_NETLINK", "SOL_TIPC",
            "SOL_RXRPC", "SOL_PPPOL2TP", "SOL_BLUETOOTH", "SOL_PNPIPE", "SOL_RDS", "SOL_IUCV", "SOL_CAIF",
            "SOL_ALG", "SOL_NFC", "SOL_KCM", "SOL_TLS", "SOL_XDP",
        ),
        style="values",
    ),
    Table(
        name="SOCKET_OPTIONS",
        doc="SOL_SOCKET option names (kernel asm/socket.h, the _OLD/_NEW time variants by name).",
        headers=("asm/socket.h",),
        entries=(
            "SO_DEBUG", "SO_REUSEADDR", "SO_TYPE", "SO_ERROR", "SO_DONTROUTE", "SO_BROADCAST", "SO_SNDBUF",
            "SO_RCVBUF", "SO_KEEPALIVE", "SO_OOBINLINE", "SO_NO_CHECK", "SO_PRIORITY", "SO_LINGER",
            "SO_BSDCOMPAT", "SO_REUSEPORT", "SO_PASSCRED", "SO_PEERCRED", "SO_RCVLOWAT", "SO_SNDLOWAT",
            "SO_RCVTIMEO_OLD", "SO_SNDTIMEO_OLD", "SO_SECURITY_AUTHENTICATION",
            "SO_SECURITY_ENCRYPTION_TRANSPORT", "SO_SECURITY_ENCRYPTION_NETWORK", "SO_BINDTODEVICE",
            "SO_DETACH_FILTER", "SO_PEERNAME", "SO_TIMESTAMP_OLD", "SO_ACCEPTCONN", "SO_PEERSEC",
            "SO_SNDBUFFORCE", "SO_RCVBUFFORCE", "SO_PASSSEC", "SO_TIMESTAMPNS_OLD", "SO_MARK",
            "SO_TIMESTAMPING_OLD", "SO_PROTOCOL", "SO_DOMAIN", "SO_RXQ_OVFL", "SO_WIFI_STATUS",
            "SO_PEEK_OFF", "SO_NOFCS", "SO_LOCK_FILTER", "SO_SELECT_ERR_QUEUE", "SO_BUSY_POLL",
            "SO_MAX_PACING_RATE", "SO_BPF_EXTENSIONS", "SO_INCOMING_CPU", "SO_ATTACH_BPF",
            "SO_ATTACH_REUSEPORT_CBPF", "SO_ATTACH_REUSEPORT_EBPF", "SO_CNX_ADVICE", "SO_MEMINFO",
            "SO_INCOMING_NAPI_ID", "SO_COOKIE", "SO_PEERGROUPS", "SO_ZEROCOPY", "SO_TXTIME",
            "SO_BINDTOIFINDEX", "SO_TIMESTAMP_NEW", "SO_TIMESTAMPNS_NEW", "SO_TIMESTAMPING_NEW",
            "SO_RCVTIMEO_NEW", "SO_SNDTIMEO_NEW", "SO_DETACH_REUSEPORT_BPF", "SO_PREFER_BUSY_POLL",
            "SO_BUSY_POLL_BUDGET", "SO_NETNS_COOKIE", "SO_BUF_LOCK", "SO_RESERVE_MEM", "SO_TXREHASH",
            "SO_RCVMARK",
        ),
        style="values",
    ),
    Table(
        name="SETSOCK_OPTIONS",
        doc="SOL_SOCKET options only setsockopt names (setsock_options; printxvals after SOCKET_OPTIONS).",
        headers=("asm/socket.h",),
        entries=("SO_ATTACH_FILTER",),
        style="values",
    ),
    Table(
        name="GETSOCK_OPTIONS",
        doc="SOL_SOCKET options only getsockopt names (getsock_options; SO_GET_FILTER is SO_ATTACH_FILTER).",
        headers=("asm/socket.h",),
        entries=("SO_GET_FILTER",),
        style="values",
    ),
    Table(
        name="SOCK_TXREHASH_VALS",
        doc="SO_TXREHASH value.",
        headers=("linux/socket.h",),
        entries=("SOCK_TXREHASH_DISABLED", "SOCK_TXREHASH_ENABLED", "SOCK_TXREHASH_DEFAULT"),
        style="values",
    ),
    Table(
        name="SCM_TYPES",
        doc=(
            "SOL_SOCKET control message types (cmsg_type).  SCM_RIGHTS/SCM_CREDENTIALS are in\n"
            "glibc's header only, SCM_SECURITY in no header (the kernel's include/linux/socket.h)."
        ),
        prelude="#define _GNU_SOURCE",
        headers=("sys/socket.h",),
        entries=(
            "SCM_RIGHTS", "SCM_CREDENTIALS", "SCM_SECURITY", "SO_WIFI_STATUS", "SO_TXTIME",
            "SO_TIMESTAMP_OLD", "SO_TIMESTAMPNS_OLD", "SO_TIMESTAMPING_OLD", "SO_TIMESTAMP_NEW",
            "SO_TIMESTAMPNS_NEW", "SO_TIMESTAMPING_NEW", "SCM_TIMESTAMPING_OPT_STATS",
            "SCM_TIMESTAMPING_PKTINFO",
        ),
        fallbacks=(("SCM_SECURITY", "3"),),
        style="values",
    ),
    Table(
        name="TCP_OPTIONS",
        doc="SOL_TCP option names (glibc's header: the kernel's dropped TCP_COOKIE_TRANSACTIONS).",
        headers=("netinet/tcp.h",),
        entries=(
            "TCP_NODELAY", "TCP_MAXSEG", "TCP_CORK", "TCP_KEEPIDLE", "TCP_KEEPINTVL", "TCP_KEEPCNT",
            "TCP_SYNCNT", "TCP_LINGER2", "TCP_DEFER_ACCEPT", "TCP_WINDOW_CLAMP", "TCP_INFO",
            "TCP_QUICKACK", "TCP_CONGESTION", "TCP_MD5SIG", "TCP_COOKIE_TRANSACTIONS",
            "TCP_THIN_LINEAR_TIMEOUTS", "TCP_THIN_DUPACK", "TCP_USER_TIMEOUT", "TCP_REPAIR",
            "TCP_REPAIR_QUEUE", "TCP_QUEUE_SEQ", "TCP_REPAIR_OPTIONS", "TCP_FASTOPEN", "TCP_TIMESTAMP",
            "TCP_NOTSENT_LOWAT", "TCP_CC_INFO", "TCP_SAVE_SYN", "TCP_SAVED_SYN", "TCP_REPAIR_WINDOW",
            "TCP_FASTOPEN_CONNECT", "TCP_ULP", "TCP_MD5SIG_EXT", "TCP_FASTOPEN_KEY",
            "TCP_FASTOPEN_NO_COOKIE", "TCP_ZEROCOPY_RECEIVE", "TCP_INQ", "TCP_TX_DELAY",
        ),
        style="values",
    ),
    Table(
        name="IP_OPTIONS",
        doc="SOL_IP option names (including the protocol-independent MCAST_* ones).",
        headers=("linux/in.h",),
        entries=(
            "IP_TOS", "IP_TTL", "IP_HDRINCL", "IP_OPTIONS", "IP_ROUTER_ALERT", "IP_RECVOPTS", "IP_RETOPTS",
            "IP_PKTINFO", "IP_PKTOPTIONS", "IP_MTU_DISCOVER", "IP_RECVERR", "IP_RECVTTL", "IP_RECVTOS",
            "IP_MTU", "IP_FREEBIND", "IP_IPSEC_POLICY", "IP_XFRM_POLICY", "IP_PASSSEC", "IP_TRANSPARENT",
            "IP_ORIGDSTADDR", "IP_MINTTL", "IP_NODEFRAG", "IP_CHECKSUM", "IP_BIND_ADDRESS_NO_PORT",
            "IP_RECVFRAGSIZE", "IP_RECVERR_RFC4884", "IP_MULTICAST_IF", "IP_MULTICAST_TTL",
            "IP_MULTICAST_LOOP", "IP_ADD_MEMBERSHIP", "IP_DROP_MEMBERSHIP", "IP_UNBLOCK_SOURCE",
            "IP_BLOCK_SOURCE", "IP_ADD_SOURCE_MEMBERSHIP", "IP_DROP_SOURCE_MEMBERSHIP", "IP_MSFILTER",
            "MCAST_JOIN_GROUP", "MCAST_BLOCK_SOURCE", "MCAST_UNBLOCK_SOURCE", "MCAST_LEAVE_GROUP",
            "MCAST_JOIN_SOURCE_GROUP", "MCAST_LEAVE_SOURCE_GROUP", "MCAST_MSFILTER", "IP_MULTICAST_ALL",
            "IP_UNICAST_IF",
        ),
        style="values",
    ),
    Table(
        name="IP_CMSG_TYPES",
        doc="SOL_IP control message types (cmsg_type); SCM_SECURITY is the kernel's IP_PASSSEC cmsg.",
        headers=("linux/in.h",),
        entries=(
            "IP_TOS", "IP_TTL", "IP_RECVOPTS", "IP_RETOPTS", "IP_PKTINFO", "IP_RECVERR", "IP_ORIGDSTADDR",
            "IP_CHECKSUM", "SCM_SECURITY",
        ),
        fallbacks=(("SCM_SECURITY", "3"),),
        style="values",
    ),
    Table(
        name="IPV6_OPTIONS",
        doc="SOL_IPV6 option names (including the MCAST_* ones).",
        headers=("linux/in.h", "linux/in6.h"),
        entries=(
            "IPV6_ADDRFORM", "IPV6_2292PKTINFO", "IPV6_2292HOPOPTS", "IPV6_2292DSTOPTS", "IPV6_2292RTHDR",
            "IPV6_2292PKTOPTIONS", "IPV6_CHECKSUM", "IPV6_2292HOPLIMIT", "IPV6_NEXTHOP", "IPV6_AUTHHDR",
            "IPV6_FLOWINFO", "IPV6_UNICAST_HOPS", "IPV6_MULTICAST_IF", "IPV6_MULTICAST_HOPS",
            "IPV6_MULTICAST_LOOP", "IPV6_ADD_MEMBERSHIP", "IPV6_DROP_MEMBERSHIP", "IPV6_ROUTER_ALERT",
            "IPV6_MTU_DISCOVER", "IPV6_MTU", "IPV6_RECVERR", "IPV6_V6ONLY", "IPV6_JOIN_ANYCAST",
            "IPV6_LEAVE_ANYCAST", "IPV6_MULTICAST_ALL", "IPV6_ROUTER_ALERT_ISOLATE",
            "IPV6_RECVERR_RFC4884", "IPV6_FLOWLABEL_MGR", "IPV6_FLOWINFO_SEND", "IPV6_IPSEC_POLICY",
            "IPV6_XFRM_POLICY", "IPV6_HDRINCL", "MCAST_JOIN_GROUP", "MCAST_BLOCK_SOURCE",
            "MCAST_UNBLOCK_SOURCE", "MCAST_LEAVE_GROUP", "MCAST_JOIN_SOURCE_GROUP",
            "MCAST_LEAVE_SOURCE_GROUP", "MCAST_MSFILTER", "IPV6_RECVPKTINFO", "IPV6_PKTINFO",
            "IPV6_RECVHOPLIMIT", "IPV6_HOPLIMIT", "IPV6_RECVHOPOPTS", "IPV6_HOPOPTS",
            "IPV6_RTHDRDSTOPTS", "IPV6_RECVRTHDR", "IPV6_RTHDR", "IPV6_RECVDSTOPTS", "IPV6_DSTOPTS",
            "IPV6_RECVPATHMTU", "IPV6_PATHMTU", "IPV6_DONTFRAG", "?IPV6_USE_MIN_MTU", "IPV6_RECVTCLASS",
            "IPV6_TCLASS", "IPV6_AUTOFLOWLABEL", "IPV6_ADDR_PREFERENCES", "IPV6_MINHOPCOUNT",
            "IPV6_ORIGDSTADDR", "IPV6_TRANSPARENT", "IPV6_UNICAST_IF", "IPV6_RECVFRAGSIZE",
            "IPV6_FREEBIND",
        ),
        style="values",
    ),
    Table(
        name="SOCK_UDP_OPTIONS",
        doc="SOL_UDP option names.",
        headers=("linux/udp.h",),
        entries=("UDP_CORK", "UDP_ENCAP", "UDP_NO_CHECK6_TX", "UDP_NO_CHECK6_RX", "UDP_SEGMENT", "UDP_GRO"),
        style="values",
    ),
    Table(
        name="SOCK_NETLINK_OPTIONS",
        doc="SOL_NETLINK option names.",
        headers=("linux/netlink.h",),
        entries=(
            "NETLINK_ADD_MEMBERSHIP", "NETLINK_DROP_MEMBERSHIP", "NETLINK_PKTINFO",
            "NETLINK_BROADCAST_ERROR", "NETLINK_NO_ENOBUFS", "NETLINK_RX_RING", "NETLINK_TX_RING",
            "NETLINK_LISTEN_ALL_NSID", "NETLINK_LIST_MEMBERSHIPS", "NETLINK_CAP_ACK", "NETLINK_EXT_ACK",
            "NETLINK_GET_STRICT_CHK",
        ),
        style="values",
    ),
    Table(
        name="SOCK_VSOCK_OPTIONS",
        doc="AF_VSOCK option names (strace checks the address family as the level, as the kernel does).",
        headers=("linux/vm_sockets.h",),
        entries=(
            "SO_VM_SOCKETS_BUFFER_SIZE", "SO_VM_SOCKETS_BUFFER_MIN_SIZE", "SO_VM_SOCKETS_BUFFER_MAX_SIZE",
            "SO_VM_SOCKETS_PEER_HOST_VM_ID", "SO_VM_SOCKETS_TRUSTED", "SO_VM_SOCKETS_CONNECT_TIMEOUT_OLD",
            "SO_VM_SOCKETS_NONBLOCK_TXRX", "SO_VM_SOCKETS_CONNECT_TIMEOUT_NEW",
        ),
        style="values",
    ),
    Table(
        name="SOCK_CAN_RAW_OPTIONS",
        doc="SOL_CAN_RAW option names.",
        headers=("linux/can/raw.h",),
        entries=(
            "CAN_RAW_FILTER", "CAN_RAW_ERR_FILTER", "CAN_RAW_LOOPBACK", "CAN_RAW_RECV_OWN_MSGS",
            "CAN_RAW_FD_FRAMES", "CAN_RAW_JOIN_FILTERS",
        ),
        style="values",
    ),
    Table(
        name="SOCK_SCTP_OPTIONS",
        doc="SOL_SCTP option names.",
        headers=("stdint.h", "sys/socket.h", "linux/sctp.h",),
        entries=(
            "SCTP_RTOINFO", "SCTP_ASSOCINFO", "SCTP_INITMSG", "SCTP_NODELAY", "SCTP_AUTOCLOSE",
            "SCTP_SET_PEER_PRIMARY_ADDR", "SCTP_PRIMARY_ADDR", "SCTP_ADAPTATION_LAYER",
            "SCTP_DISABLE_FRAGMENTS", "SCTP_PEER_ADDR_PARAMS", "SCTP_DEFAULT_SEND_PARAM", "SCTP_EVENTS",
            "SCTP_I_WANT_MAPPED_V4_ADDR", "SCTP_MAXSEG", "SCTP_STATUS", "SCTP_GET_PEER_ADDR_INFO",
            "SCTP_DELAYED_SACK", "SCTP_CONTEXT", "SCTP_FRAGMENT_INTERLEAVE", "SCTP_PARTIAL_DELIVERY_POINT",
            "SCTP_MAX_BURST", "SCTP_AUTH_CHUNK", "SCTP_HMAC_IDENT", "SCTP_AUTH_KEY", "SCTP_AUTH_ACTIVE_KEY",
            "SCTP_AUTH_DELETE_KEY", "SCTP_PEER_AUTH_CHUNKS", "SCTP_LOCAL_AUTH_CHUNKS",
            "SCTP_GET_ASSOC_NUMBER", "SCTP_GET_ASSOC_ID_LIST", "SCTP_AUTO_ASCONF", "SCTP_PEER_ADDR_THLDS",
            "SCTP_RECVRCVINFO", "SCTP_RECVNXTINFO", "SCTP_DEFAULT_SNDINFO", "SCTP_AUTH_DEACTIVATE_KEY",
            "SCTP_REUSE_PORT", "SCTP_PEER_ADDR_THLDS_V2", "SCTP_SOCKOPT_BINDX_ADD",
            "SCTP_SOCKOPT_BINDX_REM", "SCTP_SOCKOPT_PEELOFF", "SCTP_GET_PEER_ADDRS_NUM_OLD",
            "SCTP_GET_PEER_ADDRS_OLD", "SCTP_GET_LOCAL_ADDRS_NUM_OLD", "SCTP_GET_LOCAL_ADDRS_OLD",
            "SCTP_SOCKOPT_CONNECTX_OLD", "SCTP_GET_PEER_ADDRS", "SCTP_GET_LOCAL_ADDRS",
            "SCTP_SOCKOPT_CONNECTX", "SCTP_SOCKOPT_CONNECTX3", "SCTP_GET_ASSOC_STATS", "SCTP_PR_SUPPORTED",
            "SCTP_DEFAULT_PRINFO", "SCTP_PR_ASSOC_STATUS", "SCTP_PR_STREAM_STATUS",
            "SCTP_RECONFIG_SUPPORTED", "SCTP_ENABLE_STREAM_RESET", "SCTP_RESET_STREAMS", "SCTP_RESET_ASSOC",
            "SCTP_ADD_STREAMS", "SCTP_SOCKOPT_PEELOFF_FLAGS", "SCTP_STREAM_SCHEDULER",
            "SCTP_STREAM_SCHEDULER_VALUE", "SCTP_INTERLEAVING_SUPPORTED", "SCTP_SENDMSG_CONNECT",
            "SCTP_EVENT", "SCTP_ASCONF_SUPPORTED", "SCTP_AUTH_SUPPORTED", "SCTP_ECN_SUPPORTED",
            "SCTP_EXPOSE_POTENTIALLY_FAILED_STATE", "SCTP_REMOTE_UDP_ENCAPS_PORT",
            "SCTP_PLPMTUD_PROBE_INTERVAL",
        ),
        fallbacks=(
            ("SCTP_GET_PEER_ADDRS_NUM_OLD", "103"), ("SCTP_GET_PEER_ADDRS_OLD", "104"),
            ("SCTP_GET_LOCAL_ADDRS_NUM_OLD", "105"), ("SCTP_GET_LOCAL_ADDRS_OLD", "106"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_IPX_OPTIONS",
        doc="SOL_IPX option names (no installed header).",
        entries=(
            "IPX_TYPE",
        ),
        fallbacks=(
            ("IPX_TYPE", "1"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_AX25_OPTIONS",
        doc="SOL_AX25 option names.",
        headers=("sys/socket.h", "netax25/ax25.h",),
        entries=(
            "AX25_WINDOW", "AX25_T1", "AX25_N2", "AX25_T3", "AX25_T2", "AX25_BACKOFF", "AX25_EXTSEQ",
            "AX25_PIDINCL", "AX25_IDLE", "AX25_PACLEN", "AX25_IAMDIGI", "SO_BINDTODEVICE",
        ),
        style="values",
    ),
    Table(
        name="SOCK_PACKET_OPTIONS",
        doc="SOL_PACKET option names.",
        headers=("linux/if_packet.h",),
        entries=(
            "PACKET_ADD_MEMBERSHIP", "PACKET_DROP_MEMBERSHIP", "PACKET_RECV_OUTPUT", "PACKET_RX_RING",
            "PACKET_STATISTICS", "PACKET_COPY_THRESH", "PACKET_AUXDATA", "PACKET_ORIGDEV", "PACKET_VERSION",
            "PACKET_HDRLEN", "PACKET_RESERVE", "PACKET_TX_RING", "PACKET_LOSS", "PACKET_VNET_HDR",
            "PACKET_TX_TIMESTAMP", "PACKET_TIMESTAMP", "PACKET_FANOUT", "PACKET_TX_HAS_OFF",
            "PACKET_QDISC_BYPASS", "PACKET_ROLLOVER_STATS", "PACKET_FANOUT_DATA", "PACKET_IGNORE_OUTGOING",
        ),
        style="values",
    ),
    Table(
        name="SOCK_RAW_OPTIONS",
        doc="SOL_RAW option names.",
        headers=("linux/icmp.h",),
        entries=(
            "ICMP_FILTER",
        ),
        style="values",
    ),
    Table(
        name="SOCK_IRDA_OPTIONS",
        doc="SOL_IRDA option names (the uapi header is gone).",
        entries=(
            "IRLMP_ENUMDEVICES", "IRLMP_IAS_SET", "IRLMP_IAS_QUERY", "IRLMP_HINTS_SET", "IRLMP_QOS_SET",
            "IRLMP_QOS_GET", "IRLMP_MAX_SDU_SIZE", "IRLMP_IAS_GET", "IRLMP_IAS_DEL", "IRLMP_HINT_MASK_SET",
            "IRLMP_WAITDEVICE",
        ),
        fallbacks=(
            ("IRLMP_ENUMDEVICES", "1"), ("IRLMP_IAS_SET", "2"), ("IRLMP_IAS_QUERY", "3"),
            ("IRLMP_HINTS_SET", "4"), ("IRLMP_QOS_SET", "5"), ("IRLMP_QOS_GET", "6"),
            ("IRLMP_MAX_SDU_SIZE", "7"), ("IRLMP_IAS_GET", "8"), ("IRLMP_IAS_DEL", "9"),
            ("IRLMP_HINT_MASK_SET", "10"), ("IRLMP_WAITDEVICE", "11"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_LLC_OPTIONS",
        doc="SOL_LLC option names.",
        headers=("linux/llc.h",),
        entries=(
            "LLC_OPT_UNKNOWN", "LLC_OPT_RETRY", "LLC_OPT_SIZE", "LLC_OPT_ACK_TMR_EXP", "LLC_OPT_P_TMR_EXP",
            "LLC_OPT_REJ_TMR_EXP", "LLC_OPT_BUSY_TMR_EXP", "LLC_OPT_TX_WIN", "LLC_OPT_RX_WIN",
            "LLC_OPT_PKTINFO",
        ),
        style="values",
    ),
    Table(
        name="SOCK_DCCP_OPTIONS",
        doc="SOL_DCCP option names.",
        headers=("linux/dccp.h",),
        entries=(
            "DCCP_SOCKOPT_PACKET_SIZE", "DCCP_SOCKOPT_SERVICE", "DCCP_SOCKOPT_CHANGE_L",
            "DCCP_SOCKOPT_CHANGE_R", "DCCP_SOCKOPT_GET_CUR_MPS", "DCCP_SOCKOPT_SERVER_TIMEWAIT",
            "DCCP_SOCKOPT_SEND_CSCOV", "DCCP_SOCKOPT_RECV_CSCOV", "DCCP_SOCKOPT_AVAILABLE_CCIDS",
            "DCCP_SOCKOPT_CCID", "DCCP_SOCKOPT_TX_CCID", "DCCP_SOCKOPT_RX_CCID", "DCCP_SOCKOPT_QPOLICY_ID",
            "DCCP_SOCKOPT_QPOLICY_TXQLEN", "DCCP_SOCKOPT_CCID_RX_INFO", "DCCP_SOCKOPT_CCID_TX_INFO",
        ),
        style="values",
    ),
    Table(
        name="SOCK_TIPC_OPTIONS",
        doc="SOL_TIPC option names.",
        headers=("linux/tipc.h",),
        entries=(
            "TIPC_IMPORTANCE", "TIPC_SRC_DROPPABLE", "TIPC_DEST_DROPPABLE", "TIPC_CONN_TIMEOUT",
            "TIPC_NODE_RECVQ_DEPTH", "TIPC_SOCK_RECVQ_DEPTH", "TIPC_MCAST_BROADCAST",
            "TIPC_MCAST_REPLICAST", "TIPC_GROUP_JOIN", "TIPC_GROUP_LEAVE", "TIPC_SOCK_RECVQ_USED",
            "TIPC_NODELAY",
        ),
        style="values",
    ),
    Table(
        name="SOCK_RXRPC_OPTIONS",
        doc="SOL_RXRPC option names.",
        headers=("linux/rxrpc.h",),
        entries=(
            "RXRPC_SECURITY_KEY", "RXRPC_SECURITY_KEYRING", "RXRPC_EXCLUSIVE_CONNECTION",
            "RXRPC_MIN_SECURITY_LEVEL", "RXRPC_UPGRADEABLE_SERVICE", "RXRPC_SUPPORTED_CMSG",
        ),
        style="values",
    ),
    Table(
        name="SOCK_PPPOL2TP_OPTIONS",
        doc="SOL_PPPOL2TP option names.",
        headers=("linux/if_pppol2tp.h",),
        entries=(
            "PPPOL2TP_SO_DEBUG", "PPPOL2TP_SO_RECVSEQ", "PPPOL2TP_SO_SENDSEQ", "PPPOL2TP_SO_LNSMODE",
            "PPPOL2TP_SO_REORDERTO",
        ),
        style="values",
    ),
    Table(
        name="SOCK_BLUETOOTH_OPTIONS",
        doc="SOL_BLUETOOTH option names (bluetooth/bluetooth.h is not installed).",
        entries=(
            "BT_SECURITY", "BT_DEFER_SETUP", "BT_FLUSHABLE", "BT_POWER", "BT_CHANNEL_POLICY", "BT_VOICE",
            "BT_SNDMTU", "BT_RCVMTU",
        ),
        fallbacks=(
            ("BT_SECURITY", "4"), ("BT_DEFER_SETUP", "7"), ("BT_FLUSHABLE", "8"), ("BT_POWER", "9"),
            ("BT_CHANNEL_POLICY", "10"), ("BT_VOICE", "11"), ("BT_SNDMTU", "12"), ("BT_RCVMTU", "13"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_PNP_OPTIONS",
        doc="SOL_PNPIPE option names.",
        headers=("sys/socket.h", "linux/phonet.h",),
        entries=(
            "PNPIPE_ENCAP", "PNPIPE_IFINDEX", "PNPIPE_HANDLE", "PNPIPE_INITSTATE",
        ),
        style="values",
    ),
    Table(
        name="SOCK_RDS_OPTIONS",
        doc="SOL_RDS option names.",
        headers=("sys/socket.h", "linux/rds.h",),
        entries=(
            "RDS_CANCEL_SENT_TO", "RDS_GET_MR", "RDS_FREE_MR", "RDS_BARRIER", "RDS_RECVERR",
            "RDS_CONG_MONITOR", "RDS_GET_MR_FOR_DEST", "SO_RDS_TRANSPORT", "SO_RDS_MSG_RXPATH_LATENCY",
            "SO_TIMESTAMP_OLD", "RDS_INFO_COUNTERS", "RDS_INFO_CONNECTIONS", "RDS_INFO_FLOWS",
            "RDS_INFO_SEND_MESSAGES", "RDS_INFO_RETRANS_MESSAGES", "RDS_INFO_RECV_MESSAGES",
            "RDS_INFO_SOCKETS", "RDS_INFO_TCP_SOCKETS", "RDS_INFO_IB_CONNECTIONS",
            "RDS_INFO_CONNECTION_STATS", "RDS_INFO_IWARP_CONNECTIONS",
        ),
        fallbacks=(
            ("RDS_BARRIER", "4"), ("RDS_INFO_FLOWS", "10002"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_IUCV_OPTIONS",
        doc="SOL_IUCV option names (s390's af_iucv.h is not installed).",
        entries=(
            "SO_IPRMDATA_MSG", "SO_MSGLIMIT", "SO_MSGSIZE",
        ),
        fallbacks=(
            ("SO_IPRMDATA_MSG", "0x0080"), ("SO_MSGLIMIT", "0x1000"), ("SO_MSGSIZE", "0x0800"),
        ),
        style="values",
    ),
    Table(
        name="SOCK_CAIF_OPTIONS",
        doc="SOL_CAIF option names.",
        headers=("linux/caif/caif_socket.h",),
        entries=(
            "CAIFSO_LINK_SELECT", "CAIFSO_REQ_PARAM", "CAIFSO_RSP_PARAM",
        ),
        style="values",
    ),
    Table(
        name="SOCK_ALG_OPTIONS",
        doc="SOL_ALG option names.",
        headers=("linux/if_alg.h",),
        entries=(
            "ALG_SET_KEY", "ALG_SET_IV", "ALG_SET_OP", "ALG_SET_AEAD_ASSOCLEN", "ALG_SET_AEAD_AUTHSIZE",
            "ALG_SET_DRBG_ENTROPY",
        ),
        style="values",
    ),
    Table(
        name="SOCK_NFCLLCP_OPTIONS",
        doc="SOL_NFC option names.",
        headers=("linux/nfc.h",),
        entries=(
            "NFC_LLCP_RW", "NFC_LLCP_MIUX", "NFC_LLCP_REMOTE_MIU", "NFC_LLCP_REMOTE_LTO",
            "NFC_LLCP_REMOTE_RW",
        ),
        style="values",
    ),
    Table(
        name="SOCK_KCM_OPTIONS",
        doc="SOL_KCM option names.",
        headers=("linux/kcm.h",),
        entries=(
            "KCM_RECV_DISABLE",
        ),
        style="values",
    ),
    Table(
        name="SOCK_TLS_OPTIONS",
        doc="SOL_TLS option names.",
        headers=("linux/tls.h",),
        entries=(
            "TLS_TX", "TLS_RX",
        ),
        style="values",
    ),
    Table(
        name="SOCK_XDP_OPTIONS",
        doc="SOL_XDP option names.",
        headers=("linux/if_xdp.h",),
        entries=(
            "XDP_MMAP_OFFSETS", "XDP_RX_RING", "XDP_TX_RING", "XDP_UMEM_REG", "XDP_UMEM_FILL_RING",
            "XDP_UMEM_COMPLETION_RING", "XDP_STATISTICS", "XDP_OPTIONS",
        ),
        style="values",
    ),
    Table(
        name="ICMP_FILTER_FLAGS",
        doc="ICMP_FILTER bit numbers (ICMP message types).",
        headers=("linux/icmp.h",),
        entries=(
            "ICMP_ECHOREPLY", "ICMP_DEST_UNREACH", "ICMP_SOURCE_QUENCH", "ICMP_REDIRECT", "ICMP_ECHO",
            "ICMP_TIME_EXCEEDED", "ICMP_PARAMETERPROB", "ICMP_TIMESTAMP", "ICMP_TIMESTAMPREPLY",
            "ICMP_INFO_REQUEST", "ICMP_INFO_REPLY", "ICMP_ADDRESS", "ICMP_ADDRESSREPLY",
        ),
        style="values",
    ),
    Table(
        name="AF_PACKET_TYPES",
        doc="struct sockaddr_ll sll_pkttype (af_packet_types).",
        headers=("linux/if_packet.h",),
        entries=(
            "PACKET_HOST", "PACKET_BROADCAST", "PACKET_MULTICAST", "PACKET_OTHERHOST", "PACKET_OUTGOING",
            "PACKET_LOOPBACK", "PACKET_USER", "PACKET_KERNEL",
        ),
        style="values",
    ),
    Table(
        name="PACKET_MREQ_TYPE",
        doc="struct packet_mreq mr_type.",
        headers=("linux/if_packet.h",),
        entries=(
            "PACKET_MR_MULTICAST", "PACKET_MR_PROMISC", "PACKET_MR_ALLMULTI", "PACKET_MR_UNICAST",
        ),
        style="values",
    ),
    Table(
        name="GETSOCK_IP_OPTIONS",
        doc="SOL_IP options only getsockopt names (printxvals after IP_OPTIONS).",
        headers=("sys/socket.h", "netinet/in.h", "linux/if.h", "linux/netfilter_ipv4/ip_tables.h", "linux/netfilter_arp/arp_tables.h", "linux/netfilter_bridge/ebtables.h", "linux/ip_vs.h",),
        entries=(
            "ARPT_SO_GET_INFO", "ARPT_SO_GET_ENTRIES", "ARPT_SO_GET_REVISION_TARGET", "EBT_SO_GET_INFO",
            "EBT_SO_GET_ENTRIES", "EBT_SO_GET_INIT_INFO", "EBT_SO_GET_INIT_ENTRIES", "IP_VS_SO_GET_VERSION",
            "IP_VS_SO_GET_INFO", "IP_VS_SO_GET_SERVICES", "IP_VS_SO_GET_SERVICE", "IP_VS_SO_GET_DESTS",
            "IP_VS_SO_GET_DEST", "IP_VS_SO_GET_TIMEOUT", "IP_VS_SO_GET_DAEMON", "IPT_SO_GET_INFO",
            "IPT_SO_GET_ENTRIES", "IPT_SO_GET_REVISION_MATCH", "IPT_SO_GET_REVISION_TARGET",
        ),
        style="values",
    ),
    Table(
        name="SETSOCK_IP_OPTIONS",
        doc="SOL_IP options only setsockopt names (printxvals after IP_OPTIONS).",
        headers=("sys/socket.h", "netinet/in.h", "linux/if.h", "linux/netfilter_ipv4/ip_tables.h", "linux/netfilter_arp/arp_tables.h", "linux/netfilter_bridge/ebtables.h", "linux/ip_vs.h",),
        entries=(
            "ARPT_SO_SET_REPLACE", "ARPT_SO_SET_ADD_COUNTERS", "EBT_SO_SET_ENTRIES", "EBT_SO_SET_COUNTERS",
            "IP_VS_SO_SET_NONE", "IP_VS_SO_SET_INSERT", "IP_VS_SO_SET_ADD", "IP_VS_SO_SET_EDIT",
            "IP_VS_SO_SET_DEL", "IP_VS_SO_SET_FLUSH", "IP_VS_SO_SET_LIST", "IP_VS_SO_SET_ADDDEST",
            "IP_VS_SO_SET_DELDEST", "IP_VS_SO_SET_EDITDEST", "IP_VS_SO_SET_TIMEOUT",
            "IP_VS_SO_SET_STARTDAEMON", "IP_VS_SO_SET_STOPDAEMON", "IP_VS_SO_SET_RESTORE",
            "IP_VS_SO_SET_SAVE", "IP_VS_SO_SET_ZERO", "IPT_SO_SET_REPLACE", "IPT_SO_SET_ADD_COUNTERS",
        ),
        style="values",
    ),
    Table(
        name="GETSOCK_IPV6_OPTIONS",
        doc="SOL_IPV6 options only getsockopt names (printxvals after IPV6_OPTIONS).",
        headers=("sys/socket.h", "netinet/in.h", "linux/if.h", "linux/netfilter_ipv6/ip6_tables.h",),
        entries=(
            "IP6T_SO_GET_INFO", "IP6T_SO_GET_ENTRIES", "IP6T_SO_GET_REVISION_MATCH",
            "IP6T_SO_GET_REVISION_TARGET",
        ),
        style="values",
    ),
    Table(
        name="SETSOCK_IPV6_OPTIONS",
        doc="SOL_IPV6 options only setsockopt names (printxvals after IPV6_OPTIONS).",
        headers=("sys/socket.h", "netinet/in.h", "linux/if.h", "linux/netfilter_ipv6/ip6_tables.h",),
        entries=(
            "IP6T_SO_SET_REPLACE", "IP6T_SO_SET_ADD_COUNTERS",
        ),
        style="values",
    ),
    Table(
        name="MSG_FLAGS",
        doc=(
            "send/recv flags.  glibc calls 0x10 MSG_PROXY, strace MSG_PROBE.  The kernel-internal\n"
            "MSG_SENDPAGE_NOTLAST, MSG_NO_SHARED_FRAGS and MSG_CMSG_COMPAT are in no header; strace\n"
            "6.1 names them all the same (MSG_CMSG_COMPAT with its CONFIG_COMPAT value)."
        ),
        headers=("sys/socket.h",),
        entries=(
            "MSG_OOB", "MSG_PEEK", "MSG_DONTROUTE", "MSG_CTRUNC", "MSG_PROBE=MSG_PROXY", "MSG_TRUNC",
            "MSG_DONTWAIT", "MSG_EOR", "MSG_WAITALL", "MSG_FIN", "MSG_SYN", "MSG_CONFIRM", "MSG_RST",
            "MSG_ERRQUEUE", "MSG_NOSIGNAL", "MSG_MORE", "MSG_WAITFORONE", "MSG_SENDPAGE_NOTLAST",
            "MSG_BATCH", "MSG_NO_SHARED_FRAGS", "MSG_ZEROCOPY", "MSG_FASTOPEN", "MSG_CMSG_CLOEXEC",
            "MSG_CMSG_COMPAT",
        ),
        fallbacks=(
            ("MSG_SENDPAGE_NOTLAST", "0x20000"), ("MSG_NO_SHARED_FRAGS", "0x80000"),
            ("MSG_CMSG_COMPAT", "0x80000000"),
        ),
    ),
    Table(
        name="SHUTDOWN_MODES",
        doc="shutdown(2) how.",
        headers=("sys/socket.h",),
        entries=("SHUT_RD", "SHUT_WR", "SHUT_RDWR"),
        style="values",
    ),
    Table(
        name="SOCK_DIAG_CONSTANTS",
        doc=(
            "Netlink sock_diag request/response constants (helper: -yy asks the kernel what a socket\n"
            "is connected to, as strace's socketutils.c does)."
        ),
        headers=("linux/netlink.h", "linux/sock_diag.h", "linux/unix_diag.h", "linux/netlink_diag.h"),
        entries=(
            "NLM_F_REQUEST", "NLM_F_DUMP", "NLMSG_ERROR", "NLMSG_DONE", "SOCK_DIAG_BY_FAMILY",
            "UDIAG_SHOW_NAME", "UDIAG_SHOW_PEER", "UNIX_DIAG_NAME", "UNIX_DIAG_PEER", "NDIAG_PROTO_ALL",
        ),
        style="values",
        strace_xlat=False,
    ),
    Table(
        name="PATHTRACE_CONSTANTS",
        doc=(
            "Commands -P looks inside (helper, as strace's pathtrace.c): fsconfig's path/fd commands and\n"
            "the i386 socketcall calls that have no fd argument."
        ),
        headers=("linux/mount.h", "linux/net.h"),
        entries=("FSCONFIG_SET_PATH", "FSCONFIG_SET_PATH_EMPTY", "FSCONFIG_SET_FD", "SYS_SOCKET", "SYS_SOCKETPAIR"),
        style="values",
        strace_xlat=False,
    ),
    Table(
        name="SOCKETCALLS",
        doc="i386 socketcall(2)'s call argument, printed when the call is no subcall strace decodes (socketcall.c).",
        headers=("linux/net.h",),
        entries=("SYS_SOCKET", "SYS_BIND", "SYS_CONNECT", "SYS_LISTEN", "SYS_ACCEPT", "SYS_GETSOCKNAME",
                 "SYS_GETPEERNAME", "SYS_SOCKETPAIR", "SYS_SEND", "SYS_RECV", "SYS_SENDTO", "SYS_RECVFROM",
                 "SYS_SHUTDOWN", "SYS_SETSOCKOPT", "SYS_GETSOCKOPT", "SYS_SENDMSG", "SYS_RECVMSG", "SYS_ACCEPT4",
                 "SYS_RECVMMSG", "SYS_SENDMMSG"),
        style="values",
    ),
]

# --------------------------------------------------------------------------------------
# System V IPC
# --------------------------------------------------------------------------------------

IPC = [
    Table(
        name="IPC_FLAGS",
        doc="msgget(2)/semget(2) flags (the low 9 bits are the mode, printed in octal).",
        headers=("linux/ipc.h",),
        entries=("IPC_CREAT", "IPC_EXCL", "IPC_NOWAIT"),
    ),
    Table(
        name="SHMGET_FLAGS",
        doc="shmget(2) flags.",
        headers=("linux/shm.h",),
        entries=("IPC_CREAT", "IPC_EXCL", "SHM_HUGETLB", "SHM_NORESERVE"),
    ),
    Table(
        name="SHMAT_FLAGS",
        doc="shmat(2) flags.",
        headers=("linux/shm.h",),
        entries=("SHM_RDONLY", "SHM_RND", "SHM_REMAP", "SHM_EXEC"),
    ),
    Table(
        name="SEMOP_FLAGS",
        doc="semop(2) sem_flg.",
        headers=("linux/sem.h",),
        entries=("SEM_UNDO", "IPC_NOWAIT"),
    ),
    Table(
        name="MSGRCV_FLAGS",
        doc="msgsnd(2)/msgrcv(2) flags.",
        headers=("linux/msg.h",),
        entries=("MSG_NOERROR", "MSG_EXCEPT", "MSG_COPY", "IPC_NOWAIT"),
    ),
    Table(
        name="SHMCTL_CMDS",
        doc="shmctl(2) cmd (strace prints IPC_64 separately).",
        headers=("linux/shm.h",),
        entries=(
            "IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO", "SHM_LOCK", "SHM_UNLOCK", "SHM_STAT", "SHM_INFO",
            "SHM_STAT_ANY",
        ),
        style="values",
    ),
    Table(
        name="SEMCTL_CMDS",
        doc="semctl(2) cmd.",
        headers=("linux/sem.h",),
        entries=(
            "IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO", "GETPID", "GETVAL", "GETALL", "GETNCNT",
            "GETZCNT", "SETVAL", "SETALL", "SEM_STAT", "SEM_INFO", "SEM_STAT_ANY",
        ),
        style="values",
    ),
    Table(
        name="MSGCTL_CMDS",
        doc="msgctl(2) cmd.",
        headers=("linux/msg.h",),
        entries=("IPC_RMID", "IPC_SET", "IPC_STAT", "IPC_INFO", "MSG_STAT", "MSG_INFO", "MSG_STAT_ANY"),
        style="values",
    ),
]

# --------------------------------------------------------------------------------------
# Terminals (struct termios and the tty ioctls' arguments; kernel asm/termbits.h values)
# --------------------------------------------------------------------------------------

TERMINAL = [
    Table(
        name="TERM_IFLAGS",
        doc="termios c_iflag bits.",
        headers=("asm/termbits.h",),
        entries=(
            "IGNBRK", "BRKINT", "IGNPAR", "PARMRK", "INPCK", "ISTRIP", "INLCR", "IGNCR", "ICRNL", "IUCLC",
            "IXON", "IXANY", "IXOFF", "IMAXBEL", "IUTF8",
        ),
    ),
    Table(
        name="TERM_OFLAGS",
        doc="termios c_oflag bits other than the *DLY delay fields (printed first, from the tables below).",
        headers=("asm/termbits.h",),
        entries=("OPOST", "OLCUC", "ONLCR", "OCRNL", "ONOCR", "ONLRET", "OFILL", "OFDEL"),
    ),
    Table(
        name="TERM_OFLAGS_NLDLY",
        doc="termios c_oflag & NLDLY.",
        headers=("asm/termbits.h",),
        entries=("NL0", "NL1"),
    ),
    Table(
        name="TERM_OFLAGS_CRDLY",
        doc="termios c_oflag & CRDLY.",
        headers=("asm/termbits.h",),
        entries=("CR0", "CR1", "CR2", "CR3"),
    ),
    Table(
        name="TERM_OFLAGS_TABDLY",
        doc="termios c_oflag & TABDLY; strace lists XTABS (TAB3's value) first, so it prints XTABS.",
        headers=("asm/termbits.h",),
        entries=("XTABS", "TAB0", "TAB1", "TAB2", "TAB3"),
    ),
    Table(
        name="TERM_OFLAGS_BSDLY",
        doc="termios c_oflag & BSDLY.",
        headers=("asm/termbits.h",),
        entries=("BS1", "BS0"),
    ),
    Table(
        name="TERM_OFLAGS_VTDLY",
        doc="termios c_oflag & VTDLY.",
        headers=("asm/termbits.h",),
        entries=("VT0", "VT1"),
    ),
    Table(
        name="TERM_OFLAGS_FFDLY",
        doc="termios c_oflag & FFDLY.",
        headers=("asm/termbits.h",),
        entries=("FF0", "FF1"),
    ),
    Table(
        name="BAUD_OPTIONS",
        doc="termios c_cflag & CBAUD (and CIBAUD >> IBSHIFT): line speeds; EXTA/EXTB alias B19200/B38400.",
        headers=("asm/termbits.h",),
        entries=(
            "B0", "B50", "B75", "B110", "B134", "B150", "B200", "B300", "B600", "B1200", "B1800", "B2400",
            "B4800", "B9600", "B19200", "B38400", "B57600", "B115200", "B230400", "B460800", "B500000",
            "B576000", "B921600", "B1000000", "B1152000", "B1500000", "B2000000", "B2500000", "B3000000",
            "B3500000", "B4000000", "EXTA", "EXTB", "BOTHER",
        ),
    ),
    Table(
        name="TERM_CFLAGS_CSIZE",
        doc="termios c_cflag & CSIZE.",
        headers=("asm/termbits.h",),
        entries=("CS5", "CS6", "CS7", "CS8"),
    ),
    Table(
        name="TERM_CFLAGS",
        doc="termios c_cflag bits other than CBAUD, CIBAUD and CSIZE.",
        headers=("asm/termbits.h",),
        entries=("CSTOPB", "CREAD", "PARENB", "PARODD", "HUPCL", "CLOCAL", "CMSPAR", "CRTSCTS"),
    ),
    Table(
        name="TERM_LFLAGS",
        doc="termios c_lflag bits.",
        headers=("asm/termbits.h",),
        entries=(
            "ISIG", "ICANON", "XCASE", "ECHO", "ECHOE", "ECHOK", "ECHONL", "NOFLSH", "IEXTEN", "ECHOCTL",
            "ECHOPRT", "ECHOKE", "FLUSHO", "PENDIN", "TOSTOP", "EXTPROC",
        ),
    ),
    Table(
        name="TERMIOS_CC",
        doc="termios c_cc[] indices, in strace's order.",
        headers=("asm/termbits.h",),
        entries=(
            "VINTR", "VQUIT", "VERASE", "VKILL", "VEOL2", "VSWTC", "VSTART", "VSTOP", "VSUSP", "VREPRINT",
            "VDISCARD", "VWERASE", "VLNEXT", "VMIN", "VTIME", "VEOF", "VEOL",
        ),
        style="values",
    ),
    Table(
        name="TERM_LINE_DISCS",
        doc="termios c_line / TIOCSETD line disciplines.",
        headers=("linux/tty.h",),
        entries=(
            "N_TTY", "N_SLIP", "N_MOUSE", "N_PPP", "N_STRIP", "N_AX25", "N_X25", "N_6PACK", "N_MASC",
            "N_R3964", "N_PROFIBUS_FDL", "N_IRDA", "N_SMSBLOCK", "N_HDLC", "N_SYNC_PPP", "N_HCI",
            "N_GIGASET_M101", "N_SLCAN", "N_PPS", "N_V253", "N_CAIF", "N_GSM0710", "N_TI_WL", "N_TRACESINK",
            "N_TRACEROUTER", "N_NCI", "N_SPEAKUP", "N_NULL",
        ),
        style="values",
    ),
    Table(
        name="MODEM_FLAGS",
        doc="TIOCMGET/TIOCMSET/TIOCMBIS/TIOCMBIC modem line bits.",
        headers=("asm/termios.h",),
        entries=(
            "TIOCM_LE", "TIOCM_DTR", "TIOCM_RTS", "TIOCM_ST", "TIOCM_SR", "TIOCM_CTS", "TIOCM_CAR",
            "TIOCM_RNG", "TIOCM_DSR", "TIOCM_OUT1", "TIOCM_OUT2", "TIOCM_LOOP",
        ),
    ),
    Table(
        name="TCXONC_OPTIONS",
        doc="TCXONC argument.",
        headers=("asm/termbits.h",),
        entries=("TCOOFF", "TCOON", "TCIOFF", "TCION"),
        style="values",
    ),
    Table(
        name="TCFLSH_OPTIONS",
        doc="TCFLSH argument.",
        headers=("asm/termbits.h",),
        entries=("TCIFLUSH", "TCOFLUSH", "TCIOFLUSH"),
        style="values",
    ),
]

# --------------------------------------------------------------------------------------
# ioctl request codes
# --------------------------------------------------------------------------------------

IOCTLS = [
    Table(
        name="IOCTL_DIRS",
        doc="_IOC_DIR of a request code, for requests printed as _IOC(dir, type, nr, size).",
        headers=("asm/ioctl.h",),
        entries=("_IOC_NONE", "_IOC_READ", "_IOC_WRITE"),
    ),
    Table(
        name="IOCTL_NAMES",
        doc=(
            "ioctl(2) request code -> the text strace prints for it.  Codes several names share\n"
            "print as all of them, sorted and joined with \" or \" (e.g. TCSETS is also OSS's\n"
            "SNDCTL_TMR_START).  Covers the tty ioctls (asm-generic/ioctls.h), the socket ioctls\n"
            "(sockios.h) and every other 'T'-type family strace knows, so that shared codes come\n"
            "out right: TUN*, OSS and ALSA timers, TFD_IOC_SET_TICKS.  Also x86's MCE_* ('M' type,\n"
            "no longer exported by asm/mce.h), which strace appends to OSS's MIXER_READ(n)."
        ),
        headers=(
            "asm/termbits.h", "asm/ioctls.h", "linux/serial.h", "asm/sockios.h", "linux/sockios.h",
            "linux/if_tun.h", "linux/soundcard.h", "sound/asound.h", "linux/timerfd.h",
        ),
        pattern=(
            r"(TC|TIOC|FIO)[A-Z0-9_]+|SIOC[A-Z0-9_]+|TUN[A-Z]+|SNDCTL_TMR_[A-Z]+"
            r"|SNDRV_TIMER_IOCTL_[A-Z0-9_]+|TFD_IOC_[A-Z_]+"
        ),
        pattern_files=(
            "asm-generic/ioctls.h", "asm-generic/sockios.h", "linux/sockios.h", "linux/if_tun.h",
            "linux/soundcard.h", "sound/asound.h", "linux/timerfd.h",
        ),
        exclude=frozenset({
            # aliases of other names for the same code, which strace does not list
            "TIOCINQ", "SIOCINQ", "SIOCOUTQ", "SIOCGSTAMP", "SIOCGSTAMPNS", "SNDRV_TIMER_IOCTL_TREAD",
            # not request codes: TIOCPKT packet bits, TIOCSER_TEMT line-status bit
            "TIOCPKT_DATA", "TIOCPKT_FLUSHREAD", "TIOCPKT_FLUSHWRITE", "TIOCPKT_STOP",
            "TIOCPKT_START", "TIOCPKT_NOSTOP", "TIOCPKT_DOSTOP", "TIOCPKT_IOCTL", "TIOCSER_TEMT",
            # soundcard.h's ioctl-encoding helpers
            "SIOCPARM_MASK", "SIOC_VOID", "SIOC_OUT", "SIOC_IN", "SIOC_INOUT",
        }),
        entries=("MCE_GET_RECORD_LEN", "MCE_GET_LOG_LEN", "MCE_GETCLEAR_FLAGS"),
        fallbacks=(
            ("MCE_GET_RECORD_LEN", "_IOR('M', 1, int)"), ("MCE_GET_LOG_LEN", "_IOR('M', 2, int)"),
            ("MCE_GETCLEAR_FLAGS", "_IOR('M', 3, int)"),
        ),
        kind="ioctl",
    ),
    Table(
        name="IOCTL_ARG_CODES",
        doc=(
            "ioctl(2) requests outside the tty family whose argument strace 6.1 decodes (loop.c,\n"
            "block.c, perf_ioctl.c, kvm.c, random_ioctl.c, fs_x_ioctl.c): name -> x86_64 code, so\n"
            "decode/ioctl.py dispatches by name and types no request number.  Their names print\n"
            "from pytrace.tables.ioctls like every other request."
        ),
        headers=("linux/fs.h", "linux/loop.h", "linux/perf_event.h", "linux/kvm.h", "linux/random.h",
                 "linux/blkzoned.h"),
        entries=(
            "LOOP_SET_FD", "LOOP_CHANGE_FD", "LOOP_CLR_FD", "LOOP_SET_CAPACITY", "LOOP_CTL_GET_FREE",
            "LOOP_CTL_ADD", "LOOP_CTL_REMOVE", "LOOP_SET_DIRECT_IO", "LOOP_SET_BLOCK_SIZE",
            "BLKRASET", "BLKFRASET", "BLKSECTGET", "BLKROTATIONAL", "BLKROGET", "BLKBSZGET", "BLKSSZGET",
            "BLKALIGNOFF", "BLKROSET", "BLKBSZSET", "BLKPBSZGET", "BLKIOMIN", "BLKIOOPT", "BLKDISCARDZEROES",
            "?BLKGETZONESZ", "?BLKGETNRZONES", "BLKRAGET", "BLKFRAGET", "BLKGETSIZE", "BLKGETSIZE64",
            "?BLKGETDISKSEQ", "BLKDISCARD", "BLKSECDISCARD", "BLKZEROOUT", "BLKRRPART", "BLKFLSBUF",
            "BLKTRACESTART", "BLKTRACESTOP", "BLKTRACETEARDOWN",
            "PERF_EVENT_IOC_ENABLE", "PERF_EVENT_IOC_DISABLE", "PERF_EVENT_IOC_RESET",
            "PERF_EVENT_IOC_REFRESH", "PERF_EVENT_IOC_PERIOD", "PERF_EVENT_IOC_SET_OUTPUT",
            "PERF_EVENT_IOC_SET_BPF", "PERF_EVENT_IOC_PAUSE_OUTPUT", "PERF_EVENT_IOC_SET_FILTER",
            "PERF_EVENT_IOC_ID",
            "KVM_CHECK_EXTENSION", "KVM_CREATE_VCPU",
            "RNDGETENTCNT", "RNDADDTOENTCNT", "RNDADDENTROPY", "RNDZAPENTCNT", "RNDCLEARPOOL", "RNDRESEEDCRNG",
            "FIFREEZE", "FITHAW", "FITRIM",
        ),
        style="flags",
        strace_xlat=False,
    ),
    Table(
        name="KVM_CAP",
        doc="ioctl(KVM_CHECK_EXTENSION) capability: every KVM_CAP_* in value order (printxval64).",
        headers=("linux/kvm.h",),
        pattern=r"KVM_CAP_[A-Z0-9_]+",
        pattern_files=("linux/kvm.h",),
        style="values",
    ),
    Table(
        name="PERF_IOCTL_FLAGS",
        doc="ioctl(PERF_EVENT_IOC_ENABLE/DISABLE/RESET) argument.",
        headers=("linux/perf_event.h",),
        entries=("PERF_IOC_FLAG_GROUP",),
    ),
]

# --------------------------------------------------------------------------------------
# errno
# --------------------------------------------------------------------------------------

ERRNO = [
    Table(
        name="ERRNO_NAMES",
        doc=(
            "errno -> name: every E* in the kernel's asm-generic/errno*.h (aliases EWOULDBLOCK and\n"
            "EDEADLOCK left out, as strace prints EAGAIN/EDEADLK), plus the kernel-internal codes\n"
            "512.. that strace 6.1 knows (include/linux/errno.h, not exported to userspace)."
        ),
        headers=("asm/errno.h",),
        pattern=r"E[A-Z0-9]+",
        pattern_files=("asm-generic/errno-base.h", "asm-generic/errno.h"),
        exclude=frozenset({"EWOULDBLOCK", "EDEADLOCK"}),
        kernel_internal=(
            (512, "ERESTARTSYS"),
            (513, "ERESTARTNOINTR"),
            (514, "ERESTARTNOHAND"),
            (515, "ENOIOCTLCMD"),
            (516, "ERESTART_RESTARTBLOCK"),
            (517, "EPROBE_DEFER"),
            (518, "EOPENSTALE"),
            (521, "EBADHANDLE"),
            (522, "ENOTSYNC"),
            (523, "EBADCOOKIE"),
            (524, "ENOTSUPP"),
            (525, "ETOOSMALL"),
            (526, "ESERVERFAULT"),
            (527, "EBADTYPE"),
            (528, "EJUKEBOX"),
            (529, "EIOCBQUEUED"),
            (530, "ERECALLCONFLICT"),
        ),
        kind="dict",
        style="values",
    ),
    Table(
        name="ERRNO_TEXT",
        doc=(
            "errno -> the text strace prints in parentheses: glibc's strerror() (C locale), except\n"
            "the restart codes, for which strace prints its own explanation."
        ),
        keys_from="ERRNO_NAMES",
        text_overrides=(
            (512, "To be restarted if SA_RESTART is set"),
            (513, "To be restarted"),
            (514, "To be restarted if no handler"),
            (516, "Interrupted by signal"),
        ),
        kind="strerror",
        style="values",
    ),
]

# Issue 3 (decoder breadth): tables of the syscalls decoded by the small family modules
# (splice.py, mount.py, bpf.py, keyctl.py, ...), ipc.py, sched.py and io_uring.py.  Names and order are strace 6.1's (checked by --crosscheck-strace).
BREADTH = [
    Table(
        name="SYNC_FILE_RANGE_FLAGS",
        doc="sync_file_range(2) flags.",
        prelude="#define _GNU_SOURCE",
        headers=("fcntl.h",),
        entries=(
            "SYNC_FILE_RANGE_WAIT_BEFORE", "SYNC_FILE_RANGE_WRITE", "SYNC_FILE_RANGE_WAIT_AFTER",
        ),
    ),
    Table(
        name="OPEN_RESOLVE_FLAGS",
        doc="openat2(2) struct open_how.resolve.",
        headers=("linux/openat2.h",),
        entries=(
            "RESOLVE_NO_XDEV", "RESOLVE_NO_MAGICLINKS", "RESOLVE_NO_SYMLINKS", "RESOLVE_BENEATH",
            "RESOLVE_IN_ROOT", "RESOLVE_CACHED",
        ),
    ),
    Table(
        name="CLOSE_RANGE_FLAGS",
        doc="close_range(2) flags.",
        headers=("linux/close_range.h",),
        entries=(
            "CLOSE_RANGE_UNSHARE", "CLOSE_RANGE_CLOEXEC",
        ),
    ),
    Table(
        name="MEMFD_CREATE_FLAGS",
        doc="memfd_create(2) flags (the huge page size bits are printed apart).",
        headers=("linux/memfd.h",),
        entries=(
            "MFD_CLOEXEC", "MFD_ALLOW_SEALING", "MFD_HUGETLB",
        ),
    ),
    Table(
        name="NAME_TO_HANDLE_AT_FLAGS",
        doc="name_to_handle_at(2) flags.",
        headers=("linux/fcntl.h",),
        entries=(
            "AT_SYMLINK_FOLLOW", "AT_EMPTY_PATH",
        ),
    ),
    Table(
        name="SWAP_FLAGS",
        doc="swapon(2) flags (the priority bits are printed apart).",
        headers=("sys/swap.h",),
        entries=(
            "SWAP_FLAG_PREFER", "SWAP_FLAG_DISCARD", "SWAP_FLAG_DISCARD_ONCE", "SWAP_FLAG_DISCARD_PAGES",
        ),
        fallbacks=(
            ("SWAP_FLAG_DISCARD_ONCE", "0x20000"), ("SWAP_FLAG_DISCARD_PAGES", "0x40000"),
        ),
    ),
    Table(
        name="QUOTA_CMDS",
        doc="quotactl(2) commands (QCMD's command half).",
        headers=("sys/quota.h", "linux/dqblk_xfs.h",),
        entries=(
            "Q_V1_QUOTAON", "Q_V1_QUOTAOFF", "Q_V1_GETQUOTA", "Q_V1_SETQUOTA", "Q_V1_SETUSE", "Q_V1_SYNC",
            "Q_SETQLIM", "Q_V1_GETSTATS", "Q_V1_RSQUASH", "Q_V2_GETQUOTA", "Q_V2_SETQUOTA", "Q_V2_SETUSE",
            "Q_V2_GETINFO", "Q_V2_SETINFO", "Q_V2_SETGRACE", "Q_V2_SETFLAGS", "Q_V2_GETSTATS", "Q_SYNC",
            "Q_QUOTAON", "Q_QUOTAOFF", "Q_GETFMT", "Q_GETINFO", "Q_SETINFO", "Q_GETQUOTA", "Q_SETQUOTA",
            "Q_GETNEXTQUOTA", "Q_XQUOTAON", "Q_XQUOTAOFF", "Q_XGETQUOTA", "Q_XSETQLIM", "Q_XGETQSTAT",
            "Q_XQUOTARM", "Q_XQUOTASYNC", "Q_XGETQSTATV", "Q_XGETNEXTQUOTA",
        ),
        fallbacks=(
            ("Q_V1_QUOTAON", "0x100"), ("Q_V1_QUOTAOFF", "0x200"), ("Q_V1_GETQUOTA", "0x300"),
            ("Q_V1_SETQUOTA", "0x400"), ("Q_V1_SETUSE", "0x500"), ("Q_V1_SYNC", "0x600"),
            ("Q_SETQLIM", "0x700"), ("Q_V1_GETSTATS", "0x800"), ("Q_V1_RSQUASH", "0x1000"),
            ("Q_V2_GETQUOTA", "0xd00"), ("Q_V2_SETQUOTA", "0xe00"), ("Q_V2_SETUSE", "0xf00"),
            ("Q_V2_GETINFO", "0x900"), ("Q_V2_SETINFO", "0xa00"), ("Q_V2_SETGRACE", "0xb00"),
            ("Q_V2_SETFLAGS", "0xc00"), ("Q_V2_GETSTATS", "0x1100"),
        ),
        style="values",
    ),
    Table(
        name="QUOTA_FORMATS",
        doc="quotactl(Q_QUOTAON) id and Q_GETFMT's result: the quota file format.",
        headers=("linux/quota.h",),
        entries=("QFMT_VFS_OLD", "QFMT_VFS_V0", "QFMT_OCFS2", "QFMT_VFS_V1"),
        style="values",
    ),
    Table(
        name="XFS_QUOTA_FLAGS",
        doc="quotactl(Q_XQUOTAON/OFF) flags and fs_quota_stat.qs_flags.",
        headers=("linux/dqblk_xfs.h",),
        entries=(
            "FS_QUOTA_UDQ_ACCT", "FS_QUOTA_UDQ_ENFD", "FS_QUOTA_GDQ_ACCT", "FS_QUOTA_GDQ_ENFD",
            "FS_QUOTA_PDQ_ACCT", "FS_QUOTA_PDQ_ENFD",
        ),
    ),
    Table(
        name="XFS_DQBLK_FLAGS",
        doc="fs_disk_quota.d_flags and quotactl(Q_XQUOTARM) flags.",
        headers=("linux/dqblk_xfs.h",),
        entries=("FS_USER_QUOTA", "FS_PROJ_QUOTA", "FS_GROUP_QUOTA"),
    ),
    Table(
        name="IF_DQBLK_VALID",
        doc="struct if_dqblk.dqb_valid (Q_GETQUOTA/Q_SETQUOTA/Q_GETNEXTQUOTA).",
        headers=("linux/quota.h",),
        entries=("QIF_BLIMITS", "QIF_SPACE", "QIF_ILIMITS", "QIF_INODES", "QIF_BTIME", "QIF_ITIME"),
    ),
    Table(
        name="IF_DQINFO_FLAGS",
        doc="struct if_dqinfo.dqi_flags (Q_GETINFO/Q_SETINFO).",
        headers=("linux/quota.h",),
        entries=("DQF_ROOT_SQUASH", "DQF_SYS_FILE"),
    ),
    Table(
        name="IF_DQINFO_VALID",
        doc="struct if_dqinfo.dqi_valid (Q_GETINFO/Q_SETINFO).",
        headers=("linux/quota.h",),
        entries=("IIF_BGRACE", "IIF_IGRACE", "IIF_FLAGS"),
    ),
    Table(
        name="QUOTA_TYPES",
        doc="quotactl(2) quota types (QCMD's type half).",
        headers=("sys/quota.h",),
        entries=(
            "USRQUOTA", "GRPQUOTA", "PRJQUOTA",
        ),
        style="values",
    ),
    Table(
        name="FSOPEN_FLAGS",
        doc="fsopen(2) flags.",
        headers=("linux/mount.h",),
        entries=(
            "FSOPEN_CLOEXEC",
        ),
    ),
    Table(
        name="FSCONFIG_CMDS",
        doc="fsconfig(2) commands.",
        headers=("linux/mount.h",),
        entries=(
            "FSCONFIG_SET_FLAG", "FSCONFIG_SET_STRING", "FSCONFIG_SET_BINARY", "FSCONFIG_SET_PATH",
            "FSCONFIG_SET_PATH_EMPTY", "FSCONFIG_SET_FD", "FSCONFIG_CMD_CREATE", "FSCONFIG_CMD_RECONFIGURE",
        ),
        style="values",
    ),
    Table(
        name="FSMOUNT_FLAGS",
        doc="fsmount(2) flags.",
        headers=("linux/mount.h",),
        entries=(
            "FSMOUNT_CLOEXEC",
        ),
    ),
    Table(
        name="FSMOUNT_ATTR_FLAGS",
        doc="fsmount(2) attr_flags.",
        headers=("linux/mount.h",),
        entries=(
            "MOUNT_ATTR_RDONLY", "MOUNT_ATTR_NOSUID", "MOUNT_ATTR_NODEV", "MOUNT_ATTR_NOEXEC",
            "MOUNT_ATTR_NOATIME", "MOUNT_ATTR_STRICTATIME", "MOUNT_ATTR_NODIRATIME",
        ),
    ),
    Table(
        name="MOUNT_ATTR_FLAGS",
        doc="mount_setattr(2) struct mount_attr attr_set/attr_clr.",
        headers=("linux/mount.h",),
        entries=(
            "MOUNT_ATTR_RDONLY", "MOUNT_ATTR_NOSUID", "MOUNT_ATTR_NODEV", "MOUNT_ATTR_NOEXEC",
            "MOUNT_ATTR_NOATIME", "MOUNT_ATTR_STRICTATIME", "MOUNT_ATTR_NODIRATIME", "MOUNT_ATTR_IDMAP",
            "MOUNT_ATTR_NOSYMFOLLOW",
        ),
    ),
    Table(
        name="MOUNT_ATTR_PROPAGATION",
        doc="mount_setattr(2) struct mount_attr propagation (one value, printed with printxval).",
        headers=("linux/mount.h",),
        entries=("MS_UNBINDABLE", "MS_PRIVATE", "MS_SLAVE", "MS_SHARED"),
        style="values",
    ),
    Table(
        name="FSPICK_FLAGS",
        doc="fspick(2) flags.",
        headers=("linux/mount.h",),
        entries=(
            "FSPICK_CLOEXEC", "FSPICK_SYMLINK_NOFOLLOW", "FSPICK_NO_AUTOMOUNT", "FSPICK_EMPTY_PATH",
        ),
    ),
    Table(
        name="OPEN_TREE_FLAGS",
        doc="open_tree(2) flags.",
        headers=("linux/mount.h", "linux/fcntl.h",),
        entries=(
            "OPEN_TREE_CLONE", "OPEN_TREE_CLOEXEC", "AT_SYMLINK_NOFOLLOW", "AT_REMOVEDIR", "AT_SYMLINK_FOLLOW",
            "AT_NO_AUTOMOUNT", "AT_EMPTY_PATH", "AT_RECURSIVE",
        ),
    ),
    Table(
        name="MOVE_MOUNT_FLAGS",
        doc="move_mount(2) flags.",
        headers=("linux/mount.h",),
        entries=(
            "MOVE_MOUNT_F_SYMLINKS", "MOVE_MOUNT_F_AUTOMOUNTS", "MOVE_MOUNT_F_EMPTY_PATH",
            "MOVE_MOUNT_T_SYMLINKS", "MOVE_MOUNT_T_AUTOMOUNTS", "MOVE_MOUNT_T_EMPTY_PATH",
            "MOVE_MOUNT_SET_GROUP",
        ),
    ),
    Table(
        name="MOUNT_SETATTR_FLAGS",
        doc="mount_setattr(2) flags.",
        headers=("linux/fcntl.h",),
        entries=("AT_SYMLINK_NOFOLLOW", "AT_NO_AUTOMOUNT", "AT_EMPTY_PATH", "AT_RECURSIVE"),
    ),
    Table(
        name="FAN_CLASSES",
        doc="fanotify_init(2) notification class (flags & FAN_ALL_CLASS_BITS).",
        headers=("linux/fanotify.h",),
        entries=(
            "FAN_CLASS_NOTIF", "FAN_CLASS_CONTENT", "FAN_CLASS_PRE_CONTENT",
        ),
        style="values",
    ),
    Table(
        name="FAN_INIT_FLAGS",
        doc="fanotify_init(2) flags other than the class.",
        headers=("linux/fanotify.h",),
        entries=(
            "FAN_CLOEXEC", "FAN_NONBLOCK", "FAN_UNLIMITED_QUEUE", "FAN_UNLIMITED_MARKS", "FAN_ENABLE_AUDIT",
            "FAN_REPORT_PIDFD", "FAN_REPORT_TID", "FAN_REPORT_FID", "FAN_REPORT_DIR_FID", "FAN_REPORT_NAME",
            "FAN_REPORT_TARGET_FID",
        ),
    ),
    Table(
        name="FAN_MARK_FLAGS",
        doc="fanotify_mark(2) flags.",
        headers=("linux/fanotify.h",),
        entries=(
            "FAN_MARK_ADD", "FAN_MARK_REMOVE", "FAN_MARK_DONT_FOLLOW", "FAN_MARK_ONLYDIR", "FAN_MARK_MOUNT",
            "FAN_MARK_IGNORED_MASK", "FAN_MARK_IGNORED_SURV_MODIFY", "FAN_MARK_FLUSH", "FAN_MARK_FILESYSTEM",
            "FAN_MARK_EVICTABLE", "FAN_MARK_IGNORE",
        ),
    ),
    Table(
        name="FAN_EVENT_FLAGS",
        doc="fanotify_mark(2) mask.",
        headers=("linux/fanotify.h",),
        entries=(
            "FAN_ACCESS", "FAN_MODIFY", "FAN_ATTRIB", "FAN_CLOSE_WRITE", "FAN_CLOSE_NOWRITE", "FAN_OPEN",
            "FAN_MOVED_FROM", "FAN_MOVED_TO", "FAN_CREATE", "FAN_DELETE", "FAN_DELETE_SELF", "FAN_MOVE_SELF",
            "FAN_OPEN_EXEC", "FAN_Q_OVERFLOW", "FAN_FS_ERROR", "FAN_OPEN_PERM", "FAN_ACCESS_PERM",
            "FAN_OPEN_EXEC_PERM", "FAN_DIR_MODIFY", "FAN_ONDIR", "FAN_EVENT_ON_CHILD", "FAN_RENAME",
        ),
        fallbacks=(
            ("FAN_DIR_MODIFY", "0x80000"),
        ),
    ),
    Table(
        name="IOPRIO_WHO",
        doc="ioprio_get(2)/ioprio_set(2) which.",
        headers=("linux/ioprio.h",),
        entries=(
            "IOPRIO_WHO_PROCESS", "IOPRIO_WHO_PGRP", "IOPRIO_WHO_USER",
        ),
        style="values",
    ),
    Table(
        name="IOPRIO_CLASS",
        doc="I/O priority classes (IOPRIO_PRIO_VALUE's first half).",
        headers=("linux/ioprio.h",),
        entries=(
            "IOPRIO_CLASS_NONE", "IOPRIO_CLASS_RT", "IOPRIO_CLASS_BE", "IOPRIO_CLASS_IDLE",
        ),
        style="values",
    ),
    Table(
        name="CAP_VERSIONS",
        doc="capget(2)/capset(2) header version.",
        headers=("linux/capability.h",),
        entries=(
            "_LINUX_CAPABILITY_VERSION_1", "_LINUX_CAPABILITY_VERSION_2", "_LINUX_CAPABILITY_VERSION_3",
        ),
        style="values",
    ),
    Table(
        name="KCMP_TYPES",
        doc="kcmp(2) type.",
        headers=("linux/kcmp.h",),
        entries=(
            "KCMP_FILE", "KCMP_VM", "KCMP_FILES", "KCMP_FS", "KCMP_SIGHAND", "KCMP_IO", "KCMP_SYSVSEM",
            "KCMP_EPOLL_TFD",
        ),
        style="values",
    ),
    Table(
        name="PTRACE_CMDS",
        doc="ptrace(2) requests.",
        headers=("linux/ptrace.h", "asm/ptrace-abi.h",),
        entries=(
            "PTRACE_TRACEME", "PTRACE_PEEKTEXT", "PTRACE_PEEKDATA", "PTRACE_PEEKUSER=PTRACE_PEEKUSR",
            "PTRACE_POKETEXT", "PTRACE_POKEDATA", "PTRACE_POKEUSER=PTRACE_POKEUSR", "PTRACE_CONT",
            "PTRACE_KILL", "PTRACE_SINGLESTEP", "PTRACE_ATTACH", "PTRACE_DETACH", "PTRACE_SYSCALL",
            "PTRACE_SETOPTIONS", "PTRACE_GETEVENTMSG", "PTRACE_GETSIGINFO", "PTRACE_SETSIGINFO",
            "PTRACE_GETREGSET", "PTRACE_SETREGSET", "PTRACE_SEIZE", "PTRACE_INTERRUPT", "PTRACE_LISTEN",
            "PTRACE_PEEKSIGINFO", "PTRACE_GETSIGMASK", "PTRACE_SETSIGMASK", "PTRACE_SECCOMP_GET_FILTER",
            "PTRACE_SECCOMP_GET_METADATA", "PTRACE_GET_SYSCALL_INFO", "PTRACE_GET_RSEQ_CONFIGURATION",
            "PTRACE_GETREGS", "PTRACE_SETREGS", "PTRACE_GETFPREGS", "PTRACE_SETFPREGS", "PTRACE_GETFPXREGS",
            "PTRACE_SETFPXREGS", "PTRACE_OLDSETOPTIONS", "PTRACE_GET_THREAD_AREA", "PTRACE_SET_THREAD_AREA",
            "PTRACE_SYSEMU", "PTRACE_SYSEMU_SINGLESTEP", "PTRACE_SINGLEBLOCK", "PTRACE_ARCH_PRCTL",
        ),
        style="values",
    ),
    Table(
        name="PTRACE_SETOPTIONS_FLAGS",
        doc="ptrace(PTRACE_SETOPTIONS/SEIZE) options.",
        headers=("linux/ptrace.h",),
        entries=(
            "PTRACE_O_TRACESYSGOOD", "PTRACE_O_TRACEFORK", "PTRACE_O_TRACEVFORK", "PTRACE_O_TRACECLONE",
            "PTRACE_O_TRACEEXEC", "PTRACE_O_TRACEVFORKDONE", "PTRACE_O_TRACEEXIT", "PTRACE_O_TRACESECCOMP",
            "PTRACE_O_EXITKILL", "PTRACE_O_SUSPEND_SECCOMP",
        ),
    ),
    Table(
        name="PTRACE_PEEKSIGINFO_FLAGS",
        doc="ptrace(PTRACE_PEEKSIGINFO) struct ptrace_peeksiginfo_args.flags.",
        headers=("linux/ptrace.h",),
        entries=("PTRACE_PEEKSIGINFO_SHARED",),
    ),
    Table(
        name="PTRACE_SYSCALL_INFO_OP",
        doc="struct ptrace_syscall_info.op (PTRACE_GET_SYSCALL_INFO).",
        headers=("linux/ptrace.h",),
        entries=(
            "PTRACE_SYSCALL_INFO_NONE", "PTRACE_SYSCALL_INFO_ENTRY", "PTRACE_SYSCALL_INFO_EXIT",
            "PTRACE_SYSCALL_INFO_SECCOMP",
        ),
        style="values",
    ),
    Table(
        name="NT_DESCRIPTOR_TYPES",
        doc="ptrace(PTRACE_GETREGSET/SETREGSET) note types (ELF core note NT_*).",
        headers=("elf.h",),
        entries=(
            "NT_PRSTATUS", "NT_FPREGSET", "NT_PRPSINFO", "NT_PRXREG", "NT_PLATFORM", "NT_AUXV", "NT_GWINDOWS",
            "NT_ASRS", "NT_PSTATUS", "NT_PSINFO", "NT_PRCRED", "NT_UTSNAME", "NT_LWPSTATUS", "NT_LWPSINFO",
            "NT_PRFPXREG", "NT_PPC_VMX", "NT_PPC_SPE", "NT_PPC_VSX", "NT_PPC_TAR", "NT_PPC_PPR", "NT_PPC_DSCR",
            "NT_PPC_EBB", "NT_PPC_PMU", "NT_PPC_TM_CGPR", "NT_PPC_TM_CFPR", "NT_PPC_TM_CVMX", "NT_PPC_TM_CVSX",
            "NT_PPC_TM_SPR", "NT_PPC_TM_CTAR", "NT_PPC_TM_CPPR", "NT_PPC_TM_CDSCR", "NT_PPC_PKEY", "NT_386_TLS",
            "NT_386_IOPERM", "NT_X86_XSTATE", "NT_S390_HIGH_GPRS", "NT_S390_TIMER", "NT_S390_TODCMP",
            "NT_S390_TODPREG", "NT_S390_CTRS", "NT_S390_PREFIX", "NT_S390_LAST_BREAK", "NT_S390_SYSTEM_CALL",
            "NT_S390_TDB", "NT_S390_VXRS_LOW", "NT_S390_VXRS_HIGH", "NT_S390_GS_CB", "NT_S390_GS_BC",
            "NT_S390_RI_CB", "NT_S390_PV_CPU_DATA", "NT_ARM_VFP", "NT_ARM_TLS", "NT_ARM_HW_BREAK",
            "NT_ARM_HW_WATCH", "NT_ARM_SYSTEM_CALL", "NT_ARM_SVE", "NT_ARM_PAC_MASK", "NT_ARM_PACA_KEYS",
            "NT_ARM_PACG_KEYS", "NT_ARM_TAGGED_ADDR_CTRL", "NT_ARM_PAC_ENABLED_KEYS", "NT_ARM_SSVE", "NT_ARM_ZA",
            "NT_METAG_CBUF", "NT_METAG_RPIPE", "NT_METAG_TLS", "NT_ARC_V2", "NT_VMCOREDD", "NT_MIPS_DSP",
            "NT_MIPS_FP_MODE", "NT_MIPS_MSA", "NT_LOONGARCH_CPUCFG", "NT_LOONGARCH_CSR", "NT_LOONGARCH_LSX",
            "NT_LOONGARCH_LASX", "NT_LOONGARCH_LBT", "NT_FILE", "NT_PRXFPREG", "NT_SIGINFO",
        ),
        fallbacks=(
            ("NT_S390_PV_CPU_DATA", "0x30e"), ("NT_ARM_SSVE", "0x40b"), ("NT_ARM_ZA", "0x40c"),
            ("NT_METAG_CBUF", "0x500"), ("NT_METAG_RPIPE", "0x501"), ("NT_METAG_TLS", "0x502"),
            ("NT_ARC_V2", "0x600"), ("NT_LOONGARCH_CPUCFG", "0xa00"), ("NT_LOONGARCH_CSR", "0xa01"),
            ("NT_LOONGARCH_LSX", "0xa02"), ("NT_LOONGARCH_LASX", "0xa03"), ("NT_LOONGARCH_LBT", "0xa04"),
        ),
        style="values",
    ),
    Table(
        name="STRUCT_USER_OFFSETS",
        doc=("ptrace(PTRACE_PEEKUSER/POKEUSER) addr: strace's struct_user_offsets (linux/x86_64/userent.h):"
             " the saved registers as 8*REG (sys/reg.h's indexes, EFLAGS spelt EFL), then the other"
             " members of struct user as offsetof() expressions, then sizeof(struct user); sorted,"
             " looked up with the largest offset <= addr."),
        headers=("stddef.h", "sys/reg.h", "sys/user.h"),
        entries=(
            *(f"8*{r}" for r in ("R15", "R14", "R13", "R12", "RBP", "RBX", "R11", "R10", "R9", "R8", "RAX",
                                 "RCX", "RDX", "RSI", "RDI", "ORIG_RAX", "RIP", "CS")),
            "8*EFL=8*EFLAGS", "8*RSP", "8*SS",
            *(f"offsetof(struct user, {m})" for m in (
                "u_fpvalid", "i387", "u_tsize", "u_dsize", "u_ssize", "start_code", "start_stack", "signal",
                "reserved", "u_ar0", "u_fpstate", "magic", "u_comm", "u_debugreg")),
            "sizeof(struct user)",
        ),
        style="values",
    ),
    Table(
        name="SIGALTSTACK_FLAGS",
        doc="sigaltstack(2) ss_flags.",
        headers=("linux/signal.h",),
        entries=(
            "SS_ONSTACK", "SS_DISABLE", "SS_AUTODISARM",
        ),
    ),
    Table(
        name="SETNS_TYPES",
        doc="setns(2) nstype.",
        headers=("linux/sched.h",),
        entries=(
            "CLONE_NEWTIME", "CLONE_NEWNS", "CLONE_NEWCGROUP", "CLONE_NEWUTS", "CLONE_NEWIPC", "CLONE_NEWUSER",
            "CLONE_NEWPID", "CLONE_NEWNET",
        ),
    ),
    Table(
        name="SECCOMP_OPS",
        doc="seccomp(2) operation.",
        headers=("linux/seccomp.h",),
        entries=(
            "SECCOMP_SET_MODE_STRICT", "SECCOMP_SET_MODE_FILTER", "SECCOMP_GET_ACTION_AVAIL",
            "SECCOMP_GET_NOTIF_SIZES",
        ),
        style="values",
    ),
    Table(
        name="SECCOMP_FILTER_FLAGS",
        doc="seccomp(SECCOMP_SET_MODE_FILTER) flags.",
        headers=("linux/seccomp.h",),
        entries=(
            "SECCOMP_FILTER_FLAG_TSYNC", "SECCOMP_FILTER_FLAG_LOG", "SECCOMP_FILTER_FLAG_SPEC_ALLOW",
            "SECCOMP_FILTER_FLAG_NEW_LISTENER", "SECCOMP_FILTER_FLAG_TSYNC_ESRCH",
            "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV",
        ),
    ),
    Table(
        name="SECCOMP_RET_ACTIONS",
        doc="seccomp filter return actions.",
        headers=("linux/seccomp.h",),
        entries=(
            "SECCOMP_RET_KILL_PROCESS", "SECCOMP_RET_KILL_THREAD", "SECCOMP_RET_TRAP", "SECCOMP_RET_ERRNO",
            "SECCOMP_RET_USER_NOTIF", "SECCOMP_RET_TRACE", "SECCOMP_RET_LOG", "SECCOMP_RET_ALLOW",
        ),
        style="values",
    ),
    Table(
        name="SECCOMP_MODE",
        doc="prctl(PR_SET_SECCOMP) mode (seccomp_mode).",
        headers=("linux/seccomp.h",),
        entries=("SECCOMP_MODE_DISABLED", "SECCOMP_MODE_STRICT", "SECCOMP_MODE_FILTER",),
        style="values",
    ),
    Table(
        name="BPF_CLASS",
        doc="Classic BPF instruction class (bpf_class), the low 3 bits of code.",
        headers=("linux/filter.h",),
        entries=("BPF_LD", "BPF_LDX", "BPF_ST", "BPF_STX", "BPF_ALU", "BPF_JMP", "BPF_RET", "BPF_MISC",),
        style="values",
    ),
    Table(
        name="BPF_MISCOP",
        doc="Classic BPF_MISC operation (bpf_miscop).",
        headers=("linux/filter.h",),
        entries=("BPF_TAX", "BPF_TXA",),
        style="values",
    ),
    Table(
        name="BPF_MODE",
        doc="BPF load mode (bpf_mode); BPF_XADD is eBPF's, strace 6.1 lists it here too.",
        headers=("linux/bpf.h",),
        entries=("BPF_IMM", "BPF_ABS", "BPF_IND", "BPF_MEM", "BPF_LEN", "BPF_MSH", "BPF_XADD",),
        style="values",
    ),
    Table(
        name="BPF_OP_ALU",
        doc="BPF ALU operation (bpf_op_alu).",
        headers=("linux/bpf.h",),
        entries=("BPF_ADD", "BPF_SUB", "BPF_MUL", "BPF_DIV", "BPF_OR", "BPF_AND", "BPF_LSH", "BPF_RSH", "BPF_NEG", "BPF_MOD", "BPF_XOR", "BPF_MOV", "BPF_ARSH", "BPF_END",),
        style="values",
    ),
    Table(
        name="BPF_OP_JMP",
        doc="BPF jump operation (bpf_op_jmp).",
        headers=("linux/bpf.h",),
        entries=("BPF_JA", "BPF_JEQ", "BPF_JGT", "BPF_JGE", "BPF_JSET", "BPF_JNE", "BPF_JSGT", "BPF_JSGE", "BPF_CALL", "BPF_EXIT", "BPF_JLT", "BPF_JLE", "BPF_JSLT", "BPF_JSLE",),
        style="values",
    ),
    Table(
        name="BPF_RVAL",
        doc="Classic BPF_RET value source (bpf_rval).",
        headers=("linux/filter.h",),
        entries=("BPF_K", "BPF_X", "BPF_A",),
        style="values",
    ),
    Table(
        name="BPF_SIZE",
        doc="BPF load size (bpf_size).",
        headers=("linux/bpf.h",),
        entries=("BPF_W", "BPF_H", "BPF_B", "BPF_DW",),
        style="values",
    ),
    Table(
        name="BPF_SRC",
        doc="BPF operand source (bpf_src).",
        headers=("linux/filter.h",),
        entries=("BPF_K", "BPF_X",),
        style="values",
    ),
    Table(
        name="EBPF_CLASS",
        doc="eBPF instruction class (ebpf_class).",
        headers=("linux/bpf.h",),
        entries=("BPF_LD", "BPF_LDX", "BPF_ST", "BPF_STX", "BPF_ALU", "BPF_JMP", "BPF_JMP32", "BPF_ALU64",),
        style="values",
    ),
    Table(
        name="EBPF_MODE",
        doc="eBPF load/store mode (ebpf_mode).",
        headers=("linux/bpf.h",),
        entries=("BPF_IMM", "BPF_ABS", "BPF_IND", "BPF_MEM", "BPF_XADD",),
        style="values",
    ),
    Table(
        name="EBPF_OP_ALU",
        doc="eBPF-only ALU operations (ebpf_op_alu).",
        headers=("linux/bpf.h",),
        entries=("BPF_MOV", "BPF_ARSH", "BPF_END",),
        style="values",
    ),
    Table(
        name="EBPF_OP_JMP",
        doc="eBPF-only jump operations (ebpf_op_jmp).",
        headers=("linux/bpf.h",),
        entries=("BPF_JNE", "BPF_JSGT", "BPF_JSGE", "BPF_CALL", "BPF_EXIT", "BPF_JLT", "BPF_JLE", "BPF_JSLT", "BPF_JSLE",),
        style="values",
    ),
    Table(
        name="EBPF_SIZE",
        doc="eBPF-only load size (ebpf_size).",
        headers=("linux/bpf.h",),
        entries=("BPF_DW",),
        style="values",
    ),
    Table(
        name="EBPF_REGS",
        doc="eBPF registers (ebpf_regs).",
        headers=("linux/bpf.h",),
        entries=("BPF_REG_0", "BPF_REG_1", "BPF_REG_2", "BPF_REG_3", "BPF_REG_4", "BPF_REG_5", "BPF_REG_6", "BPF_REG_7", "BPF_REG_8", "BPF_REG_9", "BPF_REG_10",),
        style="values",
    ),
    Table(
        name="SKF_AD",
        doc="Socket filter ancillary data offsets past SKF_AD_OFF (skf_ad).",
        headers=("linux/filter.h",),
        entries=("SKF_AD_PROTOCOL", "SKF_AD_PKTTYPE", "SKF_AD_IFINDEX", "SKF_AD_NLATTR", "SKF_AD_NLATTR_NEST", "SKF_AD_MARK", "SKF_AD_QUEUE", "SKF_AD_HATYPE", "SKF_AD_RXHASH", "SKF_AD_CPU", "SKF_AD_ALU_XOR_X", "SKF_AD_VLAN_TAG", "SKF_AD_VLAN_TAG_PRESENT", "SKF_AD_PAY_OFFSET", "SKF_AD_RANDOM", "SKF_AD_VLAN_TPID",),
        style="values",
    ),
    Table(
        name="SKF_OFF",
        doc="Socket filter special load offsets (skf_off; strace compiles it as macros only).",
        headers=("linux/filter.h",),
        entries=("SKF_AD_OFF", "SKF_NET_OFF", "SKF_LL_OFF",),
        style="values",
        strace_xlat=False,
    ),
    Table(
        name="REBOOT_MAGIC",
        doc="reboot(2) magic.",
        headers=("linux/reboot.h",),
        entries=(
            "LINUX_REBOOT_MAGIC1",
        ),
        style="values",
    ),
    Table(
        name="REBOOT_MAGIC2",
        doc="reboot(2) magic2.",
        headers=("linux/reboot.h",),
        entries=(
            "LINUX_REBOOT_MAGIC2", "LINUX_REBOOT_MAGIC2A", "LINUX_REBOOT_MAGIC2B", "LINUX_REBOOT_MAGIC2C",
        ),
        style="values",
    ),
    Table(
        name="REBOOT_CMDS",
        doc="reboot(2) command.",
        headers=("linux/reboot.h",),
        entries=(
            "LINUX_REBOOT_CMD_RESTART", "LINUX_REBOOT_CMD_HALT", "LINUX_REBOOT_CMD_CAD_ON",
            "LINUX_REBOOT_CMD_CAD_OFF", "LINUX_REBOOT_CMD_POWER_OFF", "LINUX_REBOOT_CMD_RESTART2",
            "LINUX_REBOOT_CMD_SW_SUSPEND", "LINUX_REBOOT_CMD_KEXEC",
        ),
        style="values",
    ),
    Table(
        name="SYSLOG_ACTIONS",
        doc="syslog(2) action (kernel-internal names).",
        entries=(
            "SYSLOG_ACTION_CLOSE", "SYSLOG_ACTION_OPEN", "SYSLOG_ACTION_READ", "SYSLOG_ACTION_READ_ALL",
            "SYSLOG_ACTION_READ_CLEAR", "SYSLOG_ACTION_CLEAR", "SYSLOG_ACTION_CONSOLE_OFF",
            "SYSLOG_ACTION_CONSOLE_ON", "SYSLOG_ACTION_CONSOLE_LEVEL", "SYSLOG_ACTION_SIZE_UNREAD",
            "SYSLOG_ACTION_SIZE_BUFFER",
        ),
        fallbacks=(
            ("SYSLOG_ACTION_CLOSE", "0x0"), ("SYSLOG_ACTION_OPEN", "0x1"), ("SYSLOG_ACTION_READ", "0x2"),
            ("SYSLOG_ACTION_READ_ALL", "0x3"), ("SYSLOG_ACTION_READ_CLEAR", "0x4"),
            ("SYSLOG_ACTION_CLEAR", "0x5"), ("SYSLOG_ACTION_CONSOLE_OFF", "0x6"),
            ("SYSLOG_ACTION_CONSOLE_ON", "0x7"), ("SYSLOG_ACTION_CONSOLE_LEVEL", "0x8"),
            ("SYSLOG_ACTION_SIZE_UNREAD", "0x9"), ("SYSLOG_ACTION_SIZE_BUFFER", "0xa"),
        ),
        style="values",
    ),
    Table(
        name="SYSLOG_CONSOLE_LEVELS",
        doc=(
            "syslog(2) SYSLOG_ACTION_CONSOLE_LEVEL level (kernel-internal LOGLEVEL_*; strace also names 8,\n"
            "the kernel's \"debug and above\", LOGLEVEL_DEBUG+1)."
        ),
        entries=(
            "LOGLEVEL_EMERG", "LOGLEVEL_ALERT", "LOGLEVEL_CRIT", "LOGLEVEL_ERR", "LOGLEVEL_WARNING",
            "LOGLEVEL_NOTICE", "LOGLEVEL_INFO", "LOGLEVEL_DEBUG", "LOGLEVEL_DEBUG+1=LOGLEVEL_DEBUG+1",
        ),
        fallbacks=(
            ("LOGLEVEL_EMERG", "0"), ("LOGLEVEL_ALERT", "1"), ("LOGLEVEL_CRIT", "2"), ("LOGLEVEL_ERR", "3"),
            ("LOGLEVEL_WARNING", "4"), ("LOGLEVEL_NOTICE", "5"), ("LOGLEVEL_INFO", "6"), ("LOGLEVEL_DEBUG", "7"),
        ),
        style="values",
    ),
    Table(
        name="MPOL_MODES",
        doc="memory policy modes.",
        headers=("linux/mempolicy.h",),
        entries=(
            "MPOL_DEFAULT", "MPOL_PREFERRED", "MPOL_BIND", "MPOL_INTERLEAVE", "MPOL_LOCAL",
            "MPOL_PREFERRED_MANY",
        ),
        style="values",
    ),
    Table(
        name="MPOL_MODE_FLAGS",
        doc="memory policy mode flags.",
        headers=("linux/mempolicy.h",),
        entries=(
            "MPOL_F_STATIC_NODES", "MPOL_F_RELATIVE_NODES", "MPOL_F_NUMA_BALANCING",
        ),
    ),
    Table(
        name="GET_MEMPOLICY_FLAGS",
        doc="get_mempolicy(2) flags.",
        headers=("linux/mempolicy.h",),
        entries=(
            "MPOL_F_NODE", "MPOL_F_ADDR", "MPOL_F_MEMS_ALLOWED",
        ),
    ),
    Table(
        name="MBIND_FLAGS",
        doc="mbind(2) flags.",
        headers=("linux/mempolicy.h",),
        entries=(
            "MPOL_MF_STRICT", "MPOL_MF_MOVE", "MPOL_MF_MOVE_ALL",
        ),
    ),
    Table(
        name="MOVE_PAGES_FLAGS",
        doc="move_pages(2) flags.",
        headers=("linux/mempolicy.h",),
        entries=(
            "MPOL_MF_MOVE", "MPOL_MF_MOVE_ALL",
        ),
    ),
    Table(
        name="PKEY_ACCESS",
        doc="pkey_alloc(2) access rights.",
        headers=("asm-generic/mman-common.h",),
        entries=(
            "PKEY_DISABLE_ACCESS", "PKEY_DISABLE_WRITE", "PKEY_DISABLE_EXECUTE",
        ),
        fallbacks=(
            ("PKEY_DISABLE_EXECUTE", "0x4"),
        ),
    ),
    Table(
        name="UFFD_FLAGS",
        doc="userfaultfd(2) flags.",
        headers=("linux/userfaultfd.h", "linux/fcntl.h",),
        entries=(
            "UFFD_USER_MODE_ONLY", "O_NONBLOCK", "O_CLOEXEC",
        ),
    ),
    Table(
        name="AIO_CMDS",
        doc="struct iocb aio_lio_opcode.",
        headers=("linux/aio_abi.h",),
        entries=(
            "IOCB_CMD_PREAD", "IOCB_CMD_PWRITE", "IOCB_CMD_FSYNC", "IOCB_CMD_FDSYNC", "IOCB_CMD_PREADX",
            "IOCB_CMD_POLL", "IOCB_CMD_NOOP", "IOCB_CMD_PREADV", "IOCB_CMD_PWRITEV",
        ),
        fallbacks=(
            ("IOCB_CMD_PREADX", "0x4"),
        ),
        style="values",
    ),
    Table(
        name="AIO_IOCB_FLAGS",
        doc="struct iocb aio_flags.",
        headers=("linux/aio_abi.h",),
        entries=(
            "IOCB_FLAG_RESFD", "IOCB_FLAG_IOPRIO",
        ),
    ),
    Table(
        name="AIO_RW_FLAGS",
        doc="struct iocb aio_rw_flags (RWF_*).",
        headers=("linux/fs.h",),
        entries=(
            "RWF_HIPRI", "RWF_DSYNC", "RWF_SYNC", "RWF_NOWAIT", "RWF_APPEND",
        ),
    ),
    Table(
        name="IORING_SETUP_FLAGS",
        doc="io_uring_setup(2) params.flags.",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_SETUP_IOPOLL", "IORING_SETUP_SQPOLL", "IORING_SETUP_SQ_AFF", "IORING_SETUP_CQSIZE",
            "IORING_SETUP_CLAMP", "IORING_SETUP_ATTACH_WQ", "IORING_SETUP_R_DISABLED",
            "IORING_SETUP_SUBMIT_ALL", "IORING_SETUP_COOP_TASKRUN", "IORING_SETUP_TASKRUN_FLAG",
            "IORING_SETUP_SQE128", "IORING_SETUP_CQE32",
        ),
    ),
    Table(
        name="IORING_FEATURES",
        doc="io_uring_setup(2) params.features.",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_FEAT_SINGLE_MMAP", "IORING_FEAT_NODROP", "IORING_FEAT_SUBMIT_STABLE",
            "IORING_FEAT_RW_CUR_POS", "IORING_FEAT_CUR_PERSONALITY", "IORING_FEAT_FAST_POLL",
            "IORING_FEAT_POLL_32BITS", "IORING_FEAT_SQPOLL_NONFIXED", "IORING_FEAT_EXT_ARG",
            "IORING_FEAT_NATIVE_WORKERS", "IORING_FEAT_RSRC_TAGS", "IORING_FEAT_CQE_SKIP",
            "IORING_FEAT_LINKED_FILE",
        ),
    ),
    Table(
        name="IORING_ENTER_FLAGS",
        doc="io_uring_enter(2) flags.",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_ENTER_GETEVENTS", "IORING_ENTER_SQ_WAKEUP", "IORING_ENTER_SQ_WAIT", "IORING_ENTER_EXT_ARG",
            "IORING_ENTER_REGISTERED_RING",
        ),
    ),
    Table(
        name="IORING_REGISTER_OPS",
        doc="io_uring_register(2) opcode.",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_REGISTER_BUFFERS", "IORING_UNREGISTER_BUFFERS", "IORING_REGISTER_FILES",
            "IORING_UNREGISTER_FILES", "IORING_REGISTER_EVENTFD", "IORING_UNREGISTER_EVENTFD",
            "IORING_REGISTER_FILES_UPDATE", "IORING_REGISTER_EVENTFD_ASYNC", "IORING_REGISTER_PROBE",
            "IORING_REGISTER_PERSONALITY", "IORING_UNREGISTER_PERSONALITY", "IORING_REGISTER_RESTRICTIONS",
            "IORING_REGISTER_ENABLE_RINGS", "IORING_REGISTER_FILES2", "IORING_REGISTER_FILES_UPDATE2",
            "IORING_REGISTER_BUFFERS2", "IORING_REGISTER_BUFFERS_UPDATE", "IORING_REGISTER_IOWQ_AFF",
            "IORING_UNREGISTER_IOWQ_AFF", "IORING_REGISTER_IOWQ_MAX_WORKERS", "IORING_REGISTER_RING_FDS",
            "IORING_UNREGISTER_RING_FDS", "IORING_REGISTER_PBUF_RING", "IORING_UNREGISTER_PBUF_RING",
        ),
        style="values",
    ),
    Table(
        name="IORING_OPS",
        doc="io_uring opcodes (struct io_uring_probe_op.op, IORING_RESTRICTION_SQE_OP).",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_OP_NOP", "IORING_OP_READV", "IORING_OP_WRITEV", "IORING_OP_FSYNC", "IORING_OP_READ_FIXED",
            "IORING_OP_WRITE_FIXED", "IORING_OP_POLL_ADD", "IORING_OP_POLL_REMOVE",
            "IORING_OP_SYNC_FILE_RANGE", "IORING_OP_SENDMSG", "IORING_OP_RECVMSG", "IORING_OP_TIMEOUT",
            "IORING_OP_TIMEOUT_REMOVE", "IORING_OP_ACCEPT", "IORING_OP_ASYNC_CANCEL",
            "IORING_OP_LINK_TIMEOUT", "IORING_OP_CONNECT", "IORING_OP_FALLOCATE", "IORING_OP_OPENAT",
            "IORING_OP_CLOSE", "IORING_OP_FILES_UPDATE", "IORING_OP_STATX", "IORING_OP_READ",
            "IORING_OP_WRITE", "IORING_OP_FADVISE", "IORING_OP_MADVISE", "IORING_OP_SEND", "IORING_OP_RECV",
            "IORING_OP_OPENAT2", "IORING_OP_EPOLL_CTL", "IORING_OP_SPLICE", "IORING_OP_PROVIDE_BUFFERS",
            "IORING_OP_REMOVE_BUFFERS", "IORING_OP_TEE", "IORING_OP_SHUTDOWN", "IORING_OP_RENAMEAT",
            "IORING_OP_UNLINKAT", "IORING_OP_MKDIRAT", "IORING_OP_SYMLINKAT", "IORING_OP_LINKAT",
            "IORING_OP_MSG_RING", "IORING_OP_FSETXATTR", "IORING_OP_SETXATTR", "IORING_OP_FGETXATTR",
            "IORING_OP_GETXATTR", "IORING_OP_SOCKET", "IORING_OP_URING_CMD",
        ),
        style="values",
    ),
    Table(
        name="IORING_OP_FLAGS",
        doc="struct io_uring_probe_op.flags.",
        headers=("linux/io_uring.h",),
        entries=("IO_URING_OP_SUPPORTED",),
    ),
    Table(
        name="IORING_RESTRICTION_OPCODES",
        doc="struct io_uring_restriction.opcode (IORING_REGISTER_RESTRICTIONS).",
        headers=("linux/io_uring.h",),
        entries=(
            "IORING_RESTRICTION_REGISTER_OP", "IORING_RESTRICTION_SQE_OP", "IORING_RESTRICTION_SQE_FLAGS_ALLOWED",
            "IORING_RESTRICTION_SQE_FLAGS_REQUIRED",
        ),
        style="values",
    ),
    Table(
        name="IORING_SQE_FLAGS",
        doc="IOSQE_* (struct io_uring_sqe.flags, IORING_RESTRICTION_SQE_FLAGS_*).",
        headers=("linux/io_uring.h",),
        entries=(
            "IOSQE_FIXED_FILE", "IOSQE_IO_DRAIN", "IOSQE_IO_LINK", "IOSQE_IO_HARDLINK", "IOSQE_ASYNC",
            "IOSQE_BUFFER_SELECT", "IOSQE_CQE_SKIP_SUCCESS",
        ),
    ),
    Table(
        name="IORING_FILES_UPDATE_FDS",
        doc="Special fds in IORING_REGISTER_FILES_UPDATE(2) arrays.",
        headers=("linux/io_uring.h",),
        entries=("IORING_REGISTER_FILES_SKIP",),
        style="values",
    ),
    Table(
        name="IORING_IOWQ_ACCT",
        doc="Indexes of the IORING_REGISTER_IOWQ_MAX_WORKERS array.",
        headers=("linux/io_uring.h",),
        entries=("IO_WQ_BOUND", "IO_WQ_UNBOUND"),
        style="values",
    ),
    Table(
        name="IORING_RSRC_REGISTER_FLAGS",
        doc="struct io_uring_rsrc_register.flags (IORING_REGISTER_FILES2/BUFFERS2).",
        headers=("linux/io_uring.h",),
        entries=("IORING_RSRC_REGISTER_SPARSE",),
    ),
    Table(
        name="BPF_COMMANDS",
        doc="bpf(2) command.",
        headers=("linux/bpf.h",),
        entries=(
            "BPF_MAP_CREATE", "BPF_MAP_LOOKUP_ELEM", "BPF_MAP_UPDATE_ELEM", "BPF_MAP_DELETE_ELEM",
            "BPF_MAP_GET_NEXT_KEY", "BPF_PROG_LOAD", "BPF_OBJ_PIN", "BPF_OBJ_GET", "BPF_PROG_ATTACH",
            "BPF_PROG_DETACH", "BPF_PROG_TEST_RUN", "BPF_PROG_GET_NEXT_ID", "BPF_MAP_GET_NEXT_ID",
            "BPF_PROG_GET_FD_BY_ID", "BPF_MAP_GET_FD_BY_ID", "BPF_OBJ_GET_INFO_BY_FD", "BPF_PROG_QUERY",
            "BPF_RAW_TRACEPOINT_OPEN", "BPF_BTF_LOAD", "BPF_BTF_GET_FD_BY_ID", "BPF_TASK_FD_QUERY",
            "BPF_MAP_LOOKUP_AND_DELETE_ELEM", "BPF_MAP_FREEZE", "BPF_BTF_GET_NEXT_ID", "BPF_MAP_LOOKUP_BATCH",
            "BPF_MAP_LOOKUP_AND_DELETE_BATCH", "BPF_MAP_UPDATE_BATCH", "BPF_MAP_DELETE_BATCH",
            "BPF_LINK_CREATE", "BPF_LINK_UPDATE", "BPF_LINK_GET_FD_BY_ID", "BPF_LINK_GET_NEXT_ID",
            "BPF_ENABLE_STATS", "BPF_ITER_CREATE", "BPF_LINK_DETACH", "BPF_PROG_BIND_MAP",
        ),
        style="values",
    ),
    Table(
        name="BPF_MAP_TYPES",
        doc="bpf(BPF_MAP_CREATE) map_type.",
        headers=("linux/bpf.h",),
        entries=(
            "BPF_MAP_TYPE_UNSPEC", "BPF_MAP_TYPE_HASH", "BPF_MAP_TYPE_ARRAY", "BPF_MAP_TYPE_PROG_ARRAY",
            "BPF_MAP_TYPE_PERF_EVENT_ARRAY", "BPF_MAP_TYPE_PERCPU_HASH", "BPF_MAP_TYPE_PERCPU_ARRAY",
            "BPF_MAP_TYPE_STACK_TRACE", "BPF_MAP_TYPE_CGROUP_ARRAY", "BPF_MAP_TYPE_LRU_HASH",
            "BPF_MAP_TYPE_LRU_PERCPU_HASH", "BPF_MAP_TYPE_LPM_TRIE", "BPF_MAP_TYPE_ARRAY_OF_MAPS",
            "BPF_MAP_TYPE_HASH_OF_MAPS", "BPF_MAP_TYPE_DEVMAP", "BPF_MAP_TYPE_SOCKMAP", "BPF_MAP_TYPE_CPUMAP",
            "BPF_MAP_TYPE_XSKMAP", "BPF_MAP_TYPE_SOCKHASH", "BPF_MAP_TYPE_CGROUP_STORAGE",
            "BPF_MAP_TYPE_REUSEPORT_SOCKARRAY", "BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE", "BPF_MAP_TYPE_QUEUE",
            "BPF_MAP_TYPE_STACK", "BPF_MAP_TYPE_SK_STORAGE", "BPF_MAP_TYPE_DEVMAP_HASH",
            "BPF_MAP_TYPE_STRUCT_OPS", "BPF_MAP_TYPE_RINGBUF", "BPF_MAP_TYPE_INODE_STORAGE",
            "BPF_MAP_TYPE_TASK_STORAGE", "BPF_MAP_TYPE_BLOOM_FILTER", "BPF_MAP_TYPE_USER_RINGBUF",
        ),
        style="values",
    ),
    Table(
        name="BPF_MAP_FLAGS",
        doc="bpf(BPF_MAP_CREATE) map_flags.",
        headers=("linux/bpf.h",),
        entries=(
            "BPF_F_NO_PREALLOC", "BPF_F_NO_COMMON_LRU", "BPF_F_NUMA_NODE", "BPF_F_RDONLY", "BPF_F_WRONLY",
            "BPF_F_STACK_BUILD_ID", "BPF_F_ZERO_SEED", "BPF_F_RDONLY_PROG", "BPF_F_WRONLY_PROG", "BPF_F_CLONE",
            "BPF_F_MMAPABLE", "BPF_F_PRESERVE_ELEMS", "BPF_F_INNER_MAP",
        ),
    ),
    Table(
        name="BPF_MAP_UPDATE_FLAGS",
        doc="bpf(BPF_MAP_*_ELEM) flags.",
        headers=("linux/bpf.h",),
        entries=(
            "BPF_ANY", "BPF_NOEXIST", "BPF_EXIST", "BPF_F_LOCK",
        ),
        style="values",
    ),
    Table(
        name="BPF_MAP_LOOKUP_FLAGS",
        doc="bpf(BPF_MAP_LOOKUP_ELEM) flags.",
        headers=("linux/bpf.h",),
        entries=(
            "BPF_ANY", "BPF_F_LOCK",
        ),
        style="values",
    ),
    Table(
        name="BPF_PROG_TYPES",
        doc="bpf(BPF_PROG_LOAD) prog_type, bpf_prog_info.type.",
        headers=("linux/bpf.h",),
        entries=("BPF_PROG_TYPE_UNSPEC", "BPF_PROG_TYPE_SOCKET_FILTER", "BPF_PROG_TYPE_KPROBE", "BPF_PROG_TYPE_SCHED_CLS", "BPF_PROG_TYPE_SCHED_ACT", "BPF_PROG_TYPE_TRACEPOINT", "BPF_PROG_TYPE_XDP", "BPF_PROG_TYPE_PERF_EVENT", "BPF_PROG_TYPE_CGROUP_SKB", "BPF_PROG_TYPE_CGROUP_SOCK", "BPF_PROG_TYPE_LWT_IN", "BPF_PROG_TYPE_LWT_OUT", "BPF_PROG_TYPE_LWT_XMIT", "BPF_PROG_TYPE_SOCK_OPS", "BPF_PROG_TYPE_SK_SKB", "BPF_PROG_TYPE_CGROUP_DEVICE", "BPF_PROG_TYPE_SK_MSG", "BPF_PROG_TYPE_RAW_TRACEPOINT", "BPF_PROG_TYPE_CGROUP_SOCK_ADDR", "BPF_PROG_TYPE_LWT_SEG6LOCAL", "BPF_PROG_TYPE_LIRC_MODE2", "BPF_PROG_TYPE_SK_REUSEPORT", "BPF_PROG_TYPE_FLOW_DISSECTOR", "BPF_PROG_TYPE_CGROUP_SYSCTL", "BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE", "BPF_PROG_TYPE_CGROUP_SOCKOPT", "BPF_PROG_TYPE_TRACING", "BPF_PROG_TYPE_STRUCT_OPS", "BPF_PROG_TYPE_EXT", "BPF_PROG_TYPE_LSM", "BPF_PROG_TYPE_SK_LOOKUP", "BPF_PROG_TYPE_SYSCALL",),
        style="values",
    ),
    Table(
        name="BPF_PROG_FLAGS",
        doc="bpf(BPF_PROG_LOAD) prog_flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_STRICT_ALIGNMENT", "BPF_F_ANY_ALIGNMENT", "BPF_F_TEST_RND_HI32", "BPF_F_TEST_STATE_FREQ", "BPF_F_SLEEPABLE",),
        style="flags",
    ),
    Table(
        name="BPF_ATTACH_TYPES",
        doc="bpf(2) attach_type / expected_attach_type.",
        headers=("linux/bpf.h",),
        entries=("BPF_CGROUP_INET_INGRESS", "BPF_CGROUP_INET_EGRESS", "BPF_CGROUP_INET_SOCK_CREATE", "BPF_CGROUP_SOCK_OPS", "BPF_SK_SKB_STREAM_PARSER", "BPF_SK_SKB_STREAM_VERDICT", "BPF_CGROUP_DEVICE", "BPF_SK_MSG_VERDICT", "BPF_CGROUP_INET4_BIND", "BPF_CGROUP_INET6_BIND", "BPF_CGROUP_INET4_CONNECT", "BPF_CGROUP_INET6_CONNECT", "BPF_CGROUP_INET4_POST_BIND", "BPF_CGROUP_INET6_POST_BIND", "BPF_CGROUP_UDP4_SENDMSG", "BPF_CGROUP_UDP6_SENDMSG", "BPF_LIRC_MODE2", "BPF_FLOW_DISSECTOR", "BPF_CGROUP_SYSCTL", "BPF_CGROUP_UDP4_RECVMSG", "BPF_CGROUP_UDP6_RECVMSG", "BPF_CGROUP_GETSOCKOPT", "BPF_CGROUP_SETSOCKOPT", "BPF_TRACE_RAW_TP", "BPF_TRACE_FENTRY", "BPF_TRACE_FEXIT", "BPF_MODIFY_RETURN", "BPF_LSM_MAC", "BPF_TRACE_ITER", "BPF_CGROUP_INET4_GETPEERNAME", "BPF_CGROUP_INET6_GETPEERNAME", "BPF_CGROUP_INET4_GETSOCKNAME", "BPF_CGROUP_INET6_GETSOCKNAME", "BPF_XDP_DEVMAP", "BPF_CGROUP_INET_SOCK_RELEASE", "BPF_XDP_CPUMAP", "BPF_SK_LOOKUP", "BPF_XDP", "BPF_SK_SKB_VERDICT", "BPF_SK_REUSEPORT_SELECT", "BPF_SK_REUSEPORT_SELECT_OR_MIGRATE", "BPF_PERF_EVENT", "BPF_TRACE_KPROBE_MULTI", "BPF_LSM_CGROUP",),
        style="values",
    ),
    Table(
        name="BPF_ATTACH_FLAGS",
        doc="bpf(BPF_PROG_ATTACH, BPF_PROG_QUERY, BPF_LINK_UPDATE) flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_ALLOW_OVERRIDE", "BPF_F_ALLOW_MULTI", "BPF_F_REPLACE",),
        style="flags",
    ),
    Table(
        name="BPF_FILE_MODE_FLAGS",
        doc="bpf(BPF_OBJ_PIN/GET, *_GET_FD_BY_ID) file/open flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_RDONLY", "BPF_F_WRONLY",),
        style="flags",
    ),
    Table(
        name="BPF_QUERY_FLAGS",
        doc="bpf(BPF_PROG_QUERY) query_flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_QUERY_EFFECTIVE",),
        style="flags",
    ),
    Table(
        name="BPF_TASK_FD_TYPES",
        doc="bpf(BPF_TASK_FD_QUERY) fd_type.",
        headers=("linux/bpf.h",),
        entries=("BPF_FD_TYPE_RAW_TRACEPOINT", "BPF_FD_TYPE_TRACEPOINT", "BPF_FD_TYPE_KPROBE", "BPF_FD_TYPE_KRETPROBE", "BPF_FD_TYPE_UPROBE", "BPF_FD_TYPE_URETPROBE",),
        style="values",
    ),
    Table(
        name="BPF_TEST_RUN_FLAGS",
        doc="bpf(BPF_PROG_TEST_RUN) flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_TEST_RUN_ON_CPU", "BPF_F_TEST_XDP_LIVE_FRAMES",),
        style="flags",
    ),
    Table(
        name="BPF_KPROBE_MULTI_FLAGS",
        doc="bpf(BPF_LINK_CREATE) kprobe_multi.flags.",
        headers=("linux/bpf.h",),
        entries=("BPF_F_KPROBE_MULTI_RETURN",),
        style="flags",
    ),
    Table(
        name="PERF_TYPES",
        doc="perf_event_attr.type.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_TYPE_HARDWARE", "PERF_TYPE_SOFTWARE", "PERF_TYPE_TRACEPOINT", "PERF_TYPE_HW_CACHE",
            "PERF_TYPE_RAW", "PERF_TYPE_BREAKPOINT",
        ),
        style="values",
    ),
    Table(
        name="PERF_SW_IDS",
        doc="perf_event_attr.config for PERF_TYPE_SOFTWARE.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_TASK_CLOCK", "PERF_COUNT_SW_PAGE_FAULTS",
            "PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_CPU_MIGRATIONS", "PERF_COUNT_SW_PAGE_FAULTS_MIN",
            "PERF_COUNT_SW_PAGE_FAULTS_MAJ", "PERF_COUNT_SW_ALIGNMENT_FAULTS",
            "PERF_COUNT_SW_EMULATION_FAULTS", "PERF_COUNT_SW_DUMMY", "PERF_COUNT_SW_BPF_OUTPUT",
            "PERF_COUNT_SW_CGROUP_SWITCHES",
        ),
        style="values",
    ),
    Table(
        name="PERF_HW_IDS",
        doc="perf_event_attr.config for PERF_TYPE_HARDWARE.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_COUNT_HW_CPU_CYCLES", "PERF_COUNT_HW_INSTRUCTIONS", "PERF_COUNT_HW_CACHE_REFERENCES",
            "PERF_COUNT_HW_CACHE_MISSES", "PERF_COUNT_HW_BRANCH_INSTRUCTIONS", "PERF_COUNT_HW_BRANCH_MISSES",
            "PERF_COUNT_HW_BUS_CYCLES", "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND",
            "PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "PERF_COUNT_HW_REF_CPU_CYCLES",
        ),
        style="values",
    ),
    Table(
        name="PERF_HW_CACHE_IDS",
        doc="perf_event_attr.config bits 0-7 for PERF_TYPE_HW_CACHE (strace's perf_hw_cache_id).",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_COUNT_HW_CACHE_L1D", "PERF_COUNT_HW_CACHE_L1I", "PERF_COUNT_HW_CACHE_LL",
            "PERF_COUNT_HW_CACHE_DTLB", "PERF_COUNT_HW_CACHE_ITLB", "PERF_COUNT_HW_CACHE_BPU",
            "PERF_COUNT_HW_CACHE_NODE",
        ),
        style="values",
    ),
    Table(
        name="PERF_HW_CACHE_OP_IDS",
        doc="perf_event_attr.config bits 8-15 for PERF_TYPE_HW_CACHE (strace's perf_hw_cache_op_id).",
        headers=("linux/perf_event.h",),
        entries=("PERF_COUNT_HW_CACHE_OP_READ", "PERF_COUNT_HW_CACHE_OP_WRITE", "PERF_COUNT_HW_CACHE_OP_PREFETCH"),
        style="values",
    ),
    Table(
        name="PERF_HW_CACHE_OP_RESULT_IDS",
        doc="perf_event_attr.config bits 16-23 for PERF_TYPE_HW_CACHE (strace's perf_hw_cache_op_result_id).",
        headers=("linux/perf_event.h",),
        entries=("PERF_COUNT_HW_CACHE_RESULT_ACCESS", "PERF_COUNT_HW_CACHE_RESULT_MISS"),
        style="values",
    ),
    Table(
        name="PERF_EVENT_OPEN_FLAGS",
        doc="perf_event_open(2) flags.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_FLAG_FD_NO_GROUP", "PERF_FLAG_FD_OUTPUT", "PERF_FLAG_PID_CGROUP", "PERF_FLAG_FD_CLOEXEC",
        ),
    ),
    Table(
        name="PERF_ATTR_SIZES",
        doc="perf_event_attr.size.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_ATTR_SIZE_VER0", "PERF_ATTR_SIZE_VER1", "PERF_ATTR_SIZE_VER2", "PERF_ATTR_SIZE_VER3",
            "PERF_ATTR_SIZE_VER4", "PERF_ATTR_SIZE_VER5", "PERF_ATTR_SIZE_VER6", "PERF_ATTR_SIZE_VER7",
        ),
        style="values",
    ),
    Table(
        name="PERF_SAMPLE_TYPES",
        doc="perf_event_attr.sample_type.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_SAMPLE_IP", "PERF_SAMPLE_TID", "PERF_SAMPLE_TIME", "PERF_SAMPLE_ADDR", "PERF_SAMPLE_READ",
            "PERF_SAMPLE_CALLCHAIN", "PERF_SAMPLE_ID", "PERF_SAMPLE_CPU", "PERF_SAMPLE_PERIOD",
            "PERF_SAMPLE_STREAM_ID", "PERF_SAMPLE_RAW", "PERF_SAMPLE_BRANCH_STACK", "PERF_SAMPLE_REGS_USER",
            "PERF_SAMPLE_STACK_USER", "PERF_SAMPLE_WEIGHT", "PERF_SAMPLE_DATA_SRC", "PERF_SAMPLE_IDENTIFIER",
            "PERF_SAMPLE_TRANSACTION", "PERF_SAMPLE_REGS_INTR", "PERF_SAMPLE_PHYS_ADDR", "PERF_SAMPLE_AUX",
            "PERF_SAMPLE_CGROUP", "PERF_SAMPLE_DATA_PAGE_SIZE", "PERF_SAMPLE_CODE_PAGE_SIZE",
            "PERF_SAMPLE_WEIGHT_STRUCT",
        ),
    ),
    Table(
        name="PERF_READ_FORMATS",
        doc="perf_event_attr.read_format.",
        headers=("linux/perf_event.h",),
        entries=(
            "PERF_FORMAT_TOTAL_TIME_ENABLED", "PERF_FORMAT_TOTAL_TIME_RUNNING", "PERF_FORMAT_ID",
            "PERF_FORMAT_GROUP", "PERF_FORMAT_LOST",
        ),
    ),
    Table(
        name="LANDLOCK_CREATE_FLAGS",
        doc="landlock_create_ruleset(2) flags.",
        headers=("linux/landlock.h",),
        entries=(
            "LANDLOCK_CREATE_RULESET_VERSION",
        ),
    ),
    Table(
        name="LANDLOCK_ACCESS_FS",
        doc="landlock handled/allowed file-system access rights.",
        headers=("linux/landlock.h",),
        entries=(
            "LANDLOCK_ACCESS_FS_EXECUTE", "LANDLOCK_ACCESS_FS_WRITE_FILE", "LANDLOCK_ACCESS_FS_READ_FILE",
            "LANDLOCK_ACCESS_FS_READ_DIR", "LANDLOCK_ACCESS_FS_REMOVE_DIR", "LANDLOCK_ACCESS_FS_REMOVE_FILE",
            "LANDLOCK_ACCESS_FS_MAKE_CHAR", "LANDLOCK_ACCESS_FS_MAKE_DIR", "LANDLOCK_ACCESS_FS_MAKE_REG",
            "LANDLOCK_ACCESS_FS_MAKE_SOCK", "LANDLOCK_ACCESS_FS_MAKE_FIFO", "LANDLOCK_ACCESS_FS_MAKE_BLOCK",
            "LANDLOCK_ACCESS_FS_MAKE_SYM", "LANDLOCK_ACCESS_FS_REFER",
        ),
    ),
    Table(
        name="LANDLOCK_RULE_TYPES",
        doc="landlock_add_rule(2) rule type.",
        headers=("linux/landlock.h",),
        entries=(
            "LANDLOCK_RULE_PATH_BENEATH",
        ),
        style="values",
    ),
    Table(
        name="KEY_SPECS",
        doc="special key serials (KEY_SPEC_*).",
        headers=("linux/keyctl.h",),
        entries=(
            "KEY_SPEC_THREAD_KEYRING", "KEY_SPEC_PROCESS_KEYRING", "KEY_SPEC_SESSION_KEYRING",
            "KEY_SPEC_USER_KEYRING", "KEY_SPEC_USER_SESSION_KEYRING", "KEY_SPEC_GROUP_KEYRING",
            "KEY_SPEC_REQKEY_AUTH_KEY", "KEY_SPEC_REQUESTOR_KEYRING",
        ),
        style="values",
    ),
    Table(
        name="KEY_PERMS",
        doc="keyctl(KEYCTL_SETPERM) permissions (kernel-internal include/linux/key.h: strace's values).",
        headers=("linux/keyctl.h",),
        entries=("KEY_POS_VIEW", "KEY_POS_READ", "KEY_POS_WRITE", "KEY_POS_SEARCH", "KEY_POS_LINK", "KEY_POS_SETATTR", "KEY_POS_ALL", "KEY_USR_VIEW", "KEY_USR_READ", "KEY_USR_WRITE", "KEY_USR_SEARCH", "KEY_USR_LINK", "KEY_USR_SETATTR", "KEY_USR_ALL", "KEY_GRP_VIEW", "KEY_GRP_READ", "KEY_GRP_WRITE", "KEY_GRP_SEARCH", "KEY_GRP_LINK", "KEY_GRP_SETATTR", "KEY_GRP_ALL", "KEY_OTH_VIEW", "KEY_OTH_READ", "KEY_OTH_WRITE", "KEY_OTH_SEARCH", "KEY_OTH_LINK", "KEY_OTH_SETATTR", "KEY_OTH_ALL"),
        fallbacks=(("KEY_POS_VIEW", "0x01000000"), ("KEY_POS_READ", "0x02000000"), ("KEY_POS_WRITE", "0x04000000"), ("KEY_POS_SEARCH", "0x08000000"), ("KEY_POS_LINK", "0x10000000"), ("KEY_POS_SETATTR", "0x20000000"), ("KEY_POS_ALL", "0x3f000000"), ("KEY_USR_VIEW", "0x00010000"), ("KEY_USR_READ", "0x00020000"), ("KEY_USR_WRITE", "0x00040000"), ("KEY_USR_SEARCH", "0x00080000"), ("KEY_USR_LINK", "0x00100000"), ("KEY_USR_SETATTR", "0x00200000"), ("KEY_USR_ALL", "0x003f0000"), ("KEY_GRP_VIEW", "0x00000100"), ("KEY_GRP_READ", "0x00000200"), ("KEY_GRP_WRITE", "0x00000400"), ("KEY_GRP_SEARCH", "0x00000800"), ("KEY_GRP_LINK", "0x00001000"), ("KEY_GRP_SETATTR", "0x00002000"), ("KEY_GRP_ALL", "0x00003f00"), ("KEY_OTH_VIEW", "0x00000001"), ("KEY_OTH_READ", "0x00000002"), ("KEY_OTH_WRITE", "0x00000004"), ("KEY_OTH_SEARCH", "0x00000008"), ("KEY_OTH_LINK", "0x00000010"), ("KEY_OTH_SETATTR", "0x00000020"), ("KEY_OTH_ALL", "0x0000003f")),
    ),
    Table(
        name="KEY_REQKEYS",
        doc="keyctl(KEYCTL_SET_REQKEY_KEYRING) keyring (printed as int).",
        headers=("linux/keyctl.h",),
        entries=("KEY_REQKEY_DEFL_NO_CHANGE", "KEY_REQKEY_DEFL_DEFAULT", "KEY_REQKEY_DEFL_THREAD_KEYRING",
                 "KEY_REQKEY_DEFL_PROCESS_KEYRING", "KEY_REQKEY_DEFL_SESSION_KEYRING", "KEY_REQKEY_DEFL_USER_KEYRING",
                 "KEY_REQKEY_DEFL_USER_SESSION_KEYRING", "KEY_REQKEY_DEFL_GROUP_KEYRING",
                 "KEY_REQKEY_DEFL_REQUESTOR_KEYRING"),
        style="values",
    ),
    Table(
        name="KEYCTL_MOVE_FLAGS",
        doc="keyctl(KEYCTL_MOVE) flags.",
        headers=("linux/keyctl.h",),
        entries=("KEYCTL_MOVE_EXCL",),
    ),
    Table(
        name="KEYCTL_PKEY_OPS",
        doc="keyctl(KEYCTL_PKEY_QUERY) struct keyctl_pkey_query.supported_ops.",
        headers=("linux/keyctl.h",),
        entries=("KEYCTL_SUPPORTS_ENCRYPT", "KEYCTL_SUPPORTS_DECRYPT", "KEYCTL_SUPPORTS_SIGN",
                 "KEYCTL_SUPPORTS_VERIFY"),
    ),
    Table(
        name="KEYCTL_CAPS0",
        doc="keyctl(KEYCTL_CAPABILITIES) byte 0 of the result buffer.",
        headers=("linux/keyctl.h",),
        entries=("KEYCTL_CAPS0_CAPABILITIES", "KEYCTL_CAPS0_PERSISTENT_KEYRINGS", "KEYCTL_CAPS0_DIFFIE_HELLMAN",
                 "KEYCTL_CAPS0_PUBLIC_KEY", "KEYCTL_CAPS0_BIG_KEY", "KEYCTL_CAPS0_INVALIDATE",
                 "KEYCTL_CAPS0_RESTRICT_KEYRING", "KEYCTL_CAPS0_MOVE"),
    ),
    Table(
        name="KEYCTL_CAPS1",
        doc="keyctl(KEYCTL_CAPABILITIES) byte 1 of the result buffer.",
        headers=("linux/keyctl.h",),
        entries=("KEYCTL_CAPS1_NS_KEYRING_NAME", "KEYCTL_CAPS1_NS_KEY_TAG", "KEYCTL_CAPS1_NOTIFICATIONS"),
    ),
    Table(
        name="KEYCTL_CMDS",
        doc="keyctl(2) operation.",
        headers=("linux/keyctl.h",),
        entries=(
            "KEYCTL_GET_KEYRING_ID", "KEYCTL_JOIN_SESSION_KEYRING", "KEYCTL_UPDATE", "KEYCTL_REVOKE",
            "KEYCTL_CHOWN", "KEYCTL_SETPERM", "KEYCTL_DESCRIBE", "KEYCTL_CLEAR", "KEYCTL_LINK",
            "KEYCTL_UNLINK", "KEYCTL_SEARCH", "KEYCTL_READ", "KEYCTL_INSTANTIATE", "KEYCTL_NEGATE",
            "KEYCTL_SET_REQKEY_KEYRING", "KEYCTL_SET_TIMEOUT", "KEYCTL_ASSUME_AUTHORITY",
            "KEYCTL_GET_SECURITY", "KEYCTL_SESSION_TO_PARENT", "KEYCTL_REJECT", "KEYCTL_INSTANTIATE_IOV",
            "KEYCTL_INVALIDATE", "KEYCTL_GET_PERSISTENT", "KEYCTL_DH_COMPUTE", "KEYCTL_PKEY_QUERY",
            "KEYCTL_PKEY_ENCRYPT", "KEYCTL_PKEY_DECRYPT", "KEYCTL_PKEY_SIGN", "KEYCTL_PKEY_VERIFY",
            "KEYCTL_RESTRICT_KEYRING", "KEYCTL_MOVE", "KEYCTL_CAPABILITIES", "KEYCTL_WATCH_KEY",
        ),
        style="values",
    ),
    Table(
        name="DELETE_MODULE_FLAGS",
        doc="delete_module(2) flags.",
        headers=("fcntl.h",),
        entries=(
            "O_NONBLOCK", "O_TRUNC",
        ),
    ),
    Table(
        name="MODULE_INIT_FLAGS",
        doc="finit_module(2) flags.",
        headers=("linux/module.h",),
        entries=(
            "MODULE_INIT_IGNORE_MODVERSIONS", "MODULE_INIT_IGNORE_VERMAGIC", "MODULE_INIT_COMPRESSED_FILE",
        ),
    ),
    Table(
        name="KEXEC_FILE_FLAGS",
        doc="kexec_file_load(2) flags.",
        headers=("linux/kexec.h",),
        entries=(
            "KEXEC_FILE_UNLOAD", "KEXEC_FILE_ON_CRASH", "KEXEC_FILE_NO_INITRAMFS",
        ),
    ),
    Table(
        name="KEXEC_ARCHS",
        doc="kexec_load(2) flags' architecture half.",
        headers=("linux/kexec.h",),
        entries=(
            "KEXEC_ARCH_DEFAULT", "KEXEC_ARCH_386", "KEXEC_ARCH_68K", "KEXEC_ARCH_PARISC", "KEXEC_ARCH_X86_64",
            "KEXEC_ARCH_PPC", "KEXEC_ARCH_PPC64", "KEXEC_ARCH_IA_64", "KEXEC_ARCH_ARM", "KEXEC_ARCH_S390",
            "KEXEC_ARCH_SH", "KEXEC_ARCH_MIPS_LE", "KEXEC_ARCH_MIPS", "KEXEC_ARCH_AARCH64", "KEXEC_ARCH_RISCV",
            "KEXEC_ARCH_LOONGARCH",
        ),
        style="values",
    ),
    Table(
        name="KEXEC_LOAD_FLAGS",
        doc="kexec_load(2) flags.",
        headers=("linux/kexec.h",),
        entries=(
            "KEXEC_ON_CRASH", "KEXEC_PRESERVE_CONTEXT",
        ),
    ),
    Table(
        name="ADJTIMEX_MODES",
        doc="struct timex modes.",
        headers=("sys/timex.h",),
        entries=(
            "ADJ_OFFSET_SS_READ", "ADJ_OFFSET_SINGLESHOT", "ADJ_OFFSET", "ADJ_FREQUENCY", "ADJ_MAXERROR",
            "ADJ_ESTERROR", "ADJ_STATUS", "ADJ_TIMECONST", "ADJ_TAI", "ADJ_SETOFFSET", "ADJ_MICRO", "ADJ_NANO",
            "ADJ_TICK",
        ),
    ),
    Table(
        name="ADJTIMEX_STATUS",
        doc="struct timex status.",
        headers=("sys/timex.h",),
        entries=(
            "STA_PLL", "STA_PPSFREQ", "STA_PPSTIME", "STA_FLL", "STA_INS", "STA_DEL", "STA_UNSYNC",
            "STA_FREQHOLD", "STA_PPSSIGNAL", "STA_PPSJITTER", "STA_PPSWANDER", "STA_PPSERROR", "STA_CLOCKERR",
            "STA_NANO", "STA_MODE", "STA_CLK",
        ),
    ),
    Table(
        name="ADJTIMEX_STATE",
        doc="adjtimex(2) return value (clock state).",
        headers=("sys/timex.h",),
        entries=(
            "TIME_OK", "TIME_INS", "TIME_DEL", "TIME_OOP", "TIME_WAIT", "TIME_ERROR",
        ),
        style="values",
    ),
    Table(
        name="CAP_MASK0",
        doc="capget(2)/capset(2) capability sets, first 32-bit word (``1<<CAP_CHOWN|...``).",
        headers=("linux/capability.h",),
        entries=(
            "1<<CAP_CHOWN=1U << CAP_CHOWN", "1<<CAP_DAC_OVERRIDE=1U << CAP_DAC_OVERRIDE",
            "1<<CAP_DAC_READ_SEARCH=1U << CAP_DAC_READ_SEARCH", "1<<CAP_FOWNER=1U << CAP_FOWNER",
            "1<<CAP_FSETID=1U << CAP_FSETID", "1<<CAP_KILL=1U << CAP_KILL", "1<<CAP_SETGID=1U << CAP_SETGID",
            "1<<CAP_SETUID=1U << CAP_SETUID", "1<<CAP_SETPCAP=1U << CAP_SETPCAP",
            "1<<CAP_LINUX_IMMUTABLE=1U << CAP_LINUX_IMMUTABLE",
            "1<<CAP_NET_BIND_SERVICE=1U << CAP_NET_BIND_SERVICE",
            "1<<CAP_NET_BROADCAST=1U << CAP_NET_BROADCAST", "1<<CAP_NET_ADMIN=1U << CAP_NET_ADMIN",
            "1<<CAP_NET_RAW=1U << CAP_NET_RAW", "1<<CAP_IPC_LOCK=1U << CAP_IPC_LOCK",
            "1<<CAP_IPC_OWNER=1U << CAP_IPC_OWNER", "1<<CAP_SYS_MODULE=1U << CAP_SYS_MODULE",
            "1<<CAP_SYS_RAWIO=1U << CAP_SYS_RAWIO", "1<<CAP_SYS_CHROOT=1U << CAP_SYS_CHROOT",
            "1<<CAP_SYS_PTRACE=1U << CAP_SYS_PTRACE", "1<<CAP_SYS_PACCT=1U << CAP_SYS_PACCT",
            "1<<CAP_SYS_ADMIN=1U << CAP_SYS_ADMIN", "1<<CAP_SYS_BOOT=1U << CAP_SYS_BOOT",
            "1<<CAP_SYS_NICE=1U << CAP_SYS_NICE", "1<<CAP_SYS_RESOURCE=1U << CAP_SYS_RESOURCE",
            "1<<CAP_SYS_TIME=1U << CAP_SYS_TIME", "1<<CAP_SYS_TTY_CONFIG=1U << CAP_SYS_TTY_CONFIG",
            "1<<CAP_MKNOD=1U << CAP_MKNOD", "1<<CAP_LEASE=1U << CAP_LEASE",
            "1<<CAP_AUDIT_WRITE=1U << CAP_AUDIT_WRITE", "1<<CAP_AUDIT_CONTROL=1U << CAP_AUDIT_CONTROL",
            "1<<CAP_SETFCAP=1U << CAP_SETFCAP",
        ),
    ),
    Table(
        name="CAP_MASK1",
        doc="capget(2)/capset(2) capability sets, second 32-bit word.",
        headers=("linux/capability.h",),
        entries=(
            "1<<CAP_MAC_OVERRIDE=1U << (CAP_MAC_OVERRIDE - 32)", "1<<CAP_MAC_ADMIN=1U << (CAP_MAC_ADMIN - 32)",
            "1<<CAP_SYSLOG=1U << (CAP_SYSLOG - 32)", "1<<CAP_WAKE_ALARM=1U << (CAP_WAKE_ALARM - 32)",
            "1<<CAP_BLOCK_SUSPEND=1U << (CAP_BLOCK_SUSPEND - 32)",
            "1<<CAP_AUDIT_READ=1U << (CAP_AUDIT_READ - 32)", "1<<CAP_PERFMON=1U << (CAP_PERFMON - 32)",
            "1<<CAP_BPF=1U << (CAP_BPF - 32)", "1<<CAP_CHECKPOINT_RESTORE=1U << (CAP_CHECKPOINT_RESTORE - 32)",
        ),
    ),
    Table(
        name="PIDFD_OPEN_FLAGS",
        doc="pidfd_open(2) flags.",
        headers=("linux/pidfd.h",),
        entries=("PIDFD_NONBLOCK",),
    ),
    Table(
        name="MEMFD_SECRET_FLAGS",
        doc="memfd_secret(2) flags.",
        headers=("linux/fcntl.h",),
        entries=("O_CLOEXEC",),
    ),
    Table(
        name="MQ_ATTR_FLAGS",
        doc="mq_getsetattr(2)/mq_open(2) struct mq_attr mq_flags.",
        headers=("linux/fcntl.h",),
        entries=("O_NONBLOCK",),
    ),
    Table(
        name="FUTEX2_FLAGS",
        doc="futex_waitv(2) struct futex_waitv flags.",
        headers=("linux/futex.h",),
        entries=("FUTEX_32", "FUTEX_PRIVATE_FLAG"),
    ),
]

# --------------------------------------------------------------------------------------
# Netlink messages (decode/netlink*.py): names and order of strace 6.1's netlink xlat lists
# --------------------------------------------------------------------------------------

NETLINK = [
    Table(
        name="NETLINK_TYPES",
        doc="nlmsghdr nlmsg_type for the control messages (< NLMSG_MIN_TYPE) of every family.",
        headers=("linux/netlink.h",),
        entries=(
            "NLMSG_NOOP", "NLMSG_ERROR", "NLMSG_DONE", "NLMSG_OVERRUN",
        ),
        style="values",
    ),
    Table(
        name="NETLINK_FLAGS",
        doc="nlmsghdr nlmsg_flags common to every message (printed first).",
        headers=("linux/netlink.h",),
        entries=(
            "NLM_F_REQUEST", "NLM_F_MULTI", "NLM_F_ACK", "NLM_F_ECHO", "NLM_F_DUMP_INTR", "NLM_F_DUMP_FILTERED",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_GET_FLAGS",
        doc="nlmsg_flags of GET requests (NLM_F_DUMP before ROOT/MATCH).",
        headers=("linux/netlink.h",),
        entries=(
            "NLM_F_DUMP", "NLM_F_ROOT", "NLM_F_MATCH", "NLM_F_ATOMIC",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_NEW_FLAGS",
        doc="nlmsg_flags of NEW requests.",
        headers=("linux/netlink.h",),
        entries=(
            "NLM_F_REPLACE", "NLM_F_EXCL", "NLM_F_CREATE", "NLM_F_APPEND",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_DELETE_FLAGS",
        doc="nlmsg_flags of DEL requests.",
        headers=("linux/netlink.h",),
        entries=(
            "NLM_F_NONREC", "NLM_F_BULK",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_ACK_FLAGS",
        doc="nlmsg_flags of NLMSG_ERROR acknowledgements.",
        headers=("linux/netlink.h",),
        entries=(
            "NLM_F_CAPPED", "NLM_F_ACK_TLVS",
        ),
        style="flags",
    ),
    Table(
        name="NLMSGERR_ATTRS",
        doc="Extended-ack attributes after a struct nlmsgerr.",
        headers=("linux/netlink.h",),
        entries=(
            "NLMSGERR_ATTR_UNUSED", "NLMSGERR_ATTR_MSG", "NLMSGERR_ATTR_OFFS", "NLMSGERR_ATTR_COOKIE",
            "NLMSGERR_ATTR_POLICY", "NLMSGERR_ATTR_MISS_TYPE", "NLMSGERR_ATTR_MISS_NEST",
        ),
        style="values",
    ),
    Table(
        name="NL_ROUTE_TYPES",
        doc="NETLINK_ROUTE message types.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTM_NEWLINK", "RTM_DELLINK", "RTM_GETLINK", "RTM_SETLINK", "RTM_NEWADDR", "RTM_DELADDR", "RTM_GETADDR",
            "RTM_NEWROUTE", "RTM_DELROUTE", "RTM_GETROUTE", "RTM_NEWNEIGH", "RTM_DELNEIGH", "RTM_GETNEIGH",
            "RTM_NEWRULE", "RTM_DELRULE", "RTM_GETRULE", "RTM_NEWQDISC", "RTM_DELQDISC", "RTM_GETQDISC",
            "RTM_NEWTCLASS", "RTM_DELTCLASS", "RTM_GETTCLASS", "RTM_NEWTFILTER", "RTM_DELTFILTER", "RTM_GETTFILTER",
            "RTM_NEWACTION", "RTM_DELACTION", "RTM_GETACTION", "RTM_NEWPREFIX", "RTM_GETMULTICAST", "RTM_GETANYCAST",
            "RTM_NEWNEIGHTBL", "RTM_GETNEIGHTBL", "RTM_SETNEIGHTBL", "RTM_NEWNDUSEROPT", "RTM_NEWADDRLABEL",
            "RTM_DELADDRLABEL", "RTM_GETADDRLABEL", "RTM_GETDCB", "RTM_SETDCB", "RTM_NEWNETCONF", "RTM_DELNETCONF",
            "RTM_GETNETCONF", "RTM_NEWMDB", "RTM_DELMDB", "RTM_GETMDB", "RTM_NEWNSID", "RTM_DELNSID", "RTM_GETNSID",
            "RTM_NEWSTATS", "RTM_GETSTATS", "RTM_NEWCACHEREPORT", "RTM_NEWCHAIN", "RTM_DELCHAIN", "RTM_GETCHAIN",
            "RTM_NEWNEXTHOP", "RTM_DELNEXTHOP", "RTM_GETNEXTHOP", "RTM_NEWLINKPROP", "RTM_DELLINKPROP",
            "RTM_GETLINKPROP", "RTM_NEWVLAN", "RTM_DELVLAN", "RTM_GETVLAN", "RTM_NEWNEXTHOPBUCKET",
            "RTM_DELNEXTHOPBUCKET", "RTM_GETNEXTHOPBUCKET",
        ),
        style="values",
    ),
    Table(
        name="NL_SOCK_DIAG_TYPES",
        doc="NETLINK_SOCK_DIAG message types.",
        headers=("linux/sock_diag.h", "linux/inet_diag.h"),
        entries=(
            "TCPDIAG_GETSOCK", "DCCPDIAG_GETSOCK", "SOCK_DIAG_BY_FAMILY", "SOCK_DESTROY",
        ),
        style="values",
    ),
    Table(
        name="NL_AUDIT_TYPES",
        doc="NETLINK_AUDIT message types.",
        headers=("linux/audit.h",),
        entries=(
            "AUDIT_GET", "AUDIT_SET", "AUDIT_LIST", "AUDIT_ADD", "AUDIT_DEL", "AUDIT_USER", "AUDIT_LOGIN",
            "AUDIT_WATCH_INS", "AUDIT_WATCH_REM", "AUDIT_WATCH_LIST", "AUDIT_SIGNAL_INFO", "AUDIT_ADD_RULE",
            "AUDIT_DEL_RULE", "AUDIT_LIST_RULES", "AUDIT_TRIM", "AUDIT_MAKE_EQUIV", "AUDIT_TTY_GET", "AUDIT_TTY_SET",
            "AUDIT_SET_FEATURE", "AUDIT_GET_FEATURE", "AUDIT_FIRST_USER_MSG", "AUDIT_USER_AVC", "AUDIT_USER_TTY",
            "AUDIT_LAST_USER_MSG", "AUDIT_DAEMON_START", "AUDIT_DAEMON_END", "AUDIT_DAEMON_ABORT",
            "AUDIT_DAEMON_CONFIG", "AUDIT_SYSCALL", "AUDIT_FS_WATCH", "AUDIT_PATH", "AUDIT_IPC", "AUDIT_SOCKETCALL",
            "AUDIT_CONFIG_CHANGE", "AUDIT_SOCKADDR", "AUDIT_CWD", "AUDIT_EXECVE", "AUDIT_IPC_SET_PERM",
            "AUDIT_MQ_OPEN", "AUDIT_MQ_SENDRECV", "AUDIT_MQ_NOTIFY", "AUDIT_MQ_GETSETATTR", "AUDIT_KERNEL_OTHER",
            "AUDIT_FD_PAIR", "AUDIT_OBJ_PID", "AUDIT_TTY", "AUDIT_EOE", "AUDIT_BPRM_FCAPS", "AUDIT_CAPSET",
            "AUDIT_MMAP", "AUDIT_NETFILTER_PKT", "AUDIT_NETFILTER_CFG", "AUDIT_SECCOMP", "AUDIT_PROCTITLE",
            "AUDIT_FEATURE_CHANGE", "AUDIT_REPLACE", "AUDIT_KERN_MODULE", "AUDIT_FANOTIFY", "AUDIT_TIME_INJOFFSET",
            "AUDIT_TIME_ADJNTPVAL", "AUDIT_BPF", "AUDIT_EVENT_LISTENER", "AUDIT_URINGOP", "AUDIT_OPENAT2",
            "AUDIT_DM_CTRL", "AUDIT_DM_EVENT", "AUDIT_AVC", "AUDIT_SELINUX_ERR", "AUDIT_AVC_PATH",
            "AUDIT_MAC_POLICY_LOAD", "AUDIT_MAC_STATUS", "AUDIT_MAC_CONFIG_CHANGE", "AUDIT_MAC_UNLBL_ALLOW",
            "AUDIT_MAC_CIPSOV4_ADD", "AUDIT_MAC_CIPSOV4_DEL", "AUDIT_MAC_MAP_ADD", "AUDIT_MAC_MAP_DEL",
            "AUDIT_MAC_IPSEC_ADDSA", "AUDIT_MAC_IPSEC_DELSA", "AUDIT_MAC_IPSEC_ADDSPD", "AUDIT_MAC_IPSEC_DELSPD",
            "AUDIT_MAC_IPSEC_EVENT", "AUDIT_MAC_UNLBL_STCADD", "AUDIT_MAC_UNLBL_STCDEL", "AUDIT_MAC_CALIPSO_ADD",
            "AUDIT_MAC_CALIPSO_DEL", "AUDIT_ANOM_PROMISCUOUS", "AUDIT_ANOM_ABEND", "AUDIT_ANOM_LINK",
            "AUDIT_ANOM_CREAT", "AUDIT_LAST_KERN_ANOM_MSG", "AUDIT_INTEGRITY_DATA", "AUDIT_INTEGRITY_METADATA",
            "AUDIT_INTEGRITY_STATUS", "AUDIT_INTEGRITY_HASH", "AUDIT_INTEGRITY_PCR", "AUDIT_INTEGRITY_RULE",
            "AUDIT_INTEGRITY_EVM_XATTR", "AUDIT_INTEGRITY_POLICY_RULE", "AUDIT_KERNEL", "AUDIT_FIRST_USER_MSG2",
            "AUDIT_LAST_USER_MSG2",
        ),
        fallbacks=(("AUDIT_FS_WATCH", "1301"),),
        style="values",
    ),
    Table(
        name="NL_XFRM_TYPES",
        doc="NETLINK_XFRM message types.",
        headers=("linux/xfrm.h",),
        entries=(
            "XFRM_MSG_NEWSA", "XFRM_MSG_DELSA", "XFRM_MSG_GETSA", "XFRM_MSG_NEWPOLICY", "XFRM_MSG_DELPOLICY",
            "XFRM_MSG_GETPOLICY", "XFRM_MSG_ALLOCSPI", "XFRM_MSG_ACQUIRE", "XFRM_MSG_EXPIRE", "XFRM_MSG_UPDPOLICY",
            "XFRM_MSG_UPDSA", "XFRM_MSG_POLEXPIRE", "XFRM_MSG_FLUSHSA", "XFRM_MSG_FLUSHPOLICY", "XFRM_MSG_NEWAE",
            "XFRM_MSG_GETAE", "XFRM_MSG_REPORT", "XFRM_MSG_MIGRATE", "XFRM_MSG_NEWSADINFO", "XFRM_MSG_GETSADINFO",
            "XFRM_MSG_NEWSPDINFO", "XFRM_MSG_GETSPDINFO", "XFRM_MSG_MAPPING", "XFRM_MSG_SETDEFAULT",
            "XFRM_MSG_GETDEFAULT",
        ),
        style="values",
    ),
    Table(
        name="NL_SELINUX_TYPES",
        doc="NETLINK_SELINUX message types.",
        headers=("linux/selinux_netlink.h",),
        entries=(
            "SELNL_MSG_SETENFORCE", "SELNL_MSG_POLICYLOAD",
        ),
        style="values",
    ),
    Table(
        name="NL_CRYPTO_TYPES",
        doc="NETLINK_CRYPTO message types.",
        headers=("linux/cryptouser.h",),
        entries=(
            "CRYPTO_MSG_NEWALG", "CRYPTO_MSG_DELALG", "CRYPTO_MSG_UPDATEALG", "CRYPTO_MSG_GETALG",
            "CRYPTO_MSG_DELRNG",
        ),
        style="values",
    ),
    Table(
        name="NL_NETFILTER_SUBSYS_IDS",
        doc="NETLINK_NETFILTER subsystem (high byte of nlmsg_type).",
        headers=("linux/netfilter/nfnetlink.h",),
        entries=(
            "NFNL_SUBSYS_NONE", "NFNL_SUBSYS_CTNETLINK", "NFNL_SUBSYS_CTNETLINK_EXP", "NFNL_SUBSYS_QUEUE",
            "NFNL_SUBSYS_ULOG", "NFNL_SUBSYS_OSF", "NFNL_SUBSYS_IPSET", "NFNL_SUBSYS_ACCT",
            "NFNL_SUBSYS_CTNETLINK_TIMEOUT", "NFNL_SUBSYS_CTHELPER", "NFNL_SUBSYS_NFTABLES", "NFNL_SUBSYS_NFT_COMPAT",
            "NFNL_SUBSYS_HOOK",
        ),
        style="values",
    ),
    Table(
        name="NL_NETFILTER_MSG_TYPES",
        doc="NETLINK_NETFILTER reserved control message types.",
        headers=("linux/netlink.h", "linux/netfilter/nfnetlink.h"),
        entries=(
            "NFNL_MSG_BATCH_BEGIN", "NFNL_MSG_BATCH_END",
        ),
        style="values",
    ),
    Table(
        name="NF_ACCT_MSG_TYPES",
        doc="NFNL_SUBSYS_ACCT message types.",
        headers=("linux/netfilter/nfnetlink_acct.h",),
        entries=(
            "NFNL_MSG_ACCT_NEW", "NFNL_MSG_ACCT_GET", "NFNL_MSG_ACCT_GET_CTRZERO", "NFNL_MSG_ACCT_DEL", "NFNL_MSG_ACCT_OVERQUOTA",
        ),
        style="values",
    ),
    Table(
        name="NF_CTHELPER_MSG_TYPES",
        doc="NFNL_SUBSYS_CTHELPER message types.",
        headers=("linux/netfilter/nfnetlink_cthelper.h",),
        entries=(
            "NFNL_MSG_CTHELPER_NEW", "NFNL_MSG_CTHELPER_GET", "NFNL_MSG_CTHELPER_DEL",
        ),
        style="values",
    ),
    Table(
        name="NF_CTNETLINK_EXP_MSG_TYPES",
        doc="NFNL_SUBSYS_CTNETLINK_EXP message types.",
        headers=("linux/netfilter/nfnetlink_conntrack.h",),
        entries=(
            "IPCTNL_MSG_EXP_NEW", "IPCTNL_MSG_EXP_GET", "IPCTNL_MSG_EXP_DELETE", "IPCTNL_MSG_EXP_GET_STATS_CPU",
        ),
        style="values",
    ),
    Table(
        name="NF_CTNETLINK_MSG_TYPES",
        doc="NFNL_SUBSYS_CTNETLINK message types.",
        headers=("linux/netfilter/nfnetlink_conntrack.h",),
        entries=(
            "IPCTNL_MSG_CT_NEW", "IPCTNL_MSG_CT_GET", "IPCTNL_MSG_CT_DELETE", "IPCTNL_MSG_CT_GET_CTRZERO", "IPCTNL_MSG_CT_GET_STATS_CPU", "IPCTNL_MSG_CT_GET_STATS", "IPCTNL_MSG_CT_GET_DYING", "IPCTNL_MSG_CT_GET_UNCONFIRMED",
        ),
        style="values",
    ),
    Table(
        name="NF_CTTIMEOUT_MSG_TYPES",
        doc="NFNL_SUBSYS_CTNETLINK_TIMEOUT message types.",
        headers=("linux/netfilter/nfnetlink_cttimeout.h",),
        entries=(
            "IPCTNL_MSG_TIMEOUT_NEW", "IPCTNL_MSG_TIMEOUT_GET", "IPCTNL_MSG_TIMEOUT_DELETE", "IPCTNL_MSG_TIMEOUT_DEFAULT_SET", "IPCTNL_MSG_TIMEOUT_DEFAULT_GET",
        ),
        style="values",
    ),
    Table(
        name="NF_HOOK_MSG_TYPES",
        doc="NFNL_SUBSYS_HOOK message types.",
        headers=("linux/netfilter/nfnetlink_hook.h",),
        entries=(
            "NFNL_MSG_HOOK_GET",
        ),
        style="values",
    ),
    Table(
        name="NF_IPSET_MSG_TYPES",
        doc="NFNL_SUBSYS_IPSET commands.",
        headers=("linux/types.h", "linux/netfilter/ipset/ip_set.h"),
        entries=(
            "IPSET_CMD_NONE", "IPSET_CMD_PROTOCOL", "IPSET_CMD_CREATE", "IPSET_CMD_DESTROY", "IPSET_CMD_FLUSH", "IPSET_CMD_RENAME", "IPSET_CMD_SWAP", "IPSET_CMD_LIST", "IPSET_CMD_SAVE", "IPSET_CMD_ADD", "IPSET_CMD_DEL", "IPSET_CMD_TEST", "IPSET_CMD_HEADER", "IPSET_CMD_TYPE", "IPSET_CMD_RESTORE", "IPSET_CMD_HELP", "IPSET_CMD_VERSION", "IPSET_CMD_QUIT", "IPSET_CMD_COMMIT",
        ),
        style="values",
    ),
    Table(
        name="NF_NFT_COMPAT_MSG_TYPES",
        doc="NFNL_SUBSYS_NFT_COMPAT message types.",
        headers=("linux/netfilter/nf_tables_compat.h",),
        entries=(
            "NFNL_MSG_COMPAT_GET",
        ),
        style="values",
    ),
    Table(
        name="NF_NFTABLES_MSG_TYPES",
        doc="NFNL_SUBSYS_NFTABLES message types.",
        headers=("linux/netfilter/nf_tables.h",),
        entries=(
            "NFT_MSG_NEWTABLE", "NFT_MSG_GETTABLE", "NFT_MSG_DELTABLE", "NFT_MSG_NEWCHAIN", "NFT_MSG_GETCHAIN", "NFT_MSG_DELCHAIN", "NFT_MSG_NEWRULE", "NFT_MSG_GETRULE", "NFT_MSG_DELRULE", "NFT_MSG_NEWSET", "NFT_MSG_GETSET", "NFT_MSG_DELSET", "NFT_MSG_NEWSETELEM", "NFT_MSG_GETSETELEM", "NFT_MSG_DELSETELEM", "NFT_MSG_NEWGEN", "NFT_MSG_GETGEN", "NFT_MSG_TRACE", "NFT_MSG_NEWOBJ", "NFT_MSG_GETOBJ", "NFT_MSG_DELOBJ", "NFT_MSG_GETOBJ_RESET", "NFT_MSG_NEWFLOWTABLE", "NFT_MSG_GETFLOWTABLE", "NFT_MSG_DELFLOWTABLE",
        ),
        style="values",
    ),
    Table(
        name="NF_OSF_MSG_TYPES",
        doc="NFNL_SUBSYS_OSF message types.",
        headers=("linux/types.h", "linux/ip.h", "linux/tcp.h", "linux/netfilter/nfnetlink_osf.h"),
        entries=(
            "OSF_MSG_ADD", "OSF_MSG_REMOVE",
        ),
        style="values",
    ),
    Table(
        name="NF_QUEUE_MSG_TYPES",
        doc="NFNL_SUBSYS_QUEUE message types.",
        headers=("linux/netfilter/nfnetlink_queue.h",),
        entries=(
            "NFQNL_MSG_PACKET", "NFQNL_MSG_VERDICT", "NFQNL_MSG_CONFIG", "NFQNL_MSG_VERDICT_BATCH",
        ),
        style="values",
    ),
    Table(
        name="NF_ULOG_MSG_TYPES",
        doc="NFNL_SUBSYS_ULOG message types.",
        headers=("linux/netfilter/nfnetlink_log.h",),
        entries=(
            "NFULNL_MSG_PACKET", "NFULNL_MSG_CONFIG",
        ),
        style="values",
    ),
    Table(
        name="NETFILTER_VERSIONS",
        doc="struct nfgenmsg version.",
        headers=("linux/netfilter/nfnetlink.h",),
        entries=(
            "NFNETLINK_V0",
        ),
        style="values",
    ),
    Table(
        name="RTNL_LINK_ATTRS",
        doc="ifinfomsg attributes (IFLA_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_UNSPEC", "IFLA_ADDRESS", "IFLA_BROADCAST", "IFLA_IFNAME", "IFLA_MTU", "IFLA_LINK", "IFLA_QDISC",
            "IFLA_STATS", "IFLA_COST", "IFLA_PRIORITY", "IFLA_MASTER", "IFLA_WIRELESS", "IFLA_PROTINFO",
            "IFLA_TXQLEN", "IFLA_MAP", "IFLA_WEIGHT", "IFLA_OPERSTATE", "IFLA_LINKMODE", "IFLA_LINKINFO",
            "IFLA_NET_NS_PID", "IFLA_IFALIAS", "IFLA_NUM_VF", "IFLA_VFINFO_LIST", "IFLA_STATS64", "IFLA_VF_PORTS",
            "IFLA_PORT_SELF", "IFLA_AF_SPEC", "IFLA_GROUP", "IFLA_NET_NS_FD", "IFLA_EXT_MASK", "IFLA_PROMISCUITY",
            "IFLA_NUM_TX_QUEUES", "IFLA_NUM_RX_QUEUES", "IFLA_CARRIER", "IFLA_PHYS_PORT_ID", "IFLA_CARRIER_CHANGES",
            "IFLA_PHYS_SWITCH_ID", "IFLA_LINK_NETNSID", "IFLA_PHYS_PORT_NAME", "IFLA_PROTO_DOWN", "IFLA_GSO_MAX_SEGS",
            "IFLA_GSO_MAX_SIZE", "IFLA_PAD", "IFLA_XDP", "IFLA_EVENT", "IFLA_NEW_NETNSID", "IFLA_IF_NETNSID",
            "IFLA_CARRIER_UP_COUNT", "IFLA_CARRIER_DOWN_COUNT", "IFLA_NEW_IFINDEX", "IFLA_MIN_MTU", "IFLA_MAX_MTU",
            "IFLA_PROP_LIST", "IFLA_ALT_IFNAME", "IFLA_PERM_ADDRESS", "IFLA_PROTO_DOWN_REASON",
            "IFLA_PARENT_DEV_NAME", "IFLA_PARENT_DEV_BUS_NAME", "IFLA_GRO_MAX_SIZE", "IFLA_TSO_MAX_SIZE",
            "IFLA_TSO_MAX_SEGS", "IFLA_ALLMULTI",
        ),
        style="values",
    ),
    Table(
        name="ARP_HARDWARE_TYPES",
        doc="ifinfomsg ifi_type (ARPHRD_*).",
        headers=("linux/if_arp.h",),
        entries=(
            "ARPHRD_NETROM", "ARPHRD_ETHER", "ARPHRD_EETHER", "ARPHRD_AX25", "ARPHRD_PRONET", "ARPHRD_CHAOS",
            "ARPHRD_IEEE802", "ARPHRD_ARCNET", "ARPHRD_APPLETLK", "ARPHRD_DLCI", "ARPHRD_ATM", "ARPHRD_METRICOM",
            "ARPHRD_IEEE1394", "ARPHRD_EUI64", "ARPHRD_INFINIBAND", "ARPHRD_SLIP", "ARPHRD_CSLIP", "ARPHRD_SLIP6",
            "ARPHRD_CSLIP6", "ARPHRD_RSRVD", "ARPHRD_ADAPT", "ARPHRD_ROSE", "ARPHRD_X25", "ARPHRD_HWX25",
            "ARPHRD_CAN", "ARPHRD_MCTP", "ARPHRD_PPP", "ARPHRD_CISCO", "ARPHRD_LAPB", "ARPHRD_DDCMP",
            "ARPHRD_RAWHDLC", "ARPHRD_RAWIP", "ARPHRD_TUNNEL", "ARPHRD_TUNNEL6", "ARPHRD_FRAD", "ARPHRD_SKIP",
            "ARPHRD_LOOPBACK", "ARPHRD_LOCALTLK", "ARPHRD_FDDI", "ARPHRD_BIF", "ARPHRD_SIT", "ARPHRD_IPDDP",
            "ARPHRD_IPGRE", "ARPHRD_PIMREG", "ARPHRD_HIPPI", "ARPHRD_ASH", "ARPHRD_ECONET", "ARPHRD_IRDA",
            "ARPHRD_FCPP", "ARPHRD_FCAL", "ARPHRD_FCPL", "ARPHRD_FCFABRIC", "ARPHRD_IEEE802_TR", "ARPHRD_IEEE80211",
            "ARPHRD_IEEE80211_PRISM", "ARPHRD_IEEE80211_RADIOTAP", "ARPHRD_IEEE802154", "ARPHRD_IEEE802154_MONITOR",
            "ARPHRD_PHONET", "ARPHRD_PHONET_PIPE", "ARPHRD_CAIF", "ARPHRD_IP6GRE", "ARPHRD_NETLINK", "ARPHRD_6LOWPAN",
            "ARPHRD_VSOCKMON", "ARPHRD_NONE", "ARPHRD_VOID",
        ),
        style="values",
    ),
    Table(
        name="IFF_FLAGS",
        doc="ifinfomsg ifi_flags (IFF_*).",
        headers=("linux/if.h",),
        entries=(
            "IFF_UP", "IFF_BROADCAST", "IFF_DEBUG", "IFF_LOOPBACK", "IFF_POINTOPOINT", "IFF_NOTRAILERS",
            "IFF_RUNNING", "IFF_NOARP", "IFF_PROMISC", "IFF_ALLMULTI", "IFF_MASTER", "IFF_SLAVE", "IFF_MULTICAST",
            "IFF_PORTSEL", "IFF_AUTOMEDIA", "IFF_DYNAMIC", "IFF_LOWER_UP", "IFF_DORMANT", "IFF_ECHO",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_IFLA_EXT_FILTER_FLAGS",
        doc="IFLA_EXT_MASK attribute value (RTEXT_FILTER_*).",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTEXT_FILTER_VF", "RTEXT_FILTER_BRVLAN", "RTEXT_FILTER_BRVLAN_COMPRESSED", "RTEXT_FILTER_SKIP_STATS",
            "RTEXT_FILTER_MRP", "RTEXT_FILTER_CFM_CONFIG", "RTEXT_FILTER_CFM_STATUS",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_ADDR_ATTRS",
        doc="ifaddrmsg attributes (IFA_*).",
        headers=("linux/if_addr.h",),
        entries=(
            "IFA_UNSPEC", "IFA_ADDRESS", "IFA_LOCAL", "IFA_LABEL", "IFA_BROADCAST", "IFA_ANYCAST", "IFA_CACHEINFO",
            "IFA_MULTICAST", "IFA_FLAGS", "IFA_RT_PRIORITY", "IFA_TARGET_NETNSID", "IFA_PROTO",
        ),
        style="values",
    ),
    Table(
        name="IFADDRFLAGS",
        doc="ifaddrmsg ifa_flags and IFA_FLAGS (IFA_F_*).",
        headers=("linux/if_addr.h",),
        entries=(
            "IFA_F_SECONDARY", "IFA_F_NODAD", "IFA_F_OPTIMISTIC", "IFA_F_DADFAILED", "IFA_F_HOMEADDRESS",
            "IFA_F_DEPRECATED", "IFA_F_TENTATIVE", "IFA_F_PERMANENT", "IFA_F_MANAGETEMPADDR", "IFA_F_NOPREFIXROUTE",
            "IFA_F_MCAUTOJOIN", "IFA_F_STABLE_PRIVACY",
        ),
        style="flags",
    ),
    Table(
        name="ROUTING_SCOPES",
        doc="ifaddrmsg ifa_scope, rtmsg rtm_scope.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RT_SCOPE_UNIVERSE", "RT_SCOPE_SITE", "RT_SCOPE_LINK", "RT_SCOPE_HOST", "RT_SCOPE_NOWHERE",
        ),
        style="values",
    ),
    Table(
        name="ROUTING_TABLE_IDS",
        doc="rtmsg rtm_table, RTA_TABLE.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RT_TABLE_UNSPEC", "RT_TABLE_COMPAT", "RT_TABLE_DEFAULT", "RT_TABLE_MAIN", "RT_TABLE_LOCAL",
        ),
        style="values",
    ),
    Table(
        name="ROUTING_PROTOCOLS",
        doc="rtmsg rtm_protocol.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTPROT_UNSPEC", "RTPROT_REDIRECT", "RTPROT_KERNEL", "RTPROT_BOOT", "RTPROT_STATIC", "RTPROT_GATED",
            "RTPROT_RA", "RTPROT_MRT", "RTPROT_ZEBRA", "RTPROT_BIRD", "RTPROT_DNROUTED", "RTPROT_XORP", "RTPROT_NTK",
            "RTPROT_DHCP", "RTPROT_MROUTED", "RTPROT_KEEPALIVED", "RTPROT_BABEL", "RTPROT_OPENR", "RTPROT_BGP",
            "RTPROT_ISIS", "RTPROT_OSPF", "RTPROT_RIP", "RTPROT_EIGRP",
        ),
        style="values",
    ),
    Table(
        name="ROUTING_TYPES",
        doc="rtmsg rtm_type, ndmsg ndm_type.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTN_UNSPEC", "RTN_UNICAST", "RTN_LOCAL", "RTN_BROADCAST", "RTN_ANYCAST", "RTN_MULTICAST",
            "RTN_BLACKHOLE", "RTN_UNREACHABLE", "RTN_PROHIBIT", "RTN_THROW", "RTN_NAT", "RTN_XRESOLVE",
        ),
        style="values",
    ),
    Table(
        name="ROUTING_FLAGS",
        doc="rtmsg rtm_flags.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTM_F_NOTIFY", "RTM_F_CLONED", "RTM_F_EQUALIZE", "RTM_F_PREFIX", "RTM_F_LOOKUP_TABLE", "RTM_F_FIB_MATCH",
            "RTM_F_OFFLOAD", "RTM_F_TRAP", "RTM_F_OFFLOAD_FAILED",
        ),
        style="flags",
    ),
    Table(
        name="IP_TYPE_OF_SERVICES",
        doc="rtmsg rtm_tos.",
        headers=("linux/ip.h",),
        entries=(
            "IPTOS_LOWDELAY", "IPTOS_THROUGHPUT", "IPTOS_RELIABILITY", "IPTOS_MINCOST",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_ROUTE_ATTRS",
        doc="rtmsg attributes (RTA_*).",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTA_UNSPEC", "RTA_DST", "RTA_SRC", "RTA_IIF", "RTA_OIF", "RTA_GATEWAY", "RTA_PRIORITY", "RTA_PREFSRC",
            "RTA_METRICS", "RTA_MULTIPATH", "RTA_PROTOINFO", "RTA_FLOW", "RTA_CACHEINFO", "RTA_SESSION",
            "RTA_MP_ALGO", "RTA_TABLE", "RTA_MARK", "RTA_MFC_STATS", "RTA_VIA", "RTA_NEWDST", "RTA_PREF",
            "RTA_ENCAP_TYPE", "RTA_ENCAP", "RTA_EXPIRES", "RTA_PAD", "RTA_UID", "RTA_TTL_PROPAGATE", "RTA_IP_PROTO",
            "RTA_SPORT", "RTA_DPORT", "RTA_NH_ID",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NEIGH_ATTRS",
        doc="ndmsg attributes (NDA_*).",
        headers=("linux/neighbour.h",),
        entries=(
            "NDA_UNSPEC", "NDA_DST", "NDA_LLADDR", "NDA_CACHEINFO", "NDA_PROBES", "NDA_VLAN", "NDA_PORT", "NDA_VNI",
            "NDA_IFINDEX", "NDA_MASTER", "NDA_LINK_NETNSID", "NDA_SRC_VNI", "NDA_PROTOCOL", "NDA_NH_ID",
            "NDA_FDB_EXT_ATTRS", "NDA_FLAGS_EXT", "NDA_NDM_STATE_MASK", "NDA_NDM_FLAGS_MASK",
        ),
        style="values",
    ),
    Table(
        name="RTNL_RULE_ATTRS",
        doc="fib_rule_hdr attributes (FRA_*), value-indexed in strace.",
        headers=("linux/fib_rules.h",),
        entries=(
            "FRA_UNSPEC", "FRA_DST", "FRA_SRC", "FRA_IIFNAME", "FRA_GOTO", "FRA_UNUSED2", "FRA_PRIORITY",
            "FRA_UNUSED3", "FRA_UNUSED4", "FRA_UNUSED5", "FRA_FWMARK", "FRA_FLOW", "FRA_TUN_ID",
            "FRA_SUPPRESS_IFGROUP", "FRA_SUPPRESS_PREFIXLEN", "FRA_TABLE", "FRA_FWMASK", "FRA_OIFNAME", "FRA_PAD",
            "FRA_L3MDEV", "FRA_UID_RANGE", "FRA_PROTOCOL", "FRA_IP_PROTO", "FRA_SPORT_RANGE", "FRA_DPORT_RANGE",
        ),
        style="values",
    ),
    Table(
        name="FIB_RULE_ACTIONS",
        doc="fib_rule_hdr action (FR_ACT_*).",
        headers=("linux/fib_rules.h",),
        entries=(
            "FR_ACT_UNSPEC", "FR_ACT_TO_TBL", "FR_ACT_GOTO", "FR_ACT_NOP", "FR_ACT_RES3", "FR_ACT_RES4",
            "FR_ACT_BLACKHOLE", "FR_ACT_UNREACHABLE", "FR_ACT_PROHIBIT",
        ),
        style="values",
    ),
    Table(
        name="FIB_RULE_FLAGS",
        doc="fib_rule_hdr flags (FIB_RULE_*).",
        headers=("linux/fib_rules.h",),
        entries=(
            "FIB_RULE_PERMANENT", "FIB_RULE_INVERT", "FIB_RULE_UNRESOLVED", "FIB_RULE_IIF_DETACHED",
            "FIB_RULE_OIF_DETACHED", "FIB_RULE_FIND_SADDR",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_IFLA_AF_SPEC_INET_ATTRS",
        doc="IFLA_AF_SPEC AF_INET attributes (IFLA_INET_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_INET_UNSPEC", "IFLA_INET_CONF"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_AF_SPEC_INET6_ATTRS",
        doc="IFLA_AF_SPEC/IFLA_PROTINFO AF_INET6 attributes (IFLA_INET6_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_INET6_UNSPEC", "IFLA_INET6_FLAGS", "IFLA_INET6_CONF", "IFLA_INET6_STATS", "IFLA_INET6_MCAST",
            "IFLA_INET6_CACHEINFO", "IFLA_INET6_ICMP6STATS", "IFLA_INET6_TOKEN", "IFLA_INET6_ADDR_GEN_MODE",
            "IFLA_INET6_RA_MTU"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_AF_SPEC_MCTP_ATTRS",
        doc="IFLA_AF_SPEC AF_MCTP attributes (IFLA_MCTP_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_MCTP_UNSPEC", "IFLA_MCTP_NET"
        ),
        style="values",
    ),
    Table(
        name="INET_DEVCONF_INDICES",
        doc="IFLA_INET_CONF array indices, printed as strace's IPV4_DEVCONF_*-1 expressions.",
        headers=("linux/ip.h",),
        entries=(
            "IPV4_DEVCONF_FORWARDING-1=IPV4_DEVCONF_FORWARDING-1",
            "IPV4_DEVCONF_MC_FORWARDING-1=IPV4_DEVCONF_MC_FORWARDING-1",
            "IPV4_DEVCONF_PROXY_ARP-1=IPV4_DEVCONF_PROXY_ARP-1",
            "IPV4_DEVCONF_ACCEPT_REDIRECTS-1=IPV4_DEVCONF_ACCEPT_REDIRECTS-1",
            "IPV4_DEVCONF_SECURE_REDIRECTS-1=IPV4_DEVCONF_SECURE_REDIRECTS-1",
            "IPV4_DEVCONF_SEND_REDIRECTS-1=IPV4_DEVCONF_SEND_REDIRECTS-1",
            "IPV4_DEVCONF_SHARED_MEDIA-1=IPV4_DEVCONF_SHARED_MEDIA-1",
            "IPV4_DEVCONF_RP_FILTER-1=IPV4_DEVCONF_RP_FILTER-1",
            "IPV4_DEVCONF_ACCEPT_SOURCE_ROUTE-1=IPV4_DEVCONF_ACCEPT_SOURCE_ROUTE-1",
            "IPV4_DEVCONF_BOOTP_RELAY-1=IPV4_DEVCONF_BOOTP_RELAY-1",
            "IPV4_DEVCONF_LOG_MARTIANS-1=IPV4_DEVCONF_LOG_MARTIANS-1", "IPV4_DEVCONF_TAG-1=IPV4_DEVCONF_TAG-1",
            "IPV4_DEVCONF_ARPFILTER-1=IPV4_DEVCONF_ARPFILTER-1", "IPV4_DEVCONF_MEDIUM_ID-1=IPV4_DEVCONF_MEDIUM_ID-1",
            "IPV4_DEVCONF_NOXFRM-1=IPV4_DEVCONF_NOXFRM-1", "IPV4_DEVCONF_NOPOLICY-1=IPV4_DEVCONF_NOPOLICY-1",
            "IPV4_DEVCONF_FORCE_IGMP_VERSION-1=IPV4_DEVCONF_FORCE_IGMP_VERSION-1",
            "IPV4_DEVCONF_ARP_ANNOUNCE-1=IPV4_DEVCONF_ARP_ANNOUNCE-1",
            "IPV4_DEVCONF_ARP_IGNORE-1=IPV4_DEVCONF_ARP_IGNORE-1",
            "IPV4_DEVCONF_PROMOTE_SECONDARIES-1=IPV4_DEVCONF_PROMOTE_SECONDARIES-1",
            "IPV4_DEVCONF_ARP_ACCEPT-1=IPV4_DEVCONF_ARP_ACCEPT-1",
            "IPV4_DEVCONF_ARP_NOTIFY-1=IPV4_DEVCONF_ARP_NOTIFY-1",
            "IPV4_DEVCONF_ACCEPT_LOCAL-1=IPV4_DEVCONF_ACCEPT_LOCAL-1",
            "IPV4_DEVCONF_SRC_VMARK-1=IPV4_DEVCONF_SRC_VMARK-1",
            "IPV4_DEVCONF_PROXY_ARP_PVLAN-1=IPV4_DEVCONF_PROXY_ARP_PVLAN-1",
            "IPV4_DEVCONF_ROUTE_LOCALNET-1=IPV4_DEVCONF_ROUTE_LOCALNET-1",
            "IPV4_DEVCONF_IGMPV2_UNSOLICITED_REPORT_INTERVAL-1=IPV4_DEVCONF_IGMPV2_UNSOLICITED_REPORT_INTERVAL-1",
            "IPV4_DEVCONF_IGMPV3_UNSOLICITED_REPORT_INTERVAL-1=IPV4_DEVCONF_IGMPV3_UNSOLICITED_REPORT_INTERVAL-1",
            "IPV4_DEVCONF_IGNORE_ROUTES_WITH_LINKDOWN-1=IPV4_DEVCONF_IGNORE_ROUTES_WITH_LINKDOWN-1",
            "IPV4_DEVCONF_DROP_UNICAST_IN_L2_MULTICAST-1=IPV4_DEVCONF_DROP_UNICAST_IN_L2_MULTICAST-1",
            "IPV4_DEVCONF_DROP_GRATUITOUS_ARP-1=IPV4_DEVCONF_DROP_GRATUITOUS_ARP-1",
            "IPV4_DEVCONF_BC_FORWARDING-1=IPV4_DEVCONF_BC_FORWARDING-1",
            "IPV4_DEVCONF_ARP_EVICT_NOCARRIER-1=IPV4_DEVCONF_ARP_EVICT_NOCARRIER-1"
        ),
        style="values",
    ),
    Table(
        name="INET6_DEVCONF_INDICES",
        doc="IFLA_INET6_CONF array indices (DEVCONF_*).",
        headers=("linux/ipv6.h",),
        entries=(
            "DEVCONF_FORWARDING", "DEVCONF_HOPLIMIT", "DEVCONF_MTU6", "DEVCONF_ACCEPT_RA",
            "DEVCONF_ACCEPT_REDIRECTS", "DEVCONF_AUTOCONF", "DEVCONF_DAD_TRANSMITS", "DEVCONF_RTR_SOLICITS",
            "DEVCONF_RTR_SOLICIT_INTERVAL", "DEVCONF_RTR_SOLICIT_DELAY", "DEVCONF_USE_TEMPADDR",
            "DEVCONF_TEMP_VALID_LFT", "DEVCONF_TEMP_PREFERED_LFT", "DEVCONF_REGEN_MAX_RETRY",
            "DEVCONF_MAX_DESYNC_FACTOR", "DEVCONF_MAX_ADDRESSES", "DEVCONF_FORCE_MLD_VERSION",
            "DEVCONF_ACCEPT_RA_DEFRTR", "DEVCONF_ACCEPT_RA_PINFO", "DEVCONF_ACCEPT_RA_RTR_PREF",
            "DEVCONF_RTR_PROBE_INTERVAL", "DEVCONF_ACCEPT_RA_RT_INFO_MAX_PLEN", "DEVCONF_PROXY_NDP",
            "DEVCONF_OPTIMISTIC_DAD", "DEVCONF_ACCEPT_SOURCE_ROUTE", "DEVCONF_MC_FORWARDING", "DEVCONF_DISABLE_IPV6",
            "DEVCONF_ACCEPT_DAD", "DEVCONF_FORCE_TLLAO", "DEVCONF_NDISC_NOTIFY",
            "DEVCONF_MLDV1_UNSOLICITED_REPORT_INTERVAL", "DEVCONF_MLDV2_UNSOLICITED_REPORT_INTERVAL",
            "DEVCONF_SUPPRESS_FRAG_NDISC", "DEVCONF_ACCEPT_RA_FROM_LOCAL", "DEVCONF_USE_OPTIMISTIC",
            "DEVCONF_ACCEPT_RA_MTU", "DEVCONF_STABLE_SECRET", "DEVCONF_USE_OIF_ADDRS_ONLY",
            "DEVCONF_ACCEPT_RA_MIN_HOP_LIMIT", "DEVCONF_IGNORE_ROUTES_WITH_LINKDOWN",
            "DEVCONF_DROP_UNICAST_IN_L2_MULTICAST", "DEVCONF_DROP_UNSOLICITED_NA", "DEVCONF_KEEP_ADDR_ON_DOWN",
            "DEVCONF_RTR_SOLICIT_MAX_INTERVAL", "DEVCONF_SEG6_ENABLED", "DEVCONF_SEG6_REQUIRE_HMAC",
            "DEVCONF_ENHANCED_DAD", "DEVCONF_ADDR_GEN_MODE", "DEVCONF_DISABLE_POLICY",
            "DEVCONF_ACCEPT_RA_RT_INFO_MIN_PLEN", "DEVCONF_NDISC_TCLASS", "DEVCONF_RPL_SEG_ENABLED",
            "DEVCONF_RA_DEFRTR_METRIC", "DEVCONF_IOAM6_ENABLED", "DEVCONF_IOAM6_ID", "DEVCONF_IOAM6_ID_WIDE",
            "DEVCONF_NDISC_EVICT_NOCARRIER", "DEVCONF_ACCEPT_UNTRACKED_NA"
        ),
        style="values",
    ),
    Table(
        name="INET6_IF_FLAGS",
        doc="IFLA_INET6_FLAGS bits (kernel-internal IF_* of net/if_inet6.h).",
        entries=("IF_RS_SENT", "IF_RA_RCVD", "IF_RA_MANAGED", "IF_RA_OTHERCONF", "IF_READY"),
        fallbacks=(
            ("IF_RS_SENT", "0x10"), ("IF_RA_RCVD", "0x20"), ("IF_RA_MANAGED", "0x40"), ("IF_RA_OTHERCONF", "0x80"),
            ("IF_READY", "0x80000000"),
        ),
        style="flags",
    ),
    Table(
        name="SNMP_IP_STATS",
        doc="IFLA_INET6_STATS array indices (IPSTATS_MIB_*).",
        headers=("linux/snmp.h",),
        entries=(
            "IPSTATS_MIB_NUM", "IPSTATS_MIB_INPKTS", "IPSTATS_MIB_INOCTETS", "IPSTATS_MIB_INDELIVERS",
            "IPSTATS_MIB_OUTFORWDATAGRAMS", "IPSTATS_MIB_OUTPKTS", "IPSTATS_MIB_OUTOCTETS",
            "IPSTATS_MIB_INHDRERRORS", "IPSTATS_MIB_INTOOBIGERRORS", "IPSTATS_MIB_INNOROUTES",
            "IPSTATS_MIB_INADDRERRORS", "IPSTATS_MIB_INUNKNOWNPROTOS", "IPSTATS_MIB_INTRUNCATEDPKTS",
            "IPSTATS_MIB_INDISCARDS", "IPSTATS_MIB_OUTDISCARDS", "IPSTATS_MIB_OUTNOROUTES",
            "IPSTATS_MIB_REASMTIMEOUT", "IPSTATS_MIB_REASMREQDS", "IPSTATS_MIB_REASMOKS", "IPSTATS_MIB_REASMFAILS",
            "IPSTATS_MIB_FRAGOKS", "IPSTATS_MIB_FRAGFAILS", "IPSTATS_MIB_FRAGCREATES", "IPSTATS_MIB_INMCASTPKTS",
            "IPSTATS_MIB_OUTMCASTPKTS", "IPSTATS_MIB_INBCASTPKTS", "IPSTATS_MIB_OUTBCASTPKTS",
            "IPSTATS_MIB_INMCASTOCTETS", "IPSTATS_MIB_OUTMCASTOCTETS", "IPSTATS_MIB_INBCASTOCTETS",
            "IPSTATS_MIB_OUTBCASTOCTETS", "IPSTATS_MIB_CSUMERRORS", "IPSTATS_MIB_NOECTPKTS", "IPSTATS_MIB_ECT1PKTS",
            "IPSTATS_MIB_ECT0PKTS", "IPSTATS_MIB_CEPKTS", "IPSTATS_MIB_REASM_OVERLAPS"
        ),
        style="values",
    ),
    Table(
        name="SNMP_ICMP6_STATS",
        doc="IFLA_INET6_ICMP6STATS array indices (ICMP6_MIB_*).",
        headers=("linux/snmp.h",),
        entries=(
            "ICMP6_MIB_NUM", "ICMP6_MIB_INMSGS", "ICMP6_MIB_INERRORS", "ICMP6_MIB_OUTMSGS", "ICMP6_MIB_OUTERRORS",
            "ICMP6_MIB_CSUMERRORS"
        ),
        style="values",
    ),
    Table(
        name="IN6_ADDR_GEN_MODE",
        doc="IFLA_INET6_ADDR_GEN_MODE values.",
        headers=("linux/if_link.h",),
        entries=(
            "IN6_ADDR_GEN_MODE_EUI64", "IN6_ADDR_GEN_MODE_NONE", "IN6_ADDR_GEN_MODE_STABLE_PRIVACY",
            "IN6_ADDR_GEN_MODE_RANDOM"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_XDP_ATTRS",
        doc="IFLA_XDP attributes (IFLA_XDP_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_XDP_UNSPEC", "IFLA_XDP_FD", "IFLA_XDP_ATTACHED", "IFLA_XDP_FLAGS", "IFLA_XDP_PROG_ID",
            "IFLA_XDP_DRV_PROG_ID", "IFLA_XDP_SKB_PROG_ID", "IFLA_XDP_HW_PROG_ID", "IFLA_XDP_EXPECTED_FD"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_XDP_ATTACHED_MODE",
        doc="IFLA_XDP_ATTACHED values (XDP_ATTACHED_*).",
        headers=("linux/if_link.h",),
        entries=(
            "XDP_ATTACHED_NONE", "XDP_ATTACHED_DRV", "XDP_ATTACHED_SKB", "XDP_ATTACHED_HW", "XDP_ATTACHED_MULTI"
        ),
        style="values",
    ),
    Table(
        name="XDP_FLAGS",
        doc="IFLA_XDP_FLAGS bits (XDP_FLAGS_*), strace's order (the MODES mask first).",
        headers=("linux/if_link.h",),
        entries=(
            "XDP_FLAGS_MODES", "XDP_FLAGS_UPDATE_IF_NOEXIST", "XDP_FLAGS_SKB_MODE", "XDP_FLAGS_DRV_MODE",
            "XDP_FLAGS_HW_MODE", "XDP_FLAGS_REPLACE"
        ),
        style="flags",
    ),
    Table(
        name="RTNL_IFLA_EVENTS",
        doc="IFLA_EVENT values (IFLA_EVENT_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_EVENT_NONE", "IFLA_EVENT_REBOOT", "IFLA_EVENT_FEATURES", "IFLA_EVENT_BONDING_FAILOVER",
            "IFLA_EVENT_NOTIFY_PEERS", "IFLA_EVENT_IGMP_RESEND", "IFLA_EVENT_BONDING_OPTIONS"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_INFO_ATTRS",
        doc="IFLA_LINKINFO attributes (IFLA_INFO_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_INFO_UNSPEC", "IFLA_INFO_KIND", "IFLA_INFO_DATA", "IFLA_INFO_XSTATS", "IFLA_INFO_SLAVE_KIND",
            "IFLA_INFO_SLAVE_DATA"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_INFO_DATA_BRIDGE_ATTRS",
        doc="IFLA_INFO_DATA attributes of kind bridge (IFLA_BR_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_BR_UNSPEC", "IFLA_BR_FORWARD_DELAY", "IFLA_BR_HELLO_TIME", "IFLA_BR_MAX_AGE",
            "IFLA_BR_AGEING_TIME", "IFLA_BR_STP_STATE", "IFLA_BR_PRIORITY", "IFLA_BR_VLAN_FILTERING",
            "IFLA_BR_VLAN_PROTOCOL", "IFLA_BR_GROUP_FWD_MASK", "IFLA_BR_ROOT_ID", "IFLA_BR_BRIDGE_ID",
            "IFLA_BR_ROOT_PORT", "IFLA_BR_ROOT_PATH_COST", "IFLA_BR_TOPOLOGY_CHANGE",
            "IFLA_BR_TOPOLOGY_CHANGE_DETECTED", "IFLA_BR_HELLO_TIMER", "IFLA_BR_TCN_TIMER",
            "IFLA_BR_TOPOLOGY_CHANGE_TIMER", "IFLA_BR_GC_TIMER", "IFLA_BR_GROUP_ADDR", "IFLA_BR_FDB_FLUSH",
            "IFLA_BR_MCAST_ROUTER", "IFLA_BR_MCAST_SNOOPING", "IFLA_BR_MCAST_QUERY_USE_IFADDR",
            "IFLA_BR_MCAST_QUERIER", "IFLA_BR_MCAST_HASH_ELASTICITY", "IFLA_BR_MCAST_HASH_MAX",
            "IFLA_BR_MCAST_LAST_MEMBER_CNT", "IFLA_BR_MCAST_STARTUP_QUERY_CNT", "IFLA_BR_MCAST_LAST_MEMBER_INTVL",
            "IFLA_BR_MCAST_MEMBERSHIP_INTVL", "IFLA_BR_MCAST_QUERIER_INTVL", "IFLA_BR_MCAST_QUERY_INTVL",
            "IFLA_BR_MCAST_QUERY_RESPONSE_INTVL", "IFLA_BR_MCAST_STARTUP_QUERY_INTVL", "IFLA_BR_NF_CALL_IPTABLES",
            "IFLA_BR_NF_CALL_IP6TABLES", "IFLA_BR_NF_CALL_ARPTABLES", "IFLA_BR_VLAN_DEFAULT_PVID", "IFLA_BR_PAD",
            "IFLA_BR_VLAN_STATS_ENABLED", "IFLA_BR_MCAST_STATS_ENABLED", "IFLA_BR_MCAST_IGMP_VERSION",
            "IFLA_BR_MCAST_MLD_VERSION", "IFLA_BR_VLAN_STATS_PER_PORT", "IFLA_BR_MULTI_BOOLOPT",
            "IFLA_BR_MCAST_QUERIER_STATE"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_INFO_DATA_TUN_ATTRS",
        doc="IFLA_INFO_DATA attributes of kind tun (IFLA_TUN_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_TUN_UNSPEC", "IFLA_TUN_OWNER", "IFLA_TUN_GROUP", "IFLA_TUN_TYPE", "IFLA_TUN_PI",
            "IFLA_TUN_VNET_HDR", "IFLA_TUN_PERSIST", "IFLA_TUN_MULTI_QUEUE", "IFLA_TUN_NUM_QUEUES",
            "IFLA_TUN_NUM_DISABLED_QUEUES"
        ),
        style="values",
    ),
    Table(
        name="TUN_DEVICE_TYPES",
        doc="IFLA_TUN_TYPE values.",
        headers=("linux/if_tun.h",),
        entries=(
            "IFF_TUN", "IFF_TAP"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_BRPORT_ATTRS",
        doc="Bridge port attributes (IFLA_BRPORT_*): IFLA_PROTINFO of AF_BRIDGE, IFLA_INFO_SLAVE_DATA.",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_BRPORT_UNSPEC", "IFLA_BRPORT_STATE", "IFLA_BRPORT_PRIORITY", "IFLA_BRPORT_COST",
            "IFLA_BRPORT_MODE", "IFLA_BRPORT_GUARD", "IFLA_BRPORT_PROTECT", "IFLA_BRPORT_FAST_LEAVE",
            "IFLA_BRPORT_LEARNING", "IFLA_BRPORT_UNICAST_FLOOD", "IFLA_BRPORT_PROXYARP", "IFLA_BRPORT_LEARNING_SYNC",
            "IFLA_BRPORT_PROXYARP_WIFI", "IFLA_BRPORT_ROOT_ID", "IFLA_BRPORT_BRIDGE_ID",
            "IFLA_BRPORT_DESIGNATED_PORT", "IFLA_BRPORT_DESIGNATED_COST", "IFLA_BRPORT_ID", "IFLA_BRPORT_NO",
            "IFLA_BRPORT_TOPOLOGY_CHANGE_ACK", "IFLA_BRPORT_CONFIG_PENDING", "IFLA_BRPORT_MESSAGE_AGE_TIMER",
            "IFLA_BRPORT_FORWARD_DELAY_TIMER", "IFLA_BRPORT_HOLD_TIMER", "IFLA_BRPORT_FLUSH",
            "IFLA_BRPORT_MULTICAST_ROUTER", "IFLA_BRPORT_PAD", "IFLA_BRPORT_MCAST_FLOOD",
            "IFLA_BRPORT_MCAST_TO_UCAST", "IFLA_BRPORT_VLAN_TUNNEL", "IFLA_BRPORT_BCAST_FLOOD",
            "IFLA_BRPORT_GROUP_FWD_MASK", "IFLA_BRPORT_NEIGH_SUPPRESS", "IFLA_BRPORT_ISOLATED",
            "IFLA_BRPORT_BACKUP_PORT", "IFLA_BRPORT_MRP_RING_OPEN", "IFLA_BRPORT_MRP_IN_OPEN",
            "IFLA_BRPORT_MCAST_EHT_HOSTS_LIMIT", "IFLA_BRPORT_MCAST_EHT_HOSTS_CNT", "IFLA_BRPORT_LOCKED"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_BR_BOOLOPT_FLAGS",
        doc="IFLA_BR_MULTI_BOOLOPT bits, printed as 1<<BR_BOOLOPT_*.",
        headers=("linux/if_bridge.h",),
        entries=(
            "1<<BR_BOOLOPT_NO_LL_LEARN=1<<BR_BOOLOPT_NO_LL_LEARN",
            "1<<BR_BOOLOPT_MCAST_VLAN_SNOOPING=1<<BR_BOOLOPT_MCAST_VLAN_SNOOPING",
            "1<<BR_BOOLOPT_MST_ENABLE=1<<BR_BOOLOPT_MST_ENABLE"
        ),
        style="flags",
    ),
    Table(
        name="RTNL_IFLA_BR_MCAST_QUERIER_ATTRS",
        doc="IFLA_BR_MCAST_QUERIER_STATE attributes (BRIDGE_QUERIER_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "BRIDGE_QUERIER_UNSPEC", "BRIDGE_QUERIER_IP_ADDRESS", "BRIDGE_QUERIER_IP_PORT",
            "BRIDGE_QUERIER_IP_OTHER_TIMER", "BRIDGE_QUERIER_PAD", "BRIDGE_QUERIER_IPV6_ADDRESS",
            "BRIDGE_QUERIER_IPV6_PORT", "BRIDGE_QUERIER_IPV6_OTHER_TIMER"
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_PROTO_DOWN_REASON_ATTRS",
        doc="IFLA_PROTO_DOWN_REASON attributes.",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_PROTO_DOWN_REASON_UNSPEC", "IFLA_PROTO_DOWN_REASON_MASK", "IFLA_PROTO_DOWN_REASON_VALUE"
        ),
        style="values",
    ),
    Table(
        name="RTNL_RTA_METRICS_ATTRS",
        doc="RTA_METRICS attributes (RTAX_*).",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTAX_UNSPEC", "RTAX_LOCK", "RTAX_MTU", "RTAX_WINDOW", "RTAX_RTT", "RTAX_RTTVAR", "RTAX_SSTHRESH",
            "RTAX_CWND", "RTAX_ADVMSS", "RTAX_REORDERING", "RTAX_HOPLIMIT", "RTAX_INITCWND", "RTAX_FEATURES",
            "RTAX_RTO_MIN", "RTAX_INITRWND", "RTAX_QUICKACK", "RTAX_CC_ALGO", "RTAX_FASTOPEN_NO_COOKIE",
        ),
        style="values",
    ),
    Table(
        name="LWTUNNEL_ENCAP_TYPES",
        doc="RTA_ENCAP_TYPE values (LWTUNNEL_ENCAP_*).",
        headers=("linux/lwtunnel.h",),
        entries=(
            "LWTUNNEL_ENCAP_NONE", "LWTUNNEL_ENCAP_MPLS", "LWTUNNEL_ENCAP_IP", "LWTUNNEL_ENCAP_ILA",
            "LWTUNNEL_ENCAP_IP6", "LWTUNNEL_ENCAP_SEG6", "LWTUNNEL_ENCAP_BPF", "LWTUNNEL_ENCAP_SEG6_LOCAL",
            "LWTUNNEL_ENCAP_RPL",
        ),
        style="values",
    ),
    Table(
        name="ROUTE_NEXTHOP_FLAGS",
        doc="RTA_MULTIPATH rtnexthop rtnh_flags (RTNH_F_*).",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTNH_F_DEAD", "RTNH_F_PERVASIVE", "RTNH_F_ONLINK", "RTNH_F_OFFLOAD", "RTNH_F_LINKDOWN",
            "RTNH_F_UNRESOLVED", "RTNH_F_TRAP",
        ),
        style="flags",
    ),
    Table(
        name="FDB_NOTIFY_FLAGS",
        doc="NFEA_ACTIVITY_NOTIFY bits (FDB_NOTIFY_*).",
        headers=("linux/neighbour.h",),
        entries=("FDB_NOTIFY_BIT", "FDB_NOTIFY_INACTIVE_BIT"),
        style="flags",
    ),
    Table(
        name="NEIGHBOR_CACHE_ENTRY_EXT_FLAGS",
        doc="NDA_FLAGS_EXT bits (NTF_EXT_*).",
        headers=("linux/neighbour.h",),
        entries=("NTF_EXT_MANAGED",),
        style="flags",
    ),
    Table(
        name="RTNL_NEIGH_FDB_EXT_ATTRS",
        doc="NDA_FDB_EXT_ATTRS attributes (NFEA_*).",
        headers=("linux/neighbour.h",),
        entries=("NFEA_UNSPEC", "NFEA_ACTIVITY_NOTIFY", "NFEA_DONT_REFRESH"),
        style="values",
    ),
    Table(
        name="RTNL_TC_ATTRS",
        doc="tcmsg attributes (TCA_*): RTM_*QDISC/TCLASS/TFILTER/CHAIN.",
        headers=("linux/rtnetlink.h",),
        entries=(
            "TCA_UNSPEC", "TCA_KIND", "TCA_OPTIONS", "TCA_STATS", "TCA_XSTATS", "TCA_RATE", "TCA_FCNT", "TCA_STATS2",
            "TCA_STAB", "TCA_PAD", "TCA_DUMP_INVISIBLE", "TCA_CHAIN", "TCA_HW_OFFLOAD", "TCA_INGRESS_BLOCK",
            "TCA_EGRESS_BLOCK", "TCA_DUMP_FLAGS",
        ),
        style="values",
    ),
    Table(
        name="RTNL_TCA_STAB_ATTRS",
        doc="TCA_STAB nested attributes (TCA_STAB_*).",
        headers=("linux/pkt_sched.h",),
        entries=("TCA_STAB_UNSPEC", "TCA_STAB_BASE", "TCA_STAB_DATA"),
        style="values",
    ),
    Table(
        name="RTNL_TCA_STATS_ATTRS",
        doc="TCA_STATS2 nested attributes (TCA_STATS_*).",
        headers=("linux/gen_stats.h",),
        entries=(
            "TCA_STATS_UNSPEC", "TCA_STATS_BASIC", "TCA_STATS_RATE_EST", "TCA_STATS_QUEUE", "TCA_STATS_APP",
            "TCA_STATS_RATE_EST64", "TCA_STATS_PAD", "TCA_STATS_BASIC_HW", "TCA_STATS_PKT64",
        ),
        style="values",
    ),
    # tc actions, link statistics, cache reports, VF info (decode/netlink_tc_action.py, netlink_stats.py,
    # netlink_cachereport.py, netlink_link_vf.py)
    Table(
        name="RTNL_TC_ACTION_ATTRS",
        doc="tcamsg attributes as strace 6.1 names them (TCA_ACT_*, also for the TCA_ROOT_* level).",
        headers=("linux/pkt_cls.h",),
        entries=(
            "TCA_ACT_UNSPEC",
            "TCA_ACT_KIND",
            "TCA_ACT_OPTIONS",
            "TCA_ACT_INDEX",
            "TCA_ACT_STATS",
            "TCA_ACT_PAD",
            "TCA_ACT_COOKIE",
            "TCA_ACT_FLAGS",
            "TCA_ACT_HW_STATS",
            "TCA_ACT_USED_HW_STATS",
            "TCA_ACT_IN_HW_COUNT",
        ),
        style="values",
    ),
    Table(
        name="RTNL_TCA_ACT_FLAGS",
        doc="TCA_ACT_FLAGS bits.",
        headers=("linux/pkt_cls.h",),
        entries=(
            "TCA_ACT_FLAGS_NO_PERCPU_STATS",
            "TCA_ACT_FLAGS_SKIP_HW",
            "TCA_ACT_FLAGS_SKIP_SW",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_TCA_ACT_HW_STATS",
        doc="TCA_ACT_HW_STATS / TCA_ACT_USED_HW_STATS bits.",
        headers=("linux/pkt_cls.h",),
        entries=(
            "TCA_ACT_HW_STATS_IMMEDIATE",
            "TCA_ACT_HW_STATS_DELAYED",
        ),
        style="flags",
    ),
    Table(
        name="IFSTATS_ATTRS",
        doc="if_stats_msg attributes (IFLA_STATS_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_STATS_UNSPEC",
            "IFLA_STATS_LINK_64",
            "IFLA_STATS_LINK_XSTATS",
            "IFLA_STATS_LINK_XSTATS_SLAVE",
            "IFLA_STATS_LINK_OFFLOAD_XSTATS",
            "IFLA_STATS_AF_SPEC",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_ATTR_FLAGS",
        doc="if_stats_msg filter_mask bits, printed as 1<<IFLA_STATS_*.",
        headers=("linux/if_link.h",),
        entries=(
            "1<<IFLA_STATS_UNSPEC=1<<IFLA_STATS_UNSPEC",
            "1<<IFLA_STATS_LINK_64=1<<IFLA_STATS_LINK_64",
            "1<<IFLA_STATS_LINK_XSTATS=1<<IFLA_STATS_LINK_XSTATS",
            "1<<IFLA_STATS_LINK_XSTATS_SLAVE=1<<IFLA_STATS_LINK_XSTATS_SLAVE",
            "1<<IFLA_STATS_LINK_OFFLOAD_XSTATS=1<<IFLA_STATS_LINK_OFFLOAD_XSTATS",
            "1<<IFLA_STATS_AF_SPEC=1<<IFLA_STATS_AF_SPEC",
        ),
        style="flags",
    ),
    Table(
        name="IFSTATS_XSTATS_TYPE_ATTRS",
        doc="IFLA_STATS_LINK_XSTATS attributes (LINK_XSTATS_TYPE_*).",
        headers=("linux/if_link.h",),
        entries=(
            "LINK_XSTATS_TYPE_UNSPEC",
            "LINK_XSTATS_TYPE_BRIDGE",
            "LINK_XSTATS_TYPE_BOND",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_XSTATS_BRIDGE_ATTRS",
        doc="LINK_XSTATS_TYPE_BRIDGE attributes (BRIDGE_XSTATS_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "BRIDGE_XSTATS_UNSPEC",
            "BRIDGE_XSTATS_VLAN",
            "BRIDGE_XSTATS_MCAST",
            "BRIDGE_XSTATS_PAD",
            "BRIDGE_XSTATS_STP",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_XSTATS_BRIDGE_MCAST_INDICES",
        doc="struct br_mcast_stats array indices (BR_MCAST_DIR_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "BR_MCAST_DIR_RX",
            "BR_MCAST_DIR_TX",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_XSTATS_BOND_ATTRS",
        doc="LINK_XSTATS_TYPE_BOND attributes (BOND_XSTATS_*).",
        headers=("linux/if_bonding.h",),
        entries=(
            "BOND_XSTATS_UNSPEC",
            "BOND_XSTATS_3AD",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_XSTATS_BOND_3AD_ATTRS",
        doc="BOND_XSTATS_3AD attributes (BOND_3AD_STAT_*).",
        headers=("linux/if_bonding.h",),
        entries=(
            "BOND_3AD_STAT_LACPDU_RX",
            "BOND_3AD_STAT_LACPDU_TX",
            "BOND_3AD_STAT_LACPDU_UNKNOWN_RX",
            "BOND_3AD_STAT_LACPDU_ILLEGAL_RX",
            "BOND_3AD_STAT_MARKER_RX",
            "BOND_3AD_STAT_MARKER_TX",
            "BOND_3AD_STAT_MARKER_RESP_RX",
            "BOND_3AD_STAT_MARKER_RESP_TX",
            "BOND_3AD_STAT_MARKER_UNKNOWN_RX",
            "BOND_3AD_STAT_PAD",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_OFFLOAD_ATTRS",
        doc="IFLA_STATS_LINK_OFFLOAD_XSTATS attributes (IFLA_OFFLOAD_XSTATS_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_OFFLOAD_XSTATS_UNSPEC",
            "IFLA_OFFLOAD_XSTATS_CPU_HIT",
        ),
        style="values",
    ),
    Table(
        name="IFSTATS_AF_SPEC_MPLS_ATTRS",
        doc="IFLA_STATS_AF_SPEC AF_MPLS attributes (MPLS_STATS_*).",
        headers=("linux/mpls.h",),
        entries=(
            "MPLS_STATS_UNSPEC",
            "MPLS_STATS_LINK",
        ),
        style="values",
    ),
    Table(
        name="RTNL_FAMILY",
        doc="rtgenmsg families of multicast routing cache reports (RTNL_FAMILY_*).",
        headers=("linux/rtnetlink.h",),
        entries=(
            "RTNL_FAMILY_IPMR",
            "RTNL_FAMILY_IP6MR",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IPMRA_CREPORT_ATTR",
        doc="RTNL_FAMILY_IPMR cache report attributes (IPMRA_CREPORT_*).",
        headers=("linux/mroute.h",),
        entries=(
            "IPMRA_CREPORT_UNSPEC",
            "IPMRA_CREPORT_MSGTYPE",
            "IPMRA_CREPORT_VIF_ID",
            "IPMRA_CREPORT_SRC_ADDR",
            "IPMRA_CREPORT_DST_ADDR",
            "IPMRA_CREPORT_PKT",
            "IPMRA_CREPORT_TABLE",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IP6MRA_CREPORT_ATTR",
        doc="RTNL_FAMILY_IP6MR cache report attributes (IP6MRA_CREPORT_*).",
        headers=("linux/mroute6.h",),
        entries=(
            "IP6MRA_CREPORT_UNSPEC",
            "IP6MRA_CREPORT_MSGTYPE",
            "IP6MRA_CREPORT_MIF_ID",
            "IP6MRA_CREPORT_SRC_ADDR",
            "IP6MRA_CREPORT_DST_ADDR",
            "IP6MRA_CREPORT_PKT",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IPMRA_MSG_TYPES",
        doc="IPMRA_CREPORT_MSGTYPE values (IGMPMSG_*).",
        headers=("linux/mroute.h",),
        entries=(
            "IGMPMSG_NOCACHE",
            "IGMPMSG_WRONGVIF",
            "IGMPMSG_WHOLEPKT",
            "IGMPMSG_WRVIFWHOLE",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IP6MRA_MSG_TYPES",
        doc="IP6MRA_CREPORT_MSGTYPE values (MRT6MSG_*).",
        headers=("linux/mroute6.h",),
        entries=(
            "MRT6MSG_NOCACHE",
            "MRT6MSG_WRONGMIF",
            "MRT6MSG_WHOLEPKT",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VFINFO_LIST_ATTRS",
        doc="IFLA_VFINFO_LIST attributes (IFLA_VF_INFO_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_INFO_UNSPEC",
            "IFLA_VF_INFO",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VF_INFO_ATTRS",
        doc="IFLA_VF_INFO attributes (IFLA_VF_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_UNSPEC",
            "IFLA_VF_MAC",
            "IFLA_VF_VLAN",
            "IFLA_VF_TX_RATE",
            "IFLA_VF_SPOOFCHK",
            "IFLA_VF_LINK_STATE",
            "IFLA_VF_RATE",
            "IFLA_VF_RSS_QUERY_EN",
            "IFLA_VF_STATS",
            "IFLA_VF_TRUST",
            "IFLA_VF_IB_NODE_GUID",
            "IFLA_VF_IB_PORT_GUID",
            "IFLA_VF_VLAN_LIST",
            "IFLA_VF_BROADCAST",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VF_STATS_ATTRS",
        doc="IFLA_VF_STATS attributes (IFLA_VF_STATS_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_STATS_RX_PACKETS",
            "IFLA_VF_STATS_TX_PACKETS",
            "IFLA_VF_STATS_RX_BYTES",
            "IFLA_VF_STATS_TX_BYTES",
            "IFLA_VF_STATS_BROADCAST",
            "IFLA_VF_STATS_MULTICAST",
            "IFLA_VF_STATS_PAD",
            "IFLA_VF_STATS_RX_DROPPED",
            "IFLA_VF_STATS_TX_DROPPED",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VF_VLAN_LIST_ATTRS",
        doc="IFLA_VF_VLAN_LIST attributes (IFLA_VF_VLAN_INFO_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_VLAN_INFO_UNSPEC",
            "IFLA_VF_VLAN_INFO",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VF_LINK_STATES",
        doc="struct ifla_vf_link_state link_state (IFLA_VF_LINK_STATE_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_LINK_STATE_AUTO",
            "IFLA_VF_LINK_STATE_ENABLE",
            "IFLA_VF_LINK_STATE_DISABLE",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_PORT_ATTRS",
        doc="IFLA_VF_PORT / IFLA_PORT_SELF attributes (IFLA_PORT_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_PORT_UNSPEC",
            "IFLA_PORT_VF",
            "IFLA_PORT_PROFILE",
            "IFLA_PORT_VSI_TYPE",
            "IFLA_PORT_INSTANCE_UUID",
            "IFLA_PORT_HOST_UUID",
            "IFLA_PORT_REQUEST",
            "IFLA_PORT_RESPONSE",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_VF_PORT_ATTRS",
        doc="IFLA_VF_PORTS attributes (IFLA_VF_PORT_*).",
        headers=("linux/if_link.h",),
        entries=(
            "IFLA_VF_PORT_UNSPEC",
            "IFLA_VF_PORT",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NETCONF_ATTRS",
        doc="netconfmsg attributes (NETCONFA_*).",
        headers=("linux/netconf.h",),
        entries=(
            "NETCONFA_UNSPEC", "NETCONFA_IFINDEX", "NETCONFA_FORWARDING", "NETCONFA_RP_FILTER",
            "NETCONFA_MC_FORWARDING", "NETCONFA_PROXY_NEIGH", "NETCONFA_IGNORE_ROUTES_WITH_LINKDOWN",
            "NETCONFA_INPUT", "NETCONFA_BC_FORWARDING",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NEIGHTBL_ATTRS",
        doc="ndtmsg attributes (NDTA_*).",
        headers=("linux/neighbour.h",),
        entries=(
            "NDTA_UNSPEC", "NDTA_NAME", "NDTA_THRESH1", "NDTA_THRESH2", "NDTA_THRESH3", "NDTA_CONFIG", "NDTA_PARMS",
            "NDTA_STATS", "NDTA_GC_INTERVAL", "NDTA_PAD",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NEIGHTBL_PARMS_ATTRS",
        doc="NDTA_PARMS nested attributes (NDTPA_*).",
        headers=("linux/neighbour.h",),
        entries=(
            "NDTPA_UNSPEC", "NDTPA_IFINDEX", "NDTPA_REFCNT", "NDTPA_REACHABLE_TIME", "NDTPA_BASE_REACHABLE_TIME",
            "NDTPA_RETRANS_TIME", "NDTPA_GC_STALETIME", "NDTPA_DELAY_PROBE_TIME", "NDTPA_QUEUE_LEN",
            "NDTPA_APP_PROBES", "NDTPA_UCAST_PROBES", "NDTPA_MCAST_PROBES", "NDTPA_ANYCAST_DELAY",
            "NDTPA_PROXY_DELAY", "NDTPA_PROXY_QLEN", "NDTPA_LOCKTIME", "NDTPA_QUEUE_LENBYTES",
            "NDTPA_MCAST_REPROBES", "NDTPA_PAD", "NDTPA_INTERVAL_PROBE_TIME_MS",
        ),
        style="values",
    ),
    Table(
        name="RTNL_ADDRLABEL_ATTRS",
        doc="ifaddrlblmsg attributes (IFAL_*; strace's list has no IFAL_UNSPEC).",
        headers=("linux/if_addrlabel.h",),
        entries=("IFAL_ADDRESS", "IFAL_LABEL"),
        style="values",
    ),
    Table(
        name="RTNL_NEXTHOP_ATTRS",
        doc="nhmsg attributes (NHA_*): RTM_*NEXTHOP.",
        headers=("linux/nexthop.h",),
        entries=(
            "NHA_UNSPEC", "NHA_ID", "NHA_GROUP", "NHA_GROUP_TYPE", "NHA_BLACKHOLE", "NHA_OIF", "NHA_GATEWAY",
            "NHA_ENCAP_TYPE", "NHA_ENCAP", "NHA_GROUPS", "NHA_MASTER", "NHA_FDB", "NHA_RES_GROUP", "NHA_RES_BUCKET",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NEXTHOP_GRP_TYPES",
        doc="NHA_GROUP_TYPE values (NEXTHOP_GRP_TYPE_*).",
        headers=("linux/nexthop.h",),
        entries=("NEXTHOP_GRP_TYPE_MPATH", "NEXTHOP_GRP_TYPE_RES"),
        style="values",
    ),
    Table(
        name="RTNL_NHA_RES_BUCKET_ATTRS",
        doc="NHA_RES_BUCKET nested attributes (NHA_RES_BUCKET_*).",
        headers=("linux/nexthop.h",),
        entries=("NHA_RES_BUCKET_PAD", "NHA_RES_BUCKET_INDEX", "NHA_RES_BUCKET_IDLE_TIME", "NHA_RES_BUCKET_NH_ID"),
        style="values",
    ),
    Table(
        name="RTNL_NHA_RES_GROUP_ATTRS",
        doc="NHA_RES_GROUP nested attributes (NHA_RES_GROUP_*).",
        headers=("linux/nexthop.h",),
        entries=(
            "NHA_RES_GROUP_PAD", "NHA_RES_GROUP_BUCKETS", "NHA_RES_GROUP_IDLE_TIMER",
            "NHA_RES_GROUP_UNBALANCED_TIMER", "NHA_RES_GROUP_UNBALANCED_TIME",
        ),
        style="values",
    ),
    Table(
        name="RTNL_NSID_ATTRS",
        doc="rtgenmsg RTM_*NSID attributes (NETNSA_*; NETNSA_NSID_NOT_ASSIGNED is a value, not a type).",
        headers=("linux/net_namespace.h",),
        entries=(
            "NETNSA_NSID_NOT_ASSIGNED", "NETNSA_NONE", "NETNSA_NSID", "NETNSA_PID", "NETNSA_FD",
            "NETNSA_TARGET_NSID", "NETNSA_CURRENT_NSID",
        ),
        style="values",
    ),
    # Bridge (decode/netlink_bridge.py): IFLA_AF_SPEC of AF_BRIDGE links, RTM_*MDB, RTM_*DCB.
    Table(
        name="RTNL_IFLA_AF_SPEC_BRIDGE_ATTRS",
        doc="IFLA_AF_SPEC attributes of AF_BRIDGE ifinfomsg messages (IFLA_BRIDGE_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "IFLA_BRIDGE_FLAGS", "IFLA_BRIDGE_MODE", "IFLA_BRIDGE_VLAN_INFO", "IFLA_BRIDGE_VLAN_TUNNEL_INFO",
            "IFLA_BRIDGE_MRP", "IFLA_BRIDGE_CFM", "IFLA_BRIDGE_MST",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_AF_SPEC_BRIDGE_VLAN_TUNNEL_INFO_ATTRS",
        doc="IFLA_BRIDGE_VLAN_TUNNEL_INFO attributes.",
        headers=("linux/if_bridge.h",),
        entries=(
            "IFLA_BRIDGE_VLAN_TUNNEL_UNSPEC", "IFLA_BRIDGE_VLAN_TUNNEL_ID", "IFLA_BRIDGE_VLAN_TUNNEL_VID",
            "IFLA_BRIDGE_VLAN_TUNNEL_FLAGS",
        ),
        style="values",
    ),
    Table(
        name="RTNL_IFLA_BRIDGE_FLAGS",
        doc="IFLA_BRIDGE_FLAGS bits.",
        headers=("linux/if_bridge.h",),
        entries=("BRIDGE_FLAGS_MASTER", "BRIDGE_FLAGS_SELF"),
        style="flags",
    ),
    Table(
        name="RTNL_IFLA_BRIDGE_MODES",
        doc="IFLA_BRIDGE_MODE values.",
        headers=("linux/if_bridge.h",),
        entries=("BRIDGE_MODE_VEB", "BRIDGE_MODE_VEPA", "BRIDGE_MODE_UNDEF"),
        style="values",
    ),
    Table(
        name="NL_BRIDGE_VLAN_FLAGS",
        doc="struct bridge_vlan_info flags (BRIDGE_VLAN_INFO_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "BRIDGE_VLAN_INFO_MASTER", "BRIDGE_VLAN_INFO_PVID", "BRIDGE_VLAN_INFO_UNTAGGED",
            "BRIDGE_VLAN_INFO_RANGE_BEGIN", "BRIDGE_VLAN_INFO_RANGE_END", "BRIDGE_VLAN_INFO_BRENTRY",
            "BRIDGE_VLAN_INFO_ONLY_OPTS",
        ),
        style="flags",
    ),
    Table(
        name="RTNL_MDB_ATTRS",
        doc="br_port_msg attributes (MDBA_*): RTM_*MDB.",
        headers=("linux/if_bridge.h",),
        entries=("MDBA_UNSPEC", "MDBA_MDB", "MDBA_ROUTER"),
        style="values",
    ),
    Table(
        name="RTNL_MDBA_MDB_ATTRS",
        doc="MDBA_MDB attributes.",
        headers=("linux/if_bridge.h",),
        entries=("MDBA_MDB_UNSPEC", "MDBA_MDB_ENTRY"),
        style="values",
    ),
    Table(
        name="RTNL_MDBA_MDB_ENTRY_ATTRS",
        doc="MDBA_MDB_ENTRY attributes.",
        headers=("linux/if_bridge.h",),
        entries=("MDBA_MDB_ENTRY_UNSPEC", "MDBA_MDB_ENTRY_INFO"),
        style="values",
    ),
    Table(
        name="RTNL_MDBA_MDB_EATTR_ATTRS",
        doc="Attributes after the br_mdb_entry of MDBA_MDB_ENTRY_INFO (MDBA_MDB_EATTR_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "MDBA_MDB_EATTR_UNSPEC", "MDBA_MDB_EATTR_TIMER", "MDBA_MDB_EATTR_SRC_LIST", "MDBA_MDB_EATTR_GROUP_MODE",
            "MDBA_MDB_EATTR_SOURCE", "MDBA_MDB_EATTR_RTPROT",
        ),
        style="values",
    ),
    Table(
        name="RTNL_MDBA_ROUTER_ATTRS",
        doc="MDBA_ROUTER attributes.",
        headers=("linux/if_bridge.h",),
        entries=("MDBA_ROUTER_UNSPEC", "MDBA_ROUTER_PORT"),
        style="values",
    ),
    Table(
        name="RTNL_MDBA_ROUTER_PATTR_ATTRS",
        doc="Attributes after the ifindex of MDBA_ROUTER_PORT (MDBA_ROUTER_PATTR_*).",
        headers=("linux/if_bridge.h",),
        entries=(
            "MDBA_ROUTER_PATTR_UNSPEC", "MDBA_ROUTER_PATTR_TIMER", "MDBA_ROUTER_PATTR_TYPE",
            "MDBA_ROUTER_PATTR_INET_TIMER", "MDBA_ROUTER_PATTR_INET6_TIMER",
        ),
        style="values",
    ),
    Table(
        name="MDB_STATES",
        doc="struct br_mdb_entry state.",
        headers=("linux/if_bridge.h",),
        entries=("MDB_TEMPORARY", "MDB_PERMANENT"),
        style="values",
    ),
    Table(
        name="MDB_FLAGS",
        doc="struct br_mdb_entry flags.",
        headers=("linux/if_bridge.h",),
        entries=("MDB_FLAGS_OFFLOAD", "MDB_FLAGS_FAST_LEAVE", "MDB_FLAGS_STAR_EXCL", "MDB_FLAGS_BLOCKED"),
        style="flags",
    ),
    Table(
        name="MULTICAST_ROUTER_TYPES",
        doc="MDBA_ROUTER_PATTR_TYPE values.",
        headers=("linux/if_bridge.h",),
        entries=("MDB_RTR_TYPE_DISABLED", "MDB_RTR_TYPE_TEMP_QUERY", "MDB_RTR_TYPE_PERM", "MDB_RTR_TYPE_TEMP"),
        style="values",
    ),
    Table(
        name="DCB_COMMANDS",
        doc="struct dcbmsg cmd: RTM_GETDCB/RTM_SETDCB.",
        headers=("linux/dcbnl.h",),
        entries=(
            "DCB_CMD_UNDEFINED", "DCB_CMD_GSTATE", "DCB_CMD_SSTATE", "DCB_CMD_PGTX_GCFG", "DCB_CMD_PGTX_SCFG",
            "DCB_CMD_PGRX_GCFG", "DCB_CMD_PGRX_SCFG", "DCB_CMD_PFC_GCFG", "DCB_CMD_PFC_SCFG", "DCB_CMD_SET_ALL",
            "DCB_CMD_GPERM_HWADDR", "DCB_CMD_GCAP", "DCB_CMD_GNUMTCS", "DCB_CMD_SNUMTCS", "DCB_CMD_PFC_GSTATE",
            "DCB_CMD_PFC_SSTATE", "DCB_CMD_BCN_GCFG", "DCB_CMD_BCN_SCFG", "DCB_CMD_GAPP", "DCB_CMD_SAPP",
            "DCB_CMD_IEEE_SET", "DCB_CMD_IEEE_GET", "DCB_CMD_GDCBX", "DCB_CMD_SDCBX", "DCB_CMD_GFEATCFG",
            "DCB_CMD_SFEATCFG", "DCB_CMD_CEE_GET", "DCB_CMD_IEEE_DEL",
        ),
        style="values",
    ),
    Table(
        name="RTNL_DCB_ATTRS",
        doc="dcbmsg attributes (DCB_ATTR_*), printed by name only (strace decodes no payload).",
        headers=("linux/dcbnl.h",),
        entries=(
            "DCB_ATTR_UNDEFINED", "DCB_ATTR_IFNAME", "DCB_ATTR_STATE", "DCB_ATTR_PFC_STATE", "DCB_ATTR_PFC_CFG",
            "DCB_ATTR_NUM_TC", "DCB_ATTR_PG_CFG", "DCB_ATTR_SET_ALL", "DCB_ATTR_PERM_HWADDR", "DCB_ATTR_CAP",
            "DCB_ATTR_NUMTCS", "DCB_ATTR_BCN", "DCB_ATTR_APP", "DCB_ATTR_IEEE", "DCB_ATTR_DCBX", "DCB_ATTR_FEATCFG",
            "DCB_ATTR_CEE",
        ),
        style="values",
    ),
    Table(
        name="NEIGHBOR_CACHE_ENTRY_STATES",
        doc="ndmsg ndm_state.",
        headers=("linux/neighbour.h",),
        entries=(
            "NUD_NONE", "NUD_INCOMPLETE", "NUD_REACHABLE", "NUD_STALE", "NUD_DELAY", "NUD_PROBE", "NUD_FAILED",
            "NUD_NOARP", "NUD_PERMANENT",
        ),
        style="flags",
    ),
    Table(
        name="NEIGHBOR_CACHE_ENTRY_FLAGS",
        doc="ndmsg ndm_flags.",
        headers=("linux/neighbour.h",),
        entries=(
            "NTF_USE", "NTF_SELF", "NTF_MASTER", "NTF_PROXY", "NTF_EXT_LEARNED", "NTF_OFFLOADED", "NTF_STICKY",
            "NTF_ROUTER",
        ),
        style="flags",
    ),
    Table(
        name="TCP_STATES",
        doc="inet_diag_msg idiag_state, unix_diag_msg udiag_state.",
        headers=("netinet/tcp.h",),
        entries=(
            "TCP_ESTABLISHED", "TCP_SYN_SENT", "TCP_SYN_RECV", "TCP_FIN_WAIT1", "TCP_FIN_WAIT2", "TCP_TIME_WAIT",
            "TCP_CLOSE", "TCP_CLOSE_WAIT", "TCP_LAST_ACK", "TCP_LISTEN", "TCP_CLOSING", "TCP_NEW_SYN_RECV",
        ),
        fallbacks=(("TCP_NEW_SYN_RECV", "12"),),
        style="values",
    ),
    Table(
        name="TCP_STATE_FLAGS",
        doc="inet_diag/unix_diag request states (1<<TCP_*).",
        headers=("netinet/tcp.h",),
        entries=(
            "1<<TCP_ESTABLISHED=(1U<<TCP_ESTABLISHED)", "1<<TCP_SYN_SENT=(1U<<TCP_SYN_SENT)",
            "1<<TCP_SYN_RECV=(1U<<TCP_SYN_RECV)", "1<<TCP_FIN_WAIT1=(1U<<TCP_FIN_WAIT1)",
            "1<<TCP_FIN_WAIT2=(1U<<TCP_FIN_WAIT2)", "1<<TCP_TIME_WAIT=(1U<<TCP_TIME_WAIT)",
            "1<<TCP_CLOSE=(1U<<TCP_CLOSE)", "1<<TCP_CLOSE_WAIT=(1U<<TCP_CLOSE_WAIT)",
            "1<<TCP_LAST_ACK=(1U<<TCP_LAST_ACK)", "1<<TCP_LISTEN=(1U<<TCP_LISTEN)",
            "1<<TCP_CLOSING=(1U<<TCP_CLOSING)", "1<<TCP_NEW_SYN_RECV=(1U<<TCP_NEW_SYN_RECV)",
        ),
        fallbacks=(("TCP_NEW_SYN_RECV", "12"),),
        style="flags",
    ),
    Table(
        name="INET_DIAG_ATTRS",
        doc="inet_diag_msg attributes.",
        headers=("linux/inet_diag.h",),
        entries=(
            "INET_DIAG_NONE", "INET_DIAG_MEMINFO", "INET_DIAG_INFO", "INET_DIAG_VEGASINFO", "INET_DIAG_CONG",
            "INET_DIAG_TOS", "INET_DIAG_TCLASS", "INET_DIAG_SKMEMINFO", "INET_DIAG_SHUTDOWN", "INET_DIAG_DCTCPINFO",
            "INET_DIAG_PROTOCOL", "INET_DIAG_SKV6ONLY", "INET_DIAG_LOCALS", "INET_DIAG_PEERS", "INET_DIAG_PAD",
            "INET_DIAG_MARK", "INET_DIAG_BBRINFO", "INET_DIAG_CLASS_ID", "INET_DIAG_MD5SIG", "INET_DIAG_ULP_INFO",
            "INET_DIAG_SK_BPF_STORAGES", "INET_DIAG_CGROUP_ID", "INET_DIAG_SOCKOPT",
        ),
        style="values",
    ),
    Table(
        name="INET_DIAG_EXTENDED_FLAGS",
        doc="inet_diag request idiag_ext.",
        headers=("linux/inet_diag.h",),
        entries=(
            "1<<(INET_DIAG_MEMINFO-1)=(1U<<(INET_DIAG_MEMINFO-1))", "1<<(INET_DIAG_INFO-1)=(1U<<(INET_DIAG_INFO-1))",
            "1<<(INET_DIAG_VEGASINFO-1)=(1U<<(INET_DIAG_VEGASINFO-1))",
            "1<<(INET_DIAG_CONG-1)=(1U<<(INET_DIAG_CONG-1))", "1<<(INET_DIAG_TOS-1)=(1U<<(INET_DIAG_TOS-1))",
            "1<<(INET_DIAG_TCLASS-1)=(1U<<(INET_DIAG_TCLASS-1))",
            "1<<(INET_DIAG_SKMEMINFO-1)=(1U<<(INET_DIAG_SKMEMINFO-1))",
            "1<<(INET_DIAG_SHUTDOWN-1)=(1U<<(INET_DIAG_SHUTDOWN-1))",
            "1<<(INET_DIAG_DCTCPINFO-1)=(1U<<(INET_DIAG_DCTCPINFO-1))",
            "1<<(INET_DIAG_PROTOCOL-1)=(1U<<(INET_DIAG_PROTOCOL-1))",
            "1<<(INET_DIAG_SKV6ONLY-1)=(1U<<(INET_DIAG_SKV6ONLY-1))",
            "1<<(INET_DIAG_LOCALS-1)=(1U<<(INET_DIAG_LOCALS-1))", "1<<(INET_DIAG_PEERS-1)=(1U<<(INET_DIAG_PEERS-1))",
            "1<<(INET_DIAG_PAD-1)=(1U<<(INET_DIAG_PAD-1))", "1<<(INET_DIAG_MARK-1)=(1U<<(INET_DIAG_MARK-1))",
            "1<<(INET_DIAG_BBRINFO-1)=(1U<<(INET_DIAG_BBRINFO-1))",
            "1<<(INET_DIAG_CLASS_ID-1)=(1U<<(INET_DIAG_CLASS_ID-1))",
            "1<<(INET_DIAG_MD5SIG-1)=(1U<<(INET_DIAG_MD5SIG-1))",
            "1<<(INET_DIAG_ULP_INFO-1)=(1U<<(INET_DIAG_ULP_INFO-1))",
            "1<<(INET_DIAG_SK_BPF_STORAGES-1)=(1U<<(INET_DIAG_SK_BPF_STORAGES-1))",
            "1<<(INET_DIAG_CGROUP_ID-1)=(1U<<(INET_DIAG_CGROUP_ID-1))",
            "1<<(INET_DIAG_SOCKOPT-1)=(1U<<(INET_DIAG_SOCKOPT-1))",
        ),
        style="flags",
    ),
    Table(
        name="INET_DIAG_REQ_ATTRS",
        doc="inet_diag request attributes.",
        headers=("linux/inet_diag.h",),
        entries=(
            "INET_DIAG_REQ_NONE", "INET_DIAG_REQ_BYTECODE", "INET_DIAG_REQ_SK_BPF_STORAGES", "INET_DIAG_REQ_PROTOCOL",
        ),
        style="values",
    ),
    Table(
        name="INET_DIAG_BYTECODES",
        doc="inet_diag_bc_op codes (INET_DIAG_REQ_BYTECODE).",
        headers=("linux/inet_diag.h",),
        entries=(
            "INET_DIAG_BC_NOP", "INET_DIAG_BC_JMP", "INET_DIAG_BC_S_GE", "INET_DIAG_BC_S_LE", "INET_DIAG_BC_D_GE",
            "INET_DIAG_BC_D_LE", "INET_DIAG_BC_AUTO", "INET_DIAG_BC_S_COND", "INET_DIAG_BC_D_COND",
            "INET_DIAG_BC_DEV_COND", "INET_DIAG_BC_MARK_COND", "INET_DIAG_BC_S_EQ", "INET_DIAG_BC_D_EQ",
            "INET_DIAG_BC_CGROUP_COND",
        ),
        style="values",
    ),
    Table(
        name="UNIX_DIAG_ATTRS",
        doc="unix_diag_msg attributes.",
        headers=("linux/unix_diag.h",),
        entries=(
            "UNIX_DIAG_NAME", "UNIX_DIAG_VFS", "UNIX_DIAG_PEER", "UNIX_DIAG_ICONS", "UNIX_DIAG_RQLEN",
            "UNIX_DIAG_MEMINFO", "UNIX_DIAG_SHUTDOWN", "UNIX_DIAG_UID",
        ),
        style="values",
    ),
    Table(
        name="UNIX_DIAG_SHOW",
        doc="unix_diag_req udiag_show.",
        headers=("linux/unix_diag.h",),
        entries=(
            "UDIAG_SHOW_NAME", "UDIAG_SHOW_VFS", "UDIAG_SHOW_PEER", "UDIAG_SHOW_ICONS", "UDIAG_SHOW_RQLEN",
            "UDIAG_SHOW_MEMINFO", "UDIAG_SHOW_UID",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_SK_MEMINFO_INDICES",
        doc="Indices of the SK_MEMINFO array attributes.",
        headers=("linux/sock_diag.h",),
        entries=(
            "SK_MEMINFO_RMEM_ALLOC", "SK_MEMINFO_RCVBUF", "SK_MEMINFO_WMEM_ALLOC", "SK_MEMINFO_SNDBUF",
            "SK_MEMINFO_FWD_ALLOC", "SK_MEMINFO_WMEM_QUEUED", "SK_MEMINFO_OPTMEM", "SK_MEMINFO_BACKLOG",
            "SK_MEMINFO_DROPS",
        ),
        style="values",
    ),
    Table(
        name="NETLINK_CONSTANTS",
        doc="Netlink layout constants the decoders need (helper: NLMSG_MIN_TYPE, the nla_type flag bits).",
        headers=("linux/netlink.h",),
        entries=("NLMSG_MIN_TYPE", "NLMSG_HDRLEN", "NLA_HDRLEN", "NLA_F_NESTED", "NLA_F_NET_BYTEORDER", "NLA_TYPE_MASK"),
        style="values",
        strace_xlat=False,
    ),
    Table(
        name="NETLINK_DIAG_SHOW",
        doc="netlink_diag_req ndiag_show (NDIAG_SHOW_*).",
        headers=("linux/netlink_diag.h",),
        entries=("NDIAG_SHOW_MEMINFO", "NDIAG_SHOW_GROUPS", "NDIAG_SHOW_RING_CFG", "NDIAG_SHOW_FLAGS"),
        style="flags",
    ),
    Table(
        name="NETLINK_SOCKET_FLAGS",
        doc="NETLINK_DIAG_FLAGS bits (NDIAG_FLAG_*).",
        headers=("linux/netlink_diag.h",),
        entries=(
            "NDIAG_FLAG_CB_RUNNING", "NDIAG_FLAG_PKTINFO", "NDIAG_FLAG_BROADCAST_ERROR", "NDIAG_FLAG_NO_ENOBUFS",
            "NDIAG_FLAG_LISTEN_ALL_NSID", "NDIAG_FLAG_CAP_ACK",
        ),
        style="flags",
    ),
    Table(
        name="NETLINK_STATES",
        doc="netlink_diag_msg ndiag_state (kernel-internal NETLINK_UNCONNECTED/CONNECTED, and TCP_CLOSE).",
        headers=("netinet/tcp.h",),
        entries=("NETLINK_UNCONNECTED", "NETLINK_CONNECTED", "TCP_CLOSE"),
        fallbacks=(("NETLINK_UNCONNECTED", "0"), ("NETLINK_CONNECTED", "1")),
        style="values",
    ),
    Table(
        name="NETLINK_DIAG_ATTRS",
        doc="netlink_diag_msg attributes (NETLINK_DIAG_*).",
        headers=("linux/netlink_diag.h",),
        entries=(
            "NETLINK_DIAG_MEMINFO", "NETLINK_DIAG_GROUPS", "NETLINK_DIAG_RX_RING", "NETLINK_DIAG_TX_RING",
            "NETLINK_DIAG_FLAGS",
        ),
        style="values",
    ),
    Table(
        name="NETLINK_DIAG_CONSTANTS",
        doc="netlink_diag_req sdiag_protocol wildcard (helper: printed by name, as strace's print_xlat).",
        headers=("linux/netlink_diag.h",),
        entries=("NDIAG_PROTO_ALL",),
        style="values",
        strace_xlat=False,
    ),
    Table(
        name="PACKET_DIAG_SHOW",
        doc="packet_diag_req pdiag_show (PACKET_SHOW_*).",
        headers=("linux/packet_diag.h",),
        entries=(
            "PACKET_SHOW_INFO", "PACKET_SHOW_MCLIST", "PACKET_SHOW_RING_CFG", "PACKET_SHOW_FANOUT",
            "PACKET_SHOW_MEMINFO", "PACKET_SHOW_FILTER",
        ),
        style="flags",
    ),
    Table(
        name="PACKET_DIAG_ATTRS",
        doc="packet_diag_msg attributes (PACKET_DIAG_*).",
        headers=("linux/packet_diag.h",),
        entries=(
            "PACKET_DIAG_INFO", "PACKET_DIAG_MCLIST", "PACKET_DIAG_RX_RING", "PACKET_DIAG_TX_RING",
            "PACKET_DIAG_FANOUT", "PACKET_DIAG_UID", "PACKET_DIAG_MEMINFO", "PACKET_DIAG_FILTER",
        ),
        style="values",
    ),
    Table(
        name="PACKET_DIAG_INFO_FLAGS",
        doc="PACKET_DIAG_INFO pdi_flags (PDI_*).",
        headers=("linux/packet_diag.h",),
        entries=("PDI_RUNNING", "PDI_AUXDATA", "PDI_ORIGDEV", "PDI_VNETHDR", "PDI_LOSS"),
        style="flags",
    ),
    Table(
        name="AF_PACKET_VERSIONS",
        doc="PACKET_DIAG_INFO pdi_version (TPACKET_V*).",
        headers=("linux/if_packet.h",),
        entries=("TPACKET_V1", "TPACKET_V2", "TPACKET_V3"),
        style="values",
    ),
    Table(
        name="INET_DIAG_SHUTDOWN_FLAGS",
        doc="INET_DIAG_SHUTDOWN value bits (kernel-internal names, so strace prints them as comments).",
        entries=("RCV_SHUTDOWN", "SEND_SHUTDOWN"),
        fallbacks=(("RCV_SHUTDOWN", "1"), ("SEND_SHUTDOWN", "2")),
    ),
]

# Structure arguments of ioctl requests (decode/ioctl_structs.py): loop.c, fs_x_ioctl.c,
# fs_f_ioctl.c, block.c, perf_ioctl.c, kvm.c.
IOCTL_STRUCTS: list[Table] = [
    Table(
        name="IOCTL_STRUCT_CODES",
        doc=(
            "ioctl(2) requests whose structure argument strace 6.1 decodes (loop_info, loop_info64,\n"
            "loop_config, fsxattr, fiemap, blkpg, blk_user_trace_setup, perf, kvm): name -> x86_64\n"
            "code, so decode/ioctl_structs.py dispatches by name and types no request number."
        ),
        headers=("linux/fs.h", "linux/loop.h", "linux/fiemap.h", "linux/blkpg.h", "linux/blktrace_api.h",
                 "linux/perf_event.h", "linux/kvm.h", "linux/input.h"),
        entries=(
            "LOOP_SET_STATUS", "LOOP_GET_STATUS", "LOOP_SET_STATUS64", "LOOP_GET_STATUS64", "?LOOP_CONFIGURE",
            "FS_IOC_FSGETXATTR", "FS_IOC_FSSETXATTR", "FS_IOC_GETFLAGS", "FS_IOC_SETFLAGS",
            "FS_IOC32_GETFLAGS", "FS_IOC32_SETFLAGS", "FS_IOC_FIEMAP", "FICLONE",
            "BLKPG", "BLKTRACESETUP",
            "PERF_EVENT_IOC_QUERY_BPF", "PERF_EVENT_IOC_MODIFY_ATTRIBUTES",
            "KVM_CREATE_VM", "KVM_RUN", "KVM_SET_USER_MEMORY_REGION", "KVM_GET_REGS", "KVM_SET_REGS",
            "KVM_GET_SREGS", "KVM_SET_SREGS", "KVM_CREATE_VCPU",
            "KVM_SET_CPUID2", "KVM_GET_SUPPORTED_CPUID", "KVM_GET_EMULATED_CPUID",
            "EVIOCGVERSION", "EVIOCGID", "EVIOCGREP", "EVIOCSREP", "EVIOCGKEYCODE", "EVIOCGKEYCODE_V2",
            "EVIOCSKEYCODE", "EVIOCSKEYCODE_V2", "EVIOCGEFFECTS", "EVIOCRMFF", "EVIOCGRAB", "EVIOCREVOKE",
            "EVIOCSCLOCKID",
        ),
        style="flags",
        strace_xlat=False,
    ),
    Table(
        name="IOCTL_PTR_CODES",
        doc=(
            "ioctl(2) requests whose argument strace 6.1 prints with printaddr/umove_or_printaddr\n"
            "(btrfs, counter, gpio, hdio, kd, mtd, ptp, rtc, scsi/sg, sockios, tee, ubi, uffdio,\n"
            "v4l2, nsfs, seccomp, fs label): a NULL argument prints ``NULL``.  decode/ioctl.py prints\n"
            "the ones it does not decode further as NULL or the hex address, like strace does for an\n"
            "unreadable pointer.  name -> x86_64 code."
        ),
        headers=("sys/socket.h", "linux/fs.h", "linux/btrfs.h", "linux/counter.h", "linux/gpio.h", "linux/hdreg.h",
                 "linux/kd.h", "mtd/mtd-abi.h", "linux/ptp_clock.h", "linux/rtc.h", "scsi/sg.h",
                 "linux/sockios.h", "linux/tee.h", "mtd/ubi-user.h", "linux/userfaultfd.h",
                 "linux/videodev2.h", "linux/nsfs.h", "linux/seccomp.h", "linux/watchdog.h"),
        entries=(
            "BTRFS_IOC_ADD_DEV", "BTRFS_IOC_BALANCE_PROGRESS", "BTRFS_IOC_BALANCE_V2", "BTRFS_IOC_CLONE_RANGE",
            "BTRFS_IOC_DEFAULT_SUBVOL", "BTRFS_IOC_DEFRAG_RANGE", "BTRFS_IOC_DEV_INFO", "BTRFS_IOC_DEV_REPLACE",
            "BTRFS_IOC_FILE_EXTENT_SAME", "?BTRFS_IOC_FORGET_DEV", "BTRFS_IOC_FS_INFO", "BTRFS_IOC_GET_DEV_STATS",
            "BTRFS_IOC_GET_FEATURES", "BTRFS_IOC_GET_SUPPORTED_FEATURES", "BTRFS_IOC_INO_LOOKUP",
            "BTRFS_IOC_INO_PATHS", "BTRFS_IOC_LOGICAL_INO", "BTRFS_IOC_QGROUP_ASSIGN", "BTRFS_IOC_QGROUP_CREATE",
            "BTRFS_IOC_QGROUP_LIMIT", "BTRFS_IOC_QUOTA_CTL", "BTRFS_IOC_QUOTA_RESCAN",
            "BTRFS_IOC_QUOTA_RESCAN_STATUS", "BTRFS_IOC_RESIZE", "BTRFS_IOC_RM_DEV", "BTRFS_IOC_SCAN_DEV",
            "BTRFS_IOC_SCRUB", "BTRFS_IOC_SCRUB_PROGRESS", "BTRFS_IOC_SEND", "BTRFS_IOC_SET_FEATURES",
            "BTRFS_IOC_SET_RECEIVED_SUBVOL", "BTRFS_IOC_SNAP_CREATE", "BTRFS_IOC_SNAP_CREATE_V2",
            "BTRFS_IOC_SPACE_INFO", "BTRFS_IOC_START_SYNC", "BTRFS_IOC_SUBVOL_CREATE_V2",
            "BTRFS_IOC_SUBVOL_GETFLAGS", "BTRFS_IOC_TREE_SEARCH", "BTRFS_IOC_TREE_SEARCH_V2", "BTRFS_IOC_WAIT_SYNC",
            "COUNTER_ADD_WATCH_IOCTL", "FS_IOC_GETFSLABEL", "FS_IOC_SETFSLABEL",
            "GPIOHANDLE_GET_LINE_VALUES_IOCTL", "GPIOHANDLE_SET_CONFIG_IOCTL", "GPIOHANDLE_SET_LINE_VALUES_IOCTL",
            "GPIO_GET_CHIPINFO_IOCTL", "GPIO_GET_LINEEVENT_IOCTL", "GPIO_GET_LINEHANDLE_IOCTL",
            "GPIO_GET_LINEINFO_IOCTL", "GPIO_GET_LINEINFO_UNWATCH_IOCTL", "GPIO_GET_LINEINFO_WATCH_IOCTL",
            "GPIO_V2_GET_LINEINFO_IOCTL", "GPIO_V2_GET_LINEINFO_WATCH_IOCTL", "GPIO_V2_GET_LINE_IOCTL",
            "GPIO_V2_LINE_GET_VALUES_IOCTL", "GPIO_V2_LINE_SET_CONFIG_IOCTL", "GPIO_V2_LINE_SET_VALUES_IOCTL",
            "HDIO_DRIVE_CMD", "HDIO_DRIVE_RESET", "HDIO_GETGEO", "HDIO_GET_IDENTITY", "HDIO_OBSOLETE_IDENTITY",
            "HDIO_SCAN_HWIF",
            "KDFONTOP", "KDGETKEYCODE", "KDGETLED", "KDGETMODE", "KDGKBDIACR", "KDGKBDIACRUC", "KDGKBENT",
            "KDGKBLED", "KDGKBMETA", "KDGKBMODE", "KDGKBSENT", "KDGKBTYPE", "KDKBDREP", "KDSETKEYCODE",
            "KDSKBDIACR", "KDSKBDIACRUC", "KDSKBENT", "KDSKBSENT", "GIO_CMAP", "GIO_FONT", "GIO_FONTX",
            "GIO_SCRNMAP", "GIO_UNIMAP", "GIO_UNISCRNMAP", "PIO_CMAP", "PIO_FONT", "PIO_SCRNMAP", "PIO_UNIMAP",
            "PIO_UNIMAPCLR", "PIO_UNISCRNMAP",
            "MEMGETREGIONINFO", "MEMREADOOB", "MEMREADOOB64", "MEMWRITE", "MEMWRITEOOB", "MEMWRITEOOB64",
            "MEMGETINFO", "MEMGETOOBSEL", "OTPSELECT", "OTPLOCK", "ECCGETLAYOUT", "ECCGETSTATS", "MEMISLOCKED",
            "MEMGETREGIONCOUNT", "MEMGETBADBLOCK", "MEMSETBADBLOCK", "OTPGETREGIONCOUNT", "OTPGETREGIONINFO",
            "MEMERASE", "MEMERASE64", "MEMLOCK", "MEMUNLOCK",
            "NS_GET_OWNER_UID",
            "PTP_CLOCK_GETCAPS", "PTP_CLOCK_GETCAPS2", "PTP_EXTTS_REQUEST", "PTP_EXTTS_REQUEST2",
            "PTP_PEROUT_REQUEST", "PTP_PEROUT_REQUEST2", "PTP_PIN_GETFUNC", "PTP_PIN_GETFUNC2", "PTP_PIN_SETFUNC",
            "PTP_PIN_SETFUNC2", "PTP_SYS_OFFSET", "PTP_SYS_OFFSET2", "PTP_SYS_OFFSET_EXTENDED",
            "PTP_SYS_OFFSET_EXTENDED2", "PTP_SYS_OFFSET_PRECISE", "PTP_SYS_OFFSET_PRECISE2",
            "RTC_ALM_READ", "RTC_ALM_SET", "RTC_EPOCH_READ", "RTC_IRQP_READ", "?RTC_PARAM_GET", "?RTC_PARAM_SET",
            "RTC_PLL_GET", "RTC_PLL_SET", "RTC_RD_TIME", "RTC_SET_TIME", "RTC_VL_READ", "RTC_WKALM_RD",
            "RTC_WKALM_SET",
            "SECCOMP_IOCTL_NOTIF_ADDFD", "SECCOMP_IOCTL_NOTIF_ID_VALID", "SECCOMP_IOCTL_NOTIF_RECV",
            "SECCOMP_IOCTL_NOTIF_SEND",
            "SG_EMULATED_HOST", "?SG_GET_ACCESS_COUNT", "SG_GET_COMMAND_Q", "SG_GET_KEEP_ORPHAN", "SG_GET_LOW_DMA",
            "SG_GET_NUM_WAITING", "SG_GET_PACK_ID", "SG_GET_REQUEST_TABLE", "SG_GET_RESERVED_SIZE",
            "SG_GET_SCSI_ID", "SG_GET_SG_TABLESIZE", "SG_GET_TRANSFORM", "SG_GET_VERSION_NUM", "SG_IO",
            "SG_NEXT_CMD_LEN", "SG_SCSI_RESET", "SG_SET_COMMAND_Q", "SG_SET_DEBUG", "SG_SET_FORCE_LOW_DMA",
            "SG_SET_FORCE_PACK_ID", "SG_SET_KEEP_ORPHAN", "SG_SET_RESERVED_SIZE", "SG_SET_TIMEOUT",
            "SIOCADDDLCI", "SIOCADDMULTI", "SIOCADDRT", "SIOCATMARK", "SIOCBONDCHANGEACTIVE", "SIOCBONDENSLAVE",
            "SIOCBONDINFOQUERY", "SIOCBONDRELEASE", "SIOCBONDSETHWADDR", "SIOCBONDSLAVEINFOQUERY", "SIOCBRADDBR",
            "SIOCBRADDIF", "SIOCBRDELBR", "SIOCBRDELIF", "SIOCDARP", "SIOCDELDLCI", "SIOCDELMULTI", "SIOCDELRT",
            "SIOCDIFADDR", "SIOCDRARP", "SIOCETHTOOL", "SIOCGARP", "SIOCGHWTSTAMP", "SIOCGIFADDR", "SIOCGIFBR",
            "SIOCGIFBRDADDR", "SIOCGIFCONF", "SIOCGIFCOUNT", "SIOCGIFDSTADDR", "SIOCGIFENCAP", "SIOCGIFFLAGS",
            "SIOCGIFHWADDR", "SIOCGIFINDEX", "SIOCGIFMAP", "SIOCGIFMEM", "SIOCGIFMETRIC", "SIOCGIFMTU",
            "SIOCGIFNAME", "SIOCGIFNETMASK", "SIOCGIFPFLAGS", "SIOCGIFSLAVE", "SIOCGIFTXQLEN", "SIOCGIFVLAN",
            "SIOCGMIIPHY", "SIOCGMIIREG", "SIOCGPGRP", "SIOCGRARP", "SIOCGSKNS", "SIOCGSTAMPNS_NEW",
            "SIOCGSTAMPNS_OLD", "SIOCGSTAMP_NEW", "SIOCGSTAMP_OLD", "SIOCOUTQNSD", "SIOCRTMSG", "SIOCSARP",
            "SIOCSHWTSTAMP", "SIOCSIFADDR", "SIOCSIFBR", "SIOCSIFBRDADDR", "SIOCSIFDSTADDR", "SIOCSIFENCAP",
            "SIOCSIFFLAGS", "SIOCSIFHWADDR", "SIOCSIFHWBROADCAST", "SIOCSIFLINK", "SIOCSIFMAP", "SIOCSIFMEM",
            "SIOCSIFMETRIC", "SIOCSIFMTU", "SIOCSIFNAME", "SIOCSIFNETMASK", "SIOCSIFPFLAGS", "SIOCSIFSLAVE",
            "SIOCSIFTXQLEN", "SIOCSIFVLAN", "SIOCSMIIREG", "SIOCSPGRP", "SIOCSRARP", "SIOCWANDEV",
            "TEE_IOC_CANCEL", "TEE_IOC_CLOSE_SESSION", "TEE_IOC_INVOKE", "TEE_IOC_OPEN_SESSION",
            "TEE_IOC_SHM_ALLOC", "TEE_IOC_SHM_REGISTER", "TEE_IOC_SUPPL_RECV", "TEE_IOC_SUPPL_SEND",
            "TEE_IOC_VERSION",
            "UBI_IOCATT", "UBI_IOCEBCH", "UBI_IOCEBMAP", "UBI_IOCMKVOL", "UBI_IOCRNVOL", "UBI_IOCRSVOL",
            "UBI_IOCSETVOLPROP",
            "UFFDIO_API", "UFFDIO_COPY", "UFFDIO_REGISTER", "UFFDIO_UNREGISTER", "UFFDIO_WAKE", "UFFDIO_ZEROPAGE",
            "VIDIOC_CREATE_BUFS", "VIDIOC_CROPCAP", "VIDIOC_DQBUF", "VIDIOC_ENUMINPUT", "VIDIOC_ENUMSTD",
            "VIDIOC_ENUM_FMT", "VIDIOC_ENUM_FRAMEINTERVALS", "VIDIOC_ENUM_FRAMESIZES", "VIDIOC_G_CROP",
            "VIDIOC_G_CTRL", "VIDIOC_G_EXT_CTRLS", "VIDIOC_G_FBUF", "VIDIOC_G_FMT", "VIDIOC_G_INPUT",
            "VIDIOC_G_PARM", "VIDIOC_G_STD", "VIDIOC_G_TUNER", "VIDIOC_QBUF", "VIDIOC_QUERYBUF",
            "VIDIOC_QUERYCAP", "VIDIOC_QUERYCTRL", "VIDIOC_QUERY_EXT_CTRL", "VIDIOC_REQBUFS", "VIDIOC_STREAMOFF",
            "VIDIOC_STREAMON", "VIDIOC_S_CROP", "VIDIOC_S_CTRL", "VIDIOC_S_EXT_CTRLS", "VIDIOC_S_FBUF",
            "VIDIOC_S_FMT", "VIDIOC_S_INPUT", "VIDIOC_S_PARM", "VIDIOC_S_STD", "VIDIOC_S_TUNER",
            "VIDIOC_TRY_EXT_CTRLS", "VIDIOC_TRY_FMT",
        ),
        style="flags",
        strace_xlat=False,
    ),
    Table(
        name="UFFD_API_FEATURES",
        doc="struct uffdio_api.features (userfaultfd.c's UFFDIO_API).",
        headers=("linux/userfaultfd.h",),
        entries=(
            "UFFD_FEATURE_PAGEFAULT_FLAG_WP", "UFFD_FEATURE_EVENT_FORK", "UFFD_FEATURE_EVENT_REMAP",
            "UFFD_FEATURE_EVENT_REMOVE", "UFFD_FEATURE_MISSING_HUGETLBFS", "UFFD_FEATURE_MISSING_SHMEM",
            "UFFD_FEATURE_EVENT_UNMAP", "UFFD_FEATURE_SIGBUS", "UFFD_FEATURE_THREAD_ID",
            "UFFD_FEATURE_MINOR_HUGETLBFS", "UFFD_FEATURE_MINOR_SHMEM", "UFFD_FEATURE_EXACT_ADDRESS",
            "UFFD_FEATURE_WP_HUGETLBFS_SHMEM",
        ),
    ),
    Table(
        name="UFFD_API_FLAGS",
        doc="struct uffdio_api.ioctls: the requests the descriptor supports, as ``1<<_UFFDIO_API``.",
        headers=("linux/userfaultfd.h",),
        entries=("1<<_UFFDIO_REGISTER=1ULL << _UFFDIO_REGISTER", "1<<_UFFDIO_UNREGISTER=1ULL << _UFFDIO_UNREGISTER", "1<<_UFFDIO_API=1ULL << _UFFDIO_API"),
    ),
    Table(
        name="UFFD_REGISTER_IOCTL_FLAGS",
        doc="struct uffdio_register.ioctls: the requests the registered range supports.",
        headers=("linux/userfaultfd.h",),
        entries=("1<<_UFFDIO_WAKE=1ULL << _UFFDIO_WAKE", "1<<_UFFDIO_COPY=1ULL << _UFFDIO_COPY", "1<<_UFFDIO_ZEROPAGE=1ULL << _UFFDIO_ZEROPAGE", "1<<_UFFDIO_WRITEPROTECT=1ULL << _UFFDIO_WRITEPROTECT", "1<<_UFFDIO_CONTINUE=1ULL << _UFFDIO_CONTINUE"),
    ),
    Table(
        name="UFFD_REGISTER_MODE_FLAGS",
        doc="struct uffdio_register.mode.",
        headers=("linux/userfaultfd.h",),
        entries=("UFFDIO_REGISTER_MODE_MISSING", "UFFDIO_REGISTER_MODE_WP", "UFFDIO_REGISTER_MODE_MINOR"),
    ),
    Table(
        name="UFFD_COPY_FLAGS",
        doc="struct uffdio_copy.mode.",
        headers=("linux/userfaultfd.h",),
        entries=("UFFDIO_COPY_MODE_DONTWAKE", "UFFDIO_COPY_MODE_WP"),
    ),
    Table(
        name="UFFD_ZEROPAGE_FLAGS",
        doc="struct uffdio_zeropage.mode.",
        headers=("linux/userfaultfd.h",),
        entries=("UFFDIO_ZEROPAGE_MODE_DONTWAKE",),
    ),
    Table(
        name="RTC_VL_FLAGS",
        doc="RTC_VL_READ's unsigned int (rtc.c).",
        headers=("linux/rtc.h",),
        entries=("RTC_VL_DATA_INVALID", "RTC_VL_BACKUP_LOW", "RTC_VL_BACKUP_EMPTY", "RTC_VL_ACCURACY_LOW",
                 "RTC_VL_BACKUP_SWITCH"),
    ),
    Table(
        name="RTC_PARAMS",
        doc="struct rtc_param.param.",
        headers=("linux/rtc.h",),
        entries=("RTC_PARAM_FEATURES", "RTC_PARAM_CORRECTION", "RTC_PARAM_BACKUP_SWITCH_MODE"),
        style="values",
    ),
    Table(
        name="RTC_FEATURES",
        doc="struct rtc_param.uvalue for RTC_PARAM_FEATURES: ``1<<RTC_FEATURE_ALARM|...``.",
        headers=("linux/rtc.h",),
        entries=(
            "1<<RTC_FEATURE_ALARM=1ULL << RTC_FEATURE_ALARM", "1<<RTC_FEATURE_ALARM_RES_MINUTE=1ULL << RTC_FEATURE_ALARM_RES_MINUTE",
            "1<<RTC_FEATURE_NEED_WEEK_DAY=1ULL << RTC_FEATURE_NEED_WEEK_DAY", "1<<RTC_FEATURE_ALARM_RES_2S=1ULL << RTC_FEATURE_ALARM_RES_2S",
            "1<<RTC_FEATURE_UPDATE_INTERRUPT=1ULL << RTC_FEATURE_UPDATE_INTERRUPT", "1<<RTC_FEATURE_CORRECTION=1ULL << RTC_FEATURE_CORRECTION",
            "1<<RTC_FEATURE_BACKUP_SWITCH_MODE=1ULL << RTC_FEATURE_BACKUP_SWITCH_MODE", "1<<RTC_FEATURE_ALARM_WAKEUP_ONLY=1ULL << RTC_FEATURE_ALARM_WAKEUP_ONLY",
        ),
    ),
    Table(
        name="RTC_BACKUP_SWITCH_MODES",
        doc="struct rtc_param.uvalue for RTC_PARAM_BACKUP_SWITCH_MODE.",
        headers=("linux/rtc.h",),
        entries=("RTC_BSM_DISABLED", "RTC_BSM_DIRECT", "RTC_BSM_LEVEL", "RTC_BSM_STANDBY"),
        style="values",
    ),
    Table(
        name="IOCTL_MISC_CODES",
        doc=(
            "ioctl(2) requests with a small scalar decoder in decode/ioctl.py (watchdog.c, inotify.c,\n"
            "kd.c's tone requests): name -> x86_64 code."
        ),
        headers=("linux/watchdog.h", "linux/inotify.h", "linux/kd.h", "linux/rtc.h"),
        entries=(
            "WDIOC_SETTIMEOUT", "WDIOC_SETPRETIMEOUT", "WDIOC_KEEPALIVE", "WDIOC_GETSUPPORT", "WDIOC_GETSTATUS",
            "WDIOC_GETBOOTSTATUS", "WDIOC_GETTEMP", "WDIOC_SETOPTIONS", "WDIOC_GETTIMEOUT",
            "WDIOC_GETPRETIMEOUT", "WDIOC_GETTIMELEFT",
            "INOTIFY_IOC_SETNEXTWD", "KIOCSOUND", "KDMKTONE",
            "RTC_AIE_ON", "RTC_AIE_OFF", "RTC_UIE_ON", "RTC_UIE_OFF", "RTC_PIE_ON", "RTC_PIE_OFF", "RTC_WIE_ON",
            "RTC_WIE_OFF", "RTC_VL_CLR", "RTC_IRQP_SET", "RTC_EPOCH_SET",
        ),
        style="flags",
        strace_xlat=False,
    ),
    Table(
        name="KVM_EXIT_REASON",
        doc=(
            "struct kvm_run.exit_reason, shown after KVM_RUN's result with -e kvm=vcpu (kvm.c's\n"
            "xlookup).  The other KVM_EXIT_* macros are sub-codes of other fields."
        ),
        headers=("linux/kvm.h",),
        pattern=r"KVM_EXIT_[A-Z0-9_]+",
        pattern_files=("linux/kvm.h",),
        exclude=frozenset({"KVM_EXIT_HYPERV_SYNIC", "KVM_EXIT_HYPERV_HCALL", "KVM_EXIT_HYPERV_SYNDBG",
                           "KVM_EXIT_XEN_HCALL", "KVM_EXIT_IO_IN", "KVM_EXIT_IO_OUT"}),
        kind="dict",
        style="values",
    ),
    Table(
        name="KVM_CPUID_FLAGS",
        doc="struct kvm_cpuid_entry2.flags (KVM_SET_CPUID2, KVM_GET_SUPPORTED_CPUID).",
        headers=("linux/kvm.h",),
        entries=("KVM_CPUID_FLAG_SIGNIFCANT_INDEX", "KVM_CPUID_FLAG_STATEFUL_FUNC", "KVM_CPUID_FLAG_STATE_READ_NEXT"),
    ),
    Table(
        name="LOOP_FLAGS_OPTIONS",
        doc="loop_info(64).lo_flags (LO_FLAGS_USE_AOPS left the headers; strace keeps it).",
        headers=("linux/loop.h",),
        entries=("LO_FLAGS_READ_ONLY", "LO_FLAGS_USE_AOPS", "LO_FLAGS_AUTOCLEAR", "LO_FLAGS_PARTSCAN",
                 "LO_FLAGS_DIRECT_IO"),
        fallbacks=(("LO_FLAGS_USE_AOPS", "2"),),
    ),
    Table(
        name="LOOP_CRYPT_TYPE_OPTIONS",
        doc="loop_info(64).lo_encrypt_type.",
        headers=("linux/loop.h",),
        entries=("LO_CRYPT_NONE", "LO_CRYPT_XOR", "LO_CRYPT_DES", "LO_CRYPT_FISH2", "LO_CRYPT_BLOW",
                 "LO_CRYPT_CAST128", "LO_CRYPT_IDEA", "LO_CRYPT_DUMMY", "LO_CRYPT_SKIPJACK", "LO_CRYPT_CRYPTOAPI"),
        style="values",
    ),
    Table(
        name="FS_XFLAGS",
        doc="struct fsxattr.fsx_xflags (FS_IOC_FSGETXATTR/FSSETXATTR).",
        headers=("linux/fs.h",),
        entries=("FS_XFLAG_REALTIME", "FS_XFLAG_PREALLOC", "FS_XFLAG_IMMUTABLE", "FS_XFLAG_APPEND",
                 "FS_XFLAG_SYNC", "FS_XFLAG_NOATIME", "FS_XFLAG_NODUMP", "FS_XFLAG_RTINHERIT",
                 "FS_XFLAG_PROJINHERIT", "FS_XFLAG_NOSYMLINKS", "FS_XFLAG_EXTSIZE", "FS_XFLAG_EXTSZINHERIT",
                 "FS_XFLAG_NODEFRAG", "FS_XFLAG_FILESTREAM", "FS_XFLAG_DAX", "FS_XFLAG_COWEXTSIZE",
                 "FS_XFLAG_HASATTR"),
    ),
    Table(
        name="FS_IOC_FLAGS",
        doc="FS_IOC_GETFLAGS/SETFLAGS inode flags, in strace's order (FS_INDEX_FL before its alias FS_BTREE_FL).",
        headers=("linux/fs.h",),
        entries=("FS_SECRM_FL", "FS_UNRM_FL", "FS_COMPR_FL", "FS_SYNC_FL", "FS_IMMUTABLE_FL", "FS_APPEND_FL",
                 "FS_NODUMP_FL", "FS_NOATIME_FL", "FS_DIRTY_FL", "FS_COMPRBLK_FL", "FS_NOCOMP_FL",
                 "FS_ENCRYPT_FL", "FS_INDEX_FL", "FS_IMAGIC_FL", "FS_JOURNAL_DATA_FL", "FS_NOTAIL_FL",
                 "FS_DIRSYNC_FL", "FS_TOPDIR_FL", "FS_HUGE_FILE_FL", "FS_EXTENT_FL", "FS_VERITY_FL",
                 "FS_EA_INODE_FL", "FS_EOFBLOCKS_FL", "FS_NOCOW_FL", "FS_DAX_FL", "FS_INLINE_DATA_FL",
                 "FS_PROJINHERIT_FL", "FS_CASEFOLD_FL", "FS_RESERVED_FL"),
    ),
    Table(
        name="FIEMAP_FLAGS",
        doc="struct fiemap.fm_flags (FS_IOC_FIEMAP).",
        headers=("linux/fiemap.h",),
        entries=("FIEMAP_FLAG_SYNC", "FIEMAP_FLAG_XATTR", "FIEMAP_FLAG_CACHE"),
    ),
    Table(
        name="FIEMAP_EXTENT_FLAGS",
        doc="struct fiemap_extent.fe_flags.",
        headers=("linux/fiemap.h",),
        entries=("FIEMAP_EXTENT_LAST", "FIEMAP_EXTENT_UNKNOWN", "FIEMAP_EXTENT_DELALLOC", "FIEMAP_EXTENT_ENCODED",
                 "FIEMAP_EXTENT_DATA_ENCRYPTED", "FIEMAP_EXTENT_NOT_ALIGNED", "FIEMAP_EXTENT_DATA_INLINE",
                 "FIEMAP_EXTENT_DATA_TAIL", "FIEMAP_EXTENT_UNWRITTEN", "FIEMAP_EXTENT_MERGED",
                 "FIEMAP_EXTENT_SHARED"),
    ),
    Table(
        name="BLKPG_OPS",
        doc="struct blkpg_ioctl_arg.op (BLKPG).",
        headers=("linux/blkpg.h",),
        entries=("BLKPG_ADD_PARTITION", "BLKPG_DEL_PARTITION", "BLKPG_RESIZE_PARTITION"),
        style="values",
    ),
    Table(
        name="KVM_MEM_FLAGS",
        doc="struct kvm_userspace_memory_region.flags (KVM_SET_USER_MEMORY_REGION).",
        headers=("linux/kvm.h",),
        entries=("KVM_MEM_LOG_DIRTY_PAGES", "KVM_MEM_READONLY"),
    ),
    Table(
        name="EVDEV_EV",
        doc="EVIOCGBIT(0, ...) bits: event types.",
        headers=("linux/input.h",),
        entries=(
            "EV_SYN", "EV_KEY", "EV_REL", "EV_ABS", "EV_MSC", "EV_SW", "EV_LED", "EV_SND", "EV_REP", "EV_FF",
            "EV_PWR", "EV_FF_STATUS",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_KEYCODE",
        doc="EVIOCGBIT(EV_KEY)/EVIOCGKEY bits and EVIOCGKEYCODE keys: KEY_*/BTN_* in value order.",
        headers=("linux/input.h",),
        entries=(
            "KEY_RESERVED", "KEY_ESC", "KEY_1", "KEY_2", "KEY_3", "KEY_4", "KEY_5", "KEY_6", "KEY_7", "KEY_8",
            "KEY_9", "KEY_0", "KEY_MINUS", "KEY_EQUAL", "KEY_BACKSPACE", "KEY_TAB", "KEY_Q", "KEY_W", "KEY_E",
            "KEY_R", "KEY_T", "KEY_Y", "KEY_U", "KEY_I", "KEY_O", "KEY_P", "KEY_LEFTBRACE", "KEY_RIGHTBRACE",
            "KEY_ENTER", "KEY_LEFTCTRL", "KEY_A", "KEY_S", "KEY_D", "KEY_F", "KEY_G", "KEY_H", "KEY_J", "KEY_K",
            "KEY_L", "KEY_SEMICOLON", "KEY_APOSTROPHE", "KEY_GRAVE", "KEY_LEFTSHIFT", "KEY_BACKSLASH", "KEY_Z",
            "KEY_X", "KEY_C", "KEY_V", "KEY_B", "KEY_N", "KEY_M", "KEY_COMMA", "KEY_DOT", "KEY_SLASH",
            "KEY_RIGHTSHIFT", "KEY_KPASTERISK", "KEY_LEFTALT", "KEY_SPACE", "KEY_CAPSLOCK", "KEY_F1", "KEY_F2",
            "KEY_F3", "KEY_F4", "KEY_F5", "KEY_F6", "KEY_F7", "KEY_F8", "KEY_F9", "KEY_F10", "KEY_NUMLOCK",
            "KEY_SCROLLLOCK", "KEY_KP7", "KEY_KP8", "KEY_KP9", "KEY_KPMINUS", "KEY_KP4", "KEY_KP5", "KEY_KP6",
            "KEY_KPPLUS", "KEY_KP1", "KEY_KP2", "KEY_KP3", "KEY_KP0", "KEY_KPDOT", "KEY_ZENKAKUHANKAKU",
            "KEY_102ND", "KEY_F11", "KEY_F12", "KEY_RO", "KEY_KATAKANA", "KEY_HIRAGANA", "KEY_HENKAN",
            "KEY_KATAKANAHIRAGANA", "KEY_MUHENKAN", "KEY_KPJPCOMMA", "KEY_KPENTER", "KEY_RIGHTCTRL",
            "KEY_KPSLASH", "KEY_SYSRQ", "KEY_RIGHTALT", "KEY_LINEFEED", "KEY_HOME", "KEY_UP", "KEY_PAGEUP",
            "KEY_LEFT", "KEY_RIGHT", "KEY_END", "KEY_DOWN", "KEY_PAGEDOWN", "KEY_INSERT", "KEY_DELETE",
            "KEY_MACRO", "KEY_MUTE", "KEY_VOLUMEDOWN", "KEY_VOLUMEUP", "KEY_POWER", "KEY_KPEQUAL",
            "KEY_KPPLUSMINUS", "KEY_PAUSE", "KEY_SCALE", "KEY_KPCOMMA", "KEY_HANGEUL", "KEY_HANJA", "KEY_YEN",
            "KEY_LEFTMETA", "KEY_RIGHTMETA", "KEY_COMPOSE", "KEY_STOP", "KEY_AGAIN", "KEY_PROPS", "KEY_UNDO",
            "KEY_FRONT", "KEY_COPY", "KEY_OPEN", "KEY_PASTE", "KEY_FIND", "KEY_CUT", "KEY_HELP", "KEY_MENU",
            "KEY_CALC", "KEY_SETUP", "KEY_SLEEP", "KEY_WAKEUP", "KEY_FILE", "KEY_SENDFILE", "KEY_DELETEFILE",
            "KEY_XFER", "KEY_PROG1", "KEY_PROG2", "KEY_WWW", "KEY_MSDOS", "KEY_COFFEE", "KEY_ROTATE_DISPLAY",
            "KEY_CYCLEWINDOWS", "KEY_MAIL", "KEY_BOOKMARKS", "KEY_COMPUTER", "KEY_BACK", "KEY_FORWARD",
            "KEY_CLOSECD", "KEY_EJECTCD", "KEY_EJECTCLOSECD", "KEY_NEXTSONG", "KEY_PLAYPAUSE",
            "KEY_PREVIOUSSONG", "KEY_STOPCD", "KEY_RECORD", "KEY_REWIND", "KEY_PHONE", "KEY_ISO", "KEY_CONFIG",
            "KEY_HOMEPAGE", "KEY_REFRESH", "KEY_EXIT", "KEY_MOVE", "KEY_EDIT", "KEY_SCROLLUP", "KEY_SCROLLDOWN",
            "KEY_KPLEFTPAREN", "KEY_KPRIGHTPAREN", "KEY_NEW", "KEY_REDO", "KEY_F13", "KEY_F14", "KEY_F15",
            "KEY_F16", "KEY_F17", "KEY_F18", "KEY_F19", "KEY_F20", "KEY_F21", "KEY_F22", "KEY_F23", "KEY_F24",
            "KEY_PLAYCD", "KEY_PAUSECD", "KEY_PROG3", "KEY_PROG4", "KEY_ALL_APPLICATIONS", "KEY_SUSPEND",
            "KEY_CLOSE", "KEY_PLAY", "KEY_FASTFORWARD", "KEY_BASSBOOST", "KEY_PRINT", "KEY_HP", "KEY_CAMERA",
            "KEY_SOUND", "KEY_QUESTION", "KEY_EMAIL", "KEY_CHAT", "KEY_SEARCH", "KEY_CONNECT", "KEY_FINANCE",
            "KEY_SPORT", "KEY_SHOP", "KEY_ALTERASE", "KEY_CANCEL", "KEY_BRIGHTNESSDOWN", "KEY_BRIGHTNESSUP",
            "KEY_MEDIA", "KEY_SWITCHVIDEOMODE", "KEY_KBDILLUMTOGGLE", "KEY_KBDILLUMDOWN", "KEY_KBDILLUMUP",
            "KEY_SEND", "KEY_REPLY", "KEY_FORWARDMAIL", "KEY_SAVE", "KEY_DOCUMENTS", "KEY_BATTERY",
            "KEY_BLUETOOTH", "KEY_WLAN", "KEY_UWB", "KEY_UNKNOWN", "KEY_VIDEO_NEXT", "KEY_VIDEO_PREV",
            "KEY_BRIGHTNESS_CYCLE", "KEY_BRIGHTNESS_AUTO", "KEY_DISPLAY_OFF", "KEY_WWAN", "KEY_RFKILL",
            "KEY_MICMUTE", "BTN_0", "BTN_1", "BTN_2", "BTN_3", "BTN_4", "BTN_5", "BTN_6", "BTN_7", "BTN_8",
            "BTN_9", "BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE", "BTN_SIDE", "BTN_EXTRA", "BTN_FORWARD", "BTN_BACK",
            "BTN_TASK", "BTN_TRIGGER", "BTN_THUMB", "BTN_THUMB2", "BTN_TOP", "BTN_TOP2", "BTN_PINKIE",
            "BTN_BASE", "BTN_BASE2", "BTN_BASE3", "BTN_BASE4", "BTN_BASE5", "BTN_BASE6", "BTN_DEAD",
            "BTN_SOUTH", "BTN_EAST", "BTN_C", "BTN_NORTH", "BTN_WEST", "BTN_Z", "BTN_TL", "BTN_TR", "BTN_TL2",
            "BTN_TR2", "BTN_SELECT", "BTN_START", "BTN_MODE", "BTN_THUMBL", "BTN_THUMBR", "BTN_TOOL_PEN",
            "BTN_TOOL_RUBBER", "BTN_TOOL_BRUSH", "BTN_TOOL_PENCIL", "BTN_TOOL_AIRBRUSH", "BTN_TOOL_FINGER",
            "BTN_TOOL_MOUSE", "BTN_TOOL_LENS", "BTN_TOOL_QUINTTAP", "BTN_STYLUS3", "BTN_TOUCH", "BTN_STYLUS",
            "BTN_STYLUS2", "BTN_TOOL_DOUBLETAP", "BTN_TOOL_TRIPLETAP", "BTN_TOOL_QUADTAP", "BTN_GEAR_DOWN",
            "BTN_GEAR_UP", "KEY_OK", "KEY_SELECT", "KEY_GOTO", "KEY_CLEAR", "KEY_POWER2", "KEY_OPTION",
            "KEY_INFO", "KEY_TIME", "KEY_VENDOR", "KEY_ARCHIVE", "KEY_PROGRAM", "KEY_CHANNEL", "KEY_FAVORITES",
            "KEY_EPG", "KEY_PVR", "KEY_MHP", "KEY_LANGUAGE", "KEY_TITLE", "KEY_SUBTITLE", "KEY_ANGLE",
            "KEY_ZOOM", "KEY_MODE", "KEY_KEYBOARD", "KEY_SCREEN", "KEY_PC", "KEY_TV", "KEY_TV2", "KEY_VCR",
            "KEY_VCR2", "KEY_SAT", "KEY_SAT2", "KEY_CD", "KEY_TAPE", "KEY_RADIO", "KEY_TUNER", "KEY_PLAYER",
            "KEY_TEXT", "KEY_DVD", "KEY_AUX", "KEY_MP3", "KEY_AUDIO", "KEY_VIDEO", "KEY_DIRECTORY", "KEY_LIST",
            "KEY_MEMO", "KEY_CALENDAR", "KEY_RED", "KEY_GREEN", "KEY_YELLOW", "KEY_BLUE", "KEY_CHANNELUP",
            "KEY_CHANNELDOWN", "KEY_FIRST", "KEY_LAST", "KEY_AB", "KEY_NEXT", "KEY_RESTART", "KEY_SLOW",
            "KEY_SHUFFLE", "KEY_BREAK", "KEY_PREVIOUS", "KEY_DIGITS", "KEY_TEEN", "KEY_TWEN", "KEY_VIDEOPHONE",
            "KEY_GAMES", "KEY_ZOOMIN", "KEY_ZOOMOUT", "KEY_ZOOMRESET", "KEY_WORDPROCESSOR", "KEY_EDITOR",
            "KEY_SPREADSHEET", "KEY_GRAPHICSEDITOR", "KEY_PRESENTATION", "KEY_DATABASE", "KEY_NEWS",
            "KEY_VOICEMAIL", "KEY_ADDRESSBOOK", "KEY_MESSENGER", "KEY_DISPLAYTOGGLE", "KEY_SPELLCHECK",
            "KEY_LOGOFF", "KEY_DOLLAR", "KEY_EURO", "KEY_FRAMEBACK", "KEY_FRAMEFORWARD", "KEY_CONTEXT_MENU",
            "KEY_MEDIA_REPEAT", "KEY_10CHANNELSUP", "KEY_10CHANNELSDOWN", "KEY_IMAGES",
            "KEY_NOTIFICATION_CENTER", "KEY_PICKUP_PHONE", "KEY_HANGUP_PHONE", "KEY_DEL_EOL", "KEY_DEL_EOS",
            "KEY_INS_LINE", "KEY_DEL_LINE", "KEY_FN", "KEY_FN_ESC", "KEY_FN_F1", "KEY_FN_F2", "KEY_FN_F3",
            "KEY_FN_F4", "KEY_FN_F5", "KEY_FN_F6", "KEY_FN_F7", "KEY_FN_F8", "KEY_FN_F9", "KEY_FN_F10",
            "KEY_FN_F11", "KEY_FN_F12", "KEY_FN_1", "KEY_FN_2", "KEY_FN_D", "KEY_FN_E", "KEY_FN_F", "KEY_FN_S",
            "KEY_FN_B", "KEY_FN_RIGHT_SHIFT", "KEY_BRL_DOT1", "KEY_BRL_DOT2", "KEY_BRL_DOT3", "KEY_BRL_DOT4",
            "KEY_BRL_DOT5", "KEY_BRL_DOT6", "KEY_BRL_DOT7", "KEY_BRL_DOT8", "KEY_BRL_DOT9", "KEY_BRL_DOT10",
            "KEY_NUMERIC_0", "KEY_NUMERIC_1", "KEY_NUMERIC_2", "KEY_NUMERIC_3", "KEY_NUMERIC_4",
            "KEY_NUMERIC_5", "KEY_NUMERIC_6", "KEY_NUMERIC_7", "KEY_NUMERIC_8", "KEY_NUMERIC_9",
            "KEY_NUMERIC_STAR", "KEY_NUMERIC_POUND", "KEY_NUMERIC_A", "KEY_NUMERIC_B", "KEY_NUMERIC_C",
            "KEY_NUMERIC_D", "KEY_CAMERA_FOCUS", "KEY_WPS_BUTTON", "KEY_TOUCHPAD_TOGGLE", "KEY_TOUCHPAD_ON",
            "KEY_TOUCHPAD_OFF", "KEY_CAMERA_ZOOMIN", "KEY_CAMERA_ZOOMOUT", "KEY_CAMERA_UP", "KEY_CAMERA_DOWN",
            "KEY_CAMERA_LEFT", "KEY_CAMERA_RIGHT", "KEY_ATTENDANT_ON", "KEY_ATTENDANT_OFF",
            "KEY_ATTENDANT_TOGGLE", "KEY_LIGHTS_TOGGLE", "BTN_DPAD_UP", "BTN_DPAD_DOWN", "BTN_DPAD_LEFT",
            "BTN_DPAD_RIGHT", "KEY_ALS_TOGGLE", "KEY_ROTATE_LOCK_TOGGLE", "KEY_BUTTONCONFIG", "KEY_TASKMANAGER",
            "KEY_JOURNAL", "KEY_CONTROLPANEL", "KEY_APPSELECT", "KEY_SCREENSAVER", "KEY_VOICECOMMAND",
            "KEY_ASSISTANT", "KEY_KBD_LAYOUT_NEXT", "KEY_EMOJI_PICKER", "KEY_DICTATE", "KEY_BRIGHTNESS_MIN",
            "KEY_BRIGHTNESS_MAX", "KEY_KBDINPUTASSIST_PREV", "KEY_KBDINPUTASSIST_NEXT",
            "KEY_KBDINPUTASSIST_PREVGROUP", "KEY_KBDINPUTASSIST_NEXTGROUP", "KEY_KBDINPUTASSIST_ACCEPT",
            "KEY_KBDINPUTASSIST_CANCEL", "KEY_RIGHT_UP", "KEY_RIGHT_DOWN", "KEY_LEFT_UP", "KEY_LEFT_DOWN",
            "KEY_ROOT_MENU", "KEY_MEDIA_TOP_MENU", "KEY_NUMERIC_11", "KEY_NUMERIC_12", "KEY_AUDIO_DESC",
            "KEY_3D_MODE", "KEY_NEXT_FAVORITE", "KEY_STOP_RECORD", "KEY_PAUSE_RECORD", "KEY_VOD", "KEY_UNMUTE",
            "KEY_FASTREVERSE", "KEY_SLOWREVERSE", "KEY_DATA", "KEY_ONSCREEN_KEYBOARD",
            "KEY_PRIVACY_SCREEN_TOGGLE", "KEY_SELECTIVE_SCREENSHOT", "KEY_NEXT_ELEMENT", "KEY_PREVIOUS_ELEMENT",
            "KEY_AUTOPILOT_ENGAGE_TOGGLE", "KEY_MARK_WAYPOINT", "KEY_SOS", "KEY_NAV_CHART", "KEY_FISHING_CHART",
            "KEY_SINGLE_RANGE_RADAR", "KEY_DUAL_RANGE_RADAR", "KEY_RADAR_OVERLAY", "KEY_TRADITIONAL_SONAR",
            "KEY_CLEARVU_SONAR", "KEY_SIDEVU_SONAR", "KEY_NAV_INFO", "KEY_BRIGHTNESS_MENU", "KEY_MACRO1",
            "KEY_MACRO2", "KEY_MACRO3", "KEY_MACRO4", "KEY_MACRO5", "KEY_MACRO6", "KEY_MACRO7", "KEY_MACRO8",
            "KEY_MACRO9", "KEY_MACRO10", "KEY_MACRO11", "KEY_MACRO12", "KEY_MACRO13", "KEY_MACRO14",
            "KEY_MACRO15", "KEY_MACRO16", "KEY_MACRO17", "KEY_MACRO18", "KEY_MACRO19", "KEY_MACRO20",
            "KEY_MACRO21", "KEY_MACRO22", "KEY_MACRO23", "KEY_MACRO24", "KEY_MACRO25", "KEY_MACRO26",
            "KEY_MACRO27", "KEY_MACRO28", "KEY_MACRO29", "KEY_MACRO30", "KEY_MACRO_RECORD_START",
            "KEY_MACRO_RECORD_STOP", "KEY_MACRO_PRESET_CYCLE", "KEY_MACRO_PRESET1", "KEY_MACRO_PRESET2",
            "KEY_MACRO_PRESET3", "KEY_KBD_LCD_MENU1", "KEY_KBD_LCD_MENU2", "KEY_KBD_LCD_MENU3",
            "KEY_KBD_LCD_MENU4", "KEY_KBD_LCD_MENU5", "BTN_TRIGGER_HAPPY1", "BTN_TRIGGER_HAPPY2",
            "BTN_TRIGGER_HAPPY3", "BTN_TRIGGER_HAPPY4", "BTN_TRIGGER_HAPPY5", "BTN_TRIGGER_HAPPY6",
            "BTN_TRIGGER_HAPPY7", "BTN_TRIGGER_HAPPY8", "BTN_TRIGGER_HAPPY9", "BTN_TRIGGER_HAPPY10",
            "BTN_TRIGGER_HAPPY11", "BTN_TRIGGER_HAPPY12", "BTN_TRIGGER_HAPPY13", "BTN_TRIGGER_HAPPY14",
            "BTN_TRIGGER_HAPPY15", "BTN_TRIGGER_HAPPY16", "BTN_TRIGGER_HAPPY17", "BTN_TRIGGER_HAPPY18",
            "BTN_TRIGGER_HAPPY19", "BTN_TRIGGER_HAPPY20", "BTN_TRIGGER_HAPPY21", "BTN_TRIGGER_HAPPY22",
            "BTN_TRIGGER_HAPPY23", "BTN_TRIGGER_HAPPY24", "BTN_TRIGGER_HAPPY25", "BTN_TRIGGER_HAPPY26",
            "BTN_TRIGGER_HAPPY27", "BTN_TRIGGER_HAPPY28", "BTN_TRIGGER_HAPPY29", "BTN_TRIGGER_HAPPY30",
            "BTN_TRIGGER_HAPPY31", "BTN_TRIGGER_HAPPY32", "BTN_TRIGGER_HAPPY33", "BTN_TRIGGER_HAPPY34",
            "BTN_TRIGGER_HAPPY35", "BTN_TRIGGER_HAPPY36", "BTN_TRIGGER_HAPPY37", "BTN_TRIGGER_HAPPY38",
            "BTN_TRIGGER_HAPPY39", "BTN_TRIGGER_HAPPY40",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_RELATIVE_AXES",
        doc="EVIOCGBIT(EV_REL) bits.",
        headers=("linux/input.h",),
        entries=(
            "REL_X", "REL_Y", "REL_Z", "REL_RX", "REL_RY", "REL_RZ", "REL_HWHEEL", "REL_DIAL", "REL_WHEEL",
            "REL_MISC", "REL_RESERVED", "REL_WHEEL_HI_RES", "REL_HWHEEL_HI_RES",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_ABS",
        doc="EVIOCGBIT(EV_ABS) bits.",
        headers=("linux/input.h",),
        entries=(
            "ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ", "ABS_THROTTLE", "ABS_RUDDER", "ABS_WHEEL",
            "ABS_GAS", "ABS_BRAKE", "ABS_HAT0X", "ABS_HAT0Y", "ABS_HAT1X", "ABS_HAT1Y", "ABS_HAT2X",
            "ABS_HAT2Y", "ABS_HAT3X", "ABS_HAT3Y", "ABS_PRESSURE", "ABS_DISTANCE", "ABS_TILT_X", "ABS_TILT_Y",
            "ABS_TOOL_WIDTH", "ABS_VOLUME", "ABS_PROFILE", "ABS_MISC", "ABS_RESERVED", "ABS_MT_SLOT",
            "ABS_MT_TOUCH_MAJOR", "ABS_MT_TOUCH_MINOR", "ABS_MT_WIDTH_MAJOR", "ABS_MT_WIDTH_MINOR",
            "ABS_MT_ORIENTATION", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y", "ABS_MT_TOOL_TYPE",
            "ABS_MT_BLOB_ID", "ABS_MT_TRACKING_ID", "ABS_MT_PRESSURE", "ABS_MT_DISTANCE", "ABS_MT_TOOL_X",
            "ABS_MT_TOOL_Y",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_MISC",
        doc="EVIOCGBIT(EV_MSC) bits.",
        headers=("linux/input.h",),
        entries=(
            "MSC_SERIAL", "MSC_PULSELED", "MSC_GESTURE", "MSC_RAW", "MSC_SCAN", "MSC_TIMESTAMP",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_SWITCH",
        doc="EVIOCGBIT(EV_SW)/EVIOCGSW bits.",
        headers=("linux/input.h",),
        entries=(
            "SW_LID", "SW_TABLET_MODE", "SW_HEADPHONE_INSERT", "SW_RFKILL_ALL", "SW_MICROPHONE_INSERT",
            "SW_DOCK", "SW_LINEOUT_INSERT", "SW_JACK_PHYSICAL_INSERT", "SW_VIDEOOUT_INSERT",
            "SW_CAMERA_LENS_COVER", "SW_KEYPAD_SLIDE", "SW_FRONT_PROXIMITY", "SW_ROTATE_LOCK",
            "SW_LINEIN_INSERT", "SW_MUTE_DEVICE", "SW_PEN_INSERTED",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_LEDS",
        doc="EVIOCGBIT(EV_LED)/EVIOCGLED bits.",
        headers=("linux/input.h",),
        entries=(
            "LED_NUML", "LED_CAPSL", "LED_SCROLLL", "LED_COMPOSE", "LED_KANA", "LED_SLEEP", "LED_SUSPEND",
            "LED_MUTE", "LED_MISC", "LED_MAIL", "LED_CHARGING",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_SND",
        doc="EVIOCGBIT(EV_SND)/EVIOCGSND bits.",
        headers=("linux/input.h",),
        entries=(
            "SND_CLICK", "SND_BELL", "SND_TONE",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_AUTOREPEAT",
        doc="EVIOCGBIT(EV_REP) bits.",
        headers=("linux/input.h",),
        entries=(
            "REP_DELAY", "REP_PERIOD",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_FF_TYPES",
        doc="EVIOCGBIT(EV_FF) bits.",
        headers=("linux/input.h",),
        entries=(
            "FF_RUMBLE", "FF_PERIODIC", "FF_CONSTANT", "FF_SPRING", "FF_FRICTION", "FF_DAMPER", "FF_INERTIA",
            "FF_RAMP", "FF_SQUARE", "FF_TRIANGLE", "FF_SINE", "FF_SAW_UP", "FF_SAW_DOWN", "FF_CUSTOM",
            "FF_GAIN", "FF_AUTOCENTER",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_FF_STATUS",
        doc="EVIOCGBIT(EV_FF_STATUS) bits.",
        headers=("linux/input.h",),
        entries=(
            "FF_STATUS_STOPPED", "FF_STATUS_PLAYING",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_PROP",
        doc="EVIOCGPROP bits.",
        headers=("linux/input.h",),
        entries=(
            "INPUT_PROP_POINTER", "INPUT_PROP_DIRECT", "INPUT_PROP_BUTTONPAD", "INPUT_PROP_SEMI_MT",
            "INPUT_PROP_TOPBUTTONPAD", "INPUT_PROP_POINTING_STICK", "INPUT_PROP_ACCELEROMETER",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_MTSLOTS",
        doc="EVIOCGMTSLOTS code.",
        headers=("linux/input.h",),
        entries=(
            "ABS_MT_SLOT", "ABS_MT_TOUCH_MAJOR", "ABS_MT_TOUCH_MINOR", "ABS_MT_WIDTH_MAJOR",
            "ABS_MT_WIDTH_MINOR", "ABS_MT_ORIENTATION", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y",
            "ABS_MT_TOOL_TYPE", "ABS_MT_BLOB_ID", "ABS_MT_TRACKING_ID", "ABS_MT_PRESSURE", "ABS_MT_DISTANCE",
            "ABS_MT_TOOL_X", "ABS_MT_TOOL_Y",
        ),
        style="values",
    ),
    Table(
        name="EVDEV_LIMITS",
        doc="The highest number of each evdev bit set (helper: how many bits EVIOCGBIT & co. may print).",
        headers=("linux/input.h",),
        entries=("EV_MAX", "KEY_MAX", "REL_MAX", "ABS_MAX", "MSC_MAX", "SW_MAX", "LED_MAX", "SND_MAX", "REP_MAX",
                 "FF_MAX", "FF_STATUS_MAX", "INPUT_PROP_MAX"),
        style="values",
        strace_xlat=False,
    ),
]

# fmt: on

TABLES: list[Table] = (
    FILES + MEMORY + PROCESS + SIGNALS + POLLING + SOCKETS + IPC + TERMINAL + IOCTLS + BREADTH + NETLINK + ERRNO
    + IOCTL_STRUCTS
)
