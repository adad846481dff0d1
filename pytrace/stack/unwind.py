"""The stack walk: libunwind 1.6's ``unw_step`` on x86-64, driven as strace's ``walk()`` drives it.

strace (``unwind-libunwind.c``) prints a frame, then steps, up to 256 frames:

* a frame is printed only if its ip lies in an executable entry of strace's
  maps cache; otherwise ``unexpected_backtracing_error [0xIP]`` ends the trace
  (nothing at all for ip 0);
* ``unw_step`` <= 0 ends the trace after the frame already printed.

``unw_step`` first tries DWARF: the FDE found through ``.eh_frame_hdr`` for ip
(ip - 1 for frames reached by a return), its CFA rule and register rules.  A
register rule of "undefined" for the return address -- glibc's ``_start`` and
thread start -- ends the walk, as does an undefined rbp.  Only when there is no
FDE at all (-UNW_ENOINFO) does it fall back to heuristics: a signal trampoline
recognised by its bytes, a classic PLT stub, or the frame-pointer chain, in which
the next CFA is taken as the current one plus 16 (libunwind's guess, which makes a
CFI frame reached this way compute a wrong CFA: strace prints the resulting
garbage address, and so do we).

Register values live in "locations" as in libunwind: a register of the stopped
thread, a stack address, or a plain value.  Memory is read from a window of the
stack fetched with one process_vm_readv, and word by word elsewhere.
"""

from __future__ import annotations

import struct
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from pytrace.stack import cfi
from pytrace.stack.cfi import (
    CFA_FROM_EXPR,
    CFA_FROM_REG,
    CFA_SP_SAME,
    CFAREL,
    EBADFRAME,
    EBADREG,
    ENOINFO,
    EXPR,
    MASK64,
    NREGS,
    REG,
    UNDEF,
    VAL_CFAREL,
    VAL_EXPR,
    CfiError,
    Rule,
)
from pytrace.stack.symbolize import format_error, format_frame, mapping_image, name_in

if TYPE_CHECKING:
    from pytrace.stack.maps import Mapping, Maps

MAX_FRAMES = 256
RBP, RSP, RIP = 6, 7, 16
# DWARF register numbers -> user_regs_struct names (x86-64 SysV psABI numbering).
DWARF_REGS = ("rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp",
              "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rip")
# Locations: (kind, value); None is libunwind's DWARF_NULL_LOC.
L_REG, L_MEM, L_VAL = 0, 1, 2
_U64 = struct.Struct("<Q")
_WINDOW = 16384  # bytes of stack fetched at once from the stack pointer up
# ucontext_t.uc_mcontext.gregs offsets (REG_R8 = 0 ... REG_RIP = 16), for signal frames without CFI.
_UC_GREGS = 40
_UC_SLOT = {8: 0, 9: 1, 10: 2, 11: 3, 12: 4, 13: 5, 14: 6, 15: 7, 5: 8, 4: 9, 6: 10, 3: 11, 1: 12, 0: 13,
            2: 14, 7: 15, 16: 16}


class _Fail(Exception):
    """A libunwind error code: the step fails and the walk ends."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Memory:
    """The tracee's memory as 8-byte words: a stack window first, single reads otherwise."""

    __slots__ = ("reader", "base", "window")

    def __init__(self, reader: Any, sp: int) -> None:
        self.reader = reader
        self.base = sp
        self.window = reader.read_upto(sp, _WINDOW) or b""

    def word(self, addr: int) -> int:
        off = addr - self.base
        if 0 <= off <= len(self.window) - 8:
            return _U64.unpack_from(self.window, off)[0]
        data = self.reader.read(addr, 8) if 0 < addr < MASK64 - 8 else None
        if data is None:
            raise _Fail(EBADFRAME)
        return _U64.unpack(data)[0]

    def readable(self, addr: int) -> bool:
        try:
            self.word(addr)
        except _Fail:
            return False
        return True


class Cursor:
    """libunwind's ``struct cursor`` for x86-64, with just the fields the walk uses."""

    __slots__ = ("regs", "mem", "maps", "loc", "cfa", "ip", "prev_instr")

    def __init__(self, regs: dict[str, int], mem: Memory, maps: Maps) -> None:
        self.regs = [regs[name] for name in DWARF_REGS]
        self.mem = mem
        self.maps = maps
        self.loc: list[tuple[int, int] | None] = [(L_REG, i) for i in range(NREGS)]
        self.cfa = regs["rsp"]
        self.ip = regs["rip"]
        self.prev_instr = False  # use_prev_instr: 0 for the first frame (unw_init_remote)

    def get(self, loc: tuple[int, int] | None) -> int:
        """dwarf_get: the value at a location."""
        if loc is None:
            raise _Fail(EBADREG)
        kind, v = loc
        if kind == L_REG:
            return self.regs[v]
        if kind == L_MEM:
            return self.mem.word(v)
        return v

    def get_reg(self, reg: int) -> int:
        """unw_get_reg for a DWARF register of the current frame (rsp is the CFA)."""
        if reg == RSP:
            return self.cfa
        if reg >= NREGS:
            raise _Fail(EBADREG)
        return self.get(self.loc[reg])


def walk(regs: dict[str, int], reader: Any, maps: Maps, queued: bool) -> list[str]:
    """The frame lines strace prints for a thread stopped with registers ``regs``."""
    c = Cursor(regs, Memory(reader, regs["rsp"]), maps)
    out: list[str] = []
    for _ in range(MAX_FRAMES):
        ip = c.ip
        entry = maps.strace_entry(ip)
        if entry is None or entry.perms[2] != "x":
            if ip:
                out.append(format_error("unexpected_backtracing_error", ip))
            return out
        # The same maps line serves libunwind's symbol lookup and its FDE search for this frame.
        lookup = ip - 1 if c.prev_instr else ip
        m = entry if entry.start <= lookup < entry.end else maps.line_for(lookup)
        sym = name_in(m, lookup, c.prev_instr) if m is not None else None
        out.append(format_frame(entry.path, sym, ip - entry.start + entry.offset, queued))
        if step(c, m, lookup) <= 0:
            return out
    out.append(format_error("too many stack frames", 0))
    return out


def step(c: Cursor, m: Mapping | None, lookup: int) -> int:
    """unw_step: 1 = a new frame, 0 = end of stack, < 0 = error."""
    try:
        ret = _dwarf_step(c, m, lookup)
    except (_Fail, CfiError) as exc:
        return exc.code
    except Exception:  # noqa: BLE001 - input we did not foresee (odd CFI) ends this stack, never the trace
        return EBADFRAME
    if ret >= 0:
        # "x86_64 ABI specifies that end of call-chain is marked with a NULL RBP or undefined return address"
        if c.loc[RBP] is None:
            c.ip = 0
            return 0
        return ret
    if ret != ENOINFO:
        return ret
    try:
        return _fallback(c)
    except _Fail as exc:
        return exc.code
    except Exception:  # noqa: BLE001 - as above
        return EBADFRAME


# -- DWARF --------------------------------------------------------------------------------


def _find_rule(m: Mapping | None, lookup: int) -> Rule | int:
    """_UPT_find_proc_info + the CFA program: the rule for ``lookup``, or ENOINFO."""
    if m is None:
        return ENOINFO
    img: Any = m.image
    if img is None:
        img = mapping_image(m)
    if not img or m.bias is None:
        return ENOINFO
    rel = lookup - m.bias
    cached = img.rules.get(rel)
    if cached is not None:
        return cached
    result: Any
    if not img.load_lo <= rel < img.load_hi or img.eh_hdr_vaddr is None:
        result = ENOINFO
    else:
        # remote_lookup: binary search over int32 offsets from the header, rel_ip truncated to int32.
        key = (rel - img.eh_hdr_vaddr) & 0xFFFFFFFF
        if key >= 0x80000000:
            key -= 1 << 32
        i = bisect_right(img.eh_starts, key) - 1
        if i < 0:
            result = ENOINFO
        else:
            fde = cfi.fde_at(img, img.eh_hdr_vaddr + img.eh_fdes[i])
            if not fde.start <= rel < fde.end:
                result = ENOINFO
            else:
                result = cfi.rule_for(img, fde, rel)
    img.rules[rel] = result
    return result


def _dwarf_step(c: Cursor, m: Mapping | None, lookup: int) -> int:
    rule = _find_rule(m, lookup)
    if isinstance(rule, int):
        return rule
    kind, cfa_arg, cfa_off, changes, ra_col, signal = rule
    c.prev_instr = not signal  # how the *next* frame is looked up
    prev_ip, prev_cfa = c.ip, c.cfa
    # The CFA first: other rules may refer to it.
    if kind == CFA_SP_SAME:
        cfa = (c.cfa + cfa_off) & MASK64
    elif kind == CFA_FROM_REG:
        cfa = (c.get_reg(cfa_arg) + cfa_off) & MASK64
    elif kind == CFA_FROM_EXPR:
        loc_kind, cfa = _eval(c, 0, cfa_arg)
        if loc_kind == L_REG:
            return EBADFRAME
    else:
        return EBADFRAME
    loc = list(c.loc)
    for i, w, v in changes:
        if w == CFAREL:
            loc[i] = (L_MEM, (cfa + v) & MASK64)
        elif w == UNDEF:
            loc[i] = None
        elif w == REG:
            if v >= NREGS:
                return EBADREG
            loc[i] = loc[v]
        elif w == EXPR:
            loc[i] = _eval(c, cfa, v)
        elif w == VAL_EXPR:
            loc[i] = (L_VAL, _eval(c, cfa, v)[1])
        elif w == VAL_CFAREL:
            loc[i] = (L_VAL, (cfa + v) & MASK64)
    c.loc = loc
    c.cfa = cfa
    ra = loc[ra_col] if ra_col < NREGS else None
    if ra is None:
        c.ip = 0
        ret = 0
    else:
        c.ip = c.get(ra)
        ret = 1
    if c.ip == prev_ip and c.cfa == prev_cfa:
        return EBADFRAME
    # dwarf_step: a zero return address ends the walk too.
    return ret if c.ip != 0 else 0


# -- fallbacks ----------------------------------------------------------------------------


def _fallback(c: Cursor) -> int:
    prev_ip, prev_cfa = c.ip, c.cfa
    ret = ENOINFO
    mem = c.mem
    if _is_signal_frame(c):
        uc = c.cfa
        try:
            c.cfa = mem.word(uc + _UC_GREGS + 8 * _UC_SLOT[RSP])
        except _Fail:
            return 0
        for reg, slot in _UC_SLOT.items():
            if reg != RSP:
                c.loc[reg] = (L_MEM, uc + _UC_GREGS + 8 * slot)
        c.prev_instr = False
    elif _is_plt_entry(c):
        # Like a regular frame: CFA = RSP + 8, return address at [CFA - 8], nothing saved.
        c.loc[RIP] = (L_MEM, c.cfa)
        c.cfa = (c.cfa + 8) & MASK64
    elif c.loc[RBP] is None:
        c.loc = [None] * NREGS
    else:
        rbp = c.get(c.loc[RBP])
        if not rbp:
            rbp_loc = rip_loc = None  # the end of the call chain
        else:
            rbp_loc: tuple[int, int] | None = (L_MEM, rbp)
            rip_loc: tuple[int, int] | None = (L_MEM, (rbp + 8) & MASK64)
            # "For RBP to be a valid frame it needs to be above current CFA, but don't let it go
            # more than a little."
            if not mem.readable(rbp) or rbp < c.cfa or rbp - c.cfa > 0x4000:
                rbp_loc = rip_loc = None
            c.cfa = (c.cfa + 16) & MASK64
        c.loc = [None] * NREGS
        c.loc[RBP] = rbp_loc
        c.loc[RIP] = rip_loc
        c.prev_instr = True
    if c.loc[RBP] is None:
        return 0
    if c.loc[RIP] is not None:
        c.ip = c.get(c.loc[RIP])
        ret = 1
    else:
        c.ip = 0
    if c.ip == prev_ip and c.cfa == prev_cfa:
        return EBADFRAME
    return ret


def _is_signal_frame(c: Cursor) -> bool:
    """x86-64 rt_sigreturn trampoline: mov $0xf,%rax; syscall."""
    try:
        w0 = c.mem.word(c.ip)
        w1 = c.mem.word(c.ip + 8)
    except _Fail:
        return False
    return w0 == 0x0F0000000FC0C748 and (w1 & 0xFF) == 0x05


def _is_plt_entry(c: Cursor) -> bool:
    """jmpq *x(%rip); pushq $n; jmpq .plt -- the classic lazy-binding PLT stub."""
    try:
        w0 = c.mem.word(c.ip)
        w1 = c.mem.word(c.ip + 8)
    except _Fail:
        return False
    return (w0 & 0xFFFF) == 0x25FF and ((w0 >> 48) & 0xFF) == 0x68 and ((w1 >> 24) & 0xFF) == 0xE9


# -- DWARF expressions ---------------------------------------------------------------------


def _eval(c: Cursor, initial: int, expr: bytes) -> tuple[int, int]:
    """eval_location_expr: a memory location (the top of the stack) or a register location."""
    r = cfi.Reader(expr, 0, 0, len(expr))
    stack = [initial & MASK64]
    is_reg = False

    def pop() -> int:
        if not stack:
            raise _Fail(EBADFRAME)
        return stack.pop()

    n = len(expr)
    while r.pos < n:
        op = r.u8()
        if 0x30 <= op <= 0x4F:  # lit0..31
            stack.append(op - 0x30)
        elif 0x50 <= op <= 0x6F:  # reg0..31
            stack.append(op - 0x50)
            is_reg = True
        elif 0x70 <= op <= 0x8F:  # breg0..31
            stack.append((c.get_reg(op - 0x70) + r.sleb()) & MASK64)
        elif op == 0x90:  # regx
            stack.append(r.uleb())
            is_reg = True
        elif op == 0x92:  # bregx
            reg = r.uleb()
            stack.append((c.get_reg(reg) + r.sleb()) & MASK64)
        elif op == 0x03:  # addr
            stack.append(r.fixed("<Q", 8))
        elif op == 0x06:  # deref
            stack.append(c.mem.word(pop()))
        elif op == 0x94:  # deref_size
            size = r.u8()
            stack.append(c.mem.word(pop()) & ((1 << (8 * size)) - 1 if size < 8 else MASK64))
        elif op in _CONSTS:
            fmt, size = _CONSTS[op]
            stack.append(r.fixed(fmt, size) & MASK64)
        elif op == 0x10:  # constu
            stack.append(r.uleb() & MASK64)
        elif op == 0x11:  # consts
            stack.append(r.sleb() & MASK64)
        elif op == 0x12:  # dup
            stack.append(stack[-1] if stack else pop())
        elif op == 0x13:  # drop
            pop()
        elif op == 0x14:  # over
            if len(stack) < 2:
                raise _Fail(EBADFRAME)
            stack.append(stack[-2])
        elif op == 0x15:  # pick
            idx = r.u8()
            if idx >= len(stack):
                raise _Fail(EBADFRAME)
            stack.append(stack[-1 - idx])
        elif op == 0x16:  # swap
            a, b = pop(), pop()
            stack += [a, b]
        elif op == 0x17:  # rot
            a, b, d = pop(), pop(), pop()
            stack += [a, d, b]
        elif op == 0x23:  # plus_uconst
            stack.append((pop() + r.uleb()) & MASK64)
        elif op in _UNARY:
            stack.append(_UNARY[op](pop()) & MASK64)
        elif op in _BINARY:
            b, a = pop(), pop()
            stack.append(_BINARY[op](a, b) & MASK64)
        elif op == 0x2F:  # skip
            r.pos += r.fixed("<h", 2)
        elif op == 0x28:  # bra
            off = r.fixed("<h", 2)
            if pop():
                r.pos += off
        elif op == 0x96:  # nop
            pass
        else:
            raise _Fail(EBADFRAME)
        if r.pos < 0 or r.pos > n:
            raise _Fail(EBADFRAME)
    value = pop()
    return (L_REG, value) if is_reg else (L_MEM, value)


def _signed(v: int) -> int:
    return v - (1 << 64) if v >> 63 else v


_CONSTS = {0x08: ("<B", 1), 0x09: ("<b", 1), 0x0A: ("<H", 2), 0x0B: ("<h", 2), 0x0C: ("<I", 4),
           0x0D: ("<i", 4), 0x0E: ("<Q", 8), 0x0F: ("<q", 8)}
_UNARY = {
    0x19: lambda a: abs(_signed(a)),  # abs
    0x1F: lambda a: -a,  # neg
    0x20: lambda a: ~a,  # not
}
_BINARY = {
    0x1A: lambda a, b: a & b,
    0x1B: lambda a, b: int(_signed(a) / _signed(b)) if b else 0,  # div (signed)
    0x1C: lambda a, b: a - b,
    0x1D: lambda a, b: a % b if b else 0,  # mod
    0x1E: lambda a, b: a * b,
    0x21: lambda a, b: a | b,
    0x22: lambda a, b: a + b,
    0x24: lambda a, b: a << b if b < 64 else 0,  # shl
    0x25: lambda a, b: a >> b,  # shr
    0x26: lambda a, b: _signed(a) >> min(b, 63),  # shra
    0x27: lambda a, b: a ^ b,
    0x29: lambda a, b: int(a == b),
    0x2A: lambda a, b: int(_signed(a) >= _signed(b)),
    0x2B: lambda a, b: int(_signed(a) > _signed(b)),
    0x2C: lambda a, b: int(_signed(a) <= _signed(b)),
    0x2D: lambda a, b: int(_signed(a) < _signed(b)),
    0x2E: lambda a, b: int(a != b),
}
