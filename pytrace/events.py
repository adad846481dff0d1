"""Typed records that flow from a backend to the sinks.

A syscall is one ``Call`` object that lives from its entry stop to its exit stop:
the backend fills ``args`` at entry and ``rval``/``error`` at exit, and sinks
see the same object twice (``on_entry`` then ``on_exit``).  Keeping one object
per call, instead of an entry and an exit record, is what lets the text sink
print strace's ``<unfinished ...>`` / ``<... resumed>`` pairs and lets a
summary sink compute latency without a lookup table.
"""

from __future__ import annotations

from pytrace.records import dataclass, field  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator
    from typing import Any, Protocol
else:  # at run time a Protocol is only a base class: no typing import (~2 ms of start-up)
    Protocol = object


class MemoryView(Protocol):
    """What decoders need from a backend to look into the tracee."""

    def read(self, addr: int, size: int) -> bytes | None: ...
    def read_upto(self, addr: int, size: int) -> bytes | None: ...
    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None: ...


class Call:
    """One system call in flight (or finished) in one thread."""

    __slots__ = (
        "pid", "arch", "nr", "name", "args", "ip", "sp", "mem",
        "entry_time", "exit_time", "rval", "error", "exited",
        "decoder_state", "entry_text", "printed_entry", "aux", "ret_text", "injected",
        # The tracee's system CPU time (wait4 ru_stime, seconds) at the entry and exit stops. Set only
        # when a CPU-time summary (-c/-C without -w) asks the backend for them: unset otherwise.
        "entry_stime", "exit_stime",
        # Position of the entry in the global event order, for structured output (pytrace/structured).
        "entry_seq",
    )

    def __init__(
        self, pid: int, arch: str, nr: int, name: str, args: tuple[int, ...],
        ip: int, sp: int, mem: MemoryView, entry_time: float,
    ) -> None:
        self.pid = pid
        self.arch = arch
        self.nr = nr
        self.name = name
        self.args = args
        self.ip = ip
        self.sp = sp
        self.mem = mem
        self.entry_time = entry_time
        self.exit_time = 0.0
        self.rval = 0
        self.error = 0  # positive errno when the call failed
        self.exited = False  # True once the exit stop was seen
        # Decoder scratch: a suspended generator for calls decoded in two halves.
        self.decoder_state: Generator[str, None, None] | None = None
        self.entry_text = ""
        self.printed_entry = False
        self.aux: Any = None  # decoder-owned data carried from entry to exit
        self.ret_text: str | None = None  # set by a decoder to replace the default ``= RET`` text
        self.injected = ""  # " (INJECTED)" and friends, set by tampering
        self.entry_seq = 0

    @property
    def failed(self) -> bool:
        return self.error != 0


@dataclass(slots=True)
class SignalEvent:
    """A signal-delivery stop: the signal is about to be delivered (and will be re-injected)."""

    pid: int
    signo: int
    siginfo: bytes | None
    arch: str = "x86_64"
    # For -n / -i on the line (see pytrace/sinks/prefix.py): the thread's last syscall number and
    # its instruction pointer (filled only when -i asks; None prints as question marks).
    nr: int = 0
    ip: int | None = None
    # When the stop was seen (time.time()); 0: now.  Set where the event is printed later than
    # it happened (the split stop path, pytrace/sinks/split.py).
    time: float = 0.0


@dataclass(slots=True)
class GroupStopEvent:
    pid: int
    signo: int
    arch: str = "x86_64"
    nr: int = 0  # last syscall number and IP, as in SignalEvent
    ip: int | None = None
    # When the stop was seen (time.time()); 0: now.  Set where the event is printed later than
    # it happened (the split stop path, pytrace/sinks/split.py).
    time: float = 0.0


@dataclass(slots=True)
class ExitEvent:
    """A traced thread is gone: exited (``signo`` == 0) or killed by ``signo``."""

    pid: int
    status: int
    signo: int = 0
    core_dumped: bool = False
    arch: str = "x86_64"
    nr: int = 0  # the thread's last syscall, for -n (a dead thread has no IP: -i prints question marks)
    ip: int | None = None
    # When the stop was seen (time.time()); 0: now.  Set where the event is printed later than
    # it happened (the split stop path, pytrace/sinks/split.py).
    time: float = 0.0


@dataclass(slots=True)
class ExecSupersededEvent:
    """A thread called execve in a multithreaded process; the thread group leader's pid takes over."""

    pid: int
    new_pid: int  # the tid of the thread that called execve (strace's "in pid N"), now known as ``pid``
    arch: str = "x86_64"
    nr: int = 0  # the replaced leader's last syscall, for -n
    ip: int | None = None
    # When the stop was seen (time.time()); 0: now.  Set where the event is printed later than
    # it happened (the split stop path, pytrace/sinks/split.py).
    time: float = 0.0


@dataclass(slots=True)
class PersonalityEvent:
    pid: int
    arch: str
    nr: int = 0  # the syscall before the switch and the IP of the first one after it (-n, -i)
    ip: int | None = None
    # When the stop was seen (time.time()); 0: now.  Set where the event is printed later than
    # it happened (the split stop path, pytrace/sinks/split.py).
    time: float = 0.0


@dataclass(slots=True)
class DetachEvent:
    """The tracer let go of a thread on user request; its in-flight call ends in ``<detached ...>``."""

    pid: int
    call: Call | None = field(default=None)


@dataclass(slots=True)
class LostEvent:
    """Events the tracer could not record (an eBPF ring buffer was full): the trace has a gap here.

    Written into the trace itself (``+++ pytrace: N events lost +++``, a JSON ``lost`` record), so
    a trace with holes never reads as a complete one.  ``pid``: the launched command (or the first
    -p target), the process whose trace shows the line.
    """

    pid: int
    count: int
    arch: str = "x86_64"
    nr: int = 0  # LineSource fields, for a prefix on the line (-n prints the placeholder)
    ip: int | None = None


class Sink(Protocol):
    """Everything a consumer of the event stream implements."""

    def on_entry(self, call: Call) -> None: ...
    def on_exit(self, call: Call) -> None: ...
    def on_signal(self, ev: SignalEvent) -> None: ...
    def on_group_stop(self, ev: GroupStopEvent) -> None: ...
    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None: ...
    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None: ...
    def on_personality(self, ev: PersonalityEvent) -> None: ...
    def on_detach(self, ev: DetachEvent) -> None: ...
    def on_lost(self, ev: LostEvent) -> None: ...
    def on_process_count(self, count: int) -> None: ...
    def close(self) -> None: ...
