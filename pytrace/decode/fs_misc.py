"""File-system calls beyond open/stat/read: data movement (sendfile, splice, copy_file_range),
space management, ownership and times, device nodes, handles, mounts (old and new API) and the
notification descriptors (inotify, fanotify, eventfd, signalfd), as strace 6.1 prints them
(``sendfile.c``, ``splice.c``, ``fallocate.c``, ``utimes.c``, ``mknod.c``, ``open.c``,
``file_handle.c``, ``mount.c``, ``fsmount.c``, ``inotify.c``, ``fanotify.c``, ``eventfd.c``,
``signalfd.c``, ``dirent.c``, ``quota.c``, ``swapon.c``).

Every structure goes through ``format.umove`` / ``format.fetch``: NULL, an
output of a failed call and unreadable memory print the pointer.
"""

from __future__ import annotations

import struct
import time
from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.file import ll_mode, open_flags, open_flags64
from pytrace.decode.format import (
    MASK64,
    OPTS,
    addr,
    cstring,
    cstring_n,
    dirfd,
    fd,
    fetch,
    flags,
    nonzero_bytes,
    path,
    print_xlat,
    quote,
    signed,
    sprintflags,
    string_at,
    umove,
    xval,
)
from pytrace.decode.process import uid
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.sched import iov_addrs
from pytrace.decode.signal import sigset_at
from pytrace.decode.stat import makedev, sprinttime_nsec, symbolic_mode
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_I64 = struct.Struct("<q")


def hx(value: int) -> str:
    """C's ``%#x``: zero is a bare ``0``."""
    return f"{value:#x}" if value else "0"


def num64(c: Call, address: int, ignore_error: bool = True) -> str:
    """printnum_int64: ``[N]`` (a loff_t the kernel reads or updates), or the pointer."""
    return umove(c, address, _I64, lambda v: f"[{v}]", ignore_error)


# ---------------------------------------------------------------- data movement


#: sendfile's off_t: 32-bit in an i386 tracee (decode/i386.py), whose sendfile64 has this loff_t.
#: Unsigned, as strace prints it with printnum_ulong (a negative offset shows as 2**64 - n).
_OFF_T = struct.Struct("<Q")


@syscall("sendfile")
def sendfile(c: Call) -> Generator[str, None, None]:
    """The offset is printed at entry and, when the call moved data, ``=> [new]`` at exit."""
    head = f"{fd(c, c.args[0])}, {fd(c, c.args[1])}, "
    off = c.args[2]
    data = fetch(c, off, _OFF_T.size, True)
    if data is None:
        yield f"{head}{addr(off)}, {c.args[3]}"
        yield ""
        return
    yield f"{head}[{_OFF_T.unpack(data)[0]}]"
    changed = ""
    if not c.failed and c.rval:
        changed = f" => {umove(c, off, _OFF_T, lambda v: f'[{v}]', True)}"
    yield f"{changed}, {c.args[3]}"


@syscall("copy_file_range")
def copy_file_range(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {num64(c, a[1])}, {fd(c, a[2])}, {num64(c, a[3])}, {a[4]}, "
            f"{a[5] & _U32}")


def splice_flags(value: int) -> str:
    return flags(value & _U32, X.SPLICE_FLAGS, "SPLICE_F_???")


@syscall("splice")
def splice(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {num64(c, a[1])}, {fd(c, a[2])}, {num64(c, a[3])}, {a[4]}, "
            f"{splice_flags(a[5])}")


@syscall("tee")
def tee(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {fd(c, a[1])}, {a[2]}, {splice_flags(a[3])}"


@syscall("vmsplice")
def vmsplice(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {iovec_array(c, a[1], a[2], None)}, {a[2]}, {splice_flags(a[3])}"


def rwf_flags(value: int) -> str:
    return flags(value & _U32, X.AIO_RW_FLAGS, "RWF_???")


@syscall("preadv2")
def preadv2(c: Call) -> Generator[str, None, None]:
    """x86_64 passes (fd, iov, iovcnt, pos_l, pos_h, flags); strace prints the offset once."""
    a = c.args
    yield f"{fd(c, a[0])}, "
    vec = iov_addrs(c, a[1], a[2]) if c.failed else iovec_array(c, a[1], a[2], c.rval)
    yield f"{vec}, {a[2]}, {signed(a[3], 64)}, {rwf_flags(a[5])}"


@syscall("pwritev2")
def pwritev2(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {iovec_array(c, a[1], a[2], None)}, {a[2]}, {signed(a[3], 64)}, {rwf_flags(a[5])}"


# ---------------------------------------------------------------- space, sync


@syscall("fallocate")
def fallocate(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {flags(a[1] & _U32, X.FALLOC_FLAGS, 'FALLOC_FL_???')}, "
            f"{signed(a[2], 64)}, {signed(a[3], 64)}")


@syscall("sync_file_range")
def sync_file_range(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {signed(a[1], 64)}, {signed(a[2], 64)}, "
            f"{flags(a[3] & _U32, X.SYNC_FILE_RANGE_FLAGS, 'SYNC_FILE_RANGE_???')}")


@syscall("readahead")
def readahead(c: Call) -> str:
    return f"{fd(c, c.args[0])}, {signed(c.args[1], 64)}, {c.args[2]}"


# ---------------------------------------------------------------- ownership


@syscall("chown", "lchown")
def chown(c: Call) -> str:
    return f"{path(c, c.args[0])}, {uid(c.args[1])}, {uid(c.args[2])}"


@syscall("fchown")
def fchown(c: Call) -> str:
    return f"{fd(c, c.args[0])}, {uid(c.args[1])}, {uid(c.args[2])}"


@syscall("fchownat")
def fchownat(c: Call) -> str:
    a = c.args
    return (f"{dirfd(c, a[0])}, {path(c, a[1])}, {uid(a[2])}, {uid(a[3])}, "
            f"{flags(a[4] & _U32, X.AT_FLAGS, 'AT_???')}")


# ---------------------------------------------------------------- times


def _sprinttime(sec: int, frac: str = "") -> str:
    """`` /* 2001-09-09T01:46:40[.frac]+0000 */`` (strace's sprinttime_ex), or "" when out of range.

    Like sprinttime_ex, nothing for the epoch itself (``actime=0``).
    """
    if sec == 0 and not frac:
        return ""
    try:
        tm = time.localtime(sec)
    except (OverflowError, OSError, ValueError):
        return ""
    return f" /* {time.strftime('%Y-%m-%dT%H:%M:%S', tm)}{frac}{time.strftime('%z', tm)} */"


def _timeval_utime(sec: int, usec: int) -> str:
    """print_timeval_utimes element: ``{tv_sec=S, tv_usec=U} /* date */``."""
    comment = ""
    if not (sec == 0 and usec == 0) and 0 <= usec <= 999_999:
        comment = _sprinttime(sec, f".{usec:06d}" if usec else "")
    return f"{{tv_sec={sec}, tv_usec={usec}}}{comment}"


_UTIME_NOW = (1 << 30) - 1
_UTIME_OMIT = (1 << 30) - 2


def utime_special(sec: int, nsec: int, name: str) -> str:
    """UTIME_NOW / UTIME_OMIT in a utimensat pair (-X shows the timespec: decode.styles)."""
    return name


def _timespec_utime(sec: int, nsec: int) -> str:
    """print_timespec_t_utime: UTIME_NOW / UTIME_OMIT by name, else the time with its date."""
    if nsec in (_UTIME_NOW, _UTIME_OMIT):
        return utime_special(sec, nsec, "UTIME_NOW" if nsec == _UTIME_NOW else "UTIME_OMIT")
    return f"{{tv_sec={sec}, tv_nsec={nsec}}}{sprinttime_nsec(sec, nsec)}"


_PAIR2 = struct.Struct("<qQqQ")  # two timevals/timespecs; tv_usec/tv_nsec unsigned (time._PAIR)
#: struct utimbuf: two time_t (decode/i386.py swaps in 32-bit ones).
_UTIMBUF = struct.Struct("<2q")


@syscall("utime")
def utime(c: Call) -> str:
    def show(actime: int, modtime: int) -> str:
        return f"{{actime={actime}{_sprinttime(actime)}, modtime={modtime}{_sprinttime(modtime)}}}"

    return f"{path(c, c.args[0])}, {umove(c, c.args[1], _UTIMBUF, show)}"


def _utimes(c: Call, address: int) -> str:
    return umove(c, address, _PAIR2,
                 lambda s0, u0, s1, u1: f"[{_timeval_utime(s0, u0)}, {_timeval_utime(s1, u1)}]")


@syscall("utimes")
def utimes(c: Call) -> str:
    return f"{path(c, c.args[0])}, {_utimes(c, c.args[1])}"


@syscall("futimesat")
def futimesat(c: Call) -> str:
    return f"{dirfd(c, c.args[0])}, {path(c, c.args[1])}, {_utimes(c, c.args[2])}"


@syscall("utimensat")
def utimensat(c: Call) -> str:
    a = c.args
    times = umove(c, a[2], _PAIR2,
                  lambda s0, n0, s1, n1: f"[{_timespec_utime(s0, n0)}, {_timespec_utime(s1, n1)}]")
    return f"{dirfd(c, a[0])}, {path(c, a[1])}, {times}, {flags(a[3] & _U32, X.AT_FLAGS, 'AT_???')}"


# ---------------------------------------------------------------- device nodes

_S_IFMT, _S_IFCHR, _S_IFBLK = 0o170000, 0o020000, 0o060000


def _mknod_tail(mode_arg: int, dev: int) -> str:
    """decode_mknod: the mode is an unsigned short; the device only for character and block nodes."""
    m = mode_arg & 0xFFFF
    text = symbolic_mode(m)
    if m & _S_IFMT in (_S_IFCHR, _S_IFBLK):
        text += f", {makedev(dev & _U32)}"
    return text


@syscall("mknod")
def mknod(c: Call) -> str:
    return f"{path(c, c.args[0])}, {_mknod_tail(c.args[1], c.args[2])}"


@syscall("mknodat")
def mknodat(c: Call) -> str:
    return f"{dirfd(c, c.args[0])}, {path(c, c.args[1])}, {_mknod_tail(c.args[2], c.args[3])}"


# ---------------------------------------------------------------- old getdents

_DIRENT_HEAD = struct.Struct("<QqH")  # d_ino, d_off, d_reclen; d_name, then d_type in the record's last byte
_D_NAME_LEN_MAX = 256


def _old_dirents(c: Call, address: int, length: int) -> str:
    """xgetdents over struct linux_dirent: ``/* N entries */`` by default, the array with -v."""
    head = _DIRENT_HEAD.size
    verbose = OPTS.verbose
    out: list[str] = []
    count = 0
    cur = address
    while length >= head:
        raw = c.mem.read(cur, head)
        if raw is None:
            if verbose:
                out.append(f"... /* {addr(cur)} */" if count else addr(cur))
            break
        count += 1
        ino, off, reclen = _DIRENT_HEAD.unpack(raw)
        comment = ""
        step = reclen
        if reclen > length:
            comment = f" /* {'d_reclen ' if not verbose else ''}{reclen - length} bytes overflow */"
            reclen = step = length
        elif reclen < head:
            comment = f" /* {'d_reclen ' if not verbose else ''}{head - reclen} bytes underflow */"
            reclen = step = head
        if verbose:
            entry = f"{{d_ino={ino}, d_off={off & 0xFFFFFFFFFFFFFFFF}, d_reclen={reclen}{comment}"
            name_type = reclen - head
            if name_type:
                if name_type - 1:
                    got = c.mem.read_cstring(cur + head, min(name_type - 1, _D_NAME_LEN_MAX))
                    entry += f", d_name={addr(cur + head) if got is None else quote(got[0])}"
                dtype = c.mem.read(cur + reclen - 1, 1)
                entry += ", d_type=" + (addr(cur + reclen - 1) if dtype is None
                                         else xval(dtype[0], X.DIRENT_TYPES, "DT_???"))
            out.append(entry + "}")
        elif comment:
            out.append(comment)
        length -= step
        if not length:
            break
        cur += step
    if not verbose:
        return addr(address) + "".join(out) + f" /* {count}{'+' if length >= head else ''} entries */"
    return "[" + ", ".join(out) + "]"


@syscall("getdents")
def getdents(c: Call) -> Generator[str, None, None]:
    yield fd(c, c.args[0])
    count = c.args[2] & _U32
    if c.failed or (c.rval & 0xFFFFFFFFFFFFFFFF) > count:
        buf = addr(c.args[1])
    else:
        buf = _old_dirents(c, c.args[1], c.rval)
    yield f", {buf}, {count}"


# ---------------------------------------------------------------- openat2, close_range, memfd

_OPEN_HOW = struct.Struct("<QQQ")
_PAGE_SIZE = 4096  # print_nonzero_bytes looks at most at a page of an extensible struct's tail
_O_CREAT, _O_TMPFILE = 0o100, 0o20000000


def _open_how(c: Call, address: int, size: int) -> str:
    if size < _OPEN_HOW.size:
        return addr(address)

    def show(fl: int, mode_v: int, resolve: int) -> str:
        text = f"{{flags={open_flags64(fl)}"
        if mode_v or fl & (_O_CREAT | _O_TMPFILE):
            text += f", mode={ll_mode(mode_v)}"
        text += f", resolve={flags(resolve, X.OPEN_RESOLVE_FLAGS, 'RESOLVE_???')}"
        tail = nonzero_bytes(c, address, _OPEN_HOW.size, min(size, _PAGE_SIZE)) if size > _OPEN_HOW.size else None
        return f"{text}, {tail}}}" if tail else text + "}"

    return umove(c, address, _OPEN_HOW, show)


@syscall("openat2", rval=rv_fd)
def openat2(c: Call) -> str:
    a = c.args
    return f"{dirfd(c, a[0])}, {path(c, a[1])}, {_open_how(c, a[2], a[3])}, {a[3]}"


@syscall("close_range")
def close_range(c: Call) -> str:
    a = c.args
    return f"{a[0] & _U32}, {a[1] & _U32}, {flags(a[2] & _U32, X.CLOSE_RANGE_FLAGS, 'CLOSE_RANGE_???')}"


_MFD_HUGE_SHIFT, _MFD_HUGE_MASK = 26, 0x3F
_MFD_NAME_MAX = 255 - len("memfd:")


def memfd_flags(value: int) -> str:
    """memfd_create's flags: names, then the huge page size as ``N<<MFD_HUGE_SHIFT``."""
    value &= _U32
    mask = _MFD_HUGE_MASK << _MFD_HUGE_SHIFT
    huge = value & mask
    rest = value & ~mask
    parts = []
    if rest or not huge:
        parts.append(sprintflags(rest, X.MEMFD_CREATE_FLAGS, "MFD_???"))
    if huge:
        parts.append(f"{huge >> _MFD_HUGE_SHIFT}<<MFD_HUGE_SHIFT")
    return "|".join(parts)


@syscall("memfd_create", rval=rv_fd)
def memfd_create(c: Call) -> str:
    name = cstring_n(c, c.args[0], _MFD_NAME_MAX + 1)
    return f"{name}, {memfd_flags(c.args[1])}"


# ---------------------------------------------------------------- file handles

_HANDLE_HEAD = struct.Struct("<Ii")
_MAX_HANDLE_SZ = 128


def _f_handle(c: Call, address: int, nbytes: int) -> str:
    n = min(nbytes, _MAX_HANDLE_SZ)
    data = c.mem.read(address + _HANDLE_HEAD.size, n) if address > _HANDLE_HEAD.size else None
    if data is None:
        return "???"
    return quote(data, force_hex=True) + ("..." if nbytes > n else "")


@syscall("name_to_handle_at")
def name_to_handle_at(c: Call) -> Generator[str, None, None]:
    a = c.args
    head = f"{dirfd(c, a[0])}, {path(c, a[1])}, "
    fl = flags(a[4] & _U32, X.NAME_TO_HANDLE_AT_FLAGS, "AT_???")
    data = fetch(c, a[2], _HANDLE_HEAD.size)
    if data is None:
        yield f"{head}{addr(a[2])}, {addr(a[3])}, {fl}"
        yield ""
        return
    before = _HANDLE_HEAD.unpack(data)[0]
    yield f"{head}{{handle_bytes={before}"
    text = ""
    if not c.failed or c.error == 75:  # EOVERFLOW: the kernel wrote the size it needs
        after = c.mem.read(a[2], _HANDLE_HEAD.size)
        if after is not None:
            nbytes, htype = _HANDLE_HEAD.unpack(after)
            if nbytes != before:
                text += f" => {nbytes}"
            if not c.failed:
                text += f", handle_type={htype}, f_handle={_f_handle(c, a[2], nbytes)}"
    mount_id = umove(c, a[3], struct.Struct("<i"), lambda v: f"[{v}]")
    yield f"{text}}}, {mount_id}, {fl}"


@syscall("open_by_handle_at", rval=rv_fd)
def open_by_handle_at(c: Call) -> str:
    a = c.args

    def show(nbytes: int, htype: int) -> str:
        return f"{{handle_bytes={nbytes}, handle_type={htype}, f_handle={_f_handle(c, a[1], nbytes)}}}"

    return f"{fd(c, a[0])}, {umove(c, a[1], _HANDLE_HEAD, show)}, {open_flags(a[2])}"


# ---------------------------------------------------------------- mount, swap, quota

_MS_MGC_VAL, _MS_MGC_MSK = 0xC0ED0000, 0xFFFF0000  # strace's own: the old magic, in no header
_MS = {name: value for value, name in X.MOUNT_FLAGS}
_MS_REMOUNT = _MS["MS_REMOUNT"]
_MS_IGNORE_TYPE_AND_DATA = (_MS["MS_BIND"] | _MS["MS_MOVE"] | _MS["MS_SHARED"] | _MS["MS_PRIVATE"]
                            | _MS["MS_SLAVE"] | _MS["MS_UNBINDABLE"])


@syscall("mount")
def mount(c: Call) -> str:
    """SYS_FUNC(mount): the type and data are strings unless the flags say they are ignored."""
    a = c.args
    fl = a[3]
    old_magic = fl & _MS_MGC_MSK == _MS_MGC_VAL
    if old_magic:
        fl &= ~_MS_MGC_MSK
    ignore_type = ignore_data = False
    if fl & _MS_REMOUNT:
        ignore_type = True
    elif fl & _MS_IGNORE_TYPE_AND_DATA:
        ignore_type = ignore_data = True
    ftype = addr(a[2]) if ignore_type else cstring(c, a[2])
    ftext = ""
    if old_magic:
        ftext = print_xlat(_MS_MGC_VAL, "MS_MGC_VAL") + ("|" if fl else "")
    if fl or not old_magic:
        ftext += flags(fl, X.MOUNT_FLAGS, "MS_???")
    data = addr(a[4]) if ignore_data else cstring(c, a[4])
    return f"{path(c, a[0])}, {path(c, a[1])}, {ftype}, {ftext}, {data}"


@syscall("umount2")
def umount2(c: Call) -> str:
    return f"{path(c, c.args[0])}, {flags(c.args[1] & _U32, X.UMOUNT_FLAGS, 'MNT_???')}"


_SWAP_FLAG_PRIO_MASK = 0x7FFF


@syscall("swapon")
def swapon(c: Call) -> str:
    value = c.args[1] & _U32
    prio = value & _SWAP_FLAG_PRIO_MASK
    value &= ~_SWAP_FLAG_PRIO_MASK
    text = f"{flags(value, X.SWAP_FLAGS, 'SWAP_FLAG_???')}|" if value else ""
    return f"{path(c, c.args[0])}, {text}{prio}"


_SUBCMDSHIFT, _SUBCMDMASK = 8, 0xFF


def _qcmd(value: int) -> str:
    """``QCMD(Q_GETQUOTA, USRQUOTA)``: the command and the quota type halves."""
    value &= _U32
    cmd = value >> _SUBCMDSHIFT
    qtype = value & _SUBCMDMASK
    return f"QCMD({xval(cmd, X.QUOTA_CMDS, 'Q_???')}, {xval(qtype, X.QUOTA_TYPES, '???QUOTA')})"


_QC = {name: value for value, name in X.QUOTA_CMDS}
_Q_NO_DATA = frozenset((_QC["Q_QUOTAOFF"], _QC["Q_SYNC"], _QC["Q_XQUOTASYNC"]))
_Q_ID_AT_EXIT = frozenset((_QC["Q_GETQUOTA"], _QC["Q_GETNEXTQUOTA"], _QC["Q_XGETQUOTA"], _QC["Q_XGETNEXTQUOTA"]))
_Q_AT_EXIT = frozenset((_QC["Q_GETFMT"], _QC["Q_GETINFO"], _QC["Q_XGETQSTAT"], _QC["Q_XGETQSTATV"]))
_IF_DQBLK = struct.Struct("<8QI")  # struct if_dqblk, packed as strace reads it
_IF_NEXTDQBLK = struct.Struct("<8QII")
_IF_DQINFO = struct.Struct("<QQII")
_FS_DISK_QUOTA = struct.Struct("<bbHI6QiiHH4xQQQiH10x")
_FS_QUOTA_STAT = struct.Struct("<bxH4xQQI4xQQI4xIiiiHH4x")
_FS_QUOTA_STATV = struct.Struct("<bxHIQQI4xQQI4xQQI4xiiiHH64x")
_U32_FMT = struct.Struct("<I")


def _dqblk(c: Call, address: int) -> str:
    def show(*v: int) -> str:
        head = (f"{{dqb_bhardlimit={v[0]}, dqb_bsoftlimit={v[1]}, dqb_curspace={v[2]}, dqb_ihardlimit={v[3]}, "
                f"dqb_isoftlimit={v[4]}, dqb_curinodes={v[5]}")
        if not OPTS.verbose:
            return head + ", ...}"
        return f"{head}, dqb_btime={v[6]}, dqb_itime={v[7]}, dqb_valid={flags(v[8], X.IF_DQBLK_VALID, 'QIF_???')}}}"

    return umove(c, address, _IF_DQBLK, show)


def _nextdqblk(c: Call, address: int) -> str:
    def show(*v: int) -> str:
        head = (f"{{dqb_bhardlimit={v[0]}, dqb_bsoftlimit={v[1]}, dqb_curspace={v[2]}, dqb_ihardlimit={v[3]}, "
                f"dqb_isoftlimit={v[4]}, dqb_curinodes={v[5]}")
        if not OPTS.verbose:
            return f"{head}, dqb_id={v[9]}, ...}}"
        return (f"{head}, dqb_btime={v[6]}, dqb_itime={v[7]}, "
                f"dqb_valid={flags(v[8], X.IF_DQBLK_VALID, 'QIF_???')}, dqb_id={v[9]}}}")

    return umove(c, address, _IF_NEXTDQBLK, show)


def _disk_quota(c: Call, address: int) -> str:
    """fs_disk_quota_t (Q_XGETQUOTA, Q_XSETQLIM, Q_XGETNEXTQUOTA)."""
    def show(*v: int) -> str:
        head = (f"{{d_version={v[0]}, d_flags={flags(v[1] & MASK64, X.XFS_DQBLK_FLAGS, 'FS_???_QUOTA')}, "
                f"d_fieldmask={hex(v[2]) if v[2] else 0}, d_id={v[3]}, d_blk_hardlimit={v[4]}, d_blk_softlimit={v[5]}, "
                f"d_ino_hardlimit={v[6]}, d_ino_softlimit={v[7]}, d_bcount={v[8]}, d_icount={v[9]}")
        if not OPTS.verbose:
            return head + ", ...}"
        return (f"{head}, d_itimer={v[10]}, d_btimer={v[11]}, d_iwarns={v[12]}, d_bwarns={v[13]}, "
                f"d_rtb_hardlimit={v[14]}, d_rtb_softlimit={v[15]}, d_rtbcount={v[16]}, d_rtbtimer={v[17]}, "
                f"d_rtbwarns={v[18]}}}")

    return umove(c, address, _FS_DISK_QUOTA, show)


def _qfilestat(ino: int, nblks: int, nextents: int) -> str:
    return f"{{qfs_ino={ino}, qfs_nblks={nblks}, qfs_nextents={nextents}}}"


def _quota_stat(c: Call, address: int) -> str:
    def show(*v: int) -> str:
        if not OPTS.verbose:
            return f"{{qs_version={v[0]}, ...}}"
        return (f"{{qs_version={v[0]}, qs_flags={flags(v[1], X.XFS_QUOTA_FLAGS, 'FS_QUOTA_???')}, "
                f"qs_uquota={_qfilestat(*v[2:5])}, qs_gquota={_qfilestat(*v[5:8])}, qs_incoredqs={v[8]}, "
                f"qs_btimelimit={v[9]}, qs_itimelimit={v[10]}, qs_rtbtimelimit={v[11]}, "
                f"qs_bwarnlimit={v[12]}, qs_iwarnlimit={v[13]}}}")

    return umove(c, address, _FS_QUOTA_STAT, show)


def _quota_statv(c: Call, address: int) -> str:
    def show(*v: int) -> str:
        if not OPTS.verbose:
            return f"{{qs_version={v[0]}, ...}}"
        return (f"{{qs_version={v[0]}, qs_flags={flags(v[1], X.XFS_QUOTA_FLAGS, 'FS_QUOTA_???')}, "
                f"qs_incoredqs={v[2]}, qs_uquota={_qfilestat(*v[3:6])}, qs_gquota={_qfilestat(*v[6:9])}, "
                f"qs_pquota={_qfilestat(*v[9:12])}, qs_btimelimit={v[12]}, qs_itimelimit={v[13]}, "
                f"qs_rtbtimelimit={v[14]}, qs_bwarnlimit={v[15]}, qs_iwarnlimit={v[16]}}}")

    return umove(c, address, _FS_QUOTA_STATV, show)


def _dqinfo(c: Call, address: int) -> str:
    return umove(c, address, _IF_DQINFO, lambda bgrace, igrace, fl, valid: (
        f"{{dqi_bgrace={bgrace}, dqi_igrace={igrace}, dqi_flags={flags(fl, X.IF_DQINFO_FLAGS, 'DQF_???')}, "
        f"dqi_valid={flags(valid, X.IF_DQINFO_VALID, 'IIF_???')}}}"))


def _quota_data(c: Call, cmd: int, qid: int, data: int) -> Generator[str, None, None]:
    """decode_cmd_data: what follows the command and the device, split at entry/exit like strace."""
    if cmd in _Q_NO_DATA:
        yield ""
        yield ""
    elif cmd == _QC["Q_QUOTAON"]:
        yield f", {xval(qid, X.QUOTA_FORMATS, 'QFMT_VFS_???')}, {path(c, data)}"
        yield ""
    elif cmd in _Q_ID_AT_EXIT:
        yield f", {uid(qid)}, "
        yield _nextdqblk(c, data) if cmd == _QC["Q_GETNEXTQUOTA"] else (
            _dqblk(c, data) if cmd == _QC["Q_GETQUOTA"] else _disk_quota(c, data))
    elif cmd == _QC["Q_SETQUOTA"]:
        yield f", {uid(qid)}, {_dqblk(c, data)}"
        yield ""
    elif cmd == _QC["Q_XSETQLIM"]:
        yield f", {uid(qid)}, {_disk_quota(c, data)}"
        yield ""
    elif cmd in _Q_AT_EXIT:
        yield ", "
        if cmd == _QC["Q_GETFMT"]:
            yield umove(c, data, _U32_FMT, lambda v: f"[{xval(v, X.QUOTA_FORMATS, 'QFMT_VFS_???')}]")
        elif cmd == _QC["Q_GETINFO"]:
            yield _dqinfo(c, data)
        elif cmd == _QC["Q_XGETQSTAT"]:
            yield _quota_stat(c, data)
        else:
            yield _quota_statv(c, data)
    elif cmd == _QC["Q_SETINFO"]:
        yield f", {_dqinfo(c, data)}"
        yield ""
    elif cmd in (_QC["Q_XQUOTAON"], _QC["Q_XQUOTAOFF"], _QC["Q_XQUOTARM"]):
        table, dflt = ((X.XFS_DQBLK_FLAGS, "FS_???_QUOTA") if cmd == _QC["Q_XQUOTARM"]
                       else (X.XFS_QUOTA_FLAGS, "FS_QUOTA_???"))
        yield ", " + umove(c, data, _U32_FMT, lambda v: f"[{flags(v, table, dflt)}]")
        yield ""
    else:
        yield f", {uid(qid)}, {addr(data)}"
        yield ""


@syscall("quotactl")
def quotactl(c: Call) -> Generator[str, None, None]:
    a = c.args
    rest = _quota_data(c, (a[0] & _U32) >> _SUBCMDSHIFT, a[2] & _U32, a[3])
    yield f"{_qcmd(a[0])}, {path(c, a[1])}{next(rest)}"
    yield next(rest)


@syscall("quotactl_fd")
def quotactl_fd(c: Call) -> Generator[str, None, None]:
    a = c.args
    rest = _quota_data(c, (a[1] & _U32) >> _SUBCMDSHIFT, a[2] & _U32, a[3])
    yield f"{fd(c, a[0] & _U32)}, {_qcmd(a[1])}{next(rest)}"
    yield next(rest)


# ---------------------------------------------------------------- new mount API (fsmount.c, ...)


@syscall("fsopen", rval=rv_fd)
def fsopen(c: Call) -> str:
    return f"{cstring(c, c.args[0])}, {flags(c.args[1] & _U32, X.FSOPEN_FLAGS, 'FSOPEN_???')}"


_FSC = {name: value for value, name in X.FSCONFIG_CMDS}
_FSCONFIG_SET_STRING, _FSCONFIG_SET_BINARY = _FSC["FSCONFIG_SET_STRING"], _FSC["FSCONFIG_SET_BINARY"]
_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY = _FSC["FSCONFIG_SET_PATH"], _FSC["FSCONFIG_SET_PATH_EMPTY"]
_FSCONFIG_SET_FD = _FSC["FSCONFIG_SET_FD"]
_FSCONFIG_BINARY_MAX = 1024 * 1024  # strace prints a longer blob as its address
_FSCONFIG_CMD_CREATE, _FSCONFIG_CMD_RECONFIGURE = _FSC["FSCONFIG_CMD_CREATE"], _FSC["FSCONFIG_CMD_RECONFIGURE"]


@syscall("fsconfig")
def fsconfig(c: Call) -> str:
    a = c.args
    cmd = a[1] & _U32
    aux = signed(a[4], 32)
    # The FSCONFIG_SET_* commands name a key; the others (CMD_CREATE, CMD_RECONFIGURE, unknown) do not.
    key = cstring_n(c, a[2], 256) if cmd <= _FSCONFIG_SET_FD else addr(a[2])
    if cmd == _FSCONFIG_SET_STRING:
        value = cstring_n(c, a[3], 256)
    elif cmd == _FSCONFIG_SET_BINARY:
        value = string_at(c, a[3], aux, force_hex=True) if 0 <= aux <= _FSCONFIG_BINARY_MAX else addr(a[3])
    elif cmd in (_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY):
        value = path(c, a[3])
    else:
        value = addr(a[3])
    aux_text = dirfd(c, a[4]) if cmd in (_FSCONFIG_SET_PATH, _FSCONFIG_SET_PATH_EMPTY) else (
        fd(c, a[4]) if cmd == _FSCONFIG_SET_FD else str(aux))
    return (f"{fd(c, a[0])}, {xval(cmd, X.FSCONFIG_CMDS, 'FSCONFIG_???')}, {key}, {value}, "
            f"{aux_text}")


@syscall("fsmount", rval=rv_fd)
def fsmount(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {flags(a[1] & _U32, X.FSMOUNT_FLAGS, 'FSMOUNT_???')}, "
            f"{flags(a[2] & _U32, X.FSMOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???')}")


@syscall("fspick", rval=rv_fd)
def fspick(c: Call) -> str:
    a = c.args
    return f"{dirfd(c, a[0])}, {path(c, a[1])}, {flags(a[2] & _U32, X.FSPICK_FLAGS, 'FSPICK_???')}"


@syscall("open_tree", rval=rv_fd)
def open_tree(c: Call) -> str:
    a = c.args
    return f"{dirfd(c, a[0])}, {path(c, a[1])}, {flags(a[2] & _U32, X.OPEN_TREE_FLAGS, 'OPEN_TREE_???')}"


@syscall("move_mount")
def move_mount(c: Call) -> str:
    a = c.args
    return (f"{dirfd(c, a[0])}, {path(c, a[1])}, {dirfd(c, a[2])}, {path(c, a[3])}, "
            f"{flags(a[4] & _U32, X.MOVE_MOUNT_FLAGS, 'MOVE_MOUNT_???')}")


_MOUNT_ATTR = struct.Struct("<QQQQ")  # attr_set, attr_clr, propagation, userns_fd
_MOUNT_ATTR_SIZE_VER0 = 32
_MOUNT_ATTR_IDMAP = next(v for v, n in X.MOUNT_ATTR_FLAGS if n == "MOUNT_ATTR_IDMAP")
_INT_MAX = 0x7FFFFFFF


@syscall("mount_setattr", rval=rv_fd)  # strace 6.1 returns RVAL_FD here (a quirk: the result is 0)
def mount_setattr(c: Call) -> str:
    a = c.args
    size = a[4]

    def show(aset: int, aclr: int, prop: int, userns: int) -> str:
        # userns_fd is a descriptor (-y decorates it) only when MOUNT_ATTR_IDMAP is being set or cleared.
        idmap = (aset | aclr) & _MOUNT_ATTR_IDMAP and userns <= _INT_MAX
        return (f"{{attr_set={flags(aset, X.MOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???')}, "
                f"attr_clr={flags(aclr, X.MOUNT_ATTR_FLAGS, 'MOUNT_ATTR_???')}, "
                f"propagation={xval(prop, X.MOUNT_ATTR_PROPAGATION, 'MS_???')}, "
                f"userns_fd={fd(c, userns) if idmap else userns}{_attr_tail()}}}")

    def _attr_tail() -> str:
        if size <= _MOUNT_ATTR.size:
            return ""
        tail = nonzero_bytes(c, a[3], _MOUNT_ATTR.size, min(size, _PAGE_SIZE))
        return f", {tail}" if tail else ""

    attr = umove(c, a[3], _MOUNT_ATTR, show) if size >= _MOUNT_ATTR_SIZE_VER0 else addr(a[3])
    return (f"{dirfd(c, a[0])}, {path(c, a[1])}, "
            f"{flags(a[2] & _U32, X.MOUNT_SETATTR_FLAGS, 'AT_???')}, {attr}, {size}")


# ---------------------------------------------------------------- inotify, fanotify


@syscall("inotify_init1", rval=rv_fd)
def inotify_init1(c: Call) -> str:
    return flags(c.args[0] & _U32, X.INOTIFY_INIT_FLAGS, "IN_???")


@syscall("inotify_add_watch")
def inotify_add_watch(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {path(c, a[1])}, {flags(a[2] & _U32, X.INOTIFY_FLAGS, 'IN_???')}"


@syscall("inotify_rm_watch")
def inotify_rm_watch(c: Call) -> str:
    return f"{fd(c, c.args[0])}, {signed(c.args[1], 32)}"


_FAN_ALL_CLASS_BITS = 0
for _value, _name in X.FAN_CLASSES:
    _FAN_ALL_CLASS_BITS |= _value


@syscall("fanotify_init", rval=rv_fd)
def fanotify_init(c: Call) -> str:
    value = c.args[0] & _U32
    text = xval(value & _FAN_ALL_CLASS_BITS, X.FAN_CLASSES, "FAN_CLASS_???")
    rest = value & ~_FAN_ALL_CLASS_BITS
    if rest:
        text += "|" + flags(rest, X.FAN_INIT_FLAGS, "FAN_???")
    return f"{text}, {open_flags(c.args[1])}"


_FAN_NOFD = -1


@syscall("fanotify_mark")
def fanotify_mark(c: Call) -> str:
    a = c.args
    dfd = signed(a[3], 32)
    dtext = print_xlat(dfd, "FAN_NOFD", "int") if dfd == _FAN_NOFD else dirfd(c, a[3])
    return (f"{fd(c, a[0])}, {flags(a[1] & _U32, X.FAN_MARK_FLAGS, 'FAN_MARK_???')}, "
            f"{flags(a[2], X.FAN_EVENT_FLAGS, 'FAN_???')}, {dtext}, {path(c, a[4])}")


# ---------------------------------------------------------------- eventfd, signalfd


@syscall("eventfd", rval=rv_fd)
def eventfd(c: Call) -> str:
    return str(c.args[0] & _U32)


@syscall("eventfd2", rval=rv_fd)
def eventfd2(c: Call) -> str:
    return f"{c.args[0] & _U32}, {flags(c.args[1] & _U32, X.EVENTFD_FLAGS, 'EFD_???')}"


@syscall("signalfd", rval=rv_fd)
def signalfd(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {sigset_at(c, a[1], a[2])}, {a[2]}"


@syscall("signalfd4", rval=rv_fd)
def signalfd4(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {sigset_at(c, a[1], a[2])}, {a[2]}, {flags(a[3] & _U32, X.SIGNALFD_FLAGS, 'SFD_???')}"


# ---------------------------------------------------------------- obsolete entries


@syscall("ustat")
def ustat(c: Call) -> str:
    return f"{makedev(c.args[0] & _U32)}, {addr(c.args[1])}"


@syscall("uselib")
def uselib(c: Call) -> str:
    return path(c, c.args[0])


@syscall("sysfs")
def sysfs(c: Call) -> str:
    """strace prints sysfs's three raw words (printargs)."""
    return ", ".join(hx(v) for v in c.args[:3])


__all__ = ["hx", "num64"]
