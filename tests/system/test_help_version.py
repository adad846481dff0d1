"""What a new user (or a wrapper script) sees first: -h and -V of pytrace and pyltrace, against strace and ltrace.

* ``-h``: every line of ``strace -h`` (``ltrace --help``) is in ours, in the same order -- so
  every option in the same section -- with the program's name in place of strace's; and every
  option the parser accepts (read from its own tables) is documented.
* ``-V``: the first line has the real tool's shape and the version whose output we reproduce,
  so the ways wrappers parse it (a sed over line 1, common regexes, a literal prefix check)
  read the same version from ours as from the real tool.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO_ROOT, tracer_env

from pytrace import __version__
from pytrace.cli import ltrace_cli, strace_cli
from pytrace.cli.help_text import LTRACE_VERSION, STRACE_VERSION
from pytrace.cli.subcommands import SUBCOMMANDS

pytestmark = pytest.mark.system

PYTRACE = [sys.executable, "-m", "pytrace"]
PYLTRACE = [sys.executable, "-m", "pytrace.cli.ltrace_cli"]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, env=tracer_env(), cwd=str(REPO_ROOT),
                          stdin=subprocess.DEVNULL, timeout=60, check=False)


def _is_subsequence(needles: list[str], haystack: list[str]) -> tuple[bool, str]:
    """Whether ``needles`` occur in ``haystack`` in order; the first one missing otherwise."""
    it = iter(haystack)
    for n in needles:
        if not any(n == h for h in it):
            return False, n
    return True, ""


def _lines(text: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip()]


def _documented(help_text: str) -> tuple[set[str], set[str]]:
    """Short letters and long names that the help's option lines mention."""
    shorts: set[str] = set()
    longs: set[str] = set()
    for line in help_text.splitlines():
        for m in re.finditer(r"(?<![\w-])--([a-z][\w-]*)", line):
            longs.add(m[1])
        for m in re.finditer(r"(?<![\w\-\[])-([A-Za-z])\1*(?=[\s,=\[]|$)", line):
            shorts.add(m[1])
    return shorts, longs


def _short_letters(optstring: str) -> set[str]:
    return {c for c in optstring if c.isalpha()}


# -------------------------------------------------------------------------------------------- -h


def test_pytrace_help_is_straces_with_additions() -> None:
    real, ours = _run(["strace", "-h"]), _run([*PYTRACE, "-h"])
    assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr) == (0, "")
    want = _lines(real.stdout.replace("strace", "pytrace"))
    ok, missing = _is_subsequence(want, _lines(ours.stdout))
    assert ok, f"strace -h line missing or out of order in pytrace -h: {missing!r}"
    # Sections: strace's headers, in strace's order, each starting a line.
    headers = [ln for ln in real.stdout.splitlines() if re.fullmatch(r"[A-Z][\w ]+:", ln)]
    assert headers and _is_subsequence(headers, ours.stdout.splitlines())[0]


def test_every_pytrace_option_is_documented() -> None:
    text = _run([*PYTRACE, "-h"]).stdout
    shorts, longs = _documented(text)
    accepted_longs = {o.name for o in strace_cli.LONGOPTS}
    assert _short_letters(strace_cli.SHORTOPTS) - shorts == set()
    assert accepted_longs - longs == set()
    for name in SUBCOMMANDS:
        assert re.search(rf"^  {name} ", text, re.M), f"sub-command {name} not documented"
    assert "README" not in text


def test_pyltrace_help_is_ltraces_with_additions() -> None:
    real, ours = _run(["ltrace", "--help"]), _run([*PYLTRACE, "--help"])
    assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr) == (0, "")
    # All but ltrace's closing line, which sends bug reports to ltrace's list.
    want = [ln for ln in _lines(real.stdout.replace("ltrace", "pyltrace")) if not ln.startswith("Report bugs")]
    ok, missing = _is_subsequence(want, _lines(ours.stdout))
    assert ok, f"ltrace --help line missing or out of order in pyltrace --help: {missing!r}"
    assert "ltrace-devel" not in ours.stdout
    assert _run([*PYLTRACE, "-h"]).stdout == ours.stdout


def test_every_pyltrace_option_is_documented() -> None:
    shorts, longs = _documented(_run([*PYLTRACE, "--help"]).stdout)
    assert _short_letters(ltrace_cli._SHORT) - ltrace_cli.REFUSED - shorts == set()
    assert {o.name for o in ltrace_cli._LONG} - longs == set()


@pytest.mark.parametrize("argv", [["-X", "foo", "true"]], ids=["X"])
def test_pyltrace_refuses_what_ltrace_refuses(argv: list[str]) -> None:
    """Options in ltrace's getopt string that it then refuses, with its "Try" line alone."""
    real, ours = _run(["ltrace", *argv]), _run([*PYLTRACE, *argv])
    assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr.replace("ltrace", "pyltrace"))
    assert real.returncode == 1


# -------------------------------------------------------------------------------------------- -V

#: Ways wrappers read a version: each is applied to the real tool's and to ours and must agree.
PARSERS = {
    "version N.M": lambda out: re.search(r"version (\d+)\.(\d+)", out).groups(),  # type: ignore[union-attr]
    "first N.M": lambda out: re.search(r"(\d+\.\d+)", out)[1],  # type: ignore[index]
    "first N.M.K?": lambda out: re.search(r"(\d+(?:\.\d+)+)", out)[1],  # type: ignore[index]
    # A shell wrapper's (mstrace-like): the last " N.M" of line 1.
    "sed line 1": lambda out: subprocess.run(
        ["sed", "-ne", r"1s/^.* \([0-9]*\)\.\([0-9]*\)/vmajor=\1 vminor=\2/p"], input=out, text=True,
        capture_output=True, check=True).stdout,
}


@pytest.mark.parametrize("parser", PARSERS, ids=list(PARSERS))
def test_pytrace_version_reads_as_straces(parser: str) -> None:
    real, ours = _run(["strace", "-V"]), _run([*PYTRACE, "-V"])
    assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr) == (0, "")
    parse = PARSERS[parser]
    assert parse(ours.stdout) == parse(real.stdout)


def test_pytrace_version_lines() -> None:
    real, ours = _run(["strace", "-V"]), _run([*PYTRACE, "-V"])
    shape = re.compile(r"(\S+) -- version (\d+\.\d+)")
    want, got = shape.fullmatch(real.stdout.splitlines()[0]), shape.fullmatch(ours.stdout.splitlines()[0])
    assert want and got, (real.stdout, ours.stdout)
    assert (got[1], got[2]) == ("pytrace", want[2]) == ("pytrace", STRACE_VERSION)
    assert f"pytrace {__version__}" in ours.stdout.splitlines()[1]
    # strace's feature line, for the features pytrace has (-k and i386 tracees).
    assert "Optional features enabled: stack-trace=" in ours.stdout and "m32-mpers" in ours.stdout


def test_pytrace_named_strace_passes_a_literal_prefix_check(tmp_path: Path) -> None:
    """Installed or linked as "strace", the first line starts as strace's does ("strace -- version")."""
    script = tmp_path / "strace"
    script.write_text(f"#!{sys.executable}\nfrom pytrace.cli.strace_cli import main\nmain()\n")
    script.chmod(0o755)
    real, ours = _run(["strace", "-V"]), _run([str(script), "-V"])
    assert ours.stdout.splitlines()[0] == real.stdout.splitlines()[0]
    assert ours.stdout[:17] == "strace -- version"


@pytest.mark.parametrize("parser", PARSERS, ids=list(PARSERS))
def test_pyltrace_version_reads_as_ltraces(parser: str) -> None:
    real, ours = _run(["ltrace", "-V"]), _run([*PYLTRACE, "-V"])
    assert (ours.returncode, ours.stderr) == (real.returncode, real.stderr) == (0, "")
    parse = PARSERS[parser]
    assert parse(ours.stdout) == parse(real.stdout)


def test_pyltrace_version_lines() -> None:
    real, ours = _run(["ltrace", "-V"]), _run([*PYLTRACE, "--version"])
    shape = re.compile(r"(\S+) version (\d+\.\d+\.\d+)\.")
    want, got = shape.fullmatch(real.stdout.splitlines()[0]), shape.fullmatch(ours.stdout.splitlines()[0])
    assert want and got, (real.stdout, ours.stdout)
    assert (got[1], got[2]) == ("pyltrace", want[2]) == ("pyltrace", LTRACE_VERSION)
    assert f"pytrace {__version__}" in ours.stdout.splitlines()[1]
