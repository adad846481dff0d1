"""The one place that assembles a trace: Config -> backend -> filters -> decoders -> sinks, and runs it.

``pytrace`` (cli/strace_cli.py) only parses and validates its options into a
``Config``; the Python API (api.py) builds a ``Config`` too.  Both hand it to
``StracePipeline`` with a ``Host`` saying what differs between a command-line
tool and a library inside someone else's process:

* a tool owns its process: strace's -I signal handling, the periodic flush
  (SIGALRM), ``waitpid(-1)`` over every child, dying of the tracee's signal;
* a library owns only the thread it runs on: no signal handler is touched, it
  waits only for its own thread's children and tracees (``__WNOTHREAD``), it
  is stopped by ``request_stop`` instead of a signal, records go to a callback
  instead of files, and every failure is a ``SetupError`` (never an exit).

Everything a run holds (open streams, ``-o '|cmd'`` helpers, the -k sink, the
backend) lives on the ``StracePipeline`` object, never in module globals of the
pipeline, the CLI or the sinks, so one process can build several.  What the
decoders need from the options is built once by ``build_decoding`` (the
printing context: decode/decoding.py ``Decoding`` over decode/printer.py's
``Printer``, or the value renderer's for records) and passed explicitly to the
sinks that decode.

pyltrace's assembly (``LtracePipeline``) and the saved-trace tools' plumbing
(``run_replay``: a saved JSON trace as the source, a renderer as the sink, for
``pytrace report``/``export``/``timeline``) live here too.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from pytrace.records import dataclass, field  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    import pwd
    import subprocess
    from typing import IO, Any

    from pytrace.backends.ptrace.launcher import InheritedSignals, SeccompFilter
    from pytrace.backends.ptrace.loop import PtraceBackend, RunResult
    from pytrace.cli.ebpf_main import EbpfRun
    from pytrace.cli.strace_cli import Config
    from pytrace.events import Sink
    from pytrace.sinks.prefix import LineOptions
    from pytrace.sinks.strace_text import Stream
    from pytrace.sinks.summary import SummarySink
    from pytrace.stack.sink import StackTraceSink

    Record = dict[str, Any]


class SetupError(Exception):
    """The trace cannot start (or go on): a one-line message in strace's words.

    The command line prints it as strace would (``pytrace: MESSAGE``, exit 1);
    the Python API raises it as ``TraceError``.
    """

    def __init__(self, message: str, usage_hint: bool = False) -> None:
        super().__init__(message)
        self.usage_hint = usage_hint


class NothingAttached(Exception):
    """Every -p PID failed (each one already reported) and there is no command: exit 1, as strace does."""


@dataclass
class Decoding:
    """What the option-dependent decoding hands to the sinks and filters."""

    decoders: Any = None  # decode.decoding.Decoding: this tracer's printing context and decoder choices
    comm_cache: Any = None  # -Y: pids.CommCache (comm per pid, for line prefixes and the call filter)
    traced_paths: frozenset[bytes] | None = None  # -P: the paths (and their realpaths) a call must touch


def build_decoding(cfg: Config, warn: Callable[[str], None], values: bool = False, replay: bool = False) -> Decoding:
    """Everything the decoders need from the options, decided once before tracing starts.

    ``values``: the records (JSON, Perfetto, the Python API) want typed values with the text.
    ``replay``: the split stop path's decoding, which also prints calls decoded at the stop
    (pytrace/sinks/split.py).
    """
    fd_set = pid_set = frozenset()
    comm_cache = None
    if cfg.decode_fds or cfg.decode_pids:  # their modules (and /proc readers) only when asked for
        from pytrace.decode import fds, pids
        from pytrace.progname import prog_name

        try:  # -y/--decode-fds, -Y/--decode-pids: strace rejects a bad set with these words
            fd_set = fds.decode_fd_set(cfg.decode_fds)
            pid_set = pids.decode_pid_set(cfg.decode_pids)
        except fds.OptionError as exc:
            raise SetupError(str(exc)) from None
        comm_cache = pids.comm_cache(pid_set, prog_name(), cfg.xflag)
    traced_paths = None
    if cfg.paths:  # -P: strace announces the realpath of each path as it parses the option
        from pytrace.pathtrace import select_paths

        traced_paths = select_paths(cfg.paths, cfg.quiet_path_resolution, warn)
    from pytrace.decode.decoding import Decoding as Decoders
    from pytrace.decode.decoding import qualifier_sets

    if replay:
        from pytrace.sinks.split import ReplayDecoding as Decoders  # type: ignore[assignment]
    from pytrace.decode.printer import PrintOptions

    # -s/-x/-v/-X/-y/-Y/-e kvm= and -e raw=/abbrev=/verbose=: one printing context, passed to the sinks.
    decoders = Decoders(
        PrintOptions(max_strlen=cfg.max_strlen, xflag=cfg.xflag, verbose=cfg.verbose,
                     style=cfg.const_style or "abbrev", decode_fds=fd_set, decode_pids=pid_set,
                     kvm_vcpu=("kvm", "vcpu") in cfg.qualifiers),
        qualifier_sets(cfg.qualifiers), values=values)
    return Decoding(decoders=decoders, comm_cache=comm_cache, traced_paths=traced_paths)


@dataclass
class Host:
    """Who runs the pipeline, and so which process-wide state it may take (see the module docstring)."""

    argv: list[str] = field(default_factory=list)  # the command line, for the JSON header
    message: Callable[[str], None] = field(default=lambda text: None)  # strace's "pytrace: ..." notes
    warn: Callable[[str], None] = field(default=lambda text: None)  # option warnings (-P's resolution)
    line_options: LineOptions | None = None  # -t/-T/-z...: parsed (and warned about) by the caller
    # The command line: the signal state pytrace was started with, and which of fds 0/1 were closed.
    inherited: InheritedSignals | None = None
    placeholders: tuple[bool, bool] = (False, False)
    # The library: records go to emit(tid, record) (no output file is opened), and the pipeline runs
    # as a guest in its thread (no signal handlers, no SIGALRM flush, waits for its own children only).
    emit: Callable[[int, Record], None] | None = None
    own_children: frozenset[int] = frozenset()  # the guest's helpers: their exit is no tracee's
    stop_requested: Callable[[], bool] | None = None  # the eBPF backend polls it (ptrace: request_stop)
    # The launched command's environment (None: build_env over ours), standard fds and directory.
    env: dict[str, str] | None = None
    stdio: tuple[int | None, int | None, int | None] = (None, None, None)
    cwd: str | None = None

    @property
    def guest(self) -> bool:
        return self.emit is not None


class StracePipeline:
    """One trace as ``pytrace`` runs it: ``prepare`` builds every stage, ``run`` traces, ``finish`` closes."""

    def __init__(self, cfg: Config, host: Host) -> None:
        self.cfg = cfg
        self.host = host
        self.pipes: list[subprocess.Popen[bytes]] = []  # -o '|cmd' helpers
        self.streams: dict[int, Stream] = {}  # -ff: one per pid
        self.main_out: IO[str] | None = None
        self.main_stream: Stream | None = None
        self.sink: Sink | None = None
        self._count_sink: SummarySink | None = None  # -c's sink: the ptrace loop may count into it directly
        self.backend: PtraceBackend | None = None
        self._finish_structured: Callable[[], None] | None = None
        self._stack: StackTraceSink | None = None  # -k: told which tracee is the command we started
        self._stop_signal = 0  # request_stop() before the backend exists
        self.split = False  # the split stop path (pytrace/sinks/split.py): decided in prepare()
        self._wait_renderer: Callable[[], None] | None = None
        self.path: str | None = None
        self.env: dict[str, str] | None = None
        self.user: pwd.struct_passwd | None = None
        # eBPF system-wide mode (no command, no -p): thread id -> name, filled by the backend, read by the prefix.
        self.comm_of: dict[int, str] | None = None
        self._ebpf: EbpfRun | None = None  # --backend=ebpf: started in prepare() (the CLI) or run() (the API)
        if cfg.backend == "ebpf" and not cfg.command and not cfg.pids:
            self.comm_of = {}

    # -- building ----------------------------------------------------------------

    def prepare(self) -> StracePipeline:
        """Decoding, the command's file and user, the outputs and the sink chain (strace's order)."""
        from pytrace.backends.ptrace import launcher
        from pytrace.filters import parse_trace_set
        from pytrace.sinks.output import Stream

        cfg, host = self.cfg, self.host
        self.split = split_allowed(cfg, host)
        # eBPF from the command line: the programs are loading (the kernel verifies them in threads)
        # while the decoders and the sinks are built, below (issue 14: start-up).  The Python API keeps
        # strace's order: its tracer thread must be the one that seizes and forks (ptrace is per thread).
        early_ebpf = cfg.backend == "ebpf" and not host.guest
        if not early_ebpf:
            self.decoding = self._build_decoding()
        if cfg.command:
            try:
                self.user = launcher.lookup_user(cfg.user) if cfg.user else None
            except launcher.LaunchError as exc:
                raise SetupError(str(exc)) from None
        # strace opens -o FILE before it looks for the program: "Can't stat" still leaves an empty FILE.
        if not host.guest:
            self.main_out = self._open_output()
            self.main_stream = Stream(self.main_out)
        if cfg.command:
            try:
                self.path = launcher.resolve_command(cfg.command[0])
            except launcher.LaunchError as exc:
                raise SetupError(str(exc)) from None
            self.env = launcher.build_env(cfg.env, host.env)
        self.trace = cfg.trace or parse_trace_set("all")
        if self.split:  # only a trace written to an output of its own (not a terminal, not the tracee's)
            from pytrace.sinks.output import TraceWriter

            # -ff opens FILE.PID as processes appear, in the render process: where that cannot work,
            # the error is the tracer's to give (one process, as without the split).
            ff_dir = os.path.dirname(cfg.output or "") or "."
            self.split = (os.access(ff_dir, os.W_OK | os.X_OK) if cfg.separate
                          else isinstance(self.main_out, TraceWriter))
        if early_ebpf:
            # Nothing below can fail or warn for an eBPF trace (-y/-Y/-P are refused before).
            self._ebpf = self._start_ebpf()
            try:
                if cfg.summary == "only" and cfg.output_format == "text":
                    # -c alone: the kernel counts, no call or event ever reaches a sink, only the table
                    # is written: no decoders, no text sink (and none of their imports, issue 14).
                    self.decoding = Decoding()
                    self.sink = self._build_summary(None)
                else:
                    self.decoding = self._build_decoding()
                    self.sink = self._build_sinks()
            except BaseException:
                self._ebpf.abort()
                raise
            return self
        self.sink = self._build_sinks()
        return self

    def _build_decoding(self) -> Decoding:
        return build_decoding(self.cfg, self.host.warn,
                              values=self.cfg.output_format != "text" or self.host.emit is not None, replay=self.split)

    def _start_ebpf(self) -> EbpfRun:
        """The eBPF trace's first half (cli/ebpf_main.EbpfRun.start): backend, -p, the command forked,
        the maps and the programs' loads started; ``run`` does the rest."""
        from pytrace.cli.ebpf_main import BpfError, EbpfRun, EbpfUnavailable
        from pytrace.sinks.output import LineWriter, TraceWriter

        cfg, host = self.cfg, self.host
        # stderr holds a line until it is whole; a blocked call's half is written once idle.  A
        # trace output of its own collects lines and is written once per batch of records read.
        main_out = self.main_out
        batched = isinstance(main_out, TraceWriter)
        idle = main_out.flush if batched or isinstance(main_out, LineWriter) else None
        ebpf = EbpfRun(cfg, self.trace, self.path, self.env, self.user, host.message, stop=host.stop_requested,
                       stdio=host.stdio, cwd=host.cwd, comm_of=self.comm_of, idle=idle,
                       flush=main_out.flush if batched else None, signals=host.inherited)
        try:
            return ebpf.start()
        except (EbpfUnavailable, BpfError) as exc:
            raise SetupError(str(exc)) from None

    def _stream_for(self, pid: int) -> Stream:
        """The output of ``pid``'s lines: -ff opens FILE.PID on its first line.

        Called for every line: the common case (one output) is two attribute loads, the imports
        only happen when a -ff file is opened.
        """
        if not self.cfg.separate:
            return self.main_stream  # type: ignore[return-value]
        s = self.streams.get(pid)
        if s is None:
            from pytrace.sinks import output
            from pytrace.sinks.strace_text import Stream

            cfg = self.cfg
            assert cfg.output is not None
            name = f"{cfg.output}.{pid}"
            try:
                s = self.streams[pid] = Stream(output.open_file(
                    name, append=cfg.append, report=self._report(), buffered=cfg.backend == "ptrace"))
            except OSError as exc:
                raise SetupError(f"Can't fopen '{name}': {os.strerror(exc.errno or 0)}") from None
        return s

    def _pid_prefix(self) -> str:
        cfg = self.cfg
        if cfg.separate:
            return "none"
        if cfg.output:
            return "plain" if (cfg.follow or len(cfg.pids) > 1 or self.comm_of is not None) else "none"
        return "bracket"

    def _build_sinks(self) -> Sink:
        """Text (or staged text for -z/-Z/status=), or JSON/Perfetto records; -k frames; -c/-C counting."""
        from pytrace.sinks.status import StagedTextSink
        from pytrace.sinks.strace_text import StraceTextSink

        cfg, host = self.cfg, self.host
        line_opts = host.line_options
        if self.split and line_opts is not None and line_opts.syscall_times is not None and not line_opts.call_clock:
            # -T in the render process: the clock when it sees the records says when they arrived (the
            # entry's on the next batch), not how long the call took: the stops' own times do.
            from pytrace.sinks.prefix import with_call_clock

            line_opts = with_call_clock(line_opts)
        statuses = line_opts.statuses if line_opts is not None else None
        shown_signals = cfg.signals
        signal_filter = shown_signals.__contains__ if shown_signals is not None else None
        comm_cache = self.decoding.comm_cache
        pid_prefix = self._pid_prefix()
        if host.emit is not None:  # the library: --output-format=json's records, handed over in memory
            from pytrace.cli.structured_out import record_sinks

            return record_sinks(cfg, host.emit, statuses, signal_filter, self.decoding.decoders)
        # -z/-Z/-e status= need strace's staged lines: a different sink, chosen once.
        text_sink = (StraceTextSink if statuses is None
                     else functools.partial(StagedTextSink, statuses=statuses))
        text_sinks: list[StraceTextSink] = []
        prefix_printer = None
        if self.comm_of is not None:
            prefix_printer = self._system_prefix(pid_prefix)
        elif comm_cache is not None:  # -Y
            from pytrace.decode import pids

            prefix_printer = pids.prefix_printer(comm_cache, pid_prefix, lambda: text_sinks[0].nprocs)
        sink: Sink = text_sink(
            self._stream_for,
            pid_prefix=pid_prefix,
            acolumn=cfg.acolumn,
            quiet=cfg.quiet,
            signal_filter=signal_filter,
            separate=cfg.separate,
            quiet_set=cfg.quiet_set,
            line_options=line_opts or None,
            pid_prefix_printer=prefix_printer,
            decoding=self.decoding.decoders,
        )
        text_sinks.append(sink)  # type: ignore[arg-type]
        if cfg.output_format != "text":  # JSON / Perfetto records replace the text (and the -c table)
            from pytrace.cli.structured_out import build_sink

            assert self.main_stream is not None
            sink, self._finish_structured = build_sink(
                cfg, host.argv, self._stream_for, self.main_stream, pid_prefix, statuses, signal_filter, self.decoding.decoders,
                comm_of=self.comm_of)
        elif cfg.stack_traces:  # -k: frames after the lines; without it the text sink runs unwrapped
            from pytrace.stack.sink import StackTraceSink

            # -P hides calls (mmap & co. included) before any sink: then the maps are re-read per walk.
            sink = self._stack = StackTraceSink(  # type: ignore[assignment]
                sink, None if self.decoding.traced_paths is not None else self.trace.bitmap)
        if cfg.summary and self._finish_structured is None:  # -c: count instead of printing; -C: print and count
            sink = self._build_summary(sink)
        return sink

    def _build_summary(self, text_sink: Sink | None) -> Sink:
        """-c's sink (``text_sink``: where its personality notices go, None when nothing can make one)
        or -C's (the text sink and the table)."""
        from pytrace.sinks import summary as summary_opts

        cfg = self.cfg
        assert self.main_out is not None
        sink = summary_opts.build_sink(
            text_sink, self.main_out, mode=cfg.summary, sortby=cfg.summary_sort, columns=cfg.summary_columns,
            overhead=cfg.summary_overhead, histogram=cfg.summary_histogram,
            wall_clock=cfg.summary_wall or cfg.backend != "ptrace",  # only ptrace stops give CPU times
        )
        if cfg.summary == "only":
            self._count_sink = sink  # type: ignore[assignment]
        return sink

    def _system_prefix(self, mode: str) -> Callable[[int, object], str]:
        """eBPF system-wide mode: every line names its process, as strace -f -Y does (names from the kernel)."""
        from pytrace.decode import pids

        assert self.comm_of is not None
        return pids.prefix_printer(self.comm_of, mode, lambda: 2)  # always the -f form: many processes

    # -- outputs ---------------------------------------------------------------

    def _report(self) -> Callable[[str], None] | None:
        """Where write errors on the trace outputs go: strace's perror_msg, unless the output holds only
        the -c table (strace never checks the table's writes)."""
        return None if self.cfg.summary == "only" else self.host.warn

    def _open_output(self) -> IO[str]:
        """The trace output (pytrace/sinks/output.py): its write errors are reported in strace's words, never raised."""
        from pytrace.sinks import output

        cfg = self.cfg
        if not cfg.output:  # the eBPF backend prints after the fact: whole lines (output.LineWriter)
            return output.stderr_output(whole_lines=cfg.backend == "ebpf")
        target = cfg.output
        if cfg.separate and target[:1] in ("|", "!"):
            raise SetupError("piping the output and -ff/--output-separately are mutually exclusive", usage_hint=True)
        if cfg.separate and cfg.output_format == "text":
            return output.stderr_output()  # strace never creates FILE itself with -ff, only FILE.PID for each tracee
        # Written when flushed: the ptrace loop flushes before it sleeps (PeriodicFlush), the eBPF
        # consumer after each batch of records (EbpfOptions.flush).
        buffered = True
        if target[:1] in ("|", "!"):
            import subprocess  # only for -o '|cmd': not on every start-up's import path

            read_end, write_end = os.pipe2(os.O_CLOEXEC)
            proc = subprocess.Popen(target[1:], shell=True, stdin=read_end, preexec_fn=_unblock_signals)
            os.close(read_end)
            self.pipes.append(proc)
            return output.fd_output(write_end, target, self._report(), buffered=buffered)
        inherited = _inherited_fd(target)
        if inherited is not None:
            # "-o /dev/fd/N": write to N itself and keep it out of the tracee, which would otherwise
            # hold the trace pipe open after we are gone.
            try:
                os.set_inheritable(inherited, False)
                os.fstat(inherited)
            except OSError as exc:
                raise SetupError(f"Can't fopen '{target}': {os.strerror(exc.errno or 0)}") from None
            if cfg.append:
                try:
                    os.lseek(inherited, 0, os.SEEK_END)
                except OSError:
                    pass  # a pipe: nothing to append to
            return output.fd_output(inherited, target, self._report(), buffered=buffered)
        try:
            return output.open_file(target, append=cfg.append, report=self._report(), buffered=buffered)
        except OSError as exc:
            raise SetupError(f"Can't fopen '{target}': {os.strerror(exc.errno or 0)}") from None

    # -- running ---------------------------------------------------------------

    def request_stop(self, signo: int) -> None:
        """From any thread: detach at the next stop the tracer sees, as if ``signo`` had been caught.

        The ptrace loop acts on it when its waitpid returns; a guest rings its own
        child (api.py's doorbell) to make sure one does.
        """
        self._stop_signal = signo
        if self.backend is not None:
            self.backend.request_stop(signo)

    def run(self) -> RunResult:
        """Trace until the last tracee is gone (raises SetupError, NothingAttached)."""
        cfg, host = self.cfg, self.host
        assert self.sink is not None, "prepare() first"
        if cfg.backend == "ebpf":
            from pytrace.cli.ebpf_main import BpfError, EbpfUnavailable

            ebpf = self._ebpf or self._start_ebpf()  # started by prepare() on the command line
            try:
                return ebpf.run(self.sink)
            except (EbpfUnavailable, BpfError) as exc:
                raise SetupError(str(exc)) from None
        from pytrace.sinks import output

        sink = self.sink
        comm_cache = self.decoding.comm_cache
        traced_paths = self.decoding.traced_paths
        bitmap = self.trace.bitmap
        if traced_paths is not None or comm_cache is not None:  # -P / -Y see calls before the sinks do
            from pytrace.decode import pids
            from pytrace.pathtrace import PathMatcher
            from pytrace.sinks.call_filter import wrap

            sink, bitmap = wrap(  # type: ignore[assignment]
                sink, bitmap, path_match=None if traced_paths is None else PathMatcher(traced_paths),
                forced=() if comm_cache is None else pids.COMM_CHANGE,
                before_exit=None if comm_cache is None else comm_cache.before_exit)
        check_report = os.environ.get("PYTRACE_CHECK_CAPTURE")  # debugging aid: syscall_tables/README.md
        if check_report:
            from pytrace.sinks.capture_check import CaptureCheckSink

            sink = CaptureCheckSink(sink, check_report, string_limit=cfg.max_strlen)
        if host.guest:
            return self._run_ptrace(sink, bitmap, task_hook=None if comm_cache is None else comm_cache.load)
        # Buffered outputs are written every output.FLUSH_INTERVAL s, from the tracing process.
        main_out = self.main_out
        flusher = output.PeriodicFlush(lambda: [main_out, *(s.f for s in self.streams.values())])
        if self.split and not check_report:
            from pytrace.cli.entry import hold_no_standard_fds
            from pytrace.sinks import split

            sink, self._wait_renderer = split.start(  # type: ignore[assignment]
                sink, self.decoding.decoders, self._finish_outputs, string_limit=cfg.max_strlen,
                bytes_limit=max(cfg.max_strlen + 1, split.MIN_BYTES), flusher=flusher,
                settle=functools.partial(hold_no_standard_fds, host.placeholders),
                stimes=bool(cfg.summary) and not cfg.summary_wall, thread_groups=cfg.output_format != "text",
                eager=os.environ.get(SPLIT_ENV) == "2")
            flusher = split.BatchTick(sink,  # type: ignore[arg-type]
                                      lambda: self.backend is not None and self.backend.waiting)
        try:
            return self._run_ptrace(sink, bitmap, task_hook=None if comm_cache is None else comm_cache.load,
                                    on_start=flusher.start)
        finally:
            flusher.stop()

    def _run_ptrace(
        self, sink: Sink, trace_bitmap: Callable[[str], tuple[bytearray, bool]],
        task_hook: Callable[[int], None] | None = None, on_start: Callable[[], None] | None = None,
    ) -> RunResult:
        from pytrace.backends.ptrace import launcher
        from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions

        cfg, host = self.cfg, self.host
        message = host.message
        guest = host.guest
        signals = host.inherited
        tamper = None
        if cfg.inject:
            from pytrace.backends.ptrace.tamper import Tamper, check_supported

            problem = check_supported()
            if problem:
                raise SetupError(problem)
            tamper = Tamper(cfg.inject, message)
        seccomp_filter = _seccomp_filter(cfg, trace_bitmap, message)
        daemon = None
        if cfg.daemonize_level:  # -D: from here on we are the tracer grandchild; the caller's process execs the command
            assert self.path is not None and self.env is not None and not guest
            daemon = launcher.daemonize(self.path, cfg.command, self.env, self.user, cfg.daemonize_level, signals)
        own = frozenset(proc.pid for proc in self.pipes) | host.own_children
        backend = self.backend = PtraceBackend(sink, TraceOptions(
            follow_forks=bool(cfg.follow),
            quiet=cfg.quiet,
            quiet_attach="attach" in (cfg.quiet_set or ()),
            trace_bitmap=trace_bitmap,
            detach_on_execve=cfg.detach_on_execve,
            message=message,
            cpu_times=bool(cfg.summary) and not cfg.summary_wall,
            instruction_pointer=cfg.instruction_pointer,
            tamper=tamper,
            task_hook=task_hook,
            # -c alone: the sink the loop is given is the summary itself (no -P/-Y filter around it)
            count_only=(self._count_sink.counter() if sink is self._count_sink and tamper is None else None),
            seccomp=seccomp_filter is not None,
            follow_silently=seccomp_filter is not None and not cfg.follow,
            kill_on_exit=cfg.kill_on_exit,
            quiet_exit="exit" in (cfg.quiet_set or ()),
            own_children=own,
            wait_all_children=not own and not guest,
            on_start=on_start,
            guest=guest,
            short_read_message=message,  # strace's "umoven: short read" warning
        ))
        if self._stop_signal:
            backend.request_stop(self._stop_signal)
        from pytrace.cli.attach import attach_all

        attached = attach_all(backend.attach, cfg.pids, message, "attach" in (cfg.quiet_set or ()))
        if cfg.pids and not attached and not cfg.command:
            raise NothingAttached
        if daemon is not None:
            if self._stack is not None:
                self._stack.note_launched(daemon.tracee)
            try:
                backend.attach_daemonized(daemon.tracee)
            except OSError as exc:
                message(f"{exc.strerror}: {os.strerror(exc.errno or 0)}")
            else:
                if "attach" not in (cfg.quiet_set or ()):
                    message(f"Process {daemon.tracee} attached")
            daemon.release()
        elif cfg.command:
            assert self.path is not None and self.env is not None
            child = launcher.spawn_stopped(self.path, cfg.command, self.env, self.user, seccomp_filter, signals,
                                           stdio=host.stdio, cwd=host.cwd)
            if not guest:
                from pytrace.cli.entry import hold_no_standard_fds

                hold_no_standard_fds(host.placeholders)
            if self._stack is not None:
                self._stack.note_launched(child)
            try:
                backend.launch(child)
            except OSError as exc:
                raise SetupError(f"{exc.strerror}: {os.strerror(exc.errno)}" if exc.errno else str(exc.strerror)) \
                    from None
        if not guest:
            # strace's -I default: with -o FILE PROG fatal signals are ignored, otherwise they detach;
            # a daemonized tracer also ignores them and SIGTSTP (never_tstp).  -I1 leaves them as inherited.
            # SIGTTOU/SIGTTIN are ignored in every mode, as strace does once the command is started.
            intr = cfg.interruptible or (4 if cfg.daemonize_level else 3 if (cfg.output and cfg.command) else 2)
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            signal.signal(signal.SIGTTIN, signal.SIG_IGN)
            if intr >= 4:
                signal.signal(signal.SIGTSTP, signal.SIG_IGN)
            backend.install_signal_handlers(block=intr >= 3, anywhere=intr == 1, inherited=signals)
        return backend.run()

    def finish(self) -> None:
        """After the run: the JSON/Perfetto trailer, every output closed, ``-o '|cmd'`` read to its end."""
        if self._wait_renderer is not None:  # the render process finished the outputs: wait for it
            self._wait_renderer()
            self._wait_renderer = None
            self._drop_outputs()
        else:
            self._finish_outputs()
        for proc in self.pipes:  # let "-o '|cmd'" finish reading before we report the tracee's status
            proc.wait()

    def _finish_outputs(self) -> None:
        """The JSON/Perfetto trailer, then every output closed (in the render process when split)."""
        if self._finish_structured is not None:
            self._finish_structured()
        outputs = [] if self.main_stream is None else [self.main_stream]
        for s in [*outputs, *self.streams.values()]:
            if s.f is not sys.stderr:
                try:
                    s.f.close()
                except OSError:
                    pass

    def _drop_outputs(self) -> None:
        """The tracer's copies of the outputs the render process wrote: closed without writing, so a
        ``-o '|cmd'`` reader sees its end (our stderr stays: the tips and messages go there)."""
        outputs = [] if self.main_stream is None else [self.main_stream]
        for s in [*outputs, *self.streams.values()]:
            try:
                fd = s.f.fileno()
            except (AttributeError, OSError, ValueError):
                continue
            if fd > 2:
                try:
                    os.close(fd)
                except OSError:
                    pass


#: PYTRACE_SPLIT=0 keeps the whole pipeline in the tracer even where the split stop path applies
#: (=1: allowed on one CPU too; =2: and the render process forked at the start; see split_allowed).
SPLIT_ENV = "PYTRACE_SPLIT"


def split_allowed(cfg: Config, host: Host) -> bool:
    """Whether the split stop path (pytrace/sinks/split.py) prints this trace exactly as one process would.

    It needs a second CPU to pay off, a trace that goes to an output of its own (checked once the
    output is open), and no option that reads the tracee at print time: -y/-Y (descriptors and
    pids from /proc), -k (the stack), -P (paths decided at the stop), -e read=/write= (whole
    buffers), -e inject/fault, -D (the tracer moves to another process), a -c table alone (nothing
    to decode), -t/-r (a line's time is taken when it is printed, as strace does).  PYTRACE_SPLIT=0
    turns it off, =1 allows it on one CPU too (tests), =2 also forks the render process before the
    trace starts instead of when the run proves long (sinks/split.py RenderProcess; tests).
    """
    forced = os.environ.get(SPLIT_ENV)
    if forced == "0" or host.guest or cfg.backend != "ptrace":
        return False
    if forced not in ("1", "2") and len(os.sched_getaffinity(0)) < 2:
        return False
    line_opts = host.line_options
    # -t/-r print the time a line starts at (the stop), -e read=/write= whole buffers: not split
    dumps = line_opts is not None and (line_opts.read_fds is not None or line_opts.write_fds is not None
                                       or line_opts.timestamps is not None or line_opts.relative is not None)
    return bool(cfg.output or cfg.separate) and not (
        cfg.decode_fds or cfg.decode_pids or cfg.stack_traces or cfg.paths or cfg.inject or cfg.daemonize_level
        or cfg.summary == "only" or dumps or os.environ.get("PYTRACE_CHECK_CAPTURE"))


def _seccomp_filter(
    cfg: Config, trace_bitmap: Callable[[str], tuple[bytearray, bool]], message: Callable[[str], None]
) -> SeccompFilter | None:
    """--seccomp-bpf / --no-seccomp-bpf / pytrace's default (see seccomp_policy.decide): the filter to install, or None."""
    from pytrace.backends.ptrace import launcher, seccomp_policy

    requested = cfg.seccomp
    if requested is None and any(action.signo for _, action in cfg.inject):
        # -e inject=...:signal= needs real syscall-entry stops: the kernel drops a signal given when
        # resuming a seccomp stop (strace --seccomp-bpf loses it the same way), so pytrace keeps it off.
        requested = False
    wanted, notes = seccomp_policy.decide(
        requested, launching=bool(cfg.command), attaching=bool(cfg.pids), follow=bool(cfg.follow),
        detach_on_execve=cfg.detach_on_execve, trace_all=cfg.trace is None or cfg.trace.is_all(),
        syscall_number=cfg.syscall_number, daemonize=bool(cfg.daemonize_level), kill_on_exit=cfg.kill_on_exit,
    )
    for note in notes:
        message(note)
    if not wanted or not launcher.SeccompFilter.kernel_supports():
        return None
    from pytrace.backends.ptrace import seccomp

    # Explicit --seccomp-bpf with -f and a positive set: strace's filter lets the table's holes run unseen
    # (without -f strace uses no filter, and pytrace's output is strace's without one).
    holes_unseen = (requested is True and bool(cfg.follow) and cfg.trace is not None
                    and not (cfg.trace.negated or cfg.trace.everything))
    sets = seccomp.traced_sets(trace_bitmap, unnamed_run_unseen=holes_unseen)
    return launcher.SeccompFilter(seccomp.assemble(seccomp.build(sets)))


def _unblock_signals() -> None:
    """In a ``-o '|cmd'`` child: don't pass on the start-up signal mask."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def _inherited_fd(target: str) -> int | None:
    """N for ``/dev/fd/N`` or ``/proc/self/fd/N`` above the standard three, else None."""
    for stem in ("/dev/fd/", "/proc/self/fd/"):
        if target.startswith(stem) and target[len(stem):].isdigit():
            n = int(target[len(stem):])
            return n if n > 2 else None
    return None


class LtracePipeline:
    """pyltrace's trace: prototypes -> LtraceSession (breakpoints; ltrace's lines or JSON) on the ptrace backend.

    ``cfg``/``oo``: ltrace.tracer.LtraceConfig and ltrace.format.OutputOptions as cli/ltrace_cli.py
    parsed them.  ``message`` writes one of ltrace's (unprefixed) complaints.
    """

    def __init__(self, cfg: Any, oo: Any, *, configs: list[str], output: str | None, argv: list[str],
                 message: Callable[[str], None]) -> None:
        self.cfg = cfg
        self.oo = oo
        self.configs = configs
        self.output = output
        self.argv = argv
        self.message = message
        self.stream: IO[str] | None = None
        self.out: Any = None
        self.session: Any = None
        self.backend: PtraceBackend | None = None

    def prepare(self, follow_pids: bool) -> LtracePipeline:
        """Prototypes, the output and its format, the session and the backend (ltrace's order).

        ``follow_pids``: -p was given (with -o the lines then carry pids, as with -f).
        """
        from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions
        from pytrace.ltrace.breakpoints import spinning_waitpid
        from pytrace.ltrace.format import Summary
        from pytrace.ltrace.tracer import LtraceSession

        cfg, oo = self.cfg, self.oo
        protos, out = self.prepare_output(follow_pids)
        json_out = out if oo.format == "json" else None
        session = self.session = LtraceSession(cfg, self.out, protos, Summary() if oo.summary else None)
        if json_out is not None:
            json_out.bind(session)
        all_calls = bytearray(b"\x01" * 1024)
        backend = self.backend = PtraceBackend(session, TraceOptions(  # type: ignore[arg-type]
            quiet=1,
            instruction_pointer=oo.instruction_pointer,
            trace_bitmap=lambda arch: (all_calls, True),
            **session.hooks(),
        ))
        session.backend = backend
        # Poll briefly before sleeping in waitpid (see breakpoints.SPIN_SECONDS): decided once, ltrace mode only.
        backend._waitpid = spinning_waitpid(backend._waitpid)  # noqa: SLF001
        return self

    def prepare_output(self, follow_pids: bool, backend: str = "ptrace") -> tuple[Any, Any]:
        """(prototypes, output writer): what either backend prints with (the eBPF one: ltrace/ebpf_run.py)."""
        from pytrace.cache import cache_dir
        from pytrace.ltrace import prototypes as P
        from pytrace.ltrace.format import Output
        from pytrace.ltrace.proto_cache import load_prototypes

        cfg, oo = self.cfg, self.oo
        # Parsed once, then read back from the cache while the files stay the same (issue 15: start-up).
        protos = load_prototypes(P.config_files(self.configs, P.SearchPath.from_env(cfg.extra_prototypes)), cache_dir())
        # The eBPF backend never stops the program at a call, so nothing orders the trace file with the
        # program's own output: the file is written in batches (ltrace/ebpf_tracer.py flushes it), not per line.
        stream = self.stream = self._open_output(buffered=backend == "ebpf")
        if protos.errors and not oo.summary:  # ltrace reports them where the trace goes, before it
            stream.write("".join(e + "\n" for e in protos.errors))
        if self.output is not None and (cfg.follow or follow_pids):
            oo.pid_prefix = "file"
        elif cfg.follow:
            oo.pid_prefix = "bracket"
        json_out = None
        if oo.format == "json":  # decided once: the tracer calls the same methods on either output
            from pytrace.structured.ltrace_records import JsonOutput, ltrace_header

            json_out = JsonOutput(stream, oo, ltrace_header(self.argv, oo, cfg.backtrace, backend),
                                  backtraces=cfg.backtrace > 0)
            self.out = json_out
        else:
            self.out = Output(stream, oo)
        return protos, self.out

    def _open_output(self, buffered: bool = False) -> IO[str]:
        """-o FILE, line-buffered as ltrace's (``buffered``: written only when flushed); ltrace checks none of
        its writes, so errors pass silently."""
        from pytrace.sinks.output import open_file

        if self.output is None:
            return sys.stderr
        try:
            return open_file(self.output, append=False, report=None, buffered=buffered)
        except OSError as exc:
            raise SetupError(f"can't open {self.output} for writing: {exc.strerror}") from None

    def attach(self, pids: list[int]) -> None:
        """-p: each pid seized, or ltrace's complaint and on to the next."""
        assert self.backend is not None
        for pid in pids:
            try:
                self.backend.attach(pid)
            except OSError as exc:
                self.message(f"Cannot attach to pid {pid}: {os.strerror(exc.errno or 0)}")
                continue
            self.session.attached(pid)
            self._program_problem(f"/proc/{pid}/exe", None)

    def launch(self, command: list[str], user: str | None) -> bool:
        """Start the command stopped and seize it; False (its complaint said) when it cannot run."""
        from pytrace.backends.ptrace import launcher

        assert self.backend is not None
        try:
            path = launcher.resolve_command(command[0])
            pw = launcher.lookup_user(user) if user else None
        except launcher.LaunchError:
            self.message(f"Can't execute `{command[0]}': No such file or directory")
            return False
        if self._program_problem(path, command[0]):
            return False
        self.session.command_name = os.path.basename(path)
        child = launcher.spawn_stopped(path, command, launcher.build_env([]), pw, signals=self.cfg.signal_state())
        self.backend.launch(child)
        return True

    def _program_problem(self, path: str, shown: str | None) -> bool:
        """Say what is wrong with the program's file, if anything (objects.program_problem); True if fatal."""
        from pytrace.ltrace.objects import program_problem

        try:
            real = os.path.realpath(path)  # /proc/PID/exe: the file, as /proc/PID/maps names it
        except OSError:
            return False
        problem = program_problem(real, shown or path)
        if problem is None:
            return False
        self.message(problem[1])
        return problem[0]

    def run(self) -> RunResult:
        """Trace to the end (ltrace leaves fatal signals to detach: -I2), then flush and close the output."""
        assert self.backend is not None
        self.backend.install_signal_handlers(block=False)
        result = self.backend.run()
        self.out.flush()
        if self.stream is not sys.stderr:
            self.stream.close()  # type: ignore[union-attr]
        return result


# -- saved traces: ``pytrace report``, ``export`` and ``timeline`` --------------------------------
# The source is a saved --output-format=json trace instead of a backend; the sink is a renderer
# (strace's text, the -c table, Perfetto, the HTML timeline) writing one output.


def fail(msg: str) -> int:
    """A saved-trace tool's error, in pytrace's words; the exit status to return."""
    sys.stderr.write(f"pytrace: {msg}\n")
    return 1


@contextmanager
def replay_output(path: str | None) -> Iterator[IO[str]]:
    """The file named by ``-o`` (stdout without one, or for ``-``), closed or flushed afterwards."""
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    with open(path, "w", encoding="utf-8") as f:
        yield f


def load_records(paths: list[str]) -> list[Record]:
    """Every record of ``paths`` (``-`` for stdin, several for -ff); SetupError with the tools' message."""
    from pytrace.structured.replay import TraceFileError, read_records

    try:
        return list(read_records(paths))
    except OSError as exc:
        raise SetupError(f"Can't open '{exc.filename}': {exc.strerror}") from None
    except TraceFileError as exc:
        raise SetupError(str(exc)) from None


def run_replay(paths: list[str], out_path: str | None, render: Callable[[Iterator[Record], IO[str]], None]) -> int:
    """Feed the records of ``paths`` to ``render`` writing to ``out_path``; errors become pytrace's messages.

    ``render`` gets a lazy iterator, so a converter that streams (Perfetto)
    never holds the trace.
    """
    from pytrace.structured.replay import TraceFileError, read_records

    try:
        for path in paths:  # before anything is written: a typo must not leave a half-written output
            if path != "-":
                open(path, "rb").close()  # noqa: SIM115
        with replay_output(out_path) as out:
            render(read_records(paths), out)
    except OSError as exc:
        return fail(f"Can't open '{exc.filename}': {exc.strerror}")
    except TraceFileError as exc:
        if out_path not in (None, "-"):
            from pathlib import Path

            Path(out_path).unlink(missing_ok=True)  # a truncated page or trace would only mislead
        return fail(str(exc))
    return 0
