"""Typed events for the Python API: one dataclass per record type of trace.schema.json, same field names.

``from_record`` builds them from parsed JSON records, ignoring fields it does
not know so that a newer tracer's output still loads (the schema only ever
adds fields within a version).  tests/structured/test_api.py checks that the
fields here and the schema's properties stay the same.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class Arg:
    """One argument: strace's text for it and the value the decoder printed (pytrace/render/values.py)."""

    text: str
    value: Any


@dataclass(frozen=True, slots=True)
class Syscall:
    seq: int
    entry_seq: int
    pid: int
    tid: int
    arch: str
    nr: int
    name: str
    timestamp: float
    outcome: str  # "returned", "unfinished" (never returned), "detached"
    args: tuple[Arg, ...]
    entry_text: str
    exit_text: str | None
    retval: int | None
    return_text: str
    duration: float | None
    errno: str | None
    errno_code: int | None
    strerror: str | None
    tampered: str | None
    raw_args: tuple[int, ...] = ()
    args_text: str | None = None  # pyltrace -S: ltrace's argument text, its nesting depth and -i address
    depth: int | None = None
    comm: str | None = None  # eBPF system-wide mode: the thread's name when the kernel wrote the record
    ip: int | None = None

    @property
    def failed(self) -> bool:
        return self.errno_code is not None

    @property
    def line(self) -> str:
        """The call as strace prints it (without the pid prefix and column padding)."""
        return f"{self.name}({self.entry_text}{self.exit_text or ''}) = {self.return_text}"


@dataclass(frozen=True, slots=True)
class LibCall:
    seq: int
    pid: int
    tid: int
    name: str
    timestamp: float
    args_text: str
    return_text: str | None
    entry_seq: int | None = None
    library: str | None = None
    caller: str | None = None
    duration: float | None = None
    depth: int = 0
    args: tuple[Arg, ...] = ()
    retval: int | None = None
    outcome: str = "returned"
    display: str = ""  # the name as the call line shows it ("prog->malloc", "malloc@libc.so.6")
    entry_text: str = ""  # argument text printed at the call / at the return (output parameters)
    exit_text: str | None = None
    ip: int | None = None  # -i: the return address
    backtrace: tuple[str, ...] = ()  # -w
    inherited: bool = False  # a -f child returning from a call its parent entered


@dataclass(frozen=True, slots=True)
class Signal:
    seq: int
    pid: int
    tid: int
    signal: str
    signo: int
    timestamp: float = 0.0
    siginfo_text: str | None = None
    siginfo: Any = None
    description: str = ""
    ip: int | None = None  # pyltrace -i


@dataclass(frozen=True, slots=True)
class Stop:
    seq: int
    pid: int
    tid: int
    signal: str
    signo: int
    timestamp: float = 0.0


@dataclass(frozen=True, slots=True)
class Exit:
    """A thread or process ended: ``exit_code`` when it exited, ``signal`` when it was killed."""

    seq: int
    pid: int
    tid: int
    exit_code: int | None
    signal: str | None
    timestamp: float = 0.0
    signo: int | None = None
    core_dumped: bool = False
    ip: int | None = None  # pyltrace -i
    comm: str | None = None  # eBPF system-wide mode


@dataclass(frozen=True, slots=True)
class Superseded:
    seq: int
    pid: int
    tid: int
    new_pid: int
    timestamp: float = 0.0


@dataclass(frozen=True, slots=True)
class Exec:
    """pyltrace: the process called exec (ltrace's ``--- Called exec() ---``)."""

    seq: int
    pid: int
    tid: int
    timestamp: float = 0.0
    ip: int | None = None


@dataclass(frozen=True, slots=True)
class Usdt:
    """pyltrace -e usdt:...: a USDT probe was hit (``usdt:PROVIDER:NAME(ARGS)``)."""

    seq: int
    pid: int
    tid: int
    provider: str
    name: str
    args_text: str = ""
    args: tuple[Arg, ...] = ()
    depth: int = 1
    timestamp: float = 0.0
    ip: int | None = None


@dataclass(frozen=True, slots=True)
class Lost:
    """``count`` events the tracer could not record here (eBPF backend without backpressure)."""

    seq: int
    pid: int
    tid: int
    count: int
    timestamp: float = 0.0


@dataclass(frozen=True, slots=True)
class Personality:
    seq: int
    pid: int
    tid: int
    arch: str
    timestamp: float = 0.0


@dataclass(frozen=True, slots=True)
class Summary:
    """The -c result: ``tables`` per personality (strace), or ``rows`` (pyltrace)."""

    clock: str | None = None
    tables: tuple[dict[str, Any], ...] = ()
    rows: tuple[dict[str, Any], ...] = ()
    tool: str | None = None

    def calls(self, name: str) -> int:
        """How many times ``name`` was called, over all personalities."""
        rows = [r for t in self.tables for r in t["rows"]] + list(self.rows)
        return sum(r["calls"] for r in rows if r["name"] == name)


Event = Syscall | LibCall | Signal | Stop | Exit | Superseded | Personality | Exec | Usdt | Lost

TYPES: dict[str, type] = {
    "syscall": Syscall, "libcall": LibCall, "signal": Signal, "stop": Stop, "exit": Exit,
    "superseded": Superseded, "personality": Personality, "summary": Summary, "exec": Exec,
    "usdt": Usdt, "lost": Lost,
}
_FIELDS = {kind: frozenset(f.name for f in fields(cls)) for kind, cls in TYPES.items()}


def from_record(rec: dict[str, Any]) -> Event | Summary | None:
    """The dataclass for one record, or None for bookkeeping records (header, process_count)."""
    kind = rec.get("type")
    cls = TYPES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        return None
    known = _FIELDS[kind]  # type: ignore[index]
    kw = {k: v for k, v in rec.items() if k in known}
    if "args" in kw:
        kw["args"] = tuple(Arg(a["text"], a["value"]) for a in kw["args"])
    for key in ("raw_args", "tables", "rows", "backtrace"):
        if key in kw:
            kw[key] = tuple(kw[key])
    return cls(**kw)  # type: ignore[no-any-return]
