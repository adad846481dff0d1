#!/usr/bin/env python3
"""Generate ``syscall_tables/ARCH.classes.tsv``: which syscalls belong to strace's ``%CLASS`` sets.

Why derive the data from the binary: strace's classes (``-e trace=%file`` ...)
are per-syscall flags compiled into strace's own syscall tables, not something
the kernel or libc headers know.  Copying them from strace's source would tie
us to a source tree that may not match the installed oracle; asking the
installed binary cannot drift from it.

How: ``strace -d -f --seccomp-bpf -e trace=%CLASS -o /dev/null true`` makes
strace print (stderr, ``strace: STMT(...)`` / ``strace: JUMP(...)`` lines) the
classic-BPF seccomp program it generated for exactly that syscall set.  A tiny
interpreter for the handful of instructions strace emits evaluates the program
for every syscall number of every arch; RET_TRACE means "in the set".

Two kinds of noise are removed using the ``-e trace=none`` program as a baseline:

* numbers at or past strace's table size (the linear generator returns
  RET_TRACE for them; the bitmap generator RET_ALLOW): the table size is where
  the ``none`` program starts to trace everything, and larger numbers are dropped;
* syscalls strace always lets through its filter whatever the set
  (TRACE_SECCOMP_DEFAULT: execve/execveat; TRACE_INDIRECT_SUBCALL: i386
  socketcall/ipc).  For these the filter says nothing, so membership is
  measured instead: a freestanding probe program (gcc, no libc, ``-m64`` /
  ``-m32``) calls each of them with arguments that make it fail harmlessly,
  and plain ptrace strace (no seccomp) runs it with ``-e trace=%CLASS``; the
  syscall is a member iff strace prints it.

Only numbers named in ``syscall_tables/ARCH.tsv`` (fallback: the kernel uapi
``asm/unistd_{64,32}.h``) are written: strace's i386 table also has pseudo
entries for decoded socketcall/ipc subcalls past the real numbers, and those
are not syscall numbers a tracee can use.  Every spelling strace accepts for a
class (``%net`` / ``%network`` / ``network``, ...) is checked to produce the
same program as the canonical one, so the alias table in
``pytrace/tables/syscall_classes.py`` is verified too.

Inputs: the strace binary (``--strace``, default /usr/bin/strace, must be the
6.1 oracle), gcc with ``-m32`` code generation (no 32-bit libc needed),
``true`` in PATH, and the name tables described above.

Command (from the repository root)::

    python3 scripts/gen_syscall_classes.py [--strace /usr/bin/strace] [--out-dir syscall_tables]

Output format: one ``ARCH.classes.tsv`` per arch (x86_64, i386), UTF-8,
tab-separated, header ``nr<TAB>name<TAB>classes``, one row per syscall that is
in at least one class, sorted by number; ``classes`` is the comma-separated
sorted list of canonical class names (strace's spelling without ``%``;
``%%stat`` / ``%%statfs`` are ``stat_like`` / ``statfs_like``), e.g.
``262<TAB>newfstatat<TAB>desc,file,fstat,stat_like``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

REPO = Path(__file__).resolve().parents[1]

# canonical name -> the spelling passed to strace.  Canonical names are
# strace's spelling without "%", except that "%%stat" / "%%statfs" (any
# stat-like / statfs-like syscall) become "stat_like" / "statfs_like", after
# strace's own TRACE_STAT_LIKE / TRACE_STATFS_LIKE flags: "%stat" would be
# ambiguous with strace's "%stat" class, which is just stat/stat64/oldstat.
CLASSES: dict[str, str] = {
    "desc": "%desc",
    "file": "%file",
    "memory": "%memory",
    "process": "%process",
    "signal": "%signal",
    "ipc": "%ipc",
    "network": "%network",
    "stat": "%stat",
    "lstat": "%lstat",
    "fstat": "%fstat",
    "stat_like": "%%stat",
    "statfs": "%statfs",
    "fstatfs": "%fstatfs",
    "statfs_like": "%%statfs",
    "pure": "%pure",
    "creds": "%creds",
    "clock": "%clock",
}

# Other spellings strace 6.1 accepts, checked to yield the canonical program.
# Keep in step with _SPELLINGS in pytrace/tables/syscall_classes.py, whose
# entries the unit test checks against strace the same way.
ALIASES: dict[str, str] = {
    "%net": "network",
    "desc": "desc",
    "file": "file",
    "memory": "memory",
    "process": "process",
    "signal": "signal",
    "ipc": "ipc",
    "network": "network",
}

# arch -> (AUDIT_ARCH_* value in seccomp_data.arch, gcc -m flag, uapi header)
ARCHES: dict[str, tuple[int, str, str]] = {
    "x86_64": (0xC000003E, "-m64", "/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "i386": (0x40000003, "-m32", "/usr/include/x86_64-linux-gnu/asm/unistd_32.h"),
}

# Numbers probed in the "none" program to find where strace's table ends.
# Far beyond any real table, far below the x32 bit (0x40000000).
SCAN_LIMIT = 4096

SECCOMP_RET_ALLOW = 0x7FFF0000
SECCOMP_RET_TRACE = 0x7FF00000
_U32 = 0xFFFFFFFF

_NONEXISTENT = "/nonexistent"

# How to call an always-traced syscall so that it fails without side effects,
# and what strace's line for that call starts with (to tell it apart from the
# execve strace itself does to start the probe).  Args are C expressions.
PROBES: dict[str, tuple[tuple[str, ...], str]] = {
    "execve": (("(long)path", "(long)argv", "(long)envp"), f'execve("{_NONEXISTENT}", '),
    "execveat": (
        ("-100", "(long)path", "(long)argv", "(long)envp", "0"),
        f'execveat(AT_FDCWD, "{_NONEXISTENT}", ',
    ),
    # subcall 0 is invalid, so strace leaves the call undecoded and the
    # class filter applies to socketcall/ipc themselves.
    "socketcall": (("0", "0"), "socketcall(0, "),
    "ipc": (("0", "0", "0", "0", "0", "0"), "ipc(0, "),
}

_PROBE_C = r"""
/* Generated by scripts/gen_syscall_classes.py: freestanding, no libc. */
static long sc(long nr, long a, long b, long c, long d, long e, long f) {
  long ret;
#if defined(__x86_64__)
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall" : "=a"(ret)
                   : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
#else
  /* ebx is saved by hand (it may be the PIC register); the 6th argument
     (ebp) is not passed: no probe needs it. */
  (void)f;
  __asm__ volatile("push %%ebx\n\tmov %2, %%ebx\n\tint $0x80\n\tpop %%ebx"
                   : "=a"(ret) : "a"(nr), "r"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
#endif
  return ret;
}
static const char path[] = "@PATH@";
void _start(void) {
  const char *argv[2] = {path, 0};
  const char *envp[1] = {0};
  (void)argv; (void)envp;
@CALLS@
  for (;;) sc(@EXIT@, 0, 0, 0, 0, 0, 0);
}
"""


class GenError(RuntimeError):
    """Something about the oracle is not as this generator assumes; fail loudly rather than guess."""


@dataclass(frozen=True, slots=True)
class Insn:
    """One classic-BPF instruction as strace's dump_seccomp_bpf() prints it."""

    op: str
    k: int = 0
    jt: int = 0
    jf: int = 0
    arg: str = ""  # symbolic operand: "nr" / "arch" for LDABS, "X" for ALU ops on X


_LINE_RE = re.compile(r"^(STMT|JUMP)\((.*)\)$")


def _num(text: str) -> int:
    return int(text.strip(), 0)


def parse_insn(kind: str, body: str) -> Insn:
    """Decode one dumped instruction; unknown forms raise so a changed oracle cannot be misread."""
    parts = [p.strip() for p in body.split(",")]
    op = parts[0]
    if kind == "JUMP":
        if op == "BPF_JA" and len(parts) == 2:
            return Insn("JA", k=_num(parts[1]))
        if op in ("BPF_JEQ", "BPF_JGE", "BPF_JSET") and len(parts) == 4:
            return Insn(op[4:], jt=_num(parts[1]), jf=_num(parts[2]), k=_num(parts[3]))
    elif op == "BPF_LDWABS" and len(parts) == 2:
        operand = {"data->nr": "nr", "data->arch": "arch"}.get(parts[1])
        if operand is not None:
            return Insn("LDABS", arg=operand)
    elif op == "BPF_LDWIMM" and len(parts) == 2:
        return Insn("LDIMM", k=_num(parts[1]))
    elif op == "BPF_RET" and len(parts) == 2:
        ret = {"SECCOMP_RET_TRACE": SECCOMP_RET_TRACE, "SECCOMP_RET_ALLOW": SECCOMP_RET_ALLOW}.get(parts[1])
        if ret is not None:
            return Insn("RET", k=ret)
    elif op in ("BPF_AND", "BPF_RSH", "BPF_LSH", "BPF_DIV") and len(parts) == 2:
        if parts[1] == "X":
            return Insn(op[4:], arg="X")
        return Insn(op[4:], k=_num(parts[1]))
    elif op in ("BPF_TAX", "BPF_TXA") and len(parts) == 1:
        return Insn(op[4:])
    raise GenError(f"unsupported BPF instruction in strace dump: {kind}({body})")


def parse_dump(stderr: str, progname: str = "strace") -> list[Insn]:
    """The seccomp program in ``strace -d`` output (instruction lines after "seccomp filter enabled").

    strace prefixes its messages with its argv[0], so ``progname`` must be the
    path exactly as it was executed.
    """
    prefix = f"{progname}: "
    lines = [line[len(prefix) :] for line in stderr.splitlines() if line.startswith(prefix)]
    try:
        start = lines.index("seccomp filter enabled")
    except ValueError:
        raise GenError("strace did not enable its seccomp filter; -d output:\n" + stderr[-2000:]) from None
    prog = []
    for line in lines[start + 1 :]:
        m = _LINE_RE.match(line)
        if m:
            prog.append(parse_insn(m.group(1), m.group(2)))
    if not prog:
        raise GenError("no BPF instructions in strace -d output")
    return prog


def run_bpf(prog: Sequence[Insn], arch: int, nr: int) -> int:
    """Return value of ``prog`` for seccomp_data {nr, arch}; classic BPF semantics, 32-bit registers."""
    a = x = 0
    pc = 0
    while 0 <= pc < len(prog):
        insn = prog[pc]
        pc += 1
        op = insn.op
        if op == "LDABS":
            a = (nr if insn.arg == "nr" else arch) & _U32
        elif op == "LDIMM":
            a = insn.k & _U32
        elif op == "TAX":
            x = a
        elif op == "TXA":
            a = x
        elif op in ("AND", "RSH", "LSH", "DIV"):
            operand = x if insn.arg == "X" else insn.k
            if op == "AND":
                a &= operand
            elif op == "RSH":
                a = a >> operand if operand < 32 else 0
            elif op == "LSH":
                a = (a << operand) & _U32 if operand < 32 else 0
            else:
                if operand == 0:
                    return 0  # the kernel aborts the program with return 0 (kill) on x/0
                a //= operand
        elif op == "RET":
            return insn.k
        elif op == "JA":
            pc += insn.k
        else:
            if op == "JEQ":
                taken = a == insn.k
            elif op == "JGE":
                taken = a >= insn.k
            else:  # JSET
                taken = bool(a & insn.k)
            pc += insn.jt if taken else insn.jf
    raise GenError(f"BPF program ran off its end (pc={pc}) for arch={arch:#x} nr={nr}")


def traced_numbers(prog: Sequence[Insn], audit_arch: int, limit: int) -> set[int]:
    """Numbers in [0, limit) for which the program returns RET_TRACE."""
    out = set()
    for nr in range(limit):
        ret = run_bpf(prog, audit_arch, nr)
        if ret == SECCOMP_RET_TRACE:
            out.add(nr)
        elif ret != SECCOMP_RET_ALLOW:
            raise GenError(f"unexpected BPF return {ret:#x} for nr {nr}")
    return out


def dump_filter(strace: str, expr: str) -> list[Insn]:
    """The seccomp program strace builds for ``-e trace=EXPR``."""
    proc = subprocess.run(
        [strace, "-d", "-f", "--seccomp-bpf", "-e", f"trace={expr}", "-o", "/dev/null", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise GenError(f"strace -e trace={expr} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return parse_dump(proc.stderr, strace)


def table_size(none_traced: set[int]) -> int:
    """strace's table size for an arch, from the ``none`` program's traced numbers.

    strace picks the shorter of its two generators; for ``none`` that is
    always the linear one, which returns RET_TRACE for every nr >= size.
    """
    if SCAN_LIMIT - 1 not in none_traced:
        raise GenError("the trace=none program does not trace large numbers; cannot find strace's table size")
    size = SCAN_LIMIT - 1
    while size - 1 in none_traced:
        size -= 1
    return size


def syscall_names(arch: str) -> dict[int, str]:
    """nr -> name from ``syscall_tables/ARCH.tsv`` (the project's names), else the uapi header."""
    tsv = REPO / "syscall_tables" / f"{arch}.tsv"
    names: dict[int, str] = {}
    if tsv.is_file():
        lines = tsv.read_text(encoding="utf-8").splitlines()
        if not lines or not lines[0].startswith("nr\tname\t"):
            raise GenError(f"{tsv}: unexpected header")
        for line in lines[1:]:
            if line:
                nr_s, name = line.split("\t")[:2]
                names[int(nr_s)] = name
        return names
    for m in re.finditer(r"^#define __NR_(\w+)\s+(\d+)\s*$", Path(ARCHES[arch][2]).read_text(), re.M):
        names[int(m.group(2))] = m.group(1)
    return names


def build_probe(arch: str, names: Sequence[str], nr_of: dict[str, int], workdir: Path) -> Path:
    """Compile a freestanding program calling each of ``names`` once (harmlessly failing)."""
    calls = []
    for name in names:
        if name not in PROBES:
            raise GenError(f"{arch}: strace always traces {name!r} under seccomp; add a PROBES recipe for it")
        args = list(PROBES[name][0]) + ["0"] * (6 - len(PROBES[name][0]))
        calls.append(f"  sc({nr_of[name]}, {', '.join(args)});")
    src = (
        _PROBE_C.replace("@PATH@", _NONEXISTENT)
        .replace("@CALLS@", "\n".join(calls))
        .replace("@EXIT@", str(nr_of["exit"]))
    )
    c_file = workdir / f"probe_{arch}.c"
    exe = workdir / f"probe_{arch}"
    c_file.write_text(src, encoding="utf-8")
    cmd = ["gcc", ARCHES[arch][1], "-O1", "-static", "-nostdlib", "-ffreestanding", "-fno-stack-protector"]
    cmd += ["-fno-pie", "-no-pie", "-o", str(exe), str(c_file)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise GenError(f"gcc failed building the {arch} probe:\n{proc.stderr}")
    return exe


def probe_shown(strace: str, exe: Path, expr: str, names: Iterable[str], workdir: Path) -> set[str]:
    """Which of ``names`` plain (ptrace-only) strace prints when running ``exe`` with trace=EXPR."""
    out = workdir / "probe.out"
    proc = subprocess.run(
        [strace, "-e", f"trace={expr}", "-o", str(out), str(exe)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise GenError(f"strace -e trace={expr} {exe} failed ({proc.returncode}):\n{proc.stderr}")
    lines = out.read_text(encoding="utf-8").splitlines()
    return {name for name in names if any(line.startswith(PROBES[name][1]) for line in lines)}


def generate(
    strace: str, workdir: Path, log: TextIO | None = None
) -> dict[str, dict[int, tuple[str, set[str]]]]:
    """arch -> nr -> (name, classes) for every named syscall in at least one class."""

    def info(msg: str) -> None:
        if log is not None:
            print(msg, file=log)

    progs = {cls: dump_filter(strace, spelling) for cls, spelling in CLASSES.items()}
    for alias, cls in ALIASES.items():
        if dump_filter(strace, alias) != progs[cls]:
            raise GenError(f"strace spelling {alias!r} does not select the same set as {CLASSES[cls]!r}")
    none_prog = dump_filter(strace, "none")

    result: dict[str, dict[int, tuple[str, set[str]]]] = {}
    for arch, (audit_arch, _mflag, _hdr) in ARCHES.items():
        names = syscall_names(arch)
        nr_of = {name: nr for nr, name in names.items()}
        none_traced = traced_numbers(none_prog, audit_arch, SCAN_LIMIT)
        size = table_size(none_traced)
        # Unnamed always-traced numbers are strace's pseudo entries for
        # decoded subcalls (i386 socketcall/ipc, flagged TRACE_INDIRECT_SUBCALL);
        # they are dropped below like every other unnamed number.
        baseline = {nr for nr in none_traced if nr < size}
        named_baseline = sorted(baseline & names.keys())
        info(
            f"{arch}: strace table size {size}; always traced: {[names[n] for n in named_baseline]}"
            f" + {len(baseline) - len(named_baseline)} unnamed"
        )

        rows: dict[int, tuple[str, set[str]]] = {}
        pseudo: set[int] = set()
        for cls, prog in progs.items():
            traced = traced_numbers(prog, audit_arch, size)
            for nr in sorted(traced - baseline):
                if nr not in names:
                    pseudo.add(nr)
                    continue
                rows.setdefault(nr, (names[nr], set()))[1].add(cls)
        if pseudo:
            info(f"{arch}: ignored class members that are not real syscall numbers: {sorted(pseudo)}")

        if named_baseline:
            base_names = [names[nr] for nr in named_baseline]
            exe = build_probe(arch, base_names, nr_of, workdir)
            everything = probe_shown(strace, exe, "all", base_names, workdir)
            if everything != set(base_names):
                raise GenError(
                    f"{arch}: probe calls not seen under trace=all: {set(base_names) - everything}"
                )
            for cls, spelling in CLASSES.items():
                for name in probe_shown(strace, exe, spelling, base_names, workdir):
                    rows.setdefault(nr_of[name], (name, set()))[1].add(cls)
        result[arch] = dict(sorted(rows.items()))
    return result


def format_tsv(rows: dict[int, tuple[str, set[str]]]) -> str:
    """TSV text in the documented format."""
    out = ["nr\tname\tclasses"]
    out += [f"{nr}\t{name}\t{','.join(sorted(classes))}" for nr, (name, classes) in sorted(rows.items())]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry point; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strace", default="/usr/bin/strace", help="strace binary to query (the 6.1 oracle)")
    parser.add_argument(
        "--out-dir", type=Path, default=REPO / "syscall_tables", help="where to write ARCH.classes.tsv"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary on stderr")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gen_syscall_classes.") as tmp:
        try:
            result = generate(args.strace, Path(tmp), log=None if args.quiet else sys.stderr)
        except GenError as exc:
            print(f"gen_syscall_classes: {exc}", file=sys.stderr)
            return 1
    args.out_dir.mkdir(parents=True, exist_ok=True)
    for arch, rows in result.items():
        (args.out_dir / f"{arch}.classes.tsv").write_text(format_tsv(rows), encoding="utf-8")
        if not args.quiet:
            counts = {cls: sum(cls in c for _, c in rows.values()) for cls in CLASSES}
            print(
                f"{arch}: {len(rows)} rows; " + " ".join(f"{k}={v}" for k, v in counts.items()),
                file=sys.stderr,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
