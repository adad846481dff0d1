"""kexec_load (with its segment array) and kexec_file_load as strace 6.1 prints them
(``kexec.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
    fd,
    flags,
    string_at,
    xval,
)
from pytrace.decode.registry import syscall
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from pytrace.events import Call


_KEXEC_ARCH_MASK = 0xFFFF0000
_KEXEC_SEGMENT_MAX = 16
_KEXEC_SEGMENT = struct.Struct("<QQQQ")  # struct kexec_segment: buf, bufsz, mem, memsz


def _kexec_segment(raw: bytes) -> str:
    buf, bufsz, mem, memsz = _KEXEC_SEGMENT.unpack(raw)
    return f"{{buf={addr(buf)}, bufsz={bufsz}, mem={addr(mem)}, memsz={memsz}}}"


@syscall("kexec_load")
def kexec_load(c: Call) -> str:
    a = c.args
    value = a[3]
    text = xval(value & _KEXEC_ARCH_MASK, X.KEXEC_ARCHS, "KEXEC_ARCH_???")
    rest = value & ~_KEXEC_ARCH_MASK
    if rest:
        text += "|" + flags(rest, X.KEXEC_LOAD_FLAGS, "KEXEC_???")
    from pytrace.decode.memory import struct_array

    # print_kexec_segments: more than KEXEC_SEGMENT_MAX segments print the pointer.
    segments = addr(a[2]) if a[1] > _KEXEC_SEGMENT_MAX else struct_array(c, a[2], a[1], _KEXEC_SEGMENT.size,
                                                                        _kexec_segment)
    return f"{addr(a[0])}, {a[1]}, {segments}, {text}"


@syscall("kexec_file_load")
def kexec_file_load(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {fd(c, a[1])}, {a[2]}, {string_at(c, a[3], a[2])}, "
            f"{flags(a[4], X.KEXEC_FILE_FLAGS, 'KEXEC_FILE_???')}")
