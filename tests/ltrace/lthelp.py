"""Running pyltrace and ltrace 0.7.3 the same way, and comparing their traces.

Only what legitimately differs between two runs is normalised: addresses
(ASLR; renumbered ADDR1, ADDR2, ... by first appearance, so a wrong address in
one place still differs), pids (PID1, ...), and times (-T, -t, -r, -c).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from helpers import REPO_ROOT, renumber, tracer_env

TIMEOUT = 60

#: The five builds of the main test program and their compiler flags.
VARIANTS: dict[str, list[str]] = {
    "default": [],
    "now": ["-Wl,-z,now"],
    "noplt": ["-fno-plt"],
    "ibt": ["-fcf-protection", "-Wl,-z,ibtplt"],
    "ibtnow": ["-fcf-protection", "-Wl,-z,ibtplt", "-Wl,-z,now"],
}


def pyltrace_cmd() -> list[str]:
    return [sys.executable, "-m", "pytrace.cli.ltrace_cli"]


def run(tracer: str, args: Sequence[str], cmd: Sequence[str | Path], **kw: Any) -> subprocess.CompletedProcess[str]:
    """``tracer ARGS CMD`` with the trace on stderr (or -o), stdout captured separately."""
    argv = (["ltrace"] if tracer == "ltrace" else pyltrace_cmd()) + list(args) + [str(c) for c in cmd]
    kw.setdefault("capture_output", True)
    kw.setdefault("text", True)
    kw.setdefault("errors", "backslashreplace")
    kw.setdefault("stdin", subprocess.DEVNULL)
    kw.setdefault("env", tracer_env())
    kw.setdefault("timeout", TIMEOUT)
    kw.setdefault("cwd", str(REPO_ROOT))
    return subprocess.run(argv, check=False, **kw)


_ADDR = re.compile(r"\b0x[0-9a-f]{5,}\b")
_PID_PREFIX = re.compile(r"^(?:\[pid (\d+)\]|(\d+)) ", re.M)
# Results that are pids or tids: set_tid_address returns the caller's tid.
_PID_RESULT = re.compile(r"SYS_(?:set_tid_address|getpid|gettid|fork|vfork|clone3?)\(.*\) += ((?:0x)?[0-9a-f]+)(?: <[\d.]+>)?$",
                         re.M)
_TIMES = [
    (re.compile(r"<\d+\.\d{6}>"), "<T>"),  # -T
    (re.compile(r"^((?:\[pid \w+\] |\w+ )?)\d\d:\d\d:\d\d(?:\.\d{6})? ", re.M), r"\1TIME "),  # -t, -tt
    (re.compile(r"^((?:\[pid \w+\] |\w+ )?)\d{9,}\.\d{6} ", re.M), r"\1TIME "),  # -ttt
    (re.compile(r"^((?:\[pid \w+\] |\w+ )?) *\d+\.\d{6} ", re.M), r"\1TIME "),  # -r
]


def _renumber(text: str, values: list[str], token: str) -> str:
    names: dict[str, str] = {}
    for v in values:
        names.setdefault(v, f"{token}{len(names) + 1}")
    if not names:
        return text
    rx = re.compile(r"\b(" + "|".join(re.escape(v) for v in sorted(names, key=len, reverse=True)) + r")\b")
    return rx.sub(lambda m: names[m.group(1)], text)


# Where a pid can stand: a line prefix, the result of a call that returns one, the first argument of
# a call that takes one. Only there is a number renumbered as a pid: elsewhere the same digits are
# another value (mmap's flags 2050 = MAP_PRIVATE|MAP_DENYWRITE once met a tracee whose pid was 2050
# in a fresh CI container, and the whole-text renumbering turned one trace's flags into PID1).
_PID_SLOTS = [
    re.compile(r"^(?:\[pid )?(?P<v>\d+)\]? ", re.M),
    re.compile(r"\b(?:SYS_)?(?:waitpid|wait4|kill|tkill|tgkill|getpgid|setpgid|sched_\w+)\((?P<v>\d+)(?=[,)])"),
    re.compile(r"\b(?:SYS_)?(?:set_tid_address|getpid|gettid|getppid|fork|vfork|clone3?|waitpid|wait4|wait)(?:\(| resumed>).*\)"
               r" += (?P<v>(?:0x)?[0-9a-f]+)\b", re.M),
]


def normalise(text: str, pids: Sequence[int] = ()) -> str:
    """Addresses, pids (the line prefixes', pid results' and ``pids``) and times renumbered / blanked."""
    text = _renumber(text, [m.group(0) for m in _ADDR.finditer(text)], "ADDR")
    found = [m.group(1) or m.group(2) for m in _PID_PREFIX.finditer(text)] + [str(p) for p in pids]
    found += [m.group(1) for m in _PID_RESULT.finditer(text)]
    text = renumber(text, "PID", _PID_SLOTS, only=set(found))  # each pid wherever it fills a pid slot
    for rx, repl in _TIMES:
        text = rx.sub(repl, text)
    return text


def summary_rows(text: str) -> dict[str, int]:
    """-c's table: function -> calls (times differ from run to run)."""
    rows: dict[str, int] = {}
    for line in text.splitlines():
        m = re.match(r"^\s*\d+\.\d\d\s+\d+\.\d{6}\s+\d+\s+(\d+) (\S+)$", line)
        if m:
            rows[m.group(2)] = int(m.group(1))
    return rows


class FakeMem:
    """A tracee memory made of a few byte strings at fixed addresses."""

    def __init__(self, blocks: dict[int, bytes]) -> None:
        self.blocks = blocks

    def read_upto(self, addr: int, size: int) -> bytes | None:
        for base, data in self.blocks.items():
            if base <= addr < base + len(data):
                return data[addr - base:addr - base + size]
        return None

    def read(self, addr: int, size: int) -> bytes | None:
        data = self.read_upto(addr, size)
        return data if data is not None and len(data) == size else None

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None:
        data = self.read_upto(addr, limit + 1)
        if data is None:
            return None
        nul = data.find(b"\0")
        return (data[:nul], True) if nul >= 0 else (data[:limit], False)
