"""Everyday programs traced by strace and by pytrace: regressions for the differences a sweep found.

A sweep ran both tracers over common commands (coreutils, tar/gzip, git,
gcc, python3, perl, util-linux...) with the usual flag sets and diffed the
normalised traces; every decoder difference it found has a case here, run
against real strace with the same flags, the same environment and the same
freshly prepared working directory (see ``RealCase.setup``).

Two values in these traces change from run to run in a way
``helpers.normalise`` leaves alone on purpose, and are checked rather than
compared here: clock_t values (CPU time consumed so far, printed by
print_clock_t as ``N /* S.SS s */``) and the return value of times(2) (clock
ticks since boot).  ``_clock_t_checked`` replaces each clock_t value by ``N``
only if its seconds comment is exactly what strace prints for that value in
the style of the case (none for 0 or with ``-X raw``), so a missing, wrong or
spurious comment still fails the comparison.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import decode, group_by_process, normalise, run_tracer, tracer_env
from test_vs_strace import Run, compare_runs

#: sysconf(_SC_CLK_TCK) on Linux: the unit of every clock_t the kernel reports.
CLK_TCK = 100


@dataclass(frozen=True)
class RealCase:
    """A real command, traced with ``options``, in a working directory that ``setup`` (sh) prepared."""

    id: str
    options: tuple[str, ...]
    command: tuple[str, ...]
    setup: str = ""
    #: Several processes write to one trace: compare each process's lines (group_by_process).
    multi: bool = False
    #: The case must show at least one clock_t with a seconds comment (so the check is exercised).
    needs_clock_comment: bool = False


def real(case_id: str, options: str, command: str, **kw: object) -> RealCase:
    """Terse rows: options and command as shell words (the command may quote its arguments)."""
    return RealCase(case_id, tuple(shlex.split(options)), tuple(shlex.split(command)), **kw)  # type: ignore[arg-type]


# Burns ~50-100 ms of CPU so that the process's clock_t counters are non-zero (1 tick = 10 ms).
_BURN = "sum(range(3 * 10**6))"

CASES = [
    # cp (coreutils 9) first tries a reflink: fs_0x94_ioctl prints FICLONE's argument, the source
    # fd, as a decimal int (pytrace printed the hex word "0x3").
    real("cp-ficlone", "", "cp src dst", setup="echo data > src"),
    real("cp-ficlone-yy", "-yy -e trace=ioctl,openat", "cp src dst", setup="echo data > src"),
    # statx with -v: strace prints stx_nlink, stx_uid, ..., stx_[abcm]time only when stx_mask says
    # the kernel filled them; "ls -R" asks for STATX_INO only on directory fds and gets no c/mtime
    # (pytrace printed every field whatever the mask).
    real("ls-laR-statx-v", "-v -e trace=statx", "ls -laR d", setup="mkdir -p d/a/b && echo x > d/a/f"),
    real("ls-laR-statx", "-e trace=statx", "ls -laR d", setup="mkdir -p d/a/b && echo x > d/a/f"),
    real("ls-laR-statx-v-X-verbose", "-v -X verbose -e trace=statx", "ls -laR d",
         setup="mkdir -p d/a/b && echo x > d/a/f"),
    # times(2): print_clock_t's seconds comment on each non-zero field (pytrace printed bare numbers),
    # none in the raw style.
    real("python-times", "-e trace=times", f"python3 -c '{_BURN}; import os; os.times()'",
         needs_clock_comment=True),
    real("python-times-X-raw", "-X raw -e trace=times", f"python3 -c '{_BURN}; import os; os.times()'"),
    # SIGCHLD's si_utime/si_stime in the raw style: no comment either.
    real("sh-sigchld-X-raw", "-X raw -e trace=none", f"sh -c 'python3 -c \"{_BURN}\"; true'"),
    # prctl(PR_CAP_AMBIENT, ...): the sub-operation and, for IS_SET/RAISE/LOWER, the capability
    # (pytrace printed "PR_CAP_AMBIENT, 0x1, 0, 0, 0").
    real("setpriv-ambient", "-e trace=prctl", "setpriv --inh-caps=+chown --ambient-caps=+chown true"),
    real("setpriv-ambient-X-verbose", "-X verbose -e trace=prctl",
         "setpriv --inh-caps=+chown --ambient-caps=+chown true"),
    real("setpriv-ambient-X-raw", "-X raw -e trace=prctl", "setpriv --inh-caps=+chown --ambient-caps=+chown true"),
    real("setpriv-ambient-lower-all", "-e trace=prctl", "setpriv --inh-caps=-all --ambient-caps=-all true"),
]

_CLOCK_T = re.compile(r"\b(?P<field>tms_c?[us]time|si_[us]time)=(?P<v>\d+)(?P<c> /\* (?P<s>\d+\.\d+) s \*/)?")
_TIMES_RESULT = re.compile(r"^(?P<head>(?:\d+ +)?times\(.*\) +=) (?P<v>\d+)$", re.M)


def _clock_t_checked(text: str, raw: bool) -> str:
    """Each clock_t as ``N`` if printed as strace does (see module doc), else a visible mark; times' result as N."""

    def check(m: re.Match[str]) -> str:
        value = int(m["v"])
        want = None if raw or value == 0 else f"{value // CLK_TCK}.{value % CLK_TCK:02d}"
        if m["s"] != want:
            return f"{m['field']}=<bad clock_t {m[0]!r}>"
        return f"{m['field']}=N"

    text = _CLOCK_T.sub(check, text)
    return _TIMES_RESULT.sub(lambda m: f"{m['head']} TICKS", text)


def _run(tracer: str, c: RealCase, tmp_path: Path) -> tuple[Run, str]:
    """Trace ``c`` with ``tracer`` in a fresh tmp_path/work; the normalised run and the raw trace."""
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    env = {**tracer_env(), "TZ": "UTC"}
    if c.setup:
        subprocess.run(["sh", "-c", c.setup], cwd=work, env=env, check=True, timeout=30)
    out = tmp_path / f"trace-{tracer}"
    try:
        result = run_tracer(tracer, [*c.options, "-o", str(out)], c.command, cwd=work, env=env)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out after {exc.timeout} s: {exc.cmd}")
    raw_trace = decode(out.read_bytes()) if out.exists() else f"<{tracer} wrote no trace file>\n"
    trace = group_by_process(raw_trace) if c.multi else raw_trace
    raw_style = "-X" in c.options and c.options[c.options.index("-X") + 1] == "raw"
    # Before normalise, which blanks si_[us]time's digits; the lines concerned are wider than the
    # alignment column, so the padding normalise checks is not affected.
    trace = normalise(_clock_t_checked(trace, raw_style), None if c.multi else 40)
    run = Run(trace, normalise(decode(result.stderr)), decode(result.stdout), result.returncode)
    return run, raw_trace


@pytest.mark.differential
@pytest.mark.parametrize("c", [pytest.param(c, id=c.id) for c in CASES])
def test_real_program(c: RealCase, tmp_path: Path) -> None:
    """pytrace's trace, stderr, the program's stdout and exit status equal strace's after normalisation."""
    assert shutil.which(c.command[0]), f"{c.command[0]} is required by this test (a standard Debian 12 tool)"
    expected, strace_raw = _run("strace", c, tmp_path)
    actual, _ = _run("pytrace", c, tmp_path)
    if c.needs_clock_comment:
        assert re.search(r" /\* \d+\.\d\d s \*/", strace_raw), "the case no longer shows a non-zero clock_t"
    problems = compare_runs(expected, actual)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.mark.differential
def test_missing_program_output_file(tmp_path: Path) -> None:
    """A program that cannot be found: same message and status, and -o FILE exists (empty) as with strace.

    strace opens the output file before it searches PATH for the program, so
    a typo in the command still truncates/creates the trace file.
    """
    results = {}
    for tracer in ("strace", "pytrace"):
        out = tmp_path / f"trace-{tracer}"
        result = run_tracer(tracer, ["-o", str(out)], ["no-such-program-here"], cwd=tmp_path)
        results[tracer] = (normalise(decode(result.stderr)), result.returncode, out.exists() and out.read_bytes())
    assert results["pytrace"] == results["strace"]
    assert results["strace"][2] == b""
