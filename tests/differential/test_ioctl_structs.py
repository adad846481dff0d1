"""ioctl requests with a structure argument, against real strace 6.1.

Why: strace prints these requests' argument field by field, not as a hex word: struct
loop_info / loop_info64 / loop_config (LOOP_SET_STATUS, LOOP_GET_STATUS64, LOOP_CONFIGURE),
struct fsxattr, inode flags and struct fiemap (FS_IOC_FSGETXATTR, FS_IOC_SETFLAGS,
FS_IOC_FIEMAP with ``{...} => {...}``), struct blkpg_ioctl_arg and blk_user_trace_setup (BLKPG,
BLKTRACESETUP, printed half at entry and half at exit), perf's QUERY_BPF and MODIFY_ATTRIBUTES,
KVM's memory region, registers and the descriptors KVM_CREATE_VM/VCPU return, and the evdev
family (EVIOCGBIT bit sets, EVIOCGABS/EVIOCSABS absinfo, keycodes, ids, names), whose request
names embed a constant (``EVIOCGBIT(EV_KEY, 96)``, ``EVIOCSABS(ABS_Y)``).

tests/programs/ioctl_structs.c runs the success paths the machine allows (a loop device bound
to a file in the test's directory, the fs requests on a file there, a KVM VM running one HLT)
and every request on -1 with unusual values.  evdev has no device here, so its answers are
shown with ``-e inject=ioctl:retval=8``: the calls do not run, and both tracers decode the
buffers the program filled in as the kernel's answer.  Values that differ between two runs
(the loop device's number, the backing file's inode, the file's physical extent, the guest
memory address) are blanked in both outputs.
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

pytestmark = pytest.mark.differential

_VARYING = (
    (re.compile(r"lo_inode=\d+"), "lo_inode=INODE"),
    (re.compile(r"fe_physical=\d+"), "fe_physical=PHYS"),
    (re.compile(r"userspace_addr=0x[0-9a-f]+"), "userspace_addr=ADDR"),
    (re.compile(r"/dev/loop\d+"), "/dev/loopN"),
    (re.compile(r"((?:LOOP_CTL_GET_FREE|0x4c82)\) += )\d+"), r"\1N"),
)


_REAL_FD_LINE = re.compile(r"^ioctl\(\d.*lo_number=.*$", re.M)
_LO_NUMBER = re.compile(r"lo_number=\d+")


def _trace(tracer: str, args: list[str], cmd: list[str], cwd: Path, out: Path) -> str:
    result = run_tracer(tracer, [*args, "-e", "trace=ioctl", "-o", str(out)], cmd, cwd=cwd)
    assert result.returncode == 0, decode(result.stderr)
    text = out.read_text()
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    # lo_number of the real device, on the lines of a real descriptor (-X raw names no request).
    text = _REAL_FD_LINE.sub(lambda m: _LO_NUMBER.sub("lo_number=N", m[0]), text)
    return normalise(text)


def _diff(expected: str, actual: str) -> str:
    return "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "strace", "pytrace",
                                          lineterm=""))


@pytest.mark.parametrize("extra", [[], ["-v"], ["-X", "raw"], ["-y"], ["-s", "4"]],
                         ids=["plain", "verbose", "xraw", "decode-fds", "short-strings"])
def test_ioctl_structs_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    cmd = [str(programs["ioctl_structs"])]
    expected = _trace("strace", extra, cmd, tmp_path, tmp_path / "strace.out")
    actual = _trace("pytrace", extra, cmd, tmp_path, tmp_path / "pytrace.out")
    if not extra:
        for text in (
            "ioctl(-1, LOOP_SET_STATUS, {lo_number=3, lo_offset=0x200, lo_encrypt_type=LO_CRYPT_XOR, ",
            'LOOP_GET_STATUS64, {lo_offset=0, lo_number=N, lo_flags=LO_FLAGS_AUTOCLEAR, '
            'lo_file_name="loop-backing.img", ...}) = 0',
            "LOOP_CONFIGURE, {fd=5, block_size=512, info={",
            "FS_IOC_FSGETXATTR, {fsx_xflags=", "FS_IOC_GETFLAGS, [FS_EXTENT_FL]) = 0",
            "FS_IOC_FIEMAP, {fm_start=0, fm_length=18446744073709551615, fm_flags=FIEMAP_FLAG_SYNC, "
            "fm_extent_count=4} => {fm_flags=FIEMAP_FLAG_SYNC, fm_mapped_extents=1, ...}) = 0",
            "BLKPG, {op=BLKPG_DEL_PARTITION, ", "BLKTRACESETUP, {act_mask=65535, ",
            "PERF_EVENT_IOC_QUERY_BPF, {ids_len=4, ...}", "PERF_EVENT_IOC_MODIFY_ATTRIBUTES, {type=PERF_TYPE_SOFTWARE",
            "KVM_SET_REGS, {rax=0, ..., rsp=0, rbp=0, ..., rip=0x1000, rflags=0x2}) = 0",
            "KVM_GET_SREGS, {cs={base=", "KVM_RUN, 0) ",
            "EVIOCGBIT(EV_KEY, 96)", "EVIOCSABS(ABS_Y), {value=5, minimum=4294967196, ...}",
        ):
            assert text in expected, (
                f"the program no longer exercises {text!r} (the loop and KVM success paths need root, "
                f"/dev/loop-control and /dev/kvm):\n{expected}")
    assert actual == expected, _diff(expected, actual)


@pytest.mark.parametrize("extra", [[], ["-v"], ["-X", "raw"], ["-s", "2"]],
                         ids=["plain", "verbose", "xraw", "short-strings"])
def test_evdev_answers_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    cmd = [str(programs["ioctl_structs"]), "evdev"]
    args = [*extra, "-e", "inject=ioctl:retval=8"]
    expected = _trace("strace", args, cmd, tmp_path, tmp_path / "strace.out")
    actual = _trace("pytrace", args, cmd, tmp_path, tmp_path / "pytrace.out")
    if not extra:
        for text in ("EVIOCGBIT(0, 96), [EV_KEY EV_ABS EV_MSC 0x1d /* EV_??? */]) = 8 (INJECTED)",
                     "EVIOCGBIT(EV_KEY, 96), [KEY_ESC KEY_A KEY_D KEY_C ...])",
                     'EVIOCGNAME(16), "Test Pad"', "EVIOCGID, {bustype=3, vendor=1133, product=50475, version=273}",
                     "EVIOCGKEYCODE, [30, KEY_A]", "EVIOCGMTSLOTS(16), {code=ABS_MT_POSITION_X, values=[1, -2, 3]}"):
            assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, _diff(expected, actual)
