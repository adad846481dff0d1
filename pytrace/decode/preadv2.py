"""preadv2 and pwritev2 (vectored I/O with RWF_* flags), as strace 6.1 prints them
(``io.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    signed,
)
from pytrace.decode.registry import syscall
from pytrace.decode.sched import iov_addrs
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def rwf_flags(p: Printer, value: int) -> str:
    return p.flags(value & _U32, X.AIO_RW_FLAGS, "RWF_???")


@syscall("preadv2")
def preadv2(p: Printer, c: Call) -> Generator[str, None, None]:
    """x86_64 passes (fd, iov, iovcnt, pos_l, pos_h, flags); strace prints the offset once."""
    a = c.args
    yield p.head((p.fd(c, a[0]),))
    vec = iov_addrs(p, c, a[1], a[2]) if c.failed else iovec_array(p, c, a[1], a[2], c.rval)
    yield p.args((f"{vec}", f"{a[2]}", f"{signed(a[3], 64)}", rwf_flags(p, a[5])))


@syscall("pwritev2")
def pwritev2(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.fd(c, a[0]), iovec_array(p, c, a[1], a[2], None), f"{a[2]}", f"{signed(a[3], 64)}", rwf_flags(p, a[5])))
