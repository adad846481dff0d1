#!/usr/bin/env python3
"""The floor of a ptrace syscall tracer in CPython: bare_loop.c's loop, call for call, in Python.

What a Python tracer cannot go below: per stop one ``os.wait4(-1, __WALL)`` (pytrace -c waits with
wait4 for the tracee's ru_stime), one PTRACE_GET_SYSCALL_INFO into a reused buffer and one
PTRACE_SYSCALL, both through pytrace's own ctypes view of libc's ``ptrace`` (``binding.fast_ptrace``:
no argument converters, the cheapest calling style ctypes has), so the comparison with pytrace -c is
like for like.  An entry stop counts its syscall number (one index into a memoryview of the buffer
and one list increment); nothing else runs per stop.

Started as pytrace starts a command (fork, SIGSTOP, PTRACE_SEIZE with pytrace -f's options, SIGCONT);
new threads (PTRACE_EVENT_STOP) are resumed, a group-stop gets PTRACE_LISTEN, a signal is passed
on; the loop ends at ECHILD.  Prints "getppid N" on stderr (entries of syscall 110, getppid on
x86_64), which benchmarks/ptrace_floor.py checks against the workload's count.  Needs pytrace on
PYTHONPATH.

Usage: bare_loop.py PROGRAM [ARGS...]
"""

from __future__ import annotations

import os
import signal
import sys

from pytrace.backends.ptrace import binding as B

GETPPID_NR = 110
MAX_NR = 1024
_STOP_SIGNALS = frozenset((signal.SIGSTOP, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU))


def launch(argv: list[str]) -> int:
    """Fork ``argv`` stopped and seize it with pytrace -f's options; returns its pid."""
    child = os.fork()
    if child == 0:
        try:
            os.kill(os.getpid(), signal.SIGSTOP)
            os.execvp(argv[0], argv)
        except OSError as exc:
            os.write(2, f"bare_loop.py: exec: {exc.strerror}\n".encode())
        os._exit(127)
    _, status = os.waitpid(child, os.WUNTRACED)
    if not os.WIFSTOPPED(status):
        raise SystemExit("bare_loop.py: the child did not stop")
    options = (B.PTRACE_O_TRACESYSGOOD | B.PTRACE_O_TRACEEXEC | B.PTRACE_O_TRACEFORK | B.PTRACE_O_TRACEVFORK
               | B.PTRACE_O_TRACECLONE)
    if B.fast_ptrace(B.PTRACE_SEIZE, child, 0, options) < 0:
        os.kill(child, signal.SIGKILL)
        raise SystemExit("bare_loop.py: PTRACE_SEIZE failed")
    os.kill(child, signal.SIGCONT)
    return child


def trace(child: int) -> tuple[list[int], int]:
    """The loop: (entries per syscall number, the child's exit status)."""
    reader = B.SyscallInfoReader()
    buf, cbuf = reader.buf, reader.cbuf
    words = memoryview(reader.buf).cast("Q")  # words[3]: the entry's nr (offset 24)
    counts = [0] * MAX_NR
    ptrace = B.fast_ptrace
    wait4 = os.wait4
    get_info, size, resume = B.PTRACE_GET_SYSCALL_INFO, B.SYSCALL_INFO_SIZE, B.PTRACE_SYSCALL
    op_entry = B.OP_ENTRY
    syscall_stop = (signal.SIGTRAP | 0x80) << 8 | 0x7F
    wall = B.WALL
    exit_status = 0
    while True:
        try:
            pid, status, _usage = wait4(-1, wall)
        except ChildProcessError:
            break
        if status == syscall_stop:  # the hot path
            if ptrace(get_info, pid, size, cbuf) > 0 and buf[0] == op_entry:
                nr = words[3]
                if nr < MAX_NR:
                    counts[nr] += 1
            ptrace(resume, pid, 0, 0)
            continue
        if (status & 0xFF) != 0x7F:  # exited or killed
            if pid == child:
                exit_status = os.waitstatus_to_exitcode(status)
                exit_status = 128 - exit_status if exit_status < 0 else exit_status
            continue
        sig = (status >> 8) & 0xFF
        event = status >> 16
        if event == B.PTRACE_EVENT_STOP and sig in _STOP_SIGNALS:
            ptrace(B.PTRACE_LISTEN, pid, 0, 0)
            continue
        ptrace(resume, pid, 0, 0 if event else sig)
    return counts, exit_status


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: bare_loop.py PROGRAM [ARGS...]", file=sys.stderr)
        return 2
    counts, status = trace(launch(argv))
    print(f"getppid {counts[GETPPID_NR]}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
