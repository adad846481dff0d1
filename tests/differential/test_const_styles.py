"""-X raw|abbrev|verbose and -e raw= / abbrev= / verbose=, compared with strace 6.1.

Each case traces a C program of tests/programs under strace and under pytrace with the
same options and compares the normalised traces.  The programs between them print every
kind of constant strace styles: flag sets (open, mmap, clone), single values (lseek,
fcntl, socket families), composites styled as a whole (open flags, mmap flags, file
modes, ioctl requests, QCMD) or part by part (socket types, clone flags with the exit
signal), AT_FDCWD, signal names and sigsets, siginfo codes, network-order fields
(htons, inet_addr), rlimits and aux strings that strace leaves abbreviated.

Normalisation is helpers.normalise's plus the clock read by clock_gettime (whose clock
id prints differently in these styles) and, for the breadth programs, the values their
own test normalises (IPC ids, key serials, counters).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from helpers import decode, free_port_block, group_by_process, normalise, pair_tracee_pids, run_tracer

# (id, options, program, argument kind): "dir" = a scratch directory, "port" = a free port block.
CASES = [
    ("fileops-X-raw", "-X raw", "fileops", "dir"),
    ("fileops-X-verbose", "-X verbose", "fileops", "dir"),
    ("fileops-X-abbrev", "-X abbrev", "fileops", "dir"),
    ("fileops-X-verbose-v", "-X verbose -v", "fileops", "dir"),
    ("fileops-X-raw-y", "-X raw -y", "fileops", "dir"),
    ("memory-X-raw", "-X raw", "memory", None),
    ("memory-X-verbose", "-X verbose", "memory", None),
    ("signals-X-raw", "-X raw", "signals", None),
    ("signals-X-verbose", "-X verbose", "signals", None),
    ("sockets-X-raw", "-X raw", "sockets", "port"),
    ("sockets-X-verbose", "-X verbose", "sockets", "port"),
    ("ioctls-X-verbose", "-X verbose", "ioctls", None),
    ("futexes-X-raw", "-X raw", "futexes", None),
    ("polling-X-verbose", "-X verbose", "polling", None),
    ("timeinfo-X-verbose", "-X verbose", "timeinfo", None),
    ("forker-X-verbose-f", "-X verbose -f", "forker", None),
    ("breadth_fs-X-raw", "-X raw", "breadth_fs", "dir"),
    ("breadth_fs-X-verbose", "-X verbose", "breadth_fs", "dir"),
    ("breadth_proc-X-raw", "-X raw", "breadth_proc", None),
    ("breadth_proc-X-verbose", "-X verbose", "breadth_proc", None),
    ("breadth_io-X-verbose", "-X verbose", "breadth_io", "dir"),
    ("breadth_misc-X-raw", "-X raw", "breadth_misc", None),
    # -e raw=SET: those calls' arguments as raw words, their return value in hex.
    ("fileops-raw-some", "-e raw=openat,read,fstat,newfstatat,mmap,lseek", "fileops", "dir"),
    ("fileops-raw-all-file-desc", "-e raw=all -e trace=%file,%desc,%memory", "fileops", "dir"),
    ("breadth_misc-raw-all", "-e raw=all -e trace=!set_tid_address,getpid,gettid", "breadth_misc", None),
    ("breadth_fs-raw-file", "-e raw=%file", "breadth_fs", "dir"),
    ("memory-raw-X-verbose", "-e raw=mmap,munmap -X verbose", "memory", None),
    # -e abbrev=SET: the calls outside SET are printed as with -v.
    ("fileops-abbrev-none", "-e abbrev=none", "fileops", "dir"),
    ("fileops-abbrev-execve", "-e abbrev=execve", "fileops", "dir"),
    ("fileops-abbrev-not-stat", "-e abbrev=!%stat", "fileops", "dir"),
    ("fileops-abbrev-then-v", "-e abbrev=execve -v", "fileops", "dir"),  # -v is abbrev=none; the later wins
    # -e verbose=SET: the calls outside SET print structures as addresses.
    ("fileops-verbose-none", "-e verbose=none", "fileops", "dir"),
    ("sockets-verbose-none", "-e verbose=none", "sockets", "port"),
    ("polling-verbose-none", "-e verbose=none", "polling", None),
    ("signals-verbose-not-sigaction", "-e verbose=!rt_sigaction", "signals", None),
    ("breadth_proc-verbose-none", "-e verbose=none", "breadth_proc", None),
    ("breadth_io-verbose-none-X-raw", "-e verbose=none -X raw", "breadth_io", "dir"),
]

_EXTRA: list[tuple[re.Pattern[str], str]] = [
    # clock_gettime's reading, whatever style its clock id is printed in.
    (re.compile(r"\b(clock_gettime\([^{]*\{tv_sec=)\d+(, tv_nsec=)\d+"), r"\1N\2N"),
    # Values the breadth programs' own test normalises (see tests/unit/test_decode_breadth.py).
    (re.compile(r"^((?:add_key|keyctl)\(.*\) = )(?:0x)?[0-9a-f]+$", re.M), r"\1SERIAL"),
    (re.compile(r"\btime=\{tv_sec=\d+, tv_usec=\d+\}"), "time={tv_sec=N, tv_usec=N}"),
    (re.compile(r"\b(f_bfree|f_bavail|f_ffree)=\d+"), r"\1=N"),
    (re.compile(r'\bf_handle="[^"]*"'), 'f_handle="..."'),
    (re.compile(r"\b(sysinfo|getrusage)\(\{[^)]*"), r"\1({...}"),
]


def _pids(raw: str) -> list[str]:
    """The tracee's pids in decimal and in hex (raw style), from the calls that return them."""
    found = re.findall(r"\b(?:getpid|gettid)\(\) += (\d+)", raw)
    found += [str(int(h, 16)) for h in re.findall(r"\b(?:getpid|gettid)\(\) += 0x([0-9a-f]+)", raw)]
    return list(dict.fromkeys(found))


def _canonical(raw: str, multi: bool) -> tuple[str, list[str]]:
    """The normalised text, and the tracee's pids (for helpers.pair_tracee_pids)."""
    text = group_by_process(raw) if multi else raw
    pids = _pids(text)
    text = normalise(text, align_column=None if multi else 40)
    text = re.sub(r"\) +(= )", r") \1", text)
    for pattern, repl in _EXTRA:
        text = pattern.sub(repl, text)
    return text, pids


def _trace(tracer: str, options: list[str], cmd: list[str], tmp_path: Path,
           multi: bool) -> tuple[str, list[str]]:
    out = tmp_path / f"{tracer}.trace"
    proc = run_tracer(tracer, ["-o", str(out), *options], cmd, cwd=tmp_path)
    assert out.exists(), f"{tracer} wrote no trace: {decode(proc.stderr)}"
    return _canonical(decode(out.read_bytes()), multi)


@pytest.mark.differential
@pytest.mark.parametrize(("options", "program", "argkind"), [pytest.param(o, p, a, id=i) for i, o, p, a in CASES])
def test_styles_match_strace(programs: dict[str, Path], tmp_path: Path, options: str, program: str,
                             argkind: str | None) -> None:
    cmd = [str(programs[program])]
    if argkind == "dir":
        cmd.append("scratch")
    elif argkind == "port":
        cmd.append(str(free_port_block()))
    opts = options.split()
    multi = "-f" in opts
    ref, ref_pids = _trace("strace", opts, cmd, tmp_path, multi)
    got, got_pids = _trace("pytrace", opts, cmd, tmp_path, multi)
    ref, got = pair_tracee_pids(ref, got, ref_pids, got_pids)
    assert ref.count("\n") > 20, f"the oracle printed too little:\n{ref}"
    if got != ref:
        diff = "\n".join(difflib.unified_diff(ref.splitlines(), got.splitlines(), "strace", "pytrace", lineterm=""))
        pytest.fail(f"{program} {options}: pytrace differs from strace\n{diff}")


@pytest.mark.differential
@pytest.mark.parametrize("args", [
    ["-X", "foo"],
    ["--const-print-style=bogus"],
    ["-e", "raw=nosuchcall"],
    ["-e", "abbrev=nosuchcall"],
    ["-e", "verbose=%nosuchclass"],
], ids=["X-foo", "const-print-style-bogus", "raw-bad", "abbrev-bad", "verbose-bad-class"])
def test_bad_style_options_are_refused_like_strace(args: list[str], tmp_path: Path) -> None:
    """Same message (with our program name) and exit status as strace, and nothing is run."""
    ref = run_tracer("strace", args, ["true"], cwd=tmp_path)
    got = run_tracer("pytrace", args, ["true"], cwd=tmp_path)
    assert ref.returncode != 0

    def text(proc: object) -> str:
        return re.sub(r"'(?:strace|pytrace) -h'", "'TRACER -h'", normalise(decode(proc.stderr)))  # type: ignore[attr-defined]

    assert (got.returncode, text(got)) == (ref.returncode, text(ref))
