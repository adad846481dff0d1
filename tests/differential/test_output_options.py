"""Output options of the text sink (issue #3) against real strace: the same command, the same flags.

Covered: absolute timestamps (-t/-tt/-ttt and every ``--absolute-timestamps`` format and
precision), relative ones (-r, ``--relative-timestamps=P``), syscall durations (-T,
``--syscall-times=P``), the syscall number (-n) and instruction pointer (-i) prefixes, all of
them together and under -f / -ff (prefix order, ``<unfinished ...>`` / ``<... resumed>``
lines), the status filters (-z, -Z, ``-e status=``, including strace 6.1's staged-line quirk)
and the ``-e read=`` / ``-e write=`` hex dumps; plus the option errors, worded as strace's.

Besides ``helpers.normalise`` (addresses, pids, inodes), only what differs between two runs of
the same program is masked, keeping its shape: the clock digits of timestamps and durations
(every precision: widths and separators stay) and instruction pointers (ASLR), which are
renumbered IP1, IP2... by first appearance and padded to their printed width, so the same call
site must still show the same IP and the alignment column is still checked.
"""

from __future__ import annotations

import difflib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import build_m32, combine_ff_files, decode, normalise, run_tracer, tracer_name


@dataclass(frozen=True)
class Case:
    """``output``: "file" (-o FILE), "ff" (-ff -o STEM) or "stderr"; ``command`` items use {program} names."""

    id: str
    options: tuple[str, ...]
    command: tuple[str, ...]
    output: str = "file"


def case(case_id: str, options: str, *command: str, **kw: Any) -> Case:
    return Case(case_id, tuple(options.split()), command, **kw)


CASES = [
    # ---- absolute and relative timestamps, durations: every format and precision --------------
    case("ts-unix-ms", "--timestamps=unix,ms", "{exitcode}", "0"),
    case("ts-time-ns", "--absolute-timestamps=format:time,precision:ns", "{exitcode}", "0"),
    case("ts-precision-s-uppercase", "--absolute-timestamps=PRECISION:S", "{exitcode}", "0"),
    case("ts-tttt-is-ttt", "-tttt", "{exitcode}", "0"),
    case("ts-ttt-r", "-ttt -r", "{exitcode}", "0"),
    case("r-ms-T-ns", "--relative-timestamps=ms --syscall-times=ns", "{exitcode}", "0"),
    case("r-s-T-s", "--relative-timestamps=s --syscall-times=s", "{exitcode}", "0"),
    case("T-signals", "-T", "{signals}"),
    # ---- -n / -i: syscall lines, signal lines, +++ lines --------------------------------------
    case("n-i-signals", "-n -i", "{signals}"),
    case("n-i-killed-segv", "-n -i -r", "{killed}", "segv"),
    case("n-i-stderr", "-n -i -tt", "{signals}", output="stderr"),
    case("all-prefixes", "-ttt -r -n -i -T", "echo", "hi"),
    # ---- prefixes under -f: order pid/time/-r/-n/-i and the unfinished/resumed lines -----------
    case("f-prefixes-file", "-f -tt -r -n -i -T -e trace=waitid,exit_group", "{blocking}", "wait"),
    case("f-prefixes-stderr", "-f -tt -r -n -i -T -e trace=waitid,exit_group", "{blocking}", "wait",
         output="stderr"),
    case("ff-prefixes", "-ff -n -i -tt -T", "{forker}", output="ff"),
    case("killed-in-read", "-n -i -e trace=read", "{blocking}", "killread"),
    # ---- -z / -Z / -e status= -------------------------------------------------------------------
    case("z-fileops", "-z", "{fileops}", "{dir}"),
    case("Z-fileops", "-Z -T -n", "{fileops}", "{dir}"),
    case("status-failed-unfinished", "-e status=failed,unfinished", "{fileops}", "{dir}"),
    case("status-not-successful-killed", "-e status=!successful -e trace=read", "{blocking}", "killread"),
    case("status-unfinished-only", "-e status=unfinished", "{killed}", "term"),
    case("z-signals-stderr", "-z -i", "{signals}", output="stderr"),
    case("z-Z-last-wins", "-z -Z", "{fileops}", "{dir}"),
    case("ff-z", "-ff -z", "{forker}", output="ff"),
    # strace 6.1 writes " <unfinished ...>" into a staged line that a direct line interrupts.
    case("z-staged-quirk-file", "-f -z -e trace=waitid", "{blocking}", "wait"),
    case("z-staged-quirk-stderr", "-f -z -e trace=waitid", "{blocking}", "wait", output="stderr"),
    case("status-unfinished-f", "-f -e status=unfinished -e trace=waitid,exit_group", "{blocking}", "wait"),
    # ---- -e read= / -e write= -------------------------------------------------------------------
    case("dump-all", "-e read=all -e write=all", "{iodump}"),
    case("dump-some-fds", "-e read=3,6 -e write=!4", "{iodump}"),
    case("dump-last-qualifier-wins", "-e write=4 -e write=5 -e read=none", "{iodump}"),
    case("dump-with-z-T-n", "-e read=all -e write=all -z -T -n", "{iodump}"),
    case("dump-stderr", "-e r=3 -e w=4 -e trace=read,write,writev,readv", "{iodump}", output="stderr"),
]

_CLOCKS = ("-t", "-r", "-T", "--timestamps", "--absolute-timestamps", "--relative-timestamps",
           "--syscall-times")

# An IP right after the line's other prefixes (pid, times, -n), 16 or 8 hex digits.
_IP = re.compile(r"^((?:\d+ +|\[pid +\d+\] )?[\d:. ()+]*(?:\[ *\d+\] )?)\[([0-9a-f]{16}|[0-9a-f]{8})\] ", re.M)


def _mask_ips(text: str) -> str:
    """Renumber instruction pointers by first appearance, keeping the printed width."""
    names: dict[str, str] = {}

    def repl(m: re.Match[str]) -> str:
        name = names.setdefault(m[2], f"IP{len(names) + 1}")
        return f"{m[1]}[{name.ljust(len(m[2]), '_')}] "

    return _IP.sub(repl, text)


def _mask_timestamps(text: str, pid_prefix: bool) -> str:
    """Clock digits -> N in the timestamps leading a line (after the pid prefix); widths stay."""
    lead = r"\d+ +" if pid_prefix else r"(?:\[pid +\d+\] )?"
    return re.sub(rf"^({lead})([\d:. ()+]+)", lambda m: m[1] + re.sub(r"\d", "N", m[2]), text, flags=re.M)


def _mask_durations(text: str) -> str:
    """Clock digits -> N in -T's `` <...>`` (after normalise, whose pid rules look for it)."""
    return re.sub(r" <\d+(?:\.\d+)?>$", lambda m: re.sub(r"\d", "N", m[0]), text, flags=re.M)


def _prepare(text: str, c: Case) -> str:
    text = _mask_ips(text)
    text = re.sub(r"^(.*\[ Process PID=)\d+ ", r"\1PID ", text, flags=re.M)  # the i386 notice
    clocks = any(opt.startswith(_CLOCKS) for opt in c.options)
    if clocks:
        text = _mask_timestamps(text, pid_prefix=c.output == "file" and "-f" in c.options)
    text = normalise(text)
    return _mask_durations(text) if clocks else text


def _run(tracer: str, c: Case, programs: dict[str, Path], tmp_path: Path) -> tuple[str, str, str, int]:
    """(trace, tracer stderr, tracee stdout, exit status), run in a fresh tmp_path/work."""
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out = tmp_path / f"out-{tracer}"
    out.mkdir(parents=True)
    values = {name: str(path) for name, path in programs.items()}
    command = [item.format(**values, dir=work / "d") for item in c.command]
    options = list(c.options)
    if c.output != "stderr":
        options += ["-o", str(out / "trace")]
    try:
        result = run_tracer(tracer, options, command, cwd=work)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out after {exc.timeout} s: {exc.cmd}")
    stderr = decode(result.stderr)
    if c.output == "file":
        path = out / "trace"
        trace = decode(path.read_bytes()) if path.exists() else f"<{tracer} wrote no trace file>\n"
    elif c.output == "ff":
        trace = combine_ff_files(out, "trace")
        stderr = "".join(sorted(stderr.splitlines(keepends=True)))
    else:
        trace, stderr = stderr, ""
    stdout = "".join(sorted(decode(result.stdout).splitlines(keepends=True)))
    return _prepare(trace, c), normalise(stderr), stdout, result.returncode


def _compare(expected: tuple[str, str, str, int], actual: tuple[str, str, str, int]) -> list[str]:
    problems = []
    for what, want, got in zip(("trace", "stderr", "stdout"), expected, actual, strict=False):
        if want != got:
            diff = difflib.unified_diff(want.splitlines(keepends=True), got.splitlines(keepends=True),
                                        fromfile=f"strace {what}", tofile=f"pytrace {what}")
            problems.append("".join(diff) or f"{what} differs (whitespace only?)")
    if expected[3] != actual[3]:
        problems.append(f"exit status: strace {expected[3]}, pytrace {actual[3]}")
    return problems


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_output_option(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's trace, stderr, tracee stdout and exit status equal strace's with these options."""
    problems = _compare(_run("strace", c, programs, tmp_path), _run("pytrace", c, programs, tmp_path))
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# ---- a 32-bit tracee: 8-digit IPs, the personality line's prefix --------------------------------

M32_SOURCE = r"""
#include <signal.h>
#include <unistd.h>
int main(void) { write(1, "hi\n", 3); raise(SIGUSR1); return 0; }
"""


@pytest.mark.differential
def test_i386_prefixes(tmp_path: Path) -> None:
    """-n/-i on an i386 tracee: 8 hex digits, ``[????????]`` when it is gone; the personality line too."""
    src = tmp_path / "m32.c"
    src.write_text(M32_SOURCE)
    build_m32(src, tmp_path / "m32", "-static")
    c = case("i386", "-n -i -e trace=execve,write", str(tmp_path / "m32"), output="stderr")
    results = [_run(tracer, c, {}, tmp_path / tracer) for tracer in ("strace", "pytrace")]
    problems = _compare(*results)
    assert "[????????] +++ killed by SIGUSR1 +++" in results[1][0]
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


# ---- option errors: the same words and exit status as strace -----------------------------------

BAD_OPTIONS = [
    "--timestamps=bogus",
    "--absolute-timestamps=format:ms",
    "--abs=ms,bogus",
    "-t --timestamps",
    "--timestamps=unix -ttt",
    "--relative-timestamps=",
    "--relative-timestamps=minutes",
    "--syscall-times=",
    "--syscall-times=xs",
    "-e status=foo",
    "-e status=",
    "-e status=successful,all",
    "-e read=abc",
    "-e write=-1",
    "-e write=2147483648",
    "-e w=1,x",
]


@pytest.mark.differential
@pytest.mark.parametrize("options", BAD_OPTIONS)
def test_bad_option_values(options: str) -> None:
    """Rejected before anything is traced, with strace's message (and usage hint where it gives one)."""
    runs = [run_tracer(tracer, [*options.split(), "-e", "trace=none"], ["true"]) for tracer in ("strace", "pytrace")]
    messages = [decode(r.stderr).replace(tracer_name(t), "TRACER") for r, t in zip(runs, ("strace", "pytrace"), strict=True)]
    assert messages[1] == messages[0]
    assert runs[1].returncode == runs[0].returncode == 1


@pytest.mark.differential
@pytest.mark.parametrize("options", ["-z -Z", "-Z -z -z", "--successful-only --failing-only"])
def test_zflags_warning(options: str) -> None:
    """More than one -z/-Z: strace's warning, then tracing with the last one."""
    runs = [run_tracer(tracer, [*options.split(), "-e", "trace=none"], ["true"]) for tracer in ("strace", "pytrace")]
    messages = [decode(r.stderr).replace(tracer_name(t), "TRACER") for r, t in zip(runs, ("strace", "pytrace"), strict=True)]
    assert "Only the last of -z/--successful-only/-Z/--failed-only options will take effect" in messages[0]
    assert messages[1] == messages[0]
    assert runs[1].returncode == runs[0].returncode == 0


# ---- the per-stop cost rule ----------------------------------------------------------------------


def test_plain_trace_pays_nothing_for_the_options() -> None:
    """Without these options the sink keeps its plain methods: no wrapper, no per-line test is installed."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from pytrace.sinks.prefix import parse_line_options
    from pytrace.sinks.strace_text import StraceTextSink, Stream

    opts = parse_line_options(timestamps=[], relative=None, syscall_times=None, syscall_number=False,
                              instruction_pointer=False, qualifiers=[], status=[])
    assert not opts and opts.statuses is None
    stream = Stream(sys.stderr)
    sink = StraceTextSink(lambda pid: stream, line_options=opts or None)
    assert "on_entry" not in vars(sink) and "on_exit" not in vars(sink) and "_result" not in vars(sink)
    assert sink._prefix == sink._prefix_none
    timed = StraceTextSink(lambda pid: stream, line_options=parse_line_options(
        timestamps=[None], relative=None, syscall_times="us", syscall_number=True, instruction_pointer=False,
        qualifiers=[], status=[]))
    assert "on_entry" in vars(timed) and "_result" in vars(timed)
