"""The --seccomp-bpf program generator, checked by running its bytes through a small cBPF interpreter.

The filter must return SECCOMP_RET_TRACE exactly where the tracer needs a stop
(the loop's own bitmap decision, execve/execveat, x32 calls, unknown
architectures) and RET_ALLOW everywhere else, or untraced calls would stop
(slow) or traced calls would be missed (wrong output).  The interpreter below decodes the assembled ``struct
sock_filter`` array itself, independently of the generator's tuples, and
checks what the kernel's checker checks: known opcodes, forward jumps inside
the program, no running off the end.  tests/differential/test_seccomp.py
checks the same programs by tracing real programs with them.
"""

from __future__ import annotations

import struct

import pytest

from pytrace.backends.ptrace import seccomp as S
from pytrace.filters import parse_trace_set
from pytrace.tables.syscalls import table

_U32 = 0xFFFFFFFF
X86_64, I386 = S.C["AUDIT_ARCH_X86_64"], S.C["AUDIT_ARCH_I386"]


def run_cbpf(code: bytes, arch: int, nr: int) -> int:
    """Execute a classic-BPF seccomp program on seccomp_data {nr, arch}; 32-bit A and X as in the kernel."""
    insns = [struct.unpack_from("<HBBI", code, off) for off in range(0, len(code), 8)]
    assert 0 < len(insns) <= S.C["BPF_MAXINSNS"]
    data = struct.pack("<iI", nr - (1 << 32) if nr >> 31 else nr, arch)  # seccomp_data.nr is an int
    a = x = 0
    pc = 0
    while True:
        assert 0 <= pc < len(insns), f"ran off the program at {pc}"
        op, jt, jf, k = insns[pc]
        pc += 1
        cls = op & 0x07
        if op == 0x20:  # BPF_LD|BPF_W|BPF_ABS
            assert k in (0, 4)
            a = struct.unpack_from("<I", data, k)[0]
        elif op == 0x00:  # BPF_LD|BPF_W|BPF_IMM
            a = k
        elif op == 0x07:  # BPF_MISC|BPF_TAX
            x = a
        elif op == 0x54:  # BPF_ALU|BPF_AND|BPF_K
            a &= k
        elif op == 0x74:  # BPF_ALU|BPF_RSH|BPF_K
            a >>= k
        elif op == 0x6C:  # BPF_ALU|BPF_LSH|BPF_X
            a = (a << (x & 31)) & _U32
        elif op == 0x06:  # BPF_RET|BPF_K
            return k
        elif op == 0x05:  # BPF_JMP|BPF_JA
            pc += k
        elif cls == 0x05:
            cond = {0x15: a == k, 0x25: a > k, 0x35: a >= k, 0x4D: bool(a & x)}.get(op)
            assert cond is not None, f"unexpected jump opcode {op:#x}"
            pc += jt if cond else jf
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")


def expected(expr: str, arch: str, nr: int) -> bool:
    """Whether the tracer needs a stop for (arch, nr) under ``-e trace=expr``."""
    bm, unknown = parse_trace_set(expr).bitmap(arch)
    tab = table(arch)
    if arch == "x86_64" and nr & S.C["__X32_SYSCALL_BIT"]:
        return True
    return bool(bm[nr] if nr < len(bm) else unknown) or tab.name(nr) in S.ALWAYS


EXPRESSIONS = [
    "openat", "none", "all", "!futex", "%file", "%process", "%memory", "!%memory", "/^[a-m]", "%network",
    "restart_syscall", "read,write", "getppid", "!getppid", "0", "?nosuch,close", "%desc", "!%desc,%file",
]


@pytest.mark.parametrize("strategy", ["linear", "bitmap", "shortest"])
@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_program_traces_exactly_what_the_loop_needs(expr: str, strategy: str) -> None:
    sets = S.traced_sets(parse_trace_set(expr).bitmap)
    try:
        code = S.assemble(S.build(sets, strategy))
    except S.SeccompFilterError:
        assert strategy == "linear", "the bitmap generator must always fit"
        return
    for arch, audit in (("x86_64", X86_64), ("i386", I386)):
        size = table(arch).max_nr + 1
        numbers = [*range(size + 40), 1000, 0x3FFFFFFF, 0x40000000, 0x40000000 + 257, 0x7FFFFFFF, _U32]
        for nr in numbers:
            got = run_cbpf(code, audit, nr)
            want = S.RET_TRACE if expected(expr, arch, nr) else S.RET_ALLOW
            assert got == want, f"{expr} {strategy}: {arch} nr={nr:#x} returned {got:#x}"
    # An architecture the program does not know: always let the tracer decide.
    assert run_cbpf(code, 0xC00000B7, 63) == S.RET_TRACE


def test_shortest_is_the_shorter_valid_program() -> None:
    narrow = S.traced_sets(parse_trace_set("openat").bitmap)
    assert len(S.build(narrow)) == len(S.build(narrow, "linear")) < len(S.build(narrow, "bitmap"))
    wide = S.traced_sets(parse_trace_set("/^[a-m]").bitmap)
    assert len(S.build(wide)) == len(S.build(wide, "bitmap"))


def test_long_linear_bodies_are_refused_not_miscompiled() -> None:
    """Every other number traced: 2 tests per range overflow the 8-bit jumps, so linear gives up."""
    every_other = S.PersonalitySet(range(0, 460, 2), 460, False)
    assert S._linear_body(every_other, 0) is None
    sets = {"x86_64": every_other, "i386": every_other}
    code = S.assemble(S.build(sets))
    for audit in (X86_64, I386):
        for nr in range(470):
            want = S.RET_TRACE if nr < 460 and nr % 2 == 0 else S.RET_ALLOW
            assert run_cbpf(code, audit, nr) == want, f"{audit:#x} nr={nr}"
