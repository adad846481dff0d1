"""System-wide mode of the eBPF backend: no command and no -p, every process is traced.

Which tasks are in scope is decided in the kernel (``programs.SystemScope``):
every task but pytrace's own, or with ``--comm NAME`` only those whose
command name (``bpf_get_current_comm``, at the syscall's entry) is one of the
names.  Each stream record then ends with the task's name as it was at that
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

from pytrace.backends.ebpf import bpf
from pytrace.backends.ebpf import programs as P

_U32 = struct.Struct("<I")
_FLAGS_OFF = 68  # the u32 flags word of a stream record (programs.py's record layout)


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


def noting_comms(handle: Callable[[memoryview], None], size: int, comm_of: dict[int, str],
                 live: set[int]) -> Callable[[memoryview], None]:
    """Wrap the stream's record handler: note each record's task name, then hand on the record proper.

    ``size`` is the record without the name; ``live`` the threads the stream has printed calls of
    (the handler's own set): exit bookkeeping of any other task is dropped.
    """
    quiet_flags = P.FLAG_STATUS_ONLY | P.FLAG_PROCESS_EXIT
    end = size + P.COMM_LEN

    def note(data: memoryview) -> None:
        tid = _U32.unpack_from(data, size - 8)[0]
        flags = _U32.unpack_from(data, _FLAGS_OFF)[0]
        if flags & quiet_flags and tid not in live:
            return
        comm_of[tid] = bytes(data[size:end]).split(b"\0", 1)[0].decode("utf-8", "replace")
        handle(data[:size])
        if flags & P.FLAG_PROCESS_EXIT:  # its last line is written: a long run keeps no name per dead thread
            del comm_of[tid]

    return note
