"""Memory-management syscalls: mmap and friends, brk, madvise, mlock, mincore (strace's ``mem.c``, ``membarrier.c``).

Everything here except mincore (whose page vector is an output) and a
membarrier query (whose result is a command mask) is known at entry, so the
decoders are plain functions; mmap, brk and mremap return addresses and use
``rv_hex``.
"""

from __future__ import annotations

from pytrace.decode.format import MASK64, addr, signed, xlat
from pytrace.decode.printer import hexnum, styled_whole
from pytrace.decode.registry import rv_hex, syscall
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_MAP_TYPE = 0xF
_MAP_HUGE_SHIFT = 26
_MAP_HUGE_MASK = 0x3F << _MAP_HUGE_SHIFT
_PAGE_SIZE = 4096


def xnum(value: int) -> str:
    """C's ``%#x``: like Python's ``#x`` except that zero is a bare ``0``."""
    return f"{value:#x}" if value else "0"


def prot(p: Printer, value: int) -> str:
    """printflags64(mmap_prot): PROT_NONE for 0, otherwise the set bits by name."""
    return p.flags(value, X.MMAP_PROT, "PROT_???")


@styled_whole(hexnum, MASK64)
def mmap_flags(p: Printer, value: int) -> str:
    """print_mmap_flags: the MAP_TYPE field as one value, then the other bits, then the huge page size.

    The type field is looked up as a whole (MAP_SHARED_VALIDATE is 3, not
    SHARED|PRIVATE), which is why it is split off before printflags runs.
    """
    mtype = value & _MAP_TYPE
    text = xlat(mtype, X.MMAP_FLAGS) or f"{mtype:#x} /* MAP_??? */"
    rest = value & ~_MAP_TYPE
    huge = rest & _MAP_HUGE_MASK
    rest &= ~_MAP_HUGE_MASK
    if rest:
        text += "|" + p.flags(rest, X.MMAP_FLAGS, None)
    if huge:
        text += f"|{huge >> _MAP_HUGE_SHIFT}<<MAP_HUGE_SHIFT"
    return text


@syscall("mmap", rval=rv_hex)
def mmap(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((addr(a[0]), f"{a[1]}", prot(p, a[2]), mmap_flags(p, a[3]), p.fd(c, a[4]), xnum(a[5]))))


@syscall("mmap2", rval=rv_hex)
def mmap2(p: Printer, c: Call) -> str:
    """i386 mmap2 (strace's mmap_4koff): the offset is passed in 4096-byte units and printed in bytes."""
    a = c.args
    return (p.args((addr(a[0]), f"{a[1]}", prot(p, a[2]), mmap_flags(p, a[3]), p.fd(c, a[4]), xnum(a[5] << 12))))


@syscall("munmap", "mlock", "munlock")
def munmap(p: Printer, c: Call) -> str:
    """sys_munmap, which strace also uses for mlock and munlock: an address and a size (set_robust_list: futex.py)."""
    return p.args((addr(c.args[0]), f"{c.args[1]}"))


@syscall("mprotect")
def mprotect(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}", prot(p, c.args[2])))


@syscall("pkey_mprotect")
def pkey_mprotect(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}", prot(p, c.args[2]), f"{signed(c.args[3], 32)}"))


@syscall("brk", rval=rv_hex)
def brk(p: Printer, c: Call) -> str:
    return addr(c.args[0])


_MREMAP_MAYMOVE_FIXED = 0x3


@syscall("mremap", rval=rv_hex)
def mremap(p: Printer, c: Call) -> str:
    a = c.args
    text = p.args((addr(a[0]), f"{a[1]}", f"{a[2]}", p.flags(a[3], X.MREMAP_FLAGS, 'MREMAP_???')))
    if a[3] & _MREMAP_MAYMOVE_FIXED == _MREMAP_MAYMOVE_FIXED:  # only then is new_address an argument
        text += p.tail((addr(a[4]),))
    return text


def advice(p: Printer, value: int) -> str:
    return p.xval(value & 0xFFFFFFFF, X.MADVISE_ADVICE, "MADV_???")  # printxval: unsigned int


@syscall("madvise")
def madvise(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}", advice(p, c.args[2])))




def _iovec_addrs(p: Printer, c: Call, address: int, count: int) -> str:
    """tprint_iov with iov_decode_addr: the ranges process_madvise acts on, bases as addresses."""

    def one(raw: bytes) -> str:
        base, length = p.lay.IOVEC.unpack(raw)
        return p.struct((('iov_base', addr(base)), ('iov_len', f"{length}")))

    return struct_array(p, c, address, count, p.lay.IOVEC.size, one)


@syscall("process_madvise")
def process_madvise(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), _iovec_addrs(p, c, a[1], a[2]), f"{a[2]}", advice(p, a[3] & 0xFFFFFFFF), xnum(a[4] & 0xFFFFFFFF))))


@syscall("msync")
def msync(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}", p.flags(c.args[2] & 0xFFFFFFFF, X.MSYNC_FLAGS, 'MS_???')))


@syscall("mlock2")
def mlock2(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}", p.flags(c.args[2] & 0xFFFFFFFF, X.MLOCK_FLAGS, 'MLOCK_???')))


@syscall("mlockall")
def mlockall(p: Printer, c: Call) -> str:
    return p.flags(c.args[0] & 0xFFFFFFFF, X.MLOCKALL_FLAGS, "MCL_???")


@syscall("mincore")
def mincore(p: Printer, c: Call) -> Generator[str, None, None]:
    """The page vector is an output: one byte per page, of which strace shows bit 0."""
    yield p.head((addr(c.args[0]), f"{c.args[1]}"))
    length, vec = c.args[1], c.args[2]
    npages = (length + _PAGE_SIZE - 1) // _PAGE_SIZE
    yield byte_array(p, c, vec, npages, lambda b: str(b & 1))


def byte_array(p: Printer, c: Call, address: int, count: int, show: Callable[[int], str]) -> str:
    """print_array over bytes (mincore's vector)."""
    return struct_array(p, c, address, count, 1, lambda raw: show(raw[0]))


def struct_array(p: Printer, c: Call, address: int, count: int, size: int, show: Callable[[bytes], str],
                 most: int | None = None) -> str:
    """print_array: NULL, [], the address if unreadable, ``...`` after -s elements unless -v.

    ``most``: an element printer that stops the array itself after that many
    elements (futex_waitv's FUTEX_WAITV_MAX), with ``...`` as -s does.

    An element that cannot be read after the first ends the list with
    ``... /* addr */`` as strace does; output arrays of a failed call print
    as their address (tfetch_mem refuses to read them).
    """
    if not address:
        return "NULL"
    if count == 0:
        return "[]"
    if c.failed and c.exited:
        return addr(address)
    end = address + count * size
    if end > MASK64 or end <= address:
        return addr(address)
    shown = count if p.opts.verbose or count <= p.opts.max_strlen else p.opts.max_strlen
    if most is not None and shown > most:
        shown = most
    parts = []
    # One read for the shown elements, silent if it stops short: strace reads element by element, so
    # only an element that itself runs into unmapped memory is re-read, and warned about, on its own.
    # The empty fetch keeps -e verbose='s printer (whose fetch then reads nothing: the address) in charge.
    data = c.mem.read_upto(address, shown * size) if shown and p.fetch(c, address, 0, True) is not None else None
    for i in range(min(count, shown + 1)):  # print_array reads one element past -s before its "..."
        raw = data[i * size:(i + 1) * size] if data is not None else None
        if raw is None or len(raw) < size:
            raw = p.fetch(c, address + i * size, size, True)
        if raw is None:
            if i == 0:
                return addr(address)
            parts.append(f"... /* {addr(address + i * size)} */")
            break
        if i >= shown:
            parts.append("...")
            break
        parts.append(show(raw))
    return "[" + ", ".join(parts) + "]"


@syscall("remap_file_pages")
def remap_file_pages(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((addr(a[0]), f"{a[1]}", prot(p, a[2]), f"{a[3]}", mmap_flags(p, a[4])))


_MEMBARRIER_CMD_FLAG_CPU = 0x1


def _membarrier_ret(p: Printer, c: Call) -> str:
    if c.args[0] & 0xFFFFFFFF == 0 and c.rval > 0:  # MEMBARRIER_CMD_QUERY returns the supported set
        return f"{c.rval:#x} ({p.flags(c.rval, X.MEMBARRIER_CMDS, None)})"
    return str(signed(c.rval, 64))


@syscall("membarrier", rval=_membarrier_ret)
def membarrier(p: Printer, c: Call) -> str:
    cmd = signed(c.args[0], 32)
    fl = c.args[1] & 0xFFFFFFFF
    text = p.xval(cmd & 0xFFFFFFFF, X.MEMBARRIER_CMDS, "MEMBARRIER_CMD_???")
    text += ", " + p.flags(fl, getattr(X, "MEMBARRIER_FLAGS", ()), "MEMBARRIER_CMD_FLAG_???")
    if fl & _MEMBARRIER_CMD_FLAG_CPU:
        text += p.tail((f"{signed(c.args[2], 32)}",))
    return text
