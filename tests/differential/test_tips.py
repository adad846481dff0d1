"""``--tips``: strace 6.1's tip of the day on exit, against real strace with the same flags.

Every tip id (and ids past the end, which strace takes modulo the number of
tips) in every format must come out byte for byte as strace prints it, on the
same stream (stderr, even with -o), after everything else (the exit line, the
-c table, an ``-o '|cmd'`` reader's output), with the same exit status; bad
values are refused with strace's words.  ``random`` cannot be compared run to
run, so its output is only checked to be one of the tips.  The texts are
generated from strace's source (scripts/gen_tips.py); the generator's parser is
checked here on a small inline sample so the test needs no strace source tree.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO_ROOT, decode, normalise, run_tracer, shell_status, tracer_env, tracer_name

from pytrace.cli import tips
from pytrace.tables.tips import TIP_TOP, TIPS

pytestmark = pytest.mark.differential

INT_MAX = 2**31 - 1
# Every tip, a few ids that wrap around (strace: id %= number of tips), and the largest id strace accepts.
IDS = [*range(len(TIPS) + 3), INT_MAX]


def _both(args: list[str], cmd: list[str], **kw: object) -> list[subprocess.CompletedProcess[bytes]]:
    return [run_tracer(t, args, cmd, **kw) for t in ("strace", "pytrace")]  # type: ignore[arg-type]


def _stderr(run: subprocess.CompletedProcess[bytes], tracer: str) -> str:
    return decode(run.stderr).replace(f"{tracer_name(tracer)}: ", "TRACER: ").replace(
        f"'{tracer_name(tracer)} -h'", "'TRACER -h'")


def _assert_same(runs: list[subprocess.CompletedProcess[bytes]]) -> None:
    expected, actual = (_stderr(r, t) for r, t in zip(runs, ("strace", "pytrace"), strict=True))
    assert actual == expected
    assert shell_status(runs[1].returncode) == shell_status(runs[0].returncode)


@pytest.mark.parametrize("tip_id", IDS)
def test_every_tip_in_every_format(tip_id: int) -> None:
    """``--tips=id:N,format:F -o /dev/null true``: stderr is strace's, byte for byte."""
    for fmt in ("compact", "full"):
        runs = _both([f"--tips=id:{tip_id},format:{fmt}", "-o", os.devnull], ["true"])
        assert TIP_TOP in decode(runs[0].stderr)  # the oracle printed a tip: the comparison is not vacuous
        _assert_same(runs)


@pytest.mark.parametrize("value", ["id:0,format:none", "format:none,id:7", "NONE", "7,full,none"])
def test_format_none_prints_nothing(value: str) -> None:
    runs = _both([f"--tips={value}", "-o", os.devnull], ["true"])
    assert runs[0].stderr == b""
    _assert_same(runs)


# Spellings strace accepts: prefixes and names in any case, unprefixed tokens (an id first, then a
# format), empty tokens, strtoll's syntax for the id, later --tips on top of earlier ones, an
# abbreviated option name, and "format:none" switched back on by a later --tips.
ACCEPTED = [
    ["--tips=5"], ["--tips=full,5"], ["--tips=ID:2,FORMAT:Full"], ["--tips=id:+7"], ["--tips=id:-0"],
    ["--tips=id:\t 3"], ["--tips= 1"], ["--tips=,,12,,"], ["--tips=7", "--tips=full"], ["--tips=full", "--tips=3"],
    ["--tips=none", "--tips=3"], ["--tips=full", "--tips=none", "--tips=4"], ["--tips=3", "--tips=random", "--tips=8"],
    ["--tip=1"], ["--tips=Compact,id:40"],
]


@pytest.mark.parametrize("args", ACCEPTED, ids=" ".join)
def test_accepted_spellings(args: list[str]) -> None:
    runs = _both([*args, "-o", os.devnull], ["true"])
    assert runs[0].returncode == 0
    _assert_same(runs)


REFUSED = [
    "foo", "id:-1", "id:2147483648", "id:99999999999", "id:", "id:0x1", "id:1_0", "id:_1", "id:full",
    "format:3", "format:bad", "format:", "1 ", "+-1", "id:random,format:random", "5,foo",
]


@pytest.mark.parametrize("value", REFUSED)
def test_refused_values(value: str) -> None:
    """strace's "invalid --tips argument" with the usage hint, exit status 1, nothing traced."""
    runs = _both([f"--tips={value}", "-o", os.devnull], ["true"])
    assert runs[0].returncode == 1
    assert "invalid --tips argument" in decode(runs[0].stderr)
    _assert_same(runs)


def _all_tips(fmt: int) -> set[str]:
    return {tips.render(i, fmt) for i in range(len(TIPS))}  # each rendering is checked against strace above


@pytest.mark.parametrize(("args", "fmt"), [
    (["--tips"], tips.COMPACT), (["--tips="], tips.COMPACT), (["--tips=random"], tips.COMPACT),
    (["--tips=id:random,format:full"], tips.FULL), (["--tips=3", "--tips=RANDOM"], tips.COMPACT),
])
def test_random_is_one_of_the_tips(args: list[str], fmt: int) -> None:
    for tracer in ("strace", "pytrace"):
        run = run_tracer(tracer, [*args, "-o", os.devnull], ["true"])
        assert run.returncode == 0
        assert decode(run.stderr) in _all_tips(fmt), tracer


def _tip(tip_id: int, fmt: str = "compact") -> str:
    return decode(run_tracer("strace", [f"--tips=id:{tip_id},format:{fmt}", "-o", os.devnull], ["true"]).stderr)


# Where the tip goes and what comes before it: the trace on stderr, -qq, -f, a signal death, a failed -p.
STREAMS = [
    (["-e", "trace=exit_group"], ["sh", "-c", "echo hi"]),
    (["-qq", "-e", "trace=exit_group"], ["true"]),
    (["-f", "-e", "trace=exit_group,execve"], ["sh", "-c", "true; exit 3"]),
    (["-e", "trace=none"], ["sh", "-c", "kill -TERM $$"]),
    (["-o", os.devnull, "-e", "trace=none"], ["sh", "-c", "kill -KILL $$"]),
    (["-p", "2147483646"], []),
]


@pytest.mark.parametrize(("args", "cmd"), STREAMS, ids=lambda a: " ".join(a))
def test_tip_after_the_trace_on_stderr(args: list[str], cmd: list[str]) -> None:
    runs = _both(["--tips=id:9", *args], cmd)
    expected, actual = (normalise(_stderr(r, t)) for r, t in zip(runs, ("strace", "pytrace"), strict=True))
    assert expected.endswith(_tip(9))
    assert actual == expected
    assert runs[1].stdout == runs[0].stdout
    assert shell_status(runs[1].returncode) == shell_status(runs[0].returncode)


def test_with_output_file_the_tip_stays_on_stderr(tmp_path: Path) -> None:
    """-o FILE / -ff: the trace in the file(s), the tip (only) on stderr."""
    for args in (["-o"], ["-ff", "-o"]):
        traces = []
        for tracer in ("strace", "pytrace"):
            out = tmp_path / tracer / "trace"
            out.parent.mkdir(exist_ok=True)
            run = run_tracer(tracer, ["--tips=id:20,format:full", "-e", "trace=exit_group", *args, str(out)], ["true"])
            assert decode(run.stderr) == _tip(20, "full")
            traces.append(sorted(normalise(p.read_text()) for p in out.parent.iterdir()))
        assert traces[1] == traces[0]


def test_pipe_reader_finishes_before_the_tip() -> None:
    """``-o '|cmd'``: strace waits for the reader, so its output comes before the tip."""
    runs = _both(["--tips=id:30", "-o", "|cat >&2", "-e", "trace=exit_group"], ["true"])
    expected = normalise(_stderr(runs[0], "strace"))
    assert expected.endswith("+++ exited with 0 +++\n" + _tip(30))
    assert normalise(_stderr(runs[1], "pytrace")) == expected


@pytest.mark.parametrize("mode", ["-c", "-C"])
def test_tip_after_the_summary_table(mode: str) -> None:
    """The -c/-C table first (its times differ run to run: compared by syscall names), then the tip."""
    runs = _both(["--tips=id:18", mode, "-e", "trace=close,exit_group"], ["cat", "/dev/null"])
    tip = _tip(18)
    for run in runs:
        assert decode(run.stderr).endswith(tip)
    tables = [decode(r.stderr)[: -len(tip)].splitlines() for r in runs]
    assert [line.split()[-1] for line in tables[1]] == [line.split()[-1] for line in tables[0]]
    assert runs[1].returncode == runs[0].returncode == 0


def test_json_records_unaffected(tmp_path: Path) -> None:
    """--json: the tip is no record; the -o file stays valid JSON lines and the tip goes to stderr."""
    out = tmp_path / "trace.jsonl"
    run = run_tracer("pytrace", ["--tips=id:2", "--json", "-o", str(out), "-e", "trace=exit_group"], ["true"])
    assert run.returncode == 0
    assert decode(run.stderr) == _tip(2)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records and all("tip" not in str(r.get("type")) for r in records)


def test_tips_cost_nothing_when_off() -> None:
    """Without --tips neither the tips module nor the generated table is imported."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytrace", "-o", os.devnull, "true"],
        capture_output=True, text=True, env=tracer_env(), cwd=REPO_ROOT, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "pytrace.cli.tips" not in result.stderr
    assert "pytrace.tables.tips" not in result.stderr


# ---- the generator, on an inline sample shaped like strauss.c -----------------------------------

_SAMPLE = r'''
#include "defs.h"
static const char *strauss[] = {
    "",
    "  /\\",
    "  \"q\"",
    };
enum { MAX_TIP_LINES = 3 };
static const char *tips_tricks_tweaks[][MAX_TIP_LINES] = {
    { "one" "two", "" },
#ifdef ENABLE_STACKTRACE
    { "stack",
# ifdef USE_DEMANGLE
    "demangle",
# endif
    },
#else
    { "no stack" },
#endif
    /* a comment with "quotes" */
    { "tab\there" },
};
static const char tip_top[] = "  __ ";
static const char tip_bottom[] = " \\__/ ";
static const char *tip_left[] = { " / ", " | "};
static const char *tip_right[] = { " \\ ", " | ", };
'''


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_tips", REPO_ROOT / "scripts" / "gen_tips.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generator_follows_the_preprocessor_and_c_strings() -> None:
    gen = _generator()
    data = gen.extract(_SAMPLE.replace("tab\\there", "tab here"), {"ENABLE_STACKTRACE", "USE_DEMANGLE"})
    assert data["STRAUSS"] == ["", "  /\\", '  "q"']
    assert data["TIPS"] == [["onetwo", ""], ["stack", "demangle"], ["tab here"]]  # "a" "b" joined without a space
    assert data["MAX_TIP_LINES"] == 3
    assert (data["TIP_TOP"], data["TIP_BOTTOM"]) == ("  __ ", " \\__/ ")
    assert data["TIP_LEFT"] == [" / ", " | "] and data["TIP_RIGHT"] == [" \\ ", " | "]
    assert gen.extract(_SAMPLE.replace("tab\\there", "x"), set())["TIPS"][1] == ["no stack"]
    with pytest.raises(gen.GenError):  # a control character would misalign the bubble: refused
        gen.extract(_SAMPLE, set())


def test_generated_module_is_marked_and_matches_debian_build() -> None:
    text = (REPO_ROOT / "pytrace" / "tables" / "tips.py").read_text()
    assert "GENERATED by scripts/gen_tips.py" in text.split("\n\n")[1]
    assert "ENABLE_STACKTRACE, USE_DEMANGLE defined" in text
    features = subprocess.run(["strace", "-V"], capture_output=True, text=True, check=True).stdout
    assert "stack-trace=" in features and "stack-demangle" in features and "secontext" not in features
