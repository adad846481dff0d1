"""The per-event programs: a variable-length record per syscall entry and exit, holding what its plan copies.

Records (little endian), each one ring-buffer record of exactly the bytes used:

    header   u8 type | u8 flags | u16 nr | u32 tid | u64 kernel time (ns)
             (the time only when the run uses the calls' times, CaptureMaps.timed: -T, -C, JSON,
             the Python API; else the header is its first 8 bytes: 16 bytes less per call)
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
(unrolled; each slot position handles only the kinds some plan uses there), with the code of
capture_slots.py for each kind.

A region eBPF cannot read at entry (its page not faulted in yet: eBPF cannot take page faults)
gets the FLAG_RETRY flag and its slot's bit in the retry word: the exit program copies it again
(the syscall has faulted it in, and only read it), and user space prints the call once the exit
record has arrived.  execve's memory is gone by then: its path and argv strings are copied again
at sched_prepare_exec (PREPARED), after the kernel read them and before it drops the old image;
on kernels without that tracepoint (before 6.10) sched_process_exec's filename stands in for the
path (EXECPATH).
"""

from __future__ import annotations

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R6, R7, R8, R9
from pytrace.backends.ebpf.capture_slots import (
    HEADER,
    REC,
    REC_MAX,
    REGION_HEAD,
    S_NARGS,
    S_ROW_FLAGS,
    SCR_ARGS,
    SCR_CUR,
    SCR_RET,
    SCR_RETRY,
    SCR_TMP,
    slots,
)
from pytrace.backends.ebpf.capture_table import (
    CHUNK,
    HAS_EXIT,
    K_CLONE,
    K_IOV,
    K_MMSG,
    K_MSGHDR,
    K_PTRLEN,
    K_SP,
    K_STRV,
    LIMIT,
    MAX_SLOTS,
    CaptureOptions,
    CaptureTable,
)
from pytrace.backends.ebpf.programs import _RETURN_0 as RETURN_0
from pytrace.backends.ebpf.programs import (
    COMM_LEN,
    MAX_SYSCALLS,
    NR_EXECVE,
    NR_EXECVEAT,
    NR_EXIT,
    NR_EXIT_GROUP,
    Layout,
    SystemScope,
    Throttle,
    throttle,
)
from pytrace.backends.ebpf.programs import _in_scope as in_scope
from pytrace.backends.ebpf.programs import _lookup as lookup
from pytrace.records import dataclass  # not dataclasses: start-up cost

T_ENTRY, T_EXIT, T_STATUS, T_GONE, T_EXECPATH, T_PREPARED = 1, 2, 3, 4, 5, 6
BPF_RB_NO_WAKEUP = 1  # bpf_ringbuf_output's flag: no wake-up of a consumer sleeping in poll
#: In the retry word kept in flight (slot bits below MAX_SLOTS, the syscall number from bit 32):
#: the entry record could not be written, so the exit program writes none (a call is lost once).
RETRY_LOST = 1 << 30
assert MAX_SLOTS < 30
EXIT_HEAD = HEADER + 8
INFLIGHT_VALUE = 56  # args[6] and the retry word


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
    threads: bool = False  # some -p names a single thread: match thread ids too (see programs._traced_tgid)
    system: SystemScope | None = None  # system-wide mode: every record ends with the task's name (COMM_LEN bytes)
    throttle: Throttle | None = None  # backpressure (seized threads only); None: never
    #: Records wake no consumer (BPF_RB_NO_WAKEUP): with backpressure, whose stops wake it (SIGCHLD).
    quiet: bool = False
    #: Records carry the kernel time (-T, -C, JSON, the Python API use it).  Without it the header
    #: is 8 bytes and no bpf_ktime_get_ns is called: the ring holds more calls (see _output).
    timed: bool = True

    def with_throttle(self, throttle: Throttle) -> CaptureMaps:
        """A copy with backpressure (``dataclasses.replace`` without importing dataclasses)."""
        return CaptureMaps(self.pids, self.traced, self.entry_plan, self.exit_plan, self.scratch, self.inflight,
                           self.events, self.lost, self.threads, self.system, throttle, self.quiet, self.timed)


#: Kinds the exit program does not copy again when the entry could not: execve's vectors (the old
#: image is gone by then: sched_prepare_exec copies them), the loops of iovecs and messages (each
#: loop costs the verifier its iterations again; an unreadable vector prints as an address), the
#: stack pointer's memory (the exit's stack pointer is another) and the structures read through a
#: pointer copied at entry.
_NO_RETRY = frozenset((K_STRV, K_IOV, K_MSGHDR, K_MMSG, K_CLONE, K_SP, K_PTRLEN))


def _scratch(m: CaptureMaps, miss: str) -> list[A.Item]:
    """r9 = this CPU's scratch value."""
    return [A.call("get_smp_processor_id"), A.stx(A.W, FP, -16, R0), *lookup(m.scratch, -16, miss), A.mov64(R9, R0)]


def _header(m: CaptureMaps, kind: int, tid_reg: int, nr_reg: int) -> list[A.Item]:
    """The record's header in scratch: always 16 bytes there (the regions' offsets do not change);
    without ``m.timed`` the time is not taken and ``_output`` sends the first 8 bytes in its place."""
    time = [A.call("ktime_get_ns"), A.stx(A.DW, R9, REC + 8, R0)] if m.timed else []
    return [
        A.st_imm(A.B, R9, REC, kind), A.st_imm(A.B, R9, REC + 1, 0), A.stx(A.H, R9, REC + 2, nr_reg),
        A.stx(A.W, R9, REC + 4, tid_reg), *time,
    ]


def _output(m: CaptureMaps, tag: str) -> list[A.Item]:
    """Send the record in scratch (cursor bytes); count a loss when the ring buffer is full.

    System-wide, the task's name (COMM_LEN bytes, at this moment: a process's changes at its exec)
    is appended to every record first; user space takes it off the end (systemwide.noting_comms).
    """
    comm: list[A.Item] = []
    if m.system is not None:
        comm = [
            A.mov64(R1, R9), A.alu64("add", R1, R3), A.alu64_imm("add", R1, REC), A.mov64_imm(R2, COMM_LEN),
            A.call("get_current_comm"),
            A.ldx(A.DW, R3, R9, SCR_CUR),  # again, and bounded again: the helper call clobbered r3
            A.jmp_imm("jgt", R3, REC_MAX, f"toolong_{tag}"),
            A.alu64_imm("add", R3, COMM_LEN),
        ]
    start = [A.mov64(R2, R9), A.alu64_imm("add", R2, REC)]
    if not m.timed:  # the header's 8 bytes (flags final by now) over the time's: the record starts there
        start = [
            A.jmp_imm("jlt", R3, HEADER, f"toolong_{tag}"),  # never (a record holds its header); for the verifier
            A.ldx(A.DW, R1, R9, REC), A.stx(A.DW, R9, REC + 8, R1),
            A.mov64(R2, R9), A.alu64_imm("add", R2, REC + 8), A.alu64_imm("sub", R3, 8),
        ]
    return [
        A.ldx(A.DW, R3, R9, SCR_CUR),
        A.jmp_imm("jgt", R3, REC_MAX, f"toolong_{tag}"),
        *comm,
        *start,
        A.ld_map_fd(R1, m.events),
        A.mov64_imm(R4, BPF_RB_NO_WAKEUP if m.quiet else 0),
        A.call("ringbuf_output"),
        A.ja(f"sent_{tag}"),
        A.label(f"toolong_{tag}"),  # never expected (the slots stop at LIMIT), but a record not sent is lost
        A.mov64_imm(R0, 1),
        A.label(f"sent_{tag}"),
        A.stx(A.DW, R9, SCR_TMP, R0),  # the outcome, for capture_enter (0: sent)
        *_count_loss(m, f"counted_{tag}"),
        A.label(f"counted_{tag}"),
    ]


def _count_loss(m: CaptureMaps, done: str) -> list[A.Item]:
    """After a ringbuf_output: r0 != 0 means the record was dropped; add one to the per-CPU loss counter."""
    return [
        A.jeq_imm(R0, 0, done),
        A.st_imm(A.W, FP, -12, 0),
        *lookup(m.lost, -12, done),
        A.ldx(A.DW, R1, R0, 0),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 0, R1),
    ]


def capture_enter(layout: Layout, m: CaptureMaps, table: CaptureTable, opts: CaptureOptions,
                  args_off: int) -> A.Program:
    p = A.Program([A.mov64(R6, R1)])
    p += in_scope(m.pids, "out", m.threads, m.system, layout.enter_id)
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
        *_header(m, T_STATUS, R7, R8),
        A.ldx(A.DW, R1, R6, args_off),
        A.stx(A.DW, R9, REC + HEADER, R1),
        A.st_imm(A.DW, R9, SCR_CUR, HEADER + 8),
        *_output(m, "status"),
        A.ja("out"),
        A.label("traced"),
        A.stx(A.DW, FP, S_NARGS, R1),  # the traced map holds 1 + the syscall's argument count
        *_scratch(m, "out"),
        *_header(m, T_ENTRY, R7, R8),
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
        *slots(table, "entry", "e", "emit", opts),
        A.label("emit"),
        *_output(m, "entry"),
        # An entry record lost (counted): its call is lost, so its exit record is not written either
        # (one loss per call, see RETRY_LOST); exit and exit_group have no exit.
        A.ldx(A.DW, R1, R9, SCR_TMP),
        A.jeq_imm(R1, 0, "entry_sent"),
        A.ldx(A.H, R1, R9, REC + 2),
        A.jeq_imm(R1, NR_EXIT, "out"),
        A.jeq_imm(R1, NR_EXIT_GROUP, "out"),
        A.ldx(A.DW, R1, R9, SCR_RETRY),
        A.alu64_imm("or", R1, RETRY_LOST),
        A.stx(A.DW, R9, SCR_RETRY, R1),
        A.ja("keep"),
        A.label("entry_sent"),
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
    p += in_scope(m.pids, "out", m.threads, m.system)
    p += [
        A.ldx(A.DW, R8, R6, layout.exit_id),
        A.jmp_imm("jlt", R8, MAX_SYSCALLS, "numbered"),
        # rt_sigreturn restores the registers, orig_ax included, which the kernel then sets to -1:
        # its exit has no number.  A bare exit record: user space ends the thread's call in flight.
        A.jne_imm(R8, -1, "out"),
        *_scratch(m, "out"),
        *_header(m, T_EXIT, R7, R8),
        A.ldx(A.DW, R1, R6, layout.exit_ret),
        A.stx(A.DW, R9, REC + HEADER, R1),
        A.st_imm(A.DW, R9, SCR_CUR, EXIT_HEAD),
        *_output(m, "bare"),
        A.ja("done"),
        A.label("numbered"),
        A.stx(A.W, FP, -8, R8),
        *lookup(m.traced, -8, "out"),
        A.ldx(A.B, R1, R0, 0),
        A.jeq_imm(R1, 0, "out"),
        *_scratch(m, "out"),
        *_header(m, T_EXIT, R7, R8),
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
        A.jmp_imm("jset", R1, RETRY_LOST, "done"),  # its entry record was lost: the call is counted already
        A.ldx(A.DW, R1, R9, SCR_RETRY),
        A.alu64_imm("and", R1, (1 << MAX_SLOTS) - 1),
        A.jeq_imm(R1, 0, "copy"),
        A.ldx(A.H, R1, R9, REC + 2),
        A.jeq_imm(R1, NR_EXECVE, "copy"),  # the old image is gone: sched_process_exec's path instead
        A.jeq_imm(R1, NR_EXECVEAT, "copy"),
        *lookup(m.entry_plan, -8, "copy"),
        A.mov64(R8, R0),
        *slots(table, "entry", "r", "copy", opts, skip=_NO_RETRY),
        A.label("copy"),
        *lookup(m.exit_plan, -8, "emit"),
        A.mov64(R8, R0),
        *slots(table, "exit", "x", "emit", opts),
        A.label("emit"),
        *_output(m, "exit"),
        A.label("done"),
        # Backpressure last, once this call's records are written (programs.throttle).
        *throttle(m.throttle),
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
    p += in_scope(m.pids, "out", m.threads, m.system)
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
        *_header(m, T_PREPARED, R7, R8),
        A.st_imm(A.DW, R9, SCR_CUR, HEADER),
        *lookup(m.entry_plan, -8, "out"),
        A.mov64(R8, R0),
        *slots(table, "entry", "p", "emit", opts, skip=_PREPARE_SKIP),
        A.label("emit"),
        *_output(m, "prepared"),
        *RETURN_0,
    ]
    return p


def thread_gone(m: CaptureMaps) -> A.Program:
    """sched_process_exit of a traced thread: a GONE record."""
    p = A.Program([A.mov64(R6, R1)])
    p += in_scope(m.pids, "out", m.threads, m.system)
    p += [
        *_scratch(m, "out"),
        A.mov64_imm(R8, 0),
        *_header(m, T_GONE, R7, R8),
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
        *in_scope(m.pids, "out", m.threads, m.system),
        *_scratch(m, "out"),
        A.ldx(A.W, R8, R6, filename_off),
        A.alu64_imm("and", R8, 0xFFFF),
        A.jmp_imm("jge", R8, 4096, "out"),
        A.mov64(R1, R9), A.alu64_imm("add", R1, tmp), A.mov64_imm(R2, 4096), A.mov64(R3, R6),
        A.call("probe_read_kernel"),
        A.jne_imm(R0, 0, "out"),
        A.mov64_imm(R1, 0),
        *_header(m, T_EXECPATH, R7, R1),
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
