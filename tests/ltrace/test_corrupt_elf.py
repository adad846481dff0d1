"""Programs whose ELF file is damaged: traced from the program headers, or refused in one line.

The kernel and ld.so only read the program headers, so a program with a corrupt
or cut-off section table runs normally.  ltrace 0.7.3 reads sections and refuses
it ("Couldn't get section #1 from ..."); pyltrace says so in a warning and
traces it from PT_DYNAMIC: the trace must be the one the intact program gives,
in every build layout (lazy .plt, -z now, -fno-plt, IBT's .plt.sec).  Files that
cannot run at all give one line (ltrace's words where it has them), never a
traceback or a silent empty trace.
"""

from __future__ import annotations

import shutil
import signal
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from lthelp import VARIANTS, normalise, pyltrace_cmd, run

# Offsets in the ELF64 header.
_E_PHOFF, _E_SHOFF, _E_SHENTSIZE, _E_SHNUM, _E_SHSTRNDX = 0x20, 0x28, 0x3A, 0x3C, 0x3E


def _patch(offset: int, fmt: str, value: int) -> Callable[[bytes], bytes]:
    def corrupt(data: bytes) -> bytes:
        out = bytearray(data)
        struct.pack_into(fmt, out, offset, value)
        return bytes(out)

    return corrupt


def _cut_section_table(data: bytes) -> bytes:
    """The file cut where its section header table starts (the table is at the end)."""
    return data[:struct.unpack_from("<Q", data, _E_SHOFF)[0]]


#: Damage to the section table only: the program still runs.
SECTION_DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "shoff-beyond-file": _patch(_E_SHOFF, "<Q", 0x7FFFFFFF),
    "shoff-zero": _patch(_E_SHOFF, "<Q", 0),
    "shnum-huge": _patch(_E_SHNUM, "<H", 0xFFFF),
    "shnum-zero": _patch(_E_SHNUM, "<H", 0),
    "shstrndx-bad": _patch(_E_SHSTRNDX, "<H", 0xFFF0),
    "shentsize-bad": _patch(_E_SHENTSIZE, "<H", 7),
    "table-cut-off": _cut_section_table,
}


def _damaged(src: Path, tmp_path: Path, name: str, corrupt: Callable[[bytes], bytes]) -> Path:
    out = tmp_path / name
    out.write_bytes(corrupt(src.read_bytes()))
    shutil.copymode(src, out)
    return out


def _trace(program: Path, tmp_path: Path, tag: str) -> tuple[int, str, str, str]:
    """(status, normalised trace from -o, stderr, stdout) of pyltrace on ``program``."""
    out = tmp_path / f"{tag}.trace"
    r = run("pyltrace", ["-o", str(out)], [program, "5"])
    return r.returncode, normalise(out.read_text()) if out.exists() else "", r.stderr, r.stdout


@pytest.mark.parametrize("damage", SECTION_DAMAGE, ids=list(SECTION_DAMAGE))
@pytest.mark.parametrize("variant", VARIANTS, ids=list(VARIANTS))
def test_damaged_section_table_is_traced_from_program_headers(lt: dict[str, Path], variant: str, damage: str,
                                                             tmp_path: Path) -> None:
    intact = lt[variant]
    broken = _damaged(intact, tmp_path, f"ltprog_{damage}", SECTION_DAMAGE[damage])
    want = _trace(intact, tmp_path, "intact")
    got = _trace(broken, tmp_path, "broken")
    assert want[0] == 5 and "puts(" in want[1], want
    assert got[0] == want[0] and got[3] == want[3]
    assert got[1] == want[1], f"trace of the damaged copy differs:\n{got[1]}\n--- intact:\n{want[1]}"
    warning = got[2].splitlines()
    assert len(warning) == 1 and warning[0].startswith(f'warning: "{broken}": '), got[2]
    assert "program headers" in warning[0]


@pytest.mark.parametrize("damage", ["shoff-beyond-file", "shnum-zero", "shstrndx-bad", "table-cut-off"])
def test_ltrace_refuses_what_pyltrace_traces(lt: dict[str, Path], damage: str, tmp_path: Path) -> None:
    """The real tool on the same damaged files: an error and no trace (what the warning improves on)."""
    broken = _damaged(lt["default"], tmp_path, f"ltprog_{damage}", SECTION_DAMAGE[damage])
    theirs = run("ltrace", [], [broken, "5"])
    assert theirs.returncode == 1
    assert theirs.stderr.startswith("Couldn't "), theirs.stderr
    assert "puts(" not in theirs.stderr


#: Files that cannot be run: cut at various offsets, empty, text, an ELF header pointing nowhere.
UNRUNNABLE: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda d: b"",
    "cut-3": lambda d: d[:3],
    "cut-16": lambda d: d[:16],
    "cut-64": lambda d: d[:64],
    "cut-100": lambda d: d[:100],
    "cut-1000": lambda d: d[:1000],
    "text": lambda d: b"hello, world\n",
    "bad-phoff": _patch(_E_PHOFF, "<Q", 0x7FFFFFFF),
}
#: Where ltrace 0.7.3 has words for it: the same line from pyltrace.
LTRACE_WORDS = ("empty", "cut-3", "text")


@pytest.mark.parametrize("damage", UNRUNNABLE, ids=list(UNRUNNABLE))
def test_unrunnable_file_gives_one_line(lt: dict[str, Path], damage: str, tmp_path: Path) -> None:
    broken = _damaged(lt["default"], tmp_path, f"prog-{damage}", UNRUNNABLE[damage])
    ours = run("pyltrace", [], [broken])
    assert "Traceback" not in ours.stderr
    assert len(ours.stderr.splitlines()) == 1, ours.stderr
    assert ours.returncode != 0
    if damage in LTRACE_WORDS:
        theirs = run("ltrace", [], [broken])
        assert (ours.returncode, ours.stderr) == (theirs.returncode, theirs.stderr)


def test_attached_program_with_damaged_sections(lt: dict[str, Path], tmp_path: Path) -> None:
    """-p: the warning names /proc/PID/exe (as ltrace's errors do) and the calls are traced."""
    broken = _damaged(lt["looper"], tmp_path, "looper", SECTION_DAMAGE["shoff-beyond-file"])
    prog = subprocess.Popen([str(broken)], stdout=subprocess.PIPE, text=True)
    tracer = None
    try:
        assert prog.stdout is not None and prog.stdout.readline() == "ready\n"
        tracer = subprocess.Popen([*pyltrace_cmd(), "-p", str(prog.pid)], stderr=subprocess.PIPE, text=True,
                                  cwd=str(Path(__file__).parents[2]))
        assert tracer.stderr is not None
        first = tracer.stderr.readline()
        assert first.startswith(f'warning: "/proc/{prog.pid}/exe": its section header table'), first
        seen = [tracer.stderr.readline() for _ in range(3)]
        assert any(line.startswith("usleep(2000)") for line in seen), seen
        tracer.send_signal(signal.SIGINT)
        tracer.wait(timeout=20)
    finally:
        for p in (tracer, prog):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
