"""Capture plans at work: copy exactly the bytes a syscall's plan names, and read only those.

The syscall tables' ``capture`` column (syscall_tables/README.md) says, for each pointer
argument a decoder reads, what it points to, how big it is and at which stop it is valid.  That
is the contract a backend needs to copy a call's memory at the stop (or in the kernel) and
decode later, elsewhere.  This module holds both halves of the contract:

* ``snapshot(...)``: at an entry or exit stop, copy from the live tracee exactly the regions the
  plan names for that stop;
* ``SnapshotMemory``: a memory reader with the live reader's interface (``read``,
  ``read_upto``, ``read_cstring``) that serves reads from those copies only; a read outside them
  is unreadable memory, which decoders print as an address.

Decoding a call once from live memory and once from a ``SnapshotMemory`` and comparing the lines
(pytrace/sinks/capture_check.py, PYTRACE_CHECK_CAPTURE) shows whether a plan is complete.
"""

from __future__ import annotations

from pytrace.tables.capture_plan import SP_INDEX

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Protocol

    from pytrace.tables.capture_plan import ArgPlan
else:  # at run time a Protocol is only a base class: no typing import (~2 ms of start-up)
    Protocol = object

PATH_MAX = 4096

#: Largest region copied for one argument (a read() of a huge buffer is cut here).
MAX_REGION = 1 << 20
_MAX_BITS = 1024 * 1024
#: Most bytes a ``ptrlen`` pair's pointer is followed for (a sigset is 8; strace reads up to 128).
PTRLEN_MAX = 1024
#: Most bytes of clone3's struct copied: the decoder looks at a page of it (its non-zero tail).
CLONE_ARGS_MAX = 4096
#: Most pointers copied from one ``strv`` array (an environment of thousands of variables is cut).
MAX_VECTOR = 4096
_AT_ENTRY = frozenset(("entry", "both"))
_AT_EXIT = frozenset(("exit", "both"))


class Memory(Protocol):
    """What decoders read tracee memory through (pytrace.backends.ptrace.memory.MemoryReader)."""

    def read(self, addr: int, size: int) -> bytes | None: ...
    def read_upto(self, addr: int, size: int) -> bytes | None: ...
    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None: ...


if TYPE_CHECKING:
    from typing import TypeAlias

    #: A compiled plan for one stop (``copier``): (args, rval, memory, sp) -> the regions, or None.
    Copier: TypeAlias = Callable[[Sequence[int], int | None, Memory, int], tuple[tuple[int, bytes], ...] | None]


class SnapshotMemory:
    """Tracee memory as copied at one stop: ``(start, bytes)`` regions; everything else is unreadable.

    The three methods answer as the live reader would had the tracee's memory been exactly
    these regions: a read must lie inside one region, ``read_upto`` returns the readable prefix,
    ``read_cstring`` needs the NUL (or ``limit`` + 1 bytes) inside the region.  ``earlier`` is
    the entry stop's snapshot seen from the exit stop: what the kernel only reads is copied at
    entry and still holds at exit (write's buffer, a timeout), so the exit half of a decoder
    (or -e write='s dump) may read it there; what the exit stop copied comes first.
    """

    __slots__ = ("regions", "earlier")

    def __init__(self, regions: Sequence[tuple[int, bytes]] = (), earlier: SnapshotMemory | None = None) -> None:
        self.regions = tuple(regions)
        self.earlier = earlier

    def _at(self, addr: int) -> bytes | None:
        """The copied bytes from ``addr`` to the end of the longest region holding it (this stop's first)."""
        best: bytes | None = None
        for start, data in self.regions:
            if start <= addr < start + len(data):
                tail = data[addr - start:]
                if best is None or len(tail) > len(best):
                    best = tail
        if best is None and self.earlier is not None:
            return self.earlier._at(addr)
        return best

    def read(self, addr: int, size: int) -> bytes | None:
        if size <= 0:
            return b""
        tail = self._at(addr)
        return tail[:size] if tail is not None and len(tail) >= size else None

    def read_upto(self, addr: int, size: int) -> bytes | None:
        if size <= 0:
            return b""
        tail = self._at(addr)
        return tail[:size] if tail else None

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None:
        tail = self._at(addr)
        if tail is None:
            return None
        nul = tail.find(b"\0", 0, limit + 1)
        if nul >= 0:
            return tail[:nul], True
        if len(tail) > limit:
            return tail[:limit], False
        return None


def _arg_index(text: str) -> int:
    return int(text.removeprefix("arg"))


def region_size(plan: ArgPlan, args: Sequence[int], rval: int | None, mem: Memory, word: int) -> int | None:
    """How many bytes ``plan`` names at this stop (None: nothing to copy, e.g. a failed read's buffer)."""
    size = plan.size
    if size.isdigit():
        return int(size)
    if size.startswith("ret"):
        if rval is None or rval <= 0:
            return None
        _, _, times = size.partition("*")
        return rval * int(times or 1)
    if size.startswith("*arg"):
        ptr = args[_arg_index(size[1:])]
        data = mem.read(ptr, 4) if ptr else None
        if data is None:
            return None
        return max(int.from_bytes(data, "little", signed=True), 0)
    if size.startswith("bitmask("):  # an fd_set, a node mask: the bits in whole longs
        bits = args[_arg_index(size[8:-1])] & 0xFFFFFFFF
        if bits & 0x80000000 or bits == 0:
            return None
        bits = min(bits, _MAX_BITS)
        return (((bits + 7) // 8) + word - 1) & -word
    if size.startswith("arg"):
        n, _, times = size.partition("*")
        return args[_arg_index(n)] * int(times or 1)
    raise ValueError(f"unknown capture size {size!r}")


def _string_vector(mem: Memory, addr: int, word: int, string_limit: int) -> list[tuple[int, bytes]]:
    """A ``strv`` plan (argv, envp): the pointer array up to its NULL, then each string it points to."""
    words: list[int] = []
    while len(words) < MAX_VECTOR:
        data = mem.read(addr + len(words) * word, word)
        if data is None:
            break
        words.append(int.from_bytes(data, "little"))
        if not words[-1]:
            break
    regions = [(addr, b"".join(w.to_bytes(word, "little") for w in words))] if words else []
    for ptr in words:
        got = mem.read_cstring(ptr, string_limit) if ptr else None
        if got is not None:
            text, complete = got
            data = text + b"\0" if complete else mem.read_upto(ptr, string_limit + 1)
            if data:
                regions.append((ptr, data))
    return regions


def _word(data: bytes, index: int, word: int) -> int:
    return int.from_bytes(data[index * word:(index + 1) * word], "little")


def _iovecs(mem: Memory, addr: int, count: int, word: int, buf_limit: int = MAX_REGION) -> list[tuple[int, bytes]]:
    """An ``iovec`` plan (readv's vector): the array of ``count`` {base, len} and each buffer
    (up to ``buf_limit`` bytes of it)."""
    count = min(count, MAX_VECTOR)
    array = mem.read_upto(addr, count * 2 * word) if count > 0 else None
    if not array:
        return []
    regions = [(addr, array)]
    for i in range(len(array) // (2 * word)):
        base, size = _word(array, 2 * i, word), _word(array, 2 * i + 1, word)
        data = mem.read_upto(base, min(size, buf_limit)) if base and size else None
        if data:
            regions.append((base, data))
    return regions


def _msghdr_size(word: int) -> int:
    return 7 * word if word == 4 else 56


def _msghdr(mem: Memory, addr: int, word: int, buf_limit: int = MAX_REGION) -> list[tuple[int, bytes]]:
    """A ``msghdr`` plan: the struct (name, namelen, iov, iovlen, control, controllen, flags: one word
    each but the ints), its name, its iovecs and buffers, its control data."""
    head = mem.read(addr, _msghdr_size(word))
    return [(addr, head), *_msghdr_parts(mem, head, word, buf_limit)] if head is not None else []


def _mmsghdrs(mem: Memory, addr: int, count: int, word: int, buf_limit: int = MAX_REGION) -> list[tuple[int, bytes]]:
    """An ``mmsghdr`` plan (sendmmsg's vector): the array of {msghdr, msg_len}, and each msghdr's parts."""
    size = (_msghdr_size(word) + 4 + word - 1) & -word
    array = mem.read_upto(addr, min(count, MAX_VECTOR) * size) if count > 0 else None
    if not array:
        return []
    regions = [(addr, array)]
    for i in range(len(array) // size):
        regions += _msghdr_parts(mem, array[i * size: i * size + _msghdr_size(word)], word, buf_limit)
    return regions


def _msghdr_parts(mem: Memory, head: bytes, word: int, buf_limit: int = MAX_REGION) -> list[tuple[int, bytes]]:
    """What a msghdr points to: its name, its control data, its iovecs and their buffers."""
    regions = []
    name, namelen = _word(head, 0, word), int.from_bytes(head[word:word + 4], "little")
    iov, iovlen, control, controllen = (_word(head, i, word) for i in (2, 3, 4, 5))
    for start, size in ((name, min(namelen, 1 << 16)), (control, min(controllen, MAX_REGION))):
        data = mem.read_upto(start, size) if start and size else None
        if data:
            regions.append((start, data))
    return regions + (_iovecs(mem, iov, iovlen, word, buf_limit) if iov else [])


def _pointer_length(mem: Memory, addr: int, word: int) -> list[tuple[int, bytes]]:
    """A ``ptrlen`` plan (pselect6's sigmask): the {pointer, length} pair and up to a KiB it points to."""
    pair = mem.read(addr, 2 * word)
    if pair is None:
        return []
    ptr, length = _word(pair, 0, word), _word(pair, 1, word)
    data = mem.read(ptr, length) if ptr and 0 < length <= PTRLEN_MAX else None
    return [(addr, pair), (ptr, data)] if data else [(addr, pair)]


def _clone_args(mem: Memory, addr: int, size: int) -> list[tuple[int, bytes]]:
    """clone3's struct (up to a page: its tail is printed if not zero), and the ints behind its
    pidfd, parent_tid (written by the kernel) and set_tid (up to 32 of them) fields."""
    head = mem.read_upto(addr, min(size, CLONE_ARGS_MAX))
    if not head:
        return []
    regions = [(addr, head)]
    if len(head) >= 64:
        pidfd, parent_tid = _word(head, 1, 8), _word(head, 3, 8)
        set_tid, count = (_word(head, 8, 8), _word(head, 9, 8)) if len(head) >= 80 else (0, 0)
        for start, length in ((pidfd, 4), (parent_tid, 4), (set_tid, 4 * count if count <= 32 else 0)):
            data = mem.read(start, length) if start and length else None
            if data:
                regions.append((start, data))
    return regions


class _ShortReads:
    """A memory reader that notes whether any read came back short or failed (strict snapshots)."""

    __slots__ = ("mem", "short")

    def __init__(self, mem: Memory) -> None:
        self.mem = mem
        self.short = False

    def read(self, addr: int, size: int) -> bytes | None:
        data = self.mem.read(addr, size)
        if data is None:
            self.short = True
        return data

    def read_upto(self, addr: int, size: int) -> bytes | None:
        data = self.mem.read_upto(addr, size)
        if size > 0 and (not data or len(data) < size):
            self.short = True
        return data

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None:
        got = self.mem.read_cstring(addr, limit)
        if got is None:
            self.short = True
        return got


def _compound(plan: ArgPlan, addr: int, args: Sequence[int], mem: Memory, word: int,
              string_limit: int, buf_limit: int = MAX_REGION) -> list[tuple[int, bytes]] | None:
    """The regions of a plan that follows pointers (strv, iovec, msghdr, mmsghdr, ptrlen,
    clone_args); None for any other kind."""
    what = plan.what
    if what == "strv":
        return _string_vector(mem, addr, word, string_limit)
    if what == "iovec":
        return _iovecs(mem, addr, args[_arg_index(plan.size)], word, buf_limit)
    if what == "msghdr":
        return _msghdr(mem, addr, word, buf_limit)
    if what == "mmsghdr":
        return _mmsghdrs(mem, addr, args[_arg_index(plan.size)] & 0xFFFFFFFF, word, buf_limit)
    if what == "ptrlen":
        return _pointer_length(mem, addr, word)
    if what == "clone_args":
        return _clone_args(mem, addr, args[_arg_index(plan.size)])
    return None


def snapshot(plans: Sequence[ArgPlan], at_exit: bool, args: Sequence[int], rval: int | None,
             mem: Memory, *, sp: int = 0, word: int = 8, string_limit: int = PATH_MAX,
             earlier: SnapshotMemory | None = None, strict: bool = False,
             buf_limit: int = MAX_REGION) -> SnapshotMemory | None:
    """Copy from ``mem`` (the live tracee, stopped) what ``plans`` name for the entry or the exit stop.

    ``rval`` is the return value at the exit stop (None at entry or for a failed call); ``sp``
    the stack pointer at entry (rt_sigreturn's frame); ``string_limit`` the longest string a
    decoder asks for (-s, or PATH_MAX for paths); ``earlier`` the entry snapshot, at exit.
    ``strict``: None instead when a planned non-NULL pointer gave nothing (unreadable memory, a
    size the plan cannot compute such as a bitmask past 2**31 bits), so that the caller decodes
    that call from live memory instead (pytrace/sinks/split.py).  ``buf_limit``: the most of a
    ``buf`` buffer or an iovec's data copied (decoders print a prefix of those: -s, or a dump).
    """
    when = _AT_EXIT if at_exit else _AT_ENTRY
    regions: list[tuple[int, bytes]] = []
    for plan in plans:
        if plan.when not in when:  # also skips deep plans: nothing is copied for them
            continue
        addr = sp + plan.offset if plan.index == SP_INDEX else args[plan.index]
        if not addr:
            continue
        watch = _ShortReads(mem) if strict else mem
        compound = _compound(plan, addr, args, watch, word, string_limit, buf_limit)
        if compound is not None:
            if strict and (not compound or watch.short):  # type: ignore[union-attr]
                return None  # a pointer or an element unreadable, or cut short: decode from live memory
            regions += compound
            continue
        if plan.size == "nul":
            limit = string_limit  # strings are copied to the longest limit a decoder uses (printpath's)
            got = mem.read_cstring(addr, limit)
            if got is not None:
                text, complete = got
                # longer than the limit: the limit's bytes and one more, as the live reader looks at
                data = text + b"\0" if complete else mem.read_upto(addr, limit + 1)
                if data and (complete or not strict or len(data) > limit):
                    regions.append((addr, data))
                    continue
            if strict:
                return None
            continue
        size = region_size(plan, args, rval, mem, word)
        if not size:
            if strict and size is None and not (at_exit and rval is None):
                return None
            continue
        size = min(size, buf_limit if plan.what == "buf" else MAX_REGION)
        data = mem.read_upto(addr, size)
        if strict and (not data or len(data) < size):
            return None  # unreadable, or cut short: the live reader says so ("umoven: short read")
        if data:
            regions.append((addr, data))
    return SnapshotMemory(regions, earlier)


def _flat_size(size: str) -> tuple[str, int, int] | None:
    """A plan size a flat copier computes without parsing: (kind, argument index, factor)."""
    if size.isdigit():
        return "digits", 0, int(size)
    head, _, times = size.partition("*")
    if times and not times.isdigit():
        return None
    factor = int(times or 1)
    if head == "ret":
        return "ret", 0, factor
    if head.startswith("arg") and head[3:].isdigit():
        return "arg", int(head[3:]), factor
    return None


def copier(plans: Sequence[ArgPlan], at_exit: bool, *, word: int, string_limit: int, buf_limit: int,
           strict: bool) -> tuple[Copier, bool]:
    """``snapshot``'s regions for one stop of one syscall, as a function built once per syscall.

    The split stop path copies at every stop of every traced call; ``snapshot`` parses each plan's
    size text and walks every plan kind there.  Here each plan of the stop becomes a small function
    once: a string (a path) or a flat region behind an argument, sized by a number, an argument or
    the return value (read's buffer, fstat's struct), with ``snapshot``'s answers (None where a
    strict copy falls short).  A stop with any other kind of plan (pointer arrays, sizes read from
    memory, the stack) is handed to ``snapshot`` itself.  Called as ``copy(args, rval, mem, sp)``;
    ``rval`` is None at entry and for a failed call.  Returns the function and whether it reads
    with ``read_upto`` alone, which never warns of a short read (strings and ``snapshot`` may).
    """
    when = _AT_EXIT if at_exit else _AT_ENTRY
    plans = tuple(plan for plan in plans if plan.when in when)
    pieces = [_piece(plan, at_exit, strict, string_limit, buf_limit) for plan in plans]
    if not all(pieces):
        def general(args: Sequence[int], rval: int | None, mem: Memory, sp: int) -> tuple[tuple[int, bytes], ...] | None:
            got = snapshot(plans, at_exit, args, rval, mem, sp=sp, word=word, string_limit=string_limit,
                           strict=strict, buf_limit=buf_limit)
            return None if got is None else got.regions
        return general, False
    quiet = all(plan.size != "nul" for plan in plans)
    if len(pieces) == 1:
        return pieces[0], quiet  # type: ignore[return-value]
    each = tuple(pieces)

    def several(args: Sequence[int], rval: int | None, mem: Memory, sp: int) -> tuple[tuple[int, bytes], ...] | None:
        out: tuple[tuple[int, bytes], ...] = ()
        for piece in each:
            got = piece(args, rval, mem, sp)  # type: ignore[misc]
            if got is None:
                return None
            out += got
        return out
    return several, quiet


def _piece(plan: ArgPlan, at_exit: bool, strict: bool, string_limit: int, buf_limit: int) -> Copier | None:
    """One plan's part of ``snapshot`` as a function, for a string or a flat region behind an
    argument; None for any other plan."""
    index = plan.index
    if index == SP_INDEX or plan.what in _COMPOUND_KINDS:
        return None
    if plan.size == "nul":
        def string(args: Sequence[int], rval: int | None, mem: Memory, sp: int) -> tuple[tuple[int, bytes], ...] | None:
            addr = args[index]
            if not addr:
                return ()
            got = mem.read_cstring(addr, string_limit)
            if got is not None:
                text, complete = got
                # longer than the limit: the limit's bytes and one more, as the live reader looks at
                data = text + b"\0" if complete else mem.read_upto(addr, string_limit + 1)
                if data and (complete or not strict or len(data) > string_limit):
                    return ((addr, data),)
            return None if strict else ()
        return string
    flat = _flat_size(plan.size)
    if flat is None:
        return None
    kind, size_arg, factor = flat
    limit = buf_limit if plan.what == "buf" else MAX_REGION
    # snapshot's "no size" rule (only a return value can give none here): a strict copy gives up,
    # unless the call failed at its exit (nothing was written).
    give_up = strict and not at_exit

    def flat_copy(args: Sequence[int], rval: int | None, mem: Memory, sp: int) -> tuple[tuple[int, bytes], ...] | None:
        addr = args[index]
        if not addr:
            return ()
        if kind == "ret":
            if rval is None or rval <= 0:
                return None if give_up or (strict and rval is not None) else ()
            size = rval * factor
        elif kind == "arg":
            size = args[size_arg] * factor
        else:
            size = factor
        if not size:
            return ()
        if size > limit:
            size = limit
        data = mem.read_upto(addr, size)
        if strict and (not data or len(data) < size):
            return None
        return ((addr, data),) if data else ()
    return flat_copy


#: ``ArgPlan.what`` values ``snapshot`` follows pointers for (``_compound``): never flat.
_COMPOUND_KINDS = frozenset(("strv", "iovec", "msghdr", "mmsghdr", "ptrlen", "clone_args", "deep"))
