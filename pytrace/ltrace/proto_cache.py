"""pyltrace's on-disk cache of parsed prototype files (``/etc/ltrace.conf`` and the others read).

Parsing ltrace.conf's few hundred declarations costs pyltrace more than Python's
whole start-up, on every run, for a file that almost never changes (issue 15).
The parsed result (every function's types, the error messages) is kept in
pytrace's cache directory (pytrace/cache.py), keyed by pytrace's version and, for
every file in the order read, its path and identity (st_dev, st_ino, st_size,
st_mtime_ns, st_mode: a file made unreadable by chmod reads differently).  A file
list with anything but regular files in it (``-F /dev/stdin``) is parsed every time.

The entry is ``marshal`` data (built in: no pickle import, ~1.5 ms, and no ~2 ms of
unpickling 450 functions' objects): the types of all functions form one table
of plain tuples that refer to each other by index, so a struct that contains a
pointer to itself, or a type two prototypes share, comes back as one object, as
the parser made it.  Reading the entry builds nothing: ``StoredPrototypes``
rebuilds a function's types at its first lookup, and a run looks up only the
functions it sees called.

Like the ELF cache, it is only an optimisation: a missing, stale, corrupt or
unreadable entry is a miss, an unwritable directory is not written, and nothing
is ever reported.  The entry is written atomically into the user's own 0700
cache directory; a store keeps at most ``MAX_ENTRIES`` of them (one per list of files).
"""

from __future__ import annotations

import marshal
import os
import stat

from pytrace import __version__
from pytrace.cache import digest, prune, write_entry
from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.ctypes_model import Expr, Lens, Type
from pytrace.ltrace.prototypes import Proto, Prototypes

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

    from pytrace.ltrace.protoparse import Function

#: 2: marshal tables (1 was a pickle of the Prototypes object).
FORMAT = 2
PREFIX = "protos-"
#: Entries kept (one per list of prototype files, a few KiB to 60 KiB each); past it the oldest go.
MAX_ENTRIES = 128
#: The lenses without state, stored by name and read back as the very objects the parser uses.
_NAMED_LENSES = {lens.name: lens for lens in (T.DEFAULT_LENS, T.HIDE, T.OCTAL, T.BITVEC, T.HEX, T.BOOL, T.GUESS,
                                              T.STRING)}


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
        # One entry per list of files; the key inside decides.
        entry = os.path.join(directory, f"{PREFIX}{digest(repr(paths).encode('utf-8', 'surrogateescape'))}.marshal")
        cached = _load(entry, key, paths)
        if cached is not None:
            return cached
    protos = _parse(paths)
    if entry is not None and directory is not None:
        _store(entry, directory, key, protos)
    return protos


def _parse(paths: list[str]) -> Prototypes:
    protos = Prototypes()
    for path in paths:
        protos.load_file(path)
    return protos


def _load(entry: str, key: tuple[Any, ...], paths: list[str]) -> Prototypes | None:
    try:
        with open(entry, "rb") as f:
            stored = marshal.loads(f.read())
    except Exception:  # noqa: BLE001 - bad marshal data raises EOFError, ValueError, TypeError...: a miss
        return None
    if not (isinstance(stored, tuple) and len(stored) == 5 and stored[0] == key):
        return None
    _, errors, types, lenses, functions = stored
    if not (isinstance(errors, tuple) and all(isinstance(e, str) for e in errors) and isinstance(types, tuple)
            and isinstance(lenses, tuple) and isinstance(functions, dict)):
        return None
    return StoredPrototypes(paths, list(errors), types, lenses, functions)


def _store(entry: str, directory: str, key: tuple[Any, ...] | None, protos: Prototypes) -> None:
    try:
        data = marshal.dumps((key, tuple(protos.errors), *_tables(protos)))
    except (ValueError, TypeError):  # a shape the tables do not know (a future field): simply not cached
        return
    write_entry(directory, entry, data)
    prune(directory, MAX_ENTRIES, PREFIX)
    prune(directory, 0, PREFIX, ".pickle")  # the first format's entries: never read again


# -- the tables -----------------------------------------------------------------------------------------
# types: one tuple per Type object (kind, lens, target index or -1, length, field indices, pack), where
# lens is None, a stateless lens's name or an index into lenses (an enum's (name, value) entries), and
# length is None or an Expr as (op, n, inner).  functions: name -> (ret, param indices, first_out, pack).


def _tables(protos: Prototypes) -> tuple[tuple[Any, ...], tuple[Any, ...], dict[str, Any]]:
    """(types, lenses, functions) of every prototype read; ValueError for a shape they cannot hold."""
    order: list[Type] = []
    index: dict[int, int] = {}  # id(Type) -> its row (the objects stay alive in protos meanwhile)

    def number(t: Type) -> int:
        stack = [t]  # not recursive: a declared pointer chain can be deeper than Python's stack
        while stack:
            u = stack.pop()
            if id(u) in index:
                continue
            index[id(u)] = len(order)
            order.append(u)
            if u.target is not None:
                stack.append(u.target)
            stack.extend(u.fields)
        return index[id(t)]

    functions = {name: (number(f.ret), tuple(number(p) for p in f.params), f.first_out, f.pack)
                 for name, f in protos.protos.items()}
    lenses: list[tuple[tuple[str, int], ...]] = []
    lens_rows: dict[int, int] = {}

    def lens_ref(lens: Lens | None) -> str | int | None:
        if lens is None:
            return None
        if lens.name != "enum":
            if lens.entries or _NAMED_LENSES.get(lens.name) is None:
                raise ValueError(f"lens {lens.name!r}")
            return lens.name
        row = lens_rows.get(id(lens))
        if row is None:
            row = lens_rows[id(lens)] = len(lenses)
            lenses.append(tuple((str(n), int(v)) for n, v in lens.entries))
        return row

    types = tuple((u.kind, lens_ref(u.lens), index[id(u.target)] if u.target is not None else -1, _expr_row(u.length),
                   tuple(index[id(f)] for f in u.fields), u.pack) for u in order)
    return types, tuple(lenses), functions


def _expr_row(e: object) -> tuple[Any, ...] | None:
    if e is None:
        return None
    if not isinstance(e, Expr):
        raise ValueError(f"length {e!r}")
    return (e.op, e.n, _expr_row(e.inner))


def _expr(row: Any) -> Expr | None:
    if row is None:
        return None
    op, n, inner = row
    return Expr(op, n, _expr(inner))


class StoredPrototypes(Prototypes):
    """Prototypes read back from a cache entry: a function's types are rebuilt at its first lookup.

    Objects are rebuilt once per table row, so identity is as the parser left it (recursive
    structs, shared types).  Should a row not have the shape written (an entry of the right key
    but not ours), the files are parsed after all and answer from then on.  Read-only: nothing
    loads more text into it (``load_prototypes`` reads every file before it returns).
    """

    def __init__(self, paths: list[str], errors: list[str], types: tuple[Any, ...], lenses: tuple[Any, ...],
                 functions: dict[str, Any]) -> None:
        self.errors = errors
        self._protos = {}
        self._paths = paths
        self._types = types
        self._lenses = lenses
        self._functions = functions
        self._made: dict[int, Type] = {}
        self._made_lenses: dict[int, Lens] = {}
        self._parsed: Prototypes | None = None

    @property
    def protos(self) -> dict[str, Function]:
        out = {}
        for name in self._functions:
            fun = self._function(name)
            if fun is not None:
                out[name] = fun
        return out

    def load_text(self, text: str, origin: str = "<text>") -> None:
        raise TypeError("prototypes read from the cache take no more text")

    def get(self, name: str) -> Proto | None:
        """As Prototypes.get, the Proto made from the rows (no protoparse.Function: not even that import)."""
        p = self._protos.get(name)
        if p is None:
            if self._parsed is not None:
                return self._parsed.get(name)
            row = self._functions.get(name)
            if row is None:
                return None
            try:
                ret, params, first_out, pack = row
                p = Proto(name, self._type(ret), [self._type(i) for i in params], first_out, pack)
            except Exception:  # noqa: BLE001 - not the shape written: the files themselves decide
                self._parsed = _parse(self._paths)
                return self._parsed.get(name)
            self._protos[name] = p
        return p

    def _function(self, name: str) -> Function | None:
        from pytrace.ltrace.protoparse import Function

        if self._parsed is None and self.get(name) is not None and self._parsed is None:
            ret, params, first_out, pack = self._functions[name]  # good rows: get() just read them
            return Function(name, self._type(ret), [self._type(i) for i in params], first_out, pack)
        return None if self._parsed is None else self._parsed._function(name)  # noqa: SLF001 - same family

    def _type(self, i: int) -> Type:
        made = self._made
        t = made.get(i)
        if t is not None:
            return t
        rows = self._types
        new: list[int] = []
        stack = [i]
        while stack:  # every type reachable from row i gets its object first: rows may refer to each other
            j = stack.pop()
            if j in made:
                continue
            kind, _lens, target, _length, fields, _pack = rows[j]
            made[j] = Type(kind)
            new.append(j)
            if target >= 0:
                stack.append(target)
            stack.extend(fields)
        for j in new:
            _kind, lens, target, length, fields, pack = rows[j]
            u = made[j]
            u.lens = self._lens(lens)
            u.target = made[target] if target >= 0 else None
            u.length = _expr(length)
            u.fields = [made[f] for f in fields]
            u.pack = bool(pack)
        return made[i]

    def _lens(self, ref: str | int | None) -> Lens | None:
        if ref is None:
            return None
        if isinstance(ref, str):
            return _NAMED_LENSES[ref]
        lens = self._made_lenses.get(ref)
        if lens is None:
            lens = self._made_lenses[ref] = Lens("enum", [tuple(e) for e in self._lenses[ref]])
        return lens
