"""Did a per-event row print every event?  Count the calls in its output against the workload's.

A tracer that drops events (an eBPF ring buffer that overflowed) is fast for the
wrong reason, so a per-event row writes its trace to a file instead of /dev/null
(``-o TRACE``) and the calls in it are counted after the timed run:

* the expected counts are the workload's own, from the ``strace -f -c`` table of
  the same instance (``workloads.count_syscalls``), for the syscalls the workload
  makes a known number of times (``Workload.counted``: its loop's calls; futex and
  the like vary from run to run) and that the row traces (``Tracer.only``);
  library-call workloads give theirs from their source (``Workload.known_calls``);
* a run whose counts differ is *invalid*: report.py never turns it into a figure.

Formats: ``text`` (strace's lines: an ``<unfinished ...>`` call counts once, its
``<... resumed>`` half not at all; ``---``/``+++`` lines are not calls), ``json``
(pytrace's records of type ``syscall``), ``ltrace`` (ltrace's and pyltrace's library-call
lines), ``usdt`` (pyltrace's ``usdt:PROVIDER:NAME(...)`` lines) and ``ltrace-sys`` (ltrace -S: its ``SYS_name`` lines only -- it prints the libc
wrapper's call too, ``getppid()`` next to ``SYS_getppid()``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

_PREFIX = re.compile(r"^(?:\[pid +\d+\] |\d+ +)")
_NAME = re.compile(r"([A-Za-z_][\w@.]*)\(")
_PROBE = re.compile(r"\s*(usdt:[\w.]+:[\w.]+)\(")  # (after -n's indentation)


def count_calls(path: Path, fmt: str) -> Counter[str]:
    """Calls per name in one output file of format ``fmt`` (text, json, ltrace)."""
    counts: Counter[str] = Counter()
    with path.open(errors="replace") as f:
        if fmt == "json":
            for line in f:
                try:
                    rec = json.loads(line)
                except ValueError:
                    continue
                if rec.get("type") == "syscall":
                    counts[rec.get("name", "?")] += 1
            return counts
        for line in f:
            body = _PREFIX.sub("", line, count=1)
            if body.startswith(("---", "+++", "<...")):
                continue
            m = (_PROBE if fmt == "usdt" else _NAME).match(body)
            if m is None:
                continue
            name = m.group(1)
            if fmt.startswith("ltrace") and name.startswith("SYS_") != (fmt == "ltrace-sys"):
                continue
            counts[name.removeprefix("SYS_") if fmt == "ltrace-sys" else name] += 1
    return counts


def check(produced: Counter[str], expected: dict[str, int]) -> str:
    """"" if every expected count was met exactly, else what is wrong (the run is then invalid)."""
    wrong = [f"{produced.get(name, 0):,} of {want:,} {name}" for name, want in sorted(expected.items())
             if produced.get(name, 0) != want]
    return "" if not wrong else "events missing or extra: printed " + ", ".join(wrong)
