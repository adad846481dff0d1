"""``--tips[=[[id:]ID][,[format:]FORMAT]]``: strace 6.1's tip of the day, printed on exit.

The texts and the art are generated data (pytrace/tables/tips.py, from strace's
strauss.c); this module only parses the option the way strace's
parse_tips_arg does and lays the bubble out the way print_totd does, so the
output is strace's byte for byte.  Nothing here runs per syscall: the option is
parsed once and the bubble is written once, on stderr, after everything else
(the -c table, the -o file closed, an ``-o '|cmd'`` reader finished), exactly
where strace's terminate() calls print_totd.
"""

from __future__ import annotations

import re
import sys

RANDOM = -1  # TIP_ID_RANDOM
NONE, COMPACT, FULL = 0, 1, 2  # enum tips_fmt
_FORMATS = {"none": NONE, "compact": COMPACT, "full": FULL}
_INT_MAX = 0x7FFFFFFF
# strace's string_to_uint: strtoll's syntax (leading isspace() blanks, one sign), digits to the end, 0..INT_MAX.
_UINT = re.compile(r"[ \t\n\v\f\r]*([+-]?[0-9]+)")

# (id or RANDOM, format) before any --tips: strace's tip_id / show_tips defaults.
DEFAULT: tuple[int, int] = (RANDOM, NONE)


def parse_arg(arg: str, current: tuple[int, int] = DEFAULT) -> tuple[int, int]:
    """One --tips value applied on top of the previous ones; ValueError for what strace refuses.

    As in strace: comma-separated tokens (empty ones skipped), ``id:``/``format:``
    prefixes in any case, an unprefixed token is tried as an id and then as a
    format, names in any case; a later --tips keeps what an earlier one set,
    and any --tips without a format means "compact" unless one was set before.
    """
    tip_id, fmt = current
    if fmt == NONE:
        fmt = COMPACT
    for token in (t for t in arg.split(",") if t):
        want_id = want_fmt = True
        low = token.lower()
        if low.startswith("id:"):
            token, want_fmt = token[3:], False
        elif low.startswith("format:"):
            token, want_id = token[7:], False
        if want_id:
            if token.lower() == "random":
                tip_id = RANDOM
                continue
            m = _UINT.fullmatch(token)
            if m and 0 <= int(m[1]) <= _INT_MAX:
                tip_id = int(m[1])
                continue
        if want_fmt and token.lower() in _FORMATS:
            fmt = _FORMATS[token.lower()]
            continue
        raise ValueError(f"invalid --tips argument: '{arg}'")
    return tip_id, fmt


def render(tip_id: int, fmt: int) -> str:
    """The bubble for tip ``tip_id`` (taken modulo the number of tips, as strace does), mascot beside it."""
    from pytrace.tables.tips import MAX_TIP_LINES, STRAUSS, TIP_BOTTOM, TIP_LEFT, TIP_RIGHT, TIP_TOP, TIPS

    if fmt == NONE:
        return ""
    if tip_id == RANDOM:
        import random

        tip_id = random.randrange(len(TIPS))
    tip = TIPS[tip_id % len(TIPS)]
    w = len(TIP_TOP) - len(TIP_LEFT[0]) - len(TIP_RIGHT[0])
    last = len(STRAUSS) - 1
    out = [f"{TIP_TOP}{STRAUSS[1]}", f"{TIP_LEFT[0]}{'':<{w}}{TIP_RIGHT[0]}{STRAUSS[2]}"]
    i = 0
    # A row is printed while the tip has a line there (NULL ends it, "" does not) or the bubble's
    # right border still has its own shape to draw.
    while i < MAX_TIP_LINES and (i < len(tip) or i < len(TIP_RIGHT) - 1):
        text = tip[i] if i < len(tip) else ""
        out.append(f"{TIP_LEFT[min(i + 1, len(TIP_LEFT) - 1)]}{text[:w]:<{w}}"
                   f"{TIP_RIGHT[min(i + 1, len(TIP_RIGHT) - 1)]}{STRAUSS[min(3 + i, last)]}")
        i += 1
    out.append(f"{TIP_BOTTOM}{STRAUSS[min(3 + i, last)]}")
    pad = " " * (len(TIP_LEFT[0]) + w + len(TIP_RIGHT[0]))
    while True:  # compact: one more line of the mascot; full: the rest of it
        out.append(f"{pad}{STRAUSS[min(4 + i, last)]}")
        i += 1
        if fmt != FULL or 4 + i >= len(STRAUSS):
            break
    return "\n".join(out) + "\n"


def show(setting: tuple[int, int]) -> None:
    """Print the tip on stderr (strace's print_totd), if --tips asked for one."""
    if setting[1] == NONE:
        return
    sys.stdout.flush()
    sys.stderr.write(render(*setting))
    sys.stderr.flush()
