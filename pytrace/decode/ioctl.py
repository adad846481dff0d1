"""ioctl: the request by name (or as ``_IOC(...)``) and the argument as strace 6.1's ioctl.c and term.c print it.

The request names come from ``pytrace.tables.ioctls`` (generated from the uapi
headers by scripts/gen_ioctls.py, one table per personality because struct sizes
differ between x86_64 and i386); several names sharing a code print as
``A or B``, like strace's ioctlent lookup.  That module is big, so it is imported
on the first ioctl, not at start-up.  Requests whose argument strace decodes are
looked up by *name* in the small ``xlat.IOCTL_NAMES`` table (terminal, socket
and timer requests, the same on both personalities), so no request number is
typed here.  Requests that return data (TCGETS, TIOCGWINSZ, FIONREAD, ...) print
their argument at exit, after ``<unfinished ...>`` if the call blocks; all others
print at entry, and unknown ones as a bare hex argument.

Several termios tables that strace uses are looked up with ``getattr`` so that the
decoder degrades to hex until the generator provides them (see ``_T``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode import ioctl_structs
from pytrace.decode.format import addr, signed, xlat
from pytrace.decode.printer import hexnum, styled_whole
from pytrace.decode.registry import syscall
from pytrace.decode.time import hx, xval0
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

Table = tuple[tuple[int, str], ...]


def _T(name: str) -> Table:
    """An xlat table that the generator may not provide yet: empty (hex output) until it does."""
    return getattr(X, name, ())


# name -> code, from the generated table (a code may carry several names: "A or B").
_CODES: dict[str, int] = {}
for _code, _names in X.IOCTL_NAMES.items():
    for _n in _names.split(" or "):
        _CODES.setdefault(_n, _code)


# The non-tty requests with a decoded argument (loop, block, perf, kvm, random, fs freeze).
for _code, _n in X.IOCTL_ARG_CODES:
    _CODES.setdefault(_n, _code)
# Pointer arguments strace prints as NULL/address (families not decoded further), and small scalars.
for _code, _n in X.IOCTL_PTR_CODES + X.IOCTL_MISC_CODES:
    _CODES.setdefault(_n, _code)
# The requests with a structure argument (decode/ioctl_structs.py).
for _n, _code in ioctl_structs.NAMES.items():
    _CODES.setdefault(_n, _code)
_KVM_RUN = _CODES["KVM_RUN"]


def _codes(*names: str) -> frozenset[int]:
    return frozenset(_CODES[n] for n in names if n in _CODES)


# ---------------------------------------------------------------- the request number

_IOC_NRBITS, _IOC_TYPEBITS, _IOC_SIZEBITS = 8, 8, 14
_IOC_NONE, _IOC_WRITE, _IOC_READ = 0, 1, 2


def _dir(code: int) -> int:
    return code >> 30


def _type(code: int) -> int:
    return (code >> 8) & 0xFF


def _nr(code: int) -> int:
    return code & 0xFF


def _size(code: int) -> int:
    return (code >> 16) & 0x3FFF


def _ioc_code(p: Printer, code: int) -> str:
    """ioctl_print_code: ``_IOC(_IOC_READ, 0x99, 0x1, 0x4)`` for a request nobody named."""
    d = _dir(code)
    dirs = _T("IOCTL_DIRS")
    if d == 0:
        dir_text = xlat(0, dirs) or "0"
    else:
        dir_text = p.flags(d, dirs, "_IOC_???")
    return f"_IOC({dir_text}, {hx(_type(code))}, {hx(_nr(code))}, {hx(_size(code))})"


def _evdev_name(p: Printer, value: int, table: Table, dflt: str) -> str:
    """evdev_decode_number's printxval_ex: the name, else ``0x1e /* EV_??? */``.

    Under -X verbose the whole request is already inside a comment and strace prints an
    unknown number bare (``/* EVIOCGABS(0xe) */``); the request's names are built with the
    abbrev printer, which remembers the style of the line (``outer_style``).
    """
    name = xlat(value, table)
    if name is not None:
        return name
    if p.outer_style == "verbose":
        return hx(value)
    return f"{hx(value)} /* {dflt} */"


def _special_name(p: Printer, code: int) -> str | None:
    """ioctl_decode_command_number: requests whose name embeds a number (MIXER_READ(1), EVIOCGNAME(256), ...)."""
    t, d, nr, size = _type(code), _dir(code), _nr(code), _size(code)
    if t == ord("M"):
        if d == _IOC_WRITE:
            return f"MIXER_WRITE({nr})"
        if d == _IOC_READ:
            return f"MIXER_READ({nr})"
    elif t == ord("E") and d == _IOC_WRITE and 0xC0 <= nr <= 0xC0 + 0x3F:
        return f"EVIOCSABS({_evdev_name(p, nr - 0xC0, X.EVDEV_ABS, 'ABS_???')})"
    elif t == ord("E") and d == _IOC_READ and 0x20 < nr <= 0x20 + 0x1F:
        return f"EVIOCGBIT({_evdev_name(p, nr - 0x20, X.EVDEV_EV, 'EV_???')}, {size})"
    elif t == ord("E") and d == _IOC_READ and 0x40 <= nr <= 0x40 + 0x3F:
        return f"EVIOCGABS({_evdev_name(p, nr - 0x40, X.EVDEV_ABS, 'ABS_???')})"
    elif t == ord("E") and d == _IOC_READ:
        simple = {0x06: "EVIOCGNAME", 0x07: "EVIOCGPHYS", 0x08: "EVIOCGUNIQ", 0x09: "EVIOCGPROP",
                  0x0A: "EVIOCGMTSLOTS", 0x18: "EVIOCGKEY", 0x19: "EVIOCGLED", 0x1A: "EVIOCGSND",
                  0x1B: "EVIOCGSW"}
        if nr in simple:
            return f"{simple[nr]}({size})"
        if nr == 0x20:
            return f"EVIOCGBIT(0, {size})"
    elif t == ord("H"):
        if d == _IOC_READ:
            names = {0x04: "HIDIOCGRAWNAME", 0x05: "HIDIOCGRAWPHYS", 0x06: "HIDIOCSFEATURE",
                     0x08: "HIDIOCGRAWUNIQ", 0x12: "HIDIOCGPHYS"}
            if nr in names:
                return f"{names[nr]}({size})"
        elif d == _IOC_READ | _IOC_WRITE and nr in (0x06, 0x07):
            return f"{'HIDIOCSFEATURE' if nr == 6 else 'HIDIOCGFEATURE'}({size})"
    elif t == ord("U") and d == _IOC_READ and nr == 0x2C:
        return f"UI_GET_SYSNAME({size})"
    elif t == ord("j") and d == _IOC_READ and nr == 0x13:
        return f"JSIOCGNAME({size})"
    elif t == ord("k") and d == _IOC_WRITE and nr == 0:
        return f"SPI_IOC_MESSAGE({size})"
    return None


_NAMES: dict[str, dict[int, str]] = {}


def _load_names(arch: str) -> dict[int, str]:
    """Import the generated tables on first use (a plain dict lookup per call after that)."""
    from pytrace.tables import ioctls

    _NAMES.update(x86_64=ioctls.X86_64, i386=ioctls.I386)
    return _NAMES.get(arch, ioctls.X86_64)


@styled_whole(hexnum, 0xFFFFFFFF, flags=False)
def request_name(p: Printer, code: int, arch: str = "x86_64") -> str:
    """ioctl_decode_command_number + ioctl_lookup: the request as strace prints it for a personality."""
    code &= 0xFFFFFFFF
    special = _special_name(p, code)
    names = _NAMES.get(arch) or _load_names(arch)
    name = names.get(code)
    if special and name:
        return f"{special} or {name}"
    return special or name or _ioc_code(p, code)


# ---------------------------------------------------------------- termios


def _flags_or_empty(p: Printer, value: int, table: Table) -> str:
    """printflags64 with no default: strace prints nothing at all for a zero value."""
    return p.flags(value, table, None) if value else ""


def _xval(p: Printer, value: int, table: Table, dflt: str) -> str:
    return xval0(p, value, table, dflt)


_NLDLY, _CRDLY, _TABDLY, _BSDLY, _VTDLY, _FFDLY = 0o400, 0o3000, 0o14000, 0o20000, 0o40000, 0o100000
_CBAUD, _CIBAUD, _IBSHIFT, _CSIZE = 0o10017, 0o2003600000, 16, 0o60


def _oflag(p: Printer, val: int) -> str:
    parts = []
    for table, mask, dflt in (("TERM_OFLAGS_NLDLY", _NLDLY, "NL?"), ("TERM_OFLAGS_CRDLY", _CRDLY, "CR?"),
                              ("TERM_OFLAGS_TABDLY", _TABDLY, "TAB?"), ("TERM_OFLAGS_BSDLY", _BSDLY, "BS?"),
                              ("TERM_OFLAGS_VTDLY", _VTDLY, "VT?"), ("TERM_OFLAGS_FFDLY", _FFDLY, "FF?")):
        parts.append(_xval(p, val & mask, _T(table), dflt))
        val &= ~mask
    return "|".join(parts) + "|" + _flags_or_empty(p, val, _T("TERM_OFLAGS"))


def _cflag(p: Printer, val: int) -> str:
    bauds = _T("BAUD_OPTIONS")
    text = _xval(p, val & _CBAUD, bauds, "B???") + "|"
    if val & _CIBAUD:
        text += f"{_xval(p, (val & _CIBAUD) >> _IBSHIFT, bauds, 'B???')}<<IBSHIFT|"
    text += _xval(p, val & _CSIZE, _T("TERM_CFLAGS_CSIZE"), "CS?") + "|"
    return text + _flags_or_empty(p, val & ~(_CBAUD | _CIBAUD | _CSIZE), _T("TERM_CFLAGS"))


def _term_flags(p: Printer, iflag: int, oflag: int, cflag: int, lflag: int) -> str:
    return (p.args((f"c_iflag={_flags_or_empty(p, iflag, _T('TERM_IFLAGS'))}", f"c_oflag={_oflag(p, oflag)}", f"c_cflag={_cflag(p, cflag)}", f"c_lflag={_flags_or_empty(p, lflag, _T('TERM_LFLAGS'))}")))


def _cc(data: bytes, table: Table) -> str:
    items = []
    for i, b in enumerate(data):
        name = xlat(i, table)
        items.append(f"[{name if name is not None else i}]={hx(b)}")
    return "c_cc=[" + ", ".join(items) + "]"


def _termios_like(p: Printer, c: Call, address: int, kind: str) -> str:
    """decode_termios / decode_termio / decode_termios2 (kernel layouts, x86_64)."""
    if kind == "termio":
        size, fmt, ncc = 18, "<HHHHB", 8
    elif kind == "termios2":
        size, fmt, ncc = 44, "<IIIIB", 19
    else:
        size, fmt, ncc = 36, "<IIIIB", 19
    data = c.mem.read(address, size) if address else None
    if data is None:
        return addr(address)
    head = struct.calcsize(fmt)
    iflag, oflag, cflag, lflag, line = struct.unpack_from(fmt, data)
    text = "{" + _term_flags(p, iflag, oflag, cflag, lflag) + ", "
    if not p.opts.verbose:
        return text + "...}"
    text += p.head((f"c_line={_xval(p, line, _T('TERM_LINE_DISCS'), 'N_???')}",))
    text += _cc(data[head:head + ncc], _T("TERMIOS_CC"))
    if kind == "termios2":
        ispeed, ospeed = struct.unpack_from("<II", data, 36)
        text += p.tail((f"c_ispeed={ispeed}", f"c_ospeed={ospeed}"))
    return text + "}"


def _winsize(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, 8, True)
    if data is None:
        return addr(address)
    row, col, xp, yp = struct.unpack("<HHHH", data)
    return p.struct((('ws_row', f"{row}"), ('ws_col', f"{col}"), ('ws_xpixel', f"{xp}"), ('ws_ypixel', f"{yp}")))


def _int(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, 4, True)
    return addr(address) if data is None else f"[{struct.unpack('<i', data)[0]}]"


def _modem(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, 4, True)
    if data is None:
        return addr(address)
    return f"[{p.flags(struct.unpack('<I', data)[0], _T('MODEM_FLAGS'), 'TIOCM_???')}]"


def _num(p: Printer, c: Call, address: int, size: int, fmt: str) -> str:
    """printnum_short/int/long/int64: ``[n]``, or the address if it cannot be read."""
    data = p.fetch(c, address, size)
    return addr(address) if data is None else f"[{struct.unpack(fmt, data)[0]}]"


def _pair_u64(p: Printer, c: Call, address: int) -> str:
    """printpair_int64 (BLKDISCARD's range): ``[start, length]``."""
    data = p.fetch(c, address, 16)
    return addr(address) if data is None else "[{}, {}]".format(*struct.unpack("<QQ", data))


def _rand_pool_info(p: Printer, c: Call, address: int) -> str:
    """RNDADDENTROPY's struct rand_pool_info: the two counts, then buf_size bytes as a string."""
    data = p.fetch(c, address, 8)
    if data is None:
        return addr(address)
    count, size = struct.unpack("<ii", data)
    return p.struct((('entropy_count', f"{count}"), ('buf_size', f"{size}"), ('buf', p.string_at(c, address + 8, size & 0xFFFFFFFF))))


def _fstrim_range(p: Printer, c: Call, address: int) -> str:
    """FITRIM's struct fstrim_range."""
    data = p.fetch(c, address, 24)
    if data is None:
        return addr(address)
    start, length, minlen = struct.unpack("<QQQ", data)
    return p.struct((('start', hx(start)), ('len', f"{length}"), ('minlen', f"{minlen}")))


_PIT_TICK_RATE = 1193182  # KERNEL_PIT_TICK_RATE (kd.c): the PC speaker's clock


def _raw_style(p: Printer) -> bool:
    """-X raw."""
    return p.raw


def _kiocsound(p: Printer, arg: int) -> str:
    """kd.c kiocsound: the PIT divisor, then the tone's frequency (or ``off``) unless -X raw."""
    if _raw_style(p):
        return str(arg)
    freq = (_PIT_TICK_RATE // arg) & 0xFFFFFFFF if arg else 0
    return f"{arg} /* {freq} Hz */" if freq else f"{arg} /* off */"


def _kd_mk_tone(p: Printer, arg: int) -> str:
    """kd.c kd_mk_tone: ``ticks<<16|count`` (ticks left out when 0), then frequency and duration."""
    arg &= 0xFFFFFFFF
    ticks, count = arg >> 16, arg & 0xFFFF
    text = f"{ticks}<<16|{count}" if ticks else str(count)
    if _raw_style(p):
        return text
    if ticks and count:
        return p.args((f"{text} /* {_PIT_TICK_RATE // count} Hz", f"{ticks} ms */"))
    return f"{text} /* off */"


# (codes, printed at exit?, printer(call, arg) -> text; None: strace prints no argument at all)
_HANDLERS: list[tuple[frozenset[int], bool, Callable[[Call, int], str] | None]] = [
    # First, so that the decoders below replace it: requests of families strace decodes with
    # umove_or_printaddr that pytrace shows only as the pointer (NULL for 0, like strace).
    (frozenset(code for code, _n in X.IOCTL_PTR_CODES), False, lambda p, c, a: addr(a)),
    # watchdog_ioctl.c, inotify_ioctl.c, kd.c's tones
    (_codes("WDIOC_GETSTATUS", "WDIOC_GETBOOTSTATUS", "WDIOC_GETTEMP", "WDIOC_GETTIMEOUT", "WDIOC_GETPRETIMEOUT",
            "WDIOC_GETTIMELEFT"), True, lambda p, c, a: _num(p, c, a, 4, "<i")),
    (_codes("WDIOC_SETTIMEOUT", "WDIOC_SETPRETIMEOUT"), False, lambda p, c, a: _num(p, c, a, 4, "<i")),
    (_codes("WDIOC_KEEPALIVE"), False, None),
    (_codes("INOTIFY_IOC_SETNEXTWD"), False, lambda p, c, a: str(signed(a, 32))),
    (_codes("KIOCSOUND"), False, lambda p, c, a: _kiocsound(p, a)),
    (_codes("KDMKTONE"), False, lambda p, c, a: _kd_mk_tone(p, a)),
    # rtc.c's scalar requests (its structures: ioctl_structs.py)
    (_codes("RTC_AIE_ON", "RTC_AIE_OFF", "RTC_UIE_ON", "RTC_UIE_OFF", "RTC_PIE_ON", "RTC_PIE_OFF", "RTC_WIE_ON",
            "RTC_WIE_OFF", "RTC_VL_CLR"), False, None),
    (_codes("RTC_IRQP_SET", "RTC_EPOCH_SET"), False, lambda p, c, a: str(a)),
    (_codes("TCGETS2"), True, lambda p, c, a: _termios_like(p, c, a, "termios2")),
    (_codes("TCSETS2", "TCSETSW2", "TCSETSF2"), False, lambda p, c, a: _termios_like(p, c, a, "termios2")),
    (_codes("TCGETS", "TIOCGLCKTRMIOS"), True, lambda p, c, a: _termios_like(p, c, a, "termios")),
    (_codes("TCSETS", "TCSETSW", "TCSETSF", "TIOCSLCKTRMIOS"), False, lambda p, c, a: _termios_like(p, c, a, "termios")),
    (_codes("TCGETA"), True, lambda p, c, a: _termios_like(p, c, a, "termio")),
    (_codes("TCSETA", "TCSETAW", "TCSETAF"), False, lambda p, c, a: _termios_like(p, c, a, "termio")),
    (_codes("TIOCGWINSZ"), True, _winsize),
    (_codes("TIOCSWINSZ"), False, _winsize),
    (_codes("TCXONC"), False, lambda p, c, a: _xval(p, a, _T("TCXONC_OPTIONS"), "TC???")),
    (_codes("TCFLSH"), False, lambda p, c, a: _xval(p, a, _T("TCFLSH_OPTIONS"), "TC???")),
    (_codes("TCSBRK", "TCSBRKP", "TIOCSCTTY"), False, lambda p, c, a: str(signed(a, 32))),
    (_codes("TIOCMGET"), True, _modem),
    (_codes("TIOCMBIS", "TIOCMBIC", "TIOCMSET"), False, _modem),
    (_codes("TIOCGPGRP", "TIOCGSID", "TIOCGETD", "TIOCGSOFTCAR", "TIOCGPTN", "FIONREAD", "TIOCOUTQ",
            "TIOCGEXCL", "TIOCGDEV"), True, _int),
    (_codes("TIOCSPGRP", "TIOCSETD", "FIONBIO", "FIOASYNC", "TIOCPKT", "TIOCSSOFTCAR", "TIOCSPTLCK"),
     False, _int),
    (_codes("TIOCSTI"), False, lambda p, c, a: p.string_at(c, a, 1)),
    # Requests strace prints without any argument.
    (_codes("TIOCSBRK", "TIOCCBRK", "TIOCCONS", "TIOCNOTTY", "TIOCEXCL", "TIOCNXCL", "FIOCLEX", "FIONCLEX",
            "TIOCVHANGUP", "TIOCSSERIAL",
            "LOOP_CLR_FD", "LOOP_SET_CAPACITY", "LOOP_CTL_GET_FREE",
            "BLKRRPART", "BLKFLSBUF", "BLKTRACESTART", "BLKTRACESTOP", "BLKTRACETEARDOWN",
            "RNDZAPENTCNT", "RNDCLEARPOOL", "RNDRESEEDCRNG", "FIFREEZE", "FITHAW"), False, None),
    # loop.c
    (_codes("LOOP_SET_FD", "LOOP_CHANGE_FD"), False, lambda p, c, a: p.fd(c, signed(a, 32))),
    (_codes("LOOP_CTL_ADD", "LOOP_CTL_REMOVE"), False, lambda p, c, a: str(signed(a, 32))),
    (_codes("LOOP_SET_DIRECT_IO", "LOOP_SET_BLOCK_SIZE"), False, lambda p, c, a: str(a)),
    # block.c
    (_codes("BLKRASET", "BLKFRASET"), False, lambda p, c, a: str(a)),
    (_codes("BLKSECTGET", "BLKROTATIONAL"), True, lambda p, c, a: _num(p, c, a, 2, "<H")),
    (_codes("BLKROGET", "BLKBSZGET", "BLKSSZGET", "BLKALIGNOFF", "RNDGETENTCNT"), True,
     lambda p, c, a: _num(p, c, a, 4, "<i")),
    (_codes("BLKROSET", "BLKBSZSET", "RNDADDTOENTCNT"), False, lambda p, c, a: _num(p, c, a, 4, "<i")),
    (_codes("BLKPBSZGET", "BLKIOMIN", "BLKIOOPT", "BLKDISCARDZEROES", "BLKGETZONESZ", "BLKGETNRZONES"), True,
     lambda p, c, a: _num(p, c, a, 4, "<I")),
    (_codes("BLKRAGET", "BLKFRAGET"), True, lambda p, c, a: _num(p, c, a, 4, "<i") if c.arch == "i386" else
     _num(p, c, a, 8, "<q")),
    (_codes("BLKGETSIZE"), True, lambda p, c, a: _num(p, c, a, 4, "<I") if c.arch == "i386" else _num(p, c, a, 8, "<Q")),
    (_codes("BLKGETSIZE64", "BLKGETDISKSEQ", "PERF_EVENT_IOC_ID"), True, lambda p, c, a: _num(p, c, a, 8, "<Q")),
    (_codes("BLKDISCARD", "BLKSECDISCARD", "BLKZEROOUT"), False, _pair_u64),
    # perf_ioctl.c
    (_codes("PERF_EVENT_IOC_ENABLE", "PERF_EVENT_IOC_DISABLE", "PERF_EVENT_IOC_RESET"), False,
     lambda p, c, a: p.flags(a, X.PERF_IOCTL_FLAGS, "PERF_IOC_FLAG_???")),
    (_codes("PERF_EVENT_IOC_REFRESH"), False, lambda p, c, a: str(signed(a, 32))),
    (_codes("PERF_EVENT_IOC_PERIOD"), False, lambda p, c, a: _num(p, c, a, 8, "<Q")),
    (_codes("PERF_EVENT_IOC_SET_OUTPUT", "PERF_EVENT_IOC_SET_BPF"), False, lambda p, c, a: p.fd(c, signed(a, 32))),
    (_codes("PERF_EVENT_IOC_PAUSE_OUTPUT"), False, lambda p, c, a: str(a)),
    (_codes("PERF_EVENT_IOC_SET_FILTER"), False, lambda p, c, a: p.cstring(c, a)),
    # kvm.c
    (_codes("KVM_CHECK_EXTENSION"), False, lambda p, c, a: p.xval(a, X.KVM_CAP, "KVM_CAP_???")),
    (_codes("KVM_CREATE_VCPU"), False, lambda p, c, a: str(a & 0xFFFFFFFF)),
    # random_ioctl.c, fs_x_ioctl.c
    (_codes("RNDADDENTROPY"), False, _rand_pool_info),
    (_codes("FITRIM"), False, _fstrim_range),
]
_BY_CODE = {code: (at_exit, printer) for codes, at_exit, printer in _HANDLERS for code in codes}
# Structure arguments (decode/ioctl_structs.py): generators yielding the entry text, then the exit text.
_STAGED = 2
_BY_CODE.update((code, (_STAGED, handler)) for code, handler in ioctl_structs.STAGED.items())
_BY_CODE_I386: dict[int, tuple[bool, Callable[[Call, int], str] | None]] = {}


def _by_code_i386() -> dict[int, tuple[bool, Callable[[Call, int], str] | None]]:
    """The handlers keyed by i386 codes, built on the first i386 ioctl.

    Requests whose size field holds a pointer or a size_t (BLKBSZSET, BLKGETSIZE64,
    PERF_EVENT_IOC_SET_FILTER, ...) have other codes on i386; they are found by name in the
    generated i386 name table (strace's mpers does the same with its i386 ioctlent).
    """
    if not _BY_CODE_I386:
        names = _NAMES.get("i386") or _load_names("i386")
        native = _NAMES["x86_64"]
        _BY_CODE_I386.update(_BY_CODE)
        for code, text in names.items():
            if native.get(code) == text:
                continue
            for name in text.split(" or "):
                handler = _BY_CODE.get(_CODES.get(name, -1))
                if handler is not None:
                    _BY_CODE_I386[code] = handler
                    break
    return _BY_CODE_I386


@syscall("ioctl")
def ioctl(p: Printer, c: Call) -> Generator[str, None, None]:
    code = c.args[1] & 0xFFFFFFFF
    arg = c.args[2]
    head = p.args((p.fd(c, c.args[0]), request_name(p, code, c.arch)))
    handler = (_BY_CODE if c.arch != "i386" else _by_code_i386()).get(code)
    if code == _KVM_RUN and p.opts.kvm_vcpu:
        # -e kvm=vcpu: KVM_RUN also shows the vCPU's exit reason.  strace also remembers each
        # KVM_CREATE_VCPU's descriptor; that list only primes its per-thread cache, and the vCPU is
        # found from its descriptor's name in any case, which is what pytrace always does.
        handler = (_STAGED, ioctl_structs.kvm_run_vcpu)
    if handler is None and (code >> 8) & 0xFF == ioctl_structs.EVDEV_TYPE:  # evdev.c: by direction
        staged = ioctl_structs.evdev_handler(p, code)
        handler = None if staged is None else (_STAGED, staged)
    if handler is None:
        yield p.args((f"{head}", hx(arg)))
        yield ""
    elif handler[0] == _STAGED:
        stages = handler[1](p, c, arg)
        yield head + next(stages)
        yield next(stages)
    elif handler[1] is None:
        yield head
        yield ""
    elif handler[0]:  # an output argument: shown at exit, as its address if the call failed
        yield head
        yield p.tail((f"{addr(arg) if c.failed else handler[1](p, c, arg)}",))
    else:
        yield p.args((f"{head}", f"{handler[1](p, c, arg)}"))
        yield ""
