"""The in-process eBPF loader: assembling, loading (with the verifier's log on rejection), counting."""

from __future__ import annotations

import os
import signal
import struct

import pytest

from pytrace.backends.ebpf import asm as A
from pytrace.backends.ebpf import bpf
from pytrace.backends.ebpf import capture_progs as C
from pytrace.backends.ebpf import programs as P
from pytrace.backends.ebpf.btf import member_offset
from pytrace.backends.ebpf.capture_slots import SCRATCH_VALUE
from pytrace.backends.ebpf.capture_table import ROW_SIZE, CaptureOptions, build_table


def test_assembler_resolves_labels_and_wide_loads() -> None:
    prog = A.Program([A.ld_imm64(A.R1, 1 << 40), A.jeq_imm(A.R1, 0, "end"), A.mov64_imm(A.R0, 1),
                      A.label("end"), A.exit_()])
    code = prog.assemble()
    assert len(code) == 8 * len(prog) == 8 * 5  # ld_imm64 takes two slots
    # the jump skips exactly one instruction (mov)
    assert struct.unpack_from("<BBhi", code, 16)[2] == 1
    with pytest.raises(A.AsmError):
        A.Program([A.ja("nowhere"), A.exit_()]).assemble()


def test_subprograms_go_after_their_function_and_load_with_func_info() -> None:
    """A bpf_loop callback written inline is placed after the main function; its address is an
    ld_imm64 of src_reg BPF_PSEUDO_FUNC relative to the next instruction; the kernel loads it
    (it insists on BTF func_info naming each function static)."""
    callback = A.Subprog("cb", [A.mov64_imm(A.R0, 0), A.exit_()])
    prog = A.Program([
        A.st_imm(A.DW, A.FP, -8, 0), A.mov64_imm(A.R1, 4), A.ld_func(A.R2, "cb"), callback,
        A.mov64(A.R3, A.FP), A.alu64_imm("add", A.R3, -8), A.mov64_imm(A.R4, 0), A.call("loop"),
        A.mov64_imm(A.R0, 0), A.exit_(),
    ])
    linked = prog.link()
    assert linked.functions == (0, 10) and len(linked.bytecode) == 8 * len(prog) == 8 * 12
    code, regs, _, imm = struct.unpack_from("<BBhi", linked.bytecode, 8 * 2)  # the ld_imm64
    assert (code, regs >> 4, 2 + 1 + imm) == (A.LD | A.DW | A.IMM, A.PSEUDO_FUNC, 10)
    fd = bpf.load_program(linked.bytecode, name="callback", functions=linked.functions)
    os.close(fd)
    with pytest.raises(A.AsmError, match="another function"):
        A.Program([A.ja("inside"), A.Subprog("f", [A.label("inside"), A.exit_()]), A.exit_()]).link()


def test_invalid_program_fails_with_the_verifier_log() -> None:
    bad = A.Program([A.ldx(A.DW, A.R0, A.R2, 0), A.exit_()])  # reads through an uninitialised register
    with pytest.raises(bpf.BpfError) as info:
        bpf.load_program(bad.assemble(), name="bad")
    assert "R2 !read_ok" in info.value.log
    assert "verifier log:" in str(info.value)


def _count_slots(res: bpf.Resources, spill: str) -> P.Slots:
    table = res.map(bpf.MAP_ARRAY, 4, P.START_VALUE, 1024, "slots")
    if spill == "task-storage":
        return P.Slots(table.fd, 1023, res.keep(bpf.task_storage(P.START_VALUE, "spill")).fd, True)
    return P.Slots(table.fd, 1023, res.map(bpf.MAP_HASH, 4, P.START_VALUE, 1024, "spill").fd, False)


@pytest.mark.parametrize(("spill", "taken"), [("task-storage", False), ("task-storage", True), ("hash", True)],
                         ids=["own-slot", "spilled-to-task-storage", "spilled-to-hash"])
def test_in_kernel_counts_match_the_workload(tmp_path: os.PathLike[str], spill: str, taken: bool) -> None:
    """Exactly the child's 1000 getppid() calls are counted, nothing from other processes, whether
    the child's thread id has its own slot in -c's table or the slot is taken (by a thread id
    equal to it modulo the table's size, here faked: pid 1 owns it) and its calls spill over;
    once the child has exited its slot is free again, and a hash spill empty."""
    import subprocess

    src = os.path.join(tmp_path, "w.c")
    exe = os.path.join(tmp_path, "w")
    with open(src, "w") as f:
        f.write("#include <unistd.h>\nint main(void){for(int i=0;i<1000;i++)getppid();return 0;}\n")
    subprocess.run(["gcc", "-O2", "-o", exe, src], check=True)
    res = bpf.Resources()
    try:
        pids = res.map(bpf.MAP_HASH, 4, 1, 64, "pids")
        slots = _count_slots(res, spill)
        stats = res.map(bpf.MAP_PERCPU_ARRAY, 4, P.STAT_VALUE, P.MAX_SYSCALLS, "stats")
        for prog, name in ((P.count_enter(pids.fd, slots), "sys_enter"), (P.count_exit(slots, stats.fd), "sys_exit")):
            fd = bpf.load_program(prog.assemble(), bpf.PROG_TYPE_RAW_TRACEPOINT, name=name)
            res.fds.append(fd)
            res.fds.append(bpf.attach_raw_tracepoint(fd, name))
        fd = bpf.load_program(P.forget_thread(slots).assemble(), name="forget")
        res.fds.append(fd)
        res.fds += bpf.attach_tracepoint(fd, "sched", "sched_process_exit")
        pid = os.fork()
        if pid == 0:
            os.kill(os.getpid(), signal.SIGSTOP)
            os.execv(exe, [exe])
        os.waitpid(pid, os.WUNTRACED)
        table = bpf.Map.__new__(bpf.Map)
        table.fd, table.key_size, table.value_size, table.name = slots.table, 4, P.START_VALUE, "slots"
        key = struct.pack("<I", pid & slots.mask)
        if taken:
            table.update(key, struct.pack("<I", 1).ljust(P.START_VALUE, b"\0"))
        pids.update(struct.pack("<I", pid), b"\1")
        os.kill(pid, signal.SIGCONT)
        os.waitpid(pid, 0)
        ncpu = bpf.cpu_count()
        raw = stats.lookup(struct.pack("<I", 110), P.STAT_VALUE * ncpu)  # getppid on x86_64
        assert raw is not None
        calls = sum(struct.unpack_from("<Q", raw, i * P.STAT_VALUE)[0] for i in range(ncpu))
        assert calls == 1000
        owner = struct.unpack_from("<I", table.lookup(key, P.START_VALUE) or b"")[0]
        assert owner == (1 if taken else 0), "the exited thread gave its slot back (forget_thread)"
        if spill == "hash":
            spilled = bpf.Map.__new__(bpf.Map)
            spilled.fd, spilled.key_size, spilled.value_size, spilled.name = slots.spill, 4, P.START_VALUE, "spill"
            assert not spilled.keys(), "the exited thread's spilled slot is gone (forget_thread)"
    finally:
        res.close()


@pytest.mark.parametrize("named", [False, True], ids=["everything", "comm"])
def test_system_wide_programs_pass_the_verifier(named: bool) -> None:
    """Every program of system-wide mode (with and without --comm) and the histogram -c program load.

    The system tests run them on real processes with --comm; the unfiltered scope is loaded here
    only (tracing every process of a shared test host would be slow and noisy).
    """
    from pytrace.backends.ebpf.systemwide import scope

    res = bpf.Resources()
    try:
        lay = P.Layout.from_tracefs()
        system = scope(res, ("cat", "a-name-longer-than-fifteen") if named else ())
        pids = res.map(bpf.MAP_HASH, 4, 1, 64, "pids")
        slots = _count_slots(res, "task-storage")
        stats = res.map(bpf.MAP_PERCPU_ARRAY, 4, P.STAT_VALUE + 8 * P.HIST_SLOTS, P.MAX_SYSCALLS, "stats")
        copy = CaptureOptions()
        plans = build_table(copy, max_nr=P.MAX_SYSCALLS)
        maps = [res.map(bpf.MAP_ARRAY, 4, 1, P.MAX_SYSCALLS, "traced"),
                res.map(bpf.MAP_HASH, 4, ROW_SIZE, 64, "plan_in"), res.map(bpf.MAP_HASH, 4, ROW_SIZE, 64, "plan_out"),
                res.map(bpf.MAP_ARRAY, 4, SCRATCH_VALUE, bpf.cpu_count(), "scratch"),
                res.map(bpf.MAP_HASH, 4, C.INFLIGHT_VALUE, 64, "inflight"),
                res.map(bpf.MAP_RINGBUF, 0, 0, 1 << 16, "events"), res.map(bpf.MAP_PERCPU_ARRAY, 4, 8, 1, "lost")]
        # System-wide records end with the task's name; the throttle (never used system-wide, where
        # nothing is seized, but the exit program must load with both) with the BTF mask check.
        held = res.map(bpf.MAP_HASH, 4, 1, 64, "held")
        blocked = member_offset("task_struct", "blocked")
        assert blocked is not None, "this kernel has BTF (/sys/kernel/btf/vmlinux)"
        hold = P.Throttle(maps[-2].fd, pids.fd, False, 1 << 15, held.fd, blocked)
        m = C.CaptureMaps(pids.fd, *(x.fd for x in maps), system=system, throttle=hold)
        args_off = bpf.tracepoint_fields("raw_syscalls", "sys_enter")["args"][0]
        exec_off = bpf.tracepoint_fields("sched", "sched_process_exec")["filename"][0]
        for each in (slots, _count_slots(res, "hash")):  # a kernel without task storage spills to a hash
            for prog in (P.count_enter(pids.fd, each, system=system), P.count_exit(each, stats.fd, histogram=True)):
                res.fds.append(bpf.load_program(prog.assemble(), bpf.PROG_TYPE_RAW_TRACEPOINT, name="sw"))
            res.fds.append(bpf.load_program(P.forget_thread(each).assemble(), name="sw"))
        # -c's sched programs are raw tracepoint programs (sched_process_fork's reads the child's id via BTF)
        pid_off = member_offset("task_struct", "pid")
        assert pid_off is not None
        for prog in (P.forget_thread(slots), P.exec_done(pids.fd), P.follow_fork(lay, pids.fd, raw_pid_off=pid_off)):
            res.fds.append(bpf.load_program(prog.assemble(), bpf.PROG_TYPE_RAW_TRACEPOINT, name="sw"))
        for prog in (C.capture_enter(lay, m, plans, copy, args_off), C.capture_exit(lay, m, plans, copy),
                     C.thread_gone(m), C.exec_path(m, exec_off, copy), C.prepare_exec(m, plans, copy)):
            linked = prog.link()  # the capture programs have bpf_loop callbacks: func_info BTF
            res.fds.append(bpf.load_program(linked.bytecode, name="sw", functions=linked.functions))
    finally:
        res.close()


def test_a_kernel_without_bpf_loop_is_named_in_one_line() -> None:
    """The capture programs need bpf_loop (Linux 5.17+).  An older kernel's verifier says ``invalid
    func unknown#181``: the wording is this kernel's for a helper id it does not know (999 here),
    and pytrace turns it into one line naming the kernel version, not a verifier log."""
    import errno

    from pytrace.backends.ebpf import backend

    unknown = A.Insn(A.JMP | 0x80, 0, 0, 0, 999)  # a call of helper 999
    with pytest.raises(bpf.BpfError) as info:
        bpf.load_program(A.Program([unknown, A.mov64_imm(A.R0, 0), A.exit_()]).assemble(), name="unknown")
    assert "invalid func unknown#999" in info.value.log
    old = bpf.BpfError(errno.EINVAL, "loading BPF program sys_enter", info.value.log.replace("#999", "#181"))
    line = backend._why(old)
    assert "\n" not in line and "Linux 5.17" in line and line.endswith("use --backend=ptrace")


def test_the_btf_offset_is_cached_per_kernel_build(tmp_path: os.PathLike[str]) -> None:
    """task_struct.blocked's offset (the backpressure check's) is looked up in this kernel's BTF
    once, then read from the cache; a bad entry is a miss, and no directory means no cache."""
    import marshal
    from pathlib import Path

    from pytrace.backends.ebpf.btf import cached_member_offset

    real = member_offset("task_struct", "blocked")
    assert real is not None, "this kernel has BTF (/sys/kernel/btf/vmlinux)"
    directory = str(tmp_path)
    assert cached_member_offset("task_struct", "blocked", directory) == real
    entry = Path(directory) / "btf-task_struct-blocked.marshal"
    key, value = marshal.loads(entry.read_bytes())
    assert value == real and os.uname().version in key
    entry.write_bytes(marshal.dumps((key, real + 8)))  # what a cached answer would be: it is used
    assert cached_member_offset("task_struct", "blocked", directory) == real + 8
    entry.write_bytes(b"\x00garbage")
    assert cached_member_offset("task_struct", "blocked", directory) == real
    assert marshal.loads(entry.read_bytes())[1] == real  # written again
    assert cached_member_offset("task_struct", "blocked", None) == real


def test_batched_map_updates_store_every_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """update_all stores what single updates store, in a hash and an array map, with one
    BPF_MAP_UPDATE_BATCH; a kernel without batches (EINVAL) gets the single updates."""
    import errno

    items = {struct.pack("<I", nr): bytes([nr % 251]) * 8 for nr in range(0, 300, 3)}
    real = bpf._bpf
    calls: list[int] = []
    batches = True

    def bpf_calls(cmd: int, attr: bytes, what: str) -> int:
        calls.append(cmd)
        if cmd == bpf.BPF_MAP_UPDATE_BATCH and not batches:
            raise bpf.BpfError(errno.EINVAL, what)
        return real(cmd, attr, what)

    monkeypatch.setattr(bpf, "_bpf", bpf_calls)
    for batches, map_type in ((True, bpf.MAP_HASH), (True, bpf.MAP_ARRAY), (False, bpf.MAP_HASH)):
        m = bpf.Map(map_type, 4, 8, 300, "pytrace_test")
        try:
            calls.clear()
            m.update_all(items)
            singles = calls.count(bpf.BPF_MAP_UPDATE_ELEM)
            assert (calls.count(bpf.BPF_MAP_UPDATE_BATCH), singles) == (1, 0 if batches else len(items))
            assert {k: m.lookup(k) for k in items} == items
        finally:
            m.close()
