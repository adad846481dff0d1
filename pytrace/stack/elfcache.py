"""Parsed ELF images, one per file, cached by path + device + inode + mtime + size.

Everything a stack walk asks of a file is prepared once here, so the per-frame
work is a bisection and a few dict lookups:

* the program headers (load bias, the ``PT_LOAD`` libunwind calls ``ptxt``);
* the ``.eh_frame_hdr`` binary-search table (``PT_GNU_EH_FRAME``), which is what
  libunwind searches for an FDE -- the ``.eh_frame`` itself is parsed one FDE at
  a time, on demand, by ``cfi``;
* the symbol tables libunwind's ``lookup_symbol`` scans: every ``SHT_SYMTAB`` and
  ``SHT_DYNSYM`` section in section-header order, ``STT_FUNC`` symbols that are
  defined, plus those of an embedded MiniDebugInfo (``.gnu_debugdata``, an xz
  compressed ELF), which libunwind is built to read.

``.debug_frame`` is deliberately not read: the libunwind strace is linked with
(Debian's 1.6.2 on x86_64, built without ``--enable-debug-frame``) ignores it, and
a program whose only CFI is ``.debug_frame`` unwinds by frame pointers under strace.
Separate debug files named by ``.gnu_debuglink`` are not followed either, for the
same reason (checked against strace: symbols stay unresolved).

pyelftools reads the headers; symbol entries are unpacked with ``struct`` in bulk,
which is two orders of magnitude faster than iterating pyelftools' Symbol objects
over a large ``.symtab``.
"""

from __future__ import annotations

import io
import lzma
import mmap
import os
import struct
from bisect import bisect_right
from typing import Any

_SYM = struct.Struct("<IBBHQQ")  # st_name, st_info, st_other, st_shndx, st_value, st_size
_STT_FUNC = 2
_SHN_UNDEF = 0
_SHN_ABS = 0xFFF1
_PF_X = 1
_DW_EH_PE_datarel_sdata4 = 0x3B


class SymbolIndex:
    """The defined STT_FUNC symbols of one ELF image, as libunwind's ``lookup_symbol`` sees them.

    libunwind keeps the symbol at the smallest unsigned distance ``ip - value``
    with a strict ``<``, scanning sections and symbols in file order, so among
    aliases (``getpid``/``__getpid``) the first one in the file wins; that is the
    name kept per value here.  ``SHN_ABS`` symbols are not moved by the load
    offset and are kept apart.
    """

    __slots__ = ("values", "names", "abs_values", "abs_names")

    def __init__(self, syms: list[tuple[int, bool, str]]) -> None:
        first: dict[int, str] = {}
        first_abs: dict[int, str] = {}
        for value, is_abs, name in syms:
            (first_abs if is_abs else first).setdefault(value, name)
        self.values = sorted(first)
        self.names = [first[v] for v in self.values]
        self.abs_values = sorted(first_abs)
        self.abs_names = [first_abs[v] for v in self.abs_values]

    def closest(self, ip: int, load_offset: int) -> tuple[int, str] | None:
        """(distance, name) of the closest symbol at or below ``ip``, None if there is none."""
        best: tuple[int, str] | None = None
        i = bisect_right(self.values, (ip - load_offset) & 0xFFFFFFFFFFFFFFFF) - 1
        if i >= 0:
            best = (ip - (self.values[i] + load_offset), self.names[i])
        if self.abs_values:
            j = bisect_right(self.abs_values, ip) - 1
            if j >= 0:
                dist = ip - self.abs_values[j]
                if best is None or dist < best[0]:
                    best = (dist, self.abs_names[j])
        return best


class ElfImage:
    """What the unwinder needs from one ELF file."""

    def __init__(self, path: str, data: Any, size: int) -> None:
        self.path = path
        self.data = data  # bytes or mmap of the whole file
        self.size = size
        self.valid = False
        self.loads: list[tuple[int, int, int, int, int]] = []  # (p_offset, p_vaddr, p_filesz, p_memsz, p_flags)
        self.load_lo = 0
        self.load_hi = 0
        # .eh_frame_hdr search table, addresses relative to the header's link-time vaddr.
        self.eh_hdr_vaddr: int | None = None
        self.eh_starts: list[int] = []
        self.eh_fdes: list[int] = []
        self.symbols: SymbolIndex | None = None
        self.mini_symbols: SymbolIndex | None = None
        # Memo tables filled by cfi / symbolize.
        self.fdes: dict[int, Any] = {}
        self.cies: dict[int, Any] = {}
        self.rules: dict[int, Any] = {}
        self.syms: dict[int, tuple[int, str] | None] = {}
        self._parse()

    # -- parsing ------------------------------------------------------------

    def _parse(self) -> None:
        data = self.data
        # libunwind's valid_object: ELF magic, 64-bit class, a version.
        if self.size <= 6 or data[:4] != b"\x7fELF" or data[4] != 2 or not 0 < data[6] <= 1:
            return
        from elftools.common.exceptions import ELFError
        from elftools.elf.elffile import ELFFile

        try:
            # pyelftools reads headers in many small pieces: a BytesIO copy serves them at C speed.
            elf = ELFFile(io.BytesIO(data))
            self._read_segments(elf)
            self.symbols = _read_symbols(elf, data)
            mini = elf.get_section_by_name(".gnu_debugdata")
            if mini is not None:
                self.mini_symbols = _read_minidebuginfo(mini)
        except (ELFError, ValueError, struct.error, IndexError, KeyError, AssertionError, lzma.LZMAError):
            return  # libunwind would not read this file either: no symbols, no unwind info
        self.valid = True

    def _read_segments(self, elf: Any) -> None:
        eh = None
        lo, hi = None, 0
        for seg in elf.iter_segments():
            h = seg.header
            if h.p_type == "PT_LOAD":
                self.loads.append((h.p_offset, h.p_vaddr, h.p_filesz, h.p_memsz, h.p_flags))
                lo = h.p_vaddr if lo is None else min(lo, h.p_vaddr)
                hi = max(hi, h.p_vaddr + h.p_memsz)
            elif h.p_type == "PT_GNU_EH_FRAME":
                eh = h
        self.load_lo = lo or 0
        self.load_hi = hi
        if eh is not None:
            self._read_eh_frame_hdr(eh.p_offset, eh.p_vaddr)

    def _read_eh_frame_hdr(self, off: int, vaddr: int) -> None:
        data = self.data
        if off + 4 > self.size or data[off] != 1:  # DW_EH_VERSION
            return
        ptr_enc, count_enc, table_enc = data[off + 1], data[off + 2], data[off + 3]
        pos = off + 4
        pos = _skip_encoded(data, pos, ptr_enc)
        if pos is None or table_enc != _DW_EH_PE_datarel_sdata4:
            return  # libunwind aborts on any other table encoding; treat as "no table"
        count, pos = _read_count(data, pos, count_enc)
        if count is None or pos + 8 * count > self.size:
            return
        table = struct.unpack_from(f"<{2 * count}i", data, pos)
        self.eh_hdr_vaddr = vaddr
        self.eh_starts = list(table[0::2])
        self.eh_fdes = list(table[1::2])

    # -- queries ------------------------------------------------------------

    def ptxt(self, mapoff: int) -> tuple[int, int, int, int, int] | None:
        """The PT_LOAD whose p_offset is the mapping's offset (libunwind's ``ptxt``)."""
        for load in self.loads:
            if load[0] == mapoff:
                return load
        return None

    def vaddr_to_offset(self, vaddr: int) -> int | None:
        """File offset of a link-time address inside a loaded segment's file image."""
        for p_offset, p_vaddr, p_filesz, _memsz, _flags in self.loads:
            if p_vaddr <= vaddr < p_vaddr + p_filesz:
                return vaddr - p_vaddr + p_offset
        return None


def _skip_encoded(data: Any, pos: int, enc: int) -> int | None:
    if enc == 0xFF:
        return pos
    size = {0x00: 8, 0x02: 2, 0x03: 4, 0x04: 8, 0x0A: 2, 0x0B: 4, 0x0C: 8}.get(enc & 0x0F)
    if size is None:
        return None
    return pos + size


def _read_count(data: Any, pos: int, enc: int) -> tuple[int | None, int]:
    fmt = {0x02: "<H", 0x03: "<I", 0x04: "<Q", 0x0A: "<h", 0x0B: "<i", 0x0C: "<q", 0x00: "<Q"}.get(enc & 0x0F)
    if fmt is None or enc == 0xFF:
        return None, pos
    (value,) = struct.unpack_from(fmt, data, pos)
    return value, pos + struct.calcsize(fmt)


def _read_symbols(elf: Any, data: Any) -> SymbolIndex:
    """Every defined STT_FUNC symbol of every SYMTAB/DYNSYM section, in file order."""
    syms: list[tuple[int, bool, str]] = []
    shnum = elf.num_sections()
    for sec in elf.iter_sections():
        h = sec.header
        if h.sh_type not in ("SHT_SYMTAB", "SHT_DYNSYM"):
            continue
        if h.sh_link >= shnum or h.sh_entsize < _SYM.size:
            continue
        strhdr = elf.get_section(h.sh_link).header
        str_lo, str_hi = strhdr.sh_offset, strhdr.sh_offset + strhdr.sh_size
        if str_hi > len(data):
            continue
        strtab = bytes(data[str_lo:str_hi])
        table = bytes(data[h.sh_offset:h.sh_offset + h.sh_size])
        entsize = h.sh_entsize
        for off in range(0, len(table) - _SYM.size + 1, entsize):
            st_name, st_info, _other, st_shndx, st_value, _size = _SYM.unpack_from(table, off)
            if st_info & 0xF != _STT_FUNC or st_shndx == _SHN_UNDEF:
                continue
            end = strtab.find(b"\0", st_name)
            name = strtab[st_name:end if end >= 0 else len(strtab)].decode("utf-8", "replace")
            syms.append((st_value, st_shndx == _SHN_ABS, name))
    return SymbolIndex(syms)


def _read_minidebuginfo(section: Any) -> SymbolIndex | None:
    """Symbols of the xz-compressed ELF in ``.gnu_debugdata`` (Fedora-style MiniDebugInfo)."""
    from elftools.elf.elffile import ELFFile

    try:
        raw = lzma.decompress(section.data())
    except (lzma.LZMAError, EOFError):
        return None
    if raw[:4] != b"\x7fELF" or len(raw) <= 6 or raw[4] != 2:
        return None
    return _read_symbols(ELFFile(io.BytesIO(raw)), raw)


_images: dict[tuple[str, int, int, int, int], ElfImage | None] = {}


def image_for(path: str) -> ElfImage | None:
    """The parsed image of ``path`` (None if it cannot be opened or is not a 64-bit ELF).

    Keyed by identity, so a file replaced on disk (a rebuilt program, an upgraded
    library) is parsed again rather than served from a stale cache.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        key = (path, st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
        if key in _images:
            return _images[key]
        img: ElfImage | None = None
        if st.st_size > 0:
            try:
                data: Any = mmap.mmap(fd, 0, prot=mmap.PROT_READ)
            except (OSError, ValueError):
                data = None
            if data is not None:
                img = ElfImage(path, data, st.st_size)
                if not img.valid:
                    img = None
        _images[key] = img
        return img
    finally:
        os.close(fd)
