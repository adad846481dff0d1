"""pyltrace against ltrace 0.7.3 on vfork and on non-PIE programs (issue 16).

vfork (src/vfork.c): the child runs in its parent's memory, so it returns from
the same vfork() call through the same return breakpoint; ltrace shows that
return (``<... vfork resumed> ) = 0``), the child's calls, ``--- Called exec()
---`` and holds the parent stopped until the child execs or exits.

Non-PIE (src/nonpie.c, built ``-fno-pie -no-pie``): a program that takes
malloc's address makes its PLT stub the function's canonical address, and
libc's own calls to malloc land there too.  ltrace shows each of them once, as
the program's call; pyltrace used to show it a second time from libc's
``.plt.got`` stub, nested around the first, and counted it twice with -c.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import tracer_env
from lthelp import normalise, run, summary_rows

SRC = Path(__file__).resolve().parent / "src"
CONF = ["-F", "/etc/ltrace.conf"]
PYTHON = "/usr/bin/python3"


@pytest.fixture(scope="module")
def progs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("vfork_nonpie")
    paths = {"vfork": out / "vfork", "nonpie": out / "nonpie"}
    for cmd in (["gcc", "-O0", "-fno-builtin", "-o", str(paths["vfork"]), str(SRC / "vfork.c")],
                ["gcc", "-O0", "-fno-builtin", "-fno-pie", "-no-pie", "-o", str(paths["nonpie"]),
                 str(SRC / "nonpie.c")]):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if r.returncode:
            pytest.fail(f"{' '.join(cmd)}:\n{r.stderr}")
    return paths


def _norm(text: str) -> str:
    """normalise(), padding before ``=`` collapsed (renumbered addresses change widths), and the vfork
    child's pid also where it shows in hex (``vfork() = 0x2760``, ``SYS_wait4(0x2760, ...``)."""
    pids = sorted({int(p) for p in re.findall(r"waitpid\((\d+),", text)})
    for pid in pids:
        text = re.sub(rf"(?:(?<=\()|(?<== )){hex(pid)}\b", str(pid), text)  # a first argument or a result
    return re.sub(r" {2,}= ", " = ", normalise(text, pids))


def _per_pid(text: str) -> dict[str, list[str]]:
    """Each process's lines (of a normalised trace); a call cut by another process's line and resumed
    next is joined back."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = re.match(r"\[pid (\w+)\] (.*)$", line)
        if not m:
            continue
        lines = out.setdefault(m.group(1), [])
        body = m.group(2)
        resumed = re.match(r"<\.\.\. \S+ resumed> (.*)$", body)
        if resumed and lines and re.search(r" <(?:unfinished|no return) \.\.\.>$", lines[-1]):
            lines[-1] = re.sub(r" <(?:unfinished|no return) \.\.\.>$", "", lines[-1]) + resumed.group(1)
        else:
            lines.append(body)
    return {pid: _renumber_addrs(lines) for pid, lines in out.items()}


def _renumber_addrs(lines: list[str]) -> list[str]:
    """ADDRn numbered again by first appearance in these lines (one process's, whatever the interleaving)."""
    names: dict[str, str] = {}

    def name(m: re.Match[str]) -> str:
        return names.setdefault(m.group(0), f"ADDR{len(names) + 1}")
    return [re.sub(r"\bADDR\d+\b", name, line) for line in lines]


# "exec" with -S also shows a call with an output parameter cut by another line: sigprocmask(..., +sigset_t*)
# by its SYS_rt_sigprocmask, which ltrace prints "sigprocmask(0, <16> <unfinished ...>" and
# "<... sigprocmask resumed> , nil)".
@pytest.mark.parametrize("mode", ["exit", "exec"])
@pytest.mark.parametrize("opts", [[], ["-f"], ["-f", "-S"], ["-S"]], ids=lambda o: " ".join(o) or "plain")
def test_vfork_same_as_ltrace(progs: dict[str, Path], mode: str, opts: list[str]) -> None:
    """The child's return from vfork, its calls, its exec or exit, then the parent's return: as ltrace."""
    cmd = [progs["vfork"], mode]
    ours = run("pyltrace", CONF + opts, cmd)
    theirs = run("ltrace", CONF + opts, cmd)
    status = 3 if mode == "exit" else 0
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout == f"status {status}\ndone\n"
    ours_text, theirs_text = _norm(ours.stderr), _norm(theirs.stderr)
    if "-f" in opts:
        assert "<... vfork resumed> ) = 0" in ours_text
        assert ("--- Called exec() ---" in ours_text) == (mode == "exec")
    if mode == "exec" and "-f" in opts:
        # After the child's exec the parent runs on while the child runs /bin/true: the two interleave as
        # they happen to run.  Up to the exec the order is fixed (the parent is held); after it, per process.
        cut = ours_text.index("\n", ours_text.index("--- Called exec() ---"))
        assert ours_text[:cut] == theirs_text[:cut]
        assert _per_pid(ours_text) == _per_pid(theirs_text)
    else:
        assert ours_text == theirs_text


def test_vfork_summary(progs: dict[str, Path]) -> None:
    """-c -f: the child's calls (its strlen, its return from vfork) counted as ltrace counts them."""
    for mode in ("exit", "exec"):
        cmd = [progs["vfork"], mode]
        ours = run("pyltrace", CONF + ["-c", "-f"], cmd)
        theirs = run("ltrace", CONF + ["-c", "-f"], cmd)
        rows = summary_rows(ours.stderr)
        assert rows == summary_rows(theirs.stderr)
        assert rows["vfork"] == 2 and rows["strlen"] == 2


@pytest.mark.parametrize("opts", [
    [], ["-e", "malloc+free"], ["-e", "malloc+free+strdup+qsort+fopen"], ["-e", "malloc+free", "-f"],
    ["-e", "malloc"],
], ids=lambda o: " ".join(o) or "plain")
def test_nonpie_same_as_ltrace(progs: dict[str, Path], opts: list[str]) -> None:
    """libc's internal malloc/free calls through the program's PLT: once each, as the program's, as ltrace."""
    ours = run("pyltrace", CONF + opts, [progs["nonpie"]])
    theirs = run("ltrace", CONF + opts, [progs["nonpie"]])
    assert ours.returncode == 0
    assert ours.stdout == theirs.stdout == "1 2 3\n"
    if opts:
        # The build really has the canonical PLT address: strdup's malloc(6) comes through the program's stub.
        assert "nonpie->malloc(6)" in theirs.stderr
    assert _norm(ours.stderr) == _norm(theirs.stderr)


def test_nonpie_summary(progs: dict[str, Path]) -> None:
    ours = run("pyltrace", CONF + ["-c", "-e", "malloc+free"], [progs["nonpie"]])
    theirs = run("ltrace", CONF + ["-c", "-e", "malloc+free"], [progs["nonpie"]])
    rows = summary_rows(ours.stderr)
    assert rows == summary_rows(theirs.stderr)
    assert rows["malloc"] == 5 and rows["free"] == 5


@pytest.mark.parametrize("opts", [["-e", "malloc+free"], ["-c", "-e", "malloc+free"]], ids=" ".join)
def test_python_malloc_free(opts: list[str]) -> None:
    """Debian's python3 is non-PIE and takes malloc's and free's addresses: every call once, as ltrace."""
    header = subprocess.run(["readelf", "-h", PYTHON], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Type:\s+EXEC", header), "the test needs Debian's non-PIE python3"
    env = tracer_env() | {"PYTHONHASHSEED": "0"}
    cmd = [PYTHON, "-c", "pass"]
    ours = run("pyltrace", CONF + opts, cmd, env=env)
    theirs = run("ltrace", CONF + opts, cmd, env=env)
    assert ours.returncode == 0
    if "-c" in opts:
        rows = summary_rows(ours.stderr)
        assert rows == summary_rows(theirs.stderr)
        assert rows["malloc"] > 500
    else:
        assert "libc.so.6->" not in ours.stderr
        assert _norm(ours.stderr) == _norm(theirs.stderr)
