"""The capture-plan contract: decoding from only the planned bytes prints the same line as
decoding from live memory.

pytrace runs with PYTRACE_CHECK_CAPTURE set: every call is decoded a second time from snapshots
holding exactly what its row's ``capture`` column names, taken at the entry and exit stops, and
the report lists each syscall's calls and how many lines differed (pytrace/sinks/capture_check.py).

* Over the differential corpus (test_vs_strace.CASES: the programs and options the suite compares
  with strace), a syscall may differ only if it is in ``DEEP`` below, with the reason no list of
  regions can describe what its decoder reads; its plan must say so (a ``deep`` argument).
* Over the breadth programs (tests/programs/breadth_*.c and friends: some 230 syscalls), a syscall
  may differ only if its plan has a ``deep`` argument: a plan that claims to be complete is.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import free_port_block, run_tracer, tracer_env
from test_vs_strace import CASES, Case, case

from pytrace.sinks.capture_check import ENV_VAR
from pytrace.tables.syscalls import table

pytestmark = pytest.mark.differential

#: Syscalls of the corpus whose lines may differ: what the decoder reads is not a list of regions.
DEEP = {
    "ioctl": "the argument's layout is chosen by the request code (TCGETS: struct termios, ...)",
    "getsockopt": "the option value's layout is chosen by level and name (SO_GET_FILTER: sock_filter[*optlen])",
    "setsockopt": "the option value's layout is chosen by level and name (SO_ATTACH_FILTER follows a pointer)",
}

#: More programs, run with -f: the breadth programs of the const-style and decoder sweeps.
BREADTH = [
    case("breadth_fs", "-f", "{breadth_fs}", "{dir}"),
    case("breadth_io", "-f", "{breadth_io}", "{dir}"),
    case("breadth_proc", "-f", "{breadth_proc}"),
    case("breadth_misc", "-f", "{breadth_misc}"),
    case("breadth_structs", "-f", "{breadth_structs}"),
    case("breadth_ipc", "-f", "{breadth_ipc}"),
    case("fdkinds", "-f -yy", "{fdkinds}", "{port}"),
    case("iodump", "-f -e read=all -e write=all", "{iodump}"),
]


def _check(c: Case, programs: dict[str, Path], tmp_path: Path, port: int) -> tuple[str, str]:
    """Trace ``c`` with the check on: (the report, what went wrong with the run if anything)."""
    work = tmp_path / "work"
    work.mkdir(parents=True)
    out = tmp_path / "out"
    out.mkdir()
    report = tmp_path / "report.txt"
    values = {name: str(path) for name, path in programs.items()}
    command = [item.format(**values, dir=work / "d", port=port) for item in c.command]
    options = list(c.options)
    if c.output in ("file", "ff"):
        options += ["-o", str(out / "trace")]
    result = run_tracer("pytrace", options, command, cwd=work, env={**tracer_env(), ENV_VAR: str(report)})
    stderr = result.stderr.decode(errors="replace")
    problem = f"{c.id}: pytrace raised:\n{stderr[-3000:]}" if "Traceback" in stderr else ""
    if not report.exists():
        problem += f"{c.id}: no capture report written (exit {result.returncode})"
    return (report.read_text() if report.exists() else ""), problem


def _run_all(cases: list[Case], programs: dict[str, Path], tmp_path: Path) -> tuple[dict[str, list[int]], str]:
    """Run every case (two at a time); name -> [calls checked, lines differing], and the differing lines."""
    ports: list[int] = []  # two cases run at once: each socket case gets a block of its own
    taken: set[int] = set()
    for c in cases:
        port = free_port_block(exclude=taken) if "{port}" in c.command else 0
        taken.update(range(port, port + 4) if port else ())
        ports.append(port)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda ic: _check(ic[1], programs, tmp_path / f"case{ic[0]}", ports[ic[0]]),
                                enumerate(cases)))
    problems = [problem for _, problem in results if problem]
    assert problems == []
    counts: dict[str, list[int]] = {}
    examples: list[str] = []
    for report, _ in results:
        for line in report.split("\n"):
            if line.startswith("checked\t"):
                _, name, n, bad = line.split("\t")
                total = counts.setdefault(name, [0, 0])
                total[0] += int(n)
                total[1] += int(bad)
            elif line.startswith(("differs\t", "  live:", "  plan:")):
                examples.append(line)
    return counts, "\n".join(examples)


def _deep(name: str) -> bool:
    info = table("x86_64").by_name.get(name)
    return info is not None and any(p.deep for p in info.capture)


def _summary(what: str, counts: dict[str, list[int]]) -> str:
    differing = sorted(name for name, (_, bad) in counts.items() if bad)
    covered = sorted(name for name, (_, bad) in counts.items() if not bad and not _deep(name))
    deep_equal = sorted(name for name, (_, bad) in counts.items() if not bad and _deep(name))
    return (f"{what}: {len(counts)} distinct syscalls, {len(covered)} fully covered by their plans "
            f"(no deep argument, every line equal); deep and differing: {len(differing)} {differing}; "
            f"deep but every line equal: {deep_equal}")


def test_corpus_decodes_the_same_from_the_planned_bytes(programs: dict[str, Path], tmp_path: Path) -> None:
    counts, examples = _run_all(list(CASES), programs, tmp_path)
    differing = sorted(name for name, (_, bad) in counts.items() if bad)
    assert [name for name in differing if name not in DEEP] == [], f"lines differ:\n{examples}"
    assert [name for name in DEEP if not _deep(name)] == [], "allowed to differ, yet the plan claims to be complete"
    assert sorted(set(DEEP) - set(counts)) == [], "allowed to differ but not in the corpus: drop from DEEP"
    print("\n" + _summary("differential corpus", counts))
    assert len(counts) > 60  # the corpus really ran: ~86 distinct syscalls today


def test_only_deep_plans_differ_over_the_breadth_programs(programs: dict[str, Path], tmp_path: Path) -> None:
    counts, examples = _run_all(BREADTH, programs, tmp_path)
    shallow = sorted(name for name, (_, bad) in counts.items() if bad and not _deep(name))
    assert shallow == [], f"lines differ though the plan has no deep argument:\n{examples}"
    print("\n" + _summary("breadth programs", counts))
    assert len(counts) > 150  # ~235 distinct syscalls today
