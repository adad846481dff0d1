"""Software breakpoints (int3) in a tracee, and stepping over them while other threads keep running.

A breakpoint is the byte 0xcc written over the first byte of an instruction
(through /proc/PID/mem, which may write read-only text and works while the
tracee runs).  When a thread executes it, the kernel reports a SIGTRAP stop with
rip one past the breakpoint.  To let the thread go on, the original
instruction has to run *as if the 0xcc were not there*.

ltrace removes the byte, single-steps the thread and puts the byte back, and to
keep the other threads from running through the hole it first stops every one
of them (``process_stopping_handler``), which is where its thread crashes come
from.  pyltrace never removes an armed breakpoint to step over it.  Instead:

* **emulation** for the instructions breakpoints usually sit on: a PLT stub's
  ``jmp *GOT(%rip)`` (optionally ``bnd``-prefixed) reads the GOT slot and sets
  rip; ``endbr64`` and ``nop`` just advance rip; relative ``jmp``/``call``/``jcc``
  (common at return addresses) are computed from the flags.  No single-step at
  all: the cheapest and the common case;
* **displaced stepping** (as GDB and the kernel's uprobes do) for everything
  else: the instruction is copied to a private executable page mapped into the
  tracee near the code (so ``rip``-relative operands can be re-targeted with a
  32-bit displacement), the thread is single-stepped *there*, and rip is
  moved back (``call`` also gets its pushed return address fixed).  The page is
  created by making the stopped thread itself run ``mmap`` (a ``syscall``
  instruction found in the vDSO serves as the gadget), so nothing in the
  program's own memory is touched.

In an i386 tracee (``word`` 4) the same plans are decoded in 32-bit mode (a
stub's ``jmp *disp(%ebx)`` reads the slot ebx+disp, ``jmp *ABS`` the slot ABS,
``call`` pushes 4 bytes), and the scratch page is made by running ``mmap2``
through an ``int $0x80`` of the 32-bit vDSO (32-bit code has no
ip-relative operands, so an instruction runs unchanged out of line).

Other threads may therefore run the breakpointed code at any time: they hit
the (still armed) breakpoint and are handled the same way.  A thread that hit a
breakpoint just removed (its stop was already queued) is recognised by the
address being in ``known`` and simply rewound.
"""

from __future__ import annotations

import ctypes
import os
import signal
import struct
import time
from collections.abc import Callable

from pytrace.backends.ptrace import binding as B

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

_fast_ptrace = B.fast_ptrace
_raw_ptrace = B.raw_ptrace
_U64 = struct.Struct("<Q")
_REGS = struct.Struct("<27Q")
_REGS_SIZE = _REGS.size
# user_regs_struct slots (index into the 27 words) and byte offsets for PEEK/POKEUSER.
R15, R14, R13, R12, RBP, RBX, R11, R10, R9, R8, RAX, RCX, RDX, RSI, RDI, ORIG_RAX, RIP, CS, EFLAGS, RSP = range(20)
_OFF_RIP = RIP * 8
_OFF_RSP = RSP * 8
_PAGE = 4096
_SLOT = 32
_MASK64 = (1 << 64) - 1
_M32 = 0xFFFFFFFF
_SIGTRAP_STOP = (signal.SIGTRAP << 8) | 0x7F
_FAULTS = frozenset((signal.SIGSEGV, signal.SIGBUS, signal.SIGILL, signal.SIGFPE))

# Step-over plans.
NOP, JMPMEM, JMP, CALL, JCC, SLOT, INPLACE = range(7)


class Regs:
    """One reusable PTRACE_GETREGS buffer; ``fetch`` returns the 27 words as a tuple."""

    __slots__ = ("buf", "cbuf")

    def __init__(self) -> None:
        self.buf = bytearray(_REGS_SIZE)
        self.cbuf = (ctypes.c_char * _REGS_SIZE).from_buffer(self.buf)

    def fetch(self, tid: int) -> tuple[int, ...] | None:
        if _fast_ptrace(B.PTRACE_GETREGS, tid, 0, self.cbuf) < 0:
            return None
        return _REGS.unpack_from(self.buf)

    def store(self, tid: int, words: list[int] | tuple[int, ...]) -> bool:
        _REGS.pack_into(self.buf, 0, *(w & _MASK64 for w in words))
        return _fast_ptrace(B.PTRACE_SETREGS, tid, 0, self.cbuf) >= 0


REGS = Regs()


def set_rip(tid: int, value: int) -> None:
    _raw_ptrace(B.PTRACE_POKEUSER, tid, _OFF_RIP, value)


def peek_user(tid: int, off: int) -> int:
    return _raw_ptrace(B.PTRACE_PEEKUSER, tid, off, 0)


#: How long a wait polls before it sleeps in the kernel (seconds).  A breakpoint stop comes back within
#: microseconds; a blocking waitpid turns each of the two stops per call into a sleep and a cross-CPU
#: wake-up, which on an otherwise idle machine costs more than all our work (measured: 100k calls of
#: labs() take 3.0 s with a 200 us poll against 5.3 s without).
SPIN_SECONDS = 0.0002
_WNOHANG = os.WNOHANG
_monotonic = time.monotonic


def spinning_waitpid(blocking: Callable[[int, int], tuple[int, int]]) -> Callable[[int, int], tuple[int, int]]:
    """``waitpid`` that polls for SPIN_SECONDS before falling back to ``blocking``."""
    waitpid = os.waitpid

    def wait(pid: int, options: int) -> tuple[int, int]:
        end = _monotonic() + SPIN_SECONDS
        polling = options | _WNOHANG
        while True:
            got = waitpid(pid, polling)
            if got[0]:
                return got
            if _monotonic() > end:
                return blocking(pid, options)

    return wait


_step_wait = spinning_waitpid(os.waitpid)

#: Signals that arrived while a thread was being single-stepped: delivered when it is next resumed.
deferred_signals: dict[int, list[int]] = {}


def take_signal(tid: int) -> int:
    """The signal to resume ``tid`` with (a deferred one), 0 if none; extra ones are re-queued."""
    sigs = deferred_signals.pop(tid, None)
    if not sigs:
        return 0
    for extra in sigs[1:]:
        try:
            os.kill(tid, extra)  # tid == tgid only for leaders; close enough for coalescing signals
        except OSError:
            pass
    return sigs[0]


class ThreadGone(Exception):
    """The thread ended while we were stepping it; ``status`` is its wait status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def singlestep(tid: int) -> int:
    """PTRACE_SINGLESTEP and wait for the step's trap.

    Returns 0, or a synchronous fault signal raised by the stepped instruction
    itself (to deliver with rip back on the breakpoint).  Other signals that show
    up meanwhile are deferred (see ``deferred_signals``); raises ThreadGone.
    """
    while True:
        if _fast_ptrace(B.PTRACE_SINGLESTEP, tid, 0, 0) < 0:
            raise ThreadGone(0)
        try:
            _, status = _step_wait(tid, B.WALL)
        except ChildProcessError:
            raise ThreadGone(0) from None
        if (status & 0xFF) != 0x7F:
            raise ThreadGone(status)
        if status == _SIGTRAP_STOP:
            return 0
        sig = (status >> 8) & 0xFF
        if status >> 16:  # an event stop (PTRACE_INTERRUPT, group stop): step again
            continue
        if sig in _FAULTS:
            return sig
        deferred_signals.setdefault(tid, []).append(sig)


class Bp:
    """One armed int3 and what it means; several roles may share an address.

    (A plain class, not a record: every run makes them, and records' per-class work is start-up cost.)
    """

    __slots__ = ("addr", "orig", "entry", "ret_refs", "internal", "plan", "probes")

    def __init__(self, addr: int, orig: int, entry: Any = None, ret_refs: int = 0, internal: Any = None,
                 plan: tuple | None = None, probes: Any = None) -> None:
        self.addr = addr
        self.orig = orig  # the original byte
        self.entry = entry  # a traced function entered here (tracer-owned symbol record)
        self.ret_refs = ret_refs  # open calls returning here, over all threads of the address space
        self.internal = internal  # callable(thread, regs) for the tracer's own breakpoints (AT_ENTRY, r_brk)
        self.plan = plan
        self.probes = probes  # the USDT probes whose nop this is (tracer-owned records)


class AddressSpace:
    """The breakpoints of one address space (a thread group, or a vfork child sharing it)."""

    def __init__(self, pid: int, word: int = 8) -> None:
        self.pid = pid
        self.word = word  # 8 (x86-64) or 4 (i386): the size of a pointer in this address space
        self.fd = os.open(f"/proc/{pid}/mem", os.O_RDWR | os.O_CLOEXEC)
        self.bps: dict[int, Bp] = {}
        self.known: dict[int, int] = {}  # every address that ever held our int3 -> its original byte
        self.pages: list[list[int]] = []  # [base, used bytes] of our scratch pages
        self.slots: dict[int, int] = {}  # breakpoint address -> slot address
        self.gadget: int | None = None

    # -- memory ------------------------------------------------------------------

    def read(self, addr: int, size: int) -> bytes | None:
        try:
            data = os.pread(self.fd, size, addr)
        except OSError:
            return None
        return data if len(data) == size else None

    def write(self, addr: int, data: bytes) -> bool:
        try:
            return os.pwrite(self.fd, data, addr) == len(data)
        except OSError:
            return False

    def read_word(self, addr: int) -> int | None:
        """The pointer-sized word at ``addr`` (8 bytes, or 4 in an i386 tracee)."""
        data = self.read(addr, self.word)
        return None if data is None else int.from_bytes(data, "little")

    def original(self, addr: int, size: int) -> bytes | None:
        """Memory as the program sees it: armed breakpoints' original bytes put back."""
        data = self.read(addr, size)
        if data is None:
            return None
        out = bytearray(data)
        for i in range(size):
            bp = self.bps.get(addr + i)
            if bp is not None:
                out[i] = bp.orig
        return bytes(out)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    # -- arming ------------------------------------------------------------------

    def insert(self, addr: int) -> Bp | None:
        """The breakpoint at ``addr``, armed now if it was not; None if the memory is not writable."""
        bp = self.bps.get(addr)
        if bp is not None:
            return bp
        data = self.read(addr, 1)
        if data is None or not self.write(addr, b"\xcc"):
            return None
        orig = data[0]
        if orig == 0xCC and addr in self.known:  # a stale int3 (memory copied by fork before its removal)
            orig = self.known[addr]
        bp = self.bps[addr] = Bp(addr, orig)
        self.known[addr] = orig
        return bp

    def remove(self, bp: Bp) -> None:
        if self.bps.pop(bp.addr, None) is not None:
            self.write(bp.addr, bytes((bp.orig,)))

    def clear(self) -> None:
        """Put every original byte back (before detaching, or in an untraced fork child)."""
        for bp in list(self.bps.values()):
            self.write(bp.addr, bytes((bp.orig,)))
        self.bps.clear()

    def restore_stale(self) -> None:
        """Write back the original byte everywhere we once had an int3 that is no longer armed."""
        for addr, orig in self.known.items():
            if addr not in self.bps:
                self.write(addr, bytes((orig,)))

    def fork_copy(self, child: int) -> AddressSpace:
        """The child of a fork has a copy of our memory: the same int3s and scratch pages."""
        space = AddressSpace(child, self.word)
        space.bps = {a: Bp(b.addr, b.orig, b.entry, b.ret_refs, b.internal, b.plan, b.probes) for a, b in self.bps.items()}
        space.known = dict(self.known)
        space.pages = [list(p) for p in self.pages]
        space.slots = dict(self.slots)
        space.gadget = self.gadget
        return space

    # -- stepping over -------------------------------------------------------------

    def step_over(self, tid: int, bp: Bp, regs: tuple[int, ...]) -> int:
        """Run the instruction under ``bp`` for thread ``tid`` (stopped, rip anywhere).

        Returns a fault signal to deliver (0 normally).  Raises ThreadGone.
        """
        plan = bp.plan
        if plan is None:
            plan = bp.plan = self._plan(tid, bp) if self.word == 8 else self._plan32(tid, bp, regs)
        kind = plan[0]
        addr = bp.addr
        if kind == NOP:
            set_rip(tid, addr + plan[1])
        elif kind == JMPMEM:
            target = plan[2]
            if target is None:
                target = self.read_word(plan[1])
                if target is None:
                    return self._inplace(tid, bp)
                if abs(target - addr) > 0x100000:
                    # Bound (it no longer points back into the PLT, to the lazy-binding path): a GOT
                    # slot does not change after that, so later calls skip the read.
                    bp.plan = (JMPMEM, plan[1], target)
            set_rip(tid, target)
        elif kind == JMP:
            set_rip(tid, plan[1])
        elif kind == CALL:
            word = self.word
            sp = (regs[RSP] - word) & _MASK64
            if not self.write(sp, plan[2].to_bytes(word, "little")):
                return self._inplace(tid, bp)
            _raw_ptrace(B.PTRACE_POKEUSER, tid, _OFF_RSP, sp)
            set_rip(tid, plan[1])
        elif kind == JCC:
            set_rip(tid, plan[2] if _condition(plan[1], regs) else plan[3])
        elif kind == SLOT:
            return self._displaced(tid, bp, plan)
        else:
            return self._inplace(tid, bp)
        return 0

    def _displaced(self, tid: int, bp: Bp, plan: tuple) -> int:
        _, slot, length, is_call = plan
        set_rip(tid, slot)
        fault = singlestep(tid)
        rip = peek_user(tid, _OFF_RIP)
        if fault:
            if slot <= rip < slot + length:
                set_rip(tid, bp.addr)
            return fault
        if rip == slot + length:
            set_rip(tid, bp.addr + length)
        elif is_call:
            sp = peek_user(tid, _OFF_RSP)
            self.write(sp, (bp.addr + length).to_bytes(self.word, "little"))
        return 0

    def _inplace(self, tid: int, bp: Bp) -> int:
        """The last resort (no scratch page could be made): ltrace's way, without stopping the others."""
        self.write(bp.addr, bytes((bp.orig,)))
        set_rip(tid, bp.addr)
        try:
            fault = singlestep(tid)
        finally:
            if bp.addr in self.bps:
                self.write(bp.addr, b"\xcc")
        return fault

    def _plan32(self, tid: int, bp: Bp, regs: tuple[int, ...]) -> tuple:
        """The step-over plan for an i386 instruction (decoded in 32-bit mode)."""
        from capstone import CS_ARCH_X86, CS_MODE_32, Cs
        from capstone.x86 import X86_GRP_CALL, X86_OP_IMM, X86_OP_MEM, X86_REG_EBX

        code = self.original(bp.addr, 16)
        if code is None:
            return (INPLACE,)
        md = Cs(CS_ARCH_X86, CS_MODE_32)
        md.detail = True
        insn = next(md.disasm(code, bp.addr), None)
        if insn is None:
            return (INPLACE,)
        m = insn.mnemonic.removeprefix("bnd ").removeprefix("notrack ")
        ops = insn.operands
        end = (bp.addr + insn.size) & _M32
        if m in ("endbr32", "nop"):
            return (NOP, insn.size)
        if m == "jmp" and len(ops) == 1:
            op = ops[0]
            if op.type == X86_OP_IMM:
                return (JMP, op.imm & _M32)
            if op.type == X86_OP_MEM and op.mem.index == 0 and op.mem.base in (0, X86_REG_EBX):
                # A PLT stub: ebx holds the GOT address whenever it runs, so the slot is fixed.
                base = regs[RBX] if op.mem.base else 0
                return (JMPMEM, (base + op.mem.disp) & _M32, None)
        if m == "call" and len(ops) == 1 and ops[0].type == X86_OP_IMM:
            return (CALL, ops[0].imm & _M32, end)
        if m in _JCC and len(ops) == 1 and ops[0].type == X86_OP_IMM:
            return (JCC, m, ops[0].imm & _M32, end)
        if m.startswith(("j", "loop")) or m in ("int", "int3", "into", "syscall", "sysenter"):
            return (INPLACE,)
        slot = self._slot(tid, bp.addr, None, insn.size)
        if slot is None or not self.write(slot, code[:insn.size]):
            return (INPLACE,)
        return (SLOT, slot, insn.size, X86_GRP_CALL in insn.groups)

    def _plan(self, tid: int, bp: Bp) -> tuple:
        from capstone import CS_ARCH_X86, CS_MODE_64, Cs
        from capstone.x86 import X86_GRP_CALL, X86_OP_IMM, X86_OP_MEM, X86_REG_RIP

        code = self.original(bp.addr, 16)
        if code is None:
            return (INPLACE,)
        md = Cs(CS_ARCH_X86, CS_MODE_64)
        md.detail = True
        insn = next(md.disasm(code, bp.addr), None)
        if insn is None:
            return (INPLACE,)
        n = insn.size
        m = insn.mnemonic.removeprefix("bnd ").removeprefix("notrack ")
        ops = insn.operands
        end = bp.addr + n
        if m == "endbr64" or m == "nop":
            return (NOP, n)
        riprel = [op for op in ops if op.type == X86_OP_MEM and op.mem.base == X86_REG_RIP]
        if m in ("jmp", "bnd jmp") and len(ops) == 1:
            if ops[0].type == X86_OP_IMM:
                return (JMP, ops[0].imm & _MASK64)
            if riprel and ops[0].mem.index == 0:
                return (JMPMEM, (end + ops[0].mem.disp) & _MASK64, None)
        if m == "call" and len(ops) == 1 and ops[0].type == X86_OP_IMM:
            return (CALL, ops[0].imm & _MASK64, end)
        if m in _JCC and len(ops) == 1 and ops[0].type == X86_OP_IMM:
            return (JCC, m, ops[0].imm & _MASK64, end)
        if m.startswith("loop") or m in ("jrcxz", "jecxz", "jcxz") or (m.startswith("j") and ops
                                                                         and ops[0].type == X86_OP_IMM):
            return (INPLACE,)
        body = bytearray(code[:n])
        target = None
        if riprel:
            if not insn.disp_size or insn.disp_size != 4:
                return (INPLACE,)
            target = (end + riprel[0].mem.disp) & _MASK64
        slot = self._slot(tid, bp.addr, target, n)
        if slot is None:
            return (INPLACE,)
        if target is not None:
            disp = target - (slot + n)
            if not -(1 << 31) <= disp < (1 << 31):
                return (INPLACE,)
            struct.pack_into("<i", body, insn.disp_offset, disp)
        if not self.write(slot, bytes(body)):
            return (INPLACE,)
        return (SLOT, slot, n, X86_GRP_CALL in insn.groups)

    # -- scratch pages ---------------------------------------------------------------

    def _slot(self, tid: int, addr: int, target: int | None, n: int) -> int | None:
        """A free 32-byte slot; within +-2 GiB of ``target`` when the instruction is rip-relative."""
        for page in self.pages:
            if page[1] + _SLOT > _PAGE:
                continue
            slot = page[0] + page[1]
            if target is not None and abs(target - slot) > (1 << 31) - _PAGE:
                continue
            page[1] += _SLOT
            return slot
        base = self._new_page(tid, target if target is not None else addr)
        if base is None:
            return None
        self.pages.append([base, _SLOT])
        return base

    def _new_page(self, tid: int, near: int) -> int | None:
        from pytrace.ltrace.objects import all_ranges

        ranges = sorted(all_ranges(self.pid))
        limit = (1 << 31) - 2 * _PAGE
        candidates: list[tuple[int, int]] = []
        prev_end = 0x10000
        for lo, hi in [*ranges, (0x7FFFFFFFF000, 0x7FFFFFFFF000)]:
            if lo - prev_end >= 4 * _PAGE:
                # Keep a guard page from each neighbour; try the ends of the gap nearest ``near``.
                for cand in (lo - 2 * _PAGE, prev_end + _PAGE):
                    if abs(cand - near) < limit and (self.word == 8 or cand + _PAGE <= 1 << 32):
                        candidates.append((abs(cand - near), cand))
            prev_end = max(prev_end, hi)
        for _, cand in sorted(candidates)[:4]:
            got = self.inject_mmap(tid, cand)
            if got is not None:
                return got
        return None

    def inject_mmap(self, tid: int, hint: int) -> int | None:
        """Make thread ``tid`` (stopped) call mmap(hint, page, r-x, private|anon|fixed_noreplace)."""
        gadget = self._find_gadget()
        if gadget is None:
            return None
        saved = REGS.fetch(tid)
        if saved is None:
            return None
        regs = list(saved)
        flags = 0x2 | 0x20 | 0x100000  # MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE
        if self.word == 4:  # i386 int $0x80: mmap2(ebx, ecx, edx, esi, edi, ebp), the offset in pages
            regs[RAX], regs[RBX], regs[RCX], regs[RDX], regs[RSI], regs[RDI], regs[RBP] = (
                192, hint, _PAGE, 5, flags, _M32, 0)
        else:
            regs[RAX] = 9  # mmap
            regs[RDI] = hint
            regs[RSI] = _PAGE
            regs[RDX] = 5  # PROT_READ|PROT_EXEC
            regs[R10] = flags
            regs[R8] = _MASK64
            regs[R9] = 0
        regs[ORIG_RAX] = _MASK64
        regs[RIP] = gadget
        if not REGS.store(tid, regs):
            return None
        try:
            singlestep(tid)
            after = REGS.fetch(tid)
        finally:
            REGS.store(tid, saved)
        if after is None:
            return None
        result = after[RAX] & (_M32 if self.word == 4 else _MASK64)
        if result != hint:
            if result < (1 << (8 * self.word - 1)) - _PAGE:  # mapped elsewhere (old kernel ignoring the flag)
                self._munmap(tid, result, gadget, saved)
            return None
        return result

    def _munmap(self, tid: int, addr: int, gadget: int, saved: tuple[int, ...]) -> None:
        regs = list(saved)
        if self.word == 4:  # i386 munmap(ebx, ecx)
            regs[RAX], regs[ORIG_RAX], regs[RBX], regs[RCX], regs[RIP] = 91, _MASK64, addr, _PAGE, gadget
        else:
            regs[RAX], regs[ORIG_RAX], regs[RDI], regs[RSI], regs[RIP] = 11, _MASK64, addr, _PAGE, gadget
        if REGS.store(tid, regs):
            try:
                singlestep(tid)
            finally:
                REGS.store(tid, saved)

    def _find_gadget(self) -> int | None:
        """The address of a ``syscall`` instruction (bytes 0f 05; in an i386 tracee ``int $0x80``, cd 80)
        in the vDSO, or else in any text."""
        if self.gadget is not None:
            return self.gadget
        try:
            with open(f"/proc/{self.pid}/maps") as f:
                lines = f.read().splitlines()
        except OSError:
            return None
        ordered = [ln for ln in lines if ln.endswith("[vdso]")] + [ln for ln in lines if " r-xp " in ln]
        for line in ordered:
            lo, hi = (int(x, 16) for x in line.split(None, 1)[0].split("-"))
            data = self.read(lo, min(hi - lo, 1 << 20))
            if not data:
                continue
            insn = b"\x0f\x05" if self.word == 8 else b"\xcd\x80"
            pos = data.find(insn)
            while pos >= 0 and (lo + pos) in self.bps:
                pos = data.find(insn, pos + 1)
            if pos >= 0:
                self.gadget = lo + pos
                return self.gadget
        return None


_JCC = {
    "jo": (11, 1), "jno": (11, 0), "jb": (0, 1), "jae": (0, 0), "je": (6, 1), "jne": (6, 0),
    "jbe": -1, "ja": -2, "js": (7, 1), "jns": (7, 0), "jp": (2, 1), "jnp": (2, 0),
    "jl": -3, "jge": -4, "jle": -5, "jg": -6,
}


def _condition(mnemonic: str, regs: tuple[int, ...]) -> bool:
    fl = regs[EFLAGS]
    cf, zf, sf, of = fl & 1, (fl >> 6) & 1, (fl >> 7) & 1, (fl >> 11) & 1
    spec = _JCC[mnemonic]
    if isinstance(spec, tuple):
        return ((fl >> spec[0]) & 1) == spec[1]
    if spec == -1:
        return bool(cf or zf)
    if spec == -2:
        return not (cf or zf)
    if spec == -3:
        return sf != of
    if spec == -4:
        return sf == of
    if spec == -5:
        return bool(zf) or sf != of
    return not zf and sf == of
