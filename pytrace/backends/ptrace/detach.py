"""Letting go of a tracee that may be running: the ptrace backend's and the eBPF seizer's one way.

PTRACE_DETACH works only on a stopped tracee.  A running one is interrupted and detached from its
next stop; if that stop is a signal-delivery stop, the signal must be handed over (not swallowed),
and which signal that is depends on who asks (the eBPF seizer swallows its own backpressure stops).
"""

from __future__ import annotations

import os

from pytrace.backends.ptrace import binding as B

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable


def detach(pid: int, sig: int, pass_on: Callable[[int], int]) -> None:
    """PTRACE_DETACH ``pid`` with ``sig``; if it is running, detach from its next stop with the signal
    ``pass_on(wait status)`` names (0: none)."""
    if B.raw_ptrace(B.PTRACE_DETACH, pid, 0, sig) != B.ERROR_RESULT:
        return
    if B.raw_ptrace(B.PTRACE_INTERRUPT, pid, 0, 0) == B.ERROR_RESULT:
        return
    while True:
        try:
            _, status = os.waitpid(pid, B.WALL)
        except ChildProcessError:
            return
        if not os.WIFSTOPPED(status):
            return
        if B.raw_ptrace(B.PTRACE_DETACH, pid, 0, pass_on(status)) != B.ERROR_RESULT:
            return
