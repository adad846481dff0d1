"""The capture plans of syscall_tables/, compiled into the per-syscall slot tables the kernel program reads.

Each syscall gets two table rows (entry, exit) of up to ``MAX_SLOTS`` slots, one per region its
plan names at that stop (a ``both`` plan is in both rows).  A slot says where the region starts
(an argument), how its size is found (a constant, another argument times K, the return value
times K, the int behind an argument, an fd_set's bit count, up to the NUL, a string vector) and
the most bytes worth copying, which depends on the options: a buffer decoders print a prefix of
needs only ``-s`` + 1 bytes unless ``-e read=``/``write=`` dump it whole.  The programs
(capture_progs.py) interpret these rows, so adding a plan to the tables needs no new BPF.
"""

from __future__ import annotations

import struct
from collections.abc import Collection

from pytrace.records import dataclass  # not dataclasses: start-up cost
from pytrace.tables.capture_plan import SP_INDEX, ArgPlan
from pytrace.tables.syscalls import table

MAX_SLOTS = 6
PATH_MAX = 4096
#: Largest region the programs copy (bytes); a record holds regions until ``LIMIT`` bytes are used.
CHUNK = 32768
LIMIT = 32768
#: Most pointers of a strv array copied (envp's ``/* N vars */`` counts them all, up to this).  The
#: loops are bpf_loop callbacks (capture_slots._loop): a larger count no longer costs the verifier
#: more, only record space.
MAX_WORDS = 256
#: Most strings of a strv array copied with -v (without it, -s + 1: what printargv looks at).
MAX_VERBOSE_STRINGS = 256

K_FIXED, K_ARG, K_RET, K_PARG, K_BITMASK, K_STR, K_STRV, K_IOV, K_MSGHDR, K_CLONE, K_SP, K_PTRLEN, K_MMSG = range(1, 14)
#: Most messages of a sendmmsg/recvmmsg vector copied (each with its iovecs; a bpf_loop callback,
#: so the count costs record space, not verification).
MAX_MMSG = 8
MMSGHDR_SIZE = 64
#: Most bytes a {pointer, length} pair's pointer is followed for (capture.PTRLEN_MAX).
PTRLEN_MAX = 1024
#: Most bytes of clone3's struct copied (capture.CLONE_ARGS_MAX: a page, for its non-zero tail).
CLONE_ARGS_MAX = 4096
#: Most iovecs copied of one vector with -v (without it, -s + 1: what print_array looks at).  strace
#: prints up to IOV_MAX (1024) with -v; the copy loop is a bpf_loop callback (verified once).
MAX_VERBOSE_IOVECS = 256
MSGHDR_SIZE = 56

HEAD = struct.Struct("<BBBBI")  # slots, has-exit (entry row: keep the arguments for the exit), retry, -, -
SLOT = struct.Struct("<BBBBIII")  # kind, pointer arg, size arg, -, multiplier, cap, offset (K_SP)
ROW_SIZE = HEAD.size + MAX_SLOTS * SLOT.size
# Row flags: the entry row of a syscall with exit slots (its arguments are kept for the exit program).
HAS_EXIT = 1


@dataclass(frozen=True)
class CaptureOptions:
    """What the options change in what is copied (decided once, from the Config)."""

    max_strlen: int = 32  # -s
    verbose: bool = False  # -v: argv/envp strings all printed
    whole_buffers: bool = False  # -e read=/write=: buffers dumped whole
    #: Memory at the user stack pointer (rt_sigreturn's frame) can be copied: the kernel has BTF,
    #: which bpf_get_current_task_btf and bpf_task_pt_regs need.
    stack_pointer: bool = False

    @property
    def string_cap(self) -> int:
        """Bytes probe_read_user_str may copy: the limit a decoder prints, one byte more, and the NUL."""
        return min(max(PATH_MAX + 1, self.max_strlen + 2), CHUNK)

    @property
    def buffer_cap(self) -> int:
        return CHUNK if self.whole_buffers else min(self.max_strlen + 1, CHUNK)

    @property
    def strv_strings(self) -> int:
        return MAX_VERBOSE_STRINGS if self.verbose else min(self.max_strlen + 1, MAX_VERBOSE_STRINGS)

    @property
    def iovecs(self) -> int:
        return MAX_VERBOSE_IOVECS if self.verbose else min(self.max_strlen + 1, MAX_VERBOSE_IOVECS)

    @property
    def strv_string_cap(self) -> int:
        return min(self.max_strlen + 2, CHUNK)


@dataclass(frozen=True)
class Slot:
    kind: int
    pointer: int  # the argument holding the region's address
    size_arg: int = 0
    mult: int = 0  # K_FIXED, K_SP: the size; K_ARG/K_RET: bytes per unit
    cap: int = CHUNK
    offset: int = 0  # K_SP: from the user stack pointer at entry

    def pack(self) -> bytes:
        return SLOT.pack(self.kind, self.pointer, self.size_arg, 0, self.mult, self.cap, self.offset)


def slot_for(plan: ArgPlan, opts: CaptureOptions) -> Slot | None:
    """The slot copying ``plan``'s region, or None when the kernel program cannot (deep, stack frames)."""
    if plan.index == SP_INDEX and opts.stack_pointer and plan.when == "entry" and plan.size.isdigit():
        return Slot(K_SP, 0, mult=int(plan.size), cap=min(int(plan.size), CHUNK), offset=plan.offset)
    if plan.deep or not 0 <= plan.index < 6:
        return None
    size, i = plan.size, plan.index
    if plan.what == "strv":
        return Slot(K_STRV, i)
    if plan.what == "iovec" and size.startswith("arg"):
        return Slot(K_IOV, i, size_arg=int(size[3:]))
    if plan.what == "ptrlen" and size == "16":
        return Slot(K_PTRLEN, i, mult=16, cap=PTRLEN_MAX)
    if plan.what == "clone_args" and size.startswith("arg"):
        return Slot(K_CLONE, i, size_arg=int(size[3:]), cap=CLONE_ARGS_MAX)
    if plan.what == "mmsghdr" and size.startswith("arg"):
        return Slot(K_MMSG, i, size_arg=int(size[3:]))
    if plan.what == "msghdr" and size == str(MSGHDR_SIZE):
        return Slot(K_MSGHDR, i, mult=MSGHDR_SIZE)
    if size == "nul":
        return Slot(K_STR, i, cap=opts.string_cap)
    # A buffer decoders print a prefix of needs -s + 1 bytes; a path in a sized buffer (getcwd's)
    # is printed whole, up to PATH_MAX; anything else (structures, directory records) whole.
    cap = opts.buffer_cap if plan.what == "buf" else opts.string_cap if plan.what in ("path", "str") else CHUNK
    if size.isdigit():
        return Slot(K_FIXED, i, mult=int(size), cap=min(int(size), CHUNK))
    if size.startswith("ret"):
        _, _, times = size.partition("*")
        return Slot(K_RET, i, mult=int(times or 1), cap=cap)
    if size.startswith("*arg"):
        return Slot(K_PARG, i, size_arg=int(size[4:]), mult=1, cap=cap)
    if size.startswith("bitmask(arg"):
        return Slot(K_BITMASK, i, size_arg=int(size[11:-1]), mult=1, cap=cap)
    if size.startswith("arg"):
        n, _, times = size.partition("*")
        return Slot(K_ARG, i, size_arg=int(n[3:]), mult=int(times or 1), cap=cap)
    return None


@dataclass(frozen=True)
class CaptureTable:
    """Per syscall number: the entry and exit slots (only syscalls that copy something)."""

    entry: dict[int, tuple[Slot, ...]]
    exit: dict[int, tuple[Slot, ...]]

    def packed(self) -> tuple[dict[int, bytes], dict[int, bytes]]:
        """Each syscall's slots as the kernel reads them (SLOT after SLOT), entry and exit: made once
        (the rows, the program cache's key and the table cache all start from it)."""
        done = self.__dict__.get("_packed")
        if done is None:
            done = tuple({nr: b"".join(s.pack() for s in slots) for nr, slots in side.items()}
                         for side in (self.entry, self.exit))
            object.__setattr__(self, "_packed", done)  # a cache, not a field: frozen all the same
        return done  # type: ignore[no-any-return]

    @classmethod
    def from_packed(cls, entry: dict[int, bytes], exit_: dict[int, bytes]) -> CaptureTable:
        """The table ``packed()`` gave (the table cache's entries)."""
        table = cls(*({nr: tuple(Slot(k, p, a, m, c, o) for k, p, a, _, m, c, o in SLOT.iter_unpack(raw))
                       for nr, raw in side.items()} for side in (entry, exit_)))
        object.__setattr__(table, "_packed", (entry, exit_))
        return table

    def rows(self) -> tuple[dict[int, bytes], dict[int, bytes]]:
        """The BPF map values: entry rows (flagged HAS_EXIT where an exit row exists) and exit rows."""
        size = SLOT.size
        head = HEAD.pack
        packed_entry, packed_exit = self.packed()
        entry = {nr: (head(len(raw) // size, HAS_EXIT if nr in packed_exit else 0, 0, 0, 0) + raw).ljust(ROW_SIZE, b"\0")
                 for nr, raw in packed_entry.items()}
        for nr in packed_exit.keys() - packed_entry.keys():  # an exit row alone: an empty entry row says so
            entry[nr] = head(0, HAS_EXIT, 0, 0, 0).ljust(ROW_SIZE, b"\0")
        exit_ = {nr: (head(len(raw) // size, 0, 0, 0, 0) + raw).ljust(ROW_SIZE, b"\0") for nr, raw in packed_exit.items()}
        return entry, exit_

    def kinds_at(self, side: str) -> list[set[int]]:
        """For each slot position, the kinds some syscall uses there: the programs handle only those."""
        rows = self.entry if side == "entry" else self.exit
        out: list[set[int]] = [set() for _ in range(MAX_SLOTS)]
        for slots in rows.values():
            for k, s in enumerate(slots):
                out[k].add(s.kind)
        return out


def build_table(opts: CaptureOptions, arch: str = "x86_64", max_nr: int = 512,
                only: Collection[int] | None = None) -> CaptureTable:
    """The rows of every syscall below ``max_nr``, or of those in ``only`` (the traced ones).

    The programs handle only the kinds the rows use at each slot position, so a run that traces
    a few syscalls (``-e trace=openat``) gets programs the verifier walks in a fraction of the time.
    """
    entry: dict[int, tuple[Slot, ...]] = {}
    exit_: dict[int, tuple[Slot, ...]] = {}
    for nr, info in table(arch).by_nr.items():
        if nr >= max_nr or (only is not None and nr not in only):
            continue
        at_entry: list[Slot] = []
        at_exit: list[Slot] = []
        for plan in info.capture:
            slot = slot_for(plan, opts)
            if slot is None:
                continue
            if plan.when in ("entry", "both"):
                at_entry.append(slot)
            if plan.when in ("exit", "both"):
                at_exit.append(slot)
        if at_entry:
            entry[nr] = tuple(at_entry[:MAX_SLOTS])
        if at_exit:
            exit_[nr] = tuple(at_exit[:MAX_SLOTS])
    return CaptureTable(entry, exit_)
