"""ioctl request names, the whole generated table, against real strace 6.1 on both personalities.

Why: strace names ~3,300 requests per personality from tables generated from a kernel tree, and
several names can share a code ("A or B"); which names exist depends on the personality (i386's
FS_IOC32_GETFLAGS is FS_IOC_GETFLAGS's code, and strace prints only the compat name there;
PPPIOCGIDLE is PPPIOCGIDLE64 on x86_64 and PPPIOCGIDLE32 on i386, and strace prints only those).
tests/programs/ioctl_names.c calls ioctl(-1, CODE, 0) for every code in a file: here every
code of pytrace's x86_64 and i386 tables, the codes whose names strace builds from the number
(MIXER_READ(n), EVIOCGBIT(ev, len), EVIOCGABS(abs), HIDIOCGRAWNAME(len), ...), a few ZFS
codes and a fixed pseudo-random sample.  Built with -m64 and -m32, traced by both tracers; the
request text of every line must be the same, except the few documented below.  Only the request
is compared: what follows it (``NULL`` vs ``0`` for decoders pytrace lacks) is not about names.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import build_m32, decode, run_tracer

from pytrace.tables import ioctls

pytestmark = pytest.mark.differential

SOURCE = Path(__file__).resolve().parents[1] / "programs" / "ioctl_names.c"
_LINE = re.compile(r"ioctl\(-1, (.*?)(?:, [^,(){}\[\]]*)?\) += -1 EBADF \(Bad file descriptor\)")

_ZFS = [(ord("Z") << 8) + n for n in (0, 1, 2, 0x40)]  # ZFS_IOC_POOL_CREATE, ...
# Codes whose names differ, and why (checked both ways: a fixed one must leave this list).
KNOWN = {
    # OpenZFS's headers are in no Debian main package (libzfslinux-dev is in contrib).
    **{("x86_64", c): "ZFS" for c in _ZFS}, **{("i386", c): "ZFS" for c in _ZFS},
    # struct map_benchmark grew in 6.1.y stable (linux-headers-6.1.0-53 is 6.1.187); strace's tree is 6.1.
    ("x86_64", 0xC0886401): "DMA_MAP_BENCHMARK", ("i386", 0xC0886401): "DMA_MAP_BENCHMARK",
    # struct v4l2_event's i386 size in media/v4l2-subdev.h: 0x78 here, strace's table has 0x80.
    ("i386", 0x40787602): "V4L2_DEVICE_NOTIFY_EVENT",
}


def _codes() -> list[int]:
    codes = set(ioctls.X86_64) | set(ioctls.I386) | set(_ZFS)
    read, write = 2 << 30, 1 << 30
    for nr in range(0x100):  # evdev's and the mixer's numbered names
        codes |= {read | (96 << 16) | (ord("E") << 8) | nr, write | (24 << 16) | (ord("E") << 8) | nr}
    codes |= {read | (4 << 16) | (ord("M") << 8) | nr for nr in range(32)}
    codes |= {write | (4 << 16) | (ord("M") << 8) | nr for nr in range(32)}
    codes |= {read | (256 << 16) | (ord("H") << 8) | nr for nr in range(0x20)}
    codes |= {(3 << 30) | (64 << 16) | (ord("H") << 8) | 6, (3 << 30) | (64 << 16) | (ord("H") << 8) | 7}
    codes |= {read | (80 << 16) | (ord("U") << 8) | 0x2C, read | (128 << 16) | (ord("j") << 8) | 0x13,
              write | (64 << 16) | (ord("k") << 8)}
    rng = random.Random(61)
    codes |= {rng.getrandbits(32) for _ in range(300)}
    return sorted(codes)


def _requests(tracer: str, program: Path, codes_file: Path, out: Path) -> list[str]:
    result = run_tracer(tracer, ["-e", "trace=ioctl", "-o", str(out)], [str(program), str(codes_file)])
    assert result.returncode == 0, decode(result.stderr)
    lines = out.read_text().splitlines()
    assert lines[-1] == "+++ exited with 0 +++", lines[-1]
    requests = []
    for line in lines[:-1]:
        m = _LINE.fullmatch(line)
        assert m, f"{tracer}: unexpected line {line!r}"
        requests.append(m[1])
    return requests


@pytest.mark.parametrize("personality", ["x86_64", "i386"])
def test_ioctl_request_names_like_strace(personality: str, programs: dict[str, Path], tmp_path: Path) -> None:
    if personality == "x86_64":
        program = programs["ioctl_names"]
    else:
        program = tmp_path / "ioctl_names32"
        build_m32(SOURCE, program)
    codes = _codes()
    codes_file = tmp_path / "codes"
    codes_file.write_text("".join(f"{c:#x}\n" for c in codes))
    expected = _requests("strace", program, codes_file, tmp_path / "strace.out")
    actual = _requests("pytrace", program, codes_file, tmp_path / "pytrace.out")
    assert len(expected) == len(actual) == len(codes)
    differ = {code: (theirs, ours) for code, theirs, ours in zip(codes, expected, actual, strict=True) if theirs != ours}
    known = {code for (arch, code) in KNOWN if arch == personality}
    unexpected = {f"{code:#x}": pair for code, pair in differ.items() if code not in known}
    assert not unexpected, f"{len(unexpected)} request names differ (strace, pytrace): {unexpected}"
    assert set(differ) == known, f"known differences now match, update KNOWN: {sorted(known - set(differ))}"
    by_code = dict(zip(codes, expected, strict=True))
    if personality == "i386":  # the aliases of the brief, as strace prints them
        assert by_code[0x80046601] == "FS_IOC32_GETFLAGS"
        assert by_code[0x8008743F] == "PPPIOCGIDLE32"
        assert by_code[0xC0105500] == "USBDEVFS_CONTROL32"
    else:
        assert by_code[0x80086601] == "FS_IOC_GETFLAGS"
        assert by_code[0x8010743F] == "PPPIOCGIDLE64"
