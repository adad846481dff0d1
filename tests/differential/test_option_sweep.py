"""Option sweep against real strace 6.1: the corners of the ``-e`` set syntax where pytrace differed.

Each case is one difference found by running strace and pytrace with the same flags on the same
real program, now fixed; the comparison is the usual one (trace on stderr, exit status), with only
``helpers.normalise`` applied plus the tracer's own name in the "Try '... -h'" hint.

What the cases pin down (strace's qualify_syscall_tokens / qualify_tokens):

* the ``@64``/``@32``/``@x32`` personality suffix is split off every token before it is read, so
  it applies to classes, regexes and numbers too; an unknown designator is an error with the
  usage hint even after ``?``; ``@x32`` names select nothing (pytrace traces no x32 tracees);
* a ``/regex`` that matches no syscall is an invalid system call unless ``?``-prefixed;
* every leading ``!`` inverts again, and ``all``/``none`` are special only as the whole set
  (``read,none`` is an error);
* ``-e signal=`` takes numbers 0..255 and only the names strace prints (no SIGCLD, SIGIOT,
  SIGPOLL, SIGRTMAX aliases), and ``all``/``none`` only as the whole set;
* ``-x`` and ``--strings-in-hex`` exclude each other, ``-x`` counts up to ``-xx`` only.
"""

from __future__ import annotations

import difflib
import re
import subprocess
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

#: (case id, tracer options, command); ``{name}`` items are tests/programs binaries.
CASES: list[tuple[str, str, tuple[str, ...]]] = [
    # -e trace=: personality suffixes on every kind of token
    ("trace-class-at-64", "-e trace=%file@64", ("cat", "/etc/hostname")),
    ("trace-class-at-32", "-e trace=%statfs@32,%desc@32", ("cat", "/etc/hostname")),
    ("trace-regex-at-64", "-e trace=/^read@64", ("cat", "/etc/hostname")),
    ("trace-x32-selects-nothing", "-e trace=read@x32", ("cat", "/etc/hostname")),
    ("trace-bad-designator", "-e trace=read@x64", ("true",)),
    ("trace-bad-designator-optional", "-e trace=?read@x64", ("true",)),
    ("trace-empty-designator", "-e trace=read@", ("true",)),
    # -e trace=: regexes that match nothing, repeated !, all/none as tokens
    ("trace-regex-no-match", "-e trace=/nosuchcall", ("true",)),
    ("trace-regex-no-match-optional", "-e trace=?/nosuchcall,read", ("cat", "/etc/hostname")),
    ("trace-double-negation", "-e trace=!!read", ("cat", "/etc/hostname")),
    ("trace-none-as-token", "-e trace=read,none", ("true",)),
    ("trace-all-as-token", "-e trace=!read,all -e signal=none", ("true",)),
    # the same parser behind raw=, abbrev=, verbose= and inject=
    ("raw-class-at-64", "-e raw=%desc@64 -e trace=read,openat", ("cat", "/etc/hostname")),
    ("verbose-bad-designator", "-e verbose=read@64,execve@y", ("true",)),
    ("inject-bad-designator", "-e inject=read@x64:error=EIO", ("true",)),
    # -e signal=
    ("signal-double-negation", "-e trace=none -e signal=!!SIGUSR1", ("{signals}",)),
    ("signal-all-as-token", "-e signal=SIGCHLD,all", ("true",)),
    ("signal-none-as-token", "-e signal=none,SIGCHLD", ("true",)),
    ("signal-number-too-big", "-e signal=256", ("true",)),
    ("signal-alias-sigcld", "-e signal=SIGCLD", ("true",)),
    ("signal-alias-rtmax", "-e signal=rtmax", ("true",)),
    ("signal-lowercase-no-sig", "-e trace=none -e signal=usr1,chld", ("{signals}",)),
    # -x / --strings-in-hex: never together (either order), -xxx is -xx, the last long form wins
    ("hex-x-then-long", "-x --strings-in-hex=all", ("true",)),
    ("hex-long-then-x", "--strings-in-hex -x", ("true",)),
    ("hex-xxx-is-xx", "-xxx -e trace=execve,openat", ("cat", "/etc/hostname")),
    ("hex-last-long-wins", "--strings-in-hex=all --strings-in-hex=non-ascii-chars -e trace=openat",
     ("cat", "/etc/hostname")),
]

_HINT = re.compile(r"Try '(?:strace|pytrace) -h'")


def _run(tracer: str, options: str, command: tuple[str, ...], programs: dict[str, Path],
         tmp_path: Path) -> tuple[str, int]:
    values = {name: str(path) for name, path in programs.items()}
    cmd = [item.format(**values) for item in command]
    try:
        result = run_tracer(tracer, options.split(), cmd, cwd=tmp_path, timeout=20)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{tracer} timed out: {exc.cmd}")
    return _HINT.sub("Try 'TRACER -h'", normalise(decode(result.stderr))), result.returncode


@pytest.mark.differential
@pytest.mark.parametrize(("options", "command"), [pytest.param(o, c, id=i) for i, o, c in CASES])
def test_option_sweep(options: str, command: tuple[str, ...], programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's stderr and exit status equal strace's for the same flags and program."""
    want = _run("strace", options, command, programs, tmp_path)
    got = _run("pytrace", options, command, programs, tmp_path)
    diff = "".join(difflib.unified_diff(want[0].splitlines(keepends=True), got[0].splitlines(keepends=True),
                                        "strace", "pytrace"))
    assert want == got, f"exit status strace {want[1]}, pytrace {got[1]}\n{diff}"
