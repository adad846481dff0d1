"""Tests for pytrace/tables/xlat.py, the generated strace name tables.

Why these tests: the module is generated from this machine's headers, so the committed copy
must be exactly what the generator produces (nobody hand-edits it); a few kernel values are
pinned so a wrong header choice shows up; and real strace 6.1 is the oracle for table order,
which decides how flag sets print.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytrace.tables import xlat

REPO = Path(__file__).resolve().parents[2]
GENERATOR = REPO / "scripts" / "gen_xlat.py"
MODULE = REPO / "pytrace" / "tables" / "xlat.py"


def need_gcc() -> None:
    """Skip, saying why, where the C compiler the generator depends on is missing."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc not installed: the xlat tables are computed by compiling C headers")


def load_generator() -> ModuleType:
    """Import scripts/gen_xlat.py by path (scripts/ is not a package)."""
    spec = importlib.util.spec_from_file_location("gen_xlat", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_xlat"] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


def value_of(table: tuple[tuple[int, str], ...], name: str) -> int:
    """The value of ``name`` in a (value, name) table."""
    return next(v for v, n in table if n == name)


def printflags(value: int, table: tuple[tuple[int, str], ...]) -> str:
    """strace's printflags: set rows in table order, bits cleared as printed, rest in hex."""
    names = []
    for v, n in table:
        if v and value & v == v:
            names.append(n)
            value &= ~v
    return "|".join(names + ([f"{value:#x}"] if value else []))


def test_committed_module_matches_generator(tmp_path: Path) -> None:
    need_gcc()
    out = tmp_path / "xlat.py"
    proc = subprocess.run(
        [sys.executable, str(GENERATOR), "-o", str(out)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == MODULE.read_text(), "stale: run python scripts/gen_xlat.py"
    # the tables themselves, in parts next to xlat.py: the same files, none missing, none left over
    generated = {p.name: p.read_text() for p in (tmp_path / "xlat_parts").glob("*.py")}
    committed = {p.name: p.read_text() for p in (MODULE.parent / "xlat_parts").glob("*.py")}
    assert generated == committed, "stale: run python scripts/gen_xlat.py"


def test_tables_load_part_by_part() -> None:
    """A table is imported with its part on first use: a fresh interpreter asking for one table
    imports one part, gets the same object from both spellings, and unknown names are errors."""
    code = (
        "import sys\n"
        "from pytrace.tables import xlat\n"
        "from pytrace.tables.xlat import OPEN_FLAGS\n"
        "parts = sorted(m for m in sys.modules if m.startswith('pytrace.tables.xlat_parts.'))\n"
        "assert xlat.OPEN_FLAGS is OPEN_FLAGS and xlat.PIPE_FLAGS is OPEN_FLAGS, 'one object'\n"
        "assert getattr(xlat, 'NO_SUCH_TABLE', None) is None\n"
        "assert 'ERRNO_NAMES' in dir(xlat)\n"
        "print(parts)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "['pytrace.tables.xlat_parts.p00']"


def test_kernel_values() -> None:
    assert value_of(xlat.OPEN_FLAGS, "O_CLOEXEC") == 0o2000000
    assert value_of(xlat.OPEN_FLAGS, "O_LARGEFILE") == 0o100000  # the kernel's, not glibc's 0
    assert value_of(xlat.OPEN_FLAGS, "O_TMPFILE") == 0o20200000
    assert value_of(xlat.MMAP_FLAGS, "MAP_ANONYMOUS") == 0x20
    assert value_of(xlat.FCNTL_CMDS, "F_GETLK64") == 12
    assert value_of(xlat.SIGINFO_CODES, "SI_QUEUE") == -1
    assert value_of(xlat.MOUNT_FLAGS, "MS_NOUSER") == 1 << 31  # int (1<<31) read as a bit, not -2**31
    assert value_of(xlat.AT_FLAGS, "AT_REMOVEDIR") == value_of(xlat.FACCESSAT_FLAGS, "AT_EACCESS") == 0x200
    assert xlat.PIPE_FLAGS is xlat.OPEN_FLAGS and xlat.DUP3_FLAGS is xlat.OPEN_FLAGS


def test_fallback_values() -> None:
    # Names no installed header defines take strace's own values from the spec's fallbacks.
    assert value_of(xlat.MSG_FLAGS, "MSG_CMSG_COMPAT") == 0x80000000
    assert xlat.MSG_FLAGS[-1] == (0x80000000, "MSG_CMSG_COMPAT")  # last, as in strace
    assert value_of(xlat.PR_DUMPABLE, "SUID_DUMP_ROOT") == 2
    assert value_of(xlat.SCM_TYPES, "SCM_SECURITY") == value_of(xlat.IP_CMSG_TYPES, "SCM_SECURITY") == 3
    assert value_of(xlat.FS_MAGIC, "UFS_MAGIC") == 0x00011954
    assert value_of(xlat.FS_MAGIC, "TMPFS_MAGIC") == 0x01021994  # from linux/magic.h
    assert value_of(xlat.X86_XFEATURE_BITS, "XFEATURE_XTILE_DATA") == 18
    assert printflags(0x3, xlat.X86_XFEATURES) == "XFEATURE_MASK_FPSSE"
    assert printflags(0x600E7, xlat.X86_XFEATURES) == (
        "XFEATURE_MASK_FPSSE|XFEATURE_MASK_YMM|XFEATURE_MASK_AVX512|XFEATURE_MASK_XTILE"
    )
    assert xlat.IOCTL_NAMES[0x80044D01] == "MCE_GET_RECORD_LEN"


def test_fallback_never_overrides_a_header(tmp_path: Path) -> None:
    """A header's value wins over the spec's fallback; only the names it lacks are recorded."""
    need_gcc()
    gen = load_generator()
    spec = gen.load_spec()
    table = spec.Table(
        name="T",
        headers=("linux/fcntl.h",),
        entries=("F_OWNER_PID", "NOT_IN_ANY_HEADER"),
        fallbacks=(("F_OWNER_PID", "12345"), ("NOT_IN_ANY_HEADER", "1 << 4")),
        style="values",
    )
    built = gen.build_table(table, tmp_path, {})
    assert built.rows == [(1, "F_OWNER_PID"), (16, "NOT_IN_ANY_HEADER")]
    assert built.fallen_back == ["NOT_IN_ANY_HEADER"]


def test_errno_and_signal_names() -> None:
    assert xlat.ERRNO_NAMES[2] == "ENOENT"
    assert xlat.ERRNO_TEXT[2] == "No such file or directory"
    assert xlat.ERRNO_NAMES[11] == "EAGAIN"  # not the EWOULDBLOCK alias
    assert xlat.ERRNO_NAMES[512] == "ERESTARTSYS"
    assert xlat.ERRNO_TEXT[512] == "To be restarted if SA_RESTART is set"
    assert xlat.ERRNO_NAMES[516] == "ERESTART_RESTARTBLOCK"
    assert xlat.SIGNAL_NAMES[17] == "SIGCHLD"
    assert xlat.SIGNAL_NAMES[10] == "SIGUSR1"
    assert (xlat.SIGNAL_NAMES[32], xlat.SIGNAL_NAMES[33], xlat.SIGNAL_NAMES[64]) == (
        "SIGRTMIN",
        "SIGRT_1",
        "SIGRT_32",
    )
    assert 65 not in xlat.SIGNAL_NAMES
    assert xlat.IOCTL_NAMES[0x5401] == "TCGETS"
    assert xlat.IOCTL_NAMES[0x5402] == "SNDCTL_TMR_START or TCSETS"


def test_tables_are_well_formed() -> None:
    for name in dir(xlat):
        table = getattr(xlat, name)
        if name.isupper() and isinstance(table, tuple):
            assert all(isinstance(v, int) and isinstance(n, str) and n for v, n in table), name
            assert len({n for _, n in table}) == len(table), f"{name}: duplicate names"


ORACLE_C = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
    int prot = PROT_READ | PROT_WRITE;
    int map = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE | MAP_GROWSDOWN;
    int open1 = O_RDWR | O_CREAT | O_TRUNC | O_APPEND | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | 0100000;
    int open2 = O_WRONLY | O_TMPFILE | O_SYNC | O_NOATIME;
    mmap((void *)0x100000000000, 4096, prot, map, -1, 0);
    syscall(SYS_openat, AT_FDCWD, "/nonexistent/xlat-oracle-1", open1, 0600);
    syscall(SYS_openat, AT_FDCWD, "/nonexistent/xlat-oracle-2", open2, 0600);
    printf("%d %d %d %d\n", prot, map, open1, open2);
    return 0;
}
"""


def test_flag_order_matches_strace(tmp_path: Path) -> None:
    need_gcc()
    if shutil.which("strace") is None:
        pytest.skip("strace not installed: it is the oracle for flag order")
    (tmp_path / "oracle.c").write_text(ORACLE_C)
    subprocess.run(["gcc", "-o", str(tmp_path / "oracle"), str(tmp_path / "oracle.c")], check=True)
    log = tmp_path / "strace.log"
    proc = subprocess.run(
        ["strace", "-o", str(log), "-e", "trace=mmap,openat", str(tmp_path / "oracle")],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0 and "ptrace" in proc.stderr.lower():
        pytest.skip(f"strace cannot trace here: {proc.stderr.strip()}")
    assert proc.returncode == 0, proc.stderr
    prot, mflags, open1, open2 = map(int, proc.stdout.split())
    trace = log.read_text()

    map_type = dict(xlat.MMAP_FLAGS)[mflags & 0xF]  # strace prints the MAP_TYPE field first
    map_text = f"{printflags(prot, xlat.MMAP_PROT)}, {map_type}|{printflags(mflags & ~0xF, xlat.MMAP_FLAGS)}"
    assert re.search(rf"mmap\(0x100000000000, 4096, {re.escape(map_text)}, -1, 0\)", trace), trace
    for path, value in (("/nonexistent/xlat-oracle-1", open1), ("/nonexistent/xlat-oracle-2", open2)):
        text = f"{dict(xlat.OPEN_ACCMODE)[value & 3]}|{printflags(value & ~3, xlat.OPEN_FLAGS)}"
        assert f'"{path}", {text}, 0600)' in trace, trace
