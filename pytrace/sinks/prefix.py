"""What strace prints around a trace line: timestamps (-t/-r), syscall number (-n), IP (-i), duration (-T).

(This module also parses these options and -z/-Z/-e status=/-e read=/-e write=: it is light, so the
command line is checked before the tracer's heavy imports.)

strace 6.1's ``printleader`` writes, after the pid prefix and in this order:
the absolute time (``-t``: ``HH:MM:SS``, ``-tt`` adds ``.uuuuuu``, ``-ttt`` is
``SECONDS.uuuuuu``; ``--absolute-timestamps=format:{time,unix},precision:
{s,ms,us,ns}`` chooses freely), the time since the previous line (``-r``:
``%6ld.%06ld``, written ``(+%6ld.%06ld)`` after an absolute time), the last
syscall number (``-n``: ``[%4lu]``) and the instruction pointer (``-i``:
``[%016lx]``, ``[%08lx]`` for a 32-bit tracee, question marks when it cannot
be read, i.e. on ``+++`` lines).  ``-T`` appends `` <SECONDS.uuuuuu>`` after
the return value.  Both clocks are read when the line is printed, as strace
reads them in printleader: the absolute one is CLOCK_REALTIME, the relative
one CLOCK_MONOTONIC, and the delta is global (between any two lines).

Everything here is built once from the command line; a trace without these
options never calls into this module (the text sink keeps its plain prefix).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from pytrace.records import dataclass  # not dataclasses: start-up cost
from pytrace.sinks.dumpio import FdSet, parse_fd_set
from pytrace.tables.subcalls import SOCKET_SUBCALL_BASE as _SUBCALL_SLOTS
from pytrace.tables.subcalls import true_number as _true_number

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Protocol
else:  # at run time a Protocol is only a base class: no typing import (~2 ms of start-up)
    Protocol = object


class OptionError(ValueError):
    """A bad option value, worded as strace words it; ``usage_hint`` adds the ``Try '... -h'`` line."""

    def __init__(self, message: str, usage_hint: bool = False) -> None:
        super().__init__(message)
        self.usage_hint = usage_hint


class LineSource(Protocol):
    """Whatever a line is about: a Call, or an event carrying the thread's last syscall and IP."""

    nr: int  # the thread's current (or last) syscall number: what -n prints
    arch: str  # personality: the IP width of -i
    ip: int | None  # None when the registers cannot be read (the thread is gone)


#: strace's str2timescale: (divisor of nanoseconds, digits after the point), names case-insensitive.
TIME_SCALES: dict[str, tuple[int, int]] = {
    "s": (1_000_000_000, 0),
    "ms": (1_000_000, 3),
    "us": (1_000, 6),
    "ns": (1, 9),
}
DEFAULT_PRECISION = TIME_SCALES["us"]  # -r and -T without a precision


def parse_precision(value: str, option: str) -> tuple[int, int]:
    """``--relative-timestamps=P`` / ``--syscall-times=P``; plain ``-r``/``-T`` arrive as ``"us"``."""
    scale = TIME_SCALES.get(value.lower())
    if scale is None:
        raise OptionError(f"invalid {option} argument: '{value}'", usage_hint=True)
    return scale


@dataclass(frozen=True)
class TimestampFormat:
    """The absolute timestamp: ``kind`` is "time" (strftime %T) or "unix" (seconds); width 0 = no fraction."""

    kind: str
    scale: int
    width: int


# What -t, -tt and -ttt stand for (strace's tflag_str, ttflag_str, tttflag_str).
_SHORT_T = ("format:time", "precision:us,format:time", "format:unix,precision:us")


def parse_timestamps(entries: list[str | None]) -> TimestampFormat | None:
    """-t (``None`` entries) and ``--NAME[=ARG]`` entries, in command-line order, as strace's parse_ts_arg.

    Each long option updates the format and/or precision it names (an
    unprefixed token is tried as a format, then as a precision); ``-t`` may be
    repeated but not mixed with the long option.  ``format:none`` turns
    timestamps off again.
    """
    kind: str | None = None
    scale, width = 1_000_000_000, 0
    shorts = 0
    longs = False
    for entry in entries:
        if entry is None:
            shorts += 1
            continue
        longs = True
        name, _, arg = entry.partition("=")
        parsed = _parse_ts_arg(arg, kind, scale, width)
        if parsed is None:
            raise OptionError(f"invalid {name} argument: '{arg}'", usage_hint=True)
        kind, scale, width = parsed
    if shorts:
        if longs:
            raise OptionError("-t and --absolute-timestamps cannot be provided simultaneously")
        parsed = _parse_ts_arg(_SHORT_T[min(shorts, 3) - 1], kind, scale, width)
        assert parsed is not None
        kind, scale, width = parsed
    return TimestampFormat(kind, scale, width) if kind is not None else None


def _parse_ts_arg(arg: str, kind: str | None, scale: int, width: int) -> tuple[str | None, int, int] | None:
    """One ``--absolute-timestamps`` value applied to the current state; None if a token is invalid."""
    new_kind: str | None = "unset"
    for token in (t for t in arg.split(",") if t):
        low = token.lower()
        as_format = as_scale = True
        if low.startswith("format:"):
            low, as_scale = low[len("format:"):], False
        elif low.startswith("precision:"):
            low, as_format = low[len("precision:"):], False
        if as_format and low in ("none", "time", "unix"):
            new_kind = None if low == "none" else low
            continue
        if as_scale and low in TIME_SCALES:
            scale, width = TIME_SCALES[low]
            continue
        return None
    if new_kind == "unset":
        new_kind = kind or "time"
    return new_kind, scale, width


# ------------------------------------------------------------------------------------------------
# -z / -Z / -e status= (the staging itself is pytrace/sinks/status.py)
# ------------------------------------------------------------------------------------------------

STATUSES = ("successful", "failed", "unfinished", "unavailable", "detached")
ALL_STATUSES = frozenset(STATUSES)

ZFLAGS_WARNING = (
    "Only the last of -z/--successful-only/-Z/--failed-only options will take effect. "
    "See status qualifier for more complex filters."
)


def parse_status_set(expr: str) -> frozenset[str]:
    """One ``-e status=`` value, as strace's qualify_tokens: leading ``!``s invert, ``all``/``none``.

    Names are matched case-insensitively, ``all`` and ``none`` only as the
    whole (remaining) expression.  Raises ValueError worded as strace.
    """
    body = expr
    negated = False
    while body.startswith("!"):
        negated = not negated
        body = body[1:]
    chosen: set[str]
    if body == "none":
        chosen = set()
    elif body == "all":
        chosen = set(STATUSES)
    else:
        chosen = set()
        for tok in body.split(","):
            if not tok:
                continue
            name = tok.lower()
            if name not in ALL_STATUSES:
                raise ValueError(f"invalid status '{tok}'")
            chosen.add(name)
        if not chosen:
            raise ValueError(f"invalid status '{expr}'")
    return frozenset(ALL_STATUSES - chosen if negated else chosen)


def parse_statuses(entries: list[str]) -> tuple[frozenset[str], int]:
    """The status set after -z (``"-z"``), -Z (``"-Z"``) and ``-e status=`` entries, in order; and how many -z/-Z.

    Each entry replaces the set, as in strace; more than one -z/-Z earns
    ZFLAGS_WARNING.
    """
    current = ALL_STATUSES
    zflags = 0
    for entry in entries:
        if entry == "-z":
            current, zflags = frozenset(("successful",)), zflags + 1
        elif entry == "-Z":
            current, zflags = frozenset(("failed",)), zflags + 1
        else:
            current = parse_status_set(entry)
    return current, zflags



@dataclass(frozen=True)
class LineOptions:
    """Everything this module adds to the text sink's lines; built once by ``parse_line_options``."""

    timestamps: TimestampFormat | None = None
    relative: tuple[int, int] | None = None  # (scale, width) of -r
    syscall_number: bool = False  # -n
    instruction_pointer: bool = False  # -i
    syscall_times: tuple[int, int] | None = None  # (scale, width) of -T
    read_fds: FdSet | None = None  # -e read=
    write_fds: FdSet | None = None  # -e write=
    statuses: frozenset[str] | None = None  # -z/-Z/-e status=: None when every outcome is shown
    zflags: int = 0  # how many -z/-Z were given (more than one earns ZFLAGS_WARNING)
    #: -T from the calls' own entry and exit times (the eBPF backend's kernel timestamps), not from
    #: the clock when the sink sees the entry and the exit (as strace measures its stops)
    call_clock: bool = False

    @property
    def has_prefix(self) -> bool:
        return bool(self.timestamps or self.relative or self.syscall_number or self.instruction_pointer)

    @property
    def has_result_suffix(self) -> bool:
        return bool(self.syscall_times or self.read_fds or self.write_fds)

    def __bool__(self) -> bool:
        return self.has_prefix or self.has_result_suffix


def with_call_clock(opts: LineOptions) -> LineOptions:
    """``opts`` with -T measured from the calls' own entry and exit times (LineOptions.call_clock)."""
    values = {name: getattr(opts, name) for name in LineOptions.__record_fields__}  # type: ignore[attr-defined]
    values["call_clock"] = True
    return LineOptions(**values)


def parse_line_options(
    *, timestamps: list[str | None], relative: str | None, syscall_times: str | None,
    syscall_number: bool, instruction_pointer: bool, qualifiers: list[tuple[str, str]], status: list[str],
    call_clock: bool = False,
) -> LineOptions:
    """The raw Config values of these options, validated with strace's wording (OptionError)."""
    try:
        statuses, zflags = parse_statuses(status)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    ts = parse_timestamps(timestamps)
    rel = parse_precision(relative, "--relative-timestamps") if relative is not None else None
    dur = parse_precision(syscall_times, "--syscall-times") if syscall_times is not None else None
    reads = writes = None
    try:
        for name, value in qualifiers:  # each -e read=/write= replaces the previous one, as in strace
            if name == "read":
                reads = parse_fd_set(value)
            elif name == "write":
                writes = parse_fd_set(value)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    return LineOptions(
        timestamps=ts, relative=rel, syscall_number=syscall_number, instruction_pointer=instruction_pointer,
        syscall_times=dur, read_fds=reads if reads else None, write_fds=writes if writes else None,
        statuses=None if statuses == ALL_STATUSES else statuses, zflags=zflags,
        call_clock=call_clock and dur is not None,
    )


# ------------------------------------------------------------------------------------------------
# Line prefix
# ------------------------------------------------------------------------------------------------


def _absolute(ts: TimestampFormat) -> Callable[[LineSource], str]:
    """CLOCK_REALTIME at print time; the %T text is cached per second (localtime is the slow part)."""
    scale, width = ts.scale, ts.width
    unix = ts.kind == "unix"
    last_sec = -1
    last_text = ""

    def part(_src: LineSource) -> str:
        nonlocal last_sec, last_text
        sec, nsec = divmod(time.time_ns(), 1_000_000_000)
        if sec != last_sec:
            last_sec = sec
            last_text = str(sec) if unix else time.strftime("%H:%M:%S", time.localtime(sec))
        if width:
            return f"{last_text}.{nsec // scale:0{width}d} "
        return last_text + " "

    return part


def _relative(scale: int, width: int, after_absolute: bool) -> Callable[[LineSource], str]:
    """CLOCK_MONOTONIC since the previous line of any process (strace keeps one static ``ots``)."""
    last = 0
    left, right = ("(+", ") ") if after_absolute else ("", " ")

    def part(_src: LineSource) -> str:
        nonlocal last
        now = time.monotonic_ns()
        if not last:
            last = now
        sec, nsec = divmod(now - last, 1_000_000_000)
        last = now
        if width:
            return f"{left}{sec:6d}.{nsec // scale:0{width}d}{right}"
        return f"{left}{sec:6d}{right}"

    return part


def _syscall_number(src: LineSource) -> str:
    nr = src.nr
    if nr >= _SUBCALL_SLOTS and src.arch == "i386":  # a socketcall/ipc subcall: strace's true_scno
        nr = _true_number(nr)
    return f"[{nr:4d}] "


def _instruction_pointer(src: LineSource) -> str:
    ip = src.ip
    if src.arch == "i386":
        return "[????????] " if ip is None else f"[{ip & 0xFFFFFFFF:08x}] "
    return "[????????????????] " if ip is None else f"[{ip:016x}] "


def build_prefix(opts: LineOptions) -> Callable[[LineSource], str] | None:
    """The text printleader adds after the pid prefix, as one function (None when there is none)."""
    parts: list[Callable[[LineSource], str]] = []
    if opts.timestamps:
        parts.append(_absolute(opts.timestamps))
    if opts.relative:
        parts.append(_relative(*opts.relative, after_absolute=opts.timestamps is not None))
    if opts.syscall_number:
        parts.append(_syscall_number)
    if opts.instruction_pointer:
        parts.append(_instruction_pointer)
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    fixed = tuple(parts)
    return lambda src: "".join([part(src) for part in fixed])


def duration_text(duration_ns: int, scale: int, width: int) -> str:
    """-T's `` <SECONDS.FRACTION>`` (strace: ``<%ld`` then ``.%0*ld`` unless the precision is seconds)."""
    sec, nsec = divmod(max(duration_ns, 0), 1_000_000_000)
    if width:
        return f" <{sec}.{nsec // scale:0{width}d}>"
    return f" <{sec}>"
