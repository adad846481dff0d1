"""Clock adjustment: adjtimex and clock_adjtime with their ``struct timex`` and the clock
state result, as strace 6.1 prints them (``print_timex`` in ``time.c``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.format import (
    signed,
    xlat,
)
from pytrace.decode.registry import syscall
from pytrace.decode.time import clockname
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1




def _timex(p: Printer, values: tuple[int, ...]) -> str:
    (modes, offset, freq, maxerror, esterror, status, constant, precision, tolerance, t_sec, t_usec, tick,
     ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai) = values
    return (p.struct((('modes', p.flags(modes, X.ADJTIMEX_MODES, 'ADJ_???')), ('offset', f"{offset}"), ('freq', f"{freq}"), ('maxerror', f"{maxerror}"), ('esterror', f"{esterror}"), ('status', p.flags(status & _U32, X.ADJTIMEX_STATUS, 'STA_???')), ('constant', f"{constant}"), ('precision', f"{precision}"), ('tolerance', f"{tolerance}"), ('time', p.struct((('tv_sec', f"{t_sec}"), ('tv_usec', f"{t_usec}")))), ('tick', f"{tick}"), ('ppsfreq', f"{ppsfreq}"), ('jitter', f"{jitter}"), ('shift', f"{shift}"), ('stabil', f"{stabil}"), ('jitcnt', f"{jitcnt}"), ('calcnt', f"{calcnt}"), ('errcnt', f"{errcnt}"), ('stbcnt', f"{stbcnt}"), ('tai', f"{tai}"))))


def _adjtimex_rv(p: Printer, c: Call) -> str:
    """do_adjtimex: the clock state's name after the value, when the structure was printed."""
    name = xlat(c.rval & _MASK64, X.ADJTIMEX_STATE)
    value = signed(c.rval, 64)
    address = c.args[0] if c.name == "adjtimex" else c.args[1]
    if name is None or p.fetch(c, address, p.lay.TIMEX.size) is None:
        return str(value)
    return f"{value} ({name})"


@syscall("adjtimex", rval=_adjtimex_rv)
def adjtimex(p: Printer, c: Call) -> Generator[str, None, None]:
    yield ""
    yield p.umove(c, c.args[0], p.lay.TIMEX, lambda *v: _timex(p, v))


@syscall("clock_adjtime", rval=_adjtimex_rv)
def clock_adjtime(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((clockname(p, c.args[0]),))
    yield p.umove(c, c.args[1], p.lay.TIMEX, lambda *v: _timex(p, v))
