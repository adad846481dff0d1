"""Two tracers with different printing options in one process print what strace prints for each.

The options that change how arguments print (-s, -x/-xx, -X, -y, -v, -e verbose=...) live in one
printing context per tracer (pytrace/decode/printer.py), handed to every decoder; nothing is a
module global.  Two in-process traces run at the same time here, each with its own options, and
each one's lines are compared with real strace 6.1's for the same options.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from pathlib import Path

import pytrace
from pytrace.structured.types import Syscall

OPTION_SETS = (
    ("-X", "verbose", "-s", "4"),
    ("-xx", "-y"),
)
NAMES = ("openat", "read", "write")


def _same_pipe(line: str) -> str:
    """stdin is a pipe whose inode differs between runs: ``read(0<pipe:[N]>`` (hex under -xx)."""
    return re.sub(r"^read\(0<[^>]*>", "read(0<PIPE>", line)


def _strace_lines(program: Path, out_file: Path, options: tuple[str, ...], byte: bytes, log: Path) -> list[str]:
    subprocess.run(["strace", "-o", str(log), "-e", "trace=" + ",".join(NAMES), *options, str(program), str(out_file)],
                   input=byte, stdout=subprocess.DEVNULL, check=False, timeout=60)
    lines = []
    for line in log.read_text().splitlines():
        if line.startswith(("+++", "---")):
            continue
        lines.append(_same_pipe(re.sub(r"\)\s+= ", ") = ", line)))
    out_file.unlink(missing_ok=True)
    return lines


def test_two_tracers_with_different_options_print_like_strace(programs: dict[str, Path], tmp_path: Path) -> None:
    program = programs["blocked_read"]
    files = [tmp_path / f"out{i}.txt" for i in range(len(OPTION_SETS))]
    expected = [_strace_lines(program, f, opts, b"ab"[i:i + 1], tmp_path / f"strace{i}.log")
                for i, (f, opts) in enumerate(zip(files, OPTION_SETS, strict=True))]
    pipes = [os.pipe() for _ in OPTION_SETS]
    traces = [pytrace.trace([str(program), str(f)], syscalls=set(NAMES), follow_forks=False,
                            strace_options=list(opts), stdin=r, stdout=subprocess.DEVNULL)
              for f, opts, (r, _w) in zip(files, OPTION_SETS, pipes, strict=True)]
    results: list[list[object]] = [[] for _ in OPTION_SETS]
    for tr in traces:
        tr.start()
    workers = [threading.Thread(target=lambda i=i: results[i].extend(traces[i])) for i in range(len(traces))]
    for w in workers:
        w.start()
    # Both programs are now blocked in read(0) under their own tracer thread: both tracers are live at once.
    for i, (_r, w_end) in enumerate(pipes):
        os.write(w_end, b"ab"[i:i + 1])
    for w in workers:
        w.join(timeout=60)
    for r, w_end in pipes:
        os.close(r)
        os.close(w_end)
    for events, want, opts in zip(results, expected, OPTION_SETS, strict=True):
        got = [_same_pipe(e.line) for e in events if isinstance(e, Syscall)]
        assert got == want, f"options {opts}"
    # the options really changed the text: each set's own spelling is in its trace and not in the other's
    assert any("/* AT_FDCWD */" in line for line in expected[0]) and not any("/* AT_FDCWD */" in line for line in expected[1])
    assert any(line.startswith("write(3<") for line in expected[1])


def test_printers_built_from_different_options_do_not_share_state() -> None:
    """Decoding objects built in one process keep their own printers, whatever order they are used in."""
    from pytrace.decode.decoding import Decoding, qualifier_sets
    from pytrace.decode.file import open_flags
    from pytrace.decode.printer import PrintOptions

    plain = Decoding(PrintOptions())
    raw = Decoding(PrintOptions(style="raw", max_strlen=3, xflag=2), qualifier_sets([("verbose", "none")]))
    verbose = Decoding(PrintOptions(style="verbose", verbose=True))
    flags = 0o2000000 | 0o100 | 1  # O_WRONLY|O_CREAT|O_CLOEXEC
    for _ in range(2):  # interleaved, twice: nothing one builds or uses leaks into another
        assert open_flags(plain.printer, flags) == "O_WRONLY|O_CREAT|O_CLOEXEC"
        assert open_flags(raw.printer, flags) == "0x80041"
        assert open_flags(verbose.printer, flags) == "0x80041 /* O_WRONLY|O_CREAT|O_CLOEXEC */"
        assert plain.printer.quote(b"abc") == '"abc"' and raw.printer.quote(b"abc") == '"\\x61\\x62\\x63"'
        assert plain.printer.opts.max_strlen == 32 and raw.printer.opts.max_strlen == 3
