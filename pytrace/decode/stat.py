"""The stat family: struct stat, statx, statfs and directory entries (strace's stat.c, statx.c, statfs.c, dirent64.c).

strace prints these structures abbreviated by default (``{st_mode=..., st_size=..., ...}``)
and in full with ``-v``; both forms live here so the choice is made in one place.  Every
buffer is an output argument, so each decoder prints it at syscall exit, and prints only
its address when the call failed (strace's ``umove_or_printaddr``).
"""

from __future__ import annotations

import struct
import time

from pytrace.decode.format import (
    MASK64,
    addr,
    xlat,
)
from pytrace.decode.printer import hexnum, octnum, styled_whole
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_S_IFMT = 0o170000
_S_IFCHR = 0o020000
_S_IFBLK = 0o060000
_S_ISUID, _S_ISGID, _S_ISVTX = 0o4000, 0o2000, 0o1000


# ---------------------------------------------------------------- shared printers


@styled_whole(octnum, 0xFFFFFFFF)
def symbolic_mode(p: Printer, mode: int) -> str:
    """print_symbolic_mode_t: ``S_IFREG|0644`` (type, set-id bits, permissions); octal if the type is unknown."""
    mode &= 0xFFFFFFFF
    ifmt = "" if not mode & _S_IFMT else xlat(mode & _S_IFMT, X.MODE_TYPE)
    if ifmt is None:
        return _oct03(mode)
    text = ifmt + ("|" if ifmt else "")
    text += "S_ISUID|" if mode & _S_ISUID else ""
    text += "S_ISGID|" if mode & _S_ISGID else ""
    text += "S_ISVTX|" if mode & _S_ISVTX else ""
    return text + _oct03(mode & ~(_S_IFMT | _S_ISUID | _S_ISGID | _S_ISVTX))


def _oct03(value: int) -> str:
    """C's ``%#03o``: a leading 0, at least three characters (``000``, ``007``, ``0644``)."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


@styled_whole(hexnum, MASK64, flags=False)
def makedev(p: Printer, dev: int) -> str:
    """PRINT_FIELD_DEV: ``makedev(0x1, 0x3)`` with glibc's major()/minor() split."""
    major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF & 0xFFFFFFFF)
    minor = (dev & 0xFF) | ((dev >> 12) & ~0xFF & 0xFFFFFFFF)
    return f"makedev({_hx(major)}, {_hx(minor)})"


def _hx(value: int) -> str:
    """C's ``%#x``: zero prints as ``0``, not ``0x0``."""
    return f"{value:#x}" if value else "0"


def sprinttime_nsec(sec: int, nsec: int) -> str:
    """The `` /* 2024-01-02T03:04:05.123456789+0000 */`` comment after a timestamp ("" when strace prints none).

    strace formats with localtime() and skips the comment for the epoch itself and
    for out-of-range nanoseconds, so both cases print nothing here either.
    """
    if (sec == 0 and nsec == 0) or nsec > 999_999_999 or nsec < 0:
        return ""
    try:
        tm = time.localtime(sec)
    except (OverflowError, OSError, ValueError):
        return ""
    text = time.strftime("%Y-%m-%dT%H:%M:%S", tm)
    if nsec:
        text += f".{nsec:09d}"
    return f" /* {text}{time.strftime('%z', tm)} */"


# ---------------------------------------------------------------- struct stat

# x86_64 kernel struct stat: dev, ino, nlink (u64); mode, uid, gid, pad (u32); rdev, size,
# blksize, blocks (64-bit); then atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec.


def struct_stat(p: Printer, c: Call, address: int) -> str:
    """decode_struct_stat at exit: the abbreviated or (-v) full ``{st_...}``, or the address."""
    data = p.fetch(c, address, p.lay.STAT.size)
    if data is None:
        return addr(address)
    (dev, ino, nlink, mode, uid, gid, _pad, rdev, size, blksize, blocks,
     atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns) = p.lay.STAT.unpack(data)
    parts = []
    if p.opts.verbose:
        parts += [('st_dev', makedev(p, dev)), ('st_ino', ino), ('st_mode', symbolic_mode(p, mode)),
                  ('st_nlink', nlink), ('st_uid', uid), ('st_gid', gid), ('st_blksize', blksize),
                  ('st_blocks', blocks)]
    else:
        parts.append(('st_mode', symbolic_mode(p, mode)))
    if mode & _S_IFMT in (_S_IFCHR, _S_IFBLK):
        parts.append(('st_rdev', makedev(p, rdev)))
    else:
        parts.append(('st_size', size))
    if p.opts.verbose:
        for name, sec, ns in (("atime", atime, atime_ns), ("mtime", mtime, mtime_ns), ("ctime", ctime, ctime_ns)):
            parts.append(f"st_{name}={sec}{sprinttime_nsec(sec, ns & 0xFFFFFFFFFFFFFFFF)}")
            parts.append(f"st_{name}_nsec={ns & 0xFFFFFFFFFFFFFFFF}")
    else:
        parts.append("...")
    return p.struct(tuple(parts))


@syscall("stat", "lstat")
def stat(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.path(c, c.args[0]),))
    yield struct_stat(p, c, c.args[1])


@syscall("fstat")
def fstat(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    yield struct_stat(p, c, c.args[1])


@syscall("newfstatat")
def newfstatat(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.dirfd(c, c.args[0]), p.path(c, c.args[1])))
    yield p.args((struct_stat(p, c, c.args[2]), p.flags(c.args[3] & 0xFFFFFFFF, X.AT_FLAGS, 'AT_???')))


# ---------------------------------------------------------------- statx

_AT_STATX_SYNC_TYPE = 0x6000
# struct statx: mask, blksize (u32); attributes (u64); nlink, uid, gid (u32); mode (u16), pad;
# ino, size, blocks, attributes_mask (u64); four {s64 sec; u32 nsec; s32 pad} timestamps;
# rdev_major, rdev_minor, dev_major, dev_minor (u32); mnt_id (u64).
_STATX = struct.Struct("<IIQIIIH2xQQQQ" + "qIi" * 4 + "IIIIQ")


def statx_flags(p: Printer, value: int) -> str:
    """The sync type by name (AT_STATX_SYNC_AS_STAT for 0), then any AT_* flags."""
    value &= 0xFFFFFFFF
    text = p.flags(value & _AT_STATX_SYNC_TYPE, X.AT_STATX_SYNC_TYPES, None)
    rest = value & ~_AT_STATX_SYNC_TYPE
    if rest:
        text += "|" + p.flags(rest, X.AT_FLAGS, None)
    return text


def _statx_ts(sec: int, nsec: int) -> str:
    return f"{{tv_sec={sec}, tv_nsec={nsec}}}{sprinttime_nsec(sec, nsec)}"


def _id(value: int) -> str:
    """PRINT_FIELD_ID: an unsigned id, except (uid_t)-1 which prints as -1."""
    return "-1" if value == 0xFFFFFFFF else str(value)


def struct_statx(p: Printer, c: Call, address: int) -> str:
    """strace 6.1's statx decoder: most fields are printed only when stx_mask says the kernel filled them."""
    data = p.fetch(c, address, _STATX_DIO.size)
    if data is None:
        return addr(address)
    (mask, blksize, attrs, nlink, uid, gid, mode, ino, size, blocks, attrs_mask,
     a_s, a_ns, _a, b_s, b_ns, _b, c_s, c_ns, _c, m_s, m_ns, _m,
     rdev_major, rdev_minor, dev_major, dev_minor, mnt_id, dio_mem, dio_off) = _STATX_DIO.unpack(data)
    verbose = p.opts.verbose
    m = _statx_bits()
    parts = [('stx_mask', p.flags(mask, X.STATX_MASK, 'STATX_???'))]
    if verbose:
        parts.append(('stx_blksize', blksize))
    parts.append(('stx_attributes', p.flags(attrs, X.STATX_ATTRS, 'STATX_ATTR_???')))
    if verbose:
        if mask & m["STATX_NLINK"]:
            parts.append(('stx_nlink', nlink))
        if mask & m["STATX_UID"]:
            parts.append(('stx_uid', _id(uid)))
        if mask & m["STATX_GID"]:
            parts.append(('stx_gid', _id(gid)))
    if mask & (m["STATX_TYPE"] | m["STATX_MODE"]):
        parts.append(('stx_mode', symbolic_mode(p, mode)))
    if verbose and mask & m["STATX_INO"]:
        parts.append(('stx_ino', ino))
    if mask & m["STATX_SIZE"]:
        parts.append(('stx_size', size))
    if verbose:
        if mask & m["STATX_BLOCKS"]:
            parts.append(('stx_blocks', blocks))
        parts.append(('stx_attributes_mask', p.flags(attrs_mask, X.STATX_ATTRS, 'STATX_ATTR_???')))
        for bit, name, sec, nsec in (("STATX_ATIME", "atime", a_s, a_ns), ("STATX_BTIME", "btime", b_s, b_ns),
                                     ("STATX_CTIME", "ctime", c_s, c_ns), ("STATX_MTIME", "mtime", m_s, m_ns)):
            if mask & m[bit]:
                parts.append(f"stx_{name}={_statx_ts(sec, nsec)}")
        parts += [('stx_rdev_major', rdev_major), ('stx_rdev_minor', rdev_minor),
                  ('stx_dev_major', dev_major), ('stx_dev_minor', dev_minor)]
        if mask & m["STATX_MNT_ID"]:
            parts.append(('stx_mnt_id', _hx(mnt_id)))
        if mask & m["STATX_DIOALIGN"]:
            parts += [('stx_dio_mem_align', dio_mem), ('stx_dio_offset_align', dio_off)]
    else:
        parts.append("...")
    return p.struct(tuple(parts))


#: struct statx up to stx_dio_offset_align (Linux 6.1); the kernel always writes the whole 256 bytes.
_STATX_DIO = struct.Struct(_STATX.format + "II")
#: STATX_* mask bits by name, from the generated table (single bits only).
_STATX_BITS: dict[str, int] = {}


def _statx_bits() -> dict[str, int]:
    """STATX_* name -> bit, built at the first statx (its table's part is not imported before)."""
    if not _STATX_BITS:
        _STATX_BITS.update((name, value) for value, name in X.STATX_MASK if value & (value - 1) == 0)
    return _STATX_BITS


@syscall("statx")
def statx(p: Printer, c: Call) -> Generator[str, None, None]:
    yield (p.head((p.dirfd(c, c.args[0]), p.path(c, c.args[1]), statx_flags(p, c.args[2]), p.flags(c.args[3] & 0xFFFFFFFF, X.STATX_MASK, 'STATX_???'))))
    yield struct_statx(p, c, c.args[4])


# ---------------------------------------------------------------- statfs

# x86_64 struct statfs: type, bsize, blocks, bfree, bavail, files, ffree (64-bit); fsid int[2];
# namelen, frsize, flags (64-bit); spare[4].
_STATFS = struct.Struct("<qqQQQQQIIqqq")
_ST_VALID = 0x20


def struct_statfs(p: Printer, c: Call, address: int, layout: struct.Struct | None = None) -> str:
    layout = layout or p.lay.STATFS
    data = p.fetch(c, address, layout.size)
    if data is None:
        return addr(address)
    ftype, bsize, blocks, bfree, bavail, files, ffree, fsid0, fsid1, namelen, frsize, fl = layout.unpack(data)
    ftype &= 0xFFFFFFFFFFFFFFFF
    type_name = xlat(ftype, getattr(X, "FS_MAGIC", ()))
    type_text = p.print_xlat(ftype, type_name) if type_name else _hx(ftype)
    text = (f"{{f_type={type_text}, f_bsize={bsize}, f_blocks={blocks}, f_bfree={bfree}, f_bavail={bavail}, "
            f"f_files={files}, f_ffree={ffree}, f_fsid={{val={p.inline_array([_hx(fsid0), _hx(fsid1)])}}}, f_namelen={namelen}, "
            f"f_frsize={frsize}")
    if fl & _ST_VALID:
        text += p.tail((f"f_flags={p.flags(fl & 0xFFFFFFFFFFFFFFFF, getattr(X, 'STATFS_FLAGS', ()), 'ST_???')}",))
    return text + "}"


@syscall("statfs")
def statfs(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.path(c, c.args[0]),))
    yield struct_statfs(p, c, c.args[1])


@syscall("fstatfs")
def fstatfs(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]),))
    yield struct_statfs(p, c, c.args[1])


@syscall("statfs64")
def statfs64(p: Printer, c: Call) -> Generator[str, None, None]:
    """i386: ``statfs64(path, size, buf)``; strace decodes the buffer only when size is the known one."""
    yield p.head((p.path(c, c.args[0]), f"{c.args[1]}"))
    yield _statfs64_out(p, c, c.args[1], c.args[2])


@syscall("fstatfs64")
def fstatfs64(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.fd(c, c.args[0]), f"{c.args[1]}"))
    yield _statfs64_out(p, c, c.args[1], c.args[2])


def _statfs64_out(p: Printer, c: Call, size: int, address: int) -> str:
    if c.failed or size != p.lay.STATFS64.size:
        return addr(address)
    return struct_statfs(p, c, address, p.lay.STATFS64)


# ---------------------------------------------------------------- getdents64

_DIRENT64_HEAD = struct.Struct("<QqHB")  # d_ino, d_off, d_reclen, d_type; d_name follows
_D_NAME_LEN_MAX = 256


def _dirents(p: Printer, c: Call, address: int, length: int) -> str:
    """decode_dents: ``0xADDR /* N entries */`` by default, the ``[{d_ino=...}, ...]`` array with -v."""
    head = _DIRENT64_HEAD.size
    verbose = p.opts.verbose
    out: list[str] = []
    count = 0
    cur = address
    while True:
        if length < head:
            if verbose:
                if not length:
                    count += 1
                else:
                    data = c.mem.read(cur, length)
                    out.append(addr(cur) if data is None else p.quote(data, force_hex=True))
            break
        raw = c.mem.read(cur, head)
        if raw is None:
            if verbose:
                out.append(f"... /* {addr(cur)} */" if count else addr(cur))
            break
        count += 1
        ino, off, reclen, dtype = _DIRENT64_HEAD.unpack(raw)
        comment = ""
        next_addr = 0
        if reclen > length:
            comment = f" /* {'d_reclen ' if not verbose else ''}{reclen - length} bytes overflow */"
            reclen = length
            length = 0
        elif reclen < head:
            comment = f" /* {'d_reclen ' if not verbose else ''}{head - reclen} bytes underflow */"
            reclen = head
            length -= head
        else:
            length -= reclen
            if length:
                next_addr = cur + reclen
        if verbose:
            entry = f"{{d_ino={ino}, d_off={off & 0xFFFFFFFFFFFFFFFF}, d_reclen={reclen}{comment}"
            entry += p.tail((f"d_type={p.xval(dtype, getattr(X, 'DIRENT_TYPES', ()), 'DT_???')}",))
            name_len = min(reclen - head, _D_NAME_LEN_MAX)
            if name_len:
                got = c.mem.read_cstring(cur + head, name_len)
                if got is None:
                    entry += p.tail((f"d_name={addr(cur + head)}",))
                else:
                    entry += p.tail((f"d_name={p.quote(got[0])}",)) + ("" if got[1] else "...")
            out.append(entry + "}")
        elif comment:
            out.append(comment)
        if not next_addr:
            break
        cur = next_addr
    if not verbose:
        return addr(address) + "".join(out) + f" /* {count}{'+' if length else ''} entries */"
    if not count:
        return "".join(out)
    return "[" + ", ".join(out) + "]"


@syscall("getdents64")
def getdents64(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.fd(c, c.args[0])
    count = c.args[2] & 0xFFFFFFFF
    if c.failed or (c.rval & 0xFFFFFFFFFFFFFFFF) > count or not p.verbose(c):
        buf = addr(c.args[1])
    else:
        buf = _dirents(p, c, c.args[1], c.rval)
    yield p.tail((f"{buf}", f"{count}"))
