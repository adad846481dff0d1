"""The i386 personality: which decoder and which layouts print each call of a 32-bit tracee (strace's mpers).

A -m32 tracee passes ``struct timespec`` as two 32-bit ints, ``struct iovec``
as two 32-bit words, ``struct stat64`` in its own packed order, and so on.
Decoders are written once and read every layout from their printer
(``p.lay.TIMESPEC``); an i386 call is printed by the same decoder with a
printer carrying ``layouts.I386`` (pytrace.decode.decoding builds it once).

Names that exist only on i386 (``stat64``, ``fstatat64``, the ``*_time64``
calls...) reuse the x86_64 decoder of their counterpart with the layouts they
need (the syscall tables' ``variant`` column, ``variants()``).  Calls whose arguments are split across registers get
them joined first (``ARGS``); ``set_thread_area``/``get_thread_area`` have
printers of their own (``OWN``).  i386-only calls with an argument convention
of their own (``mmap2``'s offset in pages, ``_llseek``'s split offset) or that
share a decoder outright (``fcntl64``, ``ugetrlimit``) are registered with
``@syscall`` in their family module like any other name: an x86_64 tracee
never makes them.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any

from pytrace.decode.layouts import VARIANT_FAMILIES

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.layouts import Layouts
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_VARIANTS: dict[str, tuple[str, Layouts]] | None = None


def variants() -> dict[str, tuple[str, Layouts]]:
    """i386-only names -> (x86_64 decoder to reuse, the layouts it reads), from the tables' ``variant`` column."""
    global _VARIANTS
    if _VARIANTS is None:
        from pytrace.tables.syscalls import table

        _VARIANTS = {info.name: (info.variant[0], VARIANT_FAMILIES[info.variant[1]])
                     for info in table("i386").by_nr.values() if info.variant is not None}
    return _VARIANTS


# ---------------------------------------------------------------- struct user_desc (ldt.c)

#: entry_number, base_addr, limit, then the bit fields (i386: no ``lm``, strace ignores it there).
_USER_DESC = struct.Struct("<IIII")
_USER_DESC_BITS = (("seg_32bit", 1), ("contents", 2), ("read_exec_only", 1), ("limit_in_pages", 1),
                   ("seg_not_present", 1), ("useable", 1))


def _entry_number(value: int) -> str:
    """PRINT_VAL_ID: -1 as such, any other value unsigned."""
    return "-1" if value == 0xFFFFFFFF else str(value)


def _c_0x(value: int, width: int) -> str:
    """C's ``%#0*x`` (PRINT_FIELD_0X): zero-padded, ``0x`` counted in the width, no prefix for zero."""
    return "0" * width if value == 0 else f"{value:#0{width}x}"


def _user_desc_rest(base: int, limit: int, bits: int) -> str:
    fields = [f", base_addr={_c_0x(base, 8)}, limit={_c_0x(limit, 8)}"]
    shift = 0
    for name, width in _USER_DESC_BITS:
        fields.append(f", {name}={(bits >> shift) & ((1 << width) - 1)}")
        shift += width
    return "".join(fields) + "}"


def user_desc_at(p: Printer, c: Call, address: int) -> str:
    """print_user_desc(USER_DESC_BOTH) of a 32-bit tracee: the whole structure, or its address."""
    return p.umove(c, address, _USER_DESC, lambda entry, base, limit, bits:
                   f"{{entry_number={_entry_number(entry)}{_user_desc_rest(base, limit, bits)}")


def _set_thread_area(p: Printer, c: Call) -> Generator[str, None, None]:
    """The descriptor at entry; the kernel's choice of entry at exit, as ``= 0 (entry_number=N)``."""
    yield user_desc_at(p, c, c.args[0])
    data = None if c.failed or not c.args[0] else c.mem.read(c.args[0], 4)
    if data is not None:
        c.ret_text = f"{c.rval} (entry_number={struct.unpack('<I', data)[0]})"
    yield ""


def _get_thread_area(p: Printer, c: Call) -> Generator[str, None, None]:
    """USER_DESC_ENTERING then USER_DESC_EXITING: ``{entry_number=N`` at entry, the rest at exit."""
    from pytrace.decode.format import addr

    address = c.args[0]
    head = c.mem.read(address, 4) if address else None
    if head is None:
        yield addr(address)
        yield ""
        return
    entry = struct.unpack("<I", head)[0]
    yield f"{{entry_number={_entry_number(entry)}"
    data = None if c.failed else c.mem.read(address, _USER_DESC.size)
    if data is None:
        yield ", ...}"
        return
    now, base, limit, bits = _USER_DESC.unpack(data)
    changed = "" if now == entry else f" => {_entry_number(now)}"
    yield changed + _user_desc_rest(base, limit, bits)


#: i386 decoders of calls whose x86_64 printer differs by more than a layout.
OWN: dict[str, Any] = {"set_thread_area": _set_thread_area, "get_thread_area": _get_thread_area}


def ipc_raw(printargs: Any) -> Any:
    """-e raw= of an ipc(2) subcall: strace's shifted ``u_arg`` words (subcalls.IpcArgs), not the
    direct call's order the decoders get; a direct call (semget...) is printed by ``printargs``."""
    from pytrace.tables.subcalls import IpcArgs

    def raw(p: Printer, c: Call) -> str:
        args = c.args
        if type(args) is not IpcArgs:
            return printargs(p, c)  # type: ignore[no-any-return]
        return ", ".join(f"{v:#x}" if v else "0" for v in args.shifted)

    return raw


def _pairs(*firsts: int) -> Any:
    """strace's getllval: each 64-bit argument is two registers, low word first; joined into one."""
    def join(args: tuple[int, ...]) -> tuple[int, ...]:
        out = list(args)
        for i in reversed(firsts):
            out[i:i + 2] = [(out[i] & 0xFFFFFFFF) | (out[i + 1] & 0xFFFFFFFF) << 32]
        return tuple(out)
    return join


def _low_high(args: tuple[int, ...]) -> tuple[int, ...]:
    """print_lld_from_low_high_val: preadv's (pos_l, pos_h) are one offset; pos_h stays where it is."""
    return (*args[:3], (args[3] & 0xFFFFFFFF) | (args[4] & 0xFFFFFFFF) << 32, *args[4:])


def _signed_long(*indexes: int) -> Any:
    """A signed 32-bit ``long`` (off_t...) sign-extended to the 64 bits the x86_64 decoder reads."""
    def extend(args: tuple[int, ...]) -> tuple[int, ...]:
        out = list(args)
        for i in indexes:
            out[i] = (out[i] & 0xFFFFFFFF) - ((out[i] & 0x80000000) << 1) & 0xFFFFFFFFFFFFFFFF
        return tuple(out)
    return extend


#: i386 calls whose arguments are laid out otherwise than the x86_64 decoder of ``base`` reads them:
#: name -> (base, rewrite of the argument tuple), applied once at entry before that decoder runs.
ARGS: dict[str, tuple[str, Any]] = {
    "pread64": ("pread64", _pairs(3)), "pwrite64": ("pwrite64", _pairs(3)),
    "truncate64": ("truncate", _pairs(1)), "ftruncate64": ("ftruncate", _pairs(1)),
    "fallocate": ("fallocate", _pairs(2, 4)), "readahead": ("readahead", _pairs(1)),
    "sync_file_range": ("sync_file_range", _pairs(1, 3)), "fanotify_mark": ("fanotify_mark", _pairs(2)),
    "fadvise64": ("fadvise64", _pairs(1)), "fadvise64_64": ("fadvise64", _pairs(1, 3)),
    "lookup_dcookie": ("lookup_dcookie", _pairs(0)),
    "preadv": ("preadv", _low_high), "pwritev": ("pwritev", _low_high),
    "preadv2": ("preadv2", _low_high), "pwritev2": ("pwritev2", _low_high),
    "lseek": ("lseek", _signed_long(1)), "io_submit": ("io_submit", _signed_long(1)),
}


#: strace's i386 argument counts of those calls (each 64-bit argument is two words): what
#: ``-e raw=NAME`` prints; the syscall tables list the logical arguments (syscall_tables/README.md).
RAW_NARGS: dict[str, int] = {
    "pread64": 5, "pwrite64": 5, "truncate64": 3, "ftruncate64": 3, "fallocate": 6, "readahead": 4,
    "sync_file_range": 6, "fanotify_mark": 6, "fadvise64": 5, "fadvise64_64": 6, "lookup_dcookie": 4,
}


def raw_words(count: int) -> Any:
    """printargs over the registers themselves: ``count`` words as ``%#lx``."""
    from pytrace.decode.printer import hexnum

    return lambda p, c: ", ".join(hexnum(a & 0xFFFFFFFF) for a in c.args[:count])


def rewritten(func: Any, rewrite: Any) -> Any:
    """``func`` called on the call with its arguments rewritten (kept so: the exit half sees them too)."""
    def decode(p: Printer, c: Call) -> Any:
        c.args = rewrite(c.args)
        return func(p, c)
    return decode


#: Names whose i386 call is another one than x86_64's of that name: name -> decoder registered for it.
RENAMED: dict[str, str] = {"select": "oldselect"}

#: ipc(2)'s subcalls (tables/subcalls.py), whose -e raw= printer needs strace's argument order.
IPC_SUBCALL_NAMES = ("semop", "semget", "semctl", "semtimedop", "msgsnd", "msgrcv", "msgget", "msgctl",
                     "shmat", "shmdt", "shmget", "shmctl")
