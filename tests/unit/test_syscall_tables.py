"""Syscall tables: committed data loads, has the numbers strace relies on, and is not stale."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytrace.tables import syscalls
from pytrace.tables.syscalls import ARCHES, AUDIT_ARCH, SyscallInfo, table

REPO_ROOT = Path(__file__).resolve().parents[2]
TABLE_DIR = REPO_ROOT / "syscall_tables"
GENERATOR = REPO_ROOT / "scripts" / "gen_syscall_tables.py"


def _load_generator() -> ModuleType:
    """Import the script by path: scripts/ is not a package and must not need to be."""
    spec = importlib.util.spec_from_file_location("gen_syscall_tables", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks the module up while decorating
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    return _load_generator()


@pytest.fixture(scope="module")
def tracepoints(gen: ModuleType) -> dict[str, tuple[tuple[str, str], ...]]:
    """The running kernel's tracepoints; skips loudly (with the reason) when tracefs is unusable."""
    try:
        events = gen.find_tracefs_events()
    except gen.TracefsUnavailable as exc:
        pytest.skip(f"tracefs syscall tracepoints unavailable, cannot regenerate tables: {exc}")
    return gen.load_tracepoints(events)


@pytest.mark.parametrize("arch", ARCHES)
def test_committed_tables_load(arch: str) -> None:
    tab = table(arch)
    assert tab.arch == arch
    assert tab is table(arch), "table() must cache"
    assert len(tab.names) == tab.max_nr + 1
    for nr, info in tab.by_nr.items():
        assert tab.names[nr] == info.name
        assert tab.by_name[info.name] is info
        assert info.nargs == len(info.arg_types) == len(info.arg_names)
        assert 0 <= info.nargs <= 6


def test_x86_64_known_rows() -> None:
    tab = table("x86_64")
    openat = tab.by_name["openat"]
    assert openat == SyscallInfo(
        257, "openat", 4, ("int", "const char *", "int", "umode_t"), ("dfd", "filename", "flags", "mode")
    )
    read = tab.by_nr[0]
    assert (read.name, read.nargs, read.arg_names) == ("read", 3, ("fd", "buf", "count"))
    # unistd names, not tracepoint names, since that is what strace prints
    for name in ("newfstatat", "pread64", "umount2", "uname", "stat", "sendfile"):
        assert name in tab.by_name, name
    for name in ("newstat", "newuname", "umount", "sendfile64"):
        assert name not in tab.by_name, name


def test_i386_known_rows() -> None:
    tab = table("i386")
    assert tab.by_name["openat"].nr == 295
    assert tab.by_nr[102].name == "socketcall"
    assert tab.by_name["socketcall"].nargs == 2
    # i386-only one-argument calls must not inherit the native argument lists
    assert tab.by_name["select"].nargs == 1
    assert tab.by_name["mmap"].nargs == 1
    assert tab.by_name["mmap2"].nargs == 6
    assert tab.by_name["_llseek"].nargs == 5


def test_aarch64_known_rows() -> None:
    tab = table("aarch64")
    assert tab.by_name["openat"].nr == 56
    assert "open" not in tab.by_name
    assert tab.by_name["newfstatat"].nr == 79
    assert tab.by_name["clone3"].nr == 435


def test_unknown_numbers_use_strace_spelling() -> None:
    tab = table("x86_64")
    assert tab.name(257) == "openat"
    assert tab.name(451) == "syscall_0x1c3"
    assert tab.name(500) == "syscall_0x1f4"
    assert tab.name(335) == "syscall_0x14f"  # hole inside the table
    assert tab.name(-1) == "syscall_0xffffffffffffffff"


def test_audit_arch_names_are_tables() -> None:
    assert set(AUDIT_ARCH.values()) == set(ARCHES)


def test_unknown_arch_rejected() -> None:
    with pytest.raises(ValueError, match="unknown arch"):
        table("sparc")


def test_every_unistd_64_number_in_x86_64_table() -> None:
    header = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")
    if not header.is_file():
        pytest.skip(f"{header} missing (Debian package linux-libc-dev not installed)")
    numbers = {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^#define __NR_(\w+) (\d+)$", header.read_text(), re.MULTILINE)
    }
    assert len(numbers) > 300
    tab = table("x86_64")
    for name, nr in numbers.items():
        assert nr in tab.by_nr, f"{name}={nr} missing"
        assert tab.by_nr[nr].name == name
    assert len(tab.by_nr) == len(numbers)


def test_parse_tracepoint_format(gen: ModuleType) -> None:
    text = (
        "name: sys_enter_openat\nID: 1\nformat:\n"
        "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
        "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
        "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
        "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
        "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
        "\tfield:struct robust_list_head * * head_ptr;\toffset:32;\tsize:8;\tsigned:0;\n\n"
        'print fmt: "dfd: 0x%08lx"\n'
    )
    assert gen.parse_tracepoint_format(text) == (
        ("int", "dfd"),
        ("const char *", "filename"),
        ("struct robust_list_head * *", "head_ptr"),
    )


@pytest.mark.parametrize("arch", ["x86_64", "i386"])
def test_committed_table_matches_generator(
    arch: str, gen: ModuleType, tracepoints: dict[str, tuple[tuple[str, str], ...]], tmp_path: Path
) -> None:
    header = gen.UNISTD_64_H if arch == "x86_64" else gen.UNISTD_32_H
    if not header.is_file():
        pytest.skip(f"{header} missing (Debian package linux-libc-dev not installed)")
    out = tmp_path / f"{arch}.tsv"
    out.write_text(gen.generate(arch, tracepoints, gen.load_ptrace_prototypes()))
    _assert_same_table(TABLE_DIR / f"{arch}.tsv", out)


def test_committed_aarch64_matches_generator(
    gen: ModuleType, tracepoints: dict[str, tuple[tuple[str, str], ...]], tmp_path: Path
) -> None:
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found: needed to evaluate asm-generic/unistd.h for aarch64")
    if not gen.GENERIC_UNISTD_H.is_file():
        pytest.skip(f"{gen.GENERIC_UNISTD_H} missing (Debian package linux-libc-dev not installed)")
    out = tmp_path / "aarch64.tsv"
    out.write_text(gen.generate("aarch64", tracepoints, gen.load_ptrace_prototypes()))
    _assert_same_table(TABLE_DIR / "aarch64.tsv", out)


def _assert_same_table(committed: Path, fresh: Path) -> None:
    """Compare file bytes, but report differing rows so a stale table is easy to diagnose."""
    old, new = committed.read_text(), fresh.read_text()
    if old == new:
        return
    old_rows, new_rows = set(old.splitlines()), set(new.splitlines())
    gone = sorted(old_rows - new_rows)[:10]
    added = sorted(new_rows - old_rows)[:10]
    pytest.fail(
        f"{committed.name} is stale (kernel or headers changed?); run "
        f"`python scripts/gen_syscall_tables.py`.\nonly committed: {gone}\nonly generated: {added}"
    )


def test_loader_is_lazy() -> None:
    """Importing the module must not read any table: it is on every run's startup path."""
    code = "import pytrace.tables.syscalls as s; assert s._CACHE == {}, s._CACHE"
    subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, check=True)


def test_parse_tsv_rejects_inconsistent_rows() -> None:
    good = "nr\tname\tnargs\targs\tsource\n0\tread\t1\tunsigned int fd\ttracefs\n"
    assert syscalls.parse_tsv("x", good).by_nr[0].arg_types == ("unsigned int",)
    with pytest.raises(ValueError, match="nargs 2"):
        syscalls.parse_tsv("x", good.replace("\t1\t", "\t2\t"))
    with pytest.raises(ValueError, match="bad header"):
        syscalls.parse_tsv("x", "nope\n")
