"""``-k`` stack traces, byte for byte against strace 6.1 (libunwind build) on programs with known call chains.

Frame lines print file offsets (``[0x1152]``, not run-time addresses), so they
do not depend on ASLR: the whole trace is compared after the usual
normalisation (long hex values are renumbered consistently on both sides, the
short offsets inside our own binaries stay verbatim).  Besides equality, the
chain test checks the names themselves, so a tracer that printed nothing, or
the same wrong thing as strace, could not pass.
"""

from __future__ import annotations

import lzma
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import build_m32, combine_ff_files, normalise, run_tracer

SOURCE = Path(__file__).resolve().parents[1] / "programs" / "stack_chain.c"

# name -> extra gcc flags
VARIANTS = {
    "O0-fp": ["-O0", "-fno-omit-frame-pointer"],
    "O2-nofp": ["-O2", "-fomit-frame-pointer"],
    # CFI only in .debug_frame: libunwind (as strace links it) ignores it and follows rbp.
    "debug-frame-only": ["-O0", "-fno-omit-frame-pointer", "-g", "-fno-asynchronous-unwind-tables",
                         "-fno-unwind-tables"],
    # No CFI and no frame pointer: the walk stops early, the same way in both tracers.
    "no-cfi-no-fp": ["-O2", "-fomit-frame-pointer", "-fno-asynchronous-unwind-tables", "-fno-unwind-tables"],
}


def _gcc(out: Path, flags: list[str]) -> None:
    res = subprocess.run(["gcc", *flags, "-o", str(out), str(SOURCE)], capture_output=True, text=True, check=False)
    if res.returncode:
        pytest.fail(f"gcc {' '.join(flags)} failed (gcc is a test dependency): {res.stderr}")


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("stack")
    out = {}
    for name, flags in VARIANTS.items():
        out[name] = d / f"chain-{name}"
        _gcc(out[name], flags)
    return out


def _trace(tracer: str, args: list[str], cmd: list[str], out: Path) -> str:
    proc = run_tracer(tracer, [*args, "-o", str(out)], cmd)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    return out.read_text()


def _both(args: list[str], cmd: list[str], tmp_path: Path) -> dict[str, str]:
    return {t: normalise(_trace(t, args, cmd, tmp_path / f"{t}.txt"), align_column=None) for t in ("strace", "pytrace")}


def _frames_after(text: str, line_start: str) -> list[str]:
    """The function names of the frames printed after the first line starting with ``line_start``."""
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith(line_start))
    names = []
    for line in lines[i + 1:]:
        if not line.startswith(" > "):
            break
        m = re.search(r"\((\w*)\+0x[0-9a-f]+\)", line)
        names.append(m[1] if m else "?")
    return names


@pytest.mark.differential
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_whole_trace_matches_strace(builds: dict[str, Path], tmp_path: Path, variant: str) -> None:
    """Every syscall of the program (ld.so's too), each followed by the same frames as under strace -k."""
    outs = _both(["-k"], [str(builds[variant])], tmp_path)
    assert outs["pytrace"] == outs["strace"]
    assert outs["pytrace"].count(" > ") > 100  # frames were printed at all


@pytest.mark.differential
@pytest.mark.parametrize("variant", ["O0-fp", "O2-nofp"])
def test_call_chain_names(builds: dict[str, Path], tmp_path: Path, variant: str) -> None:
    """main -> f1 -> f2 -> getpid, a write deep inside puts, a handler called through the signal trampoline.

    Only the calls of interest are traced (-e trace=...), which also exercises
    re-reading the maps file when mmap & co. are not seen.
    """
    outs = _both(["-k", "-e", "trace=getpid,getppid,write,exit_group"], [str(builds[variant])], tmp_path)
    assert outs["pytrace"] == outs["strace"]
    text = outs["pytrace"]
    chain = _frames_after(text, "getpid()")
    assert chain[0].endswith("getpid") and chain[1:4] == ["f2", "f1", "main"], chain
    assert chain[-1] == "_start"
    write = _frames_after(text, 'write(1, "hello from puts\\n"')
    assert "main" in write and write.index("main") >= 3, write  # write <- ... <- puts (libc internals) <- main
    handler = _frames_after(text, "getppid()")
    assert handler[1] == "handler" and "main" in handler[2:], handler  # and back across the trampoline
    # exit_group never returns: its stack, taken at entry, follows "+++ exited with 0 +++".
    assert re.search(r"^\+\+\+ exited with 0 \+\+\+\n > ", text, re.M)


@pytest.mark.differential
def test_offsets_are_file_offsets(builds: dict[str, Path], tmp_path: Path) -> None:
    """[0x...] is the offset in the file (ip - map start + map offset): f2's frame points into f2's code."""
    binary = builds["O0-fp"]
    text = _trace("pytrace", ["-k", "-e", "trace=getpid"], [str(binary)], tmp_path / "p.txt")
    m = re.search(r"\((f2)\+0x([0-9a-f]+)\) \[0x([0-9a-f]+)\]", text)
    assert m, text
    nm = subprocess.run(["nm", str(binary)], capture_output=True, text=True, check=True).stdout
    f2 = int(re.search(r"^([0-9a-f]+) T f2$", nm, re.M)[1], 16)  # type: ignore[index]
    # A non-PIE-like layout is not assumed: PIE text is mapped at its file offset (vaddr == offset).
    assert int(m[3], 16) == f2 + int(m[2], 16)


@pytest.mark.differential
def test_exec_and_exit_frames_follow_forks(builds: dict[str, Path], tmp_path: Path) -> None:
    """-f: the child's execve is walked at entry (old image: execl <- main) and printed after its result;
    exit_group's frames come after "+++ exited"; a nameless queued frame prints as ``path(+0x0)``."""
    outs = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir()
        proc = run_tracer(tracer, ["-k", "-ff", "-o", str(d / "t")], [str(builds["O0-fp"]), "exec"])
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")
        outs[tracer] = normalise(combine_ff_files(d, "t"), align_column=None)
    assert outs["pytrace"] == outs["strace"]
    text = outs["pytrace"]
    assert _frames_after(text, 'execve("/bin/true"')[:3] == ["execve", "execl", "main"]
    assert "(+0x0) [" in text


@pytest.mark.differential
def test_thread_frames(builds: dict[str, Path], tmp_path: Path) -> None:
    """A thread's stack ends where its CFI says the thread began (clone3's child path)."""
    outs = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir()
        args = ["-k", "-ff", "-e", "trace=getppid,exit,clone3,exit_group", "-o", str(d / "t")]
        proc = run_tracer(tracer, args, [str(builds["O2-nofp"]), "thread"])
        assert proc.returncode == 0, proc.stderr.decode(errors="replace")
        outs[tracer] = normalise(combine_ff_files(d, "t"), align_column=None)
    assert outs["pytrace"] == outs["strace"]
    assert "thread_main" in outs["pytrace"]


@pytest.mark.differential
def test_minidebuginfo_names(tmp_path: Path) -> None:
    """A stripped program whose only symbols are in .gnu_debugdata (xz MiniDebugInfo): names still resolve."""
    for tool in ("objcopy", "strip"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} (binutils, installed with gcc) is required")
    prog = tmp_path / "chain"
    _gcc(prog, ["-O0", "-fno-omit-frame-pointer"])
    full, mini = tmp_path / "full.debug", tmp_path / "mini.debug"
    subprocess.run(["objcopy", "--only-keep-debug", str(prog), str(full)], check=True)
    subprocess.run(["objcopy", "-S", "--remove-section", ".comment", "--keep-symbol=f1", "--keep-symbol=f2",
                    "--keep-symbol=main", str(full), str(mini)], check=True)
    xz = tmp_path / "mini.xz"
    xz.write_bytes(lzma.compress(mini.read_bytes(), format=lzma.FORMAT_XZ))
    subprocess.run(["strip", str(prog)], check=True)
    subprocess.run(["objcopy", "--add-section", f".gnu_debugdata={xz}", str(prog)], check=True)
    outs = _both(["-k", "-e", "trace=getpid"], [str(prog)], tmp_path)
    assert outs["pytrace"] == outs["strace"]
    assert _frames_after(outs["pytrace"], "getpid()")[1:4] == ["f2", "f1", "main"]


@pytest.mark.differential
def test_i386_tracee_has_no_frames(tmp_path: Path) -> None:
    """strace disables stack traces for a personality other than x86-64."""
    src = tmp_path / "m32.c"
    src.write_text("#include <unistd.h>\nint main(void) { getpid(); return 0; }\n")
    prog = tmp_path / "m32"
    build_m32(src, prog, "-static")
    outs = _both(["-k", "-e", "trace=getpid,exit_group"], [str(prog)], tmp_path)
    assert outs["pytrace"] == outs["strace"]
    assert "getpid()" in outs["pytrace"] and " > " not in outs["pytrace"].split("getpid()", 1)[1]


def test_no_stack_modules_without_k(tmp_path: Path) -> None:
    """Without -k neither the stack package nor pyelftools is imported: startup cost stays as it was."""
    proc = run_tracer("pytrace", ["-o", str(tmp_path / "t.txt")], ["/bin/true"],
                      env={**_env(), "PYTHONPROFILEIMPORTTIME": "1"})
    assert proc.returncode == 0
    imported = proc.stderr.decode()
    assert "pytrace.stack" not in imported and "elftools" not in imported


def _env() -> dict[str, str]:
    from helpers import tracer_env

    return tracer_env()
