"""Which function prints which syscall's arguments.

A decoder is either a plain function ``f(call) -> str`` (everything is known at
entry) or a generator that yields twice: first the text printed at syscall
entry, then the text printed at exit (output arguments such as ``read``'s
buffer).  That split is what strace's ``<unfinished ...>`` lines show, so the
decoder author states it once and the sink does the rest.

The return value is printed by the decoder's ``rval`` formatter; decoders can
also set ``call.ret_text`` at exit for annotated results like ``0 (Timeout)``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING

from pytrace.decode import format as F
from pytrace.decode.format import MASK64, signed
from pytrace.records import dataclass  # not dataclasses: start-up cost

if TYPE_CHECKING:
    from pytrace.events import Call

EntryDecoder = Callable[["Call"], str]
SplitDecoder = Callable[["Call"], Generator[str, None, None]]


def rv_dec(c: Call) -> str:
    return str(signed(c.rval, 64))


def rv_hex(c: Call) -> str:
    return f"{c.rval & MASK64:#x}"


def rv_oct(c: Call) -> str:
    return f"{c.rval & MASK64:#o}"


def rv_udec(c: Call) -> str:
    return str(c.rval & MASK64)


def rv_fd(c: Call) -> str:
    """RVAL_FD: a new descriptor (open, socket, dup, ...), printed like an fd argument (``= 3</etc/hostname>``)."""
    return F.fd(c, c.rval)


def rv_pid(c: Call) -> str:
    """RVAL_TID/RVAL_TGID: a thread or process id (getpid, fork, wait4, ...), ``= 1234<comm>`` under -Y."""
    return F.pid(c.rval)


@dataclass(slots=True, frozen=True)
class Decoder:
    func: Callable[[Call], object]
    split: bool
    rval: Callable[[Call], str]


DECODERS: dict[str, Decoder] = {}
_CO_GENERATOR = 0x20  # inspect.CO_GENERATOR


def _is_generator_function(func: Callable) -> bool:
    """inspect.isgeneratorfunction without importing inspect on every start-up (plain functions)."""
    code = getattr(func, "__code__", None)
    if code is not None:
        return bool(code.co_flags & _CO_GENERATOR)
    import inspect

    return inspect.isgeneratorfunction(func)


def syscall(*names: str, rval: Callable[[Call], str] = rv_dec) -> Callable[[Callable], Callable]:
    """Register ``func`` as the decoder of each syscall in ``names``."""

    def register(func: Callable) -> Callable:
        dec = Decoder(func, _is_generator_function(func), rval)
        for name in names:
            DECODERS[name] = dec
        return func

    return register
