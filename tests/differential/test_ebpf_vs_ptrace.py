"""The eBPF per-event mode prints the ptrace backend's lines (issue 14, points 1 and 4).

Each case runs a real program twice, ``--backend=ebpf`` and ``--backend=ptrace``, with the same
options, the same environment and a freshly made working directory, and compares the normalised
traces line by line (``helpers.normalise``: addresses, pids, inodes and times only).  The ptrace
backend is itself held to strace by the rest of the differential suite, so equal lines here mean
strace's lines.  The only lines allowed to differ are those of ``EXCEPTIONS``, each with the reason
eBPF cannot print them identically; docs/ebpf.md lists the same.  A summary line (lines equal /
lines compared, per case and in total) is printed for the report (``-s`` shows it).
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import group_by_process, normalise, run_tracer

pytestmark = pytest.mark.differential


@dataclass(frozen=True)
class Case:
    id: str
    options: tuple[str, ...]
    command: tuple[str, ...]
    multi: bool = False  # several processes: compare per process (group_by_process)


def case(case_id: str, options: str, *command: str, multi: bool = False) -> Case:
    return Case(case_id, tuple(options.split()), command, multi)


#: Real programs (single-process, deterministic test programs and everyday commands on a tree the
#: test makes) under the options that change how captured memory is printed.
CASES = [
    case("fileops", "", "{fileops}", "{dir}"),
    case("fileops-v", "-v", "{fileops}", "{dir}"),
    case("fileops-X-raw", "-X raw", "{fileops}", "{dir}"),
    case("fileops-X-verbose", "-X verbose", "{fileops}", "{dir}"),
    case("fileops-file", "-e trace=%file", "{fileops}", "{dir}"),
    case("strings", "", "{strings}"),
    case("strings-s64", "-s 64", "{strings}"),
    case("strings-x", "-x", "{strings}"),
    case("strings-xx", "-xx", "{strings}"),
    case("memory", "", "{memory}"),
    case("timeinfo", "", "{timeinfo}"),
    case("timeinfo-v", "-v", "{timeinfo}"),
    case("polling", "", "{polling}"),
    case("breadth-structs", "", "{breadth_structs}"),
    case("breadth-io", "", "{breadth_io}", "{dir}"),
    case("iodump", "-e read=all -e write=all", "{iodump}"),
    case("cat", "", "cat", "{tree}/a.txt"),
    case("cat-z", "-z", "cat", "{tree}/a.txt", "{tree}/missing"),
    case("cat-Z", "-Z", "cat", "{tree}/a.txt", "{tree}/missing"),
    case("cat-T-tt", "-T -tt", "cat", "{tree}/a.txt"),
    case("ls-l", "", "ls", "-l", "{tree}"),
    case("ls-l-v", "-v", "ls", "-l", "{tree}"),
    case("stat", "", "stat", "{tree}/a.txt"),
    case("find", "", "find", "{tree}"),
    case("find-file-xx", "-xx -e trace=%file,getdents64", "find", "{tree}"),
    # argv/envp arrays ending against an unreadable page: copied a chunk, then word by word
    case("execvecs", "", "{execvecs}"),
    case("execvecs-v", "-v", "{execvecs}"),
    case("sh-f", "-f", "sh", "-c", "cat {tree}/a.txt > /dev/null; true", multi=True),
    # a forked child's execve of string literals not faulted in yet (copied at sched_prepare_exec)
    case("forker-f", "-f", "{forker}", multi=True),
    # clone3's struct and the parent_tid the kernel writes (futex values are thread ids: left out)
    case("threads-f", "-f -e trace=!futex", "{threads}", multi=True),
]

#: Lines eBPF cannot print as ptrace does, each with why (docs/ebpf.md, "Exceptions").  A call's
#: -e read=/write= dump lines belong to its line (see _units).
EXCEPTIONS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bio_submit\("), "an array of pointers to struct iocb, each with its buffer (a deep plan)"),
]


def _fill(item: str, programs: dict[str, Path], work: Path, tree: Path) -> str:
    return item.format(**{k: str(v) for k, v in programs.items()}, dir=work / "d", tree=tree)


def _make_tree(tree: Path) -> None:
    """The fixed tree the everyday commands look at (contents, names and modes only)."""
    (tree / "sub" / "deeper").mkdir(parents=True)
    (tree / "a.txt").write_text("alpha\n" * 40)
    (tree / "sub" / "b.bin").write_bytes(bytes(range(256)))
    (tree / "sub" / "deeper" / "c").write_text("")
    (tree / "link").symlink_to("a.txt")
    for path in (tree / "a.txt", tree / "sub" / "b.bin", tree / "sub" / "deeper" / "c"):
        path.chmod(0o644)


def _trace(backend: str, c: Case, programs: dict[str, Path], tmp_path: Path) -> tuple[str, str, int]:
    """The normalised trace, stderr (the tracee's and the tracer's: no message) and exit status."""
    work = tmp_path / f"work-{backend[0]}"  # the same length for both: alignment is checked
    work.mkdir()
    tree = tmp_path / "tree"
    out = tmp_path / f"{backend}.txt"
    command = [_fill(item, programs, work, tree) for item in c.command]
    proc = run_tracer("pytrace", [f"--backend={backend}", *c.options, "-o", str(out)], command, cwd=work)
    text = out.read_text()
    text = normalise(group_by_process(text), None) if c.multi else normalise(text)
    text = text.replace(str(work), "WORK")  # each backend gets a fresh directory
    for pattern, replacement in _RUN_DEPENDENT:
        text = pattern.sub(replacement, text)
    return text, proc.stderr.decode(), proc.returncode


#: Values two runs of the same program differ in (on top of helpers.normalise's): the numbering of
#: addresses (a line eBPF prints differently would renumber every later one), resource usage, the
#: machine's load, and where a signal lands.
_RUN_DEPENDENT = [
    (re.compile(r"ADDR\d+"), "ADDR"),
    (re.compile(r"\b(ru_[us]time=\{tv_sec=)\d+(, tv_usec=)\d+"), r"\1N\2N"),
    (re.compile(r"\b(ru_(?:maxrss|minflt|majflt|nvcsw|nivcsw)=)\d+"), r"\1N"),
    (re.compile(r"\b(uptime|freeram|sharedram|bufferram|procs)=\d+"), r"\1=N"),
    (re.compile(r"\bloads=\[\d+, \d+, \d+\]"), "loads=[N]"),
    (re.compile(r"\b(f_bfree|f_bavail|f_ffree)=\d+"), r"\1=N"),
    # rt_sigreturn returns what the interrupted code had in rax: where a signal lands is timing.
    (re.compile(r"^((?:PID\d+ )?rt_sigreturn\(.*\) += )-?\d+$", re.M), r"\1RET"),
]


def _excepted(ebpf: str, ptrace: str) -> str | None:
    for pattern, why in EXCEPTIONS:
        if pattern.search(ptrace) or pattern.search(ebpf):
            return why
    return None


#: Lines whose place is timing, compared as a multiset: a handler's rt_sigreturn, and a SIGCHLD to a
#: parent (under -f it lands before or after the parent's next call depending on when the child ended).
_SIGRETURN = re.compile(r"^(?:PID\d+ )?(?:rt_sigreturn\(|--- SIGCHLD \{)")
_DUMP_LINE = re.compile(r"(?:PID\d+ +)? [|*=] ")


def _units(text: str) -> list[str]:
    """The trace's lines, each with the -e read=/write= dump lines that follow it joined on."""
    units: list[str] = []
    for line in text.splitlines():
        if units and _DUMP_LINE.match(line):
            units[-1] += "\n" + line
        else:
            units.append(line)
    return units


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_ebpf_prints_the_ptrace_lines(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    _make_tree(tmp_path / "tree")
    ebpf, err_e, rc_e = _trace("ebpf", c, programs, tmp_path)
    ptrace, err_p, rc_p = _trace("ptrace", c, programs, tmp_path)
    assert (err_e, rc_e) == (err_p, rc_p)
    ours, ref = _units(ebpf), _units(ptrace)
    # Where a signal lands is timing: SIGCHLD and its handler's rt_sigreturn lines are compared as a set.
    returns = [Counter(u for u in units if _SIGRETURN.search(u)) for units in (ours, ref)]
    ours, ref = ([u for u in units if not _SIGRETURN.search(u)] for units in (ours, ref))
    matcher = difflib.SequenceMatcher(None, ref, ours, autojunk=False)
    equal = sum(block.size for block in matcher.get_matching_blocks()) + sum((returns[0] & returns[1]).values())
    total = max(len(ours), len(ref)) + max(sum(returns[0].values()), sum(returns[1].values()))
    print(f"\n{c.id}: {equal}/{total} lines equal")
    assert returns[0] == returns[1]
    bad = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            want = ref[i1 + k] if i1 + k < i2 else ""
            got = ours[j1 + k] if j1 + k < j2 else ""
            if _excepted(got, want) is None:
                bad.append(f"- {want}\n+ {got}")
    assert bad == [], "\n".join(bad[:40])


def test_syscall_times_are_the_kernels(tmp_path: Path) -> None:
    """-T under eBPF is the kernel's time between the entry and the exit records, not when the
    consumer read them: a 0.1 s sleep never shows less (it cannot end early)."""
    out = tmp_path / "t.txt"
    proc = run_tracer("pytrace", ["--backend=ebpf", "-T", "-e", "trace=clock_nanosleep", "-o", str(out)],
                      ["sleep", "0.1"])
    assert proc.returncode == 0, proc.stderr
    line = out.read_text().splitlines()[0]
    m = re.search(r" <(\d+\.\d{6})>$", line)
    assert line.startswith("clock_nanosleep(") and m is not None, line
    assert float(m[1]) >= 0.1, line
