"""``--backend=ebpf``: run the command under the eBPF backend and feed the usual sinks (``EbpfRun``).

Kept out of strace_cli so the ptrace path never imports the eBPF code.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import os
import pwd
from collections.abc import Callable

from pytrace.backends.ebpf.backend import EbpfBackend, EbpfOptions, EbpfUnavailable
from pytrace.backends.ebpf.bpf import BpfError
from pytrace.backends.ptrace import launcher
from pytrace.cli.attach import attach_all
from pytrace.pipeline import NothingAttached

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pytrace.backends.result import RunResult
    from pytrace.cli.strace_cli import Config
    from pytrace.events import Sink
    from pytrace.filters import SyscallSet

# What the eBPF backend cannot do (it sees syscalls, not the tracee's stops or registers).
UNSUPPORTED: list[tuple[str, Callable[[Config], bool]]] = [
    ("-k", lambda c: c.stack_traces),
    ("-i", lambda c: c.instruction_pointer),
    ("-e inject=/fault=", lambda c: any(q in ("inject", "fault") for q, _ in c.qualifiers)),
    ("-ff", lambda c: c.separate),
    ("-b execve", lambda c: c.detach_on_execve),
    ("-y", lambda c: bool(c.decode_fds)),
    ("-Y", lambda c: bool(c.decode_pids)),
    ("-D", lambda c: bool(c.daemonize)),
    ("-P", lambda c: bool(c.paths)),
    ("-u", lambda c: c.user is not None),
    # the exit reason is read from the vCPU's mapping in the tracee's memory, which the eBPF backend never sees
    ("-e kvm=vcpu", lambda c: ("kvm", "vcpu") in c.qualifiers),
    # PTRACE_O_EXITKILL: without ptrace nothing ties the tracees' lives to ours
    ("--kill-on-exit", lambda c: bool(getattr(c, "kill_on_exit", False))),
]


#: A file to write a cProfile (CPU clock) of the stream consumer to: the records read, turned into
#: Calls, decoded and written (docs/ebpf.md, "The consumer's cost"); start-up and exit are left out.
PROFILE_ENV = "PYTRACE_PROFILE_CONSUMER"


def unsupported_option(cfg: Config) -> str | None:
    for name, used in UNSUPPORTED:
        if used(cfg):
            return name
    return None


class EbpfRun:
    """One ``--backend=ebpf`` trace, in two halves so that the CLI can build its sinks while the kernel
    verifies the programs (pipeline.StracePipeline.prepare, issue 14's start-up):

    * ``start()``: the backend and its scope, -p attached, the maps made and every program's load
      started (the large ones verified in threads);
    * ``run(sink)``: the command forked (stopped before its exec), the loads waited for and attached,
      the command let go, every record fed to ``sink`` (or -c's totals) until the traced processes
      are gone.

    ``stop``: a guest (the Python API) asks to stop through it; no signal disposition is touched then.
    ``comm_of``: system-wide mode (no command, no -p), the table the lines' prefix reads names from.
    ``idle``: called when no record came for a whole wait (see EbpfOptions.idle).
    ``flush``: writes a buffered trace output, after each batch of records (see EbpfOptions.flush).
    """

    def __init__(
        self, cfg: Config, trace: SyscallSet, path: str | None, env: dict[str, str] | None,
        user: pwd.struct_passwd | None, message: Callable[[str], None], *, stop: Callable[[], bool] | None = None,
        stdio: tuple[int | None, int | None, int | None] = (None, None, None), cwd: str | None = None,
        comm_of: dict[int, str] | None = None, idle: Callable[[], None] | None = None,
        flush: Callable[[], None] | None = None, signals: launcher.InheritedSignals | None = None,
    ) -> None:
        self.cfg, self.trace, self.path, self.env, self.user = cfg, trace, path, env, user
        self.signals = signals  # the mask and ignored signals pytrace inherited: the command gets them
        self.message, self.stop, self.stdio, self.cwd = message, stop, stdio, cwd
        self.comm_of, self.idle, self.flush = comm_of, idle, flush
        self.system_wide = not cfg.command and not cfg.pids
        self.counting = cfg.summary == "only"  # -c alone: aggregated in the kernel, nothing to lose or seize
        self.quiet_attach = "attach" in (cfg.quiet_set or ())
        self.attached: list[int] = []
        self.child = 0  # the command, forked and stopped until run() lets it go
        self.backend: EbpfBackend | None = None

    def start(self) -> EbpfRun:
        """Everything up to the programs' verification, which goes on in the kernel when this returns."""
        cfg, message = self.cfg, self.message
        ring = {"ring_size": cfg.ebpf_ring_size} if cfg.ebpf_ring_size else {}
        announce = None if cfg.quiet or self.quiet_attach else lambda pid: message(f"Process {pid} attached")
        copy = None
        if not self.counting:  # -c's programs copy nothing (and -c imports none of the capture code)
            from pytrace.backends.ebpf.capture_table import CaptureOptions

            dumps = any(q in ("read", "write") for q, _ in cfg.qualifiers)
            copy = CaptureOptions(max_strlen=cfg.max_strlen, verbose=bool(cfg.verbose), whole_buffers=dumps,
                                  stack_pointer=os.path.exists("/sys/kernel/btf/vmlinux"))
        system_wide = self.system_wide
        # The records carry kernel times only for what reads the calls' times: -T, the -C table, the
        # records of --json/Perfetto and the Python API (a guest).  -t/-r are taken as the line is printed.
        timed = (cfg.syscall_times is not None or bool(cfg.summary) or cfg.output_format != "text"
                 or self.stop is not None)
        # System-wide: nothing is seized (every process of the machine), so nothing can be held back
        # either; a loss is then written into the trace and makes the exit status 1 (--allow-loss).
        backend = self.backend = EbpfBackend(EbpfOptions(
            follow_forks=bool(cfg.follow) and not system_wide, trace_bitmap=self.trace.bitmap, capture=copy,
            system_wide=system_wide, comms=tuple(cfg.comms), seize=not self.counting and not system_wide,
            backpressure=cfg.backpressure and not system_wide, guest=self.stop is not None, announce=announce,
            idle=self.idle, flush=self.flush, timed=timed, **ring), self.comm_of)
        # -p first, as strace does: a bad pid is reported (in strace's words, like --backend=ptrace)
        # before any program is loaded, and with nothing to trace we stop at once.
        self.attached = attach_all(backend.attach, cfg.pids, message, self.quiet_attach)
        if cfg.pids and not self.attached and not cfg.command:
            backend.close()
            raise NothingAttached
        try:
            # -c alone: aggregate in the kernel, no event ever reaches user space; -C needs every line.
            if self.counting:
                from pytrace.sinks import summary as summary_opts

                overhead = summary_opts.parse_overhead(cfg.summary_overhead) if cfg.summary_overhead else 0
                backend.begin_count(overhead, cfg.summary_histogram)
            else:
                backend.begin_stream()
        except BaseException:
            self.abort()
            raise
        return self

    def abort(self) -> None:
        """Undo ``start()`` when the trace will not run (the CLI's sinks could not be built): everything
        released (the command is forked only by ``run``)."""
        if self.backend is not None:
            self.backend.close()

    def run(self, sink: Sink) -> RunResult:
        """Trace to the end (see the class docstring); ``start()`` first."""
        cfg, message, stop, backend = self.cfg, self.message, self.stop, self.backend
        assert backend is not None, "start() first"
        interrupted = {"sig": 0}

        def on_signal(signo: int, _frame: object) -> None:
            interrupted["sig"] = signo

        try:
            try:
                if cfg.command:
                    # Forked once our own work is done, not earlier: until its exec every page we write
                    # is copied (measured: 3-5 ms more of our CPU when forked before the maps); and before
                    # waiting for the verifier, so that it reaches its stop meanwhile.
                    assert self.path is not None and self.env is not None
                    self.child = launcher.spawn_stopped(self.path, cfg.command, self.env, self.user,
                                                        signals=self.signals, stdio=self.stdio, cwd=self.cwd)
                backend.finish_setup()
            except BaseException:
                if self.child:
                    _kill_stopped(self.child)
                    self.child = 0
                raise
            if self.child:
                backend.start(self.child)
            if stop is None:
                block = bool(cfg.output and cfg.command)
                for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
                    signal.signal(sig, signal.SIG_IGN if block else on_signal)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                                                            signal.SIGQUIT, signal.SIGPIPE))
                stopped = lambda: bool(interrupted["sig"])  # noqa: E731
            else:
                stopped = stop
            if self.system_wide and not self.quiet_attach:  # attached and Ctrl-C-ready: as bpftrace and BCC's tools
                names = f" (--comm {', '.join(cfg.comms)})" if cfg.comms else ""
                message(f"tracing system-wide{names}; Ctrl-C to end")
            if self.counting:
                totals = getattr(sink, "summary", None)
                assert totals is not None, "-c builds a SummarySink"
                for row in backend.count(stopped):
                    totals.add_totals("x86_64", row.nr, row.calls, row.errors, row.nanoseconds, row.min_ns,
                                      row.max_ns, row.hist)
            else:
                profile = os.environ.get(PROFILE_ENV)
                if profile:
                    from pytrace.profiling import profiled

                    profiled(profile, lambda: backend.stream(sink, stopped))
                else:
                    backend.stream(sink, stopped)
        finally:
            sink.close()
            # The CLI exits next: the kernel's detaching of the programs need not hold up its exit.
            backend.close(later=stop is None)
        from pytrace.backends.result import RunResult  # not the ptrace loop's module (~1-2 ms to import)

        if stop is not None and stop():
            interrupted["sig"] = signal.SIGTERM  # reported as a tracer stopped by SIGTERM reports it
        if interrupted["sig"] and backend.main_pid:
            # As with ptrace (and strace): the launched command gets the fatal signal we got; a guest's
            # stop kills it (the Python API kills a program it started, as subprocess.run does).
            try:
                os.kill(backend.main_pid, signal.SIGKILL if stop is not None else interrupted["sig"])
                os.waitpid(backend.main_pid, 0)
            except OSError:
                pass
        if backend.lost:
            hint = "" if cfg.allow_loss else "; exit status 1 (--allow-loss accepts a trace with gaps)"
            message(f"{backend.lost} events lost (ring buffer full){hint}")
        if self.system_wide:  # a signal is how system-wide tracing ends: a clean end (exit status 0 unless a loss)
            return RunResult(0, 0, False, 0, backend.lost)
        if interrupted["sig"] and not self.quiet_attach:
            for pid in self.attached:
                message(f"Process {pid} detached")
        return RunResult(backend.exit_status, backend.killed_by, backend.core_dumped, interrupted["sig"],
                         backend.lost)


def _kill_stopped(pid: int) -> None:
    """The command forked by ``start()`` and never let go (stopped before its exec): killed and reaped."""
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except OSError:
        pass


__all__ = ["BpfError", "EbpfRun", "EbpfUnavailable", "NothingAttached", "unsupported_option"]
