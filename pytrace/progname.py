"""The name pytrace's messages start with, as strace's start with "strace: ".

Shared by the command line and the launcher's child (which reports a failed exec
itself): one rule for both, with no import of the CLI from a backend.
"""

from __future__ import annotations

import os
import sys


def prog_name() -> str:
    """argv[0]'s base name; ``python -m pytrace`` (argv[0] ``__main__.py``) and ``-c`` give "pytrace"."""
    base = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    return "pytrace" if base in ("__main__.py", "-c", "") else base
