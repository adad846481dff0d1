"""The eBPF programs behind ``pyltrace --backend=ebpf`` (written with pytrace's ``asm``).

Every traced call site has a uprobe (entry) and a uretprobe (return), both linked
to one of the two programs below with the site's number as the BPF cookie.

* ``call_entry``: is this thread group traced (``pids``)?  is the caller one the
  site accepts (``-fno-plt`` sites: the return address inside the calling
  object)?  Then the thread's open call is remembered in ``inflight`` under
  (tid, site, stack pointer) with its entry time and six argument registers,
  and -- unless counting -- a record goes to the ring buffer: the registers,
  the return address (``*rsp``, for -i) and the memory the site's capture plan
  names (strings and bytes behind pointer arguments, the stack arguments),
  copied with ``bpf_probe_read_user(_str)`` into a per-CPU scratch record whose
  used length is the plan's.
* ``call_return``: the uretprobe fires in the caller's context right after the
  return (rsp = entry rsp + 8), so (tid, site, rsp - 8) finds the call.  Counting
  (-c): calls and nanoseconds added atomically per site in an array, nothing sent.
  Otherwise a record with rax/rdx, the entry time, and the plan's return-time
  captures (out-parameters read from the saved argument registers, the string a
  ``char *`` result points to).

A record that does not fit in the ring buffer is counted in ``lost`` (the
tracer then reports the loss and exits non-zero).  Small tracepoint programs
report signals, forks (``-f``: the child is added to ``pids`` before it runs),
exits with their status and execs.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R6, R7, R8, R9

# pt_regs (x86-64)
REG_AX, REG_CX, REG_DX, REG_SI, REG_DI, REG_R8, REG_R9, REG_IP, REG_SP = 80, 88, 96, 104, 112, 72, 64, 128, 152
ARG_REGS = (REG_DI, REG_SI, REG_DX, REG_CX, REG_R8, REG_R9)

# record types
T_ENTRY, T_RETURN, T_SIGNAL, T_FORK, T_EXIT, T_EXEC, T_DLSTOP, T_HELD = 1, 2, 3, 4, 5, 6, 7, 8
# Bits of the values in ``pids``: the launched command has PID_HOLDABLE (it is pyltrace's child, so a
# SIGSTOP of ours is seen by pyltrace only), and PID_LAUNCHING until its first exec.
PID_TRACED, PID_LAUNCHING, PID_HOLDABLE = 1, 2, 4
# record header: u32 type, u32 site, u64 pid_tgid, u64 ktime, u64 sp, u64 a, u64 b..(6 words), u16 lens[8]
HEAD = 104
LENS = 88
NSLOTS = 8
SLOT_STACK, SLOT_RET = 6, 7  # capture sources after the six argument registers: sp + 8, rax
MODE_STR, MODE_BYTES = 1, 2
SLOT_MAX = 4096  # bytes one capture may take
REC_MAX = 12288  # a record's captured bytes end here at most
SCRATCH = REC_MAX + SLOT_MAX
# site spec: u64 caller_lo, u64 caller_hi, u32 entry_total, u32 return_total, u64 entry[8], u64 ret[8]
SPEC_SIZE = 24 + 16 * NSLOTS
INFLIGHT_VALUE = 56  # u64 entry ns, u64 args[6]
STAT_VALUE = 16  # u64 calls, u64 ns


#: Call and USDT records are queued without waking the tracer (BPF_RB_NO_WAKEUP): the ring buffer's
#: default wakes a waiting reader through irq_work at each record it finds caught up, which cost
#: ~1.2 us per record here (each program 3-4x longer; measured with kernel.bpf_stats_enabled), and a
#: tracer that keeps up is always caught up.  The tracer polls every ebpf_run.POLL_MS instead; the
#: rare records it must act on at once (signals, forks, exits, execs, dlopen and backpressure stops)
#: still wake it (_small_record).
RB_NO_WAKEUP = 1


def slot_word(mode: int, size: int, offset: int) -> int:
    """One capture of a plan, as the programs read it: mode | size << 16 | offset << 32."""
    return mode | (size << 16) | (offset << 32)


@dataclass(frozen=True)
class Maps:
    pids: int
    spec: int
    inflight: int
    scratch: int
    events: int
    lost: int
    stats: int
    status: int
    held: int  # array[1] of u64: 1 while the command is stopped for backpressure
    high_water: int = 0  # ring buffer bytes above which the command stops itself (0: never)


_OUT = [A.label("out"), A.mov64_imm(R0, 0), A.exit_()]


def _lookup(map_fd: int, key_off: int, miss: str) -> list[A.Item]:
    return [A.ld_map_fd(R1, map_fd), A.mov64(R2, FP), A.alu64_imm("add", R2, key_off),
            A.call("map_lookup_elem"), A.jeq_imm(R0, 0, miss)]


def _traced(m: Maps, by_tid: bool) -> list[A.Item]:
    """r7 = pid_tgid; out unless the thread group (``by_tid``: the thread) is in ``pids``; the key at fp-4."""
    shift = [] if by_tid else [A.rsh64_imm(R0, 32)]
    return [A.call("get_current_pid_tgid"), A.mov64(R7, R0), *shift, A.stx(A.W, FP, -4, R0),
            *_lookup(m.pids, -4, "out")]


def _emit(m: Maps, size_reg: int, tag: str) -> list[A.Item]:
    """ringbuf_output(events, r9, size_reg, RB_NO_WAKEUP); a failure counts one lost record."""
    return [
        A.jmp_imm("jgt", size_reg, SCRATCH, f"lost_{tag}"),
        A.mov64(R3, size_reg),
        A.ld_map_fd(R1, m.events),
        A.mov64(R2, R9),
        A.mov64_imm(R4, RB_NO_WAKEUP),
        A.call("ringbuf_output"),
        A.jeq_imm(R0, 0, f"sent_{tag}"),
        A.label(f"lost_{tag}"),
        *_count_lost(m, tag),
        A.label(f"sent_{tag}"),
    ]


def _backpressure(m: Maps, by_tid: bool) -> list[A.Item]:
    """After a record: past the high-water mark, the launched command (PID_HOLDABLE: pyltrace's child,
    whose stops nobody else sees) stops itself -- once, the ``held`` flag exchanged atomically -- and a
    T_HELD record tells the tracer, which clears the flag and continues it once it has caught up.
    Clobbers r0-r5, r8, r9; needs r7 = pid_tgid."""
    if not m.high_water:
        return []
    key = [A.mov64(R1, R7)] if by_tid else [A.mov64(R1, R7), A.rsh64_imm(R1, 32)]
    return [
        A.ld_map_fd(R1, m.events), A.mov64_imm(R2, 0), A.call("ringbuf_query"),  # BPF_RB_AVAIL_DATA
        A.jmp_imm("jle", R0, m.high_water, "bp_done"),
        *key, A.stx(A.W, FP, -4, R1),
        *_lookup(m.pids, -4, "bp_done"),
        A.ldx(A.W, R1, R0, 0), A.jmp_imm("jset", R1, PID_HOLDABLE, "bp_holdable"), A.ja("bp_done"),
        A.label("bp_holdable"),
        A.st_imm(A.W, FP, -4, 0),
        *_lookup(m.held, -4, "bp_done"),
        A.mov64_imm(R1, 1), A.atomic_xchg64(R0, 0, R1), A.jne_imm(R1, 0, "bp_done"),
        # the signal first: the tracer's SIGCONT, sent on the record, must come after it
        A.mov64_imm(R1, 19), A.call("send_signal"),
        *_small_record(m, T_HELD, [A.mov64_imm(R8, 0)], "h"),
        A.label("bp_done"),
    ]


_LOST_SLOT = {"e": 1, "r": 2, "b": 3, "s": 4, "f": 5, "x": 6, "d": 7, "h": 8, "u": 9}  # u: USDT (ebpf_usdt.py)


def _count_lost(m: Maps, tag: str) -> list[A.Item]:
    """lost[slot of the record kind] += 1 (the tracer sums them; per kind for diagnosis)."""
    return [A.st_imm(A.W, FP, -40, _LOST_SLOT.get(tag, 0)), A.ld_map_fd(R1, m.lost), A.mov64(R2, FP), A.alu64_imm("add", R2, -40),
            A.call("map_lookup_elem"), A.jeq_imm(R0, 0, f"nolost_{tag}"), A.mov64_imm(R1, 1),
            A.atomic_add64(R0, 0, R1), A.label(f"nolost_{tag}")]


def _capture(slot: int, spec_off: int, load_src: list[A.Item], tag: str) -> list[A.Item]:
    """Copy one capture of the plan (the slot word at r8 + spec_off) from the address ``load_src`` puts in r3."""
    nxt = f"next_{tag}"
    return [
        A.ldx(A.DW, R1, R8, spec_off),
        A.jeq_imm(R1, 0, nxt),
        A.stx(A.DW, FP, -112, R1),
        *load_src,  # r3 = source address
        A.ldx(A.DW, R1, FP, -112),
        A.mov64(R2, R1), A.rsh64_imm(R2, 16), A.alu64_imm("and", R2, 0xFFFF),
        A.jmp_imm("jgt", R2, SLOT_MAX, nxt),
        A.jeq_imm(R2, 0, nxt),
        A.mov64(R4, R1), A.rsh64_imm(R4, 32), A.alu64_imm("and", R4, 0xFFFF),
        A.jmp_imm("jgt", R4, REC_MAX, nxt),
        A.alu64_imm("and", R1, 0xFF),
        A.stx(A.DW, FP, -120, R2),
        A.mov64(R0, R1),
        A.mov64(R1, R9), A.alu64("add", R1, R4),
        A.jeq_imm(R0, MODE_STR, f"str_{tag}"),
        A.call("probe_read_user"),
        A.jne_imm(R0, 0, nxt),
        A.ldx(A.DW, R0, FP, -120),
        A.ja(f"len_{tag}"),
        A.label(f"str_{tag}"),
        A.call("probe_read_user_str"),
        A.jmp_imm("jsle", R0, 0, nxt),
        A.label(f"len_{tag}"),
        A.stx(A.H, R9, LENS + 2 * slot, R0),
        A.label(nxt),
    ]


def call_entry(m: Maps, counting: bool, by_tid: bool) -> A.Program:
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid)])
    p += [
        A.mov64(R1, R6), A.call("get_attach_cookie"), A.stx(A.W, FP, -8, R0),
        *_lookup(m.spec, -8, "out"),
        A.mov64(R8, R0),
        # -fno-plt sites: only calls whose return address lies in the calling object
        A.ldx(A.DW, R1, R8, 0),
        A.jeq_imm(R1, 0, "any_caller"),
        A.mov64(R1, FP), A.alu64_imm("add", R1, -16), A.mov64_imm(R2, 8), A.ldx(A.DW, R3, R6, REG_SP),
        A.call("probe_read_user"),
        A.jne_imm(R0, 0, "out"),
        A.ldx(A.DW, R1, FP, -16),
        A.ldx(A.DW, R2, R8, 0), A.jmp_reg("jlt", R1, R2, "out"),
        A.ldx(A.DW, R2, R8, 8), A.jmp_reg("jge", R1, R2, "out"),
        A.label("any_caller"),
        # inflight[(tid, site, sp)] = (entry ns, args)
        A.stx(A.W, FP, -32, R7), A.ldx(A.W, R1, FP, -8), A.stx(A.W, FP, -28, R1),
        A.ldx(A.DW, R1, R6, REG_SP), A.stx(A.DW, FP, -24, R1),
        A.call("ktime_get_ns"), A.stx(A.DW, FP, -96, R0),
    ]
    for i, off in enumerate(ARG_REGS):
        p += [A.ldx(A.DW, R1, R6, off), A.stx(A.DW, FP, -88 + 8 * i, R1)]
    p += [A.ld_map_fd(R1, m.inflight), A.mov64(R2, FP), A.alu64_imm("add", R2, -32), A.mov64(R3, FP),
          A.alu64_imm("add", R3, -96), A.mov64_imm(R4, 0), A.call("map_update_elem")]
    if counting:
        p += _OUT
        return p
    p += [
        A.st_imm(A.W, FP, -36, 0),
        *_lookup(m.scratch, -36, "out"),
        A.mov64(R9, R0),
        A.st_imm(A.W, R9, 0, T_ENTRY), A.ldx(A.W, R1, FP, -8), A.stx(A.W, R9, 4, R1),
        A.stx(A.DW, R9, 8, R7), A.ldx(A.DW, R1, FP, -96), A.stx(A.DW, R9, 16, R1),
        A.ldx(A.DW, R1, R6, REG_SP), A.stx(A.DW, R9, 24, R1),
        A.mov64(R1, R9), A.alu64_imm("add", R1, 32), A.mov64_imm(R2, 8), A.ldx(A.DW, R3, R6, REG_SP),
        A.call("probe_read_user"),
    ]
    for i, off in enumerate(ARG_REGS):
        p += [A.ldx(A.DW, R1, R6, off), A.stx(A.DW, R9, 40 + 8 * i, R1)]
    p += [A.st_imm(A.DW, R9, LENS, 0), A.st_imm(A.DW, R9, LENS + 8, 0)]
    for i, off in enumerate(ARG_REGS):
        p += _capture(i, 24 + 8 * i, [A.ldx(A.DW, R3, R6, off)], f"e{i}")
    p += _capture(SLOT_STACK, 24 + 8 * SLOT_STACK,
                  [A.ldx(A.DW, R3, R6, REG_SP), A.alu64_imm("add", R3, 8)], "estack")
    p += [A.ldx(A.W, R6, R8, 16), *_emit(m, R6, "e"), *_backpressure(m, by_tid), *_OUT]
    return p


def _return_head(*word48: A.Item) -> list[A.Item]:
    """A return record's head in the scratch value (r9): kind, site (fp-8), pid_tgid (r7), time, the
    stack pointer, rax and rdx at the return, then ``word48`` (what fills offset 48), no lengths yet."""
    return [
        A.st_imm(A.W, R9, 0, T_RETURN), A.ldx(A.W, R1, FP, -8), A.stx(A.W, R9, 4, R1),
        A.stx(A.DW, R9, 8, R7), A.call("ktime_get_ns"), A.stx(A.DW, R9, 16, R0),
        A.ldx(A.DW, R1, R6, REG_SP), A.stx(A.DW, R9, 24, R1),
        A.ldx(A.DW, R1, R6, REG_AX), A.stx(A.DW, R9, 32, R1),
        A.ldx(A.DW, R1, R6, REG_DX), A.stx(A.DW, R9, 40, R1),
        *word48,
        A.st_imm(A.DW, R9, LENS, 0), A.st_imm(A.DW, R9, LENS + 8, 0),
    ]


def call_return(m: Maps, counting: bool, bare: bool = False, by_tid: bool = True) -> A.Program:
    """``bare`` (-f): a return with no entry of this thread's (a fork child returning from a call its
    parent entered) is still reported, without captures, when the process is traced."""
    p = A.Program([
        A.mov64(R6, R1),
        A.call("get_current_pid_tgid"), A.mov64(R7, R0),
        A.mov64(R1, R6), A.call("get_attach_cookie"), A.stx(A.W, FP, -8, R0),
        A.stx(A.W, FP, -32, R7), A.stx(A.W, FP, -28, R0),
        A.ldx(A.DW, R1, R6, REG_SP), A.alu64_imm("add", R1, -8), A.stx(A.DW, FP, -24, R1),
        *_lookup(m.inflight, -32, "bare" if bare and not counting else "out"),
    ])
    for i in range(INFLIGHT_VALUE // 8):  # copied out: the entry is deleted right away
        p += [A.ldx(A.DW, R1, R0, 8 * i), A.stx(A.DW, FP, -96 + 8 * i, R1)]
    p += [A.ld_map_fd(R1, m.inflight), A.mov64(R2, FP), A.alu64_imm("add", R2, -32), A.call("map_delete_elem")]
    if counting:
        p += [
            A.call("ktime_get_ns"), A.ldx(A.DW, R1, FP, -96), A.alu64("sub", R0, R1), A.mov64(R8, R0),
            *_lookup(m.stats, -8, "out"),
            A.mov64_imm(R1, 1), A.atomic_add64(R0, 0, R1), A.atomic_add64(R0, 8, R8),
            *_OUT,
        ]
        return p
    p += [
        *_lookup(m.spec, -8, "out"),
        A.mov64(R8, R0),
        A.st_imm(A.W, FP, -36, 0),
        *_lookup(m.scratch, -36, "out"),
        A.mov64(R9, R0),
        *_return_head(A.ldx(A.DW, R1, FP, -96), A.stx(A.DW, R9, 48, R1)),
    ]
    base = 24 + 8 * NSLOTS
    for i in range(6):
        p += _capture(i, base + 8 * i, [A.ldx(A.DW, R3, FP, -88 + 8 * i)], f"r{i}")
    p += _capture(SLOT_RET, base + 8 * SLOT_RET, [A.ldx(A.DW, R3, R6, REG_AX)], "rret")
    p += [A.ldx(A.W, R6, R8, 20), *_emit(m, R6, "r"), *_backpressure(m, by_tid), *_OUT]
    if bare and not counting:
        p += [
            A.label("bare"),
            A.mov64(R0, R7), A.rsh64_imm(R0, 32), A.stx(A.W, FP, -4, R0),
            *_lookup(m.pids, -4, "bare_out"),
            A.st_imm(A.W, FP, -36, 0),
            *_lookup(m.scratch, -36, "bare_out"),
            A.mov64(R9, R0),
            *_return_head(A.st_imm(A.DW, R9, 48, 0)),
            A.mov64_imm(R6, HEAD), *_emit(m, R6, "b"),
            A.label("bare_out"), A.mov64_imm(R0, 0), A.exit_(),
        ]
    return p


def _small_record(m: Maps, rtype: int, a_items: list[A.Item], tag: str) -> list[A.Item]:
    """A 40-byte record on the stack at fp-80: type, pid_tgid (r7), time, a (r8 after ``a_items``)."""
    return [
        *a_items,
        A.st_imm(A.DW, FP, -80, rtype), A.stx(A.DW, FP, -72, R7),
        A.call("ktime_get_ns"), A.stx(A.DW, FP, -64, R0),
        A.st_imm(A.DW, FP, -56, 0), A.stx(A.DW, FP, -48, R8),
        A.ld_map_fd(R1, m.events), A.mov64(R2, FP), A.alu64_imm("add", R2, -80), A.mov64_imm(R3, 40),
        A.mov64_imm(R4, 0), A.call("ringbuf_output"),
        A.jeq_imm(R0, 0, f"sent_{tag}"),
        *_count_lost(m, tag),
        A.label(f"sent_{tag}"),
    ]


def signal_deliver(m: Maps, sig_off: int, by_tid: bool) -> A.Program:
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid)])
    p += _small_record(m, T_SIGNAL, [A.ldx(A.W, R8, R6, sig_off)], "s")
    p += _OUT
    return p


def signal_ignored(m: Maps, sig_off: int, pid_off: int, result_off: int) -> A.Program:
    """signal_generate with result TRACE_SIGNAL_IGNORED for a traced process: the kernel drops such a
    signal (SIGCHLD by default) without delivering it, where a ptrace tracer is shown it; reported as
    if delivered, in the name of its target."""
    p = A.Program([
        A.mov64(R6, R1),
        A.ldx(A.W, R1, R6, result_off), A.jne_imm(R1, 1, "out"),
        A.ldx(A.W, R1, R6, pid_off), A.stx(A.W, FP, -4, R1),
        *_lookup(m.pids, -4, "out"),
        A.ldx(A.W, R7, FP, -4), A.mov64(R1, R7), A.alu64_imm("lsh", R1, 32), A.alu64("or", R7, R1),
    ])
    p += _small_record(m, T_SIGNAL, [A.ldx(A.W, R8, R6, sig_off)], "s")
    p += _OUT
    return p


def fork(m: Maps, child_off: int, follow: bool, by_tid: bool) -> A.Program:
    """sched_process_fork of a traced process: with -f the child is traced before it runs."""
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid), A.ldx(A.W, R8, R6, child_off)])
    if follow:
        p += [A.stx(A.W, FP, -8, R8), A.st_imm(A.W, FP, -12, 1),
              A.ld_map_fd(R1, m.pids), A.mov64(R2, FP), A.alu64_imm("add", R2, -8), A.mov64(R3, FP),
              A.alu64_imm("add", R3, -12), A.mov64_imm(R4, 1), A.call("map_update_elem")]  # BPF_NOEXIST
    p += _small_record(m, T_FORK, [], "f")
    p += _OUT
    return p


def exit_status(m: Maps, code_off: int, whole_group: bool, by_tid: bool) -> A.Program:
    """sys_enter_exit(_group): remember the status (keyed by tgid for exit_group, else tid)."""
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid)])
    if not whole_group:
        p += [A.stx(A.W, FP, -4, R7)]
    p += [A.ldx(A.DW, R1, R6, code_off), A.alu64_imm("and", R1, 0xFF), A.alu64_imm("or", R1, 0x100),
          A.stx(A.DW, FP, -16, R1),
          A.ld_map_fd(R1, m.status), A.mov64(R2, FP), A.alu64_imm("add", R2, -4), A.mov64(R3, FP),
          A.alu64_imm("add", R3, -16), A.mov64_imm(R4, 0), A.call("map_update_elem"), *_OUT]
    return p


def process_exit(m: Maps, by_tid: bool) -> A.Program:
    """sched_process_exit of a traced thread: its status (0x100 | code from exit/exit_group, 0 if none)."""
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid), A.mov64_imm(R8, 0),
                   A.stx(A.W, FP, -8, R7),
                   A.ld_map_fd(R1, m.status), A.mov64(R2, FP), A.alu64_imm("add", R2, -8),
                   A.call("map_lookup_elem"), A.jne_imm(R0, 0, "found"),
                   *_lookup(m.status, -4, "report"),
                   A.label("found"), A.ldx(A.DW, R8, R0, 0),
                   A.label("report")])
    p += _small_record(m, T_EXIT, [], "x")
    p += _OUT
    return p


def process_exec(m: Maps, by_tid: bool) -> A.Program:
    """sched_process_exec of a traced process: a T_EXEC record, and for the launched command SIGSTOP, so
    that the tracer can hold the new program at its entry point and probe it as at start-up (another
    process's parent would see such a stop: its new program is not probed).  The command's own first
    exec (its pids entry still has PID_LAUNCHING) only clears that bit."""
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid), A.mov64_imm(R8, 0),
                   A.ldx(A.W, R1, R0, 0), A.jmp_imm("jset", R1, PID_LAUNCHING, "launching"),
                   A.mov64(R9, R1), A.alu64_imm("and", R9, PID_HOLDABLE), A.mov64(R8, R9)])
    p += _small_record(m, T_EXEC, [], "x")  # (a = whether the process stops itself)
    p += [A.jeq_imm(R9, 0, "out"), A.mov64_imm(R1, 19), A.call("send_signal"), *_OUT,
          A.label("launching"), A.alu64_imm("and", R1, ~PID_LAUNCHING & 0xFF), A.stx(A.W, R0, 0, R1),
          A.mov64_imm(R0, 0), A.exit_()]
    return p


def stop_at_entry() -> A.Program:
    """The program's first instruction: SIGSTOP to itself, so that its libraries can be probed first."""
    return A.Program([A.mov64_imm(R1, 19), A.call("send_signal"), A.mov64_imm(R0, 0), A.exit_()])


def stop_at_dlopen(m: Maps, by_tid: bool) -> A.Program:
    """ld.so's r_brk in the launched command: a T_DLSTOP record, then SIGSTOP (the tracer probes what dlopen
    loaded, then sends SIGCONT).  Other processes are not stopped (their parent would see it)."""
    p = A.Program([A.mov64(R6, R1), *_traced(m, by_tid), A.mov64_imm(R8, 0),
                   A.ldx(A.W, R1, R0, 0), A.jmp_imm("jset", R1, PID_HOLDABLE, "holdable"), A.ja("out"),
                   A.label("holdable")])
    p += _small_record(m, T_DLSTOP, [], "d")
    p += [A.mov64_imm(R1, 19), A.call("send_signal"), *_OUT]
    return p
