"""output.LineWriter: the eBPF backend's trace on a stream shared with the tracee goes out a whole line per write.

The backend prints after the fact while the tracee runs on, so a line written in two halves (the
entry, then the result) could be cut by the tracee's own output between the two writes; the
LineWriter holds a half line until its newline and writes the line with one write(2).
"""

from __future__ import annotations

import os

from pytrace.sinks.output import LineWriter, OutputFile, flushes_each_write


def _readable(fd: int) -> bytes:
    os.set_blocking(fd, False)
    try:
        return os.read(fd, 4096)
    except BlockingIOError:
        return b""


def test_half_lines_wait_for_their_newline_and_go_out_in_one_write() -> None:
    r, w = os.pipe()
    try:
        out = LineWriter(OutputFile(w, "pipe", None, closefd=False))
        assert not flushes_each_write(out)  # the text sink must not flush half lines out
        out.write('execve("/x", ["/x"], 0x1 /* 3 vars */')
        assert _readable(r) == b""
        os.write(w, b"TRACER: exec: No such file or directory\n")  # the tracee, meanwhile
        out.write(") = -1 ENOENT (No such file or directory)\n+++ exit")
        assert _readable(r) == (b"TRACER: exec: No such file or directory\n"
                                b'execve("/x", ["/x"], 0x1 /* 3 vars */) = -1 ENOENT (No such file or directory)\n')
        out.write("ed with 1 +++\n")
        assert _readable(r) == b"+++ exited with 1 +++\n"
        out.write("unterminated")
        out.flush()  # the end of the trace: what is left goes out
        assert _readable(r) == b"unterminated"
    finally:
        os.close(r)
        os.close(w)
