"""--seccomp-bpf without -f: children and threads carry the filter and are followed silently.

strace 6.1 refuses --seccomp-bpf without -f ("cannot be used without -f/--follow-forks,
disabling") because an unfollowed child would inherit the filter and its filtered calls
would fail with ENOSYS.  pytrace follows those children anyway and shows nothing of them,
so its output must be exactly strace's *without* the filter and without -f, and every
child's calls must work.  tests/programs/silent_children.c makes the children: a plain
one, a signalled one, a stopped-and-continued one, a grandchild, vfork + exec, fork + exec,
a thread; each reports on stdout whether its openat worked, and the parent how each ended.
The differential corpus's cases without -f run the same way (``test_corpus_without_f``).
"""

from __future__ import annotations

import os
import re
import select
import signal
from pathlib import Path
from typing import Any

import pytest
from helpers import decode, normalise, run_tracer
from test_summary import normalise_tables

_STATUS = "grep ^Seccomp: /proc/self/status"


def _release(fifo: Path) -> None:
    """Write to the child waiting on ``fifo``; a test failure (not a hang) if no child is reading it."""
    from helpers import wait_until

    fds: list[int] = []

    def opened() -> bool:
        try:
            fds.append(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # ENXIO while nobody reads it
        except OSError:
            return False
        return True

    assert wait_until(opened, 30), f"nobody reads {fifo}: the child is gone"
    os.write(fds[0], b"go\n")
    os.close(fds[0])


def _run(tracer: str, options: list[str], command: list[str], tmp_path: Path, to_file: bool) -> tuple[str, str, int]:
    """(normalised trace, stdout, exit status): the trace from -o FILE or from stderr."""
    out = tmp_path / f"trace-{tracer}-{len(list(tmp_path.iterdir()))}"
    result = run_tracer(tracer, [*options, *(["-o", str(out)] if to_file else [])], command)
    trace = decode(out.read_bytes()) if to_file else decode(result.stderr)
    return normalise(trace), decode(result.stdout), result.returncode


@pytest.mark.parametrize("to_file", [True, False], ids=["-o", "stderr"])
def test_unfollowed_children_never_get_enosys(programs: dict[str, Path], tmp_path: Path, to_file: bool) -> None:
    """The trace, the program's own output and its exit status are strace's without -f (and without a filter)."""
    command = [str(programs["silent_children"])]
    want = _run("strace", ["-e", "trace=openat"], command, tmp_path, to_file)
    filtered = _run("pytrace", ["--seccomp-bpf", "-e", "trace=openat"], command, tmp_path, to_file)
    unfiltered = _run("pytrace", ["--no-seccomp-bpf", "-e", "trace=openat"], command, tmp_path, to_file)
    assert want[1].startswith("filter 0\n") and unfiltered[1].startswith("filter 0\n")
    assert filtered[1].startswith("filter 2\n"), filtered[1]  # the filter really is installed
    reports = filtered[1].splitlines()[1:]
    assert [line for line in reports if "openat" in line and not line.endswith("openat ok")] == []
    assert len([line for line in reports if "openat" in line]) == 9  # every child, the thread, both programs
    assert (filtered[0], filtered[1][9:], filtered[2]) == (want[0], want[1][9:], want[2]) == (
        unfiltered[0], unfiltered[1][9:], unfiltered[2])
    assert want[2] == 7
    assert 'openat(AT_FDCWD, "/etc/hostname", O_RDONLY) = 3' in want[0]


def test_kill_on_exit_turns_the_filter_on_without_f(programs: dict[str, Path], tmp_path: Path) -> None:
    """pytrace's own choice: --kill-on-exit and a narrowed set are enough now; the output stays strace's."""
    command = [str(programs["silent_children"])]
    want = _run("strace", ["-e", "trace=openat"], command, tmp_path, True)
    got = _run("pytrace", ["--kill-on-exit", "-e", "trace=openat"], command, tmp_path, True)
    assert got[1].startswith("filter 2\n")
    assert (got[0], got[1][9:], got[2]) == (want[0], want[1][9:], want[2])


def test_summary_counts_only_the_command(programs: dict[str, Path], tmp_path: Path) -> None:
    """-c: the silent children's calls are not counted, as strace without -f does not see them."""
    command = [str(programs["silent_children"])]
    tables = {}
    for tracer, options in (("strace", []), ("pytrace", ["--seccomp-bpf"])):
        result = run_tracer(tracer, ["-c", "-e", "trace=openat", *options], command)
        assert result.returncode == 7
        tables[tracer] = normalise_tables(decode(result.stderr), False)
    assert tables["pytrace"] == tables["strace"]
    assert re.search(r"^ +T +T +T +5 +openat$", tables["strace"], re.M), tables["strace"]


def test_a_child_that_outlives_the_command_keeps_working(tmp_path: Path) -> None:
    """The command exits first; its background child still carries the filter and must not get ENOSYS.

    pytrace keeps serving it (strace without -f would have returned already: a documented
    difference), so when pytrace returns the child has finished, and its output is complete.
    """
    out = tmp_path / "copy"
    script = f"(sleep 0.2; cat /etc/hostname > {out}; {_STATUS} >> {out}) & exit 3"
    got = _run("pytrace", ["--seccomp-bpf", "-e", "trace=openat"], ["sh", "-c", script], tmp_path, False)
    want = _run("strace", ["-e", "trace=openat"], ["sh", "-c", "exit 3"], tmp_path, False)
    assert got[2] == want[2] == 3
    assert out.read_text() == Path("/etc/hostname").read_text() + "Seccomp:\t2\n"
    assert got[0] == want[0]  # the shell's own openat calls, then "+++ exited with 3 +++"


@pytest.mark.parametrize(
    "options",
    [
        ("--seccomp-bpf", "-n", "-e", "trace=openat"),  # -n shows untraced calls' numbers: strace's no-filter output
        ("--seccomp-bpf", "-e", "trace=all"),
    ],
)
def test_where_pytrace_cannot_do_better_it_says_what_strace_says(options: tuple[str, ...], tmp_path: Path) -> None:
    got = {}
    for tracer in ("strace", "pytrace"):
        result = run_tracer(tracer, [*options, "-o", str(tmp_path / tracer)], ["sh", "-c", _STATUS])
        got[tracer] = (decode(result.stderr).replace("strace:", "TRACER:").replace("pytrace:", "TRACER:"),
                       decode(result.stdout), result.returncode)
    assert got["pytrace"] == got["strace"]
    assert got["strace"][0] == "TRACER: --seccomp-bpf cannot be used without -f/--follow-forks, disabling\n"
    assert got["strace"][1] == "Seccomp:\t0\n"


def test_no_message_where_strace_refuses_and_pytrace_filters(tmp_path: Path) -> None:
    """strace: "cannot be used without -f ... disabling"; pytrace filters, and its trace is strace's."""
    strace = run_tracer("strace", ["--seccomp-bpf", "-e", "trace=openat", "-o", str(tmp_path / "s")],
                        ["sh", "-c", _STATUS])
    pytrace = run_tracer("pytrace", ["--seccomp-bpf", "-e", "trace=openat", "-o", str(tmp_path / "p")],
                         ["sh", "-c", _STATUS])
    assert "cannot be used without -f" in decode(strace.stderr)
    assert decode(pytrace.stderr) == ""
    assert decode(strace.stdout) == "Seccomp:\t0\n" and decode(pytrace.stdout) == "Seccomp:\t2\n"
    assert normalise(decode((tmp_path / "p").read_bytes())) == normalise(decode((tmp_path / "s").read_bytes()))


def test_table_holes_show_as_strace_shows_them_without_a_filter(programs: dict[str, Path], tmp_path: Path) -> None:
    """With -f strace's filter lets numbers in the table's holes run unseen; without -f strace has no
    filter and prints them, so pytrace's filter stops them there (test_unknown_numbers.py has the -f side)."""
    command = [str(programs["unknown_nrs"])]
    want = _run("strace", ["-e", "trace=getpid"], command, tmp_path, True)
    got = _run("pytrace", ["--seccomp-bpf", "-e", "trace=getpid"], command, tmp_path, True)
    assert "syscall_0x190(0x6, 0x5, 0x4, 0x3, 0x2, 0x1)" in want[0]
    assert got == want


def test_a_thread_that_execs_takes_over_the_shown_process(programs: dict[str, Path], tmp_path: Path) -> None:
    """A second thread execs (edge_proc mtexec): strace without -f never sees that thread, and then sees its
    own child exit under the leader's pid, with no "superseded" line; the silent thread stands in for it."""
    command = [str(programs["edge_proc"]), "mtexec"]
    options = ["-e", "trace=execve,openat"]
    want = _run("strace", options, command, tmp_path, True)
    got = _run("pytrace", ["--seccomp-bpf", *options], command, tmp_path, True)
    assert got == want
    assert "superseded" not in want[0] and want[0].endswith("+++ exited with 0 +++\n")


def test_interrupted_it_detaches_like_strace_without_f(tmp_path: Path) -> None:
    """Ctrl-C: "Process N detached" for the command only, as strace without -f says; the silent child is
    never let go with the filter on: pytrace keeps resuming it, so what it does after the Ctrl-C works
    (detached, its openat would fail with ENOSYS) and pytrace returns once it has ended."""
    from helpers import read_line, start_tracer, wait_until

    got = {}
    for tracer, options in (("strace", []), ("pytrace", ["--seccomp-bpf"])):
        fifo, out = tmp_path / f"go-{tracer}", tmp_path / f"out-{tracer}"
        os.mkfifo(fifo)
        script = f"(read x < {fifo}; cat /etc/hostname > {out}) >/dev/null 2>&1 & echo $!; wait"
        proc = start_tracer(tracer, [*options, "-e", "trace=openat"], ["sh", "-c", script])
        try:
            read_line(proc.stdout, 30)  # the child exists (its pid) and the tracer is in its loop
            proc.send_signal(signal.SIGINT)
            err = b""
            assert proc.stderr is not None
            while b"detached" not in err:  # unbuffered reads: the message may come with the trace's lines
                assert select.select([proc.stderr], [], [], 30)[0], err
                chunk = os.read(proc.stderr.fileno(), 65536)
                assert chunk, err
                err += chunk
            _release(fifo)  # only now may the child go on
            _, more = proc.communicate(timeout=30)
            # strace returns at once; pytrace only once the child has done its work (it kept resuming it)
            assert tracer == "strace" or out.read_text() == Path("/etc/hostname").read_text()
            assert wait_until(lambda f=out: f.exists() and f.stat().st_size > 0, 30)
        finally:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))  # a child still waiting: let it end
            except OSError:
                pass
            if proc.poll() is None:
                proc.kill()
        got[tracer] = (normalise(decode(err + more).replace(f"{tracer}: ", "TRACER: ")), proc.returncode,
                       out.read_text())
    assert got["pytrace"] == got["strace"]
    assert got["strace"][0].endswith("TRACER: Process PID1 detached\n")
    assert got["strace"][2] == Path("/etc/hostname").read_text()


def test_interrupted_with_kill_on_exit_only_the_command_dies(tmp_path: Path) -> None:
    """--kill-on-exit (the filter is pytrace's own choice): Ctrl-C kills the command, as without the filter,
    but not its child, which strace without -f would not have touched either: pytrace keeps resuming it
    until it ends, so its calls after the Ctrl-C work."""
    from helpers import read_line, start_tracer, wait_until

    got = {}
    for label, options in (("plain", ["--no-seccomp-bpf"]), ("filtered", [])):
        fifo, out = tmp_path / f"go-{label}", tmp_path / f"out-{label}"
        os.mkfifo(fifo)
        script = f"(read x < {fifo}; cat /etc/hostname; {_STATUS}) > {out} 2>&1 & echo $$; wait"
        # the trace on stderr: with -o FILE PROG a tracer ignores SIGINT (strace's -I default)
        proc = start_tracer("pytrace", [*options, "--kill-on-exit", "-e", "trace=openat"], ["sh", "-c", script])
        try:
            shell = int(read_line(proc.stdout, 30))
            proc.send_signal(signal.SIGINT)
            assert wait_until(lambda pid=shell: not Path(f"/proc/{pid}").exists(), 30)  # killed and reaped
            _release(fifo)
            _, err = proc.communicate(timeout=30)
        finally:
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            if proc.poll() is None:
                proc.kill()
        assert wait_until(lambda f=out: "Seccomp" in f.read_text(), 30)
        got[label] = (normalise(decode(err)), proc.returncode, out.read_text())
    hostname = Path("/etc/hostname").read_text()
    assert got["plain"][2] == hostname + "Seccomp:\t0\n"
    assert got["filtered"] == (*got["plain"][:2], hostname + "Seccomp:\t2\n")
    assert "detached" not in got["plain"][0]


def _without_f_cases() -> list[Any]:
    """The differential corpus's cases that run without -f (and without -n, where pytrace keeps strace's refusal)."""
    from test_vs_strace import CASES

    return [pytest.param(c, id=c.id) for c in CASES
            if not any(o.startswith(("-f", "-n")) for o in c.options) and "-b" not in c.options]


@pytest.mark.differential
@pytest.mark.parametrize("c", _without_f_cases())
def test_corpus_without_f(c: Any, programs: dict[str, Path], tmp_path: Path) -> None:
    """Each corpus case without -f, narrowed as in test_seccomp.py: pytrace --seccomp-bpf == strace (no filter)."""
    import dataclasses

    from helpers import free_port_block
    from test_seccomp import NARROW, _diff
    from test_vs_strace import _run as run_case

    options = list(c.options)
    if not any(prev == "-e" and o.startswith("trace=") for prev, o in zip(options, options[1:], strict=False)):
        options += ["-e", f"trace={NARROW}"]
    port = free_port_block() if "{port}" in c.command else 0
    runs = {}
    for tracer, extra in (("strace", []), ("pytrace", ["--seccomp-bpf"])):
        runs[tracer] = run_case(tracer, dataclasses.replace(c, options=(*options, *extra)), programs, tmp_path, port)
    problems = [_diff(f"strace {what}", getattr(runs["strace"], what), f"pytrace --seccomp-bpf {what}",
                      getattr(runs["pytrace"], what))
                for what in ("trace", "stderr", "stdout") if getattr(runs["strace"], what) != getattr(runs["pytrace"], what)]
    if runs["strace"].returncode != runs["pytrace"].returncode:
        problems.append(f"exit status: strace {runs['strace'].returncode}, pytrace {runs['pytrace'].returncode}")
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
