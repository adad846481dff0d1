"""ioctl arguments of the loop, block, perf, kvm, random and fs-freeze families, against strace 6.1.

Why: strace prints these requests' third argument by what it means, not as a bare hex word:
nothing at all for requests that take none (``BLKFLSBUF``, ``LOOP_CLR_FD``, ``FIFREEZE``,
``RNDCLEARPOOL``), a number (``LOOP_SET_BLOCK_SIZE, 4096``), a descriptor (``LOOP_SET_FD``,
``-y`` decorates it), a constant (``KVM_CHECK_EXTENSION, KVM_CAP_IRQCHIP``,
``PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP``), the pointed-to value (``[1]``, a u64 pair,
``struct rand_pool_info``, ``struct fstrim_range``), or, for requests that return data, the
value at exit (the address when the call failed).  tests/programs/ioctl_args.c issues each on
/dev/null, on its own file and on -1, where every one fails harmlessly.  Built with -m32 too:
requests whose size field holds a pointer or size_t (BLKBSZSET, PERF_EVENT_IOC_SET_FILTER) have
other codes for an i386 tracee, and BLKRAGET/BLKGETSIZE return a 32-bit long there.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import build_m32, decode, normalise, run_tracer

pytestmark = pytest.mark.differential


def _trace(tracer: str, args: list[str], program: Path, out: Path) -> str:
    result = run_tracer(tracer, [*args, "-e", "trace=ioctl", "-o", str(out)], [str(program)])
    assert result.returncode == 0, decode(result.stderr)
    return normalise(out.read_text())


@pytest.mark.parametrize(
    "extra", [[], ["-y"], ["-X", "verbose"], ["-X", "raw"], ["-s", "3"]],
    ids=["plain", "decode-fds", "xverbose", "xraw", "short-strings"],
)
def test_ioctl_arguments_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    expected = _trace("strace", extra, programs["ioctl_args"], tmp_path / "strace.out")
    actual = _trace("pytrace", extra, programs["ioctl_args"], tmp_path / "pytrace.out")
    if not extra:
        for text in ("ioctl(3, BLKFLSBUF) ", "ioctl(3, LOOP_CLR_FD) ", "ioctl(3, LOOP_SET_FD, 4) ",
                     "ioctl(3, KVM_CHECK_EXTENSION, KVM_CAP_IRQCHIP) ",
                     "ioctl(3, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) ", "ioctl(-1, FIFREEZE) ",
                     "ioctl(3, RNDCLEARPOOL) ", "ioctl(3, BLKDISCARD, [4096, 65536]) ",
                     'buf="hello"}', "ioctl(-1, FITRIM, {start=0x1000, len=1048576, minlen=512}) "):
            assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, "\n".join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "strace", "pytrace", lineterm=""))


def test_ioctl_arguments_i386_like_strace(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[1] / "programs" / "ioctl_args.c"
    program = tmp_path / "ioctl_args32"
    build_m32(source, program, "-g")
    expected = _trace("strace", [], program, tmp_path / "strace.out")
    actual = _trace("pytrace", [], program, tmp_path / "pytrace.out")
    for text in ("ioctl(3, BLKBSZSET, NULL) ", 'ioctl(3, PERF_EVENT_IOC_SET_FILTER, "cpu == 1") '):
        assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, "\n".join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "strace", "pytrace", lineterm=""))
