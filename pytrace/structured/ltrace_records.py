"""``pyltrace --output-format=json``: library calls (and -S syscalls) as JSON Lines records.

``JsonOutput`` has the methods of the text ``Output`` (pytrace/ltrace/format.py)
and replaces it at start-up, so the tracer runs the same code either way and a
text trace never imports this module.  What it writes:

* a ``header`` first (the same helper as pytrace's, ``tool: "pyltrace"``, plus
  ltrace's line options under ``ltrace`` so ``pytrace report`` can print the
  text back exactly);
* one ``libcall`` record per call when it finishes: ltrace's two halves of a
  nested call (``<unfinished ...>`` / ``<... resumed>``) are one record whose
  ``entry_seq`` and ``seq`` place its start and end in the order of events;
  ``entry_text`` is the argument text printed at the call, ``exit_text`` the
  text printed at the return (output parameters), ``args_text`` both;
* ``syscall`` records for -S, shaped as pytrace's (``name`` without ``SYS_``);
* ``signal``, ``exit`` and ``exec`` (ltrace's ``--- Called exec() ---``) records;
* ``usdt`` records for USDT probe hits (``-e usdt:...``): provider, name, args;
* for -c, one ``summary`` record instead of all that.

A call that never returns (the process exited or exec'd inside it, or a
longjmp skipped its return) is written with ``outcome: "no_return"``
(``"unfinished"`` for a syscall, as in pytrace) and ``duration: null``.
"""

from __future__ import annotations

import signal
import time
from typing import IO, TYPE_CHECKING, Any

from pytrace.render.values import value_of
from pytrace.structured.jsonl import dumps, header

if TYPE_CHECKING:
    from pytrace.events import Call
    from pytrace.ltrace.format import OutputOptions, Summary
    from pytrace.ltrace.tracer import Frame, LtraceSession

Record = dict[str, Any]
#: ltrace's line prefixes in the header's (pytrace's) words: none, "PID " (-o with -f/-p), "[pid N] " (-f).
PID_PREFIX = {"": "none", "file": "plain", "bracket": "bracket"}


class _Entry:
    """A call entered and not yet finished: what was known (and printed) at its start."""

    __slots__ = ("frame", "seq", "timestamp", "text", "ip", "pid", "where")

    def __init__(self, frame: Frame, seq: int | None, timestamp: float, text: str, ip: int | None,
                 pid: int, where: tuple[str | None, str | None] = (None, None)) -> None:
        self.frame = frame
        self.seq = seq
        self.timestamp = timestamp
        self.text = text
        self.ip = ip
        self.pid = pid
        self.where = where  # (library, caller) as known at the entry: a call that never returns keeps these


def ltrace_header(argv: list[str], o: OutputOptions, backtrace: int, backend: str = "ptrace") -> Record:
    """pytrace's header, with the options that shape ltrace's lines (replay needs them, JSON readers don't)."""
    head = header(backend=backend, argv=argv, pid_prefix=PID_PREFIX[o.pid_prefix], acolumn=o.align,
                  tool="pyltrace")
    head["ltrace"] = {"indent": o.indent, "relative": o.relative, "timestamps": o.timestamps,
                      "instruction_pointer": o.instruction_pointer, "show_time": o.show_time,
                      "summary": o.summary, "backtrace": backtrace}
    return head


def _signame(signo: int) -> str:
    try:
        return signal.Signals(signo).name
    except ValueError:
        return f"SIG_{signo}"


def _arguments(params: list[str]) -> list[dict[str, Any]]:
    """Each parameter as ltrace printed it, with its value (ltrace's ``nil`` is null)."""
    return [{"text": t, "value": None if t == "nil" else value_of(t)} for t in params]


def _number(text: str) -> int | None:
    v = value_of(text)
    return v if isinstance(v, int) and not isinstance(v, bool) else None


class JsonOutput:
    """The JSON counterpart of ``format.Output``: the same calls from the tracer, records instead of lines."""

    def __init__(self, stream: IO[str], opts: OutputOptions, head: Record, *, backtraces: bool = False) -> None:
        self.f = stream
        self.o = opts
        self.head: Record | None = head  # written before the first record
        self.seq = 0
        self.open: dict[int, list[_Entry]] = {}  # tid -> its calls entered and not finished, outermost first
        self.session: LtraceSession | None = None
        self.backtraces = backtraces  # -w: a call's record waits for its backtrace lines (raw())
        self.held: Record | None = None

    def bind(self, session: LtraceSession) -> None:
        """The tracer that knows thread groups and loaded objects (``tgid``, ``locate``)."""
        self.session = session

    def _next(self) -> int:
        self.seq += 1
        return self.seq

    def _write(self, rec: Record) -> None:
        if self.held is not None:
            self._write_held()
        if self.head is not None:
            self.f.write(dumps(self.head) + "\n")
            self.head = None
        self.f.write(dumps(rec) + "\n")

    def _write_held(self) -> None:
        held, self.held = self.held, None
        if held is not None:
            self._write(held)

    def _tgid(self, tid: int) -> int:
        return self.session.tgid(tid) if self.session is not None else tid

    def _locate(self, frame: Frame) -> tuple[str | None, str | None]:
        if frame.syscall or self.session is None:
            return None, None
        return self.session.locate(frame)

    # -- calls ---------------------------------------------------------------------------------------

    def left(self, owner: Frame, pid: int, ip: int | None, depth: int, text: str) -> None:
        """A call starts: remember its printed argument text (after ``name(``) and when."""
        entry = _Entry(owner, self._next(), time.time(), text[len(owner.display) + 1:], ip, self._tgid(pid),
                       self._locate(owner))
        stack = self.open.get(pid)
        if stack is None:
            self.open[pid] = [entry]
        else:
            stack.append(entry)

    def right(self, owner: Frame, pid: int, ip: int | None, depth: int, name: str, rest: str, value: str,
              duration: float | None) -> None:
        """A call returned: its one record (calls a longjmp skipped over end as ``no_return`` first)."""
        entry = self._pop(owner, pid)
        inherited = entry is None
        if entry is None:  # a -f child returning from a call its parent entered (fork): the parent's start
            entry = self._parents_entry(owner, pid, duration)
        rec = self._record(entry, pid, rest, value, duration)
        if inherited:
            rec["inherited"] = True
        if self.backtraces:
            self._write_held()
            self.held = rec
        else:
            self._write(rec)

    def _pop(self, owner: Frame, pid: int) -> _Entry | None:
        stack = self.open.get(pid)
        if not stack:
            return None
        for i in range(len(stack) - 1, -1, -1):
            if stack[i].frame is owner:
                skipped = stack[i + 1:]
                entry = stack[i]
                del stack[i:]
                for e in reversed(skipped):
                    self._write(self._record(e, pid, None, None, None))
                return entry
        return None

    def _parents_entry(self, owner: Frame, pid: int, duration: float | None) -> _Entry:
        for tid, stack in self.open.items():
            if tid == pid:
                continue
            for e in stack:
                if e.frame.raws is owner.raws and e.frame.ret == owner.ret:  # _copy_frame shares raws
                    return _Entry(owner, e.seq, e.timestamp, e.text, e.ip, self._tgid(pid), e.where)
        return _Entry(owner, None, time.time() - (duration or 0.0), "", owner.ret, self._tgid(pid))

    def _record(self, e: _Entry, tid: int, rest: str | None, value: str | None,
                duration: float | None) -> Record:
        """The finished call (``value`` None: it never returned)."""
        frame = e.frame
        args_text = e.text + (rest or "")
        returned = value is not None
        if frame.syscall:
            call: Call = frame.origin  # type: ignore[assignment]
            err = call.error if returned else 0
            rec: Record = {
                "type": "syscall", "seq": self._next(), "entry_seq": e.seq, "pid": e.pid, "tid": tid,
                "arch": call.arch, "nr": call.nr, "name": frame.name, "timestamp": e.timestamp,
                "outcome": "returned" if returned else "unfinished", "args": _arguments(frame.params),
                "args_text": args_text, "entry_text": e.text, "exit_text": rest,
                "retval": _number(value) if returned else None, "return_text": value if returned else "?",
                "duration": round(duration, 9) if duration is not None else None,
                "errno": None, "errno_code": None, "strerror": None, "tampered": None,
                "raw_args": [a & 0xFFFFFFFFFFFFFFFF for a in call.args], "depth": frame.depth, "ip": e.ip,
            }
            if err:
                from pytrace.structured.records import errno_fields

                rec.update(errno_fields(err))
            return rec
        # At the return a lazily bound PLT slot points to its callee; a call that never returned keeps the entry's.
        library, caller = self._locate(frame) if returned else e.where
        rec = {
            "type": "libcall", "seq": self._next(), "entry_seq": e.seq, "pid": e.pid, "tid": tid,
            "name": frame.short, "display": frame.display, "library": library, "caller": caller,
            "timestamp": e.timestamp, "duration": round(duration, 9) if duration is not None else None,
            "depth": frame.depth, "ip": e.ip, "args": _arguments(frame.params), "args_text": args_text,
            "entry_text": e.text, "exit_text": rest, "retval": _number(value) if returned else None,
            "return_text": value, "outcome": "returned" if returned else "no_return",
        }
        if e.seq is None:  # (a -f child's call whose entry in the parent was not seen)
            del rec["entry_seq"]
        return rec

    def no_return(self, owner: Frame) -> None:
        entry = self._pop(owner, owner.pid)
        if entry is not None:
            self._write(self._record(entry, owner.pid, None, None, None))

    def _end_calls(self, tids: list[int]) -> None:
        """These threads' open calls never return (innermost first, as they unwind)."""
        for tid in tids:
            for e in reversed(self.open.pop(tid, ())):
                self._write(self._record(e, tid, None, None, None))

    def raw(self, text: str) -> None:
        """-w: a backtrace line of the call just finished."""
        if self.held is not None:
            self.held.setdefault("backtrace", []).append(text.rstrip("\n"))

    # -- other events ---------------------------------------------------------------------------------

    def _event(self, kind: str, pid: int, tgid: int, ip: int | None) -> Record:
        return {"type": kind, "seq": self._next(), "pid": tgid, "tid": pid, "timestamp": time.time(), "ip": ip}

    def signal(self, pid: int, signo: int, ip: int | None) -> None:
        rec = self._event("signal", pid, self._tgid(pid), ip)
        rec.update(signal=_signame(signo), signo=signo, siginfo_text=None, siginfo=None,
                   description=signal.strsignal(signo) or "Unknown signal")
        self._write(rec)

    def exited(self, pid: int, tgid: int, status: int, signo: int, core_dumped: bool, ip: int | None) -> None:
        self._end_calls([pid])
        rec = self._event("exit", pid, tgid, ip)
        rec.update(exit_code=None if signo else status, signal=_signame(signo) if signo else None,
                   signo=signo or None, core_dumped=core_dumped)
        self._write(rec)

    def exec(self, pid: int, ip: int | None) -> None:
        """Every thread of the exec'ing process loses its open calls (the others are gone already)."""
        tgid = self._tgid(pid)
        self._end_calls([tid for tid, stack in self.open.items()
                         if tid == pid or any(e.pid == tgid for e in stack)])
        self._write(self._event("exec", pid, pid, ip))

    def probe(self, pid: int, ip: int | None, depth: int, name: str, args: list[str]) -> None:
        """A USDT probe hit (``name`` is ``usdt:PROVIDER:NAME``): one ``usdt`` record."""
        rec = self._event("usdt", pid, self._tgid(pid), ip)
        _, provider, probe = name.split(":", 2)
        rec.update(provider=provider, name=probe, depth=depth, args=_arguments(args), args_text=", ".join(args))
        self._write(rec)

    def line(self, pid: int | None, text: str, ip: int | None = None) -> None:
        """Free text has no record (the tracer sends none; kept for the Output interface)."""

    def close(self, summary: Summary | None) -> None:
        """End of trace: calls still open (a detached process) as never returned, -c's summary, the held record."""
        self._end_calls(list(self.open))
        if summary is not None:
            rows = [{"name": name, "calls": calls, "seconds": us / 1e6, "usecs_per_call": per,
                     "percent_time": round(pct, 6)} for name, calls, us, per, pct in summary.rows()]
            self._write({"type": "summary", "tool": "pyltrace", "rows": rows})
        self._write_held()
        if self.head is not None:  # nothing was traced: still a valid, self-describing file
            self.f.write(dumps(self.head) + "\n")
            self.head = None
        self.flush()

    def flush(self) -> None:
        try:
            self.f.flush()
        except OSError:
            pass
