"""pyltrace --backend=ebpf (uprobes) against pyltrace's ptrace backend: the same calls, lines and counts.

The ptrace backend is the oracle here (it is itself checked against ltrace 0.7.3 in
test_pyltrace.py): both run the same test programs, in all five PLT build
variants, and their traces must be identical once normalised as the ltrace tests
normalise (addresses, pids, times).  Plus what only this backend has to prove:
-c counted in the kernel gives the same calls, BPF programs are gone after the
run and after Ctrl-C (the traced program unharmed), and refusals are one line.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import tracer_env
from lthelp import VARIANTS, normalise, pyltrace_cmd, run, summary_rows

from pytrace.backends.ebpf.bpf import loaded_program_ids

CONF = ["-F", "/etc/ltrace.conf"]
EBPF = ["--backend=ebpf"]


def _both(args: list[str], cmd: list[str | Path]) -> tuple[subprocess.CompletedProcess[str], ...]:
    return run("pyltrace", args, cmd), run("pyltrace", EBPF + args, cmd)


def _same(args: list[str], cmd: list[str | Path]) -> str:
    ptrace, ebpf = _both(args, cmd)
    assert (ebpf.returncode, ebpf.stdout) == (ptrace.returncode, ptrace.stdout), ebpf.stderr
    assert normalise(ebpf.stderr) == normalise(ptrace.stderr)
    return ebpf.stderr


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_build_same_as_ptrace(lt: dict[str, Path], variant: str) -> None:
    """Every call, argument (strings, the printf packs), return value, nesting and the exit status."""
    text = _same(CONF, [lt[variant], "5"])
    assert 'snprintf("item 2", 16, "item %d", 2)' in text and "<... qsort resumed>" in text


@pytest.mark.parametrize("opts", [
    ["-i"], ["-T", "-n", "2"], ["-s", "3", "-A", "2"], ["-x", "cmp+mylib_twice"], ["-e", "*@MAIN-puts-printf"],
    ["-e", "strlen@libltlib.so", "-x", "mylib_len"], ["-l", "libltlib.so"], ["-t"], ["-ttt"], ["-r"], ["-a", "30"],
], ids=" ".join)
@pytest.mark.parametrize("variant", ["default", "ibt"])
def test_options_same_as_ptrace(lt: dict[str, Path], variant: str, opts: list[str]) -> None:
    _same(CONF + opts, [lt[variant]])


@pytest.mark.parametrize("variant", ["default", "noplt", "ibtnow"])
def test_summary_counted_in_kernel(lt: dict[str, Path], variant: str) -> None:
    """-c: the calls counted by the uprobe programs are the ptrace backend's calls."""
    ptrace, ebpf = _both(CONF + ["-c"], [lt[variant]])
    assert ebpf.returncode == ptrace.returncode == 0
    rows = summary_rows(ebpf.stderr)
    assert rows == summary_rows(ptrace.stderr) and rows["malloc"] == 3 and rows["strcmp"] == 3


@pytest.mark.parametrize("opts", [["-L", "-x", "mylib_twice+mylib_len"], ["-e", "strlen@libltlib.so"], ["-c"]],
                         ids=" ".join)
def test_dlopen(lt: dict[str, Path], opts: list[str]) -> None:
    """A library dlopen'ed after start-up: probed when ld.so's r_brk probe stops the program (its -x
    functions, its own PLT calls), no SIGSTOP/SIGCONT of ours shown."""
    if opts == ["-c"]:
        ptrace, ebpf = _both(CONF + opts, [lt["dl"], lt["lib"]])
        assert ebpf.returncode == 0 and summary_rows(ebpf.stderr) == summary_rows(ptrace.stderr)
        return
    text = _same(CONF + opts, [lt["dl"], lt["lib"]])
    assert "SIGSTOP" not in text and "SIGCONT" not in text
    assert ("mylib_twice@libltlib.so(21" in text) or ("strlen(" in text)


@pytest.mark.parametrize("opts", [[], ["-c"]], ids=["calls", "-c"])
def test_exec_of_the_command(lt: dict[str, Path], opts: list[str]) -> None:
    """The command execs another program (env PROG): held at the new program's entry point and probed
    there, as at start-up; its calls and exit as with the ptrace backend."""
    if opts:
        ptrace, ebpf = _both(CONF + opts, ["/usr/bin/env", lt["ibt"], "4"])
        assert ebpf.returncode == 4 and summary_rows(ebpf.stderr) == summary_rows(ptrace.stderr)
        return
    text = _same(CONF, ["/usr/bin/env", lt["ibt"], "4"])
    assert "--- Called exec() ---\nmalloc(16)" in re.sub(r" +", " ", text)
    assert "SIGSTOP" not in text and "SIGCONT" not in text


def test_signals_and_killed(lt: dict[str, Path]) -> None:
    """A handled signal inside a call, then death by SIGSEGV: same lines, and pyltrace dies the same way."""
    text = _same(CONF, [lt["signals"]])
    assert "--- SIGSEGV (Segmentation fault) ---\n+++ killed by SIGSEGV +++\n" in text


def test_output_file_and_json(lt: dict[str, Path], tmp_path: Path) -> None:
    """-o FILE gets the same lines; --json the same call records."""
    for backend, name in (([], "p"), (EBPF, "e")):
        r = run("pyltrace", backend + CONF + ["-o", str(tmp_path / f"{name}.txt")], [lt["now"]])
        assert r.returncode == 0 and r.stderr == ""
        r = run("pyltrace", backend + CONF + ["--json", "-o", str(tmp_path / f"{name}.json")], [lt["now"]])
        assert r.returncode == 0
    assert normalise((tmp_path / "e.txt").read_text()) == normalise((tmp_path / "p.txt").read_text())

    def calls(path: Path) -> tuple[str, list[tuple[str, str, str, str, str]]]:
        recs = [json.loads(line) for line in path.read_text().splitlines()]
        return recs[0]["backend"], [(r["name"], r["library"], r["caller"], normalise(r["args_text"]),
                                     normalise(r["return_text"])) for r in recs if r["type"] == "libcall"]

    backend, ours = calls(tmp_path / "e.json")
    assert backend == "ebpf" and len(ours) == 27
    assert ours == calls(tmp_path / "p.json")[1]


def test_follow_fork_and_threads(lt: dict[str, Path]) -> None:
    """-f: the fork child inherits the open fork() (its return is seen in the child), four threads' calls,
    the exec line; per process and thread the same calls as the ptrace backend (their interleaving is
    the scheduler's)."""
    ptrace, ebpf = _both(CONF + ["-f"], [lt["forkthreads"]])
    assert (ebpf.returncode, ebpf.stdout) == (ptrace.returncode, ptrace.stdout) == (3, "total=7080 child=0\n")
    text = re.sub(r" +", " ", normalise(ebpf.stderr))
    assert text.count("malloc(") == text.count("free(") == 240
    assert "<... fork resumed> ) = 0" in text and "--- Called exec() ---" in text
    assert text.rstrip().endswith("+++ exited (status 3) +++")

    def per_thread(t: str) -> list[tuple[str, ...]]:
        calls: dict[str, list[str]] = {}
        for m in re.finditer(r"^\[pid (\w+)\] (\w+)\(", t, re.M):  # call entries (not the resumed halves)
            calls.setdefault(m.group(1), []).append(m.group(2))
        return sorted(tuple(v) for v in calls.values())

    assert per_thread(text) == per_thread(re.sub(r" +", " ", normalise(ptrace.stderr)))


def test_refusals() -> None:
    """What this backend does not do: one line, ltrace's style, exit 1."""
    for opt in (["-S"], ["-w", "3"]):
        r = run("pyltrace", EBPF + opt, ["/bin/true"])
        assert r.returncode == 1 and r.stderr.count("\n") == 1 and "--backend=ebpf" in r.stderr, r.stderr
    r = run("pyltrace", ["--backend=dtrace"], ["/bin/true"])
    assert r.returncode == 1 and "invalid --backend argument" in r.stderr


def test_i386_refused(tmp_path: Path) -> None:
    src = tmp_path / "h.c"
    src.write_text('#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n')
    subprocess.run(["gcc", "-m32", "-o", str(tmp_path / "h32"), str(src)], check=True, timeout=120)
    r = run("pyltrace", EBPF, [tmp_path / "h32"])
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == "pyltrace: --backend=ebpf traces x86-64 programs only; use --backend=ptrace\n"
    r = run("pyltrace", ["--backend=dtrace"], ["/bin/true"])
    assert r.returncode == 1 and "invalid --backend argument" in r.stderr


# -- BPF objects released ------------------------------------------------------------------------------


def _prog_ids_of(pid: int) -> set[int]:
    """The BPF programs process ``pid`` holds, from its fds' fdinfo (other tests' programs do not count)."""
    ids: set[int] = set()
    for fd in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            m = re.search(r"^prog_id:\s*(\d+)$", fd.read_text(), re.M)
        except OSError:
            continue
        if m:
            ids.add(int(m.group(1)))
    return ids


def _wait_for(pred, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("mode", ["exit", "ctrl-c", "ctrl-c attached"])
def test_programs_released(lt: dict[str, Path], mode: str) -> None:
    """At the end of the run and on SIGINT every BPF program (and so every uprobe) goes; after SIGINT
    the traced program runs on, unharmed (it still ends normally on its SIGUSR1)."""
    cwd = str(Path(__file__).parents[2])
    prog = None
    if mode == "ctrl-c attached":
        prog = subprocess.Popen([str(lt["looper"])], stdout=subprocess.PIPE, text=True)
        out = prog.stdout
        assert out is not None and out.readline() == "ready\n"
        tracer = subprocess.Popen([*pyltrace_cmd(), *EBPF, "-p", str(prog.pid)], stderr=subprocess.PIPE,
                                  text=True, cwd=cwd)
    else:
        tracer = subprocess.Popen([*pyltrace_cmd(), *EBPF, str(lt["looper"])], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, cwd=cwd)
        out = tracer.stdout
        assert out is not None and out.readline() == "ready\n"
    try:
        assert tracer.stderr is not None
        line = tracer.stderr.readline()
        while line and not line.startswith("usleep(2000"):
            line = tracer.stderr.readline()
        assert line.startswith("usleep(2000"), line
        ids = _prog_ids_of(tracer.pid)
        assert len(ids) >= 3 and ids <= set(loaded_program_ids())
        looper = prog.pid if prog is not None else \
            int(Path(f"/proc/{tracer.pid}/task/{tracer.pid}/children").read_text().split()[0])
        if mode == "exit":
            os.kill(looper, signal.SIGUSR1)
            assert out.readline() == "done 1\n"
            tracer.communicate(timeout=20)
            assert tracer.returncode == 0
        else:
            tracer.send_signal(signal.SIGINT)
            tracer.wait(timeout=20)  # (not communicate(): the looper still holds the stdout pipe)
        assert _wait_for(lambda: not (ids & set(loaded_program_ids()))), "BPF programs left behind"
        if mode == "exit":
            return
        assert Path(f"/proc/{looper}").exists()
        os.kill(looper, signal.SIGUSR1)
        if prog is not None:
            rest, _ = prog.communicate(timeout=20)
            assert prog.returncode == 0 and rest == "done 1\n"
        else:
            assert out.readline() == "done 1\n"
    finally:
        for p in (tracer, prog):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()


_FORKED_LOOP = """
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    long n = strtol(argv[1], NULL, 10);
    volatile long x = -1;
    long sum = 0;
    pid_t pid = fork();
    if (pid == 0) {
        for (long i = 0; i < n; i++)
            sum += labs(x);
        _exit(sum == n ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    return WEXITSTATUS(status);
}
"""


def _build(tmp_path: Path, name: str, source: str | Path) -> Path:
    src = tmp_path / f"{name}.c"
    src.write_text(source if isinstance(source, str) else source.read_text())
    subprocess.run(["gcc", "-O2", "-fno-builtin", "-o", str(tmp_path / name), str(src)], check=True, timeout=120)
    return tmp_path / name


def test_loss_is_reported(tmp_path: Path) -> None:
    """A ring buffer far too small (4 KiB) for a -f child's 20,000 labs() calls (a child is never held
    for backpressure: its parent would see the stop): the kernel counts what it could not queue, the
    count is written into the trace and on stderr, and the exit status is non-zero although the
    program succeeded."""
    prog = _build(tmp_path, "forked", _FORKED_LOOP)
    out = tmp_path / "trace.txt"
    r = run("pyltrace", EBPF + ["-f", "--ebpf-buffer=4K", "-o", str(out)], [prog, "20000"])
    lines = out.read_text().splitlines()
    assert re.fullmatch(r"pyltrace: \d+ library call record\(s\) lost \(ring buffer full\)", lines[-1]), lines[-3:]
    assert r.returncode == 1 and r.stderr == lines[-1] + "\n"
    assert any(line.endswith("+++ exited (status 0) +++") for line in lines)
    r = run("pyltrace", EBPF + ["--ebpf-buffer=5000"], ["/bin/true"])
    assert r.returncode == 1 and "invalid --ebpf-buffer argument" in r.stderr


def test_backpressure_holds_the_command(tmp_path: Path) -> None:
    """The launched command is stopped while the ring buffer is over half full (then continued): with a
    1 MiB buffer, 30,000 calls made much faster than they are printed all arrive, and our stops never
    show.  (Without it about two thirds were lost; a few records may still be lost around the stops,
    and are then reported as above.)"""
    prog = _build(tmp_path, "w6", Path(__file__).parents[2] / "benchmarks" / "workloads" / "w6_labs.c")
    out = tmp_path / "trace.txt"
    r = run("pyltrace", EBPF + ["--ebpf-buffer=1M", "-o", str(out)], [prog, "30000"])
    text = out.read_text()
    complete = len(re.findall(r"^labs\(-1\) += 1$", text, re.M))
    assert complete >= 29_900, (complete, r.stderr)
    assert "SIGSTOP" not in text and "SIGCONT" not in text
    assert r.returncode in (0, 1) and text.rstrip().splitlines()[-1] in (
        "+++ exited (status 0) +++", *re.findall(r"^pyltrace: \d+ library call.*$", text, re.M))


_PERF_EVENTS_DRIVER = """
import sys
from pytrace.ltrace import ebpf_tracer
base = ebpf_tracer.EbpfLtraceSession.__init__
def single_probes(self, *a, **k):
    base(self, *a, **dict(k, multi=False))
ebpf_tracer.EbpfLtraceSession.__init__ = single_probes
from pytrace.cli.ltrace_cli import main
main(sys.argv[1:])
"""


@pytest.mark.parametrize("opts", [[], ["-c"]], ids=["calls", "-c"])
def test_perf_event_uprobes_same_lines(lt: dict[str, Path], opts: list[str]) -> None:
    """The single-probe path (one perf_event_open uprobe per site and direction, the pre-6.6 way) prints
    the same as the uprobe_multi links."""
    ptrace = run("pyltrace", CONF + opts, [lt["ibt"]])
    perf = subprocess.run([pyltrace_cmd()[0], "-c", _PERF_EVENTS_DRIVER, *EBPF, *CONF, *opts, str(lt["ibt"])],
                          capture_output=True, text=True, timeout=60, cwd=str(Path(__file__).parents[2]),
                          stdin=subprocess.DEVNULL, env=tracer_env())
    assert perf.returncode == ptrace.returncode == 0, perf.stderr
    if opts:
        assert summary_rows(perf.stderr) == summary_rows(ptrace.stderr)
    else:
        assert normalise(perf.stderr) == normalise(ptrace.stderr)


def test_reader_gone_sigpipe(tmp_path: Path) -> None:
    """The trace's reader goes away (-o /dev/stdout | head -1): pyltrace dies of SIGPIPE, no traceback."""
    prog = _build(tmp_path, "w6", Path(__file__).parents[2] / "benchmarks" / "workloads" / "w6_labs.c")
    tracer = subprocess.Popen([*pyltrace_cmd(), *EBPF, "-o", "/dev/stdout", str(prog), "30000"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(Path(__file__).parents[2]),
                              env=tracer_env())
    assert tracer.stdout is not None and tracer.stdout.readline().startswith(b"strtol(")
    tracer.stdout.close()
    _, err = tracer.communicate(timeout=60)
    assert tracer.returncode == -signal.SIGPIPE and b"Traceback" not in err, err
