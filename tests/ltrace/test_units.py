"""Unit tests of pyltrace's pieces: prototype files, value formatting, filters, output discipline, stepping plans."""

from __future__ import annotations

import io
import struct

import pytest
from lthelp import FakeMem

from pytrace.ltrace import breakpoints as bpmod
from pytrace.ltrace import prototypes as P
from pytrace.ltrace.filters import Filter
from pytrace.ltrace.format import Output, OutputOptions, Summary

CONF = """
; legacy comment
typedef signum = enum(SIGHUP=1, SIGINT=2, SIGQUIT=3);
typedef pair = struct(int, string);
int kill(int, signum);		; trailing comment
addr malloc(ulong);
void free(addr);
octal umask(octal);
char toupper(char);
long read(int, +string[retval], ulong);
long write(int, string3, ulong);
int sprintf(+string, format);
int use_pair(pair*);
int sum(array(int, arg2), int);
hex(uint) flags(bool(int));
int setmask(bitvec(uint));
double cos(double);
"""


def _protos() -> P.Prototypes:
    p = P.Prototypes()
    p.load_text(CONF)
    assert p.errors == []
    return p


def _call(proto: P.Proto, ints: list[int], mem: FakeMem, strlen: int = 32) -> tuple[str, P.ArgSource, P.FmtCtx,
                                                                                         list]:
    src = P.ArgSource(ints, 0, mem, None)
    raws = P.fetch_raws(proto.params, src)
    ctx = P.FmtCtx(mem, strlen, 4, raws)
    left = P.format_params(proto.params, raws, src, ctx, 0, proto.first_out)
    return ", ".join(left), src, ctx, raws



def test_output_parameters_and_format() -> None:
    """+ parameters are printed at return; a format expands its arguments (with -s applied)."""
    p = _protos()
    mem = FakeMem({0x10000: b"42-x\0", 0x20000: b"%d-%s\0", 0x40000: b"x\0"})
    proto = p.get("sprintf")
    left, src, ctx, raws = _call(proto, [0x10000, 0x20000, 42, 0x40000], mem)
    assert left == "" and proto.first_out == 0
    ctx.retval = 4
    rest = P.format_params(proto.params, raws, src, ctx, proto.first_out, len(proto.params))
    assert ", ".join(rest) == '"42-x", "%d-%s", 42, "x"'
    rproto = p.get("read")
    left, src, ctx, raws = _call(rproto, [3, 0x10000, 100], mem)
    assert left == "3"
    ctx.retval = 2
    assert P.format_params(rproto.params, raws, src, ctx, 1, 3) == ['"42"', "100"]  # string[retval]



@pytest.mark.parametrize(("raw", "text"), [(3, "3"), (10000, "10000"), (10001, "0x2711"), ((1 << 64) - 2, "-2"),
                                           (0xFFFFFFFB, "0xfffffffb"), ((1 << 64) - 20000, "0xffffffffffffb1e0")])
def test_unknown_functions_guess(raw: int, text: str) -> None:
    """ltrace's default lens: decimal within +-10000, hex beyond."""
    assert P.format_value(P.UNKNOWN, raw, P.FmtCtx(FakeMem({}))) == text


def test_double() -> None:
    p = _protos()
    raw = struct.pack("<d", 0.5) + bytes(8)
    assert P.format_value(p.get("cos").params[0], raw, P.FmtCtx(FakeMem({}))) == "0.500000"




@pytest.mark.parametrize(("expr", "name", "lib", "main", "want"), [
    ("@MAIN", "malloc", "prog", True, True),
    ("@MAIN", "malloc", "libc.so.6", False, False),
    ("malloc+free", "free", "libc.so.6", False, True),
    ("malloc+free", "puts", "prog", True, False),
    ("-exit", "exit", "prog", True, False),
    ("-exit", "puts", "prog", True, True),
    ("str*@libc.so*", "strlen", "libc.so.6", False, True),
    ("str*@libc.so*", "strlen", "prog", True, False),
    ("*@MAIN-puts", "puts", "prog", True, False),
    ("*@MAIN-puts", "free", "prog", True, True),
    ("/mem.*/@MAIN", "memcpy", "prog", True, True),  # anchored at both ends, as ltrace does
    ("/mem.*/@MAIN", "xmemcpy", "prog", True, False),
    ("*@/usr/lib/*", "f", "libx.so", False, True),
])
def test_filters(expr: str, name: str, lib: str, main: bool, want: bool) -> None:
    path = "/usr/lib/" + lib
    assert Filter([expr]).matches(name, lib, path, main) is want


def test_several_e_options_add_up() -> None:
    f = Filter(["malloc", "free"])
    assert f.matches("malloc", "p", "/p", True) and f.matches("free", "p", "/p", True)
    assert not f.matches("puts", "p", "/p", True)


def test_output_alignment_and_nesting() -> None:
    buf = io.StringIO()
    out = Output(buf, OutputOptions(indent=2))
    a, b = object(), object()
    out.left(a, 1, None, 1, "qsort(1, 2")
    out.left(b, 1, None, 2, 'strcmp("a", "b"')
    out.right(b, 1, None, 2, "strcmp", "", "-1", None)
    out.right(a, 1, None, 1, "qsort", "", "<void>", None)
    out.left(a, 1, None, 1, "exit(0")
    out.line(1, "+++ exited (status 0) +++")
    assert buf.getvalue() == (
        "qsort(1, 2 <unfinished ...>\n"
        '  strcmp("a", "b")                               = -1\n'
        "<... qsort resumed> )                            = <void>\n"
        "exit(0 <no return ...>\n"
        "+++ exited (status 0) +++\n")


def test_summary_table() -> None:
    s = Summary()
    for _ in range(3):
        s.add("malloc", 0.000010)
    s.add("puts", 0.000070)
    assert s.render() == (
        "% time     seconds  usecs/call     calls      function\n"
        "------ ----------- ----------- --------- --------------------\n"
        " 70.00    0.000070          70         1 puts\n"
        " 30.00    0.000030          10         3 malloc\n"
        "------ ----------- ----------- --------- --------------------\n"
        "100.00    0.000100" + " " * 13 + "        4 total\n")


class _Space(bpmod.AddressSpace):
    """An address space over a byte string, for planning without a tracee."""

    def __init__(self, base: int, code: bytes) -> None:  # noqa: D107 - no /proc/PID/mem here
        self.base, self.code = base, code
        self.bps = {}
        self.known = {}
        self.pages, self.slots, self.gadget, self.fd = [], {}, None, -1

    def original(self, addr: int, size: int) -> bytes | None:
        return self.code[addr - self.base:addr - self.base + size].ljust(size, b"\x90")


@pytest.mark.parametrize(("code", "plan"), [
    (b"\xf3\x0f\x1e\xfa", (bpmod.NOP, 4)),  # endbr64
    (b"\xff\x25\x10\x00\x00\x00", (bpmod.JMPMEM, 0x1000 + 6 + 0x10, None)),  # jmp *0x10(%rip): PLT stub
    (b"\xf2\xff\x25\x10\x00\x00\x00", (bpmod.JMPMEM, 0x1000 + 7 + 0x10, None)),  # bnd jmp (IBT .plt.sec)
    (b"\xe8\x00\x01\x00\x00", (bpmod.CALL, 0x1105, 0x1005)),
    (b"\xeb\x05", (bpmod.JMP, 0x1007)),
    (b"\x74\x05", (bpmod.JCC, "je", 0x1007, 0x1002)),
])
def test_step_plans(code: bytes, plan: tuple) -> None:
    space = _Space(0x1000, code)
    assert space._plan(0, bpmod.Bp(0x1000, code[0])) == plan


@pytest.mark.parametrize(("mnemonic", "flags", "taken"), [
    ("je", 1 << 6, True), ("jne", 1 << 6, False), ("jb", 1, True), ("ja", 1, False), ("ja", 0, True),
    ("jl", 1 << 7, True), ("jl", (1 << 7) | (1 << 11), False), ("jg", 0, True), ("jle", 1 << 6, True),
])
def test_conditions(mnemonic: str, flags: int, taken: bool) -> None:
    regs = [0] * 27
    regs[bpmod.EFLAGS] = flags
    assert bpmod._condition(mnemonic, tuple(regs)) is taken


def test_normalise_renumbers_pids_only_where_a_pid_stands() -> None:
    """A number equal to a pid elsewhere (mmap's flags 2050 when the tracee's pid is 2050, as in a
    fresh CI container) stays: renumbering it in one trace only made two equal traces differ."""
    from lthelp import normalise

    text = ("SYS_set_tid_address(0x7ffd12345678) = 2050\n"
            "SYS_mmap(0, 8192, 3, 2050) = 0x7f0000001000\n"
            "[pid 2051] waitpid(2050, 0, 0) = 2050\n")
    assert normalise(text) == ("SYS_set_tid_address(ADDR1) = PID1\n"
                               "SYS_mmap(0, 8192, 3, 2050) = ADDR2\n"
                               "[pid PID2] waitpid(PID1, 0, 0) = PID1\n")
