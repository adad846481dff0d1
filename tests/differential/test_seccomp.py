"""--seccomp-bpf: the output must not change, only the number of stops.

Every case of the differential corpus (tests/differential/test_vs_strace.py)
runs with -f and a narrowed trace set (its own ``-e trace=`` if it has one,
else ``NARROW``) three times: pytrace with its seccomp filter, pytrace without
it, and real ``strace -f --seccomp-bpf``; the three normalised outputs must be
equal.  The other tests check that the filter really is installed when it
should be (and only then), that -f children inherit it, that restart_syscall
names what strace names (the last traced call, which the filter cannot hide),
and strace's messages when --seccomp-bpf cannot be honoured.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import decode, group_by_process, normalise, read_line, run_tracer, start_tracer, wait_until
from test_vs_strace import CASES, PENDING_ISSUE_3, Case, Run, _run

#: The trace set used for corpus cases that trace everything: most of what the programs do, but not
#: memory management, credentials or clocks, so the filter has untraced calls to let through.
NARROW = "%file,%desc,%process,%signal,%network,restart_syscall"


def _narrowed(c: Case, seccomp: str | None) -> Case:
    """``c`` with -f (strace's filter needs it) and a narrowed set, plus ``seccomp`` (an option or None)."""
    options = list(c.options)
    if not any(o.startswith("-f") for o in options):
        options.insert(0, "-f")
    if not any(prev == "-e" and o.startswith("trace=") for prev, o in zip(options, options[1:], strict=False)):
        options += ["-e", f"trace={NARROW}"]
    if seccomp:
        options.append(seccomp)
    # With -f every trace may hold several processes: compare each process's lines (group_by_process).
    return dataclasses.replace(c, options=tuple(options), multi=c.output == "file" or c.multi)


def _diff(a_name: str, a: str, b_name: str, b: str) -> str:
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), fromfile=a_name, tofile=b_name))


def _params() -> list[Any]:
    out = []
    for c in CASES:
        marks = []
        if c.id in PENDING_ISSUE_3:
            marks.append(pytest.mark.xfail(strict=True, reason=f"issue #3: {PENDING_ISSUE_3[c.id]} pending"))
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


@pytest.mark.differential
@pytest.mark.parametrize("c", _params())
def test_seccomp_output_identical(c: Case, programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace with the filter == pytrace without it == strace -f --seccomp-bpf (normalised)."""
    from helpers import free_port_block

    port = free_port_block() if "{port}" in c.command else 0
    runs: dict[str, Run] = {}
    for label, tracer, flag in (
        ("strace --seccomp-bpf", "strace", "--seccomp-bpf"),
        ("pytrace --seccomp-bpf", "pytrace", "--seccomp-bpf"),
        ("pytrace --no-seccomp-bpf", "pytrace", "--no-seccomp-bpf"),
    ):
        # The same working directory for every run (paths show in the trace); _run writes the trace
        # under tmp_path/out-TRACER, moved aside before the same tracer runs again.
        runs[label] = _run(tracer, _narrowed(c, flag), programs, tmp_path, port)
        (tmp_path / f"out-{tracer}").rename(tmp_path / f"out-{tracer}{flag}")
    problems = []
    base_label, base = next(iter(runs.items()))
    for label, run in list(runs.items())[1:]:
        for what in ("trace", "stderr", "stdout"):
            want, got = getattr(base, what), getattr(run, what)
            if want != got:
                problems.append(_diff(f"{base_label} {what}", want, f"{label} {what}", got) or f"{what} differs")
        if run.returncode != base.returncode:
            problems.append(f"exit status: {base_label} {base.returncode}, {label} {run.returncode}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def _seccomp_mode(*options: str) -> str:
    """The Seccomp: line of /proc/self/status as the traced command sees it (2 = filter installed)."""
    result = run_tracer("pytrace", [*options, "-o", os.devnull], ["grep", "^Seccomp:", "/proc/self/status"])
    assert result.returncode == 0, decode(result.stderr)
    return decode(result.stdout).split()[-1]


@pytest.mark.parametrize(
    ("options", "mode"),
    [
        # pytrace's own choice: launched, narrowed set and --kill-on-exit (the filter would make
        # calls fail with ENOSYS in tracees that outlive the tracer)
        (("-f", "-e", "trace=openat", "--kill-on-exit"), "2"),
        (("-f", "-e", "trace=openat"), "0"),
        (("-f", "-e", "trace=openat", "--seccomp-bpf"), "2"),
        (("-f", "-e", "trace=openat", "--no-seccomp-bpf"), "0"),
        # without -f the children are followed silently (test_seccomp_no_follow.py), so no ENOSYS: on
        (("-e", "trace=openat", "--kill-on-exit"), "2"),
        (("-e", "trace=openat", "--seccomp-bpf"), "2"),  # strace 6.1 refuses it; pytrace does better
        (("-e", "trace=openat"), "0"),
        (("-n", "-e", "trace=openat", "--seccomp-bpf"), "0"),  # strace's output without -f (no filter) shows -n
        (("-f", "--kill-on-exit"), "0"),  # everything traced: nothing to filter
        (("-f", "-e", "trace=all", "--kill-on-exit"), "0"),
        (("-f", "-e", "trace=openat", "-b", "execve", "--kill-on-exit"), "0"),
        (("-f", "-n", "-e", "trace=openat", "--kill-on-exit"), "0"),  # -n shows the last syscall on signal lines
        (("-f", "-n", "-e", "trace=openat", "--seccomp-bpf"), "2"),  # asked for: honoured, as strace does
        # A signal to inject needs real syscall-entry stops (the kernel drops it at a seccomp stop).
        (("-f", "-e", "trace=openat", "-e", "inject=openat:signal=SIGUSR1:when=1000", "--kill-on-exit"), "0"),
        (("-f", "-e", "trace=openat", "-e", "inject=openat:error=ENOENT:when=1000", "--kill-on-exit"), "2"),
    ],
)
def test_filter_installed_exactly_when_it_should(options: tuple[str, ...], mode: str) -> None:
    assert _seccomp_mode(*options) == mode


def test_children_inherit_the_filter_and_stay_traced(tmp_path: Path) -> None:
    """A -f grandchild runs under the filter and its traced calls are still shown (no ENOSYS)."""
    out = tmp_path / "trace"
    script = "grep ^Seccomp: /proc/self/status; cat /etc/hostname > /dev/null"
    result = run_tracer("pytrace", ["-f", "-e", "trace=openat", "--seccomp-bpf", "-o", str(out)], ["sh", "-c", script])
    assert result.returncode == 0, decode(result.stderr)
    assert decode(result.stdout).split() == ["Seccomp:", "2"]
    assert 'openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3' in decode(out.read_bytes())


@pytest.mark.parametrize(
    ("options", "command"),
    [
        (("--seccomp-bpf", "-n", "-e", "trace=openat"), ["true"]),
        (("--seccomp-bpf", "-f"), ["true"]),
        (("--seccomp-bpf", "-f", "-b", "execve", "-e", "trace=openat"), ["true"]),
        (("--seccomp-bpf", "-e", "trace=all"), ["true"]),
    ],
)
def test_messages_when_it_cannot_be_used(options: tuple[str, ...], command: list[str], tmp_path: Path) -> None:
    """strace's wording (and order) when --seccomp-bpf is refused; the run itself goes on."""
    got = {}
    for tracer in ("strace", "pytrace"):
        result = run_tracer(tracer, [*options, "-o", str(tmp_path / tracer)], command)
        got[tracer] = (normalise(decode(result.stderr)), result.returncode)
    assert got["pytrace"] == got["strace"]
    assert "seccomp" in got["strace"][0].lower()


def test_attach_message_and_no_filter_for_attached(programs: dict[str, Path], tmp_path: Path) -> None:
    """-p processes never get a filter; --seccomp-bpf says so, as strace does."""
    sleeper = subprocess.Popen([str(programs["stopper"]), str(tmp_path / "ticks")], stdout=subprocess.PIPE)
    try:
        read_line(sleeper.stdout, 10)
        tracer = start_tracer("pytrace", ["-f", "--seccomp-bpf", "-e", "trace=openat", "-p", str(sleeper.pid),
                                          "-o", str(tmp_path / "trace")], [])
        first = decode(read_line(tracer.stderr, 30))
        attached = decode(read_line(tracer.stderr, 30))  # the tracer is in its loop: safe to interrupt
        status = Path(f"/proc/{sleeper.pid}/status").read_text()
        tracer.send_signal(signal.SIGINT)
        tracer.communicate(timeout=10)
        assert first == "pytrace: --seccomp-bpf is not enabled for processes attached with -p\n"
        assert attached == f"pytrace: Process {sleeper.pid} attached\n"
        assert "Seccomp:\t0" in status
    finally:
        (tmp_path / "ticks.done").write_text("")
        sleeper.wait(timeout=10)


@pytest.mark.parametrize("tracer_name", ["pytrace", "strace"])
def test_restart_syscall_names_the_call_it_resumes(
    tracer_name: str, programs: dict[str, Path], tmp_path: Path
) -> None:
    """kill -STOP/-CONT during nanosleep, only restart_syscall traced: the same names with and without the filter.

    strace 6.1 names the last *traced* call the thread returned from (its s_prev_ent), not the
    untraced clock_nanosleep: "system call" for the first restart, then "restart_syscall".  The
    filter hides untraced calls, which therefore cannot change the names.
    """
    texts = {}
    for flag in ("--seccomp-bpf", "--no-seccomp-bpf"):
        out = tmp_path / f"trace{flag}"
        ticks = tmp_path / f"ticks{flag}"
        options = ["-f", "-e", "trace=restart_syscall", "-o", str(out)]
        if tracer_name == "pytrace" or flag == "--seccomp-bpf":  # strace 6.1 has no --no-seccomp-bpf
            options.append(flag)
        tracer = start_tracer(tracer_name, options,
                              [str(programs["stopper"]), str(ticks)])
        try:
            pid = int(read_line(tracer.stdout, 10))
            ticking = ticks  # bound for the closure below

            def progressed(f: Path = ticking) -> bool:
                return f.exists() and f.stat().st_size > 0

            for _ in range(3):
                assert wait_until(progressed, 10)
                os.kill(pid, signal.SIGSTOP)
                time.sleep(0.1)
                os.kill(pid, signal.SIGCONT)
                time.sleep(0.1)
        finally:
            Path(f"{ticks}.done").write_text("")
            tracer.communicate(timeout=20)
        texts[flag] = decode(out.read_bytes())
    for flag, text in texts.items():
        resumed = [line for line in text.splitlines() if "restart_syscall(" in line]
        assert resumed, f"{flag}: no restart_syscall line in\n{text}"
        names = [line.split("resuming interrupted ")[1].split(" ...>")[0] for line in resumed]
        assert names == ["system call"] + ["restart_syscall"] * (len(names) - 1), f"{flag}:\n{text}"


@pytest.mark.parametrize(
    "options",
    [
        ("-e", "trace=openat,read", "-e", "inject=openat:error=ENOENT:when=3+"),
        ("-e", "trace=write", "-e", "inject=write:signal=SIGUSR1:when=2"),
        ("-e", "trace=write", "-e", "inject=write:retval=1"),
    ],
    ids=["error", "signal", "retval"],
)
def test_tampering_is_the_same_under_the_filter(options: tuple[str, ...], tmp_path: Path) -> None:
    """-e inject=/fault= with the filter: a seccomp stop (the entry) is tampered with as a syscall-entry stop.

    Except for signal=: the kernel drops a signal given when resuming a seccomp stop (strace 6.1
    loses it the same way), so pytrace leaves the filter off by default when a signal is to be
    injected, and an explicit --seccomp-bpf gives strace --seccomp-bpf's output.
    """
    command = ["sh", "-c", "echo a; echo b; cat /etc/hostname"]
    got = {}
    for label, tracer, extra in (
        ("strace", "strace", ()),
        ("strace --seccomp-bpf", "strace", ("--seccomp-bpf",)),
        ("pytrace", "pytrace", ()),
        ("pytrace --seccomp-bpf", "pytrace", ("--seccomp-bpf",)),
        ("pytrace --no-seccomp-bpf", "pytrace", ("--no-seccomp-bpf",)),
    ):
        out = tmp_path / label.replace(" ", "_")
        result = run_tracer(tracer, ["-f", *options, *extra, "-o", str(out)], command)
        got[label] = (normalise(group_by_process(decode(out.read_bytes())), None), decode(result.stdout),
                      result.returncode)
    assert got["pytrace"] == got["strace"]
    assert got["pytrace --no-seccomp-bpf"] == got["strace"]
    assert got["pytrace --seccomp-bpf"] == got["strace --seccomp-bpf"]
    if "signal" not in " ".join(options):
        assert got["strace --seccomp-bpf"] == got["strace"]


def test_with_attached_processes_children_are_marked_at_their_first_seccomp_stop(
    programs: dict[str, Path], tmp_path: Path
) -> None:
    """-p PID plus a command: only the command is filtered; its -f children are recognised lazily.

    With an attached (unfiltered) process around, a new child may come from either side, so a child
    is resumed with PTRACE_SYSCALL until its first seccomp stop shows it carries the filter (strace's
    TCB_SECCOMP_FILTER logic); its traced calls must be shown exactly once either way.
    """
    ticks = tmp_path / "ticks"
    attached = subprocess.Popen([str(programs["stopper"]), str(ticks)], stdout=subprocess.PIPE)
    try:
        read_line(attached.stdout, 10)
        assert "Seccomp:\t0" in Path(f"/proc/{attached.pid}/status").read_text()
        out = tmp_path / "trace"
        # The command ends the attached program too (its .done file), or the tracer would wait for it.
        script = f"cat /etc/hostname; grep ^Seccomp: /proc/self/status; : > {ticks}.done"
        result = run_tracer("pytrace", ["-f", "-q", "--seccomp-bpf", "-e", "trace=openat,execve", "-p",
                                        str(attached.pid), "-o", str(out)], ["sh", "-c", script])
        assert result.returncode == 0, decode(result.stderr)
        assert decode(result.stdout).split()[-2:] == ["Seccomp:", "2"]
        lines = decode(out.read_bytes()).splitlines()
        hostname = [line for line in lines if '"/etc/hostname"' in line and "openat(" in line]
        assert len(hostname) == 1 and hostname[0].endswith("= 3"), lines
        assert sum("execve(" in line for line in lines) == 3, lines  # sh, cat, grep: each once
    finally:
        (tmp_path / "ticks.done").write_text("")
        attached.wait(timeout=10)
