"""USDT probes on ``pyltrace --backend=ebpf``: a uprobe on each probe's ``nop``, its arguments read in the kernel.

Each probe gets a uprobe at its file offset (usdt.Probe.offset) whose program is
generated for the probe's *shape*: the note's argument specs (usdt.ArgSpec) turned
into straight-line eBPF, with no table to look up at the hit --

* a register operand: the 64-bit register from ``pt_regs`` (whose first 21 words
  are ``user_regs_struct``'s, usdt.USER_REGS);
* a memory operand ``disp(base, index, scale)`` or ``symbol(%rip)``: its address
  computed from ``pt_regs`` (a symbol's run-time address is a constant of the
  program) and ``size`` bytes copied with ``bpf_probe_read_user``; a failed read
  sets the argument's bit in the record's failure mask (printed ``?``);
* a constant: nothing (its value is in the note);
* and for each argument the probe's prototype declares a pointer to something
  printed (``string`` in usdt.conf or a -F file): the bytes behind it, copied as
  the library-call captures are (ebpf_capture._pointee_capture: up to ``-s`` + 1
  characters).

The record (``ringbuf_reserve``: one fixed size per shape) is
``u32 T_USDT, u32 site, u64 pid_tgid, u64 ktime, u64 failure mask, u64 value[n],
u16 copied[n] (rounded up to 8 bytes), then the copies``.  Cutting to the
argument's size and sign happens here in Python (usdt.arg_value's rules), so
the lines are the ptrace backend's (usdt_trace.format_args).  With -c the
program only adds one to its site's counter.

Semaphores: the uprobe carries the semaphore's file offset as its reference
counter (``ref_ctr_offset``), so the kernel raises it in each process the probe
is installed in and lowers it when the probe goes -- when pyltrace closes the
link, and also when pyltrace is killed (the kernel closes its descriptors).
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R6, R7, R8, R9
from pytrace.ltrace import ebpf_programs as EP
from pytrace.ltrace import prototypes as P
from pytrace.ltrace import usdt_trace
from pytrace.ltrace.ebpf_capture import CallMemory, _pointee_capture
from pytrace.ltrace.fast_format import Formatter, word_formatter
from pytrace.ltrace.usdt import CONST, MEM, REG, REG_INDEX, ArgSpec, _fix

T_USDT = 9
VALUES = 32  # where the argument values start in a record
MIN_RECORD = 48  # the tracer's common head (ebpf_tracer._HEAD) is read from every record
MAX_RECORD = 16384
_NONE = -1
_M64 = (1 << 64) - 1


@dataclass(frozen=True)
class ArgOp:
    """What the program does for one argument: read a register (``base``), read ``size`` bytes at
    ``const + regs[base] + regs[index] * scale`` (MEM), or nothing (CONST); then perhaps copy what the
    value points to (``capture``: (mode, size) as in ebpf_capture, or None)."""

    kind: str
    base: int = _NONE  # pt_regs byte offset, or _NONE
    index: int = _NONE
    scale: int = 1
    const: int = 0
    size: int = 8
    capture: tuple[int, int] | None = None


@dataclass(frozen=True)
class Shape:
    """A probe's program, as data: programs are shared by probes of the same shape."""

    ops: tuple[ArgOp, ...]

    def layout(self) -> tuple[int, list[int], int]:
        """(where the copied-length words start, each capture's offset (0: none), the record's size)."""
        n = len(self.ops)
        lens = VALUES + 8 * n
        off = lens + (2 * n + 7) // 8 * 8
        offsets = []
        for op in self.ops:
            if op.capture is None:
                offsets.append(0)
                continue
            offsets.append(off)
            off += (op.capture[1] + 7) // 8 * 8
        return lens, offsets, max(off, MIN_RECORD)


def _reg_offset(name: str | None) -> int:
    return _NONE if name is None else 8 * REG_INDEX[name]


def shape_of(specs: tuple[ArgSpec, ...], bias: int, proto: P.Proto | None, strlen: int, arraylen: int) -> Shape:
    """The program a probe needs: its specs (symbols relocated by ``bias``) and its prototype's captures."""
    params = proto.params if proto is not None else []
    ops = []
    budget = MAX_RECORD - VALUES - 10 * len(specs) - 8
    for i, spec in enumerate(specs):
        cap = _pointee_capture(params[i], strlen, arraylen) if i < len(params) and spec.size == 8 else None
        if cap is not None:
            size = (cap[1] + 7) // 8 * 8
            if size > budget:
                cap = None
            else:
                budget -= size
        if spec.kind == REG:
            ops.append(ArgOp(REG, base=_reg_offset(spec.reg), capture=cap))
        elif spec.kind == MEM:
            const = spec.disp + ((spec.symbol_addr or 0) + bias if spec.symbol is not None else 0)
            ops.append(ArgOp(MEM, base=_reg_offset(spec.reg), index=_reg_offset(spec.index), scale=spec.scale,
                             const=const & ((1 << 64) - 1), size=spec.size, capture=cap))
        else:
            ops.append(ArgOp(CONST, capture=None))
    return Shape(tuple(ops))


def program(m: EP.Maps, shape: Shape, by_tid: bool, counts: int | None) -> A.Program:
    """The uprobe program of one shape; ``counts`` (-c): the map fd whose u64 per site is incremented
    instead of sending a record."""
    p = A.Program([A.mov64(R6, R1), *EP._traced(m, by_tid),  # noqa: SLF001  (r7 = pid_tgid)
                   A.mov64(R1, R6), A.call("get_attach_cookie"), A.stx(A.W, FP, -8, R0)])
    if counts is not None:
        p += [*EP._lookup(counts, -8, "out"), A.mov64_imm(R1, 1), A.atomic_add64(R0, 0, R1), *EP._OUT]  # noqa: SLF001
        return p
    lens, offsets, size = shape.layout()
    p += [
        A.ld_map_fd(R1, m.events), A.mov64_imm(R2, size), A.mov64_imm(R3, 0), A.call("ringbuf_reserve"),
        A.jne_imm(R0, 0, "reserved"),
        *EP._count_lost(m, "u"),  # noqa: SLF001
        A.ja("out"),
        A.label("reserved"),
        A.mov64(R9, R0), A.mov64_imm(R8, 0),
        A.st_imm(A.W, R9, 0, T_USDT), A.ldx(A.W, R1, FP, -8), A.stx(A.W, R9, 4, R1),
        A.stx(A.DW, R9, 8, R7), A.call("ktime_get_ns"), A.stx(A.DW, R9, 16, R0),
    ]
    for i, op in enumerate(shape.ops):
        at = VALUES + 8 * i
        if op.kind == REG:
            p += [A.ldx(A.DW, R1, R6, op.base), A.stx(A.DW, R9, at, R1)]
        elif op.kind == CONST:
            p += [A.st_imm(A.DW, R9, at, 0)]
        else:
            p += [A.st_imm(A.DW, R9, at, 0), A.ld_imm64(R3, op.const)]
            if op.base != _NONE:
                p += [A.ldx(A.DW, R1, R6, op.base), A.alu64("add", R3, R1)]
            if op.index != _NONE:
                p += [A.ldx(A.DW, R1, R6, op.index), A.alu64_imm("mul", R1, op.scale), A.alu64("add", R3, R1)]
            p += [A.mov64(R1, R9), A.alu64_imm("add", R1, at), A.mov64_imm(R2, op.size), A.call("probe_read_user"),
                  A.jeq_imm(R0, 0, f"read_{i}"), A.alu64_imm("or", R8, 1 << i), A.label(f"read_{i}")]
    for j in range(0, (2 * len(shape.ops) + 7) // 8 * 8, 8):
        p += [A.st_imm(A.DW, R9, lens + j, 0)]
    for i, op in enumerate(shape.ops):
        if op.capture is None:
            continue
        mode, csize = op.capture
        p += [A.mov64(R1, R9), A.alu64_imm("add", R1, offsets[i]), A.mov64_imm(R2, csize),
              A.ldx(A.DW, R3, R9, VALUES + 8 * i)]
        if mode == EP.MODE_STR:
            p += [A.call("probe_read_user_str"), A.jmp_imm("jsle", R0, 0, f"copied_{i}"),
                  A.stx(A.H, R9, lens + 2 * i, R0)]
        else:
            p += [A.call("probe_read_user"), A.jne_imm(R0, 0, f"copied_{i}"), A.st_imm(A.H, R9, lens + 2 * i, csize)]
        p += [A.label(f"copied_{i}")]
    p += [A.stx(A.DW, R9, 24, R8), A.mov64(R1, R9), A.mov64_imm(R2, EP.RB_NO_WAKEUP), A.call("ringbuf_submit"),
          *EP._backpressure(m, by_tid), *EP._OUT]  # noqa: SLF001
    return p


@dataclass
class UsdtSite:
    """One probe attached in one process (its number is the uprobe's cookie); what decoding a hit needs,
    computed once: the record's layout and, when no argument needs memory, each argument's formatter."""

    site: usdt_trace.Site  # the probe, its object's load bias, ``usdt:PROVIDER:NAME``, its prototype
    addr: int  # the nop's run-time address (-i)
    shape: Shape
    layout: tuple[int, list[int], int] = (0, [], 0)
    fast: list[Formatter] | None = None

    def __post_init__(self) -> None:
        self.layout = self.shape.layout()
        proto = self.site.proto
        if self.site.probe.problem or any(op.capture is not None for op in self.shape.ops):
            return
        params = proto.params if proto is not None else []
        fmts = [word_formatter(params[i]) if i < len(params) else str for i in range(len(self.shape.ops))]
        if all(f is not None for f in fmts):
            self.fast = [f for f in fmts if f is not None]


class _LateMemory(CallMemory):
    """The record's copies, and for anything else the process's memory as it is when the line is printed
    (a prototype's pointer the program did not copy, or a copy that needed a page fault)."""

    __slots__ = ("late",)

    def __init__(self, regions: dict[int, tuple[bytes, bool]], late: Callable[[int, int], bytes | None] | None):
        super().__init__(regions)
        self.late = late

    def read(self, addr: int, size: int) -> bytes | None:
        got = super().read(addr, size)
        if got is None and self.late is not None:
            data = self.late(addr, size)
            return data if data is not None and len(data) == size else None
        return got

    def read_upto(self, addr: int, size: int) -> bytes | None:
        got = super().read_upto(addr, size)
        return got if got is not None or self.late is None else self.late(addr, size)


def decode(us: UsdtSite, rec: memoryview, late: Callable[[int, int], bytes | None] | None,
           protos: P.Prototypes, strlen: int, arraylen: int) -> list[str]:
    """A hit's argument texts, as the ptrace backend prints them."""
    site = us.site
    probe = site.probe
    proto = usdt_trace.proto_of(site, protos)
    if probe.problem:
        return usdt_trace.unreadable(probe)
    n = len(us.shape.ops)
    fails, *values = struct.unpack_from(f"<{n + 1}Q", rec, 24)
    raws: list[int | None] = []
    for i, spec in enumerate(probe.args):
        if spec.kind == CONST:
            raws.append(_fix(spec.disp, spec.size, spec.signed))
        elif fails >> i & 1:
            raws.append(None)
        else:
            raws.append(_fix(values[i] >> spec.shift, spec.size, spec.signed))
    fast = us.fast
    if fast is not None:  # integers only (as format_args prints them: the word for a prototype's type)
        return ["?" if r is None else f(r & _M64) if f is not str else str(r) for f, r in zip(fast, raws, strict=True)]
    lens, offsets, _ = us.layout
    regions: dict[int, tuple[bytes, bool]] = {}
    for i, op in enumerate(us.shape.ops):
        if op.capture is None or raws[i] is None:
            continue
        mode, size = op.capture
        got = int.from_bytes(rec[lens + 2 * i:lens + 2 * i + 2], "little")
        if not got:
            continue  # (not copied: read late, if the prototype prints it)
        data = bytes(rec[offsets[i]:offsets[i] + got])
        addr = values[i]
        if mode == EP.MODE_STR:  # got counts the NUL; a copy that filled its room was cut
            regions[addr] = (data, True) if got < size else (data[:-1], False)
        else:
            regions[addr] = (data, True)
    mem: Any = _LateMemory(regions, late)
    return usdt_trace.format_args(proto, raws, mem, strlen, arraylen)
