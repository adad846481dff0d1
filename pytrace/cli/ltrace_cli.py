"""``pyltrace``: ltrace's command line on pytrace's ptrace backend (see pytrace/ltrace/tracer.py).

Options are ltrace 0.7.3's (``ltrace -h``), parsed with the same getopt
behaviour: ``-a -A -b -c -C -D -e -f -F -h -i -l -L -n -o -p -r -s -S -t -T -u -V
-w -x``.  Differences from ltrace, on purpose:

* pyltrace exits with the traced command's exit status (killed by a signal: it
  kills itself with the same signal, so a shell sees 128+N), where ltrace 0.7.3
  always exits 0;
* ``-w N`` (backtraces) works: it uses pytrace's own unwinder (pytrace/stack, the
  one behind ``pytrace -k``); Debian's ltrace is built without libunwind;
* prototypes come from ``/etc/ltrace.conf`` (or, on a machine without it, the
  copy of ltrace 0.7.3's file that pyltrace ships) and ``~/.ltrace.conf``; ``-F``
  replaces them, as in ltrace (pytrace/ltrace/prototypes.py);
  ``--extra-prototypes`` adds pyltrace's own prototypes for functions
  ltrace.conf lacks (strtol, memcmp, pthread_*...) under them;
* USDT probes (which ltrace cannot see): ``--list-usdt PROGRAM`` (or ``-p PID``)
  lists them, ``-e usdt:PROVIDER:NAME`` traces them (ltrace/usdt_trace.py).
"""

from __future__ import annotations

import gc
import os
import signal
import sys

from pytrace.cli.getopt import LongOpt, UsageError, parse

PROG = "pyltrace"
# ltrace's getopt string: -X is in it but refused (x86-64 builds have no PLT re-initialisation).
_SHORT = "+cfhiLrStTVbCa:A:D:e:F:l:n:o:p:s:u:x:X:w:"
_LONG = [
    LongOpt("align", "required", "a"), LongOpt("config", "required", "F"), LongOpt("debug", "required", "D"),
    LongOpt("demangle", "none", "C"), LongOpt("indent", "required", "n"), LongOpt("help", "none", "h"),
    LongOpt("library", "required", "l"), LongOpt("output", "required", "o"), LongOpt("version", "none", "V"),
    LongOpt("no-signals", "none", "b"), LongOpt("where", "required", "w"),
    LongOpt("output-format", "required", "output-format"), LongOpt("json", "none", "json"),
    LongOpt("extra-prototypes", "none", "extra-prototypes"), LongOpt("list-usdt", "none", "list-usdt"),
    LongOpt("extra-prototypes", "none", "extra-prototypes"), LongOpt("backend", "required", "backend"),
    LongOpt("ebpf-buffer", "required", "ebpf-buffer"),
]
BACKENDS = ("ptrace", "ebpf")
OUTPUT_FORMATS = ("text", "json")
#: Options ltrace 0.7.3's getopt takes and then refuses with only its "Try ..." line.
REFUSED = frozenset("X")


def _usage_error(msg: str) -> None:
    sys.stderr.write(f"{PROG}: {msg}\nTry `{PROG} --help' for more information.\n")
    sys.exit(1)


def _int(text: str) -> int:
    """atoi(): leading digits, 0 when there are none (ltrace does no checking either)."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    digits = ""
    for ch in text.lstrip("+-"):
        if not ch.isdigit():
            break
        digits += ch
    return sign * int(digits) if digits else 0


def _size(text: str) -> int | None:
    """A ring buffer size: N, NK or NM bytes, a power of two of at least one page; None if not."""
    mult = {"k": 1 << 10, "m": 1 << 20}.get(text[-1:].lower(), 1)
    digits = text[:-1] if mult > 1 else text
    if not digits.isdigit():
        return None
    n = int(digits) * mult
    return n if n >= 4096 and n & (n - 1) == 0 else None


def main(argv: list[str] | None = None) -> None:
    """pyltrace's command line (``argv``: None for sys.argv).

    Run as the command (``argv`` None), a finished ptrace trace ends the process at once
    (``_end``: no interpreter teardown); with ``argv`` given (a test's driver, an embedding)
    it ends with SystemExit as usual.
    """
    # Start-up makes many long-lived objects and next to no cycles: no collection pass over them
    # (~2 ms); collection is back on, over the frozen start-up objects' heads, once tracing starts.
    gc.disable()
    from pytrace.cli.entry import inherited_signals

    # Before anything here changes them: the command gets them.  ltrace catches SIGINT and SIGTERM
    # (signal_exit) before it forks the command, so those reach it as SIG_DFL even when inherited ignored.
    ignored, blocked = inherited_signals()
    inherited = (ignored & ~((1 << (2 - 1)) | (1 << (15 - 1))), blocked)
    from pytrace.sinks.output import safe_stderr

    sys.stderr = safe_stderr()  # a full or broken stderr must not raise (ltrace never checks its writes)
    args = sys.argv[1:] if argv is None else argv
    try:
        opts, rest = parse(args, _SHORT, _LONG)
    except UsageError as exc:
        _usage_error(str(exc))
        return
    from pytrace.ltrace.filters import Filter, split_exprs
    from pytrace.ltrace.format import OutputOptions
    from pytrace.ltrace.tracer import LtraceConfig

    cfg = LtraceConfig()
    cfg.inherited_signals = inherited
    oo = OutputOptions()
    e_exprs: list[str] = []
    x_exprs: list[str] = []
    configs: list[str] = []
    pids: list[int] = []
    output: str | None = None
    user: str | None = None
    libcalls = True
    list_usdt = False
    backend = "ptrace"
    for key, val in opts:
        v = val or ""
        if key in REFUSED:
            sys.stderr.write(f"Try `{PROG} --help' for more information.\n")
            sys.exit(1)
        if key == "a":
            oo.align = _int(v)
        elif key == "A":
            cfg.arraylen = _int(v)
        elif key == "b":
            cfg.no_signals = True
        elif key == "c":
            oo.summary = True
        elif key == "C":
            cfg.demangle = True
        elif key == "D":
            if v.startswith("h"):
                sys.stdout.write("pyltrace has no debug output; -D is accepted for compatibility.\n")
                sys.exit(0)
        elif key == "e":
            e_exprs.append(v)
        elif key == "f":
            cfg.follow = True
        elif key == "F":
            configs.append(v)
        elif key == "h":
            from pytrace.cli.help_text import ltrace_help

            sys.stdout.write(ltrace_help(PROG))
            sys.exit(0)
        elif key == "i":
            oo.instruction_pointer = True
        elif key == "l":
            cfg.libraries.append(v)
        elif key == "L":
            libcalls = False
        elif key == "n":
            try:
                n = int(v, 0)
            except ValueError:
                n = -1
            if not 0 <= n <= 20:
                sys.stderr.write(f"Invalid argument to -n: '{v}'.  Use integer 0..20.\n")
                sys.exit(1)
            oo.indent = n
        elif key == "o":
            output = v
        elif key == "p":
            pids.append(_int(v))
        elif key == "r":
            oo.relative = True
        elif key == "s":
            cfg.strlen = _int(v)
        elif key == "S":
            cfg.syscalls = True
        elif key == "t":
            oo.timestamps += 1
        elif key == "T":
            oo.show_time = True
        elif key == "u":
            user = v
        elif key == "V":
            from pytrace.cli.help_text import ltrace_version

            sys.stdout.write(ltrace_version(PROG))
            sys.exit(0)
        elif key == "w":
            cfg.backtrace = _int(v)
        elif key == "x":
            x_exprs.append(v)
        elif key == "output-format":
            if v not in OUTPUT_FORMATS:
                _usage_error(f"invalid --output-format argument: '{v}' (available: {', '.join(OUTPUT_FORMATS)})")
            oo.format = v
        elif key == "json":
            oo.format = "json"
        elif key == "extra-prototypes":
            cfg.extra_prototypes = True
        elif key == "list-usdt":
            list_usdt = True
        elif key == "backend":
            if v not in BACKENDS:
                _usage_error(f"invalid --backend argument: '{v}' (available: {', '.join(BACKENDS)})")
            backend = v
        elif key == "ebpf-buffer":
            size = _size(v)
            if size is None:
                _usage_error(f"invalid --ebpf-buffer argument: '{v}' (a power of two, at least 4096; K and M "
                             "suffixes)")
            cfg.ebpf_buffer = size or cfg.ebpf_buffer
    if not pids and not rest:
        _usage_error("too few arguments")
    if list_usdt:
        from pytrace.cli.usdt_list import list_usdt as do_list

        sys.exit(do_list(rest[0] if rest else None, pids))
    e_exprs, usdt_exprs = split_exprs(e_exprs)
    if usdt_exprs:
        cfg.usdt_filter = Filter(usdt_exprs)
    if not libcalls and (e_exprs or cfg.libraries):
        _usage_error("Option -L can't be used with -e or -l.")
    if oo.relative and oo.timestamps:
        _usage_error("Options -r and -t can't be used together")
    if e_exprs:
        cfg.plt_filter = Filter(e_exprs)
        cfg.hide_caller = False
    elif cfg.libraries:
        cfg.hide_caller = False
    elif libcalls and not usdt_exprs:  # -e usdt:... alone traces the probes only (as -e names what is traced)
        cfg.plt_filter = Filter(["@MAIN"])
    cfg.x_filter = Filter(x_exprs) if x_exprs else None
    if backend == "ebpf":
        from pytrace.ltrace.ebpf_run import run as run_ebpf

        _tracing_starts()
        status, killed = run_ebpf(cfg, oo, rest, pids, output, configs, user, args,
                                  lambda text: sys.stderr.write(text + "\n"))
        sys.stderr.flush()
        if killed:
            _die_like(killed)
        sys.exit(status)
    status = run(cfg, oo, rest, pids, output, configs, user, args)
    if argv is None:
        _end(status)
    sys.exit(status)


def _tracing_starts() -> None:
    """The garbage collector back on for the trace, minus the objects start-up made (gc.freeze: they
    live as long as the process, and a full collection of a long trace need not walk them again)."""
    gc.freeze()
    gc.enable()


def _end(status: int) -> None:
    """Exit with ``status`` now, without the interpreter's teardown.

    Freeing every module, function and record one at a time, with the garbage collector's
    final passes, costs pyltrace ~10 ms of CPU at the end of every run (a third of
    ``python -c pass``: issue 15), for memory the kernel takes back anyway.  Nothing is left
    to write by then: pipeline.run closed the trace file, the standard streams are flushed
    here, and pyltrace's ptrace path registers no atexit handler and starts no thread.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):  # None, closed or broken: nothing more can reach it
            pass
    os._exit(status)


def run(cfg: object, oo: object, command: list[str], pids: list[int], output: str | None,
        configs: list[str], user: str | None, argv: list[str] | None = None) -> int:
    """Trace as ltrace would (pytrace/pipeline.py assembles it); the exit status pyltrace ends with."""
    from pytrace.pipeline import LtracePipeline, SetupError

    def say(text: str) -> None:
        sys.stderr.write(text + "\n")

    pipeline = LtracePipeline(cfg, oo, configs=configs, output=output, argv=argv or [], message=say)
    try:
        pipeline.prepare(follow_pids=bool(pids))
    except SetupError as exc:
        say(str(exc))
        sys.exit(1)
    pipeline.attach(pids)
    if command and not pipeline.launch(command, user):
        return 1
    assert pipeline.backend is not None
    if not pipeline.backend.tracees:
        return 1
    _tracing_starts()
    result = pipeline.run()
    sys.stderr.flush()
    if result.killed_by:
        _die_like(result.killed_by)
    if result.interrupted_by == signal.SIGPIPE:  # the trace's reader went away: ltrace dies of SIGPIPE
        _die_like(signal.SIGPIPE)
    return result.exit_status


def _die_like(sig: int) -> None:
    """Die of the same signal as the tracee (as pytrace does), without a core file of our own."""
    import resource

    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    except (ValueError, OSError):
        pass
    sys.stdout.flush()
    if sig not in (signal.SIGKILL, signal.SIGSTOP):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
    os.kill(os.getpid(), sig)
    sys.exit(128 + sig)


if __name__ == "__main__":
    main()
