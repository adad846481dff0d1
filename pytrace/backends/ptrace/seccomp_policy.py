"""Whether a run installs pytrace's seccomp filter (--seccomp-bpf, --no-seccomp-bpf, the default).

Apart from pytrace/backends/ptrace/seccomp.py (the filter's generator and assembler) because
every run asks: a run that installs no filter never imports the generator and its constant
table.
"""

from __future__ import annotations

_WITHOUT_F = "--seccomp-bpf cannot be used without -f/--follow-forks, disabling"


def decide(
    requested: bool | None, *, launching: bool, attaching: bool, follow: bool, detach_on_execve: bool,
    trace_all: bool, syscall_number: bool, daemonize: bool, kill_on_exit: bool = False,
) -> tuple[bool, list[str]]:
    """Whether the launched command gets a filter, and the messages to print (strace 6.1's wording).

    ``requested``: True for --seccomp-bpf, False for --no-seccomp-bpf, None to let pytrace
    choose: on whenever the output is certain to be the same as without it, i.e. a launched
    command and a trace set narrower than "all".  The filter is inherited by every child and
    thread, and one the tracer did not follow would have its filtered syscalls fail with
    ENOSYS (why strace 6.1 disables --seccomp-bpf without -f); without -f pytrace follows
    them anyway, silently (``TraceOptions.follow_silently``).  Asked for without -f, the output
    must be strace's without -f, which never filters: so not with -n there (strace's message).  -b execve lets the process go at its exec with the filter still installed
    (the ENOSYS problem again).  -n prints the thread's last syscall number on signal and exit
    lines, and with the filter only traced calls are seen, so by default it stays off there
    (strace's own --seccomp-bpf output differs in that case; asked for explicitly, it is
    honoured as strace does).  -D is not wired to it.  Attached (-p) processes never get a filter.

    pytrace's own choice also needs --kill-on-exit: the filter outlives the tracer, and once
    the tracer is gone (killed, or detached on Ctrl-C) every call it selects fails with ENOSYS,
    so without tracees that die with the tracer the traced program would pay for it (strace 6.1
    has no such default; 6.6 ties --seccomp-bpf to --kill-on-exit for the same reason).
    docs/options.md "Speed: --seccomp-bpf" says why no guardian process can close that gap.
    """
    if requested is None:
        return (launching and not detach_on_execve and not trace_all and not syscall_number
                and not daemonize and kill_on_exit), []
    if not requested:
        return False, []
    # The order of strace 6.1's checks: -b at start-up, the -f / "all" checks when the command is
    # started (before -p processes are attached) or after attaching when there is no command, and the
    # -p notice while attaching if the filter is still on by then.
    messages: list[str] = []
    if detach_on_execve:
        return False, ["--seccomp-bpf is not enabled because it is not compatible with -b"]

    def check() -> str | None:
        problem = None
        if trace_all:
            problem = "Seccomp filter is requested but there are no syscalls to filter.  See -e trace to filter syscalls."
        elif daemonize:
            problem = "--seccomp-bpf is not supported with -D by pytrace, disabling"
        elif syscall_number and not follow:
            problem = "without -f"
        if problem and not follow:  # strace checks -f first: its message whenever pytrace cannot do better
            return _WITHOUT_F
        return problem

    if launching:
        problem = check()
        if problem:
            return False, [problem]
    if attaching:
        messages.append("--seccomp-bpf is not enabled for processes attached with -p")
    if not launching:  # only -p processes: no filter at all, and strace's -f message still applies
        problem = check() or (None if follow else _WITHOUT_F)
        return False, [*messages, *([problem] if problem else [])]
    return True, messages
