"""pyltrace's on-disk cache of parsed prototype files (``/etc/ltrace.conf`` and the others read).

Parsing ltrace.conf's few hundred declarations costs pyltrace more than Python's
whole start-up, on every run, for a file that almost never changes (issue 15).
The parsed result (``Prototypes``: every function, the error messages) is kept
next to the ELF facts (``elf_cache.cache_dir()``), keyed by pytrace's version
and, for every file in the order read, its path and identity (st_dev, st_ino,
st_size, st_mtime_ns, st_mode: a file made unreadable by chmod reads
differently).  A file list with anything but regular files in it (``-F
/dev/stdin``) is parsed every time.

Like the ELF cache, it is only an optimisation: a missing, stale, corrupt or
unreadable entry is a miss, an unwritable directory is not written, and nothing
is ever reported.  The entry is a pickle written atomically into the user's own
0700 cache directory; only what that user wrote there is ever loaded.
"""

from __future__ import annotations

import os
import stat
import zlib

from pytrace import __version__
from pytrace.cache import write_entry
from pytrace.ltrace.prototypes import Prototypes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

FORMAT = 1


def _key(paths: list[str]) -> tuple[Any, ...] | None:
    ids: list[tuple[Any, ...]] = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            ids.append((path, None))  # not there: skipped, as ltrace does; a new file changes the key
            continue
        if not stat.S_ISREG(st.st_mode):
            return None
        ids.append((path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_mode))
    return (FORMAT, __version__, tuple(ids))


def load_prototypes(paths: list[str], directory: str | None) -> Prototypes:
    """``Prototypes`` with every file of ``paths`` loaded in order: from the cache, or parsed (and stored)."""
    key = _key(paths) if directory is not None else None
    entry = None
    if key is not None and directory is not None:
        # One entry per list of files (not hashlib: importing it costs milliseconds); the key inside decides.
        digest = zlib.crc32(repr(paths).encode("utf-8", "surrogateescape"))
        entry = os.path.join(directory, f"protos-{digest:08x}.pickle")
        cached = _load(entry, key)
        if cached is not None:
            return cached
    protos = Prototypes()
    for path in paths:
        protos.load_file(path)
    if entry is not None and directory is not None:
        _store(entry, directory, key, protos)
    return protos


def _load(entry: str, key: tuple[Any, ...]) -> Prototypes | None:
    import pickle

    try:
        with open(entry, "rb") as f:
            stored = pickle.load(f)
    except Exception:  # noqa: BLE001 - a corrupt or foreign entry is a miss, whatever it raises
        return None
    if (isinstance(stored, tuple) and len(stored) == 2 and stored[0] == key
            and isinstance(stored[1], Prototypes)):
        return stored[1]
    return None


def _store(entry: str, directory: str, key: tuple[Any, ...] | None, protos: Prototypes) -> None:
    import pickle

    try:
        data = pickle.dumps((key, protos), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - unpicklable (a future field): simply not cached
        return
    write_entry(directory, entry, data)
