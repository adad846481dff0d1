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
STAT_VALUE = 24  # u64 calls, u64 errors, u64 nanoseconds
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


def _traced_tgid(pids_fd: int, miss: str) -> list[A.Item]:
    """r7 = pid_tgid; jump to ``miss`` unless current's tgid is in the pids map."""
    return [
        A.call("get_current_pid_tgid"),
        A.mov64(R7, R0),
        A.rsh64_imm(R0, 32),
        A.stx(A.W, FP, -4, R0),
        A.ld_map_fd(R1, pids_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -4),
        A.call("map_lookup_elem"),
        A.jeq_imm(R0, 0, miss),
    ]


def count_enter(layout: Layout, pids_fd: int, start_fd: int) -> A.Program:
    p = A.Program([A.mov64(R6, R1)])
    p += _traced_tgid(pids_fd, "out")
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
        A.label("out"),
        A.mov64_imm(R0, 0),
        A.exit_(),
    ]
    return p


def count_exit(layout: Layout, start_fd: int, stats_fd: int) -> A.Program:
    p = A.Program([
        A.mov64(R6, R1),
        A.call("get_current_pid_tgid"),
        A.stx(A.W, FP, -8, R0),
        A.ld_map_fd(R1, start_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -8),
        A.call("map_lookup_elem"),
        A.jeq_imm(R0, 0, "out"),  # not a traced thread, or its entry predates us
        A.mov64(R7, R0),
        A.call("ktime_get_ns"),
        A.mov64(R8, R0),
        A.ldx(A.DW, R1, R7, 0),
        A.alu64("sub", R8, R1),  # r8 = latency
        A.ldx(A.DW, R9, R7, 8),  # r9 = syscall number
        A.jmp_imm("jge", R9, MAX_SYSCALLS, "forget"),
        A.stx(A.W, FP, -12, R9),
        A.ld_map_fd(R1, stats_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -12),
        A.call("map_lookup_elem"),
        A.jeq_imm(R0, 0, "forget"),
        A.ldx(A.DW, R1, R0, 0),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 0, R1),
        A.ldx(A.DW, R1, R0, 16),
        A.alu64("add", R1, R8),
        A.stx(A.DW, R0, 16, R1),
        A.ldx(A.DW, R2, R6, layout.exit_ret),
        A.jmp_imm("jsge", R2, 0, "forget"),
        A.jmp_imm("jslt", R2, -4095, "forget"),
        A.ldx(A.DW, R1, R0, 8),
        A.alu64_imm("add", R1, 1),
        A.stx(A.DW, R0, 8, R1),
        A.label("forget"),
        A.ld_map_fd(R1, start_fd),
        A.mov64(R2, FP),
        A.alu64_imm("add", R2, -8),
        A.call("map_delete_elem"),
        A.label("out"),
        A.mov64_imm(R0, 0),
        A.exit_(),
    ])
    return p


def follow_fork(layout: Layout, pids_fd: int) -> A.Program:
    """sched_process_fork: a child of a traced process is traced before it first runs."""
    p = A.Program([A.mov64(R6, R1)])
    p += _traced_tgid(pids_fd, "out")
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
        A.label("out"),
        A.mov64_imm(R0, 0),
        A.exit_(),
    ]
    return p
