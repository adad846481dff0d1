"""Process lifecycle and attributes: exec, clone, wait, exit, limits, ids, prctl (strace's ``execve.c``,
``clone.c``, ``wait.c``, ``resource.c``, ``uid.c``, ``prctl.c``, ``uname.c``, ``affinity.c`` ...).

Two timing rules shape this module.  execve must be decoded entirely at entry,
because a successful exec replaces the memory its arguments live in.  clone,
wait4 and friends are split where strace splits them: their inputs at entry,
their outputs (the child's tid, the wait status, the rusage) at exit, so the
``<unfinished ...>`` lines that ``-f`` produces break at the same place.
"""

from __future__ import annotations

import os
import struct
from functools import cache, partial

from pytrace.decode.format import (
    MASK64,
    addr,
    signed,
    sprintflags,
    xlat,
)
from pytrace.decode.memory import struct_array, xnum
from pytrace.decode.printer import hexnum
from pytrace.decode.registry import rv_pid, rv_udec, syscall
from pytrace.decode.signal import clock_t_text, format_siginfo, printsignal, signame
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def _printargs(p: Printer, c: Call, n: int) -> str:
    """strace's printargs: the first ``n`` raw arguments in hex (used for rseq, set_tid_address)."""
    return ", ".join(xnum(a) for a in c.args[:n])


def _int_at(p: Printer, c: Call, address: int, fmt: str = "<i") -> int | None:
    data = p.fetch(c, address, struct.calcsize(fmt), True)
    return None if data is None else struct.unpack(fmt, data)[0]


def _num_at(p: Printer, c: Call, address: int, show: object = str, fmt: str = "<i") -> str:
    """printnum_int and friends: ``[value]``, or the address when it is NULL, unreadable or the call failed."""
    if not address or (c.exited and c.failed):
        return addr(address)
    value = _int_at(p, c, address, fmt)
    if value is None:
        return addr(address)
    return f"[{show(value) if callable(show) else value}]"


def _kptr_at(p: Printer, c: Call, address: int) -> str:
    """printnum_kptr: a pointer-sized output shown as ``[0x...]``."""
    return _num_at(p, c, address, addr, "<Q")


# ---------------------------------------------------------------- execve

_CHUNK_WORDS = 64


def _words(p: Printer, c: Call, address: int) -> Generator[int | None, None, None]:
    """The pointer array at ``address``, word by word; None marks the first unreadable word."""
    while True:
        if address > MASK64 - p.lay.WORD:
            yield None
            return
        data = c.mem.read_upto(address, _CHUNK_WORDS * p.lay.WORD)
        if not data or len(data) < p.lay.WORD:
            yield None
            return
        n = len(data) // p.lay.WORD
        yield from struct.unpack(f"<{n}{p.lay.WORD_CODE}", data[: n * p.lay.WORD])
        address += n * p.lay.WORD


def _argv(p: Printer, c: Call, address: int) -> str:
    """printargv: ``["a", "b"]`` with each string cut at -s and the list cut after -s entries unless -v."""
    if not address or not p.verbose(c):
        return addr(address)
    out: list[str] = []
    n = 0
    for word in _words(p, c, address):
        if word is None:
            if n == 0:
                return addr(address)
            out.append(f"... /* {addr(address + n * p.lay.WORD)} */")
            break
        if word == 0:
            break
        if not p.opts.verbose and n + 1 > p.opts.max_strlen:
            out.append("...")
            break
        out.append(p.cstring(c, word))
        n += 1
    return "[" + ", ".join(out) + "]"


def _argc(p: Printer, c: Call, address: int) -> str:
    """printargc: the environment's address with a ``/* N vars */`` count (the default, without -v)."""
    text = addr(address)
    if not address or not p.verbose(c):
        return text
    n = 0
    unterminated = False
    for word in _words(p, c, address):
        if word is None:
            if n == 0:
                return text
            unterminated = True
            break
        if word == 0:
            break
        n += 1
    return f"{text} /* {n} var{'' if n == 1 else 's'}{', unterminated' if unterminated else ''} */"


def _exec_args(p: Printer, c: Call, first: int) -> str:
    a = c.args
    env = _argv(p, c, a[first + 2]) if p.opts.verbose else _argc(p, c, a[first + 2])
    return p.args((p.path(c, a[first]), _argv(p, c, a[first + 1]), f"{env}"))


@syscall("execve")
def execve(p: Printer, c: Call) -> str:
    return _exec_args(p, c, 0)


@syscall("execveat")
def execveat(p: Printer, c: Call) -> str:
    fl = p.flags(c.args[4] & _U32, X.AT_FLAGS, "AT_???")
    return p.args((p.dirfd(c, c.args[0]), _exec_args(p, c, 1), f"{fl}"))


# ---------------------------------------------------------------- clone

_CSIGNAL = 0xFF
_CLONE_PIDFD = 0x1000
_CLONE_SETTLS = 0x80000
_CLONE_PARENT_SETTID = 0x100000
_CLONE_CHILD_CLEARTID = 0x200000
_CLONE_CHILD_SETTID = 0x1000000
_CLONE_INTO_CGROUP = 0x200000000
_CLONE_OUTPUTS = _CLONE_PARENT_SETTID | _CLONE_PIDFD | _CLONE_CHILD_SETTID | _CLONE_CHILD_CLEARTID | _CLONE_SETTLS


def _tls_arg(p: Printer, c: Call, address: int) -> str:
    """print_tls_arg: an address on x86_64; an i386 tracee's ``struct user_desc``."""
    if p.lay.personality == "i386":
        from pytrace.decode.i386 import user_desc_at

        return user_desc_at(p, c, address)
    return addr(address)


#: Argument positions of flags, child_stack, parent_tid, child_tid, tls (i386: tls before child_tid).


@syscall("clone", rval=rv_pid)
def clone(p: Printer, c: Call) -> Generator[str, None, None]:
    """x86_64 order: flags, child_stack, parent_tid, child_tid, tls; the pointers are printed at exit."""
    a = c.args
    raw_flags, stack, ptid, ctid, tls = (a[i] for i in p.lay.CLONE_ORDER)
    fl = raw_flags & ~_CSIGNAL
    sig = raw_flags & _CSIGNAL
    if fl:
        ftext = p.flags(fl, X.CLONE_FLAGS, "CLONE_???")
        if sig:
            ftext += "|" + printsignal(p, sig)
    else:
        ftext = printsignal(p, sig)
    yield p.args((f"child_stack={addr(stack)}", f"flags={ftext}"))
    if not fl & _CLONE_OUTPUTS:
        yield ""
        return
    out = []
    if fl & _CLONE_PARENT_SETTID:  # printnum_pid: -Y names the thread
        out.append(p.tail((f"parent_tid={_num_at(p, c, ptid, p.pid)}",)))
    elif fl & _CLONE_PIDFD:  # printnum_fd
        out.append(p.tail((f"parent_tid={_num_at(p, c, ptid, lambda v: p.fd(c, v))}",)))
    if fl & _CLONE_SETTLS:
        out.append(p.tail((f"tls={_tls_arg(p, c, tls)}",)))
    if fl & (_CLONE_CHILD_SETTID | _CLONE_CHILD_CLEARTID):
        out.append(p.tail((f"child_tidptr={addr(ctid)}",)))
    yield "".join(out)


_CLONE_ARGS = struct.Struct("<11Q")
_CLONE_ARGS_MIN = 64  # offsetofend(struct clone_args, tls)
_PAGE_SIZE = 4096  # print_nonzero_bytes looks at most at a page of the tail
_INT_MAX = 0x7FFFFFFF


def _clone_args_text(p: Printer, c: Call, a: tuple[int, ...], fetched: int) -> str:
    fl, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid, set_tid_size, cgroup = a
    out = [f"{{flags={p.flags(fl, X.CLONE_FLAGS + X.CLONE3_FLAGS, 'CLONE_???')}"]
    if fl & _CLONE_PIDFD:
        out.append(p.tail((f"pidfd={addr(pidfd)}",)))
    if fl & (_CLONE_CHILD_SETTID | _CLONE_CHILD_CLEARTID):
        out.append(p.tail((f"child_tid={addr(child_tid)}",)))
    if fl & _CLONE_PARENT_SETTID:
        out.append(p.tail((f"parent_tid={addr(parent_tid)}",)))
    sig = printsignal(p, exit_signal) if exit_signal < _INT_MAX else str(exit_signal)
    out.append(p.tail((f"exit_signal={sig}", f"stack={addr(stack)}", f"stack_size={xnum(stack_size)}")))
    if fl & _CLONE_SETTLS:
        out.append(p.tail((f"tls={_tls_arg(p, c, tls)}",)))
    if set_tid or set_tid_size:
        if not set_tid or not set_tid_size or set_tid_size > 32:
            out.append(p.tail((f"set_tid={addr(set_tid)}",)))
        else:
            ints = struct_array(p, c, set_tid, set_tid_size, 4, lambda r: str(struct.unpack("<i", r)[0]))
            out.append(p.tail((f"set_tid={ints}",)))
        out.append(p.tail((f"set_tid_size={set_tid_size}",)))
    if fetched > 80 and (cgroup or fl & _CLONE_INTO_CGROUP):
        out.append(p.tail((f"cgroup={cgroup}",)))
    return "".join(out) + "}"


def _read_clone_args(p: Printer, c: Call, address: int, fetched: int) -> tuple[int, ...] | None:
    data = c.mem.read(address, fetched) if address else None
    if data is None:
        return None
    return _CLONE_ARGS.unpack(data.ljust(_CLONE_ARGS.size, b"\0"))


@syscall("clone3", rval=rv_pid)
def clone3(p: Printer, c: Call) -> Generator[str, None, None]:
    """``{flags=..., ...}`` at entry; the kernel-written pidfd/parent_tid as `` => {...}`` at exit."""
    address, size = c.args[0], c.args[1]
    fetched = min(size, _CLONE_ARGS.size)
    a = _read_clone_args(p, c, address, fetched) if fetched >= _CLONE_ARGS_MIN else None
    if a is None:
        yield p.args((addr(address), f"{size}"))
        yield ""
        return
    head = _clone_args_text(p, c, a, fetched)
    if size > fetched:  # print_nonzero_bytes: the tail the kernel does not know yet (up to a page)
        tail = p.nonzero_bytes(c, address, fetched, min(size, _PAGE_SIZE))
        if tail:
            head = f"{head[:-1]}, {tail}}}"
    if not a[0] & (_CLONE_PIDFD | _CLONE_PARENT_SETTID) and size <= fetched:
        yield p.args((f"{head}", f"{size}"))
        yield ""
        return
    yield head
    if c.failed:
        yield p.tail((f"{size}",))
        return
    after = _read_clone_args(p, c, address, fetched)
    if after is None:
        yield p.args((f" => {addr(address)}", f"{size}"))
        return
    changed = []
    if after[0] & _CLONE_PIDFD:
        changed.append(f"pidfd={_num_at(p, c, after[1], lambda v: p.fd(c, v))}")  # printnum_fd
    if after[0] & _CLONE_PARENT_SETTID:
        changed.append(f"parent_tid={_num_at(p, c, after[3], p.pid)}")
    if size > fetched:  # strace prints the unknown tail again at exit when it is not all zero
        rest = p.nonzero_bytes(c, address, fetched, min(size, _PAGE_SIZE))
        if rest:
            changed.append(rest)
    tail = f" => {{{', '.join(changed)}}}" if changed else ""
    yield p.args((f"{tail}", f"{size}"))


@syscall("fork", "vfork", rval=rv_pid)
def fork(p: Printer, c: Call) -> str:
    return ""


# ---------------------------------------------------------------- wait

def wait_status(status: int) -> str:
    """printstatus: the wait status as the W* macro expression that decodes it."""
    status = signed(status, 32)
    low = status & 0x7F
    if status & 0xFF == 0x7F:
        sig = (status >> 8) & 0xFF
        text = f"{{WIFSTOPPED(s) && WSTOPSIG(s) == {signame(sig & 0x7F)}{' | 0x80' if sig & 0x80 else ''}}}"
        status &= ~((sig << 8) | 0x7F)
    elif low and low != 0x7F:
        core = " && WCOREDUMP(s)" if status & 0x80 else ""
        text = f"{{WIFSIGNALED(s) && WTERMSIG(s) == {signame(low)}{core}}}"
        status &= ~(low | 0x80)
    elif low == 0:
        code = (status >> 8) & 0xFF
        text = f"{{WIFEXITED(s) && WEXITSTATUS(s) == {code}}}"
        status &= ~(code << 8)
    elif status == 0xFFFF:
        text = "{WIFCONTINUED(s)}"
        status = 0
    else:
        return f"[{xnum(status & _U32)}]"
    if status:
        event = (status & _U32) >> 16
        if event:
            name = xlat(event, getattr(X, "PTRACE_EVENTS", ())) or f"{event:#x} /* PTRACE_EVENT_??? */"
            text += f" | {name} << 16"
            status &= 0xFFFF
        if status:
            text += f" | {xnum(status & _U32)}"
    return f"[{text}]"


def wait_options(p: Printer, value: int) -> str:
    return p.flags(value, X.WAIT_OPTIONS, "W???")


@syscall("wait4", rval=rv_pid)
def wait4(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    st_addr = c.args[1]
    if c.rval == 0 or c.failed or not st_addr:
        st = addr(st_addr)
    else:
        value = _int_at(p, c, st_addr)
        st = addr(st_addr) if value is None else wait_status(value)
    ru = rusage(p, c, c.args[3]) if c.rval > 0 and not c.failed else addr(c.args[3])
    yield p.args((f"{st}", wait_options(p, c.args[2]), f"{ru}"))


_P_PID, _P_PGID, _P_PIDFD = 1, 2, 3
_SIGINFO_SIZE = 128


@syscall("waitid")
def waitid(p: Printer, c: Call) -> Generator[str, None, None]:
    idtype = c.args[0] & _U32
    ident = p.pid(c.args[1]) if idtype == _P_PID else p.fd(c, c.args[1]) if idtype == _P_PIDFD else signed(c.args[1], 32)
    yield p.head((p.xval(idtype, X.WAITID_TYPES, 'P_???'), f"{ident}"))
    info = c.args[2]
    if not info:
        si = "NULL"
    else:
        data = None if c.failed else c.mem.read(info, _SIGINFO_SIZE)
        if data is None:
            si = addr(info)
        elif struct.unpack_from("<i", data)[0] == 0:
            si = "{}"
        else:
            si = format_siginfo(p, 0, data)
    yield p.args((f"{si}", wait_options(p, c.args[3]), rusage(p, c, c.args[4])))


# ---------------------------------------------------------------- rusage, rlimit, times

_TIMEVAL = struct.Struct("<qq")
_RUSAGE_FIELDS = ("ru_maxrss", "ru_ixrss", "ru_idrss", "ru_isrss", "ru_minflt", "ru_majflt", "ru_nswap",
                  "ru_inblock", "ru_oublock", "ru_msgsnd", "ru_msgrcv", "ru_nsignals", "ru_nvcsw", "ru_nivcsw")


def _timeval(sec: int, usec: int) -> str:
    return f"{{tv_sec={sec}, tv_usec={usec}}}"


def rusage(p: Printer, c: Call, address: int) -> str:
    """printrusage: the two times always, the counters only with -v."""
    if not address:
        return "NULL"
    data = p.fetch(c, address, p.lay.RUSAGE.size)
    if data is None:
        return addr(address)
    v = p.lay.RUSAGE.unpack(data)
    text = f"{{ru_utime={_timeval(v[0], v[1])}, ru_stime={_timeval(v[2], v[3])}"
    if not p.opts.verbose:
        return text + ", ...}"
    rest = ", ".join(f"{name}={val & MASK64}" for name, val in zip(_RUSAGE_FIELDS, v[4:], strict=True))
    return f"{text}, {rest}}}"


@syscall("getrusage")
def getrusage(p: Printer, c: Call) -> Generator[str, None, None]:
    who = xlat(signed(c.args[0], 32), X.RUSAGE_WHO) or f"{c.args[0] & _U32:#x} /* RUSAGE_??? */"
    yield p.head((f"{who}",))
    yield rusage(p, c, c.args[1])


_RLIM64_INFINITY = MASK64


#: struct rlimit of getrlimit/setrlimit/ugetrlimit; decode/i386.py swaps in the 32-bit one (print_rlimit32).
#: prlimit64's struct rlimit64, 64-bit in every personality.
_RLIMIT64 = struct.Struct("<QQ")


def _rlim_text(p: Printer, value: int, infinity: int, name: str) -> str:
    """print_rlim64_t / print_rlim32_t: the infinity's name, ``N*1024`` for whole kibibytes above 1024,
    else the number; -X raw the number, -X verbose the number and, when it differs, that in a comment."""
    if value == infinity:
        names = name
    elif value > 1024 and value % 1024 == 0:
        names = f"{value // 1024}*1024"
    else:
        return str(value)
    if p.style == "abbrev":
        return names
    return str(value) if p.raw else f"{value} /* {names} */"


def _rlim(p: Printer, value: int) -> str:
    """print_rlim64_t: a 64-bit rlim_t."""
    return _rlim_text(p, value, _RLIM64_INFINITY, "RLIM64_INFINITY")


def _rlim32(p: Printer, value: int) -> str:
    """print_rlim32_t (i386's 32-bit rlim_t)."""
    return _rlim_text(p, value, _U32, "RLIM_INFINITY")


def rlimit(p: Printer, c: Call, address: int, layout: struct.Struct) -> str:
    """decode_rlimit with the given struct rlimit layout (its size tells the rlim_t width)."""
    if not address:
        return "NULL"
    data = p.fetch(c, address, layout.size)
    if data is None:
        return addr(address)
    cur, mx = layout.unpack(data)
    show = partial(_rlim, p) if layout.size == 16 else partial(_rlim32, p)
    return p.struct((('rlim_cur', show(cur)), ('rlim_max', show(mx))))


def _resource(p: Printer, value: int) -> str:
    return p.xval(value & 0xFFFFFFFF, X.RLIMIT_RESOURCES, "RLIMIT_???")  # printxval: unsigned int


@syscall("getrlimit", "ugetrlimit")
def getrlimit(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((_resource(p, c.args[0]),))
    yield rlimit(p, c, c.args[1], p.lay.RLIMIT)


@syscall("setrlimit")
def setrlimit(p: Printer, c: Call) -> str:
    return p.args((_resource(p, c.args[0]), rlimit(p, c, c.args[1], p.lay.RLIMIT)))


@syscall("prlimit64")
def prlimit64(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]), _resource(p, c.args[1]), rlimit(p, c, c.args[2], _RLIMIT64)))
    yield rlimit(p, c, c.args[3], _RLIMIT64)


@syscall("times")
def times(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    address = c.args[0]
    data = None if c.failed or not address else c.mem.read(address, 32)
    if data is None:
        yield addr(address)
        return
    u, s, cu, cs = (clock_t_text(p, v) for v in struct.unpack("<4q", data))  # PRINT_FIELD_CLOCK_T: seconds comment
    yield p.struct((('tms_utime', f"{u}"), ('tms_stime', f"{s}"), ('tms_cutime', f"{cu}"), ('tms_cstime', f"{cs}")))




@syscall("sysinfo")
def sysinfo(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    address = c.args[0]
    data = p.fetch(c, address, p.lay.SYSINFO.size)
    if data is None:
        yield addr(address)
        return
    v = p.lay.SYSINFO.unpack(data)
    yield (p.struct((('uptime', f"{v[0]}"), ('loads', p.inline_array([str(n) for n in v[1:4]])), ('totalram', f"{v[4]}"), ('freeram', f"{v[5]}"), ('sharedram', f"{v[6]}"), ('bufferram', f"{v[7]}"), ('totalswap', f"{v[8]}"), ('freeswap', f"{v[9]}"), ('procs', f"{v[10]}"), ('totalhigh', f"{v[11]}"), ('freehigh', f"{v[12]}"), ('mem_unit', f"{v[13]}"))))


# ---------------------------------------------------------------- exit, tid, rseq, arch_prctl

@syscall("exit", "exit_group")
def exit_(p: Printer, c: Call) -> str:
    return str(signed(c.args[0], 32))


@syscall("set_tid_address")
def set_tid_address(p: Printer, c: Call) -> str:
    return _printargs(p, c, 1)


@syscall("rseq")
def rseq(p: Printer, c: Call) -> str:
    return _printargs(p, c, 4)


_ARCH_GET_FS, _ARCH_GET_GS, _ARCH_GET_CPUID = 0x1003, 0x1004, 0x1011
_ARCH_GET_XCOMP = (0x1021, 0x1022, 0x1024)  # SUPP, PERM, GUEST_PERM: a feature mask written at exit
_ARCH_REQ_XCOMP = (0x1023, 0x1025)  # PERM, GUEST_PERM: one feature number


@syscall("arch_prctl")
def arch_prctl(p: Printer, c: Call) -> Generator[str, None, None]:
    option = c.args[0] & _U32
    name = p.xval(option, X.ARCH_PRCTL_CODES, "ARCH_???")
    if option in (_ARCH_GET_FS, _ARCH_GET_GS):
        yield p.head((f"{name}",))
        yield _kptr_at(p, c, c.args[1])
    elif option == _ARCH_GET_CPUID:
        yield name
        yield ""
    elif option in _ARCH_GET_XCOMP:
        yield p.head((f"{name}",))
        value = None if c.failed else _int_at(p, c, c.args[1], "<Q")
        if value is None:
            yield addr(c.args[1])
        else:
            # printflags_ex(..., XLAT_STYLE_VERBOSE unless raw): the names are a comment in both other styles.
            names = sprintflags(value, X.X86_XFEATURES, None) if value else ""
            known = names and not names.startswith("0x")
            comment = _aux(p, names if known else "XFEATURE_MASK_???")
            yield f"[{xnum(value)} /* {comment} */]" if value and comment else f"[{xnum(value)}]"
    elif option in _ARCH_REQ_XCOMP:
        comment = _aux(p, xlat(c.args[1], X.X86_XFEATURE_BITS) or "XFEATURE_???")
        yield p.args((f"{name}", f"{xnum(c.args[1])} /* {comment} */")) if comment else p.args((f"{name}", xnum(c.args[1])))
        yield ""
    else:
        yield p.args((f"{name}", xnum(c.args[1])))
        yield ""


# ---------------------------------------------------------------- uname, getrandom

_UTS_LEN = 65
_UTS_FIELDS = ("sysname", "nodename", "release", "version", "machine", "domainname")


def _char_array(p: Printer, raw: bytes) -> str:
    """print_quoted_cstring over a fixed char array: up to the NUL, ``...`` when there is none."""
    nul = raw.find(b"\0")
    return p.quote(raw) + "..." if nul < 0 else p.quote(raw[:nul])


@syscall("uname")
def uname(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    address = c.args[0]
    data = p.fetch(c, address, _UTS_LEN * 6)
    if data is None:
        yield addr(address)
        return
    shown = _UTS_FIELDS if p.opts.verbose else _UTS_FIELDS[:2]
    parts = [f"{n}={_char_array(p, data[i * _UTS_LEN:(i + 1) * _UTS_LEN])}" for i, n in enumerate(shown)]
    if not p.opts.verbose:
        parts.append("...")
    yield "{" + ", ".join(parts) + "}"


@syscall("getrandom")
def getrandom(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    buf = addr(c.args[0]) if c.failed else p.string_at(c, c.args[0], c.rval, force_hex=True)
    yield p.args((f"{buf}", f"{c.args[1]}", p.flags(c.args[2] & _U32, X.GETRANDOM_FLAGS, 'GRND_???')))


# ---------------------------------------------------------------- affinity, priority, personality

@cache
def _cpuset_size() -> int:
    """get_cpuset_size: the smallest mask the kernel accepts, 128 bytes unless there are more CPUs than that covers."""
    try:
        with open("/sys/devices/system/cpu/possible") as f:
            text = f.read().strip()
        ncpus = max(int(part.split("-")[-1]) for part in text.split(",")) + 1
    except (OSError, ValueError):
        return 128
    size = 128
    while size * 8 < ncpus:
        size <<= 1
    return size


def affinity(p: Printer, c: Call, address: int, length: int) -> str:
    """print_affinitylist: the set CPUs' numbers, ``...`` when the mask is longer than strace reads."""
    length &= _U32
    if (c.exited and c.failed) or not address:
        return addr(address)
    if not length:
        return "[]"
    umove_size = min(length, _cpuset_size())
    size = (umove_size + 7) // 8 * 8
    data = c.mem.read(address, umove_size)
    if data is None:
        return addr(address)
    mask = int.from_bytes(data, "little")
    cpus = [str(i) for i in range(size * 8) if mask >> i & 1]
    if size < length:
        cpus.append("...")
    return "[" + " ".join(cpus) + "]"  # strace 6.1 separates the CPUs with bare spaces


@syscall("sched_setaffinity")
def sched_setaffinity(p: Printer, c: Call) -> str:
    return p.args((p.pid(c.args[0]), f"{c.args[1] & _U32}", affinity(p, c, c.args[2], c.args[1])))


@syscall("sched_getaffinity")
def sched_getaffinity(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]), f"{c.args[1] & _U32}"))
    yield affinity(p, c, c.args[2], c.rval)


def _which(p: Printer, value: int) -> str:
    return p.xval(value, X.PRIO_WHICH, "PRIO_???")


@syscall("getpriority")
def getpriority(p: Printer, c: Call) -> str:
    return p.args((_which(p, c.args[0]), f"{signed(c.args[1], 32)}"))


@syscall("setpriority")
def setpriority(p: Printer, c: Call) -> str:
    return p.args((_which(p, c.args[0]), f"{signed(c.args[1], 32)}", f"{signed(c.args[2], 32)}"))


_PER_MASK = 0xFF


def _persona(p: Printer, value: int) -> str:
    text = p.xval(value & _PER_MASK, X.PERSONALITY_TYPES, "PER_???")
    rest = value & ~_PER_MASK
    if rest:
        text += "|" + p.flags(rest, X.PERSONALITY_FLAGS, None)
    return text


def _personality_ret(p: Printer, c: Call) -> str:
    value = c.rval & _U32
    return f"{xnum(c.rval & MASK64)} ({_persona(p, value)})"


@syscall("personality", rval=_personality_ret)
def personality(p: Printer, c: Call) -> str:
    pers = c.args[0] & _U32
    return xnum(pers) if pers == _U32 else _persona(p, pers)


# ---------------------------------------------------------------- uids and groups

def uid(value: int) -> str:
    """printuid: ``-1`` for the "unchanged" id, otherwise unsigned."""
    value &= _U32
    return "-1" if value == _U32 else str(value)


def _rv_udec_personality(p: Printer, c: Call) -> str:
    """RVAL_UDECIMAL of the tracee's personality: the i386 value is 32 bits (-1 reads 4294967295)."""
    return str(c.rval & _U32) if c.arch == "i386" else rv_udec(p, c)


@syscall("getuid", "geteuid", "getgid", "getegid", "getuid32", "geteuid32", "getgid32", "getegid32",
         rval=_rv_udec_personality)
def getuid(p: Printer, c: Call) -> str:
    """strace's SYS_FUNC(getuid): RVAL_UDECIMAL, so an injected -1 reads 18446744073709551615."""
    return ""


@syscall("setuid", "setgid", "setfsuid", "setfsgid")
def setuid(p: Printer, c: Call) -> str:
    return uid(c.args[0])


@syscall("setreuid", "setregid")
def setreuid(p: Printer, c: Call) -> str:
    return p.args((uid(c.args[0]), uid(c.args[1])))


@syscall("setresuid", "setresgid")
def setresuid(p: Printer, c: Call) -> str:
    return p.args((uid(c.args[0]), uid(c.args[1]), uid(c.args[2])))


@syscall("getresuid", "getresgid")
def getresuid(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    yield ", ".join(_num_at(p, c, a, uid, "<I") for a in c.args[:3])


@cache
def _ngroups_max() -> int:
    try:
        return os.sysconf("SC_NGROUPS_MAX")
    except (OSError, ValueError):
        return 65536


def _groups(p: Printer, c: Call, count: int, address: int) -> str:
    count &= _U32
    if count > _ngroups_max():
        return addr(address)
    return struct_array(p, c, address, count, 4, lambda r: uid(struct.unpack("<I", r)[0]))


@syscall("setgroups")
def setgroups(p: Printer, c: Call) -> str:
    return p.args((f"{signed(c.args[0], 32)}", _groups(p, c, c.args[0], c.args[1])))


@syscall("getgroups")
def getgroups(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((f"{signed(c.args[0], 32)}",))
    yield _groups(p, c, c.rval, c.args[1])


# ---------------------------------------------------------------- prctl

_TASK_COMM_LEN = 16
_PRCTL_NARGS = 5
_VL_LEN_MASK = 0xFFFF  # PR_SVE_VL_LEN_MASK, PR_SME_VL_LEN_MASK
_MTE_TCF_MASK = 0x6  # PR_MTE_TCF_SYNC | PR_MTE_TCF_ASYNC
_MTE_TAG_SHIFT = 3
_MTE_TAG_MASK = 0xFFFF << _MTE_TAG_SHIFT


def _prctl_rest(p: Printer, c: Call, first: int) -> str:
    """print_prctl_args: the remaining arguments in hex."""
    return "".join(p.tail((xnum(a),)) for a in c.args[first:_PRCTL_NARGS])


def _table(name: str) -> tuple[tuple[int, str], ...]:
    """A constant table that the xlat generator may not provide yet; empty (numbers printed) until it does."""
    return getattr(X, name, ())


def _aux(p: Printer, text: str | None) -> str | None:
    """An auxstr annotation (``= 0x15 (NAMES)``): strace drops it in the raw style."""
    return None if p.raw else text


def _auxflags(p: Printer, value: int, table: tuple[tuple[int, str], ...]) -> str | None:
    """sprintflags_ex(..., SPFF_AUXSTR_MODE): the abbreviated names, None when no name matches."""
    if not value:
        return _aux(p, xlat(0, table))
    text = sprintflags(value, table, None)
    return None if text.startswith("0x") else _aux(p, text)


def _hex_aux(rv: int, text: str | None) -> str:
    """RVAL_HEX | RVAL_STR: the result in hex, then its annotation when there is one."""
    return f"{xnum(rv)} ({text})" if text else xnum(rv)


def _vl_text(value: int, table: tuple[tuple[int, str], ...]) -> str:
    """sprint_sve_val/sprint_sme_val's names: the flag bits above PR_*_VL_LEN_MASK, then the length."""
    bits = value & ~_VL_LEN_MASK
    names = sprintflags(bits, table, None) if bits else ""
    return f"{names}|{xnum(value & _VL_LEN_MASK)}" if names else xnum(value & _VL_LEN_MASK)


def _vl_arg(p: Printer, value: int, table: tuple[tuple[int, str], ...]) -> str:
    """PR_SVE_SET_VL/PR_SME_SET_VL's argument: styled as one value when it has flag bits."""
    return p.print_xlat(value, _vl_text(value, table)) if value & ~_VL_LEN_MASK else xnum(value)


def _tagged_text(value: int) -> str:
    """sprint_tagged_addr_val's names: the enable bit, the MTE fault mode, the tag mask, the rest."""
    text = sprintflags(value & 1, X.PR_TAGGED_ADDR_ENABLE, None)
    tcf = value & _MTE_TCF_MASK
    text += "|" + (xlat(tcf, X.PR_TAGGED_ADDR_MTE_TCF) or xnum(tcf))
    tag = value & _MTE_TAG_MASK
    if tag:
        text += f"|{tag >> _MTE_TAG_SHIFT:#x}<<PR_MTE_TAG_SHIFT"
    rest = value & ~(1 | _MTE_TCF_MASK | _MTE_TAG_MASK)
    if rest:
        text += f"|{rest:#x}"
    return text


def _pidtype(p: Printer, value: int) -> str:
    """PR_SCHED_CORE's pid type: strace prints it verbose in every style but raw."""
    if p.raw:
        return hexnum(value)
    return f"{xnum(value)} /* {xlat(value, X.PR_SCHED_CORE_PIDTYPES) or 'PIDTYPE_???'} */"


def _prctl_ret(p: Printer, c: Call) -> str:
    """The options whose result is itself a constant or a flag set get strace's ``= N (NAME)`` annotation."""
    option = c.args[0] & _U32
    name = xlat(option, X.PRCTL_OPTIONS)
    rv = c.rval
    if name == "PR_GET_DUMPABLE" or name == "PR_MCE_KILL_GET":
        table = X.PR_DUMPABLE if name == "PR_GET_DUMPABLE" else X.PR_MCE_KILL_POLICY
        text = xlat(rv, table)
        return f"{rv} ({text})" if text else str(rv)
    if name in ("PR_GET_SECUREBITS", "PR_GET_FP_MODE") and rv:
        return _hex_aux(rv, _auxflags(p, rv, X.SECBITS if name == "PR_GET_SECUREBITS" else X.PR_FP_MODE))
    if name == "PR_PAC_GET_ENABLED_KEYS":
        return _hex_aux(rv, _auxflags(p, rv, X.PR_PAC_ENABLED_KEYS))
    if name == "PR_GET_SPECULATION_CTRL" and c.args[1] in (0, 1, 2):  # STORE_BYPASS, INDIRECT_BRANCH, L1D_FLUSH
        return _hex_aux(rv, _auxflags(p, rv, X.PR_SPEC_GET_STORE_BYPASS_FLAGS))
    if name in ("PR_SVE_SET_VL", "PR_SVE_GET_VL", "PR_SME_SET_VL", "PR_SME_GET_VL") and rv:
        table = X.PR_SVE_VL_FLAGS if "SVE" in name else X.PR_SME_VL_FLAGS
        return _hex_aux(rv, _aux(p, _vl_text(rv, table)) if rv & ~_VL_LEN_MASK else None)
    if name == "PR_GET_TAGGED_ADDR_CTRL":
        return _hex_aux(rv, _aux(p, _tagged_text(rv)))
    return str(signed(rv, 64))


def _prctl_seccomp(p: Printer, c: Call, mode: int) -> str:
    """PR_SET_SECCOMP: the mode, then the filter program (SECCOMP_MODE_FILTER) or the raw rest."""
    text = p.xval(mode, X.SECCOMP_MODE, "SECCOMP_MODE_???")
    name = xlat(mode, X.SECCOMP_MODE)
    if name == "SECCOMP_MODE_STRICT":
        return text
    if name == "SECCOMP_MODE_FILTER":
        from pytrace.decode.bpf_insns import seccomp_fprog  # the BPF disassembler: only for a filter

        return p.args((f"{text}", seccomp_fprog(p, c, c.args[2])))
    return text + _prctl_rest(p, c, 2)


@syscall("prctl", rval=_prctl_ret)
def prctl(p: Printer, c: Call) -> Generator[str, None, None]:
    option = c.args[0] & _U32
    arg2 = c.args[1]
    head = p.xval(option, X.PRCTL_OPTIONS, "PR_???")
    name = xlat(option, X.PRCTL_OPTIONS)
    if name in ("PR_GET_KEEPCAPS", "PR_GET_SECCOMP", "PR_GET_TIMERSLACK", "PR_GET_TIMING", "PR_GET_DUMPABLE",
                "PR_GET_SECUREBITS", "PR_GET_FP_MODE", "PR_TASK_PERF_EVENTS_DISABLE",
                "PR_TASK_PERF_EVENTS_ENABLE", "PR_SVE_GET_VL", "PR_SME_GET_VL"):
        yield head
        yield ""
    elif name in ("PR_GET_CHILD_SUBREAPER", "PR_GET_ENDIAN", "PR_GET_FPEMU", "PR_GET_FPEXC"):
        yield p.head((f"{head}",))
        yield _num_at(p, c, arg2, lambda v: str(v & _U32))
    elif name == "PR_GET_NAME":
        yield p.head((f"{head}",))
        yield addr(arg2) if c.failed else p.cstring_n(c, arg2, _TASK_COMM_LEN)
    elif name == "PR_GET_PDEATHSIG":
        yield p.head((f"{head}",))
        yield _num_at(p, c, arg2, partial(printsignal, p), "<I")
    elif name == "PR_GET_TID_ADDRESS":
        yield p.head((f"{head}",))
        yield _kptr_at(p, c, arg2)
    elif name in ("PR_SET_CHILD_SUBREAPER", "PR_SET_ENDIAN", "PR_SET_FPEMU", "PR_SET_FPEXC",
                  "PR_SET_KEEPCAPS", "PR_SET_TIMING"):
        yield p.args((f"{head}", f"{arg2}"))
        yield ""
    elif name == "PR_SET_DUMPABLE":
        yield p.args((f"{head}", p.xval(arg2, getattr(X, 'PR_DUMPABLE', ()), 'SUID_DUMP_???')))
        yield ""
    elif name == "PR_SET_NAME":
        yield p.args((f"{head}", p.cstring_n(c, arg2, _TASK_COMM_LEN - 1)))
        yield ""
    elif name == "PR_SET_PDEATHSIG":
        yield p.args((f"{head}", f"{arg2 if arg2 > 128 else printsignal(p, arg2)}"))
        yield ""
    elif name == "PR_SET_PTRACER":
        who = p.print_xlat(arg2, "PR_SET_PTRACER_ANY", "int") if signed(arg2, 32) == -1 else p.pid(arg2)
        yield p.args((f"{head}", f"{who}"))
        yield ""
    elif name == "PR_SET_TIMERSLACK":
        yield p.args((f"{head}", f"{signed(arg2, 64)}"))
        yield ""
    elif name in ("PR_SET_NO_NEW_PRIVS", "PR_SET_THP_DISABLE", "PR_SET_IO_FLUSHER"):
        yield p.args((f"{head}", f"{arg2}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name in ("PR_CAPBSET_READ", "PR_CAPBSET_DROP"):
        yield p.args((f"{head}", p.xval(arg2, _table('CAP'), 'CAP_???')))
        yield ""
    elif name == "PR_CAP_AMBIENT":  # IS_SET/RAISE/LOWER name a capability in arg3
        sub = p.xval(arg2, X.PR_CAP_AMBIENT, "PR_CAP_AMBIENT_???")
        if arg2 in (1, 2, 3):
            yield p.args((f"{head}", f"{sub}", f"{p.xval(c.args[2], _table('CAP'), 'CAP_???')}{_prctl_rest(p, c, 3)}"))
        else:
            yield p.args((f"{head}", f"{sub}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name == "PR_GET_TSC":
        yield p.head((f"{head}",))
        yield _num_at(p, c, arg2, lambda v: p.xval(v, _table("PR_TSC"), "PR_TSC_???"), "<I")
    elif name == "PR_GET_UNALIGN":
        yield p.head((f"{head}",))
        yield _num_at(p, c, arg2, lambda v: p.flags(v, _table("PR_UNALIGN_FLAGS"), "PR_UNALIGN_???"), "<I")
    elif name == "PR_SET_TSC":
        yield p.args((f"{head}", p.xval(arg2, _table('PR_TSC'), 'PR_TSC_???')))
        yield ""
    elif name == "PR_SET_UNALIGN":
        yield p.args((f"{head}", p.flags(arg2, _table('PR_UNALIGN_FLAGS'), 'PR_UNALIGN_???')))
        yield ""
    elif name == "PR_SET_SECCOMP":
        yield p.args((f"{head}", _prctl_seccomp(p, c, arg2)))
        yield ""
    elif name == "PR_SET_SECUREBITS":
        yield p.args((f"{head}", p.flags(arg2, _table('SECBITS'), 'SECBIT_???')))
        yield ""
    elif name == "PR_SET_FP_MODE":
        yield p.args((f"{head}", p.flags(arg2 & 0xFFFFFFFF, _table('PR_FP_MODE'), 'PR_FP_MODE_???')))
        yield ""
    elif name == "PR_SET_MM":
        yield p.args((f"{head}", f"{p.xval(arg2 & _U32, _table('PR_SET_MM'), 'PR_SET_MM_???')}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name == "PR_MCE_KILL":
        third = (p.xval(c.args[2], _table("PR_MCE_KILL_POLICY"), "PR_MCE_KILL_???") if arg2 == 1  # PR_MCE_KILL_SET
                 else xnum(c.args[2]))
        yield p.args((f"{head}", p.xval(arg2, _table('PR_MCE_KILL'), 'PR_MCE_KILL_???'), f"{third}{_prctl_rest(p, c, 3)}"))
        yield ""
    elif name == "PR_MCE_KILL_GET":
        yield f"{head}{_prctl_rest(p, c, 1)}"
        yield ""
    elif name == "PR_GET_SPECULATION_CTRL":
        yield p.args((f"{head}", p.xval(arg2, _table('PR_SPEC_CMDS'), 'PR_SPEC_???')))
        yield ""
    elif name == "PR_SET_SPECULATION_CTRL":
        how = (p.xval(c.args[2], _table("PR_SPEC_SET_STORE_BYPASS_FLAGS"), "PR_SPEC_???") if arg2 in (0, 1, 2)
               else xnum(c.args[2]))
        yield p.args((f"{head}", p.xval(arg2, _table('PR_SPEC_CMDS'), 'PR_SPEC_???'), f"{how}"))
        yield ""
    elif name == "PR_SET_VMA":
        vma = p.xval(arg2, _table("PR_SET_VMA"), "PR_SET_VMA_???")
        if arg2 == 0:  # PR_SET_VMA_ANON_NAME
            yield p.args((f"{head}", f"{vma}", addr(c.args[2]), f"{c.args[3]}", p.cstring(c, c.args[4])))
        else:
            yield p.args((f"{head}", f"{vma}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name in ("PR_SVE_SET_VL", "PR_SME_SET_VL"):
        yield p.args((f"{head}", _vl_arg(p, arg2, X.PR_SVE_VL_FLAGS if name == 'PR_SVE_SET_VL' else X.PR_SME_VL_FLAGS)))
        yield ""
    elif name == "PR_SET_TAGGED_ADDR_CTRL":
        yield p.args((f"{head}", f"{p.print_xlat(arg2, _tagged_text(arg2))}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name == "PR_PAC_RESET_KEYS":
        yield p.args((f"{head}", f"{p.flags(arg2, X.PR_PAC_ENABLED_KEYS + X.PR_PAC_KEYS, 'PR_PAC_???')}{_prctl_rest(p, c, 2)}"))
        yield ""
    elif name == "PR_PAC_SET_ENABLED_KEYS":
        keys = X.PR_PAC_ENABLED_KEYS
        yield (p.args((f"{head}", p.flags(arg2, keys, 'PR_PAC_???'), f"{p.flags(c.args[2], keys, 'PR_PAC_???')}{_prctl_rest(p, c, 3)}")))
        yield ""
    elif name == "PR_SET_SYSCALL_USER_DISPATCH":
        yield (p.args((f"{head}", p.xval(arg2, X.PR_SUD_CMDS, 'PR_SYS_DISPATCH_???'), xnum(c.args[2]), xnum(c.args[3]), addr(c.args[4]))))
        yield ""
    elif name == "PR_SCHED_CORE":
        yield from _prctl_sched_core(p, c, head)
    else:
        yield f"{head}{_prctl_rest(p, c, 1)}"
        yield ""


def _prctl_sched_core(p: Printer, c: Call, head: str) -> Generator[str, None, None]:
    """PR_SCHED_CORE: command, pid (named like its pid type), pid type, then the cookie (read at exit for GET)."""
    cmd = c.args[1] & _U32
    kind = c.args[3] & _U32
    # the pid types whose pid is a thread/process (printpid PT_TID/PT_TGID); GET's cookie is an output
    tid_kinds = xlat(kind, X.PR_SCHED_CORE_PIDTYPES) in ("PIDTYPE_PID", "PIDTYPE_TGID")
    who = p.pid(c.args[2]) if tid_kinds else str(signed(c.args[2], 32))
    text = (p.head((f"{head}", p.xval(cmd, X.PR_SCHED_CORE_CMDS, 'PR_SCHED_CORE_???'), f"{who}", _pidtype(p, kind))))
    if xlat(cmd, X.PR_SCHED_CORE_CMDS) != "PR_SCHED_CORE_GET":
        yield text + addr(c.args[4])
        yield ""
        return
    yield text
    yield _num_at(p, c, c.args[4], xnum, "<Q")


__all__ = ["rusage", "uid", "wait_status"]
