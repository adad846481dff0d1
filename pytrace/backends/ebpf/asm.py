"""A small, readable eBPF assembler: instructions as data, labels for jumps, helpers by name.

Programs are written as Python lists built with the functions below, e.g.::

    prog = Program()
    prog += [call("get_current_pid_tgid"), mov64(R6, R0), rsh64_imm(R6, 32)]
    prog += [jeq_imm(R0, 0, "out"), ..., label("out"), mov64_imm(R0, 0), exit_()]
    bytecode = prog.assemble()

No clang and no kernel headers: the encoding is the stable eBPF ISA
(Documentation/bpf/standardization/instruction-set.rst).
"""

from __future__ import annotations

import struct

from pytrace.records import dataclass  # not dataclasses: start-up cost

R0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 = range(11)
FP = R10  # the read-only frame pointer; the stack grows down from it (512 bytes)

# Instruction classes, sizes, modes, operations (linux/bpf_common.h, linux/bpf.h)
LD, LDX, ST, STX, ALU, JMP, JMP32, ALU64 = range(8)
W, H, B, DW = 0x00, 0x08, 0x10, 0x18
IMM, ABS, IND, MEM, ATOMIC = 0x00, 0x20, 0x40, 0x60, 0xC0
K, X = 0x00, 0x08
_ALU_OPS = {"add": 0x00, "sub": 0x10, "mul": 0x20, "div": 0x30, "or": 0x40, "and": 0x50, "lsh": 0x60,
            "rsh": 0x70, "neg": 0x80, "mod": 0x90, "xor": 0xA0, "mov": 0xB0, "arsh": 0xC0}
_JMP_OPS = {"ja": 0x00, "jeq": 0x10, "jgt": 0x20, "jge": 0x30, "jset": 0x40, "jne": 0x50, "jsgt": 0x60,
            "jsge": 0x70, "call": 0x80, "exit": 0x90, "jlt": 0xA0, "jle": 0xB0, "jslt": 0xC0, "jsle": 0xD0}
PSEUDO_MAP_FD = 1
PSEUDO_FUNC = 4  # ld_imm64 src_reg: imm is a subprogram's offset (bpf_loop's callback)

# Helper function ids (include/uapi/linux/bpf.h, __BPF_FUNC_MAPPER order)
HELPERS = {
    "map_lookup_elem": 1, "map_update_elem": 2, "map_delete_elem": 3, "probe_read": 4, "ktime_get_ns": 5,
    "trace_printk": 6, "get_smp_processor_id": 8, "get_current_pid_tgid": 14, "get_current_uid_gid": 15,
    "get_current_comm": 16, "perf_event_output": 25, "get_current_task": 35, "probe_read_user": 112, "probe_read_kernel": 113,
    "probe_read_user_str": 114, "probe_read_kernel_str": 115, "ringbuf_output": 130, "ringbuf_reserve": 131,
    "ringbuf_submit": 132, "ringbuf_discard": 133, "ringbuf_query": 134, "send_signal_thread": 117,
    "send_signal": 109, "get_attach_cookie": 174,
    "task_storage_get": 156, "task_storage_delete": 157, "get_current_task_btf": 158, "task_pt_regs": 175,
    "loop": 181,
}

_INSN = struct.Struct("<BBhi")


class AsmError(ValueError):
    """A program that cannot be encoded (unknown label, jump out of range)."""


@dataclass(frozen=True, slots=True)
class Insn:
    code: int
    dst: int = 0
    src: int = 0
    off: int | str = 0  # a label name until assembled
    imm: int = 0
    imm64: int | str | None = None  # set for the two-slot LD_IMM64 (a label: a subprogram's address)

    @property
    def slots(self) -> int:
        return 2 if self.imm64 is not None else 1


@dataclass(frozen=True, slots=True)
class Label:
    name: str


@dataclass(frozen=True, slots=True)
class Subprog:
    """A function of its own (a bpf_loop callback), written where it is used.

    The assembler moves it after the code of the function it appears in: the verifier walks it
    as one function, once per distinct state, instead of walking its body per iteration.
    """

    name: str
    items: list[Item]


Item = Insn | Label | Subprog


def label(name: str) -> Label:
    return Label(name)


def _alu(op: str, dst: int, src_or_imm: int, is_reg: bool, bits64: bool) -> Insn:
    code = (ALU64 if bits64 else ALU) | _ALU_OPS[op] | (X if is_reg else K)
    return Insn(code, dst, src_or_imm if is_reg else 0, 0, 0 if is_reg else src_or_imm)


def mov64(dst: int, src: int) -> Insn:
    return _alu("mov", dst, src, True, True)


def mov64_imm(dst: int, imm: int) -> Insn:
    return _alu("mov", dst, imm, False, True)


def alu64(op: str, dst: int, src: int) -> Insn:
    return _alu(op, dst, src, True, True)


def alu64_imm(op: str, dst: int, imm: int) -> Insn:
    return _alu(op, dst, imm, False, True)


def rsh64_imm(dst: int, imm: int) -> Insn:
    return alu64_imm("rsh", dst, imm)


def ld_imm64(dst: int, value: int) -> Insn:
    return Insn(LD | DW | IMM, dst, 0, 0, 0, value)


def ld_map_fd(dst: int, map_fd: int) -> Insn:
    """Load a map reference: the verifier replaces the fd with the map's address."""
    return Insn(LD | DW | IMM, dst, PSEUDO_MAP_FD, 0, 0, map_fd)


def ld_func(dst: int, name: str) -> Insn:
    """dst = the address of the subprogram ``name`` (a callback for bpf_loop)."""
    return Insn(LD | DW | IMM, dst, PSEUDO_FUNC, 0, 0, name)


def ldx(size: int, dst: int, src: int, off: int) -> Insn:
    return Insn(LDX | size | MEM, dst, src, off)


def stx(size: int, dst: int, off: int, src: int) -> Insn:
    return Insn(STX | size | MEM, dst, src, off)


def st_imm(size: int, dst: int, off: int, imm: int) -> Insn:
    return Insn(ST | size | MEM, dst, 0, off, imm)


def atomic_add64(dst: int, off: int, src: int) -> Insn:
    """*(u64 *)(dst + off) += src, atomically (per-CPU maps don't need it; shared hashes do)."""
    return Insn(STX | DW | ATOMIC, dst, src, off, 0x00)


def atomic_cmpxchg32(dst: int, off: int, src: int) -> Insn:
    """r0 = cmpxchg(*(u32 *)(dst + off), r0, src): stores src there if it held r0's low half, and
    returns what it held, zero-extended, in r0 (BPF_CMPXCHG)."""
    return Insn(STX | W | ATOMIC, dst, src, off, 0xF1)


def atomic_xchg64(dst: int, off: int, src: int) -> Insn:
    """src = xchg(*(u64 *)(dst + off), src): the old value comes back in src (BPF_XCHG)."""
    return Insn(STX | DW | ATOMIC, dst, src, off, 0xE1)


def jmp_imm(op: str, dst: int, imm: int, target: str) -> Insn:
    return Insn(JMP | _JMP_OPS[op] | K, dst, 0, target, imm)


def jmp_reg(op: str, dst: int, src: int, target: str) -> Insn:
    return Insn(JMP | _JMP_OPS[op] | X, dst, src, target, 0)


def jeq_imm(dst: int, imm: int, target: str) -> Insn:
    return jmp_imm("jeq", dst, imm, target)


def jne_imm(dst: int, imm: int, target: str) -> Insn:
    return jmp_imm("jne", dst, imm, target)


def ja(target: str) -> Insn:
    return Insn(JMP | _JMP_OPS["ja"], 0, 0, target, 0)


def call(helper: str) -> Insn:
    try:
        return Insn(JMP | _JMP_OPS["call"], 0, 0, 0, HELPERS[helper])
    except KeyError:
        raise AsmError(f"unknown BPF helper {helper!r}") from None


def exit_() -> Insn:
    return Insn(JMP | _JMP_OPS["exit"])


class Program:
    """A list of instructions and labels; ``assemble()`` resolves labels to relative offsets."""

    def __init__(self, items: list[Item] | None = None) -> None:
        self.items: list[Item] = list(items or [])

    def __iadd__(self, more: list[Item]) -> Program:
        self.items.extend(more)
        return self

    def assemble(self) -> bytes:
        return self.link().bytecode

    def link(self) -> Linked:
        """The bytecode, with the subprograms after the main function, and where each function starts."""
        functions: list[list[Insn | Label]] = []
        _flatten(self.items, functions)
        positions: dict[str, int] = {}
        owner: dict[str, int] = {}  # label -> the function it is in
        starts: list[int] = []
        pc = 0
        for f, body in enumerate(functions):
            starts.append(pc)
            for item in body:
                if isinstance(item, Label):
                    if item.name in positions:
                        raise AsmError(f"label {item.name!r} defined twice")
                    positions[item.name] = pc
                    owner[item.name] = f
                else:
                    pc += item.slots
        out = bytearray()
        pc = 0
        for f, body in enumerate(functions):
            for item in body:
                if isinstance(item, Label):
                    continue
                off = item.off
                if isinstance(off, str):
                    if off not in positions:
                        raise AsmError(f"jump to undefined label {off!r}")
                    if owner[off] != f:
                        raise AsmError(f"jump to {off!r} in another function")
                    off = positions[off] - (pc + 1)
                    if not -32768 <= off <= 32767:
                        raise AsmError(f"jump to {item.off!r} out of range")
                regs = (item.src << 4) | item.dst
                if item.imm64 is not None:
                    value = item.imm64
                    if isinstance(value, str):  # a subprogram: relative to the next instruction
                        if value not in positions or positions[value] not in starts:
                            raise AsmError(f"no subprogram {value!r}")
                        value = positions[value] - (pc + 1)
                    lo = value & 0xFFFFFFFF
                    hi = (value >> 32) & 0xFFFFFFFF
                    out += _INSN.pack(item.code, regs, off, _s32(lo))
                    out += _INSN.pack(0, 0, 0, _s32(hi))
                else:
                    out += _INSN.pack(item.code, regs, off, _s32(item.imm & 0xFFFFFFFF))
                pc += item.slots
        return Linked(bytes(out), tuple(starts))

    def __len__(self) -> int:
        functions: list[list[Insn | Label]] = []
        _flatten(self.items, functions)
        return sum(i.slots for body in functions for i in body if isinstance(i, Insn))


@dataclass(frozen=True, slots=True)
class Linked:
    """An assembled program: its bytecode and the instruction index where each function starts
    (the main one at 0; more than one needs BTF func_info to load, see bpf.load_program)."""

    bytecode: bytes
    functions: tuple[int, ...] = (0,)


def _flatten(items: list[Item], functions: list[list[Insn | Label]]) -> None:
    """Append the function of ``items`` to ``functions``, then its subprograms (theirs after them)."""
    body: list[Insn | Label] = []
    subs: list[Subprog] = []
    for item in items:
        if isinstance(item, Subprog):
            subs.append(item)
        else:
            body.append(item)
    functions.append(body)
    for sub in subs:
        _flatten([Label(sub.name), *sub.items], functions)


def _s32(v: int) -> int:
    return v - (1 << 32) if v & 0x80000000 else v
