"""The capture-plan contract, over the differential corpus: decoding from only the planned bytes
prints the same line as decoding from live memory.

Each case of test_vs_strace.CASES (the programs and options the differential suite compares with
strace) is traced by pytrace with PYTRACE_CHECK_CAPTURE set: every call is decoded a second time
from snapshots holding exactly what its row's ``capture`` column names, taken at the entry and
exit stops, and the report lists each syscall's calls and how many lines differed
(pytrace/sinks/capture_check.py).  A syscall may differ only if it is in ``DEEP`` below, with the
reason its plan cannot be a list of regions, and its plan must say so (a ``deep`` argument).
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from helpers import free_port_block, run_tracer, tracer_env
from test_vs_strace import CASES, Case

from pytrace.sinks.capture_check import ENV_VAR
from pytrace.tables.syscalls import table

#: Syscalls whose lines may differ: what the decoder reads is not a fixed list of regions.
DEEP = {
    "execve": "argv and envp are arrays of pointers to strings: the decoder follows each pointer",
    "execveat": "argv and envp are arrays of pointers to strings: the decoder follows each pointer",
    "ioctl": "the argument's layout is chosen by the request code (TCGETS: struct termios, ...)",
    "fcntl": "the argument is a pointer only for some commands (F_GETLK: struct flock, F_GETOWN_EX...)",
    "pselect6": "the sixth argument points to {sigset pointer, size}: the decoder follows the pointer",
    "sendmsg": "struct msghdr points to the name, the iovec array and its buffers, and the control data",
    "recvmsg": "struct msghdr points to the name, the iovec array and its buffers, and the control data",
    "clone3": "struct clone_args holds pointers (pidfd, child_tid, parent_tid) the decoder reads at exit",
}


def _check(c: Case, programs: dict[str, Path], tmp_path: Path) -> tuple[str, str]:
    """Trace ``c`` with the check on; (report text, anything unexpected about the run)."""
    work = tmp_path / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out = tmp_path / "out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    report = tmp_path / "report.txt"
    report.unlink(missing_ok=True)
    port = free_port_block() if "{port}" in c.command else 0
    values = {name: str(path) for name, path in programs.items()}
    command = [item.format(**values, dir=work / "d", port=port) for item in c.command]
    options = list(c.options)
    if c.output in ("file", "ff"):
        options += ["-o", str(out / "trace")]
    result = run_tracer("pytrace", options, command, cwd=work, env={**tracer_env(), ENV_VAR: str(report)})
    problem = ""
    if "Traceback" in result.stderr.decode(errors="replace"):
        problem = f"{c.id}: pytrace raised:\n{result.stderr.decode(errors='replace')[-3000:]}"
    if not report.exists():
        problem += f"{c.id}: no capture report written (exit {result.returncode})"
    return (report.read_text() if report.exists() else ""), problem


def _parse(report: str) -> tuple[dict[str, list[int]], list[str]]:
    """name -> [calls checked, lines differing]; and the differing examples as printed."""
    counts: dict[str, list[int]] = {}
    examples: list[str] = []
    for block in report.split("\n"):
        if block.startswith("checked\t"):
            _, name, n, bad = block.split("\t")
            got = counts.setdefault(name, [0, 0])
            got[0] += int(n)
            got[1] += int(bad)
        elif block.startswith(("differs\t", "  live:", "  plan:")):
            examples.append(block)
    return counts, examples


@pytest.mark.differential
def test_planned_bytes_decode_like_live_memory(programs: dict[str, Path], tmp_path: Path) -> None:
    cases = [c for c in CASES]
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda ic: _check(ic[1], programs, tmp_path / f"case{ic[0]}"), enumerate(cases)))
    problems = [problem for _, problem in results if problem]
    assert problems == []
    counts: dict[str, list[int]] = {}
    examples: list[str] = []
    for report, _ in results:
        got, shown = _parse(report)
        examples += shown
        for name, (n, bad) in got.items():
            total = counts.setdefault(name, [0, 0])
            total[0] += n
            total[1] += bad
    differing = sorted(name for name, (_, bad) in counts.items() if bad)
    unexplained = [name for name in differing if name not in DEEP]
    assert unexplained == [], "lines decoded from the planned bytes differ:\n" + "\n".join(examples)
    x86 = table("x86_64")
    shallow = [name for name in DEEP if name in x86.by_name and not any(p.deep for p in x86.by_name[name].capture)]
    assert shallow == [], "allowed to differ, yet their plans claim to be complete"
    covered = sorted(name for name, (_, bad) in counts.items()
                     if not bad and name in x86.by_name and not any(p.deep for p in x86.by_name[name].capture))
    print(f"\ncapture plans over the corpus: {len(counts)} distinct syscalls, {len(covered)} fully covered "
          f"(no deep argument, every line equal); differing (allowed, deep): {differing}; "
          f"deep but every line equal: {sorted(set(counts) - set(covered) - set(differing))}")
    assert len(covered) >= len(counts) - len(DEEP) - 10
