"""ioctl requests that strace 6.1's own test suite showed pytrace printing differently, against real strace.

Why: the sweep over strace's tests/ioctl_*.c found a handful of rules pytrace lacked, each
common in real programs: a NULL pointer argument of a request family pytrace shows only as a
pointer prints ``NULL`` (gpio, hdio, ptp, v4l2, sg, kd, rtc, uffdio...), KIOCSOUND/KDMKTONE carry
a ``/* 440 Hz */`` comment (none under -X raw), the watchdog requests print ``[123]`` or nothing,
INOTIFY_IOC_SETNEXTWD's argument is a plain int, FS_IOC_FIEMAP reads all 32 bytes of struct
fiemap (so a structure one byte short of readable prints as its address), an unknown evdev
number inside -X verbose's request comment loses its own ``/* ABS_??? */``, and the
userfaultfd and rtc families are decoded field by field (``{api=0xaa, features=0 =>
features=...}``, ``{param=RTC_PARAM_FEATURES, uvalue=1<<RTC_FEATURE_ALARM|..., index=3}``).

tests/programs/ioctl_suite_misc.c calls each request on fd -1 with valid, NULL and
unreadable arguments (buffers that end at an unmapped page), and the userfaultfd requests
on a real descriptor too.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential


def _trace(tracer: str, extra: list[str], cmd: list[str], out: Path) -> str:
    result = run_tracer(tracer, [*extra, "-e", "trace=ioctl", "-o", str(out)], cmd, cwd=out.parent)
    assert result.returncode == 0, decode(result.stderr)
    return normalise(out.read_text())


@pytest.mark.parametrize("extra", [[], ["-v"], ["-X", "verbose"], ["-X", "raw"]],
                         ids=["plain", "verbose", "xverbose", "xraw"])
def test_ioctl_suite_cases_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    cmd = [str(programs["ioctl_suite_misc"])]
    expected = _trace("strace", extra, cmd, tmp_path / "strace.out")
    actual = _trace("pytrace", extra, cmd, tmp_path / "pytrace.out")
    wanted = {
        (): ("ioctl(-1, GPIO_GET_CHIPINFO_IOCTL, NULL)", "ioctl(-1, KIOCSOUND, 440 /* 2711 Hz */)",
             "ioctl(-1, KDMKTONE, 57005<<16|64206 /* 18 Hz, 57005 ms */)", "ioctl(-1, WDIOC_KEEPALIVE)",
             "ioctl(-1, WDIOC_SETTIMEOUT, [123])", "ioctl(-1, INOTIFY_IOC_SETNEXTWD, -1159983635)",
             "EVIOCGABS(0xe /* ABS_??? */), NULL)",
             "ioctl(-1, RTC_SET_TIME, {tm_sec=1, tm_min=2, tm_hour=3, tm_mday=4, tm_mon=5, tm_year=126, ...})",
             "{param=RTC_PARAM_FEATURES, uvalue=1<<RTC_FEATURE_ALARM|1<<RTC_FEATURE_CORRECTION|",
             "ioctl(3, UFFDIO_API, {api=0xaa, features=0 => features=", "ioctl(3, UFFDIO_COPY, {dst="),
        ("-X", "verbose"): ("/* EVIOCGABS(0xe) */, NULL)",),
        ("-v",): ("tm_wday=6, tm_yday=7, tm_isdst=-1}",),
    }
    for text in wanted.get(tuple(extra), ()):
        assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, "\n".join(
        difflib.unified_diff(expected.splitlines(), actual.splitlines(), "strace", "pytrace", lineterm=""))
