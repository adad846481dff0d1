"""The run of ``pyltrace --backend=ebpf``: set-up, the loop that drains the ring buffer, the end.

The same prototypes, output file and writers as the ptrace pipeline
(pipeline.LtracePipeline.prepare); then EbpfLtraceSession loads its
programs, starts or attaches, and this loop prints records as they come
until every traced process is gone (or Ctrl-C / SIGTERM, which releases
every BPF object and leaves the processes running, untouched).  Records the
kernel could not queue are counted; any loss is written into the trace and
the exit status is then non-zero.
"""

from __future__ import annotations

import os
import select
import signal
from typing import Any

from pytrace.backends.ebpf import bpf
from pytrace.ltrace.ebpf_tracer import EbpfLtraceError, EbpfLtraceSession, refusal

LOSS_STATUS = 1
#: How long the loop sleeps at most: call records do not wake it (ebpf_programs.RB_NO_WAKEUP), so this
#: is how late a line can be printed; other records and the command's end wake it at once.
POLL_MS = 50


def run(cfg: Any, oo: Any, command: list[str], pids: list[int], output: str | None, configs: list[str],
        user: str | None, argv: list[str], say: Any) -> tuple[int, int]:
    """Trace; (exit status, signal that killed the command or 0): the command's status, or 1 on errors
    and lost records.  ``say`` writes one of ltrace's complaints."""
    from pytrace.backends.ptrace import launcher
    from pytrace.ltrace.format import Summary
    from pytrace.pipeline import LtracePipeline, SetupError

    why = refusal(cfg)
    if why is not None:
        say(f"pyltrace: {why}")
        return 1, 0
    pipeline = LtracePipeline(cfg, oo, configs=configs, output=output, argv=argv, message=say)
    try:
        protos, out = pipeline.prepare_output(follow_pids=bool(pids), backend="ebpf")
    except SetupError as exc:
        say(str(exc))
        return 1, 0
    session = EbpfLtraceSession(cfg, out, protos, Summary() if oo.summary else None)
    if hasattr(out, "bind"):
        out.bind(session)
    stop: list[int] = []

    def on_signal(signo: int, _frame: Any) -> None:
        stop.append(signo)

    # (SIGPIPE: the trace's reader went away; pyltrace then dies of it, as ltrace and the ptrace backend do)
    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
                                                     signal.SIGPIPE)}
    status = 0
    try:
        try:
            session.load()
            main = 0
            for pid in pids:
                try:
                    session.attach_pid(pid)
                except OSError as exc:
                    say(f"Cannot attach to pid {pid}: {os.strerror(exc.errno or 0)}")
            if command:
                try:
                    path = launcher.resolve_command(command[0])
                    pw = launcher.lookup_user(user) if user else None
                except launcher.LaunchError:
                    say(f"Can't execute `{command[0]}': No such file or directory")
                    return 1, 0
                if pipeline._program_problem(path, command[0]):  # noqa: SLF001
                    return 1, 0
                session.command_name = os.path.basename(path)
                main = session.launch(path, command, launcher.build_env([]), pw)
            elif not session.procs:
                return 1, 0
        except (bpf.BpfError, EbpfLtraceError) as exc:
            say(f"pyltrace: {exc}")
            return 1, 0
        status, killed = _loop(session, main, stop)
        lost = session.read_lost()
        if session.summary is not None:
            session.read_counts()
        if lost:
            line = f"pyltrace: {lost} library call record(s) lost (ring buffer full)"
            if not oo.summary:
                out.line(None, line)
            say(line)
            status = status or LOSS_STATUS
            killed = 0
    finally:
        session.close()
        out.close(session.summary)
        for s, h in old.items():
            signal.signal(s, h)
    return status, killed


def _loop(session: EbpfLtraceSession, main: int, stop: list[int]) -> tuple[int, int]:
    """Drain until the traced processes are gone; the command's (exit status, killing signal)."""
    status: tuple[int, int] | None = None
    early = session.early_status
    if main and early is not None:
        return _decode(early)
    pidfds = {}
    for pid in session.procs:
        if pid != main:
            try:
                pidfds[pid] = os.pidfd_open(pid)
            except OSError:
                pass
    ring = session.ring
    assert ring is not None
    # Woken by the records that need action, or by the command's end (its pidfd): no poll interval to wait
    # out at the end; call records are drained every POLL_MS.
    waker = select.poll()
    waker.register(ring.fd, select.POLLIN)
    main_fd = _pidfd(main) if main else None
    if main_fd is not None:
        waker.register(main_fd, select.POLLIN)
    while not stop:
        waker.poll(50)
        session.drain()
        session.throttle()
        ended = session.service_stops(main)
        if ended is not None and main and status is None:
            status = _decode(ended)
            if main_fd is not None:
                waker.unregister(main_fd)
        if main and status is None:
            try:
                pid, st = os.waitpid(main, os.WNOHANG | os.WUNTRACED | os.WCONTINUED)
            except ChildProcessError:
                pid, st = main, 0
            if pid == main and os.WIFSTOPPED(st):
                session.main_stopped()
                pid = 0
            elif pid == main and os.WIFCONTINUED(st):
                session.main_continued()
                pid = 0
            if pid == main:
                status = _decode(st)
                if main_fd is not None:
                    waker.unregister(main_fd)  # (readable for good now)
        if (not main or status is not None) and _all_gone(session, pidfds):
            break
    session.drain()
    session.release()
    for fd in [*pidfds.values(), *([main_fd] if main_fd is not None else [])]:
        os.close(fd)
    if stop and stop[0] == signal.SIGPIPE:
        return 128 + signal.SIGPIPE, signal.SIGPIPE
    if stop and status is None:
        return 128 + stop[0], 0
    return status or (0, 0)


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


def _all_gone(session: EbpfLtraceSession, pidfds: dict[int, int]) -> bool:
    for fd in pidfds.values():
        if not select.select([fd], [], [], 0)[0]:
            return False
    if session.cfg.follow:
        return not any(_exists(t) for t in session.live)
    return True


def _exists(tid: int) -> bool:
    try:
        with open(f"/proc/{tid}/stat", "rb") as f:
            return f.read().split(b") ", 1)[1][:1] != b"Z"
    except (OSError, IndexError):
        return False


def _decode(st: int) -> tuple[int, int]:
    if os.WIFSIGNALED(st):
        return 128 + os.WTERMSIG(st), os.WTERMSIG(st)
    return os.WEXITSTATUS(st), 0
