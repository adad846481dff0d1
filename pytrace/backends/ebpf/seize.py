"""PTRACE_SEIZE next to the eBPF programs: backpressure, signals and exact process events.

The eBPF programs see syscalls; a tracer sees more.  Under ``--backend=ebpf`` the
traced threads are also seized (PTRACE_SEIZE, which makes no stop by itself) with
no syscall stops at all, so the normal flow never stops.  What the seize adds:

* **backpressure** -- the sys_exit program stops a thread itself (SIGURG, or SIGSTOP
  when the thread blocks SIGURG, through ``bpf_send_signal_thread``, see
  ``programs.throttle``) when the ring buffer holds more than its high-water mark;
  the stop shows up here as a signal-delivery-stop with ``si_code == SI_KERNEL``
  (no process can send that code) of the signal the program noted for that thread
  (``held_by_us``: the kernel sends SIGURG with SI_KERNEL too, for urgent socket
  data), is swallowed, and the thread is resumed by ``release()`` once the consumer
  has drained the ring.  The traced program cannot observe it: the signal is never
  delivered, its syscall has already returned, nothing else changes.  Should pytrace
  be killed meanwhile, the thread runs on with the signal delivered: SIGURG's
  default action is to do nothing;
* **signals** -- every other signal-delivery-stop is printed (``--- SIGCHLD {...} ---``
  from PTRACE_GETSIGINFO, after draining the ring so that the thread's earlier
  syscalls come first) and re-injected, as the ptrace backend does; group-stops
  are printed and left stopped with PTRACE_LISTEN;
* **exits** -- PTRACE_EVENT_EXIT gives each thread's exact status (``+++ exited with N +++``,
  ``+++ killed by SIGx +++``, for every process, not only our child) before its
  sched_process_exit record is written, so the line is printed at that record's place
  in the stream (before the parent's wait4 returns, as strace shows it); a thread
  killed by SIGKILL, which makes no exit stop, is printed from its wait status;
* **-f** -- PTRACE_O_TRACEFORK/VFORK/CLONE attach every new task before it runs, so
  its own throttling works from its first syscall.

Waking up: a ptrace stop sends SIGCHLD to the tracer; SIGCHLD is blocked and read
through a signalfd that the consumer polls next to the ring buffer's fd.
"""

from __future__ import annotations

import ctypes
import os
import signal
import struct
from collections.abc import Callable

from pytrace.backends.ptrace import binding as B
from pytrace.backends.ptrace.detach import detach
from pytrace.events import GroupStopEvent, SignalEvent, Sink
from pytrace.records import dataclass  # not dataclasses: start-up cost

SI_KERNEL = 0x80
_STOP_SIGNALS = frozenset((signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU))
_FORK_EVENTS = frozenset((B.PTRACE_EVENT_FORK, B.PTRACE_EVENT_VFORK, B.PTRACE_EVENT_CLONE))
_SI_CODE = struct.Struct("<8xi")


@dataclass(slots=True)
class _Tracee:
    pid: int
    hidden: bool = False  # the launched command before its execve: its signals are the launcher's


class _Unbound:
    """The sink before ``bind()``: no stop can be reported before streaming starts (none is waited for)."""

    def __getattr__(self, name: str) -> object:
        raise RuntimeError(f"Seizer.{name} before bind()")


_UNBOUND: Sink = _Unbound()  # type: ignore[assignment]


class ChildWakeup:
    """A signalfd for SIGCHLD (blocked in this thread): readable when a tracee stops or ends."""

    def __init__(self) -> None:
        libc = ctypes.CDLL(None, use_errno=True)
        mask = ctypes.create_string_buffer(struct.pack("<Q", 1 << (signal.SIGCHLD - 1)), 128)
        self._old = signal.pthread_sigmask(signal.SIG_BLOCK, (signal.SIGCHLD,))
        self.fd = libc.signalfd(-1, mask, os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            self.fd = -1  # the consumer's poll timeout still bounds the wait

    def clear(self) -> None:
        if self.fd >= 0:
            try:
                while os.read(self.fd, 128 * 8):
                    pass
            except BlockingIOError:
                pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
        if signal.SIGCHLD not in self._old:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGCHLD,))


class Seizer:
    """The tracees, their stops, and which of them wait in a backpressure stop.

    ``drain()`` empties the ring buffer into the sink (called before a signal or an
    exit is printed); ``gone(tid, status)`` prints a thread's end from its wait status.
    """

    def __init__(self, follow: bool, guest: bool, announce: Callable[[int], None] | None = None) -> None:
        self.sink: Sink = _UNBOUND
        # drain(upto=None): the records written so far (or before ``upto``, a mark()) to the sink.
        self.drain: Callable[..., None] = lambda upto=None: None
        self.mark: Callable[[], int | None] = lambda: None
        self.gone: Callable[[int, int], None] = lambda tid, status: None
        self.options = B.PTRACE_O_TRACEEXEC | B.PTRACE_O_TRACEEXIT
        if follow:
            self.options |= B.PTRACE_O_TRACEFORK | B.PTRACE_O_TRACEVFORK | B.PTRACE_O_TRACECLONE
        self.follow = follow
        self.wait_flags = B.WALL | os.WNOHANG | (B.WNOTHREAD if guest else 0)
        self.tracees: dict[int, _Tracee] = {}
        self.throttled: list[int] = []
        self.deferred: list[tuple[int, int]] = []  # (pid, wait status) taken by between(), for poll()
        self.throttles = 0  # backpressure stops taken, for the benchmark's and the tests' eyes
        self.main_pid = 0
        self.main_status: int | None = None  # the launched command's wait status once reaped
        self.exit_status: dict[int, int] = {}  # tid -> wait status, from its PTRACE_EVENT_EXIT stop
        self.exit_shown: set[int] = set()  # tids whose end was printed from their exit record
        self.wakeup = ChildWakeup()
        # (tid, signal) -> whether it is the backpressure stop the sys_exit program sent (and noted)
        self.held_by_us: Callable[[int, int], bool] = lambda tid, sig: False
        # tid -> None: its note dropped once the thread is reaped (it died before its stop, or
        # the note outlived it): its id may be reused, and a note for it would swallow a genuine
        # SI_KERNEL SIGURG (a socket's urgent data) of the thread that gets the id next.
        self.forget_held: Callable[[int], None] = lambda tid: None
        self.announce = announce  # "Process N attached" for a new child, when strace would say it
        self._early_exit: tuple[int, int] | None = None  # the command's end, reaped by _let_go

    def bind(self, sink: Sink, drain: Callable[..., None], gone: Callable[[int, int], None],
             mark: Callable[[], int | None] | None = None) -> None:
        """Where stops are reported: set when streaming starts (attaching happens before).
        ``mark()``: the ring's producer position, for a drain of what was written before it."""
        self.sink, self.drain, self.gone = sink, drain, gone
        if mark is not None:
            self.mark = mark
        sink.on_process_count(self.count())

    def count(self) -> int:
        """Threads traced now, for the sinks' "[pid N]" prefixes (the ptrace backend's count)."""
        return max(len(self.tracees) - len(self.exit_shown), 1)

    def _new_child(self, pid: int, upto: int | None = None) -> _Tracee:
        """A -f child, from its parent's fork event or its own first stop (whichever comes first).
        ``upto``: the parent, already resumed, made its calls up to the fork before this mark."""
        t = self.tracees[pid] = _Tracee(pid)
        for i, (waiter, status) in enumerate(self.deferred):  # its first stop, taken before it was ours
            if waiter == pid:
                if self._quick(pid, status):
                    del self.deferred[i]
                break
        self.drain(upto)  # the parent's calls up to its fork first, as the ptrace backend prints them
        if self.announce is not None:
            self.announce(pid)
        self.sink.on_process_count(self.count())
        return t

    # -- attaching ----------------------------------------------------------------

    def launch(self, pid: int) -> None:
        """Seize a child that spawn_stopped() forked and that is stopped now; SIGCONT it."""
        B.ptrace_checked(B.PTRACE_SEIZE, pid, 0, self.options)
        self.main_pid = pid
        self.tracees[pid] = _Tracee(pid, hidden=True)
        os.kill(pid, signal.SIGCONT)
        self._let_go(pid)

    def _let_go(self, pid: int) -> None:
        """The launched child's stops up to its SIGCONT's, handled here and now: seized while stopped,
        it stops for us three times (the seize's trap, SIGCONT's trap, SIGCONT's delivery) before
        it can run to its execve, and left to ``poll`` they would wait for the stream loop to start
        (the ring's mapping and more: milliseconds before the first record, issue 14).  Stops of a
        hidden tracee print nothing, so no sink is needed yet; an exit (killed meanwhile) is kept
        for ``poll``.  Only the traps (PTRACE_EVENT_STOP) are waited past: the first other stop
        handled (SIGCONT's delivery, in practice) leaves the child running, and whatever comes next
        is the stream loop's, so this can never wait on a child that runs (or is held back by
        backpressure, which only the stream loop releases)."""
        flags = self.wait_flags & ~os.WNOHANG
        while True:
            try:
                _, status = os.waitpid(pid, flags)
            except ChildProcessError:
                return
            if (status & 0xFF) != 0x7F:
                self._early_exit = (pid, status)
                return
            self._handle(pid, status)
            if status >> 16 != B.PTRACE_EVENT_STOP:
                return

    def attach(self, tids: list[int]) -> list[int]:
        """Seize each of ``tids`` (a -p target's threads); returns those seized (the others are
        traced without backpressure: another tracer holds them, or they are gone)."""
        got = []
        for tid in tids:
            if tid in self.tracees:
                got.append(tid)
                continue
            try:
                B.ptrace_checked(B.PTRACE_SEIZE, tid, 0, self.options)
            except B.PtraceFailure:
                continue
            self.tracees[tid] = _Tracee(tid)
            got.append(tid)
        return got

    # -- stops --------------------------------------------------------------------

    def poll(self) -> None:
        """Handle every stop and exit that is waiting, without blocking (those ``between``
        deferred first: each thread has one stop at a time, so none is overtaken by its own)."""
        self.wakeup.clear()
        if self._early_exit is not None:  # from before the stream started: first
            early, self._early_exit = self._early_exit, None
            self._handle(*early)
        while self.deferred:
            self._handle(*self.deferred.pop(0))
        while True:
            try:
                pid, status = os.waitpid(-1, self.wait_flags)
            except ChildProcessError:
                return
            if pid == 0:
                return
            self._handle(pid, status)

    def between(self) -> bool:
        """Between two steps of a long drain: resume the threads whose stop prints nothing
        (an exit stop, a new thread's first stop, an exec), so that none waits for the whole
        backlog -- a program joining its threads waits for their exit stops.  Any other stop
        (it prints a line where its records end: a drain of its own) is kept for ``poll``;
        True when there is one (the main loop's drain then ends early, so that poll comes)."""
        while True:
            try:
                pid, status = os.waitpid(-1, self.wait_flags)
            except ChildProcessError:
                return bool(self.deferred)
            if pid == 0:
                return bool(self.deferred)
            if not self._quick(pid, status):
                self.deferred.append((pid, status))

    def _quick(self, pid: int, status: int) -> bool:
        """``_handle`` for a stop that needs no drain and prints nothing; False for any other."""
        t = self.tracees.get(pid)
        if t is None or (status & 0xFF) != 0x7F:
            return False
        sig, event = (status >> 8) & 0xFF, status >> 16
        if event == B.PTRACE_EVENT_STOP and sig not in _STOP_SIGNALS:
            pass  # a new child's first stop, or a PTRACE_INTERRUPT's
        elif event == B.PTRACE_EVENT_EXEC:
            t.hidden = False
        elif event == B.PTRACE_EVENT_EXIT:
            self.exit_status[pid] = B.get_event_msg(pid)
        else:
            return False
        self._cont(pid, 0)
        return True

    def _handle(self, pid: int, status: int) -> None:
        t = self.tracees.get(pid)
        if (status & 0xFF) != 0x7F:  # exited or killed
            if t is None:
                return  # not ours (an -o |cmd helper): reaped, as the ptrace backend does
            self.drain()  # its sched_process_exit record among them
            del self.tracees[pid]
            self.exit_status.pop(pid, None)
            self.forget_held(pid)  # reaped: before its id can be reused
            if pid in self.throttled:
                self.throttled.remove(pid)
            if pid == self.main_pid:
                self.main_status = status
            if pid in self.exit_shown:
                self.exit_shown.discard(pid)
            else:
                self.gone(pid, status)
            return
        if t is None:  # a -f child whose first stop came before its parent's fork event
            t = self._new_child(pid)
        sig = (status >> 8) & 0xFF
        event = status >> 16
        if event == B.PTRACE_EVENT_STOP:
            if sig in _STOP_SIGNALS:
                if not t.hidden:
                    self.drain()
                    self.sink.on_group_stop(GroupStopEvent(pid, sig))
                B.raw_ptrace(B.PTRACE_LISTEN, pid, 0, 0)
                return
            self._cont(pid, 0)  # a new child's first stop, or a PTRACE_INTERRUPT's
            return
        if event in _FORK_EVENTS:
            child = B.get_event_msg(pid)
            if child and child not in self.tracees:
                # Everything the parent did before its fork is written by now: note where that
                # ends and let it run on while those records are printed (its later ones come
                # after the mark), instead of holding it for the whole backlog (W5's pthread_create).
                upto = self.mark()
                self._cont(pid, 0)
                self._new_child(child, upto)
                return
        elif event == B.PTRACE_EVENT_EXEC:
            t.hidden = False
        elif event == B.PTRACE_EVENT_EXIT:
            self.exit_status[pid] = B.get_event_msg(pid)
        if event:
            self._cont(pid, 0)
            return
        info = B.get_siginfo(pid)
        if self._ours(pid, sig, info):
            self.throttled.append(pid)  # our own backpressure stop: held until release()
            self.throttles += 1
            return
        if not t.hidden:
            self.drain()
            self.sink.on_signal(SignalEvent(pid, sig, info))
        self._cont(pid, sig)

    def _ours(self, pid: int, sig: int, info: bytes | None) -> bool:
        """Whether this signal-delivery-stop is a backpressure stop (see programs.throttle)."""
        return info is not None and _SI_CODE.unpack_from(info)[0] == SI_KERNEL and self.held_by_us(pid, sig)

    @staticmethod
    def _cont(pid: int, sig: int) -> None:
        B.raw_ptrace(B.PTRACE_CONT, pid, 0, sig)  # ESRCH: killed meanwhile, its exit is on its way

    def release(self) -> None:
        """Resume the threads held for backpressure (the ring has been drained)."""
        for pid in self.throttled:
            self._cont(pid, 0)
        self.throttled.clear()

    # -- detaching ----------------------------------------------------------------

    def detach_all(self) -> None:
        """Let every tracee go, running (Ctrl-C): a held thread loses its backpressure signal."""
        held = set(self.throttled)
        self.throttled.clear()
        for pid, status in self.deferred:  # stopped, their stop taken by between(): detached from it
            if pid in self.tracees and os.WIFSTOPPED(status):
                del self.tracees[pid]
                sig = 0 if status >> 16 else os.WSTOPSIG(status)
                if sig and self._ours(pid, sig, B.get_siginfo(pid)):
                    sig = 0
                B.raw_ptrace(B.PTRACE_DETACH, pid, 0, sig)
        self.deferred.clear()
        for pid in list(self.tracees):
            del self.tracees[pid]
            if pid in held:
                B.raw_ptrace(B.PTRACE_DETACH, pid, 0, 0)
            else:
                self._detach_running(pid)

    def _detach_running(self, pid: int) -> None:
        """PTRACE_DETACH needs a stop: interrupt, then detach from the next stop passing on its signal
        (not our own backpressure stop)."""
        def pass_on(status: int) -> int:
            sig = os.WSTOPSIG(status)
            if status >> 16:
                return 0
            return 0 if self._ours(pid, sig, B.get_siginfo(pid)) else sig

        detach(pid, 0, pass_on)

    def close(self) -> None:
        self.wakeup.close()
