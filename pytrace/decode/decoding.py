"""Which decoder, with which printer, prints each call: one tracer's decoding, decided from its options.

The registry (``@syscall``) says which function decodes a syscall; this
object adds what the options change per syscall, once per name, on first use:

* ``-e raw=SET``: strace's printargs (hex words) and a hex return value;
* ``-e abbrev=SET``: the calls left out print as with ``-v`` (a printer with
  ``verbose`` flipped);
* ``-e verbose=SET``: the calls left out print structures as addresses (a
  printer whose ``fetch`` reads nothing);
* the i386 personality: the same decoders with the i386 layouts, the
  i386-only names (``stat64``, ``*_time64``) with theirs, joined 64-bit
  arguments (pytrace.decode.i386).

Sinks ask ``bound(call)`` and call ``b.func(b.p, call)``; a lookup is one dict
hit after the first call of a name.  Two tracers in one process have two
``Decoding`` objects and share nothing but the registry.
"""

from __future__ import annotations

from pytrace.decode import decoder_for_name
from pytrace.decode.printer import Printer, PrintOptions, build_printer
from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from pytrace.decode.registry import Decoder
    from pytrace.events import Call


@dataclass(slots=True, frozen=True)
class Bound:
    """A decoder and the printer it prints with, for one syscall name and personality."""

    func: Callable[..., Any]
    split: bool
    rval: Callable[[Printer, Call], str]
    p: Printer


@dataclass(slots=True, frozen=True)
class Qualifiers:
    """``-e raw=/abbrev=/verbose=``: the syscall names each selects (None: not given)."""

    raw: frozenset[str] | None = None
    abbrev: frozenset[str] | None = None
    verbose: frozenset[str] | None = None


def _never(c: Call) -> bool:
    return False


class Decoding:
    """One tracer's decoders and printers (build with ``Decoding(PrintOptions(...), Qualifiers(...))``)."""

    def __init__(self, opts: PrintOptions | None = None, qualifiers: Qualifiers | None = None, *,
                 values: bool = False) -> None:
        """``values``: print with the value renderer (text plus typed values, for the JSON records)."""
        self.opts = opts or PrintOptions()
        self.qualifiers = qualifiers or Qualifiers()
        self.printer = build_printer(self.opts, values=values)
        self._x86: dict[str, Bound] = {}
        self._i386: dict[str, Bound] = {}
        self._i386_printer: Printer | None = None

    # -- lookups (the sinks' hot path)

    def bound(self, call: Call) -> Bound:
        """The decoder of an x86_64 call (sinks switch to ``bound_any`` once an i386 tracee appears)."""
        return self._x86.get(call.name) or self._bind(call.name)

    def bound_any(self, call: Call) -> Bound:
        """The decoder of a call of either personality."""
        if call.arch != "i386":
            return self._x86.get(call.name) or self._bind(call.name)
        return self._i386.get(call.name) or self._bind_i386(call.name)

    # -- building

    def _printer_for(self, name: str, base: Printer) -> Printer:
        q = self.qualifiers
        p = base
        if q.abbrev is not None:
            # abbrev is on for every call by default (-v turns it off for all): the calls left
            # out of the set print as -v prints them, the ones in it as without -v.
            want_verbose = name not in q.abbrev
            if want_verbose != self.opts.verbose:
                p = p.derive(verbose=want_verbose)
        if q.verbose is not None and name not in q.verbose:
            p = p.derive(structures=_never)
        return p

    def _is_raw(self, name: str) -> bool:
        return self.qualifiers.raw is not None and name in self.qualifiers.raw

    def _bind(self, name: str) -> Bound:
        got = self._make(name, self.printer)
        self._x86[name] = got
        return got

    def _make(self, name: str, base: Printer) -> Bound:
        p = self._printer_for(name, base)
        if self._is_raw(name):
            from pytrace.decode.generic import printargs, rv_raw

            return Bound(printargs, False, rv_raw, p)
        dec: Decoder = decoder_for_name(name)
        return Bound(dec.func, dec.split, dec.rval, p)

    def _bind_i386(self, name: str) -> Bound:
        from pytrace.decode import i386
        from pytrace.decode.generic import rv_raw

        if self._i386_printer is None:
            from pytrace.decode.layouts import I386

            self._i386_printer = self.printer.derive(lay=I386)
        base = self._i386_printer
        raw = self._is_raw(name)
        got = self._make(name, base)
        if raw:
            if name in i386.IPC_SUBCALL_NAMES:
                got = Bound(i386.ipc_raw(got.func), False, rv_raw, got.p)
            elif name in i386.ARGS and name in i386.RAW_NARGS:
                got = Bound(i386.raw_words(i386.RAW_NARGS[name]), False, rv_raw, got.p)
        elif name in i386.variants():
            target, lay = i386.variants()[name]
            via = self._make(target, self.printer.derive(lay=lay))
            got = Bound(via.func, via.split, via.rval, self._printer_for(name, self.printer.derive(lay=lay)))
        elif name in i386.OWN:
            got = Bound(i386.OWN[name], True, got.rval, got.p)
        elif name in i386.ARGS:
            target, rewrite = i386.ARGS[name]
            via = self._make(target, base)
            got = Bound(i386.rewritten(via.func, rewrite), via.split, via.rval, got.p)
        elif name in i386.RENAMED:
            via = self._make(i386.RENAMED[name], base)
            got = Bound(via.func, via.split, via.rval, got.p)
        self._i386[name] = got
        return got


def qualifier_sets(qualifiers: list[tuple[str, str]]) -> Qualifiers:
    """``-e raw=/abbrev=/verbose=`` from the command line (the last of each kind wins, as in strace)."""
    given = {name: value for name, value in qualifiers if name in ("raw", "abbrev", "verbose")}
    if not given:
        return Qualifiers()
    return Qualifiers(*(_names(given[k]) if k in given else None for k in ("raw", "abbrev", "verbose")))


def _names(expr: str) -> frozenset[str]:
    """The syscall names a set expression selects, on any personality."""
    from pytrace.filters import PERSONALITIES, parse_trace_set
    from pytrace.tables.subcalls import pseudo_names
    from pytrace.tables.syscalls import table

    sset = parse_trace_set(expr)
    out = set()
    for arch in PERSONALITIES:
        bitmap, _unknown = sset.bitmap(arch)
        by_nr = table(arch).by_nr
        out.update(info.name for nr, info in by_nr.items() if nr < len(bitmap) and bitmap[nr])
        # i386 socketcall/ipc subcalls (send, recv...): strace's slots for them, past the table.
        out.update(name for nr, name in pseudo_names(arch).items() if nr < len(bitmap) and bitmap[nr])
    return frozenset(out)
