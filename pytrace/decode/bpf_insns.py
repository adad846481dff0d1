"""BPF programs as strace 6.1 prints them (``bpf_filter.c``, ``bpf_seccomp_filter.c``,
``bpf_sock_filter.c`` and ``print_ebpf_prog`` in ``bpf.c``).

Classic programs (seccomp filters, SO_ATTACH_FILTER) print as the C macros that build them,
``BPF_STMT(BPF_LD|BPF_W|BPF_ABS, 0x4)`` / ``BPF_JUMP(BPF_JMP|BPF_K|BPF_JEQ, ...)`` (strace
6.1 puts the source before the operation); the ``k`` of a seccomp ``BPF_RET`` is a
``SECCOMP_RET_*`` action and the ``k`` of a socket filter's absolute load may be one of the
``SKF_*_OFF`` areas.  eBPF programs (BPF_PROG_LOAD) print each instruction as a structure.
Either array is only read with ``-v``: without it strace prints the pointer.
"""

from __future__ import annotations

import struct
from functools import partial

from pytrace.decode.format import addr, print_array
from pytrace.tables import xlat as X

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_BPF_MAXINSNS = 4096
_U32 = 0xFFFFFFFF

_CLS = {name: value for value, name in X.BPF_CLASS}
_LD, _LDX, _ST, _STX = _CLS["BPF_LD"], _CLS["BPF_LDX"], _CLS["BPF_ST"], _CLS["BPF_STX"]
_ALU, _JMP, _RET, _MISC = _CLS["BPF_ALU"], _CLS["BPF_JMP"], _CLS["BPF_RET"], _CLS["BPF_MISC"]
_ABS = dict((n, v) for v, n in X.BPF_MODE)["BPF_ABS"]
_SKF = {name: value & _U32 for value, name in X.SKF_OFF}
_SKF_AD_OFF, _SKF_NET_OFF, _SKF_LL_OFF = _SKF["SKF_AD_OFF"], _SKF["SKF_NET_OFF"], _SKF["SKF_LL_OFF"]
_SECCOMP_RET_ACTION_FULL = 0xFFFF0000
# printxvals(value, dflt, classic, extended): the first table that names the value wins.
_EBPF_SIZE = X.BPF_SIZE + X.EBPF_SIZE
_EBPF_OP_ALU = X.BPF_OP_ALU + X.EBPF_OP_ALU
_EBPF_OP_JMP = X.BPF_OP_JMP + X.EBPF_OP_JMP


def _rest(bits: int) -> str:
    return f"|{bits:#x} /* BPF_??? */" if bits else ""


def filter_code(p: Printer, code: int, extended: bool) -> str:
    """print_bpf_filter_code: ``CLASS|SIZE|MODE``, ``CLASS|SRC|OP``, ... with unnamed bits in hex."""
    cls = code & 0x07
    rest = code & ~0x07
    out = p.xval(cls, X.EBPF_CLASS if extended else X.BPF_CLASS, "BPF_???")
    if cls in (_ST, _STX) and not extended:
        return out + _rest(rest)
    if cls in (_LD, _LDX, _ST, _STX):
        size = p.xval(code & 0x18, _EBPF_SIZE if extended else X.BPF_SIZE, "BPF_???")
        mode = p.xval(code & 0xE0, X.EBPF_MODE if extended else X.BPF_MODE, "BPF_???")
        return f"{out}|{size}|{mode}"
    if cls == _MISC and not extended:
        op = code & 0xF8
        return f"{out}|{p.xval(op, X.BPF_MISCOP, 'BPF_???')}{_rest(rest & ~op)}"
    if cls in (_ALU, _MISC):  # BPF_MISC is BPF_ALU64 in eBPF
        ops = _EBPF_OP_ALU if extended else X.BPF_OP_ALU
        return f"{out}|{p.xval(code & 0x08, X.BPF_SRC, 'BPF_???')}|{p.xval(code & 0xF0, ops, 'BPF_???')}"
    if cls == _JMP:
        ops = _EBPF_OP_JMP if extended else X.BPF_OP_JMP
        return f"{out}|{p.xval(code & 0x08, X.BPF_SRC, 'BPF_???')}|{p.xval(code & 0xF0, ops, 'BPF_???')}"
    # BPF_RET (classic); BPF_JMP32 (class 6 in eBPF) has no operands strace names
    if not extended:
        rval = code & 0x18
        out += f"|{p.xval(rval, X.BPF_RVAL, 'BPF_???')}"
        rest &= ~rval
    return out + _rest(rest)


def seccomp_k(p: Printer, code: int, k: int) -> str | None:
    """print_seccomp_filter_k: a BPF_RET's constant is a SECCOMP_RET_* action plus its data."""
    if code & 0x07 != _RET:
        return None
    action = k & _SECCOMP_RET_ACTION_FULL
    data = k & ~action
    text = p.xval(action, X.SECCOMP_RET_ACTIONS, "SECCOMP_RET_???")
    return f"{text}|{data:#x}" if data else text


def _sock_k(p: Printer, code: int, k: int) -> str | None:
    """print_sock_filter_k: an absolute load past SKF_*_OFF reads ancillary/network/link data."""
    if code & 0x07 != _LD or code & 0xE0 != _ABS:
        return None
    if k >= _SKF_AD_OFF:
        return f"{p.print_xlat(_SKF_AD_OFF, 'SKF_AD_OFF')}+{p.xval(k - _SKF_AD_OFF, X.SKF_AD, 'SKF_AD_???')}"
    if k >= _SKF_NET_OFF:
        return f"{p.print_xlat(_SKF_NET_OFF, 'SKF_NET_OFF')}+{k - _SKF_NET_OFF}"
    if k >= _SKF_LL_OFF:
        return f"{p.print_xlat(_SKF_LL_OFF, 'SKF_LL_OFF')}+{k - _SKF_LL_OFF}"
    return None


_SOCK_FILTER = struct.Struct("<HBBI")


def _hx(value: int) -> str:
    return f"{value:#x}" if value else "0"


def _classic_printer(p: Printer, print_k: Callable[[int, int], str | None]) -> Callable[[bytes], str]:
    count = [0]

    def one(raw: bytes) -> str:
        code, jt, jf, k = _SOCK_FILTER.unpack(raw)
        count[0] += 1
        if count[0] > _BPF_MAXINSNS:  # the array is cut to one past the limit: strace's "..."
            return "..."
        if jt or jf:
            return f"BPF_JUMP({filter_code(p, code, False)}, {_hx(k)}, {_hx(jt)}, {_hx(jf)})"
        return f"BPF_STMT({filter_code(p, code, False)}, {print_k(code, k) or _hx(k)})"

    return one


def classic_prog(p: Printer, c: Call, address: int, length: int, print_k: Callable[[int, int], str | None]) -> str:
    """print_bpf_fprog: the instruction array with -v, else its address."""
    if not p.opts.verbose:
        return addr(address)
    return print_array(p, c, address, min(length, _BPF_MAXINSNS + 1), _SOCK_FILTER.size, _classic_printer(p, print_k))


def _fprog(p: Printer, c: Call, address: int, print_k: Callable[[int, int], str | None]) -> str:
    """decode_bpf_fprog: ``{len=N, filter=...}`` or the pointer when it cannot be read."""
    return p.umove(c, address, p.lay.SOCK_FPROG,
                 lambda n, f: p.struct((('len', f"{n}"), ('filter', classic_prog(p, c, f, n, print_k)))), ignore_error=True)


def seccomp_fprog(p: Printer, c: Call, address: int) -> str:
    """decode_seccomp_fprog (seccomp(2), prctl(PR_SET_SECCOMP))."""
    return _fprog(p, c, address, partial(seccomp_k, p))


def sock_fprog(p: Printer, c: Call, address: int) -> str:
    """decode_sock_fprog (setsockopt SO_ATTACH_FILTER / SO_ATTACH_REUSEPORT_CBPF)."""
    return _fprog(p, c, address, partial(_sock_k, p))


def sock_filter_array(p: Printer, c: Call, address: int, length: int) -> str:
    """print_sock_fprog: getsockopt(SO_GET_FILTER)'s array of ``length`` instructions."""
    return classic_prog(p, c, address, length, partial(_sock_k, p))


# ---------------------------------------------------------------- eBPF

_EBPF_INSN = struct.Struct("<BBhi")


def _ebpf_printer(p: Printer) -> Callable[[bytes], str]:
    count = [0]

    def one(raw: bytes) -> str:
        code, regs, off, imm = _EBPF_INSN.unpack(raw)
        count[0] += 1
        if count[0] > _BPF_MAXINSNS:
            return "..."
        return (p.struct((('code', filter_code(p, code, True)), ('dst_reg', p.xval(regs & 0xF, X.EBPF_REGS, 'BPF_REG_???')), ('src_reg', p.xval(regs >> 4, X.EBPF_REGS, 'BPF_REG_???')), ('off', f"{off}"), ('imm', _hx(imm & _U32)))))

    return one


def ebpf_prog(p: Printer, c: Call, address: int, count: int) -> str:
    """print_ebpf_prog: the eBPF instruction array with -v, else its address."""
    if not p.opts.verbose:
        return addr(address)
    return print_array(p, c, address, min(count, _BPF_MAXINSNS + 1), _EBPF_INSN.size, _ebpf_printer(p))
