"""Assembled capture programs kept across runs, so a second run with the same options skips their
generation and assembly (~10 ms of Python at start-up, part of it before sys_enter's verification
can start: issue 14).

An entry is keyed by everything the bytecode depends on: the generator's name and its arguments
(the tracepoint layout read from tracefs, the map fds, the capture rows, the options), the
source files that generate code (their size and mtime), pytrace's version and the kernel build.
Map fds are part of the key rather than patched into the bytecode: a run that opens its maps at
other fd numbers (more inherited fds) simply misses.  The entry stores the whole key and is used
only when it compares equal, so a colliding file name or a corrupt or truncated file is a miss.
``PYTRACE_CACHE=0`` turns it off (pytrace/cache.py), as for pyltrace's ELF cache.

``cached_table`` keeps the capture table the same way (``build_table``: ~3 ms of Python parsing
some 600 capture plans into slots, before sys_enter's load can start), keyed by the traced
syscalls' capture cells themselves, the options and the code that turns them into slots.
"""

from __future__ import annotations

import marshal
import os
import zlib

from pytrace import __version__
from pytrace.backends.ebpf.capture_table import CaptureTable, build_table

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from pytrace.backends.ebpf.asm import Linked, Program
    from pytrace.backends.ebpf.capture_table import CaptureOptions

#: Bump when what an entry holds changes.
FORMAT = 1
PREFIX = "ebpf-prog-"
#: Entries kept (a few KiB each: one per program and option set); past it the oldest go.
MAX_ENTRIES = 96
TABLE_PREFIX = "ebpf-table-"
#: The modules whose code shapes the bytecode.
_GENERATORS = ("asm", "programs", "capture_progs", "capture_slots", "capture_table")
#: Those that turn capture plans into slots (build_table), from this directory.
_TABLE_CODE = ("capture_table", "../../tables/capture_plan", "../../tables/syscalls")


def _code_identity(modules: tuple[str, ...] = _GENERATORS) -> tuple[object, ...]:
    here = os.path.dirname(os.path.abspath(__file__))
    stats = []
    for name in modules:
        try:
            st = os.stat(os.path.join(here, name + ".py"))
            stats.append((name, st.st_size, st.st_mtime_ns))
        except OSError:
            stats.append((name, -1, -1))
    uname = os.uname()
    return (FORMAT, __version__, uname.release, uname.version, tuple(stats))


def _arg_key(arg: object) -> object:
    """A marshal-able, exact stand-in for one generator argument: the capture table as its packed
    rows (its repr is ~1 ms), everything else (ints, small records of ints) as its repr."""
    if isinstance(arg, CaptureTable):
        return tuple(tuple(sorted(side.items())) for side in arg.packed())
    return repr(arg)


class ProgramCache:
    """``link(make, args)``: ``make(*args).link()``'s bytecode and function starts, from the cache
    directory when a previous run stored them under the same key; ``directory`` None: no cache."""

    def __init__(self, directory: str | None) -> None:
        self.directory = directory
        self._identity: tuple[object, ...] | None = None
        self.hits = 0

    def link(self, make: Callable[..., Program], args: tuple[object, ...]) -> Linked:
        from pytrace.backends.ebpf.asm import Linked

        if self.directory is None:
            return make(*args).link()
        if self._identity is None:
            self._identity = _code_identity()
        key = marshal.dumps((self._identity, make.__module__, make.__qualname__, tuple(_arg_key(a) for a in args)))
        path = os.path.join(self.directory, f"{PREFIX}{make.__name__}-{zlib.crc32(key):08x}.marshal")
        try:
            with open(path, "rb") as f:
                stored = marshal.loads(f.read())
            if (isinstance(stored, tuple) and len(stored) == 3 and stored[0] == key
                    and isinstance(stored[1], bytes) and isinstance(stored[2], tuple)):
                self.hits += 1
                return Linked(stored[1], stored[2])
        except Exception:  # noqa: BLE001 - missing, unreadable or bad marshal data: a miss
            pass
        linked = make(*args).link()
        from pytrace.cache import prune, write_entry

        write_entry(self.directory, path, marshal.dumps((key, linked.bytecode, tuple(linked.functions))))
        prune(self.directory, MAX_ENTRIES, PREFIX)
        return linked


def cached_table(directory: str | None, opts: CaptureOptions, max_nr: int, only: Collection[int]) -> CaptureTable:
    """``build_table(opts, max_nr=max_nr, only=only)``, from ``directory`` when a previous run built it
    from the same capture cells, options and code (None: no cache).  Any cache failure is a miss."""
    if directory is None:
        return build_table(opts, max_nr=max_nr, only=only)
    from pytrace.tables.syscalls import table

    cells = tuple((nr, info.facts.split("\t")[6]) for nr, info in sorted(table("x86_64").by_nr.items())
                  if nr < max_nr and nr in only)
    key = marshal.dumps((FORMAT, _code_identity(_TABLE_CODE), repr(opts), cells))
    path = os.path.join(directory, f"{TABLE_PREFIX}{zlib.crc32(key):08x}.marshal")
    try:
        with open(path, "rb") as f:
            stored = marshal.loads(f.read())
        if isinstance(stored, tuple) and len(stored) == 3 and stored[0] == key:
            return CaptureTable.from_packed(stored[1], stored[2])
    except Exception:  # noqa: BLE001 - missing, unreadable or bad marshal data (or slots): a miss
        pass
    built = build_table(opts, max_nr=max_nr, only=only)
    from pytrace.cache import prune, write_entry

    write_entry(directory, path, marshal.dumps((key, *built.packed())))
    prune(directory, MAX_ENTRIES, TABLE_PREFIX)
    return built
