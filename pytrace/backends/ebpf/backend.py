"""The eBPF backend: syscalls seen from the kernel's raw_syscalls tracepoints, no ptrace stops.

Two modes share the launcher and the pid scoping:

* ``count()`` -- ``-c``: in-kernel aggregation, read once at the end;
* ``stream(sink)`` -- a record per syscall through a ring buffer, turned
  into the same ``Call`` objects the ptrace backend makes, so the same
  decoders and sinks print them.  Memory is what the programs copied at the
  time, following each syscall's capture plan (capture_progs.py, records.py);
  decoders asking for anything else get None and print an address, as strace
  does for unreadable memory.

In stream mode the traced threads are also PTRACE_SEIZEd (seize.py), with no
syscall stops: that gives signals, group-stops and exact exit statuses, and
lets the sys_exit program stop a thread when the ring buffer passes its
high-water mark (backpressure), so that no record is ever dropped.  When a
record still cannot be written (backpressure off, or a thread another tracer
holds), the loss is counted per CPU and reported into the trace itself
(``LostEvent``).
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import _thread
import errno
import os
import struct
import time
from collections.abc import Callable

from pytrace.backends.ebpf import bpf
from pytrace.backends.ebpf import programs as P
from pytrace.backends.ebpf.liveness import Liveness, thread_count, thread_group
from pytrace.records import dataclass, field  # not dataclasses: start-up cost
from pytrace.tables.syscalls import table

# -c (the counting programs, no record reaches user space) imports none of the stream's modules: the
# ring buffer, the capture tables, the seizer and the events are imported where stream mode needs them.
TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import Any

    from pytrace.backends.ebpf.asm import Linked
    from pytrace.backends.ebpf.capture_table import CaptureOptions
    from pytrace.backends.ebpf.prog_cache import ProgramCache
    from pytrace.backends.ebpf.seize import Seizer
    from pytrace.events import Call, Sink

_U32 = struct.Struct("<I")
class EbpfUnavailable(Exception):
    """BPF cannot be used here; the message names --backend=ptrace as the way out."""


#: The consumer's poll timeout: with backpressure, records wake no one (see prepare_stream), so this
#: bounds how late a line is printed; it is also the idle time after which a blocked call's half
#: line is written (EbpfOptions.idle).
POLL_MS = 50

#: Records handed to the sink between two writes of a buffered trace output (EbpfOptions.flush).
BATCH = 4096
#: Records handed to the sink between two looks at the tracees' stops during a drain (one waitpid):
#: a stop that waits for nothing but an answer waits at most this many records (~1-3 ms).
STEP = 256
assert BATCH % STEP == 0

#: 32 MiB: BPF ring memory is charged to the memory cgroup (RLIMIT_MEMLOCK plays no part since
#: Linux 5.11), and this is a small share of any machine that runs a tracer, while it absorbs a
#: burst of ~90,000 full-size records before a traced thread has to wait for the consumer.
DEFAULT_RING_SIZE = 32 << 20


@dataclass
class EbpfOptions:
    follow_forks: bool = False
    trace_bitmap: Callable[[str], tuple[bytearray, bool]] = field(default=lambda arch: (bytearray(), True))
    capture: CaptureOptions | None = None  # stream mode's capture options (None: the defaults)
    # System-wide mode (no command, no -p): every process but ours, or those named by --comm.
    system_wide: bool = False
    comms: tuple[str, ...] = ()
    ring_size: int = DEFAULT_RING_SIZE  # a power of two, at least one page (the kernel's rule)
    # Stream mode seizes the tracees (signals, exits) and, with backpressure, stops a thread past
    # half the ring until the consumer catches up; without it a full ring drops records (counted).
    seize: bool = False
    backpressure: bool = True
    guest: bool = False  # the Python API's thread: wait only for our own thread's tracees
    announce: Callable[[int], None] | None = None  # "Process N attached" for a new -f child (strace's rule)
    # Called when nothing has happened for a whole wait (a traced call blocks): the stderr writer
    # then writes the line it holds half (``read(0, ``), as strace shows a blocked call.
    idle: Callable[[], None] | None = None
    # A trace output of its own (-o FILE) collects the lines (output.TraceWriter): this writes them,
    # after every BATCH records and whenever the ring is empty, so one write(2) carries many lines.
    flush: Callable[[], None] | None = None
    # Records carry the kernel time of each entry and exit: only what uses the calls' times needs it
    # (-T, -C, JSON, the Python API); without it each call takes 16 bytes less of the ring.
    timed: bool = True


@dataclass
class SyscallCount:
    nr: int
    calls: int
    errors: int
    nanoseconds: int
    min_ns: int
    max_ns: int
    hist: list[int] | None = None  # --histogram: log2 slot counts (sinks/histogram.py), summed over CPUs


#: Programs of this many bytes (512 instructions) or more are verified in a thread of their own.
_THREADED_LOAD = 8 * 512


@dataclass
class _LoadJob:
    """One program's BPF_PROG_LOAD, and its attachment, run in a thread of its own (see EbpfBackend._load)."""

    bytecode: bytes
    category: str
    name: str
    functions: tuple[int, ...] = (0,)  # where each function starts (asm.Linked)
    attach: bool = False  # attach as soon as loaded (else finish_setup does, in order)
    raw: bool = False  # a RAW_TRACEPOINT program (bpf.attach_raw_tracepoint), not a perf-event one
    fd: int = -1
    perf_fds: list[int] = field(default_factory=list)  # its attachment
    error: BaseException | None = None
    done: Any = None  # a lock held while the thread runs (_thread's: no start-up handshake to wait for)
    owned: bool = False  # fds handed to the backend's Resources (EbpfBackend._join_jobs)

    def run(self) -> None:
        try:
            prog_type = bpf.PROG_TYPE_RAW_TRACEPOINT if self.raw else bpf.PROG_TYPE_TRACEPOINT
            self.fd = bpf.load_program(self.bytecode, prog_type, name=self.name[:15], functions=self.functions)
            if self.attach:
                self.perf_fds = self.attached()
        except Exception as exc:  # noqa: BLE001 -- raised by finish_setup, in the caller's thread
            self.error = exc

    def attached(self) -> list[int]:
        """Attach the loaded program; the fds that hold it there."""
        if self.raw:
            return [bpf.attach_raw_tracepoint(self.fd, self.name)]
        return bpf.attach_tracepoint(self.fd, self.category, self.name)

    def start(self) -> None:
        """``run`` in a new thread, returning once that thread is on its way into the kernel.

        Without the wait, the new thread would need the GIL while the caller goes on in Python
        (up to the 5 ms switch interval: the verification, the longest part of the start-up,
        measured starting 0.1-4.5 ms late on a quiet machine).  ``_thread`` with one lock rather
        than ``threading.Thread``'s Event and bookkeeping."""
        self.done = _thread.allocate_lock()
        self.done.acquire()
        running = _thread.allocate_lock()
        running.acquire()
        _thread.start_new_thread(self._run_and_release, (running,))
        running.acquire()  # the GIL is ours again when the thread enters bpf(2) (ctypes drops it)

    def _run_and_release(self, running: Any) -> None:
        try:
            running.release()
            self.run()
        finally:
            self.done.release()

    def join(self) -> None:
        if self.done is not None:
            self.done.acquire()
            self.done = None


class EbpfBackend:
    def __init__(self, opts: EbpfOptions, comm_of: dict[int, str] | None = None) -> None:
        self.opts = opts
        self.res = bpf.Resources()
        self.main_pid = 0
        self.exit_status = 0
        self.killed_by = 0
        self._progs: ProgramCache | None = None  # made by the first _load_made
        self.core_dumped = False
        self.lost = 0
        self.attach_seconds = 0.0
        self.held_map: bpf.Map | None = None  # stream mode with backpressure: pytrace_held
        self.attached: list[int] = []  # thread groups (or single threads) attached with -p, in order
        # Without -f, strace traces single threads (the command's first one, each -p TID): PID_THREAD entries.
        self.thread_keys = not opts.follow_forks
        self.live = Liveness()
        self._jobs: list[_LoadJob] = []  # the loads _begin started
        self._setup_t0 = 0.0
        self.system: P.SystemScope | None = None
        # System-wide mode: thread id -> its name in its latest record, for the line prefix (systemwide.py).
        self.comm_of: dict[int, str] = {} if comm_of is None else comm_of
        self.seizer: Seizer | None = None
        if opts.seize:
            from pytrace.backends.ebpf.seize import Seizer

            self.seizer = Seizer(opts.follow_forks, opts.guest, opts.announce)
        try:
            self.layout = P.Layout.from_tracefs()
            self.pids = self.res.map(bpf.MAP_HASH, 4, 1, 4096, "pytrace_pids")
            if opts.system_wide:
                from pytrace.backends.ebpf.systemwide import scope

                self.system = scope(self.res, opts.comms)
        except bpf.BpfError as exc:
            self.res.close()
            raise EbpfUnavailable(_why(exc)) from None
        except OSError as exc:  # anything else the set-up reads (sysfs): the same one line, never a traceback
            self.res.close()
            raise EbpfUnavailable(_why(bpf.BpfError(exc.errno or errno.EIO, str(exc.filename or exc)))) from None

    # -- setup --------------------------------------------------------------------

    def _load(self, prog: object, category: str, name: str, raw: bool = False) -> None:
        """Assemble ``prog`` and start its BPF_PROG_LOAD in a thread; ``_setup`` attaches it.

        The verifier's walk is most of the start-up (tens of ms per capture program) and runs in
        the calling thread, with the GIL released by ctypes: so the programs are verified in
        parallel, and the next one is generated in Python meanwhile.
        """
        from pytrace.backends.ebpf.asm import Program

        assert isinstance(prog, Program)
        self._start_load(prog.link(), category, name, raw)

    def _load_made(self, make: Callable[..., object], args: tuple[object, ...], category: str, name: str) -> None:
        """``_load(make(*args))``, the bytecode taken from the program cache when a previous run
        made it from the same arguments (prog_cache: the capture programs' generation and assembly
        are ~10 ms of Python)."""
        if self._progs is None:
            from pytrace.backends.ebpf.prog_cache import ProgramCache
            from pytrace.cache import cache_dir

            self._progs = ProgramCache(cache_dir())
        self._start_load(self._progs.link(make, args), category, name)  # type: ignore[arg-type]

    def _start_load(self, linked: Linked, category: str, name: str, raw: bool = False) -> None:
        # Programs on one tracepoint run in the order they were attached (exec_path before exec_done):
        # only the first on its tracepoint attaches when loaded, the others in finish_setup, in order.
        first = all((j.category, j.name) != (category, name) for j in self._jobs)
        job = _LoadJob(linked.bytecode, category, name, linked.functions, attach=first, raw=raw)
        self._jobs.append(job)
        if len(job.bytecode) < _THREADED_LOAD:  # verified in well under a millisecond: a thread costs more
            job.run()
        else:
            job.start()

    def _begin(self, load: Callable[[], None], raw: bool = False) -> None:
        """Start every program's load (``load()`` and the sched programs); the large ones are then
        being verified in threads when this returns: ``finish_setup`` waits for them and attaches.
        In between the caller may do work of its own (the CLI builds its sinks there).

        ``raw``: the sched programs on raw tracepoints where they can be (-c, whose programs all
        are: see begin_count)."""
        self._setup_t0 = time.monotonic()
        self._jobs = []
        try:
            load()
            self._load(P.exec_done(self.pids.fd), "sched", "sched_process_exec", raw)
            if self.opts.follow_forks:
                pid_off = None
                if raw:
                    from pytrace.backends.ebpf.btf import cached_member_offset
                    from pytrace.cache import cache_dir

                    pid_off = cached_member_offset("task_struct", "pid", cache_dir())
                self._load(P.follow_fork(self.layout, self.pids.fd, self.thread_keys, pid_off), "sched",
                           "sched_process_fork", pid_off is not None)
        except BaseException as exc:
            self._join_jobs()  # every load finished, and every program loaded owned, before raising
            if isinstance(exc, bpf.BpfError):
                self._failed(exc)
            raise

    def finish_setup(self) -> None:
        """Wait for the loads ``_begin`` started and attach the programs (errors: see ``_failed``)."""
        try:
            self._join_jobs()
            for job in self._jobs:
                if job.error is not None:
                    raise job.error
                if not job.attach:
                    self.res.fds += job.attached()
        except bpf.BpfError as exc:
            self._failed(exc)
        self.attach_seconds = time.monotonic() - self._setup_t0

    def _join_jobs(self) -> None:
        """Wait for every load started; each program loaded is then owned by ``self.res`` (once)."""
        try:
            for job in self._jobs:
                job.join()
        finally:
            for job in self._jobs:
                if not job.owned:
                    job.owned = True
                    self.res.fds += [job.fd, *job.perf_fds] if job.fd >= 0 else job.perf_fds

    def _failed(self, exc: bpf.BpfError) -> None:
        """Release everything, then raise: the verifier's log as is (a bug of ours), else one line."""
        self.close()
        if exc.log and not _too_old(exc):
            raise exc
        raise EbpfUnavailable(_why(exc)) from None

    def start(self, pid: int) -> None:
        """Scope to a child that spawn_stopped() forked and let it run."""
        _, status = os.waitpid(pid, os.WUNTRACED)
        self.main_pid = pid
        self.live.watch(pid)
        # Without -f its own thread only, as strace (threads are clones it does not follow); nothing
        # before its execve (the launcher's own last calls), see P.PID_PENDING_EXEC.
        scope = P.PID_GROUP if self.opts.follow_forks else P.PID_THREAD
        if self.seizer is None:
            self.pids.update(_U32.pack(pid), bytes([scope | P.PID_PENDING_EXEC]))
            os.kill(pid, signal.SIGCONT)
            return
        self.pids.update(_U32.pack(pid), bytes([scope | P.PID_PENDING_EXEC | P.PID_SEIZED]))
        try:
            self.seizer.launch(pid)
        except OSError as exc:  # ptrace forbidden here (Yama, seccomp): strace's words, as --backend=ptrace
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            self.main_pid = 0
            raise EbpfUnavailable(f"attach: ptrace(PTRACE_SEIZE, {pid}): {os.strerror(exc.errno or 0)}") from None

    def attach(self, pid: int) -> int:
        """Trace ``pid`` as strace's -p does; returns the number of threads traced.  Call before ``prepare_*``.

        With -f, the whole thread group of ``pid`` (which may name any of its threads); without
        it, thread ``pid`` alone -- for a group leader, its own syscalls only, but the trace
        still lasts until the whole group has exited, as a ptrace tracer of a leader sees it.
        OSError(ESRCH) when there is no such process.  A zombie counts as exited.
        """
        if self.opts.follow_forks:
            target, thread, value = thread_group(pid), False, P.PID_GROUP
        else:
            target, value = pid, P.PID_THREAD
            thread = thread_group(pid) != pid
        if not self.live.watch(target, thread=thread):
            raise OSError(errno.ESRCH, os.strerror(errno.ESRCH))
        if self.seizer is not None:
            # Backpressure may stop these threads only if every one of them is ours to resume.
            tids = [target]
            if self.opts.follow_forks:
                try:
                    tids = sorted(int(t) for t in os.listdir(f"/proc/{target}/task"))
                except OSError:
                    pass
            if len(self.seizer.attach(tids)) == len(tids):
                value |= P.PID_SEIZED
        self.pids.update(_U32.pack(target), bytes([value]))
        if target not in self.attached:
            self.attached.append(target)
        return thread_count(target) if self.opts.follow_forks else 1

    def close(self, later: bool = False) -> None:
        """Release everything.  ``later``: without waiting for the kernel to detach the programs
        (bpf.Resources.close_later), once they are harmless: the scope emptied, so they make no
        record and stop no thread.  Not in system-wide mode, whose scope is every process."""
        if self.seizer is not None:
            self.seizer.close()
        if later and self.system is None and self._unscoped():
            if not self.res.close_later():
                self.res.close()
        else:
            self.res.close()
        self.live.close()

    def _unscoped(self) -> bool:
        """Empty the scope map; False when that failed (the programs could still act) or when
        everything is released already (a set-up that failed closed it before the caller's close)."""
        if self.pids.fd < 0:
            return False
        try:
            for key in self.pids.keys():
                self.pids.delete(key)
        except bpf.BpfError:
            return False
        return not self.pids.keys()

    # -- waiting ------------------------------------------------------------------

    def _main_exited(self, block: bool) -> bool:
        if not self.main_pid:
            return False
        if self.seizer is not None:  # its tracer reaps it (seize.py)
            status = self.seizer.main_status
            if status is None:
                return False
            pid = self.main_pid
        else:
            try:
                pid, status = os.waitpid(self.main_pid, 0 if block else os.WNOHANG)
            except ChildProcessError:
                return True
        if pid == 0:
            return False
        if os.WIFSIGNALED(status):
            self.killed_by = os.WTERMSIG(status)
            self.core_dumped = os.WCOREDUMP(status)
        else:
            self.exit_status = os.WEXITSTATUS(status)
        return True

    def _finished(self, main_done: bool) -> bool:
        """Whether tracing is over: the launched command reaped, and every other traced group exited.

        The others are the -p groups and, with -f, every group the fork program added; the
        command itself is in the set too, so that its pidfd stops waking ``wait()`` once reaped.
        """
        if self.main_pid and not main_done:
            return False
        if self.system is not None:
            return False  # system-wide: until interrupted
        groups = set(self.attached)
        if self.main_pid:
            groups.add(self.main_pid)
        if self.opts.follow_forks:
            groups.update(_U32.unpack(k)[0] for k in self.pids.keys())
        return not self.live.alive(groups)

    # -- -c -----------------------------------------------------------------------

    def prepare_count(self, overhead_ns: int = 0, histogram: bool = False) -> None:
        """-c's programs loaded and attached."""
        self.begin_count(overhead_ns, histogram)
        self.finish_setup()

    def begin_count(self, overhead_ns: int = 0, histogram: bool = False) -> None:
        """-c's maps made and its programs' loads started (``finish_setup`` waits and attaches).

        Every -c program is on a raw tracepoint (sched_process_fork's too, with the kernel's BTF):
        no per-syscall record building by the perf tracepoint machinery, and detaching them at
        the end takes milliseconds, not the ~60 ms per perf tracepoint (RCU grace periods under
        the kernel's event_mutex, which the next eBPF run's start would wait for).  Their programs
        read no tracepoint field (the count programs take the raw arguments, the sched ones only
        ``current``), so the same code serves."""
        self.slots = self._count_slots()
        self.stat_size = P.STAT_VALUE + (8 * P.HIST_SLOTS if histogram else 0)
        self.stats = self.res.map(bpf.MAP_PERCPU_ARRAY, 4, self.stat_size, P.MAX_SYSCALLS, "pytrace_stats")

        def load() -> None:
            self._load(P.count_enter(self.pids.fd, self.slots, self.thread_keys, self.system),
                       "raw_syscalls", "sys_enter", raw=True)
            self._load(P.count_exit(self.slots, self.stats.fd, overhead_ns, histogram),
                       "raw_syscalls", "sys_exit", raw=True)
            self._load(P.forget_thread(self.slots), "sched", "sched_process_exit", raw=True)

        self._begin(load, raw=True)

    def _count_slots(self) -> P.Slots:
        """-c's per-thread slots (P.Slots): a table of up to 65536 (pid_max's power of two: no two
        thread ids share a slot below that), spilling into task storage, or where the kernel has
        none (before 5.11, or without its BTF) into a hash: preallocated for a command's threads,
        and system-wide, where any thread of the machine may spill, allocated as it comes."""
        try:
            with open("/proc/sys/kernel/pid_max") as f:
                pid_max = int(f.read())
        except (OSError, ValueError):
            pid_max = 1 << 22
        size = 1 << max(10, min(16, (pid_max - 1).bit_length()))
        table = self.res.map(bpf.MAP_ARRAY, 4, P.START_VALUE, size, "pytrace_slots").fd
        try:
            return P.Slots(table, size - 1, self.res.keep(bpf.task_storage(P.START_VALUE, "pytrace_spill")).fd, True)
        except bpf.BpfError:
            pass
        if self.system is None:
            spill = self.res.map(bpf.MAP_HASH, 4, P.START_VALUE, 16384, "pytrace_spill")
        else:
            spill = self.res.map(bpf.MAP_HASH, 4, P.START_VALUE, 1 << 20, "pytrace_spill", flags=bpf.BPF_F_NO_PREALLOC)
        return P.Slots(table, size - 1, spill.fd, False)

    def count(self, interrupted: Callable[[], bool]) -> list[SyscallCount]:
        """Wait for the traced processes to finish, then read the in-kernel totals."""
        # The trace set (and the syscall table it is built from, which the -c table's names need too)
        # while the command runs: not after it, where every millisecond adds to the run's wall time.
        bitmap, _ = self.opts.trace_bitmap("x86_64")
        main_done = False
        while not interrupted():
            if not main_done and self.main_pid:
                main_done = self._main_exited(block=False)
            if self._finished(main_done):
                break
            self.live.wait(50)
        ncpu = bpf.cpu_count()
        size = self.stat_size
        stride = size * ncpu
        rows = self.stats.lookup_array(P.MAX_SYSCALLS, stride)  # every row, every CPU: one bpf(2)
        out = []
        slots = (size - P.STAT_VALUE) // 8
        hist_fmt = struct.Struct(f"<{slots}Q")
        stat = struct.Struct("<QQQQQ").unpack_from
        unused = bytes(stride)
        for nr, raw in enumerate(rows):
            if raw == unused or (nr < len(bitmap) and not bitmap[nr]):
                continue
            calls = errors = ns = hi = 0
            lo = None
            hist = [0] * slots if slots else None
            for cpu in range(ncpu):
                c, e, t, mn, mx = stat(raw, cpu * size)
                if not c:
                    continue
                if hist is not None:
                    for i, n in enumerate(hist_fmt.unpack_from(raw, cpu * size + P.STAT_VALUE)):
                        hist[i] += n
                calls += c
                errors += e
                ns += t
                lo = mn if lo is None else min(lo, mn)
                hi = max(hi, mx)
            if calls:
                out.append(SyscallCount(nr, calls, errors, ns, lo or 0, hi, hist))
        return out

    # -- stream -------------------------------------------------------------------

    def prepare_stream(self) -> None:
        """Stream mode's programs loaded and attached."""
        self.begin_stream()
        self.finish_setup()

    def begin_stream(self) -> None:
        """Stream mode's maps made and its programs' loads started (``finish_setup`` waits and attaches).

        The ring is mapped into our memory only by ``stream``: nothing reads it before, the mapping
        (8,000 pages of the 32 MiB ring, ~4 ms) is then no longer between the start and the first
        record, and the command's fork does not copy its page tables.
        """
        # The stream's modules (the capture programs, the record reader: ~10 ms of imports) are not -c's.
        from pytrace.backends.ebpf import capture_progs as C
        from pytrace.backends.ebpf import records
        from pytrace.backends.ebpf.capture_slots import SCRATCH_VALUE
        from pytrace.backends.ebpf.capture_table import ROW_SIZE, CaptureOptions
        from pytrace.backends.ebpf.prog_cache import cached_table
        from pytrace.cache import cache_dir

        copy = self.opts.capture or CaptureOptions()
        ring = bpf.MapInThread(self.res, bpf.MAP_RINGBUF, 0, 0, self.opts.ring_size, "pytrace_events")
        try:
            bitmap, unknown = self.opts.trace_bitmap("x86_64")
            on = [nr for nr in range(P.MAX_SYSCALLS) if (bitmap[nr] if nr < len(bitmap) else unknown)]
            plans = cached_table(cache_dir(), copy, P.MAX_SYSCALLS, frozenset(on))  # the traced rows only
        finally:
            try:
                events = ring.result()
            except bpf.BpfError as exc:
                raise EbpfUnavailable(_why(exc)) from None
        traced = self.res.map(bpf.MAP_ARRAY, 4, 1, P.MAX_SYSCALLS, "pytrace_traced")
        tab = table("x86_64")
        # 1 + the arguments its ENTRY records carry
        traced.update_all({_U32.pack(nr): bytes([1 + records.nargs(tab, nr)]) for nr in on})
        execs = P.NR_EXECVE in on or P.NR_EXECVEAT in on
        entry_rows, exit_rows = plans.rows()
        entry_plan = self.res.map(bpf.MAP_HASH, 4, ROW_SIZE, max(len(entry_rows), 1), "pytrace_plan_in")
        entry_plan.update_all({_U32.pack(nr): row for nr, row in entry_rows.items()})
        exit_plan = self.res.map(bpf.MAP_HASH, 4, ROW_SIZE, max(len(exit_rows), 1), "pytrace_plan_out")
        exit_plan.update_all({_U32.pack(nr): row for nr, row in exit_rows.items()})
        scratch = self.res.map(bpf.MAP_ARRAY, 4, SCRATCH_VALUE, bpf.cpu_count(), "pytrace_scratch")
        inflight = self.res.map(bpf.MAP_HASH, 4, C.INFLIGHT_VALUE, 8192, "pytrace_inflight")
        self.lost_map = self.res.map(bpf.MAP_PERCPU_ARRAY, 4, 8, 1, "pytrace_lost")
        held = None
        if self.seizer is not None and self.opts.backpressure:
            held = self.res.map(bpf.MAP_HASH, 4, 1, 8192, "pytrace_held")
            self.seizer.held_by_us = _claim(held)
            self.seizer.forget_held = lambda tid: held.delete(_U32.pack(tid))
            self.held_map = held
        # A wake-up of the consumer is paid by the traced thread, in its syscall (~1 us per record
        # here, when the consumer keeps up and so sleeps between records).  With backpressure the
        # records wake nobody: the consumer polls every POLL_MS, and a thread that fills half the
        # ring stops itself, which wakes the consumer (SIGCHLD).  Without it (system-wide,
        # --no-backpressure) a sleeping consumer could let the ring overflow: the kernel's rule then.
        self.maps = C.CaptureMaps(self.pids.fd, traced.fd, entry_plan.fd, exit_plan.fd, scratch.fd, inflight.fd,
                                  events.fd, self.lost_map.fd, self.thread_keys, self.system, quiet=held is not None,
                                  timed=self.opts.timed)
        args_off = bpf.tracepoint_fields("raw_syscalls", "sys_enter")["args"][0]

        def load() -> None:
            # sys_enter first: the verifier's longest walk; what follows runs meanwhile (see _load).
            self._load_made(C.capture_enter, (self.layout, self.maps, plans, copy, args_off), "raw_syscalls", "sys_enter")
            if held is not None:  # only sys_exit holds threads back
                from pytrace.backends.ebpf.btf import cached_member_offset
                from pytrace.cache import cache_dir

                hold = P.Throttle(events.fd, self.pids.fd, self.thread_keys, self.opts.ring_size // 2, held.fd,
                                  cached_member_offset("task_struct", "blocked", cache_dir()))
                self.maps = self.maps.with_throttle(hold)
            maps = self.maps
            self._load_made(C.capture_exit, (self.layout, maps, plans, copy), "raw_syscalls", "sys_exit")
            self._load(C.thread_gone(maps), "sched", "sched_process_exit")
            if not execs:  # what these two copy serves only a traced execve's line
                return
            exec_fields = bpf.tracepoint_fields("sched", "sched_process_exec")
            self._load(C.exec_path(maps, exec_fields["filename"][0], copy), "sched", "sched_process_exec")
            if os.path.isdir(f"{bpf.tracefs_root()}/events/sched/sched_prepare_exec"):  # Linux 6.10+
                self._load_made(C.prepare_exec, (maps, plans, copy), "sched", "sched_prepare_exec")

        self.events = events
        self._begin(load)

    def stream(self, sink: Sink, interrupted: Callable[[], bool]) -> None:
        """Feed every record to ``sink`` until the traced processes are gone."""
        from pytrace.backends.ebpf import records, ringbuf
        from pytrace.backends.ebpf.ringbuf import RingBuffer
        from pytrace.events import ExitEvent
        from pytrace.sinks.strace_text import whole_call

        try:
            self.ring = RingBuffer(self.events.fd, self.opts.ring_size)
        except OSError as exc:  # out of memory: the command, already running, is not left untraced
            if self.main_pid:
                os.kill(self.main_pid, signal.SIGKILL)
            raise EbpfUnavailable(_why(bpf.BpfError(exc.errno or errno.ENOMEM, "mapping the ring buffer"))) from None
        # bpf_ktime_get_ns is CLOCK_MONOTONIC; Calls carry wall-clock seconds like the ptrace backend's.
        reader = records.RecordReader(table("x86_64"), time.time() - time.monotonic(), self.opts.timed)
        inflight: dict[int, Call] = {}  # tid -> its call between the entry and exit records
        statuses: dict[int, int] = {}
        live: set[int] = set()
        seizer = self.seizer
        # The seized threads, and what their exit stops said (see gone() below).
        seized = seizer.tracees if seizer is not None else {}
        exit_stops: dict[int, int] = seizer.exit_status if seizer is not None else {}
        exits_shown: set[int] = seizer.exit_shown if seizer is not None else set()

        head = records.HEAD.unpack_from
        T_ENTRY, T_EXIT = records.T_ENTRY, records.T_EXIT  # noqa: N806 (the per-record comparisons)
        FLAG_RETRY = records.FLAG_RETRY  # noqa: N806
        finish, entry = reader.finish, reader.entry
        on_entry, on_exit = sink.on_entry, sink.on_exit
        exits = (P.NR_EXIT, P.NR_EXIT_GROUP)
        # An ENTRY record's Call waits here until the next record is read: when that is its own EXIT
        # (a call that did not block, nothing of another thread between), the sink gets the whole call
        # at once (``whole``: one line, one write); anything else gives it the entry first, exactly
        # where it stood.  The end of every drain hands on what waits (see ``drain``), so a call that
        # blocks is shown as before.  System-wide mode keeps the two halves: each line's prefix names
        # the process as its record did, and an execve's exit record carries the new name.
        fuse = self.system is None
        whole = whole_call(sink)
        waiting: list[Call] = []  # zero or one Call

        def handle(data: memoryview) -> None:
            dispatch(data, *head(data, 0))

        def dispatch(data: memoryview, kind: int, flags: int, nr: int, tid: int) -> None:
            if waiting:
                call = waiting.pop()
                if kind == T_EXIT and inflight.get(tid) is call:
                    del inflight[tid]
                    whole(call, finish, data)  # not held (a held entry never waits): finish's answer is False
                    return
                on_entry(call)
            if kind == T_EXIT:
                call = inflight.pop(tid, None)
                if call is None:  # its entry predates the trace (the launcher's last calls)
                    return
                if finish(call, data):
                    on_entry(call)
                on_exit(call)
                return
            if kind == T_ENTRY:
                if tid not in live:
                    live.add(tid)
                    if seizer is None:  # seized: the tracer's own count (seize.py), as the ptrace backend's
                        sink.on_process_count(len(live))
                call = entry(data, flags, nr, tid)
                if nr in exits:
                    statuses[tid] = call.args[0]
                inflight[tid] = call
                if not flags & FLAG_RETRY:  # else printed once the exit record copied it again
                    if fuse:
                        waiting.append(call)
                    else:
                        on_entry(call)
                return
            if kind == records.T_STATUS:
                statuses[tid] = reader.status(data)
                return
            if kind == records.T_GONE:
                if tid in seized:
                    status = exit_stops.pop(tid, None)
                    if status is not None:  # else killed outright: printed from its wait status (gone())
                        exits_shown.add(tid)
                        gone(tid, status)
                    return
                if tid == self.main_pid and tid not in statuses:
                    # The command's exit_group ran untraced (its exec failed, so the launcher's child
                    # exited before becoming the command): the status is the one waitpid reports.
                    self._main_exited(block=True)
                    if self.killed_by:
                        return  # printed as killed once the ring is drained, below
                    statuses[tid] = self.exit_status
                sink.on_exit_process(ExitEvent(tid, statuses.pop(tid, 0) & 0xFF), unfinished(tid))
                live.discard(tid)
                sink.on_process_count(max(len(live), 1))
                return
            if kind == records.T_PREPARED:
                reader.prepared(inflight.get(tid), data)
            elif kind == records.T_EXECPATH:
                reader.exec_path(inflight.get(tid), data)

        def unfinished(tid: int) -> Call | None:
            """The thread's call in flight at its end, given to the sink first if it was held."""
            call = inflight.pop(tid, None)
            if call is not None and reader.release(call):
                sink.on_entry(call)
            return call

        ring = self.ring
        mask, cons_word = ring.mask, ring.cons_word
        # The ring's 8-byte record header and the record's own (records.HEAD), in one unpack.
        rec_head = struct.Struct("<I4x" + records.HEAD.format[1:]).unpack_from  # (the time, if any, is the reader's)
        BUSY, DISCARD, HDR = ringbuf.BUSY, ringbuf.DISCARD, ringbuf.HDR  # noqa: N806
        SIZE = ~(BUSY | DISCARD)  # noqa: N806

        def drain_inline(limit: int, upto: int) -> int:
            """``ring.drain(handle, limit)`` with the record loop and the two commonest records
            written out: an entry (its Call waits for the next record) and the exit that follows
            it.  Everything else goes to ``dispatch``, which the system-wide path also reaches.
            Records from producer position ``upto`` on are left for later."""
            data, cons, prod = ring.span()
            prod = min(prod, upto)
            n = 0
            while cons < prod and n != limit:
                off = cons & mask
                size, kind, flags, nr, tid = rec_head(data, off)
                if size & BUSY:
                    break
                end = off + HDR + (size & SIZE)
                if not size & DISCARD:
                    n += 1
                    if waiting and kind == T_EXIT and inflight.get(tid) is waiting[0]:
                        del inflight[tid]
                        whole(waiting.pop(), finish, data[off + HDR:end])
                    elif (kind == T_ENTRY and not waiting and not flags & FLAG_RETRY and tid in live
                          and nr not in exits):
                        call = inflight[tid] = entry(data[off + HDR:end], flags, nr, tid)
                        waiting.append(call)
                    else:
                        dispatch(data[off + HDR:end], kind, flags, nr, tid)
                cons += ((size & SIZE) + HDR + 7) & ~7
                cons_word[0] = cons  # once the record is read: the kernel may reuse its space
            data.release()
            return n

        ring_drain = drain_inline if fuse else lambda limit, _upto: ring.drain(handle, limit)
        everything = 1 << 64
        flush = self.opts.flush

        def drain(upto: int = everything, stops: bool = False) -> int:
            """Every record written so far, to the sink; the entry that waited for its exit too.

            In steps of STEP records: after each the stops that print nothing are answered
            (Seizer.between: a thread's exit stop, PTRACE_EVENT_EXIT, waits for its tracer, and
            answered only after a long drain, a program joining its threads waited for the whole
            backlog: W5's loop, ~8 us a call), one waitpid; the output is written every BATCH
            records (bounded memory, one write).  ``upto``: only the records written before that
            producer position (see ``drain_for_stop``).  ``stops`` (the main loop's drain): end
            early when a stop waits that only ``poll`` handles (a fork event holds the parent, a
            signal its thread): the loop polls next, the rest of the ring after."""
            total = 0
            while True:
                n = ring_drain(STEP, upto)
                total += n
                if n < STEP:
                    break
                if flush is not None and not total % BATCH:
                    flush()
                if seizer is not None and seizer.between() and stops:
                    break
            if waiting:
                on_entry(waiting.pop())
            if flush is not None and total:
                flush()
            return total

        def drain_for_stop(upto: int | None = None) -> None:
            """The seizer's drain, before it prints a stop (a signal, an exit, a new child): the
            records written until now (or until ``upto``, its mark()), which hold every call the
            stopped thread made before it stopped.  Not what other threads write meanwhile:
            chasing them, a stop waited for the whole backlog, and the thread with it (a parent in
            its clone event: W5's pthread_create held ~1 s behind two threads' records)."""
            drain(upto=ring.produced() if upto is None else upto)

        def gone(tid: int, status: int) -> None:
            if os.WIFEXITED(status):
                ev = ExitEvent(tid, os.WEXITSTATUS(status))
            else:
                ev = ExitEvent(tid, 0, os.WTERMSIG(status), os.WCOREDUMP(status))
            statuses.pop(tid, None)
            sink.on_exit_process(ev, unfinished(tid))
            live.discard(tid)
            sink.on_process_count(seizer.count() if seizer is not None else max(len(live), 1))

        if self.system is not None:
            from pytrace.backends.ebpf.systemwide import noting_comms

            handle = noting_comms(handle, self.comm_of, live)
        if seizer is not None:
            seizer.bind(sink, drain_for_stop, gone, ring.produced)
            self.ring.watch(seizer.wakeup.fd)
        low_water = self.opts.ring_size // 4
        main_done = False
        idle = self.opts.idle
        woken = True
        while True:
            if not drain(stops=True) and not woken and idle is not None:
                idle()  # a whole wait with no record: whatever is in flight blocks
            self._report_lost(sink)
            if seizer is not None:
                seizer.poll()
                if seizer.throttled and self.ring.pending() <= low_water:
                    seizer.release()
            if interrupted():
                # What was written between the drain above and the interrupt happened before it:
                # strace prints every call it saw (system-wide: a short-lived process's last calls).
                # Before the detach, whose "<detached ...>" ends the calls still in flight.
                drain()
                if seizer is not None:
                    seizer.detach_all()
                break
            if not main_done and self.main_pid:
                main_done = self._main_exited(block=False)
            if self._finished(main_done):
                time.sleep(0.01)
                drain()
                break
            woken = self.ring.wait(POLL_MS)
        if self.killed_by and self.main_pid in live and seizer is None:
            sink.on_exit_process(ExitEvent(self.main_pid, 0, self.killed_by, self.core_dumped),
                                 unfinished(self.main_pid))
        self._report_lost(sink)
        self.ring.close()

    def _report_lost(self, sink: Sink) -> None:
        """Records the programs could not write since the last look, written into the trace itself."""
        lost = self._read_lost()
        if lost > self.lost:
            from pytrace.events import LostEvent

            sink.on_lost(LostEvent(self.main_pid or (self.attached[0] if self.attached else 0), lost - self.lost))
            self.lost = lost

    def _read_lost(self) -> int:
        raw = self.lost_map.lookup(_U32.pack(0), 8 * bpf.cpu_count())
        return sum(struct.unpack_from("<Q", raw, 8 * i)[0] for i in range(bpf.cpu_count())) if raw else 0


def _claim(held: bpf.Map) -> Callable[[int, int], bool]:
    """Seizer.held_by_us over the map the throttle marks: was ``sig`` to ``tid`` our backpressure stop?"""

    def claim(tid: int, sig: int) -> bool:
        key = _U32.pack(tid)
        value = held.lookup(key)
        if value is None or value[0] != sig:
            return False
        try:
            held.delete(key)
        except bpf.BpfError:
            pass
        return True

    return claim


#: The verifier's words for a helper this kernel does not have (its name unknown to it too).
_NO_BPF_LOOP = "invalid func unknown#181"


def _too_old(exc: bpf.BpfError) -> bool:
    """The capture programs' loops are bpf_loop callbacks (capture_slots._loop): Linux 5.17+."""
    return _NO_BPF_LOOP in exc.log


def _why(exc: bpf.BpfError) -> str:
    """One line saying what failed, why, and that --backend=ptrace needs none of it."""
    reason = exc.strerror or str(exc)
    if _too_old(exc):
        reason += " (this kernel has no bpf_loop helper: the eBPF backend needs Linux 5.17 or later)"
    elif exc.errno in (errno.EPERM, errno.EACCES):
        reason += " (the eBPF backend needs root, or CAP_BPF+CAP_PERFMON)"
    elif exc.errno == errno.ENOSYS:
        reason += " (this kernel has no bpf() system call)"
    return f"eBPF backend unavailable: {reason}; use --backend=ptrace"
