"""/proc/PID/maps, parsed once per change of the tracee's memory map.

strace and libunwind look at the maps file differently, and both views are kept
because the output depends on each:

* strace's mmap cache (``mmap_cache.c``) keeps only lines that carry a name
  (``sscanf(... "%[^\\n]")`` fails on anonymous mappings), drops a line with the
  same range as the previous one and any line overlapping it, and is searched
  with a binary search.  A frame is printed only if its address falls in such an
  entry with the ``x`` bit; the printed ``[0x...]`` is ``ip - start + offset``.
* libunwind (``tdep_get_elf_image``) takes the first line of the file that
  contains the address, anonymous or not, and opens its path as an ELF file.
"""

from __future__ import annotations

from bisect import bisect_right


class Mapping:
    """One line of /proc/PID/maps."""

    __slots__ = ("start", "end", "perms", "offset", "path", "image", "bias", "symoff")

    def __init__(self, start: int, end: int, perms: str, offset: int, path: str) -> None:
        self.start = start
        self.end = end
        self.perms = perms
        self.offset = offset
        self.path = path
        self.image: object = None  # the ElfImage for ``path``, filled in on first use (False: none)
        # Filled in with the image: the load bias from the PT_LOAD whose p_offset is this mapping's
        # offset (None if no PT_LOAD matches: libunwind then finds no unwind info), and the offset
        # libunwind applies to symbol values (the same bias, or 0 without such a PT_LOAD).
        self.bias: int | None = None
        self.symoff = 0


class Maps:
    """Both views of one snapshot of a process's maps file."""

    __slots__ = ("raw", "lines", "_line_starts", "entries", "_entry_starts")

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.lines: list[Mapping] = []
        self.entries: list[Mapping] = []  # strace's filtered, ordered, non-overlapping cache
        for text in raw.decode("utf-8", "surrogateescape").splitlines():
            m = _parse_line(text)
            if m is None:
                continue
            self.lines.append(m)
            if not m.path or not _strace_perms_ok(m.perms) or m.end < m.start:
                continue
            if self.entries:
                prev = self.entries[-1]
                if prev.start == m.start and prev.end == m.end:
                    continue  # duplicate entry, e.g. [vsyscall]
                if m.start <= prev.start or m.start < prev.end:
                    continue  # overlapping region
            self.entries.append(m)
        self._line_starts = [m.start for m in self.lines]
        self._entry_starts = [m.start for m in self.entries]

    def strace_entry(self, ip: int) -> Mapping | None:
        """strace's ``mmap_cache_search``: the cached entry containing ``ip``."""
        i = bisect_right(self._entry_starts, ip) - 1
        if i >= 0:
            m = self.entries[i]
            if ip < m.end:
                return m
        return None

    def line_for(self, ip: int) -> Mapping | None:
        """libunwind's lookup: the first line of the maps file that contains ``ip``."""
        i = bisect_right(self._line_starts, ip) - 1
        # /proc/PID/maps is sorted and non-overlapping, so the bisection finds the only candidate.
        if i >= 0:
            m = self.lines[i]
            if ip < m.end:
                return m
        return None


def _strace_perms_ok(perms: str) -> bool:
    return (
        len(perms) == 4
        and perms[0] in "r-"
        and perms[1] in "w-"
        and perms[2] in "x-"
        and perms[3] in "ps"
    )


def _parse_line(text: str) -> Mapping | None:
    parts = text.split(None, 5)
    if len(parts) < 5:
        return None
    rng, perms, offset = parts[0], parts[1], parts[2]
    lo, sep, hi = rng.partition("-")
    if not sep:
        return None
    try:
        start, end, off = int(lo, 16), int(hi, 16), int(offset, 16)
    except ValueError:
        return None
    return Mapping(start, end, perms, off, parts[5] if len(parts) > 5 else "")


def read_maps(pid: int) -> bytes | None:
    """The raw maps file, None if the process is gone."""
    try:
        with open(f"/proc/{pid}/maps", "rb", buffering=0) as f:
            chunks = []
            while True:
                chunk = f.read(1 << 16)
                if not chunk:
                    break
                chunks.append(chunk)
    except OSError:
        return None
    return b"".join(chunks)
