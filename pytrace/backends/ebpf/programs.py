"""The eBPF programs pytrace loads, written with ``asm``.

Scoping: ``pids`` is a hash of the thread-group ids being traced.  The
launcher adds the command's pid while it is still stopped before execve, so
not one of its syscalls is missed; with ``-f`` the ``sched_process_fork``
program adds every child of a traced process in the kernel, before the child
can run.

Counting (``-c``): at sys_enter the entry time and syscall number are stored
per thread; at sys_exit the latency is added to a per-CPU array slot indexed
by syscall number (count, errors, nanoseconds) -- no event ever reaches user
space, which is why this path costs a fraction of a microsecond per syscall.
"""

from __future__ import annotations

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R6, R7, R8, R9
from pytrace.backends.ebpf.bpf import tracepoint_fields
from pytrace.records import dataclass  # not dataclasses: start-up cost

MAX_SYSCALLS = 512  # array slots; x86_64 numbers stay below this
STAT_VALUE = 40  # u64 calls, errors, nanoseconds, min ns (0 = none yet), max ns
HIST_SLOTS = 64  # --histogram: u64 counts in bpftrace's log2 slots follow the stats (sinks/histogram.py)
START_VALUE = 24  # -c's per-thread slot (Slots): u32 owner thread id (+ padding), u64 syscall number, u64 entry time


@dataclass(frozen=True)
class Layout:
    """Offsets of the tracepoint fields we read, taken from tracefs at run time."""

    enter_id: int
    exit_id: int
    exit_ret: int
    fork_child: int

    @classmethod
    def from_tracefs(cls) -> Layout:
        enter = tracepoint_fields("raw_syscalls", "sys_enter")
        exit_ = tracepoint_fields("raw_syscalls", "sys_exit")
        fork = tracepoint_fields("sched", "sched_process_fork")
        return cls(enter["id"][0], exit_["id"][0], exit_["ret"][0], fork["child_pid"][0])


def _lookup(map_fd: int, key_off: int, miss: str | None = None) -> list[A.Item]:
    """r0 = &map[key at fp+key_off]; jump to ``miss`` when there is no such entry."""
    items: list[A.Item] = [A.ld_map_fd(R1, map_fd), A.mov64(R2, FP), A.alu64_imm("add", R2, key_off),
                           A.call("map_lookup_elem")]
    if miss is not None:
        items.append(A.jeq_imm(R0, 0, miss))
    return items


def _update(map_fd: int, key_off: int, value_off: int) -> list[A.Item]:
    """r0 = bpf_map_update_elem(map, fp+key_off, fp+value_off, BPF_ANY): 0, or a negative errno."""
    return [A.ld_map_fd(R1, map_fd), A.mov64(R2, FP), A.alu64_imm("add", R2, key_off), A.mov64(R3, FP),
            A.alu64_imm("add", R3, value_off), A.mov64_imm(R4, 0), A.call("map_update_elem")]


def _delete(map_fd: int, key_off: int) -> list[A.Item]:
    return [A.ld_map_fd(R1, map_fd), A.mov64(R2, FP), A.alu64_imm("add", R2, key_off), A.call("map_delete_elem")]


# Every program ends here: "out" is where they jump when the event is not theirs.
_RETURN_0: list[A.Item] = [A.label("out"), A.mov64_imm(R0, 0), A.exit_()]


def _read_user_str(dst_off: int, size: int, bail: str) -> list[A.Item]:
    """r0 = bpf_probe_read_user_str(r9 + dst_off, size, r3); jump to ``bail`` unless it copied something."""
    return [A.mov64(R1, R9), A.alu64_imm("add", R1, dst_off), A.mov64_imm(R2, size),
            A.call("probe_read_user_str"), A.jmp_imm("jsle", R0, 0, bail)]


#: Values in the pids map (bits): a whole thread group, or (``-p TID`` / the command without
#: ``-f``) that one thread; PID_PENDING_EXEC marks the launched command until its execve, so that
#: what the launcher's child does between its SIGSTOP and execve is never traced (strace too
#: shows a command from its execve on).
PID_GROUP, PID_THREAD, PID_PENDING_EXEC = 1, 2, 4
#: The entry's threads are PTRACE_SEIZEd by pytrace (see seize.py): only these may be stopped for
#: backpressure, since only a tracer can swallow the stop.  A -f child inherits it from its parent
#: (PTRACE_O_TRACEFORK/CLONE attach it before sched_process_fork runs).
PID_SEIZED = 8
SIGSTOP, SIGURG = 19, 23
BPF_RB_AVAIL_DATA = 0
NR_EXECVE, NR_EXECVEAT = 59, 322


def _traced_tgid(pids_fd: int, miss: str, threads: bool = False, enter_id: int | None = None) -> list[A.Item]:
    """r7 = pid_tgid; jump to ``miss`` unless current's tgid is in the pids map.

    With ``threads`` (single threads traced, see PID_THREAD) a tgid entry counts only if it
    has PID_GROUP, and the thread id is looked up too; without it, untraced processes pay for
    one lookup, not two.  ``enter_id`` (sys_enter programs: the syscall number's offset in the
    context, r6): an entry still PID_PENDING_EXEC is a miss except for execve/execveat (the bit
    is cleared when one succeeds, see exec_done).
    """
    items = [
        A.call("get_current_pid_tgid"),
        A.mov64(R7, R0),
        A.rsh64_imm(R0, 32),
        A.stx(A.W, FP, -4, R0),
    ]
    hit = f"{miss}_traced"
    if not threads:
        items += _lookup(pids_fd, -4, miss)
    else:
        by_tid = f"{miss}_by_tid"
        items += [
            *_lookup(pids_fd, -4, by_tid),
            A.ldx(A.B, R1, R0, 0),
            A.jmp_imm("jset", R1, PID_GROUP, hit),
            A.label(by_tid),
            A.stx(A.W, FP, -4, R7),  # the low half of pid_tgid: the thread id
            *_lookup(pids_fd, -4, miss),
        ]
    items.append(A.label(hit))
    if enter_id is None:
        return items
    ready = f"{miss}_ready"
    return [
        *items,
        A.ldx(A.B, R1, R0, 0),
        A.jmp_imm("jset", R1, PID_PENDING_EXEC, f"{miss}_pending"),
        A.ja(ready),
        A.label(f"{miss}_pending"),
        A.ldx(A.DW, R2, R6, enter_id),
        A.jeq_imm(R2, NR_EXECVE, ready),
        A.jeq_imm(R2, NR_EXECVEAT, ready),
        A.ja(miss),
        A.label(ready),
    ]


@dataclass(frozen=True)
class SystemScope:
    """System-wide mode (no command, no -p): every process but pytrace itself, or those whose
    command name is a key of ``comms`` (--comm; 16-byte NUL-padded names, as bpf_get_current_comm
    writes them)."""

    self_tgid: int
    comms: int | None = None  # map fd, or None: no name filter


COMM_LEN = 16
# The stack slot of the name read for --comm: below every slot the capture programs use (down to
# capture_slots.S_MSG_ARR, -96), though the name is only needed for the lookup at the start.
_COMM_OFF = -112


def _in_scope(pids_fd: int, miss: str, threads: bool, system: SystemScope | None,
              enter_id: int | None = None) -> list[A.Item]:
    """r7 = pid_tgid; jump to ``miss`` unless the current task is traced: ``_traced_tgid``, or in
    system-wide mode any task but ours whose name passes --comm (checked in the kernel, so other
    processes cost one helper call and one lookup)."""
    if system is None:
        return _traced_tgid(pids_fd, miss, threads, enter_id)
    items: list[A.Item] = [
        A.call("get_current_pid_tgid"),
        A.mov64(R7, R0),
        A.rsh64_imm(R0, 32),
        A.jeq_imm(R0, system.self_tgid, miss),
    ]
    if system.comms is not None:
        items += [
            A.mov64(R1, FP),
            A.alu64_imm("add", R1, _COMM_OFF),
            A.mov64_imm(R2, COMM_LEN),
            A.call("get_current_comm"),
            *_lookup(system.comms, _COMM_OFF, miss),
        ]
    return items


def exec_done(pids_fd: int) -> A.Program:
    """sched_process_exec: a traced process's exec succeeded, so PID_PENDING_EXEC is cleared.

    Cleared on a *successful* exec, not at execve's entry: when the exec fails, what the
    launcher's child does next (its error message, exit_group) stays untraced, as strace shows
    only the failed execve.  A tracepoint of its own, so that it happens whatever -e selects.
    """
    p = A.Program([
        A.call("get_current_pid_tgid"),
        A.rsh64_imm(R0, 32),
        A.stx(A.W, FP, -4, R0),
        *_lookup(pids_fd, -4, "out"),
        A.ldx(A.B, R1, R0, 0),
        A.alu64_imm("and", R1, 0xFF & ~PID_PENDING_EXEC),
        A.stx(A.B, R0, 0, R1),
        *_RETURN_0,
    ])
    return p


#: Raw tracepoints (-c's programs, bpf.attach_raw_tracepoint) are called with the tracepoint's own
#: arguments as u64s: raw_syscalls' are (struct pt_regs *, long id) at sys_enter and
#: (struct pt_regs *, long ret) at sys_exit, so both read their second one; sched_process_fork's
#: are (parent, child) task pointers.
RAW_SYS_ARG1 = 8
BPF_LOCAL_STORAGE_GET_F_CREATE = 1


@dataclass(frozen=True)
class Slots:
    """Where -c keeps each traced thread's call under way (START_VALUE bytes: owner, number, entry time).

    ``table``: an array indexed by thread id & ``mask``.  An array lookup is inlined by the
    verifier, so a thread that owns its slot there pays one helper call (its id) to find it: the
    per-call cost is mostly helper calls (~20 ns each here, ktime ~55).  A slot is taken (compare-
    and-swap of its owner, 0 = free) at the thread's first traced call and given back when it
    exits (``forget_thread``).  A thread whose slot another live thread owns (ids equal modulo the
    table's size: only when pid_max is larger than the table) keeps its call in ``spill`` instead:
    a task storage map (Linux 5.11, with the kernel's BTF: found without hashing, freed with the
    task), or where there is none a hash keyed by thread id, which ``forget_thread`` empties too.
    """

    table: int
    mask: int
    spill: int
    task_storage: bool


# Offsets in a slot (START_VALUE): the owning thread id (u32; the table's only), the number, the time.
_OWNER, _NR, _TS = 0, 8, 16


def _own_slot(slots: Slots, miss: str) -> list[A.Item]:
    """r7 = pid_tgid, r9 = the table's slot for this thread id; jump to ``miss`` unless it is this thread's."""
    return [
        A.call("get_current_pid_tgid"),
        A.mov64(R7, R0),
        A.alu64_imm("and", R0, slots.mask),
        A.stx(A.W, FP, -4, R0),
        *_lookup(slots.table, -4, miss),
        A.mov64(R9, R0),
        A.ldx(A.W, R1, R9, _OWNER),
        A.mov64(R2, R7),
        A.alu64_imm("lsh", R2, 32),
        A.rsh64_imm(R2, 32),  # the thread id
        A.jmp_reg("jne", R1, R2, miss),
    ]


def _spill_slot(slots: Slots, miss: str, create: bool = False) -> list[A.Item]:
    """r0 = the current thread's slot in ``spill``; jump to ``miss`` when it has none (``create``: make it)."""
    if slots.task_storage:
        return [
            A.call("get_current_task_btf"),
            A.mov64(R2, R0),
            A.ld_map_fd(R1, slots.spill),
            A.mov64_imm(R3, 0),
            A.mov64_imm(R4, BPF_LOCAL_STORAGE_GET_F_CREATE if create else 0),
            A.call("task_storage_get"),
            A.jeq_imm(R0, 0, miss),
        ]
    items: list[A.Item] = [A.call("get_current_pid_tgid"), A.stx(A.W, FP, -8, R0)]
    if create:
        items += [
            *(A.st_imm(A.DW, FP, -32 + off, 0) for off in range(0, START_VALUE, 8)),
            *_update(slots.spill, -8, -32),
        ]
    return items + _lookup(slots.spill, -8, miss)


def _drop_spill(slots: Slots) -> list[A.Item]:
    """The current thread's ``spill`` slot deleted, if it has one."""
    if slots.task_storage:
        return [A.call("get_current_task_btf"), A.mov64(R2, R0), A.ld_map_fd(R1, slots.spill),
                A.call("task_storage_delete")]
    return [A.call("get_current_pid_tgid"), A.stx(A.W, FP, -8, R0), *_delete(slots.spill, -8)]


def count_enter(pids_fd: int, slots: Slots, threads: bool = False, system: SystemScope | None = None) -> A.Program:
    """sys_enter for -c (a raw tracepoint): the entry time and syscall number, in the thread's slot.

    A thread's slot is taken at its first traced call and kept while it lives, so a traced
    thread's call costs one helper call, an inlined lookup and a clock read, not a map update and
    a delete per call; owning a slot is also what makes a thread traced from then on (its scope
    was checked when it took it).  Not for execve: the exit program gives the slot back after an
    execve, so that the command's calls after a failed exec stay untraced, as PID_PENDING_EXEC
    wants (a successful exec takes it again).
    """
    def record(label: str) -> list[A.Item]:
        return [
            A.label(label),
            A.ldx(A.DW, R8, R6, RAW_SYS_ARG1),
            A.stx(A.DW, R9, _NR, R8),
            A.call("ktime_get_ns"),
            A.stx(A.DW, R9, _TS, R0),
            A.ja("out"),
        ]

    p = A.Program([A.mov64(R6, R1), *_own_slot(slots, "slot_new"), *record("owned"), A.label("slot_new")])
    p += _in_scope(pids_fd, "out", threads, system, RAW_SYS_ARG1)
    p += [
        A.mov64(R1, R7),
        A.alu64_imm("and", R1, slots.mask),
        A.stx(A.W, FP, -4, R1),
        *_lookup(slots.table, -4, "spill"),
        A.mov64(R9, R0),
        A.mov64_imm(R0, 0),  # free
        A.mov64(R1, R7),
        A.atomic_cmpxchg32(R9, _OWNER, R1),  # take it (r0 = its owner before)
        A.jeq_imm(R0, 0, "taken"),
        A.label("spill"),  # owned by a live thread whose id is ours modulo the table's size
        *_spill_slot(slots, "out", create=True),
        A.mov64(R9, R0),
        *record("spilled"),
        *record("taken"),
        *_RETURN_0,
    ]
    return p


def forget_thread(slots: Slots) -> A.Program:
    """sched_process_exit (every thread's exit): the thread's slot is given back, so that a thread
    id the kernel hands out again is not traced by inheritance (a task storage spill goes with
    the task)."""
    return A.Program([
        *_own_slot(slots, "table_done"),
        A.st_imm(A.DW, R9, _TS, 0),
        A.st_imm(A.W, R9, _OWNER, 0),  # last: once free, a new owner's entry time is its own
        A.label("table_done"),
        *([] if slots.task_storage else _drop_spill(slots)),
        *_RETURN_0,
    ])


def _log2_slot(dst: int, src: int, tmp: int) -> list[A.Item]:
    """dst = bpftrace's hist() slot of the unsigned value in src: bit_length(src) + 1, at most HIST_SLOTS - 1.

    A binary search over six shifts (32, 16, ..., 1): no loop, only forward jumps, so the verifier
    walks it once; the final clamp bounds the slot for the map-value access.  src is clobbered.
    """
    items: list[A.Item] = [A.mov64_imm(dst, 1)]
    for shift in (32, 16, 8, 4, 2, 1):
        items += [A.mov64(tmp, src), A.rsh64_imm(tmp, shift), A.jeq_imm(tmp, 0, f"log2_{shift}"),
                  A.mov64(src, tmp), A.alu64_imm("add", dst, shift), A.label(f"log2_{shift}")]
    items += [A.jeq_imm(src, 0, "log2_zero"), A.alu64_imm("add", dst, 1), A.label("log2_zero"),
              A.jmp_imm("jle", dst, HIST_SLOTS - 1, "log2_done"), A.mov64_imm(dst, HIST_SLOTS - 1),
              A.label("log2_done")]
    return items


def count_exit(slots: Slots, stats_fd: int, overhead_ns: int = 0, histogram: bool = False) -> A.Program:
    """sys_exit for -c (a raw tracepoint): the latency added to the per-CPU stats of its syscall number.

    The thread's slot (see count_enter) holds the entry time, zeroed here once used: a thread
    with no call under way (a new child's first return from fork, a thread attached inside a
    call) has 0 there and is not counted.

    With ``histogram`` the stats value is followed by HIST_SLOTS counters and the latency's
    log2 slot is incremented as well (same lookup, no other map).
    """
    hist: list[A.Item] = []
    if histogram:
        hist = [
            A.mov64(R9, R0),  # the stats value (r9, the syscall number, is not needed any more)
            A.mov64(R3, R8),
            *_log2_slot(R2, R3, R4),
            A.alu64_imm("lsh", R2, 3),
            A.alu64("add", R2, R9),
            A.ldx(A.DW, R1, R2, STAT_VALUE),
            A.alu64_imm("add", R1, 1),
            A.stx(A.DW, R2, STAT_VALUE, R1),
            A.mov64(R0, R9),
        ]
    p = A.Program([
        A.mov64(R6, R1),
        *_own_slot(slots, "spilled"),
        A.mov64(R7, R9),
        A.ja("slot"),
        A.label("spilled"),
        *_spill_slot(slots, "out"),  # else not a traced thread
        A.mov64(R7, R0),
        A.label("slot"),
        A.ldx(A.DW, R1, R7, _TS),
        A.jeq_imm(R1, 0, "out"),  # no call of it under way: its entry predates us, or none
        A.call("ktime_get_ns"),
        A.mov64(R8, R0),
        A.ldx(A.DW, R1, R7, _TS),
        A.st_imm(A.DW, R7, _TS, 0),  # used
        A.alu64("sub", R8, R1),  # r8 = latency
        # -O: strace subtracts its overhead estimate per call, clamped at zero
        A.jmp_imm("jgt", R8, overhead_ns, "minus"),
        A.mov64_imm(R8, overhead_ns),
        A.label("minus"),
        A.alu64_imm("sub", R8, overhead_ns),
        A.ldx(A.DW, R9, R7, _NR),  # r9 = syscall number
        A.jmp_imm("jge", R9, MAX_SYSCALLS, "forget"),
        A.stx(A.W, FP, -12, R9),
        *_lookup(stats_fd, -12, "forget"),
        A.ldx(A.DW, R1, R0, 0),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 0, R1),
        A.ldx(A.DW, R1, R0, 16),
        A.alu64("add", R1, R8),
        A.stx(A.DW, R0, 16, R1),
        # min (0 means "none yet": a 0 ns call just leaves it at 0, which is right) and max
        A.ldx(A.DW, R1, R0, 24),
        A.jeq_imm(R1, 0, "set_min"),
        A.jmp_reg("jle", R1, R8, "min_done"),
        A.label("set_min"),
        A.stx(A.DW, R0, 24, R8),
        A.label("min_done"),
        A.ldx(A.DW, R1, R0, 32),
        A.jmp_reg("jge", R1, R8, "max_done"),
        A.stx(A.DW, R0, 32, R8),
        A.label("max_done"),
        *hist,
        A.ldx(A.DW, R2, R6, RAW_SYS_ARG1),
        A.jmp_imm("jsge", R2, 0, "forget"),
        A.jmp_imm("jslt", R2, -4095, "forget"),
        A.ldx(A.DW, R1, R0, 8),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 8, R1),
        A.label("forget"),
        A.ldx(A.DW, R1, R7, _NR),
        A.jeq_imm(R1, NR_EXECVE, "drop"),
        A.jne_imm(R1, NR_EXECVEAT, "out"),
        A.label("drop"),  # see count_enter: the slot given back (a spill's owner field is unused)
        A.st_imm(A.W, R7, _OWNER, 0),
        *_drop_spill(slots),
        *_RETURN_0,
    ])
    return p


def follow_fork(layout: Layout, pids_fd: int, threads: bool = False, raw_pid_off: int | None = None) -> A.Program:
    """sched_process_fork: a child of a traced process is traced before it first runs.

    ``raw_pid_off``: as a raw tracepoint program (called with (parent, child) task pointers), the
    child's id read at this offset of its task_struct (``pid``, from the kernel's BTF)."""
    p = A.Program([A.mov64(R6, R1)])
    p += _traced_tgid(pids_fd, "out", threads)
    p += [
        A.ldx(A.B, R2, R0, 0),
        A.alu64_imm("and", R2, PID_SEIZED),
        A.alu64_imm("or", R2, PID_GROUP),
        A.stx(A.B, FP, -9, R2),
    ]
    if raw_pid_off is None:
        p += [A.ldx(A.W, R1, R6, layout.fork_child), A.stx(A.W, FP, -8, R1)]
    else:
        p += [
            A.ldx(A.DW, R3, R6, RAW_SYS_ARG1),  # the child
            A.alu64_imm("add", R3, raw_pid_off),
            A.mov64(R1, FP),
            A.alu64_imm("add", R1, -8),
            A.mov64_imm(R2, 4),
            A.call("probe_read_kernel"),
            A.jne_imm(R0, 0, "out"),
        ]
    p += [
        *_update(pids_fd, -8, -9),
        *_RETURN_0,
    ]
    return p


# ---------------------------------------------------------------------------------------- stream
#
# The per-event programs (a record per syscall entry and exit, with what its capture plan copies)
# are in capture_progs.py.

NR_EXIT, NR_EXIT_GROUP = 60, 231


@dataclass(frozen=True)
class Throttle:
    """Backpressure's parameters: where the mark is, and how a seized thread holds itself back."""

    events: int  # the ring buffer (map fd)
    pids: int
    threads: bool
    high_water: int  # bytes of unread ring data past which a seized thread stops itself
    held: int  # hash map fd: thread id -> the signal it was sent (u8), so pytrace knows its own
    blocked_off: int | None  # offsetof(struct task_struct, blocked) from BTF; None: unknown


def throttle(t: Throttle | None) -> list[A.Item]:
    """Backpressure, at the end of sys_exit: past the high-water mark a seized thread stops itself.

    ``bpf_send_signal_thread(SIGURG)`` makes the thread enter a signal-delivery-stop on its way
    back to user space, before it can make another syscall; pytrace (its tracer) recognises the
    stop by its siginfo (SI_KERNEL) and by the ``held`` entry written here (the kernel also sends
    SIGURG with SI_KERNEL, for a socket's urgent data), swallows it and resumes the thread once the
    ring is drained (seize.py).  It happens in the kernel, so it works even when the consumer is
    not scheduled; the slack above the mark only has to hold the records of calls already under
    way (one per traced thread, plus exits).

    SIGURG because its default action is to be ignored: if pytrace dies while the thread is held
    (SIGKILL), the thread is released with the signal still to deliver, and it does nothing (a
    handler, such as Go's runtime's, takes one spurious SIGURG).  A blocked signal makes no
    delivery stop, so a thread that blocks SIGURG (read from ``task_struct.blocked``) gets SIGSTOP
    instead, which cannot be blocked, as does every thread when BTF is missing.  Threads not seized
    by pytrace (a ``-p`` target another tracer holds) are never stopped.  Every path falls through
    past these items (labels ``throttle*``); r7 is clobbered (pid_tgid).
    """
    if t is None or not t.high_water:
        return []
    choose: list[A.Item] = [A.st_imm(A.DW, FP, -24, SIGSTOP)]
    if t.blocked_off is not None:
        choose = [
            A.st_imm(A.DW, FP, -24, SIGSTOP),
            A.call("get_current_task"),
            A.mov64(R3, R0),
            A.alu64_imm("add", R3, t.blocked_off),
            A.mov64(R1, FP),
            A.alu64_imm("add", R1, -32),
            A.mov64_imm(R2, 8),
            A.call("probe_read_kernel"),
            A.jne_imm(R0, 0, "throttle_mark"),
            A.ldx(A.DW, R1, FP, -32),
            A.jmp_imm("jset", R1, 1 << (SIGURG - 1), "throttle_mark"),
            A.st_imm(A.DW, FP, -24, SIGURG),
        ]
    return [
        A.ld_map_fd(R1, t.events),
        A.mov64_imm(R2, BPF_RB_AVAIL_DATA),
        A.call("ringbuf_query"),
        A.jmp_imm("jle", R0, t.high_water, "throttle_done"),
        *_traced_tgid(t.pids, "throttle_done", t.threads),
        A.ldx(A.B, R1, R0, 0),
        A.jmp_imm("jset", R1, PID_SEIZED, "throttle"),
        A.ja("throttle_done"),
        A.label("throttle"),
        *choose,
        A.label("throttle_mark"),
        A.stx(A.W, FP, -4, R7),  # key: the thread id; value: the signal (the low byte of fp-24)
        *_update(t.held, -4, -24),
        A.jne_imm(R0, 0, "throttle_done"),  # unmarked, pytrace would not know the stop: no stop
        A.ldx(A.DW, R1, FP, -24),
        A.call("send_signal_thread"),
        A.label("throttle_done"),
    ]
