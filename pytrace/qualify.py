"""strace's qualify_tokens (filter_qualify.c): a set of named tokens from a command-line value.

Shared by --decode-fds / --decode-pids (decode/fds.py, decode/pids.py) and --quiet (cli/quiet.py).
A module of its own so that parsing --quiet (which every ``-o FILE`` run does) does not import
the -y printers and the constant tables behind them.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


class OptionError(ValueError):
    """A bad --decode-fds / --decode-pids value; the message is strace's wording."""


def qualify(spec: str, tokens: Iterable[str], name: str, aliases: Mapping[str, str] | None = None) -> frozenset[str]:
    """strace's qualify_tokens: ``none``, ``all``, a comma list (case-insensitive), leading ``!`` inverts.

    ``aliases`` maps further accepted spellings to their token (--quiet's "exits", "superseded").
    """
    universe = frozenset(tokens)
    known = {token: token for token in universe} | dict(aliases or {})
    rest = spec
    inverted = False
    while rest.startswith("!"):
        inverted = not inverted
        rest = rest[1:]
    if rest == "none":
        chosen: frozenset[str] = frozenset()
    elif rest == "all":
        chosen = universe
    else:
        picked = set()
        for token in rest.split(","):
            if not token:
                continue
            canonical = known.get(token.lower())
            if canonical is None:
                raise OptionError(f"invalid {name} '{token}'")
            picked.add(canonical)
        if not picked:
            raise OptionError(f"invalid {name} '{spec}'")
        chosen = frozenset(picked)
    return universe - chosen if inverted else chosen
