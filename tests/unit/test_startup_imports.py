"""Start-up: ``pytrace true`` imports only what tracing needs.

``python -X importtime`` lists every module a run imports; the ones below
must not be among those imported after the interpreter's own start-up
(site): they belong to features that are off in a default run (the ltrace
mode's ELF and disassembler libraries, the eBPF backend, fault injection,
-k), or are large standard modules that pytrace's start-up path avoids on
purpose (python-ptrace's binding runs ``ldconfig``; ``dataclasses`` and
``inspect`` cost more than any pytrace module, see pytrace/records.py;
``subprocess`` is needed only for ``-o '|cmd'``; ``typing`` is only for type checkers,
``importlib.resources`` only for a zipped install).  The syscall decoders are
imported family by family as a run meets their syscalls (decoder_index.py), so
the families ``true`` never calls (sockets, ioctls, netlink...) and the
``socket`` module (only -yy needs it) stay out too.

pyltrace keeps what it learns from an ELF file on disk (pytrace/ltrace/elf_cache.py):
its second run on the same program imports neither pyelftools nor capstone, a
changed file is parsed again, and a corrupt or unwritable cache changes
nothing but the time.  No timing is asserted.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO_ROOT, tracer_env

NOT_AT_START_UP = (
    "capstone", "elftools", "ptrace", "pytrace.backends.ebpf", "pytrace.ltrace", "pytrace.stack",
    "pytrace.backends.ptrace.tamper", "dataclasses", "inspect", "subprocess",
    # typing (~2 ms: TYPE_CHECKING = False instead), importlib.resources (~10 ms in an installed copy)
    "typing", "importlib.resources",
    # decoder families `true` does not call (imported on a syscall's first decoding), -yy's socket module
    "socket", "pytrace.decode.net", "pytrace.decode.netlink", "pytrace.decode.ioctl", "pytrace.decode.ipc",
    "pytrace.decode.io_uring", "pytrace.decode.bpf", "pytrace.decode.perf", "pytrace.decode.keyctl",
    "pytrace.decode.ptrace", "pytrace.decode.sched",
    "pytrace.tables.ioctls",
    # helpers `true`'s decoders do not need (the BPF disassembler, poll's family, -yy's sock_diag code),
    # the -c table (its options are sinks/summary_options.py), the seccomp filter generator (no filter
    # here: the decision is backends/ptrace/seccomp_policy.py), the standard signal module (enums
    # built at import: the start-up path uses _signal), resource (only to die of the tracee's signal)
    "pytrace.decode.bpf_insns", "pytrace.decode.poll", "pytrace.decode.sockdiag", "pytrace.sinks.summary",
    "pytrace.backends.ptrace.seccomp", "signal", "resource",
)
#: Imported by every traced `true` (sanity: the import list was read, and the lazy import works).
AT_START_UP = ("pytrace.backends.ptrace.loop",)


def _importtime(module: str, *args: str, env: dict[str, str] | None = None) -> tuple[list[str], str]:
    """(modules imported after site, the run's stderr without the import lines) of ``python -m module ARGS``."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", module, *args],
        capture_output=True, text=True, env=env or tracer_env(), cwd=REPO_ROOT, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stderr.splitlines()
    names = [line.rsplit("|", 1)[1].strip() for line in lines if line.startswith("import time:")]
    names = names[1:]  # the header line ("package")
    after = names[names.index("site") + 1:] if "site" in names else names
    return after, "\n".join(line for line in lines if not line.startswith("import time:"))


def _imported_after_site(*args: str) -> list[str]:
    return _importtime("pytrace", "-o", os.devnull, *args)[0]


@pytest.mark.parametrize("args", [["true"], ["-e", "trace=none", "true"], ["-f", "-e", "trace=openat", "true"]])
def test_default_runs_import_no_optional_module(args: list[str]) -> None:
    imported = _imported_after_site(*args)
    assert "pytrace.backends.ptrace.loop" in imported, "the list of imports was not read correctly"
    offenders = [m for m in imported if any(m == bad or m.startswith(bad + ".") for bad in NOT_AT_START_UP)]
    assert not offenders, f"imported at start-up although not needed: {offenders}"


def test_a_programs_start_up_needs_one_constant_table_part() -> None:
    """The tables a dynamically linked program's start-up prints are generated into part 0 of
    tables/xlat_parts (scripts/gen_xlat.py STARTUP_TABLES): a traced ``true`` (and ``sh -c true``,
    with its signal calls) imports that part and no other."""
    for args in (["true"], ["sh", "-c", "true"]):
        parts = [m for m in _imported_after_site(*args) if m.startswith("pytrace.tables.xlat_parts.")]
        assert parts == ["pytrace.tables.xlat_parts.p00"], (args, parts)


def test_records_stay_in_the_tracer_until_they_leave_it() -> None:
    """The split stop path imports pickle only to send records to a render process: a run short
    enough to be rendered by the tracer never does (whether a given run forks depends on timing,
    so this looks at what importing the tracer's side brings in, not at a run)."""
    code = "import sys, pytrace.sinks.split, pytrace.pipeline; print('pickle' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=tracer_env(),
                            cwd=REPO_ROOT, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def _offenders(imported: list[str], banned: tuple[str, ...]) -> list[str]:
    return [m for m in imported if any(m == bad or m.startswith(bad + ".") for bad in banned)]


def test_ebpf_runs_import_no_dataclasses_or_typing() -> None:
    """``--backend=ebpf``'s start-up (issue 14: first record within 100 ms) keeps out the standard
    modules the ptrace path avoids: its records use pytrace.records' dataclass."""
    imported = _imported_after_site("--backend=ebpf", "true")
    assert "pytrace.backends.ebpf.backend" in imported, "the list of imports was not read correctly"
    assert not _offenders(imported, ("dataclasses", "inspect", "typing")), "start-up cost crept back"


#: What ``--backend=ebpf -c`` does not need (issue 14, the fixed cost of -c): the kernel counts, no record
#: reaches user space and no line is printed, so neither the stream's modules (ring, record reader,
#: capture code, seizer, events) nor the decoders and the text sink; the fd holder is posix_spawn'd
#: (no subprocess, threading); the run's result is not the ptrace loop's module; no enum-building
#: signal; and, as an installed copy runs it, no re or pathlib (the venv's editable-install finder
#: imports both in site, before pytrace: hence ``-S`` below, with the checkout on PYTHONPATH).
NOT_IN_EBPF_COUNT = (
    "pytrace.backends.ebpf.ringbuf", "pytrace.backends.ebpf.records", "pytrace.backends.ebpf.seize",
    "pytrace.backends.ebpf.capture_table", "pytrace.backends.ebpf.capture_progs", "pytrace.backends.ebpf.capture_slots",
    "pytrace.events", "pytrace.decode", "pytrace.sinks.strace_text", "pytrace.sinks.status",
    "pytrace.backends.ptrace.loop", "subprocess", "threading", "signal", "dataclasses", "typing", "re", "pathlib",
)


def test_ebpf_count_imports_only_what_counting_needs() -> None:
    result = subprocess.run(
        [sys.executable, "-S", "-X", "importtime", "-m", "pytrace", "--backend=ebpf", "-f", "-c", "-o", os.devnull,
         "true"], capture_output=True, text=True, env=tracer_env(), cwd=REPO_ROOT, timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    imported = [line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines()
                if line.startswith("import time:")][1:]
    assert "pytrace.backends.ebpf.backend" in imported and "pytrace.sinks.summary" in imported, \
        "the list of imports was not read correctly"
    assert not _offenders(imported, NOT_IN_EBPF_COUNT), "-c imports what only the event stream needs"


def test_decoders_load_with_their_first_syscall() -> None:
    """`-e trace=ioctl` of a program that makes an ioctl: the ioctl family is imported, the others are not."""
    # ls asks whether its stdout (a pipe here) is a terminal: TCGETS, ENOTTY, decoded all the same.
    imported = _imported_after_site("-e", "trace=ioctl", "ls", "/dev/null")
    assert "pytrace.decode.ioctl" in imported
    assert not _offenders(imported, ("pytrace.decode.net", "socket", "pytrace.decode.ipc"))


ELF_LIBRARIES = ("elftools", "capstone")
#: Not needed by a run whose ELF facts and prototypes come from the cache: the prototype parser,
#: the readers for a file without sections, the USDT and i386 support, pickle and zlib (the caches
#: are marshal data named by pytrace.cache.digest).
WARM_UNNEEDED = ("pytrace.ltrace.protoparse", "pytrace.ltrace.elf_dynamic", "pytrace.ltrace.usdt",
                 "pytrace.ltrace.usdt_trace", "pytrace.ltrace.abi_i386", "pickle", "zlib", "resource")


def _pyltrace(cache: Path, program: Path, out: Path) -> tuple[list[str], str]:
    env = {**tracer_env(), "XDG_CACHE_HOME": str(cache)}
    imported, stderr = _importtime("pytrace.cli.ltrace_cli", "-o", str(out), str(program), env=env)
    assert "Traceback" not in stderr and stderr.strip() == "", stderr
    return imported, out.read_text()


def test_pyltrace_second_run_reads_the_elf_cache(tmp_path: Path) -> None:
    """Run 1 parses the program and its libraries (pyelftools) and stores the facts; run 2 parses nothing.

    Both runs print the same trace, and a changed program (new mtime and size) is parsed again.
    """
    program = tmp_path / "true"
    shutil.copy2("/usr/bin/true", program)
    cache = tmp_path / "cache"
    first, out1 = _pyltrace(cache, program, tmp_path / "1.txt")
    assert "elftools.elf.elffile" in first, "the first run should parse the ELF files"
    assert any(p.name.startswith("elf-") for p in (cache / "pytrace").iterdir())
    second, out2 = _pyltrace(cache, program, tmp_path / "2.txt")
    assert "pytrace.ltrace.objects" in second, "the list of imports was not read correctly"
    assert not _offenders(second, ELF_LIBRARIES), "the second run parsed ELF files again"
    assert not _offenders(second, ("dataclasses", "inspect", "typing")), "start-up cost crept back"
    assert not _offenders(second, WARM_UNNEEDED), "a warm run imported what only a miss or an option needs"
    assert out2 == out1
    with program.open("ab") as f:  # the same inode, another size and mtime: a stale entry
        f.write(b"\0" * 16)
    third, out3 = _pyltrace(cache, program, tmp_path / "3.txt")
    assert "elftools.elf.elffile" in third, "a changed file must be parsed again"
    assert out3 == out1
    assert not _offenders(_pyltrace(cache, program, tmp_path / "4.txt")[0], ELF_LIBRARIES)


def test_pyltrace_corrupt_or_unwritable_cache_is_ignored(tmp_path: Path) -> None:
    """Garbage in every entry, or a cache 'directory' that is a file: the same trace, no message, no traceback."""
    program = tmp_path / "true"
    shutil.copy2("/usr/bin/true", program)
    cache = tmp_path / "cache"
    _, reference = _pyltrace(cache, program, tmp_path / "ref.txt")
    entries = list((cache / "pytrace").iterdir())
    assert entries
    for i, entry in enumerate(entries):  # truncated marshal data, and valid marshal data of another shape
        entry.write_bytes(b"\xff\x00garbage" if i % 2 == 0 else b"\xe9\x00\x00\x00\x00")
    imported, out = _pyltrace(cache, program, tmp_path / "corrupt.txt")
    assert out == reference
    assert "elftools.elf.elffile" in imported, "a corrupt entry must be a miss"
    blocker = tmp_path / "file-not-dir"
    blocker.write_text("")
    imported, out = _pyltrace(blocker, program, tmp_path / "unwritable.txt")
    assert out == reference
    assert blocker.read_text() == ""


def test_pyltrace_corrupt_body_is_read_from_the_file(tmp_path: Path) -> None:
    """An ELF entry whose key and header are right but whose body (PLT, symbols: unpacked only when a
    run needs them) is garbage: the file itself is read, the trace is the same, nothing is said."""
    import marshal

    program = tmp_path / "true"
    shutil.copy2("/usr/bin/true", program)
    cache = tmp_path / "cache"
    _, reference = _pyltrace(cache, program, tmp_path / "ref.txt")
    st = program.stat()
    entry = cache / "pytrace" / f"elf-{st.st_dev:x}-{st.st_ino:x}.marshal"
    key, head, body = marshal.loads(entry.read_bytes())
    assert isinstance(body, bytes) and marshal.loads(body)["stubs"], "the program's PLT is in the body"
    for bad in (b"\xff\x00garbage", marshal.dumps({"stubs": 1})):
        entry.write_bytes(marshal.dumps((key, head, bad)))
        imported, out = _pyltrace(cache, program, tmp_path / "bad.txt")
        assert out == reference
        assert "elftools.elf.elffile" in imported, "the PLT should have been read from the file"


def test_pyltrace_cache_stays_bounded(tmp_path: Path) -> None:
    """A cache already at its limit of entries: a run that stores new facts removes the oldest, keeps its own."""
    from pytrace.ltrace.elf_cache import MAX_ENTRIES

    program = tmp_path / "true"
    shutil.copy2("/usr/bin/true", program)
    cache = tmp_path / "cache"
    directory = cache / "pytrace"
    directory.mkdir(parents=True)
    for i in range(MAX_ENTRIES):  # old entries of files long gone
        old = directory / f"elf-0-{i:x}.marshal"
        old.write_bytes(b"")
        os.utime(old, ns=(10**18 + i, 10**18 + i))
    _, reference = _pyltrace(cache, program, tmp_path / "1.txt")
    names = {p.name for p in directory.iterdir() if p.name.startswith("elf-")}
    assert len(names) <= MAX_ENTRIES * 3 // 4 + 3  # pruned down (plus what was stored since)
    st = program.stat()
    assert f"elf-{st.st_dev:x}-{st.st_ino:x}.marshal" in names  # the newest entries are kept
    assert "elf-0-0.marshal" not in names and f"elf-0-{MAX_ENTRIES - 1:x}.marshal" in names  # oldest first
    imported, out = _pyltrace(cache, program, tmp_path / "2.txt")
    assert out == reference
    assert not _offenders(imported, ELF_LIBRARIES), "the run after the pruning should hit the cache"


def test_pyltrace_cache_can_be_turned_off(tmp_path: Path) -> None:
    """PYTRACE_CACHE=0: nothing is written, every run parses the files, and prints the same trace."""
    program = tmp_path / "true"
    shutil.copy2("/usr/bin/true", program)
    cache = tmp_path / "cache"
    _, reference = _pyltrace(cache, program, tmp_path / "ref.txt")  # with the cache: the reference
    off = tmp_path / "off"
    env = {**tracer_env(), "XDG_CACHE_HOME": str(off), "PYTRACE_CACHE": "0"}
    for run in ("1", "2"):
        imported, stderr = _importtime("pytrace.cli.ltrace_cli", "-o", str(tmp_path / run), str(program), env=env)
        assert stderr.strip() == "", stderr
        assert "elftools.elf.elffile" in imported, "without the cache every run parses the ELF files"
        assert (tmp_path / run).read_text() == reference
    assert not off.exists()


def test_pyltrace_prototype_cache_follows_the_files(tmp_path: Path) -> None:
    """-F FILE is parsed once and read back while FILE is unchanged; an edited FILE is parsed again.

    A cache hit is seen as the entry not being rewritten (same inode); what the run prints
    (the file's error messages, in ltrace's words) is the same either way, and matches ltrace's.
    """
    conf = tmp_path / "my.conf"
    conf.write_text("int foo(bar);\nint x(int);\n")
    cache = tmp_path / "cache"
    env = {**tracer_env(), "XDG_CACHE_HOME": str(cache)}

    def run(out: str) -> str:
        result = subprocess.run(
            [sys.executable, "-m", "pytrace.cli.ltrace_cli", "-F", str(conf), "-o", str(tmp_path / out), "true"],
            capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=60, check=False)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        return (tmp_path / out).read_text()

    def entry() -> Path:
        (found,) = (cache / "pytrace").glob("protos-*.marshal")
        return found

    first = run("1.txt")
    inode = entry().stat().st_ino
    assert run("2.txt") == first
    assert entry().stat().st_ino == inode, "an unchanged file should be read from the cache, not parsed again"
    real = subprocess.run(["ltrace", "-F", str(conf), "-o", str(tmp_path / "ltrace.txt"), "true"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert real.returncode == 0, real.stderr
    error_lines = [line for line in first.splitlines() if ": error: " in line]
    assert error_lines and error_lines == [
        line for line in (tmp_path / "ltrace.txt").read_text().splitlines() if ": error: " in line]
    conf.write_text("int x(int);\nint foo(bar, baz);\n")  # the error moves to line 2
    third = run("3.txt")
    assert entry().stat().st_ino != inode
    assert f"{conf}:2: error:" in third and f"{conf}:1: error:" not in third
    entry().write_bytes(b"\x80\x05garbage")  # a corrupt entry: parsed again, same output
    assert run("4.txt") == third


def test_installed_layout_reads_tables_without_importlib_resources(tmp_path: Path) -> None:
    """An installed copy (pytrace/_syscall_tables/ inside the package, no checkout around it) reads
    its syscall tables by path: importlib.resources and what it imports (~10 ms) stay out."""
    site = tmp_path / "site"
    shutil.copytree(REPO_ROOT / "pytrace", site / "pytrace", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO_ROOT / "syscall_tables", site / "pytrace" / "_syscall_tables")
    code = ("import sys\nfrom pytrace.tables import syscalls\nt = syscalls.table('x86_64')\n"
            "print(syscalls.__file__.startswith(sys.argv[1]), t.name(257),"
            " any(m.startswith(('importlib.resources', 'zipfile')) for m in sys.modules))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the copy in cwd, not the checkout
    result = subprocess.run([sys.executable, "-c", code, str(site)], capture_output=True, text=True,
                            cwd=site, env=env, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "openat", "False"]
