"""Shared helpers for the differential and system tests: how to run a tracer, and how to compare traces.

pytrace must match strace 6.1 byte for byte, so the comparison is exact except
for the few things that legitimately differ between two runs of the *same*
program (addresses under ASLR, pids, inode numbers, clocks, random bytes).
Each such rule lives in ``normalise`` with the reason it is needed; anything
not listed there is compared verbatim.  Over-normalising would make tests that
cannot fail, so the rules are anchored to the contexts where those values
appear, and varying values are renumbered (PID1, ADDR1, ...) by first
appearance rather than blanked, so a tracer printing the wrong pid or address
in some place still shows up as a difference.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import select
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

REPO_ROOT = Path(__file__).resolve().parents[1]

#: When set, replaces the command that runs pytrace (e.g. ``strace``), so the
#: harness itself can be proven against strace-vs-strace runs.
TRACER_CMD_ENV = "PYTRACE_TEST_TRACER_CMD"

#: Generous upper bound for one traced run; a hang must fail, never block the suite.
RUN_TIMEOUT = 60.0

TRACERS = ("strace", "pytrace")


def tracer_command(tracer: str) -> list[str]:
    """The argv prefix that starts ``tracer``; pytrace can be swapped via PYTRACE_TEST_TRACER_CMD."""
    if tracer == "strace":
        return ["strace"]
    if tracer != "pytrace":
        raise ValueError(f"unknown tracer {tracer!r}")
    override = os.environ.get(TRACER_CMD_ENV)
    if override:
        return shlex.split(override)
    return [sys.executable, "-m", "pytrace"]


def tracer_name(tracer: str) -> str:
    """The program name the tracer puts in front of its messages ("strace: ...", "pytrace: ...").

    With PYTRACE_TEST_TRACER_CMD pointing at strace, the "pytrace" side really
    is strace and words its messages so; deriving the name from the command
    keeps the system tests meaningful in that validation mode too.
    """
    if tracer == "pytrace" and os.environ.get(TRACER_CMD_ENV):
        name = Path(shlex.split(os.environ[TRACER_CMD_ENV])[0]).name
        if name == "strace":
            return name
    return tracer


def tracer_env() -> dict[str, str]:
    """One fixed environment for every traced run, whichever the tracer.

    The tracee inherits it and strace prints ``/* N vars */`` (and ``env``
    prints the variables), so strace and pytrace runs must see exactly the same
    set.  PYTHONPATH makes the repository's package importable for
    ``python -m pytrace`` from any working directory; it is given to the strace
    runs as well so the environments stay identical.  LC_ALL=C keeps locale
    file lookups and message texts independent of the developer's settings.
    """
    return {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LC_ALL": "C",
        "PYTHONPATH": str(REPO_ROOT),
    }


#: A prefix that runs a command in its own IPC namespace: System V IPC identifiers then start at 0
#: in every run, instead of depending on what other processes on the host created before.
PRIVATE_IPC = ("unshare", "--ipc", "--")

#: A prefix that runs a command with a private devpts instance mounted over /dev/pts (and its ptmx
#: over /dev/ptmx) in its own mount namespace: the first pseudo-terminal is always number 0, whatever
#: other processes on the host hold.
PRIVATE_PTYS = (
    "unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
    "mount -t devpts -o newinstance,ptmxmode=0666 devpts /dev/pts"
    " && mount --bind /dev/pts/ptmx /dev/ptmx && exec \"$@\"", "sh",
)


def run_tracer(
    tracer: str, args: Sequence[str], cmd: Sequence[str], *, isolate: Sequence[str] = (), **kw: Any
) -> subprocess.CompletedProcess[bytes]:
    """Run ``tracer ARGS CMD`` to completion and capture its output (bytes: tracees write raw bytes).

    Keyword arguments go to subprocess.run; stdin is /dev/null, the
    environment is ``tracer_env()`` and there is always a timeout, unless the
    caller overrides them.  ``isolate`` (e.g. PRIVATE_IPC) is put in front of the
    tracer itself, so the tracer and the tracee share the namespaces it creates and
    the tracer's own start-up is not traced.
    """
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("capture_output", True)
    kw.setdefault("env", tracer_env())
    kw.setdefault("timeout", RUN_TIMEOUT)
    return subprocess.run([*isolate, *tracer_command(tracer), *args, *cmd], check=False, **kw)


def build_m32(source: Path, target: Path, *flags: str) -> Path:
    """Compile ``source`` as an i386 program (``gcc -m32 -O0 FLAGS``); a failure is a test failure, never a skip."""
    res = subprocess.run(["gcc", "-m32", "-O0", "-o", str(target), str(source), *flags],
                         capture_output=True, text=True, timeout=120, check=False)
    if res.returncode:
        import pytest

        pytest.fail(f"gcc -m32 {' '.join(flags)} failed (gcc-multilib is a declared test dependency): {res.stderr}")
    return target


def decode(data: bytes) -> str:
    """Text for comparison and diffs; stray non-UTF-8 bytes stay visible instead of raising."""
    return data.decode("utf-8", errors="backslashreplace")


def shell_status(returncode: int) -> int:
    """The status a shell would report as ``$?`` (128+N when the process died by signal N)."""
    return 128 - returncode if returncode < 0 else returncode


# --------------------------------------------------------------------------------------------
# Normalisation
# --------------------------------------------------------------------------------------------

# Renumbered values: (token, patterns whose group "v" is the varying value).
_RENUMBERED: list[tuple[str, list[re.Pattern[str]]]] = [
    (
        "PID",
        [
            # "-f -o" line prefix (its padding is checked separately below).
            re.compile(r"^(?P<v>\d+) ", re.M),
            # "[pid 12345]" prefix of the stderr output with several processes.
            re.compile(r"\[pid (?P<v>\d+)\]"),
            # Return values that are pids/tids (getppid: the tracer, a different process per tracer).
            re.compile(
                r"\b(?:clone3?|v?fork|wait4|getp?pid|gettid|set_tid_address)(?:\(| resumed>).*\) += (?P<v>\d+)(?=(?:<[^<>]*>)?(?: <[\d.]+>)?$)",
                re.M,
            ),
            # Arguments that name a process or thread.
            re.compile(r"\b(?:kill|tkill|tgkill|wait4|pidfd_open|rt_sigqueueinfo|rt_tgsigqueueinfo)\((?P<v>\d+)"),
            re.compile(r"\bprlimit64\((?P<v>[1-9]\d*)"),
            re.compile(r"\bptrace\(PTRACE_\w+, (?P<v>[1-9]\d*)"),
            re.compile(r"\bwaitid\(P_PID, (?P<v>\d+)"),
            re.compile(r"\b(?:tgkill|rt_tgsigqueueinfo)\(\d+, (?P<v>\d+)"),
            # siginfo sender, clone3's returned parent_tid.
            re.compile(r"\bsi_pid=(?P<v>\d+)"),
            re.compile(r"\bparent_tid=\[(?P<v>\d+)(?=[\]<])"),  # "<comm>" with -Y
            # -yy: a netlink socket's port id is its process's pid; a pidfd's pid.
            re.compile(r"\bNETLINK:\[\w+:(?P<v>\d+)\]"),
            re.compile(r"<pid:(?P<v>\d+)"),
            # -Y line prefixes: "1234<comm> " (-f -o), "[pid  1234<comm>] " (stderr).
            re.compile(r"^(?P<v>\d+)<", re.M),
            re.compile(r"\[pid +(?P<v>\d+)<"),
            # A non-leader thread's execve: the thread's old tid, and the pid its open line moves to.
            re.compile(r"\bsuperseded by execve in pid (?P<v>\d+)"),
            re.compile(r"<pid changed to (?P<v>\d+) \.\.\.>"),
            # Tracer messages on stderr.
            re.compile(r"\bProcess (?P<v>\d+) (?:attached|detached)"),
            re.compile(r"\bPTRACE_SEIZE, (?P<v>\d+)\)"),
            # "-ff" per-process file names (headers written by combine_ff_files).
            re.compile(r"^### .*\.(?P<v>\d+)$", re.M),
        ],
    ),
    # ASLR moves every heap/stack/mmap address; 5+ hex digits (>= 0x10000 = mmap_min_addr)
    # covers all of them while flag-like values (0x1, 0x8002, 0x3039) stay verbatim.
    ("ADDR", [re.compile(r"\b(?P<v>0x[0-9a-f]{5,})\b")]),
    # Inode numbers of freshly created files, sockets and pipes differ on every run.
    (
        "INODE",
        [
            re.compile(r"\b(?:st_ino|stx_ino|d_ino)=(?P<v>\d+)"),
            re.compile(r"\b(?:socket|pipe):\[(?P<v>\d+)\]"),
            # -yy socket details: "UNIX-STREAM:[SELF->PEER,...]", "TCP:[SELF]" when not connected yet.
            re.compile(r"\b[A-Z][A-Z0-9/-]*(?:v6)?:\[(?P<v>\d+)(?=[\],]|->)"),
            re.compile(r"\b[A-Z][A-Z0-9/-]*:\[\d+->(?P<v>\d+)"),
        ],
    ),
]


def renumber(text: str, token: str, patterns: Sequence[re.Pattern[str]], only: Container[str] | None = None) -> str:
    """Replace each distinct value matched by ``patterns`` (group "v") with TOKEN<n>, numbered by first
    appearance; with ``only``, just the values in it (the others stay as printed)."""
    spans = sorted({m.span("v") for pattern in patterns for m in pattern.finditer(text)
                    if only is None or m.group("v") in only})
    names: dict[str, str] = {}
    out: list[str] = []
    pos = 0
    for start, end in spans:
        if start < pos:  # the same value matched by two patterns
            continue
        value = text[start:end]
        out += [text[pos:start], names.setdefault(value, f"{token}{len(names) + 1}")]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _check_pid_padding(digits: str, spaces: str) -> str:
    """strace pads pids to 5 columns ("%-5d ", "[pid %5u]"); collapse correct padding, flag too little.

    The number of digits of a pid changes from run to run, so the padding
    cannot be compared verbatim, but whether it is right can.  Spaces beyond
    the padding belong to what follows (-r right-aligns its timestamp) and are
    kept, so too much padding still shows up as a difference.
    """
    expected = 1 + max(0, 5 - len(digits))
    if len(spaces) < expected:
        return f" <bad pid padding {len(spaces)}> "
    return " " + spaces[expected:]


def _digits_to_n(match: re.Match[str]) -> str:
    """Blank the digits of a clock value (group "t" if present) but keep its shape: widths, separators."""
    group = "t" if "t" in match.re.groupindex else 0
    start, end = match.start(group) - match.start(), match.end(group) - match.start()
    whole = match[0]
    return whole[:start] + re.sub(r"\d", "N", whole[start:end]) + whole[end:]


def _hex_bytes_to_n(match: re.Match[str]) -> str:
    """Blank random bytes but keep how many were printed and how."""
    return re.sub(r"\\x[0-9a-f]{2}", r"\\xNN", match[0])


_BLANKED: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # "strace: ..." / "pytrace: ..." message prefix: the only place the tracer's own name shows.
    (re.compile(r"^(?:strace|pytrace): ", re.M), "TRACER: "),
    # -t/-tt/-ttt/-r timestamps at the start of a line (after the pid prefix, if any).
    (re.compile(r"^(?:PID\d+ )?(?P<t> *\d+\.\d{6}|\d\d:\d\d:\d\d(?:\.\d{6})?)(?= )", re.M), _digits_to_n),
    # -T time spent in the syscall.
    (re.compile(r"<\d+\.\d{6}>$", re.M), _digits_to_n),
    # CPU time of a dead child in SIGCHLD's siginfo, and the seconds comment a non-zero value gets
    # (whether it appears depends on the value; test_real_programs checks the comment's text).
    (re.compile(r"\b(si_[us]time=)\d+(?: /\* \d+\.\d+ s \*/)?"), r"\1N"),
    # The clock value clock_gettime returns.
    (re.compile(r"\b(clock_gettime\(\w+, \{tv_sec=)\d+(, tv_nsec=)\d+"), r"\1N\2N"),
    # File timestamps shown by -v (files are created during the run; atimes move).
    (re.compile(r"\b(st_[amc]time(?:_nsec)?=)\d+"), r"\1N"),
    (re.compile(r"\b(stx_[abcm]time=\{tv_sec=)-?\d+(, tv_nsec=)\d+"), r"\1N\2N"),
    (re.compile(r"/\* \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d{4} \*/"), "/* DATE */"),
    # getrandom's output buffer.
    (re.compile(r"\bgetrandom\(\"(?:[^\"\\]|\\.)*\""), _hex_bytes_to_n),
]


def _check_alignment(match: re.Match[str], column: int) -> str:
    """Collapse the padding before " = " if it is what strace prints for ``-a column``, else flag it.

    strace pads the return value to a column (40, or -a N), so the padding
    depends on the width of everything before it, including pids, whose
    number of digits varies between runs.  Checked here on the raw line and
    then collapsed, the alignment is still verified but no longer flaky.
    """
    before, spaces, result = match[1], match[2], match[3]
    if len(spaces) == max(1, column - len(before)):
        return f"{before} {result}"
    return f"{before} <bad alignment {len(spaces)}> {result}"


def normalise(text: str, align_column: int | None = 40) -> str:
    """Replace only what differs between two runs of the same deterministic program; see module doc.

    ``align_column`` is strace's -a value; None when the alignment cannot be
    checked (merged lines of a multi-process trace, see group_by_process).
    """
    # Layout checks first, while the real values are still there to measure.
    if align_column is not None:
        text = re.sub(r"^(.*\))( +)(= .*)$", lambda m: _check_alignment(m, align_column), text, flags=re.M)
    text = re.sub(r"^(\d+)( +)", lambda m: m[1] + _check_pid_padding(m[1], m[2]), text, flags=re.M)
    text = re.sub(r"\[pid( +)(\d+)\]", lambda m: f"[pid{_check_pid_padding(m[2], m[1])}{m[2]}]", text)
    for token, patterns in _RENUMBERED:
        text = renumber(text, token, patterns)
    for pattern, replacement in _BLANKED:
        text = pattern.sub(replacement, text)
    return text


# --------------------------------------------------------------------------------------------
# Traces of several processes
# --------------------------------------------------------------------------------------------

_UNFINISHED = " <unfinished ...>"
_RESUMED = re.compile(r"(?:<[^<>]*> )?(?: *[\d:.]+ )?<\.\.\. (\w+) resumed>(.*)")  # optionally after a -t/-r timestamp
_SPAWN = re.compile(r"\b(?:clone3?|v?fork)\(.*\) += (\d+)(?:<[^<>]*>)?(?: <[\d.]+>)?$")
_PREFIXED = re.compile(r"(\d+ +|\d+(?=<))(.*)")  # -Y: "1234<comm> body", the name kept with the body


def _merge_unfinished(bodies: list[str]) -> list[str]:
    """Join "NAME(args <unfinished ...>" with its "<... NAME resumed>rest" line.

    Whether a syscall line is split depends only on whether another process
    printed in between, i.e. on scheduling.  Joined, and with the alignment
    spaces before " = " collapsed (they depend on the split too), every line
    has one form.  A resumed line that does not continue the pending call is
    left alone, so a malformed split still shows as a difference.
    """
    merged: list[str] = []
    for body in bodies:
        resumed = _RESUMED.fullmatch(body)
        if resumed and merged and merged[-1].endswith(_UNFINISHED):
            pending = merged[-1]
            call = re.match(r"(?:\S+ )*?(\w+)\(", pending)
            if call and call[1] == resumed[1]:
                merged[-1] = pending[: -len(_UNFINISHED)] + resumed[2]
                continue
        merged.append(body)
    return [re.sub(r"^(.*\)) +(= .*)$", r"\1 \2", body) for body in merged]


def _process_order(streams: Mapping[int, list[str]], roots: list[int]) -> list[int]:
    """Processes in creation order: each root, then the children each one spawned, in the order spawned.

    Pids are reused (pid_max is small on some machines), so their numeric
    order says nothing; the order of the clone/fork return values does.
    """
    order: list[int] = []
    queue = list(roots)
    while queue:
        pid = queue.pop(0)
        if pid in order or pid not in streams:
            continue
        order.append(pid)
        queue += [int(m[1]) for line in streams[pid] if (m := _SPAWN.search(line))]
    return order + [pid for pid in streams if pid not in order]


_NUMBER_TOKEN = re.compile(r"\b(0x[0-9a-f]+|\d+)\b")


def pair_tracee_pids(ref: str, got: str, ref_pids: Sequence[str], got_pids: Sequence[str]) -> tuple[str, str]:
    """Both traces with their tracees' pids replaced by TRACEE<n>, where they stand in the same place.

    Each run has its own pids, printed in places no pattern lists (kcmp's arguments, shm_cpid, -X raw
    hex words).  Replacing a pid's digits anywhere in one text also replaces a size or flag word that
    happens to equal it (read's 4096 when the tracee's pid was 4096: in a fresh CI container pids are
    small), in that text only.  So the two texts are walked number by number, and a number becomes
    TRACEE<n> only where one text has its n-th pid and the other text has its own n-th pid.  Numbers
    equal in both stay, pid or not; texts that do not line up are returned unchanged (they differ anyway).
    """
    ref_parts, got_parts = _NUMBER_TOKEN.split(ref), _NUMBER_TOKEN.split(got)
    if len(ref_parts) != len(got_parts):
        return ref, got

    def forms(pids: Sequence[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for n, pid in enumerate(pids):
            out.setdefault(pid, n)
            out.setdefault(f"{int(pid):#x}", n)
        return out

    ref_forms, got_forms = forms(ref_pids), forms(got_pids)
    for i in range(1, len(ref_parts), 2):  # odd indices are the numbers
        a, b = ref_parts[i], got_parts[i]
        if a != b and a in ref_forms and ref_forms[a] == got_forms.get(b):
            ref_parts[i] = got_parts[i] = f"TRACEE{ref_forms[a]}"
    return "".join(ref_parts), "".join(got_parts)


_KEY_SERIAL = re.compile(r"\b[1-9]\d{6,9}\b")


def renumber_key_serials(text: str) -> str:
    """Key and keyring serials (random per run, like pids) on keyctl/add_key/request_key lines become
    SERIALn by first appearance; the column is then re-closed.

    A serial is random (31 bits): the calls' results of 4+ digits, and any 7-10 digit number
    (a serial seen only as an argument).  Results count whatever their length: a 6-digit serial
    (335326) once stayed verbatim in one trace only."""
    key_lines = ("keyctl(", "add_key(", "request_key(")
    found = {m.group(1) for line in text.splitlines() if line.startswith(key_lines)
             for m in [re.search(r"\) += ([1-9]\d{3,9})$", line)] if m}
    serial = re.compile(r"\b(?:" + "|".join(sorted(found, key=len, reverse=True)) + r"|[1-9]\d{6,9})\b") if found \
        else _KEY_SERIAL
    seen: dict[str, str] = {}
    lines = []
    for line in text.splitlines():
        if line.startswith(key_lines):
            line = serial.sub(lambda m: seen.setdefault(m.group(0), f"SERIAL{len(seen) + 1}"), line)
            line = re.sub(r"\)( +)= ", ") = ", line)
        lines.append(line)
    return "\n".join(lines)


def group_by_process(text: str) -> str:
    """Canonical form of a shared ``-f -o`` trace: each process's lines together, processes in creation order.

    The interleaving of processes in one file is up to the scheduler, as is
    whether a call is split into unfinished/resumed halves; each process's own
    sequence of lines is deterministic, and that is what gets compared.
    Line prefixes are kept as printed so their padding is still checked.
    """
    prefixes: dict[int, str] = {}
    bodies: dict[int, list[str]] = {}
    stray: list[str] = []
    for line in text.splitlines():
        m = _PREFIXED.fullmatch(line)
        if m is None:
            stray.append(line)
            continue
        pid = int(m[1])
        prefixes.setdefault(pid, m[1])
        bodies.setdefault(pid, []).append(m[2])
    streams = {pid: _merge_unfinished(lines) for pid, lines in bodies.items()}
    spawned = {int(m[1]) for lines in streams.values() for line in lines if (m := _SPAWN.search(line))}
    roots = [pid for pid in streams if pid not in spawned]
    lines = [prefixes[pid] + body for pid in _process_order(streams, roots) for body in streams[pid]]
    return "".join(f"{line}\n" for line in [*lines, *stray])


def combine_ff_files(directory: Path, stem: str) -> str:
    """All ``-ff -o DIR/STEM`` files (STEM.PID) as one text, in process creation order, each under a header."""
    streams: dict[int, list[str]] = {}
    for path in directory.glob(f"{stem}.*"):
        suffix = path.name[len(stem) + 1 :]
        if suffix.isdigit():
            streams[int(suffix)] = decode(path.read_bytes()).splitlines()
    spawned = {int(m[1]) for lines in streams.values() for line in lines if (m := _SPAWN.search(line))}
    roots = sorted(pid for pid in streams if pid not in spawned)
    out: list[str] = []
    for pid in _process_order(streams, roots):
        out.append(f"### {stem}.{pid}")
        out += streams[pid]
    return "".join(f"{line}\n" for line in out)


# --------------------------------------------------------------------------------------------
# Ports
# --------------------------------------------------------------------------------------------


def free_port_block(count: int = 4, exclude: frozenset[int] | set[int] = frozenset()) -> int:
    """A base port such that BASE..BASE+count-1 are free for TCP and UDP, on 127.0.0.1 and ::1.

    The sockets program uses fixed ports so both tracers see the same
    addresses.  Each xdist worker searches its own range below the ephemeral
    range, so two workers never pick the same block and no ephemeral port
    collides with it; within a worker the tests run one at a time.  A test
    that runs several programs at once takes their blocks up front, each
    excluding the ports of those before it (``exclude``): a block is only
    free until its program binds it.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    low = 20000 + (index % 12) * 1000
    for base in range(low, low + 1000 - count, count):
        if all(port not in exclude and _port_free(port) for port in range(base, base + count)):
            return base
    raise RuntimeError(f"no free block of {count} ports in {low}..{low + 999}")


def _port_free(port: int) -> bool:
    """Whether ``port`` can be bound for TCP and UDP on both loopback addresses."""
    for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):
            with socket.socket(family, kind) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                try:
                    probe.bind((host, port))
                except OSError:
                    return False
    return True


# --------------------------------------------------------------------------------------------
# Long-running processes (system tests)
# --------------------------------------------------------------------------------------------


def start_tracer(tracer: str, args: Sequence[str], cmd: Sequence[str], **kw: Any) -> subprocess.Popen[bytes]:
    """Start ``tracer ARGS CMD`` in the background with the same environment and pipes as run_tracer."""
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    kw.setdefault("env", tracer_env())
    return subprocess.Popen([*tracer_command(tracer), *args, *cmd], **kw)


def read_line(stream: IO[bytes] | None, timeout: float) -> bytes:
    """One line from a child's stdout, or a test failure after ``timeout`` s instead of a hung suite.

    A line already in the stream's buffer is returned first: a previous ``readline`` may have read
    two lines from the pipe at once (a child that wrote them together), and ``select`` on the
    descriptor would then wait for data that has already come (a 30 s "no output" on a busy host).
    """
    assert stream is not None
    peek = getattr(stream, "peek", None)
    if peek is not None:
        fd = stream.fileno()
        os.set_blocking(fd, False)
        try:
            buffered = peek(1) or b""  # what is buffered, or one read that cannot block
        except BlockingIOError:
            buffered = b""
        finally:
            os.set_blocking(fd, True)
        if b"\n" in buffered:
            return stream.readline()
    ready, _, _ = select.select([stream], [], [], timeout)
    if not ready:
        raise AssertionError(f"no output within {timeout} s")
    return stream.readline()


def wait_until(predicate: Callable[[], bool], timeout: float, interval: float = 0.02) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` s pass; the final verdict is returned, not raised."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


def proc_state(pid: int) -> str | None:
    """The state letter from /proc/PID/stat (R, S, T stopped, t tracing stop, Z...), None once reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def proc_status_field(pid: int, field: str) -> str | None:
    """A field of /proc/PID/status (e.g. TracerPid, voluntary_ctxt_switches); None if the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key == field:
                return value.strip()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return None


def thread_ids(pid: int) -> list[int]:
    """All thread ids of process ``pid``."""
    return sorted(int(tid) for tid in os.listdir(f"/proc/{pid}/task"))


def stop_process(proc: subprocess.Popen[bytes] | None) -> None:
    """Kill one process this test started (by its pid) and reap it; a no-op if it has already exited."""
    if proc is None or proc.poll() is not None:
        return
    proc.kill()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def trace_schema_validator() -> Any:
    """One Draft 2020-12 validator of pytrace's record schema for the whole session.

    ``jsonschema.validate`` re-checks the schema and builds a validator on every call
    (~55 ms per record); the tests validate thousands of records.
    """
    return _trace_schema_validator()


@functools.cache
def _trace_schema_validator() -> Any:
    import jsonschema

    from pytrace.structured.schema import load_schema

    return jsonschema.Draft202012Validator(load_schema())


@contextlib.contextmanager
def host_wide_lock(name: str) -> Iterator[None]:
    """Hold an exclusive lock shared by every test process on this host (pytest-xdist workers too).

    For programs that use a host-wide resource whose state shows in the trace: e.g. record locks
    on /dev/null (one inode for everyone), where F_GETLK would report another run's lock.
    """
    import fcntl

    with open(f"/tmp/pytrace-tests-{name}.lock", "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def without_section(md: str, heading: str) -> str:
    """A benchmark results file (latest.md) without the section under ``heading``: what a run that
    rewrites only that table (run.py --memory, --startup) must leave exactly as it was."""
    if heading not in md:
        return md
    head, tail = md.split(heading, 1)
    rest = tail.split("\n## ", 1)
    return head.rstrip("\n") + ("\n\n## " + rest[1] if len(rest) > 1 else "\n")
