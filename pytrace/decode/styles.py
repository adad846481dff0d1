"""``-X raw|abbrev|verbose`` and ``-e raw= / abbrev= / verbose=``: chosen once, at startup.

strace prints a constant in one of three styles (``xlat_verbosity``)::

    abbrev (default)   openat(AT_FDCWD, "f", O_RDONLY|O_CLOEXEC)
    raw                openat(-100, "f", 0x80000)
    verbose            openat(-100 /* AT_FDCWD */, "f", 0x80000 /* O_RDONLY|O_CLOEXEC */)

Decoders print every constant through a handful of printers (``format.xval``,
``format.flags``, ``format.print_xlat``, ``format.dirfd``, ``signal.printsignal``,
...).  The default ones print the abbrev style and know nothing of -X;
``install_style`` replaces them, by identity, in every ``pytrace.decode`` module
(the same mechanism -y uses, ``fds.rebind``), so a trace without -X runs exactly
the code it ran before and pays nothing per argument.

Composite printers (open flags, mmap flags, file modes) are styled as a whole
in strace: the names are computed in the abbrev style and the raw number is
printed in front (``0x812 /* MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE */``).  Their
replacement calls a frozen copy of the original function whose globals are a
snapshot taken before any rebinding, so the names inside stay abbreviated.

The ``-e`` qualifiers are per syscall:

* ``raw=SET``: the arguments of those syscalls as raw hex words (strace's
  printargs) and the return value in hex; implemented by giving those syscalls
  a different decoder, so other syscalls are untouched;
* ``abbrev=SET``: syscalls outside SET are printed as with -v; their decoders
  are wrapped to run with ``OPTS.verbose`` set;
* ``verbose=SET``: syscalls outside SET print structures as addresses:
  ``format.fetch`` (the read under ``format.umove``) and ``format.verbose``
  are rebound to say so for those syscalls.
"""

from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING

from pytrace.decode import format as F
from pytrace.decode.format import MASK64, signed, xlat

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.registry import Decoder
    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]
STYLES = ("raw", "abbrev", "verbose")


def hexnum(value: int) -> str:
    """C's ``%#x``: zero is a bare ``0``."""
    return f"{value:#x}" if value else "0"


def octnum(value: int) -> str:
    """C's ``%#03o`` (file modes)."""
    return f"0{value:o}".rjust(3, "0") if value else "000"


def _number(value: int, fmt: str) -> str:
    """The number printxval prints for ``value`` in format.xval's ``fmt`` (hex, int, or unsigned)."""
    if fmt == "hex":
        return hexnum(value)
    return str(signed(value, 32) if fmt == "int" else value)


# ---------------------------------------------------------------------------- raw


def _xval_raw(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
    return _number(value, fmt)


def _flags_raw(value: int, table: Table, dflt: str | None = "0") -> str:
    """printflags_ex raw: the number; nothing at all for 0 without a default (statx's ``, ,``, as strace)."""
    return "" if value == 0 and dflt is None else hexnum(value)


def _print_xlat_raw(value: int, name: str, fmt: str = "hex") -> str:
    return _number(value, fmt)


def _dirfd_raw(c: Call, value: int) -> str:
    return str(signed(value, 32))


def _printsignal_raw(sig: int) -> str:
    return str(signed(sig, 32))


def _sigmask_name_raw(sig: int) -> str:
    return str(sig)


# ---------------------------------------------------------------------------- verbose


def _xval_verbose(value: int, table: Table, dflt: str, fmt: str = "hex") -> str:
    name = xlat(value, table)
    return f"{_number(value, fmt)} /* {dflt if name is None else name} */"


def _flags_verbose(value: int, table: Table, dflt: str | None = "0") -> str:
    """printflags_ex in the verbose style: ``0x3 /* A|B */``, ``0 /* ZERO_NAME */``, ``0x40 /* DFLT */``."""
    if value == 0:
        name = xlat(0, table)
        if name is None:
            return "" if dflt is None else "0"
        return f"0 /* {name} */"
    parts = []
    rest = value
    for val, name in table:
        if val and (rest & val) == val:
            parts.append(name)
            rest &= ~val
            if not rest:
                break
    if not parts:
        return f"{value:#x} /* {dflt} */" if dflt and dflt != "0" else f"{value:#x}"
    if rest:
        parts.append(f"{rest:#x}")
    return f"{value:#x} /* {'|'.join(parts)} */"


def _print_xlat_verbose(value: int, name: str, fmt: str = "hex") -> str:
    return f"{_number(value, fmt)} /* {name} */"


def _dirfd_verbose(c: Call, value: int) -> str:
    v = signed(value, 32)
    return "-100 /* AT_FDCWD */" if v == -100 else str(v)


# ---------------------------------------------------------------------------- composites


def _frozen(func: Callable[..., str]) -> Callable[..., str]:
    """``func`` running against a snapshot of its module's globals, taken before any rebinding.

    The module's other functions in the snapshot are re-created against it as
    well, so helpers that ``func`` calls also keep printing abbreviated names.
    """
    assert isinstance(func, FunctionType)
    live = func.__globals__
    snap = dict(live)
    for key, value in live.items():
        if isinstance(value, FunctionType) and value.__globals__ is live:
            snap[key] = FunctionType(value.__code__, snap, value.__name__, value.__defaults__, value.__closure__)
    return FunctionType(func.__code__, snap, func.__name__, func.__defaults__, func.__closure__)


def _whole(func: Callable[[int], str], number: Callable[[int], str], mask: int, style: str) -> Callable[[int], str]:
    """A composite printer styled as a whole (print_xlat_ex over a name computed in the abbrev style)."""
    if style == "raw":
        return lambda value, *rest: number(value & mask)
    abbrev = _frozen(func)

    def verbose(value: int, *rest: str) -> str:  # rest: e.g. request_name's personality
        return f"{number(value & mask)} /* {abbrev(value, *rest)} */"

    return verbose


def _composites() -> list[tuple[Callable[[int], str], Callable[[int], str], int]]:
    """(printer, raw number format, mask) of the printers strace styles as one value."""
    from pytrace.decode import file, ioctl, memory, quota, stat

    return [
        (quota._qcmd, lambda v: str(v), 0xFFFFFFFF),
        (ioctl.request_name, hexnum, 0xFFFFFFFF),
        (file.open_flags, hexnum, 0xFFFFFFFF),
        (file.open_flags64, hexnum, MASK64),  # openat2's how.flags
        (memory.mmap_flags, hexnum, MASK64),
        (stat.symbolic_mode, octnum, 0xFFFFFFFF),
        (stat.makedev, hexnum, MASK64),
    ]


def _signal_printers(style: str) -> dict[Callable[..., str], Callable[..., str]]:
    from pytrace.decode import signal

    if style == "raw":
        return {
            signal.printsignal: _printsignal_raw,
            signal.sigmask_name: _sigmask_name_raw,
            # print_clock_t: no seconds comment in the raw style.
            signal.clock_t_text: lambda value: str(value & MASK64),
        }
    short = signal.sigmask_name

    def printsignal(sig: int) -> str:
        sig = signed(sig, 32)
        name = signal.signame(sig) if sig > 0 else None
        return f"{sig} /* {name} */" if name and name[0] == "S" else str(sig)

    return {
        signal.printsignal: printsignal,
        signal.sigmask_name: lambda sig: f"{sig} /* {short(sig)} */",
    }


def _module_printers(style: str) -> dict[Callable[..., str], Callable[..., str]]:
    """Printers of single modules that strace styles in their own way."""
    from pytrace.decode import futex, inet, memfd, net, process, sched, time, utime

    raw = style == "raw"
    pairs: dict[Callable[..., str], Callable[..., str]] = {
        time.xval0: _xval_raw if raw else _xval_verbose,
    }
    # utimensat's UTIME_NOW/UTIME_OMIT: the timespec itself, then (verbose) the name.
    if raw:
        pairs[utime.utime_special] = lambda s, ns, name: f"{{tv_sec={s}, tv_nsec={ns}}}"
    else:
        pairs[utime.utime_special] = lambda s, ns, name: f"{{tv_sec={s}, tv_nsec={ns}}} /* {name} */"
    # IOPRIO_PRIO_VALUE(...): the decimal value, then (verbose) the styled expression in a comment.
    live_ioprio = sched.ioprio_value
    if raw:
        pairs[sched.ioprio_value] = lambda v: str(v & 0xFFFFFFFF)
        pairs[sched.ioprio_annotated] = lambda v: str(signed(v, 64))
    else:
        pairs[sched.ioprio_value] = lambda v: f"{v & 0xFFFFFFFF} /* {live_ioprio(v)} */"
        pairs[sched.ioprio_annotated] = lambda v: f"{signed(v, 64)} ({live_ioprio(v)})"
    # evdev's decode_bitset: raw prints only the words, verbose the names then the words in a comment.
    from pytrace.decode import ioctl_structs

    pairs[ioctl_structs.bitset] = (lambda names, words: words) if raw else (lambda names, words: f"{names} /* {words} */")
    # memfd_create: a zero is a bare 0 in every style.
    memfd_styled = _whole(memfd.memfd_flags, hexnum, 0xFFFFFFFF, style)
    pairs[memfd.memfd_flags] = lambda v: memfd_styled(v) if v & 0xFFFFFFFF else "0"
    # print_mac_addr / print_hwaddr (netlink): the bytes in hex, then (verbose) the abbrev text in a comment.
    from pytrace.decode import nlattr

    abbrev_mac = _frozen(nlattr.mac_text)
    if raw:
        pairs[nlattr.mac_text] = lambda data, shown=None: F.quote(data, force_hex=True)
    else:
        pairs[nlattr.mac_text] = lambda data, shown=None: (f"{F.quote(data, force_hex=True)} "
                                                            f"/* {abbrev_mac(data, shown)} */")
    # Network-order fields: the bytes in hex, then (verbose) the abbrev text in a comment.
    for field, strip_name in ((inet.inet_addr_field, True), (inet.inet_pton_field, False),
                              (inet.htons_field, True), (net.htonl_field, True),
                              (net.sll_protocol_field, True)):
        pairs[field] = _net_field(field, raw, strip_name)
    # print_rlim64_t (and i386's print_rlim32_t): the number, then (verbose) a comment when the abbrev
    # form differs.
    for rlim in (process._rlim, process._rlim32):
        abbrev_rlim = _frozen(rlim)
        if raw:
            pairs[rlim] = str
        else:
            pairs[rlim] = lambda v, a=abbrev_rlim: str(v) if a(v) == str(v) else f"{v} /* {a(v)} */"
    # prctl: auxstr annotations vanish in the raw style; PR_SCHED_CORE's pid type is verbose unless raw.
    if raw:
        pairs[process._aux] = lambda text: None
        pairs[process._pidtype] = hexnum
        pairs[futex._op_name] = lambda value, table: None
    return pairs


def _net_field(field: Callable[[str, bytes], str], raw: bool, strip_name: bool) -> Callable[[str, bytes], str]:
    size = {"inet_pton_field": 16, "htons_field": 2, "sll_protocol_field": 2}.get(field.__name__, 4)
    abbrev = _frozen(field)

    def styled(name: str, data: bytes) -> str:
        # the field's bytes, or more: print_inet_addr shows all ``len`` bytes it is given (br_mdb_entry's union)
        text = f"{name}={F.quote(bytes(data[:max(size, len(data))]), force_hex=True)}"
        if raw:
            return text
        expr = abbrev(name, data)
        expr = expr[len(name) + 1:] if strip_name else expr.replace(f", &{name})", ")")
        return f"{text} /* {expr} */"

    return styled


def install_style(style: str) -> None:
    """Rebind the constant printers for ``-X style`` (nothing to do for abbrev, the default)."""
    if style == "abbrev":
        return
    from pytrace.decode import fds

    raw = style == "raw"
    pairs: dict[Callable[..., str], Callable[..., str]] = {
        F.xval: _xval_raw if raw else _xval_verbose,
        F.flags: _flags_raw if raw else _flags_verbose,
        F.print_xlat: _print_xlat_raw if raw else _print_xlat_verbose,
        F.dirfd: _dirfd_raw if raw else _dirfd_verbose,
    }
    pairs.update(_signal_printers(style))
    pairs.update(_module_printers(style))
    for func, number, mask in _composites():
        pairs[func] = _whole(func, number, mask, style)
    fds.rebind(pairs)


# ---------------------------------------------------------------------------- -e raw/abbrev/verbose


def printargs(c: Call) -> str:
    """strace's printargs: every argument the syscall takes, as ``%#lx`` (zero is ``0``)."""
    from pytrace.decode.obsolete import PRINTARGS_NARGS
    from pytrace.tables.syscalls import table

    info = table(c.arch).by_nr.get(c.nr)
    n = PRINTARGS_NARGS.get(c.name) or (len(info.arg_types) if info is not None else len(c.args))
    return ", ".join(hexnum(a & MASK64) for a in c.args[:n])


def rv_raw(c: Call) -> str:
    """The return value of a raw-printed syscall: ``%#lx``."""
    return hexnum(c.rval & MASK64)


def _with_opts(dec: Decoder, attr: str, value: object) -> Decoder:
    """``dec`` running with ``OPTS.<attr>`` set to ``value`` (restored after each half)."""
    from pytrace.decode.registry import Decoder

    opts = F.OPTS
    func = dec.func

    def plain(c: Call) -> object:
        saved = getattr(opts, attr)
        setattr(opts, attr, value)
        try:
            return func(c)
        finally:
            setattr(opts, attr, saved)

    def split(c: Call) -> Generator[str, None, None]:
        saved = getattr(opts, attr)
        setattr(opts, attr, value)
        try:
            gen = func(c)
            first = next(gen)
        finally:
            setattr(opts, attr, saved)
        yield first
        setattr(opts, attr, value)
        try:
            second = next(gen, "")
        finally:
            setattr(opts, attr, saved)
            gen.close()
        yield second

    return Decoder(split if dec.split else plain, dec.split, dec.rval)


def install_qualifiers(raw: frozenset[str] | None, abbrev: frozenset[str] | None,
                       verbose: frozenset[str] | None, every_name: frozenset[str]) -> None:
    """Apply ``-e raw=/abbrev=/verbose=`` (each the set of syscall names it selects, None when not given).

    Only what differs from the default is replaced: the decoders of the
    syscalls printed raw or with another abbreviation, and ``format.fetch``
    (under ``umove``) / ``format.verbose`` when some syscalls are not verbose.  Without these
    options nothing here runs.
    """
    from pytrace.decode import _GENERIC, DECODERS, fds
    from pytrace.decode.registry import Decoder

    if abbrev is not None:
        # abbrev is on for every call by default (-v turns it off for all): the calls left
        # out of the set are printed as -v prints them, the ones in it as without -v.
        for name in every_name:
            want_verbose = name not in abbrev
            if want_verbose != F.OPTS.verbose:
                DECODERS[name] = _with_opts(DECODERS.get(name, _GENERIC), "verbose", want_verbose)
    if verbose is not None and every_name - verbose:
        quiet = every_name - verbose
        real_fetch = F.fetch

        def fetch(c: Call, address: int, size: int, ignore_error: bool = False) -> bytes | None:
            return None if c.name in quiet else real_fetch(c, address, size, ignore_error)

        fds.rebind({real_fetch: fetch, F.verbose: lambda c: c.name not in quiet})
    if raw is not None:
        raw_dec = Decoder(printargs, False, rv_raw)
        for name in raw:
            DECODERS[name] = raw_dec


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


def install_from_qualifiers(qualifiers: list[tuple[str, str]]) -> None:
    """``-e raw=/abbrev=/verbose=`` from the command line (the last of each kind wins, as in strace)."""
    given = {name: value for name, value in qualifiers if name in ("raw", "abbrev", "verbose")}
    if not given:
        return
    from pytrace.filters import PERSONALITIES
    from pytrace.tables.subcalls import pseudo_names
    from pytrace.tables.syscalls import table

    every = frozenset(info.name for arch in PERSONALITIES for info in table(arch).by_nr.values())
    every |= frozenset(pseudo_names("i386").values())
    install_qualifiers(
        *(_names(given[k]) if k in given else None for k in ("raw", "abbrev", "verbose")), every_name=every
    )
