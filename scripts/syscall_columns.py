"""The per-syscall fact columns of ``syscall_tables/ARCH.tsv`` (used by gen_syscall_tables.py).

Why a module of its own: these columns join three kinds of input the argument-list generator does
not otherwise need -- strace's class flags (``ARCH.classes.tsv``, made from the strace binary by
gen_syscall_classes.py), the structure sizes of each personality (measured with gcc against the
kernel UAPI headers), and the knowledge no header states, kept as data next to this script:

* ``arg_roles.tsv``: which arguments are fds, directory fds, paths, pids;
* ``capture_rules.tsv``: for each pointer argument, what it points to, how big it is, when valid;
* ``capture_structs.tsv``: how to measure each structure a plan names;
* ``syscall_facts.tsv``: return kind, flags, strace's -P rule, the i386 decoder variant.

Columns written (documented for readers of the tables in syscall_tables/README.md):
``classes``, ``roles``, ``rval``, ``flags``, ``pathtrace``, ``variant``, ``capture``.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
REPO_ROOT = SCRIPTS.parent
COLUMNS = ("classes", "roles", "rval", "flags", "pathtrace", "variant", "capture")
RVAL_KINDS = frozenset({"int", "fd", "pid", "addr"})
ROLES = frozenset({"fd", "dirfd", "path", "str", "pid"})
WHENS = frozenset({"entry", "exit", "both"})
# Kinds of memory whose size comes from the plan's size rule, not from a structure: strings, a raw
# buffer (a prefix is enough to print it) and directory records (parsed through the whole size).
UNSIZED = frozenset({"path", "str", "strv", "buf", "bytes", "iovec", "mmsghdr", "clone_args", "dirents"})
POINTER_TYPEDEFS = frozenset({"cap_user_header_t", "cap_user_data_t", "__sighandler_t"})
_GCC_MODEL = {"x86_64": "-m64", "i386": "-m32", "aarch64": "-m64"}


class RuleError(ValueError):
    """A data file or a rule does not fit a syscall; the message names the file and row."""


@dataclass(frozen=True)
class Rule:
    """One row of a matching data file: (syscall, arg, type) keys with ``*`` wildcards, then values."""

    syscall: str
    arg: str
    ctype: str
    values: tuple[str, ...]
    where: str

    def matches(self, syscall: str, arg: str, ctype: str) -> bool:
        return (self.syscall in ("*", syscall) and self.arg in ("*", arg) and self.ctype in ("*", ctype))

    @property
    def rank(self) -> int:
        """Most specific first: a syscall-specific row beats an argument-name row beats a type row."""
        return 4 * (self.syscall != "*") + 2 * (self.arg != "*") + (self.ctype != "*")


def read_rows(path: Path, ncols: int) -> list[tuple[list[str], str]]:
    """Data rows of a tab-separated file (``#`` comments and the header skipped), with their place."""
    rows = []
    header_seen = False
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line or line.startswith("#"):
            continue
        if not header_seen:
            header_seen = True
            continue
        cells = line.split("\t")
        if len(cells) != ncols:
            raise RuleError(f"{path.name}:{lineno}: {len(cells)} columns, expected {ncols}: {line!r}")
        rows.append((cells, f"{path.name}:{lineno}"))
    return rows


@cache
def load_rules(name: str, nvalues: int) -> tuple[Rule, ...]:
    return tuple(Rule(c[0], c[1], c[2], tuple(c[3:]), where)
                 for c, where in read_rows(SCRIPTS / name, 3 + nvalues))


def best(rules: Sequence[Rule], syscall: str, arg: str, ctype: str) -> Rule | None:
    """The most specific rule matching; two equally specific matches are an error in the data."""
    found = sorted((r for r in rules if r.matches(syscall, arg, ctype)), key=lambda r: -r.rank)
    if len(found) > 1 and found[0].rank == found[1].rank:
        raise RuleError(f"{found[0].where} and {found[1].where} both match {syscall} {arg} ({ctype})")
    return found[0] if found else None


@cache
def facts() -> dict[tuple[str, str], dict[str, str]]:
    """(syscall, arch or ``*``) -> {column: value} from syscall_facts.tsv, ``-`` cells left out."""
    names = ("rval", "flags", "pathtrace", "variant")
    out: dict[tuple[str, str], dict[str, str]] = {}
    for cells, where in read_rows(SCRIPTS / "syscall_facts.tsv", 6):
        key = (cells[0], cells[1])
        if key in out:
            raise RuleError(f"{where}: second row for {key}")
        values = {n: v for n, v in zip(names, cells[2:], strict=True) if v != "-"}
        if values.get("rval", "int") not in RVAL_KINDS:
            raise RuleError(f"{where}: unknown rval kind {values['rval']!r}")
        out[key] = values
    return out


def syscall_facts(arch: str, name: str) -> dict[str, str]:
    """The facts of one syscall on one arch: the ``*`` row, then the arch's row over it."""
    table = facts()
    return {**table.get((name, "*"), {}), **table.get((name, arch), {})}


@cache
def struct_sizes(arch: str) -> dict[str, int]:
    """sizeof each capture_structs.tsv type for ``arch``, read from gcc's assembly (nothing is run)."""
    rows = [(c, where) for c, where in read_rows(SCRIPTS / "capture_structs.tsv", 4) if c[1] in ("*", arch)]
    headers = list(dict.fromkeys(h for c, _ in rows for h in c[2].split(",")))  # in file order
    symbols = {}
    lines = [f"#include <{h}>" for h in headers]
    for i, (cells, _where) in enumerate(rows):
        symbols[f"pytrace_size_{i}"] = cells[0]
        expr = cells[3] if cells[3].startswith("offsetof(") else f"sizeof({cells[3]})"
        lines.append(f"const unsigned long pytrace_size_{i} = {expr.replace('offsetof(', '__builtin_offsetof(')};")
    with tempfile.TemporaryDirectory(prefix="syscall_columns.") as tmp:
        src = Path(tmp) / "sizes.c"
        src.write_text("\n".join(lines) + "\n")
        proc = subprocess.run(["gcc", _GCC_MODEL[arch], "-S", "-o", "-", str(src)],
                              capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuleError(f"gcc could not measure the {arch} structures of capture_structs.tsv:\n{proc.stderr}")
    sizes: dict[str, int] = {}
    for sym, size in re.findall(r"^(pytrace_size_\d+):\s*\n\s*\.(?:quad|long)\s+(\d+)", proc.stdout, re.M):
        key = symbols[sym]
        if key in sizes:
            raise RuleError(f"capture_structs.tsv: {key} listed twice for {arch}")
        sizes[key] = int(size)
    missing = set(symbols.values()) - sizes.keys()
    if missing:
        raise RuleError(f"no size read back from gcc for {sorted(missing)} ({arch})")
    return sizes


def is_pointer(ctype: str) -> bool:
    return "*" in ctype or ctype.removeprefix("const ").strip() in POINTER_TYPEDEFS


def roles(name: str, args: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """Each argument's role (fd, dirfd, path, str, pid) or ``-``."""
    out = []
    for ctype, arg in args:
        rule = best(load_rules("arg_roles.tsv", 1), name, arg, ctype)
        role = rule.values[0] if rule else "-"
        if role != "-" and role not in ROLES:
            raise RuleError(f"{rule.where if rule else ''}: unknown role {role!r}")
        out.append(role)
    return tuple(out)


def _resolve_size(spec: str, what_size: int | None, names: Sequence[str], where: str) -> str | None:
    """A size spec of capture_rules.tsv in the table's terms (argN, numbers); None: it does not fit."""
    def arg_index(ref: str) -> int | None:
        return names.index(ref) if ref in names else None

    if spec in ("nul", "ret", "deep"):
        return spec
    if spec == "#":
        return None if what_size is None else str(what_size)
    if spec == "ret*#":
        return None if what_size is None else f"ret*{what_size}"
    m = re.fullmatch(r"(\*|bitmask:)?@(\w+)(\*#)?", spec)
    if m is None:
        raise RuleError(f"{where}: unknown size {spec!r}")
    i = arg_index(m.group(2))
    if i is None:
        return None
    if m.group(3):
        return None if what_size is None else f"arg{i}*{what_size}"
    prefix = m.group(1) or ""
    return f"bitmask(arg{i})" if prefix == "bitmask:" else f"{prefix}arg{i}"


def capture(arch: str, name: str, args: Sequence[tuple[str, str]], variant: str,
            gaps: list[str] | None = None) -> tuple[str, ...]:
    """The capture plan: ``IDX:WHAT:SIZE:WHEN`` per argument with memory to copy, ``IDX:deep`` where
    the decoder's reads are its own business.  Pointers no rule fits are ``deep`` (listed in ``gaps``).
    Memory at the stack pointer (rt_sigreturn's frame) comes last, as ``sp+OFFSET:...``.

    An i386 variant (``futex_time64`` = ``futex:time64``) is planned by its base's rules, with the
    structure sizes of its layout family.
    """
    base, _, variant_family = variant.partition(":")
    rule_name = base or name
    sizes = struct_sizes(arch)
    names = [arg for _, arg in args]
    out = []
    for i, (ctype, arg) in enumerate(args):
        rule = best(load_rules("capture_rules.tsv", 3), rule_name, arg, ctype)
        if rule is None or (rule.syscall == "*" and not is_pointer(ctype)):
            if is_pointer(ctype):
                out.append(f"{i}:deep")
                if gaps is not None:
                    gaps.append(f"{arch} {name} {arg} ({ctype}): no rule")
            continue
        what, size_spec, when = rule.values
        if what == "addr":
            continue
        if what == "deep":
            out.append(f"{i}:deep")
            continue
        if when not in WHENS:
            raise RuleError(f"{rule.where}: unknown when {when!r}")
        what_size = None
        if what not in UNSIZED:
            key = f"{what}@{variant_family}" if f"{what}@{variant_family}" in sizes else what
            what_size = sizes.get(key)
            if what_size is None:
                raise RuleError(f"{rule.where}: no size of {what!r} for {arch} in capture_structs.tsv")
        size = _resolve_size(size_spec, what_size, names, rule.where)
        if size is None:  # e.g. a sigset_t * without a sigsetsize argument: no plan
            out.append(f"{i}:deep")
            if gaps is not None:
                gaps.append(f"{arch} {name} {arg} ({ctype}): {rule.where} does not fit")
            continue
        out.append(f"{i}:{what}:{size}:{when}")
    for rule in load_rules("capture_rules.tsv", 3):
        if rule.syscall == rule_name and rule.arg.startswith("@sp+"):
            offset = sizes.get(rule.arg[4:])
            what, size, when = rule.values
            out.append("sp:deep" if offset is None else f"sp+{offset}:{what}:{size}:{when}")
    return tuple(out)


def read_classes(arch: str, table_dir: Path) -> dict[int, str]:
    """nr -> comma-joined strace classes from ARCH.classes.tsv (none for arches strace's filter lacks)."""
    path = table_dir / f"{arch}.classes.tsv"
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        if line:
            nr, _name, classes = line.split("\t")
            out[int(nr)] = classes
    return out


def columns(arch: str, nr: int, name: str, args: Sequence[tuple[str, str]],
            classes: Mapping[int, str], gaps: list[str] | None = None) -> tuple[str, ...]:
    """The COLUMNS cells of one row, in order."""
    f = syscall_facts(arch, name)
    variant = f.get("variant", "")
    return (
        classes.get(nr, ""),
        ";".join(roles(name, args)),
        f.get("rval", "int"),
        f.get("flags", ""),
        f.get("pathtrace", ""),
        variant,
        ";".join(capture(arch, name, args, variant, gaps)),
    )
