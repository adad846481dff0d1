"""``-e inject=`` / ``-e fault=``: tampering with syscalls, as strace 6.1 does it.

Parsing follows strace's ``filter_qualify.c`` (same token grammar, same
"invalid inject argument '...'" wording, same warnings); applying follows
``syscall.c`` (``tamper_with_syscall_entering`` / ``_exiting``):

* at the entry stop of a *traced* syscall (strace never tampers with calls it
  does not print, nor with the launched command's own first execve), the
  per-thread occurrence counter of ``when=`` decides whether this occurrence
  is hit;
* ``error=``/``retval=`` skip the call by writing -1 to ``orig_rax`` (or run the
  pure syscall named by ``syscall=`` instead), and at the exit stop write the
  result into ``rax``: ``-errno`` or the value, so the tracee really sees it;
* ``signal=`` restarts the tracee from the entry stop with that signal, which
  the kernel delivers as ``SI_KERNEL`` on the way out of the call;
* ``poke_enter=``/``poke_exit=`` write bytes where an argument points;
* ``delay_enter=``/``delay_exit=`` hold the stopped tracee for a while without
  blocking the loop: the restart goes into a deadline heap that the backend's
  waitpid consults, so every other tracee keeps running meanwhile.

Everything happens in a sink wrapper placed between the loop and the real
sink, plus two hooks (the syscall-stop resume, the waitpid) that the backend
only swaps in when tampering was asked for: without ``-e inject``/``fault``
none of this code runs.

Two strace 6.1 quirks are reproduced on purpose, because the tracee's
behaviour and the trace must be what strace gives: once a ``syscall=``
substitution happened in a thread, the "no fail" flag sticks to it, so later
error injections in that thread report "Failed to tamper ... unexpectedly got
error" and leave the real -ENOSYS; and a ``signal=`` combined with
``delay_enter=`` is lost (the delayed restart passes no signal).
"""

from __future__ import annotations

import heapq
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pytrace.backends.ptrace import binding as B
from pytrace.filters import PERSONALITIES, SyscallSet, parse_trace_set
from pytrace.tables import syscall_classes
from pytrace.tables import xlat as X
from pytrace.tables.subcalls import pseudo_names
from pytrace.tables.syscalls import table

if TYPE_CHECKING:
    from pytrace.backends.ptrace.loop import PtraceBackend, Tracee
    from pytrace.events import Call, Sink

INJECT_LAST_INF = 0xFFFF  # strace's (uint16_t) -1: "no upper bound" in when=F..L
MAX_ERRNO_VALUE = 4095
_MASK64 = (1 << 64) - 1
_ENOSYS = 38
# struct user_regs_struct offsets (x86_64), for PTRACE_POKEUSER: one syscall instead of GETREGS+SETREGS.
_RAX_OFFSET = 10 * 8
_ORIG_RAX_OFFSET = 15 * 8


class InjectError(ValueError):
    """A bad -e inject=/fault= value; the message is strace's wording without the program name."""


@dataclass(frozen=True, slots=True)
class InjectAction:
    """One -e inject=/fault= expression's tokens (strace's struct inject_opts)."""

    first: int = 1
    last: int = INJECT_LAST_INF
    step: int = 1
    error: int = 0  # positive errno to inject, 0 if none
    retval: int | None = None  # value to inject (unsigned 64-bit, as strtoull gave it)
    signo: int = 0
    scno: dict[str, int] | None = None  # syscall= substitute, per personality
    delay_enter: float | None = None  # seconds
    delay_exit: float | None = None
    poke_enter: tuple[tuple[int, bytes], ...] = ()  # (argument number 1..7, bytes)
    poke_exit: tuple[tuple[int, bytes], ...] = ()

    @property
    def tampers_result(self) -> bool:
        return bool(self.error) or self.retval is not None


# -- the C number parsers strace uses ---------------------------------------------------------


def _strtoll(text: str, base: int = 10) -> tuple[int | None, str]:
    """C strtoll/strtoull's scan: (the value with its sign, or None if there are no digits; the rest).

    Leading whitespace and one sign are accepted, as in C; base 0 detects 0x / 0 prefixes.  Range
    checks are the callers' (strtoll clamps, strtoull wraps negatives: both are checked there).
    """
    s = text.lstrip(" \t\n\r\f\v")
    neg = False
    if s[:1] in ("+", "-"):
        neg = s[0] == "-"
        s = s[1:]
    if base == 0:
        if s[:2].lower() == "0x" and len(s) > 2 and s[2] in "0123456789abcdefABCDEF":
            base, s = 16, s[2:]
        elif s[:1] == "0":
            base = 8
        else:
            base = 10
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"[:base]
    n = 0
    while n < len(s) and s[n].lower() in digits:
        n += 1
    if n == 0:
        return None, text
    value = int(s[:n], base)
    return (-value if neg else value), s[n:]


def string_to_uint_ex(text: str, max_val: int, accepted_ending: str = "") -> tuple[int, str]:
    """strace's string_to_uint_ex: (value or -1, the unparsed rest)."""
    if not text:
        return -1, text
    val, rest = _strtoll(text, 10)
    if val is None or val < 0 or val > max_val or val >= (1 << 63):
        return -1, rest
    if rest and rest[0] not in accepted_ending:
        return -1, rest
    return val, rest


def string_to_uint_upto(text: str, max_val: int) -> int:
    return string_to_uint_ex(text, max_val)[0]


def _strtoull_whole(text: str) -> int | None:
    """strtoull(text, &end, 0) that must consume everything and not overflow; the unsigned 64-bit value."""
    val, rest = _strtoll(text, 0)
    if val is None or rest:
        return None
    if abs(val) > _MASK64:
        return None  # ERANGE
    return val & _MASK64


def parse_ts(text: str) -> float | None:
    """strace's parse_ts: a number (integer or float) with an optional s/ms/us/ns suffix, microseconds by default."""
    float_accept = set("eE.-+0123456789")
    int_accept = set("+0123456789")
    float_len = next((i for i, ch in enumerate(text) if ch not in float_accept), len(text))
    int_len = next((i for i, ch in enumerate(text) if ch not in int_accept), len(text))
    if float_len > int_len:
        # strtod: the longest prefix that is a number.
        value = None
        for end in range(float_len, 0, -1):
            try:
                value = float(text[:end])
            except ValueError:
                continue
            rest = text[end:]
            break
        if value is None or value < 0 or value != value:
            return None
    else:
        ival, rest = string_to_uint_ex(text, (1 << 63) - 1, "smun")
        if ival < 0:
            return None
        value = float(ival)
    scales = {"": 1000, "s": 1_000_000_000, "ms": 1_000_000, "us": 1000, "ns": 1}
    scale = scales.get(rest.lower())
    if scale is None:
        return None
    return value * scale / 1e9


def _signal_number(text: str) -> int:
    """strace's sigstr_to_uint: a number up to 255, or a name with or without SIG, any case."""
    if text[:1].isdigit():
        return string_to_uint_upto(text, 255)
    name = text[3:] if text[:3].upper() == "SIG" else text
    for num in range(1, 256):
        sname = X.SIGNAL_NAMES.get(num)
        if sname and sname.startswith("SIG") and sname[3:].upper() == name.upper():
            return num
    return -1


def _errno_by_name(text: str) -> int:
    for num in sorted(X.ERRNO_NAMES):
        if X.ERRNO_NAMES[num].upper() == text.upper():
            return num
    return -1


# -- parsing ----------------------------------------------------------------------------------


def _inadvertent_warnings(value: int) -> list[str]:
    """check_inadvertent_fault_injection() of an x86_64 strace (which also has 32-bit personalities)."""
    out = []
    s64 = value - (1 << 64) if value >> 63 else value
    inadvertent = False
    if -MAX_ERRNO_VALUE <= s64 < 0:
        inadvertent = True
        out.append(f"Inadvertent injection of error {-s64} is possible for retval={value}")
    else:
        low = value & 0xFFFFFFFF
        s32 = low - (1 << 32) if low >> 31 else low
        if -MAX_ERRNO_VALUE <= s32 < 0:
            inadvertent = True
            out.append(f"Inadvertent injection of error {-s32} is possible in compat personality"
                       f" for retval={value}")
    if not inadvertent and value & 0xFFFFFFFF != value:
        out.append(f"Injected return value {value} will be clipped to {value & 0xFFFFFFFF} in compat personality")
    return out


def _parse_pokes(text: str, arg_seen: set[int]) -> tuple[tuple[int, bytes], ...] | None:
    """poke_enter=/poke_exit= payload: @argN=HEX[,@argN=HEX...], N in 1..7, 1..1024 bytes each."""
    if not text:
        return None
    out = []
    for token in (t for t in text.split(",") if t):
        if not token.startswith("@arg") or len(token) < 6 or not "1" <= token[4] <= "7" or token[5] != "=":
            return None
        arg = int(token[4])
        data = token[6:]
        if not data or len(data) % 2 or len(data) > 2048:
            return None
        try:
            payload = bytes(int(data[i:i + 2], 16) for i in range(0, len(data), 2))
        except ValueError:
            return None
        if arg in arg_seen:
            return None  # strace's poke_add refuses a second payload for the same argument
        arg_seen.add(arg)
        out.append((arg, payload))
    return tuple(out) if out else None


def _parse_token(token: str, fields: dict[str, Any], fault: bool, warn: Callable[[str], None]) -> bool:
    """One ``key=value`` of an inject/fault expression into ``fields``; False means strace rejects it."""
    key, sep, val = token.partition("=")
    if not sep:
        return False
    if key == "when":
        first, rest = string_to_uint_ex(val, 0xFFFF, "+.")
        if first < 1:
            return False
        fields["first"] = first
        if rest[:1] == ".":
            if rest[1:2] != ".":
                return False
            last, rest = string_to_uint_ex(rest[2:], 0xFFFF, "+")
            if last < first or last == INJECT_LAST_INF:
                return False
            fields["last"] = last
        else:
            fields["last"] = INJECT_LAST_INF
        if rest:
            step_text = rest[1:]
            if step_text:
                step = string_to_uint_upto(step_text, 0xFFFF)
                if step < 1:
                    return False
                fields["step"] = step
            else:
                fields["step"] = 1
        else:
            fields["step"] = 0 if fields["last"] == INJECT_LAST_INF else 1
        return True
    if key == "syscall":
        if "scno" in fields:
            return False
        scno = {}
        for pers in PERSONALITIES:
            info = table(pers).by_name.get(val)
            if info is None or info.nr not in syscall_classes.members(pers, "pure"):
                return False  # only pure syscalls, without side effects, may stand in
            scno[pers] = info.nr
        fields["scno"] = scno
        return True
    if key == "error":
        if "error" in fields or "retval" in fields:
            return False
        err = string_to_uint_upto(val, MAX_ERRNO_VALUE)
        if err < 0:
            err = _errno_by_name(val)
        if err < 1:
            return False
        fields["error"] = err
        return True
    if fault:
        return False  # fault= knows only when=, syscall= and error=
    if key == "retval":
        if "error" in fields or "retval" in fields:
            return False
        value = _strtoull_whole(val)
        if value is None:
            return False
        for msg in _inadvertent_warnings(value):
            warn(msg)
        fields["retval"] = value
        return True
    if key == "signal":
        if "signo" in fields:
            return False
        signo = _signal_number(val)
        if signo < 1 or signo > 64:
            return False
        fields["signo"] = signo
        return True
    if key in ("poke_enter", "poke_exit"):
        if key in fields:
            return False
        pokes = _parse_pokes(val, fields.setdefault("_poke_args_" + key, set()))
        if pokes is None:
            return False
        fields[key] = pokes
        return True
    if key in ("delay_enter", "delay_exit"):
        if key in fields:
            return False
        delay = parse_ts(val)
        if delay is None:
            return False
        fields[key] = delay
        return True
    return False


def parse_inject(value: str, fault: bool, warn: Callable[[str], None]) -> tuple[SyscallSet, InjectAction]:
    """One ``-e inject=VALUE`` (or ``fault=``): the syscalls it names and what to do to them.

    Raises InjectError / FilterError with strace's message.  ``warn`` receives
    strace's non-fatal warnings (retval values that look like errors).
    """
    what = "fault argument" if fault else "inject argument"
    if value[:1] in ("", ":"):
        names, tokens = "", []
    else:
        parts = [p for p in value.split(":") if p]
        names, tokens = parts[0], parts[1:]
    fields: dict[str, Any] = {}
    for token in tokens:
        if not _parse_token(token, fields, fault, warn):
            raise InjectError(f"invalid {what} '{value}'")
    syscalls = parse_trace_set(names)
    actions = ("error", "retval", "signo", "delay_enter", "delay_exit", "poke_enter", "poke_exit")
    if not any(k in fields for k in actions):
        if not fault:
            raise InjectError(f"invalid {what} '{value}'")
        fields["error"] = _ENOSYS  # fault= defaults to ENOSYS
    return syscalls, InjectAction(**{k: v for k, v in fields.items() if not k.startswith("_")})


# -- applying -------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Current:
    """What was done to the call in flight (strace's TCB_TAMPERED* flags)."""

    call: Call
    action: InjectAction
    tampered: bool = False
    poked: bool = False
    delayed: bool = False
    poke_exit: bool = False
    delay_exit: bool = False


@dataclass(slots=True)
class _ThreadState:
    """Per traced thread (strace's per-tcb copy of inject_vec): occurrence counters and flags."""

    counters: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (arch, nr) -> [first, last]
    nofail: bool = False  # TCB_TAMPERED_NO_FAIL: set by a syscall= substitution, never cleared (as strace 6.1)
    seen_first: bool = False  # the launched command's first execve is never tampered with
    current: _Current | None = None


class Tamper:
    """All -e inject=/fault= rules of a run, and the machinery that applies them to the ptrace backend."""

    def __init__(self, specs: list[tuple[SyscallSet, InjectAction]], message: Callable[[str], None]) -> None:
        self.specs = specs
        self.message = message
        self._rules: dict[str, list[InjectAction | None]] = {}
        self.has_delays = any(a.delay_enter is not None or a.delay_exit is not None for _, a in specs)
        # pid -> what its next syscall-stop resume does: (True, deadline) hold it, (False, signo) signal it.
        self._pending: dict[int, tuple[bool, float]] = {}
        self._delays: list[tuple[float, int, int, int]] = []  # (deadline, seq, pid, ptrace request)
        self._seq = 0
        self._backend: PtraceBackend | None = None

    def rules(self, arch: str) -> list[InjectAction | None]:
        """Per-number actions for one personality: each expression overrides earlier ones for its syscalls."""
        rules = self._rules.get(arch)
        if rules is None:
            # i386: strace's socketcall/ipc subcall slots past the table too (tables/subcalls.py).
            size = max(table(arch).max_nr, 0, *pseudo_names(arch)) + 1 if arch in PERSONALITIES else 0
            rules = [None] * size
            for syscalls, action in self.specs:
                bitmap, _ = syscalls.bitmap(arch) if size else (bytearray(), False)
                for nr in range(min(size, len(bitmap))):
                    if bitmap[nr]:
                        rules[nr] = action
            self._rules[arch] = rules
        return rules

    # -- wiring into the backend --------------------------------------------------------------

    def attach(self, backend: PtraceBackend) -> None:
        """Interpose on the backend: its sink, its syscall-stop resume and (with delays) its waitpid."""
        self._backend = backend
        backend.sink = _TamperSink(backend.sink, self, backend)
        backend.resume_syscall = self.resume
        if self.has_delays:
            # SIGCHLD stays pending while blocked, so "wait for a child event or the next deadline" is
            # sigtimedwait() without a race; the launcher clears the mask in the children it starts.
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            backend._waitpid = self._make_waitpid(backend._waitpid, backend)

    def resume(self, request: int, pid: int, addr: int, sig: int) -> int:
        """Restart a tracee from a syscall stop: with the injected signal, or later (a delay)."""
        if self._pending:
            todo = self._pending.pop(pid, None)
            if todo is not None:
                hold, value = todo
                if hold:
                    self._seq += 1
                    heapq.heappush(self._delays, (value, self._seq, pid, request))
                    return 0
                return B.raw_ptrace(request, pid, addr, int(value))
        return B.raw_ptrace(request, pid, addr, sig)

    def _make_waitpid(
        self, inner: Callable[[int, int], tuple[int, int]], backend: PtraceBackend
    ) -> Callable[[int, int], tuple[int, int]]:
        delays = self._delays
        chld = {signal.SIGCHLD}

        def waitpid(pid: int, options: int) -> tuple[int, int]:
            while True:
                if not delays:
                    return inner(pid, options)
                now = time.monotonic()
                while delays and delays[0][0] <= now:
                    _, _, tid, request = heapq.heappop(delays)
                    if tid in backend.tracees:
                        B.raw_ptrace(request, tid, 0, 0)  # strace 6.1 restarts delayed tracees without a signal
                got = inner(pid, options | os.WNOHANG)
                if got[0]:
                    return got
                if delays:
                    # Capped so that a lost SIGCHLD can only cost a short latency, never a hang.
                    signal.sigtimedwait(chld, min(max(delays[0][0] - time.monotonic(), 0.0), 0.25))

        return waitpid

    def hold(self, pid: int, seconds: float) -> None:
        """Keep ``pid`` stopped for ``seconds`` from now: the next resume() goes into the deadline heap."""
        self._pending[pid] = (True, time.monotonic() + seconds)

    def signal_on_resume(self, pid: int, signo: int) -> None:
        """Restart ``pid`` from its entry stop with ``signo``: the kernel sends it as SI_KERNEL (strace's way)."""
        self._pending[pid] = (False, signo)

    # -- tracee registers and memory ----------------------------------------------------------

    @staticmethod
    def poke_user(pid: int, offset: int, value: int) -> bool:
        return B.raw_ptrace(B.PTRACE_POKEUSER, pid, offset, value & _MASK64) != B.ERROR_RESULT

    def poke_memory(self, pid: int, addr: int, data: bytes) -> int:
        """Write into the tracee like PTRACE_POKEDATA (read-only mappings included): bytes written."""
        try:
            fd = os.open(f"/proc/{pid}/mem", os.O_WRONLY | os.O_CLOEXEC)
        except OSError:
            return 0
        try:
            return os.pwrite(fd, data, addr) if 0 < addr < _MASK64 - len(data) else 0
        except OSError:
            return 0
        finally:
            os.close(fd)

    # -- the syscall hooks --------------------------------------------------------------------

    def on_entry(self, t: Tracee, call: Call, action: InjectAction) -> None:
        """tamper_with_syscall_entering: count the occurrence; on a hit, skip/substitute/signal/poke/delay."""
        st = t.tamper
        if st is None:
            st = t.tamper = _ThreadState()
        if not st.seen_first:
            st.seen_first = True
            if self._backend is not None and t.pid == self._backend.main_pid and call.nr in t.tab.with_flag("exec"):
                return  # the exec that starts the traced command is strace's own, never tampered with
        key = (call.arch, call.nr)
        ctr = st.counters.get(key)
        if ctr is None:
            ctr = st.counters[key] = [action.first, action.last]
        if ctr[0] == 0 or ctr[1] == 0:
            return
        if ctr[1] != INJECT_LAST_INF:
            ctr[1] -= 1
        ctr[0] -= 1
        if ctr[0] != 0:
            return
        ctr[0] = action.step
        cur = st.current = _Current(call, action)
        pid = t.pid
        if action.tampers_result:
            scno = action.scno.get(call.arch, -1) if action.scno else -1
            if self.poke_user(pid, _ORIG_RAX_OFFSET, scno):
                cur.tampered = True
                if scno != -1:
                    st.nofail = True
        if action.poke_enter and self._poke(t, call, action.poke_enter):
            cur.poked = True
        cur.poke_exit = bool(action.poke_exit)
        if action.delay_enter is not None:
            cur.delayed = True
            self.hold(pid, action.delay_enter)  # the restart after the delay carries no signal (strace 6.1)
        elif action.signo:
            self.signal_on_resume(pid, action.signo)
        cur.delay_exit = action.delay_exit is not None

    def on_exit(self, t: Tracee, call: Call) -> None:
        """tamper_with_syscall_exiting: poke/delay at exit, then the injected result into rax and the Call."""
        st = t.tamper
        cur = st.current if st is not None else None
        if cur is None or cur.call is not call:
            return
        st.current = None
        action = cur.action
        if cur.poke_exit and self._poke(t, call, action.poke_exit):
            cur.poked = True
        if cur.delay_exit:
            cur.delayed = True
            self.hold(t.pid, action.delay_exit or 0.0)
        if cur.tampered:
            failed = call.error != 0
            if (not failed) ^ st.nofail:
                rval = -1 if failed else call.rval
                self.message(
                    f"Failed to tamper with process {t.pid}: unexpectedly got {'' if st.nofail else 'no '}error"
                    f" (return value {_c_hex(rval)}, error {call.error})"
                )
            elif action.retval is not None:
                value = action.retval
                if call.arch == "i386":
                    value &= 0xFFFFFFFF
                    value = value - (1 << 32) if value >> 31 else value
                elif value >> 63:
                    value -= 1 << 64
                self.poke_user(t.pid, _RAX_OFFSET, value)
                call.rval, call.error = value, 0
            else:
                self.poke_user(t.pid, _RAX_OFFSET, -action.error)
                call.rval, call.error = -1, action.error
        note = ""
        if cur.tampered and cur.poked:
            note = " (INJECTED: args, retval)"
        elif cur.poked:
            note = " (INJECTED: args)"
        elif cur.tampered:
            note = " (INJECTED)"
        if cur.delayed:
            note += " (DELAYED)"
        call.injected = note

    def _poke(self, t: Tracee, call: Call, pokes: tuple[tuple[int, bytes], ...]) -> bool:
        """poke_tcb: write each payload where its argument points; strace's messages when that cannot be done."""
        info = table(call.arch).by_nr.get(call.nr) if call.arch in PERSONALITIES else None
        nargs = info.nargs if info is not None else 6
        poked = False
        for arg, data in pokes:
            if nargs < arg:
                self.message(
                    f"poke_tcb: Failed to tamper with process {t.pid}: requested to tamper with argument #{arg},"
                    f" but system call '{call.name}' has only {nargs} arguments"
                )
                continue
            if self.poke_memory(t.pid, call.args[arg - 1] if arg <= len(call.args) else 0, data):
                poked = True
            else:
                self.message(f"poke_tcb: Failed to tamper with process {t.pid}: couldn't poke")
        return poked


def _c_hex(value: int) -> str:
    """C's %#lx: 0 prints as "0", others with 0x."""
    value &= _MASK64
    return f"{value:#x}" if value else "0"


class _TamperSink:
    """Sits between the loop and the real sink: tampers at entry before the call is printed, at exit before its result is."""

    def __init__(self, sink: Sink, tamper: Tamper, backend: PtraceBackend) -> None:
        self.sink = sink
        self.tamper = tamper
        self.tracees = backend.tracees

    def on_entry(self, call: Call) -> None:
        rules = self.tamper.rules(call.arch)
        nr = call.nr
        action = rules[nr] if 0 <= nr < len(rules) else None
        if action is not None:
            t = self.tracees.get(call.pid)
            if t is not None:
                self.tamper.on_entry(t, call, action)
        self.sink.on_entry(call)

    def on_exit(self, call: Call) -> None:
        t = self.tracees.get(call.pid)
        if t is not None and t.tamper is not None:
            self.tamper.on_exit(t, call)
        self.sink.on_exit(call)

    def __getattr__(self, name: str) -> object:  # every other event goes straight through
        return getattr(self.sink, name)


def check_supported() -> str | None:
    """Why tampering cannot work on this machine, or None (registers are written with x86_64 offsets)."""
    if os.uname().machine != "x86_64":
        return f"-e inject/fault is implemented for x86_64 tracers only (this is {os.uname().machine})"
    return None


__all__ = ["InjectAction", "InjectError", "Tamper", "check_supported", "parse_inject"]
