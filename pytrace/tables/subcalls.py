"""i386 ``socketcall(2)``: strace prints the socket call it multiplexes, with that call's own arguments.

glibc on i386 still makes ``socket``, ``socketpair``, ``setsockopt``... through
``socketcall(call, args)``, ``args`` pointing to an array of 32-bit words.
strace 6.1 (syscall.c, ``decode_socket_subcall``) reads ``nargs`` words from
there at the entry and from then on treats the stop as the subcall: its name,
its arguments, its decoder and its ``-e trace=`` selection (``qual_flags`` of
the subcall, so ``-e trace=socketcall`` alone does not show a socketpair made
through it).  When ``call`` is out of range or the array is unreadable the
stop stays ``socketcall(N, addr)``.

The backend consults this module only for names in ``MULTIPLEXERS``, which
no x86_64 syscall has, and the bitmap of the i386 personality is widened once
(``widen_bitmap``) so that ``socketcall`` stops are seen whenever one of its
subcalls is traced.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.events import MemoryView
    from pytrace.tables.syscalls import SyscallTable

#: Syscall names whose stops are resolved to a subcall (i386 only).
MULTIPLEXERS = frozenset(("socketcall",))

#: strace's linux/generic/subcallent.h: subcall number -> (name, number of argument words).
SOCKET_SUBCALLS: dict[int, tuple[str, int]] = {
    1: ("socket", 3), 2: ("bind", 3), 3: ("connect", 3), 4: ("listen", 2), 5: ("accept", 3),
    6: ("getsockname", 3), 7: ("getpeername", 3), 8: ("socketpair", 4), 9: ("send", 4), 10: ("recv", 4),
    11: ("sendto", 6), 12: ("recvfrom", 6), 13: ("shutdown", 2), 14: ("setsockopt", 5),
    15: ("getsockopt", 5), 16: ("sendmsg", 3), 17: ("recvmsg", 3), 18: ("accept4", 4),
    19: ("recvmmsg", 5), 20: ("sendmmsg", 4),
}

#: strace's numbers for the subcalls (linux/i386/syscallent.h: SYS_socket_subcall 500): the names
#: ``-e trace=`` knows for i386 besides the table's (``send``, ``recv``...), and their bitmap slots.
SOCKET_SUBCALL_BASE = 500
PSEUDO_NUMBERS: dict[str, int] = {name: SOCKET_SUBCALL_BASE + n for n, (name, _) in SOCKET_SUBCALLS.items()}

#: Subcalls without an i386 syscall of their own: the stop keeps the multiplexer's number.
_SELECTED_AS = {"send": "sendto", "recv": "recvfrom"}

_WORDS = [struct.Struct(f"<{n}I") for n in range(7)]


def _number(tab: SyscallTable, name: str) -> int | None:
    """The bitmap slot of ``name``: its i386 number, else strace's subcall number."""
    info = tab.by_name.get(name)
    return PSEUDO_NUMBERS.get(name) if info is None else info.nr


def pseudo_numbers(arch: str) -> dict[str, int]:
    """Names ``-e trace=`` accepts for ``arch`` that only exist as subcalls (i386: send, recv)."""
    return PSEUDO_NUMBERS if arch == "i386" else {}


def widen_bitmap(tab: SyscallTable, bitmap: bytearray) -> bytearray:
    """The i386 bitmap with ``socketcall`` stopped at (value 2: only for its subcalls) when one
    of them is traced and socketcall itself is not."""
    nr = _number(tab, "socketcall")
    if nr is None or nr >= len(bitmap) or bitmap[nr]:
        return bitmap
    for name, _nargs in SOCKET_SUBCALLS.values():
        sub = _number(tab, name)
        if sub is not None and sub < len(bitmap) and bitmap[sub]:
            out = bytearray(bitmap)
            out[nr] = 2
            return out
    return bitmap


def resolve(
    nr: int, args: tuple[int, ...], mem: MemoryView, tab: SyscallTable, bitmap: bytearray,
) -> tuple[int, str, tuple[int, ...]] | None:
    """(number, name, arguments) the stop is printed as, or None if it is not traced."""
    sub = SOCKET_SUBCALLS.get(args[0] & 0xFFFFFFFF)
    if sub is not None:
        name, nargs = sub
        data = mem.read(args[1], nargs * 4)
        if data is not None:
            words = _WORDS[nargs].unpack(data)
            sub_nr = _number(tab, name)
            if sub_nr is None or not (bitmap[sub_nr] if sub_nr < len(bitmap) else True):
                return None
            # The subcall's own number when i386 has one (-c, -n and filters see the same call).
            return nr if name in _SELECTED_AS else sub_nr, name, words + args[nargs:]
    return (nr, "socketcall", args) if bitmap[nr] == 1 else None
