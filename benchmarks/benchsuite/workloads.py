"""The workloads (W0-W8): how to build them, how to run them at a given size, how many calls they make.

Every C workload takes its size on the command line, so the same binary runs
at full size, at the reduced size a slow tracer (ltrace) is given, and at the
tiny size of the smoke test.  W0 (``true``) is not a benchmark of its own: it
measures each tracer's fixed start-up and tear-down cost, which is subtracted
to get the steady-state cost per syscall (see report.py).

W1-W5 measure syscall tracers (their unit is the syscall); W6 measures
library-call tracers (ltrace, pyltrace: its unit is the library call); W8
USDT tracers (pyltrace -e usdt:, bpftrace usdt:: its unit is the probe hit).  A
tracer row says which units it traces (``Tracer.traces``) and runs only on
the workloads of those units, plus W0.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

SOURCES_DIR = Path(__file__).resolve().parents[1] / "workloads"

#: W3 opens, stats and reads this file (made in the build directory, so the suite needs nothing else).
W3_DATA_NAME = "w3_data.txt"
W3_DATA_SIZE = 4096

#: Threads of W5 and W7.
W5_THREADS = 4

#: What a workload's per-call figures count (``Workload.unit``, ``Tracer.traces``).
SYSCALL = "syscall"
LIBCALL = "library call"
USDT = "USDT probe hit"
#: The units counted per call by the tracer itself rather than by strace -c (``Workload.lib_calls``).
CALL_UNITS = (LIBCALL, USDT)

#: gcc flags of every workload; a workload may add its own (``Workload.cflags``).
CFLAGS = ("-O2", "-pthread")


class WorkloadError(RuntimeError):
    """A workload could not be built or does not run untraced: nothing can be measured."""


@dataclass(frozen=True)
class Workload:
    """One workload: ``argv(build_dir, size, tiny)`` gives its command line; size None = not scalable."""

    id: str
    title: str  # "{n}" is replaced by the size, formatted with thousands separators
    source: str | None  # stem of benchmarks/workloads/*.c, None for existing programs
    full_size: int | None
    tiny_size: int | None
    argv: Callable[[Path, int | None, bool], list[str]]
    what: str  # one line for the README/report: why this workload is there
    #: A not-scalable workload with a smaller variant (its tiny argv) for rows run at reduced size
    #: says here what the reduction is; "" = none.
    reduced: str = ""
    #: What the per-call figures of this workload count: SYSCALL (counted with strace -c) or LIBCALL.
    unit: str = SYSCALL
    #: Library calls the program makes at a size (from its source, checked against ltrace -c and
    #: pyltrace -c by the smoke test): counting them with ltrace at full size would cost as much as
    #: measuring it.  None = not a library-call workload.
    lib_calls: Callable[[int | None], int] | None = None
    #: gcc flags added to CFLAGS for this workload.
    cflags: tuple[str, ...] = ()
    #: Syscalls made a fixed number of times (the loop's, with those of the start-up): a per-event
    #: row must print exactly as many as ``strace -f -c`` counted (events.py), else its run is invalid.
    counted: tuple[str, ...] = ()
    #: Library-call workloads: name -> calls at a size (the per-event check of the library-call rows).
    known_calls: Callable[[int | None], dict[str, int]] | None = None
    #: The program times its own syscall loop (loop_clock.h): the "inside the traced program" figure.
    loop_timed: bool = False

    def size(self, tiny: bool, scale: float = 1.0) -> int | None:
        """Loop count for this run: full or tiny size times ``scale`` (never below 1)."""
        base = self.tiny_size if tiny else self.full_size
        if base is None:
            return None
        return max(1, round(base * scale))

    def describe(self, size: int | None) -> str:
        return self.title.replace("{n}", f"{size:,}" if size is not None else "?")


def _true_path() -> str:
    return shutil.which("true") or "/bin/true"


def _find_argv(build: Path, size: int | None, tiny: bool) -> list[str]:
    # The tiny variant stays a real run of find over a real tree, just a shallow one.
    depth = ["-maxdepth", "2"] if tiny else []
    return [shutil.which("find") or "/usr/bin/find", "/usr/lib", *depth, "-name", "*.so"]


WORKLOADS: list[Workload] = [
    Workload(
        "W0", "`true` (start-up only)", None, None, None,
        lambda b, n, t: [_true_path()],
        "each tracer's fixed cost (start, exec, exit); subtracted from the others for the steady state",
        lib_calls=lambda n: 0,  # true returns from main at once: ltrace -c and pyltrace -c count 0 calls
    ),
    Workload(
        "W1", "{n} getppid()", "w1_getppid", 200_000, 200,
        lambda b, n, t: [str(b / "w1_getppid"), str(n)],
        "the cheapest syscall: pure per-stop cost of the tracer",
        counted=("getppid",),
        loop_timed=True,
    ),
    Workload(
        "W2", "{n} one-byte reads of /dev/zero", "w2_read_zero", 200_000, 200,
        lambda b, n, t: [str(b / "w2_read_zero"), str(n)],
        "a call whose buffer the tracer must fetch from the tracee and quote",
        counted=("read",),
        loop_timed=True,
    ),
    Workload(
        "W3", "{n} x (openat, fstat, read, close) + CPU work", "w3_file_mix", 2_000, 5,
        lambda b, n, t: [str(b / "w3_file_mix"), str(n), str(b / W3_DATA_NAME)],
        "file syscalls with decoded structures, diluted by ~20 us of computation per iteration",
        counted=("openat", "fstat", "newfstatat", "read", "close"),
    ),
    Workload(
        "W4", "find /usr/lib -name '*.so'", None, None, None,
        _find_argv,
        "a real program: getdents64/newfstatat/openat-heavy directory walk",
        reduced="-maxdepth 2",
        counted=("getdents64", "newfstatat", "openat"),
    ),
    Workload(
        "W5", f"{W5_THREADS} threads, {{n}} syscalls (getppid + 1-byte read)", "w5_threads", 200_000, 200,
        lambda b, n, t: [str(b / "w5_threads"), str(W5_THREADS), str(n)],
        "several threads stopping at once: ptrace serialises them through one tracer",
        counted=("getppid", "read"),
        loop_timed=True,
    ),
    Workload(
        "W6", "{n} labs() library calls", "w6_labs", 100_000, 1_000,
        lambda b, n, t: [str(b / "w6_labs"), str(n)],
        "the cheapest library call, through the PLT: pure per-call cost of a library-call tracer",
        unit=LIBCALL,
        lib_calls=lambda n: (n or 0) + 1,  # n labs() + the strtol() that reads n
        # No builtin (gcc would inline labs()), no IBT PLT (.plt.sec: ltrace 0.7.3 would see only the
        # first call), lazy binding (ltrace 0.7.3 sees nothing with -z now): every call goes through
        # the classic PLT stub into libc, as both tracers expect.
        cflags=("-fno-builtin", "-fcf-protection=none", "-Wl,-z,lazy"),
        known_calls=lambda n: {"labs": n or 0},
    ),
    Workload(
        "W7", f"{W5_THREADS} threads, {{n}} syscalls in all (getppid + 1-byte read)", "w5_threads",
        10_000_000, 400,
        lambda b, n, t: [str(b / "w5_threads"), str(W5_THREADS), str(n)],
        "sustained load from several threads: a per-event tracer must keep up or hold them back "
        "(the eBPF backend's backpressure), never drop events",
        counted=("getppid", "read"),
        loop_timed=True,
    ),
    Workload(
        "W8", "{n} hits of a USDT probe", "w8_usdt", 1_000_000, 1_000,
        lambda b, n, t: [str(b / "w8_usdt"), str(n)],
        "a USDT probe (a nop and a note) in a loop: pure per-hit cost of a USDT tracer",
        unit=USDT,
        lib_calls=lambda n: n or 0,  # (the figures' unit: probe hits)
        known_calls=lambda n: {"usdt:bench:hit": n or 0},
    ),
]


def by_id() -> dict[str, Workload]:
    return {w.id: w for w in WORKLOADS}


def build(build_dir: Path, sources: Path = SOURCES_DIR) -> None:
    """Compile every workload with gcc -O2 -pthread + its cflags (in parallel) and write W3's data file.

    gcc is required: the C workloads are the point of the suite, so its absence is an error.
    """
    if shutil.which("gcc") is None:
        raise WorkloadError("gcc is required to build benchmarks/workloads/*.c")
    build_dir.mkdir(parents=True, exist_ok=True)
    chosen = [w for w in WORKLOADS if w.source]

    def compile_one(w: Workload) -> tuple[str, subprocess.CompletedProcess[str]]:
        stem = w.source
        assert stem is not None
        cmd = ["gcc", *CFLAGS, *w.cflags, "-o", str(build_dir / stem), str(sources / f"{stem}.c")]
        return stem, subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(compile_one, chosen))
    errors = [f"{stem}: {r.stderr.strip()}" for stem, r in results if r.returncode != 0]
    if errors:
        raise WorkloadError("building the workloads failed:\n" + "\n".join(errors))
    # Printable text, so a tracer that quotes the data does the same work on every line.
    line = b"pytrace benchmark data line: the quick brown fox jumps over the lazy dog\n"
    (build_dir / W3_DATA_NAME).write_bytes((line * (W3_DATA_SIZE // len(line) + 1))[:W3_DATA_SIZE])


_TOTAL_RE = re.compile(r"^\s*100\.00\s+\S+\s+\S+\s+(\d+)\s+(?:\d+\s+)?total\s*$", re.M)


_ROW_RE = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$", re.M)


def count_syscalls(argv: list[str], timeout: float) -> tuple[int | None, str]:
    """Syscalls the workload makes, counted once with ``strace -f -c`` (threads included).

    Returns (count, how).  Without strace the count is unknown and the
    per-syscall columns of the report stay empty rather than guessed.
    """
    total, how, _ = count_syscalls_by_name(argv, timeout)
    return total, how


def count_syscalls_by_name(argv: list[str], timeout: float,
                           env: dict[str, str] | None = None) -> tuple[int | None, str, dict[str, int]]:
    """count_syscalls, with the calls per syscall name (the expected counts of events.py).

    ``env``: the one the timed runs get (a loop-timed workload writes its loop's time, which
    costs it a few calls more when asked to).
    """
    strace = shutil.which("strace")
    if strace is None:
        return None, "unknown (strace not installed)", {}
    with tempfile.NamedTemporaryFile("r", suffix=".strace-c") as out:
        run = subprocess.run(
            [strace, "-f", "-c", "-o", out.name, *argv],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            timeout=timeout, check=False, text=True, env=env,
        )
        text = Path(out.name).read_text()
    m = _TOTAL_RE.search(text)
    if run.returncode != 0 or m is None:
        return None, f"unknown (strace -f -c failed: {run.stderr.strip()[-200:]})", {}
    names = {name: int(calls) for calls, name in _ROW_RE.findall(text) if name != "total"}
    return int(m.group(1)), "strace -f -c", names
