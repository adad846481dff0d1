"""Kernel facilities that fit no other family: bpf (the map commands), perf_event_open,
landlock, keys, modules, kexec, clock adjustment (adjtimex, clock_adjtime) and the
obsolete or unimplemented entries of the x86_64 table, as strace 6.1 prints them
(``bpf.c``, ``perf.c``, ``landlock.c``, ``keyctl.c``, ``bjm.c``, ``kexec.c``,
``time.c`` (print_timex), ``sysctl.c``, ``printargs`` for the rest).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    OPTS,
    addr,
    cstring,
    fd,
    fetch,
    flags,
    print_xlat,
    quote,
    signed,
    string_at,
    umove,
    xlat,
    xval,
)
from pytrace.decode.registry import rv_dec, rv_fd, syscall
from pytrace.decode.time import clockname
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1


def hx(value: int) -> str:
    return f"{value:#x}" if value else "0"


# ---------------------------------------------------------------- bpf

_BPF = {name: value for value, name in X.BPF_COMMANDS}
_BPF_F_NUMA_NODE = 0x4


def _bpf_map_create(c: Call, data: bytes, size: int) -> str:
    """decode_BPF_MAP_CREATE: each group of fields only if the caller's size covers it."""
    raw = data.ljust(72, b"\0")
    mtype, key_size, value_size, max_entries, map_flags, inner, numa = struct.unpack_from("<7I", raw)
    out = [f"map_type={xval(mtype, X.BPF_MAP_TYPES, 'BPF_MAP_TYPE_???')}", f"key_size={key_size}",
           f"value_size={value_size}", f"max_entries={max_entries}"]
    for offset, render in (
        (16, lambda: [f"map_flags={flags(map_flags, X.BPF_MAP_FLAGS, 'BPF_F_???')}"]),
        (20, lambda: [f"inner_map_fd={fd(c, signed(inner, 32))}"]),
        (24, lambda: [f"numa_node={numa}"] if map_flags & _BPF_F_NUMA_NODE else []),
        (28, lambda: [f"map_name={_cstring_sz(raw[28:44], min(16, size - 28))}"]),
        (44, lambda: [f"map_ifindex={struct.unpack_from('<I', raw, 44)[0]}"]),
        (48, lambda: ["btf_fd={}, btf_key_type_id={}, btf_value_type_id={}".format(
            fd(c, struct.unpack_from('<i', raw, 48)[0]), *struct.unpack_from("<II", raw, 52))]),
        (60, lambda: [f"btf_vmlinux_value_type_id={struct.unpack_from('<I', raw, 60)[0]}"]),
        (64, lambda: [f"map_extra={struct.unpack_from('<Q', raw, 64)[0]}"]),
    ):
        if size <= offset:
            break
        out += render()
    return ", ".join(out)


def _cstring_sz(raw: bytes, n: int) -> str:
    """PRINT_FIELD_CSTRING_SZ: a char array up to its NUL (``...`` when it has none)."""
    raw = raw[:n]
    nul = raw.find(b"\0")
    return quote(raw) + "..." if nul < 0 else quote(raw[:nul])


def _bpf_elem(c: Call, data: bytes, size: int, cmd: int) -> str:
    raw = data.ljust(32, b"\0")
    map_fd, key, value, fl = struct.unpack_from("<i4xQQQ", raw)
    out = [f"map_fd={fd(c, map_fd)}", f"key={hx(key)}"]
    if cmd == _BPF["BPF_MAP_DELETE_ELEM"]:
        return ", ".join(out)
    out.append(f"{'next_key' if cmd == _BPF['BPF_MAP_GET_NEXT_KEY'] else 'value'}={hx(value)}")
    if cmd == _BPF["BPF_MAP_UPDATE_ELEM"]:
        out.append(f"flags={xval(fl, X.BPF_MAP_UPDATE_FLAGS, 'BPF_???')}")
    elif cmd in (_BPF["BPF_MAP_LOOKUP_ELEM"], _BPF["BPF_MAP_LOOKUP_AND_DELETE_ELEM"]) and size > 24:
        out.append(f"flags={flags(fl, X.BPF_MAP_LOOKUP_FLAGS, 'BPF_???')}")
    return ", ".join(out)


_BPF_STRUCT_SIZES = {"BPF_MAP_CREATE": 72, "BPF_MAP_LOOKUP_ELEM": 32, "BPF_MAP_UPDATE_ELEM": 32,
                     "BPF_MAP_DELETE_ELEM": 16, "BPF_MAP_GET_NEXT_KEY": 24,
                     "BPF_MAP_LOOKUP_AND_DELETE_ELEM": 32}


def _bpf_rv(c: Call) -> str:
    from pytrace.decode.registry import rv_fd as _rv_fd

    return _rv_fd(c) if c.args[0] & _U32 == _BPF["BPF_MAP_CREATE"] else rv_dec(c)


@syscall("bpf", rval=_bpf_rv)
def bpf(c: Call) -> str:
    cmd = c.args[0] & _U32
    address, size = c.args[1], c.args[2] & _U32
    name = xlat(cmd, X.BPF_COMMANDS)
    head = xval(cmd, X.BPF_COMMANDS, "BPF_???")
    struct_size = _BPF_STRUCT_SIZES.get(name or "")
    if struct_size is None:
        return f"{head}, {addr(address)}, {size}"
    data = fetch(c, address, min(size, struct_size), True) if size else b""
    if data is None:
        return f"{head}, {addr(address)}, {size}"
    if cmd == _BPF["BPF_MAP_CREATE"]:
        body = _bpf_map_create(c, data, size)
    else:
        body = _bpf_elem(c, data, size, cmd)
    if size > struct_size:
        extra = c.mem.read(address + struct_size, min(size, 4096) - struct_size)
        if extra and any(extra):
            body += ", ..."
    return f"{head}, {{{body}}}, {size}"


# ---------------------------------------------------------------- perf_event_open

_PERF_ATTR_SIZE_VER0 = 64
_PERF_TYPE_HARDWARE, _PERF_TYPE_SOFTWARE, _PERF_TYPE_TRACEPOINT = 0, 1, 2
_PRECISE_IP = ("arbitrary skid", "constant skid", "requested to have 0 skid", "must have 0 skid")
_PERF_BITS = (
    "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv", "exclude_idle",
    "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip", "precise_ip",
    "mmap_data", "sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
    "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward",
    "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
    "remove_on_exec", "sigtrap",
)


def _perf_attr(c: Call, address: int) -> str:
    """print_perf_event_attr as strace 6.1 abbreviates it: the head, the set bit fields, precise_ip, ``...``."""
    head = fetch(c, address + 4, 4, True)
    if head is None:
        return addr(address)
    size = struct.unpack("<I", head)[0] or _PERF_ATTR_SIZE_VER0
    if size < _PERF_ATTR_SIZE_VER0:
        return addr(address)
    data = fetch(c, address, min(size, 128), True)
    if data is None:
        return addr(address)
    raw = data.ljust(128, b"\0")
    ptype, psize, config, period, sample_type, read_format, bits = struct.unpack_from("<IIQQQQQ", raw)
    out = [f"type={xval(ptype, X.PERF_TYPES, 'PERF_TYPE_???')}",
           f"size={xval(psize, X.PERF_ATTR_SIZES, 'PERF_ATTR_SIZE_???')}"]
    if ptype == _PERF_TYPE_HARDWARE:
        out.append(f"config={xval(config, X.PERF_HW_IDS, 'PERF_COUNT_HW_???')}")
    elif ptype == _PERF_TYPE_SOFTWARE:
        out.append(f"config={xval(config, X.PERF_SW_IDS, 'PERF_COUNT_SW_???')}")
    elif ptype == _PERF_TYPE_TRACEPOINT:
        out.append(f"config={config}")
    else:
        out.append(f"config={hx(config)}")
    out.append(f"{'sample_freq' if bits >> 10 & 1 else 'sample_period'}={period}")
    out.append(f"sample_type={flags(sample_type, X.PERF_SAMPLE_TYPES, 'PERF_SAMPLE_???')}")
    out.append(f"read_format={flags(read_format, X.PERF_READ_FORMATS, 'PERF_FORMAT_???')}")
    for bit, name in enumerate(_PERF_BITS):
        if name == "precise_ip":
            if bit == 15:
                precise = bits >> 15 & 3
                out.append(f"precise_ip={precise} /* {_PRECISE_IP[precise]} */")
            continue
        value = bits >> bit & 1
        if value or OPTS.verbose:
            out.append(f"{name}={value}")
    if not OPTS.verbose:
        out.append("...")
        return "{" + ", ".join(out) + "}"
    out += _perf_attr_tail(raw, min(size, 128), ptype, sample_type, bits)
    if psize > min(size, 128):
        out.append("...")
    return "{" + ", ".join(out) + "}"


_PERF_TYPE_BREAKPOINT = 5
_PERF_SAMPLE_BRANCH_STACK, _PERF_SAMPLE_STACK_USER = 1 << 11, 1 << 13


def _perf_attr_tail(raw: bytes, size: int, ptype: int, sample_type: int, bits: int) -> list[str]:
    """The -v fields after the bit fields; those past the caller's size are left out, as the kernel ignores them."""
    out = []
    if bits >> 38:
        out.append(f"__reserved_1={hx(bits >> 38)} /* Bits 63..38 */")
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
        (92, lambda: f"clockid={clockname(struct.unpack_from('<i', raw, 92)[0])}" if bits >> 25 & 1 else None),
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
def perf_event_open(c: Call) -> Generator[str, None, None]:
    """strace fetches the attribute at entry and prints the whole line at exit."""
    a = c.args
    tail = (f", {signed(a[1], 32)}, {signed(a[2], 32)}, {fd(c, a[3])}, "
            f"{flags(a[4], X.PERF_EVENT_OPEN_FLAGS, 'PERF_FLAG_???')}")
    if not a[0] or fetch(c, a[0] + 4, 4, True) is None:
        yield addr(a[0]) + tail
        yield ""
        return
    yield ""
    yield _perf_attr(c, a[0]) + tail


# ---------------------------------------------------------------- landlock

_LANDLOCK_CREATE_RULESET_VERSION = 1
_LANDLOCK_RULE_PATH_BENEATH = 1


@syscall("landlock_create_ruleset", rval=rv_fd)
def landlock_create_ruleset(c: Call) -> Generator[str, None, None]:
    """A new ruleset fd, except for the version query, whose result is a plain number."""
    yield _landlock_create_args(c)
    if c.args[2] & _LANDLOCK_CREATE_RULESET_VERSION and not c.failed:
        c.ret_text = rv_dec(c)
    yield ""


def _landlock_create_args(c: Call) -> str:
    a = c.args
    size = a[1]
    if size < 8:
        attr = addr(a[0])
    else:
        attr = umove(c, a[0], struct.Struct("<Q"), lambda acc: (
            f"{{handled_access_fs={flags(acc, X.LANDLOCK_ACCESS_FS, 'LANDLOCK_ACCESS_FS_???')}"
            + (", ..." if size > 8 else "") + "}"), ignore_error=True)
    return f"{attr}, {size}, {flags(a[2] & _U32, X.LANDLOCK_CREATE_FLAGS, 'LANDLOCK_CREATE_RULESET_???')}"


@syscall("landlock_add_rule")
def landlock_add_rule(c: Call) -> str:
    a = c.args
    rtype = a[1] & _U32
    if rtype == _LANDLOCK_RULE_PATH_BENEATH:
        attr = umove(c, a[2], struct.Struct("<Qi"), lambda acc, pfd: (
            f"{{allowed_access={flags(acc, X.LANDLOCK_ACCESS_FS, 'LANDLOCK_ACCESS_FS_???')}, "
            f"parent_fd={fd(c, pfd)}}}"), ignore_error=True)
    else:
        attr = addr(a[2])
    return (f"{fd(c, a[0])}, {xval(rtype, X.LANDLOCK_RULE_TYPES, 'LANDLOCK_RULE_???')}, {attr}, "
            f"{hx(a[3] & _U32)}")


@syscall("landlock_restrict_self")
def landlock_restrict_self(c: Call) -> str:
    return f"{fd(c, c.args[0])}, {hx(c.args[1] & _U32)}"


# ---------------------------------------------------------------- keys (keyctl.c)


def key_serial(value: int) -> str:
    """print_keyring_serial_number: a KEY_SPEC_* name or the signed serial."""
    v = signed(value, 32)
    name = xlat(v, X.KEY_SPECS)
    return print_xlat(v, name, "int") if name is not None else str(v)


@syscall("add_key")
def add_key(c: Call) -> str:
    a = c.args
    return (f"{cstring(c, a[0])}, {cstring(c, a[1])}, {string_at(c, a[2], a[3])}, {a[3]}, "
            f"{key_serial(a[4])}")


@syscall("request_key")
def request_key(c: Call) -> str:
    a = c.args
    return f"{cstring(c, a[0])}, {cstring(c, a[1])}, {cstring(c, a[2])}, {key_serial(a[3])}"


_KC = {name: value for value, name in X.KEYCTL_CMDS}


@syscall("keyctl")
def keyctl(c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[0] & _U32
    head = xval(cmd, X.KEYCTL_CMDS, "KEYCTL_???")
    if cmd == _KC["KEYCTL_GET_KEYRING_ID"]:
        yield f"{head}, {key_serial(a[1])}, {signed(a[2], 32)}"
    elif cmd == _KC["KEYCTL_JOIN_SESSION_KEYRING"]:
        yield f"{head}, {cstring(c, a[1])}"
    elif cmd == _KC["KEYCTL_UPDATE"]:
        yield f"{head}, {key_serial(a[1])}, {string_at(c, a[2], a[3])}, {a[3]}"
    elif cmd in (_KC["KEYCTL_REVOKE"], _KC["KEYCTL_CLEAR"], _KC["KEYCTL_INVALIDATE"],
                 _KC["KEYCTL_ASSUME_AUTHORITY"]):
        yield f"{head}, {key_serial(a[1])}"
    elif cmd in (_KC["KEYCTL_LINK"], _KC["KEYCTL_UNLINK"]):
        yield f"{head}, {key_serial(a[1])}, {key_serial(a[2])}"
    elif cmd == _KC["KEYCTL_SET_TIMEOUT"]:
        yield f"{head}, {key_serial(a[1])}, {a[2] & _U32}"
    elif cmd in (_KC["KEYCTL_DESCRIBE"], _KC["KEYCTL_READ"], _KC["KEYCTL_GET_SECURITY"]):
        yield f"{head}, {key_serial(a[1])}, "
        buf = addr(a[2]) if c.failed else string_at(c, a[2], min(c.rval, a[3]))
        yield f"{buf}, {a[3]}"
        return
    else:
        yield f"{head}, {hx(a[1])}, {hx(a[2])}, {hx(a[3])}, {hx(a[4])}"
    yield ""


# ---------------------------------------------------------------- modules, kexec (bjm.c, kexec.c)


@syscall("init_module")
def init_module(c: Call) -> str:
    a = c.args
    return f"{addr(a[0])}, {a[1]}, {cstring(c, a[2])}"


@syscall("finit_module")
def finit_module(c: Call) -> str:
    a = c.args
    return f"{fd(c, a[0])}, {cstring(c, a[1])}, {flags(a[2] & _U32, X.MODULE_INIT_FLAGS, 'MODULE_INIT_???')}"


@syscall("delete_module")
def delete_module(c: Call) -> str:
    return f"{cstring(c, c.args[0])}, {flags(c.args[1] & _U32, X.DELETE_MODULE_FLAGS, 'O_???')}"


_KEXEC_ARCH_MASK = 0xFFFF0000


@syscall("kexec_load")
def kexec_load(c: Call) -> str:
    a = c.args
    value = a[3]
    text = xval(value & _KEXEC_ARCH_MASK, X.KEXEC_ARCHS, "KEXEC_ARCH_???")
    rest = value & ~_KEXEC_ARCH_MASK
    if rest:
        text += "|" + flags(rest, X.KEXEC_LOAD_FLAGS, "KEXEC_???")
    segments = addr(a[2])
    if a[2] and a[1]:
        from pytrace.decode.memory import struct_array

        seg = struct.Struct("<QQQQ")
        segments = struct_array(c, a[2], a[1], seg.size, lambda raw: f"{{buf={addr(seg.unpack(raw)[0])}, bufsz={seg.unpack(raw)[1]}, mem={addr(seg.unpack(raw)[2])}, memsz={seg.unpack(raw)[3]}}}")
    return f"{addr(a[0])}, {a[1]}, {segments}, {text}"


@syscall("kexec_file_load")
def kexec_file_load(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {fd(c, a[1])}, {a[2]}, {string_at(c, a[3], a[2])}, "
            f"{flags(a[4], X.KEXEC_FILE_FLAGS, 'KEXEC_FILE_???')}")


# ---------------------------------------------------------------- clock adjustment (print_timex)

_TIMEX = struct.Struct("<I4xqqqqi4xqqqqqqqqi4xqqqqqi44x")


def _timex(values: tuple[int, ...]) -> str:
    (modes, offset, freq, maxerror, esterror, status, constant, precision, tolerance, t_sec, t_usec, tick,
     ppsfreq, jitter, shift, stabil, jitcnt, calcnt, errcnt, stbcnt, tai) = values
    return (f"{{modes={flags(modes, X.ADJTIMEX_MODES, 'ADJ_???')}, offset={offset}, freq={freq}, "
            f"maxerror={maxerror}, esterror={esterror}, status={flags(status & _U32, X.ADJTIMEX_STATUS, 'STA_???')}, "
            f"constant={constant}, precision={precision}, tolerance={tolerance}, "
            f"time={{tv_sec={t_sec}, tv_usec={t_usec}}}, tick={tick}, ppsfreq={ppsfreq}, jitter={jitter}, "
            f"shift={shift}, stabil={stabil}, jitcnt={jitcnt}, calcnt={calcnt}, errcnt={errcnt}, "
            f"stbcnt={stbcnt}, tai={tai}}}")


def _adjtimex_rv(c: Call) -> str:
    """do_adjtimex: the clock state's name after the value, when the structure was printed."""
    name = xlat(c.rval & _MASK64, X.ADJTIMEX_STATE)
    value = signed(c.rval, 64)
    address = c.args[0] if c.name == "adjtimex" else c.args[1]
    if name is None or fetch(c, address, _TIMEX.size) is None:
        return str(value)
    return f"{value} ({name})"


@syscall("adjtimex", rval=_adjtimex_rv)
def adjtimex(c: Call) -> Generator[str, None, None]:
    yield ""
    yield umove(c, c.args[0], _TIMEX, lambda *v: _timex(v))


@syscall("clock_adjtime", rval=_adjtimex_rv)
def clock_adjtime(c: Call) -> Generator[str, None, None]:
    yield f"{clockname(c.args[0])}, "
    yield umove(c, c.args[1], _TIMEX, lambda *v: _timex(v))


# ---------------------------------------------------------------- obsolete and unimplemented entries


#: strace's argument counts for the entries the kernel no longer (or never) implemented, which have
#: no tracefs prototype to take them from (syscall_tables marks them "unknown"); also used by -e raw=.
PRINTARGS_NARGS = {
    "create_module": 2, "get_kernel_syms": 1, "query_module": 5, "nfsservctl": 3, "getpmsg": 5,
    "putpmsg": 5, "afs_syscall": 5, "tuxcall": 3, "security": 3, "set_thread_area": 1,
    "get_thread_area": 1, "epoll_ctl_old": 4, "epoll_wait_old": 4, "vserver": 5,
}


@syscall("create_module", "get_kernel_syms", "query_module", "nfsservctl", "getpmsg", "putpmsg", "afs_syscall",
         "tuxcall", "security", "epoll_ctl_old", "epoll_wait_old", "vserver")
def printargs(c: Call) -> str:
    """strace has no decoder for these: its printargs, the raw words, as many as its table says."""
    return ", ".join(hx(v) for v in c.args[:PRINTARGS_NARGS[c.name]])


@syscall("_sysctl")
def sysctl(c: Call) -> str:
    """struct __sysctl_args is not decoded here: NULL or its address."""
    return addr(c.args[0])


@syscall("lookup_dcookie")
def lookup_dcookie(c: Call) -> str:
    a = c.args
    return f"{a[0]}, {addr(a[1])}, {a[2]}"

