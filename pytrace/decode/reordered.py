"""Struct layouts whose fields come back in another layout's order (i386 ``struct stat64``)."""

from __future__ import annotations

import struct


class Reordered:
    """A struct layout whose ``unpack`` returns the fields in another layout's order.

    i386 ``struct stat64`` has the fields of x86_64's ``struct stat`` in a
    different order (and more padding); the decoder unpacks a tuple in the
    x86_64 order, so the i386 layout hands it one.  ``order[i]`` is the index,
    in the i386 tuple, of the decoder's i-th field (None: a constant 0).
    """

    __slots__ = ("_struct", "_order", "size")

    def __init__(self, fmt: str, order: tuple[int | None, ...]) -> None:
        self._struct = struct.Struct(fmt)
        self._order = order
        self.size = self._struct.size

    def unpack(self, data: bytes) -> tuple[int, ...]:
        raw = self._struct.unpack(data)
        return tuple(0 if i is None else raw[i] for i in self._order)

    def unpack_from(self, data: bytes, offset: int = 0) -> tuple[int, ...]:
        raw = self._struct.unpack_from(data, offset)
        return tuple(0 if i is None else raw[i] for i in self._order)


# x86_64 ``struct stat`` order the decoder expects: dev, ino, nlink, mode, uid, gid, pad, rdev, size,
# blksize, blocks, atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns.
#: i386 struct stat64 (96 bytes, packed): dev, pad, __st_ino, mode, nlink, uid, gid, rdev, pad, size,
#: blksize, blocks, atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns, ino.
STAT64 = Reordered("<Q4xIIIIIQ4xqIQIIIIIIQ", (0, 16, 3, 2, 4, 5, None, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#: i386 (old) struct stat (64 bytes): dev, ino (u32), mode, nlink, uid, gid (u16), rdev, size, blksize, blocks,
#: atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns (u32), 2 unused words.
STAT32 = Reordered("<IIHHHHIiIIIIIIII8x", (0, 1, 3, 2, 4, 5, None, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
