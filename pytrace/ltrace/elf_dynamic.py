"""An ELF64 file read the way the kernel and ld.so read it: program headers and PT_DYNAMIC only.

Section headers are for linkers and debuggers; a program runs the same with a
corrupt, truncated or missing section table (``e_shoff``, ``e_shnum``,
``e_shstrndx`` overwritten, the table cut off the end of the file), because
exec and the dynamic linker only use ``PT_LOAD`` and ``PT_DYNAMIC``.  ltrace
0.7.3 reads sections and so refuses such a program ("Couldn't get section #1
from ..."); pyltrace falls back to this reader instead and traces it.

What it gives: the dynamic symbols (``DT_SYMTAB``/``DT_STRTAB``, counted with
``DT_HASH`` or ``DT_GNU_HASH``), the relocations (``DT_RELA`` and ``DT_JMPREL``),
``DT_SONAME``, where ``DT_DEBUG`` lives, and the bytes of the executable
segments (where the PLT stubs are found, see elf_plt.read_plt_segments).
Everything is checked against the file's size: a bad value is an
``ElfFormatError`` with the reason, never an IndexError.
"""

from __future__ import annotations

import os
import struct

from pytrace.records import dataclass, field  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import BinaryIO

PT_LOAD, PT_DYNAMIC = 1, 2
PF_X = 1
ET_DYN = 3
EM_X86_64 = 62
DT_NULL, DT_HASH, DT_STRTAB, DT_SYMTAB, DT_RELA, DT_RELASZ = 0, 4, 5, 6, 7, 8
DT_STRSZ, DT_SYMENT, DT_SONAME, DT_DEBUG, DT_JMPREL, DT_PLTRELSZ = 10, 11, 14, 21, 23, 2
DT_GNU_HASH = 0x6FFFFEF5
_EHDR = struct.Struct("<16sHHIQQQIHHHHHH")
_PHDR = struct.Struct("<IIQQQQQQ")
_DYN = struct.Struct("<qQ")
_SYM = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_SHDR = struct.Struct("<IIQQQQIIQQ")
SHT_NULL, SHT_NOBITS = 0, 8


class ElfFormatError(ValueError):
    """The file cannot be read as an x86-64 ELF program even from its program headers.

    ``runnable`` is False when the damage is where exec itself looks (the ELF header, the
    program headers, no PT_LOAD): the kernel refuses such a file with ENOEXEC.
    """

    def __init__(self, message: str, runnable: bool = True) -> None:
        super().__init__(message)
        self.runnable = runnable


@dataclass
class Segment:
    type: int
    flags: int
    offset: int
    vaddr: int
    filesz: int
    memsz: int


@dataclass
class DynamicImage:
    path: str
    e_type: int
    entry: int
    segments: list[Segment]
    data: bytes = field(repr=False)
    dyn: dict[int, int] = field(default_factory=dict)  # the first value of each tag
    dyn_vaddr: int | None = None
    dt_debug: int | None = None  # vaddr of DT_DEBUG's d_val (the main binary's r_debug pointer)

    @classmethod
    def load(cls, path: str) -> DynamicImage:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise ElfFormatError(f"{path}: {os.strerror(exc.errno or 0)}") from None
        if len(data) < _EHDR.size or data[:4] != b"\x7fELF":
            raise ElfFormatError("its ELF header is cut short" if data[:4] == b"\x7fELF" else "not an ELF file",
                                 runnable=False)
        ident, e_type, machine, _v, entry, phoff, _shoff, _fl, _eh, phentsize, phnum, *_ = _EHDR.unpack_from(data)
        if ident[4] != 2 or ident[5] != 1 or machine != EM_X86_64:
            raise ElfFormatError("not an x86-64 ELF file")
        if phentsize != _PHDR.size or phnum == 0 or phoff + phnum * _PHDR.size > len(data):
            raise ElfFormatError(f"its program headers (e_phoff {phoff:#x}, e_phnum {phnum}) are beyond the end"
                                 " of the file", runnable=False)
        segments = []
        for i in range(phnum):
            p_type, flags, offset, vaddr, _paddr, filesz, memsz, _align = _PHDR.unpack_from(data, phoff + i * _PHDR.size)
            segments.append(Segment(p_type, flags, offset, vaddr, filesz, memsz))
        img = cls(path, e_type, entry, segments, data)
        if not any(s.type == PT_LOAD for s in segments):
            raise ElfFormatError("it has no PT_LOAD segment", runnable=False)
        img._read_dynamic()
        return img

    # -- addresses ---------------------------------------------------------------------------

    def read(self, vaddr: int, size: int) -> bytes:
        """``size`` bytes at link-time address ``vaddr``, from the file (ElfFormatError if not there)."""
        for s in self.segments:
            if s.type == PT_LOAD and s.vaddr <= vaddr and vaddr + size <= s.vaddr + s.filesz:
                off = s.offset + vaddr - s.vaddr
                if off + size <= len(self.data):
                    return self.data[off:off + size]
        raise ElfFormatError(f"address {vaddr:#x} (+{size}) is not in the file")

    def _read_dynamic(self) -> None:
        dyn = next((s for s in self.segments if s.type == PT_DYNAMIC), None)
        if dyn is None:
            return  # a static program: no imports, nothing for the dynamic reader
        if dyn.offset + dyn.filesz > len(self.data):
            raise ElfFormatError("its PT_DYNAMIC segment is beyond the end of the file")
        self.dyn_vaddr = dyn.vaddr
        for i in range(dyn.filesz // _DYN.size):
            tag, val = _DYN.unpack_from(self.data, dyn.offset + i * _DYN.size)
            if tag == DT_NULL:
                break
            if tag == DT_DEBUG:
                self.dt_debug = dyn.vaddr + i * _DYN.size + 8
            self.dyn.setdefault(tag, val)

    @property
    def pie(self) -> bool:
        return self.e_type == ET_DYN

    @property
    def first_vaddr(self) -> int:
        """Page-aligned vaddr of the file's start (the PT_LOAD at offset 0's p_vaddr - p_offset)."""
        first = next(s for s in self.segments if s.type == PT_LOAD)
        return (first.vaddr - first.offset) & ~0xFFF

    # -- dynamic symbols and relocations -----------------------------------------------------------

    def _string(self, offset: int) -> str:
        strtab, strsz = self.dyn.get(DT_STRTAB), self.dyn.get(DT_STRSZ, 0)
        if strtab is None or offset >= strsz:
            return ""
        raw = self.read(strtab + offset, min(strsz - offset, 4096))
        return raw.split(b"\0", 1)[0].decode("utf-8", "replace")

    @property
    def soname(self) -> str | None:
        off = self.dyn.get(DT_SONAME)
        return self._string(off) if off is not None else None

    def symbol_count(self) -> int:
        """Entries of DT_SYMTAB: DT_HASH's nchain, or walked from DT_GNU_HASH's chains."""
        if DT_HASH in self.dyn:
            return struct.unpack("<II", self.read(self.dyn[DT_HASH], 8))[1]
        gnu = self.dyn.get(DT_GNU_HASH)
        if gnu is None:
            return max((r[2] for r in self.relocations()), default=-1) + 1
        nbuckets, symoffset, bloom_size, _shift = struct.unpack("<IIII", self.read(gnu, 16))
        buckets_at = gnu + 16 + 8 * bloom_size
        buckets = struct.unpack(f"<{nbuckets}I", self.read(buckets_at, 4 * nbuckets)) if nbuckets else ()
        last = max(buckets, default=0)
        if last < symoffset:
            return symoffset
        chain_at = buckets_at + 4 * nbuckets
        while not struct.unpack("<I", self.read(chain_at + 4 * (last - symoffset), 4))[0] & 1:
            last += 1
        return last + 1

    def symbols(self) -> list[tuple[str, int, int, int, int, int]]:
        """(name, value, size, type, bind, shndx) of every dynamic symbol, as elf_plt.raw_symbols gives them."""
        symtab = self.dyn.get(DT_SYMTAB)
        if symtab is None:
            return []
        entsize = self.dyn.get(DT_SYMENT, _SYM.size)
        if entsize != _SYM.size:
            raise ElfFormatError(f"DT_SYMENT {entsize} is not {_SYM.size}")
        count = self.symbol_count()
        raw = self.read(symtab, count * _SYM.size)
        out = []
        for name_off, info, _other, shndx, value, size in _SYM.iter_unpack(raw):
            out.append((self._string(name_off) if name_off else "", value, size, info & 0xF, info >> 4, shndx))
        return out

    def relocations(self) -> list[tuple[int, int, int, int]]:
        """(r_offset, type, symbol index, addend) of DT_RELA then DT_JMPREL."""
        out = []
        for at, size in ((DT_RELA, DT_RELASZ), (DT_JMPREL, DT_PLTRELSZ)):
            if at in self.dyn and self.dyn.get(size):
                raw = self.read(self.dyn[at], self.dyn[size] - self.dyn[size] % _RELA.size)
                out += [(off, info & 0xFFFFFFFF, info >> 32, addend) for off, info, addend in _RELA.iter_unpack(raw)]
        return out

    def executable(self) -> list[tuple[int, bytes]]:
        """(vaddr, bytes) of each executable PT_LOAD, as far as the file holds it."""
        out = []
        for s in self.segments:
            if s.type == PT_LOAD and s.flags & PF_X:
                end = min(s.offset + s.filesz, len(self.data))
                out.append((s.vaddr, self.data[s.offset:end]))
        return out


def section_table_problem(f: BinaryIO) -> str | None:
    """Why the section header table of the ELF64 file ``f`` cannot be trusted, or None if it looks sound.

    The checks a reader needs before using it: present, of 64-byte entries, inside the file,
    the names section among them, every section's bytes in the file -- what ltrace's libelf
    complains about as "invalid section".  Only the headers are read.
    """
    size = os.fstat(f.fileno()).st_size
    f.seek(0)
    head = f.read(_EHDR.size)
    if len(head) < _EHDR.size:
        return "the ELF header is cut short"
    _i, _t, _m, _v, _e, _ph, shoff, _f, _eh, _pe, _pn, shentsize, shnum, shstrndx = _EHDR.unpack(head)
    if shoff == 0 or shnum == 0:
        return "it has no section header table"
    if shentsize != _SHDR.size:
        return f"e_shentsize is {shentsize}, not {_SHDR.size}"
    if shoff + shnum * _SHDR.size > size:
        return f"its section header table (e_shoff {shoff:#x}, e_shnum {shnum}) is beyond the end of the file"
    if shstrndx >= shnum:
        return f"e_shstrndx {shstrndx} is not a section (e_shnum {shnum})"
    f.seek(shoff)
    table = f.read(shnum * _SHDR.size)
    for i, (_n, sh_type, _fl, _a, off, sh_size, *_) in enumerate(_SHDR.iter_unpack(table)):
        if sh_type not in (SHT_NULL, SHT_NOBITS) and off + sh_size > size:
            return f"section {i} (offset {off:#x}, size {sh_size:#x}) is beyond the end of the file"
    return None
