"""The ``--seccomp-bpf`` filter: a classic-BPF program that stops the tracee only for traced syscalls.

Without it every syscall of the tracee costs two ptrace stops, traced or not.
With it the tracee runs under ``PTRACE_CONT``; the kernel runs this program on
each syscall and only ``SECCOMP_RET_TRACE`` results stop the tracee (a
``PTRACE_EVENT_SECCOMP`` stop, which on Linux >= 4.8 is the syscall's entry);
``SECCOMP_RET_ALLOW`` lets the call run at full speed.

What the program must return (the loop's own per-stop decision is the ground
truth, so the output cannot change):

* RET_TRACE for every number the tracer's bitmap traces (``SyscallSet.bitmap``:
  numbers past the table follow its "unknown" flag), for execve/execveat
  always (the tracer hides the launched child's own calls until it sees its
  execve), and for ``extra`` numbers the tracer needs to see although it does
  not print them.  restart_syscall needs nothing more: its line names the last
  *traced* call (strace 6.1's ``s_prev_ent``), which the filter lets stop anyway;
* RET_TRACE for x32 calls (``__X32_SYSCALL_BIT`` on AUDIT_ARCH_X86_64: pytrace
  has no x32 table, so the tracer decides) and for any architecture the
  program does not know, as strace does;
* RET_ALLOW otherwise.

Two generators, as in strace's ``filter_seccomp.c``, and the shorter valid
program wins: ``linear`` tests sorted ranges of traced numbers (two
instructions per range, best for short lists such as ``-e trace=openat``) and
``bitmap`` tests one 32-bit word of a bitmap with JSET (bounded size whatever
the set, used when the linear program would need a jump longer than 255).

Instructions are data, ``(code, jt, jf, k)`` tuples exactly as ``struct
sock_filter``; ``assemble`` packs them.  The values of the opcodes come from
the generated table ``SECCOMP_BPF_CONSTANTS`` (scripts/xlat_spec.py).
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Mapping, Sequence

from pytrace.tables import xlat as _X
from pytrace.tables.syscalls import table

C: dict[str, int] = {name: value for value, name in _X.SECCOMP_BPF_CONSTANTS}

Insn = tuple[int, int, int, int]  # struct sock_filter: u16 code, u8 jt, u8 jf, u32 k

# offsetof(struct seccomp_data, nr / arch)
_DATA_NR = 0
_DATA_ARCH = 4
_MAX_JUMP = 255  # jt/jf are u8

RET_ALLOW = C["SECCOMP_RET_ALLOW"]
RET_TRACE = C["SECCOMP_RET_TRACE"]
_LD_ABS = C["BPF_LD"] | C["BPF_W"] | C["BPF_ABS"]
_LD_IMM = C["BPF_LD"] | C["BPF_W"] | C["BPF_IMM"]
_JEQ = C["BPF_JMP"] | C["BPF_JEQ"] | C["BPF_K"]
_JGT = C["BPF_JMP"] | C["BPF_JGT"] | C["BPF_K"]
_JGE = C["BPF_JMP"] | C["BPF_JGE"] | C["BPF_K"]
_JSET_X = C["BPF_JMP"] | C["BPF_JSET"] | C["BPF_X"]
_JA = C["BPF_JMP"] | C["BPF_JA"]
_AND = C["BPF_ALU"] | C["BPF_AND"] | C["BPF_K"]
_RSH = C["BPF_ALU"] | C["BPF_RSH"] | C["BPF_K"]
_LSH_X = C["BPF_ALU"] | C["BPF_LSH"] | C["BPF_X"]
_TAX = C["BPF_MISC"] | C["BPF_TAX"]
_RET = C["BPF_RET"] | C["BPF_K"]

#: The personalities an x86_64 tracee can use: (table name, AUDIT_ARCH, x32 flag bit or 0).
PERSONALITIES: tuple[tuple[str, int, int], ...] = (
    ("x86_64", C["AUDIT_ARCH_X86_64"], C["__X32_SYSCALL_BIT"]),
    ("i386", C["AUDIT_ARCH_I386"], 0),
)

#: Always traced (strace's TRACE_SECCOMP_DEFAULT): the tracer must see the launched command's execve to
#: stop hiding its calls, and i386 socketcall/ipc to know which subcall they make (tables/subcalls.py).
ALWAYS = ("execve", "execveat", "socketcall", "ipc")


class SeccompFilterError(ValueError):
    """No valid program fits (cannot happen with the bitmap generator; kept for a clear failure)."""


class PersonalitySet:
    """Which numbers of one personality must stop: ``numbers`` within [0, size), ``beyond`` for the rest."""

    __slots__ = ("numbers", "size", "beyond")

    def __init__(self, numbers: Iterable[int], size: int, beyond: bool) -> None:
        self.numbers = frozenset(n for n in numbers if 0 <= n < size)
        self.size = size
        self.beyond = beyond


def traced_sets(
    bitmap_of: Callable[[str], tuple[Sequence[int], bool]], extra_names: Iterable[str] = (),
    *, unnamed_run_unseen: bool = False,
) -> dict[str, PersonalitySet]:
    """Per-personality sets for the loop's trace bitmaps (``SyscallSet.bitmap``): bitmap ∪ ALWAYS ∪ extra.

    ``unnamed_run_unseen``: numbers in the table's holes are allowed to run, not stopped.  The
    tracer itself always prints them (strace's DEFAULT_QUAL_FLAGS for an invalid scno), but
    strace's filter only stops what its trace set names (``traced_by_seccomp``), so under an
    explicit ``--seccomp-bpf`` with a positive set they run unshown; pytrace's own default
    filter keeps them traced, since it promises output equal to a run without a filter.
    """
    out: dict[str, PersonalitySet] = {}
    for arch, _audit, _x32 in PERSONALITIES:
        bm, unknown = bitmap_of(arch)
        tab = table(arch)
        size = max(len(bm), tab.max_nr + 1)
        nums = {nr for nr in range(len(bm)) if bm[nr]}
        if unnamed_run_unseen:
            nums -= {nr for nr, name in enumerate(tab.names) if name is None}
        if unknown:  # numbers past a short bitmap follow the loop's "unknown" rule
            nums |= set(range(len(bm), size))
        for name in (*ALWAYS, *extra_names):
            info = tab.by_name.get(name)
            if info is not None:
                nums.add(info.nr)
        out[arch] = PersonalitySet(nums, size, unknown)
    return out


def _ranges(numbers: Iterable[int]) -> list[tuple[int, int]]:
    """Sorted inclusive ranges covering ``numbers``."""
    out: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def _linear_body(ps: PersonalitySet, x32_bit: int) -> list[Insn] | None:
    """``A = nr``, then two tests per range, ascending; None if a jump would not fit in 8 bits.

    For each range [lo, hi]: ``nr > hi`` skips to the next range's test, else ``nr >= lo``
    decides (the ranges ascend, so a number below lo is in no later range either).
    """
    tests: list[tuple[int, int, str, str]] = []  # (code, k, where to go if true, if false)
    if x32_bit:
        tests.append((_JGE, x32_bit, "trace", "next"))
    for lo, hi in _ranges(ps.numbers):
        tests.append((_JGT, hi, "skip", "next"))
        tests.append((_JGE, lo, "trace", "allow"))
    if ps.beyond:
        tests.append((_JGT, ps.size - 1, "trace", "allow"))
    # Layout after "ld nr": the tests, then "ret ALLOW" (index n) and "ret TRACE" (n + 1).
    n = len(tests)
    where = {"allow": n, "trace": n + 1}
    body: list[Insn] = [(_LD_ABS, 0, 0, _DATA_NR)]
    for i, (code, k, if_true, if_false) in enumerate(tests):
        offs = [{"next": 0, "skip": 1}.get(target, where.get(target, 0) - (i + 1)) for target in (if_true, if_false)]
        if max(offs) > _MAX_JUMP:
            return None
        body.append((code, offs[0], offs[1], k))
    body.append((_RET, 0, 0, RET_ALLOW))
    body.append((_RET, 0, 0, RET_TRACE))
    return body


def _bitmap_body(ps: PersonalitySet, x32_bit: int) -> list[Insn]:
    """``X = 1 << (nr & 31)``, ``A = nr >> 5``; per non-empty 32-bit word: match the index, JSET the word."""
    body: list[Insn] = [(_LD_ABS, 0, 0, _DATA_NR)]
    pre: list[tuple[int, int, str, str]] = []
    if x32_bit:
        pre.append((_JGE, x32_bit, "trace", "next"))
    pre.append((_JGT, ps.size - 1, "trace" if ps.beyond else "allow", "next"))
    words = [0] * ((ps.size + 31) // 32)
    for nr in ps.numbers:
        words[nr >> 5] |= 1 << (nr & 31)
    blocks: list[tuple[int, int]] = [(i, w) for i, w in enumerate(words) if w]
    # Instruction count after the pre-tests: 6 (compute X and A) + per block (1 if full else 3) + 2 rets.
    compute: list[Insn] = [
        (_AND, 0, 0, 31), (_TAX, 0, 0, 0), (_LD_IMM, 0, 0, 1), (_LSH_X, 0, 0, 0), (_TAX, 0, 0, 0),
        (_LD_ABS, 0, 0, _DATA_NR),
    ]
    block_len = sum(1 if w == 0xFFFFFFFF else 3 for _, w in blocks)
    total_after_pre = len(compute) + 1 + block_len  # + the rsh
    allow_rel = total_after_pre  # index (relative to the first insn after pre) of "ret ALLOW"
    trace_rel = total_after_pre + 1
    for i, (code, k, t_true, t_false) in enumerate(pre):
        offs = []
        for target in (t_true, t_false):
            if target == "next":
                offs.append(0)
            else:
                dest = (trace_rel if target == "trace" else allow_rel) + len(pre)
                offs.append(dest - (i + 1))
        body.append((code, offs[0], offs[1], k))
    body += compute
    body.append((_RSH, 0, 0, 5))
    pos = len(compute) + 1  # relative index of the next instruction
    for idx, word in blocks:
        if word == 0xFFFFFFFF:
            body.append((_JEQ, trace_rel - (pos + 1), 0, idx))
            pos += 1
        else:
            # jeq idx, 0, 2 ; ld #word ; jset X -> trace / allow
            body.append((_JEQ, 0, 2, idx))
            body.append((_LD_IMM, 0, 0, word))
            body.append((_JSET_X, trace_rel - (pos + 3), allow_rel - (pos + 3), 0))
            pos += 3
    body.append((_RET, 0, 0, RET_ALLOW))
    body.append((_RET, 0, 0, RET_TRACE))
    for code, jt, jf, _k in body:
        if code & 0x07 == C["BPF_JMP"] and code != _JA and max(jt, jf) > _MAX_JUMP:
            raise SeccompFilterError("bitmap filter jump out of range")
    return body


def _program(bodies: Sequence[tuple[int, list[Insn]]]) -> list[Insn]:
    """Chain per-personality bodies behind arch checks; unknown arch -> RET_TRACE."""
    prog: list[Insn] = []
    for audit, body in bodies:
        prog.append((_LD_ABS, 0, 0, _DATA_ARCH))
        if len(body) <= _MAX_JUMP:
            prog.append((_JEQ, 0, len(body), audit))
        else:  # a long body: skip it with an unconditional jump (32-bit offset)
            prog.append((_JEQ, 1, 0, audit))
            prog.append((_JA, 0, 0, len(body)))
        prog += body
    prog.append((_RET, 0, 0, RET_TRACE))
    return prog


def build(sets: Mapping[str, PersonalitySet], strategy: str = "shortest") -> list[Insn]:
    """The filter program for per-personality sets: ``strategy`` "linear", "bitmap" or "shortest"."""
    candidates: list[list[Insn]] = []
    if strategy in ("linear", "shortest"):
        linear = []
        for arch, audit, x32 in PERSONALITIES:
            body = _linear_body(sets[arch], x32)
            if body is None:
                break
            linear.append((audit, body))
        else:
            candidates.append(_program(linear))
    if strategy in ("bitmap", "shortest"):
        candidates.append(_program([(audit, _bitmap_body(sets[arch], x32)) for arch, audit, x32 in PERSONALITIES]))
    candidates = [p for p in candidates if len(p) <= C["BPF_MAXINSNS"]]
    if not candidates:
        raise SeccompFilterError(f"no {strategy} seccomp program fits in {C['BPF_MAXINSNS']} instructions")
    return min(candidates, key=len)


_SOCK_FILTER = struct.Struct("<HBBI")


def assemble(prog: Sequence[Insn]) -> bytes:
    """The program as an array of ``struct sock_filter``, ready for ``struct sock_fprog``."""
    return b"".join(_SOCK_FILTER.pack(*insn) for insn in prog)


def disassemble(code: bytes) -> list[Insn]:
    return [_SOCK_FILTER.unpack_from(code, off) for off in range(0, len(code), _SOCK_FILTER.size)]
