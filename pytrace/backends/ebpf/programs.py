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

from dataclasses import dataclass

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf.asm import FP, R0, R1, R2, R3, R4, R6, R7, R8, R9
from pytrace.backends.ebpf.bpf import tracepoint_fields

MAX_SYSCALLS = 512  # array slots; x86_64 numbers stay below this
STAT_VALUE = 40  # u64 calls, errors, nanoseconds, min ns (0 = none yet), max ns
START_VALUE = 16  # u64 timestamp, u64 syscall number


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


def count_enter(layout: Layout, pids_fd: int, start_fd: int, threads: bool = False) -> A.Program:
    p = A.Program([A.mov64(R6, R1)])
    p += _traced_tgid(pids_fd, "out", threads, layout.enter_id)
    p += [
        A.stx(A.W, FP, -8, R7),  # key: the thread id (low half of pid_tgid)
        A.ldx(A.DW, R8, R6, layout.enter_id),
        A.stx(A.DW, FP, -16, R8),  # value.nr
        A.call("ktime_get_ns"),
        A.stx(A.DW, FP, -24, R0),  # value.ts
        A.ld_map_fd(R1, start_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -8),
        A.mov64(R3, FP),
        A.alu64_imm("add", R3, -24),
        A.mov64_imm(R4, 0),
        A.call("map_update_elem"),
        *_RETURN_0,
    ]
    return p


def count_exit(layout: Layout, start_fd: int, stats_fd: int, overhead_ns: int = 0) -> A.Program:
    p = A.Program([
        A.mov64(R6, R1),
        A.call("get_current_pid_tgid"),
        A.stx(A.W, FP, -8, R0),
        *_lookup(start_fd, -8),
        A.jeq_imm(R0, 0, "out"),  # not a traced thread, or its entry predates us
        A.mov64(R7, R0),
        A.call("ktime_get_ns"),
        A.mov64(R8, R0),
        A.ldx(A.DW, R1, R7, 0),
        A.alu64("sub", R8, R1),  # r8 = latency
        # -O: strace subtracts its overhead estimate per call, clamped at zero
        A.jmp_imm("jgt", R8, overhead_ns, "minus"),
        A.mov64_imm(R8, overhead_ns),
        A.label("minus"),
        A.alu64_imm("sub", R8, overhead_ns),
        A.ldx(A.DW, R9, R7, 8),  # r9 = syscall number
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
        A.ldx(A.DW, R2, R6, layout.exit_ret),
        A.jmp_imm("jsge", R2, 0, "forget"),
        A.jmp_imm("jslt", R2, -4095, "forget"),
        A.ldx(A.DW, R1, R0, 8),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 8, R1),
        A.label("forget"),
        *_delete(start_fd, -8),
        *_RETURN_0,
    ])
    return p


def follow_fork(layout: Layout, pids_fd: int, threads: bool = False) -> A.Program:
    """sched_process_fork: a child of a traced process is traced before it first runs."""
    p = A.Program([A.mov64(R6, R1)])
    p += _traced_tgid(pids_fd, "out", threads)
    p += [
        A.ldx(A.W, R1, R6, layout.fork_child),
        A.stx(A.W, FP, -8, R1),
        A.st_imm(A.B, FP, -9, 1),
        A.ld_map_fd(R1, pids_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -8),
        A.mov64(R3, FP),
        A.alu64_imm("add", R3, -9),
        A.mov64_imm(R4, 0),
        A.call("map_update_elem"),
        *_RETURN_0,
    ]
    return p


# ---------------------------------------------------------------------------------------- stream
#
# The per-event programs (a record per syscall entry and exit, with what its capture plan copies)
# are in capture_progs.py.

NR_EXIT, NR_EXIT_GROUP = 60, 231
