"""The ptrace backend: one waitpid(-1, __WALL) loop that classifies every stop.

Stops and what we do with them (see ptrace(2), "Stopped states"):

* syscall stop (WSTOPSIG == SIGTRAP|0x80): PTRACE_GET_SYSCALL_INFO says entry
  or exit -- never a toggled flag, which desynchronises after a missed stop;
* PTRACE_EVENT_STOP with a stop signal: group-stop.  Under SEIZE we answer
  with PTRACE_LISTEN, so the process really stays stopped until SIGCONT, as
  it would untraced;
* PTRACE_EVENT_STOP with SIGTRAP: our PTRACE_INTERRUPT or a new child's
  first stop -- just resume;
* other ptrace events (fork/vfork/clone/exec): bookkeeping, then resume;
* anything else is a signal-delivery stop: report it and re-inject it.

The hot path is the syscall stop of an untraced syscall: one
GET_SYSCALL_INFO, one bitmap lookup, one PTRACE_SYSCALL.

With ``--seccomp-bpf`` (seccomp.py; on by default for a launched command with
-f and a narrowed trace set) the tracee runs under PTRACE_CONT and stops only
for the syscalls its filter returns SECCOMP_RET_TRACE for: a
PTRACE_EVENT_SECCOMP stop, which on Linux >= 4.8 is the syscall's entry; the
tracee is then resumed with PTRACE_SYSCALL to catch that call's exit, and with
PTRACE_CONT again after it (``Tracee.resume`` holds the request used outside
a traced call).  Untraced syscalls never stop at all.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import os
import struct
import time
from collections.abc import Callable

from pytrace.backends.ptrace import binding as B
from pytrace.backends.ptrace.detach import detach
from pytrace.backends.ptrace.memory import MemoryReader
from pytrace.backends.result import RunResult
from pytrace.events import (
    Call,
    DetachEvent,
    ExecSupersededEvent,
    ExitEvent,
    GroupStopEvent,
    PersonalityEvent,
    SignalEvent,
)
from pytrace.records import dataclass, field  # not dataclasses: start-up cost
from pytrace.tables.subcalls import MULTIPLEXERS, widen_bitmap
from pytrace.tables.subcalls import resolve as resolve_subcall
from pytrace.tables.syscalls import AUDIT_ARCH, table

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

    from pytrace.backends.ptrace.launcher import InheritedSignals
    from pytrace.backends.ptrace.tamper import Tamper
    from pytrace.events import Sink

_STOP_SIGNALS = frozenset((signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU))
_SYSCALL_TRAP = signal.SIGTRAP | 0x80
# Whole wait statuses of the two hot stops: (SIGTRAP|0x80) << 8 | 0x7f, and PTRACE_EVENT_SECCOMP's.
_SYSCALL_STOP = _SYSCALL_TRAP << 8 | 0x7F
_SECCOMP_STOP = (B.PTRACE_EVENT_SECCOMP << 16) | (signal.SIGTRAP << 8) | 0x7F
_P_SYSCALL = B.PTRACE_SYSCALL
_P_CONT = B.PTRACE_CONT
_OP_EXIT = B.OP_EXIT
_OP_ENTRY = B.OP_ENTRY
_GET_SYSCALL_INFO = B.PTRACE_GET_SYSCALL_INFO
_SCI_SIZE = B.SYSCALL_INFO_SIZE
_fast_ptrace = B.fast_ptrace
_now = time.time
# Fields of struct ptrace_syscall_info read separately, so an untraced call unpacks two numbers only.
_SCI_ARCH_NR = struct.Struct("<4xI16xQ")  # arch (offset 4), entry/seccomp nr (offset 24)
_SCI_IP_SP = struct.Struct("<8xQQ")  # instruction_pointer, stack_pointer
_SCI_IP_SP_ARGS = struct.Struct("<8xQQ8x6Q")  # instruction_pointer, stack_pointer, entry/seccomp args[6]
_SCI_RVAL = struct.Struct("<24xqB")  # exit rval, is_error
_SCI_IS_ERROR = 32  # offset of the exit's is_error byte
_AUDIT_X86_64 = next(audit for audit, arch in AUDIT_ARCH.items() if arch == "x86_64")
_X86_64 = "x86_64"
_FATAL_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM)


def _signal_at_detach(status: int) -> int:
    """The signal to hand over when detaching from this stop: a signal-delivery stop's, not a
    group-stop's (detaching leaves the process stopped, as it would be untraced)."""
    stop_sig = os.WSTOPSIG(status)
    event = status >> 16
    if event == 0 and stop_sig != _SYSCALL_TRAP:
        return stop_sig
    return 0


# What a stopped tracee's siginfo says its stop is (_stop_in).
_NOT_STOPPED, _GROUP_STOP, _PTRACE_STOP, _SIGNAL_STOP = range(4)


def _stop_in(pid: int) -> tuple[int, int]:
    """(kind, signal) of the stop ``pid`` sits in, read from its siginfo, whether or not its wait
    status was taken: a group-stop, a ptrace stop (a syscall stop or a ptrace event, seccomp's
    included), a signal-delivery stop of ``signal``, or _NOT_STOPPED (running, or gone)."""
    info = B.get_siginfo(pid)
    if info is None:
        return _NOT_STOPPED, 0
    signo, _errno, code = B.SIGINFO_HEAD.unpack_from(info)
    event = code >> 8 if code > 0 else 0  # ptrace's own stops: SIGTRAP | event << 8 (kill/tkill: <= 0)
    if event == B.PTRACE_EVENT_STOP and signo in _STOP_SIGNALS:
        return _GROUP_STOP, signo
    if event or code == _SYSCALL_TRAP:
        return _PTRACE_STOP, 0
    return _SIGNAL_STOP, signo


class _Interrupted(Exception):
    """Raised from our signal handler to leave a blocking waitpid."""


@dataclass(slots=True)
class Tracee:
    pid: int
    mem: MemoryReader
    launched: bool  # started by us (vs attached with -p)
    hidden: bool = False  # our own child before its execve: calls not shown
    # Followed only because it carries our seccomp filter (--seccomp-bpf without -f): never shown,
    # resumed with PTRACE_CONT at every stop, its seccomp stops included.  Always hidden too; with
    # exec_shown it is a thread whose exec took the shown leader's pid (only its exit is shown).
    silent: bool = False
    # Its execve was shown (strace shows even a failed one); it stays hidden until PTRACE_EVENT_EXEC says
    # the exec succeeded, so what a failed exec leaves (our "exec: ..." message, exit) is not shown.
    exec_shown: bool = False
    arch: str = "x86_64"
    call: Call | None = None  # the traced call in flight, if any
    in_syscall: bool = False  # between an entry and an exit stop (traced or not)
    prev_nr: int = 0  # last syscall entered, traced or not: what -n prints on signal/exit lines (strace's scno)
    # The last traced call whose exit was seen: restart_syscall names it (strace 6.1's s_prev_ent), so
    # a restart of an untraced call reads "system call", and of an interrupted restart "restart_syscall".
    last_name: str | None = None
    attached_msg: bool = False
    grabbed: bool = False  # seized by -p and not stopped yet: its first stop names a pending restart_syscall
    skip_exec_detach: bool = False  # -b execve: the launched command's own first exec does not detach
    tamper: Any = None  # -e inject/fault per-thread state (occurrence counters), owned by tamper.py
    # The request that resumes it outside a traced call: PTRACE_SYSCALL, or PTRACE_CONT once it is
    # known to run under our seccomp filter (then only the filter's calls stop it).
    resume: int = _P_SYSCALL
    # Per-personality lookups cached at the last personality switch (see PtraceBackend._set_arch).
    arch_id: int = -1
    tab: Any = None
    bitmap: Any = b""
    unknown: bool = True
    # -c alone (TraceOptions.count_only): the number of the x86_64 call in flight, -1 if none, and its
    # start (ru_stime in whole microseconds, or wall-clock seconds with -w).
    count_nr: int = -1
    count_t0: float = 0


@dataclass
class TraceOptions:
    follow_forks: bool = False
    quiet: int = 0
    quiet_attach: bool = False  # strace implies it for "-o FILE PROG": no "Process N attached" for -f children
    trace_bitmap: Callable[[str], tuple[bytearray, bool]] = field(default=lambda arch: (bytearray(), True))
    detach_on_execve: bool = False
    message: Callable[[str], None] = field(default=lambda text: None)
    # -c/-C without -w: stamp each Call with the tracee's ru_stime (wait4) at entry and exit.
    cpu_times: bool = False
    # -c with nothing else that needs Calls (no -P/-Y filter, no tampering): the Summary's add.  The
    # loop then counts x86_64 calls itself, with no Call, no arguments and no sink call per syscall;
    # durations measured as the sink would (cpu_times: ru_stime microseconds, else wall clock).
    count_only: Callable[[str, int, int, bool], None] | None = None
    # -i: read the instruction pointer at signal/group stops (and after an exec) for the line prefix.
    instruction_pointer: bool = False
    tamper: Tamper | None = None  # -e inject=/fault=: interposes on the sink, the syscall resume and waitpid
    # -Y: called with a tracee's pid when it appears (strace reads its comm for the line prefix there).
    task_hook: Callable[[int], None] | None = None
    # --seccomp-bpf: the launched command installs our filter (launcher.SeccompFilter) before its execve.
    seccomp: bool = False
    # --seccomp-bpf without -f: the launched command's children and threads inherit the filter, so they
    # are followed anyway (else a filtered call of theirs would fail with ENOSYS) but silently: nothing
    # of theirs reaches the sink, and every stop of theirs is resumed at once with PTRACE_CONT.
    follow_silently: bool = False
    # pyltrace (pytrace/ltrace/tracer.py).  breakpoint_handler sees each SIGTRAP signal-delivery stop first
    # and returns True when the trap was one of its int3s (it has then resumed the tracee itself);
    # event_hook runs at fork/vfork/clone/exec stops before the resume (returning True, it keeps the tracee
    # stopped and resumes it itself later); resume_cont resumes every tracee
    # with PTRACE_CONT (no syscall stops at all) when no syscall is shown.
    breakpoint_handler: Callable[[Tracee], bool] | None = None
    event_hook: Callable[[Tracee, int], bool | None] | None = None
    resume_cont: bool = False
    # Called once the backend exists, in the tracing process itself (after -D's fork): pytrace starts
    # the periodic flush of its trace outputs there (pytrace/sinks/output.py PeriodicFlush).
    on_start: Callable[[], None] | None = None
    # --kill-on-exit (strace 6.6): PTRACE_O_EXITKILL on every tracee, so that a tracer killed outright
    # takes its tracees with it; a fatal signal we catch then ends them too instead of detaching.
    kill_on_exit: bool = False
    quiet_exit: bool = False  # --quiet=exit (-qq): no "Exit of unknown pid N ignored" either
    own_children: frozenset[int] = frozenset()  # our helpers (-o '|cmd'): their exit is no tracee's
    # strace's loop ends only when wait() says ECHILD (unless a -o '|cmd' helper is running): an untraced
    # child of ours (a tracee's CLONE_PARENT child, one we inherited) is waited for and reported.
    wait_all_children: bool = False
    # A guest in someone else's process (the Python API, pipeline.Host): it waits only for its own
    # thread's children and tracees (__WNOTHREAD: the host's subprocesses are not reaped), touches no
    # signal disposition, and is stopped by request_stop() instead of a signal.
    guest: bool = False
    # strace's "umoven: short read" warning, given to every tracee's MemoryReader (None: silent).
    short_read_message: Callable[[str], None] | None = None


class _CpuTimeStamps:
    """Sink wrapper for CPU-time summaries: waits with wait4 and stamps Calls with the tracee's ru_stime.

    strace -c measures a syscall as the growth of the tracee's system CPU time
    (wait4's rusage) between its entry and exit stops.  The stime of the stop
    being handled is kept here and written on the Call as ``entry_stime`` /
    ``exit_stime`` just before the real sink sees it.
    """

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.stime = 0.0

    def wait(self, pid: int, options: int) -> tuple[int, int]:
        pid, status, usage = os.wait4(pid, options)
        self.stime = usage.ru_stime
        return pid, status

    def on_entry(self, call: Call) -> None:
        call.entry_stime = self.stime
        self.sink.on_entry(call)

    def on_exit(self, call: Call) -> None:
        call.exit_stime = self.stime
        self.sink.on_exit(call)

    def __getattr__(self, name: str) -> object:  # every other event goes straight through
        return getattr(self.sink, name)


class PtraceBackend:
    def __init__(self, sink: Sink, opts: TraceOptions) -> None:
        self.sink = sink
        self.opts = opts
        self._waitpid = os.waitpid
        self._stamps: _CpuTimeStamps | None = None
        if opts.cpu_times:  # decided once: the default loop keeps plain waitpid and no stamping
            stamps = self._stamps = _CpuTimeStamps(sink)
            self.sink, self._waitpid = stamps, stamps.wait
        self.tracees: dict[int, Tracee] = {}
        self.main_pid = 0
        self.resume_syscall = _fast_ptrace  # resumes a syscall stop; tampering may add a signal or hold it
        if opts.tamper is not None:  # decided once: without -e inject/fault no tamper code runs per stop
            opts.tamper.attach(self)
        if opts.on_start is not None:
            opts.on_start()
        self.result = RunResult()
        self.sci = B.SyscallInfoReader()
        self._sci_buf = self.sci.buf
        self._sci_c = self.sci.cbuf
        if not self.sci.supported:  # decided once (PYTRACE_NO_SYSCALL_INFO): registers at every stop
            self._on_syscall_stop = self._on_syscall_stop_regs  # type: ignore[method-assign]
        self._count = opts.count_only  # -c alone: run() takes _count_loop (decided once)
        self._arch_cache: dict[int, tuple[str, Any, Any, bool]] = {}
        # The personality last switched to: a new child starts in it (strace's tcp->currpers =
        # current_personality), so an i386 parent's children print no "[ Process PID=N runs in" line.
        self._current_arch = "x86_64"
        self._attached_any = False  # -p tracees (never filtered) exist: -f children are marked lazily
        self._silent = 0  # how many tracees are silent (see Tracee.silent): never counted for the sink
        self._grab_nr: int | None = None  # see _grabbed_stop
        self.base_options = B.PTRACE_O_TRACESYSGOOD | B.PTRACE_O_TRACEEXEC
        if opts.follow_forks:
            self.base_options |= B.PTRACE_O_TRACEFORK | B.PTRACE_O_TRACEVFORK | B.PTRACE_O_TRACECLONE
        if opts.kill_on_exit:  # inherited by every -f child, as the kernel copies the options
            self.base_options |= B.PTRACE_O_EXITKILL
        # strace's PTRACE_O_TRACEEXIT: a thread's call it never returns from ends "= ?" when the thread
        # exits (print_event_exit), not when its exit is reported; only with a sink that prints that.
        self._abandon: Callable[[Call], None] | None = getattr(self.sink, "on_abandoned", None)
        if self._abandon is not None:
            self.base_options |= B.PTRACE_O_TRACEEXIT
        self._bitmaps: dict[str, tuple[bytearray, bool]] = {}
        self._in_wait = False
        self._interrupted = 0
        self._start = time.monotonic()
        self._reap_detached = 0  # our own child that -b execve let go: waited for at the end, as strace does
        if opts.breakpoint_handler is not None:  # decided once: strace's signal path stays as it is
            self._on_signal = self._on_signal_bp  # type: ignore[method-assign]
        self._resume_default = _P_CONT if opts.resume_cont else _P_SYSCALL

    # -- setting up ----------------------------------------------------------

    def _bitmap(self, arch: str) -> tuple[bytearray, bool]:
        bm = self._bitmaps.get(arch)
        if bm is None:
            bm = self._bitmaps[arch] = self.opts.trace_bitmap(arch)
        return bm

    def _add(self, pid: int, launched: bool, hidden: bool = False) -> Tracee:
        t = Tracee(pid, MemoryReader(pid, self.opts.short_read_message), launched, hidden)
        t.resume = self._resume_default
        self.tracees[pid] = t
        if self.opts.task_hook is not None:
            self.opts.task_hook(pid)
        self.sink.on_process_count(len(self.tracees) - self._silent)
        return t

    def _add_silent(self, pid: int) -> Tracee:
        """A child of a filtered tracee that -f does not show (TraceOptions.follow_silently): run it at full speed."""
        t = Tracee(pid, MemoryReader(pid, None), launched=True, hidden=True, silent=True, resume=_P_CONT)
        self.tracees[pid] = t
        self._silent += 1
        return t

    def launch(self, pid: int) -> None:
        """Seize a child that spawn_stopped() forked, and let it run into its execve.

        No PTRACE_O_EXITKILL unless --kill-on-exit asked for it: as with strace 6.1, a tracer
        that is killed leaves its tracees running, untraced (the kernel detaches them).
        """
        _, status = os.waitpid(pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):
            raise OSError(0, f"Unexpected wait status {status:#x}")
        options = self.base_options
        if self.opts.seccomp:
            options |= B.PTRACE_O_TRACESECCOMP  # without it SECCOMP_RET_TRACE fails the call with ENOSYS
        if self.opts.follow_silently:  # the launched command's descendants only: -p tracees carry no filter
            options |= B.PTRACE_O_TRACEFORK | B.PTRACE_O_TRACEVFORK | B.PTRACE_O_TRACECLONE
        try:
            B.ptrace_checked(B.PTRACE_SEIZE, pid, 0, options)
        except B.PtraceFailure as exc:  # strace: kill_save_errno(pid, SIGKILL), then its message
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise OSError(exc.errno, f"attach: ptrace(PTRACE_SEIZE, {pid})") from None
        self.main_pid = pid
        t = self._add(pid, launched=True, hidden=True)
        t.skip_exec_detach = True
        if self.opts.seccomp:
            t.resume = _P_CONT  # its filter goes in just before its execve; nothing before that is shown
        os.kill(pid, signal.SIGCONT)

    def attach(self, pid: int) -> int:
        """Seize ``pid`` and, with -f, every other thread of it (/proc/PID/task); returns the thread count.

        Without -f strace seizes only the thread given, as pytrace does.
        """
        try:
            tids = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task")) if self.opts.follow_forks else [pid]
        except OSError:
            tids = [pid]
        if pid in tids:
            tids.remove(pid)
        tids.insert(0, pid)
        n = 0
        for tid in tids:
            if tid in self.tracees:
                continue
            try:
                B.ptrace_checked(B.PTRACE_SEIZE, tid, 0, self.base_options)
            except B.PtraceFailure as exc:
                if tid == pid:
                    raise OSError(exc.errno, f"attach: ptrace(PTRACE_SEIZE, {pid})") from None
                continue
            B.raw_ptrace(B.PTRACE_INTERRUPT, tid, 0, 0)
            self._add(tid, launched=False).grabbed = True
            self._attached_any = True
            n += 1
        return n

    def attach_daemonized(self, pid: int) -> None:
        """-D: seize the process that is about to exec the command (our grandparent), hidden until that exec."""
        self.attach(pid)
        t = self.tracees[pid]
        t.hidden = t.skip_exec_detach = True
        self.main_pid = pid

    # -- the loop -------------------------------------------------------------

    @property
    def waiting(self) -> bool:
        """Whether the loop sleeps in waitpid: a signal handler then interrupts no event's handling."""
        return self._in_wait

    def _on_fatal_signal(self, signo: int, _frame: object) -> None:
        self._interrupted = signo
        if self._in_wait:
            raise _Interrupted

    def install_signal_handlers(
        self, block: bool, *, anywhere: bool = False, inherited: InheritedSignals | None = None,
    ) -> None:
        """strace's -I logic: ignore fatal signals (-I3/-I4, the -o FILE PROG default), detach on them
        (-I2), or (-I1, ``anywhere``) leave them as inherited: a default one then ends pytrace at once
        and the kernel lets the tracees go, as it does for strace.

        main() blocked these signals at start-up; a Ctrl-C that came while we were attaching is
        pending and is acted on here, once the mask pytrace inherited is back (``inherited``; a
        signal our parent blocked stays blocked, so it never reaches us, as with strace).
        """
        for sig in _FATAL_SIGNALS:
            if anywhere:
                handler = inherited.disposition(sig) if inherited is not None else signal.SIG_DFL
            else:
                handler = signal.SIG_IGN if block else self._on_fatal_signal
            signal.signal(sig, handler)
        if inherited is None:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _FATAL_SIGNALS)
        else:
            signal.pthread_sigmask(signal.SIG_SETMASK, inherited.blocked)

    def request_stop(self, signo: int) -> None:
        """Any thread: detach from every tracee at the loop's next wake-up, as on catching ``signo``.

        The launched command then gets ``signo`` (strace's cleanup); with the CLI the signal
        handler does this, a guest calls it and wakes the loop with a child of its own.
        """
        self._interrupted = signo

    def run(self) -> RunResult:
        tracees = self.tracees
        waitpid = self._waitpid
        resume = self.resume_syscall
        on_syscall_stop = self._on_syscall_stop
        on_seccomp_stop = self._on_seccomp_stop
        WALL = B.WALL | B.WNOTHREAD if self.opts.guest else B.WALL
        wait_all = self.opts.wait_all_children
        try:
            if self._count is not None and self.sci.supported:
                self._count_loop(WALL, wait_all)
            else:
                while tracees or wait_all:
                    if self._interrupted:
                        raise _Interrupted
                    self._in_wait = True
                    try:
                        pid, status = waitpid(-1, WALL)
                    except ChildProcessError:
                        break
                    finally:
                        self._in_wait = False
                    t = tracees.get(pid)
                    if t is None:
                        t = self._unknown(pid, status)
                        if t is None:
                            continue
                    if status == _SYSCALL_STOP:
                        resume(on_syscall_stop(t), pid, 0, 0)
                        continue
                    if status == _SECCOMP_STOP:
                        resume(on_seccomp_stop(t), pid, 0, 0)
                        continue
                    if (status & 0xFF) != 0x7F:  # WIFEXITED or WIFSIGNALED
                        self._on_gone(t, status)
                        continue
                    sig = (status >> 8) & 0xFF
                    event = status >> 16
                    if event:
                        self._on_event(t, event, sig)
                    else:
                        self._on_signal(t, sig)
            if self._reap_detached:
                self._wait_detached_child()
        except _Interrupted:
            self._detach_all(self._interrupted)
            self.result.interrupted_by = self._interrupted
        finally:
            self.sink.close()
        if self._interrupted and self.opts.follow_silently:
            self._serve_silent(WALL)
        return self.result

    def _serve_silent(self, wall: int) -> None:
        """After a fatal signal, with the output complete: keep resuming the silent tracees until they end.

        They carry our seccomp filter, so detached they would get ENOSYS for every filtered call, and
        strace without -f would never have touched them.  _detach_all has let the shown tracees go
        (or killed them, --kill-on-exit); nothing is reported any more, only resumed as it stops.
        """
        tracees = self.tracees
        for t in list(tracees.values()):
            self._kick(t)
        while tracees or self._adopt_unseen():
            try:
                pid, status = os.waitpid(-1, wall)
            except ChildProcessError:
                return
            t = tracees.get(pid)
            if (status & 0xFF) != 0x7F:  # ended
                if t is not None:
                    del tracees[pid]
                continue
            if t is None:  # a new child of a silent tracee, at its first stop
                t = self._add_silent(pid)
            sig = (status >> 8) & 0xFF
            event = status >> 16
            if event == B.PTRACE_EVENT_STOP and sig in _STOP_SIGNALS:
                B.raw_ptrace(B.PTRACE_LISTEN, pid, 0, 0)
                continue
            if event == B.PTRACE_EVENT_EXEC:  # a thread that execs takes the leader's pid; its own is gone
                former = B.get_event_msg(pid)
                if former != pid:
                    tracees.pop(former, None)
            _fast_ptrace(_P_CONT, pid, 0, 0 if event or sig == _SYSCALL_TRAP else sig)

    def _wait_detached_child(self) -> None:
        """strace runs until wait() says ECHILD, so it outlives the child -b execve detached (exit status 0)."""
        self._in_wait = True
        try:
            os.waitpid(self._reap_detached, 0)
        except ChildProcessError:
            pass
        finally:
            self._in_wait = False
            self._reap_detached = 0

    def _unknown(self, pid: int, status: int) -> Tracee | None:
        """A wait status from a pid we do not trace: strace's maybe_allocate_tcb.

        Ended: the child -b execve let go (reaped silently), one of our own helpers (``-o '|cmd'``),
        or a process that became our child without being traced (a tracee's CLONE_PARENT child, a
        child we inherited): "Exit of unknown pid N ignored".  Stopped: a new -f child, or without
        -f a tracee's CLONE_PTRACE child, which strace lets go at once ("Detached unknown pid N").
        """
        if (status & 0xFF) != 0x7F:
            if pid == self._reap_detached:
                self._reap_detached = 0
            elif pid not in self.opts.own_children and not self.opts.quiet_exit:
                self.opts.message(f"Exit of unknown pid {pid} ignored")
            return None
        if self.opts.follow_forks:
            return self._new_child(pid)
        if self.opts.follow_silently:  # a child or thread of the filtered command
            return self._add_silent(pid)
        B.raw_ptrace(B.PTRACE_DETACH, pid, 0, 0)
        if not self.opts.quiet_attach:
            self.opts.message(f"Detached unknown pid {pid}")
        return None

    def _new_child(self, pid: int) -> Tracee:
        """A stop from a pid we have not seen yet: a child auto-attached by -f."""
        t = self._add(pid, launched=True)
        t.arch = self._current_arch
        if self.opts.seccomp and not self._attached_any:
            # Every tracee descends from the launched command, so this child inherited its filter
            # (a -p tracee's children would not have: then the first seccomp stop marks a child).
            t.resume = _P_CONT
        if not self.opts.quiet and not self.opts.quiet_attach:
            self.opts.message(f"Process {pid} attached")
        return t

    # -- syscall stops ----------------------------------------------------------

    def _on_syscall_stop(self, t: Tracee) -> int:
        """A syscall-entry or -exit stop; returns the ptrace request that resumes the tracee.

        One PTRACE_GET_SYSCALL_INFO into a reused buffer; an untraced entry unpacks only
        the arch and the number, a traced one its arguments too (in ``_entry``).
        """
        buf = self._sci_buf
        if _fast_ptrace(_GET_SYSCALL_INFO, t.pid, _SCI_SIZE, self._sci_c) < 0:
            self.sci.failed()  # EIO: a kernel older than 5.3
            self._syscall_stop_from_regs(t)
            return _P_SYSCALL if t.in_syscall else t.resume
        op = buf[0]
        if op == _OP_EXIT:
            if t.call is None:
                t.in_syscall = False
            else:
                rval, is_error = _SCI_RVAL.unpack_from(buf)
                self._exit(t, rval, is_error)
        elif op:  # OP_ENTRY (OP_SECCOMP stops arrive as PTRACE_EVENT_SECCOMP, see _on_seccomp_stop)
            arch_id, nr = _SCI_ARCH_NR.unpack_from(buf)
            self._entry(t, arch_id, 0, 0, nr, None)
        else:
            self._syscall_stop_from_regs(t)
        return _P_SYSCALL if t.in_syscall else t.resume

    def _count_loop(self, WALL: int, wait_all: bool) -> None:
        """run()'s loop for -c alone (decided once, see __init__): a traced x86_64 call is counted in
        the loop itself, from the syscall-info buffer, with no Call and no Python call per stop but
        ``Summary.add`` at the exit.

        Per stop this is the floor of a CPython ptrace loop (benchmarks/ptrace_floor.py's bare
        Python loop: one wait4, one PTRACE_GET_SYSCALL_INFO, one resume) plus the count.  wait4's
        rusage is the clock strace -c reads (the tracee's ru_stime); it is used where it is
        returned, not stored.  Everything else (the launched command's hidden calls, other
        personalities, untraced calls of a narrowed set, events, signals) takes the general
        handlers, the stop's ru_stime handed to the CPU-time stamps first, so their Calls reach
        the same Summary measured the same way (SummarySink._exit_cpu / _exit_wall).
        """
        tracees = self.tracees
        wait4 = os.wait4
        ptrace = _fast_ptrace
        buf, cbuf = self._sci_buf, self._sci_c
        count = self._count
        stamps = self._stamps
        cpu = stamps is not None  # else -w: wall-clock durations
        arch_nr = _SCI_ARCH_NR.unpack_from
        while tracees or wait_all:
            if self._interrupted:
                raise _Interrupted
            self._in_wait = True
            try:
                pid, status, usage = wait4(-1, WALL)
            except ChildProcessError:
                break
            finally:
                self._in_wait = False
            t = tracees.get(pid)
            if t is None:
                if cpu:
                    stamps.stime = usage.ru_stime
                t = self._unknown(pid, status)
                if t is None:
                    continue
            if status == _SYSCALL_STOP:
                if ptrace(_GET_SYSCALL_INFO, pid, _SCI_SIZE, cbuf) < 0:
                    if cpu:
                        stamps.stime = usage.ru_stime
                    self.sci.failed()  # EIO: a kernel older than 5.3
                    self._syscall_stop_from_regs(t)
                    ptrace(_P_SYSCALL if t.in_syscall else t.resume, pid, 0, 0)
                    continue
                op = buf[0]
                if op == _OP_EXIT:
                    nr = t.count_nr
                    if nr >= 0:
                        t.count_nr = -1
                        t.in_syscall = False
                        if cpu:  # SummarySink._exit_cpu's arithmetic
                            duration = (round(usage.ru_stime * 1e6) - t.count_t0) * 1000
                        else:  # SummarySink._exit_wall's
                            duration = round((_now() - t.count_t0) * 1e9)
                        count(_X86_64, nr, duration, buf[_SCI_IS_ERROR] != 0)
                        ptrace(t.resume, pid, 0, 0)
                        continue
                elif op == _OP_ENTRY:
                    arch_id, nr = arch_nr(buf)
                    if arch_id == t.arch_id == _AUDIT_X86_64 and not t.hidden:
                        bitmap = t.bitmap
                        if bitmap[nr] if nr < len(bitmap) else t.unknown:
                            t.in_syscall = True
                            t.prev_nr = t.count_nr = nr
                            t.count_t0 = round(usage.ru_stime * 1e6) if cpu else _now()
                            ptrace(_P_SYSCALL, pid, 0, 0)
                            continue
                if cpu:
                    stamps.stime = usage.ru_stime
                ptrace(self._uncounted_stop(t, op), pid, 0, 0)
                continue
            if cpu:
                stamps.stime = usage.ru_stime
            if status == _SECCOMP_STOP:
                ptrace(self._on_seccomp_stop(t), pid, 0, 0)
            elif (status & 0xFF) != 0x7F:  # WIFEXITED or WIFSIGNALED
                self._on_gone(t, status)
            elif status >> 16:
                self._on_event(t, status >> 16, (status >> 8) & 0xFF)
            else:
                self._on_signal(t, (status >> 8) & 0xFF)

    def _uncounted_stop(self, t: Tracee, op: int) -> int:
        """A syscall stop _count_loop does not count itself, from the buffer it fetched: what
        _on_syscall_stop does with it.  Returns the request that resumes the tracee."""
        buf = self._sci_buf
        if op == _OP_EXIT:
            if t.call is None:
                t.in_syscall = False
            else:
                rval, is_error = _SCI_RVAL.unpack_from(buf)
                self._exit(t, rval, is_error)
            return t.resume
        if op:
            arch_id, nr = _SCI_ARCH_NR.unpack_from(buf)
            self._entry(t, arch_id, 0, 0, nr, None)
        else:
            self._syscall_stop_from_regs(t)
        return _P_SYSCALL if t.in_syscall else t.resume

    def _on_syscall_stop_regs(self, t: Tracee) -> int:
        """_on_syscall_stop without PTRACE_GET_SYSCALL_INFO (chosen once, see __init__)."""
        self._syscall_stop_from_regs(t)
        return _P_SYSCALL if t.in_syscall else t.resume

    def _on_seccomp_stop(self, t: Tracee) -> int:
        """A SECCOMP_RET_TRACE stop: on Linux >= 4.8 the entry of a syscall our filter selects.

        A tracee resumed with PTRACE_CONT has no syscall-entry stop, so this stop is the
        entry.  A tracee still resumed with PTRACE_SYSCALL (a -f child not yet known to
        carry the filter, strace's TCB_SECCOMP_FILTER logic) had its entry stop first,
        already handled: this stop only says that from now on PTRACE_CONT is enough
        between traced calls.  Either way PTRACE_SYSCALL catches the call's exit.
        """
        if t.silent:
            return _P_CONT  # the call runs as it would untraced: never ENOSYS, never shown
        t.resume = _P_CONT
        if not t.in_syscall:
            buf = self._sci_buf
            if _fast_ptrace(_GET_SYSCALL_INFO, t.pid, _SCI_SIZE, self._sci_c) < 0 or buf[0] != B.OP_SECCOMP:
                self._syscall_stop_from_regs(t)  # rax is -ENOSYS and in_syscall is False: an entry
            else:
                arch_id, nr = _SCI_ARCH_NR.unpack_from(buf)
                self._entry(t, arch_id, 0, 0, nr, None)
        return _P_SYSCALL

    def _set_arch(self, t: Tracee, arch_id: int, ip: int) -> None:
        """A tracee's first call, or one in another personality: refresh its cached table and bitmap."""
        cached = self._arch_cache.get(arch_id)
        if cached is None:
            arch = AUDIT_ARCH.get(arch_id, "x86_64")
            bitmap, unknown = self._bitmap(arch)
            if arch == "i386":  # socketcall stops are needed when one of its subcalls is traced
                bitmap = widen_bitmap(table(arch), bitmap)
            cached = self._arch_cache[arch_id] = (arch, table(arch), bitmap, unknown)
        arch, t.tab, t.bitmap, t.unknown = cached
        t.arch_id = arch_id
        self._current_arch = arch
        if arch != t.arch:
            t.arch = arch
            if not t.hidden:
                self.sink.on_personality(PersonalityEvent(t.pid, arch, t.prev_nr, ip))

    def _entry(self, t: Tracee, arch_id: int, ip: int, sp: int, nr: int, args: tuple[int, ...] | None) -> None:
        """A syscall entry.  ``args`` None: ip, sp and the arguments are still in the syscall-info
        buffer and are unpacked only if the call is traced."""
        t.in_syscall = True
        if arch_id != t.arch_id:
            self._set_arch(t, arch_id, ip if args is not None else _SCI_IP_SP.unpack_from(self._sci_buf)[0])
        t.prev_nr = nr
        if t.hidden:
            if nr not in t.tab.with_flag("exec"):  # the table's flags column: execve, execveat
                t.call = None
                return
            t.exec_shown = True  # still hidden: see Tracee.exec_shown
        bitmap = t.bitmap
        if not (bitmap[nr] if nr < len(bitmap) else t.unknown):
            t.call = None
            return
        if args is None:  # one unpack for the three: ip, sp, args[6]
            regs = _SCI_IP_SP_ARGS.unpack_from(self._sci_buf)
            ip = regs[0]
            sp = regs[1]
            args = regs[2:]
        tab = t.tab
        name = tab.name(nr)
        cuts = tab.cuts  # int/unsigned int arguments as the kernel reads them (syscall_tables' decode column)
        if nr in cuts:
            args = cuts[nr](args)
        if name in MULTIPLEXERS:  # i386 socketcall: printed and selected as its subcall, like strace
            sub = resolve_subcall(nr, args, t.mem, tab, bitmap)
            if sub is None:
                t.call = None
                return
            nr, name, args = sub
        call = Call(t.pid, t.arch, nr, name, args, ip, sp, t.mem, _now())
        if name == "restart_syscall":
            call.aux = t.last_name
        t.call = call
        self.sink.on_entry(call)

    def _exit(self, t: Tracee, rval: int, is_error: int) -> None:
        t.in_syscall = False
        call = t.call
        if call is None:
            return
        t.call = None
        t.last_name = call.name
        call.exit_time = _now()
        call.exited = True
        if is_error:
            call.error = -rval
            call.rval = -1
        else:
            call.rval = rval
        self.sink.on_exit(call)

    def _syscall_stop_from_regs(self, t: Tracee) -> None:
        """Kernels without PTRACE_GET_SYSCALL_INFO: rax == -ENOSYS marks an entry on x86_64."""
        regs = B.get_regs(t.pid)
        if regs is None:
            return
        compat = regs["cs"] == 0x23  # a 32-bit code segment: the i386 personality
        if not t.in_syscall and (regs["rax"] & B.ERROR_RESULT) == (-38 & B.ERROR_RESULT):
            if compat:
                m = 0xFFFFFFFF
                args = (regs["rbx"] & m, regs["rcx"] & m, regs["rdx"] & m, regs["rsi"] & m, regs["rdi"] & m,
                        regs["rbp"] & m)
                self._entry(t, 0x40000003, regs["rip"], regs["rsp"], regs["orig_rax"] & m, args)
            else:
                args = (regs["rdi"], regs["rsi"], regs["rdx"], regs["r10"], regs["r8"], regs["r9"])
                self._entry(t, 0xC000003E, regs["rip"], regs["rsp"], regs["orig_rax"], args)
        else:
            rv = regs["rax"]
            if compat:
                rv &= 0xFFFFFFFF
                srv = rv - (1 << 32) if rv >> 31 else rv
            else:
                srv = rv - (1 << 64) if rv >> 63 else rv
            self._exit(t, srv, 1 if -4095 <= srv < 0 else 0)

    # -- other stops ------------------------------------------------------------

    def _on_event(self, t: Tracee, event: int, sig: int) -> None:
        pid = t.pid
        if event == B.PTRACE_EVENT_EXIT:
            call = t.call
            if call is not None and self._abandon is not None and not t.hidden:
                t.call = None
                self._abandon(call)
            _fast_ptrace(_P_SYSCALL if t.in_syscall else t.resume, pid, 0, 0)
            return
        self._current_arch = t.arch  # a fork/clone event: the child about to appear starts in this one
        if event == B.PTRACE_EVENT_STOP:
            if sig in _STOP_SIGNALS:
                if not t.hidden:
                    self.sink.on_group_stop(GroupStopEvent(pid, sig, t.arch, t.prev_nr, self._ip(pid)))
                B.raw_ptrace(B.PTRACE_LISTEN, pid, 0, 0)
                return
            if t.grabbed:
                self._grabbed_stop(t)
            _fast_ptrace(_P_SYSCALL if t.in_syscall else t.resume, pid, 0, 0)
            return
        if event == B.PTRACE_EVENT_EXEC:
            former = B.get_event_msg(pid)
            t.mem.close()
            if former and former != pid and former in self.tracees:
                self._superseded(pid, former)
            t = self.tracees.get(pid, t)
            t.hidden = t.silent  # the exec succeeded: from here on everything is the command's own
            if t.call is not None and self.opts.instruction_pointer:
                t.call.ip = self._ip(pid)  # a "<... execve resumed>" line shows the new program's IP
            if self.opts.detach_on_execve:  # -b execve: let go at the exec, its line ends "<detached ...>"
                if t.skip_exec_detach:
                    t.skip_exec_detach = False
                else:
                    if pid == self.main_pid and t.launched:
                        self._reap_detached = pid  # still our child: strace waits for it before exiting
                    self._detach_one(t, 0)
                    return
        if self.opts.event_hook is not None and self.opts.event_hook(t, event):
            return  # the hook keeps it stopped and resumes it later (pyltrace: a vfork parent)
        _fast_ptrace(_P_SYSCALL if t.in_syscall else t.resume, pid, 0, 0)

    def _grabbed_stop(self, t: Tracee) -> None:
        """The first stop of a -p tracee: what a ``restart_syscall`` it resumes says it interrupted.

        strace (startup_tcb) takes the syscall number of this stop from its one
        PTRACE_GET_SYSCALL_INFO buffer; the kernel fills only the header at a
        non-syscall stop, so the number is whatever the previous call left there:
        0, "read", as strace handles the first stops of all the threads it seized
        in one batch before any syscall stop.  The number of the first such stop
        is kept for the later ones, which pytrace may see after syscall stops.
        """
        t.grabbed = False
        if _fast_ptrace(_GET_SYSCALL_INFO, t.pid, _SCI_SIZE, self._sci_c) < 0:
            return
        arch_id, nr = _SCI_ARCH_NR.unpack_from(self._sci_buf)
        if self._grab_nr is None:
            self._grab_nr = nr
        t.last_name = table(AUDIT_ARCH.get(arch_id, "x86_64")).name(self._grab_nr)

    def _ip(self, pid: int) -> int | None:
        """The tracee's instruction pointer when -i prints it (a register read), else None."""
        if not self.opts.instruction_pointer:
            return None
        regs = B.get_regs(pid)
        return regs["rip"] if regs is not None else None

    def _superseded(self, leader: int, former: int) -> None:
        """A non-leader thread exec'd: it now has the leader's pid; the old leader is gone."""
        old_leader = self.tracees.pop(leader, None)
        execer = self.tracees.pop(former)
        if execer.silent and old_leader is not None and not old_leader.silent:
            # Without -f strace never sees this thread; it sees its own child, the command, exit later
            # under the same pid: the silent thread stands in for the leader, its exit alone is shown.
            execer.exec_shown, execer.call = True, old_leader.call
            old_leader.mem.close()
            old_leader = None
            self._silent -= 1
        elif old_leader is not None:
            self.sink.on_superseded(
                ExecSupersededEvent(leader, former, old_leader.arch, old_leader.prev_nr), old_leader.call)
            old_leader.mem.close()
        execer.pid = leader
        execer.mem = MemoryReader(leader, self.opts.short_read_message)
        if execer.call is not None:
            execer.call.pid = leader
        self.tracees[leader] = execer
        if old_leader is not None and old_leader.silent:
            self._silent -= 1
        self.sink.on_process_count(len(self.tracees) - self._silent)

    def _on_signal(self, t: Tracee, sig: int) -> None:
        pid = t.pid
        if not t.hidden:
            self.sink.on_signal(SignalEvent(pid, sig, B.get_siginfo(pid), t.arch, t.prev_nr, self._ip(pid)))
        _fast_ptrace(_P_SYSCALL if t.in_syscall else t.resume, pid, 0, sig)

    def _on_signal_bp(self, t: Tracee, sig: int) -> None:
        """_on_signal with breakpoints (chosen once, see __init__): a SIGTRAP may be one of ours."""
        if sig == signal.SIGTRAP and self.opts.breakpoint_handler(t):  # type: ignore[misc]
            return
        PtraceBackend._on_signal(self, t, sig)

    def _on_gone(self, t: Tracee, status: int) -> None:
        pid = t.pid
        del self.tracees[pid]
        t.mem.close()
        if t.silent and not t.exec_shown:
            self._silent -= 1
            return
        if os.WIFEXITED(status):
            ev = ExitEvent(pid, os.WEXITSTATUS(status), arch=t.arch, nr=t.prev_nr)
        else:
            ev = ExitEvent(pid, 0, os.WTERMSIG(status), os.WCOREDUMP(status), t.arch, t.prev_nr)
        if pid == self.main_pid:
            self.result = RunResult(ev.status, ev.signo, ev.core_dumped)
        if not t.hidden or t.exec_shown:  # strace reports the exit of a child whose exec failed
            self.sink.on_exit_process(ev, t.call)
        self.sink.on_process_count(len(self.tracees) - self._silent)

    # -- detaching -----------------------------------------------------------------

    def _adopt_unseen(self) -> bool:
        """Tasks the kernel attached to us (a silent tracee's new child) whose first stop is still unseen.

        Only after a fatal signal, when the known tracees are gone: /proc's TracerPid is the one
        record of them, and leaving them behind would detach (or kill) them with the filter on.
        """
        import glob  # this rare path only: not on every start-up's import list
        import threading

        me = str(threading.get_native_id())  # the tracer is this thread (a guest's is not the main one)
        found = False
        for task in glob.glob("/proc/[0-9]*/task/[0-9]*/status"):
            try:
                with open(task) as f:
                    traced_by = next((line.split()[1] for line in f if line.startswith("TracerPid:")), "")
            except OSError:
                continue
            if traced_by == me:
                self._kick(self._add_silent(int(task.split("/")[4])))
                found = True
        return found

    @staticmethod
    def _kick(t: Tracee) -> None:
        """Resume ``t`` if it sits in a stop whose wait status we never handled, as the loop would have.

        The fatal signal's handler raises out of waitpid, and can do so just after waitpid has
        taken a status (CPython runs handlers as the call returns): that stop is then never
        answered.  The siginfo of the stop says what it was (``_stop_in``); a tracee that is not
        stopped is left alone, its next stop comes through waitpid.  Resuming a stop whose status
        is still pending clears that status, so nothing is handled twice.
        """
        kind, signo = _stop_in(t.pid)
        if kind == _GROUP_STOP:
            B.raw_ptrace(B.PTRACE_LISTEN, t.pid, 0, 0)  # a group-stop: stays stopped, as untraced
        elif kind == _PTRACE_STOP:
            _fast_ptrace(_P_CONT, t.pid, 0, 0)
        elif kind == _SIGNAL_STOP:  # a signal-delivery stop: deliver it
            _fast_ptrace(_P_CONT, t.pid, 0, signo)

    def _detach_all(self, signo: int) -> None:
        """Let every tracee go, leaving it running (the launched command gets the fatal signal, as strace does)."""
        if not self.opts.guest:  # a guest never touches its host's signal dispositions
            for sig in _FATAL_SIGNALS:
                signal.signal(sig, signal.SIG_IGN)
        if self.opts.kill_on_exit:
            # strace 6.6's cleanup(): no detach, our exit makes the kernel SIGKILL every tracee.  Silent
            # ones (see run's _serve_silent) are not ours to kill: the shown ones get that SIGKILL now.
            if self.opts.follow_silently:
                for t in list(self.tracees.values()):
                    if not t.silent or t.exec_shown:
                        os.kill(t.pid, signal.SIGKILL)
            return
        command = 0
        for t in list(self.tracees.values()):
            if t.silent and not t.exec_shown:
                continue  # never detached with the filter on: run's _serve_silent resumes it to its end
            if signo and t.launched and t.pid == self.main_pid:
                command = t.pid
            self._detach_one(t, 0)
        if command:
            # strace's cleanup(): only the command it started gets the signal (a stopped one is continued
            # first); its -f children are merely let go.  Sent once it is detached: a signal that reached
            # it while traced could stop it for us and be dropped by the PTRACE_DETACH that follows.
            for sig in (signal.SIGCONT, signo):
                try:
                    os.kill(command, sig)
                except OSError:
                    pass

    def _detach_one(self, t: Tracee, sig: int) -> None:
        pid = t.pid
        self.tracees.pop(pid, None)
        if t.silent and not t.exec_shown:  # nothing to say: it was never shown
            self._silent -= 1
            t.mem.close()
        else:
            self._detached_msg(t)  # strace's droptcb_verbose: the message, then " <detached ...>" ends the line
            self.sink.on_detach(DetachEvent(pid, t.call))
            # e.g. "[pid N]" prefixes stop when one is left
            self.sink.on_process_count(len(self.tracees) - self._silent)
        if not sig:
            # Stopped in a signal-delivery stop, its signal goes with the detach: the loop may not have
            # seen that stop (a pending wait status, or one a fatal signal's handler took the loop away
            # from, see _kick); PTRACE_DETACH with 0 would swallow the signal.
            # Under pyltrace a SIGTRAP stop is one of its own int3s (its on_detach has just put the
            # instruction back and rewound the pc): handing that over would kill the program.
            kind, signo = _stop_in(pid)
            if kind == _SIGNAL_STOP and not (signo == signal.SIGTRAP and self.opts.breakpoint_handler is not None):
                sig = signo
        # Running (or in PTRACE_LISTEN): interrupted, and detached from its next stop.
        detach(pid, sig, _signal_at_detach)

    def _detached_msg(self, t: Tracee) -> None:
        """strace says it for every tracee, launched ones included, unless attach messages are quiet."""
        if not self.opts.quiet and not self.opts.quiet_attach:
            self.opts.message(f"Process {t.pid} detached")
        t.mem.close()
