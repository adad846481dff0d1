"""What the eBPF programs copy for each traced function, and the memory the formatter then reads.

A capture plan follows the function's prototype (the same ``Proto`` the ptrace
backend formats with): each pointer parameter that arrives in one of the six
integer argument registers gets its pointee copied -- a string (``string``,
``format``) with ``bpf_probe_read_user_str`` up to ``-s`` + 1 characters (one
more than is shown, so that a cut string still prints ``...``), anything else
(arrays, structs, ``int *``) as the bytes its printer reads (``-A`` elements of
an array, a struct's size).  Parameters ltrace prints at the return (after a
``+``) are copied at the return, from the saved argument registers, and so is
the string a ``string`` result points to.  A ``format`` parameter's variadic
values may be strings: the registers after it are copied as strings too (a copy
from a register holding a number fails harmlessly), and the stack arguments
(128 bytes above the return address) are copied for ``format`` and for more
than six integer parameters.

Pointers inside copied memory (a struct's ``char *`` member, ``%s`` values
passed on the stack) are not followed: they print as addresses, as for memory
the ptrace backend cannot read.  Floating-point registers are not visible to
a uprobe program: ``float``/``double`` values print as 0.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pytrace.ltrace import abi
from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace import ebpf_programs as EP
from pytrace.ltrace.prototypes import Proto

STACK_BYTES = 128
FORMAT_BYTES = 256
CUT_REACH = 1 << 20  # how far past a cut string's copy reads still see non-NUL bytes (values.SCAN_CAP is 64 Ki)


@dataclass(frozen=True)
class Plan:
    """Slot words (see ebpf_programs.slot_word) at entry and return, and each record's used length."""

    entry: tuple[int, ...]
    ret: tuple[int, ...]
    entry_total: int
    return_total: int

    def spec(self, caller_lo: int = 0, caller_hi: int = 0) -> bytes:
        """The site's value in the ``spec`` map."""
        import struct

        return struct.pack(f"<QQII{EP.NSLOTS}Q{EP.NSLOTS}Q", caller_lo, caller_hi, self.entry_total,
                           self.return_total, *self.entry, *self.ret)


def _pointee_capture(t: T.Type, strlen: int, arraylen: int) -> tuple[int, int] | None:
    """(mode, size) for a pointer-like parameter of type ``t``; None when nothing behind it is printed."""
    if t.kind == T.ARRAY:
        target: T.Type | None = t
    elif t.kind == T.POINTER:
        target = t.target
    else:
        return None
    if target is None or target.kind == T.VOID:
        return None
    if target.kind == T.ARRAY and target.target is not None and target.target.kind == T.CHAR:
        length = target.length
        if isinstance(length, T.Expr) and length.op == "zero":  # NUL-terminated (perhaps also bounded)
            return EP.MODE_STR, min(strlen + 2, EP.SLOT_MAX)
        # a sized buffer (string[arg3], array(char, retval)): bytes, NULs included, one more than -s shows
        n = T.const_length(length)
        return EP.MODE_BYTES, min(strlen + 1 if n is None else min(n, strlen + 1), EP.SLOT_MAX)
    if target.kind == T.ARRAY:
        es = T.sizeof(target.target) if target.target is not None else 0
        n = T.const_length(target.length)
        count = min(n, arraylen + 1) if n is not None else arraylen + 1
        size = es * count
    else:
        size = T.sizeof(target)
    if size <= 0:
        return None
    return EP.MODE_BYTES, min(size, EP.SLOT_MAX)


def plan_for(proto: Proto, strlen: int, arraylen: int) -> Plan:
    """The capture plan of one prototype (x86-64 SysV argument registers)."""
    entry = [0] * EP.NSLOTS
    ret = [0] * EP.NSLOTS
    offsets = [EP.HEAD, EP.HEAD]

    def put(slots: list[int], which: int, slot: int, mode: int, size: int) -> None:
        off = offsets[which]
        if off + size > EP.REC_MAX or slots[slot]:
            return
        slots[slot] = EP.slot_word(mode, size, off)
        offsets[which] = off + (size + 7) // 8 * 8

    reg = 0
    if proto.hidden_ret:
        reg = 1  # rdi holds where a MEMORY-class result goes
    stack = len(proto.params) > 6 or proto.pack is not None
    for i, p in enumerate(proto.params):
        classes = abi.classify(p) if p.kind == T.STRUCT else None
        if p.kind in T.FLOATS:
            continue
        if p.kind == T.STRUCT:
            reg += classes.count(abi.INTEGER) if classes else 0
            stack = stack or classes is None
            continue
        if reg >= 6:
            stack = True
            break
        at_return = i >= proto.first_out
        cap = _pointee_capture(p, strlen, arraylen)
        if cap is not None and p.pack:  # the whole format is parsed for its values, not only -s of it
            cap = (cap[0], min(max(cap[1], FORMAT_BYTES), EP.SLOT_MAX))
        if cap is not None:  # (an out-parameter too: a ``format`` among them is expanded at the entry)
            put(entry, 0, reg, *cap)
            if at_return:
                put(ret, 1, reg, *cap)
        if p.pack:
            for r in range(reg + 1, 6):
                put(entry, 0, r, EP.MODE_STR, min(strlen + 2, EP.SLOT_MAX))
        reg += 1
    if stack:
        put(entry, 0, EP.SLOT_STACK, EP.MODE_BYTES, STACK_BYTES)
    cap = _pointee_capture(proto.ret, strlen, arraylen) if proto.ret.kind == T.POINTER else None
    if cap is not None:
        put(ret, 1, EP.SLOT_RET, *cap)
    return Plan(tuple(entry), tuple(ret), offsets[0], offsets[1])


class CallMemory:
    """The tracee's memory as the programs copied it for one call: reads outside the copies fail.

    ``regions``: address -> (bytes, complete).  A string copy that was cut (no NUL
    within ``-s`` + 1 characters) reads as non-NUL bytes past its end, so the
    formatter counts it as longer than ``-s`` and prints its ``...``; it never
    shows those bytes (it prints at most ``-s`` characters).
    """

    __slots__ = ("regions",)

    def __init__(self, regions: dict[int, tuple[bytes, bool]]) -> None:
        self.regions = regions

    def _find(self, addr: int) -> tuple[int, bytes, bool] | None:
        got = self.regions.get(addr)
        if got is not None:
            return addr, got[0], got[1]
        for base, (data, complete) in self.regions.items():
            if base <= addr <= base + len(data) + (0 if complete else CUT_REACH):
                return base, data, complete
        return None

    def read_upto(self, addr: int, size: int) -> bytes | None:
        found = self._find(addr)
        if found is None:
            return None
        base, data, complete = found
        part = data[addr - base:addr - base + size]
        if not complete and len(part) < size:
            part += b"\x01" * (size - len(part))
        return part or None  # (a cut string: the formatter's terminator search goes on past the copy)

    def read(self, addr: int, size: int) -> bytes | None:
        found = self._find(addr)
        if found is None:
            return None
        base, data, complete = found
        part = data[addr - base:addr - base + size]
        if len(part) == size:
            return part
        if not complete and part:
            return part + b"\x01" * (size - len(part))
        return None

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool] | None:
        found = self._find(addr)
        if found is None:
            return None
        base, data, complete = found
        data = data[addr - base:]
        nul = data.find(b"\0")
        if nul >= 0:
            return data[:nul], True
        if len(data) <= limit and complete:
            return data, True
        return data[:limit], False

    def overlaid(self, later: CallMemory) -> CallMemory:
        """These copies with ``later``'s (the return's) taking precedence."""
        return CallMemory({**self.regions, **later.regions})


def regions(rec: memoryview, slots: tuple[int, ...], addrs: list[int],
            late: Callable[[int, int], bytes | None] | None = None) -> dict[int, tuple[bytes, bool]]:
    """The copies in one record: ``addrs[i]`` is where slot i's bytes came from.

    A copy the kernel could not make (eBPF cannot take a page fault: a string in a page
    the program has not touched yet, typically its first use of a constant) is read with
    ``late(addr, size)`` from the running process instead, when it is given.
    """
    out: dict[int, tuple[bytes, bool]] = {}
    for i, word in enumerate(slots):
        if not word:
            continue
        mode, size, off = word & 0xFF, (word >> 16) & 0xFFFF, (word >> 32) & 0xFFFF
        n = int.from_bytes(rec[EP.LENS + 2 * i:EP.LENS + 2 * i + 2], "little")
        if not n:
            if late is not None and addrs[i]:
                data = late(addrs[i], size)
                if data:
                    if mode != EP.MODE_STR:
                        if len(data) == size:
                            out[addrs[i]] = (data, True)
                        continue
                    nul = data.find(b"\0")
                    out[addrs[i]] = (data[:nul + 1], True) if nul >= 0 else (data[:size - 1], False)
            continue
        data = bytes(rec[off:off + n])
        if mode == EP.MODE_STR:
            # n counts the NUL; a copy that filled the slot was cut
            out[addrs[i]] = (data, n < size) if n < size else (data[:-1], False)
        else:
            out[addrs[i]] = (data, True)
    return out
