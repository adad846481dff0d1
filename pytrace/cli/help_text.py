"""``-h`` and ``-V`` of ``pytrace`` and ``pyltrace``: the texts, as data, in one place.

``pytrace -h`` is strace 6.1's ``strace -h``, section by section and in its
words (``strace`` read as the program's name), with pytrace's own options
added where they belong and its sub-commands at the end; ``pyltrace -h`` is
ltrace 0.7.3's ``ltrace --help`` with pyltrace's additions.  The additions are
marked ``# pytrace`` / ``# pyltrace`` below (the marks are not printed).

``-V``: programs that wrap strace read its version from the first line of
``strace -V`` (a ``sed`` keeping the last " N.M" of line 1, regexes such as
``version (\\d+)\\.(\\d+)``, or the literal prefix ``strace -- version``), so
that line is strace's exactly, with the version whose output pytrace
reproduces; pytrace's own version goes on the next line, where no such parser
looks.  The same for ``ltrace -V``'s ``ltrace version 0.7.3.``.

Only imported for -h/-V: nothing here is on a tracing run's start-up path.
"""

from __future__ import annotations

from pytrace import __version__

#: The versions of strace and ltrace whose output and options pytrace/pyltrace reproduce.
STRACE_VERSION = "6.1"
LTRACE_VERSION = "0.7.3"

_MARK = "  # pytrace"
_LMARK = "  # pyltrace"

# strace 6.1's usage(); "strace" is written {prog}, continuation lines start with {pad}.
_STRACE_HELP = """\
Usage: {prog} [-ACdffhikqqrtttTvVwxxyyzZ] [-I N] [-b execve] [-e EXPR]...
{pad}[-a COLUMN] [-o FILE] [-s STRSIZE] [-X FORMAT] [-O OVERHEAD]
{pad}[-S SORTBY] [-P PATH]... [-p PID]... [-U COLUMNS] [--seccomp-bpf]
{pad}{ -p PID | [-DDD] [-E VAR=VAL]... [-u USERNAME] PROG [ARGS] }
   or: {prog} -c[dfwzZ] [-I N] [-b execve] [-e EXPR]... [-O OVERHEAD]
{pad}[-S SORTBY] [-P PATH]... [-p PID]... [-U COLUMNS] [--seccomp-bpf]
{pad}{ -p PID | [-DDD] [-E VAR=VAL]... [-u USERNAME] PROG [ARGS] }
   or: {prog} {report|timeline|export} [OPTIONS] FILE.jsonl...  # pytrace

General:
  -e EXPR        a qualifying expression: OPTION=[!]all or OPTION=[!]VAL1[,VAL2]...
     options:    trace, abbrev, verbose, raw, signal, read, write, fault,
                 inject, status, quiet, kvm, decode-fds

Startup:
  -E VAR=VAL, --env=VAR=VAL
                 put VAR=VAL in the environment for command
  -E VAR, --env=VAR
                 remove VAR from the environment for command
  -p PID, --attach=PID
                 trace process with process id PID, may be repeated
  -u USERNAME, --user=USERNAME
                 run command as USERNAME handling setuid and/or setgid

Tracing:
  -b execve, --detach-on=execve
                 detach on execve syscall
  -D, --daemonize[=grandchild]
                 run tracer process as a grandchild, not as a parent
  -DD, --daemonize=pgroup
                 run tracer process in a separate process group
  -DDD, --daemonize=session
                 run tracer process in a separate session
  -f, --follow-forks
                 follow forks
  -ff, --follow-forks --output-separately
                 follow forks with output into separate files
  -I INTERRUPTIBLE, --interruptible=INTERRUPTIBLE
     1, anywhere:   no signals are blocked
     2, waiting:    fatal signals are blocked while decoding syscall (default)
     3, never:      fatal signals are always blocked (default if '-o FILE PROG')
     4, never_tstp: fatal signals and SIGTSTP (^Z) are always blocked
                    (useful to make '{prog} -o FILE PROG' not stop on ^Z)
  --kill-on-exit kill all tracees if {prog} is killed  # pytrace
  --backend=BACKEND  # pytrace
                 how syscalls are seen: ptrace (the default, as strace) or  # pytrace
                 ebpf (kernel tracepoints, no stops; needs root, or CAP_BPF  # pytrace
                 and CAP_PERFMON), which refuses these options:  # pytrace
                 {ebpf_unsupported}  # pytrace
                 With ebpf and no PROG and no -p: every process  # pytrace
                 (system-wide; Ctrl-C ends it)  # pytrace
  --comm=NAME    system-wide: only processes named NAME (repeatable)  # pytrace
  --ring-size=SIZE  # pytrace
                 the eBPF ring buffer, in bytes (K, M, G: binary multiples;  # pytrace
                 a power of two, at least 4K; default 32M)  # pytrace
  --no-backpressure  # pytrace
                 eBPF: never stop a traced thread for a full ring buffer;  # pytrace
                 records are then dropped, and the trace says how many  # pytrace
  --allow-loss   exit normally even if eBPF events were lost  # pytrace

Filtering:
  -e trace=[!][?]{{SYSCALL|GROUP|all|/REGEX}[@64|@32|@x32]|none},
   --trace=[!][?]{{SYSCALL|GROUP|all|/REGEX}[@64|@32|@x32]|none}
                 trace only specified syscalls.
     groups:     %clock, %creds, %desc, %file, %fstat, %fstatfs %ipc, %lstat,
                 %memory, %net, %process, %pure, %signal, %stat, %%stat,
                 %statfs, %%statfs
  -e signal=SET, --signal=SET
                 trace only the specified set of signals
                 print only the signals from SET
  -e status=SET, --status=SET
                 print only system calls with the return statuses in SET
     statuses:   successful, failed, unfinished, unavailable, detached
  -P PATH, --trace-path=PATH
                 trace accesses to PATH
  -z, --successful-only
                 print only syscalls that returned without an error code
  -Z, --failed-only
                 print only syscalls that returned with an error code
  --failing-only same as --failed-only  # pytrace

Output format:
  -a COLUMN, --columns=COLUMN
                 alignment COLUMN for printing syscall results (default 40)
  -e abbrev=SET, --abbrev=SET
                 abbreviate output for the syscalls in SET
  -e verbose=SET, --verbose=SET
                 dereference structures for the syscall in SET
  -e raw=SET, --raw=SET
                 print undecoded arguments for the syscalls in SET
  -e read=SET, --read=SET
                 dump the data read from the file descriptors in SET
  -e write=SET, --write=SET
                 dump the data written to the file descriptors in SET
  -e quiet=SET, --quiet=SET
                 suppress various informational messages
     messages:   attach, exit, path-resolution, personality, thread-execve
  -e kvm=vcpu, --kvm=vcpu
                 print exit reason of kvm vcpu
  -e decode-fds=SET, --decode-fds=SET
                 what kinds of file descriptor information details to decode
     details:    dev (device major/minor for block/char device files)
                 path (file path),
                 pidfd (associated PID for pidfds),
                 socket (protocol-specific information for socket descriptors)
  -i, --instruction-pointer
                 print instruction pointer at time of syscall
  -k, --stack-traces
                 obtain stack trace between each syscall
  -n, --syscall-number
                 print syscall number
  -o FILE, --output=FILE
                 send trace output to FILE instead of stderr
  -A, --output-append-mode
                 open the file provided in the -o option in append mode
  --output-separately
                 output into separate files (by appending pid to file names)
  -q, --quiet=attach,personality
                 suppress messages about attaching, detaching, etc.
  -qq, --quiet=attach,personality,exit
                 suppress messages about process exit status as well.
  -qqq, --quiet=all
                 suppress all suppressible messages.
  -r, --relative-timestamps[=PRECISION]
                 print relative timestamp
     precision:  one of s, ms, us, ns; default is microseconds
  -s STRSIZE, --string-limit=STRSIZE
                 limit length of print strings to STRSIZE chars (default 32)
  --absolute-timestamps=[[format:]FORMAT[,[precision:]PRECISION]]
                 set the format of absolute timestamps
     format:     none, time, or unix; default is time
     precision:  one of s, ms, us, ns; default is seconds
  --timestamps=[[format:]FORMAT[,[precision:]PRECISION]]  # pytrace
                 same as --absolute-timestamps  # pytrace
  -t, --absolute-timestamps[=time]
                 print absolute timestamp
  -tt, --absolute-timestamps=[time,]us
                 print absolute timestamp with usecs
  -ttt, --absolute-timestamps=unix,us
                 print absolute UNIX time with usecs
  -T, --syscall-times[=PRECISION]
                 print time spent in each syscall
     precision:  one of s, ms, us, ns; default is microseconds
  -v, --no-abbrev
                 verbose mode: print entities unabbreviated
  --strings-in-hex=non-ascii-chars
                 use hex instead of octal in escape sequences
  -x, --strings-in-hex=non-ascii
                 print non-ASCII strings in hex
  -xx, --strings-in-hex[=all]
                 print all strings in hex
  -X FORMAT, --const-print-style=FORMAT
                 set the FORMAT for printing of named constants and flags
     formats:    raw, abbrev, verbose
  -y, --decode-fds[=path]
                 print paths associated with file descriptor arguments
  -yy, --decode-fds=all
                 print all available information associated with file
                 descriptors in addition to paths
  --decode-pids=pidns
                 print PIDs in {prog}'s namespace, too
  -Y, --decode-pids=comm
                 print command names associated with PIDs
  --output-format=FORMAT  # pytrace
                 text (strace's lines, the default), json (one JSON record per  # pytrace
                 line, for 'report'/'timeline'/'export') or perfetto (Chrome  # pytrace
                 trace-event JSON, for ui.perfetto.dev)  # pytrace
  --json         same as --output-format=json  # pytrace

Statistics:
  -c, --summary-only
                 count time, calls, and errors for each syscall and report
                 summary
  -C, --summary  like -c, but also print the regular output
  -O OVERHEAD[UNIT], --summary-syscall-overhead=OVERHEAD[UNIT]
                 set overhead for tracing syscalls to OVERHEAD UNITs
     units:      one of s, ms, us, ns; default is microseconds
  -S SORTBY, --summary-sort-by=SORTBY
                 sort syscall counts by: time, min-time, max-time, avg-time,
                 calls, errors, name, nothing (default time)
  -U COLUMNS, --summary-columns=COLUMNS
                 show specific columns in the summary report: comma-separated
                 list of time-percent, total-time, min-time, max-time,\x20
                 avg-time, calls, errors, name
                 (default time-percent,total-time,avg-time,calls,errors,name)
  -w, --summary-wall-clock
                 summarise syscall latency (default is system time)
  --histogram    with -c/-C: a log2 histogram of each syscall's times under  # pytrace
                 the table, as bpftrace prints hist()  # pytrace

Tampering:
  -e inject=SET[:error=ERRNO|:retval=VALUE][:signal=SIG][:syscall=SYSCALL]
            [:delay_enter=DELAY][:delay_exit=DELAY]
            [:poke_enter=@argN=DATAN,@argM=DATAM...]
            [:poke_exit=@argN=DATAN,@argM=DATAM...]
            [:when=WHEN],
  --inject=SET[:error=ERRNO|:retval=VALUE][:signal=SIG][:syscall=SYSCALL]
           [:delay_enter=DELAY][:delay_exit=DELAY]
           [:poke_enter=@argN=DATAN,@argM=DATAM...]
           [:poke_exit=@argN=DATAN,@argM=DATAM...]
           [:when=WHEN],
                 perform syscall tampering for the syscalls in SET
     delay:      microseconds or NUMBER{s|ms|us|ns}
     when:       FIRST[..LAST][+[STEP]]
  -e fault=SET[:error=ERRNO][:when=WHEN], --fault=SET[:error=ERRNO][:when=WHEN]
                 synonym for -e inject with default ERRNO set to ENOSYS.

Miscellaneous:
  -d, --debug    enable debug output to stderr
  -F             accepted and ignored (strace's old spelling of -f)  # pytrace
  -h, --help     print help message
  --seccomp-bpf  enable seccomp-bpf filtering
  --no-seccomp-bpf  # pytrace
                 never use seccomp-bpf filtering (without either option {prog}  # pytrace
                 uses it with --kill-on-exit, when it cannot change what is  # pytrace
                 printed)  # pytrace
  --tips[=[[id:]ID][,[format:]FORMAT]]
                 show {prog} tips, tricks, and tweaks on exit
     id:         non-negative integer or random; default is random
     format:     none, compact, full; default is compact
  -V, --version  print version

Sub-commands, over traces saved with --output-format=json:  # pytrace
  report [-c|-C] [-S SORTBY] [-w] [-o FILE] FILE.jsonl...  # pytrace
                 print a trace as strace's lines and/or its -c summary table  # pytrace
  timeline [-o FILE] FILE.jsonl...  # pytrace
                 draw a trace as an HTML page: a row per thread, a bar per call  # pytrace
  export [--format=perfetto|html] [-o FILE] FILE.jsonl...  # pytrace
                 convert a trace for other viewers (Perfetto, the timeline page)  # pytrace
     more:       '{prog} SUBCOMMAND -h'; a program with one of these names is  # pytrace
                 traced with '{prog} -- NAME'  # pytrace
"""

# ltrace 0.7.3's usage (Debian's build: no -w); "ltrace" is written {prog}.
_LTRACE_HELP = """\
Usage: {prog} [option ...] [command [arg ...]]
Trace library calls of a given program.

  -a, --align=COLUMN  align return values in a secific column.
  -A MAXELTS          maximum number of array elements to print.
  -b, --no-signals    don't print signals.
  -c                  count time and calls, and report a summary on exit.
  -C, --demangle      decode low-level symbol names into user-level names.
  -D, --debug=MASK    enable debugging (see -Dh or --debug=help).
  -Dh, --debug=help   show help on debugging.
  -e FILTER           modify which library calls to trace.
  -e usdt:PROVIDER:NAME trace these USDT (sys/sdt.h) probes; globs, @LIBRARY.  # pyltrace
  -f                  trace children (fork() and clone()).
  -F, --config=FILE   load alternate configuration file (may be repeated).
  -h, --help          display this help and exit.
  -i                  print instruction pointer at time of library call.
  -l, --library=LIBRARY_PATTERN only trace symbols implemented by this library.
  --list-usdt         list the USDT probes of the command (or of -p PID) and exit.  # pyltrace
  -L                  do NOT display library calls.
  -n, --indent=NR     indent output by NR spaces for each call level nesting.
  -o, --output=FILENAME write the trace output to file with given name.
  --output-format=FORMAT text (the default) or json: one JSON record per line.  # pyltrace
  --json              same as --output-format=json.  # pyltrace
  -p PID              attach to the process with the process ID pid.
  -r                  print relative timestamps.
  -s STRSIZE          specify the maximum string size to print.
  -S                  trace system calls as well as library calls.
  -t, -tt, -ttt       print absolute timestamps.
  -T                  show the time spent inside each call.
  -u USERNAME         run command with the userid, groupid of username.
  -V, --version       output version information and exit.
  -w, --where=NR      print backtrace showing NR stack frames at most.  # pyltrace
  --extra-prototypes  also use pyltrace's prototypes of functions ltrace.conf lacks.  # pyltrace
  --backend=BACKEND   ptrace (the default: breakpoints) or ebpf (uprobes, no stop per call).  # pyltrace
  --ebpf-buffer=SIZE  the eBPF backend's ring buffer (default 64M; K/M suffixes).  # pyltrace
  -x FILTER           modify which static functions to trace.

{prog} reproduces ltrace {ltrace_version}'s output; report its bugs to the pytrace project.  # pyltrace
"""


def _render(template: str, marks: tuple[str, ...], **values: str) -> str:
    out = template
    for mark in marks:
        out = out.replace(mark + "\n", "\n")
    for key, value in values.items():
        out = out.replace("{" + key + "}", value)
    return out


def _ebpf_unsupported() -> str:
    """The options --backend=ebpf refuses, from the table that refuses them, wrapped as strace wraps."""
    from pytrace.cli.ebpf_main import UNSUPPORTED

    lines = [""]
    for i, (name, _) in enumerate(UNSUPPORTED):
        item = name + ("," if i + 1 < len(UNSUPPORTED) else "")
        if lines[-1] and 17 + len(lines[-1]) + 1 + len(item) > 80:
            lines.append("")
        lines[-1] += (" " if lines[-1] else "") + item
    return ("\n" + " " * 17).join(lines)


def strace_help(prog: str) -> str:
    """``pytrace -h``: strace 6.1's help with pytrace's additions (see the module doc)."""
    return _render(_STRACE_HELP, (_MARK,), prog=prog, pad=" " * len(f"Usage: {prog} "),
                   ebpf_unsupported=_ebpf_unsupported())


def ltrace_help(prog: str) -> str:
    """``pyltrace --help``: ltrace 0.7.3's help with pyltrace's additions."""
    return _render(_LTRACE_HELP, (_LMARK,), prog=prog, ltrace_version=LTRACE_VERSION)


def strace_version(prog: str) -> str:
    """``pytrace -V``: strace's first line (the version pytrace reproduces), then pytrace's own."""
    return (
        f"{prog} -- version {STRACE_VERSION}\n"
        f"pytrace {__version__}: a Python reimplementation of strace, printing what strace {STRACE_VERSION}"
        " prints.\n"
        "This is free software; see the source for copying conditions.  There is NO\n"
        "warranty; not even for MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n"
        "\n"
        # What strace lists here, for the features pytrace has: -k (its own unwinder, with C++
        # demangling) and i386 (m32) tracees.
        "Optional features enabled: stack-trace=pytrace stack-demangle m32-mpers\n"
    )


def ltrace_version(prog: str) -> str:
    """``pyltrace -V``: ltrace's first line (the version pyltrace reproduces), then pytrace's own."""
    return (
        f"{prog} version {LTRACE_VERSION}.\n"
        f"pyltrace (pytrace {__version__}): a Python reimplementation of ltrace, printing what ltrace"
        f" {LTRACE_VERSION} prints.\n"
        "This is free software; see the source for copying conditions.  There is NO warranty.\n"
    )
