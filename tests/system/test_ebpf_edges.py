"""``--backend=ebpf`` at its edges: -p of a bad pid, the end of what was attached, no privilege, no tracefs.

The attach tests run strace, pytrace's ptrace backend and its eBPF backend on the same scenario,
so every expectation (exit status, message, when tracing ends) is first shown by real strace.
A process that has exited but is not reaped yet (a zombie) counts as exited: the targets here are
this test's children and are only reaped after the tracer has ended.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from helpers import decode, proc_state, start_tracer, stop_process, tracer_command, tracer_env, wait_until

pytestmark = pytest.mark.system

#: (tracer, extra options): real strace, then pytrace on each backend.
VARIANTS = [("strace", []), ("pytrace", ["--backend=ptrace"]), ("pytrace", ["--backend=ebpf"])]
IDS = ["strace", "ptrace", "ebpf"]
#: Generous bounds that only turn a hang into a failure; nothing is timed.
WAIT = 30.0


def _bad_pid() -> int:
    """pid_max itself: pids are always below it, so no process can have this one."""
    return int(Path("/proc/sys/kernel/pid_max").read_text())


def _run(tracer: str, args: list[str]) -> tuple[int, str]:
    try:
        proc = subprocess.run([*tracer_command(tracer), *args], capture_output=True, env=tracer_env(),
                              stdin=subprocess.DEVNULL, timeout=WAIT, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{tracer} {' '.join(args)} still running after {WAIT} s")
    return proc.returncode, decode(proc.stderr).replace(f"{tracer}: ", "TRACER: ")


@pytest.mark.parametrize("pids", [1, 2], ids=["one", "two"])
def test_bad_pid_exits_at_once_with_straces_words(pids: int) -> None:
    bad = [str(_bad_pid() + i) for i in range(pids)]
    args = [a for pid in bad for a in ("-p", pid)]
    want = _run("strace", args)
    assert want[0] == 1 and "No such process" in want[1]
    assert _run("pytrace", ["--backend=ebpf", *args]) == want
    assert _run("pytrace", ["--backend=ebpf", "-c", *args]) == _run("strace", ["-c", *args])


class Target:
    """One thread_exit program: its pid, its worker thread's id, and a line-per-command channel."""

    def __init__(self, program: Path) -> None:
        self.proc = subprocess.Popen([str(program)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self.proc.stdout is not None
        pid, tid = self.proc.stdout.readline().split()
        self.pid, self.tid = int(pid), int(tid)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command.encode() + b"\n")
        self.proc.stdin.flush()

    def getppid(self, where: str) -> None:
        """One getppid() in the worker ("g") or the main thread ("G") -- getuid() for "u"/"U" -- waited for."""
        self.send(where)
        assert self.proc.stdout is not None
        assert self.proc.stdout.readline() == f"ok {where}\n".encode()

    def kill(self) -> None:
        stop_process(self.proc)  # type: ignore[arg-type]


def _traced_count(trace: Path, prefix: int | None = None, call: str = "getppid") -> int:
    """``call`` lines in the trace, or only those of the thread ``prefix`` (-o puts "TID " in front)."""
    if not trace.exists():
        return 0
    return sum(1 for ln in trace.read_text().splitlines()
               if f"{call}()" in ln and (prefix is None or ln.startswith(f"{prefix} ")))


def _until_traced(target: Target, trace: Path, tracer: subprocess.Popen[bytes], where: str,
                  prefix: int | None = None) -> None:
    """Make getppid() calls until one shows in the trace: the tracer is attached and tracing."""
    def seen() -> bool:
        assert tracer.poll() is None, decode(tracer.stderr.read() if tracer.stderr else b"")
        target.getppid(where)
        return wait_until(lambda: _traced_count(trace, prefix) > 0, 0.5)

    assert wait_until(seen, WAIT, interval=0), f"no getppid() traced: {trace.read_text() if trace.exists() else ''}"


def _ended(tracer: subprocess.Popen[bytes]) -> tuple[int, str]:
    try:
        _, err = tracer.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        stop_process(tracer)
        pytest.fail(f"the tracer did not end within {WAIT} s after everything it traced had exited")
    return tracer.returncode, decode(err)


def _start(tracer: str, options: list[str], trace: Path, pids: list[int]) -> subprocess.Popen[bytes]:
    args = [*options, "-e", "trace=getppid,getuid", "-o", str(trace)]
    for pid in pids:
        args += ["-p", str(pid)]
    return start_tracer(tracer, args, [])


@pytest.mark.parametrize("follow", [False, True], ids=["leader", "f"])
@pytest.mark.parametrize("tracer, options", VARIANTS, ids=IDS)
def test_ends_when_the_attached_process_exits(tracer: str, options: list[str], follow: bool,
                                              programs: dict[str, Path], tmp_path: Path) -> None:
    """-p PID: the leader thread alone (its calls are seen), or with -f every thread (the worker's are)."""
    target = Target(programs["thread_exit"])
    trace = tmp_path / "trace"
    proc = _start(tracer, [*options, *(["-f"] if follow else [])], trace, [target.pid])
    try:
        _until_traced(target, trace, proc, "g" if follow else "G")
        target.getppid("u")  # attached by now: without -f only the main thread's getuid is traced
        target.getppid("U")
        target.send("q")
        assert wait_until(lambda: proc_state(target.pid) == "Z", WAIT)  # exited, not reaped
        rc, err = _ended(proc)
    finally:
        stop_process(proc)
        target.kill()
    assert rc == 0, err
    assert "+++ exited with 0 +++" in trace.read_text()
    assert _traced_count(trace, call="getuid") == (2 if follow else 1), trace.read_text()


@pytest.mark.parametrize("tracer, options", VARIANTS, ids=IDS)
def test_several_pids_end_with_the_last(tracer: str, options: list[str], programs: dict[str, Path],
                                        tmp_path: Path) -> None:
    first, second = Target(programs["thread_exit"]), Target(programs["thread_exit"])
    trace = tmp_path / "trace"
    proc = _start(tracer, options, trace, [first.pid, second.pid])
    try:
        _until_traced(first, trace, proc, "G", first.pid)
        _until_traced(second, trace, proc, "G", second.pid)
        first.send("q")
        assert wait_until(lambda: proc_state(first.pid) == "Z", WAIT)
        # Still tracing the second one: its next call is in the trace.
        before = _traced_count(trace, second.pid)
        second.getppid("G")
        assert wait_until(lambda: _traced_count(trace, second.pid) > before, WAIT), trace.read_text()
        assert proc.poll() is None
        second.send("q")
        rc, err = _ended(proc)
    finally:
        stop_process(proc)
        first.kill()
        second.kill()
    assert rc == 0, err


@pytest.mark.parametrize("tracer, options", VARIANTS, ids=IDS)
def test_a_thread_attached_alone_ends_with_that_thread(tracer: str, options: list[str],
                                                       programs: dict[str, Path], tmp_path: Path) -> None:
    """-p TID of a thread that is not the leader: that thread only; its exit ends the trace."""
    target = Target(programs["thread_exit"])
    trace = tmp_path / "trace"
    proc = _start(tracer, options, trace, [target.tid])
    try:
        _until_traced(target, trace, proc, "g")
        target.getppid("U")  # the main thread is not traced
        target.getppid("u")
        target.send("t")
        rc, err = _ended(proc)
        assert proc_state(target.pid) == "S"  # the main thread goes on
    finally:
        stop_process(proc)
        target.kill()
    assert rc == 0, err
    assert f"{tracer}: Process {target.tid} attached\n" in err
    assert _traced_count(trace, call="getuid") == 1, trace.read_text()


@pytest.mark.parametrize("tracer, options", VARIANTS, ids=IDS)
def test_a_zombie_leader_with_live_threads_is_still_traced(tracer: str, options: list[str],
                                                          programs: dict[str, Path], tmp_path: Path) -> None:
    """-f -p PID; the main thread exits (/proc/PID/stat says Z) while the worker runs: not over yet."""
    target = Target(programs["thread_exit"])
    trace = tmp_path / "trace"
    proc = _start(tracer, [*options, "-f"], trace, [target.pid])
    try:
        _until_traced(target, trace, proc, "g")
        target.send("m")
        assert wait_until(lambda: proc_state(target.pid) == "Z", WAIT)
        before = _traced_count(trace)
        target.getppid("g")
        assert wait_until(lambda: _traced_count(trace) > before, WAIT), trace.read_text()
        assert proc.poll() is None
        target.send("q")
        rc, err = _ended(proc)
    finally:
        stop_process(proc)
        target.kill()
    assert rc == 0, err
    assert f"{tracer}: Process {target.pid} attached with 2 threads\n" in err


# -------------------------------------------------------------------------------- no BPF for us

_ONE_LINE = ("pytrace: eBPF backend unavailable: ", "; use --backend=ptrace\n")


def _ebpf_as(prefix: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """``pytrace --backend=ebpf true`` started through ``prefix`` (from a directory anyone can read)."""
    env = tracer_env()
    return subprocess.run([*prefix, *tracer_command("pytrace"), "--backend=ebpf", "true"], capture_output=True,
                          text=True, env=env, cwd="/", timeout=WAIT, check=False)


def _assert_one_line(result: subprocess.CompletedProcess[str], *words: str) -> None:
    assert result.returncode == 1, result
    assert result.stderr.startswith(_ONE_LINE[0]) and result.stderr.endswith(_ONE_LINE[1]), result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    for word in words:
        assert word in result.stderr


def test_unprivileged_user_gets_one_line(tmp_path: Path) -> None:
    if not os.access(tracer_command("pytrace")[0], os.X_OK):
        pytest.fail("the interpreter must be runnable")
    result = _ebpf_as(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"], tmp_path)
    _assert_one_line(result, "root", "CAP_BPF+CAP_PERFMON")


def test_root_without_capabilities_gets_one_line(tmp_path: Path) -> None:
    result = _ebpf_as(["setpriv", "--inh-caps=-all", "--bounding-set=-all"], tmp_path)
    _assert_one_line(result, "root", "CAP_BPF+CAP_PERFMON")


def _in_mount_namespace(setup: str) -> list[str]:
    """A prefix running the command after ``setup`` (shell) in a private mount namespace of its own."""
    return ["unshare", "--mount", "--propagation", "private", "--", "sh", "-c", setup + ' && exec "$@"', "sh"]


def test_no_tracefs_gets_one_line(tmp_path: Path) -> None:
    """No tracefs and nowhere to mount it (/sys/kernel hidden under an empty tmpfs): what a kernel without it gives."""
    result = _ebpf_as(_in_mount_namespace("mount -t tmpfs none /sys/kernel"), tmp_path)
    _assert_one_line(result, "/sys/kernel/tracing", "/sys/kernel/debug/tracing", "mounting it failed")


def test_tracefs_is_mounted_when_nothing_did(tmp_path: Path) -> None:
    """Root on a machine where tracefs is not mounted (a fresh boot, a container): mounted, as perf does."""
    setup = ("{ umount /sys/kernel/tracing 2>/dev/null || true; } && mount -t tmpfs none /sys/kernel/debug"
             " && ! grep -q ' tracefs ' /proc/self/mounts")
    result = subprocess.run([*_in_mount_namespace(setup), *tracer_command("pytrace"), "--backend=ebpf",
                             "-e", "trace=exit_group", "true"], capture_output=True, text=True, env=tracer_env(),
                            cwd="/", timeout=WAIT, check=False)
    assert (result.returncode, result.stderr) == (0, "exit_group(0)                           = ?\n+++ exited with 0 +++\n")


@pytest.mark.parametrize("follow", [False, True], ids=["no-f", "f"])
@pytest.mark.parametrize("tracer, options", VARIANTS, ids=IDS)
def test_launched_command_threads_follow_f(tracer: str, options: list[str], follow: bool, tmp_path: Path,
                                           programs: dict[str, Path]) -> None:
    """A launched command's own thread only, or with -f its threads too (threads are clones)."""
    trace = tmp_path / "trace"
    args = [*options, *(["-f"] if follow else []), "-e", "trace=getppid", "-o", str(trace)]
    proc = start_tracer(tracer, args, [str(programs["thread_exit"])], stdin=subprocess.PIPE)
    try:
        assert proc.stdout is not None and proc.stdin is not None
        line = proc.stdout.readline()
        assert line, decode(proc.stderr.read() if proc.stderr else b"")
        for where in ("g", "G", "q"):
            proc.stdin.write(where.encode() + b"\n")
            proc.stdin.flush()
            if where != "q":
                assert proc.stdout.readline() == f"ok {where}\n".encode()
        rc, err = _ended(proc)
    finally:
        stop_process(proc)
    assert rc == 0, err
    assert _traced_count(trace) == (2 if follow else 1), trace.read_text()


# ------------------------------------------------------------------ what the eBPF backend refuses

#: A command line for each option ebpf_main.UNSUPPORTED refuses (by the name it reports).
_REFUSED_ARGV = {
    "-k": ["-k"], "-i": ["-i"], "-e inject=/fault=": ["-e", "inject=openat:error=ENOENT"],
    "-ff": ["-ff", "-o", "/dev/null"], "-b execve": ["-b", "execve"], "-y": ["-y"], "-Y": ["-Y"],
    "-D": ["-D"], "-P": ["-P", "/"], "-u": ["-u", "root"], "-e kvm=vcpu": ["-e", "kvm=vcpu"],
    "--kill-on-exit": ["--kill-on-exit"],
}


def _refused() -> list[str]:
    """UNSUPPORTED's names, those whose option the parser knows (an option still being added is left out)."""
    from pytrace.cli.ebpf_main import UNSUPPORTED
    from pytrace.cli.strace_cli import LONGOPTS

    known = {f"--{o.name}" for o in LONGOPTS}
    return [name for name, _ in UNSUPPORTED if not name.startswith("--") or name in known]


def test_every_refusal_has_a_command_line() -> None:
    from pytrace.cli.ebpf_main import UNSUPPORTED

    assert {name for name, _ in UNSUPPORTED} == set(_REFUSED_ARGV)


@pytest.mark.parametrize("name", _refused())
def test_refused_options_get_one_line(name: str) -> None:
    rc, err = _run("pytrace", ["--backend=ebpf", *_REFUSED_ARGV[name], "true"])
    assert (rc, err) == (1, f"TRACER: option {name} is not supported with --backend=ebpf (it needs ptrace stops);"
                            " use --backend=ptrace\n")


@pytest.mark.parametrize("count", [False, True], ids=["stream", "c"])
def test_failed_exec_shows_only_the_execve(count: bool, tmp_path: Path) -> None:
    """A command whose exec fails: strace shows the failed execve and the exit status, never the
    launcher's own error message or exit_group; so does the eBPF backend (stream and -c)."""
    script = tmp_path / "noexec"
    script.write_text("#!/nonexistent/interpreter\n")
    script.chmod(0o755)
    opts = ["-c"] if count else []
    status, lines = {}, {}
    for tracer, extra in (("strace", []), ("pytrace", ["--backend=ebpf"])):
        rc, err = _run(tracer, [*extra, *opts, str(script)])
        assert "TRACER: exec: No such file or directory" in err
        status[tracer] = rc
        # The eBPF backend prints after the fact, so the command's own message may come first.
        lines[tracer] = [line for line in err.splitlines() if not line.startswith("TRACER: exec:")]
    assert status["pytrace"] == status["strace"] == 1
    if count:
        rows = {t: [line.split()[-3:] for line in lines[t] if line.split()[-1:] in (["execve"], ["total"])]
                for t in lines}
        assert rows["pytrace"] == rows["strace"] == [["1", "1", "execve"], ["1", "1", "total"]]
    else:
        execve, exited = lines["strace"]
        assert exited == "+++ exited with 1 +++" and execve.startswith(f'execve("{script}", ["')
        assert len(lines["pytrace"]) == 2 and lines["pytrace"][1] == exited
        # argv and the environment's count are copied in the kernel (the strv plans): strace's line.
        assert re.sub(r"0x[0-9a-f]+", "ADDR", lines["pytrace"][0]) == re.sub(r"0x[0-9a-f]+", "ADDR", execve)
