"""Which function prints which syscall's arguments.

A decoder is either a plain function ``f(p, call) -> str`` (everything is known at
entry) or a generator that yields twice: first the text printed at syscall
entry, then the text printed at exit (output arguments such as ``read``'s
buffer).  That split is what strace's ``<unfinished ...>`` lines show, so the
decoder author states it once and the sink does the rest.

The return value is printed by the decoder's ``rval`` formatter; decoders can
also set ``call.ret_text`` at exit for annotated results like ``0 (Timeout)``.
Both get the printing context ``p`` (pytrace.decode.printer) first: the
options reach a decoder only through it.
"""

from __future__ import annotations

from collections.abc import Callable, Generator

from pytrace.decode.format import MASK64, signed
from pytrace.records import dataclass  # not dataclasses: start-up cost

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

EntryDecoder = Callable[["Printer", "Call"], str]
SplitDecoder = Callable[["Printer", "Call"], Generator[str, None, None]]
RvalPrinter = Callable[["Printer", "Call"], str]


def rv_dec(p: Printer, c: Call) -> str:
    return str(signed(c.rval, 64))


def rv_hex(p: Printer, c: Call) -> str:
    return f"{c.rval & MASK64:#x}"


def rv_oct(p: Printer, c: Call) -> str:
    return f"{c.rval & MASK64:#o}"


def rv_udec(p: Printer, c: Call) -> str:
    return str(c.rval & MASK64)


def rv_fd(p: Printer, c: Call) -> str:
    """RVAL_FD: a new descriptor (open, socket, dup, ...), printed like an fd argument (``= 3</etc/hostname>``)."""
    return p.fd(c, c.rval)


def rv_pid(p: Printer, c: Call) -> str:
    """RVAL_TID/RVAL_TGID: a thread or process id (getpid, fork, wait4, ...), ``= 1234<comm>`` under -Y."""
    return p.pid(c.rval)


@dataclass(slots=True, frozen=True)
class Decoder:
    func: Callable[[Printer, Call], object]
    split: bool
    rval: RvalPrinter
    # It also reads the tracee's state besides its memory (a descriptor's socket protocol from
    # /proc), which holds only while the tracee is stopped: the split stop path
    # (pytrace/sinks/split.py) decodes such calls at the stop, not later from copied bytes.
    live: bool = False
    # For a syscall whose capture plan is ``deep`` (what is read depends on the arguments): whether a
    # call with these arguments reads the tracee's memory at all.  False lets the split stop path
    # decode it later from its arguments alone instead of at the stop (fcntl's F_GETFD, F_SETFL:
    # a third of ``find``'s calls).  None: assume it reads.
    reads: Callable[[tuple[int, ...]], bool] | None = None


DECODERS: dict[str, Decoder] = {}
_CO_GENERATOR = 0x20  # inspect.CO_GENERATOR


def _is_generator_function(func: Callable) -> bool:
    """inspect.isgeneratorfunction without importing inspect on every start-up (plain functions)."""
    code = getattr(func, "__code__", None)
    if code is not None:
        return bool(code.co_flags & _CO_GENERATOR)
    import inspect

    return inspect.isgeneratorfunction(func)


def syscall(*names: str, rval: RvalPrinter = rv_dec, live: bool = False,
            reads: Callable[[tuple[int, ...]], bool] | None = None) -> Callable[[Callable], Callable]:
    """Register ``func`` as the decoder of each syscall in ``names`` (``live``, ``reads``: see Decoder)."""

    def register(func: Callable) -> Callable:
        dec = Decoder(func, _is_generator_function(func), rval, live, reads)
        for name in names:
            DECODERS[name] = dec
        return func

    return register
