"""A GNU getopt_long work-alike, because strace users rely on its exact behaviour and wording.

Python's ``getopt``/``argparse`` differ in the details users see: strace stops
at the first non-option (``+`` in its optstring), accepts ``-s32`` and
``-s 32``, clusters flags (``-fqq``), takes unambiguous long-option prefixes,
and words errors as ``invalid option -- 'K'`` / ``unrecognized option
'--foo'`` / ``option requires an argument -- 'o'``.
"""

from __future__ import annotations

from pytrace.records import dataclass  # not dataclasses: start-up cost


class UsageError(Exception):
    """A command-line error; printed as ``PROG: MSG`` plus the ``Try '... -h'`` hint."""


@dataclass(frozen=True)
class LongOpt:
    name: str
    arg: str  # "none" | "required" | "optional"
    key: str  # the short option letter it means, or a long-only key


def parse(argv: list[str], shortopts: str, longopts: list[LongOpt]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """Return ([(key, value)], remaining args); stops at the first non-option, like ``+`` in optstring."""
    takes_arg: dict[str, bool] = {}
    i = 0
    while i < len(shortopts):
        ch = shortopts[i]
        req = i + 1 < len(shortopts) and shortopts[i + 1] == ":"
        takes_arg[ch] = req
        i += 2 if req else 1
    out: list[tuple[str, str | None]] = []
    idx = 0
    while idx < len(argv):
        arg = argv[idx]
        if arg == "--":
            idx += 1
            break
        if arg.startswith("--"):
            body = arg[2:]
            name, eq, value = body.partition("=")
            matches = [lo for lo in longopts if lo.name == name] or [lo for lo in longopts if lo.name.startswith(name)]
            if len({m.name for m in matches}) > 1:
                raise UsageError(f"option '--{name}' is ambiguous")
            if not matches:
                raise UsageError(f"unrecognized option '{arg}'")
            lo = matches[0]
            if lo.arg == "none":
                if eq:
                    raise UsageError(f"option '--{lo.name}' doesn't allow an argument")
                out.append((lo.key, None))
            elif lo.arg == "optional":
                out.append((lo.key, value if eq else None))
            else:
                if not eq:
                    idx += 1
                    if idx >= len(argv):
                        raise UsageError(f"option '--{lo.name}' requires an argument")
                    value = argv[idx]
                out.append((lo.key, value))
            idx += 1
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                ch = arg[j]
                if ch not in takes_arg:
                    raise UsageError(f"invalid option -- '{ch}'")
                if takes_arg[ch]:
                    if j + 1 < len(arg):
                        out.append((ch, arg[j + 1:]))
                    else:
                        idx += 1
                        if idx >= len(argv):
                            raise UsageError(f"option requires an argument -- '{ch}'")
                        out.append((ch, argv[idx]))
                    break
                out.append((ch, None))
                j += 1
            idx += 1
            continue
        break
    return out, argv[idx:]
