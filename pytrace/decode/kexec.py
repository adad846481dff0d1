"""kexec_load (with its segment array) and kexec_file_load as strace 6.1 prints them
(``kexec.c``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call


_KEXEC_ARCH_MASK = 0xFFFF0000
_KEXEC_SEGMENT_MAX = 16


def _kexec_segment(p: Printer, raw: bytes) -> str:
    buf, bufsz, mem, memsz = p.lay.KEXEC_SEGMENT.unpack(raw)
    return p.struct((('buf', addr(buf)), ('bufsz', f"{bufsz}"), ('mem', addr(mem)), ('memsz', f"{memsz}")))


@syscall("kexec_load")
def kexec_load(p: Printer, c: Call) -> str:
    a = c.args
    value = a[3]
    text = p.xval(value & _KEXEC_ARCH_MASK, X.KEXEC_ARCHS, "KEXEC_ARCH_???")
    rest = value & ~_KEXEC_ARCH_MASK
    if rest:
        text += "|" + p.flags(rest, X.KEXEC_LOAD_FLAGS, "KEXEC_???")
    from pytrace.decode.memory import struct_array

    # print_kexec_segments: more than KEXEC_SEGMENT_MAX segments print the pointer.
    segments = addr(a[2]) if a[1] > _KEXEC_SEGMENT_MAX else struct_array(p, c, a[2], a[1], p.lay.KEXEC_SEGMENT.size,
                                                                        partial(_kexec_segment, p))
    return p.args((addr(a[0]), f"{a[1]}", f"{segments}", f"{text}"))


@syscall("kexec_file_load")
def kexec_file_load(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), p.fd(c, a[1]), f"{a[2]}", p.string_at(c, a[3], a[2]), p.flags(a[4], X.KEXEC_FILE_FLAGS, 'KEXEC_FILE_???'))))
