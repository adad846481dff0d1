"""The ptrace(2) surface pytrace needs, on top of python-ptrace's binding.

python-ptrace gives us a working ``ptrace()`` call through ctypes but lacks the
modern requests (SEIZE, INTERRUPT, LISTEN, GET_SYSCALL_INFO) and options
(EXITKILL, TRACESECCOMP); they are defined here with the kernel's numbers from
``<linux/ptrace.h>``.  The hot loop calls ``raw_ptrace`` (the bare ctypes
function) because every microsecond per stop counts; everything else goes
through ``ptrace_checked`` so failures carry an errno.
"""

from __future__ import annotations

import ctypes
import errno as _errno
import os
import struct

from ptrace.binding.func import _ptrace as _python_ptrace_fn  # the ctypes libc.ptrace python-ptrace set up
from ptrace.binding.func import ptrace as _python_ptrace

# Requests (<linux/ptrace.h>, <sys/ptrace.h>)
PTRACE_TRACEME = 0
PTRACE_PEEKDATA = 2
PTRACE_PEEKUSER = 3
PTRACE_POKEDATA = 5
PTRACE_POKEUSER = 6
PTRACE_CONT = 7
PTRACE_KILL = 8
PTRACE_SINGLESTEP = 9
PTRACE_GETREGS = 12
PTRACE_SETREGS = 13
PTRACE_ATTACH = 16
PTRACE_DETACH = 17
PTRACE_SYSCALL = 24
PTRACE_SETOPTIONS = 0x4200
PTRACE_GETEVENTMSG = 0x4201
PTRACE_GETSIGINFO = 0x4202
PTRACE_SETSIGINFO = 0x4203
PTRACE_GETREGSET = 0x4204
PTRACE_SETREGSET = 0x4205
PTRACE_SEIZE = 0x4206
PTRACE_INTERRUPT = 0x4207
PTRACE_LISTEN = 0x4208
PTRACE_PEEKSIGINFO = 0x4209
PTRACE_GET_SYSCALL_INFO = 0x420E

# Options
PTRACE_O_TRACESYSGOOD = 0x01
PTRACE_O_TRACEFORK = 0x02
PTRACE_O_TRACEVFORK = 0x04
PTRACE_O_TRACECLONE = 0x08
PTRACE_O_TRACEEXEC = 0x10
PTRACE_O_TRACEVFORKDONE = 0x20
PTRACE_O_TRACEEXIT = 0x40
PTRACE_O_TRACESECCOMP = 0x80
PTRACE_O_EXITKILL = 0x100000

# Events (status >> 16)
PTRACE_EVENT_FORK = 1
PTRACE_EVENT_VFORK = 2
PTRACE_EVENT_CLONE = 3
PTRACE_EVENT_EXEC = 4
PTRACE_EVENT_VFORK_DONE = 5
PTRACE_EVENT_EXIT = 6
PTRACE_EVENT_SECCOMP = 7
PTRACE_EVENT_STOP = 128

# PTRACE_GET_SYSCALL_INFO ops
OP_NONE = 0
OP_ENTRY = 1
OP_EXIT = 2
OP_SECCOMP = 3

WALL = 0x40000000  # __WALL: wait for threads and non-SIGCHLD children too

# struct ptrace_syscall_info: u8 op, u8 pad[3], u32 arch, u64 ip, u64 sp, then a union of
# entry {u64 nr, u64 args[6]} / exit {s64 rval, u8 is_error} / seccomp {u64 nr, args[6], u32 ret_data}.
SYSCALL_INFO_SIZE = 88
SCI_HEAD = struct.Struct("<B3xIQQ")
SCI_ENTRY = struct.Struct("<B3xIQQQ6Q")
SCI_EXIT = struct.Struct("<B3xIQQqB")

raw_ptrace = _python_ptrace_fn
ERROR_RESULT = ctypes.c_ulong(-1).value


class PtraceFailure(OSError):
    """A ptrace request failed; ``errno`` says why (ESRCH: tracee gone or not stopped)."""


def ptrace_checked(request: int, pid: int, addr: int = 0, data: int = 0) -> int:
    """Issue a request through python-ptrace, raising PtraceFailure with the errno."""
    try:
        return _python_ptrace(request, pid, addr, data)
    except Exception as exc:  # python-ptrace raises PtraceError(errno=...)
        err = getattr(exc, "errno", None) or _errno.EIO
        raise PtraceFailure(err, os.strerror(err)) from None


class SyscallInfoReader:
    """One reusable buffer for PTRACE_GET_SYSCALL_INFO, so a stop allocates nothing but the tuple."""

    __slots__ = ("buf", "addr", "supported")

    def __init__(self) -> None:
        self.buf = ctypes.create_string_buffer(SYSCALL_INFO_SIZE)
        self.addr = ctypes.addressof(self.buf)
        # PYTRACE_NO_SYSCALL_INFO=1 forces the register fallback (kernels older than 5.3), so the
        # fallback is tested on this kernel too, as strace's legacy_syscall_info test does.
        self.supported = not os.environ.get("PYTRACE_NO_SYSCALL_INFO")

    def fetch(self, pid: int) -> int:
        """Fill the buffer; returns the op (OP_*), or -1 when unavailable (then use registers)."""
        if not self.supported:
            return -1
        if raw_ptrace(PTRACE_GET_SYSCALL_INFO, pid, SYSCALL_INFO_SIZE, self.addr) == ERROR_RESULT:
            if ctypes.get_errno() == _errno.EIO:
                self.supported = False  # the kernel does not know the request: stop asking
            return -1
        return self.buf.raw[0]

    def entry(self) -> tuple[int, int, int, int, int, int, int, int, int, int, int]:
        """(op, arch, ip, sp, nr, a0..a5)."""
        return SCI_ENTRY.unpack_from(self.buf)

    def exit(self) -> tuple[int, int, int, int, int, int]:
        """(op, arch, ip, sp, rval, is_error)."""
        return SCI_EXIT.unpack_from(self.buf)


# siginfo_t is 128 bytes; the fields we print sit at fixed offsets on 64-bit Linux.
SIGINFO_SIZE = 128
SIGINFO_HEAD = struct.Struct("<iii4x")  # si_signo, si_errno, si_code


def get_siginfo(pid: int) -> bytes | None:
    """Raw siginfo of the signal the tracee is stopped for, None if it vanished."""
    buf = ctypes.create_string_buffer(SIGINFO_SIZE)
    if raw_ptrace(PTRACE_GETSIGINFO, pid, 0, ctypes.addressof(buf)) == ERROR_RESULT:
        return None
    return buf.raw


def get_event_msg(pid: int) -> int:
    """PTRACE_GETEVENTMSG: the new pid after fork/clone, the former tid after exec."""
    val = ctypes.c_ulong(0)
    if raw_ptrace(PTRACE_GETEVENTMSG, pid, 0, ctypes.addressof(val)) == ERROR_RESULT:
        return 0
    return val.value


# x86_64 struct user_regs_struct, for the register fallback and for -i/-k consumers.
USER_REGS_FIELDS = (
    "r15 r14 r13 r12 rbp rbx r11 r10 r9 r8 rax rcx rdx rsi rdi orig_rax rip cs eflags "
    "rsp ss fs_base gs_base ds es fs gs"
).split()
USER_REGS = struct.Struct("<27Q")


def get_regs(pid: int) -> dict[str, int] | None:
    """PTRACE_GETREGS as a dict (x86_64), None if the tracee is gone."""
    buf = ctypes.create_string_buffer(USER_REGS.size)
    if raw_ptrace(PTRACE_GETREGS, pid, 0, ctypes.addressof(buf)) == ERROR_RESULT:
        return None
    return dict(zip(USER_REGS_FIELDS, USER_REGS.unpack_from(buf), strict=True))


def set_regs(pid: int, regs: dict[str, int]) -> bool:
    buf = ctypes.create_string_buffer(USER_REGS.pack(*(regs[f] & 0xFFFFFFFFFFFFFFFF for f in USER_REGS_FIELDS)))
    return raw_ptrace(PTRACE_SETREGS, pid, 0, ctypes.addressof(buf)) != ERROR_RESULT
