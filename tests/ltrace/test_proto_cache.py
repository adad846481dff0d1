"""The prototype cache's on-disk form (pytrace/ltrace/proto_cache.py) gives back what the parser made.

Every function of the shipped ltrace.conf and libc.conf, of tests/ltrace/src/protos.conf (recursive
lists, enums, structs with hidden fields, every lens, packs) and of fuzzed files is read back from
a stored entry with the same type graph: the same kinds, lenses, lengths and fields, and the same
sharing (one object where the parser made one: a recursive struct, a type two prototypes share,
``string(TYPE)`` setting the lens of a shared type), and prints the same values.  Types are rebuilt
only for the functions looked up, and an entry whose rows are not the shape written is answered
by parsing the files.  The end-to-end runs (hit, edit, corrupt entry) are in
tests/unit/test_startup_imports.py.
"""

from __future__ import annotations

import random
from pathlib import Path

from test_prototypes import CONF, _mutate, _RandomMem, _source_lines

from pytrace.ltrace import proto_cache as PC
from pytrace.ltrace import prototypes as P
from pytrace.ltrace import values as V
from pytrace.ltrace.ctypes_model import Type


def _stored(paths: list[str], cache: Path) -> P.Prototypes:
    """Parse and store, then read back (asserting that it is the cache answering)."""
    parsed = PC.load_prototypes(paths, str(cache))
    assert not isinstance(parsed, PC.StoredPrototypes)
    stored = PC.load_prototypes(paths, str(cache))
    assert isinstance(stored, PC.StoredPrototypes), "the second load should come from the entry"
    return stored


def _same_graph(a: Type, b: Type, pairs: dict[int, int], back: dict[int, int]) -> None:
    """``a`` and ``b`` have the same shape and the same sharing (``pairs``/``back``: the object bijection)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if id(x) in pairs or id(y) in back:
            assert pairs.get(id(x)) == id(y) and back.get(id(y)) == id(x), "sharing differs"
            continue
        pairs[id(x)], back[id(y)] = id(y), id(x)
        assert (x.kind, x.pack, x.length) == (y.kind, y.pack, y.length)
        assert (x.lens is None) == (y.lens is None)
        if x.lens is not None:
            assert (x.lens.name, x.lens.entries) == (y.lens.name, y.lens.entries)
        assert (x.target is None) == (y.target is None) and len(x.fields) == len(y.fields)
        if x.target is not None:
            stack.append((x.target, y.target))
        stack.extend(zip(x.fields, y.fields, strict=True))


def _compare(parsed: P.Prototypes, stored: P.Prototypes, rng: random.Random) -> int:
    assert stored.errors == parsed.errors
    pairs: dict[int, int] = {}
    back: dict[int, int] = {}
    mem = _RandomMem()
    names = list(parsed.protos)
    functions = stored.protos
    assert names and sorted(names) == sorted(functions)
    assert all((parsed.protos[n].first_out, parsed.protos[n].pack, len(parsed.protos[n].params))
               == (functions[n].first_out, functions[n].pack, len(functions[n].params)) for n in names)
    for name in names:
        want, got = parsed.get(name), stored.get(name)
        assert want is not None and got is not None
        assert (want.first_out, want.pack, len(want.params)) == (got.first_out, got.pack, len(got.params))
        for a, b in zip([want.ret, *want.params], [got.ret, *got.params], strict=True):
            _same_graph(a, b, pairs, back)
        ints = [rng.getrandbits(64) for _ in range(6)]
        texts = []
        for proto in (want, got):
            src = P.ArgSource(list(ints), 0x7000, mem, lambda: [bytes(range(16))] * 8)
            raws = P.fetch_raws(proto.params, src)
            ctx = V.Ctx(mem, 32, 4, raws, 12345)
            texts.append((P.format_params(proto.params, raws, src, ctx, 0, len(proto.params)),
                          P.format_value(proto.ret, ints[0], ctx)))
        assert texts[0] == texts[1], name
    return len(names)


def test_shipped_and_test_files_come_back_the_same(tmp_path: Path) -> None:
    paths = [P.EXTRA, P.SHIPPED_LTRACE_CONF, str(CONF)]
    stored = _stored(paths, tmp_path)
    parsed = P.Prototypes()
    for path in paths:
        parsed.load_file(path)
    assert _compare(parsed, stored, random.Random(15)) > 450


def test_fuzzed_files_come_back_the_same(tmp_path: Path) -> None:
    rng = random.Random(1515)
    src = _source_lines()
    for k in range(8):
        path = tmp_path / f"f{k}.conf"
        path.write_bytes("\n".join(_mutate(rng, rng.choice(src)) for _ in range(100)).encode("latin-1") + b"\n")
        stored = _stored([str(path)], tmp_path / "cache")
        parsed = P.Prototypes()
        parsed.load_file(path)
        _compare(parsed, stored, rng)


def test_types_are_built_only_for_the_functions_looked_up(tmp_path: Path) -> None:
    stored = _stored([P.SHIPPED_LTRACE_CONF], tmp_path)
    assert isinstance(stored, PC.StoredPrototypes)
    assert stored._made == {}  # noqa: SLF001 - reading the entry builds no type
    proto = stored.get("strlen")
    assert proto is not None and [p.kind for p in proto.params] and 0 < len(stored._made) < 10  # noqa: SLF001
    assert stored.get("no_such_function") is None


def test_rows_of_another_shape_are_answered_by_parsing(tmp_path: Path) -> None:
    """An entry with the right key whose rows are not what was written: the files decide, nothing raises."""
    import marshal

    paths = [P.SHIPPED_LTRACE_CONF]
    stored = _stored(paths, tmp_path)
    (entry,) = tmp_path.glob(f"{PC.PREFIX}*.marshal")
    key, errors, types, lenses, functions = marshal.loads(entry.read_bytes())
    entry.write_bytes(marshal.dumps((key, errors, tuple(("bad",) for _ in types), lenses, functions)))
    broken = PC.load_prototypes(paths, str(tmp_path))
    assert isinstance(broken, PC.StoredPrototypes)
    want, got = stored.get("strlen"), broken.get("strlen")
    assert want is not None and got is not None and [p.kind for p in want.params] == [p.kind for p in got.params]
    assert sorted(broken.protos) == sorted(stored.protos)


def test_a_store_removes_entries_of_the_old_pickle_format(tmp_path: Path) -> None:
    old = tmp_path / f"{PC.PREFIX}0123abcd.pickle"
    old.write_bytes(b"\x80\x05stale")
    other = tmp_path / "elf-1-2.marshal"
    other.write_bytes(b"")
    _stored([P.SHIPPED_LTRACE_CONF], tmp_path)
    assert not old.exists() and other.exists()
    assert len(list(tmp_path.glob(f"{PC.PREFIX}*.marshal"))) == 1
