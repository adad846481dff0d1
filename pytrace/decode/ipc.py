"""System V IPC (shm, sem, msg) and POSIX message queues, as strace 6.1 prints them
(``ipc.c``, ``ipc_shm.c``, ``ipc_shmctl.c``, ``ipc_sem.c``, ``ipc_msg.c``, ``ipc_msgctl.c``,
``mq.c``).

The ``*ctl`` STAT commands fill a structure, so those calls are split: the
command at entry, the structure at exit (IPC_SET's input structure is printed
at entry, like strace).  Layouts are x86_64 glibc's ``struct shmid_ds`` /
``struct msqid_ds``.
"""

from __future__ import annotations

import struct
from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.file import open_flags
from pytrace.decode.format import (
    addr,
    signed,
)
from pytrace.decode.memory import struct_array
from pytrace.decode.registry import rv_fd, rv_hex, syscall
from pytrace.decode.time import sigevent_at, timespec_at
from pytrace.tables import xlat as X
from pytrace.tables.subcalls import IPC_SUBCALL_BASE

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_IPC_PRIVATE = 0
_IPC_64 = 0x100  # the "new layout" bit of the *ctl commands (linux/ipc.h), in no strace table
_SHM = {name: value for value, name in X.SHMCTL_CMDS}
_MSG = {name: value for value, name in X.MSGCTL_CMDS}
_IPC_SET, _IPC_STAT, _IPC_INFO = _SHM["IPC_SET"], _SHM["IPC_STAT"], _SHM["IPC_INFO"]
#: A long and a pointer of the tracee (i386: 32-bit, see decode/i386.py): msgbuf's mtype, the
#: ``{msgp, msgtyp}`` pair of an old ipc(2) msgrcv, the address an ipc(2) shmat stores.


def _indirect(p: Printer, c: Call) -> bool:
    """Made through i386 ipc(2) (subcalls.py gives those calls strace's scno, past every real one)."""
    return c.nr > IPC_SUBCALL_BASE


def _mode(value: int) -> str:
    """print_numeric_umode_t: ``%#03o``."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


def _key(p: Printer, value: int) -> str:
    value &= _U32
    return p.print_xlat(value, "IPC_PRIVATE") if value == _IPC_PRIVATE else f"{value:#x}"


def _resource_flags(p: Printer, value: int, table: tuple[tuple[int, str], ...]) -> str:
    """``IPC_CREAT|IPC_EXCL|0600``: the flag bits by name, then the permission bits in octal.

    semget/msgget: strace puts the ``|`` before the mode only when printflags() returned a
    count of named flags, so unknown bits alone run into the mode (``0x22dfc0000146``).
    """
    value &= _U32
    rest = value & ~0o777
    if not rest:
        return _mode(value & 0o777)
    named = any(bit and rest & bit == bit for bit, _ in table)
    return f"{p.flags(rest, table, None)}{'|' if named else ''}{_mode(value & 0o777)}"


_SHM_HUGE_MASK = 0x3F << 26  # SHM_HUGE_MASK << SHM_HUGE_SHIFT


def _shmget_flags(p: Printer, value: int) -> str:
    """strace's shmget: named flags, ``N<<SHM_HUGE_SHIFT`` for the huge page size, then the mode."""
    value &= _U32
    rest = value & ~0o777
    huge = rest & _SHM_HUGE_MASK
    rest &= ~_SHM_HUGE_MASK
    parts = [p.flags(rest, X.SHMGET_FLAGS, None)] if rest else []
    if huge:
        parts.append(f"{huge >> 26}<<SHM_HUGE_SHIFT")
    return "|".join([*parts, _mode(value & 0o777)])


def _ctl_cmd(p: Printer, value: int, table: tuple[tuple[int, str], ...], dflt: str) -> str:
    """PRINTCTL: an IPC_64 bit by name, then the command."""
    value &= _U32
    head = p.print_xlat(_IPC_64, "IPC_64") + "|" if value & _IPC_64 else ""
    return head + p.xval(value & ~_IPC_64, table, dflt)


def _ipc_id(value: int) -> str:
    return str(signed(value, 32))


def _id(value: int) -> str:
    """PRINT_FIELD_ID: ``-1`` for (uid_t)-1, else unsigned."""
    value &= _U32
    return "-1" if value == _U32 else str(value)


# struct ipc64_perm as strace reads it on x86_64: key, uid, gid, cuid, cgid, mode (__kernel_mode_t,
# unsigned int on 64-bit: all 32 bits are printed), seq, ..., 48 bytes (p.lay.IPC_PERM; i386's has a
# 16-bit mode).


def _ipc_perm(p: Printer, raw: bytes, cmd: int) -> str:
    key, uid, gid, cuid, cgid, mode, _seq = p.lay.IPC_PERM.unpack(raw)
    text = f"{{uid={_id(uid)}, gid={_id(gid)}, mode={_mode(mode)}"
    if cmd != _IPC_SET:
        text += p.tail((f"key={key & _U32}", f"cuid={_id(cuid)}", f"cgid={_id(cgid)}"))
    return text + "}"


@syscall("ipc")
def ipc(p: Printer, c: Call) -> str:
    """i386 ipc(2) with a call number that is no subcall (the others are printed as the subcall,
    tables/subcalls.py): strace's SYS_FUNC(ipc), ``VERSION<<16|CALL`` then the words in hex."""
    call = c.args[0] & _U32
    version, call = call >> 16, call & 0xFFFF
    head = f"{version}<<16|" if version else ""
    return head + ", ".join([str(call), *((f"{v & _U32:#x}" if v & _U32 else "0") for v in c.args[1:6])])


# ---------------------------------------------------------------- shm

_SHMID_DS_TAIL = struct.Struct("<QqqqiiQ16x")  # segsz, atime, dtime, ctime, cpid, lpid, nattch
_SHM_STAT, _SHM_INFO, _SHM_STAT_ANY = _SHM["SHM_STAT"], _SHM["SHM_INFO"], _SHM["SHM_STAT_ANY"]
_SHMINFO = struct.Struct("<QQQQQ")


def _shmid_ds(p: Printer, c: Call, address: int, cmd: int) -> str:
    def show(raw: bytes) -> str:
        text = f"{{shm_perm={_ipc_perm(p, raw[:48], cmd)}"
        if cmd != _IPC_SET:
            segsz, atime, dtime, ctime, cpid, lpid, nattch = _SHMID_DS_TAIL.unpack(raw[48:])
            text += (p.tail((f"shm_segsz={segsz}", f"shm_cpid={cpid}", f"shm_lpid={lpid}", f"shm_nattch={nattch}", f"shm_atime={atime}", f"shm_dtime={dtime}", f"shm_ctime={ctime}")))
        return text + "}"

    return p.umove(c, address, 48 + _SHMID_DS_TAIL.size, show)


@syscall("shmget")
def shmget(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((_key(p, a[0]), f"{a[1]}", _shmget_flags(p, a[2])))


def _rv_shmat(p: Printer, c: Call) -> str:
    """ipc(2)'s shmat returns 0 and stores the address at its ``third`` argument: strace shows that."""
    if _indirect(p, c):
        data = p.fetch(c, c.args[3], p.lay.ULONG.size)
        if data is not None:
            stored = p.lay.ULONG.unpack(data)[0]
            return f"{stored:#x}" if stored else "0"  # RVAL_HEX is C's %#lx: no 0x for zero
    return rv_hex(p, c)


@syscall("shmat", rval=_rv_shmat)
def shmat(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((_ipc_id(a[0]), addr(a[1]), p.flags(a[2] & _U32, X.SHMAT_FLAGS, 'SHM_???')))


@syscall("shmdt")
def shmdt(p: Printer, c: Call) -> str:
    return addr(c.args[0])


@syscall("shmctl")
def shmctl(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[1] & _U32 & ~_IPC_64
    head = p.head((_ipc_id(a[0]), _ctl_cmd(p, a[1], X.SHMCTL_CMDS, 'SHM_???')))
    if cmd == _IPC_SET:
        yield head + _shmid_ds(p, c, a[2], cmd)
        yield ""
    elif cmd in (_IPC_STAT, _SHM_STAT, _SHM_STAT_ANY):
        yield head
        yield _shmid_ds(p, c, a[2], cmd)
    elif cmd == _IPC_INFO:
        yield head
        yield p.umove(c, a[2], _SHMINFO, lambda mx, mn, mni, seg, al: (
            p.struct((('shmmax', f"{mx}"), ('shmmin', f"{mn}"), ('shmmni', f"{mni}"), ('shmseg', f"{seg}"), ('shmall', f"{al}")))))
    elif cmd == _SHM_INFO:
        yield head
        yield p.umove(c, a[2], p.lay.SHM_INFO_S, lambda used, tot, rss, swp, att, succ: (
            p.struct((('used_ids', f"{used}"), ('shm_tot', f"{tot}"), ('shm_rss', f"{rss}"), ('shm_swp', f"{swp}"), ('swap_attempts', f"{att}"), ('swap_successes', f"{succ}")))))
    else:
        yield head + addr(a[2])
        yield ""


# ---------------------------------------------------------------- sem

_SEMBUF = struct.Struct("<Hhh")


def _sembuf(p: Printer, raw: bytes) -> str:
    num, op, flg = _SEMBUF.unpack(raw)
    return p.struct((('sem_num', f"{num}"), ('sem_op', f"{op}"), ('sem_flg', p.flags(flg & 0xFFFF, X.SEMOP_FLAGS, 'SEM_???'))))


@syscall("semget")
def semget(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((_key(p, a[0]), f"{signed(a[1], 32)}", _resource_flags(p, a[2], X.IPC_FLAGS)))


@syscall("semop")
def semop(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((_ipc_id(a[0]), struct_array(p, c, a[1], a[2], _SEMBUF.size, partial(_sembuf, p)), f"{a[2]}"))


@syscall("semtimedop")
def semtimedop(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((_ipc_id(a[0]), struct_array(p, c, a[1], a[2], _SEMBUF.size, partial(_sembuf, p)), f"{a[2]}", timespec_at(p, c, a[3]))))


@syscall("semctl")
def semctl(p: Printer, c: Call) -> str:
    a = c.args
    head = p.head((_ipc_id(a[0]), f"{signed(a[1], 32)}", _ctl_cmd(p, a[2], X.SEMCTL_CMDS, 'SEM_???')))
    if _indirect(p, c):  # ipc(2) passes the address of the union semun: strace prints [its value]
        data = p.fetch(c, a[3], p.lay.ULONG.size)
        return head + (addr(a[3]) if data is None else f"[{addr(p.lay.ULONG.unpack(data)[0])}]")
    return head + addr(a[3])


# ---------------------------------------------------------------- msg


def _msgbuf(p: Printer, c: Call, address: int, size: int) -> str:
    """tprint_msgbuf: ``{mtype=N, mtext="..."}``."""
    data = p.fetch(c, address, p.lay.LONG.size)
    if data is None:
        return addr(address)
    mtype = p.lay.LONG.unpack(data)[0]
    return p.struct((('mtype', f"{mtype}"), ('mtext', p.string_at(c, address + p.lay.LONG.size, size))))


def _msg_flags(p: Printer, value: int) -> str:
    return p.flags(value & _U32, X.MSGRCV_FLAGS, "MSG_???")


@syscall("msgget")
def msgget(p: Printer, c: Call) -> str:
    return p.args((_key(p, c.args[0]), _resource_flags(p, c.args[1], X.IPC_FLAGS)))


@syscall("msgsnd")
def msgsnd(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((_ipc_id(a[0]), _msgbuf(p, c, a[1], a[2]), f"{a[2]}", _msg_flags(p, a[3])))


@syscall("msgrcv")
def msgrcv(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    yield p.head((_ipc_id(a[0]),))
    msgp, msgtyp = a[1], a[3]
    if _indirect(p, c) and not a[5]:  # old ipc(2) msgrcv: a[1] points to {msgp, msgtyp}
        data = p.fetch(c, a[1], p.lay.MSGRCV_PAIR.size)
        if data is None:
            yield p.args((addr(a[1]), f"{a[2]}", _msg_flags(p, a[4])))
            return
        msgp, msgtyp = p.lay.MSGRCV_PAIR.unpack(data)
    buf = _msgbuf(p, c, msgp, a[2]) if not c.failed else addr(msgp)
    yield p.args((f"{buf}", f"{a[2]}", f"{signed(msgtyp, 64)}", _msg_flags(p, a[4])))


_MSQID_DS_TAIL = struct.Struct("<qqqQQQii16x")  # stime rtime ctime cbytes qnum qbytes lspid lrpid
_MSG_STAT, _MSG_STAT_ANY, _MSG_INFO = _MSG["MSG_STAT"], _MSG["MSG_STAT_ANY"], _MSG["MSG_INFO"]
#: struct msginfo: msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql (int), msgseg (u16).
_MSGINFO = struct.Struct("<7iH2x")


def _msqid_ds(p: Printer, c: Call, address: int, cmd: int) -> str:
    def show(raw: bytes) -> str:
        text = f"{{msg_perm={_ipc_perm(p, raw[:48], cmd)}"
        stime, rtime, ctime, _cbytes, qnum, qbytes, lspid, lrpid = _MSQID_DS_TAIL.unpack(raw[48:])
        if cmd == _IPC_SET:
            return text + f", msg_qbytes={qbytes}}}"
        return (text + f", msg_stime={stime}, msg_rtime={rtime}, msg_ctime={ctime}, msg_qnum={qnum}, "
                f"msg_qbytes={qbytes}, msg_lspid={lspid}, msg_lrpid={lrpid}}}")

    return p.umove(c, address, 48 + _MSQID_DS_TAIL.size, show)


@syscall("msgctl")
def msgctl(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[1] & _U32 & ~_IPC_64
    head = p.head((_ipc_id(a[0]), _ctl_cmd(p, a[1], X.MSGCTL_CMDS, 'MSG_???')))
    if cmd == _IPC_SET:
        yield head + _msqid_ds(p, c, a[2], cmd)
        yield ""
    elif cmd in (_IPC_STAT, _MSG_STAT, _MSG_STAT_ANY):
        yield head
        yield _msqid_ds(p, c, a[2], cmd)
    elif cmd in (_IPC_INFO, _MSG_INFO):  # print_msginfo, at exit
        yield head
        yield p.umove(c, a[2], _MSGINFO, lambda pool, mp, mx, mnb, mni, ssz, tql, seg: (
            p.struct((('msgpool', f"{pool}"), ('msgmap', f"{mp}"), ('msgmax', f"{mx}"), ('msgmnb', f"{mnb}"), ('msgmni', f"{mni}"), ('msgssz', f"{ssz}"), ('msgtql', f"{tql}"), ('msgseg', f"{seg}")))))
    else:
        yield head + addr(a[2])
        yield ""


# ---------------------------------------------------------------- POSIX message queues

_MQ_ATTR = struct.Struct("<Qqqq")  # mq_flags printed as unsigned bits
_O_CREAT = 0o100


def _hex0(value: int) -> str:
    """C's ``%#llx`` (PRINT_FIELD_X): ``0`` for zero, else ``0x...``."""
    return f"{value:#x}" if value else "0"


def _mq_attr(p: Printer, c: Call, address: int, ignore_error: bool = True, decode_flags: bool = True) -> str:
    """printmqattr: mq_open's attributes show mq_flags in hex (decode_flags false), mq_getsetattr's by name."""
    return p.umove(c, address, _MQ_ATTR, lambda fl, mx, size, cur: (
        p.struct((('mq_flags', f"{p.flags(fl, X.MQ_ATTR_FLAGS, 'O_???') if decode_flags else _hex0(fl)}"), ('mq_maxmsg', f"{mx}"), ('mq_msgsize', f"{size}"), ('mq_curmsgs', f"{cur}")))), ignore_error)


@syscall("mq_open", rval=rv_fd)
def mq_open(p: Printer, c: Call) -> str:
    a = c.args
    text = p.args((p.path(c, a[0]), open_flags(p, a[1])))
    if a[1] & _O_CREAT:
        text += p.tail((_mode(a[2] & _U32), _mq_attr(p, c, a[3], decode_flags=False)))
    return text


@syscall("mq_unlink")
def mq_unlink(p: Printer, c: Call) -> str:
    return p.path(c, c.args[0])


@syscall("mq_timedsend")
def mq_timedsend(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), p.string_at(c, a[1], a[2]), f"{a[2]}", f"{a[3] & _U32}", timespec_at(p, c, a[4])))


@syscall("mq_timedreceive")
def mq_timedreceive(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    yield p.head((p.fd(c, a[0]),))
    buf = addr(a[1]) if c.failed else p.string_at(c, a[1], c.rval)
    prio = p.umove(c, a[3], struct.Struct("<I"), lambda v: f"[{v}]")
    yield p.args((f"{buf}", f"{a[2]}", f"{prio}", timespec_at(p, c, a[4])))


@syscall("mq_notify")
def mq_notify(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), sigevent_at(p, c, c.args[1])))


@syscall("mq_getsetattr")
def mq_getsetattr(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    yield p.head((p.fd(c, a[0]), _mq_attr(p, c, a[1])))
    yield _mq_attr(p, c, a[2], False)
