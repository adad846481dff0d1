"""``pyltrace --backend=ebpf``: library calls from uprobes, the traced program never stopped per call.

The start-up borrows the ptrace tracer's whole site discovery: the command is
launched stopped (launcher.spawn_stopped), a uprobe on its ELF entry point runs
a program that sends it SIGSTOP (``bpf_send_signal``), so it waits at its first
instruction with every library loaded, exactly where the ptrace tracer puts
its breakpoints in.  ``LtraceSession._instrument`` then runs unchanged against
a ``RecordingSpace`` that notes each breakpoint address instead of writing an
int3, giving the same sites and the same ``Symbol`` records (names, ``-e``
filters, ``.plt``/``.plt.sec``/``.plt.got`` stubs, ``-fno-plt`` callees, ``-x``
functions).  Each site becomes a uprobe and a uretprobe on (file, offset) with
the site number as cookie (backends/ebpf/uprobe.py); the program continues.

Records from the ring buffer are turned into the ptrace tracer's ``Frame``
objects -- argument registers, the return address, and memory copied in the
kernel by each prototype's capture plan (ebpf_capture.py) -- and printed by
the same ``Output``/JSON writers, so the lines are the ptrace backend's.  -c
never sends a record: calls and nanoseconds are summed per site in the kernel.

dlopen and exec in the launched command: a probe on ld.so's r_brk and the
sched_process_exec tracepoint stop it the same way, and what dlopen loaded / the
new program (at its entry point) is probed before it runs on.  Only pyltrace's
own child is held so: another process's parent would see the stop.

Not done (refused or documented): -S (syscalls), -w (backtraces), i386
programs, dlopen and exec in -f children and -p processes
(``--- Called exec() ---`` is printed and the process is no longer traced),
more than 64 nested calls of one thread (the kernel's uretprobe depth limit).
"""

from __future__ import annotations

import os
import signal
import struct
import sys
import time
from dataclasses import dataclass
from typing import Any

from pytrace.backends.ebpf import bpf
from pytrace.backends.ebpf import uprobe as U
from pytrace.backends.ebpf.ringbuf import RingBuffer
from pytrace.ltrace import ebpf_programs as EP
from pytrace.ltrace import ebpf_usdt as EU
from pytrace.ltrace import prototypes as P
from pytrace.ltrace import usdt_trace
from pytrace.ltrace.breakpoints import AddressSpace, Bp
from pytrace.ltrace.ebpf_capture import CallMemory, Plan, plan_for, regions
from pytrace.ltrace.fast_format import Formatter, formatters
from pytrace.ltrace.format import Output, Summary
from pytrace.ltrace.objects import loaded_objects, read_maps
from pytrace.ltrace.tracer import (
    KIND_NOPLT,
    KIND_PLT,
    Frame,
    LtraceConfig,
    LtraceSession,
    Proc,
    Symbol,
    Thread,
    _forwarded,
    _rest_text,
)

MAX_SITES = 16384
FLUSH_INTERVAL = 0.05  # seconds: how late a buffered -o file can be behind the records drained
LOST_SLOTS = 16  # lost records counted per kind (ebpf_programs._LOST_SLOT)
_HEAD = struct.Struct("<IIQQQQ")  # type, site, pid_tgid, ktime, sp, a
_REGS = struct.Struct("<6Q")
_U64 = struct.Struct("<Q")


class EbpfLtraceError(Exception):
    """A one-line reason the eBPF backend cannot trace this (printed as ltrace prints its errors)."""


class RecordingSpace(AddressSpace):
    """An AddressSpace whose breakpoints are only noted (they become uprobes), never written."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.word = 8
        self.fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY | os.O_CLOEXEC)
        self.bps: dict[int, Bp] = {}
        self.known: dict[int, int] = {}
        self.pages = []
        self.slots = {}
        self.gadget = None

    def insert(self, addr: int) -> Bp | None:
        bp = self.bps.get(addr)
        if bp is None:
            if self.read(addr, 1) is None:
                return None
            bp = self.bps[addr] = Bp(addr, 0)
        return bp

    def remove(self, bp: Bp) -> None:
        self.bps.pop(bp.addr, None)

    def read_late(self, addr: int, size: int) -> bytes | None:
        """Up to ``size`` bytes at ``addr`` now (stopping at the end of a readable page)."""
        while size > 0:
            try:
                data = os.pread(self.fd, size, addr)
            except OSError:
                data = b""
            if data:
                return data
            nxt = ((addr >> 12) + 1) << 12
            if nxt - addr >= size:
                return None
            size = nxt - addr
        return None

    def clear(self) -> None:
        self.bps.clear()


@dataclass
class Site:
    """One probed call site (its number is the probes' cookie): what it calls and what to copy; ``fast``:
    its parameters' and result's formatters when they are all plain integers (fast_format.py)."""

    sym: Symbol
    plan: Plan
    fast: tuple[list[Formatter], Formatter | None] | None = None


def refusal(cfg: LtraceConfig) -> str | None:
    """ltrace-style wording for what this backend does not do, or None."""
    if cfg.syscalls:
        return "--backend=ebpf cannot trace system calls (-S); use --backend=ptrace"
    if cfg.backtrace:
        return "--backend=ebpf cannot print backtraces (-w); use --backend=ptrace"
    return None


class EbpfLtraceSession(LtraceSession):
    """The ptrace session's site discovery and printing, fed by uprobe records instead of traps."""

    kernel_semaphores = True  # USDT semaphores: the uprobes' reference counters (ebpf_usdt.py)

    def __init__(self, cfg: LtraceConfig, out: Any, protos: P.Prototypes, summary: Summary | None,
                 multi: bool | None = None) -> None:
        super().__init__(cfg, out, protos, summary)
        # uprobe_multi links (Linux 6.6+): one per file, detached at once; else one perf event per probe
        self.multi = _kernel_at_least(6, 6) if multi is None else multi
        self.res = bpf.Resources()
        self.sites: list[Site] = []
        self.maps: EP.Maps | None = None
        self.ring: RingBuffer | None = None
        self.counting = summary is not None
        self.mono_to_wall = time.time() - time.monotonic()
        self._now = time.time()
        if isinstance(out, Output):
            out.now = lambda: self._now
        self.fatal: dict[int, int] = {}  # tgid -> last signal delivered
        self.live: set[int] = set()  # traced thread ids not seen exiting
        self.main_pid = 0
        self._prog: dict[str, int] = {}
        self._own_cont: dict[int, int] = {}  # tgid -> SIGCONTs of ours (ending our stops) not to be shown
        self._exec_pending: set[int] = set()
        self._held = False  # the command is stopped for backpressure (see throttle)
        self._main_is_stopped = False  # its stop was reported by waitpid and it was not continued since
        self._since_check = 0  # processes stopping after an exec, to be probed again
        self._own_stop: dict[int, int] = {}  # tgid -> SIGSTOPs of ours (r_brk) whose delivery is not shown
        self._dl_pending: set[int] = set()  # processes stopping at r_brk, to be serviced
        self._probed: set[tuple[int, int]] = set()  # (tgid, breakpoint address) already made into sites
        self._saved_args: dict[int, list[int]] = {}  # id(frame) -> where each capture slot's bytes came from
        self._flushed = 0.0  # when the output was last flushed (throttle)
        self.usdt_sites: list[EU.UsdtSite] = []  # -e usdt:...: the probes attached (cookie = index)
        self._usdt_progs: dict[EU.Shape, int] = {}
        self._usdt_probed: set[tuple[int, int]] = set()  # (tgid, nop address)
        self._usdt_counts = 0  # -c: the per-probe hit counters' map

    # -- BPF objects -------------------------------------------------------------------------

    def load(self) -> None:
        r = self.res
        ncpu_vals = EP.SCRATCH
        m = self.maps = EP.Maps(
            pids=r.map(bpf.MAP_HASH, 4, 4, 8192, "lt_pids").fd,
            spec=r.map(bpf.MAP_ARRAY, 4, EP.SPEC_SIZE, MAX_SITES, "lt_spec").fd,
            inflight=r.map(9, 16, EP.INFLIGHT_VALUE, 65536, "lt_inflight").fd,  # LRU hash
            scratch=r.map(bpf.MAP_PERCPU_ARRAY, 4, ncpu_vals, 1, "lt_scratch").fd,
            events=r.map(bpf.MAP_RINGBUF, 0, 0, self.cfg.ebpf_buffer, "lt_events").fd,
            lost=r.map(bpf.MAP_ARRAY, 4, 8, LOST_SLOTS, "lt_lost").fd,
            stats=r.map(bpf.MAP_ARRAY, 4, EP.STAT_VALUE, MAX_SITES, "lt_stats").fd,  # (per-CPU: 40 ms to create)
            status=r.map(bpf.MAP_HASH, 4, 8, 8192, "lt_status").fd,
            held=r.map(bpf.MAP_ARRAY, 4, 8, 1, "lt_held").fd,
            high_water=0 if self.counting else self.cfg.ebpf_buffer // 2,
        )
        multi = U.BPF_TRACE_UPROBE_MULTI if self.multi else 0
        if self.cfg.usdt_filter and self.counting:
            self._usdt_counts = r.map(bpf.MAP_ARRAY, 4, 8, MAX_SITES, "lt_usdt_hits").fd
        self._prog["entry"] = self._load(EP.call_entry(m, self.counting, self._by_tid()), U.PROG_TYPE_KPROBE,
                                         "lt_entry", multi)
        self._prog["return"] = self._load(EP.call_return(m, self.counting, self.cfg.follow, self._by_tid()),
                                          U.PROG_TYPE_KPROBE, "lt_return", multi)
        self._prog["stop"] = self._load(EP.stop_at_entry(), U.PROG_TYPE_KPROBE, "lt_stop", multi)
        self._prog["dlstop"] = self._load(EP.stop_at_dlopen(m, self._by_tid()), U.PROG_TYPE_KPROBE, "lt_dlstop", multi)
        by_tid = self._by_tid()
        progs = []
        if self.cfg.follow:
            fork_child = bpf.tracepoint_fields("sched", "sched_process_fork")["child_pid"][0]
            progs.append((EP.fork(m, fork_child, True, by_tid), "sched", "sched_process_fork"))
        self.ring = RingBuffer(m.events, self.cfg.ebpf_buffer)  # (with -c: only the stops of dlopen and exec)
        if not self.counting:  # -c prints the table only: it needs no other record
            sig = bpf.tracepoint_fields("signal", "signal_deliver")["sig"][0]
            gen = bpf.tracepoint_fields("signal", "signal_generate")
            code = bpf.tracepoint_fields("syscalls", "sys_enter_exit_group")["error_code"][0]
            code1 = bpf.tracepoint_fields("syscalls", "sys_enter_exit")["error_code"][0]
            progs += [
                (EP.signal_deliver(m, sig, by_tid), "signal", "signal_deliver"),
                (EP.signal_ignored(m, gen["sig"][0], gen["pid"][0], gen["result"][0]), "signal", "signal_generate"),
                (EP.exit_status(m, code, True, by_tid), "syscalls", "sys_enter_exit_group"),
                (EP.exit_status(m, code1, False, by_tid), "syscalls", "sys_enter_exit"),
                (EP.process_exit(m, by_tid), "sched", "sched_process_exit"),
            ]
        progs.append((EP.process_exec(m, by_tid), "sched", "sched_process_exec"))
        for prog, cat, name in progs:
            fd = self._load(prog, bpf.PROG_TYPE_TRACEPOINT, "lt_" + name[-12:])
            self.res.fds.extend(bpf.attach_tracepoint(fd, cat, name))

    def _by_tid(self) -> bool:
        """Without -f only the traced threads' own ids are in ``pids`` (ltrace shows other threads with -f only)."""
        return not self.cfg.follow

    def _load(self, prog: Any, ptype: int, name: str, attach_type: int = 0) -> int:
        fd = bpf.load_program(prog.assemble(), ptype, name, expected_attach_type=attach_type)
        self.res.fds.append(fd)
        return fd

    def _trace_pid(self, pid: int, launching: bool = False) -> None:
        assert self.maps is not None
        flags = EP.PID_TRACED | (EP.PID_LAUNCHING | EP.PID_HOLDABLE if launching else 0)
        _map_update(self.maps.pids, struct.pack("<I", pid), struct.pack("<I", flags))
        self.live.add(pid)

    def close(self) -> None:
        if self.ring is not None:
            self.ring.close()
            self.ring = None
        self.res.close()

    # -- start-up ----------------------------------------------------------------------------

    def launch(self, path: str, argv: list[str], env: dict[str, str], pw: Any) -> int:
        """Start the command and hold it at its first instruction; its pid."""
        from pytrace.backends.ptrace import launcher

        entry = _program_entry(path)
        if entry is None and _elf_class(os.path.realpath(path)) == 1:
            raise EbpfLtraceError("--backend=ebpf traces x86-64 programs only; use --backend=ptrace")
        if entry is None:
            raise EbpfLtraceError(f"--backend=ebpf: cannot find the entry point of `{path}'")
        pid = launcher.spawn_stopped(path, argv, env, pw, signals=self.cfg.signal_state())
        self.main_pid = pid
        try:
            return self._start(pid, path, entry)
        except BaseException:
            try:  # (it waits stopped: nothing of the command has run)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except OSError:
                pass
            raise

    def _start(self, pid: int, path: str, entry: tuple[str, int]) -> int:
        """Run the launched child to its program's entry point, probe it there, let it go."""
        _, status = os.waitpid(pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):
            raise EbpfLtraceError(f"Can't execute `{path}'")
        self._trace_pid(pid, launching=True)
        if self.multi:
            fds = [U.attach_multi(self._prog["stop"], entry[0], [entry[1]], [0], pid=pid)]
        else:
            fds = U.attach(self._prog["stop"], entry[0], entry[1], pid=pid)
        try:
            os.kill(pid, signal.SIGCONT)
            _, status = os.waitpid(pid, os.WUNTRACED)
        finally:
            for fd in fds:
                os.close(fd)
        if not os.WIFSTOPPED(status):
            self.early_status = status
            return pid
        self.discover(pid, os.path.basename(path))
        if self.ring is not None:
            self.ring.drain(lambda rec: None)  # its exec and the SIGSTOP above: before the program's start
        self._continue(pid)
        return pid

    early_status: int | None = None

    def attach_pid(self, pid: int) -> None:
        """-p: the process runs already; probe what it has loaded."""
        os.kill(pid, 0)
        self._trace_pid(pid)
        if self.cfg.follow:
            for tid in os.listdir(f"/proc/{pid}/task"):
                self.live.add(int(tid))
        self.discover(pid, "exe")

    def discover(self, pid: int, main_name: str | None) -> None:
        """The ptrace tracer's sites (LtraceSession._instrument), each attached as uprobe + uretprobe."""
        assert self.maps is not None
        proc = Proc(pid)
        proc.started = True
        proc.main_name = main_name
        proc.main_path = os.readlink(f"/proc/{pid}/exe")
        if _elf_class(proc.main_path) != 2:
            raise EbpfLtraceError("--backend=ebpf traces x86-64 programs only; use --backend=ptrace")
        space = proc.space = RecordingSpace(pid)
        self.procs[pid] = proc
        self.threads[pid] = Thread(pid, proc, True)
        proc.objects = loaded_objects(pid, proc.main_path)
        for obj in proc.objects:
            self._instrument(proc, obj, dlopened=False)
        maps = read_maps(pid)
        _prefault(space, maps)
        self._attach_sites(proc, pid, maps)
        self._watch_dlopen(proc, pid, maps)

    def _attach_sites(self, proc: Proc, pid: int, maps: list[tuple[int, int, str, int, str]]) -> None:
        """Every breakpoint address of ``proc`` not probed yet becomes a site: uprobe + uretprobe."""
        assert self.maps is not None and proc.space is not None
        by_file: dict[str, list[tuple[int, int]]] = {}
        for addr, bp in sorted(proc.space.bps.items()):
            sym = bp.entry
            if sym is None or (pid, addr) in self._probed:
                continue
            self._probed.add((pid, addr))
            where = U.file_offset(maps, addr)
            if where is None or len(self.sites) >= MAX_SITES:
                continue
            proto = sym.proto = sym.proto or self._proto(sym.name)
            plan = plan_for(proto, self.cfg.strlen, self.cfg.arraylen)
            lo = hi = 0
            if sym.kind == KIND_NOPLT and len(sym.callers) == 1:
                lo, hi = sym.callers[0].lo, sym.callers[0].hi
            site = len(self.sites)
            self.sites.append(Site(sym, plan, formatters(proto)))
            _map_update(self.maps.spec, struct.pack("<I", site), plan.spec(lo, hi))
            by_file.setdefault(where[0], []).append((where[1], site))
        for path, pairs in by_file.items():
            offs, cookies = [o for o, _ in pairs], [c for _, c in pairs]
            self.res.fds.extend(self._probe(self._prog["entry"], path, offs, cookies, pid, False))
            self.res.fds.extend(self._probe(self._prog["return"], path, offs, cookies, pid, True))
        if self.cfg.usdt_filter:
            self._attach_usdt(proc, pid, maps)

    def _attach_usdt(self, proc: Proc, pid: int, maps: list[tuple[int, int, str, int, str]]) -> None:
        """Every USDT probe noted in ``proc`` (usdt_trace.arm) not probed yet: a uprobe at its nop, with its
        semaphore as the uprobe's reference counter, running the program of its shape (ebpf_usdt.py)."""
        assert self.maps is not None and proc.space is not None
        groups: dict[tuple[int, str], list[tuple[int, int, int]]] = {}
        for addr, bp in sorted(proc.space.bps.items()):
            if not bp.probes or (pid, addr) in self._usdt_probed:
                continue
            self._usdt_probed.add((pid, addr))
            where = U.file_offset(maps, addr)
            if where is None:
                continue
            for site in bp.probes:
                if len(self.usdt_sites) >= MAX_SITES:
                    break
                probe = site.probe
                proto = usdt_trace.proto_of(site, self.protos)
                shape = EU.shape_of(probe.args if not probe.problem else (), site.bias, proto, self.cfg.strlen,
                                    self.cfg.arraylen)
                prog = self._usdt_progs.get(shape)
                if prog is None:
                    prog = self._usdt_progs[shape] = self._load(
                        EU.program(self.maps, shape, self._by_tid(), self._usdt_counts or None), U.PROG_TYPE_KPROBE,
                        "lt_usdt", U.BPF_TRACE_UPROBE_MULTI if self.multi else 0)
                ref = (probe.semaphore_offset or 0) if probe.semaphore else 0
                groups.setdefault((prog, where[0]), []).append((where[1], len(self.usdt_sites), ref))
                self.usdt_sites.append(EU.UsdtSite(site, addr, shape))
        for (prog, path), probes in groups.items():
            offs, cookies, refs = ([t[k] for t in probes] for k in range(3))
            self.res.fds.extend(self._probe(prog, path, offs, cookies, pid, False, refs))

    def _probe(self, prog: int, path: str, offs: list[int], cookies: list[int], pid: int, ret: bool,
               refs: list[int] | None = None) -> list[int]:
        """Probes at ``offs`` in ``path`` with ``cookies`` (and USDT semaphores' file offsets ``refs``): in
        ``pid`` only, or with -f in every process mapping the file (the programs' pid map decides)."""
        if self.multi:
            return [U.attach_multi(prog, path, offs, cookies, retprobe=ret, pid=0 if self.cfg.follow else pid,
                                   ref_ctrs=refs)]
        fds: list[int] = []
        for i, (off, cookie) in enumerate(zip(offs, cookies, strict=True)):
            fds += U.attach(prog, path, off, retprobe=ret, pid=-1 if self.cfg.follow else pid, cookie=cookie,
                            ref_ctr=refs[i] if refs else 0)
        return fds

    def _watch_dlopen(self, proc: Proc, pid: int, maps: list[tuple[int, int, str, int, str]]) -> None:
        """A probe on ld.so's ``r_brk`` (``_dl_debug_state``, called around every dlopen/dlclose) stops the
        process (T_DLSTOP, then SIGSTOP) so that what dlopen brought is probed before it is called."""
        space = proc.space
        main = next((o for o in proc.objects if o.is_main), None)
        if main is None or main.info.dt_debug is None or space is None:
            return
        r_debug = space.read_word(main.bias + main.info.dt_debug) or 0
        r_brk = space.read_word(r_debug + 16) if r_debug else None
        where = U.file_offset(maps, r_brk) if r_brk else None
        if where is None:
            return
        proc.r_debug = r_debug
        self.res.fds.extend(self._probe(self._prog["dlstop"], where[0], [where[1]], [0], pid, False))

    def service_stops(self, main: int) -> int | None:
        """The processes our programs stopped: after an exec (probed again at the new program's entry
        point) or at r_brk (what dlopen loaded is probed); each then goes on.

        Returns the main process's wait status if it ended instead of stopping (None otherwise)."""
        ended = None
        for tgid in sorted(self._exec_pending):
            self._exec_pending.discard(tgid)
            st = self._wait_stop(tgid, main)
            if st is not None:
                ended = st
                continue
            st = self._exec_entry(tgid, main)
            if st is not None:
                ended = st
                continue
            self._continue(tgid)
        for tgid in sorted(self._dl_pending):
            self._dl_pending.discard(tgid)
            st = self._wait_stop(tgid, main)
            if st is not None:
                ended = st
                continue
            proc = self.procs.get(tgid)
            space = proc.space if proc is not None else None
            if proc is not None and space is not None and proc.r_debug:
                state = space.read(proc.r_debug + 24, 4)
                if state is not None and struct.unpack("<i", state)[0] == 0:  # RT_CONSISTENT
                    try:
                        self._dlopened(proc, tgid)
                    except (bpf.BpfError, OSError) as exc:  # the process runs on, the new library untraced
                        sys.stderr.write(f"pyltrace: cannot probe a dlopen'ed library: {exc}\n")
            self._continue(tgid)
        return ended

    def _wait_stop(self, tgid: int, main: int) -> int | None:
        """Until ``tgid`` is stopped; the main process's wait status if it ended instead (else None)."""
        if tgid == main:
            if self._main_is_stopped:  # (already reported to the loop's waitpid)
                return None
            _, st = os.waitpid(main, os.WUNTRACED)
            if os.WIFSTOPPED(st):
                self._main_is_stopped = True
                return None
            return st
        _wait_stopped(tgid)
        return None

    def _continue(self, tgid: int) -> None:
        if tgid == self.main_pid:
            self._main_is_stopped = False
        self._own_cont[tgid] = self._own_cont.get(tgid, 0) + 1
        try:
            os.kill(tgid, signal.SIGCONT)
        except OSError:
            self._own_cont[tgid] -= 1

    def _exec_entry(self, tgid: int, main: int) -> int | None:
        """A process stopped just after an exec: run it to its new program's entry point, probe it there."""
        try:
            path = os.readlink(f"/proc/{tgid}/exe")
        except OSError:
            return None
        entry = _program_entry(path)
        if entry is None:  # (not an x86-64 ELF program: it runs untraced)
            return None
        fds = ([U.attach_multi(self._prog["stop"], entry[0], [entry[1]], [0], pid=tgid)] if self.multi
               else U.attach(self._prog["stop"], entry[0], entry[1], pid=tgid))
        try:
            self._own_stop[tgid] = self._own_stop.get(tgid, 0) + 1
            self._continue(tgid)
            st = self._wait_stop(tgid, main)
        finally:
            for fd in fds:
                os.close(fd)
        if st is not None:
            return st
        visible = self.threads[tgid].visible if tgid in self.threads else True
        try:
            self.discover(tgid, None)  # (named by its soname, as the ptrace tracer names an exec'd program)
        except (bpf.BpfError, EbpfLtraceError, OSError) as exc:
            sys.stderr.write(f"pyltrace: cannot probe {path} after exec: {exc}\n")
        if tgid in self.threads:
            self.threads[tgid].visible = visible
        return None

    def _dlopened(self, proc: Proc, pid: int) -> None:
        before = {(o.path, o.bias) for o in proc.objects}
        proc.objects = loaded_objects(pid, proc.main_path)
        maps = read_maps(pid)
        for o in proc.objects:
            if (o.path, o.bias) not in before:
                self._instrument(proc, o, dlopened=True)
        old_paths = {path for path, _ in before}
        assert isinstance(proc.space, RecordingSpace)
        _prefault(proc.space, [m for m in maps if m[4] not in old_paths])
        self._attach_sites(proc, pid, maps)

    # -- the records -----------------------------------------------------------------------------

    def drain(self) -> int:
        return self.ring.drain(self._record_throttled) if self.ring is not None else 0

    def _record_throttled(self, rec: memoryview) -> None:
        """_record, and every 64 records the backpressure check (see throttle)."""
        self._since_check += 1
        if self._since_check >= 64:
            self._since_check = 0
            self.throttle()
        self._record(rec)

    def throttle(self) -> None:
        """Backpressure: the launched command stops itself when the ring buffer is more than half full
        (EP._backpressure, a T_HELD record); it is continued here once the buffer is down to an eighth.
        Other processes are never stopped; what they overflow is counted as lost."""
        if self._held and self.ring is not None and self.ring.pending() < self.cfg.ebpf_buffer // 8:
            self.release()
        now = time.monotonic()
        if now - self._flushed >= FLUSH_INTERVAL:  # (an -o file is written in batches: pipeline.prepare_output)
            self._flushed = now
            self.out.flush()

    def main_continued(self) -> None:
        """waitpid reported the command continued (by someone's SIGCONT)."""
        self._main_is_stopped = False

    def main_stopped(self) -> bool:
        """waitpid reported the command stopped (a stop is reported once: remembered for _wait_stop).
        If the kernel's held flag is set it is a backpressure stop (its T_HELD record perhaps lost):
        released here, never left stopped.  A user's SIGSTOP is left alone."""
        self._main_is_stopped = True
        if self.maps is None:
            return False
        flag = _MapRef(self.maps.held, 4, 8).lookup(b"\0\0\0\0")
        if not flag or not any(flag):
            return False
        self._held = True
        self.release()
        return True

    def release(self) -> None:
        """End a backpressure stop: the flag cleared first, then SIGCONT."""
        if self._held and self.maps is not None:
            self._held = False
            _map_update(self.maps.held, b"\0\0\0\0", bytes(8))
            self._continue(self.main_pid)

    def _thread(self, tid: int, tgid: int) -> Thread | None:
        th = self.threads.get(tid)
        if th is not None:
            return th
        proc = self.procs.get(tgid)
        if proc is None:
            return None
        th = self.threads[tid] = Thread(tid, proc, self.cfg.follow or tid == tgid)
        return th

    def _record(self, rec: memoryview) -> None:
        rtype, site, pid_tgid, ktime, sp, a = _HEAD.unpack_from(rec, 0)
        tid, tgid = pid_tgid & 0xFFFFFFFF, pid_tgid >> 32
        self._now = ktime / 1e9 + self.mono_to_wall
        if rtype == EP.T_ENTRY:
            self._entry(rec, self.sites[site], tid, tgid, sp, a, ktime)
        elif rtype == EP.T_RETURN:
            self._return(rec, self.sites[site], tid, tgid, sp, a, ktime)
        elif rtype == EU.T_USDT:
            self._usdt(rec, self.usdt_sites[site], tid, tgid)
        else:
            b = _U64.unpack_from(rec, 32)[0]
            self._event(rtype, tid, tgid, b)

    def _entry(self, rec: memoryview, site: Site, tid: int, tgid: int, sp: int, ret: int, ktime: int) -> None:
        th = self._thread(tid, tgid)
        if th is None or not th.visible:
            return
        sym = site.sym
        space = th.proc.space
        if space is None:  # a new program after an exec: not probed (only its end is shown)
            return
        if sym.kind == KIND_NOPLT and not any(o.contains(ret) for o in sym.callers):
            return
        if sym.forward is not False and sym.kind == KIND_PLT and _forwarded(space, sym):
            return
        stack = th.stack
        if stack and stack[-1].sp == sp:
            ret = stack[-1].ret  # a PLT call and the -x entry it reaches: the first uretprobe took *rsp
        frame = Frame(sym.name, sym.display, ret, sp, len(stack) + 1, tid, False, sym.short, sym)
        frame.t0 = ktime / 1e9
        fast = site.fast
        if fast is not None:  # plain integers: no memory, no lenses (fast_format.py)
            frame.proto = sym.proto
            fmts = fast[0]
            raws = frame.raws = list(_REGS.unpack_from(rec, 40))[:len(fmts)]
            th.last_ip = ret
            stack.append(frame)
            left = frame.params = [f(w) for f, w in zip(fmts, raws, strict=True)]
            frame.delim = bool(left)
            self.out.left(frame, tid, ret, frame.depth, f"{sym.display}({', '.join(left)}")
            return
        proto = frame.proto = sym.proto or self._proto(sym.name)
        ints = list(_REGS.unpack_from(rec, 40))
        addrs = ints + [sp + 8, 0]
        mem = CallMemory(regions(rec, site.plan.entry, addrs, space.read_late))
        src = frame.src = P.ArgSource(ints, sp, mem, (lambda: [bytes(16)] * 8) if proto.needs_floats else None)
        if proto.simple:
            src.ni = len(proto.params)
            raws = frame.raws = ints[:len(proto.params)]
        else:
            raws = frame.raws = P.fetch_raws(proto.params, src, proto.ret)
        frame.ctx = P.FmtCtx(mem, self.cfg.strlen, self.cfg.arraylen, raws)
        th.last_ip = ret
        frame.first_out = proto.first_out
        stack.append(frame)
        self._saved_args[id(frame)] = addrs
        left = frame.params = P.format_params(proto.params, raws, src, frame.ctx, 0, frame.first_out)
        frame.delim = bool(left)
        self.out.left(frame, tid, frame.ret, frame.depth, f"{sym.display}({', '.join(left)}")

    def _return(self, rec: memoryview, site: Site, tid: int, tgid: int, sp: int, rax: int, ktime: int) -> None:
        th = self.threads.get(tid)
        if th is None:
            return
        stack = th.stack
        for i in range(len(stack) - 1, -1, -1):
            f = stack[i]
            if f.origin is site.sym and f.sp + 8 == sp:
                break
        else:
            return
        frame = stack[i]
        for skipped in stack[i + 1:]:  # calls a longjmp left (their uretprobes never fire)
            self._saved_args.pop(id(skipped), None)
        del stack[i:]
        rdx, t_entry = struct.unpack_from("<QQ", rec, 40)
        if not t_entry:  # a fork child's return from its parent's call (see EP.call_return's ``bare``)
            t_entry = int(frame.t0 * 1e9)
        fast = site.fast
        if fast is not None and frame.ctx is None:  # (entered through the fast path too)
            th.last_ip = frame.ret
            value = fast[1](rax) if fast[1] is not None else "<void>"
            self.out.right(frame, tid, frame.ret, frame.depth, frame.short, "", value, max(0, ktime - t_entry) / 1e9)
            return
        addrs = self._saved_args.pop(id(frame), [0] * 8)
        addrs = addrs[:6] + [0, rax]
        assert frame.ctx is not None and frame.proto is not None and frame.src is not None
        space = th.proc.space
        late = space.read_late if space is not None else None
        mem = frame.ctx.mem.overlaid(CallMemory(regions(rec, site.plan.ret, addrs, late)))
        ctx = frame.ctx
        ctx.mem = mem
        frame.src.mem = mem
        proto = frame.proto
        ret_t = proto.ret
        raw: Any = P.return_raw(ret_t, rax, rdx, lambda: [bytes(16)] * 8)
        ctx.retval = P.retval_of(ret_t, raw)
        rest = P.format_params(proto.params, frame.raws, frame.src, ctx, frame.first_out, len(proto.params))
        frame.params = frame.params + rest
        value = P.format_value(ret_t, raw, ctx) if ret_t.kind != P.VOID else "<void>"
        th.last_ip = frame.ret
        self.out.right(frame, tid, frame.ret, frame.depth, frame.short, _rest_text(frame, rest), value,
                       max(0, ktime - t_entry) / 1e9)

    def _usdt(self, rec: memoryview, us: EU.UsdtSite, tid: int, tgid: int) -> None:
        """A USDT probe hit: its line, as the ptrace backend prints it (tracer._probe_hit)."""
        th = self._thread(tid, tgid)
        if th is None or not th.visible:
            return
        space = th.proc.space
        late = space.read_late if isinstance(space, RecordingSpace) else None
        args = EU.decode(us, rec, late, self.protos, self.cfg.strlen, self.cfg.arraylen)
        th.last_ip = us.addr
        self.out.probe(tid, us.addr, len(th.stack) + 1, us.site.display, args)

    def _event(self, rtype: int, tid: int, tgid: int, value: int) -> None:
        if rtype == EP.T_HELD:
            self._held = True
            self._own_stop[tgid] = self._own_stop.get(tgid, 0) + 1
            return
        if rtype == EP.T_DLSTOP:
            self._dl_pending.add(tgid)
            self._own_stop[tgid] = self._own_stop.get(tgid, 0) + 1
            return
        if rtype == EP.T_SIGNAL:
            if value == signal.SIGCONT and self._own_cont.get(tgid):  # ours, ending a stop of ours
                self._own_cont[tgid] -= 1
                return
            if value == signal.SIGSTOP and self._own_stop.get(tgid):
                self._own_stop[tgid] -= 1
                return
            self.fatal[tgid] = value
            th = self._thread(tid, tgid)
            if th is not None and th.visible and not self.cfg.no_signals and value != signal.SIGKILL:
                self.out.signal(tid, value, th.last_ip)
        elif rtype == EP.T_FORK:
            child = value
            if self.cfg.follow:
                self.live.add(child)
                parent = self.procs.get(tgid)
                if parent is not None and child not in self.threads:
                    if _status_tgid(child) == tgid:  # a thread of the same process
                        self.threads[child] = Thread(child, parent, True)
                    else:
                        proc = self.procs[child] = Proc(child)
                        proc.started = True
                        proc.objects, proc.main_path, proc.main_name = parent.objects, parent.main_path, parent.main_name
                        proc.space = parent.space
                        th = self.threads[child] = Thread(child, proc, True)
                        forker = self.threads.get(tid)  # its open calls return in the child too (fork() itself)
                        if forker is not None:
                            th.stack = [self._copy_frame(f, child) for f in forker.stack]
        elif rtype == EP.T_EXIT:
            self.live.discard(tid)
            th = self.threads.pop(tid, None)
            if th is None or not th.visible:
                return
            if value & 0x100:
                self.out.exited(tid, tgid, value & 0xFF, 0, False, th.last_ip)
            else:
                sig = self.fatal.get(tgid, signal.SIGKILL)
                self.out.exited(tid, tgid, 0, sig, False, th.last_ip)
        elif rtype == EP.T_EXEC:
            # The program stops itself (see EP.process_exec); service_stops probes the new one.
            th = self.threads.get(tid)
            if th is not None and th.visible:
                self.out.exec(tid, th.last_ip)
            for other in [t for t, o in self.threads.items() if o.proc.tgid == tgid]:
                del self.threads[other]  # every other thread is gone, and this one's calls never return
            proc = self.procs[tgid] = Proc(tgid)  # (no space: nothing probed, until its entry point if held)
            proc.started = True
            self.threads[tgid] = Thread(tgid, proc, th.visible if th is not None else True)
            if value:  # the launched command: it stopped itself, to be probed again
                self._own_stop[tgid] = self._own_stop.get(tgid, 0) + 1
                self._exec_pending.add(tgid)

    def _copy_frame(self, f: Frame, pid: int) -> Frame:
        g = Frame(f.name, f.display, f.ret, f.sp, f.depth, pid, f.syscall, f.short, f.origin)
        g.t0, g.proto, g.raws, g.src, g.ctx, g.first_out = f.t0, f.proto, f.raws, f.src, f.ctx, f.first_out
        g.params = list(f.params)
        g.delim = f.delim
        if f.ctx is not None:
            g.ctx = P.FmtCtx(f.ctx.mem, f.ctx.strlen, f.ctx.arraylen, f.ctx.args, model=f.ctx.model)
        if id(f) in self._saved_args:
            self._saved_args[id(g)] = self._saved_args[id(f)]
        return g

    # -- -c -----------------------------------------------------------------------------------

    def read_counts(self) -> None:
        """The sites' call counts and times summed into ltrace's table, by function name."""
        assert self.summary is not None and self.maps is not None
        stats = _MapRef(self.maps.stats, 4, EP.STAT_VALUE)
        for i, site in enumerate(self.sites):
            raw = stats.lookup(struct.pack("<I", i))
            if raw is None:
                continue
            calls, ns = struct.unpack_from("<QQ", raw, 0)
            if calls:
                st = self.summary.stats.setdefault(site.sym.short, [0, 0.0])
                st[0] += calls
                st[1] += ns / 1e9
        if self._usdt_counts:  # (a probe takes no time: 0 s, as on the ptrace backend)
            hits = _MapRef(self._usdt_counts, 4, 8)
            for i, us in enumerate(self.usdt_sites):
                n = _U64.unpack(hits.lookup(struct.pack("<I", i)) or bytes(8))[0]
                if n:
                    self.summary.stats.setdefault(us.site.display, [0, 0.0])[0] += n

    def read_lost(self) -> int:
        assert self.maps is not None
        lost = _MapRef(self.maps.lost, 4, 8)
        return sum(_U64.unpack(lost.lookup(struct.pack("<I", i)) or bytes(8))[0] for i in range(LOST_SLOTS))

    def lost_by_kind(self) -> list[int]:
        assert self.maps is not None
        lost = _MapRef(self.maps.lost, 4, 8)
        return [_U64.unpack(lost.lookup(struct.pack("<I", i)) or bytes(8))[0] for i in range(LOST_SLOTS)]


class _MapRef(bpf.Map):
    """A Map view of an fd owned elsewhere (Resources closes it)."""

    def __init__(self, fd: int, key_size: int, value_size: int) -> None:  # noqa: D107
        self.fd, self.key_size, self.value_size, self.map_type, self.name = fd, key_size, value_size, 0, "map"


def _map_update(fd: int, key: bytes, value: bytes) -> None:
    _MapRef(fd, len(key), len(value)).update(key, value)


def _map_delete(fd: int, key: bytes) -> None:
    _MapRef(fd, len(key), 0).delete(key)


def _prefault(space: RecordingSpace, maps: list[tuple[int, int, str, int, str]]) -> None:
    """Read every non-executable file-backed page of the stopped process once, through /proc/PID/mem.

    eBPF cannot take page faults: a constant string (a format, a file name) in a page the
    program has not touched yet cannot be copied at the call.  Reading it from here maps
    the page into the process (get_user_pages), as its first use would have; only the
    data segments are read (a few MiB), never the code.
    """
    for lo, hi, perms, _off, _path in maps:
        if perms.startswith("r") and "x" not in perms:
            addr = lo
            while addr < hi:
                n = min(hi - addr, 1 << 20)
                try:
                    os.pread(space.fd, n, addr)
                except OSError:
                    pass
                addr += n


def _wait_stopped(pid: int, timeout: float = 2.0) -> bool:
    """Whether ``pid`` (not our child) reaches the stopped state soon (its /proc state ``T``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                state = f.read().rsplit(b") ", 1)[1][:1]
        except (OSError, IndexError):
            return False
        if state in (b"T", b"t"):
            return True
        time.sleep(0.0005)
    return False


def _kernel_at_least(major: int, minor: int) -> bool:
    try:
        parts = os.uname().release.split(".")
        return (int(parts[0]), int("".join(c for c in parts[1] if c.isdigit()) or 0)) >= (major, minor)
    except (ValueError, IndexError):
        return False


def _status_tgid(tid: int) -> int:
    try:
        with open(f"/proc/{tid}/status") as f:
            for line in f:
                if line.startswith("Tgid:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return tid


def _elf_class(path: str) -> int:
    try:
        with open(path, "rb") as f:
            head = f.read(5)
    except OSError:
        return 0
    return head[4] if head[:4] == b"\x7fELF" else 0


def _program_entry(path: str) -> tuple[str, int] | None:
    """(file, offset) of the instruction the program starts at: its own entry, or its #! interpreter's."""
    real = os.path.realpath(path)
    try:
        with open(real, "rb") as f:
            head = f.read(256)
    except OSError:
        return None
    if head.startswith(b"#!"):
        interp = head[2:].split(b"\n", 1)[0].strip().split()
        if not interp:
            return None
        return _program_entry(os.fsdecode(interp[0]))
    if _elf_class(real) != 2:
        return None
    off = U.entry_point(real)
    return None if off is None else (real, off)

