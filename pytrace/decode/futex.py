"""futex and the robust-list calls, as strace's futex.c prints them.

A futex call's meaningful arguments depend on the operation (FUTEX_WAKE takes
only a count, FUTEX_WAIT_BITSET a timeout and a bitset, FUTEX_WAKE_OP an encoded
operation), and strace prints exactly those, all at entry: a blocked FUTEX_WAIT
shows its whole argument list before ``<unfinished ...>``.
"""

from __future__ import annotations

import struct

from pytrace.decode.format import addr, signed, xlat
from pytrace.decode.registry import syscall
from pytrace.decode.time import hx, timespec_at, xval0
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

(_WAIT, _WAKE, _FD, _REQUEUE, _CMP_REQUEUE, _WAKE_OP, _LOCK_PI, _UNLOCK_PI, _TRYLOCK_PI,
 _WAIT_BITSET, _WAKE_BITSET, _WAIT_REQUEUE_PI, _CMP_REQUEUE_PI, _LOCK_PI2) = range(14)
_OP_OPARG_SHIFT = 8  # the "shift oparg" bit of FUTEX_WAKE_OP's op nibble


def _bitset(p: Printer, value: int) -> str:
    """printxval(futexbitset, val3, NULL): FUTEX_BITSET_MATCH_ANY by name (styled), else bare hex."""
    name = xlat(value, X.FUTEX_BITSET)
    return p.print_xlat(value, name) if name else hx(value)


def _op_name(p: Printer, value: int, table: tuple[tuple[int, str], ...]) -> str | None:
    """Whether printxval found a name for a FUTEX_WAKE_OP field: never in the raw style, where
    strace's printxval reports "not found" and the ``/* FUTEX_OP_??? */`` follows."""
    return None if p.raw else xlat(value, table)


def _op_field(p: Printer, value: int, shift: int, table: tuple[tuple[int, str], ...], dflt: str) -> str:
    name = _op_name(p, value, table)
    return f"{p.print_xlat(value, name)}<<{shift}" if name else f"{hx(value)}<<{shift} /* {dflt} */"


def _wake_op(p: Printer, val3: int) -> str:
    """FUTEX_WAKE_OP's encoded op: ``FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1``."""
    text = f"{p.print_xlat(_OP_OPARG_SHIFT, 'FUTEX_OP_OPARG_SHIFT')}<<28|" if (val3 >> 28) & _OP_OPARG_SHIFT else ""
    text += _op_field(p, (val3 >> 28) & 7, 28, X.FUTEX_WAKE_OPS, "FUTEX_OP_???")
    text += f"|{hx((val3 >> 12) & 0xFFF)}<<12|"
    text += _op_field(p, (val3 >> 24) & 0xF, 24, X.FUTEX_WAKE_CMPS, "FUTEX_OP_CMP_???")
    return text + f"|{hx(val3 & 0xFFF)}"


@syscall("futex")
def futex(p: Printer, c: Call) -> str:
    uaddr, op_raw, val_raw, timeout, uaddr2, val3_raw = c.args
    op = signed(op_raw, 32)
    cmd = op & 127
    val = val_raw & 0xFFFFFFFF
    val2 = timeout & 0xFFFFFFFF
    val3 = val3_raw & 0xFFFFFFFF
    parts = [addr(uaddr), xval0(p, op & 0xFFFFFFFF, X.FUTEX_OPS, "FUTEX_???")]
    if cmd == _WAIT:
        parts += [str(val), timespec_at(p, c, timeout)]
    elif cmd in (_LOCK_PI, _LOCK_PI2):
        parts.append(timespec_at(p, c, timeout))
    elif cmd == _WAIT_BITSET:
        parts += [str(val), timespec_at(p, c, timeout), _bitset(p, val3)]
    elif cmd == _WAKE_BITSET:
        parts += [str(val), _bitset(p, val3)]
    elif cmd == _REQUEUE:
        parts += [str(val), str(val2), addr(uaddr2)]
    elif cmd in (_CMP_REQUEUE, _CMP_REQUEUE_PI):
        parts += [str(val), str(val2), addr(uaddr2), str(val3)]
    elif cmd == _WAKE_OP:
        parts += [str(val), str(val2), addr(uaddr2), _wake_op(p, val3)]
    elif cmd == _WAIT_REQUEUE_PI:
        parts += [str(val), timespec_at(p, c, timeout), addr(uaddr2)]
    elif cmd in (_FD, _WAKE):
        parts.append(str(val))
    elif cmd in (_UNLOCK_PI, _TRYLOCK_PI):
        pass
    else:
        parts += [str(val), addr(timeout), addr(uaddr2), hx(val3)]
    return ", ".join(parts)


def _num_at(p: Printer, c: Call, address: int, fmt: str) -> str:
    """printnum_*: ``[value]``, or the address when the call failed or memory is unreadable."""
    if not address:
        return "NULL"
    data = None if c.failed else c.mem.read(address, 8)
    if data is None:
        return addr(address)
    (value,) = struct.unpack("<Q", data)
    return f"[{addr(value) if fmt == 'ptr' else value}]"


@syscall("get_robust_list")
def get_robust_list(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((p.pid(c.args[0]),))
    yield p.args((_num_at(p, c, c.args[1], 'ptr'), _num_at(p, c, c.args[2], 'ulong')))


@syscall("set_robust_list")
def set_robust_list(p: Printer, c: Call) -> str:
    return p.args((addr(c.args[0]), f"{c.args[1]}"))
