"""The ELF objects mapped in a tracee: which files, where, and what pyltrace needs from each.

ltrace walks the dynamic linker's ``link_map`` list; pyltrace reads
``/proc/PID/maps`` instead, which lists the same objects (main binary, the
dynamic linker, every library, dlopen'd ones included) with their load
addresses and needs no knowledge of glibc's structures.  The dynamic linker's
``r_debug`` is still used, but only for its ``r_brk`` address: the breakpoint
there says *when* the list changed (dlopen/dlclose), after which maps is read
again.

Each file is parsed once (pyelftools, lazily imported) and cached by path,
device, inode, size and mtime, so a library shared by many traced processes, or a
program run again after ``exec``, costs nothing the second time.  What is
learnt from it is also kept on disk (``elf_cache``), so the next run of
pyltrace reads it back instead of parsing the file (no pyelftools, no capstone).
"""

from __future__ import annotations

import marshal
import os
import re
import struct

from pytrace.cache import cache_dir as default_cache_dir
from pytrace.ltrace import elf_cache
from pytrace.ltrace.elf_plt import PltMap, PltStub, raw_symbols, read_plt, read_plt_segments

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

    from pytrace.ltrace.elf_dynamic import DynamicImage

# ff 15 / ff 25 with a rip-relative operand (ModRM 0x15 / 0x25): call/jmp *disp32(%rip).
# Patterns, not compiled regexes: only a cache miss scans code (re caches the compiled form; compiling
# them at import cost every run ~0.2 ms).
_INDIRECT = rb"\xff[\x15\x25](?=[\s\S]{4})"
# i386: the same bytes are call/jmp *ABS32 (non-PIC); call/jmp *disp32(%reg) (ModRM mod 10, reg /2 or /4,
# no SIB) is a PIC call through the GOT, whose address the register holds.
_INDIRECT_ABS32 = _INDIRECT
_INDIRECT_GOT32 = rb"\xff[\x90-\x93\x95-\x97\xa0-\xa3\xa5-\xa7](?=[\s\S]{4})"
STT_FUNC = "STT_FUNC"
STT_GNU_IFUNC = "STT_LOOS"  # pyelftools names STT_GNU_IFUNC (10) after the range it starts
_STT = {0: "STT_NOTYPE", 1: "STT_OBJECT", 2: STT_FUNC, 3: "STT_SECTION", 4: "STT_FILE", 6: "STT_TLS",
        10: STT_GNU_IFUNC}
_STB = {0: "STB_LOCAL", 1: "STB_GLOBAL", 2: "STB_WEAK", 10: "STB_GNU_UNIQUE"}


class ElfInfo:
    """What the tracer uses from one ELF file (addresses are link-time vaddrs).

    One object per file (``elf_info`` caches it).  ElfInfo and Loaded are plain classes, not
    records: every run makes them, and pytrace.records' per-class work is start-up cost.
    """

    __slots__ = ("path", "soname", "pie", "entry", "first_vaddr", "dt_debug", "problem", "image", "word", "_plt",
                 "_dynsym", "_undefined", "_funcs", "_got_calls", "extra", "_body")

    def __init__(self, path: str, soname: str, pie: bool, entry: int, first_vaddr: int, dt_debug: int | None,
                 problem: str | None = None, image: DynamicImage | None = None, word: int = 8) -> None:
        self.path = path
        self.soname = soname
        self.pie = pie  # ET_DYN: loaded at a bias
        self.entry = entry
        self.first_vaddr = first_vaddr  # page-aligned p_vaddr of the PT_LOAD at file offset 0
        self.dt_debug = dt_debug  # vaddr of DT_DEBUG's d_val in .dynamic (the main binary's r_debug pointer)
        # Set when the section table is unusable: why, and the program-header reader used instead.
        self.problem = problem
        self.image = image
        self.word = word  # 8: an x86-64 object; 4: an i386 one (ELF32, ILP32, cdecl)
        self._plt: PltMap | None = None
        self._dynsym: dict[str, tuple[int, int, str, str]] | None = None  # name -> (value, size, type, bind)
        self._undefined: dict[str, tuple[str, str]] | None = None  # undefined name -> (type, bind)
        self._funcs: list[tuple[int, str]] | None = None  # defined functions, for -x
        self._got_calls: set[int] | None = None  # GOT slots that code calls or jumps through (-fno-plt sites)
        self.extra: dict[str, Any] = {}
        # Read from the disk cache: the marshalled PLT, symbols and call sites, unpacked at their first use.
        self._body: bytes | None = None

    def __repr__(self) -> str:
        return f"ElfInfo({self.path!r}, soname={self.soname!r}, pie={self.pie}, word={self.word})"

    def _unpack(self) -> None:
        body, self._body = self._body, None
        try:
            f = marshal.loads(body)  # type: ignore[arg-type]
            plt = PltMap(self.path, f["plt_pie"], [PltStub(*s) for s in f["stubs"]], f["got_symbols"])
            parts = (f["defined"], f["undefined"], f["functions"], f["got_calls"])
            if not (isinstance(plt.got_symbols, dict) and isinstance(parts[0], dict) and isinstance(parts[1], dict)
                    and isinstance(parts[2], list) and isinstance(parts[3], set)):
                raise TypeError("not the shape stored")
        except Exception:  # noqa: BLE001 - an entry of the right key but not our shape: read the file itself
            return
        self._plt = plt
        self._dynsym, self._undefined, self._funcs, self._got_calls = parts

    @property
    def plt(self) -> PltMap:
        if self._body is not None:
            self._unpack()
        if self._plt is None:
            try:
                self._plt = read_plt_segments(self.image) if self.image is not None else read_plt(self.path)
            except (OSError, ValueError, Exception):  # noqa: BLE001 - an odd file has no PLT for us
                self._plt = PltMap(self.path, self.pie, [], {})
        return self._plt

    def _load_symbols(self) -> None:
        if self._body is not None:
            self._unpack()
            if self._dynsym is not None:
                return
        defined: dict[str, tuple[int, int, str, str]] = {}
        undefined: dict[str, tuple[str, str]] = {}
        funcs: list[tuple[int, str]] = []
        try:
            from elftools.elf.elffile import ELFFile

            with open(self.path, "rb") as f:
                elf = ELFFile(f) if self.image is None else None
                for secname in (".dynsym", ".symtab"):
                    if self.image is not None:  # no sections: the dynamic symbols are all there is
                        tables = self.image.symbols() if secname == ".dynsym" else []
                    else:
                        tables = raw_symbols(elf, secname)
                    for name, value, size, stype, bind, shndx in tables:
                        if not name:
                            continue
                        name = name.split("@", 1)[0]
                        tname = _STT.get(stype, "STT_OTHER")
                        bname = _STB.get(bind, "STB_OTHER")
                        if shndx == 0:  # SHN_UNDEF
                            if secname == ".dynsym":
                                undefined.setdefault(name, (tname, bname))
                            continue
                        if stype not in (2, 10):  # STT_FUNC, STT_GNU_IFUNC
                            if secname == ".dynsym":
                                defined.setdefault(name, (value, size, tname, bname))
                            continue
                        if name not in defined:
                            defined[name] = (value, size, tname, bname)
                            if stype == 2 and value:
                                funcs.append((value, name))
        except Exception:  # noqa: BLE001 - unreadable symbols: the object simply offers none
            pass
        self._dynsym, self._undefined, self._funcs = defined, undefined, funcs

    @property
    def got_calls(self) -> set[int]:
        """GOT slots named by a ``call *disp(%rip)`` / ``jmp *disp(%rip)`` in executable sections.

        A GOT slot without a PLT stub is either a -fno-plt call target or just an address the
        code takes (``&std::endl``, ``stdout``): only the first kind gets a breakpoint.
        """
        if self._body is not None:
            self._unpack()
        if self._got_calls is None:
            slots: set[int] = set()
            if self.image is not None:  # no sections: every executable segment (the PLT's slots are excluded later)
                for base, data in self.image.executable():
                    for m in re.finditer(_INDIRECT, data):
                        disp = int.from_bytes(data[m.end():m.end() + 4], "little", signed=True)
                        slots.add(base + m.end() + 4 + disp)
                self._got_calls = slots
                return slots
            try:
                from elftools.elf.elffile import ELFFile

                with open(self.path, "rb") as f:
                    elf = ELFFile(f)
                    if self.word == 4:
                        self._got_calls = _got_calls_i386(elf)
                        return self._got_calls
                    for sec in elf.iter_sections():
                        if not sec["sh_flags"] & 0x4 or sec.name.startswith(".plt"):  # SHF_EXECINSTR
                            continue
                        data = sec.data()
                        base = sec["sh_addr"]
                        for m in re.finditer(_INDIRECT, data):
                            disp = int.from_bytes(data[m.end():m.end() + 4], "little", signed=True)
                            slots.add(base + m.end() + 4 + disp)
            except Exception:  # noqa: BLE001 - no code to scan: no -fno-plt sites
                pass
            self._got_calls = slots
        return self._got_calls

    @property
    def usdt_probes(self) -> list[Any]:
        """The file's USDT probes (usdt.Probe), read at the first use: only ``-e usdt:...`` asks."""
        probes = self.extra.get("usdt")
        if probes is None:
            from pytrace.ltrace.usdt import read_probes

            try:
                probes = read_probes(self.path)
            except Exception:  # noqa: BLE001 - notes that cannot be read: no probes in this object
                probes = []
            self.extra["usdt"] = probes
        return probes

    @property
    def defined(self) -> dict[str, tuple[int, int, str, str]]:
        if self._dynsym is None:
            self._load_symbols()
        assert self._dynsym is not None
        return self._dynsym

    @property
    def undefined(self) -> dict[str, tuple[str, str]]:
        if self._undefined is None:
            self._load_symbols()
        assert self._undefined is not None
        return self._undefined

    @property
    def functions(self) -> list[tuple[int, str]]:
        if self._funcs is None:
            self._load_symbols()
        assert self._funcs is not None
        return self._funcs


_cache: dict[tuple[str, int, int, int, int], ElfInfo | None] = {}


def elf_info(path: str, cache_dir: str | None | bool = True) -> ElfInfo | None:
    """The parsed ELF file at ``path`` (None for non-ELF files and for machines other than x86-64 and i386).

    ``cache_dir``: the on-disk cache's directory (True: the default, pytrace.cache.cache_dir();
    None or False: no disk cache).
    """
    try:
        st = os.stat(path)
    except OSError:
        return None
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    if key in _cache:
        return _cache[key]
    directory = default_cache_dir() if cache_dir is True else (cache_dir or None)
    facts = elf_cache.load(st, directory)
    if facts is not None:
        try:
            info: ElfInfo | None = _from_facts(path, *facts)
        except Exception:  # noqa: BLE001 - an entry of the right key but not our shape: parse the file
            info = None
        if info is not None:
            _cache[key] = info
            return info
    info = _parse(path)
    if info is not None and info.image is None and info.problem is None and directory is not None:
        # Learn everything now (the PLT, symbols, call sites), so the next run needs no ELF library.
        elf_cache.store(st, directory, *_facts(info))
    _cache[key] = info
    return info


def _facts(info: ElfInfo) -> tuple[dict[str, Any], dict[str, Any]]:
    """Everything the tracer reads from ``info``, as plain data (elf_cache stores it): the header
    every run reads, and the body only some runs unpack (ElfInfo._unpack)."""
    plt = info.plt
    head = {"soname": info.soname, "pie": info.pie, "entry": info.entry, "first_vaddr": info.first_vaddr,
            "dt_debug": info.dt_debug, "word": info.word}
    body = {"plt_pie": plt.pie, "stubs": [(s.address, s.got_slot, s.name, s.section) for s in plt.stubs],
            "got_symbols": dict(plt.got_symbols), "defined": info.defined, "undefined": info.undefined,
            "functions": info.functions, "got_calls": set(info.got_calls)}
    return head, body


def _from_facts(path: str, head: dict[str, Any], body: bytes) -> ElfInfo:
    info = ElfInfo(path, head["soname"], head["pie"], head["entry"], head["first_vaddr"], head["dt_debug"],
                   word=head["word"])
    if not (isinstance(info.soname, str) and isinstance(info.entry, int) and isinstance(info.first_vaddr, int)
            and info.word in (4, 8)):
        raise TypeError("not the shape stored")
    info._body = body
    return info


def _parse(path: str) -> ElfInfo | None:
    from pytrace.ltrace.elf_dynamic import section_table_problem  # a cache miss only

    try:
        with open(path, "rb") as f:
            ident = f.read(5)
            if ident[:4] != b"\x7fELF":
                return None
            if ident[4:5] == b"\x01":  # ELFCLASS32: i386 is read through its sections only
                f.seek(0)
                parsed = _parse_sections(path, f)
                return parsed if isinstance(parsed, ElfInfo) else None
            problem = section_table_problem(f)
            f.seek(0)
            if problem is None:
                parsed = _parse_sections(path, f)
                if parsed is not _UNUSABLE:
                    return parsed  # type: ignore[return-value]
                problem = "its sections cannot be read"
    except OSError:
        return None
    return _parse_segments(path, problem)


_UNUSABLE = object()


def _parse_sections(path: str, f: Any) -> ElfInfo | None | object:
    """The usual reading, through the section table; _UNUSABLE if pyelftools cannot read it."""
    from elftools.common.exceptions import ELFError
    from elftools.elf.elffile import ELFFile

    try:
        elf = ELFFile(f)
        if elf["e_machine"] not in ("EM_X86_64", "EM_386"):
            return None
        word = 4 if elf["e_machine"] == "EM_386" else 8
        first = None
        for seg in elf.iter_segments():
            if seg["p_type"] == "PT_LOAD" and first is None:
                first = seg["p_vaddr"] - seg["p_offset"]
        soname = os.path.basename(path)
        dt_debug = None
        dyn = elf.get_section_by_name(".dynamic")
        if dyn is not None:
            entsize = dyn["sh_entsize"] or 2 * word
            for i, tag in enumerate(dyn.iter_tags()):
                if tag.entry.d_tag == "DT_SONAME":
                    soname = tag.soname
                elif tag.entry.d_tag == "DT_DEBUG":
                    dt_debug = dyn["sh_addr"] + i * entsize + word
        elif any(seg["p_type"] == "PT_DYNAMIC" for seg in elf.iter_segments()):
            return _UNUSABLE  # a dynamic program whose sections do not say where .dynamic is
        return ElfInfo(path, soname, elf["e_type"] == "ET_DYN", elf["e_entry"], (first or 0) & ~0xFFF, dt_debug,
                       word=word)
    except (ELFError, ValueError, KeyError, IndexError, AssertionError, struct.error):
        return _UNUSABLE


def _got_calls_i386(elf: Any) -> set[int]:
    """GOT slots named by i386 ``call``/``jmp`` through memory in executable sections (-fno-plt sites):
    ``*ABS32`` in non-PIC code, ``*disp32(%reg)`` with the GOT address in the register in PIC code."""
    from pytrace.ltrace.elf_plt import got_base

    got = got_base(elf)
    slots: set[int] = set()
    for sec in elf.iter_sections():
        if not sec["sh_flags"] & 0x4 or sec.name.startswith(".plt"):  # SHF_EXECINSTR
            continue
        data = sec.data()
        for m in re.finditer(_INDIRECT_ABS32, data):
            slots.add(int.from_bytes(data[m.end():m.end() + 4], "little"))
        for m in re.finditer(_INDIRECT_GOT32, data):
            slots.add((got + int.from_bytes(data[m.end():m.end() + 4], "little", signed=True)) & 0xFFFFFFFF)
    return slots


def _parse_segments(path: str, problem: str) -> ElfInfo | None:
    """A file with an unusable section table, read from its program headers as ld.so reads it."""
    from pytrace.ltrace.elf_dynamic import DynamicImage, ElfFormatError

    try:
        img = DynamicImage.load(path)
        soname = img.soname
    except ElfFormatError:
        return None
    return ElfInfo(path, soname or os.path.basename(path), img.pie, img.entry, img.first_vaddr, img.dt_debug,
                   problem=problem, image=img)


class Loaded:
    """One ELF object mapped in a process.  Equal to another for the same file at the same place
    (a re-read of the maps after a dlopen makes new ones)."""

    __slots__ = ("info", "path", "bias", "lo", "hi", "is_main")

    def __init__(self, info: ElfInfo, path: str, bias: int, lo: int, hi: int, is_main: bool = False) -> None:
        self.info = info
        self.path = path
        self.bias = bias  # run-time address = link-time vaddr + bias
        self.lo = lo  # lowest and highest mapped address of the object
        self.hi = hi
        self.is_main = is_main

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Loaded:
            return NotImplemented
        return (self.info is other.info and (self.path, self.bias, self.lo, self.hi, self.is_main)  # type: ignore[attr-defined]
                == (other.path, other.bias, other.lo, other.hi, other.is_main))  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment] - mutable and equal by value, as the record it was

    def __repr__(self) -> str:
        return f"Loaded({self.path!r}, bias={self.bias:#x}, main={self.is_main})"

    def contains(self, addr: int) -> bool:
        return self.lo <= addr < self.hi


def read_maps(pid: int) -> list[tuple[int, int, str, int, str]]:
    """(start, end, perms, offset, path) of every file-backed line of /proc/PID/maps."""
    try:
        with open(f"/proc/{pid}/maps", "rb") as f:
            raw = f.read().decode("utf-8", "surrogateescape")
    except OSError:
        return []
    out = []
    for line in raw.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 6 or not parts[5].startswith("/"):
            continue
        lo, hi = parts[0].split("-")
        path = parts[5]
        if path.endswith(" (deleted)"):
            path = path[:-10]
        out.append((int(lo, 16), int(hi, 16), parts[1], int(parts[2], 16), path))
    return out


def all_ranges(pid: int) -> list[tuple[int, int]]:
    """Every mapping's [start, end) (anonymous ones too), for finding free address space."""
    out = []
    try:
        with open(f"/proc/{pid}/maps", "rb") as f:
            for line in f:
                lo, hi = line.split(b" ", 1)[0].split(b"-")
                out.append((int(lo, 16), int(hi, 16)))
    except OSError:
        pass
    return out


def loaded_objects(pid: int, main_path: str | None) -> list[Loaded]:
    """The ELF objects mapped in ``pid``, in address order; the one at ``main_path`` is marked main."""
    spans: dict[str, list[int]] = {}
    base_of: dict[str, int] = {}
    order: list[str] = []
    for lo, hi, _perms, offset, path in read_maps(pid):
        if path not in spans:
            spans[path] = [lo, hi]
            order.append(path)
        else:
            spans[path][0] = min(spans[path][0], lo)
            spans[path][1] = max(spans[path][1], hi)
        if offset == 0 and path not in base_of:
            base_of[path] = lo
    out: list[Loaded] = []
    for path in order:
        if path not in base_of:
            continue
        info = elf_info(path)
        if info is None:
            continue
        bias = base_of[path] - info.first_vaddr if info.pie else 0
        lo, hi = spans[path]
        out.append(Loaded(info, path, bias, lo, hi, is_main=(path == main_path)))
    return out


def program_problem(path: str, shown: str | None = None) -> tuple[bool, str] | None:
    """What to tell the user before tracing the program at ``path`` (named ``shown``): (fatal, message).

    A file that is neither ELF nor a ``#!`` script cannot run: ltrace's error, in its words.
    An ELF file whose section table is unusable is traced from its program headers (ltrace
    refuses it): a warning, so that what the trace shows is never silently less.
    """
    shown = shown or path
    try:
        with open(path, "rb") as f:
            magic = f.read(4)
    except OSError:
        return None  # exec reports it
    if magic != b"\x7fELF":
        return None if magic[:2] == b"#!" else (True, f'"{shown}" is not an ELF file')
    info = elf_info(path)
    if info is not None and info.problem:
        return False, f'warning: "{shown}": {info.problem}; tracing it from its program headers, as ld.so reads it'
    if info is None:  # neither table readable (or not x86-64, which the tracer then simply skips)
        from pytrace.ltrace.elf_dynamic import DynamicImage, ElfFormatError, section_table_problem

        try:
            with open(path, "rb") as f:
                sections = section_table_problem(f)
            DynamicImage.load(path)
        except ElfFormatError as exc:
            if not exc.runnable:  # exec would refuse it (ENOEXEC): say why, in one line, instead
                return True, f'"{shown}" cannot be run: {exc}'
            if sections is not None:
                return False, (f'warning: "{shown}": {sections}, and {exc}: no library call can be traced')
        except OSError:
            pass
    return None
