"""keyctl's structured commands decoded as strace 6.1's keyctl.c: KEYCTL_DH_COMPUTE (struct
keyctl_dh_params at entry; the result buffer, length and struct keyctl_kdf_params at exit),
KEYCTL_PKEY_QUERY (struct keyctl_pkey_query at exit), KEYCTL_PKEY_ENCRYPT/DECRYPT/SIGN/VERIFY
(struct keyctl_pkey_params, the info string, the buffers sized by the struct) and
KEYCTL_CAPABILITIES (the KEYCTL_CAPS0/1 bytes at exit), compared with real strace's output.

Key serials are random per run, so both traces are renumbered by first appearance, as
test_decode_bpf_keys.py does.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import decode, normalise, renumber_key_serials, run_tracer


def _trace(tracer: str, args: list[str], program: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.txt"
    proc = run_tracer(tracer, [*args, "-o", str(out)], [str(program)])
    assert proc.returncode == 0, decode(proc.stderr)
    return renumber_key_serials(normalise(out.read_text()))


@pytest.mark.differential
@pytest.mark.parametrize(
    "extra", [[], ["-v"], ["-X", "verbose"], ["-X", "raw"], ["-s", "3"]],
    ids=["abbrev", "verbose", "xverbose", "xraw", "short-strings"],
)
def test_keyctl_structured_commands(extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    args = [*extra, "-e", "trace=keyctl,add_key"]
    strace = _trace("strace", args, programs["keyctl_more"], tmp_path)
    pytrace = _trace("pytrace", args, programs["keyctl_more"], tmp_path)
    assert pytrace == strace
    if not extra:
        for text in ("keyctl(KEYCTL_CAPABILITIES, [KEYCTL_CAPS0_CAPABILITIES|", "{private=SERIAL",
                     '{hashname="sha256", otherinfo="other info", otherinfolen=10}',
                     "__spare=[0x1, 0, 0, 0, 0, 0, 0, 0xdead]", '"enc=pkcs1", ',
                     "in_len=4, out_len=16, __spare=[0, 0, 0x3, 0, 0, 0, 0]}",
                     "{key_id=KEY_SPEC_USER_KEYRING, in_len=3, in2_len=5}"):
            assert text in strace, f"the program no longer exercises {text!r}:\n{strace}"
