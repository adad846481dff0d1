"""pyltrace's on-disk cache of what it learns from an ELF file, so a second run skips pyelftools and capstone.

Reading a library's PLT (pyelftools for the sections and relocations, capstone
for the stubs) and its symbol tables costs more than Python's whole start-up,
and every run of ``pyltrace PROG`` does it again for the program, libc and the
dynamic linker, though these files rarely change (issue 15).  So the facts
pyltrace derives from a file (header fields, PLT stubs, GOT symbols, symbols,
GOT call sites) are kept in ``$XDG_CACHE_HOME/pytrace`` (``~/.cache/pytrace``)
keyed by the file's identity: (st_dev, st_ino, st_size, st_mtime_ns) and
pytrace's version.  A changed file, or another pytrace version, is a miss.
``PYTRACE_CACHE=0`` turns the cache off (the directory and the helpers every
cache shares are pytrace/cache.py).

Entries are per file, so tracing many distinct binaries (a build tree's
test programs, say) would grow the directory without end: each store, which
happens only on a miss, keeps it to ``MAX_ENTRIES`` ELF entries by deleting
the least recently written ones (a hit costs nothing extra).

The cache is only ever an optimisation: a file that is missing, unreadable,
corrupt or from another key is a miss, and a directory that cannot be written
is silently not written (never an error, never a traceback).  Entries are
written atomically (a private temporary file renamed over the entry), in
``marshal`` form: it is built in, so loading needs no import and no parsing
beyond the interpreter's own.
"""

from __future__ import annotations

import marshal
import os

from pytrace import __version__
from pytrace.cache import prune, write_entry

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

#: Bump when the layout of the stored facts changes, or what is derived from a file does (pytrace's
#: version is in the key too).  2: i386 objects (their word size; IRELATIVE slots named).  3: the
#: header facts apart from the body (PLT, symbols, call sites) that most objects never need.
FORMAT = 3

#: At most this many ELF entries stay in the cache (about 4 KiB-1 MiB each: libc's is the largest);
#: past it a store removes the oldest quarter.
MAX_ENTRIES = 512
PREFIX = "elf-"


def identity(st: os.stat_result) -> tuple[Any, ...]:
    """The key a cached entry must match: the file's identity and the code that derived the facts."""
    return (FORMAT, __version__, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _entry_path(directory: str, st: os.stat_result) -> str:
    # One entry per file (device, inode): a changed file's new facts replace the old ones.
    return os.path.join(directory, f"{PREFIX}{st.st_dev:x}-{st.st_ino:x}.marshal")


def load(st: os.stat_result, directory: str | None) -> tuple[dict[str, Any], bytes] | None:
    """(header facts, marshalled body) stored for the file ``st`` describes, or None (no entry, stale,
    corrupt, unreadable).

    The body (PLT stubs, symbols, call sites: nearly all of libc's entry) stays bytes, to be
    unmarshalled only if a run asks for it: a default run traces the program's own PLT, so for
    libc and the dynamic linker it needs nothing but the header.
    """
    if directory is None:
        return None
    try:
        with open(_entry_path(directory, st), "rb") as f:
            data = f.read()
        # loads of the bytes, not load(f): from a file object marshal reads piecemeal, about 10x
        # slower (13 ms instead of 1 ms for libc's entry here)
        stored = marshal.loads(data)
    except Exception:  # noqa: BLE001 - bad marshal data raises EOFError, ValueError, TypeError...: a miss
        return None
    if not isinstance(stored, tuple) or len(stored) != 3 or stored[0] != identity(st):
        return None
    _, head, body = stored
    return (head, body) if isinstance(head, dict) and isinstance(body, bytes) else None


def store(st: os.stat_result, directory: str | None, head: dict[str, Any], body: dict[str, Any]) -> None:
    """Write the facts atomically; any failure (read-only or full disk, no home) leaves no trace."""
    if directory is not None:
        try:
            data = marshal.dumps((identity(st), head, marshal.dumps(body)))
        except ValueError:  # a value marshal cannot hold: simply not cached
            return
        write_entry(directory, _entry_path(directory, st), data)
        prune(directory, MAX_ENTRIES, PREFIX)
