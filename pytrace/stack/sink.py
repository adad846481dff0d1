"""``-k``: strace's text output with a stack trace after each syscall line, signal and stop.

Where strace 6.1 prints frames (``syscall.c``, ``strace.c``, ``unwind.c``):

* after every syscall line, walking the stack of the thread stopped at the
  syscall's exit -- through the ``StraceTextSink.after_syscall`` hook;
* for the calls strace flags "capture on enter" (execve, execveat, exit,
  exit_group) the walk happens at entry, while the old image still exists, and
  the frames are printed at exit -- or, for calls that never return, after the
  ``+++ exited with N +++`` line, when strace drops the process.  Frames that
  go through that queue print a nameless frame as ``path(+0x0)`` instead of
  ``path()``, as strace's queue formatter does;
* the first execve of a launched command is the exception: before it the
  tracee is still the tracer's own forked child, so it is walked at exit, in the
  new image (``ld.so``'s entry point);
* after ``--- SIG... ---`` and ``--- stopped by SIG... ---`` lines;
* never for i386 tracees (strace disables it for other personalities).

strace re-reads /proc/PID/maps after any syscall that changes memory mappings
(mmap, munmap, mprotect, brk, mremap, shmat, shmdt, remap_file_pages,
pkey_mprotect, execve, execveat) -- including untraced ones.  Here a
generation counter is bumped on those calls' exits; when ``-e trace=`` hides
some of them from us, the maps file is re-read for every walk instead, and
reparsed only if its bytes changed.

Nothing here costs anything without ``-k``: the text sink is used unwrapped then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytrace.backends.ptrace import binding
from pytrace.backends.ptrace.memory import MemoryReader
from pytrace.stack.maps import Maps, read_maps
from pytrace.stack.unwind import walk
from pytrace.tables.syscalls import table

if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.events import Call, DetachEvent, ExecSupersededEvent, ExitEvent, GroupStopEvent, SignalEvent
    from pytrace.sinks.strace_text import Stream

# strace's SE flag (STACKTRACE_CAPTURE_ON_ENTER) and SI flag (MEMORY_MAPPING_CHANGE), x86-64 syscallent.h.
CAPTURE_ON_ENTRY = frozenset(("execve", "execveat", "exit", "exit_group"))
MAPPING_CHANGE = frozenset((
    "mmap", "mprotect", "munmap", "brk", "mremap", "shmat", "shmdt", "remap_file_pages",
    "execve", "execveat", "pkey_mprotect",
))
_EXECS = frozenset(("execve", "execveat"))
_ARCH = "x86_64"


class StackWalker:
    """Maps snapshots and memory readers per thread, and the walk itself."""

    def __init__(self, recheck_maps: bool) -> None:
        self.recheck_maps = recheck_maps
        self.generation = 0
        self._maps: dict[int, tuple[int, Maps]] = {}
        self._readers: dict[int, MemoryReader] = {}

    def invalidate(self) -> None:
        """A mapping changed somewhere: strace's global mmap-cache generation."""
        self.generation += 1

    def maps(self, pid: int) -> Maps | None:
        cached = self._maps.get(pid)
        if cached is not None and cached[0] == self.generation and not self.recheck_maps:
            return cached[1]
        raw = read_maps(pid)
        if raw is None:
            return None
        maps = cached[1] if cached is not None and cached[1].raw == raw else Maps(raw)
        self._maps[pid] = (self.generation, maps)
        return maps

    def frames(self, pid: int, queued: bool) -> list[str]:
        regs = binding.get_regs(pid)
        if regs is None:
            return []
        maps = self.maps(pid)
        if maps is None:
            return []
        reader = self._readers.get(pid)
        if reader is None:
            reader = self._readers[pid] = MemoryReader(pid)
        return walk(regs, reader, maps, queued)

    def forget(self, pid: int) -> None:
        self._maps.pop(pid, None)
        reader = self._readers.pop(pid, None)
        if reader is not None:
            reader.close()


def covers_mapping_calls(trace_bitmap: Callable[[str], tuple[bytearray, bool]]) -> bool:
    """Whether every x86-64 mapping-changing syscall reaches the sink under this ``-e trace=``."""
    bitmap, _unknown = trace_bitmap(_ARCH)
    tab = table(_ARCH)
    for nr, name in enumerate(tab.names):
        if name in MAPPING_CHANGE and not (nr < len(bitmap) and bitmap[nr]):
            return False
    return True


class StackTraceSink:
    """Wraps the text sink: same lines, plus ``-k`` frames (see the module docstring for where).

    A wrapper rather than a subclass, so it composes with whichever text sink
    the other options chose (plain, or staged for -z/-Z, whose memstreams the
    frames then go through: a call that is not published prints no frames,
    as in strace).  Syscall-exit frames come through the text sink's
    ``after_syscall`` hook, so they follow the line wherever it is written.
    """

    def __init__(self, text: Any, trace_bitmap: Callable[[str], tuple[bytearray, bool]] | None = None) -> None:
        self.text = text
        recheck = trace_bitmap is None or not covers_mapping_calls(trace_bitmap)
        self.walker = StackWalker(recheck_maps=recheck)
        self._queued: dict[int, list[str]] = {}
        self._arch: dict[int, str] = {}
        self._launched: set[int] = set()  # see note_launched
        text.after_syscall = self._after_syscall

    def note_launched(self, pid: int) -> None:
        """``pid`` is a command we started: its first execve is walked at exit, in the new image.

        Until that execve the tracee is our own forked child (strace's TCB_HIDE_LOG
        phase), whose stack says nothing about the command; strace skips the capture
        at entry for that one exec.
        """
        self._launched.add(pid)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.text, name)

    # -- syscalls -----------------------------------------------------------

    def on_entry(self, call: Call) -> None:
        self._arch[call.pid] = call.arch
        if call.name in CAPTURE_ON_ENTRY and call.arch == _ARCH:
            if call.name in _EXECS and call.pid in self._launched:
                self._launched.discard(call.pid)
            else:
                self._queued[call.pid] = self.walker.frames(call.pid, queued=True)
        self.text.on_entry(call)

    def on_exit(self, call: Call) -> None:
        if call.name in MAPPING_CHANGE:
            self.walker.invalidate()
            if call.name in _EXECS and not call.error:
                self.walker.forget(call.pid)  # a new address space: no reader or maps of the old one
        self.text.on_exit(call)

    def _after_syscall(self, s: Stream, call: Call) -> None:
        if call.arch != _ARCH:
            return
        lines = self._queued.pop(call.pid, None)
        if lines is None:
            lines = self.walker.frames(call.pid, queued=False)
        _write(s, lines)

    # -- other events ----------------------------------------------------------

    def on_signal(self, ev: SignalEvent) -> None:
        self.text.on_signal(ev)
        if self.text.signal_shown(ev.signo) and ev.arch == _ARCH:
            _write(self.text.stream(ev.pid), self.walker.frames(ev.pid, queued=False))

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        self.text.on_group_stop(ev)
        if self.text.signal_shown(ev.signo) and self._arch.get(ev.pid, _ARCH) == _ARCH:
            _write(self.text.stream(ev.pid), self.walker.frames(ev.pid, queued=False))

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        self.text.on_exit_process(ev, unfinished)
        self._drop(ev.pid)

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        self.text.on_superseded(ev, unfinished)
        self._drop(ev.pid)

    def on_detach(self, ev: DetachEvent) -> None:
        self.text.on_detach(ev)
        self._drop(ev.pid)

    def _drop(self, pid: int) -> None:
        """strace's droptcb -> unwind_tcb_fin: frames captured at entry and never printed go out now."""
        lines = self._queued.pop(pid, None)
        if lines:
            _write(self.text.stream(pid), lines)
        self.walker.forget(pid)
        self._arch.pop(pid, None)
        self._launched.discard(pid)


def _write(s: Stream, lines: list[str]) -> None:
    if lines:
        s.f.write("".join(lines))
        if s.tty:
            s.f.flush()
