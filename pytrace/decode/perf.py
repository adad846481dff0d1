"""perf_event_open(2) as strace 6.1 prints it (``perf.c``): ``struct perf_event_attr`` by size
version, with its type-dependent config and sample fields.
"""

from __future__ import annotations

import errno
import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
    signed,
)
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.time import clockname, hx
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call


_PERF_ATTR_SIZE_VER0 = 64
_PERF_TYPE = {name: value for value, name in X.PERF_TYPES}
_PERF_TYPE_HARDWARE, _PERF_TYPE_SOFTWARE = _PERF_TYPE["PERF_TYPE_HARDWARE"], _PERF_TYPE["PERF_TYPE_SOFTWARE"]
_PERF_TYPE_TRACEPOINT, _PERF_TYPE_HW_CACHE = _PERF_TYPE["PERF_TYPE_TRACEPOINT"], _PERF_TYPE["PERF_TYPE_HW_CACHE"]
_PERF_HW_EVENT_MASK = 0xFFFFFFFF  # the low half of config; the high half is the PMU type id


def _perf_config(p: Printer, ptype: int, config: int) -> str:
    """print_perf_event_attr's config: HARDWARE and HW_CACHE split into their fields, as strace does."""
    if ptype == _PERF_TYPE_SOFTWARE:
        return p.xval(config, X.PERF_SW_IDS, "PERF_COUNT_SW_???")
    if ptype == _PERF_TYPE_TRACEPOINT:
        return str(config)
    if ptype not in (_PERF_TYPE_HARDWARE, _PERF_TYPE_HW_CACHE):
        return hx(config)
    pmu = f"{hx(config >> 32)}<<32|" if config >> 32 else ""
    event = config & _PERF_HW_EVENT_MASK
    if ptype == _PERF_TYPE_HARDWARE:
        return pmu + p.xval(event, X.PERF_HW_IDS, "PERF_COUNT_HW_???")
    junk = f"{hx(event >> 24)}<<24|" if event >> 24 else ""
    return (f"{pmu}{junk}"
            f"{p.xval(event >> 16 & 0xFF, X.PERF_HW_CACHE_OP_RESULT_IDS, 'PERF_COUNT_HW_CACHE_RESULT_???')}<<16|"
            f"{p.xval(event >> 8 & 0xFF, X.PERF_HW_CACHE_OP_IDS, 'PERF_COUNT_HW_CACHE_OP_???')}<<8|"
            f"{p.xval(event & 0xFF, X.PERF_HW_CACHE_IDS, 'PERF_COUNT_HW_CACHE_???')}")
_PRECISE_IP = ("arbitrary skid", "constant skid", "requested to have 0 skid", "must have 0 skid")
_PERF_BITS = (
    "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv", "exclude_idle",
    "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip", "precise_ip",
    "mmap_data", "sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
    "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward",
    "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
    "remove_on_exec", "sigtrap",
)


def _perf_fetch(p: Printer, c: Call, address: int) -> tuple[bytes, int] | None:
    """fetch_perf_event_attr: the attribute's bytes and the size strace read, None for "print the address".

    strace reads it at entry: the kernel overwrites ``size`` on E2BIG, and a size
    below PERF_ATTR_SIZE_VER0 (or an unreadable one) prints the pointer.  Not
    verbose, strace reads only the fields it shows (up to wakeup_events).
    """
    head = p.fetch(c, address + 4, 4, True)
    if head is None:
        return None
    size = min(struct.unpack("<I", head)[0], 128) or _PERF_ATTR_SIZE_VER0
    if size < _PERF_ATTR_SIZE_VER0:
        return None
    if not p.opts.verbose:
        size = _PERF_WAKEUP_OFFSET
    data = p.fetch(c, address, size, True)
    return None if data is None else (data, size)


def perf_attr(p: Printer, c: Call, address: int) -> str:
    """print_perf_event_attr as strace 6.1 abbreviates it: the head, the set bit fields, precise_ip, ``...``."""
    got = _perf_fetch(p, c, address)
    return addr(address) if got is None else _perf_attr_text(p, *got)


_PERF_WAKEUP_OFFSET = 48  # offsetof(struct perf_event_attr, wakeup_events)


def _perf_attr_text(p: Printer, data: bytes, size: int, new_size: str | None = None) -> str:
    """The attribute fetched by _perf_fetch; ``new_size`` is E2BIG's `` => size`` the kernel wrote back."""
    raw = data.ljust(128, b"\0")
    ptype, psize, config, period, sample_type, read_format, bits = struct.unpack_from("<IIQQQQQ", raw)
    out = [f"type={p.xval(ptype, X.PERF_TYPES, 'PERF_TYPE_???')}",
           f"size={p.xval(psize, X.PERF_ATTR_SIZES, 'PERF_ATTR_SIZE_???')}{new_size or ''}"]
    out.append(f"config={_perf_config(p, ptype, config)}")
    out.append(f"{'sample_freq' if bits >> 10 & 1 else 'sample_period'}={period}")
    out.append(f"sample_type={p.flags(sample_type, X.PERF_SAMPLE_TYPES, 'PERF_SAMPLE_???')}")
    out.append(f"read_format={p.flags(read_format, X.PERF_READ_FORMATS, 'PERF_FORMAT_???')}")
    for bit, name in enumerate(_PERF_BITS):
        if name == "precise_ip":
            if bit == 15:
                precise = bits >> 15 & 3
                out.append(f"precise_ip={precise} /* {_PRECISE_IP[precise]} */")
            continue
        value = bits >> bit & 1
        if value or p.opts.verbose:
            out.append(f"{name}={value}")
    if bits >> 38:  # printed even abbreviated: it may hold flags strace does not know
        out.append(f"__reserved_1={hx(bits >> 38)} /* Bits 63..38 */")
    if not p.opts.verbose:
        out.append("...")
        return "{" + ", ".join(out) + "}"
    out += _perf_attr_tail(p, raw, size, ptype, sample_type, bits)
    if psize > size:
        out.append("...")
    return "{" + ", ".join(out) + "}"


_PERF_TYPE_BREAKPOINT = _PERF_TYPE["PERF_TYPE_BREAKPOINT"]
_PERF_SAMPLE_BRANCH_STACK, _PERF_SAMPLE_STACK_USER = 1 << 11, 1 << 13


def _perf_attr_tail(p: Printer, raw: bytes, size: int, ptype: int, sample_type: int, bits: int) -> list[str]:
    """The -v fields after the bit fields; those past the caller's size are left out, as the kernel ignores them."""
    out = []
    wakeup, bp_type, config1 = struct.unpack_from("<IIQ", raw, 48)
    out.append(f"{'wakeup_watermark' if bits >> 14 & 1 else 'wakeup_events'}={wakeup}")
    if ptype == _PERF_TYPE_BREAKPOINT:
        out += [f"bp_type={bp_type}", f"bp_addr={hx(config1)}"]
    else:
        out.append(f"config1={hx(config1)}")
    fields = [
        (64, lambda: f"{'bp_len' if ptype == _PERF_TYPE_BREAKPOINT else 'config2'}="
                     + (str if ptype == _PERF_TYPE_BREAKPOINT else hx)(struct.unpack_from("<Q", raw, 64)[0])),
        (72, lambda: (f"branch_sample_type={hx(struct.unpack_from('<Q', raw, 72)[0])}"
                      if sample_type & _PERF_SAMPLE_BRANCH_STACK else None)),
        (80, lambda: f"sample_regs_user={hx(struct.unpack_from('<Q', raw, 80)[0])}"),
        (88, lambda: (f"sample_stack_user={hx(struct.unpack_from('<I', raw, 88)[0])}"
                      if sample_type & _PERF_SAMPLE_STACK_USER else None)),
        (92, lambda: f"clockid={clockname(p, struct.unpack_from('<i', raw, 92)[0])}" if bits >> 25 & 1 else None),
        (96, lambda: f"sample_regs_intr={hx(struct.unpack_from('<Q', raw, 96)[0])}"),
        (104, lambda: f"aux_watermark={struct.unpack_from('<I', raw, 104)[0]}"),
        (108, lambda: f"sample_max_stack={struct.unpack_from('<H', raw, 108)[0]}"),
        (112, lambda: f"aux_sample_size={struct.unpack_from('<I', raw, 112)[0]}"),
        (120, lambda: f"sig_data={hx(struct.unpack_from('<Q', raw, 120)[0])}"),
    ]
    for offset, render in fields:
        if offset >= size:
            break
        text = render()
        if text is not None:
            out.append(text)
    return out


@syscall("perf_event_open", rval=rv_fd)
def perf_event_open(p: Printer, c: Call) -> Generator[str, None, None]:
    """strace fetches the attribute at entry and prints the whole line at exit."""
    a = c.args
    tail = (p.tail((f"{signed(a[1], 32)}", f"{signed(a[2], 32)}", p.fd(c, a[3]), p.flags(a[4], X.PERF_EVENT_OPEN_FLAGS, 'PERF_FLAG_???'))))
    got = _perf_fetch(p, c, a[0]) if a[0] else None
    if got is None:
        yield addr(a[0]) + tail
        yield ""
        return
    yield ""
    new_size = None
    if c.error == errno.E2BIG:
        now = p.fetch(c, a[0] + 4, 4, True)
        new_size = " => ???" if now is None else \
            f" => {p.xval(struct.unpack('<I', now)[0], X.PERF_ATTR_SIZES, 'PERF_ATTR_SIZE_???')}"
    yield _perf_attr_text(p, *got, new_size) + tail
