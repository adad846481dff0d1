"""-Y / --decode-pids=comm: ``1234<comm>`` wherever strace 6.1 prints a thread or process id.

Where strace 6.1 applies it (its ``printpid`` with PT_TID/PT_TGID, found by
tracing the same programs with strace -Y):

* pid arguments: kill/tkill/tgkill, wait4, waitid(P_PID), getpgid/getsid/
  setpgid's pid, prlimit64, sched_*, ioprio_*, pidfd_open, fcntl F_SETOWN and
  F_GETOWN_EX's ``pid=``; the ``si_pid=`` of a siginfo;
* return values of getpid/gettid/getppid, fork/vfork/clone/clone3 and wait4
  (``= 1234<true>``; a reaped child has no /proc entry left, so no name);
* ``<pid:1234<comm>>`` of a pidfd under -yy;
* the line prefix ``1234<comm> `` (-f -o) / ``[pid  1234<comm>] `` (stderr):
  there the name is strace's cached one (``tcb->comm``), read when the tracee
  appears and re-read at the exit of execve, execveat and prctl(PR_SET_NAME),
  traced or not.  strace 6.1 re-reads it only if its record of the tracee's
  last *traced* syscall says that one succeeded (it tests the error before
  fetching the current result), so after a failed traced call the old name
  stays; ``CommCache.before_exit`` keeps the same record.  A write to
  /proc/self/comm shows nowhere until one of those calls.

Process-group and session ids (getpgid/getsid results, setpgid's pgid,
kill(-PGRP)) stay plain, as in strace.  Names are read from /proc/PID/comm at
the moment of printing, except the cached prefix name.
"""

from __future__ import annotations

import ctypes

from pytrace.decode.fds import OptionError, qualify, quote_in_brackets
from pytrace.decode.format import signed
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from pytrace.events import Call

#: strace 6.1's --decode-pids elements (decode_pid_str_to_uint).
PID_TOKENS = ("pidns", "comm")

__all__ = ["OptionError", "PID_TOKENS", "CommCache", "decode_pid_set", "comm_cache", "pid_printer", "comm"]


def decode_pid_set(entries: Iterable[str | None]) -> frozenset[str]:
    """The --decode-pids set: each -Y (None) means ``comm``; options apply in order, the last one wins."""
    chosen: frozenset[str] = frozenset()
    for spec in entries:
        chosen = qualify("comm" if spec is None else spec, PID_TOKENS, "decode-pids")
    return chosen


def comm(pid: int, xflag: int = 0) -> str:
    """/proc/PID/comm quoted for angle brackets ("" when the process is gone), as strace's print_pid_comm."""
    try:
        with open(f"/proc/{pid}/comm", "rb") as f:
            raw = f.read(16)
    except OSError:
        return ""
    return quote_in_brackets(raw[:15].rstrip(b"\n"), xflag) if raw else ""


def pid_printer(xflag: int = 0) -> Callable[[int], str]:
    """printpid under -Y: ``1234<comm>`` (the printer's ``pid`` when comm decoding is on)."""

    def pid_with_comm(value: int) -> str:
        v = signed(value, 32)
        if v <= 0:
            return str(v)
        name = comm(v, xflag)
        return f"{v}<{name}>" if name else str(v)

    return pid_with_comm


#: Syscalls after which strace re-reads the name (its COMM_CHANGE flag); traced for -Y even if -e leaves them out.
COMM_CHANGE = ("execve", "execveat", "prctl")


class CommCache:
    """The per-tracee name strace shows in line prefixes (its ``tcb->comm``) and when it is refreshed."""

    def __init__(self, xflag: int = 0) -> None:
        self.xflag = xflag
        self.names: dict[int, str] = {}
        self.last_error: dict[int, int] = {}  # pid -> errno of its last syscall the sinks saw (strace's u_error)
        self.pr_set_name = _pr_set_name()

    def load(self, pid: int) -> None:
        """Read the name now: called when a tracee appears."""
        self.names[pid] = comm(pid, self.xflag)
        self.last_error.pop(pid, None)

    def get(self, pid: int) -> str:
        return self.names.get(pid, "")

    def before_exit(self, call: Call, shown: bool) -> None:
        """syscall_exiting_decode: refresh the name after execve/prctl(PR_SET_NAME), then note this call's error."""
        if (call.name in COMM_CHANGE and not self.last_error.get(call.pid)
                and (call.name != "prctl" or call.args[0] & 0xFFFFFFFF == self.pr_set_name)):
            self.names[call.pid] = comm(call.pid, self.xflag)
        if shown:
            self.last_error[call.pid] = call.error


def _set_own_name(name: str) -> None:
    """Name the tracer (and so the child it forks, until its execve) as strace's is named: its program name.

    strace's child shows ``<strace>`` on the execve line of ``strace -f -Y``;
    run as ``python -m pytrace`` ours would say ``<python3>``.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_pr_set_name(), ctypes.c_char_p(name.encode()[:15]), 0, 0, 0)


def _pr_set_name() -> int:
    """PR_SET_NAME's number, from the constant tables (read with -Y only: not at every start-up)."""
    return next(v for v, n in X.PRCTL_OPTIONS if n == "PR_SET_NAME")


def comm_cache(decode: frozenset[str], program_name: str, xflag: int = 0) -> CommCache | None:
    """The line-prefix names for -Y (None without it); names the tracer as strace's is named.

    ``pidns`` alone changes nothing outside PID namespaces.  The printer's ``pid``
    (``pid_printer``) is chosen separately, when the printer is built.
    """
    if "comm" not in decode:
        return None
    _set_own_name(program_name)
    return CommCache(xflag)


def prefix_printer(cache: CommCache | Mapping[int, str], mode: str,
                   nprocs: Callable[[], int]) -> Callable[[int, object], str]:
    """printleader's pid part with -Y: ``1234<comm> `` (plain) or ``[pid  1234<comm>] `` (bracket).

    ``cache`` is the -Y name cache, or a plain mapping of names (the eBPF system-wide mode's, taken
    from the kernel with each record; a saved trace's ``comm`` fields).

    Without a name strace keeps its usual padding (``%-5u``); the bracket form
    appears only while more than one process is traced, as without -Y.
    """
    get = cache.get
    if mode == "plain":

        def plain(pid: int, src: object) -> str:
            name = get(pid)
            return f"{pid}<{name}> " if name else f"{pid:<5} "

        return plain

    def bracket(pid: int, src: object) -> str:
        if nprocs() <= 1:
            return ""
        name = get(pid)
        return f"[pid {pid:5}<{name}>] " if name else f"[pid {pid:5}] "

    return bracket
