"""``-e kvm=vcpu``: KVM_RUN's result carries the vCPU's exit reason, against real strace 6.1.

Why: with this option strace (kvm.c) reads ``exit_reason`` from the vCPU's mmapped
``struct kvm_run`` after each successful KVM_RUN and prints it as ``= 0 (KVM_EXIT_IO)``; it finds
that mapping through the vCPU descriptor's name (``anon_inode:kvm-vcpu:N``) in /proc/PID/maps.
tests/programs/kvm_vcpu.c runs a real guest (OUT to port 0x3f8, then HLT: KVM_EXIT_IO then
KVM_EXIT_HLT) on three vCPUs: one in the main thread (also run once after its kvm_run is
unmapped: no reason), one created by the main thread and run by another, one created and run in
that thread; then a KVM_RUN that sleeps in the guest until a signal interrupts it (EINTR: no
reason; the argument is printed at exit, after ``<unfinished ...>``).  Compared with ``-f``, for
the x86_64 and the i386 build, and without the option (no reason is ever shown).  A bad value
stops both tracers with the same message and status.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from helpers import build_m32, decode, group_by_process, normalise, run_tracer

pytestmark = pytest.mark.differential

_TRACE = ["-f", "-e", "trace=ioctl,munmap,tgkill"]


def _trace(tracer: str, args: list[str], program: Path, out: Path) -> tuple[str, str]:
    """(raw trace, canonical per-thread form) of one run."""
    result = run_tracer(tracer, [*_TRACE, *args, "-o", str(out)], [str(program)])
    assert result.returncode == 0, decode(result.stderr)
    raw = out.read_text()
    return raw, normalise(group_by_process(raw), None)


def _compare(program: Path, args: list[str], tmp_path: Path) -> str:
    raw, expected = _trace("strace", args, program, tmp_path / "strace.out")
    _, actual = _trace("pytrace", args, program, tmp_path / "pytrace.out")
    # Deterministic in both: the blocked KVM_RUN is split, its argument after the resumption.
    assert "KVM_RUN <unfinished ...>" in raw and "<... ioctl resumed>, 0) " in raw, raw
    assert actual == expected, "\n".join(difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "strace", "pytrace", lineterm=""))
    return expected


def test_kvm_vcpu_exit_reasons_like_strace(programs: dict[str, Path], tmp_path: Path) -> None:
    expected = _compare(programs["kvm_vcpu"], ["-e", "kvm=vcpu"], tmp_path)
    lines = expected.splitlines()
    runs = [line.split("KVM_RUN, 0)")[1].strip() for line in lines if "KVM_RUN, 0)" in line]
    # -1 fails; vCPU 0: IO, HLT, then unmapped; vCPU 1 (another thread) and vCPU 2: IO, HLT; EINTR.
    assert runs == [
        "= -1 EBADF (Bad file descriptor)",
        "= 0 (KVM_EXIT_IO)", "= 0 (KVM_EXIT_HLT)", "= 0",
        "= 0 (KVM_EXIT_IO)", "= 0 (KVM_EXIT_HLT)", "= 0 (KVM_EXIT_IO)", "= 0 (KVM_EXIT_HLT)",
        "= -1 EINTR (Interrupted system call)",
    ], expected
    assert any("KVM_CREATE_VCPU, 7) = -1 EINVAL" in line for line in lines), expected


def test_kvm_vcpu_i386_like_strace(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[1] / "programs" / "kvm_vcpu.c"
    program = tmp_path / "kvm_vcpu32"
    build_m32(source, program, "-g", "-lpthread")
    expected = _compare(program, ["--kvm=vcpu"], tmp_path)
    assert "(KVM_EXIT_HLT)" in expected, expected


def test_kvm_run_without_the_option_like_strace(programs: dict[str, Path], tmp_path: Path) -> None:
    expected = _compare(programs["kvm_vcpu"], [], tmp_path)
    assert "(KVM_EXIT_" not in expected, expected


@pytest.mark.parametrize("option", [["-e", "kvm=x"], ["--kvm=vcpus"], ["-e", "kvm="], ["-e", "kvm=vcpu", "--kvm=bad"]])
def test_kvm_bad_argument_like_strace(option: list[str]) -> None:
    results = [run_tracer(tracer, option, ["true"]) for tracer in ("strace", "pytrace")]
    messages = [decode(r.stderr).split(": ", 1)[1] for r in results]
    assert messages[0].startswith("invalid -e kvm= argument: '"), messages
    assert messages[1] == messages[0]
    assert results[1].returncode == results[0].returncode == 1
