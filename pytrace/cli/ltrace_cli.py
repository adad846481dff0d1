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
  ltrace.conf lacks (strtol, memcmp, pthread_*...) under them.
"""

from __future__ import annotations

import os
import resource
import signal
import sys
from typing import IO

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
    LongOpt("extra-prototypes", "none", "extra-prototypes"),
]
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


def main(argv: list[str] | None = None) -> None:
    from pytrace.sinks.output import safe_stderr

    sys.stderr = safe_stderr()  # a full or broken stderr must not raise (ltrace never checks its writes)
    args = sys.argv[1:] if argv is None else argv
    try:
        opts, rest = parse(args, _SHORT, _LONG)
    except UsageError as exc:
        _usage_error(str(exc))
        return
    from pytrace.ltrace.filters import Filter
    from pytrace.ltrace.format import OutputOptions
    from pytrace.ltrace.tracer import LtraceConfig

    cfg = LtraceConfig()
    oo = OutputOptions()
    e_exprs: list[str] = []
    x_exprs: list[str] = []
    configs: list[str] = []
    pids: list[int] = []
    output: str | None = None
    user: str | None = None
    libcalls = True
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
    if not pids and not rest:
        _usage_error("too few arguments")
    if not libcalls and (e_exprs or cfg.libraries):
        _usage_error("Option -L can't be used with -e or -l.")
    if oo.relative and oo.timestamps:
        _usage_error("Options -r and -t can't be used together")
    if e_exprs:
        cfg.plt_filter = Filter(e_exprs)
        cfg.hide_caller = False
    elif cfg.libraries:
        cfg.hide_caller = False
    elif libcalls:
        cfg.plt_filter = Filter(["@MAIN"])
    cfg.x_filter = Filter(x_exprs) if x_exprs else None
    sys.exit(run(cfg, oo, rest, pids, output, configs, user, args))


def _open_output(path: str | None) -> IO[str]:
    """-o FILE, line-buffered as ltrace's; ltrace checks none of its writes, so errors pass silently."""
    from pytrace.sinks.output import open_file

    if path is None:
        return sys.stderr
    try:
        return open_file(path, append=False, report=None, buffered=False)
    except OSError as exc:
        sys.stderr.write(f"can't open {path} for writing: {exc.strerror}\n")
        sys.exit(1)


def run(cfg: object, oo: object, command: list[str], pids: list[int], output: str | None,
        configs: list[str], user: str | None, argv: list[str] | None = None) -> int:
    from pytrace.backends.ptrace import launcher
    from pytrace.backends.ptrace.loop import PtraceBackend, TraceOptions
    from pytrace.ltrace import prototypes as P
    from pytrace.ltrace.breakpoints import spinning_waitpid
    from pytrace.ltrace.elf_cache import cache_dir
    from pytrace.ltrace.format import Output, OutputOptions, Summary
    from pytrace.ltrace.proto_cache import load_prototypes
    from pytrace.ltrace.tracer import LtraceConfig, LtraceSession

    assert isinstance(cfg, LtraceConfig) and isinstance(oo, OutputOptions)
    # Parsed once, then read back from the cache while the files stay the same (issue 15: start-up).
    protos = load_prototypes(P.config_files(configs, P.SearchPath.from_env(cfg.extra_prototypes)), cache_dir())
    stream = _open_output(output)
    if protos.errors and not oo.summary:  # ltrace reports them where the trace goes, before it
        stream.write("".join(e + "\n" for e in protos.errors))
    if output is not None and (cfg.follow or pids):
        oo.pid_prefix = "file"
    elif cfg.follow:
        oo.pid_prefix = "bracket"
    if oo.format == "json":  # decided once: the tracer calls the same methods on either output
        from pytrace.structured.ltrace_records import JsonOutput, ltrace_header

        json_out = JsonOutput(stream, oo, ltrace_header(argv or [], oo, cfg.backtrace), backtraces=cfg.backtrace > 0)
        out: Output = json_out  # type: ignore[assignment]
    else:
        out = Output(stream, oo)
    session = LtraceSession(cfg, out, protos, Summary() if oo.summary else None)
    if oo.format == "json":
        json_out.bind(session)
    all_calls = bytearray(b"\x01" * 1024)
    backend = PtraceBackend(session, TraceOptions(  # type: ignore[arg-type]
        quiet=1,
        instruction_pointer=oo.instruction_pointer,
        trace_bitmap=lambda arch: (all_calls, True),
        **session.hooks(),
    ))
    session.backend = backend
    # Poll briefly before sleeping in waitpid (see breakpoints.SPIN_SECONDS): decided once, ltrace mode only.
    backend._waitpid = spinning_waitpid(backend._waitpid)  # noqa: SLF001
    for pid in pids:
        try:
            backend.attach(pid)
        except OSError as exc:
            sys.stderr.write(f"Cannot attach to pid {pid}: {os.strerror(exc.errno or 0)}\n")
            continue
        session.attached(pid)
        _warn_about_program(f"/proc/{pid}/exe", None)
    if command:
        try:
            path = launcher.resolve_command(command[0])
            pw = launcher.lookup_user(user) if user else None
        except launcher.LaunchError:
            sys.stderr.write(f"Can't execute `{command[0]}': No such file or directory\n")
            return 1
        if _warn_about_program(path, command[0]):
            return 1
        session.command_name = os.path.basename(path)
        child = launcher.spawn_stopped(path, command, launcher.build_env([]), pw)
        backend.launch(child)
    if not backend.tracees:
        return 1
    backend.install_signal_handlers(block=False)
    result = backend.run()
    out.flush()
    if stream is not sys.stderr:
        stream.close()
    sys.stderr.flush()
    if result.killed_by:
        _die_like(result.killed_by)
    if result.interrupted_by == signal.SIGPIPE:  # the trace's reader went away: ltrace dies of SIGPIPE
        _die_like(signal.SIGPIPE)
    return result.exit_status


def _warn_about_program(path: str, shown: str | None) -> bool:
    """Say what is wrong with the program's file, if anything (objects.program_problem); True if fatal."""
    from pytrace.ltrace.objects import program_problem

    try:
        real = os.path.realpath(path)  # /proc/PID/exe: the file, as /proc/PID/maps names it
    except OSError:
        return False
    problem = program_problem(real, shown or path)
    if problem is None:
        return False
    sys.stderr.write(problem[1] + "\n")
    return problem[0]


def _die_like(sig: int) -> None:
    """Die of the same signal as the tracee (as pytrace does), without a core file of our own."""
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
