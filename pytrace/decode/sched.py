"""Scheduling, I/O priority, capabilities, pidfds, cross-process access, ptrace, signal queues and
alternate stacks, namespaces, seccomp, memory policy and a few machine-wide knobs, as strace 6.1
prints them (``sched.c``, ``ioprio.c``, ``capability.c``, ``kcmp.c``, ``process_vm.c``,
``process.c`` (ptrace), ``signal.c``, ``sigaltstack.c``, ``seccomp.c``, ``numa.c``, ``syslog.c``,
``reboot.c``, ``ldt.c``, ``getcpu.c``, ``pkeys.c``, ``userfaultfd.c``, ``futex_waitv.c``).

Structures are read through ``format.umove`` / ``format.fetch`` (NULL, failed output,
unreadable memory and ``-e verbose=`` all print the pointer).
"""

from __future__ import annotations

import struct
from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.bpf_insns import seccomp_fprog
from pytrace.decode.desc import iov_addrs, iovec_array
from pytrace.decode.format import (
    addr,
    errno_suffix,
    signed,
    sprintflags,
    xlat,
)
from pytrace.decode.memory import struct_array
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.signal import format_siginfo, printsignal, signame, sigset_at
from pytrace.decode.time import timespec_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1
_INT = struct.Struct("<i")


def hx(value: int) -> str:
    """C's ``%#x``: zero is a bare ``0``."""
    return f"{value:#x}" if value else "0"



def printnum_int(p: Printer, c: Call, address: int) -> str:
    """printnum_int: ``[N]`` or the pointer (NULL, failed output, unreadable)."""
    return p.umove(c, address, _INT, lambda v: f"[{v}]")


def siginfo_at(p: Printer, c: Call, address: int) -> str:
    """printsiginfo_at: ``{si_signo=..., ...}``, ``{}`` for an empty one, or the pointer."""

    def show(data: bytes) -> str:
        return "{}" if _INT.unpack_from(data)[0] == 0 else format_siginfo(p, 0, data)

    return p.umove(c, address, 128, show, ignore_error=True)


# ---------------------------------------------------------------- scheduler


def policy(p: Printer, value: int) -> str:
    return p.xval(value & _U32, X.SCHED_POLICIES, "SCHED_???")


def _sched_getscheduler_rv(p: Printer, c: Call) -> str:
    name = xlat(c.rval & _MASK64, X.SCHED_POLICIES)
    return f"{signed(c.rval, 64)} ({name})" if name else str(signed(c.rval, 64))


@syscall("sched_getscheduler", rval=_sched_getscheduler_rv)
def sched_getscheduler(p: Printer, c: Call) -> str:
    return p.pid(c.args[0])


@syscall("sched_setscheduler")
def sched_setscheduler(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), policy(p, c.args[1]), printnum_int(p, c, c.args[2])))


@syscall("sched_getparam")
def sched_getparam(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    yield printnum_int(p, c, c.args[1])


@syscall("sched_setparam")
def sched_setparam(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), printnum_int(p, c, c.args[1])))


@syscall("sched_get_priority_min", "sched_get_priority_max")
def sched_get_priority(p: Printer, c: Call) -> str:
    return policy(p, c.args[0])


@syscall("sched_rr_get_interval")
def sched_rr_get_interval(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    yield addr(c.args[1]) if c.failed else timespec_at(p, c, c.args[1])


_SCHED_ATTR = struct.Struct("<IIQiIQQQII")
_SCHED_ATTR_SIZE_VER0, _SCHED_ATTR_SIZE_VER1 = 48, 56


def _sched_attr(p: Printer, c: Call, address: int, usize: int) -> str:
    """print_sched_attr (strace 6.1): ``usize`` is sched_getattr's size, 0 for sched_setattr."""
    is_set = usize == 0
    if is_set:
        head = p.fetch(c, address, 4)
        if head is None:
            return addr(address)
        usize = _INT.unpack(head)[0] & _U32 or _SCHED_ATTR_SIZE_VER0
        size = min(usize, _SCHED_ATTR.size)
        data = p.fetch(c, address, size) if size >= _SCHED_ATTR_SIZE_VER0 else head
    else:
        size = min(usize, _SCHED_ATTR.size)
        data = p.fetch(c, address, size)
    if data is None:
        return addr(address)
    fields = _SCHED_ATTR.unpack(data.ljust(_SCHED_ATTR.size, b"\0"))
    if not is_set:
        size = fields[0]
    out = [('size', fields[0])]
    if size >= _SCHED_ATTR_SIZE_VER0:
        (_, pol, fl, nice, prio, runtime, deadline, period, umin, umax) = fields
        # sched_setattr with SCHED_FLAG_KEEP_POLICY (0x8) / KEEP_PARAMS (0x10): strace leaves out
        # what the kernel ignores (a negative policy is still shown).
        if not is_set or pol >= 0x80000000 or not fl & 0x18:
            out.append(('sched_policy', policy(p, pol)))
        out.append(('sched_flags', p.flags(fl, X.SCHED_FLAGS, 'SCHED_FLAG_???')))
        if not is_set or not fl & 0x10:
            out += [('sched_nice', nice), ('sched_priority', prio), ('sched_runtime', runtime),
                    ('sched_deadline', deadline), ('sched_period', period)]
        if size >= _SCHED_ATTR_SIZE_VER1:
            out += [('sched_util_min', umin), ('sched_util_max', umax)]
    if (usize if is_set else fields[0]) > size:
        out.append("...")
    return p.struct(tuple(out))


_E2BIG = 7


@syscall("sched_setattr")
def sched_setattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.args((p.pid(c.args[0]), _sched_attr(p, c, c.args[1], 0)))
    changed = ""
    if c.error == _E2BIG and p.verbose(c):
        size = c.mem.read(c.args[1], 4)
        if size is not None:
            changed = f" => {{size={_INT.unpack(size)[0] & _U32}}}"
    yield p.args((f"{changed}", f"{c.args[2] & _U32}"))


@syscall("sched_getattr")
def sched_getattr(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    size = c.args[2] & _U32
    attr = _sched_attr(p, c, c.args[1], size) if size else addr(c.args[1])
    yield p.args((f"{attr}", f"{size}", f"{c.args[3] & _U32}"))


@syscall("getcpu")
def getcpu(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    a = c.args
    yield p.args((printnum_int(p, c, a[0]), printnum_int(p, c, a[1]), addr(a[2])))


# ---------------------------------------------------------------- I/O priority

_IOPRIO_CLASS_SHIFT = 13
_IOPRIO_PRIO_MASK = (1 << _IOPRIO_CLASS_SHIFT) - 1


def ioprio_value(p: Printer, value: int) -> str:
    """``IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)``."""
    if p.style != "abbrev":  # the decimal value, then (verbose) the expression in a comment
        return str(value & _U32) if p.raw else f"{value & _U32} /* {_ioprio_expr(p, value)} */"
    return _ioprio_expr(p, value)


def _ioprio_expr(p: Printer, value: int) -> str:
    value &= _U32
    cls = p.xval(value >> _IOPRIO_CLASS_SHIFT, X.IOPRIO_CLASS, "IOPRIO_CLASS_???")
    return f"IOPRIO_PRIO_VALUE({cls}, {value & _IOPRIO_PRIO_MASK})"


def ioprio_annotated(p: Printer, value: int) -> str:
    """ioprio_get's result, ``0 (IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0))`` (-X raw: the number alone)."""
    if p.raw:
        return str(signed(value, 64))
    return f"{signed(value, 64)} ({_ioprio_expr(p, value)})"


def _ioprio_get_rv(p: Printer, c: Call) -> str:
    return ioprio_annotated(p, c.rval)


@syscall("ioprio_get", rval=_ioprio_get_rv)
def ioprio_get(p: Printer, c: Call) -> str:
    return p.args((p.xval(c.args[0] & _U32, X.IOPRIO_WHO, 'IOPRIO_WHO_???'), f"{signed(c.args[1], 32)}"))


@syscall("ioprio_set")
def ioprio_set(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.xval(a[0] & _U32, X.IOPRIO_WHO, 'IOPRIO_WHO_???'), f"{signed(a[1], 32)}", ioprio_value(p, a[2])))


# ---------------------------------------------------------------- capabilities

_CAP_HEADER = struct.Struct("<Ii")
_CAP_V2, _CAP_V3 = 0x20071026, 0x20080522


def _cap_header(p: Printer, c: Call, address: int) -> tuple[int, int] | None:
    """get_cap_header: the header, unless NULL, unreadable or the call is not verbose."""
    if not address or not p.verbose(c):
        return None
    data = c.mem.read(address, _CAP_HEADER.size)
    return None if data is None else _CAP_HEADER.unpack(data)


def _print_cap_header(p: Printer, c: Call, address: int, header: tuple[int, int] | None) -> str:
    if header is None:
        return addr(address)
    version, who = header
    return p.struct((('version', p.xval(version, X.CAP_VERSIONS, '_LINUX_CAPABILITY_VERSION_???')), ('pid', p.pid(who))))


def _cap_bits(p: Printer, lo: int, hi: int) -> str:
    parts = []
    if lo or not hi:
        parts.append(p.flags(lo, X.CAP_MASK0, "CAP_???"))
    if hi:
        parts.append(p.flags(hi, X.CAP_MASK1, "CAP_???"))
    return "|".join(parts)


def _print_cap_data(p: Printer, c: Call, address: int, header: tuple[int, int] | None) -> str:
    if header is None:
        return addr(address)
    n = 2 if header[0] in (_CAP_V2, _CAP_V3) else 1
    data = p.fetch(c, address, 12 * n)
    if data is None:
        return addr(address)
    words = struct.unpack(f"<{3 * n}I", data)
    hi = words[3:] if n == 2 else (0, 0, 0)
    return (p.struct((('effective', _cap_bits(p, words[0], hi[0])), ('permitted', _cap_bits(p, words[1], hi[1])), ('inheritable', _cap_bits(p, words[2], hi[2])))))


@syscall("capget")
def capget(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((_print_cap_header(p, c, c.args[0], _cap_header(p, c, c.args[0])),))
    header = None if c.failed else _cap_header(p, c, c.args[0])
    yield _print_cap_data(p, c, c.args[1], header)


@syscall("capset")
def capset(p: Printer, c: Call) -> str:
    header = _cap_header(p, c, c.args[0])
    return p.args((_print_cap_header(p, c, c.args[0], header), _print_cap_data(p, c, c.args[1], header)))


# ---------------------------------------------------------------- pidfds, kcmp, process_vm


@syscall("pidfd_open", rval=rv_fd)
def pidfd_open(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), p.flags(c.args[1] & _U32, X.PIDFD_OPEN_FLAGS, 'PIDFD_???')))


@syscall("pidfd_send_signal")
def pidfd_send_signal(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), printsignal(p, a[1]), siginfo_at(p, c, a[2]), hx(a[3] & _U32)))


@syscall("pidfd_getfd", rval=rv_fd)
def pidfd_getfd(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), p.fd_via_pidfd(c, a[0], a[1]), hx(a[2] & _U32)))


_KCMP = {name: value for value, name in X.KCMP_TYPES}
_KCMP_FILE, _KCMP_EPOLL_TFD = _KCMP["KCMP_FILE"], _KCMP["KCMP_EPOLL_TFD"]
_KCMP_NO_INDEX = frozenset(_KCMP[n] for n in ("KCMP_VM", "KCMP_FILES", "KCMP_FS", "KCMP_SIGHAND", "KCMP_IO",
                                              "KCMP_SYSVSEM"))
_KCMP_EPOLL_SLOT = struct.Struct("<IIQ")


@syscall("kcmp")
def kcmp(p: Printer, c: Call) -> str:
    a = c.args
    ktype = signed(a[2], 32)
    text = p.args((p.pid(a[0]), p.pid(a[1]), p.xval(ktype & _U32, X.KCMP_TYPES, 'KCMP_???')))
    if ktype == _KCMP_FILE:
        text += p.tail((p.fd_in(c, a[0], a[3]), p.fd_in(c, a[1], a[4])))  # each index is an fd of its own process
    elif ktype == _KCMP_EPOLL_TFD:
        slot = p.umove(c, a[4], _KCMP_EPOLL_SLOT, lambda efd, tfd, toff: p.struct((('efd', f"{efd}"), ('tfd', f"{tfd}"), ('toff', f"{toff}"))))
        text += p.tail((p.fd(c, a[3]), f"{slot}"))
    elif ktype not in _KCMP_NO_INDEX:
        text += p.tail((hx(a[3]), hx(a[4])))
    return text


@syscall("process_vm_readv")
def process_vm_readv(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    a = c.args
    local = iov_addrs(p, c, a[1], a[2]) if c.failed else iovec_array(p, c, a[1], a[2], c.rval)
    yield p.args((f"{local}", f"{a[2]}", iov_addrs(p, c, a[3], a[4]), f"{a[4]}", f"{a[5]}"))


@syscall("process_vm_writev")
def process_vm_writev(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.pid(a[0]), iovec_array(p, c, a[1], a[2], None), f"{a[2]}", iov_addrs(p, c, a[3], a[4]), f"{a[4]}", f"{a[5]}")))


@syscall("process_mrelease")
def process_mrelease(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), hx(c.args[1] & _U32)))  # PRINT_VAL_X


# ptrace: pytrace/decode/ptrace.py


# ---------------------------------------------------------------- signal queues, sigaltstack


@syscall("rt_sigqueueinfo")
def rt_sigqueueinfo(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.pid(a[0]), printsignal(p, a[1]), siginfo_at(p, c, a[2])))


@syscall("rt_tgsigqueueinfo")
def rt_tgsigqueueinfo(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.pid(a[0]), p.pid(a[1]), printsignal(p, a[2]), siginfo_at(p, c, a[3])))


def _sigtimedwait_rv(p: Printer, c: Call) -> str:
    value = signed(c.rval, 64)
    return f"{value} ({signame(value)})" if value else str(value)


@syscall("rt_sigtimedwait", rval=_sigtimedwait_rv)
def rt_sigtimedwait(p: Printer, c: Call) -> Generator[str, None, None]:
    """The siginfo is an output: with one (and -v) the rest of the line waits for the exit."""
    a = c.args
    sset = p.head((sigset_at(p, c, a[0], a[3]),))
    if not (a[1] and p.verbose(c)):
        yield p.args((f"{sset}{addr(a[1])}", timespec_at(p, c, a[2]), f"{a[3]}"))
        yield ""
        return
    timeout = timespec_at(p, c, a[2])
    yield sset
    yield p.args((f"{siginfo_at(p, c, a[1]) if not c.failed else addr(a[1])}", f"{timeout}", f"{a[3]}"))




def _stack_t(p: Printer, c: Call, address: int, ignore_error: bool) -> str:
    return p.umove(c, address, p.lay.STACK_T,
                 lambda sp, fl, size: (p.struct((('ss_sp', addr(sp)), ('ss_flags', p.flags(fl & _U32, X.SIGALTSTACK_FLAGS, 'SS_???')), ('ss_size', f"{size}")))), ignore_error)


@syscall("sigaltstack")
def sigaltstack(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((_stack_t(p, c, c.args[0], True),))
    yield _stack_t(p, c, c.args[1], False)


# ---------------------------------------------------------------- namespaces, seccomp


@syscall("unshare")
def unshare(p: Printer, c: Call) -> str:
    return p.flags(c.args[0], X.UNSHARE_FLAGS, "CLONE_???")  # printflags64: all 64 bits


@syscall("setns")
def setns(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), p.flags(c.args[1] & _U32, X.SETNS_TYPES, 'CLONE_NEW???')))


_SEC = {name: value for value, name in X.SECCOMP_OPS}
_SECCOMP_SET_MODE_FILTER = _SEC["SECCOMP_SET_MODE_FILTER"]
_SECCOMP_GET_ACTION_AVAIL, _SECCOMP_GET_NOTIF_SIZES = _SEC["SECCOMP_GET_ACTION_AVAIL"], _SEC["SECCOMP_GET_NOTIF_SIZES"]


@syscall("seccomp")
def seccomp(p: Printer, c: Call) -> Generator[str, None, None]:
    op = c.args[0] & _U32
    fl = c.args[1] & _U32
    arg = c.args[2]
    head = p.head((p.xval(op, X.SECCOMP_OPS, 'SECCOMP_SET_MODE_???'),))
    if op == _SECCOMP_GET_ACTION_AVAIL:
        act = p.umove(c, arg, struct.Struct("<I"), lambda v: f"[{p.xval(v, X.SECCOMP_RET_ACTIONS, 'SECCOMP_RET_???')}]",
                    ignore_error=True)
        yield p.args((f"{head}{hx(fl)}", f"{act}"))
        yield ""
    elif op == _SECCOMP_GET_NOTIF_SIZES:
        yield p.head((f"{head}{hx(fl)}",))
        yield p.umove(c, arg, struct.Struct("<HHH"),
                    lambda n, r, d: p.struct((('seccomp_notif', f"{n}"), ('seccomp_notif_resp', f"{r}"), ('seccomp_data', f"{d}"))))
    elif op == _SECCOMP_SET_MODE_FILTER:
        yield p.args((f"{head}{p.flags(fl, X.SECCOMP_FILTER_FLAGS, 'SECCOMP_FILTER_FLAG_???')}", seccomp_fprog(p, c, arg)))
        yield ""
    else:
        yield p.args((f"{head}{hx(fl)}", addr(arg)))
        yield ""


# ---------------------------------------------------------------- machine-wide knobs

_NEW_UTS_LEN = 64


@syscall("sethostname", "setdomainname")
def sethostname(p: Printer, c: Call) -> str:
    length = c.args[1] & _U32
    name = addr(c.args[0]) if length > _NEW_UTS_LEN else p.string_at(c, c.args[0], length)
    return p.args((f"{name}", f"{length}"))


_LINUX_REBOOT_CMD_RESTART2 = next(v for v, n in X.REBOOT_CMDS if n == "LINUX_REBOOT_CMD_RESTART2")


@syscall("reboot")
def reboot(p: Printer, c: Call) -> str:
    a = c.args
    cmd = a[2] & _U32
    text = (p.args((p.xval(a[0] & _U32, X.REBOOT_MAGIC, 'LINUX_REBOOT_MAGIC_???'), p.xval(a[1] & _U32, X.REBOOT_MAGIC2, 'LINUX_REBOOT_MAGIC_???'), p.xval(cmd, X.REBOOT_CMDS, 'LINUX_REBOOT_CMD_???'))))
    if cmd == _LINUX_REBOOT_CMD_RESTART2:
        text += p.tail((p.cstring_n(c, a[3], 255),))
    return text


_SYSLOG = {name[len("SYSLOG_ACTION_"):]: value for value, name in X.SYSLOG_ACTIONS}
_SYSLOG_NO_BUF = frozenset(_SYSLOG[n] for n in ("CLOSE", "OPEN", "CLEAR", "CONSOLE_OFF", "CONSOLE_ON",
                                                "SIZE_UNREAD", "SIZE_BUFFER"))
_SYSLOG_READS = frozenset(_SYSLOG[n] for n in ("READ", "READ_ALL", "READ_CLEAR"))


_SYSLOG_CONSOLE_LEVEL = next(v for v, n in X.SYSLOG_ACTIONS if n == "SYSLOG_ACTION_CONSOLE_LEVEL")


def _syslog_type(value: int) -> str:
    """printxval_ex(..., XLAT_STYLE_VERBOSE | XLAT_STYLE_FMT_D): always ``N /* NAME */``, whatever -X says."""
    name = xlat(value & _U32, X.SYSLOG_ACTIONS) or "SYSLOG_ACTION_???"
    return f"{value} /* {name} */"


@syscall("syslog")
def syslog(p: Printer, c: Call) -> Generator[str, None, None]:
    kind = signed(c.args[0], 32)
    length = signed(c.args[2], 32)
    head = _syslog_type(kind)
    if kind in _SYSLOG_NO_BUF:
        yield head
        yield ""
    elif kind in _SYSLOG_READS:
        yield head
        buf = addr(c.args[1]) if c.failed else p.string_at(c, c.args[1], c.rval)
        yield p.tail((f"{buf}", f"{length}"))
    else:
        # CONSOLE_LEVEL's length is a log level, printed like the action: always ``N /* NAME */``.
        if kind == _SYSLOG_CONSOLE_LEVEL:
            level = f"{length} /* {xlat(length & _U32, X.SYSLOG_CONSOLE_LEVELS) or 'LOGLEVEL_???'} */"
        else:
            level = str(length)
        yield p.args((f"{head}", addr(c.args[1]), f"{level}"))
        yield ""


@syscall("iopl")
def iopl(p: Printer, c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("ioperm")
def ioperm(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((hx(a[0]), hx(a[1]), f"{signed(a[2], 32)}"))


_USER_DESC = struct.Struct("<IIII")


def _c_0x(value: int, width: int) -> str:
    """C's ``%#0*x``: zero-padded with the ``0x`` counted in the width, and no prefix for zero."""
    return "0" * width if value == 0 else f"{value:#0{width}x}"


def _user_desc(p: Printer, entry: int, base: int, limit: int, bits: int) -> str:
    """print_user_desc: an i386 tracee's structure has no ``lm`` bit (strace ignores it there)."""
    names = ("seg_32bit", "contents", "read_exec_only", "limit_in_pages", "seg_not_present", "useable", "lm")
    widths = (1, 2, 1, 1, 1, 1, 1)
    if p.lay.personality == "i386":
        names, widths = names[:-1], widths[:-1]
    fields = []
    shift = 0
    for name, w in zip(names, widths, strict=True):
        fields.append(f"{name}={(bits >> shift) & ((1 << w) - 1)}")
        shift += w
    # PRINT_FIELD_ID: unsigned, except (unsigned) -1 which prints as -1.
    number = "-1" if entry == 0xFFFFFFFF else str(entry)
    return (f"{{entry_number={number}, base_addr={_c_0x(base, 8)}, limit={_c_0x(limit, 8)}, "
            + ", ".join(fields) + "}")


def _modify_ldt_rv(p: Printer, c: Call) -> str:
    """The kernel returns an int: strace reports a clipped -errno as ``4294967258 ENOSYS (...)``."""
    value = c.rval & _MASK64
    if not c.failed and 0xFFFFF000 <= value <= _U32:
        return f"{value}{errno_suffix(0x100000000 - value)}"
    return str(signed(c.rval, 64))


@syscall("modify_ldt", rval=_modify_ldt_rv)
def modify_ldt(p: Printer, c: Call) -> str:
    a = c.args
    ptr = p.umove(c, a[1], _USER_DESC, lambda *f: _user_desc(p, *f)) if a[2] == _USER_DESC.size else addr(a[1])
    return p.args((f"{signed(a[0], 32)}", f"{ptr}", f"{a[2]}"))


@syscall("set_thread_area", "get_thread_area")
def thread_area(p: Printer, c: Call) -> str:
    return p.umove(c, c.args[0], _USER_DESC, lambda *f: _user_desc(p, *f), ignore_error=True)


# ---------------------------------------------------------------- memory policy (numa.c)

_MPOL_FLAGS_MASK = 0x8000 | 0x4000 | 0x2000  # STATIC_NODES RELATIVE_NODES NUMA_BALANCING


def mpol_mode(p: Printer, value: int) -> str:
    """print_mode: the mode, ``|`` its flags; composite printed whole by -X."""
    fl = value & _MPOL_FLAGS_MASK
    mode = value & ~_MPOL_FLAGS_MASK
    if not fl:
        return p.xval(mode, X.MPOL_MODES, "MPOL_???")
    name = xlat(mode, X.MPOL_MODES)
    if name is None:
        return p.flags(value, X.MPOL_MODE_FLAGS, "MPOL_???")
    return p.print_xlat(value, f"{name}|{sprintflags(fl, X.MPOL_MODE_FLAGS, None)}")


#: The tracee's unsigned long, in bytes: nodemasks are arrays of them (4 in an i386 tracee, decode/i386.py).


def nodemask(p: Printer, c: Call, address: int, maxnodes: int) -> str:
    """print_nodemask: the unsigned longs covering ``maxnodes`` bits, each as ``%#016lx`` (i386: ``%#08lx``)."""
    bits = 8 * p.lay.LONG_SIZE
    nmemb = ((maxnodes + bits - 2) & 0xFFFFFFFFFFFFFFFF) // bits  # kernel_ulong_t arithmetic: it wraps
    if nmemb < maxnodes // bits or (maxnodes and not nmemb):
        return addr(address)
    return struct_array(p, c, address, nmemb, p.lay.LONG_SIZE,
                        lambda raw: _c_0x(int.from_bytes(raw, "little"), 2 * p.lay.LONG_SIZE))


@syscall("set_mempolicy")
def set_mempolicy(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((mpol_mode(p, a[0] & _U32), nodemask(p, c, a[1], a[2]), f"{a[2]}"))


@syscall("get_mempolicy")
def get_mempolicy(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    a = c.args
    mode = p.umove(c, a[0], _INT, lambda v: f"[{p.xval(v & _U32, X.MPOL_MODES, 'MPOL_???')}]")
    yield (p.args((f"{mode}", nodemask(p, c, a[1], a[2]), f"{a[2]}", addr(a[3]), p.flags(a[4], X.GET_MEMPOLICY_FLAGS, 'MPOL_???'))))


@syscall("mbind")
def mbind(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((addr(a[0]), f"{a[1]}", mpol_mode(p, a[2]), nodemask(p, c, a[3], a[4]), f"{a[4]}", p.flags(a[5] & _U32, X.MBIND_FLAGS, 'MPOL_???'))))


@syscall("migrate_pages")
def migrate_pages(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.pid(a[0]), f"{a[1]}", nodemask(p, c, a[2], a[1]), nodemask(p, c, a[3], a[1])))


def _page_status(raw: bytes) -> str:
    """print_status: a page's node, or its -errno by name."""
    status = _INT.unpack(raw)[0]
    if status < 0 and X.ERRNO_NAMES.get(-status):
        return f"-{X.ERRNO_NAMES[-status]}"
    return str(status)


@syscall("move_pages")
def move_pages(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    n = a[1]
    pages = struct_array(p, c, a[2], n, 8, lambda raw: addr(int.from_bytes(raw, "little")))
    nodes = struct_array(p, c, a[3], n, 4, lambda raw: str(_INT.unpack(raw)[0]))
    yield p.head((p.pid(a[0]), f"{n}", f"{pages}", f"{nodes}"))
    yield p.args((struct_array(p, c, a[4], n, 4, _page_status), p.flags(a[5] & _U32, X.MOVE_PAGES_FLAGS, 'MPOL_???')))


@syscall("set_mempolicy_home_node")
def set_mempolicy_home_node(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((addr(a[0]), f"{a[1]}", f"{a[2]}", hx(a[3])))


@syscall("pkey_alloc")
def pkey_alloc(p: Printer, c: Call) -> str:
    return p.args((hx(c.args[0]), p.flags(c.args[1], X.PKEY_ACCESS, 'PKEY_???')))  # both kernel_ulong_t wide


@syscall("pkey_free")
def pkey_free(p: Printer, c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("memfd_secret", rval=rv_fd)
def memfd_secret(p: Printer, c: Call) -> str:
    return p.flags(c.args[0] & _U32, X.MEMFD_SECRET_FLAGS, None) if c.args[0] & _U32 else "0"


@syscall("userfaultfd", rval=rv_fd)
def userfaultfd(p: Printer, c: Call) -> str:
    return p.flags(c.args[0] & _U32, X.UFFD_FLAGS, "UFFD_???")


_FUTEX_WAITV = struct.Struct("<QQII")
_FUTEX_WAITV_MAX = 128  # print_waiter prints "..." in place of any element past it


def _futex_waitv_elem(p: Printer, raw: bytes) -> str:
    """print_waiter: the reserved word only when it is not zero."""
    val, uaddr, fl, reserved = _FUTEX_WAITV.unpack(raw)
    text = f"{{val={hx(val)}, uaddr={addr(uaddr)}, flags={p.flags(fl, X.FUTEX2_FLAGS, 'FUTEX_???')}"
    return text + (f", __reserved={hx(reserved)}}}" if reserved else "}")


@syscall("futex_waitv")
def futex_waitv(p: Printer, c: Call) -> str:
    from pytrace.decode.time import clockname

    a = c.args
    waiters = struct_array(p, c, a[0], a[1] & _U32, _FUTEX_WAITV.size, partial(_futex_waitv_elem, p), _FUTEX_WAITV_MAX)
    return p.args((f"{waiters}", f"{a[1] & _U32}", hx(a[2] & _U32), timespec_at(p, c, a[3]), clockname(p, a[4])))


__all__ = ["hx", "printnum_int", "siginfo_at"]
