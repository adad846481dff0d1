"""What pytrace shows of processes at the edge of tracing, compared with strace 6.1.

* A command whose exec fails (ENOEXEC, EACCES): the failed execve is shown, then
  strace's "exec: ..." message and "+++ exited with 1 +++"; the tracer's own
  child writing that message and calling exit_group is not (strace hides it).
* Children the tracer does not follow (no -f): one made with CLONE_PTRACE is
  traced by the kernel anyway and let go at once ("Detached unknown pid N");
  one made with CLONE_PARENT is the tracer's own child, whose end strace reports
  as "Exit of unknown pid N ignored" (not under --quiet=exit), waiting for it.
* -e inject=...:retval= on getuid and friends prints unsigned, as strace's
  RVAL_UDECIMAL (an injected -1 reads 18446744073709551615).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest
from helpers import (
    RUN_TIMEOUT,
    build_m32,
    decode,
    normalise,
    run_tracer,
    tracer_command,
    tracer_env,
    tracer_name,
)

pytestmark = pytest.mark.system

TRACERS = ("strace", "pytrace")


def _same(tracer: str, text: str) -> str:
    """The tracer's name and the pids that differ between runs made uniform."""
    text = text.replace(f"{tracer_name(tracer)}: ", "TRACER: ")
    return re.sub(r"(unknown pid |si_pid=|Process |PID=)\d+", r"\1PID", text)


@pytest.fixture
def broken_programs(tmp_path: Path) -> dict[str, Path]:
    """An executable text file without #! (ENOEXEC), a truncated ELF (ENOEXEC), a non-executable file (EACCES)."""
    text = tmp_path / "text"
    text.write_text("not a program\n")
    elf = tmp_path / "badelf"
    elf.write_bytes(b"\x7fELF\x02\x01")
    plain = tmp_path / "plain"
    plain.write_text("")
    for path in (text, elf):
        path.chmod(0o755)
    plain.chmod(0o644)
    return {"text": text, "badelf": elf, "plain": plain}


@pytest.mark.parametrize("name", ["text", "badelf", "plain"])
@pytest.mark.parametrize("options", [[], ["-f"], ["-f", "-o", "TRACE"], ["-ff", "-o", "TRACE"]],
                         ids=["plain", "f", "f-o", "ff-o"])
def test_failed_exec(name: str, options: list[str], broken_programs: dict[str, Path], tmp_path: Path) -> None:
    """stderr, the trace file(s) and the exit status are strace's."""
    seen = {}
    for tracer in TRACERS:
        out = tmp_path / tracer
        out.mkdir()
        args = [str(out / "trace") if o == "TRACE" else o for o in options]
        result = run_tracer(tracer, args, [str(broken_programs[name])], cwd=tmp_path)
        files = {p.name.split(".")[0]: normalise(decode(p.read_bytes())) for p in sorted(out.iterdir())}
        seen[tracer] = (normalise(_same(tracer, decode(result.stderr))), files, result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert seen["strace"][2] == 1


@pytest.mark.parametrize("options", [[], ["-q"], ["-qq"], ["--quiet=exit"], ["-o", "TRACE"]],
                         ids=["default", "q", "qq", "quiet-exit", "o"])
@pytest.mark.parametrize("mode", ["clone-ptrace", "clone-parent"])
def test_unfollowed_children(mode: str, options: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """No -f: the same messages as strace (in any order: the two children end in either order), the
    same signal lines for the tracee and the same exit status."""
    seen = {}
    for tracer in TRACERS:
        trace = tmp_path / f"trace-{tracer}"
        args = [str(trace) if o == "TRACE" else o for o in options]
        result = run_tracer(tracer, ["-e", "trace=none", *args], [str(programs["fault_procs"]), mode])
        lines = _same(tracer, decode(result.stderr)).splitlines()
        if trace.exists():
            lines += _same(tracer, decode(trace.read_bytes())).splitlines()
        seen[tracer] = (sorted(lines), decode(result.stdout), result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert seen["strace"][2] == 0
    if mode == "clone-parent" and "-qq" not in options and "--quiet=exit" not in options:
        assert sum("Exit of unknown pid" in line for line in seen["strace"][0]) == 2
    if mode == "clone-ptrace" and not options:
        assert "TRACER: Detached unknown pid PID" in seen["strace"][0]


def test_inherited_child_is_waited_for() -> None:
    """(sleep & exec TRACER true): the tracer inherits a child and, like strace, waits for it and says so."""
    seen = {}
    for tracer in TRACERS:
        script = f"sleep 0.3 & exec {shlex.join(tracer_command(tracer))} -e trace=none true"
        result = subprocess.run(["sh", "-c", script], capture_output=True, env=tracer_env(), timeout=RUN_TIMEOUT,
                                stdin=subprocess.DEVNULL, check=False)
        # (in either order: whether the sleep ends before the traced command is up to the scheduler)
        seen[tracer] = (sorted(_same(tracer, decode(result.stderr)).splitlines()), result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert "TRACER: Exit of unknown pid PID ignored" in seen["strace"][0]


@pytest.mark.parametrize("retval", ["4294967295", "2147483648", "65534", "-1", "-2", "18446744073709551615"])
def test_injected_ids_print_unsigned(retval: str, tmp_path: Path) -> None:
    """geteuid/getuid/getgid/getegid with -e inject=...:retval= print as strace prints them."""
    seen = {}
    for tracer in TRACERS:
        trace = tmp_path / f"trace-{tracer}"
        result = run_tracer(tracer, ["-o", str(trace), "-e", "trace=getuid,geteuid,getgid,getegid",
                                     "-e", f"inject=getuid,geteuid,getgid,getegid:retval={retval}"], ["id"])
        seen[tracer] = (normalise(decode(trace.read_bytes())), _same(tracer, decode(result.stderr)),
                        decode(result.stdout), result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert os.linesep.join(seen["strace"][0].splitlines()).count("(INJECTED)") >= 4


@pytest.mark.parametrize("retval", ["4294967295", "-1", "-2"])
@pytest.mark.parametrize("bits", ["64", "32"])
def test_injected_ids_per_personality(bits: str, retval: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """The i386 personality prints the 32-bit value (4294967295), x86_64 the 64-bit one, as strace."""
    program = programs["fault_ids"]
    if bits == "32":
        program = build_m32(Path(__file__).parents[1] / "programs" / "fault_ids.c", tmp_path / "fault_ids32")
    names = "getuid,geteuid,getgid,getegid" + (",getuid32,geteuid32,getgid32,getegid32" if bits == "32" else "")
    seen = {}
    for tracer in TRACERS:
        result = run_tracer(tracer, ["-e", f"trace={names}", "-e", f"inject={names}:retval={retval}"], [str(program)])
        seen[tracer] = (normalise(_same(tracer, decode(result.stderr))), result.returncode)
    assert seen["pytrace"] == seen["strace"]
    assert seen["strace"][0].count("(INJECTED)") == (8 if bits == "32" else 4)
