"""EVIOCSFF's struct ff_effect and KVM's struct kvm_cpuid2, against real strace 6.1.

Why: strace prints these arguments field by field (evdev_mpers.c's ff_effect_ioctl, kvm.c's
kvm_ioctl_decode_cpuid2), not as a hex word: ``{type=FF_*, id=, direction=, ...}`` and, with
``-v``, trigger, replay and the union member the type selects; ``{nent=N, entries=[...]}`` and,
with ``-v``, every entry (not cut by ``-s``).  KVM_SET_CPUID2 is printed at entry,
KVM_GET_SUPPORTED_CPUID and KVM_GET_EMULATED_CPUID at exit (their address when they fail).

tests/programs/ioctl_more.c issues EVIOCSFF on -1 (printed at entry, so no device is needed)
and the KVM requests on /dev/kvm and a real vCPU, plus unusual flags, an empty, a NULL and a
half-unmapped entry array on -1.  The host's CPUID answer is the same under both tracers (the
program pins itself to CPU 0, because leaves 0x1/0xb/0x1f carry the current CPU's APIC id).
The same program built with ``gcc -m32`` checks struct ff_effect's i386 layout (44 bytes, the
union still at offset 16, a 4-byte custom_data).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest
from helpers import build_m32, decode, normalise, run_tracer

pytestmark = pytest.mark.differential


def _trace(tracer: str, args: list[str], cmd: list[str], cwd: Path, out: Path) -> str:
    result = run_tracer(tracer, [*args, "-e", "trace=ioctl", "-o", str(out)], cmd, cwd=cwd)
    assert result.returncode == 0, decode(result.stderr)
    return normalise(out.read_text())  # addresses (pointers, and request codes under -X raw) become ADDRn


def _diff(expected: str, actual: str) -> str:
    return "\n".join(difflib.unified_diff(expected.splitlines(), actual.splitlines(), "strace", "pytrace",
                                          lineterm=""))


_EXPECTED: dict[str, tuple[str, ...]] = {
    "plain": (
        "ioctl(-1, EVIOCSFF, {type=FF_CONSTANT, id=-1, direction=16384, ...}) = -1 EBADF",
        "EVIOCSFF, {type=0x7f /* FF_??? */, id=7, direction=16384, ...})",
        "KVM_GET_SUPPORTED_CPUID, {nent=", "KVM_GET_EMULATED_CPUID, {nent=",
        "KVM_SET_CPUID2, {nent=2, entries=[...]}) = 0", "KVM_SET_CPUID2, {nent=0, entries=[]})",
        "E2BIG",
    ),
    "verbose": (
        "constant={level=-1234, envelope={attack_length=1, attack_level=2, fade_length=3, fade_level=0xabcd}}}",
        "ramp={start_level=-32768, end_level=32767, envelope=", "custom_len=2, custom_data=ADDR", "custom_len=2, custom_data=NULL}}",
        "rumble={strong_magnitude=65535, weak_magnitude=1}}", "{type=FF_SPRING, id=7, direction=16384, "
        "trigger={button=3, interval=100}, replay={length=500, delay=10}})",
        "flags=KVM_CPUID_FLAG_SIGNIFCANT_INDEX|KVM_CPUID_FLAG_STATE_READ_NEXT|0x100, eax=0x",
        " /* KVM_CPUID_FLAG_??? */, eax=", "}, ... /* ADDR", "{nent=1, entries=ADDR",
    ),
    "xraw": ("{type=0x52, id=-1, direction=16384, ...})", "{nent=0, entries=[]})"),
    "verbose-none": ("ioctl(-1, EVIOCSFF, ADDR", "KVM_SET_CPUID2, ADDR"),
}


@pytest.mark.parametrize("extra", [[], ["-v"], ["-X", "raw"], ["-e", "verbose=none"]],
                         ids=["plain", "verbose", "xraw", "verbose-none"])
def test_ioctl_more_like_strace(extra: list[str], programs: dict[str, Path], tmp_path: Path,
                                request: pytest.FixtureRequest) -> None:
    assert os.access("/dev/kvm", os.R_OK | os.W_OK), "this test needs a usable /dev/kvm"
    cmd = [str(programs["ioctl_more"])]
    expected = _trace("strace", extra, cmd, tmp_path, tmp_path / "strace.out")
    actual = _trace("pytrace", extra, cmd, tmp_path, tmp_path / "pytrace.out")
    for text in _EXPECTED[request.node.callspec.id]:
        assert text in expected, f"the program no longer exercises {text!r}:\n{expected}"
    assert actual == expected, _diff(expected, actual)


@pytest.fixture(scope="module")
def ioctl_more32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("ioctl_more32") / "ioctl_more32"
    source = Path(__file__).parent.parent / "programs" / "ioctl_more.c"
    build_m32(source, target)
    return target


@pytest.mark.parametrize("extra", [[], ["-v"]], ids=["plain", "verbose"])
def test_ioctl_more_i386_like_strace(extra: list[str], ioctl_more32: Path, tmp_path: Path) -> None:
    assert os.access("/dev/kvm", os.R_OK | os.W_OK), "this test needs a usable /dev/kvm"
    expected = _trace("strace", extra, [str(ioctl_more32)], tmp_path, tmp_path / "strace.out")
    actual = _trace("pytrace", extra, [str(ioctl_more32)], tmp_path, tmp_path / "pytrace.out")
    assert "EVIOCSFF, {type=FF_PERIODIC, id=7, direction=16384, " in expected, expected
    assert actual == expected, _diff(expected, actual)
