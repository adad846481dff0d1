"""ltrace.conf(5) as ltrace 0.7.3 reads and prints it, compared with the real ltrace (issue 16).

* The prototype language: tests/ltrace/src/protos.c calls one function of its
  own library per construct (strings of every length form, enums, structs with
  hidden fields, recursive lists, arrays with constant/argument/element
  lengths, bit vectors, every lens, printf formats with widths, precisions and
  ``*``, output arguments, floats) and src/protos.conf describes them, with
  malformed lines among them; pyltrace and ltrace run with the same ``-F`` and
  options must print the same (errors first, then the trace).
* Malformed files: random mutations of real prototype lines never raise in
  pyltrace, and give ltrace's messages wherever ltrace itself survives them.
* Bit vectors, enums, the shipped defaults and functions without prototypes:
  src/sigs.c and ``python3 -c pass`` with the default configuration.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from lthelp import FakeMem, normalise, run

from pytrace.ltrace import prototypes as P
from pytrace.ltrace import values as V

SRC = Path(__file__).resolve().parent / "src"
CONF = SRC / "protos.conf"


def _build(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if r.returncode:
        pytest.fail(f"{' '.join(cmd)}:\n{r.stderr}")


@pytest.fixture(scope="module")
def progs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("protos")
    _build(["gcc", "-O0", "-shared", "-fPIC", "-DLIBRARY", "-o", str(out / "libprotos.so"), str(SRC / "protos.c")])
    _build(["gcc", "-O0", "-o", str(out / "protos"), str(SRC / "protos.c"), f"-L{out}", "-lprotos",
            f"-Wl,-rpath,{out}"])
    _build(["gcc", "-O0", "-o", str(out / "sigs"), str(SRC / "sigs.c")])
    _build(["gcc", "-O0", "-Wno-format", "-o", str(out / "fmts"), str(SRC / "fmts.c"), f"-L{out}", "-lprotos",
            f"-Wl,-rpath,{out}"])
    return {"protos": out / "protos", "sigs": out / "sigs", "fmts": out / "fmts", "dir": out}


# The one line where pyltrace differs on purpose: p_bad((char *)8).  ltrace 0.7.3 prints the garbage its
# failed read left in the buffer (a "string" of the bytes 8, 9, 10...); pyltrace prints the address.
_BAD_OURS = re.compile(r"^p_bad\(0x8\) += 0$", re.M)
_BAD_THEIRS = re.compile(r'^p_bad\("(\\b\\t\\n\\v[^)]*)?"\.\.\.\) += 0$', re.M)


@pytest.mark.parametrize("opts", [[], ["-A", "2", "-s", "4"], ["-A", "1"], ["-s", "0"]],
                         ids=lambda o: " ".join(o) or "plain")
def test_language_same_as_ltrace(progs: dict[str, Path], opts: list[str]) -> None:
    """Every construct, and the messages for the malformed lines (the rest of the file still used)."""
    ours = run("pyltrace", ["-F", str(CONF), *opts], [progs["protos"]])
    theirs = run("ltrace", ["-F", str(CONF), *opts], [progs["protos"]])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    assert _BAD_OURS.search(ours.stderr) and _BAD_THEIRS.search(theirs.stderr)
    ours_text = _BAD_OURS.sub("p_bad(BAD) = 0", ours.stderr)
    theirs_text = _BAD_THEIRS.sub("p_bad(BAD) = 0", theirs.stderr)
    assert normalise(ours_text) == normalise(theirs_text)
    if not opts:  # what the comparison covers, spelled out
        text = re.sub(r" {2,}= ", " = ", ours.stderr)
        for want in ['p_str("hello, world: a string longer th"..., "tab\\there\\001\\377", 4) = 54',
                     'p_fixed("abcde", "xy\\0a") = 217', "p_enum(9, A, TWO, RED) = -89",
                     "p_lens(010, false, 0755, 0xff, 0x1e240, 0x7a) = 0x1e5ae",
                     "p_dlist({ 9, { 8, { 7, nil, recurse^ }, recurse^ }, nil }) = 9",
                     "p_list({ 1, { 2, { 3, { 4, ... } } } }) = 21", "p_counted({ 2, [ 10, -20 ] }) = 2",
                     "p_bits(<0-1,5,8>, <0-1,8,31>, ~<0>) = <2,5,8>",
                     'p_printf("%s and %.*s and %s\\n", "first", 4, "star", "after") = 25',
                     'p_retlen("abcde") = 5', "p_floatret(0x1.ap+1) = 0x1.ap+2", "p_hidden(1, 3) = 6",
                     "protos.conf:35: error: Redefinition of typedef 'color'"]:
            assert want in text, want


def test_other_lenses_same_as_ltrace(progs: dict[str, Path]) -> None:
    """The same calls through src/protos_lenses.conf: hidden struct fields and parameters, lenses inherited
    by struct fields and array elements, enums over char/short, bit vectors of a struct, lengths that
    name the return value at entry ("?"), lines whose errors drop them (prototype-less output)."""
    conf = ["-F", str(SRC / "protos_lenses.conf")]
    ours = run("pyltrace", conf, [progs["protos"]])
    theirs = run("ltrace", conf, [progs["protos"]])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout
    assert normalise(ours.stderr) == normalise(theirs.stderr)
    text = re.sub(r" {2,}= ", " = ", ours.stderr)
    for want in ["p_mixed({ 'q', 2.500000 }) = 118", 'p_fixed("abcdefghijklmnop", ?) = 217', "p_retlen(?) = 5",
                 "p_array([ 0xa, 0xffffffec, 0x1e, 0x28... ]) = 240", "p_enum(X, 3, '\\377', 0x7) = 10",
                 "p_hidden() = 6", "p_float(0x1.8p+0, -0x1p-3) = 1.375000"]:
        assert want in text, want


@pytest.mark.parametrize("opts", [[], ["-s", "5"]], ids=lambda o: " ".join(o) or "plain")
def test_printf_formats_same_as_ltrace(progs: dict[str, Path], opts: list[str]) -> None:
    """src/fmts.c: widths, precisions and '*' (as %s limits, ltrace's way), length modifiers (%hhx, %lld
    printed unsigned, %q, %j, %z, %t), %c of non-printables, every floating conversion, %%, %m, %p,
    wide %ls/%lc/%S, ints and doubles past the registers, an unterminated conversion."""
    args = ["-F", str(CONF), "-e", "p_printf", *opts]
    ours = run("pyltrace", args, [progs["fmts"]])
    theirs = run("ltrace", args, [progs["fmts"]])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout == "453\n"
    assert normalise(ours.stderr) == normalise(theirs.stderr)
    if not opts:
        text = re.sub(r" {2,}= ", " = ", ours.stderr)
        assert '"%*.*s|%.*s|%*d %s\\n", 8, 3, "abc", -1, "negative", 3, 7, "after s") = 33' in text
        assert "0x1234567890, 18446744073709551609, 99, -3, 12) = 38" in text


def test_errors_go_with_the_trace(progs: dict[str, Path], tmp_path: Path) -> None:
    """-o FILE: the configuration's messages are written there, before the trace (as ltrace)."""
    ours_f, theirs_f = tmp_path / "ours", tmp_path / "theirs"
    ours = run("pyltrace", ["-F", str(CONF), "-o", str(ours_f)], [progs["protos"]])
    theirs = run("ltrace", ["-F", str(CONF), "-o", str(theirs_f)], [progs["protos"]])
    assert ours.stderr == theirs.stderr == ""
    ours_text, theirs_text = ours_f.read_text(), theirs_f.read_text()
    assert ours_text.startswith(f"{CONF}:29: warning: void parameter assumed to be 'hide(int)'\n")
    assert normalise(_BAD_OURS.sub("B", ours_text)) == normalise(_BAD_THEIRS.sub("B", theirs_text))


def test_bad_typedef_name_where_ltrace_crashes(progs: dict[str, Path], tmp_path: Path) -> None:
    """``typedef 9x = int;``: ltrace 0.7.3 reports "bad identifier" and then dies of SIGSEGV (a NULL name);
    pyltrace reports the same message and goes on with the rest of the file."""
    conf = tmp_path / "bad.conf"
    conf.write_text("typedef 9x = int;\nint p_hidden(hex(int), int, int);\n")
    theirs = run("ltrace", ["-F", str(conf)], [progs["protos"]])
    assert theirs.returncode < 0 or "+++ exited" not in theirs.stderr  # ltrace crashed
    assert theirs.stderr.startswith(f"{conf}:1: error: bad identifier")
    ours = run("pyltrace", ["-F", str(conf)], [progs["protos"]])
    assert ours.returncode == 0
    assert ours.stderr.startswith(f"{conf}:1: error: bad identifier\n")
    assert re.search(r"^p_hidden\(0x1, 2, 3\) += 6$", ours.stderr, re.M)
    assert "Traceback" not in ours.stderr


# -- malformed files ------------------------------------------------------------------------------------

_PIECES = ["(", ")", ",", ";", "[", "]", "*", "+", "=", " ", "\t", "0", "1", "9", "-", "x", "_", "\n", "\0", "#",
           "struct", "struct;", "enum", "enum[", "typedef ", "format", "string", "string[", "zero", "zero(",
           "arg1", "arg0", "elt1", "elt", "retval", "hide(", "octal", "oct(", "bitvec(", "hex(", "bool(",
           "guess(", "array(", "void", "char", "ulong", "int", "addr", "file", "99999999999", "0x", "'", '"']


def _source_lines() -> list[str]:
    lines = [ln for ln in Path(P.SHIPPED_LTRACE_CONF).read_text().splitlines() if ln and not ln.startswith(";")]
    lines += [ln for ln in CONF.read_text().splitlines() if ln and not ln.startswith(";")]
    return lines


def _mutate(rng: random.Random, line: str) -> str:
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(line))
        if op == 0 and line:
            line = line[:pos] + line[pos + 1:]
        elif op == 1:
            line = line[:pos] + rng.choice(_PIECES) + line[pos:]
        elif op == 2:
            line = line[:pos]
        elif op == 3:
            end = rng.randint(pos, len(line))
            line = line[:pos] + line[pos:end] * 2 + line[end:]
        else:
            line = line[:pos] + rng.choice(_PIECES) + line[rng.randint(pos, len(line)):]
    return line


class _RandomMem:
    """A tracee memory where every address holds bytes derived from it (and low addresses are unmapped)."""

    def read_upto(self, addr: int, size: int) -> bytes | None:
        if addr < 0x1000 or size < 0:
            return None
        return bytes((addr + i * 7) % 251 if (addr + i) % 13 else 0 for i in range(min(size, 4096)))

    def read(self, addr: int, size: int) -> bytes | None:
        data = self.read_upto(addr, size)
        return data if data is not None and len(data) == size else None


def test_fuzzed_files_never_raise() -> None:
    """4000 mutated lines of real prototype files: read, then every parsed function formatted with
    arbitrary arguments and memory (recursive types, zero lengths, packs) -- no exception anywhere."""
    rng = random.Random(16)
    src = _source_lines()
    mem = _RandomMem()
    for batch in range(40):
        text = "\n".join(_mutate(rng, rng.choice(src)) for _ in range(100))
        protos = P.Prototypes()
        protos.load_text(text, f"fuzz{batch}.conf")
        for name in list(protos.protos):
            proto = protos.get(name)
            assert proto is not None
            ints = [rng.choice([0, 8, 0x1000, 0x123456, (1 << 64) - 1, rng.getrandbits(64)]) for _ in range(6)]
            src_args = P.ArgSource(ints, 0x7000, mem, lambda: [bytes(range(16))] * 8)
            raws = P.fetch_raws(proto.params, src_args)
            ctx = V.Ctx(mem, rng.choice([0, 3, 32]), rng.choice([0, 1, 4]), raws, rng.getrandbits(64))
            P.format_params(proto.params, raws, src_args, ctx, 0, len(proto.params))
            P.format_value(proto.ret, rng.getrandbits(64), ctx)


def test_fuzzed_files_same_messages_as_ltrace(tmp_path: Path) -> None:
    """30 files of mutated lines read by ltrace -F and by pyltrace's reader: the same messages, line for
    line, for every file ltrace survives (it dies on some, e.g. a typedef name that is not an identifier)."""
    rng = random.Random(1603)
    src = _source_lines()
    compared = 0
    for k in range(30):
        lines = [_mutate(rng, rng.choice(src)) for _ in range(25)]
        path = tmp_path / f"f{k}.conf"
        path.write_bytes("\n".join(lines).encode("latin-1") + b"\n")
        theirs = subprocess.run(["ltrace", "-L", "-F", str(path), "true"], capture_output=True, timeout=60,
                                check=False)
        text = theirs.stderr.decode("latin-1")
        if theirs.returncode != 0 or not text.endswith("+++ exited (status 0) +++\n"):
            continue  # ltrace crashed on this file
        protos = P.Prototypes()
        protos.load_file(path)
        assert "".join(e + "\n" for e in protos.errors) == text[:-len("+++ exited (status 0) +++\n")], path
        compared += 1
    assert compared >= 15


def _random_prototypes(rng: random.Random) -> str:
    """Prototypes for protos.c's functions with random integer types, lenses and enums, and random
    element/string types where the memory is valid (so only the printing is under test, not ltrace's
    garbage for failed reads nor bytes that move with ASLR)."""
    def scalar() -> str:
        base = rng.choice(["char", "short", "ushort", "int", "uint", "long", "ulong", "itn"])
        r = rng.random()
        for limit, text in ((0.12, f"hex({base})"), (0.2, f"oct({base})"), (0.25, "octal"),
                            (0.32, f"bool({base})"), (0.4, f"guess({base})"), (0.5, f"bitvec({base})"),
                            (0.65, f"hide({base})")):
            if r < limit:
                return text
        if r < 0.75:
            vals = ", ".join(f"E{i}" + (f"={rng.randint(-5, 10)}" if rng.random() < 0.5 else "")
                             for i in range(rng.randint(1, 4)))
            return f"enum[{base}]({vals})" if rng.random() < 0.5 else f"enum({vals})"
        return base

    def params(n: int) -> str:
        return ", ".join(scalar() for _ in range(n))

    elt = rng.choice(["int", "hex(int)", "short", "char", "uint", "bitvec(int)", "oct(ushort)", "bool(int)"])
    length = rng.choice(["arg2", "2", "3", "zero", "zero(5)", "elt2"])
    node = rng.choice(["int", "hex(int)", "char", "oct(int)", "bool(int)"])
    string = rng.choice(["string", "string[5]", "string[arg3]", "hex(string)", "string(array(char, 7)*)",
                         "string(char*)", "array(char, 4)*", "string[zero(2)]", "string1"])
    return (f"typedef node = struct;\ntypedef node = struct({node}, node*);\n"
            f"{scalar()} p_ints({params(6)});\n{scalar()} p_many({params(8)});\n"
            f"{scalar()} p_lens({params(6)});\n{scalar()} p_enum({params(4)});\n"
            f"{scalar()} p_array(array({elt}, {length})*, {scalar()});\n{scalar()} p_list(node*);\n"
            f"{scalar()} p_str({string}, string, {scalar()});\n{scalar()} p_hidden({params(3)});\n")


def test_random_prototypes_same_as_ltrace(progs: dict[str, Path], tmp_path: Path) -> None:
    """Eight seeded random prototype files over protos.c (types, lenses, enums, -A): same traces."""
    rng = random.Random(2026)
    for k in range(8):
        conf = tmp_path / f"r{k}.conf"
        conf.write_text(_random_prototypes(rng))
        opts = ["-F", str(conf), "-A", str(rng.choice([1, 2, 4])), "-e", "p_*-p_printf-p_bad-p_mixed"]
        ours = run("pyltrace", opts, [progs["protos"]])
        theirs = run("ltrace", opts, [progs["protos"]])
        assert normalise(ours.stderr) == normalise(theirs.stderr), conf.read_text()


# -- bit vectors, enums, shipped defaults ---------------------------------------------------------------


def test_bitvectors_and_enums_default_conf(progs: dict[str, Path]) -> None:
    """sigset_t (``bitvec(ulong)``) numbered from 0 as ltrace does, ``signum`` and ``LC_ALL`` enums."""
    ours = run("pyltrace", [], [progs["sigs"]])
    theirs = run("ltrace", [], [progs["sigs"]])
    assert normalise(ours.stderr) == normalise(theirs.stderr)
    text = re.sub(r" {2,}= ", " = ", ours.stderr)
    assert 'setlocale(LC_ALL, "") = ' in text
    assert "sigaddset(<1>, SIGINT) = 0" in text and "sigaddset(<1,9>, SIGUSR1) = 0" in text
    assert "sigdelset(~<0,31-32>, SIGHUP) = 0" in text


def test_shipped_defaults_without_system_conf(progs: dict[str, Path], tmp_path: Path) -> None:
    """No /etc/ltrace.conf (PYLTRACE_SYSTEM_CONF names a missing file): the shipped copy gives the same
    output as ltrace with its installed file; a ~/.ltrace.conf still overrides it, as in ltrace."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path), "LC_ALL": "C",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    theirs = run("ltrace", [], [progs["sigs"]], env=env)
    ours = run("pyltrace", [], [progs["sigs"]], env={**env, "PYLTRACE_SYSTEM_CONF": str(tmp_path / "missing")})
    assert normalise(ours.stderr) == normalise(theirs.stderr)
    assert 'setlocale(LC_ALL, "")' in ours.stderr
    (tmp_path / ".ltrace.conf").write_text("hex(int) sigismember(addr, int);\nint bogus(\n")
    env["HOME"] += "/"  # ltrace names the file "$HOME/.ltrace.conf" in its messages
    theirs = run("ltrace", [], [progs["sigs"]], env=env)
    ours = run("pyltrace", [], [progs["sigs"]], env={**env, "PYLTRACE_SYSTEM_CONF": str(tmp_path / "missing")})
    assert f"{tmp_path}//.ltrace.conf:2: error: syntax error\n" in ours.stderr
    assert re.search(r"^sigismember\(0x[0-9a-f]+, 2\) += 0x1$", ours.stderr, re.M)
    assert normalise(ours.stderr) == normalise(theirs.stderr)


def test_shipped_conf_is_ltraces() -> None:
    """The shipped file is Debian's ltrace 0.7.3 /etc/ltrace.conf under a licence header of comments."""
    shipped = Path(P.SHIPPED_LTRACE_CONF).read_text().splitlines()
    header = [ln for ln in shipped if ln.startswith(";")][:5]
    assert any("GNU General Public License" in ln for ln in header)
    assert shipped[5:] == Path("/etc/ltrace.conf").read_text().splitlines()
    protos = P.Prototypes()
    protos.load_file(P.SHIPPED_LTRACE_CONF)
    assert protos.errors == [] and len(protos.protos) > 400


def test_search_path_order(tmp_path: Path) -> None:
    """Without -F: system file (or the shipped copy), then ~/.ltrace.conf; -F replaces both;
    --extra-prototypes puts pyltrace's own file under whichever is read."""
    user = tmp_path / "u.conf"
    user.write_text("")
    sp = P.SearchPath(system=str(tmp_path / "none"), user=str(user))
    assert P.config_files([], sp) == [str(P.SHIPPED_LTRACE_CONF), str(user)]
    sp = P.SearchPath(system="/etc/ltrace.conf", user=str(tmp_path / "none"), extra=True)
    assert P.config_files([], sp) == [str(P.EXTRA), "/etc/ltrace.conf"]
    assert P.config_files(["a.conf", "b.conf"], P.SearchPath()) == ["a.conf", "b.conf"]


def test_functions_without_prototypes_as_ltrace() -> None:
    """``python3 -c pass``: memcmp, strtol, pthread_* have no prototype in ltrace.conf; by default pyltrace
    prints them as ltrace does (four guessed words); --extra-prototypes gives pyltrace's own."""
    cmd = ["/usr/bin/python3", "-c", "pass"]
    # (memcmp is left out: libc's own calls reaching it through python3's PLT are another issue's subject)
    sel = ["-e", "strtol+pthread_mutex_lock+pthread_mutex_unlock"]
    ours = run("pyltrace", sel, cmd)
    theirs = run("ltrace", sel, cmd)
    assert ours.returncode == 0

    def shape(text: str) -> list[str]:
        # Registers a function without prototype does not use hold leftovers that differ between any two
        # runs: compare each call's name, number of arguments and result.
        return [re.sub(r"\((.*)\) +=", lambda m: f"({m.group(1).count(',') + 1} args) =", ln)
                for ln in normalise(text).splitlines()]

    assert shape(ours.stderr) == shape(theirs.stderr)
    assert re.search(r"->pthread_mutex_lock\(0x[0-9a-f]+, \w+, \w+, \w+\)", ours.stderr)
    rich = run("pyltrace", ["--extra-prototypes", *sel], cmd)
    assert re.search(r"->pthread_mutex_lock\(0x[0-9a-f]+\) ", rich.stderr)
    assert not re.search(r"->pthread_mutex_lock\(0x[0-9a-f]+, ", rich.stderr)
    assert "--extra-prototypes" in run("pyltrace", ["--help"], []).stdout


# -- units: values as ltrace's lenses print them -------------------------------------------------------


def _show(decl: str, ints: list[int], blocks: dict[int, bytes] | None = None, strlen: int = 32) -> str:
    protos = P.Prototypes()
    protos.load_text(decl + "\n")
    assert protos.errors == []
    proto = protos.get(decl.split("(")[0].split()[-1])
    assert proto is not None
    mem = FakeMem(blocks or {})
    src = P.ArgSource(ints, 0, mem, None)
    raws = P.fetch_raws(proto.params, src)
    return ", ".join(P.format_params(proto.params, raws, src, V.Ctx(mem, strlen, 4, raws), 0, len(proto.params)))


@pytest.mark.parametrize(("decl", "ints", "text"), [
    ("int f(bitvec(uint));", [0b1011], "<0-1,3>"),
    ("int f(bitvec(uint));", [0xFFFFFFFE], "~<0>"),
    ("int f(bitvec(uint));", [0xFFFFFFFF], "~<>"),
    ("int f(bitvec(ushort));", [0x0102], "<1,8>"),  # the man page's own example
    ("int f(octal, oct(char), hex(short));", [0, 8, 0xFFFF], "00, 010, 0xffff"),
    ("int f(char, char, char);", [0x7F, 0xFF, 0x22], "'\\177', '\\377', '\"'"),
    ("int f(guess(long), guess(long), guess(int));", [10000, 10001, 0xFFFFFFFB], "10000, 0x2711, 0xfffffffb"),
    ("int f(addr, file, void*);", [0, 0x10, 0x20], "0, 0x10, 0x20"),
    ("int f(enum[char](A=65), enum(X=-1));", [0x41, 0xFFFFFFFF], "A, X"),
])
def test_lenses(decl: str, ints: list[int], text: str) -> None:
    assert _show(decl, ints) == text


def test_strings_and_zero_lengths() -> None:
    blocks = {0x10000: b'q"t\tA\x01\xff\0', 0x20000: b"abc\0def", 0x30000: b"abcdef\0"}
    assert _show("int f(string);", [0x10000], blocks) == '"q"t\\tA\\001\\377"'
    assert _show("int f(string, string, string);", [0x20000, 0x30000, 0], blocks, strlen=3) == \
        '"abc"..., "abc"..., nil'  # exactly -s characters: still "..." (ltrace's format_array)
    assert _show("int f(string[2], string[arg3], int);", [0x30000, 0x30000, 4], blocks) == '"ab", "abcd", 4'
    assert _show("int f(string(array(char, 5)*));", [0x20000], blocks) == '"abc\\0d"'


def test_extra_conf_parses() -> None:
    """pyltrace's own prototypes (--extra-prototypes) are valid ltrace 0.7.3 syntax."""
    protos = P.Prototypes()
    protos.load_file(P.EXTRA)
    assert protos.errors == []
    cos = protos.get("cos")
    assert protos.get("memcmp") is not None and cos is not None and cos.ret.is_float


def test_endless_pointer_chain_does_not_raise() -> None:
    """``int*`` 900 levels deep over memory where every word points 16 bytes further: deeper than Python's
    stack; the argument prints as its address instead of a traceback."""

    class Chain:
        def read(self, addr: int, size: int) -> bytes | None:
            return (addr + 16).to_bytes(8, "little")[:size] if size <= 8 else None

        def read_upto(self, addr: int, size: int) -> bytes | None:
            return self.read(addr, min(size, 8))

    protos = P.Prototypes()
    protos.load_text("int k(int" + "*" * 900 + ");\n")
    proto = protos.get("k")
    assert proto is not None
    assert P.format_value(proto.params[0], 0x2010, V.Ctx(Chain())) == "0x2010"


def test_endless_file_read_up_to_a_cap() -> None:
    """``-F /dev/zero``: ltrace 0.7.3 reads it forever; pyltrace reads 64 MiB of it (NUL-cut empty lines,
    no message) and goes on."""
    protos = P.Prototypes()
    protos.load_file("/dev/zero")
    assert protos.errors == [] and protos.reader.line_no == P.MAX_CONF_BYTES // 1023 + 1


def test_retval_has_the_result_type() -> None:
    """``string[retval]`` with a ``char`` result: the length is the low byte of rax (ltrace evaluates
    ``retval`` as a value of the declared type), and a void result gives length 0."""
    protos = P.Prototypes()
    protos.load_text("char f(+string[retval]);\nvoid g(+string[retval]);\n")
    mem = FakeMem({0x10000: b"abcdefgh\0"})
    for name, rax, want in (("f", 0x103, '"abc"'), ("g", 0x103, '""')):
        proto = protos.get(name)
        assert proto is not None
        src = P.ArgSource([0x10000], 0, mem, None)
        raws = P.fetch_raws(proto.params, src)
        ctx = V.Ctx(mem, 32, 4, raws)
        ctx.retval = P.retval_of(proto.ret, P.return_raw(proto.ret, rax, 0, list))
        assert P.format_params(proto.params, raws, src, ctx, 0, 1) == [want]


def test_arg_length_has_the_argument_type() -> None:
    """``string[arg2]`` with an ``int`` second argument whose register has junk above bit 31: the
    length is the int (3), not the whole register."""
    protos = P.Prototypes()
    protos.load_text("int f(string[arg2], int);\n")
    mem = FakeMem({0x10000: b"abcdefgh\0"})
    proto = protos.get("f")
    assert proto is not None
    src = P.ArgSource([0x10000, 0x7FFF00000003], 0, mem, None)
    raws = P.fetch_raws(proto.params, src)
    assert P.format_params(proto.params, raws, src, V.Ctx(mem, 32, 4, raws), 0, 2) == ['"abc"', "3"]
