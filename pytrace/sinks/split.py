"""The split stop path: the tracer copies what each call needs and resumes; a render process prints.

With the whole pipeline in one process, a traced program waits at every stop while pytrace
decodes, formats and buffers the line.  Split, the tracer (``SplitSink``, in place of the sink
chain) only copies at each stop the memory the syscall's capture plan names (the ``capture``
column of the syscall tables, pytrace/decode/capture.py) and queues a small record; the tracee
runs on at once.  A render process (``Renderer``), forked once the run proves long, rebuilds the
calls from those records, with a ``SnapshotMemory`` in place of the live tracee, and feeds them
in the same order to the very sink chain the single-process path would have used: the same
decoders, the same text or JSON, the same files.  On a machine with a second core the traced
program then waits only for the copy.

What stays at the stop (``Predecoded``): a call whose plan is ``deep`` (ioctl, fcntl, sendmsg:
what the decoder reads depends on the data) or whose decoder reads the tracee's state besides
its memory (``Decoder.live``: the socket protocol behind a descriptor) is decoded at the stop by
the tracer, as without the split, and its texts travel instead of its bytes.

Timing.  Records are sent in batches: every BATCH records, and from the SIGALRM tick of
pytrace/sinks/output.py, which also runs while the tracer sleeps in waitpid, so the entry half
of a blocked call reaches the file while it blocks, as with the single-process path's buffered
outputs.  A full pipe blocks the tracer (the tracee waits: nothing is dropped).  The tracer's
end (its last events, Ctrl-C's ``<detached ...>``) closes the channel; the render process
finishes the outputs and exits, and the tracer waits for that before it exits itself.  A
SIGKILLed tracer leaves the render process an end of file: it writes what it received and exits.

Start-up.  The render process is forked at the first send (``RenderProcess``), not before the
trace: a run that ends within the first tick and batch (``pytrace true``) never forks, and the
tracer renders its records itself at the end, through the same ``Renderer`` and sinks, so the
output is the same either way and a short run pays for one process only.

Used only where the order of the trace against the tracee's own output cannot show: the trace
goes to a file or pipe of its own (``pipeline.split_allowed`` lists the rest of the rules).
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import os
import time

from pytrace.decode.capture import PATH_MAX, SnapshotMemory, copier
from pytrace.decode.decoding import Bound, Decoding
from pytrace.events import (
    Call,
    DetachEvent,
    ExecSupersededEvent,
    ExitEvent,
    GroupStopEvent,
    PersonalityEvent,
    SignalEvent,
)
from pytrace.sinks.output import PeriodicFlush
from pytrace.tables.syscalls import ARCHES, table

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from pytrace.decode.capture import Copier
    from pytrace.events import Sink
    from pytrace.tables.capture_plan import ArgPlan

#: Records queued before the tracer writes them (the SIGALRM tick writes fewer).
BATCH = 256
#: Bytes of a buffer copied at least (more with a larger -s): decoders print -s bytes of a string,
#: structures read through a ``bytes`` plan (a socket option, a bpf attribute) are far smaller.
MIN_BYTES = 4096
_WORD = {"i386": 4}
_X86_64 = "x86_64"
_now = time.time
#: The render process's command name (/proc/PID/comm).
RENDER_COMM = "pytrace-render"
#: A file to write the render process's cProfile statistics to (CPU clock), for benchmarks/PROFILE.md.
PROFILE_ENV = "PYTRACE_PROFILE_RENDER"

# Record kinds (the first item of each record tuple).
(_ENTRY, _EXIT, _SIGNAL, _GROUP_STOP, _GONE, _SUPERSEDED, _PERSONALITY, _DETACH, _COUNT, _ABANDONED,
 _CLOSE, _THREAD_GROUP) = range(12)


class Predecoded:
    """A call decoded at the stop: its entry text, exit text and return text, as the decoder gave them."""

    __slots__ = ("entry", "rest", "rtext", "split", "aux")

    def __init__(self, entry: str, split: bool, aux: Any) -> None:
        self.entry = entry
        self.rest = ""
        self.rtext: str | None = None
        self.split = split
        self.aux = aux  # what the backend put in call.aux (restart_syscall's name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_predecoded, (self.entry, self.rest, self.rtext, self.split, self.aux))


def _predecoded(entry: str, rest: str, rtext: str | None, split: bool, aux: Any) -> Predecoded:
    got = Predecoded(entry, split, aux)
    got.rest, got.rtext = rest, rtext
    return got


def replay_entry(p: object, c: Call) -> str:
    """The Bound.func of a predecoded call that printed everything at entry."""
    return c.aux.entry  # type: ignore[no-any-return]


def replay_split(p: object, c: Call) -> Any:
    """The Bound.func of a predecoded call decoded in two halves."""
    yield c.aux.entry
    yield c.aux.rest


def replay_rval(p: object, c: Call) -> str:
    return c.aux.rtext  # type: ignore[no-any-return]


class ReplayDecoding(Decoding):
    """The render process's decoding: a call decoded at the stop prints the texts it brought."""

    def _replay(self, pre: Predecoded) -> Bound:
        return Bound(replay_split if pre.split else replay_entry, pre.split, replay_rval, self.printer)

    def bound(self, call: Call) -> Bound:
        if type(call.aux) is Predecoded:
            return self._replay(call.aux)
        return self._x86.get(call.name) or self._bind(call.name)  # Decoding.bound, without a second call

    def bound_any(self, call: Call) -> Bound:
        if type(call.aux) is Predecoded:
            return self._replay(call.aux)
        return Decoding.bound_any(self, call)


class BatchTick(PeriodicFlush):
    """The tracer's SIGALRM tick: sends the queued records (outputs are the render process's).

    ``waiting``: whether the loop sleeps in waitpid, the one moment the tick may fork the render
    process (see SplitSink.tick).
    """

    def __init__(self, sink: SplitSink, waiting: Callable[[], bool]) -> None:
        super().__init__(lambda: ())
        self.sink = sink
        self.waiting = waiting

    def flush(self) -> None:
        self.sink.flush()

    def _tick(self, _signo: int, _frame: object) -> None:
        self.sink.tick(self.waiting())


class SplitSink:
    """The tracer's side: the sink the ptrace loop sees; copies, queues and sends records."""

    def __init__(self, render: RenderProcess, decoding: Decoding, *, string_limit: int, bytes_limit: int,
                 abandoned: bool, stimes: bool = False, thread_groups: bool = False) -> None:
        """``render``: where the records go (the render process once forked, see RenderProcess).
        ``stimes``: the calls carry the tracee's CPU times (-c/-C without -w), sent along.
        ``thread_groups``: the records (JSON) name each thread's process, read from /proc at the
        thread's first stop, while it surely exists (later it may be gone)."""
        self.render = render
        self.fd = render.fd  # -1 until the render process runs: records wait in the batch
        self.decoding = decoding
        self.string_limit = max(string_limit, PATH_MAX)
        self.bytes_limit = bytes_limit
        self.stimes = stimes
        self.groups: dict[int, int] | None = {} if thread_groups else None
        self.batch: list[tuple[Any, ...]] = []
        self.busy = False
        self.closed = False
        self.limit = BATCH  # records queued before a send (0: start the render process at the next record)
        self.seq = 0
        # x86_64 calls' plans by name, other personalities' by (arch, name): see _plan.
        self.plans: dict[Any, tuple[int, Copier | None, Copier | None]] = {}
        if abandoned:  # the loop asks for PTRACE_O_TRACEEXIT only when the sink prints "= ?" lines
            self.on_abandoned = self._on_abandoned

    # -- what each syscall needs

    def _plan(self, call: Call) -> tuple[int, Copier | None, Copier | None]:
        """For a call's name: (1 to copy its plan's bytes, the entry stop's copier, the exit stop's, None
        where the plan names nothing for that stop), (2, its decoder's ``reads``, None) for a deep plan
        that reads memory only with some arguments, or (0, None, None) to decode at the stop."""
        key: Any = call.name if call.arch == _X86_64 else (call.arch, call.name)
        got = self.plans.get(key)
        if got is None:
            from pytrace.decode import decoder_for_name

            info = table(call.arch).by_name.get(call.name) if call.arch in ARCHES else None
            plans = info.capture if info is not None else ()
            # i386 plans are not held to the contract (syscall_tables/README.md): decoded at the stop
            dec = decoder_for_name(call.name)
            deep = any(p.deep for p in plans)
            if info is None or call.arch != "x86_64" or dec.live:
                got = (0, None, None)
            elif deep:  # decoded at the stop, unless its decoder says these arguments read no memory
                got = (0, None, None) if dec.reads is None else (2, dec.reads, None)  # type: ignore[assignment]
            else:
                got = (1, self._copier(plans, False, call.arch), self._copier(plans, True, call.arch))
            self.plans[key] = got
        return got

    def _copier(self, plans: tuple[ArgPlan, ...], at_exit: bool, arch: str) -> Copier | None:
        """What copies the planned regions at one stop (entry: strictly, None when the plan cannot
        copy one, so that the call is decoded at the stop); None when nothing is planned there."""
        if not any(p.when in ("both", "exit" if at_exit else "entry") for p in plans):
            return None
        copy, flat = copier(plans, at_exit, word=_WORD.get(arch, 8), string_limit=self.string_limit,
                            buf_limit=self.bytes_limit, strict=not at_exit)
        if flat:  # reads with read_upto alone, which never warns
            return copy

        def quiet(args: Sequence[int], rval: int | None, live: Any, sp: int) -> tuple[tuple[int, bytes], ...] | None:
            """The copy reads more than a decoder may: only a decoder's reads warn of a short read."""
            warn = getattr(live, "short_read_message", None)
            if warn is None:
                return copy(args, rval, live, sp)
            live.short_read_message = None
            try:
                return copy(args, rval, live, sp)
            finally:
                live.short_read_message = warn
        return quiet

    # -- the sink interface

    # In the tracer no other sink sees a Call, so two of its slots carry this sink's state from the
    # entry to the exit stop: ``entry_seq``, the record number, and ``decoder_state``, the call's
    # exit stop's copier (None: nothing to copy) or, for a call decoded at the stop, [its decoder
    # generator, Predecoded].

    def on_entry(self, call: Call) -> None:
        self.seq += 1
        seq = call.entry_seq = self.seq
        groups = self.groups
        if groups is not None and call.pid not in groups:
            from pytrace.structured.records import tgid_of

            self.batch.append((_THREAD_GROUP, call.pid, tgid_of(call.pid, groups)))
        copy, at_entry, at_exit = self._plan(call)
        if copy == 1:
            what: Any = () if at_entry is None else at_entry(call.args, None, call.mem, call.sp)
        elif copy == 2:  # a deep plan: nothing to copy if these arguments read no memory (Decoder.reads)
            what = None if at_entry(call.args) else ()  # type: ignore[call-arg,misc]
        else:
            what = None
        if what is None:
            b = self.decoding.bound_any(call)
            aux = call.aux
            if b.split:
                gen = b.func(b.p, call)
                what = Predecoded(next(gen), True, aux)
                call.decoder_state = [gen, what]  # type: ignore[assignment]
            else:
                what = Predecoded(b.func(b.p, call), False, aux)
                call.decoder_state = [None, what]  # type: ignore[assignment]
        else:
            call.decoder_state = at_exit  # type: ignore[assignment]
        batch = self.batch
        batch.append((_ENTRY, seq, call.pid, call.arch, call.nr, call.name, call.args, call.ip, call.sp,
                      call.entry_time, call.aux, call.entry_stime if self.stimes else None, what))
        if len(batch) >= self.limit:
            self.flush()

    def on_exit(self, call: Call) -> None:
        state: Any = call.decoder_state
        call.decoder_state = None
        if type(state) is not list:
            what: Any = (state(call.args, None if call.error else call.rval, call.mem, call.sp) or ()
                         if state is not None else ())
        else:
            gen, what = state
            if gen is not None:
                what.rest = next(gen, "")
                gen.close()
            if call.ret_text is None and not call.error:
                b = self.decoding.bound_any(call)
                what.rtext = b.rval(b.p, call)
            what = (what.rest, what.rtext)
        batch = self.batch
        batch.append((_EXIT, call.entry_seq, call.pid, call.ip, call.rval, call.error, call.exit_time,
                      call.exit_stime if self.stimes else None, call.ret_text, call.injected, what))
        if len(batch) >= self.limit:
            self.flush()

    def _ref(self, call: Call | None) -> int:
        """The record number of a call that will see no exit (0: none)."""
        if call is None:
            return 0
        state: Any = call.decoder_state
        call.decoder_state = None
        if type(state) is list and state[0] is not None:
            state[0].close()
        return call.entry_seq

    # Events other than calls carry the time they were seen: the render process prints them later.

    def on_signal(self, ev: SignalEvent) -> None:
        self.batch.append((_SIGNAL, ev.pid, ev.signo, ev.siginfo, ev.arch, ev.nr, ev.ip, _now()))

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        self.batch.append((_GROUP_STOP, ev.pid, ev.signo, ev.arch, ev.nr, ev.ip, _now()))

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        self.batch.append((_GONE, ev.pid, ev.status, ev.signo, ev.core_dumped, ev.arch, ev.nr, ev.ip,
                           self._ref(unfinished), _now()))

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        self.batch.append((_SUPERSEDED, ev.pid, ev.new_pid, ev.arch, ev.nr, ev.ip, self._ref(unfinished), _now()))

    def on_personality(self, ev: PersonalityEvent) -> None:
        self.batch.append((_PERSONALITY, ev.pid, ev.arch, ev.nr, ev.ip, _now()))

    def on_detach(self, ev: DetachEvent) -> None:
        self.batch.append((_DETACH, ev.pid, self._ref(ev.call)))

    def on_process_count(self, count: int) -> None:
        self.batch.append((_COUNT, count))

    def _on_abandoned(self, call: Call) -> None:
        self.batch.append((_ABANDONED, self._ref(call)))

    # -- sending

    def tick(self, waiting: bool) -> None:
        """The SIGALRM tick: send what is queued.  Before the render process runs, the tick may have
        interrupted the tracer anywhere, half-way through an import or a decoder's cache, which a
        process forked then would inherit half done: it forks only while the loop sleeps in waitpid
        (``waiting``: a blocked call's entry half must reach the file while it blocks), and otherwise
        asks for the fork at the next record, where SplitSink has finished with the call."""
        if self.fd >= 0 or waiting:
            self.flush()
        elif not self.closed:
            self.limit = 0

    def flush(self) -> None:
        """Send what is queued (from the loop, or from the SIGALRM tick unless the loop is sending).

        The first flush of a run starts the render process: a full batch or a tick (50 ms) means the
        run is not one to finish before anyone looks (a blocked call's entry half must reach the
        file while it blocks).  It is called only where no import or decoder is half-way (the end of
        ``on_entry``/``on_exit``, the loop's waitpid: see ``tick``).  If the fork fails, the records
        stay queued and the tracer prints them at the end.
        """
        if self.busy or self.closed:
            return
        batch = self.batch
        n = len(batch)
        if not n:
            return
        self.busy = True
        try:
            if self.fd < 0:
                if self.render.failed:
                    return  # no render process could be started: close() prints everything here
                self.limit = BATCH
                try:
                    self.fd = self.render.fork()
                except OSError:
                    self.render.failed = True
                    return
            import pickle  # only once records leave the process: a short run never imports it

            data = pickle.dumps(batch[:n], pickle.HIGHEST_PROTOCOL)
            del batch[:n]  # a record the tick's handler queued meanwhile stays for the next batch
            _write_frame(self.fd, data)
        except OSError:
            self.closed = True  # the render process is gone: nothing more can be shown
        finally:
            self.busy = False

    def close(self) -> None:
        """The trace's end: the render process then ends pending lines and finishes the outputs; without
        one (a short run), the tracer prints the records itself, through the same Renderer and sinks."""
        self.batch.append((_CLOSE,))
        if self.fd < 0:
            self.closed = True  # from here the tick sends nothing (and starts no render process)
            batch, self.batch = self.batch, []
            self.render.render_here(batch)
            return
        self.flush()
        self.closed = True
        try:
            os.close(self.fd)
        except OSError:
            pass


def _write_frame(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(8, "little") + data)
    while view:
        view = view[os.write(fd, view):]


def _read_exact(fd: int, size: int) -> bytes | None:
    parts: list[bytes] = []
    while size:
        try:
            chunk = os.read(fd, min(size, 1 << 20))
        except InterruptedError:  # pragma: no cover - PEP 475 retries; kept for clarity
            continue
        if not chunk:
            return None
        parts.append(chunk)
        size -= len(chunk)
    return b"".join(parts)


class Renderer:
    """The render process's side: records back into Calls and events, in order, to the real sink."""

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        self.calls: dict[int, Call] = {}

    def run(self, fd: int) -> bool:
        """Every batch, in order, until the tracer's end (True) or its death (False: end of file)."""
        import pickle

        while True:
            head = _read_exact(fd, 8)
            if head is None:
                return False
            data = _read_exact(fd, int.from_bytes(head, "little"))
            if data is None:
                return False
            for rec in pickle.loads(data):
                if rec[0] == _CLOSE:
                    return True
                self.handle(rec)

    def handle(self, rec: tuple[Any, ...]) -> None:
        kind = rec[0]
        sink = self.sink
        if kind == _ENTRY:
            _, seq, pid, arch, nr, name, args, ip, sp, entry_time, aux, stime, what = rec
            if type(what) is Predecoded:
                call = Call(pid, arch, nr, name, args, ip, sp, _NO_MEMORY, entry_time)
                call.aux = what
            else:  # nothing copied (getppid, read at entry): the one empty memory, not a new one
                call = Call(pid, arch, nr, name, args, ip, sp, SnapshotMemory(what) if what else _NO_MEMORY,
                            entry_time)
                call.aux = aux
            if stime is not None:
                call.entry_stime = stime
            self.calls[seq] = call
            sink.on_entry(call)
        elif kind == _EXIT:
            _, seq, pid, ip, rval, error, exit_time, stime, ret_text, injected, what = rec
            call = self.calls.pop(seq)
            if type(call.aux) is Predecoded:
                call.aux.rest, call.aux.rtext = what
            elif what:  # else the entry's copies are all there is, as they are
                call.mem = SnapshotMemory(what, call.mem)  # type: ignore[arg-type]
            call.pid, call.ip, call.rval, call.error, call.exit_time = pid, ip, rval, error, exit_time
            call.exited = True
            call.ret_text, call.injected = ret_text, injected
            if stime is not None:
                call.exit_stime = stime
            sink.on_exit(call)
        elif kind == _SIGNAL:
            _, pid, signo, siginfo, arch, nr, ip, t = rec
            sink.on_signal(SignalEvent(pid, signo, siginfo, arch, nr, ip, t))
        elif kind == _GROUP_STOP:
            _, pid, signo, arch, nr, ip, t = rec
            sink.on_group_stop(GroupStopEvent(pid, signo, arch, nr, ip, t))
        elif kind == _GONE:
            _, pid, status, signo, core, arch, nr, ip, seq, t = rec
            sink.on_exit_process(ExitEvent(pid, status, signo, core, arch, nr, ip, t), self.calls.pop(seq, None))
        elif kind == _SUPERSEDED:
            _, pid, new_pid, arch, nr, ip, seq, t = rec
            sink.on_superseded(ExecSupersededEvent(pid, new_pid, arch, nr, ip, t), self.calls.pop(seq, None))
        elif kind == _PERSONALITY:
            _, pid, arch, nr, ip, t = rec
            sink.on_personality(PersonalityEvent(pid, arch, nr, ip, t))
        elif kind == _DETACH:
            _, pid, seq = rec
            sink.on_detach(DetachEvent(pid, self.calls.pop(seq, None)))
        elif kind == _COUNT:
            sink.on_process_count(rec[1])
        elif kind == _THREAD_GROUP:
            note = getattr(sink, "on_thread_group", None)
            if note is not None:
                note(rec[1], rec[2])
        elif kind == _ABANDONED:
            call = self.calls.pop(rec[1], None)
            if call is not None:
                sink.on_abandoned(call)  # type: ignore[attr-defined]


_NO_MEMORY = SnapshotMemory(())


class RenderProcess:
    """Where the records are printed: in the tracer at the end of a short run, or in a render process
    forked once the run proves long (``SplitSink.flush``: the first full batch or the first tick).

    A short run (``pytrace true``) so pays neither the fork nor a second process's imports: its
    records are rendered by the same ``Renderer`` and sinks at the trace's end (``render_here``).
    A long one hands every record, from the first, to the render process; the tracer has printed
    nothing, so the render process starts from the sink chain as it was built, whenever it is forked.
    """

    def __init__(self, sink: Sink, finish: Callable[[], None], flusher: PeriodicFlush,
                 settle: Callable[[], None]) -> None:
        self.sink = sink
        self.finish = finish
        self.flusher = flusher
        self.settle = settle
        self.fd = -1  # the record pipe's write end once the render process runs
        self.failed = False  # the fork failed: the tracer prints the records at the end
        self._done_r = -1

    def fork(self) -> int:
        """Start the render process; return the write end of its record pipe.

        The render process is a grandchild re-parented away from us (a double fork), so the ptrace
        loop's waitpid(-1) never sees it; its end is the end of file on a pipe it holds.  It may be
        forked from the SIGALRM tick while the loop sleeps in waitpid: the intermediate child is
        reaped here before the loop runs again.  The terminal's signals stay blocked in it (the
        tracer decides how the trace ends; ``_render_main`` then ignores them).
        """
        rfd, wfd = os.pipe2(os.O_CLOEXEC)
        done_r, done_w = os.pipe2(os.O_CLOEXEC)
        try:
            import fcntl

            fcntl.fcntl(wfd, fcntl.F_SETPIPE_SZ, 1 << 20)  # F_SETPIPE_SZ: fewer blocked writes in bursts
        except OSError:
            pass
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _BLOCKED_IN_FORK)
        try:
            pid = os.fork()
            if pid == 0:  # the intermediate child
                try:
                    _name_self()  # before anything else: both processes are known by it, however they end
                    if os.fork() == 0:
                        os.close(wfd)
                        os.close(done_r)
                        self.settle()
                        _render_main(rfd, self.sink, self.finish, self.flusher)
                        os._exit(0)
                finally:
                    os._exit(0)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        os.waitpid(pid, 0)
        os.close(rfd)
        os.close(done_w)
        self._done_r = done_r
        self.fd = wfd
        return wfd

    def render_here(self, records: list[tuple[Any, ...]]) -> None:
        """A run that ended before it needed a render process: print its records here, then finish."""
        profile = os.environ.get(PROFILE_ENV)
        if profile:
            from pytrace.profiling import profiled

            profiled(profile, lambda: self._render_records(records))
        else:
            self._render_records(records)

    def _render_records(self, records: list[tuple[Any, ...]]) -> None:
        renderer = Renderer(self.sink)
        for rec in records:
            if rec[0] == _CLOSE:
                break
            renderer.handle(rec)
        self.sink.close()
        self.finish()

    def wait(self) -> None:
        """Block until the render process (if one was started) has written everything and exited."""
        done_r, self._done_r = self._done_r, -1
        if done_r < 0:
            return
        while True:
            try:
                if not os.read(done_r, 1):
                    break
            except InterruptedError:  # pragma: no cover
                continue
        os.close(done_r)


#: The signals the render process ignores (the tracer decides how the trace ends).
_RENDER_IGNORES = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGTSTP,
                   signal.SIGTTIN, signal.SIGTTOU)
#: Blocked across the fork (as they were when the render process was forked at the start, before
#: the tracer set its handlers): none reaches the render process before it ignores them.
_BLOCKED_IN_FORK = (*_RENDER_IGNORES, signal.SIGPIPE)


def start(sink: Sink, decoding: Decoding, finish: Callable[[], None], *, string_limit: int, bytes_limit: int,
          flusher: PeriodicFlush, settle: Callable[[], None], stimes: bool,
          thread_groups: bool, eager: bool = False) -> tuple[SplitSink, Callable[[], None]]:
    """The tracer's sink, and what waits for the render process's end (nothing when there was none).

    ``settle`` runs first in the render process: it lets go of the standard fds the command gets
    (a reader of the command's stdout must see EOF when the command closes it, not when we exit).
    ``eager``: fork the render process now, before any tracee exists (PYTRACE_SPLIT=2, for tests),
    instead of when the run proves long.
    """
    render = RenderProcess(sink, finish, flusher, settle)
    if eager:
        render.fork()
    abandoned = getattr(sink, "on_abandoned", None) is not None
    return SplitSink(render, decoding, string_limit=string_limit, bytes_limit=bytes_limit,
                     abandoned=abandoned, stimes=stimes, thread_groups=thread_groups), render.wait


def _name_self() -> None:
    """``pytrace-render`` in ps (and in tests, which tell our helper processes from tracees by it)."""
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(RENDER_COMM)
    except OSError:
        pass


def _render(fd: int, sink: Sink, finish: Callable[[], None]) -> None:
    if Renderer(sink).run(fd):
        sink.close()
        finish()


def _render_main(fd: int, sink: Sink, finish: Callable[[], None], flusher: PeriodicFlush) -> None:
    """The render process: ignore the terminal's signals (the tracer decides how the trace ends), print.

    A tracer killed outright (end of file before its close record) leaves the outputs as they
    are, as a killed single-process tracer would: what was received is written, nothing added.
    """
    status = 0
    try:
        for sig in _RENDER_IGNORES:
            signal.signal(sig, signal.SIG_IGN)
        flusher.start()
        profile = os.environ.get(PROFILE_ENV)
        if profile:
            from pytrace.profiling import profiled

            profiled(profile, lambda: _render(fd, sink, finish))
        else:
            _render(fd, sink, finish)
        flusher.stop()
    except BaseException as exc:  # noqa: BLE001 - a render process never shows a traceback
        status = 1
        try:
            os.write(2, f"pytrace: the render process failed ({type(exc).__name__}: {exc}); "
                        "the rest of the trace is lost\n".encode(errors="replace"))
        except OSError:
            pass
    os._exit(status)
