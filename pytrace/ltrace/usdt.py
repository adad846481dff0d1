"""USDT probes (``<sys/sdt.h>``: ``STAP_PROBE``/``DTRACE_PROBE``): reading them, and what a hit means.

This module knows nothing of ptrace: it is shared by pyltrace's ptrace backend
(int3 on the probe's ``nop``, tracer.py) and by an eBPF backend (a uprobe at
``Probe.offset`` with ``Probe.semaphore_offset`` as the kernel's reference counter).

A probe is one ``NT_STAPSDT`` note in ``.note.stapsdt`` (SystemTap's format):
three address-sized words -- the probe's ``nop`` (pc), the link-time address of
``.stapsdt.base`` (base) and the probe's semaphore (0: none) -- then
``provider\\0name\\0arguments\\0``.  If the file was prelinked since, the
``.stapsdt.base`` section no longer sits where the note says, and pc moves by
the same amount (``Probe.address``).

The arguments are one assembler operand per argument, as gcc wrote them in
the ``asm`` statement, each prefixed with ``SIZE@`` (negative: signed):
``-4@%edi``, ``8@-8(%rbp)``, ``-4@$5``, ``4@16(%rsp)``, ``1@(%rdi)``,
``8@counter(%rip)``, ``8@8(%rax,%rdx,8)``, and in i386 PIC code ``-4@counter@GOTOFF(%ebx)``.  ``parse_arg`` turns each into an
``ArgSpec``; ``arg_value`` computes its value from the registers at the hit and
the tracee's memory.

A semaphore is a 16-bit counter in the program's data (section ``.probes``):
code guarded by ``PROVIDER_NAME_ENABLED()`` computes the probe's arguments only
while it is non-zero.  A tracer adds one while it traces and takes one away when
it lets go (``adjust_semaphore``), as SystemTap, bcc and bpftrace do.
"""

from __future__ import annotations

import os
import re
import struct
from collections.abc import Callable, Iterable, Mapping

from pytrace.records import dataclass  # not dataclasses: start-up cost

NT_STAPSDT = 3
#: Where pyltrace's declarations of well-known probes' argument types are (ltrace.conf's language).
KNOWN_TYPES = os.path.join(os.path.dirname(__file__), "usdt.conf")  # str: no pathlib at start-up

# -- registers --------------------------------------------------------------------------------------

#: user_regs_struct (sys/user.h), in order: the index of each 64-bit register in PTRACE_GETREGS's words.
USER_REGS = ("r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi",
             "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs")
REG_INDEX = {name: i for i, name in enumerate(USER_REGS)}


def _register_names() -> dict[str, tuple[str, int, int]]:
    """Every x86-64 general register name -> (its 64-bit register, bit shift, bytes): ``ah`` is (rax, 8, 1)."""
    out: dict[str, tuple[str, int, int]] = {}
    for x in "abcd":  # rax: eax ax al ah
        full = f"r{x}x"
        out.update({full: (full, 0, 8), f"e{x}x": (full, 0, 4), f"{x}x": (full, 0, 2), f"{x}l": (full, 0, 1),
                    f"{x}h": (full, 8, 1)})
    for x in ("si", "di", "bp", "sp"):  # rsi: esi si sil
        full = f"r{x}"
        out.update({full: (full, 0, 8), f"e{x}": (full, 0, 4), x: (full, 0, 2), f"{x}l": (full, 0, 1)})
    for n in range(8, 16):  # r8: r8d r8w r8b (r8l in some assemblers)
        full = f"r{n}"
        out.update({full: (full, 0, 8), f"{full}d": (full, 0, 4), f"{full}w": (full, 0, 2), f"{full}b": (full, 0, 1),
                    f"{full}l": (full, 0, 1)})
    out["rip"] = ("rip", 0, 8)
    return out


REGISTERS = _register_names()

# -- argument specifications ---------------------------------------------------------------------------

REG, MEM, CONST = "register", "memory", "constant"


@dataclass(frozen=True)
class ArgSpec:
    """One probe argument: where its value is, and how many bytes of it, signed or not.

    ``kind`` REG: ``reg`` (its 64-bit register), ``shift`` (8 for ``%ah``...).
    ``kind`` MEM: the address is ``disp + base + index * scale`` (registers may be
    None) plus, for ``symbol`` forms (``sym(%rip)``, ``sym+8(%rip)``, ``sym``), the
    symbol's link-time address ``symbol_addr`` and the object's load bias.
    ``kind`` CONST: ``disp`` is the value.
    """

    text: str
    size: int
    signed: bool
    kind: str
    reg: str | None = None
    shift: int = 0
    disp: int = 0
    index: str | None = None
    scale: int = 1
    symbol: str | None = None
    symbol_addr: int | None = None  # link-time address, once resolved (``resolve_symbols``)


_MEM = re.compile(r"^(?P<disp>[^(]*)\((?P<base>%\w+)?(?:,(?P<index>%\w+)(?:,(?P<scale>\d+))?)?\)$")
_SIZED = re.compile(r"^(-?\d+)@(.+)$")
_SYMDISP = re.compile(r"^([A-Za-z_.$][\w.$]*)(@GOTOFF)?([+-](?:0x[0-9a-fA-F]+|\d+))?$")


class SpecError(ValueError):
    """An argument the parser does not understand (said as ``SIZE@OPERAND: why``)."""


def _register(name: str, text: str) -> tuple[str, int, int]:
    r = REGISTERS.get(name.lstrip("%").lower())
    if r is None:
        raise SpecError(f"{text}: unknown register {name}")
    return r


def _displacement(disp: str, text: str) -> tuple[str | None, int, bool]:
    """``-8`` / ``0x10`` / ``counter`` / ``counter+8`` / ``counter@GOTOFF`` -> (symbol or None, offset, GOTOFF)."""
    disp = disp.replace(" ", "")
    if not disp:
        return None, 0, False
    try:
        return None, int(disp, 0), False
    except ValueError:
        pass
    m = _SYMDISP.match(disp)
    if m is None:
        raise SpecError(f"{text}: displacement {disp!r} not understood")
    return m.group(1), int(m.group(3), 0) if m.group(3) else 0, bool(m.group(2))


def parse_arg(text: str) -> ArgSpec:
    """``SIZE@OPERAND`` (or a bare operand: 8 bytes, unsigned) -> ArgSpec; SpecError if not understood."""
    size, signed, operand = 8, False, text
    sized = _SIZED.match(text)
    if sized:
        n = int(sized.group(1))
        size, signed, operand = abs(n), n < 0, sized.group(2)
        if size not in (1, 2, 4, 8):
            raise SpecError(f"{text}: size {size} is not 1, 2, 4 or 8")
    if ":" in operand:
        raise SpecError(f"{text}: segment-relative operands are not supported")
    if operand.startswith("%"):
        reg, shift, _ = _register(operand, text)
        return ArgSpec(text, size, signed, REG, reg=reg, shift=shift)
    if operand.startswith("$"):
        try:
            return ArgSpec(text, size, signed, CONST, disp=int(operand[1:], 0))
        except ValueError:
            raise SpecError(f"{text}: constant {operand} not understood") from None
    m = _MEM.match(operand)
    base = index = None
    scale = 1
    if m:
        if m.group("base"):
            base = _register(m.group("base"), text)[0]
        if m.group("index"):
            index = _register(m.group("index"), text)[0]
            scale = int(m.group("scale") or 1)
        sym, disp, gotoff = _displacement(m.group("disp"), text)
    else:  # an absolute address: "counter", "counter+8", "0x601040"
        sym, disp, gotoff = _displacement(operand, text)
    if gotoff and index is None:
        # i386 PIC: sym@GOTOFF(%ebx), ebx holding the GOT's address: the symbol's own address again
        base = None
    if sym is not None and base not in (None, "rip"):
        raise SpecError(f"{text}: a symbol relative to %{base} is not supported")
    if sym is None and base == "rip":
        raise SpecError(f"{text}: %rip without a symbol (the probe's nop has no next instruction to be relative to)")
    if base == "rip":
        base = None  # sym(%rip) is the symbol's own address (what the assembler's relocation resolves to)
    return ArgSpec(text, size, signed, MEM, reg=base, disp=disp, index=index, scale=scale, symbol=sym)


def parse_args(text: str) -> list[ArgSpec]:
    """A note's argument string -> one ArgSpec per argument (SpecError names the first one not understood)."""
    return [parse_arg(a) for a in text.split()]


def _fix(value: int, size: int, signed: bool) -> int:
    bits = 8 * size
    value &= (1 << bits) - 1
    if signed and value >> (bits - 1):
        value -= 1 << bits
    return value


def arg_value(spec: ArgSpec, reg: Callable[[str], int], read: Callable[[int, int], bytes | None],
              bias: int = 0) -> int | None:
    """The argument's value at a hit: ``reg(NAME)`` gives a 64-bit register, ``read(addr, n)`` the tracee's
    memory (None: unreadable, and so is the value); ``bias`` is the object's load bias (symbol operands)."""
    if spec.kind == CONST:
        return _fix(spec.disp, spec.size, spec.signed)
    if spec.kind == REG:
        assert spec.reg is not None
        return _fix(reg(spec.reg) >> spec.shift, spec.size, spec.signed)
    addr = spec.disp
    if spec.symbol is not None:
        if spec.symbol_addr is None:
            return None
        addr += spec.symbol_addr + bias
    if spec.reg is not None:
        addr += reg(spec.reg)
    if spec.index is not None:
        addr += reg(spec.index) * spec.scale
    data = read(addr & ((1 << 64) - 1), spec.size)
    if data is None or len(data) != spec.size:
        return None
    return _fix(int.from_bytes(data, "little"), spec.size, spec.signed)


def regs_reader(words: tuple[int, ...] | list[int]) -> Callable[[str], int]:
    """``reg(NAME)`` over PTRACE_GETREGS's words (user_regs_struct)."""
    return lambda name: words[REG_INDEX[name]]


# -- notes ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """One USDT probe of one ELF file; addresses are link-time (add the object's load bias)."""

    path: str
    provider: str
    name: str
    address: int  # the nop (adjusted for prelink: see the module's docstring)
    offset: int | None  # its file offset (where a uprobe goes); None if no PT_LOAD holds it
    semaphore: int  # 0: none
    semaphore_offset: int | None  # its file offset (a uprobe's reference counter)
    args_text: str
    args: tuple[ArgSpec, ...]
    problem: str | None = None  # an argument not understood: the hit is shown without values

    @property
    def full_name(self) -> str:
        return f"{self.provider}:{self.name}"


def _file_offset(segments: list[tuple[int, int, int]], vaddr: int) -> int | None:
    for p_vaddr, p_offset, p_filesz in segments:
        if p_vaddr <= vaddr < p_vaddr + p_filesz:
            return vaddr - p_vaddr + p_offset
    return None


def decode_note(desc: bytes, word: int = 8) -> tuple[int, int, int, str, str, str]:
    """An NT_STAPSDT note's description -> (pc, base, semaphore, provider, name, arguments)."""
    fmt = "<QQQ" if word == 8 else "<III"
    pc, base, sem = struct.unpack_from(fmt, desc)
    strings = desc[3 * word:].split(b"\0")
    provider, name, args = (strings + [b"", b"", b""])[:3]
    return pc, base, sem, provider.decode("utf-8", "replace"), name.decode("utf-8", "replace"), \
        args.decode("utf-8", "replace")


def read_probes(path: str) -> list[Probe]:
    """Every USDT probe in the ELF file at ``path``, in note order ([] for a file without any; OSError,
    or elftools' ELFError for a file that cannot be read)."""
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as f:
        elf = ELFFile(f)
        notes = elf.get_section_by_name(".note.stapsdt")
        if notes is None:
            return []
        word = elf.elfclass // 8
        base_sec = elf.get_section_by_name(".stapsdt.base")
        actual_base = base_sec["sh_addr"] if base_sec is not None else None
        segments = [(s["p_vaddr"], s["p_offset"], s["p_filesz"]) for s in elf.iter_segments()
                    if s["p_type"] == "PT_LOAD"]
        raw: list[tuple[int, int, int, str, str, str]] = []
        for note in notes.iter_notes():
            if note["n_name"] != "stapsdt" or note["n_type"] not in (NT_STAPSDT, "NT_GNU_BUILD_ID", "NT_STAPSDT"):
                continue  # (pyelftools names type 3 after the GNU owner's meaning of it)
            desc = note["n_descdata"]
            if isinstance(desc, str):
                desc = desc.encode("latin-1")
            raw.append(decode_note(desc, word))
        wanted: set[str] = set()
        parsed: list[tuple[list[ArgSpec], str | None]] = []
        for *_, args_text in raw:
            try:
                specs, problem = parse_args(args_text), None
            except SpecError as exc:
                specs, problem = [], str(exc)
            wanted.update(s.symbol for s in specs if s.symbol)
            parsed.append((specs, problem))
        symbols = _symbol_addresses(elf, wanted) if wanted else {}
    out = []
    for (pc, base, sem, provider, name, args_text), (specs, problem) in zip(raw, parsed, strict=True):
        if actual_base is not None and base:
            pc += actual_base - base  # prelinked since the note was written
        specs = resolve_symbols(specs, symbols)
        missing = next((s.symbol for s in specs if s.symbol and s.symbol_addr is None), None)
        if missing and problem is None:
            problem = f"symbol {missing} not in the symbol tables"
        out.append(Probe(path, provider, name, pc, _file_offset(segments, pc), sem,
                         _file_offset(segments, sem) if sem else None, args_text, tuple(specs), problem))
    return out


def resolve_symbols(specs: Iterable[ArgSpec], symbols: Mapping[str, int]) -> list[ArgSpec]:
    """The specs with each ``symbol`` operand's link-time address filled in from ``symbols`` (when known)."""
    return [ArgSpec(**{**vars(s), "symbol_addr": symbols[s.symbol]}) if s.symbol and s.symbol in symbols else s
            for s in specs]


def _symbol_addresses(elf: object, names: set[str]) -> dict[str, int]:
    from elftools.elf.sections import SymbolTableSection

    found: dict[str, int] = {}
    for sec_name in (".symtab", ".dynsym"):
        sec = elf.get_section_by_name(sec_name)  # type: ignore[attr-defined]
        if not isinstance(sec, SymbolTableSection):
            continue
        for sym in sec.iter_symbols():
            if sym.name in names and sym.name not in found and sym["st_shndx"] != "SHN_UNDEF":
                found[sym.name] = sym["st_value"]
    return found


# -- semaphores ------------------------------------------------------------------------------------------


def adjust_semaphore(read: Callable[[int, int], bytes | None], write: Callable[[int, bytes], object],
                     addr: int, delta: int) -> int | None:
    """Add ``delta`` to the 16-bit semaphore at ``addr`` (never below 0 nor above 65535); its new value,
    or None if it could not be read."""
    data = read(addr, 2)
    if data is None or len(data) != 2:
        return None
    value = min(0xFFFF, max(0, int.from_bytes(data, "little") + delta))
    write(addr, value.to_bytes(2, "little"))
    return value


# -- listing -------------------------------------------------------------------------------------------------


def list_line(p: Probe) -> str:
    """``--list-usdt``'s line: FILE PROVIDER:NAME semaphore=yes|no ARGS..."""
    sem = "yes" if p.semaphore else "no"
    return f"{p.path} {p.full_name} semaphore={sem}" + (f" {p.args_text}" if p.args_text else "")
