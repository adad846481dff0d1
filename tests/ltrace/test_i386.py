"""pyltrace on i386 (32-bit) programs, against ltrace 0.7.3 (issue 16: the i386 calling convention).

tests/ltrace/src/abi32.c is built with ``gcc -m32`` (its functions in the
32-bit libabi32.so, reached through the program's PLT) five ways: PIE (``.plt``
stubs ``jmp *name@GOT(%ebx)``), non-PIE (``jmp *ABS``), ``-z now``, IBT
(``.plt.sec`` stubs starting with ``endbr32``) and IBT with ``-z now``.  Its
calls pass ints, a char, a short, an unsigned, longs, a long long (no
prototype: ltrace's four default longs), strings, pointers, structs by value
(one with a double at offset 4, the ILP32 layout) and take struct results
through the hidden pointer, floats and doubles in and out (results in st(0)),
a variadic printf-style function and printf itself, all with ``-F
src/abi32.conf``.  Every trace is compared with ltrace's after normalising
addresses.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from lthelp import normalise, run, summary_rows

SRC = Path(__file__).resolve().parent / "src"
CONF = ["-F", str(SRC / "abi32.conf")]

#: Each build of abi32.c and its flags (all with -m32).
BUILDS: dict[str, list[str]] = {
    "pie": [],
    "nopie": ["-fno-pie", "-no-pie"],
    "now": ["-Wl,-z,now"],
    "ibt": ["-fcf-protection", "-Wl,-z,ibtplt"],
    "ibtnow": ["-fcf-protection", "-Wl,-z,ibtplt", "-Wl,-z,now"],
    "noplt": ["-fno-plt"],
}
#: Builds whose calls ltrace 0.7.3 does not see: IBT with -z now (it assumes the lazy .plt layout; the
#: stubs the code calls are in .plt.sec) and -fno-plt (calls through the GOT, no stub).
LTRACE_BLIND = ("ibtnow", "noplt")
#: What the calls compute (C semantics, not either tool's output): the lines both traces must hold.
WANT = (
    "i_ints(-7, 'A', -300, 4000000000) = -294967538",
    "i_long(-5, 70000) = -70005",
    "i_char('x') = 'y'",
    'i_str("hello", ADDR',
    "i_struct({ 10, -20, 'q' }, 5) = { 15, -40, 'r' }",
    "i_mix(2, { 100, 1.500000, 7 }) = { 98, 3.000000, 9 }",
    "i_float(2.500000, 4.000000) = 10.000000",
    "i_double(0.250000, 3, -1.500000) = 1.750000",
    'i_vfmt("%d %s %f %c %u %x %5.2f|%ld\\n", -1, "str", 2.500000, \'z\', 7, 0xff, -0.125000, 123456) = 36',
)


def _build(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if r.returncode:
        pytest.fail(f"{' '.join(cmd)}:\n{r.stderr}")


@pytest.fixture(scope="module")
def progs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("i386")
    _build(["gcc", "-m32", "-O0", "-shared", "-fPIC", "-DLIBRARY", "-o", str(out / "libabi32.so"),
            str(SRC / "abi32.c")])
    paths = {}
    for name, flags in BUILDS.items():
        paths[name] = out / f"abi32_{name}"
        _build(["gcc", "-m32", "-O0", "-fno-builtin", *flags, "-o", str(paths[name]), str(SRC / "abi32.c"),
                f"-L{out}", "-labi32", f"-Wl,-rpath,{out}"])
    paths["lib"] = out / "libltlib.so"
    _build(["gcc", "-m32", "-O0", "-shared", "-fPIC", "-o", str(paths["lib"]), str(SRC / "ltlib.c")])
    for name, extra in (("dl", ["-ldl"]), ("signals", []), ("forkthreads", ["-pthread"]), ("vfork", [])):
        paths[name] = out / name
        _build(["gcc", "-m32", "-O0", "-fno-builtin", "-o", str(paths[name]), str(SRC / f"{name}.c"), *extra])
    return paths


def _norm(text: str) -> str:
    """normalise(), with the padding before ``=`` collapsed (renumbered addresses change widths)."""
    return re.sub(r" {2,}= ", " = ", normalise(text))


def _sections(path: Path) -> set[str]:
    r = subprocess.run(["readelf", "-SW", str(path)], capture_output=True, text=True, check=True, timeout=60)
    return set(re.findall(r"\] (\.\S+)", r.stdout))


def test_builds_lay_the_plt_out_as_named(progs: dict[str, Path]) -> None:
    """The builds really differ where the test says they do: .plt.sec only with IBT, ELF32 i386."""
    for name, path in progs.items():
        if name in BUILDS:
            assert (".plt.sec" in _sections(path)) == name.startswith("ibt"), name
        head = path.read_bytes()[:20]
        assert head[4] == 1 and head[18:20] == b"\x03\x00", name  # ELFCLASS32, EM_386


def test_plain_pie_same_as_ltrace(progs: dict[str, Path]) -> None:
    ours = run("pyltrace", CONF, [progs["pie"]])
    theirs = run("ltrace", CONF, [progs["pie"]])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    assert "warning" not in ours.stderr
    assert _norm(ours.stderr) == _norm(theirs.stderr)
    text = _norm(ours.stderr)
    for want in WANT:
        assert want in text, want


@pytest.mark.parametrize("name", [n for n in BUILDS if n != "pie"])
def test_each_build_same_calls(progs: dict[str, Path], name: str) -> None:
    """Every build shows the same calls as ltrace shows for the plain PIE build, and as ltrace shows for
    the build itself -- except the LTRACE_BLIND builds, where ltrace 0.7.3 shows none of them."""
    ours = run("pyltrace", CONF, [progs[name]])
    reference = run("ltrace", CONF, [progs["pie"]])
    assert ours.returncode == 0 and ours.stdout == reference.stdout
    assert _norm(ours.stderr) == _norm(reference.stderr)
    theirs = run("ltrace", CONF, [progs[name]])
    if name in LTRACE_BLIND:
        assert "i_ints(" not in theirs.stderr and "i_ints(" in ours.stderr
    else:
        assert _norm(ours.stderr) == _norm(theirs.stderr)



#: prototype type -> (the same C struct, its field names)
LAYOUTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "struct(int, short, char)": ("struct { int a; short b; char c; }", ("a", "b", "c")),
    "struct(long, double, int)": ("struct { long a; double d; int c; }", ("a", "d", "c")),
    "struct(char, double)": ("struct { char c; double d; }", ("c", "d")),
    "struct(char, addr, short)": ("struct { char c; void *p; short s; }", ("c", "p", "s")),
    "struct(short, array(char, 3), ulong)": ("struct { short s; char a[3]; unsigned long l; }", ("s", "a", "l")),
    "struct(float, struct(char, double), char)": ("struct { float f; struct { char c; double d; } in; char e; }",
                                                  ("f", "in", "e")),
}


def test_ilp32_layout_same_as_gcc_m32(tmp_path: Path) -> None:
    """ILP32 sizes and field offsets (ctypes_model.ILP32) are those gcc -m32 gives the same structs."""
    from pytrace.ltrace import ctypes_model as T
    from pytrace.ltrace import prototypes as P

    lines = []
    for i, (ctype, fields) in enumerate(LAYOUTS.values()):
        fmt = " ".join(["%zu"] * (len(fields) + 1))
        args = ", ".join([f"sizeof(t{i})", *(f"offsetof(t{i}, {f})" for f in fields)])
        lines.append(f'{{ typedef {ctype} t{i}; printf("{fmt}\\n", {args}); }}')
    src = tmp_path / "layout.c"
    src.write_text("#include <stdio.h>\n#include <stddef.h>\nint main(void)\n{\n" + "\n".join(lines)
                   + "\nreturn 0;\n}\n")
    _build(["gcc", "-m32", "-o", str(tmp_path / "layout"), str(src)])
    got = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True,
                         timeout=60).stdout.splitlines()
    for decl, line in zip(LAYOUTS, got, strict=True):
        protos = P.Prototypes()
        protos.load_text(f"{decl} f();\n")
        proto = protos.get("f")
        assert protos.errors == [] and proto is not None
        offs, size = T.struct_layout(proto.ret, T.ILP32)
        assert [size, *offs] == [int(x) for x in line.split()], decl


@pytest.mark.parametrize("opts", [["-L", "-x", "i_*@libabi32.so"], ["-x", "i_*@libabi32.so"], ["-c"], []],
                         ids=["x-only", "plt-and-x", "summary", "default-conf"])
def test_more_options_same_as_ltrace(progs: dict[str, Path], opts: list[str]) -> None:
    """-x breakpoints on the functions' own first instructions (``push %ebp``/``endbr32``: stepped out of
    line in a page mapped with the tracee's own ``int $0x80`` mmap2), the PLT calls nesting around them,
    -c's counts, and the system's /etc/ltrace.conf instead of -F."""
    conf = [] if opts == [] else CONF
    for name in ("pie", "nopie"):
        ours = run("pyltrace", conf + opts, [progs[name]])
        theirs = run("ltrace", conf + opts, [progs[name]])
        assert ours.returncode == 0 and ours.stdout == theirs.stdout
        if opts == ["-c"]:
            rows = summary_rows(ours.stderr)
            assert rows == summary_rows(theirs.stderr) and rows["i_struct"] == 1, name
        else:
            assert _norm(ours.stderr) == _norm(theirs.stderr), name
            assert "i_mix" in ours.stderr


def test_dlopen_signals_vfork_same_as_ltrace(progs: dict[str, Path]) -> None:
    """A library dlopen'd (found through the i386 r_debug's r_brk), a tracee killed by SIGSEGV, and vfork
    with -f (the child's return from vfork, its calls and exit, the parent held meanwhile)."""
    conf = ["-F", "/etc/ltrace.conf"]
    for opts, cmd in ((["-L", "-x", "mylib_twice+mylib_len"], [progs["dl"], progs["lib"]]),
                      (["-e", "strlen@libltlib.so"], [progs["dl"], progs["lib"]]),
                      ([], [progs["signals"]]),
                      (["-f"], [progs["vfork"], "exit"])):
        ours = run("pyltrace", conf + opts, cmd)
        theirs = run("ltrace", conf + opts, cmd)
        assert ours.stdout == theirs.stdout, cmd
        pids = [int(p) for p in re.findall(r"^\[pid (\d+)\]", ours.stderr + theirs.stderr, re.M)]
        assert _norm_pids(ours.stderr, pids) == _norm_pids(theirs.stderr, pids), cmd
    alone = run("pyltrace", conf + ["-L", "-x", "mylib_twice"], [progs["dl"], progs["lib"]]).stderr
    assert alone.startswith("mylib_twice@libltlib.so(21, ") and ") = 42\n" in alone


def _norm_pids(text: str, pids: list[int]) -> str:
    """_norm() with each process's pid also renumbered where it is a value, in decimal or in hex
    (vfork's result ``= 0x2db9`` through the default prototype's guess lens, waitpid's argument)."""
    for pid in set(pids):
        text = re.sub(rf"(?:(?<=\()|(?<== )){hex(pid)}\b", str(pid), text)  # a first argument or a result
    return re.sub(r" {2,}= ", " = ", normalise(text, sorted(set(pids))))


def test_threads_and_fork_follow(progs: dict[str, Path]) -> None:
    """-f on a program whose threads call malloc/free while it forks and execs: every call shown, the
    tracee's output and exit status intact, run after run (ltrace 0.7.3 -f crashes on its x86-64 build)."""
    ours = run("pyltrace", ["-F", "/etc/ltrace.conf", "-f"], [progs["forkthreads"]])
    assert ours.returncode == 3 and ours.stdout == "total=7080 child=0\n"
    assert ours.stderr.count("malloc(") == 240 and ours.stderr.count("free(") == 240
    assert "--- Called exec() ---" in ours.stderr
    for _ in range(5):
        r = run("pyltrace", ["-f", "-o", "/dev/null"], [progs["forkthreads"]])
        assert (r.returncode, r.stdout, r.stderr) == (3, "total=7080 child=0\n", "")


def _syscalls(text: str) -> list[str]:
    """Each -S line's name and result (pids renumbered, addresses normalised), arguments left out."""
    rows = [(name, "TID" if name == "SYS_set_tid_address" else result)  # (the caller's tid)
            for name, result in re.findall(r"^(SYS_\w+)\(.*\) += (\S+)$", text, re.M)]
    return normalise("\n".join(f"{name} = {result}" for name, result in rows)).splitlines()


def test_syscalls_named_as_ltrace_with_the_right_arguments(progs: dict[str, Path]) -> None:
    """-S on an i386 program: the same syscalls, names and results as ltrace 0.7.3 (its i386 table names
    calls up to process_vm_writev, 348, the later ones by number: SYS_383 is statx).  ltrace reads
    their arguments from the wrong registers (``SYS_write(17, "sum ...", 4159005699)``, the
    ``exit_group`` status 1 where the program exits 0); pyltrace shows the real ones."""
    opts = ["-S", *CONF, "-F", "/etc/ltrace.conf"]
    ours = run("pyltrace", opts, [progs["pie"]])
    theirs = run("ltrace", opts, [progs["pie"]])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    assert _syscalls(ours.stderr) == _syscalls(theirs.stderr) != []
    assert 'SYS_write(1, "sum -295037167 3\\n", 17) = 17' in _norm(ours.stderr)
    assert "SYS_exit_group(0 <no return ...>" in ours.stderr
    assert "SYS_exit_group(0 <no return ...>" not in theirs.stderr


def test_a_64_bit_shell_running_32_bit_programs(progs: dict[str, Path]) -> None:
    """-f through exec from a 64-bit program (sh) into 32-bit ones (PIE, then non-PIE): each process's
    calls with i386 values.  The same lines as ltrace but for the caller's name with -e: ltrace keeps
    calling it after the first program (``sh->i_struct``), pyltrace names the program that runs
    (``abi32_pie->i_struct``), as it does for 64-bit execs."""
    script = f"{progs['pie']}; {progs['nopie']}"
    opts = [*CONF, "-f", "-e", "i_struct+i_float"]
    ours = run("pyltrace", opts, ["sh", "-c", script])
    theirs = run("ltrace", opts, ["sh", "-c", script])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    ours_text = _norm(ours.stderr)
    assert ours_text.count("abi32_pie->i_struct({ 10, -20, 'q' }, 5) = { 15, -40, 'r' }") == 1
    assert ours_text.count("abi32_nopie->i_float(2.500000, 4.000000) = 10.000000") == 1
    renamed = re.sub(r"abi32_(?:pie|nopie)->", "sh->", ours_text)
    assert renamed == _norm(theirs.stderr)


LIBC32 = next((p for p in ("/usr/lib32/libc.so.6", "/lib/i386-linux-gnu/libc.so.6") if Path(p).exists()), None)


def test_libc32_plt_map_same_as_objdump() -> None:
    """The 32-bit libc's PLT map (a PIC library: ``jmp *disp(%ebx)`` stubs, REL relocations) names every
    ``.plt`` stub as objdump does; the IRELATIVE slots objdump calls ``*ABS*@plt`` are named after
    their resolver, an IFUNC symbol of libc's (``nm -D`` type ``i``)."""
    from pytrace.ltrace.elf_plt import read_plt

    assert LIBC32 is not None, "gcc-multilib's 32-bit libc is a declared test dependency"
    dump = subprocess.run(["objdump", "-d", "-j", ".plt", LIBC32], capture_output=True, text=True, check=True,
                          timeout=60).stdout
    theirs = {int(a, 16): n for a, n in re.findall(r"^([0-9a-f]+) <(.+)@plt>:$", dump, re.M)}
    ifuncs = set(re.findall(r" i (\w+)", subprocess.run(["nm", "-D", LIBC32], capture_output=True, text=True,
                                                         check=True, timeout=60).stdout))
    ours = {s.address: s.name for s in read_plt(LIBC32).stubs if s.section == ".plt"}
    assert set(ours) == set(theirs) and len(ours) > 10
    for addr, name in theirs.items():
        if name == "*ABS*":
            assert ours[addr] in ifuncs, (hex(addr), ours[addr])
        else:
            assert ours[addr] == name.split("@", 1)[0], hex(addr)
