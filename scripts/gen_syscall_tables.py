#!/usr/bin/env python3
"""Generate pytrace's per-architecture syscall tables (``syscall_tables/*.tsv``).

Why a generator: the tables must match what strace 6.1 prints, so numbers and
names come from the same kernel UAPI headers strace 6.1 was built against
(Debian 12's linux-libc-dev 6.1), and argument lists come from the kernel's own
metadata instead of being typed by hand.

Inputs (all read from this machine):

* Numbers and names
  - x86_64:  ``/usr/include/x86_64-linux-gnu/asm/unistd_64.h`` (linux-libc-dev)
  - i386:    ``/usr/include/x86_64-linux-gnu/asm/unistd_32.h`` (linux-libc-dev)
  - aarch64: ``/usr/include/asm-generic/unistd.h`` evaluated by ``gcc -E -dM``
    with the macros arm64's ``arch/arm64/include/uapi/asm/unistd.h`` defines
    (``AARCH64_ARCH_WANT`` below) and ``__BITS_PER_LONG`` = 64, so the
    ``__NR3264_*`` indirections resolve to their 64-bit names (``fcntl``,
    ``lseek``, ``mmap``, ``newfstatat``...).  Needs ``gcc``; no cross headers.
* Argument count, types and names: the running kernel's syscall tracepoints,
  ``/sys/kernel/tracing/events/syscalls/sys_enter_NAME/format`` (tracefs is
  mounted by this script when it is missing and we are root).  The fields
  after ``__syscall_nr`` are the arguments, with types exactly as tracefs
  prints them.  Tracepoints exist only for the running (x86_64) kernel's
  native entry points; i386 and aarch64 reuse them by name, because the
  compat/generic entry points take the same logical arguments.
* Fallback for syscalls without a tracepoint: python-ptrace's
  ``ptrace.syscall.prototypes.SYSCALL_PROTOTYPES`` (derived from the kernel's
  include/linux/syscalls.h).  If neither knows the syscall, it gets 6
  ``unsigned long`` arguments named ``arg0``..``arg5``, which is also what
  strace does for syscalls it cannot decode.

Run (from the repository root; root is only needed to mount tracefs)::

    python scripts/gen_syscall_tables.py            # rewrite syscall_tables/*.tsv
    python scripts/gen_syscall_tables.py --check    # exit 1 if a committed table is stale
    python scripts/gen_syscall_tables.py --arch i386 --out /tmp/tables

Output columns (TSV, one header line, tab-separated, sorted by ``nr``):

* ``nr``     syscall number for the architecture's native ABI.
* ``name``   the UAPI ``__NR_`` name, which is the name strace prints
  (``newfstatat``, ``pread64``, ``umount2``, ``uname``...).
* ``nargs``  number of arguments.
* ``args``   ``;``-joined ``TYPE NAME`` pairs, e.g.
  ``int dfd;const char * filename;int flags;umode_t mode``; empty for 0 args.
* ``widths`` ``;``-joined kernel width of each argument, derived from its C type
  for the arch's C model (LP64 or ILP32): ``s32``/``u32`` (``int``, ``pid_t``,
  ``unsigned int``, ``u32``...), ``u16`` (``umode_t``), ``s64``/``u64``
  (``long``, ``size_t``, ``loff_t``, pointers on LP64).  A 32-bit argument is
  what the kernel's ``SYSCALL_DEFINE`` wrapper casts the 64-bit register to, so
  ``socket(0x100000002, ...)`` is ``socket(AF_INET, ...)`` to the kernel.
* ``decode`` ``;``-joined width pytrace cuts each register to before its
  decoders see it: the ``widths`` entry, except where strace 6.1 prints
  another width than the kernel reads (``STRACE_DECODE_WIDTHS``, each with the
  strace code that does it, e.g. socket's protocol from the whole register).
  Only architectures with 64-bit registers cut (an i386 register is 32 bits).
* ``source`` where ``args`` came from: ``tracefs``, ``python-ptrace`` or
  ``unknown``.
* ``classes`` ``roles`` ``rval`` ``flags`` ``pathtrace`` ``variant`` ``capture``: the facts about
  each syscall that used to live in code lists, made by ``scripts/syscall_columns.py`` from the
  data files next to it and strace's classes (``ARCH.classes.tsv``); see syscall_tables/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT_DIR = REPO_ROOT / "syscall_tables"

ARCHES = ("x86_64", "i386", "aarch64")

UNISTD_64_H = Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h")
UNISTD_32_H = Path("/usr/include/x86_64-linux-gnu/asm/unistd_32.h")
GENERIC_UNISTD_H = Path("/usr/include/asm-generic/unistd.h")
GENERIC_INCLUDE_DIR = Path("/usr/include")

TRACEFS_MOUNTPOINTS = (Path("/sys/kernel/tracing"), Path("/sys/kernel/debug/tracing"))

# What arch/arm64/include/uapi/asm/unistd.h (Linux 6.1) defines before it
# includes <asm-generic/unistd.h>; these select which optional generic
# syscalls exist on arm64.
AARCH64_ARCH_WANT = (
    "__ARCH_WANT_RENAMEAT",
    "__ARCH_WANT_NEW_STAT",
    "__ARCH_WANT_SET_GET_RLIMIT",
    "__ARCH_WANT_TIME32_SYSCALLS",
    "__ARCH_WANT_SYS_CLONE3",
    "__ARCH_WANT_MEMFD_SECRET",
)

# asm-generic/unistd.h defines these __NR_ macros, but they are bookkeeping
# (table size, start of the per-arch range), not syscalls.
GENERIC_NON_SYSCALLS = frozenset({"syscalls", "arch_specific_syscall"})

# Kernel naming data, not a syscall table: the UAPI name of a syscall differs
# from the SYSCALL_DEFINE name its tracepoint (and python-ptrace prototype) is
# called after.  Applies to every arch unless an arch map below overrides it.
ENTRY_POINT_ALIASES: dict[str, str] = {
    "stat": "newstat",
    "fstat": "newfstat",
    "lstat": "newlstat",
    "uname": "newuname",
    "umount2": "umount",
    "sendfile": "sendfile64",  # 64-bit ABIs: __NR_sendfile is sys_sendfile64
    "_sysctl": "sysctl",
}

# i386 names whose entry point (arch/x86/entry/syscalls/syscall_32.tbl) is a
# differently named kernel function.  Besides renames, this stops i386-only
# calls that reuse a native name (old one-argument select/mmap/umount) from
# picking up the native tracepoint's argument list.  Calls that differ only by
# being the 16-bit-uid or time32 flavour of a native call (chown, futex...)
# are not listed: they take the same logical arguments as the native one.
I386_ENTRY_POINT_ALIASES: dict[str, str] = {
    "oldstat": "stat",
    "oldfstat": "fstat",
    "oldlstat": "lstat",
    "umount": "oldumount",
    "oldolduname": "olduname",
    "olduname": "uname",
    "getrlimit": "old_getrlimit",
    "select": "old_select",
    "readdir": "old_readdir",
    "mmap": "old_mmap",
    "_llseek": "llseek",
    "_newselect": "select",
    "sendfile": "sendfile",  # i386 keeps the off_t sendfile; sendfile64 is separate
    "ugetrlimit": "getrlimit",
    "mmap2": "mmap_pgoff",
    # 198-216: the 32-bit-uid calls are the native sys_* functions.
    "lchown32": "lchown",
    "getuid32": "getuid",
    "getgid32": "getgid",
    "geteuid32": "geteuid",
    "getegid32": "getegid",
    "setreuid32": "setreuid",
    "setregid32": "setregid",
    "getgroups32": "getgroups",
    "setgroups32": "setgroups",
    "fchown32": "fchown",
    "setresuid32": "setresuid",
    "getresuid32": "getresuid",
    "setresgid32": "setresgid",
    "getresgid32": "getresgid",
    "chown32": "chown",
    "setuid32": "setuid",
    "setgid32": "setgid",
    "setfsuid32": "setfsuid",
    "setfsgid32": "setfsgid",
    # 403-423: the 64-bit time_t calls are the native sys_* functions.
    "clock_gettime64": "clock_gettime",
    "clock_settime64": "clock_settime",
    "clock_adjtime64": "clock_adjtime",
    "clock_getres_time64": "clock_getres",
    "clock_nanosleep_time64": "clock_nanosleep",
    "timer_gettime64": "timer_gettime",
    "timer_settime64": "timer_settime",
    "timerfd_gettime64": "timerfd_gettime",
    "timerfd_settime64": "timerfd_settime",
    "utimensat_time64": "utimensat",
    "pselect6_time64": "pselect6",
    "ppoll_time64": "ppoll",
    "io_pgetevents_time64": "io_pgetevents",
    "recvmmsg_time64": "recvmmsg",
    "mq_timedsend_time64": "mq_timedsend",
    "mq_timedreceive_time64": "mq_timedreceive",
    "semtimedop_time64": "semtimedop",
    "rt_sigtimedwait_time64": "rt_sigtimedwait",
    "futex_time64": "futex",
    "sched_rr_get_interval_time64": "sched_rr_get_interval",
}

UNKNOWN_ARGS: tuple[tuple[str, str], ...] = tuple(("unsigned long", f"arg{i}") for i in range(6))

TSV_HEADER = "nr\tname\tnargs\targs\twidths\tdecode\tsource\tclasses\troles\trval\tflags\tpathtrace\tvariant\tcapture"

_DEFINE_RE = re.compile(r"^#define\s+(__NR(?:3264)?_\w+)\s+(\S+)\s*$")


class TracefsUnavailable(RuntimeError):
    """Raised with a human-readable reason so callers (tests) can skip loudly."""


# Kernel C type (without const) -> width on each C model, as the kernel's headers define
# them (include/linux/types.h, include/uapi/asm-generic/posix_types.h, x86's and arm64's
# posix_types): "s"/"u" plus bits, or "long"/"ulong" for the model's long.  Pointers
# (any type with a ``*``, and the pointer typedefs below) are the model's unsigned long.
# A type missing here is an error, so a new kernel type gets a deliberate entry.
C_TYPE_WIDTHS: dict[str, str] = {
    "int": "s32", "pid_t": "s32", "key_t": "s32", "mqd_t": "s32", "timer_t": "s32",
    "clockid_t": "s32", "rwf_t": "s32", "key_serial_t": "s32", "__s32": "s32",
    "unsigned int": "u32", "unsigned": "u32", "u32": "u32", "__u32": "u32", "uid_t": "u32",
    "gid_t": "u32", "qid_t": "u32",
    "enum landlock_rule_type": "u32",  # all enumerators >= 0: GCC gives it unsigned int
    "umode_t": "u16",
    "long": "long", "off_t": "long",
    "unsigned long": "ulong", "size_t": "ulong", "aio_context_t": "ulong", "old_sigset_t": "ulong",
    "loff_t": "s64", "u64": "u64", "__u64": "u64",
}
POINTER_TYPEDEFS = frozenset({"cap_user_header_t", "cap_user_data_t", "__sighandler_t"})
LONG_BITS = {"x86_64": 64, "aarch64": 64, "i386": 32}

# Where strace 6.1 prints an argument at another width than the kernel reads it, pytrace
# follows strace: (syscall, argument name) -> (width in the ``decode`` column, where strace
# does it).  Found by tests/faults/test_wild_args.py (junk in the upper half of every
# register) and checked against strace's output; applies to 64-bit registers only.
STRACE_DECODE_WIDTHS: dict[tuple[str, str], tuple[str, str]] = {
    ("socket", "family"): ("u64", "net.c SYS_FUNC(socket): switch (tcp->u_arg[0]) picks the protocol's table "
                                  "by the whole register (the family itself prints as an int)"),
    ("socket", "protocol"): ("u64", "net.c SYS_FUNC(socket): printxval()/%lu of the whole tcp->u_arg[2]"),
    ("socketpair", "protocol"): ("u64", "net.c SYS_FUNC(socketpair): PRINT_VAL_U(tcp->u_arg[2])"),
    ("readlink", "bufsiz"): ("u64", "readlink.c decode_readlink(): PRINT_VAL_U(tcp->u_arg[2])"),
    ("readlinkat", "bufsiz"): ("u64", "readlink.c decode_readlink(): PRINT_VAL_U(tcp->u_arg[3])"),
    ("rseq", "rseq_len"): ("u64", "rseq.c: PRINT_VAL_X(tcp->u_arg[1]), the whole register"),
    ("rseq", "flags"): ("u64", "rseq.c: printflags64() of the whole tcp->u_arg[2]"),
    ("rseq", "sig"): ("u64", "rseq.c: PRINT_VAL_X(tcp->u_arg[3]), the whole register"),
    ("sysfs", "option"): ("u64", "sysfs.c: PRINT_VAL_X(tcp->u_arg[0]) of an unknown option"),
    ("mmap", "flags"): ("u32", "mem.c print_mmap_flags(): unsigned int flags, though the kernel's is unsigned long"),
    ("remap_file_pages", "flags"): ("u32", "mem.c remap_file_pages: print_mmap_flags()'s unsigned int"),
}


def c_type_width(ctype: str, arch: str) -> str:
    """Width of an argument of C type ``ctype`` on ``arch``: ``s32``, ``u32``, ``u16``, ``s64``, ``u64``."""
    bits = LONG_BITS[arch]
    base = ctype.strip()
    if "*" in base:
        return f"u{bits}"
    base = base.removeprefix("const ").strip()
    if base in POINTER_TYPEDEFS:
        return f"u{bits}"
    width = C_TYPE_WIDTHS.get(base)
    if width is None:
        raise ValueError(f"no width known for C type {ctype!r}: add it to C_TYPE_WIDTHS")
    if width == "long":
        return f"s{bits}"
    if width == "ulong":
        return f"u{bits}"
    return width


@dataclass(frozen=True)
class Row:
    """One syscall table line; kept structured so tests can diff rows, not text."""

    nr: int
    name: str
    args: tuple[tuple[str, str], ...]
    source: str
    widths: tuple[str, ...] = ()
    decode: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()  # syscall_columns.COLUMNS, in order

    def to_tsv(self) -> str:
        """Render in the column order the loader and README document."""
        args = ";".join(f"{typ} {name}" for typ, name in self.args)
        return "\t".join((str(self.nr), self.name, str(len(self.args)), args, ";".join(self.widths),
                          ";".join(self.decode), self.source, *self.facts))


def arg_widths(arch: str, name: str, args: Sequence[tuple[str, str]]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(kernel widths, widths pytrace decodes at) of one syscall's arguments on ``arch``."""
    widths = tuple(c_type_width(typ, arch) for typ, _ in args)
    if LONG_BITS[arch] != 64:
        return widths, widths
    decode = tuple(
        STRACE_DECODE_WIDTHS.get((name, arg), (w, ""))[0] for w, (_, arg) in zip(widths, args, strict=True)
    )
    return widths, decode


# --------------------------------------------------------------------------
# Numbers and names
# --------------------------------------------------------------------------


def _resolve_nr_macros(defines: Mapping[str, str]) -> dict[str, int]:
    """Resolve ``__NR_x`` macros whose values are literals or other ``__NR*`` macros.

    The generic table defines e.g. ``__NR_fcntl`` as ``__NR3264_fcntl``, so a
    plain regex over the header text is not enough.
    """

    def value(macro: str, depth: int = 0) -> int:
        if depth > 8:
            raise ValueError(f"macro chain too deep at {macro}")
        text = defines[macro]
        if re.fullmatch(r"\d+", text):
            return int(text)
        if text in defines:
            return value(text, depth + 1)
        raise ValueError(f"cannot evaluate {macro} = {text!r}")

    numbers: dict[str, int] = {}
    for macro in defines:
        if not macro.startswith("__NR_"):
            continue
        name = macro[len("__NR_") :]
        if name in GENERIC_NON_SYSCALLS:
            continue
        numbers[name] = value(macro)
    return numbers


def parse_defines(text: str) -> dict[str, str]:
    """Collect ``#define __NR...`` lines; later definitions win, like cpp."""
    defines: dict[str, str] = {}
    for line in text.splitlines():
        m = _DEFINE_RE.match(line.strip())
        if m:
            defines[m.group(1)] = m.group(2)
    return defines


def parse_unistd_header(path: Path) -> dict[str, int]:
    """Read a flat ``asm/unistd_NN.h`` (only literal ``#define __NR_x N`` lines)."""
    return _resolve_nr_macros(parse_defines(path.read_text()))


def generic_unistd_numbers(
    arch_want: Sequence[str] = AARCH64_ARCH_WANT,
    bits_per_long: int = 64,
    include_dir: Path = GENERIC_INCLUDE_DIR,
) -> dict[str, int]:
    """Evaluate asm-generic/unistd.h the way an arch's uapi header would.

    ``-undef -nostdinc`` plus a private ``asm/bitsperlong.h`` keep the host's
    x86 macros and headers out, so the result depends only on the macros
    passed here.
    """
    with tempfile.TemporaryDirectory(prefix="gen_syscall_tables.") as tmp:
        asm_dir = Path(tmp) / "asm"
        asm_dir.mkdir()
        (asm_dir / "bitsperlong.h").write_text(
            f"#define __BITS_PER_LONG {bits_per_long}\n#include <asm-generic/bitsperlong.h>\n"
        )
        source = "".join(f"#define {m}\n" for m in arch_want) + "#include <asm-generic/unistd.h>\n"
        proc = subprocess.run(
            ["gcc", "-E", "-dM", "-undef", "-nostdinc", "-I", tmp, "-I", str(include_dir), "-x", "c", "-"],
            input=source,
            capture_output=True,
            text=True,
            check=True,
        )
    return _resolve_nr_macros(parse_defines(proc.stdout))


def unistd_numbers(arch: str) -> dict[str, int]:
    """Name -> number for ``arch`` from this machine's linux-libc-dev headers."""
    if arch == "x86_64":
        return parse_unistd_header(UNISTD_64_H)
    if arch == "i386":
        return parse_unistd_header(UNISTD_32_H)
    if arch == "aarch64":
        return generic_unistd_numbers()
    raise ValueError(f"unknown arch {arch!r}; expected one of {ARCHES}")


# --------------------------------------------------------------------------
# Argument lists
# --------------------------------------------------------------------------


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def find_tracefs_events(mount: bool = True) -> Path:
    """Return ``.../events/syscalls`` of a tracefs mount, mounting it if allowed.

    Raises TracefsUnavailable with the reason (not mounted and not root,
    mount failed, kernel without CONFIG_FTRACE_SYSCALLS...) so a test can
    say exactly what is missing.
    """
    for base in TRACEFS_MOUNTPOINTS:
        events = base / "events" / "syscalls"
        if events.is_dir() and any(events.glob("sys_enter_*")):
            return events
    problems: list[str] = []
    if mount and _is_root():
        base = TRACEFS_MOUNTPOINTS[0]
        proc = subprocess.run(
            ["mount", "-t", "tracefs", "nodev", str(base)], capture_output=True, text=True, check=False
        )
        events = base / "events" / "syscalls"
        if events.is_dir() and any(events.glob("sys_enter_*")):
            return events
        problems.append(
            f"`mount -t tracefs nodev {base}` exited {proc.returncode}: {proc.stderr.strip() or 'no message'}"
        )
    elif mount:
        problems.append("not root, so tracefs cannot be mounted")
    where = ", ".join(str(b / "events" / "syscalls") for b in TRACEFS_MOUNTPOINTS)
    raise TracefsUnavailable(
        f"no syscall tracepoints found at {where} (needs tracefs and CONFIG_FTRACE_SYSCALLS)"
        + (f"; {'; '.join(problems)}" if problems else "")
    )


def parse_tracepoint_format(text: str) -> tuple[tuple[str, str], ...]:
    """Argument (type, name) pairs from a ``sys_enter_*/format`` file.

    Every field after ``__syscall_nr`` is one syscall argument; the type is
    kept byte-for-byte as tracefs prints it.
    """
    args: list[tuple[str, str]] = []
    seen_nr = False
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("field:"):
            continue
        decl = line[len("field:") :].split(";", 1)[0].strip()
        typ, _, name = decl.rpartition(" ")
        if not seen_nr:
            seen_nr = name == "__syscall_nr"
            continue
        if not typ or not name:
            raise ValueError(f"unparsable tracefs field {line!r}")
        args.append((typ.strip(), name))
    if not seen_nr:
        raise ValueError("tracefs format without __syscall_nr field")
    return tuple(args)


def load_tracepoints(events_dir: Path) -> dict[str, tuple[tuple[str, str], ...]]:
    """Tracepoint name (without ``sys_enter_``) -> argument list."""
    result: dict[str, tuple[tuple[str, str], ...]] = {}
    for fmt in sorted(events_dir.glob("sys_enter_*/format")):
        name = fmt.parent.name[len("sys_enter_") :]
        result[name] = parse_tracepoint_format(fmt.read_text())
    return result


def load_ptrace_prototypes() -> dict[str, tuple[tuple[str, str], ...]]:
    """python-ptrace's prototypes keyed by kernel function name (minus ``sys_``).

    python-ptrace copies each prototype under the libc-level names in its
    ALIASES table at import time; those copies are dropped again because they
    would e.g. give i386's unimplemented ``break`` the arguments of ``brk``.
    The entry-point maps above already cover the renames we need.
    """
    from ptrace.syscall import prototypes  # imported lazily: only the generator needs it

    copies = {alias for aliases in prototypes.ALIASES.values() for alias in aliases}
    return {
        name: tuple((str(t), str(n)) for t, n in args)
        for name, (_restype, args) in prototypes.SYSCALL_PROTOTYPES.items()
        if name not in copies
    }


def entry_point(arch: str, name: str) -> str:
    """Kernel function name (minus ``sys_``) that implements ``name`` on ``arch``."""
    if arch == "i386" and name in I386_ENTRY_POINT_ALIASES:
        return I386_ENTRY_POINT_ALIASES[name]
    return ENTRY_POINT_ALIASES.get(name, name)


def resolve_args(
    arch: str,
    name: str,
    tracepoints: Mapping[str, tuple[tuple[str, str], ...]],
    prototypes: Mapping[str, tuple[tuple[str, str], ...]],
) -> tuple[tuple[tuple[str, str], ...], str]:
    """Pick the argument list and its source, preferring the running kernel's metadata."""
    func = entry_point(arch, name)
    if func in tracepoints:
        return tracepoints[func], "tracefs"
    for candidate in (func, name):
        if candidate in prototypes:
            return prototypes[candidate], "python-ptrace"
    return UNKNOWN_ARGS, "unknown"


def build_rows(
    arch: str,
    numbers: Mapping[str, int],
    tracepoints: Mapping[str, tuple[tuple[str, str], ...]],
    prototypes: Mapping[str, tuple[tuple[str, str], ...]],
    gaps: list[str] | None = None,
) -> list[Row]:
    """Join numbers with argument lists and the fact columns; refuses duplicate numbers (ambiguous).

    ``gaps`` collects the pointer arguments no capture rule fits (planned as ``deep``).
    """
    by_nr: dict[int, str] = {}
    for name, nr in numbers.items():
        if nr in by_nr:
            raise ValueError(f"{arch}: number {nr} is both {by_nr[nr]} and {name}")
        by_nr[nr] = name
    rows = []
    cols = _columns_module()
    classes = cols.read_classes(arch, DEFAULT_OUT_DIR)
    for nr in sorted(by_nr):
        args, source = resolve_args(arch, by_nr[nr], tracepoints, prototypes)
        widths, decode = arg_widths(arch, by_nr[nr], args)
        facts = cols.columns(arch, nr, by_nr[nr], args, classes, gaps)
        rows.append(Row(nr, by_nr[nr], args, source, widths, decode, facts))
    return rows


def _columns_module() -> ModuleType:
    """scripts/syscall_columns.py, imported by path: scripts/ is not a package (tests load this file by path)."""
    name = "pytrace_syscall_columns"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).resolve().parent / "syscall_columns.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses looks the module up while decorating
        spec.loader.exec_module(module)
    return module


def render_tsv(rows: Iterable[Row]) -> str:
    """The exact file content committed under syscall_tables/."""
    return "\n".join([TSV_HEADER, *(row.to_tsv() for row in rows)]) + "\n"


def generate(
    arch: str,
    tracepoints: Mapping[str, tuple[tuple[str, str], ...]] | None = None,
    prototypes: Mapping[str, tuple[tuple[str, str], ...]] | None = None,
) -> str:
    """TSV text for ``arch``; tracepoints/prototypes may be passed in to read them once for all arches."""
    if tracepoints is None:
        tracepoints = load_tracepoints(find_tracefs_events())
    if prototypes is None:
        prototypes = load_ptrace_prototypes()
    return render_tsv(build_rows(arch, unistd_numbers(arch), tracepoints, prototypes))


def write_tables(out_dir: Path, arches: Sequence[str] = ARCHES) -> dict[str, Path]:
    """Generate and write ``out_dir/ARCH.tsv`` for each arch; returns the paths written."""
    tracepoints = load_tracepoints(find_tracefs_events())
    prototypes = load_ptrace_prototypes()
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for arch in arches:
        path = out_dir / f"{arch}.tsv"
        path.write_text(generate(arch, tracepoints, prototypes))
        written[arch] = path
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """CLI entry: write the tables, or with --check report which committed ones are stale."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT_DIR, help="output directory")
    parser.add_argument("--arch", action="append", choices=ARCHES, help="only this arch (repeatable)")
    parser.add_argument("--check", action="store_true", help="compare with files in --out instead of writing")
    opts = parser.parse_args(argv)
    arches = tuple(opts.arch or ARCHES)

    if not opts.check:
        for path in write_tables(opts.out, arches).values():
            counts: dict[str, int] = {}
            for line in path.read_text().splitlines()[1:]:
                source = line.split("\t")[6]
                counts[source] = counts.get(source, 0) + 1
            total = sum(counts.values())
            detail = ", ".join(f"{k}={v}" for k, v in sorted(counts.items()))
            print(f"{path}: {total} rows ({detail})")
        return 0

    tracepoints = load_tracepoints(find_tracefs_events())
    prototypes = load_ptrace_prototypes()
    stale = []
    for arch in arches:
        path = opts.out / f"{arch}.tsv"
        if not path.exists() or path.read_text() != generate(arch, tracepoints, prototypes):
            stale.append(str(path))
    if stale:
        print("stale (rerun scripts/gen_syscall_tables.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
