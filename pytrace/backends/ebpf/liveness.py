"""Which traced thread groups are still running, seen through pidfds.

The eBPF backend has no ptrace stops to tell it that a tracee is gone, so it
watches each traced thread group with ``pidfd_open(2)``: ``poll()`` reports a
pidfd readable once the whole group has exited -- a zombie counts as exited,
and a group whose leader thread exited while other threads run does not, which
``/proc/PID/stat`` cannot tell apart.  A pidfd also pins the process, so a pid
reused after the tracee is gone is never mistaken for it.
"""

from __future__ import annotations

import errno
import os
import select
from collections.abc import Iterable

PIDFD_THREAD = os.O_EXCL  # Linux 6.9+: a pidfd for one thread, readable when that thread exits


def thread_group(tid: int) -> int:
    """The thread-group id (process id) of ``tid``; OSError(ESRCH) if there is no such task."""
    try:
        with open(f"/proc/{tid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"Tgid:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    raise OSError(errno.ESRCH, os.strerror(errno.ESRCH))


def thread_count(tgid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{tgid}/task"))
    except OSError:
        return 1


class Liveness:
    """Open pidfds of the traced groups; ``alive()`` and ``wait()`` answer from them."""

    def __init__(self) -> None:
        self._fds: dict[int, int] = {}
        self._gone: set[int] = set()  # groups seen exited: never reopened (their pid may be reused)
        self._poll = select.poll()

    def watch(self, tgid: int, thread: bool = False) -> bool:
        """Start watching ``tgid``; False if it does not exist (or is not a thread-group leader).

        ``thread``: ``tgid`` is one thread's id, watched alone (``-p TID``).
        """
        if tgid in self._fds:
            return True
        if tgid in self._gone:
            return False
        try:
            fd = os.pidfd_open(tgid, PIDFD_THREAD if thread else 0)
        except OSError:  # ESRCH: gone; EINVAL: a thread id, whose group is watched through its leader
            self._gone.add(tgid)
            return False
        self._fds[tgid] = fd
        self._poll.register(fd, select.POLLIN)
        return True

    def alive(self, tgids: Iterable[int]) -> bool:
        """Whether any of ``tgids`` still runs (each is watched from now on)."""
        live = False
        for tgid in tgids:
            if self.watch(tgid) and not self._exited(tgid):
                live = True
        return live

    def _exited(self, tgid: int) -> bool:
        fd = self._fds[tgid]
        p = select.poll()
        p.register(fd, select.POLLIN)
        if not p.poll(0):
            return False
        self._poll.unregister(fd)
        os.close(fd)
        del self._fds[tgid]
        self._gone.add(tgid)
        return True

    def wait(self, timeout_ms: int) -> None:
        """Sleep until a watched group exits or ``timeout_ms`` passes."""
        if self._fds:
            self._poll.poll(timeout_ms)
        else:
            select.select([], [], [], timeout_ms / 1000)

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
