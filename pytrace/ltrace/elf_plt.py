"""Which PLT stub calls which function: the map pyltrace puts breakpoints on.

ltrace 0.7.3 assumes the classic lazy ``.plt`` (16-byte entries, entry *n*
belonging to relocation *n*), which is why it breaks on modern binaries.
Here nothing about the layout is assumed: every stub section (``.plt``,
``.plt.sec``, ``.plt.got``) is disassembled with capstone, each indirect
``jmp [rip + disp]`` gives the GOT slot the stub jumps through, and the
relocations (pyelftools) say which symbol fills that slot -- JUMP_SLOT for
lazy/``-z now`` PLTs, GLOB_DAT for ``.plt.got``, IRELATIVE for IFUNCs.  With
IBT, ``.plt`` holds only the lazy-binding trampolines and the stubs the code
calls live in ``.plt.sec``; a stub's breakpoint goes on its first byte
(the ``endbr64`` when present).

i386 objects (ELF32, REL relocations) are read the same way, decoded in
32-bit mode: a PIC/PIE stub is ``jmp *name@GOT(%ebx)`` (ebx holds the address
of ``_GLOBAL_OFFSET_TABLE_``, so the slot is that address plus the
displacement), a non-PIC one ``jmp *ABS``; IBT's stubs start with ``endbr32``.

Binaries built with ``-fno-plt`` call through the GOT directly, with no stub
to patch; for those ``got_calls`` lists the GOT slots so the tracer can put
the breakpoint on the resolved function in the library instead and
attribute calls by return address.
"""

from __future__ import annotations

import re
import struct

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from pathlib import Path

    from pytrace.ltrace.elf_dynamic import DynamicImage

R_X86_64_GLOB_DAT = 6
R_X86_64_JUMP_SLOT = 7
R_X86_64_IRELATIVE = 37
R_386_GLOB_DAT = 6
R_386_JUMP_SLOT = 7
R_386_IRELATIVE = 42
_STUB_SECTIONS = (".plt.sec", ".plt", ".plt.got")


class PltStub:
    """One callable stub: breakpoint address (file-relative vaddr), the GOT slot, the symbol.

    (PltStub and PltMap are plain classes, not records: every run makes them, read back from
    the ELF cache, and records' per-class work is start-up cost.)
    """

    __slots__ = ("address", "got_slot", "name", "section")

    def __init__(self, address: int, got_slot: int, name: str, section: str) -> None:
        self.address = address
        self.got_slot = got_slot
        self.name = name
        self.section = section

    def __repr__(self) -> str:
        return f"PltStub({self.address:#x}, {self.got_slot:#x}, {self.name!r}, {self.section!r})"


class PltMap:
    """Every stub of one object, and the symbol of every GOT slot."""

    __slots__ = ("path", "pie", "stubs", "got_symbols")

    def __init__(self, path: str, pie: bool, stubs: list[PltStub], got_symbols: dict[int, str]) -> None:
        self.path = path
        self.pie = pie
        self.stubs = stubs
        self.got_symbols = got_symbols  # GOT slot vaddr -> symbol, for -fno-plt call sites

    def by_name(self) -> dict[str, PltStub]:
        return {s.name: s for s in self.stubs}


def raw_symbols(elf: object, secname: str) -> list[tuple[str, int, int, int, int, int]]:
    """(name, value, size, type, bind, shndx) of every symbol of a symbol table section.

    Read with ``struct`` from the section's bytes: pyelftools' per-symbol parsing costs
    ~100 us a symbol, which is seconds for libc's tables on every pyltrace start.
    """
    sec = elf.get_section_by_name(secname)  # type: ignore[attr-defined]
    if sec is None or sec["sh_entsize"] not in (16, 24):
        return []
    strtab = elf.get_section(sec["sh_link"]).data()  # type: ignore[attr-defined]
    data = sec.data()
    out = []
    if sec["sh_entsize"] == 16:  # ELF32: st_name, st_value, st_size, st_info, st_other, st_shndx
        rows = ((n, i, sh, v, sz) for n, v, sz, i, _o, sh in struct.iter_unpack("<IIIBBH", data))
    else:
        rows = ((n, i, sh, v, sz) for n, i, _o, sh, v, sz in struct.iter_unpack("<IBBHQQ", data))
    for name_off, info, shndx, value, size in rows:
        end = strtab.find(b"\0", name_off)
        name = strtab[name_off:end].decode("utf-8", "replace") if name_off else ""
        out.append((name, value, size, info & 0xF, info >> 4, shndx))
    return out


def _got_symbols(elf: object) -> dict[int, str]:
    from elftools.elf.relocation import RelocationSection

    slots: dict[int, str] = {}
    resolvers: dict[int, str] | None = None
    i386 = elf["e_machine"] == "EM_386"  # type: ignore[index]
    for sec in elf.iter_sections():  # type: ignore[attr-defined]
        if not isinstance(sec, RelocationSection):
            continue
        symtab = elf.get_section(sec["sh_link"]) if sec["sh_link"] else None  # type: ignore[attr-defined]
        for rel in sec.iter_relocations():
            rtype = rel["r_info_type"]
            if i386:
                if rtype in (R_386_JUMP_SLOT, R_386_GLOB_DAT) and symtab is not None and rel["r_info_sym"]:
                    sym = symtab.get_symbol(rel["r_info_sym"])
                    if sym.name:
                        slots[rel["r_offset"]] = sym.name
                elif rtype == R_386_IRELATIVE:  # REL: the resolver's address is the slot's content in the file
                    resolver = _file_word32(elf, rel["r_offset"])
                    if resolver is not None:
                        if resolvers is None:
                            resolvers = _resolver_names(elf)
                        slots[rel["r_offset"]] = resolvers.get(resolver) or f"ifunc@{resolver:#x}"
                continue
            if rtype in (R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT):
                if symtab is None or not rel["r_info_sym"]:
                    continue
                sym = symtab.get_symbol(rel["r_info_sym"])
                if sym.name:
                    slots[rel["r_offset"]] = sym.name
            elif rtype == R_X86_64_IRELATIVE:
                if resolvers is None:
                    resolvers = _resolver_names(elf)
                resolver = rel["r_addend"]
                slots[rel["r_offset"]] = resolvers.get(resolver) or f"ifunc@{resolver:#x}"
    return slots


def _file_word32(elf: object, vaddr: int) -> int | None:
    """The 4 bytes the file holds at link-time address ``vaddr`` (None where no PT_LOAD has them)."""
    for seg in elf.iter_segments():  # type: ignore[attr-defined]
        if seg["p_type"] == "PT_LOAD" and seg["p_vaddr"] <= vaddr and vaddr + 4 <= seg["p_vaddr"] + seg["p_filesz"]:
            elf.stream.seek(seg["p_offset"] + vaddr - seg["p_vaddr"])  # type: ignore[attr-defined]
            data = elf.stream.read(4)  # type: ignore[attr-defined]
            return int.from_bytes(data, "little") if len(data) == 4 else None
    return None


def _resolver_names(elf: object) -> dict[int, str]:
    """An IRELATIVE slot has no symbol; it is named after its resolver, as ltrace users would read it."""
    names: dict[int, str] = {}
    for secname in (".dynsym", ".symtab"):
        for name, value, *_ in raw_symbols(elf, secname):
            if name and value:
                names[value] = name.split("@", 1)[0]
    return names


def read_plt(path: str | Path) -> PltMap:
    from capstone import CS_ARCH_X86, CS_MODE_64, Cs
    from capstone.x86 import X86_OP_MEM, X86_REG_RIP
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as f:
        elf = ELFFile(f)
        if elf["e_machine"] == "EM_386":
            return _read_plt_i386(str(path), elf)
        if elf["e_machine"] != "EM_X86_64":
            raise ValueError(f"{path}: only x86_64 and i386 ELF files are supported")
        pie = elf["e_type"] == "ET_DYN"
        slots = _got_symbols(elf)
        md = Cs(CS_ARCH_X86, CS_MODE_64)
        md.detail = True
        stubs: list[PltStub] = []
        seen_slots: set[int] = set()
        has_sec = elf.get_section_by_name(".plt.sec") is not None
        for secname in _STUB_SECTIONS:
            sec = elf.get_section_by_name(secname)
            if sec is None or sec["sh_size"] == 0:
                continue
            if secname == ".plt" and has_sec:
                continue  # with IBT, .plt only holds the lazy-binding trampolines
            base = sec["sh_addr"]
            code = sec.data()
            stub_start: int | None = None
            for insn in md.disasm(code, base):
                if insn.mnemonic == "endbr64":
                    stub_start = insn.address
                    continue
                if insn.mnemonic == "jmp" and len(insn.operands) == 1:
                    op = insn.operands[0]
                    if op.type == X86_OP_MEM and op.mem.base == X86_REG_RIP:
                        slot = insn.address + insn.size + op.mem.disp
                        name = slots.get(slot)
                        start = stub_start if stub_start is not None else insn.address
                        if name and slot not in seen_slots:
                            stubs.append(PltStub(start, slot, name, secname))
                            seen_slots.add(slot)
                if insn.mnemonic not in ("endbr64",):
                    stub_start = None
        return PltMap(str(path), pie, stubs, slots)


def got_base(elf: object) -> int:
    """The address an i386 PIC stub's ebx holds: ``_GLOBAL_OFFSET_TABLE_`` (the start of ``.got.plt``;
    DT_PLTGOT names it too)."""
    for secname in (".symtab", ".dynsym"):
        for name, value, *_ in raw_symbols(elf, secname):
            if name == "_GLOBAL_OFFSET_TABLE_" and value:
                return value
    dyn = elf.get_section_by_name(".dynamic")  # type: ignore[attr-defined]
    if dyn is not None:
        for tag in dyn.iter_tags():
            if tag.entry.d_tag == "DT_PLTGOT":
                return int(tag.entry.d_val)
    sec = elf.get_section_by_name(".got.plt") or elf.get_section_by_name(".got")  # type: ignore[attr-defined]
    return int(sec["sh_addr"]) if sec is not None else 0


def _read_plt_i386(path: str, elf: object) -> PltMap:
    """The stubs of an i386 object: ``[endbr32] jmp *disp(%ebx)`` (PIC) or ``jmp *ABS`` (non-PIC)."""
    from capstone import CS_ARCH_X86, CS_MODE_32, Cs
    from capstone.x86 import X86_OP_MEM, X86_REG_EBX

    pie = elf["e_type"] == "ET_DYN"  # type: ignore[index]
    slots = _got_symbols(elf)
    got = got_base(elf)
    md = Cs(CS_ARCH_X86, CS_MODE_32)
    md.detail = True
    stubs: list[PltStub] = []
    seen_slots: set[int] = set()
    has_sec = elf.get_section_by_name(".plt.sec") is not None  # type: ignore[attr-defined]
    for secname in _STUB_SECTIONS:
        sec = elf.get_section_by_name(secname)  # type: ignore[attr-defined]
        if sec is None or sec["sh_size"] == 0 or (secname == ".plt" and has_sec):
            continue
        stub_start: int | None = None
        for insn in md.disasm(sec.data(), sec["sh_addr"]):
            if insn.mnemonic == "endbr32":
                stub_start = insn.address
                continue
            if insn.mnemonic in ("jmp", "bnd jmp") and len(insn.operands) == 1:
                op = insn.operands[0]
                if op.type == X86_OP_MEM and op.mem.index == 0 and op.mem.base in (0, X86_REG_EBX):
                    slot = (op.mem.disp + (got if op.mem.base else 0)) & 0xFFFFFFFF
                    name = slots.get(slot)
                    if name and slot not in seen_slots:
                        start = stub_start if stub_start is not None else insn.address
                        stubs.append(PltStub(start, slot, name, secname))
                        seen_slots.add(slot)
            stub_start = None
    return PltMap(path, pie, stubs, slots)


# jmp *disp32(%rip), maybe after endbr64 and/or a bnd prefix: every x86-64 PLT stub's shape.
_JMP_GOT = rb"\xff\x25(?=[\s\S]{4})"  # compiled at its first use (re's cache): a cache hit never scans
_ENDBR64 = b"\xf3\x0f\x1e\xfa"
_STUB_ALIGN = 8  # .plt/.plt.sec entries are 16 bytes, .plt.got's 8 (16 with IBT)


def read_plt_segments(img: DynamicImage) -> PltMap:
    """The PLT map from the program headers alone (a file whose section table is unusable).

    Without section headers the stubs are found by their shape: at an 8-byte-aligned address
    of an executable segment, ``[endbr64] [bnd] jmp *disp(%rip)`` whose target is a GOT slot
    that a JUMP_SLOT / GLOB_DAT / IRELATIVE relocation fills.  A slot with several such
    jumps keeps the lowest (the PLT sections come before .text).
    """
    symbols = img.symbols()
    slots: dict[int, str] = {}
    kinds: dict[int, int] = {}
    resolvers: dict[int, str] | None = None
    for offset, rtype, sym, addend in img.relocations():
        if rtype in (R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT):
            name = symbols[sym][0] if 0 < sym < len(symbols) else ""
            if name:
                slots[offset], kinds[offset] = name.split("@", 1)[0], rtype
        elif rtype == R_X86_64_IRELATIVE:
            if resolvers is None:
                resolvers = {value: name.split("@", 1)[0] for name, value, *_ in symbols if name and value}
            slots[offset], kinds[offset] = resolvers.get(addend) or f"ifunc@{addend:#x}", rtype
    found: dict[int, int] = {}
    for base, code in img.executable():
        for m in re.finditer(_JMP_GOT, code):
            at = m.start()
            slot = base + at + 6 + int.from_bytes(code[at + 2:at + 6], "little", signed=True)
            if slot not in slots:
                continue
            for start in (at, at - 1, at - 4, at - 5):
                prefix = code[max(start, 0):at]
                if start < 0 or prefix not in (b"", b"\xf2", _ENDBR64, _ENDBR64 + b"\xf2"):
                    continue
                if (base + start) % _STUB_ALIGN == 0:
                    found[slot] = min(found.get(slot, base + start), base + start)
                    break
    stubs = [PltStub(addr, slot, slots[slot], ".plt.got" if kinds[slot] == R_X86_64_GLOB_DAT else ".plt")
             for slot, addr in sorted(found.items(), key=lambda item: item[1])]
    return PltMap(img.path, img.pie, stubs, slots)
