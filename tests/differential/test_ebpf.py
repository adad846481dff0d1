"""The eBPF backend against the ptrace backend (and so, transitively, strace) on the same programs.

Here, for forking programs under -f and the -c counts: the sequence of syscalls per process,
their return values and every quoted string (paths, buffers, argv) equal the ptrace backend's.
Line-by-line equality over a corpus of programs and options is test_ebpf_vs_ptrace.py's.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from helpers import group_by_process, run_tracer

_LINE = re.compile(r"^(?:(?P<pid>\w+) +)?(?P<name>\w+)\((?P<args>.*)\) += (?P<ret>-?\w+)")
_PID_RESULTS = frozenset(("set_tid_address", "getpid", "gettid", "getppid", "clone", "clone3", "fork", "vfork",
                          "wait4", "waitid"))
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"(?:\.\.\.)?')


def _calls(text: str) -> dict[str, list[tuple[str, list[str], str]]]:
    """Per process: (name, quoted strings, return value) of each complete syscall line."""
    out: dict[str, list[tuple[str, list[str], str]]] = {}
    order: dict[str, str] = {}
    for line in text.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        pid = m.group("pid") or "main"
        key = order.setdefault(pid, f"P{len(order)}")
        ret = m.group("ret")
        ret = "ADDR" if ret.startswith("0x") else "PID" if m.group("name") in _PID_RESULTS else ret
        out.setdefault(key, []).append((m.group("name"), _STRING.findall(m.group("args")), ret))
    return out


def _run(backend: str, args: list[str], cmd: list[str], tmp_path: Path) -> tuple[str, int]:
    out = tmp_path / f"{backend}.txt"
    proc = run_tracer("pytrace", [f"--backend={backend}", *args, "-o", str(out)], cmd)
    assert proc.stderr.decode() == "", proc.stderr
    return out.read_text(), proc.returncode


@pytest.mark.differential
@pytest.mark.parametrize(
    "args, cmd",
    [
        (["-e", "trace=%file"], ["{fileops}", "{dir}"]),
        (["-e", "trace=openat,read,write,close"], ["cat", "/etc/hostname"]),
        (["-e", "trace=!futex"], ["{strings}"]),
        (["-f", "-e", "trace=%process,openat"], ["{forker}"]),
        (["-e", "trace=getppid,getpid,exit_group"], ["{exitcode}", "5"]),
    ],
    ids=["fileops-file", "cat", "strings", "forker-f", "exitcode"],
)
def test_stream_matches_ptrace(args: list[str], cmd: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    argv = [str(programs[c[1:-1]]) if c.startswith("{") and c != "{dir}" else c for c in cmd]
    argv = [str(tmp_path / "work") if c == "{dir}" else c for c in argv]
    ebpf, rc_e = _run("ebpf", args, argv, tmp_path)
    shutil.rmtree(tmp_path / "work", ignore_errors=True)  # the program creates files: start clean
    (tmp_path / "work").mkdir()
    ptrace, rc_p = _run("ptrace", args, argv, tmp_path)
    assert rc_e == rc_p
    if "-f" in args:  # ptrace splits interleaved calls into unfinished/resumed halves; join them
        ebpf, ptrace = group_by_process(ebpf), group_by_process(ptrace)
    ours, ref = _calls(ebpf), _calls(ptrace)
    assert sorted(map(len, ours.values())) == sorted(map(len, ref.values()))
    unmatched = list(ours.values())
    for calls in ref.values():
        match = next((o for o in unmatched if _same_process(o, calls)), None)
        assert match is not None, (calls, ours)
        unmatched.remove(match)


def _same_process(ebpf: list[tuple[str, list[str], str]], ptrace: list[tuple[str, list[str], str]]) -> bool:
    """Same calls, results and quoted strings (the kernel copies what the decoders print)."""
    return ebpf == ptrace


@pytest.mark.parametrize(("options", "named"), [(["-b", "execve"], "-b execve"), (["-e", "kvm=vcpu"], "-e kvm=vcpu")])
def test_unavailable_names_the_way_out(options: list[str], named: str, tmp_path: Path) -> None:
    """An option eBPF cannot honour is refused with a one-line pointer to --backend=ptrace."""
    proc = run_tracer("pytrace", ["--backend=ebpf", *options], ["true"])
    err = proc.stderr.decode()
    assert proc.returncode == 1
    assert err.count("\n") == 1 and f"option {named} is not supported with --backend=ebpf" in err, err
    assert "--backend=ptrace" in err


_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(?P<calls>\d+)\s+(?P<errors>\d*)\s*(?P<name>\w+)$")


def _counts(table: str) -> dict[str, tuple[int, int]]:
    out = {}
    for line in table.splitlines():
        if m := _ROW.match(line):
            out[m["name"]] = (int(m["calls"]), int(m["errors"] or 0))
    return out


@pytest.mark.differential
@pytest.mark.parametrize("args, cmd", [
    ([], ["{summary}"]),
    (["-f"], ["{summary}", "fork"]),
    (["-e", "trace=getppid,openat"], ["{summary}"]),
], ids=["summary", "summary-fork-f", "summary-filtered"])
def test_in_kernel_counts_equal_ptrace_counts(args: list[str], cmd: list[str], programs: dict[str, Path],
                                              tmp_path: Path) -> None:
    """-c aggregated in the kernel gives the ptrace backend's calls and errors per syscall."""
    argv = [str(programs[c[1:-1]]) if c.startswith("{") else c for c in cmd]
    tables = {}
    for backend in ("ebpf", "ptrace"):
        out = tmp_path / f"{backend}.txt"
        proc = run_tracer("pytrace", [f"--backend={backend}", "-c", *args, "-o", str(out)], argv)
        assert proc.returncode == 0, proc.stderr
        tables[backend] = _counts(out.read_text())
    assert tables["ebpf"] == tables["ptrace"]
    assert tables["ebpf"]["getppid"][0] >= 1000 and tables["ebpf"]["openat"][1] >= 500


def _programs_of(pid: int) -> set[int]:
    """The ids of the BPF programs process ``pid`` holds (its fds' fdinfo ``prog_id:`` lines)."""
    ids = set()
    fd_dir = Path(f"/proc/{pid}/fdinfo")
    try:
        infos = list(fd_dir.iterdir())
    except OSError:
        return ids
    for info in infos:
        try:
            text = info.read_text()
        except OSError:
            continue
        ids.update(int(line.split()[1]) for line in text.splitlines() if line.startswith("prog_id:"))
    return ids


def test_everything_released_on_exit_and_on_ctrl_c(tmp_path: Path) -> None:
    """No BPF program outlives a run, whether the command ends or pytrace is interrupted or killed.

    The programs are those the pytrace process itself holds (other tests and tools on the host
    load programs of their own at the same time).  pytrace does not wait for the kernel to detach
    them (a holder process closes them once pytrace has exited, bpf.Resources.close_later): they
    must be gone soon after, the bound only turning a leak into a failure.
    """
    import signal
    import subprocess
    import time

    from helpers import tracer_command, tracer_env, wait_until

    from pytrace.backends.ebpf.bpf import loaded_program_ids

    for args, ends in ((["-c", "-o", str(tmp_path / "c.txt"), "sleep", "1"], "exits"),
                       (["-e", "trace=nanosleep,clock_nanosleep", "sleep", "30"], "SIGINT"),
                       # killed before its exit hands the fds over: the kernel closes them (the command,
                       # untraced from then on, ends by itself)
                       (["-f", "-c", "-o", str(tmp_path / "k.txt"), "sleep", "2"], "SIGKILL")):
        proc = subprocess.Popen([*tracer_command("pytrace"), "--backend=ebpf", *args], stderr=subprocess.PIPE,
                                env=tracer_env())
        held: set[int] = set()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(held) < 3 and proc.poll() is None:
            held |= _programs_of(proc.pid)
            time.sleep(0.02)
        assert len(held) >= 3, f"the programs never loaded ({ends})"
        if ends != "exits":
            proc.send_signal(getattr(signal, ends))
        proc.communicate(timeout=20)
        assert wait_until(lambda held=held: not held & set(loaded_program_ids()), 20), ends


def test_unprivileged_user_gets_one_line_naming_ptrace(tmp_path: Path) -> None:
    """Without CAP_BPF the error is one readable line that points at --backend=ptrace."""
    import subprocess

    from helpers import tracer_command, tracer_env

    # root without any capability (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN gone): what a container gives
    proc = subprocess.run(["setpriv", "--bounding-set=-all", "--inh-caps=-all",
                           *tracer_command("pytrace"), "--backend=ebpf", "true"],
                          capture_output=True, env=tracer_env(), cwd=tmp_path, timeout=60, check=False)
    err = proc.stderr.decode().strip().splitlines()
    assert proc.returncode == 1, err
    assert len(err) == 1 and err[0].startswith("pytrace: eBPF backend unavailable:"), err
    assert "--backend=ptrace" in err[0]
