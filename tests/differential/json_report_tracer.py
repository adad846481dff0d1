"""A stand-in "tracer" for the round-trip tests: ``pytrace --json``, then ``pytrace report`` in place.

It takes strace's command line, runs pytrace with ``--output-format=json``
added, keeps a copy of every JSON trace under ``<dir of -o>/json/`` (for the
jq and schema checks) and replaces each trace file (``-o FILE``, or each
``FILE.PID`` of ``-ff``; the stderr trace when there is no ``-o``) by what
``pytrace report`` prints from it.  Then it exits as pytrace did (dying by
the same signal), so the differential harness can compare the result with
real strace exactly as it compares pytrace's own text output.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path


def _report(src: Path, dest: Path) -> None:
    text = subprocess.run([sys.executable, "-m", "pytrace", "report", str(src)], check=True,
                          capture_output=True, text=True).stdout
    dest.write_text(text)


def main() -> None:
    argv = sys.argv[1:]
    out = argv[argv.index("-o") + 1] if "-o" in argv else None
    separate = "-ff" in argv
    cmd = [sys.executable, "-m", "pytrace", "--output-format=json", *argv]
    if out is None:
        proc = subprocess.run(cmd, check=False, stderr=subprocess.PIPE)
        lines = proc.stderr.decode(errors="surrogateescape").splitlines(keepends=True)
        records = [ln for ln in lines if ln.startswith('{"type":')]
        others = [ln for ln in lines if not ln.startswith('{"type":')]
        text = subprocess.run([sys.executable, "-m", "pytrace", "report", "-"], check=True, input="".join(records),
                              capture_output=True, text=True).stdout
        sys.stderr.write("".join(others) + text)
    else:
        proc = subprocess.run(cmd, check=False)
        stem = Path(out)
        keep = stem.parent / "json"
        keep.mkdir(exist_ok=True)
        files = sorted(stem.parent.glob(stem.name + ".*")) if separate else [stem]
        for f in files:
            if f.exists():
                shutil.copy(f, keep / f.name)
                _report(keep / f.name, f)
    sys.stderr.flush()
    if proc.returncode < 0:
        signal.signal(-proc.returncode, signal.SIG_DFL)
        os.kill(os.getpid(), -proc.returncode)
    sys.exit(proc.returncode)


if __name__ == "__main__":
    main()
