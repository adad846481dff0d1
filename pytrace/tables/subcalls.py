"""i386 ``socketcall(2)`` and ``ipc(2)``: strace prints the call they multiplex, with that call's own arguments.

glibc on i386 still makes ``socket``, ``socketpair``, ``setsockopt``... through
``socketcall(call, args)``, ``args`` pointing to an array of 32-bit words.
strace 6.1 (syscall.c, ``decode_socket_subcall``) reads ``nargs`` words from
there at the entry and from then on treats the stop as the subcall: its name,
its arguments, its decoder and its ``-e trace=`` selection (``qual_flags`` of
the subcall, so ``-e trace=socketcall`` alone does not show a socketpair made
through it).  When ``call`` is out of range or the array is unreadable the
stop stays ``socketcall(N, addr)``.

``ipc(call, first, second, third, ptr, fifth)`` (``semop``, ``msgsnd``,
``shmat``...: ``decode_ipc_subcall``) passes its arguments in registers; they
are handed to the decoders in the direct call's order, and the call's number
is strace's scno for the subcall (``IPC_SUBCALL_BASE + call``), which the
decoders use for the few places where the indirect form prints differently.

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
MULTIPLEXERS = frozenset(("socketcall", "ipc"))

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
#: strace's linux/generic/subcallent.h: ipc(2) call number -> subcall name (SYS_ipc_subcall 521).
IPC_SUBCALLS: dict[int, str] = {
    1: "semop", 2: "semget", 3: "semctl", 4: "semtimedop", 11: "msgsnd", 12: "msgrcv", 13: "msgget",
    14: "msgctl", 21: "shmat", 22: "shmdt", 23: "shmget", 24: "shmctl",
}
#: An ipc subcall's ``Call.nr`` is strace's scno for it, above every real i386 number: the decoders
#: of ipc.py tell the indirect argument convention from the direct calls of the same name by it.
IPC_SUBCALL_BASE = 521
PSEUDO_NUMBERS: dict[str, int] = {
    **{name: SOCKET_SUBCALL_BASE + n for n, (name, _) in SOCKET_SUBCALLS.items()},
    **{name: IPC_SUBCALL_BASE + n for n, name in IPC_SUBCALLS.items()},
}

#: Class -> subcall slots (subcallent.h: socket subcalls are TN, ipc ones TI), for ``-e trace=%ipc``.
PSEUDO_CLASSES: dict[str, frozenset[int]] = {
    "network": frozenset(SOCKET_SUBCALL_BASE + n for n in SOCKET_SUBCALLS),
    "ipc": frozenset(IPC_SUBCALL_BASE + n for n in IPC_SUBCALLS),
}

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


def pseudo_names(arch: str) -> dict[int, str]:
    """strace's subcall slot -> name, for the calls counted there (i386 ipc(2) subcalls, ``-c``)."""
    return {IPC_SUBCALL_BASE + n: name for n, name in IPC_SUBCALLS.items()} if arch == "i386" else {}


def widen_bitmap(tab: SyscallTable, bitmap: bytearray) -> bytearray:
    """The i386 bitmap with ``socketcall`` / ``ipc`` stopped at (value 2: only for their subcalls)
    when one of their subcalls is traced and the multiplexer itself is not."""
    out = bitmap
    for mux, names in (("socketcall", [name for name, _ in SOCKET_SUBCALLS.values()]),
                       ("ipc", list(IPC_SUBCALLS.values()))):
        nr = _number(tab, mux)
        if nr is None or nr >= len(out) or out[nr]:
            continue
        for name in names:
            sub = _number(tab, name)
            if sub is not None and sub < len(out) and out[sub]:
                out = bytearray(out) if out is bitmap else out
                out[nr] = 2
                break
    return out


def _ipc_args(sub: int, version: int, a: tuple[int, ...]) -> tuple[int, ...]:
    """ipc(call, first, second, third, ptr, fifth)'s arguments in the direct call's order, so the
    decoders of ipc.py print them (strace: the ``indirect_ipccall`` branches of ipc_*.c)."""
    first, second, third, ptr, fifth = a[1], a[2], a[3], a[4], a[5]
    if sub == 1:  # semop(semid, sops, nsops)
        return (first, ptr, second)
    if sub == 4:  # semtimedop(semid, sops, nsops, timeout)
        return (first, ptr, second, fifth)
    if sub == 11:  # msgsnd(msqid, msgp, msgsz, msgflg)
        return (first, ptr, second, third)
    if sub == 12:  # msgrcv(msqid, msgp, msgsz, msgtyp, msgflg, version): version 0 -> ptr is {msgp, msgtyp}
        return (first, ptr, second, fifth, third, version)
    if sub == 21:  # shmat(shmid, shmaddr, shmflg, where the kernel stores the address)
        return (first, ptr, second, third)
    if sub == 22:  # shmdt(shmaddr)
        return (ptr,)
    if sub in (14, 24):  # msgctl / shmctl(id, cmd, buf)
        return (first, second, ptr)
    return (first, second, third, ptr)  # semget, semctl (ptr: where the semun is), msgget, shmget


def _resolve_ipc(
    nr: int, args: tuple[int, ...], tab: SyscallTable, bitmap: bytearray,
) -> tuple[int, str, tuple[int, ...]] | None:
    """strace's decode_ipc_subcall: ``call & 0xffff`` is the subcall, ``call >> 16`` its version."""
    call = args[0] & 0xFFFFFFFF
    sub = call & 0xFFFF
    name = IPC_SUBCALLS.get(sub)
    if name is not None:
        sub_nr = _number(tab, name)
        if sub_nr is None or not (bitmap[sub_nr] if sub_nr < len(bitmap) else True):
            return None
        return IPC_SUBCALL_BASE + sub, name, _ipc_args(sub, call >> 16, args)
    return (nr, "ipc", args) if bitmap[nr] == 1 else None


def resolve(
    nr: int, args: tuple[int, ...], mem: MemoryView, tab: SyscallTable, bitmap: bytearray,
) -> tuple[int, str, tuple[int, ...]] | None:
    """(number, name, arguments) the stop is printed as, or None if it is not traced."""
    if tab.names[nr] == "ipc":
        return _resolve_ipc(nr, args, tab, bitmap)
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
