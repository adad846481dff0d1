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
        257, "openat", 4, ("int", "const char *", "int", "umode_t"), ("dfd", "filename", "flags", "mode"),
        ("s32", "u64", "s32", "u16"), ("s32", "u64", "s32", "u16"),
        "desc,file\tdirfd;path;-;-\tfd\t\tfd;path\t\t1:path:nul:entry",
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
    header = "nr\tname\tnargs\targs\twidths\tdecode\tsource\tclasses\troles\trval\tflags\tpathtrace\tvariant\tcapture"
    good = header + "\n0\tread\t1\tunsigned int fd\tu32\tu32\ttracefs\tdesc\tfd\tint\t\t\t\t\n"
    assert syscalls.parse_tsv("x", good).by_nr[0].arg_types == ("unsigned int",)
    with pytest.raises(ValueError, match="nargs 2"):
        syscalls.parse_tsv("x", good.replace("\t1\t", "\t2\t"))
    with pytest.raises(ValueError, match="1 args, 2 widths"):
        syscalls.parse_tsv("x", good.replace("\tu32\tu32", "\tu32;u32\tu32"))
    with pytest.raises(ValueError, match="bad header"):
        syscalls.parse_tsv("x", "nope\n")
    old_format = "nr\tname\tnargs\targs\tsource\n0\tread\t1\tunsigned int fd\ttracefs\n"
    with pytest.raises(ValueError, match="bad header"):
        syscalls.parse_tsv("x", old_format)
    no_facts = "nr\tname\tnargs\targs\twidths\tdecode\tsource\n0\tread\t1\tunsigned int fd\tu32\tu32\ttracefs\n"
    with pytest.raises(ValueError, match="bad header"):
        syscalls.parse_tsv("x", no_facts)
    with pytest.raises(ValueError, match="tsv:2"):
        syscalls.parse_tsv("x", header + "\n0\tread\t1\tunsigned int fd\tu32\tu32\ttracefs\n")


# ---------------------------------------------------------------- argument widths


@pytest.mark.parametrize(("ctype", "arch", "width"), [
    ("int", "x86_64", "s32"), ("const int", "x86_64", "s32"), ("pid_t", "x86_64", "s32"),
    ("unsigned int", "x86_64", "u32"), ("uid_t", "x86_64", "u32"), ("u32", "x86_64", "u32"),
    ("umode_t", "x86_64", "u16"), ("long", "x86_64", "s64"), ("unsigned long", "x86_64", "u64"),
    ("size_t", "x86_64", "u64"), ("loff_t", "x86_64", "s64"), ("const char *", "x86_64", "u64"),
    ("struct robust_list_head * *", "x86_64", "u64"), ("cap_user_header_t", "x86_64", "u64"),
    ("const struct landlock_ruleset_attr *const", "x86_64", "u64"), ("const enum landlock_rule_type", "x86_64", "u32"),
    # ILP32: longs and pointers are 32 bits, 64-bit types stay 64 (split over two registers).
    ("long", "i386", "s32"), ("unsigned long", "i386", "u32"), ("void *", "i386", "u32"),
    ("loff_t", "i386", "s64"), ("u64", "i386", "u64"), ("int", "i386", "s32"),
])
def test_c_type_width(gen: ModuleType, ctype: str, arch: str, width: str) -> None:
    assert gen.c_type_width(ctype, arch) == width


def test_unknown_c_type_is_an_error(gen: ModuleType) -> None:
    """A type the generator has no width for must be decided, not guessed."""
    with pytest.raises(ValueError, match="C_TYPE_WIDTHS"):
        gen.c_type_width("struct foo", "x86_64")


@pytest.mark.parametrize("arch", ARCHES)
def test_every_argument_has_a_width(arch: str) -> None:
    for info in table(arch).by_nr.values():
        assert len(info.arg_widths) == len(info.decode_widths) == info.nargs, info.name
        for width in (*info.arg_widths, *info.decode_widths):
            assert width in {"s16", "u16", "s32", "u32", "s64", "u64"}, (info.name, width)


def test_decode_widths_follow_strace_where_it_differs(gen: ModuleType) -> None:
    """The decode column is the kernel's width except for STRACE_DECODE_WIDTHS, on 64-bit registers only."""
    for arch in ARCHES:
        for info in table(arch).by_nr.values():
            for arg, kernel, decoded in zip(info.arg_names, info.arg_widths, info.decode_widths, strict=True):
                override = gen.STRACE_DECODE_WIDTHS.get((info.name, arg))
                if override and arch != "i386":
                    assert decoded == override[0], (arch, info.name, arg)
                else:
                    assert decoded == kernel, (arch, info.name, arg)
    assert all(reason for _, reason in gen.STRACE_DECODE_WIDTHS.values())
    names = {(info.name, arg) for info in table("x86_64").by_nr.values() for arg in info.arg_names}
    assert set(gen.STRACE_DECODE_WIDTHS) <= names, "an override names no x86_64 argument"


def test_cuts_built_once_per_syscall() -> None:
    """x86_64: one cutter per syscall with a 32-bit argument; it masks exactly those arguments."""
    tab = table("x86_64")
    socket = tab.by_name["socket"]  # family and protocol stay whole for strace's sake, type is cut
    assert socket.arg_widths == ("s32", "s32", "s32")
    assert socket.decode_widths == ("u64", "s32", "u64")
    high = 0xDEADBEEF00000000
    args = (high | 2, high | 1, high | 17, high, high, high)
    assert tab.cuts[socket.nr](args) == (high | 2, 1, high | 17, high, high, high)
    openat = tab.by_name["openat"]
    assert tab.cuts[openat.nr]((high | 0xFFFFFF9C, 0x7FFD0000, high | 0o101, high | 0o644, 5, 6)) == (
        0xFFFFFF9C, 0x7FFD0000, 0o101, 0o644, 5, 6)
    assert tab.by_name["getppid"].nr not in tab.cuts  # no arguments: nothing to do per call
    assert tab.by_name["mmap"].nr in tab.cuts  # strace prints its flags as an unsigned int
    assert table("i386").cuts == {}  # i386 registers are 32 bits already
