"""pytrace: a strace/ltrace-compatible tracer you can read, extend and import.

The library API (``pytrace.trace``, ``pytrace.attach`` and the event types) is
loaded on first use, so the command-line tool's start-up does not pay for it.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing would delay the CLI's start-up (cli/entry.py)
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

_API = {"trace", "attach", "Trace", "TraceError"}
_TYPES = {"Arg", "Syscall", "LibCall", "Signal", "Stop", "Exit", "Superseded", "Personality", "Summary", "Event", "Exec",
          "Lost"}
__all__ = sorted(_API | _TYPES | {"__version__"})


def __getattr__(name: str) -> Any:
    if name in _API:
        from pytrace import api

        return getattr(api, name)
    if name in _TYPES:
        from pytrace.structured import types

        return getattr(types, name)
    raise AttributeError(f"module 'pytrace' has no attribute {name!r}")
