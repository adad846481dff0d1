"""The x86-64 System V calling convention as pyltrace reads it, compared with ltrace 0.7.3 (issue 16).

tests/ltrace/src/abi.c passes and returns by value structs of each eightbyte
class (INTEGER, INTEGER+INTEGER, SSE+INTEGER, two floats in one SSE eightbyte,
SSE+SSE, MEMORY through the hidden result pointer, chars and a short packed in
one INTEGER eightbyte), ten doubles (two past xmm7, on the stack), mixed
int/float/double arguments and a float result, eight longs (two on the stack),
a struct that no longer fits in the registers left (the whole struct on the
stack), and a variadic printf-style call with nine doubles.  ltrace 0.7.3 gets
every one of them right, so the traces must be identical.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from lthelp import normalise, run

from pytrace.ltrace import abi
from pytrace.ltrace import prototypes as P

SRC = Path(__file__).resolve().parent / "src"


@pytest.fixture(scope="module")
def abi_prog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("abi")
    for cmd in (["gcc", "-O0", "-shared", "-fPIC", "-DLIBRARY", "-o", str(out / "libabi.so"), str(SRC / "abi.c")],
                ["gcc", "-O0", "-o", str(out / "abi"), str(SRC / "abi.c"), f"-L{out}", "-labi",
                 f"-Wl,-rpath,{out}"]):
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
        if r.returncode:
            pytest.fail(f"{' '.join(cmd)}:\n{r.stderr}")
    return out / "abi"


@pytest.mark.parametrize("opts", [[], ["-A", "1"], ["-e", "a_big+a_mixed+a_dd"]], ids=lambda o: " ".join(o) or "plain")
def test_by_value_same_as_ltrace(abi_prog: Path, opts: list[str]) -> None:
    conf = ["-F", str(SRC / "abi.conf")]
    ours = run("pyltrace", conf + opts, [abi_prog])
    theirs = run("ltrace", conf + opts, [abi_prog])
    assert ours.returncode == 0 and ours.stdout == theirs.stdout == "70574\n"
    assert normalise(ours.stderr) == normalise(theirs.stderr)
    if not opts:
        text = " ".join(ours.stderr.split())
        for want in ("a_pair({ 100, -200 }, 5) = { 105, -205 }", "a_mixed({ 1.250000, 7 }) = { 2.500000, 8 }",
                     "a_fpair({ 0.500000, 2.000000 }) = { 2.500000, 2.000000 }",
                     "a_dd({ 10.000000, 0.500000 }) = { 9.500000, 0.500000 }",
                     "a_big({ 1, 2, 3 }, 10) = { 11, 2, -7 }", 'a_chars({ "xyz", 5 }) = { "xyz", 125 }',
                     "9.500000, 10.250000) = 55.750000", "a_late(1, 2, 3, 4, 5, { 60, 70 }) = 145",
                     "8.500000, 99) = 88"):
            assert want in text, want


def _type(decl: str) -> P.Type:
    protos = P.Prototypes()
    protos.load_text(f"{decl} f();\n")
    assert protos.errors == []
    proto = protos.get("f")
    assert proto is not None
    return proto.ret


@pytest.mark.parametrize(("decl", "classes"), [
    ("struct(int, int)", ["INTEGER"]),
    ("struct(long, long)", ["INTEGER", "INTEGER"]),
    ("struct(double, int)", ["SSE", "INTEGER"]),
    ("struct(float, float)", ["SSE"]),
    ("struct(float, int)", ["INTEGER"]),  # one eightbyte holding both: INTEGER wins
    ("struct(double, double)", ["SSE", "SSE"]),
    ("struct(long, long, long)", None),  # more than 16 bytes: MEMORY
    ("struct(array(char, 3), short)", ["INTEGER"]),
    ("struct(array(float, 4))", ["SSE", "SSE"]),
    ("struct(char, double)", ["INTEGER", "SSE"]),
    ("struct()", []),
])
def test_classification(decl: str, classes: list[str] | None) -> None:
    assert abi.classify(_type(decl)) == classes


def test_hidden_result_pointer_shifts_arguments() -> None:
    """A MEMORY-class result takes rdi: the first declared argument comes from rsi."""
    protos = P.Prototypes()
    protos.load_text("struct(long, long, long) f(int, int);\n")
    proto = protos.get("f")
    assert proto is not None and proto.hidden_ret and not proto.simple
    src = P.ArgSource([0x7000, 1, 2, 0, 0, 0], 0, None, None)
    raws = P.fetch_raws(proto.params, src, proto.ret)
    assert [r.word(None) for r in raws] == [1, 2]
