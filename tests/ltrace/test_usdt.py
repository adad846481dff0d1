"""USDT probes (sys/sdt.h) with pyltrace: --list-usdt against ``readelf -n``, -e usdt:... against bpftrace.

The C program (src/usdt.c + usdt_sem.c, linking libusdtlib.so built from
usdtlib.c) is the classic ``tracetest`` shape: probes with an int, a string
pointer, a short, an unsigned char and a global read through its symbol
(``-8@counter(%rip)``), in a loop; two probes sit behind semaphores (one in the
program, one in the library) and the program prints whether it saw each
semaphore on.  It is built at -O2 (register and symbol operands) and at -O0
(``disp(%rbp)`` memory operands).  bpftrace's ``usdt:`` probes give the reference
values for what it can read (its 0.17 cannot read ``sym(%rip)`` operands, strings
at a -c program's start, nor find probes in the program's libraries).  Debian's
/usr/bin/python3.11 carries CPython's probes behind semaphores.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import REPO_ROOT, trace_schema_validator, tracer_env
from lthelp import normalise, pyltrace_cmd, run, summary_rows

from pytrace.ltrace import usdt as U

SRC = Path(__file__).resolve().parent / "src"
PYTHON = "/usr/bin/python3.11"


@pytest.fixture(scope="module")
def prog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """O2 / O0: the test program built both ways; lib, dl: libusdtlib.so and libusdtdl.so (dlopen'ed);
    i386: the program and its library built with -m32."""
    if not Path("/usr/include/x86_64-linux-gnu/sys/sdt.h").exists() and not Path("/usr/include/sys/sdt.h").exists():
        pytest.fail("<sys/sdt.h> is missing: apt-get install systemtap-sdt-dev (in .ci/run's set-up line)")
    out = tmp_path_factory.mktemp("usdt")
    cmds = [
        ["gcc", "-O2", "-shared", "-fPIC", "-o", str(out / "libusdtlib.so"), str(SRC / "usdtlib.c")],
        ["gcc", "-O2", "-shared", "-fPIC", "-DPROVIDER=usdtdl", "-o", str(out / "libusdtdl.so"), str(SRC / "usdtlib.c")],
    ]
    for opt in ("O2", "O0"):
        cmds.append(["gcc", f"-{opt}", "-o", str(out / f"usdt_{opt}"), str(SRC / "usdt.c"), str(SRC / "usdt_sem.c"),
                     f"-L{out}", "-lusdtlib", f"-Wl,-rpath,{out}"])
    # i386: Debian installs sys/sdt.h (which has i386 code) under the amd64 include directory only; an
    # include directory holding just its two files makes it visible to -m32 without amd64's other headers.
    inc, lib32 = out / "inc32" / "sys", out / "lib32"
    inc.mkdir(parents=True)
    lib32.mkdir()
    for name in ("sdt.h", "sdt-config.h"):
        (inc / name).symlink_to(Path("/usr/include/x86_64-linux-gnu/sys") / name)
    cmds += [["gcc", "-m32", f"-I{out / 'inc32'}", "-O2", "-shared", "-fPIC", "-o", str(lib32 / "libusdtlib.so"),
              str(SRC / "usdtlib.c")],
             ["gcc", "-m32", f"-I{out / 'inc32'}", "-O2", "-o", str(out / "usdt_i386"), str(SRC / "usdt.c"),
              str(SRC / "usdt_sem.c"), f"-L{lib32}", "-lusdtlib", f"-Wl,-rpath,{lib32}"]]
    for cmd in cmds:
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if r.returncode:
            pytest.fail(f"{' '.join(cmd)}:\n{r.stderr}")
    return {"O2": out / "usdt_O2", "O0": out / "usdt_O0", "lib": out / "libusdtlib.so", "dl": out / "libusdtdl.so",
            "i386": out / "usdt_i386"}


def readelf_probes(path: str | Path) -> list[tuple[str, str, int, int, int, str]]:
    """(provider, name, location, base, semaphore, arguments) of each note, as ``readelf -n`` prints it."""
    text = subprocess.run(["readelf", "-n", str(path)], capture_output=True, text=True, check=True).stdout
    rx = re.compile(r"Provider: (\S+)\n\s+Name: (\S+)\n\s+Location: (0x[0-9a-f]+), Base: (0x[0-9a-f]+), "
                    r"Semaphore: (0x[0-9a-f]+)\n\s+Arguments: ?(.*)")
    return [(m[1], m[2], int(m[3], 16), int(m[4], 16), int(m[5], 16), m[6].strip()) for m in rx.finditer(text)]


def bpftrace(program: str, *cmd: str | Path) -> list[str]:
    """bpftrace's lines starting with ``B `` (the program's own output is left out)."""
    r = subprocess.run(["bpftrace", "-e", program, "-c", " ".join(str(c) for c in cmd)], capture_output=True,
                       text=True, timeout=120, check=False)
    lines = [ln[2:] for ln in r.stdout.splitlines() if ln.startswith("B ")]
    assert lines, f"bpftrace printed nothing:\n{r.stdout}\n{r.stderr}"
    return lines


def probe_lines(trace: str) -> list[str]:
    return [ln for ln in trace.splitlines() if "usdt:" in ln]


# -- notes and argument specs -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec, expect", [
    ("-4@%edi", dict(size=4, signed=True, kind=U.REG, reg="rdi")),
    ("8@%rax", dict(size=8, signed=False, kind=U.REG, reg="rax")),
    ("1@%ah", dict(size=1, kind=U.REG, reg="rax", shift=8)),
    ("-2@%r9w", dict(size=2, signed=True, kind=U.REG, reg="r9")),
    ("8@-8(%rbp)", dict(size=8, kind=U.MEM, reg="rbp", disp=-8)),
    ("4@16(%rsp)", dict(size=4, kind=U.MEM, reg="rsp", disp=16)),
    ("1@(%rdi)", dict(size=1, kind=U.MEM, reg="rdi", disp=0)),
    ("-4@$5", dict(size=4, signed=True, kind=U.CONST, disp=5)),
    ("-8@$-1", dict(kind=U.CONST, disp=-1)),
    ("8@counter(%rip)", dict(kind=U.MEM, reg=None, symbol="counter", disp=0)),
    ("-4@table+8(%rip)", dict(kind=U.MEM, reg=None, symbol="table", disp=8)),
    ("8@8(%rax,%rdx,8)", dict(kind=U.MEM, reg="rax", index="rdx", scale=8, disp=8)),
    ("-4@counter@GOTOFF(%ebx)", dict(size=4, kind=U.MEM, reg=None, symbol="counter", disp=0)),
    ("%rsi", dict(size=8, signed=False, kind=U.REG, reg="rsi")),
])
def test_parse_arg(spec: str, expect: dict[str, object]) -> None:
    parsed = U.parse_arg(spec)
    for key, value in expect.items():
        assert getattr(parsed, key) == value, (spec, key)


@pytest.mark.parametrize("spec", ["3@%eax", "4@%xmm0", "8@%fs:0x28", "8@4(%rip)", "4@%eax,", "x@%eax"])
def test_parse_arg_refuses(spec: str) -> None:
    with pytest.raises(U.SpecError):
        U.parse_arg(spec)


def test_arg_value_sizes_signs_and_operands() -> None:
    regs = {name: 0 for name in U.USER_REGS}
    regs.update(rax=0x1234_5678_9ABC_DEF0, rcx=0xFFFF, rsi=0xC8, rbp=0x1000, rdx=2)
    memory = {0x1000 - 8: (-7 & (1 << 64) - 1).to_bytes(8, "little"), 0x5000 + 0x40: (300).to_bytes(4, "little"),
              0x1000 + 8 + 2 * 8: b"\x05\x00"}

    def read(addr: int, size: int) -> bytes | None:
        data = memory.get(addr)
        return data[:size] if data is not None else None

    def value(spec: str, **kw: int) -> int | None:
        s = U.parse_arg(spec)
        if s.symbol:
            s = U.resolve_symbols([s], {"counter": 0x40})[0]
        return U.arg_value(s, regs.__getitem__, read, **kw)

    assert value("-2@%cx") == -1 and value("2@%cx") == 0xFFFF
    assert value("1@%sil") == 200 and value("-1@%sil") == -56
    assert value("1@%ah") == 0xDE and value("-4@%eax") == 0x9ABCDEF0 - (1 << 32)
    assert value("-8@-8(%rbp)") == -7 and value("4@-8(%rbp)") == 0xFFFFFFF9
    assert value("-4@counter(%rip)", bias=0x5000) == 300
    assert value("2@8(%rbp,%rdx,8)") == 5
    assert value("-4@$-3") == -3
    assert value("8@16(%rbp)") is None  # unreadable memory: no value, not a made-up one


def test_semaphore_counter_is_16_bit_and_never_negative() -> None:
    mem = {0x10: b"\xff\xff"}
    read = lambda a, n: mem.get(a)  # noqa: E731
    write = lambda a, d: mem.__setitem__(a, d)  # noqa: E731
    assert U.adjust_semaphore(read, write, 0x10, 1) == 0xFFFF
    mem[0x10] = b"\x00\x00"
    assert U.adjust_semaphore(read, write, 0x10, -1) == 0
    assert U.adjust_semaphore(read, write, 0x10, 1) == 1 and mem[0x10] == b"\x01\x00"
    assert U.adjust_semaphore(read, write, 0x99, 1) is None


@pytest.mark.parametrize("which", ["O2", "O0", "lib", "i386", "python"])
def test_notes_match_readelf(prog: dict[str, Path], which: str) -> None:
    """Every note as readelf decodes it, and every argument spec gcc wrote understood."""
    path = PYTHON if which == "python" else prog[which]
    probes = U.read_probes(str(path))
    assert [(p.provider, p.name, p.address, p.semaphore, p.args_text) for p in probes] == \
        [(r[0], r[1], r[2], r[4], r[5]) for r in readelf_probes(path)]
    assert probes and all(p.problem is None for p in probes)
    assert all(len(p.args) == len(p.args_text.split()) for p in probes)
    for p in probes:  # the file offset is where the nop byte is
        with open(path, "rb") as f:
            assert p.offset is not None
            f.seek(p.offset)
            assert f.read(1) == b"\x90"


# -- --list-usdt ------------------------------------------------------------------------------------------


def test_list_usdt_matches_readelf_over_program_and_libraries(prog: dict[str, Path]) -> None:
    r = run("pyltrace", ["--list-usdt"], [prog["O2"]])
    assert r.returncode == 0, r.stderr
    ldd = subprocess.run(["ldd", str(prog["O2"])], capture_output=True, text=True, check=True).stdout
    files = [str(prog["O2"])] + re.findall(r"(/\S+) \(0x", ldd)
    expected = [f"{f} {p[0]}:{p[1]} semaphore={'yes' if p[4] else 'no'}" + (f" {p[5]}" if p[5] else "")
                for f in files for p in readelf_probes(f)]
    assert r.stdout.splitlines() == expected
    assert f"{prog['lib']} usdtlib:hit semaphore=yes -4@%edi -8@%rax" in r.stdout.splitlines()


def test_list_usdt_python(prog: dict[str, Path]) -> None:
    r = run("pyltrace", ["--list-usdt"], [PYTHON])
    lines = r.stdout.splitlines()
    assert r.returncode == 0 and len(lines) == len(readelf_probes(PYTHON))
    entry = next(ln for ln in lines if " python:function__entry " in ln)
    assert entry.startswith(f"{PYTHON} python:function__entry semaphore=yes ")


def test_list_usdt_errors(tmp_path: Path) -> None:
    text = tmp_path / "notelf"
    text.write_text("hello\n")
    text.chmod(0o755)
    cut = tmp_path / "cut"
    cut.write_bytes(Path(PYTHON).read_bytes()[:3000])
    cut.chmod(0o755)
    for target, words in ((str(text), "is not an ELF file"), ("/nonexistent/prog", "No such file"),
                          (str(tmp_path), "Is a directory"), (str(cut), "cannot read its notes")):
        r = run("pyltrace", ["--list-usdt"], [target])
        assert r.returncode == 1 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert len(r.stderr.splitlines()) == 1 and r.stdout == ""
    r = subprocess.run(["bash", "-o", "pipefail", "-c", f"{' '.join(pyltrace_cmd())} --list-usdt {PYTHON} | true"],
                       capture_output=True, text=True, env=tracer_env(), cwd=str(REPO_ROOT), check=False)
    assert r.returncode in (0, 128 + signal.SIGPIPE) and r.stderr == ""  # a reader gone: no traceback


# -- tracing ----------------------------------------------------------------------------------------------


def _expected_c(n: int) -> list[str]:
    """What the program's probes carry, from its source: i, -i, 200 + i, the running sum, 10 i, 10**12 + i."""
    out, counter = [], 0
    for i in range(n):
        counter += i
        out += [f"usdt:tracetest:loop({i}, PTR)", f"usdt:tracetest:mixed({-i}, {200 + i}, {counter})",
                f"usdt:tracetest:guarded({10 * i})", f"usdt:usdtlib:hit({i}, {10**12 + i})"]
    return out


@pytest.mark.parametrize("opt", ["O2", "O0"])
def test_trace_c_program_against_bpftrace(prog: dict[str, Path], opt: str) -> None:
    exe = prog[opt]
    r = run("pyltrace", ["-e", "usdt:*"], [exe, "4"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "semaphore guarded=on hit=on\n"  # the program saw both semaphores raised
    lines = probe_lines(r.stderr)
    assert [re.sub(r"(loop\(\d+), \d+\)", r"\1, PTR)", ln) for ln in lines] == _expected_c(4)
    pointers = {re.match(r"usdt:tracetest:loop\(\d+, (\d+)\)", ln)[1] for ln in lines if "loop" in ln}  # type: ignore[index]
    assert len(pointers) == 1  # the same string every time
    ours = [re.match(r"usdt:tracetest:(\w+)\(([^)]*)\)", ln) for ln in lines if "tracetest" in ln]
    mine = [f"{m[1]} {' '.join(a.strip() for a in m[2].split(',')[:2])}" for m in ours if m]
    ref = bpftrace(f'usdt:{exe}:tracetest:loop {{ printf("B loop %d\\n", arg0); }} '
                   f'usdt:{exe}:tracetest:mixed {{ printf("B mixed %d %d\\n", arg0, arg1); }} '
                   f'usdt:{exe}:tracetest:guarded {{ printf("B guarded %d\\n", arg0); }}', exe, "4")
    assert [re.sub(r"^loop (\S+) \S+$", r"loop \1", m) for m in mine] == ref


def test_i386_program_same_values_as_x86_64(prog: dict[str, Path]) -> None:
    """The -m32 build (i386 notes: ``-4@counter@GOTOFF(%ebx)``, 4-byte pointers) carries the same values
    as the x86-64 one, but for the library probe's ``long`` (4 bytes there: 10**12 + i cut to 32 bits)."""
    assert "counter@GOTOFF(%ebx)" in run("pyltrace", ["--list-usdt"], [prog["i386"]]).stdout
    r = run("pyltrace", ["-e", "usdt:*"], [prog["i386"], "3"])
    assert r.returncode == 0 and r.stdout == "semaphore guarded=on hit=on\n", r.stderr
    lines = [re.sub(r"(loop\(\d+), \d+\)", r"\1, PTR)", ln) for ln in probe_lines(r.stderr)]
    cut = [re.sub(r"hit\((\d+), \d+\)", lambda m: f"hit({m[1]}, {(10**12 + int(m[1]) + 2**31) % 2**32 - 2**31})", ln)
           for ln in _expected_c(3)]
    assert lines == cut


def test_semaphores_only_for_selected_probes(prog: dict[str, Path]) -> None:
    r = run("pyltrace", [], [prog["O2"], "2"])
    assert r.stdout == "semaphore guarded=off hit=off\n"
    r = run("pyltrace", ["-e", "usdt:tracetest:loop"], [prog["O2"], "2"])
    assert r.stdout == "semaphore guarded=off hit=off\n"
    assert probe_lines(r.stderr) == [ln for ln in probe_lines(r.stderr) if ln.startswith("usdt:tracetest:loop(")]
    assert len(probe_lines(r.stderr)) == 2
    r = run("pyltrace", ["-e", "usdt:*:hit@libusdtlib.so"], [prog["O2"], "2"])
    assert r.stdout == "semaphore guarded=off hit=on\n"
    assert probe_lines(r.stderr) == ["usdt:usdtlib:hit(0, 1000000000000)", "usdt:usdtlib:hit(1, 1000000000001)"]


def test_dlopened_library_probe_and_semaphore(prog: dict[str, Path]) -> None:
    r = run("pyltrace", ["-e", "usdt:usdtdl:*"], [prog["O2"], "2", "dl", prog["dl"]])
    assert r.stdout.splitlines() == ["semaphore guarded=off hit=off", "dl hit=on"]
    assert probe_lines(r.stderr) == ["usdt:usdtdl:hit(0, 1000000000000)", "usdt:usdtdl:hit(1, 1000000000001)"]


def test_fork_child_semaphores(prog: dict[str, Path]) -> None:
    """Without -f a forked child is let go: its copy of the raised semaphores is taken back down (it sees
    them off, and hits nothing of ours); with -f it is traced, semaphores on, its hits under its pid."""
    r = run("pyltrace", ["-e", "usdt:tracetest:guarded+usdtlib:hit"], [prog["O2"], "1", "fork"])
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["semaphore guarded=on hit=on", "child guarded=off hit=off"]
    assert probe_lines(r.stderr) == ["usdt:tracetest:guarded(0)", "usdt:usdtlib:hit(0, 1000000000000)"]
    r = run("pyltrace", ["-f", "-e", "usdt:tracetest:guarded+usdtlib:hit"], [prog["O2"], "1", "fork"])
    assert r.stdout.splitlines() == ["semaphore guarded=on hit=on", "child guarded=on hit=on"]
    lines = probe_lines(r.stderr)
    pids = [re.match(r"^\[pid (\d+)\] ", ln)[1] for ln in lines]  # type: ignore[index]
    assert [re.sub(r"^\[pid \d+\] ", "", ln) for ln in lines] == [
        "usdt:tracetest:guarded(0)", "usdt:usdtlib:hit(0, 1000000000000)",
        "usdt:tracetest:guarded(1000)", "usdt:usdtlib:hit(100, 1000000000100)"]
    assert pids[0] == pids[1] != pids[2] == pids[3]


def test_argument_types_from_a_prototype_file(prog: dict[str, Path], tmp_path: Path) -> None:
    conf = tmp_path / "usdt.conf"
    conf.write_text("void tracetest:loop(int, string);\nvoid tracetest:mixed(short, char, long);\n")
    r = run("pyltrace", ["-F", str(conf), "-e", "usdt:tracetest:loop+tracetest:mixed"], [prog["O2"], "2"])
    assert probe_lines(r.stderr) == ['usdt:tracetest:loop(0, "hello")', "usdt:tracetest:mixed(0, '\\310', 0)",
                                     'usdt:tracetest:loop(1, "hello")', "usdt:tracetest:mixed(-1, '\\311', 1)"]


def test_line_options_and_calls_together(prog: dict[str, Path], tmp_path: Path) -> None:
    """-f -ttt -o: pid and time stamp on each probe line; library calls (-e printf, shown as ltrace shows -e calls: PROG->printf) traced alongside."""
    out = tmp_path / "trace"
    r = run("pyltrace", ["-f", "-ttt", "-o", str(out), "-e", "usdt:tracetest:guarded", "-e", "printf"],
            [prog["O2"], "2"])
    assert r.returncode == 0
    lines = out.read_text().splitlines()
    rx = re.compile(r"^(\d+) \d{9,}\.\d{6} (.*)$")
    body = [rx.match(ln) for ln in lines]
    assert all(body), lines
    assert len({m[1] for m in body if m}) == 1
    texts = [m[2] for m in body if m]
    assert texts[:2] == ["usdt:tracetest:guarded(0)", "usdt:tracetest:guarded(10)"]
    assert texts[2].startswith('usdt_O2->printf("semaphore guarded=%s hit=%s\\n", "on", "off")')
    assert texts[-1] == "+++ exited (status 0) +++"
    r = run("pyltrace", ["-r", "-i", "-e", "usdt:tracetest:guarded"], [prog["O2"], "1"])
    assert re.match(r"^ +\d+\.\d{6} \[0x[0-9a-f]+\] usdt:tracetest:guarded\(0\)$", probe_lines(r.stderr)[0])


def test_count(prog: dict[str, Path]) -> None:
    r = run("pyltrace", ["-c", "-e", "usdt:*"], [prog["O2"], "5"])
    rows = {m[2]: int(m[1]) for m in re.finditer(r"^\s*\S+\s+\S+\s+\d+\s+(\d+) (\S+)$", r.stderr, re.M)}
    assert rows == {"usdt:tracetest:loop": 5, "usdt:tracetest:mixed": 5, "usdt:tracetest:guarded": 5,
                    "usdt:usdtlib:hit": 5}
    assert re.search(r"^100\.00 +\S+ +20 total$", r.stderr, re.M)


def test_json_records_and_report(prog: dict[str, Path], tmp_path: Path) -> None:
    """--json: one schema-valid ``usdt`` record per hit; ``pytrace report`` prints the text trace back."""
    args = ["-e", "usdt:tracetest:mixed+tracetest:guarded", "-e", "printf"]
    r = run("pyltrace", ["--json", "-o", str(tmp_path / "t.jsonl"), *args], [prog["O2"], "2"])
    assert r.returncode == 0, r.stderr
    recs = [json.loads(ln) for ln in (tmp_path / "t.jsonl").read_text().splitlines()]
    validator = trace_schema_validator()
    for rec in recs:
        validator.validate(rec)
    usdt = [x for x in recs if x["type"] == "usdt"]
    assert [(x["provider"], x["name"], [a["value"] for a in x["args"]]) for x in usdt] == \
        [("tracetest", "mixed", [0, 200, 0]), ("tracetest", "guarded", [0]),
         ("tracetest", "mixed", [-1, 201, 1]), ("tracetest", "guarded", [10])]
    text = run("pyltrace", args, [prog["O2"], "2"]).stderr
    rep = subprocess.run([sys.executable, "-m", "pytrace", "report", str(tmp_path / "t.jsonl")], capture_output=True,
                         text=True, env=tracer_env(), cwd=str(REPO_ROOT), check=False)
    assert rep.returncode == 0 and normalise(rep.stdout) == normalise(text)
    counted = subprocess.run([sys.executable, "-m", "pytrace", "report", "-c", str(tmp_path / "t.jsonl")],
                             capture_output=True, text=True, env=tracer_env(), cwd=str(REPO_ROOT), check=False)
    live = run("pyltrace", ["-c", *args], [prog["O2"], "2"]).stderr
    assert summary_rows(counted.stdout) == summary_rows(live) == {
        "usdt:tracetest:mixed": 2, "usdt:tracetest:guarded": 2, "printf": 1}


# -- python3.11 -----------------------------------------------------------------------------------------------

_PY_SCRIPT = "def f(): pass\nf()"


def test_python_function_probes_against_bpftrace() -> None:
    """f's return shows "<string>", "f", 1; the entries are exactly the ones bpftrace sees.

    CPython 3.11 fires ``function__entry`` only where a frame starts in a new C call of the
    evaluation loop (generators, getpath's code): calls it inlines in the loop, such as
    ``f()`` here, fire no entry probe (bpftrace shows the same), but each return does.
    """
    r = run("pyltrace", ["-e", "usdt:python:function__*"], [PYTHON, "-c", _PY_SCRIPT])
    assert r.returncode == 0, r.stderr
    lines = probe_lines(r.stderr)
    assert 'usdt:python:function__return("<string>", "f", 1)' in lines
    assert lines[-1] == 'usdt:python:function__return("<string>", "<module>", 2)'
    entries = [ln for ln in lines if ln.startswith("usdt:python:function__entry(")]
    returns = [ln for ln in lines if "function__return" in ln]
    script = Path(os.environ.get("TMPDIR", "/tmp")) / f"pyltrace_usdt_{os.getpid()}.py"
    script.write_text(_PY_SCRIPT + "\n")
    try:
        ref = bpftrace(f'usdt:{PYTHON}:python:function__entry {{ printf("B %s|%s|%d\\n", str(arg0), str(arg1), arg2); }}',
                       PYTHON, script)
    finally:
        script.unlink()
    assert [f'usdt:python:function__entry("{f}", "{n}", {ln})' for f, n, ln in (x.split("|") for x in ref)] == entries
    assert len(returns) > len(entries)


def test_python_semaphores_count() -> None:
    r = run("pyltrace", ["-c", "-e", "usdt:python:import__find__load__start"], [PYTHON, "-c", "import json"])
    rows = {m[2]: int(m[1]) for m in re.finditer(r"^\s*\S+\s+\S+\s+\d+\s+(\d+) (\S+)$", r.stderr, re.M)}
    assert rows.get("usdt:python:import__find__load__start", 0) >= 4  # json, json.decoder, json.scanner, ...
    r = run("pyltrace", ["-e", "usdt:python:import__find__load__start"], [PYTHON, "-c", "import json"])
    assert 'usdt:python:import__find__load__start("json")' in probe_lines(r.stderr)


# -- attach and detach --------------------------------------------------------------------------------------


def _semaphore(pid: int, addr: int) -> int:
    with open(f"/proc/{pid}/mem", "rb") as f:
        f.seek(addr)
        return int.from_bytes(f.read(2), "little")


def test_attach_then_sigint_resets_semaphores(prog: dict[str, Path], tmp_path: Path) -> None:
    child = subprocess.Popen([str(prog["O2"]), "0", "wait"], stdout=subprocess.PIPE, text=True)
    tracer = None
    try:
        assert child.stdout is not None
        addrs = [int(a, 16) for a in child.stdout.readline().split()[1:]]
        before = [_semaphore(child.pid, a) for a in addrs]
        assert before == [0, 0]
        out = tmp_path / "trace"
        tracer = subprocess.Popen(pyltrace_cmd() + ["-p", str(child.pid), "-o", str(out), "-e", "usdt:*"],
                                  env=tracer_env(), cwd=str(REPO_ROOT), stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while "usdt:usdtlib:hit(" not in (out.read_text() if out.exists() else ""):
            assert time.monotonic() < deadline and tracer.poll() is None, "no probe hit seen"
            time.sleep(0.02)
        assert [_semaphore(child.pid, a) for a in addrs] == [1, 1]  # raised while traced
        tracer.send_signal(signal.SIGINT)
        _, err = tracer.communicate(timeout=60)
        assert "Traceback" not in err
        assert [_semaphore(child.pid, a) for a in addrs] == before
        assert child.poll() is None  # still running, untraced, no int3 left behind
        with open(f"/proc/{child.pid}/status") as f:
            assert "TracerPid:\t0" in f.read()
        lines = probe_lines(out.read_text())
        assert re.match(rf"^{child.pid} usdt:tracetest:(loop|mixed|guarded)\(", lines[0]) or \
            re.match(rf"^{child.pid} usdt:usdtlib:hit\(", lines[0])
    finally:
        if tracer is not None and tracer.poll() is None:
            tracer.kill()
        child.kill()
        child.wait()
