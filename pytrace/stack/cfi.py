"""DWARF call-frame information from ``.eh_frame``, interpreted as libunwind 1.6 does.

An FDE is found through the ``.eh_frame_hdr`` table (``elfcache``), then parsed
here with its CIE, and its CFA program is run from the function start up to and
including the row of the looked-up pc (libunwind's ``run_cfi_program`` loops
``while (curr_ip <= end_ip)``).  The result -- one "rule" per (image, pc) -- is
memoised on the image, so a pc seen before costs one dict lookup.

A rule is ``(where, val, ret_col, signal_frame)`` over libunwind's 19 columns
(x86-64 DWARF registers 0..16, then the CFA register and CFA offset columns),
with libunwind's ``DWARF_WHERE_*`` meanings.  Expressions are kept as their
bytes and evaluated at unwind time, since they read the tracee's registers and
memory.

All addresses here are link-time addresses (what the file says); the unwinder
subtracts the load bias before asking.  PC-relative pointers make that exact.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytrace.stack.elfcache import ElfImage

# libunwind's DWARF_WHERE_* (the numbers are ours; only the meanings matter).
UNDEF, SAME, CFAREL, REG, EXPR, VAL_EXPR, VAL_CFAREL = range(7)
NREGS = 17  # DWARF_NUM_PRESERVED_REGS on x86-64: rax..r15 and the return address (rip)
CFA_REG = 17  # DWARF_CFA_REG_COLUMN
CFA_OFF = 18  # DWARF_CFA_OFF_COLUMN
NCOLS = 19

MASK64 = (1 << 64) - 1

# libunwind's error codes that change what the walk does.
ENOINFO = -10  # no unwind info: unw_step falls back to its frame-chain heuristics
EBADFRAME = -7
EINVAL = -8
EBADREG = -3


class CfiError(Exception):
    """Malformed or unsupported CFI: libunwind's step fails and the walk ends."""

    def __init__(self, code: int = EINVAL) -> None:
        super().__init__(code)
        self.code = code


class Cie:
    __slots__ = ("code_align", "data_align", "ra_col", "fde_enc", "lsda_enc", "signal", "has_z",
                 "instr_start", "instr_end", "initial")

    def __init__(self) -> None:
        self.code_align = 1
        self.data_align = 1
        self.ra_col = 16
        self.fde_enc = 0
        self.lsda_enc = 0xFF
        self.signal = False
        self.has_z = False
        self.instr_start = 0
        self.instr_end = 0
        self.initial: tuple[list[int], list[Any]] | None = None  # state after the initial instructions


class Fde:
    __slots__ = ("start", "end", "cie", "instr_start", "instr_end")

    def __init__(self, start: int, end: int, cie: Cie, instr_start: int, instr_end: int) -> None:
        self.start = start
        self.end = end
        self.cie = cie
        self.instr_start = instr_start
        self.instr_end = instr_end



# DW_EH_PE_* value formats of fixed size: absptr, udata2/4/8, sdata2/4/8 (struct format, size).
_FIXED_ENCODINGS: dict[int, tuple[str, int]] = {
    0x00: ("<Q", 8), 0x02: ("<H", 2), 0x03: ("<I", 4), 0x04: ("<Q", 8),
    0x0A: ("<h", 2), 0x0B: ("<i", 4), 0x0C: ("<q", 8),
}

class Reader:
    """Sequential reads from the image's file data, tracking the link-time address of each field."""

    __slots__ = ("data", "pos", "delta", "limit")

    def __init__(self, data: Any, pos: int, delta: int, limit: int) -> None:
        self.data = data
        self.pos = pos  # file offset
        self.delta = delta  # vaddr - file offset, for pc-relative pointers
        self.limit = limit

    def need(self, n: int) -> None:
        if self.pos + n > self.limit:
            raise CfiError()

    def u8(self) -> int:
        self.need(1)
        v = self.data[self.pos]
        self.pos += 1
        return v

    def fixed(self, fmt: str, size: int) -> int:
        self.need(size)
        (v,) = struct.unpack_from(fmt, self.data, self.pos)
        self.pos += size
        return v

    def uleb(self) -> int:
        result = shift = 0
        while True:
            b = self.u8()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return result

    def sleb(self) -> int:
        result = shift = 0
        while True:
            b = self.u8()
            result |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                if b & 0x40:
                    result -= 1 << shift
                return result

    def encoded(self, enc: int, func_start: int = 0) -> int:
        """dwarf_read_encoded_pointer: a pointer in one of the DW_EH_PE_* encodings."""
        if enc == 0xFF:  # DW_EH_PE_omit
            return 0
        field_vaddr = self.pos + self.delta
        fmt = enc & 0x0F
        fixed = _FIXED_ENCODINGS.get(fmt)
        if fixed is not None:
            v = self.fixed(*fixed)
        elif fmt == 0x01:  # DW_EH_PE_uleb128
            v = self.uleb()
        elif fmt == 0x09:  # DW_EH_PE_sleb128
            v = self.sleb()
        else:
            raise CfiError()
        if v == 0:
            return 0  # "0 is a special value and always absolute"
        app = enc & 0x70
        if app == 0x10:  # pcrel
            v += field_vaddr
        elif app == 0x40:  # funcrel
            v += func_start
        elif app not in (0x00, 0x30):  # absptr; datarel (gp: 0 for what we read)
            raise CfiError()
        # DW_EH_PE_indirect (0x80) would dereference tracee memory; only personality
        # pointers use it and their value is never needed, so it is skipped.
        return v & MASK64


def fde_at(img: ElfImage, vaddr: int) -> Fde:
    """Parse the FDE at link-time address ``vaddr`` (and its CIE), memoised per image."""
    fde = img.fdes.get(vaddr)
    if fde is not None:
        return fde
    off = img.vaddr_to_offset(vaddr)
    if off is None:
        raise CfiError()
    r = Reader(img.data, off, vaddr - off, img.size)
    length = r.fixed("<I", 4)
    if length == 0xFFFFFFFF:
        length = r.fixed("<Q", 8)
        id_pos = r.pos
        cie_ptr = r.fixed("<Q", 8)
    else:
        id_pos = r.pos
        cie_ptr = r.fixed("<I", 4)
    end = id_pos + length
    if length == 0 or cie_ptr == 0 or end > img.size:
        raise CfiError()  # a terminator or a CIE where an FDE was expected
    cie = _cie_at(img, id_pos - cie_ptr)
    r.limit = end
    start = r.encoded(cie.fde_enc)
    rng = r.encoded(cie.fde_enc & 0x0F)
    if cie.has_z:
        aug_len = r.uleb()
        r.pos += aug_len
    if r.pos > end:
        raise CfiError()
    fde = Fde(start, (start + rng) & MASK64, cie, r.pos, end)
    img.fdes[vaddr] = fde
    return fde


def _cie_at(img: ElfImage, off: int) -> Cie:
    cie = img.cies.get(off)
    if cie is not None:
        return cie
    r = Reader(img.data, off, 0, img.size)
    seg_delta = _delta_for_offset(img, off)
    r.delta = seg_delta
    length = r.fixed("<I", 4)
    if length == 0xFFFFFFFF:
        length = r.fixed("<Q", 8)
        id_pos = r.pos
        cie_id = r.fixed("<Q", 8)
    else:
        id_pos = r.pos
        cie_id = r.fixed("<I", 4)
    end = id_pos + length
    if cie_id != 0 or end > img.size:
        raise CfiError()
    r.limit = end
    cie = Cie()
    version = r.u8()
    if version not in (1, 3, 4):
        raise CfiError()
    aug = bytearray()
    while True:
        ch = r.u8()
        if ch == 0:
            break
        aug.append(ch)
    if version == 4:
        r.u8()  # address_size
        r.u8()  # segment_size
    cie.code_align = r.uleb()
    cie.data_align = r.sleb()
    cie.ra_col = r.u8() if version == 1 else r.uleb()
    if aug[:1] == b"z":
        cie.has_z = True
        aug_len = r.uleb()
        aug_end = r.pos + aug_len
        for ch in aug[1:]:
            if ch == ord("L"):
                cie.lsda_enc = r.u8()
            elif ch == ord("R"):
                cie.fde_enc = r.u8()
            elif ch == ord("P"):
                r.encoded(r.u8() & 0x7F)
            elif ch == ord("S"):
                cie.signal = True
            else:
                break  # the length lets us skip what we do not know
        r.pos = aug_end
    elif aug:
        raise CfiError()
    cie.instr_start = r.pos
    cie.instr_end = end
    img.cies[off] = cie
    return cie


def _delta_for_offset(img: ElfImage, off: int) -> int:
    for p_offset, p_vaddr, p_filesz, _memsz, _flags in img.loads:
        if p_offset <= off < p_offset + p_filesz:
            return p_vaddr - p_offset
    return 0


# Compiled CFA rules: how rule_for's result computes the CFA.
CFA_SP_SAME, CFA_FROM_REG, CFA_FROM_EXPR, CFA_BAD = range(4)

Rule = tuple[int, Any, int, tuple[tuple[int, int, Any], ...], int, bool]


def rule_for(img: ElfImage, fde: Fde, pc: int) -> Rule:
    """The register state of ``fde``'s table at ``pc`` (link-time), as libunwind computes it.

    Compiled for apply_reg_state: ``(cfa_kind, cfa_arg, cfa_offset, changes,
    ret_addr_column, signal_frame)`` where ``changes`` lists only the registers
    whose rule is not "same value" -- usually two or three of the seventeen.
    """
    cie = fde.cie
    if cie.initial is None:
        where = [SAME] * NCOLS
        val: list[Any] = [0] * NCOLS
        _run(img, cie, where, val, None, 0, MASK64, cie.instr_start, cie.instr_end, fde)
        cie.initial = (where, val)
    where = list(cie.initial[0])
    val = list(cie.initial[1])
    _run(img, cie, where, val, cie.initial, fde.start, pc, fde.instr_start, fde.instr_end, fde)
    w = where[CFA_REG]
    if w == REG:
        # "if the stack-pointer is the CFA and the stack-pointer wasn't saved, popping the CFA
        # implicitly pops the stack-pointer as well": the previous CFA is the stack pointer.
        kind = CFA_SP_SAME if val[CFA_REG] == 7 and where[7] == SAME else CFA_FROM_REG
    elif w == EXPR:
        kind = CFA_FROM_EXPR
    else:
        kind = CFA_BAD
    changes = tuple((i, where[i], val[i]) for i in range(NREGS) if where[i] != SAME)
    return kind, val[CFA_REG], val[CFA_OFF], changes, cie.ra_col, cie.signal


def _set(where: list[int], val: list[Any], reg: int, w: int, v: Any) -> None:
    if reg >= NCOLS:
        raise CfiError(EBADREG)
    where[reg] = w
    val[reg] = v


def _run(
    img: ElfImage, cie: Cie, where: list[int], val: list[Any],
    initial: tuple[list[int], list[Any]] | None,
    ip: int, end_ip: int, pos: int, end: int, fde: Fde,
) -> None:
    """libunwind's run_cfi_program over [pos, end) while the location is <= end_ip."""
    r = Reader(img.data, pos, _delta_for_offset(img, pos), end)
    code_align, data_align = cie.code_align, cie.data_align
    stack: list[tuple[list[int], list[Any]]] = []
    while ip <= end_ip and r.pos < end:
        op = r.u8()
        high = op & 0xC0
        if high == 0x40:  # advance_loc
            ip += (op & 0x3F) * code_align
        elif high == 0x80:  # offset
            _set(where, val, op & 0x3F, CFAREL, r.uleb() * data_align)
        elif high == 0xC0:  # restore
            reg = op & 0x3F
            if reg >= NREGS or initial is None:
                raise CfiError()
            where[reg], val[reg] = initial[0][reg], initial[1][reg]
        elif op == 0x00:  # nop
            pass
        elif op == 0x01:  # set_loc
            ip = r.encoded(cie.fde_enc, fde.start)
        elif op == 0x02:
            ip += r.u8() * code_align
        elif op == 0x03:
            ip += r.fixed("<H", 2) * code_align
        elif op == 0x04:
            ip += r.fixed("<I", 4) * code_align
        elif op == 0x05:  # offset_extended
            reg = r.uleb()
            _set(where, val, reg, CFAREL, r.uleb() * data_align)
        elif op == 0x06:  # restore_extended
            reg = r.uleb()
            if reg >= NREGS or initial is None:
                raise CfiError()
            where[reg], val[reg] = initial[0][reg], initial[1][reg]
        elif op == 0x07:  # undefined
            _set(where, val, r.uleb(), UNDEF, 0)
        elif op == 0x08:  # same_value
            _set(where, val, r.uleb(), SAME, 0)
        elif op == 0x09:  # register
            reg = r.uleb()
            _set(where, val, reg, REG, r.uleb())
        elif op == 0x0A:  # remember_state
            stack.append((list(where), list(val)))
        elif op == 0x0B:  # restore_state
            if not stack:
                raise CfiError()
            w, v = stack.pop()
            where[:] = w
            val[:] = v
        elif op == 0x0C:  # def_cfa
            reg = r.uleb()
            _set(where, val, CFA_REG, REG, reg)
            _set(where, val, CFA_OFF, SAME, r.uleb())
        elif op == 0x0D:  # def_cfa_register
            _set(where, val, CFA_REG, REG, r.uleb())
        elif op == 0x0E:  # def_cfa_offset
            _set(where, val, CFA_OFF, SAME, r.uleb())
        elif op == 0x0F:  # def_cfa_expression
            _set(where, val, CFA_REG, EXPR, _block(r))
        elif op == 0x10:  # expression
            reg = r.uleb()
            _set(where, val, reg, EXPR, _block(r))
        elif op == 0x11:  # offset_extended_sf
            reg = r.uleb()
            _set(where, val, reg, CFAREL, r.sleb() * data_align)
        elif op == 0x12:  # def_cfa_sf
            reg = r.uleb()
            _set(where, val, CFA_REG, REG, reg)
            _set(where, val, CFA_OFF, SAME, r.sleb() * data_align)
        elif op == 0x13:  # def_cfa_offset_sf
            _set(where, val, CFA_OFF, SAME, r.sleb() * data_align)
        elif op == 0x14:  # val_offset
            reg = r.uleb()
            _set(where, val, reg, VAL_CFAREL, r.uleb() * data_align)
        elif op == 0x15:  # val_offset_sf
            reg = r.uleb()
            _set(where, val, reg, VAL_CFAREL, r.sleb() * data_align)
        elif op == 0x16:  # val_expression
            reg = r.uleb()
            _set(where, val, reg, VAL_EXPR, _block(r))
        elif op == 0x2E:  # GNU_args_size
            r.uleb()
        elif op == 0x2F:  # GNU_negative_offset_extended
            reg = r.uleb()
            _set(where, val, reg, CFAREL, -(r.uleb() * data_align))
        else:
            raise CfiError()


def _block(r: Reader) -> bytes:
    n = r.uleb()
    r.need(n)
    out = bytes(r.data[r.pos:r.pos + n])
    r.pos += n
    return out
