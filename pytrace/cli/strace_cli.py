"""``pytrace``: strace's command line, turned into a Config and handed to a backend.

No tracing happens here; this module only parses and validates (with strace's
wording, prefixed by our program name); pytrace/pipeline.py assembles and runs
backend -> filters -> decoders -> sinks from the Config.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import os
import sys
from collections.abc import Callable

from pytrace.cli.getopt import LongOpt, UsageError, parse
from pytrace.filters import FilterError, SyscallSet, parse_signal_set, parse_trace_set
from pytrace.progname import prog_name
from pytrace.records import dataclass, field  # not dataclasses: start-up cost
from pytrace.sinks import summary_options as summary_opts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

    from pytrace.sinks.prefix import LineOptions

SHORTOPTS = "+a:Ab:cCdDe:E:fFhiI:ko:O:p:P:qrs:S:tTu:U:vVwxX:yYzZn"
LONGOPTS = [
    LongOpt("columns", "required", "a"),
    LongOpt("output-append-mode", "none", "A"),
    LongOpt("detach-on", "required", "b"),
    LongOpt("summary-only", "none", "c"),
    LongOpt("summary", "none", "C"),
    LongOpt("debug", "none", "d"),
    LongOpt("daemonize", "optional", "daemonize"),
    LongOpt("env", "required", "E"),
    LongOpt("follow-forks", "none", "f"),
    LongOpt("output-separately", "none", "output-separately"),
    LongOpt("help", "none", "h"),
    LongOpt("instruction-pointer", "none", "i"),
    LongOpt("interruptible", "required", "I"),
    LongOpt("kill-on-exit", "none", "kill-on-exit"),
    LongOpt("stack-traces", "none", "k"),
    LongOpt("output", "required", "o"),
    LongOpt("summary-syscall-overhead", "required", "summary-syscall-overhead"),  # its own error wording
    LongOpt("attach", "required", "p"),
    LongOpt("trace-path", "required", "P"),
    LongOpt("quiet", "optional", "quiet"),
    LongOpt("relative-timestamps", "optional", "r"),
    LongOpt("string-limit", "required", "s"),
    LongOpt("summary-sort-by", "required", "S"),
    LongOpt("timestamps", "optional", "timestamps"),
    LongOpt("absolute-timestamps", "optional", "absolute-timestamps"),
    LongOpt("syscall-times", "optional", "T"),
    LongOpt("user", "required", "u"),
    LongOpt("summary-columns", "required", "U"),
    LongOpt("no-abbrev", "none", "v"),
    LongOpt("version", "none", "V"),
    LongOpt("summary-wall-clock", "none", "w"),
    LongOpt("strings-in-hex", "optional", "strings-in-hex"),
    LongOpt("const-print-style", "required", "const-print-style"),
    LongOpt("decode-fds", "optional", "decode-fds"),
    LongOpt("decode-pids", "required", "Y"),
    LongOpt("successful-only", "none", "z"),
    LongOpt("failed-only", "none", "Z"),
    LongOpt("failing-only", "none", "Z"),
    LongOpt("syscall-number", "none", "n"),
    LongOpt("seccomp-bpf", "none", "seccomp-bpf"),
    LongOpt("no-seccomp-bpf", "none", "no-seccomp-bpf"),
    LongOpt("backend", "required", "backend"),
    LongOpt("histogram", "none", "histogram"),
    LongOpt("comm", "required", "comm"),
    # Not "--ebpf-ring-size": strace's "--e" abbreviates --env, and must still (getopt_long prefixes).
    LongOpt("ring-size", "required", "ring-size"),
    LongOpt("no-backpressure", "none", "no-backpressure"),
    LongOpt("allow-loss", "none", "allow-loss"),
    LongOpt("output-format", "required", "output-format"),
    LongOpt("json", "none", "json"),
    LongOpt("tips", "optional", "tips"),
    *(LongOpt(q, "required", "e:" + q) for q in (
        "trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write", "inject", "fault", "kvm",
    )),
]

OUTPUT_FORMATS = ("text", "json", "perfetto")
# What only the text output can show; refused with the structured formats instead of silently dropped.
_TEXT_ONLY: list[tuple[str, Callable[[Config], bool]]] = [
    ("-k", lambda c: c.stack_traces),
    ("-e read=", lambda c: any(q == "read" for q, _ in c.qualifiers)),
    ("-e write=", lambda c: any(q == "write" for q, _ in c.qualifiers)),
]

_LATER_QUALIFIERS = ("abbrev", "verbose", "raw", "read", "write", "inject", "fault", "kvm")


class Refused(SystemExit):
    """What ``die`` raises: exit status 1 for the command line, the message for the Python API."""

    def __init__(self, message: str) -> None:
        super().__init__(1)
        self.message = message


def die(msg: str, usage_hint: bool = False) -> None:
    sys.stderr.write(f"{prog_name()}: {msg}\n")
    if usage_hint:
        sys.stderr.write(f"Try '{prog_name()} -h' for more information.\n")
    raise Refused(msg)


@dataclass
class Config:
    command: list[str] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)
    output: str | None = None
    append: bool = False
    follow: int = 0  # -f count; 2 means -ff
    separate: bool = False
    quiet: int = 0
    max_strlen: int = 32
    acolumn: int = 40
    xflag: int = 0
    xflag_long: int | None = None  # --strings-in-hex's value, applied after parsing (strace's xflag_long)
    verbose: bool = False
    trace: SyscallSet | None = None
    signals: frozenset[int] | None = None
    env: list[str] = field(default_factory=list)
    user: str | None = None
    detach_on_execve: bool = False
    interruptible: int = 0
    kill_on_exit: bool = False  # --kill-on-exit (strace 6.6): PTRACE_O_EXITKILL, tracees die with us
    backend: str = "ptrace"
    # --backend=ebpf's stream mode (docs/ebpf.md): ring size in bytes (None: the backend's default),
    # whether a full ring stops the traced thread, and whether lost events still allow exit status 0.
    ebpf_ring_size: int | None = None
    backpressure: bool = True
    allow_loss: bool = False
    output_format: str = "text"  # --output-format / --json: text | json | perfetto (pytrace/structured)
    seccomp: bool | None = None  # --seccomp-bpf / --no-seccomp-bpf; None = pytrace decides
    tips: tuple[int, int] = (-1, 0)  # --tips: (id, -1 = random; format 0 none / 1 compact / 2 full), cli/tips.py
    # Raw values of options whose owning module parses and validates them (strace's wording).
    summary: str | None = None  # "only" (-c) or "also" (-C)
    summary_wall: bool = False  # -w
    summary_sort: str | None = None  # -S
    summary_columns: str | None = None  # -U
    summary_overhead: str | None = None  # -O
    summary_histogram: bool = False  # --histogram: log2 latency histograms under the -c table (sinks/histogram.py)
    comms: list[str] = field(default_factory=list)  # --comm NAME (eBPF system-wide mode), each cut to 15 bytes
    # One entry per -t (None) / --timestamps[=ARG] / --absolute-timestamps[=ARG] ("--NAME=ARG", the
    # default ARG "format:time" filled in); validated by pytrace.sinks.prefix.parse_timestamps.
    timestamps: list[str | None] = field(default_factory=list)
    relative: str | None = None  # -r / --relative-timestamps[=PRECISION] ("us" for plain -r)
    syscall_times: str | None = None  # -T / --syscall-times[=PRECISION] ("us" for plain -T)
    decode_fds: list[str | None] = field(default_factory=list)  # one entry per -y / --decode-fds=
    decode_pids: list[str | None] = field(default_factory=list)  # -Y / --decode-pids=
    const_style: str | None = None  # -X
    syscall_number: bool = False  # -n
    instruction_pointer: bool = False  # -i
    stack_traces: bool = False  # -k
    status: list[str] = field(default_factory=list)  # "-z", "-Z" and -e status= values, in order
    paths: list[str] = field(default_factory=list)  # -P
    quiet_path_resolution: bool = False  # --quiet=path-resolution: no "Requested path ... resolved into" message
    # --quiet= / -e quiet= (the last one wins) as parsed; after parse_args the effective set (cli/quiet.py).
    quiet_set: frozenset[str] | None = None
    daemonize: list[str | None] = field(default_factory=list)  # None per -D, the value per --daemonize[=]
    daemonize_level: int = 0  # 0, or 1 grandchild / 2 own process group / 3 own session (checked -D count)
    qualifiers: list[tuple[str, str]] = field(default_factory=list)  # -e raw/abbrev/verbose/read/write/inject/fault/kvm
    inject: list[Any] = field(default_factory=list)  # parsed -e inject=/fault= (tamper.parse_inject), in order


_DAEMONIZE_LEVELS = {"grandchild": 1, "pgroup": 2, "pgrp": 2, "session": 3}


def _daemonize_level(cfg: Config) -> int:
    """-D count or --daemonize=, with strace's checks in strace's order (the command line is known)."""
    shorts = sum(1 for v in cfg.daemonize if v is None)
    longs = [v for v in cfg.daemonize if v is not None]
    level = shorts
    if longs:
        if shorts:
            die("-D and --daemonize cannot be provided simultaneously")
        level = _DAEMONIZE_LEVELS[longs[-1].lower()]
    if level and not cfg.command:
        raise UsageError("PROG [ARGS] must be specified with -D/--daemonize")
    if level > 3:
        raise UsageError(f"Too many -D's ({level}), maximum supported -D count is 3")
    return level


_INT_MAX = 0x7FFFFFFF
_SIZE_SUFFIXES = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


def _ring_size(value: str) -> int:
    """--ring-size: bytes with an optional K/M/G; the kernel wants a power of two of whole pages.

    At most 1G: the backpressure mark (half the ring) is compared in the program as a 32-bit value.
    """
    text = value.strip().lower()
    digits, suffix = (text[:-1], text[-1]) if text[-1:] in _SIZE_SUFFIXES else (text, "")
    size = int(digits) * _SIZE_SUFFIXES[suffix] if digits.isdigit() else 0
    if size < 4096 or size > 1 << 30 or size & (size - 1):
        raise UsageError(f"invalid --ring-size argument: '{value}' (a power of two from 4K to 1G)")
    return size
# -I's names (strace's parse_interruptible_arg), matched in any case.
_INTR_NAMES = {"anywhere": 1, "always": 1, "waiting": 2, "never": 3, "never_tstp": 4}


def _int_arg(opt: str, value: str, minimum: int = 0, maximum: int = _INT_MAX) -> int:
    """strace's string_to_uint_upto: strtoll's syntax (leading blanks, a sign), nothing after the digits."""
    import re  # here: only a numeric option needs it (~2-3 ms of every start-up of an installed copy)

    m = re.fullmatch(r"[ \t\n\v\f\r]*([+-]?[0-9]+)", value)
    n = int(m[1]) if m else minimum - 1
    if not minimum <= n <= maximum:
        raise UsageError(f"invalid -{opt} argument: '{value}'")
    return n


def _parse_pids(value: str, cfg: Config) -> None:
    for tok in value.replace(" ", ",").split(","):
        if not tok:
            continue
        try:
            pid = int(tok)
        except ValueError:
            pid = 0
        if pid <= 0:
            die(f"Invalid process id: '{tok}'")
        if pid == os.getpid():
            die("I'm sorry, I can't let you do that, Dave.")
        cfg.pids.append(pid)


def _qualifier(cfg: Config, name: str, value: str) -> None:
    try:
        if name == "trace":
            cfg.trace = parse_trace_set(value)
        elif name == "signal":
            cfg.signals = parse_signal_set(value)
        elif name == "status":
            cfg.status.append(value)
        elif name == "decode-fds":
            cfg.decode_fds.append(value)
        elif name == "decode-pids":
            cfg.decode_pids.append(value)
        elif name in ("inject", "fault"):  # parsed as read: strace's errors and warnings come in option order
            from pytrace.backends.ptrace import tamper

            try:
                cfg.inject.append(tamper.parse_inject(value, name == "fault", _warn))
            except tamper.InjectError as exc:
                die(str(exc))
            cfg.qualifiers.append((name, value))
        elif name in ("raw", "abbrev", "verbose"):
            parse_trace_set(value)  # a bad set is refused here, in option order, as strace does
            cfg.qualifiers.append((name, value))
        elif name == "kvm":  # qualify_kvm: only "vcpu" exists, anything else stops at once
            if value != "vcpu":
                die(f"invalid -e kvm= argument: '{value}'")
            cfg.qualifiers.append((name, value))
        elif name in _LATER_QUALIFIERS:
            cfg.qualifiers.append((name, value))
        elif name == "quiet":
            cfg.quiet_set = _quiet_set(value)
        else:
            raise UsageError(f"invalid qualifier '{name}'")
    except FilterError as exc:
        die(str(exc), exc.usage_hint)


def _quiet_set(spec: str) -> frozenset[str]:
    """A --quiet / -e quiet= value, refused as it is read (strace's qualify_quiet dies there)."""
    from pytrace.cli import quiet
    from pytrace.qualify import OptionError

    try:
        return quiet.parse(spec)
    except OptionError as exc:
        die(str(exc))
        raise


def _warn(msg: str) -> None:
    sys.stderr.write(f"{prog_name()}: {msg}\n")


def parse_args(argv: list[str]) -> Config:
    cfg = Config()
    try:
        opts, rest = parse(argv, SHORTOPTS, LONGOPTS)
        for key, val in opts:
            v = val or ""
            if key == "a":
                cfg.acolumn = _int_arg("a", v)
            elif key == "A":
                cfg.append = True
            elif key == "b":
                if v != "execve":
                    die(f"Syscall '{v}' for -b isn't supported")  # strace's words, no usage hint
                cfg.detach_on_execve = True
            elif key == "e" or key.startswith("e:"):
                if key.startswith("e:"):
                    name, value = key[2:], v
                elif "=" in v:
                    name, value = v.split("=", 1)
                else:
                    name, value = "trace", v
                if name not in ("trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write",
                                "inject", "fault", "kvm", "quiet", "decode-fds", "decode-pids", "t", "s",
                                "a", "x", "v", "r", "w", "signals", "e", "decode-fd", "decode-pid", "silent",
                                "silence", "q", "reads", "writes"):
                    name, value = "trace", v
                # qual_options[] in filter_qualify.c: every spelling strace 6.1 accepts
                aliases = {"t": "trace", "s": "signal", "signals": "signal", "a": "abbrev", "v": "verbose",
                           "x": "raw", "r": "read", "w": "write", "e": "trace", "decode-fd": "decode-fds",
                           "decode-pid": "decode-pids", "silent": "quiet", "silence": "quiet", "q": "quiet",
                           "reads": "read", "writes": "write"}
                _qualifier(cfg, aliases.get(name, name), value)
            elif key == "E":
                cfg.env.append(v)
            elif key == "f":
                cfg.follow += 1
            elif key == "output-separately":
                cfg.separate = True
            elif key == "h":
                print_help()
                sys.exit(0)
            elif key == "I":
                cfg.interruptible = _INTR_NAMES.get(v.lower()) or _int_arg("I", v, 1, 4)
            elif key == "kill-on-exit":
                cfg.kill_on_exit = True
            elif key == "o":
                cfg.output = v
            elif key == "p":
                _parse_pids(v, cfg)
            elif key == "q":
                cfg.quiet += 1
            elif key == "quiet":
                cfg.quiet_set = _quiet_set("attach,personality" if val is None else val)
            elif key == "s":
                cfg.max_strlen = _int_arg("s", v, 0, 0xFFFFFFFF // 4)
            elif key == "u":
                cfg.user = v
            elif key == "v":
                cfg.verbose = True
                if any(q == "abbrev" for q, _ in cfg.qualifiers):  # -v is abbrev=none: the later one wins
                    cfg.qualifiers.append(("abbrev", "none"))
            elif key == "V":
                from pytrace.cli.help_text import strace_version

                sys.stdout.write(strace_version(prog_name()))
                sys.exit(0)
            elif key == "x":
                cfg.xflag = min(cfg.xflag + 1, 2)  # -xxx is -xx (strace: MIN(xflag + 1, HEXSTR_ALL))
            elif key == "strings-in-hex":
                # strace's HEXSTR_* order: none, non-ascii (-x), all (-xx), non-ascii-chars.
                hexstr = {None: 2, "all": 2, "none": 0, "non-ascii": 1, "non-ascii-chars": 3}.get(val)
                if hexstr is None:
                    raise UsageError(f"invalid --strings-in-hex argument: '{val}'")
                cfg.xflag_long = hexstr
            elif key == "backend":
                if v not in ("ptrace", "ebpf"):
                    raise UsageError(f"invalid --backend argument: '{v}' (available: ptrace, ebpf)")
                cfg.backend = v
            elif key == "ring-size":
                cfg.ebpf_ring_size = _ring_size(v)
            elif key == "no-backpressure":
                cfg.backpressure = False
            elif key == "allow-loss":
                cfg.allow_loss = True
            elif key == "output-format":
                if v not in OUTPUT_FORMATS:
                    raise UsageError(f"invalid --output-format argument: '{v}' (available: {', '.join(OUTPUT_FORMATS)})")
                cfg.output_format = v
            elif key == "json":
                cfg.output_format = "json"
            elif key == "tips":  # checked as read, each one on top of the previous ones (strace's parse_tips_arg)
                from pytrace.cli import tips

                try:
                    cfg.tips = tips.parse_arg(v, cfg.tips)
                except ValueError as exc:
                    raise UsageError(str(exc)) from None
            elif key == "seccomp-bpf":
                cfg.seccomp = True
            elif key == "no-seccomp-bpf":
                cfg.seccomp = False
            elif key in ("d", "F"):
                pass  # -d (debug) and -F (old -f) are accepted and ignored, as strace 6.1 does with -F
            elif key in ("c", "C"):
                mode = "only" if key == "c" else "also"
                if cfg.summary not in (None, mode):
                    raise UsageError("-c/--summary-only and -C/--summary are mutually exclusive")
                cfg.summary = mode
            elif key == "w":
                cfg.summary_wall = True
            elif key == "histogram":
                cfg.summary_histogram = True
            elif key == "comm":
                if not v:
                    raise UsageError("invalid --comm argument: ''")
                cfg.comms.append(v)
            elif key in ("S", "U", "O", "summary-syscall-overhead"):  # checked as read: the first bad one wins
                try:
                    if key == "S":
                        summary_opts.parse_sortby(v)
                        cfg.summary_sort = v
                    elif key == "U":
                        summary_opts.parse_columns(v)
                        cfg.summary_columns = v
                    else:
                        summary_opts.parse_overhead(v, "-O" if key == "O" else f"--{key}")
                        cfg.summary_overhead = v
                except summary_opts.SummaryOptionError as exc:
                    raise UsageError(str(exc)) from None
            elif key == "t":
                cfg.timestamps.append(None)
            elif key in ("timestamps", "absolute-timestamps"):
                cfg.timestamps.append(f"--{key}=" + ("format:time" if val is None else val))
            elif key == "r":
                cfg.relative = "us" if val is None else val
            elif key == "T":
                cfg.syscall_times = "us" if val is None else val
            elif key == "y":
                cfg.decode_fds.append(None)
            elif key == "decode-fds":
                cfg.decode_fds.append("path" if val is None else val)
            elif key == "Y":
                cfg.decode_pids.append(val)
            elif key in ("X", "const-print-style"):
                if v not in ("raw", "abbrev", "verbose"):
                    raise UsageError(f"invalid {'-X' if key == 'X' else '--const-print-style'} argument: '{v}'")
                cfg.const_style = v
            elif key == "n":
                cfg.syscall_number = True
            elif key == "i":
                cfg.instruction_pointer = True
            elif key == "k":
                cfg.stack_traces = True
            elif key in ("z", "Z"):
                cfg.status.append("-" + key)
            elif key == "P":
                cfg.paths.append(v)
            elif key == "D":
                cfg.daemonize.append(None)
            elif key == "daemonize":  # strace checks the value as it reads it
                if val is not None and val.lower() not in _DAEMONIZE_LEVELS:
                    raise UsageError(f"invalid --daemonize argument: '{val}'")
                cfg.daemonize.append(val if val is not None else "grandchild")
        output_separately = cfg.separate or cfg.follow >= 2  # as given, before "-ff without -o is -f"
        if cfg.follow >= 2:
            cfg.separate = True
        if cfg.separate and not cfg.output:
            cfg.separate = False  # -ff without -o is -f, as in strace
        if cfg.separate:
            cfg.follow = max(cfg.follow, 1)
        if cfg.decode_fds or cfg.decode_pids:  # strace rejects a bad set as it parses the option
            from pytrace.decode import fds, pids

            try:
                fds.decode_fd_set(cfg.decode_fds)
                pids.decode_pid_set(cfg.decode_pids)
            except fds.OptionError as exc:
                die(str(exc))
        cfg.command = rest
        if not rest and not cfg.pids and cfg.backend != "ebpf":  # eBPF: system-wide mode (docs/ebpf.md)
            raise UsageError("must have PROG [ARGS] or -p PID")
        if cfg.comms and (rest or cfg.pids or cfg.backend != "ebpf"):
            raise UsageError("--comm needs system-wide mode: --backend=ebpf with no command and no -p")
        if cfg.xflag_long is not None:  # the last --strings-in-hex wins, but never next to -x
            if cfg.xflag:
                die("-x and --strings-in-hex cannot be provided simultaneously")
            cfg.xflag = cfg.xflag_long
        if cfg.quiet and cfg.quiet_set is not None:
            die("-q and -e quiet/--quiet cannot be provided simultaneously")
        # -P resolves its paths before -q is applied: only --quiet can silence that message (as in strace).
        cfg.quiet_path_resolution = cfg.quiet_set is not None and "path-resolution" in cfg.quiet_set
        from pytrace.cli import quiet

        cfg.quiet_set = quiet.effective(cfg.quiet, cfg.quiet_set, bool(cfg.output and rest))
        cfg.daemonize_level = _daemonize_level(cfg)
        if cfg.kill_on_exit and cfg.pids:  # strace 6.6's words (error_msg_and_die: no usage hint)
            die("--kill-on-exit and -p/--attach are mutually exclusive options")
        try:
            summary_opts.check_options(
                summary=cfg.summary, wall=cfg.summary_wall, columns=cfg.summary_columns, sortby=cfg.summary_sort,
                separate=output_separately, histogram=cfg.summary_histogram, warn=lambda m: sys.stderr.write(f"{prog_name()}: {m}\n"),
                i=cfg.instruction_pointer, k=cfg.stack_traces, n=cfg.syscall_number, r=cfg.relative is not None,
                t=bool(cfg.timestamps), T=cfg.syscall_times is not None, y=bool(cfg.decode_fds),
            )
        except summary_opts.SummaryOptionError as exc:
            raise UsageError(str(exc)) from None
    except UsageError as exc:
        die(str(exc), usage_hint=True)
    return cfg


def print_help() -> None:
    """strace 6.1's -h with pytrace's additions; the text is data in cli/help_text.py."""
    from pytrace.cli.help_text import strace_help

    sys.stdout.write(strace_help(prog_name()))


# Options parsed above whose behaviour is not implemented yet, refused clearly instead of ignored.
# Each feature removes its line when it lands.
_UNIMPLEMENTED: list[tuple[str, Callable[[Config], bool]]] = [
]


# Fatal signals are held from the first instruction until the backend can detach on them: a
# Ctrl-C that lands while we are seizing tracees must not kill us half-way (strace does the same).
FATAL_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM)


def main(argv: list[str] | None = None, inherited: tuple[int, int] | None = None) -> None:
    """The strace-compatible command line.  ``inherited``: (ignored, blocked) signal bits as pytrace
    was started with, read by cli/entry.py before anything changed them; read here when not given."""
    from pytrace.cli.entry import ensure_standard_fds, hold_fatal_signals

    if inherited is None:
        inherited = hold_fatal_signals()
    placeholders = ensure_standard_fds()
    from pytrace.sinks.output import safe_stderr

    sys.stderr = safe_stderr()  # a full or broken stderr must not raise: strace ignores errors on it
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in ("report", "timeline", "export"):  # tools over saved traces (pytrace/cli/subcommands.py)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FATAL_SIGNALS)
        from pytrace.cli.subcommands import run

        run(args[0], args[1:])
    if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:
        # strace's own SIGCHLD is always SIG_DFL (an ignored one would reap our children behind our back);
        # the command still gets the ignored one (launcher.InheritedSignals).
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    cfg, line_opts = configure(args)
    # Heavy imports only after the command line is known to be good.
    from pytrace.backends.ptrace import launcher
    from pytrace.pipeline import Host, NothingAttached, SetupError, StracePipeline

    def message(text: str) -> None:
        sys.stderr.write(f"{prog_name()}: {text}\n")
        sys.stderr.flush()

    pipeline = StracePipeline(cfg, Host(
        argv=args, message=message, warn=_warn, line_options=line_opts,
        inherited=launcher.InheritedSignals(*inherited), placeholders=placeholders,
    ))
    try:
        pipeline.prepare()
        _collect_from_here()
        result = pipeline.run()
    except SetupError as exc:
        die(str(exc), exc.usage_hint)
        raise
    except NothingAttached:
        _show_tips(cfg)  # strace still goes through terminate() when no -p attached
        sys.exit(1)
    pipeline.finish()
    sys.stderr.flush()
    _show_tips(cfg)  # strace's print_totd: after the table, the closed -o file and the -o pipe
    if result.events_lost and not cfg.allow_loss:
        sys.exit(1)  # the trace is incomplete (its "+++ pytrace: N events lost +++" lines say where)
    if result.killed_by:
        _die_like(result.killed_by)
    if result.interrupted_by:
        _die_like(result.interrupted_by)
    _exit_now(result.exit_status)


def _exit_now(status: int) -> None:
    """``sys.exit(status)`` at the end of a finished trace, without the interpreter's teardown.

    Freeing every module, class and table one by one costs ~5-7 ms of each run's CPU (a third of
    what ``pytrace true`` adds to Python's own start-up), and nothing of it is visible: the outputs
    are closed, the render process and ``-o '|cmd'`` are waited for.  What the teardown would still
    do for us is done here: exit handlers, the standard streams flushed (a failed stdout flush
    makes the status 120, as the interpreter's does).  A live thread (none on the ptrace path)
    keeps the ordinary exit, which waits for it.
    """
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        sys.exit(status)
    import atexit

    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if run_exit_handlers is not None:
        run_exit_handlers()
    for stream in {id(s): s for s in (sys.stdout, sys.__stdout__, sys.stderr, sys.__stderr__) if s is not None}.values():
        try:
            stream.flush()
        except (OSError, ValueError):
            if stream is sys.stdout:
                status = 120
    os._exit(status)


def _collect_from_here() -> None:
    """The cyclic garbage collector, off since cli/entry.py, back on for the trace itself.

    The imports and set-up before the trace allocate tens of thousands of objects that live as long
    as pytrace (modules, functions, tables) and make almost no garbage, yet they trigger ~20
    collections (~3 ms of a ``pytrace true``).  They are frozen (``gc.freeze``: never scanned
    again) and collection resumes, so a long trace's cycles are still freed and later collections
    only look at what the trace allocates.
    """
    import gc

    gc.freeze()
    gc.enable()


def configure(args: list[str]) -> tuple[Config, LineOptions]:
    """The command line parsed and every combination checked, in strace's words (``die`` on a bad one)."""
    cfg = parse_args(args)
    line_opts = _line_options(cfg)
    for name, used in _UNIMPLEMENTED:
        if used(cfg):
            die(f"option {name} is not implemented yet")
    if cfg.output_format != "text":
        for name, used in _TEXT_ONLY:
            if used(cfg):
                die(f"option {name} is not supported with --output-format={cfg.output_format}")
        if cfg.output_format == "perfetto" and cfg.summary:
            die("options -c/-C are not supported with --output-format=perfetto (use --output-format=json)")
        if cfg.output_format == "perfetto" and cfg.separate:
            die("option -ff is not supported with --output-format=perfetto (one trace file holds every process)")
    if cfg.backend != "ebpf":
        if cfg.ebpf_ring_size is not None or not cfg.backpressure:
            die("options --ring-size and --no-backpressure need --backend=ebpf")
    if cfg.backend == "ebpf":
        from pytrace.cli.ebpf_main import unsupported_option

        bad = unsupported_option(cfg)
        if bad:
            die(f"option {bad} is not supported with --backend=ebpf (it needs ptrace stops); use --backend=ptrace")
    return cfg, line_opts


def _line_options(cfg: Config) -> LineOptions:
    """-t/-r/-T/-n/-i/-z/-Z/-e status=/-e read=/-e write=, checked with strace's wording."""
    from pytrace.sinks.prefix import ZFLAGS_WARNING, OptionError, parse_line_options

    try:
        opts = parse_line_options(
            timestamps=cfg.timestamps, relative=cfg.relative, syscall_times=cfg.syscall_times,
            syscall_number=cfg.syscall_number, instruction_pointer=cfg.instruction_pointer,
            qualifiers=cfg.qualifiers, status=cfg.status,
            # eBPF records carry the kernel's times of the entry and the exit; the sink sees them later
            call_clock=cfg.backend == "ebpf",
        )
    except OptionError as exc:
        die(str(exc), usage_hint=exc.usage_hint)
        raise
    if opts.zflags > 1:
        sys.stderr.write(f"{prog_name()}: {ZFLAGS_WARNING}\n")
    return opts


def _show_tips(cfg: Config) -> None:
    """--tips: the tip on stderr at exit; without the option nothing is imported."""
    if cfg.tips[1]:
        from pytrace.cli import tips

        tips.show(cfg.tips)


def _die_like(sig: int) -> None:
    """Die of the same signal as the tracee, without leaving a core file of our own."""
    try:
        import resource  # only here: dying of the tracee's signal

        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    sys.stdout.flush()
    if sig not in (signal.SIGKILL, signal.SIGSTOP):  # their disposition cannot be set (EINVAL)
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
    os.kill(os.getpid(), sig)
    sys.exit(128 + sig)
