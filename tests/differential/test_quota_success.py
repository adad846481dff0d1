"""quotactl(2) and quotactl_fd(2) on a real, loop-mounted ext4 file system, against strace 6.1.

Why: tests/differential/test_decode_ptrace_quota.py only sees failures on "/" (ENOTBLK), so the
GET commands' structures are never printed at exit.  Here the test makes a small ext4 image, mounts
it through a loop device and tests/programs/quota_ok.c runs the commands on that device:

* "real": what the kernel really answers.  This kernel has CONFIG_QUOTA but no quota format
  (CONFIG_QFMT_V2 is unset, so an image made with ``mkfs.ext4 -O quota`` refuses to mount and quotas
  cannot be turned on): Q_SYNC, Q_XQUOTASYNC and quotactl_fd's Q_SYNC succeed, the XFS statistics
  fail with ENOSYS and the per-id commands with ESRCH.
* "answers": the GET commands' buffers (if_dqblk, if_nextdqblk, if_dqinfo, the format,
  fs_quota_stat, fs_quota_statv, fs_disk_quota) are filled in by the program and the calls are
  answered by ``-e inject=quotactl:retval=0``, so both tracers decode them at exit as the kernel's
  answer, as test_ioctl_structs.py does for evdev.

The loop device's number and the stack addresses are blanked in both outputs.
"""

from __future__ import annotations

import difflib
import fcntl
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential

_LOCK = "/tmp/pytrace-quota-mount.lock"
_LOOP = re.compile(r"/dev/loop\d+")


def _run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, f"{' '.join(cmd)} failed (needs root, e2fsprogs and loop devices):\n{result.stderr}"


@pytest.fixture
def ext4_mount(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A mounted 8 MiB ext4 image: (its loop device, the mount point).  Unmounting frees the loop
    device (mount -o loop sets autoclear).  The lock only serialises loop allocation with other
    workers, so that mount's own retries do not make it flaky."""
    for tool in ("mkfs.ext4", "mount", "umount", "findmnt"):
        assert shutil.which(tool), f"{tool} is required (packages e2fsprogs, mount, util-linux)"
    image, mnt = tmp_path / "quota.img", tmp_path / "mnt"
    mnt.mkdir()
    with image.open("wb") as f:
        f.truncate(8 << 20)
    _run(["mkfs.ext4", "-q", str(image)])
    with open(_LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _run(["mount", "-o", "loop", str(image), str(mnt)])
    try:
        source = subprocess.run(["findmnt", "-n", "-o", "SOURCE", str(mnt)], capture_output=True, text=True,
                                timeout=30, check=True).stdout.strip()
        assert _LOOP.fullmatch(source), source
        yield source, mnt
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, timeout=60, check=False)


def _trace(tracer: str, args: list[str], cmd: list[str], out: Path, mnt: Path) -> str:
    result = run_tracer(tracer, [*args, "-e", "trace=quotactl,quotactl_fd", "-o", str(out)], cmd)
    assert result.returncode == 0, decode(result.stderr)
    return normalise(_LOOP.sub("/dev/loopN", out.read_text()).replace(str(mnt), "MNT"))


def _diff(expected: str, actual: str) -> str:
    return "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "strace", "pytrace",
                                          lineterm=""))


_STYLES = [[], ["-v"], ["-X", "raw"], ["-X", "verbose"], ["-e", "verbose=none"], ["-y"], ["-v", "-s", "2"]]
_IDS = ["plain", "verbose", "xraw", "xverbose", "no-structs", "decode-fds", "short-strings"]


@pytest.mark.parametrize("extra", _STYLES, ids=_IDS)
def test_quotactl_on_ext4_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path,
                                      ext4_mount: tuple[str, Path]) -> None:
    device, mnt = ext4_mount
    cmd = [str(programs["quota_ok"]), "real", device, str(mnt)]
    expected = _trace("strace", extra, cmd, tmp_path / "strace.out", mnt)
    actual = _trace("pytrace", extra, cmd, tmp_path / "pytrace.out", mnt)
    if not extra:
        for text in ('quotactl(QCMD(Q_SYNC, USRQUOTA), "/dev/loopN") = 0',
                     'quotactl(QCMD(Q_XQUOTASYNC, USRQUOTA), "/dev/loopN") = 0',
                     'quotactl(QCMD(Q_GETQUOTA, USRQUOTA), "/dev/loopN", 0, ADDR', ') = -1 ESRCH',
                     'quotactl(QCMD(Q_SETQUOTA, USRQUOTA), "/dev/loopN", 1000, {dqb_bhardlimit=2048, ',
                     "quotactl_fd(3, QCMD(Q_SYNC, USRQUOTA)) = 0"):
            assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, _diff(expected, actual)


@pytest.mark.parametrize("extra", _STYLES, ids=_IDS)
def test_quotactl_answers_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path,
                                      ext4_mount: tuple[str, Path]) -> None:
    device, mnt = ext4_mount
    cmd = [str(programs["quota_ok"]), "answers", device]
    args = [*extra, "-e", "inject=quotactl:retval=0"]
    expected = _trace("strace", args, cmd, tmp_path / "strace.out", mnt)
    actual = _trace("pytrace", args, cmd, tmp_path / "pytrace.out", mnt)
    if not extra:
        for text in ("1000, {dqb_bhardlimit=2048, dqb_bsoftlimit=1024, dqb_curspace=65536, dqb_ihardlimit=20, "
                     "dqb_isoftlimit=10, dqb_curinodes=3, ...}) = 0 (INJECTED)",
                     "dqb_curinodes=1, dqb_id=1001, ...}) = 0 (INJECTED)",
                     "{dqi_bgrace=604800, dqi_igrace=86400, dqi_flags=DQF_ROOT_SQUASH|0x8, "
                     "dqi_valid=IIF_BGRACE|IIF_IGRACE|IIF_FLAGS}) = 0 (INJECTED)",
                     "[QFMT_VFS_V1]) = 0 (INJECTED)", "{qs_version=1, ...}) = 0 (INJECTED)",
                     "{d_version=1, d_flags=FS_GROUP_QUOTA, d_fieldmask=0xc, d_id=1002, d_blk_hardlimit=400, "):
            assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, _diff(expected, actual)
