"""System-wide mode of the eBPF backend: no command and no -p, every process is traced.

Which tasks are in scope is decided in the kernel (``programs.SystemScope``):
every task but pytrace's own, or with ``--comm NAME`` only those whose
command name (``bpf_get_current_comm``, at the syscall's entry) is one of the
names.  Each record then ends with the task's name as it was at that
moment, so a short-lived process is named even after it is gone (nothing is
read from /proc).  Lines carry the prefix strace prints with ``-f -Y``:
``[pid  1234<cat>] `` on stderr, ``1234<cat> `` with ``-o`` (``decode/pids.py``'s
``prefix_printer`` over ``comm_of``), so tools that read strace's
``--decode-pids=comm`` logs read these too.

Only the processes that had a line printed get their ``+++ exited with N +++``
line; the exits of every other process on the machine are dropped here.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Callable

from pytrace.backends.ebpf import bpf, records
from pytrace.backends.ebpf import programs as P

_U32 = struct.Struct("<I")


def comm_key(name: str) -> bytes:
    """A --comm name as the kernel keeps it: at most 15 bytes, NUL-padded to 16 (TASK_COMM_LEN)."""
    raw = os.fsencode(name)[: P.COMM_LEN - 1]
    return raw.ljust(P.COMM_LEN, b"\0")


def scope(res: bpf.Resources, comms: tuple[str, ...]) -> P.SystemScope:
    """The kernel side of the scope: our own thread group left out, and the --comm names in a hash."""
    fd = None
    if comms:
        names = res.map(bpf.MAP_HASH, P.COMM_LEN, 1, max(len(comms), 1), "pytrace_comms")
        for name in comms:
            names.update(comm_key(name), b"\1")
        fd = names.fd
    return P.SystemScope(os.getpid(), fd)


def noting_comms(handle: Callable[[memoryview], None], comm_of: dict[int, str],
                 live: set[int]) -> Callable[[memoryview], None]:
    """Wrap the stream's record handler: note each record's task name, then hand on the record proper.

    Every record ends with the name (capture_progs._output); ``live`` is the handler's own set of
    threads it has had an ENTRY record of: any other thread's records (exits of calls that began
    before the trace, exit statuses and ends of tasks never printed) are dropped here.
    """
    entry, gone = records.T_ENTRY, records.T_GONE
    tid_at = 4  # records.HEAD: u8 type | u8 flags | u16 nr | u32 tid | u64 time

    def note(data: memoryview) -> None:
        kind = data[0]
        tid = _U32.unpack_from(data, tid_at)[0]
        if kind != entry and tid not in live:
            return
        end = len(data) - P.COMM_LEN
        comm_of[tid] = bytes(data[end:]).split(b"\0", 1)[0].decode("utf-8", "replace")
        handle(data[:end])
        if kind == gone:  # its last line is written: a long run keeps no name per dead thread
            comm_of.pop(tid, None)

    return note
