"""strace's quiet set: which of its own messages and lines -q/-qq/-qqq and --quiet= suppress.

strace 6.1 keeps one set of categories (``quiet_set``): "attach" (the
"Process N attached/detached" messages), "exit" ("+++ exited with N +++"),
"personality" ("[ Process PID=N runs in 32 bit mode. ]"), "thread-execve"
("+++ superseded by execve in pid N +++") and "path-resolution" (-P's "Requested
path ... resolved into ..." message).  -q, -qq and -qqq are shorthands for
three fixed sets, --quiet=LIST / -e quiet=LIST replace the set, and "-o FILE
PROG" implies -q only when neither was given; -q together with --quiet is an
error.  Decided once at start-up, the sinks and the loop only see booleans.
"""

from __future__ import annotations

from pytrace.qualify import qualify

# Each name strace accepts and the category it stands for (filter_qualify.c quietstr_to_uint).
_NAMES = {
    "attach": "attach",
    "exit": "exit",
    "exits": "exit",
    "path-resolution": "path-resolution",
    "personality": "personality",
    "superseded": "thread-execve",
    "thread-execve": "thread-execve",
}
ALL = frozenset(_NAMES.values())
#: What -q, -qq and -qqq stand for (strace.c qflag_qual, qqflag_qual, qqqflag_qual); --quiet alone is -q.
BY_COUNT = (frozenset(), frozenset(("attach", "personality")), frozenset(("attach", "exit", "personality")), ALL)


def parse(spec: str) -> frozenset[str]:
    """strace's qualify_tokens for the quiet set (the same rules as --decode-fds); raises OptionError."""
    return qualify(spec, ALL, "quiet", aliases=_NAMES)


def effective(count: int, given: frozenset[str] | None, output_and_command: bool) -> frozenset[str]:
    """The final set: --quiet's if given, else -q's count (one implied by "-o FILE PROG" when zero)."""
    if given is not None:
        return given
    if not count and output_and_command:
        count = 1
    return BY_COUNT[min(count, 3)]
