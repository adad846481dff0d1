"""quotactl and quotactl_fd with their commands and quota structures, as strace 6.1 prints
them (``quota.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    MASK64,
    addr,
)
from pytrace.decode.printer import styled_whole
from pytrace.decode.process import uid
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_SUBCMDSHIFT, _SUBCMDMASK = 8, 0xFF


@styled_whole(str, 0xFFFFFFFF, flags=False)
def _qcmd(p: Printer, value: int) -> str:
    """``QCMD(Q_GETQUOTA, USRQUOTA)``: the command and the quota type halves."""
    value &= _U32
    cmd = value >> _SUBCMDSHIFT
    qtype = value & _SUBCMDMASK
    return f"QCMD({p.xval(cmd, X.QUOTA_CMDS, 'Q_???')}, {p.xval(qtype, X.QUOTA_TYPES, '???QUOTA')})"


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


def _dqblk(p: Printer, c: Call, address: int) -> str:
    def show(*v: int) -> str:
        head = (f"{{dqb_bhardlimit={v[0]}, dqb_bsoftlimit={v[1]}, dqb_curspace={v[2]}, dqb_ihardlimit={v[3]}, "
                f"dqb_isoftlimit={v[4]}, dqb_curinodes={v[5]}")
        if not p.opts.verbose:
            return head + ", ...}"
        return f"{head}, dqb_btime={v[6]}, dqb_itime={v[7]}, dqb_valid={p.flags(v[8], X.IF_DQBLK_VALID, 'QIF_???')}}}"

    return p.umove(c, address, _IF_DQBLK, show)


def _nextdqblk(p: Printer, c: Call, address: int) -> str:
    def show(*v: int) -> str:
        head = (f"{{dqb_bhardlimit={v[0]}, dqb_bsoftlimit={v[1]}, dqb_curspace={v[2]}, dqb_ihardlimit={v[3]}, "
                f"dqb_isoftlimit={v[4]}, dqb_curinodes={v[5]}")
        if not p.opts.verbose:
            return f"{head}, dqb_id={v[9]}, ...}}"
        return (f"{head}, dqb_btime={v[6]}, dqb_itime={v[7]}, "
                f"dqb_valid={p.flags(v[8], X.IF_DQBLK_VALID, 'QIF_???')}, dqb_id={v[9]}}}")

    return p.umove(c, address, _IF_NEXTDQBLK, show)


def _disk_quota(p: Printer, c: Call, address: int) -> str:
    """fs_disk_quota_t (Q_XGETQUOTA, Q_XSETQLIM, Q_XGETNEXTQUOTA)."""
    def show(*v: int) -> str:
        head = (f"{{d_version={v[0]}, d_flags={p.flags(v[1] & MASK64, X.XFS_DQBLK_FLAGS, 'FS_???_QUOTA')}, "
                f"d_fieldmask={hex(v[2]) if v[2] else 0}, d_id={v[3]}, d_blk_hardlimit={v[4]}, d_blk_softlimit={v[5]}, "
                f"d_ino_hardlimit={v[6]}, d_ino_softlimit={v[7]}, d_bcount={v[8]}, d_icount={v[9]}")
        if not p.opts.verbose:
            return head + ", ...}"
        return (f"{head}, d_itimer={v[10]}, d_btimer={v[11]}, d_iwarns={v[12]}, d_bwarns={v[13]}, "
                f"d_rtb_hardlimit={v[14]}, d_rtb_softlimit={v[15]}, d_rtbcount={v[16]}, d_rtbtimer={v[17]}, "
                f"d_rtbwarns={v[18]}}}")

    return p.umove(c, address, _FS_DISK_QUOTA, show)


def _qfilestat(ino: int, nblks: int, nextents: int) -> str:
    return f"{{qfs_ino={ino}, qfs_nblks={nblks}, qfs_nextents={nextents}}}"


def _quota_stat(p: Printer, c: Call, address: int) -> str:
    def show(*v: int) -> str:
        if not p.opts.verbose:
            return p.struct((('qs_version', f"{v[0]}"), '...'))
        return (p.struct((('qs_version', f"{v[0]}"), ('qs_flags', p.flags(v[1], X.XFS_QUOTA_FLAGS, 'FS_QUOTA_???')), ('qs_uquota', _qfilestat(*v[2:5])), ('qs_gquota', _qfilestat(*v[5:8])), ('qs_incoredqs', f"{v[8]}"), ('qs_btimelimit', f"{v[9]}"), ('qs_itimelimit', f"{v[10]}"), ('qs_rtbtimelimit', f"{v[11]}"), ('qs_bwarnlimit', f"{v[12]}"), ('qs_iwarnlimit', f"{v[13]}"))))

    return p.umove(c, address, _FS_QUOTA_STAT, show)


def _quota_statv(p: Printer, c: Call, address: int) -> str:
    def show(*v: int) -> str:
        if not p.opts.verbose:
            return p.struct((('qs_version', f"{v[0]}"), '...'))
        return (p.struct((('qs_version', f"{v[0]}"), ('qs_flags', p.flags(v[1], X.XFS_QUOTA_FLAGS, 'FS_QUOTA_???')), ('qs_incoredqs', f"{v[2]}"), ('qs_uquota', _qfilestat(*v[3:6])), ('qs_gquota', _qfilestat(*v[6:9])), ('qs_pquota', _qfilestat(*v[9:12])), ('qs_btimelimit', f"{v[12]}"), ('qs_itimelimit', f"{v[13]}"), ('qs_rtbtimelimit', f"{v[14]}"), ('qs_bwarnlimit', f"{v[15]}"), ('qs_iwarnlimit', f"{v[16]}"))))

    return p.umove(c, address, _FS_QUOTA_STATV, show)


def _dqinfo(p: Printer, c: Call, address: int) -> str:
    return p.umove(c, address, _IF_DQINFO, lambda bgrace, igrace, fl, valid: (
        p.struct((('dqi_bgrace', f"{bgrace}"), ('dqi_igrace', f"{igrace}"), ('dqi_flags', p.flags(fl, X.IF_DQINFO_FLAGS, 'DQF_???')), ('dqi_valid', p.flags(valid, X.IF_DQINFO_VALID, 'IIF_???'))))))


def _quota_data(p: Printer, c: Call, cmd: int, qid: int, data: int) -> Generator[str, None, None]:
    """decode_cmd_data: what follows the command and the device, split at entry/exit like strace."""
    if cmd in _Q_NO_DATA:
        yield ""
        yield ""
    elif cmd == _QC["Q_QUOTAON"]:
        yield p.tail((p.xval(qid, X.QUOTA_FORMATS, 'QFMT_VFS_???'), p.path(c, data)))
        yield ""
    elif cmd in _Q_ID_AT_EXIT:
        yield f", {uid(qid)}, "
        yield _nextdqblk(p, c, data) if cmd == _QC["Q_GETNEXTQUOTA"] else (
            _dqblk(p, c, data) if cmd == _QC["Q_GETQUOTA"] else _disk_quota(p, c, data))
    elif cmd == _QC["Q_SETQUOTA"]:
        yield p.tail((uid(qid), _dqblk(p, c, data)))
        yield ""
    elif cmd == _QC["Q_XSETQLIM"]:
        yield p.tail((uid(qid), _disk_quota(p, c, data)))
        yield ""
    elif cmd in _Q_AT_EXIT:
        yield ", "
        if cmd == _QC["Q_GETFMT"]:
            yield p.umove(c, data, _U32_FMT, lambda v: f"[{p.xval(v, X.QUOTA_FORMATS, 'QFMT_VFS_???')}]")
        elif cmd == _QC["Q_GETINFO"]:
            yield _dqinfo(p, c, data)
        elif cmd == _QC["Q_XGETQSTAT"]:
            yield _quota_stat(p, c, data)
        else:
            yield _quota_statv(p, c, data)
    elif cmd == _QC["Q_SETINFO"]:
        yield p.tail((_dqinfo(p, c, data),))
        yield ""
    elif cmd in (_QC["Q_XQUOTAON"], _QC["Q_XQUOTAOFF"], _QC["Q_XQUOTARM"]):
        table, dflt = ((X.XFS_DQBLK_FLAGS, "FS_???_QUOTA") if cmd == _QC["Q_XQUOTARM"]
                       else (X.XFS_QUOTA_FLAGS, "FS_QUOTA_???"))
        yield ", " + p.umove(c, data, _U32_FMT, lambda v: f"[{p.flags(v, table, dflt)}]")
        yield ""
    else:
        yield p.tail((uid(qid), addr(data)))
        yield ""


@syscall("quotactl")
def quotactl(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    rest = _quota_data(p, c, (a[0] & _U32) >> _SUBCMDSHIFT, a[2] & _U32, a[3])
    yield p.args((_qcmd(p, a[0]), f"{p.path(c, a[1])}{next(rest)}"))
    yield next(rest)


@syscall("quotactl_fd")
def quotactl_fd(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    rest = _quota_data(p, c, (a[1] & _U32) >> _SUBCMDSHIFT, a[2] & _U32, a[3])
    yield p.args((p.fd(c, a[0] & _U32), f"{_qcmd(p, a[1])}{next(rest)}"))
    yield next(rest)
