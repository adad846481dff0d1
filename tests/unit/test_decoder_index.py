"""pytrace/decode/decoder_index.py (which module registers which syscall's decoder) is current.

``decoder_for`` imports a family module on the first call of one of its
syscalls, trusting this generated index; a decoder added to a module without
regenerating the index would be silently replaced by the generic printer.
"""

from __future__ import annotations

import subprocess
import sys

from helpers import REPO_ROOT


def test_decoder_index_is_current() -> None:
    result = subprocess.run([sys.executable, "scripts/gen_decoder_index.py", "--check"], cwd=REPO_ROOT,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


def test_lazy_lookup_finds_every_registered_decoder() -> None:
    """In a fresh interpreter, decoder_for on each indexed name gives the decoder the full table has."""
    code = (
        "from pytrace.decode import decoder_for, load_all\n"
        "from pytrace.decode.decoder_index import MODULES\n"
        "class C:\n    def __init__(self, n): self.name = n\n"
        "lazy = {n: decoder_for(C(n)) for ns in MODULES.values() for n in ns}\n"
        "full = load_all()\n"
        "bad = [n for n, d in lazy.items() if full[n] is not d]\n"
        "assert len(lazy) > 300 and not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
