"""ptrace(2) as strace 6.1 prints it (``src/ptrace.c``, ``ptrace_syscall_info.c``, ``regset.c`` and
``linux/x86_64/arch_{prstatus_regset,fpregset}.c``).

Every request's address and data are decoded the way strace does: PEEKUSER/POKEUSER offsets by
name (``8*RAX``, ``offsetof(struct user, u_debugreg)+56``), REGSET iovecs with the registers
they point to, PEEKSIGINFO's arguments and siginfo array, GET_SYSCALL_INFO's structure, the
seccomp metadata, and output arguments (PEEK*, GETEVENTMSG, GETSIGINFO, GETSIGMASK, GETREGS...)
at exit.  Structures are read through ``format.fetch`` so ``-e verbose=`` and failed calls print
the pointer as in strace.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Generator
from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.bpf_insns import classic_prog, seccomp_k
from pytrace.decode.format import addr
from pytrace.decode.memory import struct_array
from pytrace.decode.registry import syscall
from pytrace.decode.sched import siginfo_at
from pytrace.decode.signal import format_siginfo, printsignal, sigset_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_PT = {name: value for value, name in X.PTRACE_CMDS}
_NT = {name: value for value, name in X.NT_DESCRIPTOR_TYPES}
_OP = {name: value for value, name in X.PTRACE_SYSCALL_INFO_OP}
_TRACEME = _PT["PTRACE_TRACEME"]
_NO_ADDR_DATA = frozenset(_PT[n] for n in ("PTRACE_ATTACH", "PTRACE_INTERRUPT", "PTRACE_KILL", "PTRACE_LISTEN"))
_SIGNAL_DATA = frozenset(_PT[n] for n in ("PTRACE_CONT", "PTRACE_DETACH", "PTRACE_SYSCALL", "PTRACE_SINGLESTEP",
                                          "PTRACE_SINGLEBLOCK", "PTRACE_SYSEMU", "PTRACE_SYSEMU_SINGLESTEP"))
_OPTIONS_DATA = frozenset(_PT[n] for n in ("PTRACE_SEIZE", "PTRACE_SETOPTIONS", "PTRACE_OLDSETOPTIONS"))
_NUMBER_ADDR = frozenset(_PT[n] for n in ("PTRACE_GETSIGMASK", "PTRACE_SETSIGMASK", "PTRACE_SECCOMP_GET_FILTER",
                                          "PTRACE_SECCOMP_GET_METADATA", "PTRACE_GET_SYSCALL_INFO"))
_USER_ADDR = frozenset((_PT["PTRACE_PEEKUSER"], _PT["PTRACE_POKEUSER"]))
_REGSET = frozenset((_PT["PTRACE_GETREGSET"], _PT["PTRACE_SETREGSET"]))
_PEEK = frozenset(_PT[n] for n in ("PTRACE_PEEKDATA", "PTRACE_PEEKTEXT", "PTRACE_PEEKUSER"))
# Requests whose data is an output printed at exit (only when structures are decoded: verbose()).
_OUTPUT = _PEEK | frozenset(_PT[n] for n in ("PTRACE_GETEVENTMSG", "PTRACE_GETSIGINFO", "PTRACE_GETSIGMASK",
                                             "PTRACE_PEEKSIGINFO", "PTRACE_SECCOMP_GET_FILTER",
                                             "PTRACE_GET_SYSCALL_INFO"))
(_GETREGS, _SETREGS, _GETFPREGS, _SETFPREGS, _GETREGSET, _SETREGSET, _PEEKSIGINFO, _GETEVENTMSG, _GETSIGINFO,
 _SETSIGINFO, _GETSIGMASK, _SETSIGMASK, _GET_FILTER, _GET_METADATA, _GET_SYSCALL_INFO) = (
    _PT[n] for n in ("PTRACE_GETREGS", "PTRACE_SETREGS", "PTRACE_GETFPREGS", "PTRACE_SETFPREGS",
                     "PTRACE_GETREGSET", "PTRACE_SETREGSET", "PTRACE_PEEKSIGINFO", "PTRACE_GETEVENTMSG",
                     "PTRACE_GETSIGINFO", "PTRACE_SETSIGINFO", "PTRACE_GETSIGMASK", "PTRACE_SETSIGMASK",
                     "PTRACE_SECCOMP_GET_FILTER", "PTRACE_SECCOMP_GET_METADATA", "PTRACE_GET_SYSCALL_INFO"))
_NT_PRSTATUS, _NT_FPREGSET = _NT["NT_PRSTATUS"], _NT["NT_FPREGSET"]

_Q = struct.Struct("<Q")
_IOVEC = struct.Struct("<QQ")
_PEEKSIGINFO_ARGS = struct.Struct("<QII")
_SIGINFO_SIZE = 128


# ---------------------------------------------------------------- PEEKUSER / POKEUSER


def user_offset(p: Printer, value: int) -> str:
    """print_user_offset_addr: the struct user member at or below ``value`` (+ the rest), or the address.

    Past the last member (``sizeof(struct user)``) only the exact offset has a name.
    """
    best = None
    for off, name in X.STRUCT_USER_OFFSETS:  # sorted by offset
        if off > value:
            break
        best = (off, name)
    if best is None or (value > best[0] and best[0] == X.STRUCT_USER_OFFSETS[-1][0]):
        return addr(value)
    name = best[1] if best[0] == value else f"{best[1]}+{value - best[0]}"
    return p.print_xlat(value, name)


# ---------------------------------------------------------------- register sets

# struct user_regs_struct (NT_PRSTATUS, PTRACE_GETREGS): 27 eight-byte registers.
_PRSTATUS_FIELDS = ("r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx",
                    "rsi", "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds",
                    "es", "fs", "gs")
_PRSTATUS_SIZE = 8 * len(_PRSTATUS_FIELDS)
# struct user_fpregs_struct (NT_FPREGSET, PTRACE_GETFPREGS): (name, offset, format, array length or 0).
_FPREGS_FIELDS = (("cwd", 0, "H", 0), ("swd", 2, "H", 0), ("ftw", 4, "H", 0), ("fop", 6, "H", 0),
                  ("rip", 8, "Q", 0), ("rdp", 16, "Q", 0), ("mxcsr", 24, "I", 0), ("mxcr_mask", 28, "I", 0),
                  ("st_space", 32, "I", 32), ("xmm_space", 160, "I", 64), ("padding", 416, "I", 24))
_FPREGS_SIZE = 512


def _x(value: int) -> str:
    return f"{value:#x}" if value else "0"


def _xint_array(p: Printer, data: bytes, count: int, size: int) -> str:
    """PRINT_FIELD_ARRAY_UPTO with print_xint_array_member: hex elements, cut after -s unless -v."""
    code = {4: "<I", 8: "<Q"}[size]
    shown = count if p.opts.verbose or count <= p.opts.max_strlen else p.opts.max_strlen
    parts = [_x(v) for (v,) in struct.iter_unpack(code, data[:shown * size])]
    if shown < count:
        parts.append("...")
    return "[" + ", ".join(parts) + "]"


def _regs_struct(p: Printer, c: Call, address: int, size: int, fields_text: Callable[[bytes], list[str]], full: int) -> str:
    """The arch_decode_*regset shape: the address unless ``size`` is a non-zero multiple of 8, else the
    fields that start inside the first ``size`` bytes, and ``...`` when ``size`` exceeds the structure."""
    if not size or size & 7:
        return addr(address)
    data = p.fetch(c, address, min(size, full))
    if data is None:
        return addr(address)
    parts = fields_text(data)
    if size > full:
        parts.append("...")
    return "{" + ", ".join(parts) + "}"


def _prstatus_fields(data: bytes) -> list[str]:
    return [f"{name}={_x(v)}" for name, (v,) in zip(_PRSTATUS_FIELDS, struct.iter_unpack("<Q", data), strict=False)]


def _fpregs_fields(p: Printer, data: bytes) -> list[str]:
    parts = []
    for name, off, code, count in _FPREGS_FIELDS:
        if len(data) <= off:
            break
        if count:
            n = min(count, (len(data) - off) // 4)
            parts.append(f"{name}={_xint_array(p, data[off:], n, 4)}")
        else:
            parts.append(f"{name}={_x(struct.unpack_from('<' + code, data, off)[0])}")
    return parts


def prstatus_regset(p: Printer, c: Call, address: int, size: int) -> str:
    return _regs_struct(p, c, address, size, _prstatus_fields, _PRSTATUS_SIZE)


def fpregset(p: Printer, c: Call, address: int, size: int) -> str:
    return _regs_struct(p, c, address, size, partial(_fpregs_fields, p), _FPREGS_SIZE)


def _regset(p: Printer, c: Call, nt: int, base: int, length: int) -> str:
    """decode_regset: the registers for the note types strace knows, else the buffer's address."""
    if nt == _NT_PRSTATUS:
        return prstatus_regset(p, c, base, length)
    if nt == _NT_FPREGSET:
        return fpregset(p, c, base, length)
    return addr(base)


def _iovec(p: Printer, c: Call, address: int) -> tuple[int, int] | None:
    """fetch_struct_iovec: read at entry and at exit alike (the kernel rewrites iov_len)."""
    data = p.fetch(c, address, _IOVEC.size, ignore_error=True)
    return None if data is None else _IOVEC.unpack(data)


# ---------------------------------------------------------------- PTRACE_GET_SYSCALL_INFO

_PSI_HEAD = struct.Struct("<BxxxIQQ")
_PSI_EXPECTED_EXIT = 33  # offsetofend(struct ptrace_syscall_info, exit.is_error)
_PSI_EXPECTED_SECCOMP = 84  # offsetofend(struct ptrace_syscall_info, seccomp.ret_data)


def _syscall_name_field(p: Printer, c: Call, nr: int, arch: int) -> str:
    """PRINT_FIELD_SYSCALL_NAME: ``__NR_name`` in the tracee's own personality, ``N /* name */`` in another."""
    from pytrace.tables.syscalls import AUDIT_ARCH, table

    arch_name = AUDIT_ARCH.get(arch)
    if arch_name is not None and nr in table(arch_name).by_nr:
        name = table(arch_name).by_nr[nr].name
        if arch_name == c.arch:
            return p.print_xlat(nr, f"__NR_{name}", "u")
        return f"{nr} /* {name} */"
    return str(nr)


def syscall_info(p: Printer, c: Call, address: int, user_len: int) -> str:
    """print_ptrace_syscall_info: as much of the structure as the kernel returned and the caller asked for."""
    kernel_len = c.rval & 0xFFFFFFFFFFFFFFFF
    size = min(user_len, kernel_len, _PSI_EXPECTED_SECCOMP)
    data = p.fetch(c, address, size) if size else None
    if data is None or len(data) < size:
        return addr(address)
    data += bytes(88 - len(data))
    op, arch, ip, sp = _PSI_HEAD.unpack_from(data)
    out = [('op', p.xval(op, X.PTRACE_SYSCALL_INFO_OP, 'PTRACE_SYSCALL_INFO_???'))]
    if size >= 8:
        out.append(('arch', p.xval(arch, X.AUDIT_ARCH, 'AUDIT_ARCH_???')))
    if size >= 16:
        out.append(('instruction_pointer', addr(ip)))
    if size >= 24:
        out.append(('stack_pointer', addr(sp)))
    if size >= 32:
        if op in (_OP["PTRACE_SYSCALL_INFO_ENTRY"], _OP["PTRACE_SYSCALL_INFO_SECCOMP"]):
            nr, = _Q.unpack_from(data, 24)
            inner = [f"nr={_syscall_name_field(p, c, nr, arch)}"]
            nargs = min((size - 32) // 8, 6)
            if nargs:
                inner.append(f"args={_xint_array(p, data[32:], nargs, 8)}")
            if op == _OP["PTRACE_SYSCALL_INFO_SECCOMP"] and size >= _PSI_EXPECTED_SECCOMP:
                inner.append(f"ret_data={struct.unpack_from('<I', data, 80)[0]}")
            field = "entry" if op == _OP["PTRACE_SYSCALL_INFO_ENTRY"] else "seccomp"
            out.append(f"{field}={{{', '.join(inner)}}}")
        elif op == _OP["PTRACE_SYSCALL_INFO_EXIT"]:
            rval, is_error = struct.unpack_from("<qB", data, 24)
            text = str(rval)
            if size >= _PSI_EXPECTED_EXIT and is_error and -rval in X.ERRNO_NAMES:
                text = f"-{X.ERRNO_NAMES[-rval]}"
            inner = [f"rval={text}"]
            if size >= _PSI_EXPECTED_EXIT:
                inner.append(f"is_error={is_error}")
            out.append(f"exit={{{', '.join(inner)}}}")
    return p.struct(tuple(out))


# ---------------------------------------------------------------- the other structures


def _peeksiginfo_args(p: Printer, c: Call, address: int) -> str:
    return p.umove(c, address, _PEEKSIGINFO_ARGS, lambda off, fl, nr: (
        p.struct((('off', f"{off}"), ('flags', p.flags(fl, X.PTRACE_PEEKSIGINFO_FLAGS, 'PTRACE_PEEKSIGINFO_???')), ('nr', f"{nr}")))))


def _siginfo_array(p: Printer, c: Call, address: int) -> str:
    count = c.rval & 0xFFFFFFFFFFFFFFFF
    if c.failed or count > 1 << 40:
        return addr(address)
    return struct_array(p, c, address, count, _SIGINFO_SIZE, lambda raw: format_siginfo(p, 0, raw))


def _seccomp_metadata_entry(p: Printer, c: Call, address: int, size: int) -> str | None:
    """decode_seccomp_metadata at entry: ``{filter_off=N`` (closed at exit), or None for the address."""
    if size < 8:
        return None
    data = p.fetch(c, address, 8)
    return None if data is None else f"{{filter_off={_Q.unpack(data)[0]}"


def _seccomp_metadata_exit(p: Printer, c: Call, address: int) -> str:
    size = c.rval & 0xFFFFFFFFFFFFFFFF
    if c.failed or size <= 8:
        return "}"
    data = p.fetch(c, address + 8, 8) if size >= 16 else None
    if data is None:
        return ", ???}"
    text = p.tail((f"flags={p.flags(_Q.unpack(data)[0], X.SECCOMP_FILTER_FLAGS, 'SECCOMP_FILTER_FLAG_???')}",))
    return text + (", ...}" if size > 16 else "}")


# ---------------------------------------------------------------- ptrace


@syscall("ptrace")
def ptrace(p: Printer, c: Call) -> Generator[str, None, None]:
    """SYS_FUNC(ptrace): request, pid, addr and data as strace prints each request's."""
    request, target, address, data = c.args[:4]
    head = p.xval(request, X.PTRACE_CMDS, "PTRACE_???")
    if request == _TRACEME:
        yield head
        yield ""
        return
    head += p.tail((p.pid(target),))
    if request in _NO_ADDR_DATA:
        yield head
        yield ""
        return
    # addr
    if request in _USER_ADDR:
        head += p.tail((user_offset(p, address),))
    elif request in _REGSET:
        head += p.tail((p.xval(address & 0xFFFFFFFF, X.NT_DESCRIPTOR_TYPES, 'NT_???'),))
    elif request in _NUMBER_ADDR:
        head += p.tail((f"{address}",))
    elif request == _PEEKSIGINFO:
        head += p.tail((_peeksiginfo_args(p, c, address),))
    elif request == _SETREGS:
        yield p.args((f"{head}", prstatus_regset(p, c, data, _PRSTATUS_SIZE)))
        yield ""
        return
    elif request == _SETFPREGS:
        yield p.args((f"{head}", fpregset(p, c, data, _FPREGS_SIZE)))
        yield ""
        return
    elif request in (_GETREGS, _GETFPREGS):
        yield head + ", "
        yield (prstatus_regset(p, c, data, _PRSTATUS_SIZE) if request == _GETREGS
               else fpregset(p, c, data, _FPREGS_SIZE))
        return
    else:
        head += p.tail((addr(address),))
    # data
    if request in _OUTPUT and p.verbose(c):
        yield head + ", "
        yield _output_at_exit(p, c, request, address, data)
        return
    if request in _REGSET:
        yield from _regset_call(p, c, head, request, address & 0xFFFFFFFF, data)
        return
    if request == _GET_METADATA:
        opened = _seccomp_metadata_entry(p, c, data, address)
        if opened is None:
            yield p.args((f"{head}", addr(data)))
            yield ""
            return
        yield p.args((f"{head}", f"{opened}"))
        yield _seccomp_metadata_exit(p, c, data)
        return
    if request in _SIGNAL_DATA:
        tail = printsignal(p, data)
    elif request in _OPTIONS_DATA:
        tail = p.flags(data, X.PTRACE_SETOPTIONS_FLAGS, "PTRACE_O_???")
    elif request == _SETSIGINFO:
        tail = siginfo_at(p, c, data)
    elif request == _SETSIGMASK:
        tail = sigset_at(p, c, data, address)
    else:
        tail = addr(data)
    yield p.args((f"{head}", f"{tail}"))
    yield ""


def _output_at_exit(p: Printer, c: Call, request: int, address: int, data: int) -> str:
    """decode_ptrace_exiting for the requests whose data the kernel fills in."""
    if request in _PEEK:
        return p.umove(c, data, _Q, lambda v: f"[{addr(v)}]")
    if request == _GETEVENTMSG:
        return p.umove(c, data, _Q, lambda v: f"[{v}]")
    if request == _GETSIGINFO:
        return siginfo_at(p, c, data) if not c.failed else addr(data)
    if request == _GETSIGMASK:
        return sigset_at(p, c, data, address) if not c.failed else addr(data)
    if request == _PEEKSIGINFO:
        return _siginfo_array(p, c, data)
    if request == _GET_FILTER:
        return classic_prog(p, c, data, c.rval & 0xFFFF, partial(seccomp_k, p))
    return syscall_info(p, c, data, address)


def _regset_call(p: Printer, c: Call, head: str, request: int, nt: int, address: int) -> Generator[str, None, None]:
    """decode_getregset / decode_setregset: the iovec, its registers, and a changed iov_len as ``old => new``."""
    iov = _iovec(p, c, address)
    if iov is None:
        yield p.args((f"{head}", addr(address)))
        yield ""
        return
    base, length = iov
    if request == _GETREGSET:
        yield head + ", "
        after = _iovec(p, c, address)
        if after is None:
            yield addr(address)
            return
        new_len = after[1]
        text = f"{{iov_base={_regset(p, c, nt, after[0], new_len)}, iov_len={length}"
        yield text + ("}" if new_len == length else f" => {new_len}}}")
        return
    yield f"{head}, {{iov_base={_regset(p, c, nt, base, length)}, iov_len={length}"
    after = _iovec(p, c, address)
    yield " => " + str(after[1]) + "}" if after is not None and after[1] != length else "}"

