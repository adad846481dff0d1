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
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pytrace.backends.ptrace import binding as B
from pytrace.backends.ptrace.memory import MemoryReader
from pytrace.events import (
    Call,
    DetachEvent,
    ExecSupersededEvent,
    ExitEvent,
    GroupStopEvent,
    PersonalityEvent,
    SignalEvent,
)
from pytrace.tables.syscalls import AUDIT_ARCH, table

if TYPE_CHECKING:
    from pytrace.events import Sink

_STOP_SIGNALS = frozenset((signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU))
_SYSCALL_TRAP = signal.SIGTRAP | 0x80
_EXECVE_NAMES = frozenset(("execve", "execveat"))
_FATAL_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM)


class _Interrupted(Exception):
    """Raised from our signal handler to leave a blocking waitpid."""


@dataclass(slots=True)
class Tracee:
    pid: int
    mem: MemoryReader
    launched: bool  # started by us (vs attached with -p)
    hidden: bool = False  # our own child before its execve: calls not shown
    arch: str = "x86_64"
    call: Call | None = None  # the traced call in flight, if any
    in_syscall: bool = False  # between an entry and an exit stop (traced or not)
    prev_nr: int = 0  # last syscall entered; restart_syscall names it (strace starts at 0, "read")
    attached_msg: bool = False


@dataclass
class TraceOptions:
    follow_forks: bool = False
    quiet: int = 0
    quiet_attach: bool = False  # strace implies it for "-o FILE PROG": no "Process N attached" for -f children
    trace_bitmap: Callable[[str], tuple[bytearray, bool]] = field(default=lambda arch: (bytearray(), True))
    detach_on_execve: bool = False
    message: Callable[[str], None] = field(default=lambda text: None)


@dataclass
class RunResult:
    exit_status: int = 0
    killed_by: int = 0
    core_dumped: bool = False
    interrupted_by: int = 0  # the fatal signal that made us detach, if any


class PtraceBackend:
    def __init__(self, sink: Sink, opts: TraceOptions) -> None:
        self.sink = sink
        self.opts = opts
        self.tracees: dict[int, Tracee] = {}
        self.main_pid = 0
        self.result = RunResult()
        self.sci = B.SyscallInfoReader()
        self.base_options = B.PTRACE_O_TRACESYSGOOD | B.PTRACE_O_TRACEEXEC
        if opts.follow_forks:
            self.base_options |= B.PTRACE_O_TRACEFORK | B.PTRACE_O_TRACEVFORK | B.PTRACE_O_TRACECLONE
        self._bitmaps: dict[str, tuple[bytearray, bool]] = {}
        self._in_wait = False
        self._interrupted = 0
        self._start = time.monotonic()

    # -- setting up ----------------------------------------------------------

    def _bitmap(self, arch: str) -> tuple[bytearray, bool]:
        bm = self._bitmaps.get(arch)
        if bm is None:
            bm = self._bitmaps[arch] = self.opts.trace_bitmap(arch)
        return bm

    def _add(self, pid: int, launched: bool, hidden: bool = False) -> Tracee:
        t = Tracee(pid, MemoryReader(pid), launched, hidden)
        self.tracees[pid] = t
        self.sink.on_process_count(len(self.tracees))
        return t

    def launch(self, pid: int) -> None:
        """Seize a child that spawn_stopped() forked, and let it run into its execve."""
        _, status = os.waitpid(pid, os.WUNTRACED)
        if not os.WIFSTOPPED(status):
            raise OSError(f"child {pid} did not stop")
        B.ptrace_checked(B.PTRACE_SEIZE, pid, 0, self.base_options | B.PTRACE_O_EXITKILL)
        self.main_pid = pid
        self._add(pid, launched=True, hidden=True)
        os.kill(pid, signal.SIGCONT)

    def attach(self, pid: int) -> int:
        """Seize every thread of ``pid`` (from /proc/PID/task); returns the thread count."""
        try:
            tids = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
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
            self._add(tid, launched=False)
            n += 1
        return n

    # -- the loop -------------------------------------------------------------

    def _on_fatal_signal(self, signo: int, _frame: object) -> None:
        self._interrupted = signo
        if self._in_wait:
            raise _Interrupted

    def install_signal_handlers(self, block: bool) -> None:
        """strace's -I logic: ignore fatal signals (-o FILE PROG) or detach on them."""
        for sig in _FATAL_SIGNALS:
            signal.signal(sig, signal.SIG_IGN if block else self._on_fatal_signal)

    def run(self) -> RunResult:
        tracees = self.tracees
        waitpid = os.waitpid
        raw = B.raw_ptrace
        P_SYSCALL = B.PTRACE_SYSCALL
        WALL = B.WALL
        try:
            while tracees:
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
                    if not (status & 0x7F):  # exited/killed before we knew it (e.g. our own helper)
                        continue
                    t = self._new_child(pid)
                if (status & 0xFF) != 0x7F:  # WIFEXITED or WIFSIGNALED
                    self._on_gone(t, status)
                    continue
                sig = (status >> 8) & 0xFF
                if sig == _SYSCALL_TRAP:
                    self._on_syscall_stop(t)
                    raw(P_SYSCALL, pid, 0, 0)
                    continue
                event = status >> 16
                if event:
                    self._on_event(t, event, sig)
                else:
                    self._on_signal(t, sig)
        except _Interrupted:
            self._detach_all(self._interrupted)
            self.result.interrupted_by = self._interrupted
        finally:
            self.sink.close()
        return self.result

    def _new_child(self, pid: int) -> Tracee:
        """A stop from a pid we have not seen yet: a child auto-attached by -f."""
        t = self._add(pid, launched=True)
        if not self.opts.quiet and not self.opts.quiet_attach:
            self.opts.message(f"Process {pid} attached")
        return t

    # -- syscall stops ----------------------------------------------------------

    def _on_syscall_stop(self, t: Tracee) -> None:
        sci = self.sci
        op = sci.fetch(t.pid)
        if op == B.OP_ENTRY or op == B.OP_SECCOMP:
            _, arch_id, ip, sp, nr, a0, a1, a2, a3, a4, a5 = sci.entry()
            self._entry(t, arch_id, ip, sp, nr, (a0, a1, a2, a3, a4, a5))
        elif op == B.OP_EXIT:
            _, _, _, _, rval, is_error = sci.exit()
            self._exit(t, rval, is_error)
        elif op < 0 or op == B.OP_NONE:
            self._syscall_stop_from_regs(t)

    def _entry(self, t: Tracee, arch_id: int, ip: int, sp: int, nr: int, args: tuple[int, ...]) -> None:
        t.in_syscall = True
        arch = AUDIT_ARCH.get(arch_id, "x86_64")
        if arch != t.arch:
            t.arch = arch
            if not t.hidden:
                self.sink.on_personality(PersonalityEvent(t.pid, arch))
        tab = table(arch)
        names = tab.names
        name = names[nr] if nr < len(names) and names[nr] is not None else tab.name(nr)
        prev = t.prev_nr
        t.prev_nr = nr
        if t.hidden:
            if name not in _EXECVE_NAMES:
                t.call = None
                return
            t.hidden = False
        bitmap, unknown_traced = self._bitmap(arch)
        if not (bitmap[nr] if nr < len(bitmap) else unknown_traced):
            t.call = None
            return
        call = Call(t.pid, arch, nr, name, args, ip, sp, t.mem, time.time())
        if name == "restart_syscall":
            call.aux = tab.name(prev)
            t.prev_nr = prev
        t.call = call
        self.sink.on_entry(call)

    def _exit(self, t: Tracee, rval: int, is_error: int) -> None:
        t.in_syscall = False
        call = t.call
        if call is None:
            return
        t.call = None
        call.exit_time = time.time()
        call.exited = True
        if is_error:
            call.error = -rval
            call.rval = -1
        else:
            call.rval = rval
        self.sink.on_exit(call)
        if self.opts.detach_on_execve and call.name in _EXECVE_NAMES and not is_error:
            self._detach_one(t, 0)

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
        if event == B.PTRACE_EVENT_STOP:
            if sig in _STOP_SIGNALS:
                if not t.hidden:
                    self.sink.on_group_stop(GroupStopEvent(pid, sig))
                B.raw_ptrace(B.PTRACE_LISTEN, pid, 0, 0)
                return
            B.raw_ptrace(B.PTRACE_SYSCALL, pid, 0, 0)
            return
        if event == B.PTRACE_EVENT_EXEC:
            former = B.get_event_msg(pid)
            t.mem.close()
            if former and former != pid and former in self.tracees:
                self._superseded(pid, former)
        B.raw_ptrace(B.PTRACE_SYSCALL, pid, 0, 0)

    def _superseded(self, leader: int, former: int) -> None:
        """A non-leader thread exec'd: it now has the leader's pid; the old leader is gone."""
        old_leader = self.tracees.pop(leader, None)
        execer = self.tracees.pop(former)
        if old_leader is not None:
            self.sink.on_superseded(ExecSupersededEvent(leader, leader), old_leader.call)
            old_leader.mem.close()
        execer.pid = leader
        execer.mem = MemoryReader(leader)
        if execer.call is not None:
            execer.call.pid = leader
        self.tracees[leader] = execer
        self.sink.on_process_count(len(self.tracees))

    def _on_signal(self, t: Tracee, sig: int) -> None:
        pid = t.pid
        if not t.hidden:
            self.sink.on_signal(SignalEvent(pid, sig, B.get_siginfo(pid), t.arch))
        B.raw_ptrace(B.PTRACE_SYSCALL, pid, 0, sig)

    def _on_gone(self, t: Tracee, status: int) -> None:
        pid = t.pid
        del self.tracees[pid]
        t.mem.close()
        if os.WIFEXITED(status):
            ev = ExitEvent(pid, os.WEXITSTATUS(status))
        else:
            ev = ExitEvent(pid, 0, os.WTERMSIG(status), os.WCOREDUMP(status))
        if pid == self.main_pid:
            self.result = RunResult(ev.status, ev.signo, ev.core_dumped)
        if not t.hidden:
            self.sink.on_exit_process(ev, t.call)
        self.sink.on_process_count(len(self.tracees))

    # -- detaching -----------------------------------------------------------------

    def _detach_all(self, signo: int) -> None:
        """Let every tracee go, leaving it running (launched ones get the fatal signal, as strace does)."""
        for sig in _FATAL_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        for t in list(self.tracees.values()):
            if t.launched and signo:
                try:
                    os.kill(t.pid, signo)
                except OSError:
                    pass
            self._detach_one(t, 0)

    def _detach_one(self, t: Tracee, sig: int) -> None:
        pid = t.pid
        self.tracees.pop(pid, None)
        self.sink.on_detach(DetachEvent(pid, t.call))
        if B.raw_ptrace(B.PTRACE_DETACH, pid, 0, sig) != B.ERROR_RESULT:
            self._detached_msg(t)
            return
        # Running (or in PTRACE_LISTEN): interrupt it, wait for its next stop, detach from there.
        if B.raw_ptrace(B.PTRACE_INTERRUPT, pid, 0, 0) == B.ERROR_RESULT:
            return
        while True:
            try:
                _, status = os.waitpid(pid, B.WALL)
            except ChildProcessError:
                return
            if not os.WIFSTOPPED(status):
                return
            stop_sig = os.WSTOPSIG(status)
            event = status >> 16
            pass_sig = 0
            if event == 0 and stop_sig != _SYSCALL_TRAP:
                pass_sig = stop_sig  # a signal-delivery stop: hand the signal over, don't swallow it
            if event == B.PTRACE_EVENT_STOP and stop_sig in _STOP_SIGNALS:
                pass_sig = 0  # group-stopped: detaching leaves it stopped, as it would be untraced
            if B.raw_ptrace(B.PTRACE_DETACH, pid, 0, pass_sig) != B.ERROR_RESULT:
                self._detached_msg(t)
                return

    def _detached_msg(self, t: Tracee) -> None:
        if not t.launched and not self.opts.quiet:
            self.opts.message(f"Process {t.pid} detached")
        t.mem.close()
