"""``pytrace``: strace's command line, turned into a Config and handed to a backend.

No tracing happens here; this module only parses, validates (with strace's
wording, prefixed by our program name) and wires backend -> sink -> outputs.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO

from pytrace import __version__
from pytrace.cli.getopt import LongOpt, UsageError, parse
from pytrace.filters import FilterError, SyscallSet, parse_signal_set, parse_trace_set

SHORTOPTS = "+a:Ab:cCdDe:E:fFhiI:ko:O:p:P:qrs:S:tTu:U:vVwxX:yYzZn"
LONGOPTS = [
    LongOpt("columns", "required", "a"),
    LongOpt("output-append-mode", "none", "A"),
    LongOpt("detach-on", "required", "b"),
    LongOpt("summary-only", "none", "c"),
    LongOpt("summary", "none", "C"),
    LongOpt("debug", "none", "d"),
    LongOpt("daemonize", "optional", "D"),
    LongOpt("env", "required", "E"),
    LongOpt("follow-forks", "none", "f"),
    LongOpt("output-separately", "none", "output-separately"),
    LongOpt("help", "none", "h"),
    LongOpt("instruction-pointer", "none", "i"),
    LongOpt("interruptible", "required", "I"),
    LongOpt("stack-traces", "none", "k"),
    LongOpt("output", "required", "o"),
    LongOpt("summary-syscall-overhead", "required", "O"),
    LongOpt("attach", "required", "p"),
    LongOpt("trace-path", "required", "P"),
    LongOpt("quiet", "optional", "quiet"),
    LongOpt("relative-timestamps", "optional", "r"),
    LongOpt("string-limit", "required", "s"),
    LongOpt("summary-sort-by", "required", "S"),
    LongOpt("timestamps", "optional", "timestamps"),
    LongOpt("absolute-timestamps", "optional", "timestamps"),
    LongOpt("syscall-times", "optional", "T"),
    LongOpt("user", "required", "u"),
    LongOpt("summary-columns", "required", "U"),
    LongOpt("no-abbrev", "none", "v"),
    LongOpt("version", "none", "V"),
    LongOpt("summary-wall-clock", "none", "w"),
    LongOpt("strings-in-hex", "optional", "strings-in-hex"),
    LongOpt("const-print-style", "required", "X"),
    LongOpt("decode-fds", "optional", "y"),
    LongOpt("decode-pids", "optional", "Y"),
    LongOpt("successful-only", "none", "z"),
    LongOpt("failed-only", "none", "Z"),
    LongOpt("syscall-number", "none", "n"),
    LongOpt("seccomp-bpf", "none", "seccomp-bpf"),
    LongOpt("no-seccomp-bpf", "none", "no-seccomp-bpf"),
    LongOpt("backend", "required", "backend"),
    *(LongOpt(q, "required", "e:" + q) for q in (
        "trace", "signal", "status", "abbrev", "verbose", "raw", "read", "write", "inject", "fault", "kvm",
    )),
]

_LATER_QUALIFIERS = ("abbrev", "verbose", "raw", "read", "write", "inject", "fault", "kvm")


def prog_name() -> str:
    base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "pytrace"
    return "pytrace" if base in ("__main__.py", "-c", "") else base


def die(msg: str, usage_hint: bool = False) -> None:
    sys.stderr.write(f"{prog_name()}: {msg}\n")
    if usage_hint:
        sys.stderr.write(f"Try '{prog_name()} -h' for more information.\n")
    sys.exit(1)


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
    verbose: bool = False
    trace: SyscallSet | None = None
    signals: frozenset[int] | None = None
    env: list[str] = field(default_factory=list)
    user: str | None = None
    detach_on_execve: bool = False
    interruptible: int = 0
    backend: str = "ptrace"
    seccomp: bool | None = None  # --seccomp-bpf / --no-seccomp-bpf; None = pytrace decides
    # Raw values of options whose owning module parses and validates them (strace's wording).
    summary: str | None = None  # "only" (-c) or "also" (-C)
    summary_wall: bool = False  # -w
    summary_sort: str | None = None  # -S
    summary_columns: str | None = None  # -U
    summary_overhead: str | None = None  # -O
    timestamps: list[str | None] = field(default_factory=list)  # one entry per -t / --absolute-timestamps=
    relative: str | None = None  # -r / --relative-timestamps[=PRECISION] ("" for plain -r)
    syscall_times: str | None = None  # -T / --syscall-times[=PRECISION] ("" for plain -T)
    decode_fds: list[str | None] = field(default_factory=list)  # one entry per -y / --decode-fds=
    decode_pids: list[str | None] = field(default_factory=list)  # -Y / --decode-pids=
    const_style: str | None = None  # -X
    syscall_number: bool = False  # -n
    instruction_pointer: bool = False  # -i
    stack_traces: bool = False  # -k
    status: list[str] = field(default_factory=list)  # -z -> "successful", -Z -> "failed", -e status=
    paths: list[str] = field(default_factory=list)  # -P
    daemonize: list[str | None] = field(default_factory=list)  # -D / --daemonize=
    qualifiers: list[tuple[str, str]] = field(default_factory=list)  # -e raw/abbrev/verbose/read/write/inject/fault/kvm


def _int_arg(opt: str, value: str, minimum: int = 0) -> int:
    try:
        n = int(value, 10)
    except ValueError:
        n = minimum - 1
    if n < minimum:
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
        elif name in _LATER_QUALIFIERS:
            cfg.qualifiers.append((name, value))
        else:
            raise UsageError(f"invalid qualifier '{name}'")
    except FilterError as exc:
        die(str(exc))


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
                    raise UsageError(f"invalid -b argument: '{v}'")
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
                                "a", "x", "v", "r", "w", "signals", "e"):
                    name, value = "trace", v
                aliases = {"t": "trace", "s": "signal", "signals": "signal", "a": "abbrev", "v": "verbose",
                           "x": "raw", "r": "read", "w": "write", "e": "trace"}
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
                cfg.interruptible = _int_arg("I", v, 1)
            elif key == "o":
                cfg.output = v
            elif key == "p":
                _parse_pids(v, cfg)
            elif key == "q":
                cfg.quiet += 1
            elif key == "quiet":
                cfg.quiet = max(cfg.quiet, 1 if not val or val in ("attach", "personality") else 2)
            elif key == "s":
                cfg.max_strlen = _int_arg("s", v)
            elif key == "u":
                cfg.user = v
            elif key == "v":
                cfg.verbose = True
            elif key == "V":
                print(f"{prog_name()} -- version {__version__}")
                sys.exit(0)
            elif key == "x":
                cfg.xflag += 1
            elif key == "strings-in-hex":
                cfg.xflag = 2 if val in (None, "all") else 1
            elif key == "backend":
                if v not in ("ptrace",):
                    raise UsageError(f"invalid --backend argument: '{v}' (available: ptrace)")
                cfg.backend = v
            elif key == "seccomp-bpf":
                cfg.seccomp = True
            elif key == "no-seccomp-bpf":
                cfg.seccomp = False
            elif key in ("d", "F"):
                pass  # -d (debug) and -F (old -f) are accepted and ignored, as strace 6.1 does with -F
            elif key in ("c", "C"):
                cfg.summary = "only" if key == "c" else "also"
            elif key == "w":
                cfg.summary_wall = True
            elif key == "S":
                cfg.summary_sort = v
            elif key == "U":
                cfg.summary_columns = v
            elif key == "O":
                cfg.summary_overhead = v
            elif key in ("t", "timestamps"):
                cfg.timestamps.append(val)
            elif key == "r":
                cfg.relative = val or ""
            elif key == "T":
                cfg.syscall_times = val or ""
            elif key == "y":
                cfg.decode_fds.append(val)
            elif key == "Y":
                cfg.decode_pids.append(val)
            elif key == "X":
                cfg.const_style = v
            elif key == "n":
                cfg.syscall_number = True
            elif key == "i":
                cfg.instruction_pointer = True
            elif key == "k":
                cfg.stack_traces = True
            elif key == "z":
                cfg.status.append("successful")
            elif key == "Z":
                cfg.status.append("failed")
            elif key == "P":
                cfg.paths.append(v)
            elif key == "D":
                cfg.daemonize.append(val)
        if cfg.follow >= 2:
            cfg.separate = True
        if cfg.separate and not cfg.output:
            cfg.separate = False  # -ff without -o is -f, as in strace
        if cfg.separate:
            cfg.follow = max(cfg.follow, 1)
        cfg.command = rest
        if not rest and not cfg.pids:
            raise UsageError("must have PROG [ARGS] or -p PID")
    except UsageError as exc:
        die(str(exc), usage_hint=True)
    return cfg


def print_help() -> None:
    p = prog_name()
    sys.stdout.write(
        f"Usage: {p} [-ACdffhikqqrtttTvVwxxyyzZ] [-I N] [-b execve] [-e EXPR]... [-a COLUMN]\n"
        f"       [-o FILE] [-s STRSIZE] [-X FORMAT] [-O OVERHEAD] [-S SORTBY]\n"
        f"       [-P PATH]... [-p PID]... [-U COLUMNS] [--seccomp-bpf]\n"
        f"       {{ -p PID | [-DDD] [-E VAR=VAL]... [-u USERNAME] PROG [ARGS] }}\n\n"
        "A strace-compatible system call tracer. See README.md for the options implemented.\n"
    )


_pipes: list[subprocess.Popen[str]] = []


def _open_output(cfg: Config) -> IO[str]:
    if not cfg.output:
        return sys.stderr
    target = cfg.output
    if target[:1] in ("|", "!"):
        proc = subprocess.Popen(target[1:], shell=True, stdin=subprocess.PIPE, text=True, bufsize=1)
        assert proc.stdin is not None
        _pipes.append(proc)
        return proc.stdin
    try:
        return open(target, "a" if cfg.append else "w", buffering=1)  # noqa: SIM115
    except OSError as exc:
        die(f"Can't fopen '{target}': {os.strerror(exc.errno or 0)}")
        raise


# Options parsed above whose behaviour is not implemented yet, refused clearly instead of ignored.
# Each feature removes its line when it lands.
_UNIMPLEMENTED: list[tuple[str, Callable[[Config], bool]]] = [
    ("-c/-C", lambda c: c.summary is not None),
    ("-w", lambda c: c.summary_wall),
    ("-S", lambda c: c.summary_sort is not None),
    ("-U", lambda c: c.summary_columns is not None),
    ("-O", lambda c: c.summary_overhead is not None),
    ("-t", lambda c: bool(c.timestamps)),
    ("-r", lambda c: c.relative is not None),
    ("-T", lambda c: c.syscall_times is not None),
    ("-y", lambda c: bool(c.decode_fds)),
    ("-Y", lambda c: bool(c.decode_pids)),
    ("-X", lambda c: c.const_style is not None),
    ("-n", lambda c: c.syscall_number),
    ("-i", lambda c: c.instruction_pointer),
    ("-k", lambda c: c.stack_traces),
    ("-z/-Z/-e status", lambda c: bool(c.status)),
    ("-P", lambda c: bool(c.paths)),
    ("-D", lambda c: bool(c.daemonize)),
    ("-e raw=", lambda c: any(q == "raw" for q, _ in c.qualifiers)),
    ("-e abbrev=", lambda c: any(q == "abbrev" for q, _ in c.qualifiers)),
    ("-e verbose=", lambda c: any(q == "verbose" for q, _ in c.qualifiers)),
    ("-e read=", lambda c: any(q == "read" for q, _ in c.qualifiers)),
    ("-e write=", lambda c: any(q == "write" for q, _ in c.qualifiers)),
    ("-e inject=", lambda c: any(q == "inject" for q, _ in c.qualifiers)),
    ("-e fault=", lambda c: any(q == "fault" for q, _ in c.qualifiers)),
    ("-e kvm=", lambda c: any(q == "kvm" for q, _ in c.qualifiers)),
]


def main(argv: list[str] | None = None) -> None:
    cfg = parse_args(sys.argv[1:] if argv is None else argv)
    for name, used in _UNIMPLEMENTED:
        if used(cfg):
            die(f"option {name} is not implemented yet")
    # Heavy imports only after the command line is known to be good.
    from pytrace.backends.ptrace import launcher
    from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions
    from pytrace.decode.format import OPTS
    from pytrace.sinks.strace_text import StraceTextSink, Stream

    OPTS.max_strlen = cfg.max_strlen
    OPTS.xflag = cfg.xflag
    OPTS.verbose = cfg.verbose

    path = None
    user = None
    env = None
    if cfg.command:
        try:
            path = launcher.resolve_command(cfg.command[0])
            user = launcher.lookup_user(cfg.user) if cfg.user else None
        except launcher.LaunchError as exc:
            die(str(exc))
        env = launcher.build_env(cfg.env)

    trace = cfg.trace or parse_trace_set("all")
    shown_signals = cfg.signals

    def message(text: str) -> None:
        sys.stderr.write(f"{prog_name()}: {text}\n")
        sys.stderr.flush()

    main_out = _open_output(cfg)
    streams: dict[int, Stream] = {}
    main_stream = Stream(main_out)

    def stream_for(pid: int) -> Stream:
        if not cfg.separate:
            return main_stream
        s = streams.get(pid)
        if s is None:
            assert cfg.output is not None
            s = streams[pid] = Stream(open(f"{cfg.output}.{pid}", "a" if cfg.append else "w", buffering=1))  # noqa: SIM115
        return s

    if cfg.separate:
        pid_prefix = "none"
    elif cfg.output:
        pid_prefix = "plain" if (cfg.follow or len(cfg.pids) > 1) else "none"
    else:
        pid_prefix = "bracket"
    sink = StraceTextSink(
        stream_for,
        pid_prefix=pid_prefix,
        acolumn=cfg.acolumn,
        quiet=cfg.quiet,
        signal_filter=(shown_signals.__contains__ if shown_signals is not None else None),
        separate=cfg.separate,
        quiet_personality=bool(cfg.output and cfg.command),
    )
    backend = PtraceBackend(sink, TraceOptions(
        follow_forks=bool(cfg.follow),
        quiet=cfg.quiet,
        quiet_attach=bool(cfg.output and cfg.command),
        trace_bitmap=trace.bitmap,
        detach_on_execve=cfg.detach_on_execve,
        message=message,
    ))

    attached = 0
    for pid in cfg.pids:
        try:
            n = backend.attach(pid)
        except OSError as exc:
            message(f"{exc.strerror}: {os.strerror(exc.errno or 0)}")
            continue
        attached += 1
        if not cfg.quiet:
            message(f"Process {pid} attached" + (f" with {n} threads" if n > 1 else ""))
    if cfg.pids and not attached and not cfg.command:
        sys.exit(1)
    if cfg.command:
        assert path is not None and env is not None
        child = launcher.spawn_stopped(path, cfg.command, env, user)
        backend.launch(child)
    # strace's -I default: with -o FILE PROG fatal signals are ignored, otherwise they detach.
    intr = cfg.interruptible or (3 if (cfg.output and cfg.command) else 2)
    backend.install_signal_handlers(block=intr >= 3)
    result = backend.run()
    for s in [main_stream, *streams.values()]:
        if s.f is not sys.stderr:
            try:
                s.f.close()
            except OSError:
                pass
    for proc in _pipes:  # let "-o '|cmd'" finish reading before we report the tracee's status
        proc.wait()
    sys.stderr.flush()
    if result.killed_by:
        _die_like(result.killed_by)
    if result.interrupted_by:
        _die_like(result.interrupted_by)
    sys.exit(result.exit_status)


def _die_like(sig: int) -> None:
    """Die of the same signal as the tracee, without leaving a core file of our own."""
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    sys.stdout.flush()
    signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
    os.kill(os.getpid(), sig)
    sys.exit(128 + sig)
