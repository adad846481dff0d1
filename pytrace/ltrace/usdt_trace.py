"""USDT probes on pyltrace's ptrace backend: an int3 on each selected probe's ``nop``, its semaphore
raised while traced, and the hit's line.

tracer.py calls ``arm`` for each object it instruments (at the program's entry, at
attach, after a dlopen), ``hit_text`` when a thread stops at a probe's int3, and
``release`` when it lets a process go.  The notes, the argument specs and the semaphore
counter live in usdt.py, which knows nothing of ptrace.

Which probes: ``-e usdt:FILTER``, where FILTER is an ltrace filter expression
(filters.py: globs, ``/regex/``, ``@LIBRARY``, ``+``/``-`` chains) over the
names ``PROVIDER:NAME``: ``-e usdt:python:function__entry``, ``-e 'usdt:python:*'``,
``-e 'usdt:*@MAIN'``.

A hit prints as ``usdt:PROVIDER:NAME(ARG, ...)``.  An argument's type comes from
a prototype named ``PROVIDER:NAME`` in the -F / ltrace.conf files, else from
``usdt.conf`` (pyltrace's declarations of well-known probes, e.g. CPython's),
else it is an integer of the note's size and sign, printed in decimal.
"""

from __future__ import annotations

from pytrace.ltrace import prototypes as P
from pytrace.ltrace.breakpoints import AddressSpace
from pytrace.ltrace.filters import USDT_PREFIX, Filter
from pytrace.ltrace.objects import Loaded
from pytrace.ltrace.usdt import KNOWN_TYPES, Probe, adjust_semaphore, arg_value, regs_reader
from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

PREFIX = USDT_PREFIX


@dataclass(slots=True)
class Site:
    """A probe armed in one address space: the probe and where its object is loaded."""

    probe: Probe
    bias: int
    display: str  # "usdt:python:function__entry"
    proto: P.Proto | None = None
    looked_up: bool = False


def arm(space: AddressSpace, obj: Loaded, filt: Filter, semaphores: set[int], raise_semaphores: bool = True) -> int:
    """Breakpoints on ``obj``'s probes that ``filt`` selects, and their semaphores raised (each once per
    address space: ``semaphores`` holds the ones raised already); how many probes were armed.

    ``raise_semaphores`` False: the breakpoints are only noted (the eBPF backend makes them uprobes whose
    reference counter the kernel keeps: ebpf_usdt.py)."""
    info = obj.info
    if not filt.may_match_library(info.soname, obj.path, obj.is_main):
        return 0
    armed = 0
    for probe in info.usdt_probes:
        if not filt.matches(probe.full_name, info.soname, obj.path, obj.is_main):
            continue
        bp = space.insert(obj.bias + probe.address)
        if bp is None:
            continue
        if bp.probes is None:
            bp.probes = []
        if not any(s.probe is probe for s in bp.probes):
            bp.probes.append(Site(probe, obj.bias, PREFIX + probe.full_name))
        armed += 1
        if probe.semaphore and raise_semaphores:
            addr = obj.bias + probe.semaphore
            if addr not in semaphores and adjust_semaphore(space.read, space.write, addr, 1) is not None:
                semaphores.add(addr)
    return armed


def release(space: AddressSpace, semaphores: set[int]) -> None:
    """Take back the one we added to each semaphore (detach, or a fork child let go)."""
    for addr in semaphores:
        adjust_semaphore(space.read, space.write, addr, -1)
    semaphores.clear()


def forget(obj: Loaded, semaphores: set[int]) -> None:
    """A dlclose'd object: its semaphores went with its pages."""
    for addr in [a for a in semaphores if obj.contains(a)]:
        semaphores.discard(addr)


_known: P.Prototypes | None = None


def known_types() -> P.Prototypes:
    """usdt.conf, read once."""
    global _known
    if _known is None:
        _known = P.Prototypes()
        _known.load_file(KNOWN_TYPES)
    return _known


def proto_of(site: Site, protos: P.Prototypes) -> P.Proto | None:
    """The probe's prototype (``PROVIDER:NAME`` in the -F files, else usdt.conf), looked up once per site."""
    if not site.looked_up:
        name = site.probe.full_name
        site.proto = protos.get(name) or known_types().get(name)
        site.looked_up = True
    return site.proto


def unreadable(probe: Probe) -> list[str]:
    """The arguments of a probe whose specs were not understood: one ``?`` each."""
    return ["?"] * max(1, len(probe.args_text.split()))


def args_text(site: Site, regs: tuple[int, ...], space: AddressSpace, mem: Any, protos: P.Prototypes,
              strlen: int, arraylen: int) -> list[str]:
    """Each argument's text at a hit (``?`` where a register or memory operand cannot be read)."""
    probe = site.probe
    proto = proto_of(site, protos)
    if probe.problem:
        return unreadable(probe)
    reg = regs_reader(regs)
    raws = [arg_value(spec, reg, space.read, site.bias) for spec in probe.args]
    return format_args(proto, raws, mem, strlen, arraylen)


def format_args(proto: P.Proto | None, raws: list[int | None], mem: Any, strlen: int, arraylen: int) -> list[str]:
    """The arguments' texts from their values (None: unreadable, ``?``), typed by ``proto`` if there is one
    (``mem`` is where pointers are followed), else decimal.  Shared by both backends."""
    params = proto.params if proto is not None else []
    ctx = P.FmtCtx(mem, strlen, arraylen, raws)
    out = []
    for i, raw in enumerate(raws):
        if raw is None:
            out.append("?")
        elif i < len(params):
            out.append(P.format_value(params[i], raw & ((1 << 64) - 1), ctx))
        else:
            out.append(str(raw))
    return out
