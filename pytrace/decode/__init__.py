"""Argument decoders, one module per syscall family (like strace's ``src/*.c``).

``decoder_for(call)`` is the only entry point sinks use.  Importing this
package imports every family module, each of which registers its decoders
with ``@syscall(...)`` from ``registry``.

Where to look: open/openat flags -> ``file.py``; read/write/fcntl/dup ->
``desc.py``; stat family -> ``stat.py``; sockets -> ``net.py``; mmap & co ->
``memory.py``; clone/wait/exec -> ``process.py``; signals -> ``signal.py``;
clocks and sleeps -> ``time.py``; poll/select/epoll -> ``poll.py``; ioctl ->
``ioctl.py``; everything else falls back to ``generic.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode import (  # noqa: F401  (imported for their @syscall registrations)
    desc,
    file,
    futex,
    ioctl,
    memory,
    misc,
    net,
    poll,
    process,
    signal,
    stat,
    time,
)
from pytrace.decode.generic import generic
from pytrace.decode.registry import DECODERS, Decoder, rv_dec

if TYPE_CHECKING:
    from pytrace.events import Call

_GENERIC = Decoder(generic, False, rv_dec)


def decoder_for(call: Call) -> Decoder:
    return DECODERS.get(call.name, _GENERIC)
