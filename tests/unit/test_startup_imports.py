"""Start-up: ``pytrace true`` imports only what tracing needs.

``python -X importtime`` lists every module a run imports; the ones below
must not be among those imported after the interpreter's own start-up
(site): they belong to features that are off in a default run (the ltrace
mode's ELF and disassembler libraries, the eBPF backend, fault injection,
-k), or are large standard modules that pytrace's start-up path avoids on
purpose (python-ptrace's binding runs ``ldconfig``; ``dataclasses`` and
``inspect`` cost more than any pytrace module, see pytrace/records.py;
``subprocess`` is needed only for ``-o '|cmd'``).  No timing is asserted.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import REPO_ROOT, tracer_env

NOT_AT_START_UP = (
    "capstone", "elftools", "ptrace", "pytrace.backends.ebpf", "pytrace.ltrace", "pytrace.stack",
    "pytrace.backends.ptrace.tamper", "dataclasses", "inspect", "subprocess",
)


def _imported_after_site(*args: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pytrace", "-o", os.devnull, *args],
        capture_output=True, text=True, env=tracer_env(), cwd=REPO_ROOT, timeout=60, check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")]
    names = names[1:]  # the header line ("package")
    return names[names.index("site") + 1:] if "site" in names else names


@pytest.mark.parametrize("args", [["true"], ["-e", "trace=none", "true"], ["-f", "-e", "trace=openat", "true"]])
def test_default_runs_import_no_optional_module(args: list[str]) -> None:
    imported = _imported_after_site(*args)
    assert "pytrace.backends.ptrace.loop" in imported, "the list of imports was not read correctly"
    offenders = [m for m in imported if any(m == bad or m.startswith(bad + ".") for bad in NOT_AT_START_UP)]
    assert not offenders, f"imported at start-up although not needed: {offenders}"
