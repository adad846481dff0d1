"""The per-event programs: a variable-length record per syscall entry and exit, holding what its plan copies.

Records (little endian), each one ring-buffer record of exactly the bytes used:

    header   u8 type | u8 flags | u16 nr | u32 tid | u64 kernel time (ns)
    ENTRY    header | u64 args[N] | regions          EXIT    header | s64 ret | regions
             (N: the syscall's argument count, from the table: the traced map holds 1 + N)
    STATUS   header | u64 status (an untraced exit/exit_group's argument)
    GONE     header (sched_process_exit: the thread is gone)
    EXECPATH header | region (sched_process_exec: the file the kernel ran, for an execve
             whose path could not be read at entry)
    PREPARED header | regions (sched_prepare_exec: what an execve's entry could not read)
    region   u64 address | u32 length | the bytes (strings: with their NUL)

The record is built in a per-CPU scratch value (an array indexed by CPU: 64 KiB is more than a
per-CPU map value may hold) and copied with ``bpf_ringbuf_output`` of its used length.  The
regions follow the syscall's rows of capture_table.py: the programs interpret them slot by slot
(unrolled; each slot position handles only the kinds some plan uses there).  The write cursor
lives in the scratch value, not in a register, so that every slot starts from the same verifier
state whatever the previous one did (the verifier then prunes instead of multiplying paths).

A region eBPF cannot read at entry (its page not faulted in yet: eBPF cannot take page faults)
gets the FLAG_RETRY flag and its slot's bit in the retry word: the exit program copies it again
(the syscall has faulted it in, and only read it), and user space prints the call once the exit
record has arrived.  execve's memory is gone by then: its path and argv strings are copied again
at sched_prepare_exec (PREPARED), after the kernel read them and before it drops the old image;
on kernels without that tracepoint (before 6.10) sched_process_exec's filename stands in for the
path (EXECPATH).
"""

from __future__ import annotations

from dataclasses import dataclass

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R5, R6, R7, R8, R9
from pytrace.backends.ebpf.capture_table import (
    CHUNK,
    HAS_EXIT,
    K_ARG,
    K_BITMASK,
    K_CLONE,
    K_FIXED,
    K_IOV,
    K_MMSG,
    K_MSGHDR,
    K_PARG,
    K_PTRLEN,
    K_RET,
    K_SP,
    K_STR,
    K_STRV,
    LIMIT,
    MAX_MMSG,
    MAX_SLOTS,
    MAX_WORDS,
    MMSGHDR_SIZE,
    MSGHDR_SIZE,
    SLOT,
    CaptureOptions,
    CaptureTable,
)
from pytrace.backends.ebpf.programs import _RETURN_0 as RETURN_0
from pytrace.backends.ebpf.programs import (
    MAX_SYSCALLS,
    NR_EXECVE,
    NR_EXECVEAT,
    NR_EXIT,
    NR_EXIT_GROUP,
    Layout,
)
from pytrace.backends.ebpf.programs import _lookup as lookup
from pytrace.backends.ebpf.programs import _traced_tgid as traced_tgid

T_ENTRY, T_EXIT, T_STATUS, T_GONE, T_EXECPATH, T_PREPARED = 1, 2, 3, 4, 5, 6
FLAG_RETRY = 1  # a region could not be read at entry: the call waits for its second copy
HEADER = 16
EXIT_HEAD = HEADER + 8
REGION_HEAD = 12

# The scratch value: cursor, a spare word, the arguments (+ retry word: the in-flight value), ret, record.
SCR_CUR, SCR_TMP, SCR_ARGS, SCR_RETRY, SCR_RET, REC = 0, 8, 16, 64, 72, 80
INFLIGHT_VALUE = 56  # args[6] and the retry word
REC_MAX = LIMIT + REGION_HEAD + CHUNK
SCRATCH_VALUE = (REC + REC_MAX + 8 + 7) & ~7

# Stack slots (below the 4-byte keys at -4..-16).
S_PTR, S_SIZE, S_CUR, S_WORD, S_ARR, S_HDR, S_NARGS, S_ROW_FLAGS = -24, -32, -40, -48, -56, -64, -72, -80
S_MSGS, S_MSG_ARR = -88, -96


@dataclass(frozen=True)
class CaptureMaps:
    pids: int
    traced: int
    entry_plan: int
    exit_plan: int
    scratch: int
    inflight: int
    events: int
    lost: int
    threads: bool = False


_CHUNK_SHIFT = 4  # strv pointer arrays are read 16 words at a time
MMSG_IOVECS = 4  # iovecs copied per message of a sendmmsg/recvmmsg vector (DNS queries have one)
_MMSG_SHIFT = MMSGHDR_SIZE.bit_length() - 1  # struct mmsghdr is 64 bytes on x86_64
assert 1 << _MMSG_SHIFT == MMSGHDR_SIZE
PT_REGS_SP = 152  # offsetof(struct pt_regs, sp) on x86_64

#: Kinds the exit program does not copy again when the entry could not: execve's vectors (the old
#: image is gone by then: sched_prepare_exec copies them), the loops of iovecs and messages (each
#: loop costs the verifier its iterations again; an unreadable vector prints as an address), the
#: stack pointer's memory (the exit's stack pointer is another) and the structures read through a
#: pointer copied at entry.
_NO_RETRY = frozenset((K_STRV, K_IOV, K_MSGHDR, K_MMSG, K_CLONE, K_SP, K_PTRLEN))


def _scratch(m: CaptureMaps, miss: str) -> list[A.Item]:
    """r9 = this CPU's scratch value."""
    return [A.call("get_smp_processor_id"), A.stx(A.W, FP, -16, R0), *lookup(m.scratch, -16, miss), A.mov64(R9, R0)]


def _header(kind: int, tid_reg: int, nr_reg: int) -> list[A.Item]:
    return [
        A.st_imm(A.B, R9, REC, kind), A.st_imm(A.B, R9, REC + 1, 0), A.stx(A.H, R9, REC + 2, nr_reg),
        A.stx(A.W, R9, REC + 4, tid_reg), A.call("ktime_get_ns"), A.stx(A.DW, R9, REC + 8, R0),
    ]


def _output(m: CaptureMaps, tag: str) -> list[A.Item]:
    """Send the record in scratch (cursor bytes); count a loss when the ring buffer is full."""
    return [
        A.ldx(A.DW, R3, R9, SCR_CUR),
        A.jmp_imm("jgt", R3, REC_MAX, f"sent_{tag}"),
        A.ld_map_fd(R1, m.events),
        A.mov64(R2, R9),
        A.alu64_imm("add", R2, REC),
        A.mov64_imm(R4, 0),
        A.call("ringbuf_output"),
        *_count_loss(m, f"sent_{tag}"),
        A.label(f"sent_{tag}"),
    ]


def _count_loss(m: CaptureMaps, done: str) -> list[A.Item]:
    """After a ringbuf_output: r0 != 0 means the record was dropped; add one to the loss counter."""
    return [
        A.jeq_imm(R0, 0, done),
        A.st_imm(A.W, FP, -12, 0),
        *lookup(m.lost, -12, done),
        A.ldx(A.DW, R1, R0, 0),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 0, R1),
    ]


def _arg(dst: int, index_reg: int, bail: str) -> list[A.Item]:
    """dst = the saved argument number ``index_reg`` (bounded for the verifier)."""
    return [
        A.jmp_imm("jgt", index_reg, 5, bail),
        A.alu64_imm("lsh", index_reg, 3),
        A.alu64("add", index_reg, R9),
        A.ldx(A.DW, dst, index_reg, SCR_ARGS),
    ]


def _slot_field(dst: int, k: int, field: str) -> A.Insn:
    base = 8 + k * SLOT.size
    off, size = {"kind": (0, A.B), "pointer": (1, A.B), "size_arg": (2, A.B), "mult": (4, A.W),
                 "cap": (8, A.W), "offset": (12, A.W)}[field]
    return A.ldx(size, dst, R8, base + off)


def _load_cursor(full: str) -> list[A.Item]:
    """r1 = the cursor, saved at S_CUR; jump to ``full`` when no region fits any more."""
    return [A.ldx(A.DW, R1, R9, SCR_CUR), A.jmp_imm("jgt", R1, LIMIT, full), A.stx(A.DW, FP, S_CUR, R1)]


def _add_region(len_reg: int) -> list[A.Item]:
    """Write the region header at the saved cursor (address at S_PTR, length in ``len_reg``), advance.

    Clobbers r1 and r5 only (``len_reg`` is r0, r2 or r7).
    """
    return [
        A.ldx(A.DW, R1, FP, S_CUR),
        A.alu64("add", R1, R9),
        A.ldx(A.DW, R5, FP, S_PTR),
        A.stx(A.DW, R1, REC, R5),
        A.stx(A.W, R1, REC + 8, len_reg),
        A.ldx(A.DW, R1, FP, S_CUR),
        A.alu64_imm("add", R1, REGION_HEAD),
        A.alu64("add", R1, len_reg),
        A.stx(A.DW, R9, SCR_CUR, R1),
    ]


def _dst() -> list[A.Item]:
    """r1 = where the next region's bytes go (cursor in r1)."""
    return [A.alu64("add", R1, R9), A.alu64_imm("add", R1, REC + REGION_HEAD)]


def _slot(k: int, kinds: set[int], tag: str, full: str, opts: CaptureOptions,
          skip: frozenset[int] | None = None) -> list[A.Item]:
    """Slot ``k`` of the row at r8: copy its region.

    ``skip`` (a second copy: the exit program's, sched_prepare_exec's): only the slots whose bits
    the entry set in the retry word, and not those of the kinds in ``skip``.
    """
    p = f"{tag}{k}"
    nxt = f"{tag}{k + 1}"
    retry = skip is not None
    items: list[A.Item] = [A.label(p)]
    if skip is not None:  # only the slots the entry could not copy (their bits in the retry word)
        kinds = kinds - skip
        items += [A.ldx(A.DW, R1, R9, SCR_RETRY), A.jmp_imm("jset", R1, 1 << k, f"{p}_again"), A.ja(nxt),
                  A.label(f"{p}_again")]
    items += [_slot_field(R1, k, "kind"), A.jeq_imm(R1, 0, full)]
    failed = nxt if retry else f"{p}_failed"
    for kind in sorted(kinds):
        items.append(A.jeq_imm(R1, kind, f"{p}_k{kind}"))
    items.append(A.ja(nxt))
    sized = f"{p}_sized"
    if K_FIXED in kinds:
        items += [A.label(f"{p}_k{K_FIXED}"), _slot_field(R2, k, "mult"), A.ja(sized)]
    if K_ARG in kinds:
        items += [A.label(f"{p}_k{K_ARG}"), _slot_field(R1, k, "size_arg"), *_arg(R2, R1, nxt),
                  _slot_field(R3, k, "mult"), A.alu64("mul", R2, R3), A.ja(sized)]
    if K_RET in kinds:
        items += [A.label(f"{p}_k{K_RET}"), A.ldx(A.DW, R2, R9, SCR_RET), A.jmp_imm("jsle", R2, 0, nxt),
                  _slot_field(R3, k, "mult"), A.alu64("mul", R2, R3), A.ja(sized)]
    if K_PARG in kinds:
        items += [
            A.label(f"{p}_k{K_PARG}"), _slot_field(R1, k, "size_arg"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt),
            A.st_imm(A.DW, FP, S_WORD, 0), A.mov64(R1, FP), A.alu64_imm("add", R1, S_WORD), A.mov64_imm(R2, 4),
            A.call("probe_read_user"), A.jne_imm(R0, 0, nxt),
            A.ldx(A.W, R2, FP, S_WORD), A.jmp_imm("jset", R2, 0x80000000, nxt), A.ja(sized),
        ]
    if K_BITMASK in kinds:
        items += [
            A.label(f"{p}_k{K_BITMASK}"), _slot_field(R1, k, "size_arg"), *_arg(R2, R1, nxt),
            A.alu64_imm("lsh", R2, 32), A.rsh64_imm(R2, 32), A.jeq_imm(R2, 0, nxt),
            A.jmp_imm("jset", R2, 0x80000000, nxt),
            A.alu64_imm("add", R2, 7), A.rsh64_imm(R2, 3), A.alu64_imm("add", R2, 7), A.alu64_imm("and", R2, -8),
            A.ja(sized),
        ]
    if kinds & {K_FIXED, K_ARG, K_RET, K_PARG, K_BITMASK}:
        items += [
            A.label(sized),
            _slot_field(R3, k, "cap"),
            A.jmp_reg("jle", R2, R3, f"{p}_capped"),
            A.mov64(R2, R3),
            A.label(f"{p}_capped"),
            A.jmp_imm("jle", R2, CHUNK, f"{p}_bounded"),
            A.mov64_imm(R2, CHUNK),
            A.label(f"{p}_bounded"),
            A.jeq_imm(R2, 0, nxt),
            A.stx(A.DW, FP, S_SIZE, R2),
            _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
            *_load_cursor(full), *_dst(),
            A.ldx(A.DW, R2, FP, S_SIZE),
            A.ldx(A.DW, R3, FP, S_PTR),
            A.call("probe_read_user"),
            A.jne_imm(R0, 0, failed),
            A.ldx(A.DW, R2, FP, S_SIZE),
            *_add_region(R2),
            A.ja(nxt),
        ]
    if K_STR in kinds:
        items += [
            A.label(f"{p}_k{K_STR}"),
            _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
            *_load_cursor(full), *_dst(),
            A.mov64_imm(R2, opts.string_cap),
            A.ldx(A.DW, R3, FP, S_PTR),
            A.call("probe_read_user_str"),
            A.jmp_imm("jsle", R0, 0, failed),
            A.jmp_imm("jgt", R0, CHUNK, nxt),
            *_add_region(R0),
            A.ja(nxt),
        ]
    if K_STRV in kinds:
        items += _strv(p, nxt, k, full, opts, failed)
    if K_IOV in kinds:
        items += [
            A.label(f"{p}_k{K_IOV}"),
            _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
            _slot_field(R1, k, "size_arg"), *_arg(R2, R1, nxt),
            *_iovecs(f"{p}_v", nxt, full, opts),
        ]
    if K_MSGHDR in kinds:
        items += _msghdr(p, nxt, k, full, opts)
    if K_MMSG in kinds:
        items += _mmsghdrs(p, nxt, k, full, opts)
    if K_CLONE in kinds:
        items += _clone_args(p, nxt, k, full, nxt)
    if K_PTRLEN in kinds:  # a {pointer, length} pair (pselect6's sigmask), then what it points to
        def field(dst: int, off: int) -> list[A.Item]:
            return [A.ldx(A.DW, dst, FP, S_HDR), A.jmp_imm("jgt", dst, LIMIT, nxt), A.alu64("add", dst, R9),
                    A.ldx(A.DW, dst, dst, REC + REGION_HEAD + off)]

        items += [
            A.label(f"{p}_k{K_PTRLEN}"),
            _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
            _slot_field(R2, k, "mult"),
            *_copy(f"{p}_pair", nxt, full, nxt),
            A.ldx(A.DW, R1, FP, S_CUR),
            A.stx(A.DW, FP, S_HDR, R1),
            *field(R3, 0), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
            *field(R2, 8),
            _slot_field(R3, k, "cap"),
            A.jmp_reg("jgt", R2, R3, nxt),  # an impossible length: the decoder prints the address
            *_copy(f"{p}_pointee", nxt, full, nxt),
            A.ja(nxt),
        ]
    if K_SP in kinds:  # memory at the user stack pointer (rt_sigreturn's signal frame)
        items += [
            A.label(f"{p}_k{K_SP}"),
            A.call("get_current_task_btf"),
            A.mov64(R1, R0),
            A.call("task_pt_regs"),
            A.mov64(R3, R0),
            A.alu64_imm("add", R3, PT_REGS_SP),
            A.mov64(R1, FP),
            A.alu64_imm("add", R1, S_WORD),
            A.mov64_imm(R2, 8),
            A.call("probe_read_kernel"),
            A.jne_imm(R0, 0, nxt),
            A.ldx(A.DW, R3, FP, S_WORD),
            _slot_field(R1, k, "offset"),
            A.alu64("add", R3, R1),
            A.stx(A.DW, FP, S_PTR, R3),
            _slot_field(R2, k, "mult"),
            *_copy(f"{p}_sp", nxt, full, nxt),
            A.ja(nxt),
        ]
    if not retry and kinds & {K_FIXED, K_ARG, K_RET, K_PARG, K_BITMASK, K_STR}:
        # Not readable now: most often a page not faulted in yet, which the syscall itself will
        # fault in.  The exit program copies this slot again (the kernel only read it).
        items += [A.label(failed), *_mark_retry(k), A.ja(nxt)]
    return items


def _mark_retry(k: int) -> list[A.Item]:
    """Slot ``k`` could not be copied: its bit in the retry word, FLAG_RETRY in the record."""
    return [
        A.ldx(A.DW, R1, R9, SCR_RETRY), A.alu64_imm("or", R1, 1 << k), A.stx(A.DW, R9, SCR_RETRY, R1),
        A.ldx(A.B, R1, R9, REC + 1), A.alu64_imm("or", R1, FLAG_RETRY), A.stx(A.B, R9, REC + 1, R1),
    ]


def _copy(tag: str, done: str, full: str, fail: str) -> list[A.Item]:
    """Copy r2 bytes (clamped to CHUNK; none: ``done``) from the address at S_PTR into a new region."""
    return [
        A.jmp_imm("jle", R2, CHUNK, f"{tag}_bounded"),
        A.mov64_imm(R2, CHUNK),
        A.label(f"{tag}_bounded"),
        A.jeq_imm(R2, 0, done),
        A.stx(A.DW, FP, S_SIZE, R2),
        *_load_cursor(full), *_dst(),
        A.ldx(A.DW, R2, FP, S_SIZE),
        A.ldx(A.DW, R3, FP, S_PTR),
        A.call("probe_read_user"),
        A.jne_imm(R0, 0, fail),
        A.ldx(A.DW, R2, FP, S_SIZE),
        *_add_region(R2),
    ]


def _iovecs(tag: str, done: str, full: str, opts: CaptureOptions, most: int | None = None) -> list[A.Item]:
    """The iovec array at S_PTR (r2 elements, at most ``most``, else opts.iovecs), then each buffer
    (opts.buffer_cap bytes)."""
    loop, nxt = f"{tag}_loop", f"{tag}_next"
    count = opts.iovecs if most is None else min(most, opts.iovecs)
    return [
        A.jeq_imm(R2, 0, done),
        A.jmp_imm("jle", R2, count, f"{tag}_n"),
        A.mov64_imm(R2, count),
        A.label(f"{tag}_n"),
        A.stx(A.DW, R9, SCR_TMP, R2),  # the count through memory: every count joins one state
        A.alu64_imm("lsh", R2, 4),
        *_copy(f"{tag}_arr", done, full, done),
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_ARR, R1),  # the array's cursor: its elements are at REC + that + REGION_HEAD
        A.mov64_imm(R7, 0),
        A.label(loop),
        A.jmp_imm("jge", R7, count, done),
        A.ldx(A.DW, R1, R9, SCR_TMP),
        A.jmp_reg("jge", R7, R1, done),
        A.ldx(A.DW, R1, FP, S_ARR),
        A.jmp_imm("jgt", R1, LIMIT, done),
        A.alu64("add", R1, R9),
        A.mov64(R2, R7), A.alu64_imm("lsh", R2, 4), A.alu64("add", R1, R2),
        A.ldx(A.DW, R3, R1, REC + REGION_HEAD),
        A.ldx(A.DW, R2, R1, REC + REGION_HEAD + 8),
        A.jeq_imm(R3, 0, nxt),
        A.stx(A.DW, FP, S_PTR, R3),
        A.jmp_imm("jle", R2, opts.buffer_cap, f"{tag}_capped"),
        A.mov64_imm(R2, opts.buffer_cap),
        A.label(f"{tag}_capped"),
        *_copy(f"{tag}_buf", nxt, full, nxt),
        A.label(nxt),
        A.alu64_imm("add", R7, 1),
        A.ja(loop),
    ]


def _msghdr(p: str, nxt: str, k: int, full: str, opts: CaptureOptions) -> list[A.Item]:
    """A struct msghdr, then its name, its control data and its iovecs with their buffers."""
    return [
        A.label(f"{p}_k{K_MSGHDR}"),
        _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
        A.mov64_imm(R2, MSGHDR_SIZE),
        *_copy(f"{p}_hdr", nxt, full, nxt),
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_HDR, R1),
        *_msghdr_parts(p, nxt, full, opts),
    ]


def _mmsghdrs(p: str, nxt: str, k: int, full: str, opts: CaptureOptions) -> list[A.Item]:
    """An array of struct mmsghdr (the count argument, at most MAX_MMSG), then each one's msghdr parts.

    r6 (the context, not needed any more) counts the messages; the iovec loop inside uses r7.
    """
    loop, step = f"{p}_mm_loop", f"{p}_mm_next"
    return [
        A.label(f"{p}_k{K_MMSG}"),
        _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
        _slot_field(R1, k, "size_arg"), *_arg(R2, R1, nxt),
        A.alu64_imm("lsh", R2, 32), A.rsh64_imm(R2, 32),  # unsigned int vlen
        A.jmp_imm("jle", R2, MAX_MMSG, f"{p}_mm_n"),
        A.mov64_imm(R2, MAX_MMSG),
        A.label(f"{p}_mm_n"),
        A.stx(A.DW, FP, S_MSGS, R2),
        A.alu64_imm("lsh", R2, _MMSG_SHIFT),
        *_copy(f"{p}_mm_arr", nxt, full, nxt),
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_MSG_ARR, R1),
        A.mov64_imm(R6, 0),
        A.label(loop),
        A.jmp_imm("jge", R6, MAX_MMSG, nxt),
        A.ldx(A.DW, R1, FP, S_MSGS),
        A.jmp_reg("jge", R6, R1, nxt),
        A.ldx(A.DW, R1, FP, S_MSG_ARR),
        A.mov64(R2, R6), A.alu64_imm("lsh", R2, _MMSG_SHIFT), A.alu64("add", R1, R2),
        A.stx(A.DW, FP, S_HDR, R1),  # this message's msghdr, as the parts below read it
        *_msghdr_parts(f"{p}_mm", step, full, opts, MMSG_IOVECS),
        A.label(step),
        A.alu64_imm("add", R6, 1),
        A.ja(loop),
    ]


def _msghdr_parts(p: str, nxt: str, full: str, opts: CaptureOptions, iovecs: int | None = None) -> list[A.Item]:
    """What the msghdr copied at S_HDR points to: its name, its control data, its iovecs."""
    def field(dst: int, off: int, size: int = A.DW) -> list[A.Item]:
        return [A.ldx(A.DW, dst, FP, S_HDR), A.jmp_imm("jgt", dst, LIMIT, nxt), A.alu64("add", dst, R9),
                A.ldx(size, dst, dst, REC + REGION_HEAD + off)]

    return [
        *field(R3, 0), A.jeq_imm(R3, 0, f"{p}_control"), A.stx(A.DW, FP, S_PTR, R3),  # msg_name
        *field(R2, 8, A.W),
        *_copy(f"{p}_name", f"{p}_control", full, f"{p}_control"),
        A.label(f"{p}_control"),
        *field(R3, 32), A.jeq_imm(R3, 0, f"{p}_iov"), A.stx(A.DW, FP, S_PTR, R3),  # msg_control
        *field(R2, 40),
        *_copy(f"{p}_ctl", f"{p}_iov", full, f"{p}_iov"),
        A.label(f"{p}_iov"),
        *field(R3, 16), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),  # msg_iov
        *field(R2, 24),
        *_iovecs(f"{p}_mv", nxt, full, opts, iovecs),
    ]


def _clone_args(p: str, nxt: str, k: int, full: str, failed: str) -> list[A.Item]:
    """clone3's struct (size argument, up to the slot's cap), then the ints behind its pidfd and
    parent_tid fields (the kernel writes them) and its set_tid array (up to 32 ints)."""
    def field(dst: int, off: int) -> list[A.Item]:
        return [A.ldx(A.DW, dst, FP, S_HDR), A.jmp_imm("jgt", dst, LIMIT, nxt), A.alu64("add", dst, R9),
                A.ldx(A.DW, dst, dst, REC + REGION_HEAD + off)]

    items: list[A.Item] = [
        A.label(f"{p}_k{K_CLONE}"),
        _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
        _slot_field(R1, k, "size_arg"), *_arg(R2, R1, nxt),
        _slot_field(R3, k, "cap"),
        A.jmp_reg("jle", R2, R3, f"{p}_ca_capped"),
        A.mov64(R2, R3),
        A.label(f"{p}_ca_capped"),
        *_copy(f"{p}_ca", nxt, full, failed),
        A.ldx(A.DW, R1, FP, S_SIZE),
        A.jmp_imm("jlt", R1, 64, nxt),  # too short to be decoded: nothing behind it is read
        A.stx(A.DW, FP, S_WORD, R1),
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_HDR, R1),
    ]
    for name, off in (("pidfd", 8), ("ptid", 24)):
        done = f"{p}_ca_{name}_done"
        items += [*field(R3, off), A.jeq_imm(R3, 0, done), A.stx(A.DW, FP, S_PTR, R3), A.mov64_imm(R2, 4),
                  *_copy(f"{p}_ca_{name}", done, full, done), A.label(done)]
    return [
        *items,
        A.ldx(A.DW, R1, FP, S_WORD),
        A.jmp_imm("jlt", R1, 80, nxt),
        *field(R2, 72),  # set_tid_size
        A.jeq_imm(R2, 0, nxt),
        A.jmp_imm("jgt", R2, 32, nxt),
        A.alu64_imm("lsh", R2, 2),
        A.stx(A.DW, FP, S_ARR, R2),
        *field(R3, 64),  # set_tid
        A.jeq_imm(R3, 0, nxt),
        A.stx(A.DW, FP, S_PTR, R3),
        A.ldx(A.DW, R2, FP, S_ARR),
        *_copy(f"{p}_ca_set", nxt, full, nxt),
        A.ja(nxt),
    ]


def _strv(p: str, nxt: str, k: int, full: str, opts: CaptureOptions, failed: str) -> list[A.Item]:
    """A NULL-terminated pointer array (up to MAX_WORDS words, NULL included), then its first strings."""
    words, strings = f"{p}_words", f"{p}_strings"

    def word_at(j: int) -> list[A.Item]:
        """r1 = where word j of chunk r7 goes in the record (bounded: cursor <= LIMIT, r7 < chunks)."""
        return [A.ldx(A.DW, R1, FP, S_CUR), *_dst(), A.mov64(R2, R7), A.alu64_imm("lsh", R2, 3 + _CHUNK_SHIFT),
                A.alu64("add", R1, R2), *([A.alu64_imm("add", R1, 8 * j)] if j else [])]

    def count(j: int) -> list[A.Item]:
        """The array has r7 * CHUNK_WORDS + j words: through memory to the one join below."""
        return [A.mov64(R1, R7), A.alu64_imm("lsh", R1, _CHUNK_SHIFT), A.alu64_imm("add", R1, j),
                A.stx(A.DW, R9, SCR_TMP, R1), A.ja(f"{p}_wend")]

    chunks = MAX_WORDS >> _CHUNK_SHIFT
    items: list[A.Item] = [
        A.label(f"{p}_k{K_STRV}"),
        _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
        *_load_cursor(full),
        # The pointers, a chunk of words at a time (a loop of MAX_WORDS single words is as many
        # iterations for the verifier to walk at load time); a chunk that cannot be read whole
        # (the array ends before an unreadable page) is read word by word.
        A.mov64_imm(R7, 0),
        A.label(words),
        A.jmp_imm("jge", R7, chunks, f"{p}_wmax"),
        *word_at(0),
        A.ldx(A.DW, R3, FP, S_PTR), A.alu64("add", R3, R2),
        A.mov64_imm(R2, 8 << _CHUNK_SHIFT),
        A.call("probe_read_user"),
        A.jne_imm(R0, 0, f"{p}_slow"),
    ]
    for j in range(1 << _CHUNK_SHIFT):
        items += [*word_at(j), A.ldx(A.DW, R1, R1, 0), A.jne_imm(R1, 0, f"{p}_w{j}"), *count(j + 1),
                  A.label(f"{p}_w{j}")]
    items += [A.alu64_imm("add", R7, 1), A.ja(words), A.label(f"{p}_slow")]
    for j in range(1 << _CHUNK_SHIFT):
        items += [
            *word_at(j), A.ldx(A.DW, R3, FP, S_PTR), A.alu64("add", R3, R2),
            *([A.alu64_imm("add", R3, 8 * j)] if j else []),
            A.mov64_imm(R2, 8), A.call("probe_read_user"), A.jeq_imm(R0, 0, f"{p}_s{j}"), *count(j),
            A.label(f"{p}_s{j}"),
            *word_at(j), A.ldx(A.DW, R1, R1, 0), A.jne_imm(R1, 0, f"{p}_t{j}"), *count(j + 1),
            A.label(f"{p}_t{j}"),
        ]
    items += [
        *count(1 << _CHUNK_SHIFT),
        A.label(f"{p}_wmax"),
        A.st_imm(A.DW, R9, SCR_TMP, MAX_WORDS),
        A.label(f"{p}_wend"),
        A.ldx(A.DW, R7, R9, SCR_TMP),
        A.jmp_imm("jgt", R7, MAX_WORDS, nxt),
        A.jeq_imm(R7, 0, nxt),
        A.alu64_imm("lsh", R7, 3),
        *_add_region(R7),
        # The count (in SCR_TMP) and the array's place go through memory: every length joins one state.
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_WORD, R1),  # the array's cursor: its words are at REC + that + REGION_HEAD
        A.mov64_imm(R7, 0),
        A.label(strings),
        A.jmp_imm("jge", R7, opts.strv_strings, nxt),
        A.ldx(A.DW, R1, R9, SCR_TMP),
        A.jmp_reg("jge", R7, R1, nxt),
        A.ldx(A.DW, R1, FP, S_WORD),
        A.jmp_imm("jgt", R1, LIMIT, nxt),
        A.alu64("add", R1, R9),
        A.mov64(R2, R7), A.alu64_imm("lsh", R2, 3), A.alu64("add", R1, R2),
        A.ldx(A.DW, R3, R1, REC + REGION_HEAD),
        A.jeq_imm(R3, 0, nxt),
        A.stx(A.DW, FP, S_PTR, R3),
        *_load_cursor(full), *_dst(),
        A.mov64_imm(R2, opts.strv_string_cap),
        A.ldx(A.DW, R3, FP, S_PTR),
        A.call("probe_read_user_str"),
        A.jmp_imm("jsle", R0, 0, f"{p}_sfail"),
        A.jmp_imm("jgt", R0, CHUNK, f"{p}_snext"),
        *_add_region(R0),
        A.ja(f"{p}_snext"),
        # A string not faulted in yet (a literal of a forked child): the slot is copied again at
        # sched_prepare_exec, once execve itself has read it (failed is the marking, or next).
        A.label(f"{p}_sfail"),
        *([] if failed == nxt else _mark_retry(k)),
        A.label(f"{p}_snext"),
        A.alu64_imm("add", R7, 1),
        A.ja(strings),
    ]
    return items


def _slots(table: CaptureTable, side: str, tag: str, done: str, opts: CaptureOptions,
           skip: frozenset[int] | None = None) -> list[A.Item]:
    kinds = table.kinds_at(side)
    items: list[A.Item] = []
    for k in range(MAX_SLOTS):
        if not kinds[k] or (skip is not None and not kinds[k] - skip):
            items.append(A.label(f"{tag}{k}"))  # falls through to the next slot's code, or the end
            continue
        items += _slot(k, kinds[k], tag, done, opts, skip)
    items += [A.label(f"{tag}{MAX_SLOTS}"), A.ja(done)]
    return items


def capture_enter(layout: Layout, m: CaptureMaps, table: CaptureTable, opts: CaptureOptions,
                  args_off: int) -> A.Program:
    p = A.Program([A.mov64(R6, R1)])
    p += traced_tgid(m.pids, "out", m.threads, layout.enter_id)
    p += [
        A.ldx(A.DW, R8, R6, layout.enter_id),
        A.jmp_imm("jge", R8, MAX_SYSCALLS, "out"),
        A.stx(A.W, FP, -8, R8),
        *lookup(m.traced, -8, "out"),
        A.ldx(A.B, R1, R0, 0),
        A.jne_imm(R1, 0, "traced"),
        # Not traced, but an exit status is still needed for the "+++ exited with N +++" line.
        A.jeq_imm(R8, NR_EXIT, "status"),
        A.jeq_imm(R8, NR_EXIT_GROUP, "status"),
        A.ja("out"),
        A.label("status"),
        *_scratch(m, "out"),
        *_header(T_STATUS, R7, R8),
        A.ldx(A.DW, R1, R6, args_off),
        A.stx(A.DW, R9, REC + HEADER, R1),
        A.st_imm(A.DW, R9, SCR_CUR, HEADER + 8),
        *_output(m, "status"),
        A.ja("out"),
        A.label("traced"),
        A.stx(A.DW, FP, S_NARGS, R1),  # the traced map holds 1 + the syscall's argument count
        *_scratch(m, "out"),
        *_header(T_ENTRY, R7, R8),
    ]
    for i in range(6):
        p += [A.ldx(A.DW, R1, R6, args_off + 8 * i), A.stx(A.DW, R9, SCR_ARGS + 8 * i, R1),
              A.stx(A.DW, R9, REC + HEADER + 8 * i, R1)]
    p += [
        # The record keeps the syscall's own arguments only (getppid's none); regions follow them.
        A.ldx(A.DW, R1, FP, S_NARGS),
        A.alu64_imm("sub", R1, 1),
        A.alu64_imm("and", R1, 7),
        A.alu64_imm("lsh", R1, 3),
        A.alu64_imm("add", R1, HEADER),
        A.stx(A.DW, R9, SCR_CUR, R1),
        A.st_imm(A.DW, R9, SCR_RETRY, 0),
        A.st_imm(A.DW, FP, S_ROW_FLAGS, 0),
        *lookup(m.entry_plan, -8, "emit"),
        A.mov64(R8, R0),
        A.ldx(A.B, R1, R8, 1),
        A.stx(A.DW, FP, S_ROW_FLAGS, R1),
        *_slots(table, "entry", "e", "emit", opts),
        A.label("emit"),
        *_output(m, "entry"),
        # Keep the arguments for the exit program when it copies something, or copies a slot again.
        A.ldx(A.DW, R1, R9, SCR_RETRY),
        A.jne_imm(R1, 0, "keep"),
        A.ldx(A.DW, R1, FP, S_ROW_FLAGS),
        A.jmp_imm("jset", R1, HAS_EXIT, "keep"),
        A.ja("out"),
        A.label("keep"),
        A.ldx(A.H, R2, R9, REC + 2),  # the syscall number in the retry word's top half, for
        A.alu64_imm("lsh", R2, 32),   # sched_prepare_exec (the exit program knows it anyway)
        A.ldx(A.DW, R1, R9, SCR_RETRY),
        A.alu64("or", R1, R2),
        A.stx(A.DW, R9, SCR_RETRY, R1),
        A.ldx(A.W, R1, R9, REC + 4),  # the thread id (r7 is the strv loop's counter by now)
        A.stx(A.W, FP, -4, R1),
        A.ld_map_fd(R1, m.inflight),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -4),
        A.mov64(R3, R9),
        A.alu64_imm("add", R3, SCR_ARGS),
        A.mov64_imm(R4, 0),
        A.call("map_update_elem"),
        *RETURN_0,
    ]
    return p


def capture_exit(layout: Layout, m: CaptureMaps, table: CaptureTable, opts: CaptureOptions) -> A.Program:
    p = A.Program([A.mov64(R6, R1)])
    p += traced_tgid(m.pids, "out", m.threads)
    p += [
        A.ldx(A.DW, R8, R6, layout.exit_id),
        A.jmp_imm("jlt", R8, MAX_SYSCALLS, "numbered"),
        # rt_sigreturn restores the registers, orig_ax included, which the kernel then sets to -1:
        # its exit has no number.  A bare exit record: user space ends the thread's call in flight.
        A.jne_imm(R8, -1, "out"),
        *_scratch(m, "out"),
        *_header(T_EXIT, R7, R8),
        A.ldx(A.DW, R1, R6, layout.exit_ret),
        A.stx(A.DW, R9, REC + HEADER, R1),
        A.st_imm(A.DW, R9, SCR_CUR, EXIT_HEAD),
        *_output(m, "bare"),
        A.ja("out"),
        A.label("numbered"),
        A.stx(A.W, FP, -8, R8),
        *lookup(m.traced, -8, "out"),
        A.ldx(A.B, R1, R0, 0),
        A.jeq_imm(R1, 0, "out"),
        *_scratch(m, "out"),
        *_header(T_EXIT, R7, R8),
        A.ldx(A.DW, R1, R6, layout.exit_ret),
        A.stx(A.DW, R9, SCR_RET, R1),
        A.stx(A.DW, R9, REC + HEADER, R1),
        A.st_imm(A.DW, R9, SCR_CUR, EXIT_HEAD),
        A.stx(A.W, FP, -4, R7),
        *lookup(m.inflight, -4, "emit"),
    ]
    for i in range(7):  # the arguments and the retry word
        p += [A.ldx(A.DW, R1, R0, 8 * i), A.stx(A.DW, R9, SCR_ARGS + 8 * i, R1)]
    p += [
        A.ld_map_fd(R1, m.inflight), A.mov64(R2, FP), A.alu64_imm("add", R2, -4), A.call("map_delete_elem"),
        A.ldx(A.DW, R1, R9, SCR_RETRY),
        A.alu64_imm("and", R1, (1 << MAX_SLOTS) - 1),
        A.jeq_imm(R1, 0, "copy"),
        A.ldx(A.H, R1, R9, REC + 2),
        A.jeq_imm(R1, NR_EXECVE, "copy"),  # the old image is gone: sched_process_exec's path instead
        A.jeq_imm(R1, NR_EXECVEAT, "copy"),
        *lookup(m.entry_plan, -8, "copy"),
        A.mov64(R8, R0),
        *_slots(table, "entry", "r", "copy", opts, skip=_NO_RETRY),
        A.label("copy"),
        *lookup(m.exit_plan, -8, "emit"),
        A.mov64(R8, R0),
        *_slots(table, "exit", "x", "emit", opts),
        A.label("emit"),
        *_output(m, "exit"),
        *RETURN_0,
    ]
    return p


#: What sched_prepare_exec copies again: everything but the loops of iovecs and clone3's struct
#: (not execve's), so its strings and vectors.
_PREPARE_SKIP = frozenset((K_IOV, K_MSGHDR, K_MMSG, K_CLONE, K_SP, K_PTRLEN))


def prepare_exec(m: CaptureMaps, table: CaptureTable, opts: CaptureOptions) -> A.Program:
    """sched_prepare_exec: the execve whose path or argv strings the entry could not read.

    The tracepoint fires inside execve before the old image is released, after the kernel has
    copied the strings (faulting their pages in), so they are readable now.  The arguments and
    the retry word come from the in-flight map; the regions go out as a PREPARED record that
    user space adds to the held call's entry memory.
    """
    p = A.Program([A.mov64(R6, R1)])
    p += traced_tgid(m.pids, "out", m.threads)
    p += [
        *_scratch(m, "out"),
        A.stx(A.W, FP, -4, R7),
        *lookup(m.inflight, -4, "out"),
    ]
    for i in range(7):  # the arguments and the retry word
        p += [A.ldx(A.DW, R1, R0, 8 * i), A.stx(A.DW, R9, SCR_ARGS + 8 * i, R1)]
    p += [
        A.ldx(A.DW, R8, R9, SCR_RETRY),
        A.mov64(R1, R8),
        A.alu64_imm("and", R1, (1 << MAX_SLOTS) - 1),
        A.jeq_imm(R1, 0, "out"),
        A.rsh64_imm(R8, 32),
        A.stx(A.W, FP, -8, R8),
        *_header(T_PREPARED, R7, R8),
        A.st_imm(A.DW, R9, SCR_CUR, HEADER),
        *lookup(m.entry_plan, -8, "out"),
        A.mov64(R8, R0),
        *_slots(table, "entry", "p", "emit", opts, skip=_PREPARE_SKIP),
        A.label("emit"),
        *_output(m, "prepared"),
        *RETURN_0,
    ]
    return p


def thread_gone(m: CaptureMaps) -> A.Program:
    """sched_process_exit of a traced thread: a GONE record."""
    p = A.Program([A.mov64(R6, R1)])
    p += traced_tgid(m.pids, "out", m.threads)
    p += [
        *_scratch(m, "out"),
        A.mov64_imm(R8, 0),
        *_header(T_GONE, R7, R8),
        A.st_imm(A.DW, R9, SCR_CUR, HEADER),
        *_output(m, "gone"),
        *RETURN_0,
    ]
    return p


def exec_path(m: CaptureMaps, filename_off: int, opts: CaptureOptions) -> A.Program:
    """sched_process_exec: the file the kernel ran, as an EXECPATH record (user space uses it only
    for an execve whose path could not be read at entry).

    The filename is a ``__data_loc`` string inside the tracepoint record; the verifier forbids a
    variable offset on the context, so the record is copied into scratch first.
    """
    tmp = REC + LIMIT  # past anything the EXECPATH record uses
    cap = min(opts.string_cap, CHUNK)
    return A.Program([
        A.mov64(R6, R1),
        *traced_tgid(m.pids, "out", m.threads),
        *_scratch(m, "out"),
        A.ldx(A.W, R8, R6, filename_off),
        A.alu64_imm("and", R8, 0xFFFF),
        A.jmp_imm("jge", R8, 4096, "out"),
        A.mov64(R1, R9), A.alu64_imm("add", R1, tmp), A.mov64_imm(R2, 4096), A.mov64(R3, R6),
        A.call("probe_read_kernel"),
        A.jne_imm(R0, 0, "out"),
        A.mov64_imm(R1, 0),
        *_header(T_EXECPATH, R7, R1),
        A.mov64(R3, R9), A.alu64_imm("add", R3, tmp), A.alu64("add", R3, R8),
        A.mov64(R1, R9), A.alu64_imm("add", R1, REC + HEADER + REGION_HEAD),
        A.mov64_imm(R2, cap),
        A.call("probe_read_kernel_str"),
        A.jmp_imm("jsle", R0, 0, "out"),
        A.jmp_imm("jgt", R0, cap, "out"),
        A.st_imm(A.DW, R9, REC + HEADER, 0),
        A.stx(A.W, R9, REC + HEADER + 8, R0),
        A.alu64_imm("add", R0, HEADER + REGION_HEAD),
        A.stx(A.DW, R9, SCR_CUR, R0),
        *_output(m, "exec"),
        *RETURN_0,
    ])
