"""The ptrace(2) surface pytrace needs: libc's ``ptrace()`` through ctypes.

The modern requests (SEIZE, INTERRUPT, LISTEN, GET_SYSCALL_INFO) and options
(EXITKILL, TRACESECCOMP) are defined here with the kernel's numbers from
``<linux/ptrace.h>``.  Three views of the same libc function:

* ``fast_ptrace``: no ``argtypes``, C ``int`` result.  The hot loop's
  requests only pass small integers (pid, request, signal) or a ctypes buffer
  (passed as a pointer), so ctypes' per-argument converters can be skipped:
  0.45 µs per call instead of 1 µs with four ``c_ulong`` converters, and the
  loop makes two of these calls per stop;
* ``raw_ptrace``: ``unsigned long`` arguments and result, for requests that
  pass full 64-bit words (PTRACE_POKEUSER of a register value) and compare
  with ``ERROR_RESULT``;
* ``ptrace_checked``: raises PtraceFailure with the errno.

python-ptrace (a dependency used by the table generator) is deliberately not
imported here: its import pulls in logging and runs ``ldconfig`` through
ctypes.util.find_library, about 10 ms of every pytrace start-up.
"""

from __future__ import annotations

import ctypes
import errno as _errno
import os
import struct

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
WNOTHREAD = 0x20000000  # __WNOTHREAD: only the calling thread's children and tracees

# struct ptrace_syscall_info: u8 op, u8 pad[3], u32 arch, u64 ip, u64 sp, then a union of
# entry {u64 nr, u64 args[6]} / exit {s64 rval, u8 is_error} / seccomp {u64 nr, args[6], u32 ret_data}.
SYSCALL_INFO_SIZE = 88
SCI_HEAD = struct.Struct("<B3xIQQ")
SCI_ENTRY = struct.Struct("<B3xIQQQ6Q")
SCI_EXIT = struct.Struct("<B3xIQQqB")

_libc = ctypes.CDLL(None, use_errno=True)
# The hot-path view: int arguments, int result (-1 on error; GET_SYSCALL_INFO returns a size).
fast_ptrace = _libc.ptrace
# A separate function object (ctypes keeps argtypes per object) with full-width words.
raw_ptrace = ctypes.CDLL(None, use_errno=True).ptrace
raw_ptrace.argtypes = (ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong)
raw_ptrace.restype = ctypes.c_ulong
ERROR_RESULT = ctypes.c_ulong(-1).value


class PtraceFailure(OSError):
    """A ptrace request failed; ``errno`` says why (ESRCH: tracee gone or not stopped)."""


def ptrace_checked(request: int, pid: int, addr: int = 0, data: int = 0) -> int:
    """Issue a request, raising PtraceFailure with the errno (-1 from a PEEK request is data, not an error)."""
    ctypes.set_errno(0)
    result = raw_ptrace(request, pid, addr, data)
    if result == ERROR_RESULT:
        err = ctypes.get_errno()
        if err:
            raise PtraceFailure(err, os.strerror(err))
    return result


class SyscallInfoReader:
    """One reusable buffer for PTRACE_GET_SYSCALL_INFO, so a stop allocates nothing but the tuple.

    ``buf`` is a bytearray (indexing it gives an int, ``Struct.unpack_from`` reads it in
    place) and ``cbuf`` a ctypes view of the same memory, which ctypes passes as a pointer:
    the hot loop calls ``fast_ptrace(PTRACE_GET_SYSCALL_INFO, pid, SYSCALL_INFO_SIZE, cbuf)``.
    """

    __slots__ = ("buf", "cbuf", "addr", "supported")

    def __init__(self) -> None:
        self.buf = bytearray(SYSCALL_INFO_SIZE)
        self.cbuf = (ctypes.c_char * SYSCALL_INFO_SIZE).from_buffer(self.buf)
        self.addr = ctypes.addressof(self.cbuf)
        # PYTRACE_NO_SYSCALL_INFO=1 forces the register fallback (kernels older than 5.3), so the
        # fallback is tested on this kernel too, as strace's legacy_syscall_info test does.
        self.supported = not os.environ.get("PYTRACE_NO_SYSCALL_INFO")

    def failed(self) -> None:
        """After a failed request: EIO means the kernel does not know it, so stop asking."""
        if ctypes.get_errno() == _errno.EIO:
            self.supported = False

    def fetch(self, pid: int) -> int:
        """Fill the buffer; returns the op (OP_*), or -1 when unavailable (then use registers)."""
        if not self.supported:
            return -1
        if fast_ptrace(PTRACE_GET_SYSCALL_INFO, pid, SYSCALL_INFO_SIZE, self.cbuf) < 0:
            self.failed()
            return -1
        return self.buf[0]

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
