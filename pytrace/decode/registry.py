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

import inspect
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytrace.decode.format import MASK64, signed

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


@dataclass(slots=True, frozen=True)
class Decoder:
    func: Callable[[Call], object]
    split: bool
    rval: Callable[[Call], str]


DECODERS: dict[str, Decoder] = {}


def syscall(*names: str, rval: Callable[[Call], str] = rv_dec) -> Callable[[Callable], Callable]:
    """Register ``func`` as the decoder of each syscall in ``names``."""

    def register(func: Callable) -> Callable:
        dec = Decoder(func, inspect.isgeneratorfunction(func), rval)
        for name in names:
            DECODERS[name] = dec
        return func

    return register
