"""i386 socketcall(2) and ipc(2) subcalls under -n, -e raw=, -e trace=%class, -c/-C, -P and --seccomp-bpf.

tests/programs/multiplex32.c is built with ``gcc -m32`` here (the session's
``programs`` fixture builds 64-bit programs).  It makes socket calls through
``syscall(SYS_socketcall, ...)`` (and glibc's send/recv, which still use it),
System V IPC through ``syscall(SYS_ipc, ...)``, the direct ``sendto``/``recvfrom``
syscalls next to their socketcall twins, invalid socketcall/ipc numbers and an
unreadable socketcall array, and repeats a few of them in a forked child.

strace 6.1 turns each such stop into the subcall ``SYS_socket_subcall + call``
(500 + call) or ``SYS_ipc_subcall + call`` (521 + call): name, arguments,
selection, raw printing and -c row are the subcall's, while ``-n`` prints the
number the kernel saw (102, 117).  Every case runs both tracers with the same
flags and compares the whole output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import PRIVATE_IPC, build_m32, decode, group_by_process, normalise, run_tracer

pytestmark = pytest.mark.differential

SOURCE = Path(__file__).resolve().parent.parent / "programs" / "multiplex32.c"

@pytest.fixture(scope="module")
def multiplex32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("multiplex32") / "multiplex32"
    build_m32(SOURCE, target, "-g")
    return target


def _trace(tracer: str, options: list[str], program: Path, tmp_path: Path) -> str:
    """The trace file of one run, addresses masked, processes grouped under -f.

    Each run gets its own IPC namespace (PRIVATE_IPC): System V IPC identifiers then start at 0
    instead of depending on what the host created before, and are compared like any other value.
    """
    out = tmp_path / f"{tracer}.trace"
    proc = run_tracer(tracer, [*options, "-o", str(out)], [str(program)], cwd=tmp_path, isolate=PRIVATE_IPC)
    assert proc.returncode == 0, decode(proc.stderr)
    text = decode(out.read_bytes())
    if "-f" in options:
        text = normalise(group_by_process(text), align_column=None)
    else:
        text = normalise(text)
    return text


def _flat(text: str) -> str:
    """The trace with the padding before ``=`` collapsed (-f lines keep their alignment spaces)."""
    return re.sub(r"\) +=", ") =", text)


def _both(options: list[str], program: Path, tmp_path: Path) -> str:
    expected = _trace("strace", options, program, tmp_path)
    actual = _trace("pytrace", options, program, tmp_path)
    assert actual == expected
    return actual


#: The calls of the program worth looking at (the rest is the dynamic loader and libc start-up).
_CALLS = ("trace=socketcall,ipc,socketpair,socket,shutdown,send,recv,sendto,recvfrom,sendmsg,recvmsg,"
          "setsockopt,getsockopt,semop,semget,semctl,msgsnd,msgrcv,msgget,msgctl,shmat,shmdt,shmget,shmctl")


def test_subcalls_are_printed_as_strace_does(multiplex32: Path, tmp_path: Path) -> None:
    """Every subcall under its own name; unknown calls and an unreadable array stay socketcall()/ipc()."""
    actual = _flat(_both(["-f", "-e", _CALLS], multiplex32, tmp_path))
    assert 'send(3, "data", 4, 0) = 4' in actual and 'sendto(3, "direct", 6, 0, NULL, 0) = 6' in actual
    assert "socketcall(SYS_SEND, 0x8) = -1 EFAULT" in actual and re.search(r"socketcall\(-1, ADDR\d+\) = -1 EINVAL", actual)
    assert "ipc(99, 0x1, 0x2, 0x3, 0, 0) = -1 ENOSYS" in actual
    assert re.search(r"^PID2 send\(3, \"kid\", 3, 0\) = 3$", actual, re.M)


def test_n_prints_the_multiplexer_number(multiplex32: Path, tmp_path: Path) -> None:
    """-n: a subcall's line carries the number the kernel saw (strace's true_scno), 102 or 117."""
    actual = _both(["-n", "-e", "signal=none", "-e", _CALLS], multiplex32, tmp_path)
    assert '[ 102] send(3, "data", 4, 0) = 4' in actual and "[ 102] socketpair(AF_UNIX" in actual
    assert "[ 117] semop(0, [{sem_num=0" in actual and "[ 117] ipc(99, " in actual
    assert '[ 369] sendto(3, "direct", 6, 0, NULL, 0) = 6' in actual  # the direct syscall keeps its own


@pytest.mark.parametrize("raw", ["all", "send,semop,socketcall,shmat,msgrcv", "%network", "%ipc", "sendto"])
def test_raw_prints_the_unpacked_words(raw: str, multiplex32: Path, tmp_path: Path) -> None:
    """-e raw=: a socket subcall's words from the array, an ipc subcall's registers shifted by one
    (strace's u_arg), as many as the subcall takes."""
    actual = _both(["-e", _CALLS, "-e", f"raw={raw}"], multiplex32, tmp_path)
    if raw == "all":
        assert re.search(r"^send\(0x3, ADDR\d+, 0x4, 0\) = 0x4$", actual, re.M)
        assert "socketcall(0x9, 0x8) = -1 EFAULT" in actual
        assert re.search(r"^semop\(0, 0x1, 0, ADDR\d+\) = 0$", actual, re.M)
        assert re.search(r"^shmdt\(0, 0, 0, ADDR\d+\) = 0$", actual, re.M)


def test_raw_applies_to_the_named_subcalls_only(multiplex32: Path, tmp_path: Path) -> None:
    """-X raw and -X verbose print socketcall()'s call argument as strace does."""
    for style in ("raw", "verbose"):
        _both([f"-X{style}", "-e", "trace=socketcall,send"], multiplex32, tmp_path)


@pytest.mark.parametrize("selection", [
    "trace=%network", "trace=%net", "trace=%ipc", "trace=ipc", "trace=%desc", "trace=%memory", "trace=socketcall",
    "trace=!%network", "trace=/^send", "trace=send,recv", "trace=sendto", "trace=/^(recv|sem)", "trace=shmat,semget", "trace=102,117",
])
def test_selection_by_subcall_name_and_class(selection: str, multiplex32: Path, tmp_path: Path) -> None:
    """-e trace= selects a subcall by its own name, class (socket subcalls are %network only, not %desc;
    shmat/shmdt are %memory too) or regex, never by the multiplexer's name or number."""
    actual = _both(["-f", "-e", selection], multiplex32, tmp_path)
    if selection == "trace=%desc":
        assert 'sendto(3, "direct"' not in actual  # 369 is %network only on i386 too
        assert "socketcall(99, ADDR" in actual and "send(" not in actual
    if selection == "trace=socketcall":
        assert "send(" not in actual and "socketcall(SYS_SEND, 0x8)" in actual


@pytest.mark.parametrize("selection", ["trace=send", "trace=%network", "trace=%ipc", "trace=semop,sendto,recv"])
def test_seccomp_filter_stops_the_multiplexers(selection: str, multiplex32: Path, tmp_path: Path) -> None:
    """--seccomp-bpf: socketcall and ipc always stop (strace's TRACE_SECCOMP_DEFAULT), so their subcalls
    are seen in the launched program and in its child."""
    actual = _both(["-f", "--seccomp-bpf", "-e", selection], multiplex32, tmp_path)
    if selection == "trace=send":
        assert re.search(r"^PID2 send\(3, \"kid\", 3, 0\) += 3$", actual, re.M)


def _rows(text: str) -> list[tuple[str, ...]]:
    """Summary rows as (calls, errors, name), timing columns left out.

    A row's "% time" has no leading space at 100.00: with -c's system-time clock most calls take 0,
    and the one call a clock tick landed on takes all (a semctl row once went unread so)."""
    rows = []
    for line in text.splitlines():
        if re.match(r"^ *\d+\.\d+ ", line) and not line.endswith(" total"):
            fields = line.split()[3:]
            rows.append(tuple(fields) if len(fields) == 3 else (fields[0], "0", fields[1]))
    return sorted(rows)


@pytest.mark.parametrize("options", [["-c"], ["-C"], ["-c", "-S", "calls"]])
def test_summary_counts_each_subcall(options: list[str], multiplex32: Path, tmp_path: Path) -> None:
    """-c / -C: one row per subcall slot, so sendto through socketcall and the direct sendto are two rows."""
    texts = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir()
        texts[tracer] = _trace(tracer, ["-f", *options, "-e", "trace=%network,%ipc,socketcall"], multiplex32, d)
    assert _rows(texts["pytrace"]) == _rows(texts["strace"])
    rows = _rows(texts["strace"])
    assert rows.count(("1", "0", "sendto")) == 2 and ("4", "1", "send") in rows
    assert ("4", "4", "socketcall") in rows and ("1", "1", "ipc") in rows
    if options == ["-C"]:  # the trace lines too
        assert [line for line in texts["pytrace"].splitlines() if "(" in line] == \
               [line for line in texts["strace"].splitlines() if "(" in line]


def test_path_selects_socket_subcalls_by_descriptor(multiplex32: Path, tmp_path: Path) -> None:
    """-P: a socketcall subcall matches by its descriptor argument, as the direct calls do."""
    actual = _both(["-P", "/dev/null", "-e", "signal=none"], multiplex32, tmp_path)
    assert 'send(5, "x", 1, 0) = -1 ENOTSOCK' in actual


@pytest.mark.parametrize("inject", ["send:error=EPERM:when=3", "semop,msgsnd:error=EACCES", "%ipc:retval=7"])
def test_inject_on_a_subcall(inject: str, multiplex32: Path, tmp_path: Path) -> None:
    """-e inject=: a subcall's own name or class selects it (strace's per-slot inject vector); the
    multiplexer is skipped as any tampered syscall."""
    actual = _both(["-f", "-e", "trace=send,%ipc", "-e", f"inject={inject}"], multiplex32, tmp_path)
    assert "(INJECTED)" in actual
