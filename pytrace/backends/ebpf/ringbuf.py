"""Consumer side of a BPF ring buffer (BPF_MAP_TYPE_RINGBUF), read through mmap.

Layout (kernel/bpf/ringbuf.c): page 0 holds the consumer position (we write
it), page 1 the producer position (read-only), then the data area mapped
twice back to back so a record never wraps.  Each record starts with an
8-byte header: a u32 length whose top bits mean BUSY (being written) and
DISCARD (dropped by the program), and a u32 page offset we do not need.
"""

from __future__ import annotations

import mmap
import select
import struct
from collections.abc import Callable

BUSY = _BUSY = 1 << 31
DISCARD = _DISCARD = 1 << 30
HDR = _HDR = 8  # the kernel's header of each record: u32 length (and the two bits above), u32 page offset
_U64 = struct.Struct("<Q")
_U32 = struct.Struct("<I")


class RingBuffer:
    def __init__(self, map_fd: int, size: int) -> None:
        self.fd = map_fd
        self.size = size
        self.mask = size - 1
        page = mmap.PAGESIZE
        self._cons = mmap.mmap(map_fd, page, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0)
        # The consumer position is stored through a 'Q' view: one aligned 8-byte store.  Never with
        # struct.pack_into, which zero-fills the field before writing it: a program reserving a
        # record at that instant reads position 0, finds the ring "full" and drops the record
        # (measured: about one record in 100,000 under backpressure, at any fill level).
        self.cons_word = memoryview(self._cons).cast("Q")
        self._prod = mmap.mmap(map_fd, page + 2 * size, mmap.MAP_SHARED, mmap.PROT_READ, offset=page)
        self._page = page
        self._poll = select.poll()
        self._poll.register(map_fd, select.POLLIN)
        self._extra: list[int] = []

    def watch(self, fd: int) -> None:
        """Let ``fd`` (readable) end ``wait()`` too: the eBPF backend's SIGCHLD signalfd."""
        if fd >= 0:
            self._poll.register(fd, select.POLLIN)
            self._extra.append(fd)

    def pending(self) -> int:
        """Bytes written by the programs and not yet consumed (what the backpressure mark measures)."""
        return _U64.unpack_from(self._prod, 0)[0] - _U64.unpack_from(self._cons, 0)[0]

    def produced(self) -> int:
        """The producer position: everything written so far ends there."""
        return _U64.unpack_from(self._prod, 0)[0]

    def wait(self, timeout_ms: int) -> bool:
        """Sleep until the kernel signals new data (or the timeout passes); False: the timeout passed."""
        return bool(self._poll.poll(timeout_ms))

    def span(self) -> tuple[memoryview, int, int]:
        """For a consumer that walks the records itself (the eBPF stream's inline loop, which reads
        this header and its own in one unpack): the data area (``release()`` it when done), the
        consumer position and the producer position.  It must store each new consumer position
        in ``cons_word[0]`` once it is done with the record, as ``drain`` does."""
        return (memoryview(self._prod)[self._page:], _U64.unpack_from(self._cons, 0)[0],
                _U64.unpack_from(self._prod, 0)[0])

    def drain(self, handle: Callable[[memoryview], None], limit: int = -1) -> int:
        """Hand every complete record to ``handle`` (at most ``limit`` of them, when positive);
        returns how many were handed on."""
        cons = _U64.unpack_from(self._cons, 0)[0]
        prod = _U64.unpack_from(self._prod, 0)[0]
        data = memoryview(self._prod)[self._page:]
        n = 0
        while cons < prod and n != limit:
            off = cons & self.mask
            hdr = _U32.unpack_from(data, off)[0]
            if hdr & _BUSY:
                break
            length = hdr & ~(_BUSY | _DISCARD)
            if not hdr & _DISCARD:
                handle(data[off + _HDR: off + _HDR + length])
                n += 1
            cons += (length + _HDR + 7) & ~7
            self.cons_word[0] = cons
        data.release()
        return n

    def close(self) -> None:
        self._poll.unregister(self.fd)
        for fd in self._extra:
            self._poll.unregister(fd)
        self.cons_word.release()
        self._cons.close()
        self._prod.close()
