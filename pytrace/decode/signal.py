"""Signals: names, sigsets, siginfo and sigaction, as strace's ``signal.c`` prints them."""

from __future__ import annotations

import struct

from pytrace.decode.format import addr, signed, xlat
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_ASM_SIGRTMIN = 32
_ASM_SIGRTMAX = 64
_NSIG_WORDS = 2  # 64 signals in two 32-bit words on x86_64


def signame(sig: int) -> str:
    """strace's signame(): SIGHUP..., SIGRTMIN, SIGRT_n, else the number."""
    name = X.SIGNAL_NAMES.get(sig)
    if name is not None:
        return name
    if _ASM_SIGRTMIN <= sig <= _ASM_SIGRTMAX:
        return f"SIGRT_{sig - _ASM_SIGRTMIN}"
    return str(sig)


def printsignal(p: Printer, sig: int) -> str:
    """An argument that is a signal number: its name, or the number if it has none."""
    if p.style != "abbrev":
        sig = signed(sig, 32)
        if p.raw:
            return str(sig)
        name = signame(sig) if sig > 0 else None
        return f"{sig} /* {name} */" if name and name[0] == "S" else str(sig)
    sig = signed(sig, 32)
    if 0 < sig <= 255:
        return signame(sig)
    return str(sig)


def sigset_text(p: Printer, data: bytes) -> str:
    """sprintsigmask_n: ``[INT TERM]``, or ``~[...]`` listing the missing ones when 2/3 or more are set."""
    words = len(data) // 4
    size = min(words, _NSIG_WORDS) if len(data) >= 8 else (len(data) + 3) // 4
    mask = int.from_bytes(data[: size * 4].ljust(size * 4, b"\0"), "little")
    nbits = size * 32
    prefix = ""
    if bin(mask).count("1") >= nbits * 2 // 3:
        mask = ~mask & ((1 << nbits) - 1)
        prefix = "~"
    names = [sigmask_name(p, bit + 1) for bit in range(nbits) if mask >> bit & 1]
    return prefix + "[" + " ".join(names) + "]"


def sigmask_name(p: Printer, sig: int) -> str:
    """A member of a printed sigset: ``INT``, ``RTMIN``, ``RT_3`` (``-X verbose``: ``2 /* INT */``)."""
    if p.style != "abbrev":
        return str(sig) if p.raw else f"{sig} /* {sigmask_name(p.abbrev, sig)} */"
    name = X.SIGNAL_NAMES.get(sig)
    if name is not None:
        return name[3:]
    if _ASM_SIGRTMIN <= sig <= _ASM_SIGRTMAX:
        return f"RT_{sig - _ASM_SIGRTMIN}"
    return str(sig)


#: strace's NSIG_BYTES (glibc's NSIG 65 / 8): the largest sigset size it decodes.
_NSIG_BYTES = 8


def sigset_at(p: Printer, c: Call, address: int, size: int, min_len: int = _NSIG_BYTES) -> str:
    """print_sigset_addr_len: the set at ``address`` of ``size`` bytes, or its address.

    strace decodes only sizes from ``min_len`` (the word size; 1 for
    rt_sigpending, which the kernel lets take a shorter set) up to NSIG_BYTES,
    the sizes the kernel accepts; any other size prints the pointer.
    """
    if not address:
        return "NULL"
    if size < min_len or size > _NSIG_BYTES:
        return addr(address)
    data = p.fetch(c, address, size, True)
    if data is None:
        return addr(address)
    return sigset_text(p, data)


# ---------------------------------------------------------------- siginfo

_SI_HEAD = struct.Struct("<iii")


def _si_code_name(p: Printer, signo: int, code: int) -> str:
    if code <= 0 or code == 0x80:
        name = xlat(code, X.SIGINFO_CODES)
    else:
        table = _CODES_BY_SIGNAL.get(signo)
        name = xlat(code, getattr(X, table)) if table else None
    if name is not None:
        return p.print_xlat(code & 0xFFFFFFFF, name)
    return f"{code & 0xFFFFFFFF:#x}"  # print_si_code: an unknown code is the unsigned int in hex


# The si_code table of each signal, by name: a constant table's part is imported when first used
# (tables/xlat.py), so naming them here loads nothing at import.
_CODES_BY_SIGNAL = {
    4: "ILL_CODES", 8: "FPE_CODES", 11: "SEGV_CODES", 7: "BUS_CODES", 5: "TRAP_CODES", 17: "CLD_CODES",
    29: "POLL_CODES", 31: "SYS_CODES",
}
_FAULT_SIGNALS = frozenset((4, 8, 11, 7, 5))  # SIGILL, SIGFPE, SIGSEGV, SIGBUS, SIGTRAP: si_addr


# siginfo_t layout (p.lay: pytrace/decode/layouts.py has the x86_64 and i386 offsets, for the siginfo a tracee passes to
# rt_sigqueueinfo/rt_sigtimedwait/waitid; signal stops get the tracer's native layout from ptrace).
_CLK_TCK = 100


def _sigval(p: Printer, info: bytes) -> tuple[tuple[str, str | int], ...]:
    """printsigval: the union sival_t read both ways (``si_int=42, si_ptr=0x2a``)."""
    val_int, = struct.unpack_from("<i", info, p.lay.SI_VAL)
    val_ptr, = p.lay.SI_PTR.unpack_from(info, p.lay.SI_VAL)
    return (("si_int", val_int), ("si_ptr", addr(val_ptr)))


def clock_t_text(p: Printer, value: int) -> str:
    """print_clock_t: the value as an unsigned 64-bit number and, when positive, a seconds comment."""
    if p.raw:  # no seconds comment in the raw style
        return str(value & 0xFFFFFFFFFFFFFFFF)
    val = value & 0xFFFFFFFFFFFFFFFF
    if not val:
        return "0"
    frac = f"{(val % _CLK_TCK) / _CLK_TCK:.2f}"[2:]
    return f"{val} /* {val // _CLK_TCK}.{frac} s */"


def format_siginfo(p: Printer, signo: int, info: bytes) -> str:
    """printsiginfo: ``{si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=..., ...}``."""
    si_signo, si_errno, si_code = _SI_HEAD.unpack_from(info)
    if not si_signo:  # printsiginfo prints the fields only for a signal
        return "{}"
    out: list[tuple[str, str | int]] = [("si_signo", printsignal(p, si_signo)),
                                        ("si_code", _si_code_name(p, si_signo, si_code))]
    if si_errno:  # print_si_info: after si_code
        err = si_errno & 0xFFFFFFFF  # print_err: the name, else the number unsigned
        out.extend((("si_errno", X.ERRNO_NAMES.get(err, str(err))),))
    u = p.lay.SI_U
    pid, raw_uid = struct.unpack_from("<iI", info, u)
    uid = "-1" if raw_uid == 0xFFFFFFFF else raw_uid  # PRINT_VAL_ID: unsigned except (uid_t) -1
    if si_code <= 0:  # SI_FROMUSER
        if si_code in (0, -6):  # SI_USER, SI_TKILL
            out.extend((("si_pid", p.pid(pid)), ("si_uid", uid)))
        elif si_code == -2:  # SI_TIMER: strace 6.1 prints the sigval whatever it holds
            tid, overrun = struct.unpack_from("<Ii", info, u)
            timerid = f"{tid:#x}" if tid else "0"  # C's %#x
            out.extend((("si_timerid", timerid), ("si_overrun", overrun), *_sigval(p, info)))
        elif si_code == -5:  # SI_SIGIO
            out.extend(_band_fd(p, info))
        else:  # SI_QUEUE, SI_MESGQ, ...: the sigval only if its pointer is not NULL
            out.extend((("si_pid", p.pid(pid)), ("si_uid", uid)))
            if any(info[p.lay.SI_VAL:p.lay.SI_VAL + p.lay.SI_PTR.size]):
                out.extend(_sigval(p, info))
    elif si_signo == 17:  # SIGCHLD
        status, = struct.unpack_from("<i", info, p.lay.SI_VAL)
        utime, stime = p.lay.SI_CLOCKS.unpack_from(info, p.lay.SI_CLOCK_OFF)
        st = str(status) if si_code == 1 else printsignal(p, status)  # CLD_EXITED: a code; otherwise a signal
        out.extend((("si_pid", p.pid(pid)), ("si_uid", uid), ("si_status", st), ("si_utime", clock_t_text(p, utime)), ("si_stime", clock_t_text(p, stime))))
    elif si_signo in _FAULT_SIGNALS:
        fault_addr, = p.lay.SI_PTR.unpack_from(info, u)
        out.extend((("si_addr", addr(fault_addr)),))
        word = p.lay.SI_PTR.size
        if si_signo == 7 and si_code in (4, 5):  # BUS_MCEERR_AR/AO
            lsb, = struct.unpack_from("<h", info, u + word)
            out.append(("si_addr_lsb", f"{lsb:#x}" if lsb else "0"))
        elif si_signo == 11 and si_code == 3:  # SEGV_BNDERR
            lower, = p.lay.SI_PTR.unpack_from(info, u + 2 * word)
            upper, = p.lay.SI_PTR.unpack_from(info, u + 3 * word)
            out.extend((("si_lower", addr(lower)), ("si_upper", addr(upper))))
        elif si_signo == 11 and si_code == 4:  # SEGV_PKUERR
            pkey, = struct.unpack_from("<I", info, u + 2 * word)
            out.extend((("si_pkey", pkey),))
    elif si_signo == 29:  # SIGPOLL/SIGIO: the band and fd of POLL_IN/POLL_OUT/POLL_MSG only
        if si_code in (1, 2, 3):
            out.extend(_band_fd(p, info))
    elif si_signo == 31:  # SIGSYS
        call_addr, = p.lay.SI_PTR.unpack_from(info, u)
        sc, arch = struct.unpack_from("<iI", info, u + p.lay.SI_PTR.size)
        from pytrace.tables.syscalls import AUDIT_ARCH, table

        arch_name = AUDIT_ARCH.get(arch)
        scname = table(arch_name).name(sc) if arch_name else str(sc)
        arch_text = xlat(arch, X.AUDIT_ARCH) or f"{arch:#x}"
        out.extend((("si_call_addr", addr(call_addr)), ("si_syscall", f"__NR_{scname}"), ("si_arch", arch_text)))
    else:
        if pid or raw_uid:
            out.extend((("si_pid", p.pid(pid)), ("si_uid", uid)))
        if any(info[p.lay.SI_VAL:p.lay.SI_VAL + p.lay.SI_PTR.size]):  # print_si_info's default: si_ptr set
            out.extend(_sigval(p, info))
    return p.struct(tuple(out))


def _band_fd(p: Printer, info: bytes) -> tuple[tuple[str, str | int], ...]:
    """``si_band=N, si_fd=N`` of SIGIO: a signed long and an int."""
    band, = p.lay.SI_PTR.unpack_from(info, p.lay.SI_U)
    band -= (band >> (p.lay.SI_PTR.size * 8 - 1)) << (p.lay.SI_PTR.size * 8)  # a signed long
    sfd, = struct.unpack_from("<i", info, p.lay.SI_U + p.lay.SI_PTR.size)
    return (("si_band", band), ("si_fd", sfd))


# ---------------------------------------------------------------- syscalls

_SIG_HANDLERS = {0: "SIG_DFL", 1: "SIG_IGN"}
_SA_RESTORER = 0x04000000


def _sigaction_at(p: Printer, c: Call, address: int) -> str:
    if not address:
        return "NULL"
    # strace's struct new_sigaction has a 64-byte sa_mask, 56 bytes more than the kernel's: it reads
    # them too, so a structure at the very end of a mapping prints as an address there.
    data = p.fetch(c, address, p.lay.KSIGACTION.size + 56, True)
    if data is None:
        return addr(address)
    handler, sa_flags, restorer, mask = p.lay.KSIGACTION.unpack_from(data)
    h = p.print_xlat(handler, _SIG_HANDLERS[handler]) if handler in _SIG_HANDLERS else addr(handler)
    mask_text = sigset_text(p, mask.to_bytes(8, "little"))
    text = f"{{sa_handler={h}, sa_mask={mask_text}, sa_flags={p.flags(sa_flags, X.SIGACTION_FLAGS, 'SA_???')}"
    if sa_flags & _SA_RESTORER:
        text += p.tail((f"sa_restorer={addr(restorer)}",))
    return text + "}"


@syscall("rt_sigaction")
def rt_sigaction(p: Printer, c: Call) -> Generator[str, None, None]:
    sig, act, oldact, size = c.args[:4]
    yield p.head((printsignal(p, sig), _sigaction_at(p, c, act)))
    old = addr(oldact) if c.failed and oldact else _sigaction_at(p, c, oldact)
    yield p.args((f"{old}", f"{size}"))


@syscall("rt_sigprocmask")
def rt_sigprocmask(p: Printer, c: Call) -> Generator[str, None, None]:
    how, nset, oset, size = c.args[:4]
    how_text = p.xval(how & 0xFFFFFFFF, X.SIGPROCMASK_HOW, "SIG_???")
    yield p.head((f"{how_text}", sigset_at(p, c, nset, size)))
    old = addr(oset) if c.failed and oset else sigset_at(p, c, oset, size)
    yield p.args((f"{old}", f"{size}"))


@syscall("rt_sigpending")
def rt_sigpending(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    s, size = c.args[:2]
    yield p.args((f"{addr(s) if c.failed else sigset_at(p, c, s, size, 1)}", f"{size}"))


@syscall("rt_sigsuspend")
def rt_sigsuspend(p: Printer, c: Call) -> str:
    return p.args((sigset_at(p, c, c.args[0], c.args[1]), f"{c.args[1]}"))


@syscall("kill", "tkill")
def kill(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), printsignal(p, c.args[1])))


@syscall("tgkill")
def tgkill(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), p.pid(c.args[1]), printsignal(p, c.args[2])))


_RT_SIGFRAME_MASK_OFFSET = 296  # from the stack pointer at rt_sigreturn entry to uc_sigmask (x86_64)


@syscall("rt_sigreturn")
def rt_sigreturn(p: Printer, c: Call) -> str:
    data = p.fetch(c, c.sp + _RT_SIGFRAME_MASK_OFFSET, 8, True)
    if data is None:
        return p.struct((('mask', addr(c.sp + _RT_SIGFRAME_MASK_OFFSET)),))
    return p.struct((('mask', sigset_text(p, data)),))


#: i386 struct old_sigaction: handler, mask (one word), flags, restorer (old sigaction(67) only).
_OLD_SIGACTION = struct.Struct("<IIII")


def _old_sigaction_at(p: Printer, c: Call, address: int) -> str:
    """decode_old_sigaction: the one-word mask comes before the flags."""
    if not address:
        return "NULL"
    data = p.fetch(c, address, _OLD_SIGACTION.size, True)
    if data is None:
        return addr(address)
    handler, mask, sa_flags, restorer = _OLD_SIGACTION.unpack(data)
    h = p.print_xlat(handler, _SIG_HANDLERS[handler]) if handler in _SIG_HANDLERS else addr(handler)
    text = (f"{{sa_handler={h}, sa_mask={sigset_text(p, mask.to_bytes(4, 'little'))}, "
            f"sa_flags={p.flags(sa_flags, X.SIGACTION_FLAGS, 'SA_???')}")
    if sa_flags & _SA_RESTORER:
        text += p.tail((f"sa_restorer={addr(restorer)}",))
    return text + "}"


@syscall("sigaction")
def sigaction(p: Printer, c: Call) -> Generator[str, None, None]:
    """i386's old sigaction(2) (no x86_64 call has this name)."""
    yield p.head((printsignal(p, signed(c.args[0], 32)), _old_sigaction_at(p, c, c.args[1])))
    yield addr(c.args[2]) if c.failed and c.args[2] else _old_sigaction_at(p, c, c.args[2])


#: i386 sigreturn's frame at the stack pointer: sigcontext (oldmask at word 20), fpstate, extramask.
_SIGFRAME32 = struct.Struct("<80xI628xI")


@syscall("sigreturn")
def sigreturn(p: Printer, c: Call) -> str:
    """i386 sigreturn(2): strace's arch_sigreturn prints the two halves of the restored mask."""
    data = p.fetch(c, c.sp, _SIGFRAME32.size, True)
    if data is None:
        return addr(c.sp)
    low, high = _SIGFRAME32.unpack(data)
    return p.struct((('mask', sigset_text(p, low.to_bytes(4, 'little') + high.to_bytes(4, 'little'))),))


@syscall("restart_syscall")
def restart_syscall(p: Printer, c: Call) -> str:
    """The backend stores the interrupted call's name in ``aux`` (strace's s_prev_ent)."""
    return f"<... resuming interrupted {c.aux or 'system call'} ...>"
