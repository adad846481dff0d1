"""The BPF code of one capture slot, for each kind of plan (capture_table.py), and the scratch layout.

The programs of capture_progs.py build a record in a per-CPU scratch value; each slot appends a
region (``u64 address | u32 length | bytes``) at the write cursor.  The cursor lives in the
scratch value, not in a register, so that every slot starts from the same verifier state
whatever the previous one did (the verifier then prunes instead of multiplying paths); counts
that loops produce go through memory for the same reason.  Registers: r8 the row, r9 the
scratch value; r6 and r7 are free for loops (the context is not needed any more).
"""

from __future__ import annotations

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R5, R6, R7, R8, R9
from pytrace.backends.ebpf.capture_table import (
    CHUNK,
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

FLAG_RETRY = 1  # a region could not be read at entry: the call waits for its second copy
HEADER = 16  # u8 type | u8 flags | u16 nr | u32 tid | u64 time
REGION_HEAD = 12  # u64 address | u32 length

# The scratch value: cursor, a spare word, the arguments (+ retry word: the in-flight value), ret, record.
SCR_CUR, SCR_TMP, SCR_ARGS, SCR_RETRY, SCR_RET, REC = 0, 8, 16, 64, 72, 80
REC_MAX = LIMIT + REGION_HEAD + CHUNK
SCRATCH_VALUE = (REC + REC_MAX + 16 + 7) & ~7  # + a system-wide record's task name (programs.COMM_LEN)

# Stack slots (below the 4-byte keys at -4..-16).
S_PTR, S_SIZE, S_CUR, S_WORD, S_ARR, S_HDR, S_NARGS, S_ROW_FLAGS = -24, -32, -40, -48, -56, -64, -72, -80
S_MSGS, S_MSG_ARR = -88, -96
S_SCRATCH = -104  # r9 spilled for a bpf_loop callback: its context, through which it reads our slots

_CHUNK_SHIFT = 4  # strv pointer arrays are read 16 words at a time
MMSG_IOVECS = 4  # iovecs copied per message of a sendmmsg/recvmmsg vector (DNS queries have one)
_MMSG_SHIFT = MMSGHDR_SIZE.bit_length() - 1  # struct mmsghdr is 64 bytes on x86_64
assert 1 << _MMSG_SHIFT == MMSGHDR_SIZE
PT_REGS_SP = 152  # offsetof(struct pt_regs, sp) on x86_64

def _loop(name: str, count: int, full: str, body: list[A.Item], mirror: tuple[int, ...] = ()) -> list[A.Item]:
    """``body`` for r7 = 0, 1, ... ``count`` - 1, as a bpf_loop callback ``name`` (a function of its own).

    The verifier walks a bounded loop once per iteration (the counter is a different constant
    each time: nothing to prune), but a callback as a function called an unknown number of
    times, until its states repeat: a body of a few hundred instructions costs its length
    about twice instead of ``count`` times (issue 14: the start-up's verifier walk).

    The callback has a frame of its own: it starts with r9 (the scratch value) and a copy of the
    caller's stack slots in ``mirror`` at the same offsets, so the body is written as inline
    code would be.  In the body, ``{name}_next`` ends the iteration, ``{name}_stop`` the loop,
    ``full`` the loop with the record full (the caller then goes to its own ``full``).
    """
    prologue: list[A.Item] = [A.mov64(R7, R1), A.mov64(R6, R2), A.ldx(A.DW, R9, R6, 0)]
    for off in mirror:
        prologue += [A.ldx(A.DW, R1, R6, off - S_SCRATCH), A.stx(A.DW, FP, off, R1)]
    callback = A.Subprog(name, [
        *prologue,
        A.jmp_imm("jge", R7, count, f"{name}_stop"),
        *body,
        A.label(f"{name}_next"), A.mov64_imm(R0, 0), A.exit_(),
        A.label(f"{name}_stop"), A.mov64_imm(R0, 1), A.exit_(),
    ])
    return [
        A.stx(A.DW, FP, S_SCRATCH, R9),
        A.mov64_imm(R1, count), A.ld_func(R2, name), A.mov64(R3, FP), A.alu64_imm("add", R3, S_SCRATCH),
        A.mov64_imm(R4, 0), A.call("loop"),
        callback,
        A.ldx(A.DW, R1, R9, SCR_CUR), A.jmp_imm("jgt", R1, LIMIT, full),  # the body found the record full
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
    loop = f"{tag}_loop"
    stop, nxt = f"{loop}_stop", f"{loop}_next"
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
        *_loop(loop, count, full, [
            A.ldx(A.DW, R1, R9, SCR_TMP),
            A.jmp_reg("jge", R7, R1, stop),
            A.ldx(A.DW, R1, FP, S_ARR),
            A.jmp_imm("jgt", R1, LIMIT, stop),
            A.alu64("add", R1, R9),
            A.mov64(R2, R7), A.alu64_imm("lsh", R2, 4), A.alu64("add", R1, R2),
            A.ldx(A.DW, R3, R1, REC + REGION_HEAD),
            A.ldx(A.DW, R2, R1, REC + REGION_HEAD + 8),
            A.jeq_imm(R3, 0, nxt),
            A.stx(A.DW, FP, S_PTR, R3),
            A.jmp_imm("jle", R2, opts.buffer_cap, f"{tag}_capped"),
            A.mov64_imm(R2, opts.buffer_cap),
            A.label(f"{tag}_capped"),
            *_copy(f"{tag}_buf", nxt, stop, nxt),
        ], mirror=(S_ARR,)),
        A.ja(done),
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
    """An array of struct mmsghdr (the count argument, at most MAX_MMSG), then each one's msghdr parts
    (a bpf_loop callback per message, with another one for its iovecs inside)."""
    loop = f"{p}_mm_loop"
    stop, step = f"{loop}_stop", f"{loop}_next"
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
        *_loop(loop, MAX_MMSG, full, [
            A.ldx(A.DW, R1, FP, S_MSGS),
            A.jmp_reg("jge", R7, R1, stop),
            A.ldx(A.DW, R1, FP, S_MSG_ARR),
            A.mov64(R2, R7), A.alu64_imm("lsh", R2, _MMSG_SHIFT), A.alu64("add", R1, R2),
            A.stx(A.DW, FP, S_HDR, R1),  # this message's msghdr, as the parts below read it
            *_msghdr_parts(f"{p}_mm", step, stop, opts, MMSG_IOVECS),
        ], mirror=(S_MSGS, S_MSG_ARR)),
        A.ja(nxt),
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
    wstop, sstop, snext = f"{words}_stop", f"{strings}_stop", f"{strings}_next"

    def word_at(j: int) -> list[A.Item]:
        """r1 = where word j of chunk r7 goes in the record (bounded: cursor <= LIMIT, r7 < chunks)."""
        return [A.ldx(A.DW, R1, FP, S_CUR), *_dst(), A.mov64(R2, R7), A.alu64_imm("lsh", R2, 3 + _CHUNK_SHIFT),
                A.alu64("add", R1, R2), *([A.alu64_imm("add", R1, 8 * j)] if j else [])]

    def count(j: int) -> list[A.Item]:
        """The array has r7 * CHUNK_WORDS + j words: through memory, and the loop ends."""
        return [A.mov64(R1, R7), A.alu64_imm("lsh", R1, _CHUNK_SHIFT), A.alu64_imm("add", R1, j),
                A.stx(A.DW, R9, SCR_TMP, R1), A.ja(wstop)]

    # The pointers, a chunk of words at a time (one probe_read per chunk); a chunk that cannot be
    # read whole (the array ends before an unreadable page) is read word by word.
    body: list[A.Item] = [
        *word_at(0),
        A.ldx(A.DW, R3, FP, S_PTR), A.alu64("add", R3, R2),
        A.mov64_imm(R2, 8 << _CHUNK_SHIFT),
        A.call("probe_read_user"),
        A.jne_imm(R0, 0, f"{p}_slow"),
    ]
    for j in range(1 << _CHUNK_SHIFT):
        body += [*word_at(j), A.ldx(A.DW, R1, R1, 0), A.jne_imm(R1, 0, f"{p}_w{j}"), *count(j + 1),
                 A.label(f"{p}_w{j}")]
    body += [A.ja(f"{words}_next"), A.label(f"{p}_slow")]
    for j in range(1 << _CHUNK_SHIFT):
        body += [
            *word_at(j), A.ldx(A.DW, R3, FP, S_PTR), A.alu64("add", R3, R2),
            *([A.alu64_imm("add", R3, 8 * j)] if j else []),
            A.mov64_imm(R2, 8), A.call("probe_read_user"), A.jeq_imm(R0, 0, f"{p}_s{j}"), *count(j),
            A.label(f"{p}_s{j}"),
            *word_at(j), A.ldx(A.DW, R1, R1, 0), A.jne_imm(R1, 0, f"{p}_t{j}"), *count(j + 1),
            A.label(f"{p}_t{j}"),
        ]
    body += count(1 << _CHUNK_SHIFT)
    return [
        A.label(f"{p}_k{K_STRV}"),
        _slot_field(R1, k, "pointer"), *_arg(R3, R1, nxt), A.jeq_imm(R3, 0, nxt), A.stx(A.DW, FP, S_PTR, R3),
        *_load_cursor(full),
        A.st_imm(A.DW, R9, SCR_TMP, MAX_WORDS),  # no NULL in the chunks read: as many words as copied
        *_loop(words, MAX_WORDS >> _CHUNK_SHIFT, full, body, mirror=(S_PTR, S_CUR)),
        A.ldx(A.DW, R7, R9, SCR_TMP),
        A.jmp_imm("jgt", R7, MAX_WORDS, nxt),
        A.jeq_imm(R7, 0, nxt),
        A.alu64_imm("lsh", R7, 3),
        *_add_region(R7),
        # The count (in SCR_TMP) and the array's place go through memory: every length joins one state.
        A.ldx(A.DW, R1, FP, S_CUR),
        A.stx(A.DW, FP, S_WORD, R1),  # the array's cursor: its words are at REC + that + REGION_HEAD
        *_loop(strings, opts.strv_strings, full, [
            A.ldx(A.DW, R1, R9, SCR_TMP),
            A.jmp_reg("jge", R7, R1, sstop),
            A.ldx(A.DW, R1, FP, S_WORD),
            A.jmp_imm("jgt", R1, LIMIT, sstop),
            A.alu64("add", R1, R9),
            A.mov64(R2, R7), A.alu64_imm("lsh", R2, 3), A.alu64("add", R1, R2),
            A.ldx(A.DW, R3, R1, REC + REGION_HEAD),
            A.jeq_imm(R3, 0, sstop),
            A.stx(A.DW, FP, S_PTR, R3),
            *_load_cursor(sstop), *_dst(),
            A.mov64_imm(R2, opts.strv_string_cap),
            A.ldx(A.DW, R3, FP, S_PTR),
            A.call("probe_read_user_str"),
            A.jmp_imm("jsle", R0, 0, f"{p}_sfail"),
            A.jmp_imm("jgt", R0, CHUNK, snext),
            *_add_region(R0),
            A.ja(snext),
            # A string not faulted in yet (a literal of a forked child): the slot is copied again at
            # sched_prepare_exec, once execve itself has read it (failed is the marking, or next).
            A.label(f"{p}_sfail"),
            *([] if failed == nxt else _mark_retry(k)),
        ], mirror=(S_WORD,)),
        A.ja(nxt),
    ]


def slots(table: CaptureTable, side: str, tag: str, done: str, opts: CaptureOptions,
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
