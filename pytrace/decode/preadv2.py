"""preadv2 and pwritev2 (vectored I/O with RWF_* flags), as strace 6.1 prints them
(``io.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    fd,
    flags,
    signed,
)
from pytrace.decode.registry import syscall
from pytrace.decode.sched import iov_addrs
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def rwf_flags(value: int) -> str:
    return flags(value & _U32, X.AIO_RW_FLAGS, "RWF_???")


@syscall("preadv2")
def preadv2(c: Call) -> Generator[str, None, None]:
    """x86_64 passes (fd, iov, iovcnt, pos_l, pos_h, flags); strace prints the offset once."""
    a = c.args
    yield f"{fd(c, a[0])}, "
    vec = iov_addrs(c, a[1], a[2]) if c.failed else iovec_array(c, a[1], a[2], c.rval)
    yield f"{vec}, {a[2]}, {signed(a[3], 64)}, {rwf_flags(a[5])}"


@syscall("pwritev2")
def pwritev2(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {iovec_array(c, a[1], a[2], None)}, {a[2]}, {signed(a[3], 64)}, {rwf_flags(a[5])}"
