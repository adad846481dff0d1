"""One entry of a syscall's capture plan (the ``capture`` column of syscall_tables/ARCH.tsv).

A module of its own so that ``pytrace.tables.syscalls``, on every run's start-up path, does not
build this record class until a user of the plans (the eBPF backend, PYTRACE_CHECK_CAPTURE) asks.
"""

from __future__ import annotations

from pytrace.records import dataclass  # not dataclasses: start-up cost

SP_INDEX = -1  # ArgPlan.index of memory at the stack pointer, not behind an argument


@dataclass(frozen=True, slots=True)
class ArgPlan:
    """What memory one argument refers to, how big it is and when it is valid.

    ``size`` is ``nul`` (a NUL-terminated string), a number (a fixed structure: ``what`` names
    it), ``argN`` / ``argN*K`` (another argument's value, times an element size), ``ret`` /
    ``ret*K`` (the return value), ``*argN`` (the int argument N points to), ``bitmask(argN)`` (an
    fd_set of argN bits, in longs) or ``deep`` (decoder-specific: no plan).  ``when`` is
    ``entry``, ``exit`` or ``both`` (``deep`` for deep plans).
    """

    index: int  # the argument, or SP_INDEX
    what: str
    size: str
    when: str

    #: For memory at the stack pointer (``sp+N`` in the column: rt_sigreturn's frame): index is
    #: SP_INDEX and ``offset`` is N.
    offset: int = 0

    @staticmethod
    def parse(item: str) -> ArgPlan:
        where, _, rest = item.partition(":")
        index, offset = (SP_INDEX, int(where[3:] or 0)) if where.startswith("sp") else (int(where), 0)
        if rest == "deep":
            return ArgPlan(index, "deep", "deep", "deep", offset)
        what, size, when = rest.split(":")
        return ArgPlan(index, what, size, when, offset)

    @property
    def deep(self) -> bool:
        return self.what == "deep"
