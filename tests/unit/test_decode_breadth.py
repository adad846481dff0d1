"""Decoder breadth (issue 3): the syscalls beyond the common ones print as strace 6.1 prints them.

Each case runs one of the ``tests/programs/breadth_*.c`` programs -- every call made
through syscall(2) with valid arguments and with invalid ones (EFAULT pointers, EBADF
fds, bogus flags) -- under real strace and under pytrace with the same options, and
compares the traces after normalising what legitimately differs between two runs:
``helpers.normalise`` (addresses, pids in known places, inodes, clocks) plus the values
these programs add, each rule anchored to the field or call it is about: the tracee's
pid wherever it is an argument, System V IPC ids and key serials (the kernel hands out
new ones each run), CPU times and memory counters, timestamps the kernel fills in, file
handle bytes and free-space counters.

The programs also cover the structures the issue names: open_how, sched_param /
sched_attr, timex, statfs, itimerspec, rusage, sysinfo, utsname, clone_args, mmsghdr.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
from pathlib import Path

import pytest
from helpers import decode, group_by_process, normalise, pair_tracee_pids, run_tracer

if shutil.which("strace") is None:  # the oracle is a declared test dependency: fail, never skip
    pytest.fail("strace (the oracle) is required for the breadth tests", pytrace=False)

#: program -> (extra options, whether its argv[1] is a scratch directory, multi-process)
PROGRAMS = {
    "breadth_fs": ((), "dir", False),
    "breadth_proc": ((), None, False),
    "breadth_ipc": ((), "mq", False),
    "breadth_io": ((), "dir", False),
    "breadth_misc": ((), None, False),
    "breadth_structs": (("-f",), None, True),
}

_RULES: list[tuple[re.Pattern[str], str]] = [
    # CPU times and memory/load counters that move between runs.
    (re.compile(r"\b(ru_[us]time=\{tv_sec=)\d+(, tv_usec=)\d+"), r"\1N\2N"),
    (re.compile(r"\b(ru_(?:maxrss|minflt|majflt|inblock|oublock|nvcsw|nivcsw))=\d+"), r"\1=N"),
    (re.compile(r"\b(uptime|freeram|sharedram|bufferram|procs|freeswap|freehigh)=\d+"), r"\1=N"),
    (re.compile(r"\bloads=\[\d+, \d+, \d+\]"), "loads=[N, N, N]"),
    # Kernel timestamps: the clock read by adjtimex, IPC times, free space of the scratch fs.
    (re.compile(r"\btime=\{tv_sec=\d+, tv_usec=\d+\}"), "time={tv_sec=N, tv_usec=N}"),
    (re.compile(r"\b(shm_[acd]time|msg_[src]time)=\d+"), r"\1=N"),
    (re.compile(r"\b(f_bfree|f_bavail|f_ffree)=\d+"), r"\1=N"),
    # File handles encode inode generation numbers.
    (re.compile(r'\bf_handle="[^"]*"'), 'f_handle="..."'),
    # Key serials are random.
    (re.compile(r"^((?:add_key|keyctl)\(.*\) = )\d+$", re.M), r"\1SERIAL"),
]

#: System V IPC ids, per kind (shm, sem and msg ids are separate name spaces): the calls that
#: create them (the return value) and the calls that take them (the first argument).
_IPC_KINDS = {
    "shm": (re.compile(r"\bshmget\(.*\) = (?P<v>\d+)$", re.M), re.compile(r"\b(?:shmat|shmctl)\((?P<v>\d+),")),
    "sem": (re.compile(r"\bsemget\(.*\) = (?P<v>\d+)$", re.M),
            re.compile(r"\b(?:semop|semtimedop|semctl)\((?P<v>\d+),")),
    "msg": (re.compile(r"\bmsgget\(.*\) = (?P<v>\d+)$", re.M),
            re.compile(r"\b(?:msgsnd|msgrcv|msgctl)\((?P<v>\d+),")),
}


def _tracee_pids(raw: str) -> list[str]:
    """The pids of the traced processes, taken from the calls that return them."""
    found = re.findall(r"\b(?:getpid|gettid)\(\) += (\d+)", raw)
    found += re.findall(r"\bclone3?\(.*\) += (\d+)$", raw, re.M)
    return list(dict.fromkeys(found))


def _replace_group(match: re.Match[str], token: str) -> str:
    start, end = match.span("v")
    return match[0][: start - match.start()] + token + match[0][end - match.start():]


def _canonical(raw: str, multi: bool) -> tuple[str, list[str]]:
    """The normalised text, and the tracee's pids: helpers.pair_tracee_pids renumbers them where they
    stand as an argument or field anywhere else (kcmp, process_vm_*, shm_cpid, ...)."""
    # Several processes: merge the unfinished/resumed halves first, so each call is one line.
    text = group_by_process(raw) if multi else raw
    pids = _tracee_pids(text)
    # helpers.normalise first: it checks the alignment on the real widths, then renumbers.
    text = normalise(text, align_column=None if multi else 40)
    text = re.sub(r"\) +(= )", r") \1", text)
    for kind, (create, use) in _IPC_KINDS.items():
        ids: dict[str, str] = {}
        for pattern in (create, use):
            for m in pattern.finditer(text):
                ids.setdefault(m["v"], f"{kind.upper()}ID{len(ids)}")
        for pattern in (create, use):
            text = pattern.sub(lambda m, ids=ids: _replace_group(m, ids[m["v"]]), text)
    for pattern, repl in _RULES:
        text = pattern.sub(repl, text)
    return text, pids


def _run(tracer: str, program: Path, options: tuple[str, ...], arg: str | None, tmp_path: Path,
         multi: bool) -> tuple[str, list[str]]:
    out = tmp_path / f"{tracer}.trace"
    cmd = [str(program)] + ([arg] if arg else [])
    proc = run_tracer(tracer, ["-o", str(out), *options], cmd, cwd=tmp_path)
    assert out.exists(), f"{tracer} wrote no trace: {decode(proc.stderr)}"
    return _canonical(decode(out.read_bytes()), multi)


@pytest.mark.parametrize("options", [(), ("-v",), ("-y",)], ids=["default", "v", "y"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_breadth_matches_strace(programs: dict[str, Path], tmp_path: Path, name: str,
                                options: tuple[str, ...]) -> None:
    extra, argkind, multi = PROGRAMS[name]
    if argkind == "dir":
        arg: str | None = "scratch"
    elif argkind == "mq":
        arg = f"/pytrace-breadth-{os.getpid()}-{tmp_path.name}"
    else:
        arg = None
    opts = (*extra, *options)
    ref, ref_pids = _run("strace", programs[name], opts, arg, tmp_path, multi)
    got, got_pids = _run("pytrace", programs[name], opts, arg, tmp_path, multi)
    ref, got = pair_tracee_pids(ref, got, ref_pids, got_pids)
    assert ref.count("\n") > 30, f"the oracle printed too little:\n{ref}"
    if got != ref:
        diff = "\n".join(difflib.unified_diff(ref.splitlines(), got.splitlines(), "strace", "pytrace", lineterm=""))
        pytest.fail(f"{name} {' '.join(opts)}: pytrace differs from strace\n{diff}")


def test_every_x86_64_syscall_has_a_decoder_or_a_typed_fallback() -> None:
    """Every syscall of the x86_64 table prints its arguments through a decoder or the typed
    generic printer, and the argument count -e raw= uses is strace's (the table's, or
    obsolete.PRINTARGS_NARGS for the entries tracefs has no prototype for)."""
    from pytrace.decode import DECODERS
    from pytrace.decode.obsolete import PRINTARGS_NARGS
    from pytrace.tables.syscalls import table

    unknown = [i.name for i in table("x86_64").by_nr.values()
               if i.name not in DECODERS and len(i.arg_types) == 6 and all(t == "unsigned long" for t in i.arg_types)]
    assert unknown == []
    assert set(PRINTARGS_NARGS) <= set(DECODERS)
