"""USDT probes through ``pyltrace --backend=ebpf``: the ptrace backend's lines, bpftrace's values, kernel semaphores.

The programs are test_usdt.py's (its ``prog`` fixture: src/usdt.c with its
semaphore-guarded probes in the program and in libusdtlib.so, at -O2 and -O0)
and Debian's /usr/bin/python3.11.  Each trace is taken with both backends and
compared line for line (the one string pointer, which ASLR moves, blanked);
test_usdt.py already holds the ptrace backend's lines to bpftrace's values and
the program's own source, and the O2 case is compared with bpftrace here again.
The semaphores are the uprobes' reference counters here: raised by the kernel
while the probe is installed, lowered when pyltrace lets go -- and when it is
SIGKILLed, which no user-space tracer could do.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import REPO_ROOT, tracer_env
from lthelp import normalise, pyltrace_cmd, run, summary_rows
from test_ebpf_backend import _prog_ids_of, _wait_for
from test_usdt import PYTHON, _semaphore, bpftrace, probe_lines, prog  # noqa: F401  (prog: the fixture)

from pytrace.backends.ebpf.bpf import loaded_program_ids

EBPF = ["--backend=ebpf"]
_PTR = re.compile(r"\b\d{9,}\b")  # the string pointer tracetest:loop carries, printed in decimal


def both(args: list[str], cmd: list[str | Path]) -> tuple[subprocess.CompletedProcess[str], ...]:
    """(ptrace run, eBPF run) of the same command line."""
    return run("pyltrace", args, cmd), run("pyltrace", EBPF + args, cmd)


def same_probe_lines(a: str, b: str) -> list[str]:
    """The probe lines of two traces, equal once pointers, pids and times are normalised; those of ``b``."""
    la, lb = ([_PTR.sub("PTR", ln) for ln in normalise("\n".join(probe_lines(t))).splitlines()] for t in (a, b))
    assert la == lb
    assert lb
    return lb


@pytest.mark.parametrize("opt", ["O2", "O0"])
def test_c_program_same_as_ptrace(prog: dict[str, Path], opt: str) -> None:  # noqa: F811
    """Registers, memory operands (``-4@-4(%rbp)`` at -O0, ``-8@counter(%rip)`` at -O2), sizes and signs,
    the program's and its library's semaphore-guarded probes: the same lines, and the program saw both
    semaphores raised (by the kernel)."""
    p, e = both(["-e", "usdt:*"], [prog[opt], "4"])
    assert p.returncode == e.returncode == 0, e.stderr
    assert e.stdout == p.stdout == "semaphore guarded=on hit=on\n"
    lines = same_probe_lines(p.stderr, e.stderr)
    assert len(lines) == 16 and "usdt:tracetest:mixed(-3, 203, 6)" in lines
    assert e.stderr.splitlines()[-1] == "+++ exited (status 0) +++"


def test_values_equal_bpftrace(prog: dict[str, Path]) -> None:  # noqa: F811
    exe = prog["O2"]
    r = run("pyltrace", EBPF + ["-e", "usdt:tracetest:*"], [exe, "3"])
    mine = []
    for ln in probe_lines(r.stderr):
        m = re.match(r"usdt:tracetest:(\w+)\(([^)]*)\)", ln)
        assert m
        mine.append(f"{m[1]} {' '.join(a.strip() for a in m[2].split(',')[:2])}")
    ref = bpftrace(f'usdt:{exe}:tracetest:loop {{ printf("B loop %d %d\\n", arg0, arg1); }} '
                   f'usdt:{exe}:tracetest:mixed {{ printf("B mixed %d %d\\n", arg0, arg1); }} '
                   f'usdt:{exe}:tracetest:guarded {{ printf("B guarded %d\\n", arg0); }}', exe, "3")
    # (the pointer differs between the two runs: ASLR)
    assert [re.sub(r"^loop (\S+) \S+$", r"loop \1", x) for x in mine] == \
        [re.sub(r"^loop (\S+) \S+$", r"loop \1", x) for x in ref]


def test_python_same_as_ptrace_and_bpftrace() -> None:
    """CPython's probes: strings copied in the kernel (usdt.conf declares them), line numbers."""
    script = "def f(): pass\nf()"
    p, e = both(["-e", "usdt:python:function__*"], [PYTHON, "-c", script])
    assert p.returncode == e.returncode == 0, e.stderr
    lines = same_probe_lines(p.stderr, e.stderr)
    assert 'usdt:python:function__return("<string>", "f", 1)' in lines
    assert lines[-1] == 'usdt:python:function__return("<string>", "<module>", 2)'
    tmp = Path("/tmp") / f"pyltrace_usdt_ebpf_{time.monotonic_ns()}.py"
    tmp.write_text(script + "\n")
    try:
        ref = bpftrace(f'usdt:{PYTHON}:python:function__entry {{ printf("B %s|%s|%d\\n", str(arg0), str(arg1), arg2); }}',
                       PYTHON, tmp)
    finally:
        tmp.unlink()
    assert [f'usdt:python:function__entry("{f}", "{n}", {ln})' for f, n, ln in (x.split("|") for x in ref)] == \
        [ln for ln in lines if "function__entry" in ln]


def test_strings_prototypes_and_s(prog: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    """A -F prototype makes an argument a string (copied in the kernel, cut at -s as ptrace's)."""
    conf = tmp_path / "usdt.conf"
    conf.write_text("void tracetest:loop(int, string);\nvoid tracetest:mixed(short, char, long);\n")
    for extra in ([], ["-s", "3"]):
        p, e = both(["-F", str(conf), *extra, "-e", "usdt:tracetest:loop+tracetest:mixed"], [prog["O2"], "2"])
        lines = same_probe_lines(p.stderr, e.stderr)
        assert lines[0] == ('usdt:tracetest:loop(0, "hel"...)' if extra else 'usdt:tracetest:loop(0, "hello")')
    p, e = both(["-e", "usdt:python:import__find__load__start"], [PYTHON, "-c", "import json"])
    assert 'usdt:python:import__find__load__start("json")' in same_probe_lines(p.stderr, e.stderr)


def test_semaphores_only_for_selected_probes(prog: dict[str, Path]) -> None:  # noqa: F811
    r = run("pyltrace", EBPF + ["-e", "usdt:*:hit@libusdtlib.so"], [prog["O2"], "2"])
    assert r.stdout == "semaphore guarded=off hit=on\n"
    assert probe_lines(r.stderr) == ["usdt:usdtlib:hit(0, 1000000000000)", "usdt:usdtlib:hit(1, 1000000000001)"]


def test_options_and_calls_together(prog: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    """-f -ttt -o, -r -i, -n, and library calls traced in the same run: the ptrace backend's lines."""
    for args in (["-f", "-ttt", "-e", "usdt:tracetest:guarded", "-e", "printf"],
                 ["-r", "-i", "-e", "usdt:tracetest:guarded+tracetest:loop"],
                 ["-n", "2", "-e", "usdt:usdtlib:*", "-e", "usdtlib_hit"]):
        traces = []
        for backend in ([], EBPF):
            out = tmp_path / "trace"
            r = run("pyltrace", [*backend, "-o", str(out), *args], [prog["O2"], "2"])
            assert r.returncode == 0, r.stderr
            traces.append(_PTR.sub("PTR", normalise(out.read_text())))
        assert traces[0] == traces[1], args
        assert "usdt:" in traces[1]
    assert "usdtlib_hit(0, ADDR1, ADDR2, ADDR3 <unfinished ...>\n  usdt:usdtlib:hit(0, PTR)\n<... usdtlib_hit resumed> )" \
        in traces[1]  # (-n 2: the probe indented inside the call it interrupts)


def test_count_and_json(prog: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    p, e = both(["-c", "-e", "usdt:*"], [prog["O2"], "5"])
    assert summary_rows(e.stderr) == summary_rows(p.stderr) == {
        "usdt:tracetest:loop": 5, "usdt:tracetest:mixed": 5, "usdt:tracetest:guarded": 5, "usdt:usdtlib:hit": 5}
    recs = []
    for backend in ([], EBPF):
        out = tmp_path / "t.jsonl"
        run("pyltrace", [*backend, "--json", "-o", str(out), "-e", "usdt:tracetest:mixed"], [prog["O2"], "2"])
        recs.append([re.sub(r'"(pid|tid|time|ip|ts|timestamp)": *[0-9.e+]+', "", ln)
                     for ln in out.read_text().splitlines() if '"usdt"' in ln])
    assert recs[0] == recs[1] and len(recs[1]) == 2


# -- semaphores and BPF objects after pyltrace ends ------------------------------------------------------------


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_attach_semaphores_back_to_zero(prog: dict[str, Path], tmp_path: Path, how: int) -> None:  # noqa: F811
    """-p: the semaphores are raised while pyltrace traces and back to 0 once it is gone, by Ctrl-C or by
    SIGKILL (the kernel drops the uprobes, and their reference counts, with its descriptors); no BPF
    program of it is left, and the program runs on."""
    child = subprocess.Popen([str(prog["O2"]), "0", "wait"], stdout=subprocess.PIPE, text=True)
    tracer = None
    try:
        assert child.stdout is not None
        addrs = [int(a, 16) for a in child.stdout.readline().split()[1:]]
        assert [_semaphore(child.pid, a) for a in addrs] == [0, 0]
        out = tmp_path / "trace"
        tracer = subprocess.Popen(pyltrace_cmd() + EBPF + ["-p", str(child.pid), "-o", str(out), "-e", "usdt:*"],
                                  env=tracer_env(), cwd=str(REPO_ROOT), stderr=subprocess.PIPE, text=True)
        assert _wait_for(lambda: "usdt:usdtlib:hit(" in (out.read_text() if out.exists() else ""), 60), \
            "no probe hit seen"
        assert [_semaphore(child.pid, a) for a in addrs] == [1, 1]
        ids = _prog_ids_of(tracer.pid)
        assert ids
        tracer.send_signal(how)
        _, err = tracer.communicate(timeout=60)
        assert "Traceback" not in err
        assert _wait_for(lambda: [_semaphore(child.pid, a) for a in addrs] == [0, 0]), "semaphores left raised"
        assert _wait_for(lambda: not (ids & set(loaded_program_ids()))), "BPF programs left behind"
        assert child.poll() is None
        lines = probe_lines(out.read_text())
        assert all(ln.startswith(f"{child.pid} usdt:") for ln in lines)
    finally:
        if tracer is not None and tracer.poll() is None:
            tracer.kill()
        child.kill()
        child.wait()


def test_perf_event_uprobes_semaphores(prog: dict[str, Path]) -> None:  # noqa: F811
    """The single-probe path (perf_event_open uprobes, before Linux 6.6): the semaphore is the event's
    ``ref_ctr_offset`` config bits; the same lines."""
    from test_ebpf_backend import _PERF_EVENTS_DRIVER

    ptrace = run("pyltrace", ["-e", "usdt:*"], [prog["O2"], "3"])
    perf = subprocess.run([pyltrace_cmd()[0], "-c", _PERF_EVENTS_DRIVER, *EBPF, "-e", "usdt:*", str(prog["O2"]), "3"],
                          capture_output=True, text=True, timeout=60, cwd=str(REPO_ROOT), stdin=subprocess.DEVNULL,
                          env=tracer_env())
    assert perf.returncode == 0, perf.stderr
    assert perf.stdout == "semaphore guarded=on hit=on\n"
    same_probe_lines(ptrace.stderr, perf.stderr)


def test_fork_child(prog: dict[str, Path]) -> None:  # noqa: F811
    """-f: the child's hits under its own pid, as on ptrace.  Without -f the child's hits are not shown;
    its copy of the semaphores stays raised (fork copies the memory, and no one lowers it in the child
    before its first hit), where the ptrace backend lowers it: the one difference, documented."""
    args = ["-e", "usdt:tracetest:guarded+usdtlib:hit"]
    p, e = both(["-f", *args], [prog["O2"], "1", "fork"])
    assert e.stdout.splitlines() == ["semaphore guarded=on hit=on", "child guarded=on hit=on"]
    lines = same_probe_lines(p.stderr, e.stderr)
    assert [ln.split(" ", 2)[2] for ln in lines] == [
        "usdt:tracetest:guarded(0)", "usdt:usdtlib:hit(0, PTR)", "usdt:tracetest:guarded(1000)",
        "usdt:usdtlib:hit(100, PTR)"]
    assert len({ln.split(" ", 2)[1] for ln in lines}) == 2  # parent's and child's pid
    e = run("pyltrace", EBPF + args, [prog["O2"], "1", "fork"])
    assert e.stdout.splitlines() == ["semaphore guarded=on hit=on", "child guarded=on hit=on"]
    assert probe_lines(e.stderr) == ["usdt:tracetest:guarded(0)", "usdt:usdtlib:hit(0, 1000000000000)"]


def test_programs_released_when_the_command_ends(prog: dict[str, Path], tmp_path: Path) -> None:  # noqa: F811
    """A launched command ends (here killed): pyltrace reports it, exits, and leaves no BPF program loaded."""
    out = tmp_path / "trace"
    tracer = subprocess.Popen(pyltrace_cmd() + EBPF + ["-o", str(out), "-e", "usdt:*", str(prog["O2"]), "0", "wait"],
                              env=tracer_env(), cwd=str(REPO_ROOT), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        assert _wait_for(lambda: "usdt:usdtlib:hit(" in (out.read_text() if out.exists() else ""), 60)
        ids = _prog_ids_of(tracer.pid)
        assert ids
        child = int(Path(f"/proc/{tracer.pid}/task/{tracer.pid}/children").read_text().split()[0])
        subprocess.run(["kill", "-KILL", str(child)], check=True)
        _, err = tracer.communicate(timeout=60)
        assert tracer.returncode == -signal.SIGKILL and "Traceback" not in err, err  # (it dies as its command did)
        assert out.read_text().splitlines()[-1] == "+++ killed by SIGKILL +++"
        assert _wait_for(lambda: not (ids & set(loaded_program_ids()))), "BPF programs left behind"
    finally:
        if tracer.poll() is None:
            tracer.kill()
            tracer.wait()


def test_dlopened_library_probe_and_semaphore(prog: dict[str, Path]) -> None:  # noqa: F811
    """A library dlopen'ed after the start: its probe attached at r_brk, its semaphore raised by the kernel."""
    p, e = both(["-e", "usdt:usdtdl:*"], [prog["O2"], "2", "dl", prog["dl"]])
    assert e.stdout.splitlines() == p.stdout.splitlines() == ["semaphore guarded=off hit=off", "dl hit=on"]
    assert same_probe_lines(p.stderr, e.stderr) == ["usdt:usdtdl:hit(0, PTR)", "usdt:usdtdl:hit(1, PTR)"]


_INDEXED = r"""
#include <stdlib.h>
#include <sys/sdt.h>
long table[8] = {10, 20, 30, 40, 50, 60, 70, 80};
int main(void) {
    long *p = malloc(8 * sizeof(long));
    for (int i = 0; i < 8; i++) p[i] = 100 * i - 1;
    for (volatile int i = 0; i < 8; i++) {
        long j = i;
        STAP_PROBE3(idx, hit, table[j], p[j], p[j + 1 < 8 ? j + 1 : 0]);
    }
    free(p);
    return 0;
}
"""


def test_indexed_memory_operands(tmp_path: Path) -> None:
    """``disp(base, index, scale)`` operands (gcc -O2 writes ``-8@(%rsi,%rdx,8)`` for ``table[j]``): the
    address computed in the kernel from three registers; the values are the source's."""
    src = tmp_path / "idx.c"
    src.write_text(_INDEXED)
    exe = tmp_path / "idx"
    subprocess.run(["gcc", "-O2", "-o", str(exe), str(src)], check=True, timeout=120)
    listing = run("pyltrace", ["--list-usdt"], [exe]).stdout
    assert re.search(r"-8@\(%\w+,%\w+,8\)", listing), listing
    p, e = both(["-e", "usdt:idx:*"], [exe])
    assert same_probe_lines(p.stderr, e.stderr) == [
        f"usdt:idx:hit({10 * (i + 1)}, {100 * i - 1}, {100 * ((i + 1) % 8) - 1})" for i in range(8)]
