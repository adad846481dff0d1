"""The tracer rows of the table, how each is started, and whether it works on this machine.

A row is data, not code: adding a configuration is adding a ``Tracer(...)``.
Whether a row can be measured is decided by running it once on ``true``
(plus, for the eBPF backend, the probe the issue names): a tracer that is
missing, rejects the option, or fails is reported in the table with the
reason it gave, never dropped.  So ``pytrace -c`` shows "unsupported" until
it lands and is measured from then on, and the eBPF rows light up as soon as
``pytrace --backend=ebpf -e trace=none true`` succeeds, without any change here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from benchsuite.workloads import LIBCALL, SYSCALL, USDT

REPO_ROOT = Path(__file__).resolve().parents[2]

#: bpftrace program: count the workload's syscalls (pid = tgid, so every thread of it).  BEGIN runs
#: only after all probes are attached, so its line tells the harness it may release the workload.
BPFTRACE_COUNT = "tracepoint:raw_syscalls:sys_enter /pid == $1/ { @n = count(); }"
BPFTRACE_PROGRAM = 'BEGIN { printf("READY\\n"); } ' + BPFTRACE_COUNT
#: bpftrace on W8: count the workload's hits of its USDT probe ({exe}: the workload's binary).
#: W6's floor for any uprobe tracer: bpftrace's uprobe + uretprobe on libc's labs() (its first
#: instruction, a mov, is single-stepped by the kernel as pyltrace's PLT-stub jmp is), counted.
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
BPFTRACE_UPROBE = ('BEGIN { printf("READY\\n"); } '
                   f'uprobe:{LIBC}:labs /pid == $1/ {{ @n = count(); }} '
                   f'uretprobe:{LIBC}:labs /pid == $1/ {{ @r = count(); }}')
BPFTRACE_USDT = 'BEGIN { printf("READY\\n"); } usdt:{exe}:bench:hit /pid == $1/ { @n = count(); }'

STATUS_OK = "ok"
STATUS_MISSING = "not installed"
STATUS_UNSUPPORTED = "unsupported"
STATUS_BROKEN = "not working"

#: How tracers word "I do not have that option" (pytrace: "option -c/-C is not implemented yet",
#: "invalid --backend argument: 'ebpf'"; getopt: "unrecognized option").  Anything else that fails
#: (a traceback, a BPF verifier error) is "not working", not "unsupported".
_UNSUPPORTED_RE = re.compile(
    r"not implemented|unrecognized option|invalid option|unknown option|invalid \S+ argument"
    r"|not supported|unsupported|^usage:",
    re.I | re.M,
)


@dataclass(frozen=True)
class Tracer:
    """One row of the table.

    kind: "none" (the untraced baseline), "exec" (``PROGRAM ARGS... WORKLOAD``)
    or "bpftrace" (attached to the workload's pid before it is released).
    scale: size factor for the scalable workloads (ltrace is too slow for full size).
    gate: an extra command that must succeed before the row is tried (the eBPF probe).
    traces: the workload units the row measures (``Workload.unit``): it runs on those workloads
    and W0 only, so a library-call tracer is not timed on syscall loops and the other way round.
    events: a per-event row's output format (events.py: text, json, ltrace, ltrace-sys); its ``-o /dev/null``
    then becomes ``-o FILE`` and the calls in FILE are counted after each run, which is invalid
    unless they are all there.  "" for the rows that print no event (-c, bpftrace, untraced).
    only: the syscalls the row traces when not all (``-e trace=openat``).
    lossy: the tracer can drop events instead of holding the program back (an eBPF ring buffer):
    its figures from files taken before events were counted are withheld (report.load).
    """

    id: str
    label: str
    kind: str
    program: str = ""
    args: tuple[str, ...] = ()
    scale: float = 1.0
    gate: tuple[str, ...] = ()
    note: str = ""
    traces: tuple[str, ...] = (SYSCALL,)
    events: str = ""
    only: tuple[str, ...] = ()
    lossy: bool = False
    #: kind "bpftrace": its program when not BPFTRACE_PROGRAM (``{exe}``: the workload's binary); its ``@n``
    #: must then equal the workload's known calls, else the run is invalid.
    bpftrace_program: str = ""


TRACERS: list[Tracer] = [
    Tracer("untraced", "untraced", "none", traces=(SYSCALL, LIBCALL, USDT)),
    Tracer("strace", "strace -f -o /dev/null", "exec", "strace", ("-f", "-o", "/dev/null"), events="text"),
    Tracer("strace-c", "strace -f -c", "exec", "strace", ("-f", "-c")),
    Tracer(
        "strace-seccomp-openat", "strace -f --seccomp-bpf -e trace=openat", "exec", "strace",
        ("-f", "--seccomp-bpf", "-e", "trace=openat", "-o", "/dev/null"), events="text", only=("openat",),
    ),
    Tracer(
        "ltrace", "ltrace -f -S -o /dev/null", "exec", "ltrace", ("-f", "-S", "-o", "/dev/null"),
        scale=0.1,
        note="run at 1/10 of W1/W2/W3/W5/W7's size (too slow otherwise); full-size ratio extrapolated",
        events="ltrace-sys",
    ),
    Tracer(
        "bpftrace", "bpftrace: count sys_enter of the pid", "bpftrace", "bpftrace",
        note="timed from the release of the workload, after the probes are attached",
    ),
    Tracer("pytrace", "pytrace -f -o /dev/null", "exec", "pytrace", ("-f", "-o", "/dev/null"), events="text"),
    Tracer("pytrace-c", "pytrace -f -c", "exec", "pytrace", ("-f", "-c")),
    Tracer("pytrace-json", "pytrace -f --json -o /dev/null", "exec", "pytrace", ("-f", "--json", "-o", "/dev/null"),
           note="structured output: the text decoders plus one JSON record per call", events="json"),
    Tracer(
        "pytrace-openat-seccomp", "pytrace -f -e trace=openat --seccomp-bpf", "exec", "pytrace",
        ("-f", "-e", "trace=openat", "--seccomp-bpf", "-o", "/dev/null"), events="text", only=("openat",),
    ),
    Tracer(
        "pytrace-openat-noseccomp", "pytrace -f -e trace=openat --no-seccomp-bpf", "exec", "pytrace",
        ("-f", "-e", "trace=openat", "--no-seccomp-bpf", "-o", "/dev/null"), events="text", only=("openat",),
    ),
    Tracer(
        "pytrace-ebpf-c", "pytrace --backend=ebpf -f -c", "exec", "pytrace",
        ("--backend=ebpf", "-f", "-c"), gate=("--backend=ebpf", "-e", "trace=none"),
    ),
    Tracer(
        "pytrace-ebpf", "pytrace --backend=ebpf -f -o /dev/null", "exec", "pytrace",
        ("--backend=ebpf", "-f", "-o", "/dev/null"), gate=("--backend=ebpf", "-e", "trace=none"),
        events="text", lossy=True,
    ),
    # Library-call tracers, on W6 (100,000 labs()): the per-call overhead of pyltrace against ltrace 0.7.3.
    Tracer("ltrace-lib", "ltrace -o /dev/null", "exec", "ltrace", ("-o", "/dev/null"), traces=(LIBCALL,),
           events="ltrace"),
    Tracer("ltrace-lib-c", "ltrace -c -o /dev/null", "exec", "ltrace", ("-c", "-o", "/dev/null"),
           traces=(LIBCALL,)),
    Tracer("pyltrace", "pyltrace -o /dev/null", "exec", "pyltrace", ("-o", "/dev/null"), traces=(LIBCALL,),
           events="ltrace"),
    Tracer("pyltrace-c", "pyltrace -c -o /dev/null", "exec", "pyltrace", ("-c", "-o", "/dev/null"),
           traces=(LIBCALL,)),
    # The same with uprobes (issue 17): no stop per call; -c summed in the kernel.
    Tracer("pyltrace-ebpf", "pyltrace --backend=ebpf -o /dev/null", "exec", "pyltrace",
           ("--backend=ebpf", "-o", "/dev/null"), traces=(LIBCALL,)),
    Tracer("pyltrace-ebpf-c", "pyltrace --backend=ebpf -c -o /dev/null", "exec", "pyltrace",
           ("--backend=ebpf", "-c", "-o", "/dev/null"), traces=(LIBCALL,)),
    Tracer("bpftrace-uprobe", "bpftrace: uprobe+uretprobe libc:labs { @n = count(); }", "bpftrace", "bpftrace",
           traces=(LIBCALL,), bpftrace_program=BPFTRACE_UPROBE,
           note="the floor of a uprobe tracer on W6: timed from the release of the workload, after the probes "
                "are attached; its count checked"),
    # USDT tracers, on W8 (1,000,000 hits of one probe): pyltrace's two backends against bpftrace's usdt:.
    Tracer("pyltrace-usdt", "pyltrace -e usdt:bench:hit -o /dev/null", "exec", "pyltrace",
           ("-e", "usdt:bench:hit", "-o", "/dev/null"), scale=0.1, traces=(USDT,), events="usdt",
           note="run at 1/10 of W8's size (a ptrace stop per hit); full-size ratio extrapolated"),
    Tracer("pyltrace-ebpf-usdt", "pyltrace --backend=ebpf -e usdt:bench:hit -o /dev/null", "exec", "pyltrace",
           ("--backend=ebpf", "-e", "usdt:bench:hit", "-o", "/dev/null"), traces=(USDT,), events="usdt",
           lossy=True),
    Tracer("pyltrace-ebpf-usdt-c", "pyltrace --backend=ebpf -c -e usdt:bench:hit", "exec", "pyltrace",
           ("--backend=ebpf", "-c", "-e", "usdt:bench:hit", "-o", "/dev/null"), traces=(USDT,)),
    Tracer("bpftrace-usdt", "bpftrace: usdt:W8:bench:hit { @n = count(); }", "bpftrace", "bpftrace",
           traces=(USDT,), bpftrace_program=BPFTRACE_USDT,
           note="timed from the release of the workload, after the probe is attached; its count checked"),
]


def by_id() -> dict[str, Tracer]:
    return {t.id: t for t in TRACERS}


#: pytrace and pyltrace of this checkout (the console scripts' modules, run with this interpreter).
PYTRACE_CMD = (sys.executable, "-m", "pytrace")
PYLTRACE_CMD = (sys.executable, "-m", "pytrace.cli.ltrace_cli")


@dataclass
class Context:
    """How to start the programs: pytrace's and pyltrace's commands (this checkout by default), the environment."""

    pytrace_cmd: list[str] = field(default_factory=lambda: list(PYTRACE_CMD))
    env: dict[str, str] = field(default_factory=dict)
    pyltrace_cmd: list[str] = field(default_factory=lambda: list(PYLTRACE_CMD))

    @classmethod
    def default(cls, pytrace_cmd: list[str] | None = None, pyltrace_cmd: list[str] | None = None) -> Context:
        env = dict(os.environ)
        # From cached bytecode, as an installed copy runs: with PYTHONDONTWRITEBYTECODE set (this
        # sandbox's shells have it) every module changed since its .pyc was last written is compiled
        # again at every start (the eBPF backend's backend.py, programs.py and asm.py: ~19 ms a run).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        # python -m pytrace runs this checkout whatever the working directory or installed copy.
        env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        return cls(pytrace_cmd or list(PYTRACE_CMD), env, pyltrace_cmd or list(PYLTRACE_CMD))

    def program_argv(self, program: str) -> list[str] | None:
        """argv prefix that starts ``program``, or None when it is not installed."""
        if program == "pytrace":
            return list(self.pytrace_cmd)
        if program == "pyltrace":
            return list(self.pyltrace_cmd)
        path = shutil.which(program)
        return [path] if path else None

    def command(self, tracer: Tracer, workload_argv: list[str], trace: Path | None = None) -> list[str]:
        """Full argv of one exec-kind run (untraced: the workload alone); ``trace`` replaces ``-o /dev/null``."""
        if tracer.kind == "none":
            return list(workload_argv)
        prefix = self.program_argv(tracer.program)
        assert prefix is not None, tracer.program
        args = list(tracer.args)
        if trace is not None:
            args = [str(trace) if a == "/dev/null" and i and args[i - 1] == "-o" else a for i, a in enumerate(args)]
        return [*prefix, *args, *workload_argv]


@dataclass
class Availability:
    status: str
    reason: str = ""


_NOISE_RE = re.compile(r"RLIMIT_MEMLOCK|^Try '.*' for more information|^~+$")


def _last_line(text: str) -> str:
    """The line that says what went wrong.

    The last line that names an error (bpftrace underlines its errors with ~~~
    and always warns about RLIMIT_MEMLOCK; strace-style usage errors end with
    "Try '... -h'"), else the last other line (a traceback's exception).
    """
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not _NOISE_RE.search(ln.strip())]
    errors = [ln for ln in lines if re.search(r"error", ln, re.I) or _UNSUPPORTED_RE.search(ln)]
    return (errors or lines or [""])[-1][:160]


def classify(returncode: int, stderr: str) -> Availability:
    """ok, or why not: "unsupported" when the tracer refuses the option, "not working" otherwise."""
    if returncode == 0:
        return Availability(STATUS_OK)
    reason = _last_line(stderr) or f"exit status {returncode}"
    if "No module named" in stderr:
        return Availability(STATUS_MISSING, reason)
    if _UNSUPPORTED_RE.search(stderr):
        return Availability(STATUS_UNSUPPORTED, reason)
    return Availability(STATUS_BROKEN, reason)


def _run_probe(argv: list[str], env: dict[str, str], timeout: float) -> Availability:
    try:
        r = subprocess.run(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env, timeout=timeout, check=False, text=True, errors="replace",
        )
    except subprocess.TimeoutExpired:
        return Availability(STATUS_BROKEN, f"probe timed out after {timeout:g} s: {' '.join(argv)}")
    except OSError as exc:
        return Availability(STATUS_MISSING, str(exc))
    return classify(r.returncode, r.stderr)


def probe(tracer: Tracer, ctx: Context, timeout: float = 60.0) -> Availability:
    """Can this row be measured here?  Runs it once on ``true`` (and its gate first, if it has one)."""
    if tracer.kind == "none":
        return Availability(STATUS_OK)
    prefix = ctx.program_argv(tracer.program)
    if prefix is None:
        return Availability(STATUS_MISSING, f"{tracer.program}: command not found")
    true = shutil.which("true") or "/bin/true"
    if tracer.kind == "bpftrace":
        # The very program the measurement uses, on a pid that makes no syscalls here, exiting at once.
        return _run_probe([*prefix, "-e", "BEGIN { exit(); } " + BPFTRACE_COUNT, "0"], ctx.env, timeout)
    if tracer.gate:
        gate = _run_probe([*prefix, *tracer.gate, true], ctx.env, timeout)
        if gate.status != STATUS_OK:
            gate.reason = f"`{tracer.program} {' '.join(tracer.gate)} true`: {gate.reason}"
            return gate
    return _run_probe([*prefix, *tracer.args, true], ctx.env, timeout)


def versions(ctx: Context, programs: set[str]) -> dict[str, str]:
    """Each tracer's version line, for the machine description."""
    flags = {"strace": ["-V"], "ltrace": ["-V"], "bpftrace": ["--version"], "pytrace": ["-V"], "pyltrace": ["-V"]}
    out: dict[str, str] = {}
    for program in sorted(programs):
        prefix = ctx.program_argv(program)
        if prefix is None:
            out[program] = "not installed"
            continue
        try:
            r = subprocess.run(
                [*prefix, *flags.get(program, ["--version"])], capture_output=True, text=True,
                env=ctx.env, timeout=30, check=False, errors="replace",
            )
            lines = (r.stdout.strip() or r.stderr.strip()).splitlines()
            # pytrace/pyltrace print the reproduced strace/ltrace version first (for tools that parse
            # it) and their own on the second line: the benchmark names the code that ran.
            line = 1 if program in ("pytrace", "pyltrace") and len(lines) > 1 else 0
            out[program] = lines[line] if lines else f"exit status {r.returncode}"
        except (OSError, subprocess.TimeoutExpired) as exc:
            out[program] = f"unknown ({exc})"
    return out
