"""strace's ``-c`` options: ``-S``, ``-U``, ``-O`` and the checks made once all options are read.

Apart from the table (pytrace/sinks/summary.py) because the command-line parser checks these
values as it reads them (strace reports the first bad option, before complaining about a missing
command) and runs ``check_options`` on every command line: a run without ``-c`` imports only
this small module, not the counting and the table.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable


class SummaryOptionError(ValueError):
    """A bad ``-S``/``-U``/``-O`` value; the message is strace's wording (without the program name)."""


NS_IN_S = 1_000_000_000

# -- columns and sort keys (strace's enum count_summary_columns and column_aliases[]) ----------------

TIME_PERCENT, TOTAL_TIME, MIN_TIME, MAX_TIME, AVG_TIME, CALLS, ERRORS, NAME = range(1, 9)

#: Every name -S and -U accept, in strace's table order (-U reports duplicates by the alias used).
COLUMN_ALIASES: dict[str, int | None] = {
    "time": TIME_PERCENT, "time_percent": TIME_PERCENT, "time-percent": TIME_PERCENT,
    "time_total": TOTAL_TIME, "time-total": TOTAL_TIME, "total_time": TOTAL_TIME, "total-time": TOTAL_TIME,
    "min_time": MIN_TIME, "min-time": MIN_TIME, "shortest": MIN_TIME, "time_min": MIN_TIME, "time-min": MIN_TIME,
    "longest": MAX_TIME, "max_time": MAX_TIME, "max-time": MAX_TIME, "time_max": MAX_TIME, "time-max": MAX_TIME,
    "avg_time": AVG_TIME, "avg-time": AVG_TIME, "time_avg": AVG_TIME, "time-avg": AVG_TIME,
    "calls": CALLS, "count": CALLS,
    "error": ERRORS, "errors": ERRORS,
    "name": NAME, "syscall": NAME, "syscall_name": NAME, "syscall-name": NAME,
    "none": None, "nothing": None,
}

DEFAULT_COLUMNS = (TIME_PERCENT, TOTAL_TIME, AVG_TIME, CALLS, ERRORS, NAME)


def parse_sortby(value: str) -> int | None:
    """-S: the column to sort by (None: "nothing", syscall-number order).  strace's set_sortby()."""
    if value not in COLUMN_ALIASES:
        raise SummaryOptionError(f"invalid sortby: '{value}'")
    return COLUMN_ALIASES[value]


def parse_columns(value: str) -> tuple[int, ...]:
    """-U: the columns to show, in order; the name column is appended if missing.

    strace's set_count_summary_columns(): each comma-separated word must be an
    alias (``none``/``nothing`` are not columns), a column given twice (under
    any alias) is an error that quotes the rest of the list.
    """
    columns: list[int] = []
    rest = value
    while True:
        word, comma, after = rest.partition(",")
        column = COLUMN_ALIASES.get(word)
        if column is None:
            raise SummaryOptionError(f"unknown column name: '{word}'")
        if column in columns:
            raise SummaryOptionError(
                f"call summary column has been provided more than once: '{word}' (-U option residual: '{rest}')"
            )
        columns.append(column)
        if not comma:
            break
        rest = after
    if NAME not in columns:
        columns.append(NAME)
    return tuple(columns)


_UNIT_NS = {"": 1000, "s": NS_IN_S, "ms": 1_000_000, "us": 1000, "ns": 1}  # no suffix: microseconds
_FLOAT_CHARS = frozenset("eE.-+0123456789")
_INT_CHARS = frozenset("+0123456789")
_STRTOD = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"  # compiled on use: -O only
_STRTOLL = r"[ \t\n\v\f\r]*[+-]?\d+"


def _span(text: str, accept: frozenset[str]) -> int:
    n = 0
    for ch in text:
        if ch not in accept:
            break
        n += 1
    return n


def parse_overhead(value: str, option: str = "-O") -> int:
    """-O OVERHEAD[s|ms|us|ns] in nanoseconds; strace's parse_ts() (util.c), whose quirks users see.

    A value that starts like a float (``1.5``, ``1e3``, ``.5``) is read with
    strtod, one that is a plain integer with strtoll (leading blanks allowed,
    so ``' 5'`` is fine but ``'5 '`` is not).  The unit is an exact,
    case-sensitive suffix; the default unit is microseconds.  Negative values,
    overflow and underflow (ERANGE) are refused.  ``-nan``, which strace 6.1
    accepts and then turns into garbage times, is refused too.
    """
    import math
    import re
    import sys

    bad = SummaryOptionError(f"invalid {option} argument: '{value}'")  # option: "-O" or its long name
    float_len, int_len = _span(value, _FLOAT_CHARS), _span(value, _INT_CHARS)
    if float_len > int_len:
        m = re.match(_STRTOD, value)
        if m is None:
            raise bad
        number = float(m[0])
        mantissa = re.split(r"[eE]", m[0])[0]
        underflow = (number == 0.0 and any(c in "123456789" for c in mantissa)) or (
            0.0 < abs(number) < sys.float_info.min
        )
        if math.isinf(number) or underflow or number < 0:
            raise bad
        scale = _UNIT_NS.get(value[m.end():])
        if scale is None:
            raise bad
        per_sec = NS_IN_S // scale
        sec = int(number / per_sec)
        nsec = int((number - sec * per_sec) * scale) % NS_IN_S
        return sec * NS_IN_S + nsec
    m = re.match(_STRTOLL, value)
    if m is None:
        raise bad
    number_i = int(m[0])
    suffix = value[m.end():]
    if number_i < 0 or number_i > (1 << 63) - 1 or (suffix and suffix[0] not in "smun"):
        raise bad
    scale = _UNIT_NS.get(suffix)
    if scale is None:
        raise bad
    return number_i * scale


def check_options(
    *, summary: str | None, wall: bool, columns: str | None, sortby: str | None, separate: bool,
    warn: Callable[[str], None], histogram: bool = False, **no_effect: bool,
) -> None:
    """The checks strace makes once all options are read (after "must have PROG"), in its order.

    Raises SummaryOptionError for the errors (usage errors: the caller adds the
    ``Try ... -h`` hint); ``warn`` gets the warnings.  ``no_effect`` maps the
    short option letters i, k, n, r, t, T, y to whether they were given: with
    -c they have nothing to act on.
    """
    if separate and summary:
        raise SummaryOptionError(
            "(-c/--summary-only or -C/--summary) and -ff/--output-separately are mutually exclusive"
        )
    if wall and not summary:
        raise SummaryOptionError("-w/--summary-wall-clock must be given with (-c/--summary-only or -C/--summary)")
    if columns is not None and not summary:
        raise SummaryOptionError("-U/--summary-columns must be given with (-c/--summary-only or -C/--summary)")
    if histogram and not summary:  # pytrace's own option, worded as strace words -w's check
        raise SummaryOptionError("--histogram must be given with (-c/--summary-only or -C/--summary)")
    if sortby is not None and not summary:
        warn("-S/--summary-sort-by has no effect without (-c/--summary-only or -C/--summary)")
    if summary == "only":
        for letter, text in _NO_EFFECT_WITH_C:
            if no_effect.get(letter):
                warn(f"-{letter}/--{text} has no effect with -c/--summary-only")


_NO_EFFECT_WITH_C = (
    ("i", "instruction-pointer"), ("k", "stack-traces"), ("n", "syscall-number"), ("r", "relative-timestamps"),
    ("t", "absolute-timestamps"), ("T", "syscall-times"), ("y", "decode-fds"),
)
