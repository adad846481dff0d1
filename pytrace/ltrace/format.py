"""ltrace's output discipline: line prefixes, the ``= `` column, unfinished/resumed lines, -c's table.

As in ltrace's ``output.c``, the left part of a call (``name(args``) is written
when the call starts.  If anything else is printed before it returns, the
open line is closed with `` <unfinished ...>`` and the return is printed later
on a line of its own, ``<... name resumed> ) = value``.  The value column is
``-a`` (default 50): the text before ``= `` is padded to ``align - 1``
characters.  A line starts with, in order: ``PID `` (with -o and -f/-p) or
``[pid N] `` (-f on stderr), the -r / -t / -tt / -ttt time stamp, ``[ADDR] ``
for -i, and -n's indentation.
"""

from __future__ import annotations

import signal
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import IO


class OutputOptions:
    """How the trace is written (the command line's output options; a plain class, not a record:
    every run makes one, and records' per-class work is start-up cost)."""

    __slots__ = ("align", "indent", "pid_prefix", "relative", "timestamps", "instruction_pointer", "show_time",
                 "summary", "format")

    def __init__(self, align: int = 50, indent: int = 0, pid_prefix: str = "", relative: bool = False,
                 timestamps: int = 0, instruction_pointer: bool = False, show_time: bool = False,
                 summary: bool = False, format: str = "text") -> None:  # noqa: A002 - the option's name
        self.align = align
        self.indent = indent
        self.pid_prefix = pid_prefix  # "" | "file" ("PID ") | "bracket" ("[pid N] ")
        self.relative = relative  # -r
        self.timestamps = timestamps  # -t count
        self.instruction_pointer = instruction_pointer  # -i
        self.show_time = show_time  # -T
        self.summary = summary  # -c: nothing but the table at the end
        self.format = format  # --output-format: "text" (this module's Output) | "json" (structured/ltrace_records.py)


def signal_text(signo: int) -> str:
    """ltrace's signal line: ``--- SIGUSR1 (User defined signal 1) ---``."""
    try:
        name = signal.Signals(signo).name
    except ValueError:
        name = f"SIG_{signo}"
    return f"--- {name} ({signal.strsignal(signo) or 'Unknown signal'}) ---"


def exit_text(status: int, signo: int) -> str:
    """ltrace's last line for a thread: ``+++ exited (status N) +++`` or ``+++ killed by SIGX +++``."""
    if signo:
        return f"+++ killed by {signal.Signals(signo).name} +++"
    return f"+++ exited (status {status}) +++"


EXEC_TEXT = "--- Called exec() ---"


class Output:
    """The one output stream and ltrace's notion of the currently open line.

    The tracer talks to it through ``left``/``right``/``raw`` for calls and
    ``signal``/``exited``/``exec``/``close`` for the rest; the JSON output
    (pytrace/structured/ltrace_records.py) has the same methods and is chosen
    instead at start-up.
    """

    def __init__(self, stream: IO[str], opts: OutputOptions) -> None:
        self.f = stream
        self.o = opts
        self.open_owner: object | None = None  # the frame whose left part ends the current line
        self.column = 0
        self._last_rel: float | None = None
        self.now = time.time  # -r/-t stamps: ``pytrace report`` replays a JSON trace with the recorded times

    def _begin(self, pid: int, ip: int | None, depth: int, indent: bool) -> str:
        o = self.o
        parts = []
        if o.pid_prefix == "file":
            parts.append(f"{pid} ")
        elif o.pid_prefix == "bracket":
            parts.append(f"[pid {pid}] ")
        if o.relative:
            now = self.now()
            if self._last_rel is None:
                self._last_rel = now
            diff = max(0.0, now - self._last_rel)
            self._last_rel = now
            sec = int(diff)
            parts.append(f"{sec:3d}.{int(round((diff - sec) * 1e6)) % 1000000:06d} ")
        if o.timestamps:
            now = self.now()
            sec = int(now)
            usec = int((now - sec) * 1e6)
            if o.timestamps > 2:
                parts.append(f"{sec}.{usec:06d} ")
            else:
                tm = time.localtime(sec)
                if o.timestamps > 1:
                    parts.append(f"{tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d}.{usec:06d} ")
                else:
                    parts.append(f"{tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d} ")
        if o.instruction_pointer:
            parts.append(f"[{ip:#x}] " if ip else "[0] ")
        if indent and o.indent > 0 and depth > 1:
            parts.append(" " * (o.indent * (depth - 1)))
        return "".join(parts)

    def _close_open(self) -> None:
        if self.open_owner is not None:
            self.f.write(" <unfinished ...>\n")
            self.open_owner = None

    def left(self, owner: object, pid: int, ip: int | None, depth: int, text: str) -> None:
        """Start a call's line: ``[prefix]name(args`` (no newline)."""
        if self.o.summary:
            return
        self._close_open()
        head = self._begin(pid, ip, depth, True) + text
        self.f.write(head)
        self.column = len(head)
        self.open_owner = owner

    def right(self, owner: object, pid: int, ip: int | None, depth: int, name: str, rest: str, value: str,
              duration: float | None) -> None:
        """End a call: `` rest) = value`` on its own line, or ``<... name resumed> rest) = value``."""
        if self.o.summary:
            return
        if self.open_owner is not owner:
            self._close_open()
            head = self._begin(pid, ip, depth, True) + f"<... {name} resumed> "
            self.f.write(head)
            self.column = len(head)
        text = rest + ") "
        self.column += len(text)
        pad = " " * max(0, self.o.align - 1 - self.column)
        tail = f" <{duration:.6f}>" if duration is not None and self.o.show_time else ""
        self.f.write(f"{text}{pad}= {value}{tail}\n")
        self.open_owner = None
        self.column = 0

    def probe(self, pid: int, ip: int | None, depth: int, name: str, args: list[str]) -> None:
        """A USDT probe hit: ``usdt:PROVIDER:NAME(ARGS)`` on a line of its own, indented as a call at
        ``depth`` would be; a call line left open stays unfinished (it is resumed later)."""
        if self.o.summary:
            return
        self._close_open()
        self.f.write(f"{self._begin(pid, ip, depth, True)}{name}({', '.join(args)})\n")

    def no_return(self, owner: object) -> None:
        """The process ended (or exec'd) inside this call: ltrace's `` <no return ...>``."""
        if self.open_owner is owner and not self.o.summary:
            self.f.write(" <no return ...>\n")
            self.open_owner = None

    def line(self, pid: int | None, text: str, ip: int | None = None) -> None:
        """A line of its own (signals, exits): closes an open call line first."""
        if self.o.summary:
            return
        if self.open_owner is not None:
            self.f.write(" <no return ...>\n")  # ltrace's output_line: a call cut by a non-call line
            self.open_owner = None
        head = self._begin(pid, ip, 0, False) if pid is not None else ""
        self.f.write(f"{head}{text}\n")

    def signal(self, pid: int, signo: int, ip: int | None) -> None:
        self.line(pid, signal_text(signo), ip)

    def exited(self, pid: int, tgid: int, status: int, signo: int, core_dumped: bool, ip: int | None) -> None:
        """A traced thread is gone (``tgid``/``core_dumped``: for the JSON output)."""
        self.line(pid, exit_text(status, signo), ip)

    def exec(self, pid: int, ip: int | None) -> None:
        """``pid`` exec'd: every open call of its process never returns."""
        self.line(pid, EXEC_TEXT, ip)

    def close(self, summary: Summary | None) -> None:
        """The end of the trace: -c's table, if counting."""
        if summary is not None:
            self.f.write(summary.render())
        self.flush()

    def raw(self, text: str) -> None:
        """Text written as is (-w backtrace lines follow the call's line)."""
        if not self.o.summary:
            self.f.write(text)

    def flush(self) -> None:
        try:
            self.f.flush()
        except OSError:
            pass


class Summary:
    """-c: calls and time per function, printed as ltrace prints its table (sorted by time)."""

    def __init__(self) -> None:
        self.stats: dict[str, list[float]] = {}  # name -> [calls, seconds]

    def add(self, name: str, seconds: float) -> None:
        st = self.stats.get(name)
        if st is None:
            st = self.stats[name] = [0, 0.0]
        st[0] += 1
        st[1] += max(0.0, seconds)

    def rows(self) -> list[tuple[str, int, int, int, float]]:
        """(function, calls, microseconds, usecs/call, percent of time), in the table's order."""
        items = sorted(self.stats.items(), key=lambda kv: (-round(kv[1][1] * 1e6), kv[0]))
        total_us = sum(round(st[1] * 1e6) for _, st in items)
        out = []
        for name, (calls, secs) in items:
            us = round(secs * 1e6)
            out.append((name, int(calls), us, us // int(calls) if calls else 0,
                        100.0 * us / total_us if total_us else 0.0))
        return out

    def render(self) -> str:
        lines = ["% time     seconds  usecs/call     calls      function",
                 "------ ----------- ----------- --------- --------------------"]
        total_us = total_calls = 0
        for name, calls, us, per, pct in self.rows():
            lines.append(f"{pct:6.2f} {us // 1000000:4d}.{us % 1000000:06d} {per:11d} {calls:9d} {name}")
            total_calls += calls
            total_us += us
        lines.append("------ ----------- ----------- --------- --------------------")
        lines.append(f"100.00 {total_us // 1000000:4d}.{total_us % 1000000:06d}             {total_calls:9d} total")
        return "\n".join(lines) + "\n"
