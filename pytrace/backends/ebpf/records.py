"""Records of the per-event programs (capture_progs.py) turned into Calls whose memory is what was copied.

An ENTRY record becomes a ``Call`` whose ``mem`` is a ``SnapshotMemory`` of the regions copied at
entry; the EXIT record adds its regions as the exit snapshot (the entry one stays readable
behind it, as under PYTRACE_CHECK_CAPTURE), so the decoders print from the same bytes they would
read from a stopped tracee.  Memory no region holds is unreadable: decoders print its address,
as strace does.
"""

from __future__ import annotations

import struct

from pytrace.backends.ebpf.capture_progs import (
    T_ENTRY,
    T_EXECPATH,
    T_EXIT,
    T_GONE,
    T_PREPARED,
    T_STATUS,
)
from pytrace.backends.ebpf.capture_slots import FLAG_RETRY, HEADER, REGION_HEAD
from pytrace.backends.ebpf.programs import MAX_SYSCALLS
from pytrace.decode.capture import SnapshotMemory
from pytrace.events import Call
from pytrace.tables.capture_plan import SP_INDEX

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from pytrace.tables.syscalls import SyscallTable

__all__ = ["FLAG_RETRY", "HEAD", "T_ENTRY", "T_EXECPATH", "T_EXIT", "T_GONE", "T_PREPARED", "T_STATUS",
           "RecordReader"]

HEAD = struct.Struct("<BBHI")  # type, flags, nr, tid; then, in a timed run, the kernel time (ns)
_TIME = struct.Struct("<Q")
_RET = struct.Struct("<q")
_STATUS = struct.Struct("<Q")
_REGION = struct.Struct("<QI")
#: The memory of a call the programs copied nothing for (most calls): shared, never changed.
_NOTHING = SnapshotMemory(())


def nargs(tab: SyscallTable, nr: int) -> int:
    """How many arguments an ENTRY record of ``nr`` carries (the traced map tells the program 1 + this)."""
    info = tab.by_nr.get(nr)
    return info.nargs if info is not None and 0 <= info.nargs <= 6 else 6


def regions(data: memoryview, off: int) -> list[tuple[int, bytes]]:
    """The ``(address, bytes)`` regions from ``off`` to the end of the record."""
    out = []
    end = len(data)
    while off + REGION_HEAD <= end:
        addr, size = _REGION.unpack_from(data, off)
        off += REGION_HEAD
        out.append((addr, bytes(data[off: off + size])))
        off += size
    return out


class RecordReader:
    """Reads records into Calls for one table (x86_64), with kernel times made wall-clock seconds.

    The stream loop unpacks each record's header once (``HEAD``) and hands its fields on.  ``timed``:
    the records carry the kernel time (capture_progs.CaptureMaps.timed), else the Calls' times are 0
    and the header is 8 bytes.
    """

    def __init__(self, tab: SyscallTable, to_epoch: float, timed: bool = True) -> None:
        self.tab = tab
        self.timed = timed
        #: Where a record's payload starts: after the header, with or without the time.
        self.base = base = HEADER if timed else HEADER - 8
        self.exit_head = base + 8  # an EXIT record's regions: after the return value
        self.cuts = tab.cuts
        self.names = tab.names
        self.to_epoch = to_epoch
        self.held: set[Call] = set()  # entries waiting for the exit record's second copy of a region
        # Per syscall number, all an ENTRY record needs, in one list index: how to read its arguments,
        # the zeros that make them six (the arguments past the syscall's own are not sent), where its
        # regions start (see nargs()), its name and the cut of its int arguments (SyscallTable.cuts).
        names = tab.names
        self.args_of = [(struct.Struct(f"<{n}Q").unpack_from, (0,) * (6 - n), base + 8 * n,
                         names[nr] if nr < len(names) and names[nr] else tab.name(nr), self.cuts.get(nr))
                        for nr, n in ((nr, nargs(tab, nr)) for nr in range(MAX_SYSCALLS + 1))]
        # Rows with memory at the stack pointer (rt_sigreturn): its region is the record's last; the
        # Call's sp is found from it (decoders read at c.sp + offset).
        self.sp_offset = {nr: plan.offset for nr, info in tab.by_nr.items() for plan in info.capture
                          if plan.index == SP_INDEX and not plan.deep}
        # The path argument sched_process_exec's filename stands for, per exec syscall.
        self.exec_path_arg = {nr: next((p.index for p in info.capture if p.what == "path"), -1)
                              for nr, info in tab.by_nr.items() if "exec" in info.flags}

    def status(self, data: memoryview) -> int:
        return _STATUS.unpack_from(data, self.base)[0]

    def time(self, data: memoryview) -> float:
        """The record's kernel time as wall-clock seconds (0.0 in a run whose records carry none)."""
        return _TIME.unpack_from(data, 8)[0] / 1e9 + self.to_epoch if self.timed else 0.0

    def entry(self, data: memoryview, flags: int, nr: int, tid: int) -> Call:
        """The Call of an ENTRY record; with FLAG_RETRY it is held: given to the sink with its exit."""
        if nr <= MAX_SYSCALLS:
            unpack, zeros, head, name, cut = self.args_of[nr]
        else:  # never traced (the programs' arrays stop at MAX_SYSCALLS): six arguments, as nargs() says
            unpack, zeros, head, _, _ = self.args_of[-1]
            name, cut = self.tab.name(nr), self.cuts.get(nr)
        args = unpack(data, self.base) + zeros
        if cut is not None:  # int arguments as the kernel reads them, as in the ptrace loop
            args = cut(args)
        if len(data) > head:
            found = regions(data, head)
            sp = found[-1][0] - self.sp_offset[nr] if found and nr in self.sp_offset else 0
            call = Call(tid, "x86_64", nr, name, args, 0, sp, SnapshotMemory(found) if found else _NOTHING,
                        self.time(data) if self.timed else 0.0)
        else:
            call = Call(tid, "x86_64", nr, name, args, 0, 0, _NOTHING, self.time(data) if self.timed else 0.0)
        if flags & FLAG_RETRY:
            self.held.add(call)
        return call

    def prepared(self, call: Call | None, data: memoryview) -> None:
        """PREPARED: what a held execve's entry could not read, copied at sched_prepare_exec."""
        if call is not None and call in self.held:
            call.mem = SnapshotMemory((*_regions_of(call.mem), *regions(data, self.base)))

    def exec_path(self, call: Call | None, data: memoryview) -> None:
        """EXECPATH: the kernel's filename stands for a held execve's path argument still unread."""
        if call is None or call not in self.held:
            return
        index = self.exec_path_arg.get(call.nr, -1)
        if index < 0 or call.mem.read_cstring(call.args[index], 0) is not None:
            return
        found = regions(data, self.base)
        if found:
            call.mem = SnapshotMemory((*_regions_of(call.mem), (call.args[index], found[0][1])))

    def finish(self, call: Call, data: memoryview) -> bool:
        """Complete ``call`` from its EXIT record; True when its entry was held (not yet given to the sink)."""
        ret = _RET.unpack_from(data, self.base)[0]
        if self.timed:
            call.exit_time = self.time(data)
        call.exited = True
        if -4096 < ret < 0:
            call.error, call.rval = -ret, -1
        else:
            call.rval = ret
        if len(data) <= self.exit_head and not self.held:
            return False
        found = regions(data, self.exit_head)
        held = call in self.held
        if held:  # the regions copied again belong to the entry
            self.held.discard(call)
            call.mem = SnapshotMemory((*_regions_of(call.mem), *found))
        if found:
            entry_mem = call.mem
            assert isinstance(entry_mem, SnapshotMemory)
            call.mem = SnapshotMemory(found, entry_mem)
        return held

    def release(self, call: Call) -> bool:
        """A held call that will get no exit record (its thread is gone): True if it was held."""
        if call in self.held:
            self.held.discard(call)
            return True
        return False


def _regions_of(mem: object) -> tuple[tuple[int, bytes], ...]:
    assert isinstance(mem, SnapshotMemory)
    return mem.regions
