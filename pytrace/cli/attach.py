"""-p's attach loop, one for both backends: strace's messages and the list of pids attached.

strace attaches every -p pid in turn; a pid that cannot be attached is reported
(``attach: ptrace(PTRACE_SEIZE, PID): No such process``) and skipped, and each one
attached is announced unless ``--quiet=attach``.  The caller decides what to do
when none was.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable


def attach_all(
    attach: Callable[[int], int], pids: Iterable[int], message: Callable[[str], None], quiet: bool,
) -> list[int]:
    """Call ``attach(pid)`` (returns the threads traced, raises OSError) for each pid; the pids attached."""
    attached: list[int] = []
    for pid in pids:
        try:
            n = attach(pid)
        except OSError as exc:
            message(f"attach: ptrace(PTRACE_SEIZE, {pid}): {os.strerror(exc.errno or 0)}")
            continue
        attached.append(pid)
        if not quiet:
            message(f"Process {pid} attached" + (f" with {n} threads" if n > 1 else ""))
    return attached
