"""Argument decoders, one module per syscall family (like strace's ``src/*.c``).

``decoder_for(call)`` is the only entry point sinks use.  Importing this
package imports every family module, each of which registers its decoders
with ``@syscall(...)`` from ``registry``.

Where to look: open/openat flags -> ``file.py``; read/write/fcntl/dup ->
``desc.py``; stat family -> ``stat.py``; sockets -> ``net.py``; mmap & co ->
``memory.py``; clone/wait/exec -> ``process.py``; signals -> ``signal.py``;
clocks and sleeps -> ``time.py``; poll/select/epoll -> ``poll.py``; ioctl ->
``ioctl.py``; sendfile/splice/mount/utimes/inotify/eventfd... -> ``fs_misc.py``;
SysV IPC and mq_* -> ``ipc.py``; ptrace -> ``ptrace.py``; sched_*/capabilities/pidfd/mempolicy ->
``sched.py``; aio and io_uring -> ``io_uring.py``; bpf/perf/landlock/keys/modules ->
``misc.py``; everything else falls back to ``generic.py``.  ``styles.py`` applies
-X and -e raw=/abbrev=/verbose= by swapping printers and decoders at startup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode import (  # noqa: F401  (imported for their @syscall registrations)
    desc,
    file,
    fs_misc,
    futex,
    io_uring,
    ioctl,
    ipc,
    memory,
    misc,
    net,
    poll,
    process,
    ptrace,
    sched,
    signal,
    stat,
    time,
)
from pytrace.decode.fds import FD_RETURNING
from pytrace.decode.generic import generic
from pytrace.decode.pids import PID_RETURNING
from pytrace.decode.registry import DECODERS, Decoder, rv_dec, rv_fd, rv_pid

if TYPE_CHECKING:
    from pytrace.events import Call

_GENERIC = Decoder(generic, False, rv_dec)
# Calls without a decoder of their own that return an fd or a pid still print it as one (-y, -Y).
for _names, _rval in ((FD_RETURNING, rv_fd), (PID_RETURNING, rv_pid)):
    for _name in _names - DECODERS.keys():
        DECODERS[_name] = Decoder(generic, False, _rval)


def decoder_for(call: Call) -> Decoder:
    return DECODERS.get(call.name, _GENERIC)
