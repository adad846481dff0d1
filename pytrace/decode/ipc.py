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
from typing import TYPE_CHECKING

from pytrace.decode.file import open_flags
from pytrace.decode.format import (
    addr,
    fd,
    fetch,
    flags,
    path,
    print_xlat,
    signed,
    string_at,
    umove,
    xval,
)
from pytrace.decode.memory import struct_array
from pytrace.decode.registry import rv_fd, rv_hex, syscall
from pytrace.decode.time import sigevent_at, timespec_at
from pytrace.tables import xlat as X
from pytrace.tables.subcalls import IPC_SUBCALL_BASE

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_IPC_PRIVATE = 0
_IPC_64 = 0x100  # the "new layout" bit of the *ctl commands (linux/ipc.h), in no strace table
_SHM = {name: value for value, name in X.SHMCTL_CMDS}
_MSG = {name: value for value, name in X.MSGCTL_CMDS}
_IPC_SET, _IPC_STAT, _IPC_INFO = _SHM["IPC_SET"], _SHM["IPC_STAT"], _SHM["IPC_INFO"]
#: A long and a pointer of the tracee (i386: 32-bit, see decode/i386.py): msgbuf's mtype, the
#: ``{msgp, msgtyp}`` pair of an old ipc(2) msgrcv, the address an ipc(2) shmat stores.
_LONG = struct.Struct("<q")
_MSGRCV_PAIR = struct.Struct("<Qq")
_ULONG = struct.Struct("<Q")


def _indirect(c: Call) -> bool:
    """Made through i386 ipc(2) (subcalls.py gives those calls strace's scno, past every real one)."""
    return c.nr > IPC_SUBCALL_BASE


def _mode(value: int) -> str:
    """print_numeric_umode_t: ``%#03o``."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


def _key(value: int) -> str:
    value &= _U32
    return print_xlat(value, "IPC_PRIVATE") if value == _IPC_PRIVATE else f"{value:#x}"


def _resource_flags(value: int, table: tuple[tuple[int, str], ...]) -> str:
    """``IPC_CREAT|IPC_EXCL|0600``: the flag bits by name, then the permission bits in octal.

    semget/msgget: strace puts the ``|`` before the mode only when printflags() returned a
    count of named flags, so unknown bits alone run into the mode (``0x22dfc0000146``).
    """
    value &= _U32
    rest = value & ~0o777
    if not rest:
        return _mode(value & 0o777)
    named = any(bit and rest & bit == bit for bit, _ in table)
    return f"{flags(rest, table, None)}{'|' if named else ''}{_mode(value & 0o777)}"


_SHM_HUGE_MASK = 0x3F << 26  # SHM_HUGE_MASK << SHM_HUGE_SHIFT


def _shmget_flags(value: int) -> str:
    """strace's shmget: named flags, ``N<<SHM_HUGE_SHIFT`` for the huge page size, then the mode."""
    value &= _U32
    rest = value & ~0o777
    huge = rest & _SHM_HUGE_MASK
    rest &= ~_SHM_HUGE_MASK
    parts = [flags(rest, X.SHMGET_FLAGS, None)] if rest else []
    if huge:
        parts.append(f"{huge >> 26}<<SHM_HUGE_SHIFT")
    return "|".join([*parts, _mode(value & 0o777)])


def _ctl_cmd(value: int, table: tuple[tuple[int, str], ...], dflt: str) -> str:
    """PRINTCTL: an IPC_64 bit by name, then the command."""
    value &= _U32
    head = print_xlat(_IPC_64, "IPC_64") + "|" if value & _IPC_64 else ""
    return head + xval(value & ~_IPC_64, table, dflt)


def _ipc_id(value: int) -> str:
    return str(signed(value, 32))


def _id(value: int) -> str:
    """PRINT_FIELD_ID: ``-1`` for (uid_t)-1, else unsigned."""
    value &= _U32
    return "-1" if value == _U32 else str(value)


# struct ipc64_perm as strace reads it on x86_64: key, uid, gid, cuid, cgid, mode (__kernel_mode_t,
# unsigned int on 64-bit: all 32 bits are printed), seq, ..., 48 bytes.  decode/i386.py rebinds
# the 16-bit mode of the i386 layout.
_IPC_PERM = struct.Struct("<iIIIIIH6x16x")


def _ipc_perm(raw: bytes, cmd: int) -> str:
    key, uid, gid, cuid, cgid, mode, _seq = _IPC_PERM.unpack(raw)
    text = f"{{uid={_id(uid)}, gid={_id(gid)}, mode={_mode(mode)}"
    if cmd != _IPC_SET:
        text += f", key={key & _U32}, cuid={_id(cuid)}, cgid={_id(cgid)}"
    return text + "}"


@syscall("ipc")
def ipc(c: Call) -> str:
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
_SHM_INFO_S = struct.Struct("<i4xQQQQQ")  # struct shm_info: int used_ids, then 5 aligned longs


def _shmid_ds(c: Call, address: int, cmd: int) -> str:
    def show(raw: bytes) -> str:
        text = f"{{shm_perm={_ipc_perm(raw[:48], cmd)}"
        if cmd != _IPC_SET:
            segsz, atime, dtime, ctime, cpid, lpid, nattch = _SHMID_DS_TAIL.unpack(raw[48:])
            text += (f", shm_segsz={segsz}, shm_cpid={cpid}, shm_lpid={lpid}, shm_nattch={nattch}, "
                     f"shm_atime={atime}, shm_dtime={dtime}, shm_ctime={ctime}")
        return text + "}"

    return umove(c, address, 48 + _SHMID_DS_TAIL.size, show)


@syscall("shmget")
def shmget(c: Call) -> str:
    a = c.args
    return f"{_key(a[0])}, {a[1]}, {_shmget_flags(a[2])}"


def _rv_shmat(c: Call) -> str:
    """ipc(2)'s shmat returns 0 and stores the address at its ``third`` argument: strace shows that."""
    if _indirect(c):
        data = fetch(c, c.args[3], _ULONG.size)
        if data is not None:
            stored = _ULONG.unpack(data)[0]
            return f"{stored:#x}" if stored else "0"  # RVAL_HEX is C's %#lx: no 0x for zero
    return rv_hex(c)


@syscall("shmat", rval=_rv_shmat)
def shmat(c: Call) -> str:
    a = c.args
    return f"{_ipc_id(a[0])}, {addr(a[1])}, {flags(a[2] & _U32, X.SHMAT_FLAGS, 'SHM_???')}"


@syscall("shmdt")
def shmdt(c: Call) -> str:
    return addr(c.args[0])


@syscall("shmctl")
def shmctl(c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[1] & _U32 & ~_IPC_64
    head = f"{_ipc_id(a[0])}, {_ctl_cmd(a[1], X.SHMCTL_CMDS, 'SHM_???')}, "
    if cmd == _IPC_SET:
        yield head + _shmid_ds(c, a[2], cmd)
        yield ""
    elif cmd in (_IPC_STAT, _SHM_STAT, _SHM_STAT_ANY):
        yield head
        yield _shmid_ds(c, a[2], cmd)
    elif cmd == _IPC_INFO:
        yield head
        yield umove(c, a[2], _SHMINFO, lambda mx, mn, mni, seg, al: (
            f"{{shmmax={mx}, shmmin={mn}, shmmni={mni}, shmseg={seg}, shmall={al}}}"))
    elif cmd == _SHM_INFO:
        yield head
        yield umove(c, a[2], _SHM_INFO_S, lambda used, tot, rss, swp, att, succ: (
            f"{{used_ids={used}, shm_tot={tot}, shm_rss={rss}, shm_swp={swp}, swap_attempts={att}, "
            f"swap_successes={succ}}}"))
    else:
        yield head + addr(a[2])
        yield ""


# ---------------------------------------------------------------- sem

_SEMBUF = struct.Struct("<Hhh")


def _sembuf(raw: bytes) -> str:
    num, op, flg = _SEMBUF.unpack(raw)
    return f"{{sem_num={num}, sem_op={op}, sem_flg={flags(flg & 0xFFFF, X.SEMOP_FLAGS, 'SEM_???')}}}"


@syscall("semget")
def semget(c: Call) -> str:
    a = c.args
    return f"{_key(a[0])}, {signed(a[1], 32)}, {_resource_flags(a[2], X.IPC_FLAGS)}"


@syscall("semop")
def semop(c: Call) -> str:
    a = c.args
    return f"{_ipc_id(a[0])}, {struct_array(c, a[1], a[2], _SEMBUF.size, _sembuf)}, {a[2]}"


@syscall("semtimedop")
def semtimedop(c: Call) -> str:
    a = c.args
    return (f"{_ipc_id(a[0])}, {struct_array(c, a[1], a[2], _SEMBUF.size, _sembuf)}, {a[2]}, "
            f"{timespec_at(c, a[3])}")


@syscall("semctl")
def semctl(c: Call) -> str:
    a = c.args
    head = f"{_ipc_id(a[0])}, {signed(a[1], 32)}, {_ctl_cmd(a[2], X.SEMCTL_CMDS, 'SEM_???')}, "
    if _indirect(c):  # ipc(2) passes the address of the union semun: strace prints [its value]
        data = fetch(c, a[3], _ULONG.size)
        return head + (addr(a[3]) if data is None else f"[{addr(_ULONG.unpack(data)[0])}]")
    return head + addr(a[3])


# ---------------------------------------------------------------- msg


def _msgbuf(c: Call, address: int, size: int) -> str:
    """tprint_msgbuf: ``{mtype=N, mtext="..."}``."""
    data = fetch(c, address, _LONG.size)
    if data is None:
        return addr(address)
    mtype = _LONG.unpack(data)[0]
    return f"{{mtype={mtype}, mtext={string_at(c, address + _LONG.size, size)}}}"


def _msg_flags(value: int) -> str:
    return flags(value & _U32, X.MSGRCV_FLAGS, "MSG_???")


@syscall("msgget")
def msgget(c: Call) -> str:
    return f"{_key(c.args[0])}, {_resource_flags(c.args[1], X.IPC_FLAGS)}"


@syscall("msgsnd")
def msgsnd(c: Call) -> str:
    a = c.args
    return f"{_ipc_id(a[0])}, {_msgbuf(c, a[1], a[2])}, {a[2]}, {_msg_flags(a[3])}"


@syscall("msgrcv")
def msgrcv(c: Call) -> Generator[str, None, None]:
    a = c.args
    yield f"{_ipc_id(a[0])}, "
    msgp, msgtyp = a[1], a[3]
    if _indirect(c) and not a[5]:  # old ipc(2) msgrcv: a[1] points to {msgp, msgtyp}
        data = fetch(c, a[1], _MSGRCV_PAIR.size)
        if data is None:
            yield f"{addr(a[1])}, {a[2]}, {_msg_flags(a[4])}"
            return
        msgp, msgtyp = _MSGRCV_PAIR.unpack(data)
    buf = _msgbuf(c, msgp, a[2]) if not c.failed else addr(msgp)
    yield f"{buf}, {a[2]}, {signed(msgtyp, 64)}, {_msg_flags(a[4])}"


_MSQID_DS_TAIL = struct.Struct("<qqqQQQii16x")  # stime rtime ctime cbytes qnum qbytes lspid lrpid
_MSG_STAT, _MSG_STAT_ANY, _MSG_INFO = _MSG["MSG_STAT"], _MSG["MSG_STAT_ANY"], _MSG["MSG_INFO"]
#: struct msginfo: msgpool, msgmap, msgmax, msgmnb, msgmni, msgssz, msgtql (int), msgseg (u16).
_MSGINFO = struct.Struct("<7iH2x")


def _msqid_ds(c: Call, address: int, cmd: int) -> str:
    def show(raw: bytes) -> str:
        text = f"{{msg_perm={_ipc_perm(raw[:48], cmd)}"
        stime, rtime, ctime, _cbytes, qnum, qbytes, lspid, lrpid = _MSQID_DS_TAIL.unpack(raw[48:])
        if cmd == _IPC_SET:
            return text + f", msg_qbytes={qbytes}}}"
        return (text + f", msg_stime={stime}, msg_rtime={rtime}, msg_ctime={ctime}, msg_qnum={qnum}, "
                f"msg_qbytes={qbytes}, msg_lspid={lspid}, msg_lrpid={lrpid}}}")

    return umove(c, address, 48 + _MSQID_DS_TAIL.size, show)


@syscall("msgctl")
def msgctl(c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[1] & _U32 & ~_IPC_64
    head = f"{_ipc_id(a[0])}, {_ctl_cmd(a[1], X.MSGCTL_CMDS, 'MSG_???')}, "
    if cmd == _IPC_SET:
        yield head + _msqid_ds(c, a[2], cmd)
        yield ""
    elif cmd in (_IPC_STAT, _MSG_STAT, _MSG_STAT_ANY):
        yield head
        yield _msqid_ds(c, a[2], cmd)
    elif cmd in (_IPC_INFO, _MSG_INFO):  # print_msginfo, at exit
        yield head
        yield umove(c, a[2], _MSGINFO, lambda pool, mp, mx, mnb, mni, ssz, tql, seg: (
            f"{{msgpool={pool}, msgmap={mp}, msgmax={mx}, msgmnb={mnb}, msgmni={mni}, msgssz={ssz}, "
            f"msgtql={tql}, msgseg={seg}}}"))
    else:
        yield head + addr(a[2])
        yield ""


# ---------------------------------------------------------------- POSIX message queues

_MQ_ATTR = struct.Struct("<Qqqq")  # mq_flags printed as unsigned bits
_O_CREAT = 0o100


def _hex0(value: int) -> str:
    """C's ``%#llx`` (PRINT_FIELD_X): ``0`` for zero, else ``0x...``."""
    return f"{value:#x}" if value else "0"


def _mq_attr(c: Call, address: int, ignore_error: bool = True, decode_flags: bool = True) -> str:
    """printmqattr: mq_open's attributes show mq_flags in hex (decode_flags false), mq_getsetattr's by name."""
    return umove(c, address, _MQ_ATTR, lambda fl, mx, size, cur: (
        f"{{mq_flags={flags(fl, X.MQ_ATTR_FLAGS, 'O_???') if decode_flags else _hex0(fl)}, mq_maxmsg={mx}, "
        f"mq_msgsize={size}, mq_curmsgs={cur}}}"), ignore_error)


@syscall("mq_open", rval=rv_fd)
def mq_open(c: Call) -> str:
    a = c.args
    text = f"{path(c, a[0])}, {open_flags(a[1])}"
    if a[1] & _O_CREAT:
        text += f", {_mode(a[2] & _U32)}, {_mq_attr(c, a[3], decode_flags=False)}"
    return text


@syscall("mq_unlink")
def mq_unlink(c: Call) -> str:
    return path(c, c.args[0])


@syscall("mq_timedsend")
def mq_timedsend(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {string_at(c, a[1], a[2])}, {a[2]}, {a[3] & _U32}, {timespec_at(c, a[4])}"


@syscall("mq_timedreceive")
def mq_timedreceive(c: Call) -> Generator[str, None, None]:
    a = c.args
    yield f"{fd(c, a[0])}, "
    buf = addr(a[1]) if c.failed else string_at(c, a[1], c.rval)
    prio = umove(c, a[3], struct.Struct("<I"), lambda v: f"[{v}]")
    yield f"{buf}, {a[2]}, {prio}, {timespec_at(c, a[4])}"


@syscall("mq_notify")
def mq_notify(c: Call) -> str:
    return f"{fd(c, c.args[0])}, {sigevent_at(c, c.args[1])}"


@syscall("mq_getsetattr")
def mq_getsetattr(c: Call) -> Generator[str, None, None]:
    a = c.args
    yield f"{fd(c, a[0])}, {_mq_attr(c, a[1])}, "
    yield _mq_attr(c, a[2], False)
