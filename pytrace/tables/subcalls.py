"""i386 ``socketcall(2)`` and ``ipc(2)``: strace prints the call they multiplex, with that call's own arguments.

glibc on i386 still makes ``send``, ``recv`` (and, on older versions, every
socket call) through ``socketcall(call, args)``, ``args`` pointing to an array
of 32-bit words.  strace 6.1 (syscall.c, ``decode_socket_subcall``) reads
``nargs`` words from there at the entry and from then on treats the stop as
the subcall ``SYS_socket_subcall + call`` (500 + call): its name, its
arguments, its decoder, its ``-e trace=`` selection (``qual_flags`` of that
slot, so ``-e trace=socketcall`` alone does not show a socketpair made through
it, and ``%desc`` selects a direct ``sendto`` but not one made through
socketcall: the subcall slots are ``TN`` only), its ``-e raw=`` and its ``-c``
row.  When ``call`` is out of range or the array is unreadable the stop stays
``socketcall(N, addr)``.  ``-n`` still prints the number the kernel saw
(``true_scno``: 102), see ``true_number``.

``ipc(call, first, second, third, ptr, fifth)`` (``semop``, ``msgsnd``,
``shmat``...: ``decode_ipc_subcall``) is the same with slot 521 + call and the
arguments in registers.  strace shifts them by one (``u_arg[i] = u_arg[i+1]``)
and its ipc decoders know the indirect order; pytrace's decoders (ipc.py) take
the direct call's order, so the arguments are handed to them reordered
(``IpcArgs``), and the shifted words strace prints under ``-e raw=`` travel with
them (``IpcArgs.shifted``).

Every subcall stop gets its slot as ``Call.nr``, whether or not i386 also has a
direct syscall of that name (``sendto`` 369 vs. 511 through socketcall): that is
how strace counts (-c shows two ``sendto`` rows then) and selects them.  The
backend consults this module only for names in ``MULTIPLEXERS``, which no
x86_64 syscall has; the bitmap of the i386 personality is widened once
(``widen_bitmap``) so that ``socketcall`` stops are seen whenever one of its
subcalls is traced.
"""

from __future__ import annotations

import struct

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
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

#: strace's nargs of the ipc subcalls (subcallent.h): how many shifted words ``-e raw=`` prints.
IPC_NARGS: dict[int, int] = {1: 4, 2: 3, 3: 4, 4: 5, 11: 4, 12: 5, 13: 2, 14: 4, 21: 4, 22: 4, 23: 3, 24: 4}

#: Class -> subcall slots (subcallent.h: socket subcalls are TN, ipc ones TI, shmat/shmdt TI|TM).
PSEUDO_CLASSES: dict[str, frozenset[int]] = {
    "network": frozenset(SOCKET_SUBCALL_BASE + n for n in SOCKET_SUBCALLS),
    "ipc": frozenset(IPC_SUBCALL_BASE + n for n in IPC_SUBCALLS),
    "memory": frozenset(IPC_SUBCALL_BASE + n for n in (21, 22)),
}

#: The slot -> name of every subcall (-c rows, -e trace=/REGEX, -P).
SLOT_NAMES: dict[int, str] = {nr: name for name, nr in PSEUDO_NUMBERS.items()}
#: The multiplexers' own i386 numbers (linux/i386/syscallent.h), what ``-n`` prints for a subcall.
SOCKETCALL_NR, IPC_NR = 102, 117

_WORDS = [struct.Struct(f"<{n}I") for n in range(7)]


class IpcArgs(tuple):  # a __dict__ for one attribute: only ipc(2) subcalls pay for it
    """An ipc(2) subcall's arguments in the direct call's order, plus strace's shifted ``u_arg``."""

    shifted: tuple[int, ...]


def pseudo_numbers(arch: str) -> dict[str, int]:
    """Names ``-e trace=`` resolves to a subcall slot for ``arch`` (i386: socket and ipc subcalls)."""
    return PSEUDO_NUMBERS if arch == "i386" else {}


def pseudo_names(arch: str) -> dict[int, str]:
    """strace's subcall slot -> name, for the calls counted there (i386 socketcall/ipc subcalls, ``-c``)."""
    return SLOT_NAMES if arch == "i386" else {}


def true_number(nr: int) -> int:
    """What ``-n`` prints for an i386 call numbered ``nr``: the multiplexer's number for a subcall slot."""
    if nr < SOCKET_SUBCALL_BASE:
        return nr
    return SOCKETCALL_NR if nr < IPC_SUBCALL_BASE else IPC_NR


def widen_bitmap(tab: SyscallTable, bitmap: bytearray) -> bytearray:
    """The i386 bitmap with ``socketcall`` / ``ipc`` stopped at (value 2: only for their subcalls)
    when one of their subcalls is traced and the multiplexer itself is not."""
    out = bitmap
    for mux, base, subs in (("socketcall", SOCKET_SUBCALL_BASE, SOCKET_SUBCALLS),
                            ("ipc", IPC_SUBCALL_BASE, IPC_SUBCALLS)):
        info = tab.by_name.get(mux)
        if info is None or info.nr >= len(out) or out[info.nr]:
            continue
        if any(base + n < len(out) and out[base + n] for n in subs):
            out = bytearray(out) if out is bitmap else out
            out[info.nr] = 2
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


def _resolve_ipc(nr: int, args: tuple[int, ...], bitmap: bytearray) -> tuple[int, str, tuple[int, ...]] | None:
    """strace's decode_ipc_subcall: ``call & 0xffff`` is the subcall, ``call >> 16`` its version."""
    call = args[0] & 0xFFFFFFFF
    sub = call & 0xFFFF
    name = IPC_SUBCALLS.get(sub)
    if name is None:
        return (nr, "ipc", args) if bitmap[nr] == 1 else None
    slot = IPC_SUBCALL_BASE + sub
    if not (bitmap[slot] if slot < len(bitmap) else True):
        return None
    out = IpcArgs(_ipc_args(sub, call >> 16, args))
    out.shifted = args[1:1 + IPC_NARGS[sub]]
    return slot, name, out


def resolve(
    nr: int, args: tuple[int, ...], mem: MemoryView, tab: SyscallTable, bitmap: bytearray,
) -> tuple[int, str, tuple[int, ...]] | None:
    """(strace's scno, name, arguments) the stop is printed as, or None if it is not traced."""
    if nr == IPC_NR:
        return _resolve_ipc(nr, args, bitmap)
    call = args[0] & 0xFFFFFFFF
    sub = SOCKET_SUBCALLS.get(call)
    if sub is not None:
        name, nargs = sub
        data = mem.read(args[1], nargs * 4)
        if data is not None:
            slot = SOCKET_SUBCALL_BASE + call
            traced = bitmap[slot] if slot < len(bitmap) else True
            return (slot, name, _WORDS[nargs].unpack(data)) if traced else None
    return (nr, "socketcall", args) if bitmap[nr] == 1 else None
