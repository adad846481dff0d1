"""What the Perfetto export and the HTML timeline both need from records: thread names, strace lines, classes.

Both draw one track per thread and label it with the thread's command name,
but a record carries no name: a live trace can ask ``/proc/TID/comm``, a
saved one cannot (its pids are long gone or, worse, reused), so the names are
followed through the records instead: ``execve`` renames a thread after the
program it loaded (what the kernel does to ``comm``), ``prctl(PR_SET_NAME)``
after its argument, and a new thread or process starts with the name of
whoever cloned it.
"""

from __future__ import annotations

import os
from typing import Any

Record = dict[str, Any]

_EXECS = frozenset(("execve", "execveat"))
_CLONES = frozenset(("clone", "clone3", "fork", "vfork"))

#: Display classes, in the order a call in several strace classes is filed
#: under (``socket`` is network and desc: network; ``openat`` is file and
#: desc: file), with their colours.  The membership itself comes from strace's
#: own class tables (syscall_tables/ARCH.classes.tsv).
CLASS_ORDER: tuple[str, ...] = (
    "network", "ipc", "signal", "process", "memory", "file", "desc", "creds", "clock", "other",
)
_TABLE_CLASS = {
    "network": "network", "ipc": "ipc", "signal": "signal", "process": "process", "memory": "memory",
    "file": "file", "stat": "file", "lstat": "file", "fstat": "desc", "statfs": "file",
    "fstatfs": "desc", "desc": "desc", "creds": "creds", "clock": "clock",
}
_RANK = {name: i for i, name in enumerate(CLASS_ORDER)}
_CLASS_CACHE: dict[tuple[str, int], str] = {}


def syscall_class(arch: str, nr: int) -> str:
    """The display class of syscall ``nr`` of ``arch`` (``other`` if strace puts it in none, or has no table)."""
    key = (arch, nr)
    cls = _CLASS_CACHE.get(key)
    if cls is None:
        from pytrace.tables import syscall_classes

        try:
            found = syscall_classes.classes_of(arch, nr)
        except ValueError:  # an arch without a class table (aarch64)
            found = frozenset()
        shown = [_TABLE_CLASS[c] for c in found if c in _TABLE_CLASS]
        cls = _CLASS_CACHE[key] = min(shown, key=_RANK.__getitem__) if shown else "other"
    return cls


def call_text(rec: Record) -> str:
    """A syscall (or library call) record as strace prints it, on one line: ``name(args) = ret``."""
    if rec.get("type") == "libcall":  # pyltrace: ltrace's "name(args) = value"
        text = rec.get("args_text")
        if text is None:
            args = rec.get("args") or []
            text = ", ".join(a.get("text", "") if isinstance(a, dict) else str(a) for a in args)
        name = rec.get("display") or rec.get("name", "?")
        ret = rec.get("return_text")
        return f"{name}({text}) = {ret}" if ret is not None else f"{name}({text} <no return ...>"
    entry = rec.get("entry_text") or ""
    exit_text = rec.get("exit_text")
    tampered = rec.get("tampered")
    suffix = f" ({tampered})" if tampered else ""
    outcome = rec.get("outcome", "returned")
    if outcome == "detached":
        return f"{rec.get('name', '?')}({entry} <detached ...>"
    if outcome != "returned":  # the thread died inside the call (exit_group) or was cut short (a kill)
        if exit_text is None:
            return f"{rec.get('name', '?')}({entry} <unfinished ...>)"
        return f"{rec.get('name', '?')}({entry}{exit_text}) = ?"
    ret = rec.get("return_text")
    return f"{rec.get('name', '?')}({entry}{exit_text or ''}) = {'?' if ret is None else ret}{suffix}"


def event_text(rec: Record) -> str:
    """A signal/exit/stop... record as the line strace prints for it (without the pid prefix)."""
    kind = rec.get("type")
    if kind == "signal":
        info = rec.get("siginfo_text")
        return f"--- {rec.get('signal')} {info} ---" if info else f"--- {rec.get('signal')} ({rec.get('description')}) ---"
    if kind == "exit":
        if rec.get("signal"):
            core = " (core dumped)" if rec.get("core_dumped") else ""
            return f"+++ killed by {rec['signal']}{core} +++"
        return f"+++ exited with {rec.get('exit_code')} +++"
    if kind == "stop":
        return f"--- stopped by {rec.get('signal')} ---"
    if kind == "superseded":
        return f"+++ superseded by execve in pid {rec.get('new_pid')} +++"
    if kind == "exec":  # pyltrace
        return "--- exec ---"
    if kind == "personality":
        return f"[ Process PID={rec.get('tid')} runs in {rec.get('arch')} mode. ]"
    return str(kind)


def _exec_name(rec: Record) -> str | None:
    args = rec.get("args") or []
    path_index = 1 if rec.get("name") == "execveat" else 0
    path = args[path_index].get("value") if len(args) > path_index else None
    if not isinstance(path, str) or not path:
        argv = args[path_index + 1].get("value") if len(args) > path_index + 1 else None
        path = argv[0] if isinstance(argv, list) and argv and isinstance(argv[0], str) else None
    return os.path.basename(path) if path else None


class ThreadNames:
    """Follows every thread's name (and process) through the records; ``live`` also asks ``/proc``.

    ``live`` is for a trace being taken: a thread seen for the first time
    is named from ``/proc/TID/comm`` (it is stopped under the tracer, so the
    name is its own), which also names threads of processes attached with
    ``-p``.  Renames come from the records in both modes, so that a live trace
    and its saved JSON export label their tracks alike.
    """

    def __init__(self, *, live: bool = False) -> None:
        self.live = live
        self.pid_of: dict[int, int] = {}  # tid -> tgid, in order of first appearance
        self.names: dict[int, str] = {}
        self.cloned_by: dict[int, int] = {}  # child tid -> cloning tid, for names learnt later

    def see(self, rec: Record) -> None:
        """Note the thread of ``rec`` and any rename or child it tells of (call on every record)."""
        tid = rec.get("tid")
        if not tid:
            return
        if tid not in self.pid_of:
            self.pid_of[tid] = rec.get("pid") or tid
            if self.live and tid not in self.names:
                comm = _read_comm(tid)
                if comm is not None:
                    self.names[tid] = comm
        kind = rec.get("type")
        if kind != "syscall" or rec.get("outcome") != "returned" or rec.get("errno_code") is not None:
            return
        name = rec.get("name")
        if name in _EXECS:
            new = _exec_name(rec)
            if new:
                self.names[tid] = new
        elif name in _CLONES:
            child = rec.get("retval")
            if isinstance(child, int) and child > 0 and child not in self.names:
                if tid in self.names:
                    self.names[child] = self.names[tid]
                else:
                    self.cloned_by[child] = tid
        elif name == "prctl" and (rec.get("entry_text") or "").startswith("PR_SET_NAME,"):
            args = rec.get("args") or []
            value = args[1].get("value") if len(args) > 1 else None
            if isinstance(value, str):
                self.names[tid] = value

    def name(self, tid: int) -> str:
        """The thread's last known name ("" if the records never told it)."""
        seen: set[int] = set()
        while tid not in self.names and tid in self.cloned_by and tid not in seen:
            seen.add(tid)
            tid = self.cloned_by[tid]
        return self.names.get(tid, "")

    def process_name(self, pid: int) -> str:
        """A process is called what its leader thread is (or its first thread, if the leader was never seen)."""
        if pid in self.pid_of or pid in self.names:
            return self.name(pid)
        first = next((t for t, p in self.pid_of.items() if p == pid), pid)
        return self.name(first)


def _read_comm(tid: int) -> str | None:
    try:
        with open(f"/proc/{tid}/comm", "rb") as f:
            return f.read().rstrip(b"\n").decode("utf-8", "replace")
    except OSError:
        return None
