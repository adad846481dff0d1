"""``Decoder.reads``: a deep-plan decoder that says some arguments read no memory must not read any.

The split stop path (pytrace/sinks/split.py) copies nothing for a call whose decoder's ``reads``
says False and decodes it later in the render process, where no tracee memory is left.  If the
decoder did read memory for such arguments, the trace would print an address instead of a
structure.  For every fcntl command strace names (and unnamed ones), decoded at entry and exit,
failed and not, the recording memory below must see no read whenever ``reads`` is False; the
commands ``find`` and most programs use must be among those.
"""

from __future__ import annotations

import itertools

from pytrace.decode import decoder_for_name
from pytrace.decode.decoding import Decoding
from pytrace.events import Call
from pytrace.tables import xlat as X


class _Recording:
    """Tracee memory that holds zeros everywhere and notes every read."""

    def __init__(self) -> None:
        self.reads = 0

    def read(self, addr: int, size: int) -> bytes:
        self.reads += 1
        return bytes(size)

    def read_upto(self, addr: int, size: int) -> bytes:
        return self.read(addr, size)

    def read_cstring(self, addr: int, limit: int) -> tuple[bytes, bool]:
        self.reads += 1
        return b"", True


def _reads_of(name: str, args: tuple[int, ...], error: int) -> int:
    mem = _Recording()
    call = Call(1, "x86_64", 72, name, args, 0, 0, mem, 0.0)
    b = Decoding().bound(call)
    gen = b.func(b.p, call) if b.split else None
    if gen is not None:
        next(gen)
    else:
        b.func(b.p, call)
    call.exited = True
    call.rval, call.error = (-1, error) if error else (0, 0)
    if gen is not None:
        next(gen, "")
    if not error:
        b.rval(b.p, call)
    return mem.reads


def test_fcntl_reads_no_memory_where_it_says_so() -> None:
    reads = decoder_for_name("fcntl").reads
    assert reads is not None
    commands = [value for value, _ in X.FCNTL_CMDS] + [9999, 0xFFFFFFFF]
    said_no = 0
    for cmd, error in itertools.product(commands, (0, 14)):
        args = (3, cmd, 0x7FFF0000, 0, 0, 0)
        if not reads(args):
            said_no += 1
            assert _reads_of("fcntl", args, error) == 0, hex(cmd)
        else:
            # and no command that never reads (the F_*LK64 ones read under fcntl64, i386's name)
            assert _reads_of("fcntl", args, error) or _reads_of("fcntl64", args, error) or error, hex(cmd)
    names = {name: value for value, name in X.FCNTL_CMDS}
    for common in ("F_GETFD", "F_SETFD", "F_GETFL", "F_SETFL", "F_DUPFD_CLOEXEC"):
        assert not reads((3, names[common], 1, 0, 0, 0)), common
    assert said_no > len(commands)
