"""A 32-bit (i386) tracee: pytrace must pick the i386 syscall table from GET_SYSCALL_INFO's arch field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import build_m32, normalise, run_tracer

SOURCE = r"""
#include <unistd.h>
#include <fcntl.h>
int main(void) {
    int fd = open("/etc/hostname", O_RDONLY);
    char b[64];
    int n = read(fd, b, sizeof b);
    write(1, b, n);
    close(fd);
    getpid();
    return 3;
}
"""


@pytest.fixture(scope="module")
def m32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("m32")
    (d / "m32.c").write_text(SOURCE)
    build_m32(d / "m32.c", d / "m32", "-static")
    return d / "m32"


@pytest.mark.differential
@pytest.mark.parametrize("to_file", [True, False], ids=["o-file", "stderr"])
def test_i386_names_and_personality_notice(m32: Path, tmp_path: Path, to_file: bool) -> None:
    """Syscalls print with i386 names/numbers; the `runs in 32 bit mode` notice appears only on stderr."""
    outs = {}
    for tracer in ("strace", "pytrace"):
        out = tmp_path / f"{tracer}.txt"
        args = ["-e", "trace=openat,read,write,close,getpid,exit_group,brk"]
        if to_file:
            args += ["-o", str(out)]
        proc = run_tracer(tracer, args, [str(m32)])
        assert proc.returncode == 3
        text = out.read_text() if to_file else proc.stderr.decode()
        outs[tracer] = normalise(re.sub(r"PID=\d+", "PID=N", text))
    assert outs["pytrace"] == outs["strace"]
    assert ("runs in 32 bit mode" in outs["strace"]) is (not to_file)
