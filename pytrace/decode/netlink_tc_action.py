"""RTM_NEWACTION/DELACTION/GETACTION (``tc actions``): struct tcamsg and its attributes, as strace 6.1 prints them.

Mirrors strace's ``src/rtnl_tc_action.c``.  strace reads the attributes after
the 4-byte tcamsg with its TCA_ACT_* table at the top level, where the kernel
actually puts TCA_ROOT_* (TCA_ROOT_TAB = 1, TCA_ROOT_FLAGS = 2, ...): so the
action table prints as ``nla_type=NLA_F_NESTED|TCA_ACT_KIND`` decoded as a
string, TCA_ROOT_FLAGS as TCA_ACT_OPTIONS in hex, TCA_ROOT_COUNT as
TCA_ACT_INDEX, and so on.  That is reproduced as is: the output must be
strace's, byte for byte.
"""

from __future__ import annotations

from typing import Any

from pytrace.decode.nlattr import nla_flags, nla_str, nla_u32
from pytrace.tables import xlat as X

Table = tuple[tuple[int, str], ...]


def _t(table: Table, name: str) -> int:
    return next(v for v, n in table if n == name)


def register(route: dict[int, Any]) -> None:
    """Add the tcamsg decoder to netlink_route's message-type table (called once, by netlink.py when it loads netlink_route)."""
    from pytrace.decode.netlink_route import TCA, family_only

    hw_stats = nla_flags(X.RTNL_TCA_ACT_HW_STATS, "TCA_ACT_HW_STATS_???", 4)
    decoders = {_t(X.RTNL_TC_ACTION_ATTRS, n): f for n, f in (
        ("TCA_ACT_KIND", nla_str), ("TCA_ACT_INDEX", nla_u32),
        ("TCA_ACT_STATS", TCA[_t(X.RTNL_TC_ATTRS, "TCA_STATS2")]),  # decode_nla_tc_stats
        ("TCA_ACT_FLAGS", nla_flags(X.RTNL_TCA_ACT_FLAGS, "TCA_ACT_FLAGS_???", 4)),
        ("TCA_ACT_HW_STATS", hw_stats), ("TCA_ACT_USED_HW_STATS", hw_stats), ("TCA_ACT_IN_HW_COUNT", nla_u32),
    )}
    tcamsg = family_only(X.RTNL_TC_ACTION_ATTRS, "TCA_ACT_???", decoders, "tca_family")
    for name in ("RTM_NEWACTION", "RTM_DELACTION", "RTM_GETACTION"):
        route[_t(X.NL_ROUTE_TYPES, name)] = tcamsg
