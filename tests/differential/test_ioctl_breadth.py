"""ioctl request names across many families, against real strace 6.1.

Why: pytrace's request names come from a table generated from the uapi headers
(scripts/gen_ioctls.py); this runs tests/programs/ioctl_breadth.c, which issues
about fifty requests from different families (block, fs, loop, ALSA, evdev, KVM,
random, RTC, VT/KD, cdrom, fb, hdreg, watchdog, tun, dma-buf, VFIO, vhost, usbfs,
ppdev, btrfs, uinput, MTD, SG, userfaultfd, socket SIOC*), a code two names share
(printed ``A or B``), a number strace names specially (``MIXER_READ(1) or ...``)
and unnamed codes (``_IOC(...)``), and compares both tracers' output.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential


def _trace(tracer: str, program: Path, out: Path) -> str:
    result = run_tracer(tracer, ["-e", "trace=ioctl", "-o", str(out)], [str(program)])
    assert result.returncode == 0, decode(result.stderr)
    return normalise(out.read_text())


def test_ioctl_names_like_strace(programs: dict[str, Path], tmp_path: Path) -> None:
    expected = _trace("strace", programs["ioctl_breadth"], tmp_path / "strace.out")
    actual = _trace("pytrace", programs["ioctl_breadth"], tmp_path / "pytrace.out")
    assert expected.count("ioctl(") >= 50, expected
    for text in ("SNDCTL_TMR_START or TCSETS", "MIXER_READ(1) or MEMGETINFO", "BLKGETSIZE64", "KVM_RUN",
                 "_IOC(_IOC_READ, 0x99, 0x1, 0x4)"):
        assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, "\n".join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "strace", "pytrace", lineterm=""))
