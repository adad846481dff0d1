"""Kernel facilities that fit no other family: bpf (the map commands), perf_event_open,
landlock, keys, modules, kexec, clock adjustment (adjtimex, clock_adjtime) and the
obsolete or unimplemented entries of the x86_64 table, as strace 6.1 prints them
(``bpf.c``, ``perf.c``, ``landlock.c``, ``keyctl.c``, ``bjm.c``, ``kexec.c``,
``time.c`` (print_timex), ``sysctl.c``, ``printargs`` for the rest).
"""

from __future__ import annotations

import errno
import struct
from typing import TYPE_CHECKING

from pytrace.decode.bpf_insns import ebpf_prog
from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    OPTS,
    addr,
    cstring,
    fd,
    fetch,
    flags,
    path,
    pid,
    print_xlat,
    quote,
    signed,
    string_at,
    umove,
    xlat,
    xval,
)
from pytrace.decode.net import _ifindex
from pytrace.decode.poll import print_array
from pytrace.decode.registry import rv_dec, rv_fd, syscall
from pytrace.decode.time import clockname
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.events import Call

_U32 = 0xFFFFFFFF
_MASK64 = (1 << 64) - 1


def hx(value: int) -> str:
    return f"{value:#x}" if value else "0"


# ---------------------------------------------------------------- bpf (bpf.c)
#
# Each command's attribute structure is read once (up to the caller's size, at most a page,
# as strace does) and printed field group by field group: a group is shown only when the
# caller's size reaches past its offset (strace's "len <= offsetof(...): break").  Bytes past
# the structure strace knows are ``...`` (``extra_data=`` with -v) when any is non-zero.

_BPF = {name: value for value, name in X.BPF_COMMANDS}
_BPF_F_NUMA_NODE = 0x4
_BPF_F_REPLACE = dict((n, v) for v, n in X.BPF_ATTACH_FLAGS)["BPF_F_REPLACE"]
_BPF_TRACE_ITER = dict((n, v) for v, n in X.BPF_ATTACH_TYPES)["BPF_TRACE_ITER"]
_BPF_PERF_EVENT = dict((n, v) for v, n in X.BPF_ATTACH_TYPES)["BPF_PERF_EVENT"]
_BPF_TRACE_KPROBE_MULTI = dict((n, v) for v, n in X.BPF_ATTACH_TYPES)["BPF_TRACE_KPROBE_MULTI"]
_PAGE_SIZE = 4096


class _Attr:
    """The attribute bytes, zero-padded to the structure size, with strace's field printers."""

    __slots__ = ("c", "raw", "len")

    def __init__(self, c: Call, data: bytes, struct_size: int) -> None:
        self.c = c
        self.len = min(len(data), struct_size)
        self.raw = data[:struct_size].ljust(struct_size, b"\0")

    def u32(self, off: int) -> int:
        return int.from_bytes(self.raw[off:off + 4], "little")

    def u64(self, off: int) -> int:
        return int.from_bytes(self.raw[off:off + 8], "little")

    def fd(self, off: int) -> str:
        return fd(self.c, self.u32(off))

    def addr(self, off: int) -> str:
        return addr(self.u64(off))


def _bpf_str(c: Call, address: int, length: int) -> str:
    """printstr_ex(..., QUOTE_0_TERMINATED): up to ``length`` bytes, ending at a NUL."""
    if not address:
        return "NULL"
    n = min(length, OPTS.max_strlen)
    got = c.mem.read_cstring(address, n) if n else (b"", True)
    if got is None:
        data = c.mem.read(address, n)  # no NUL but readable within n: umovestr succeeds
        if data is None:
            return addr(address)
        got = (data, False)
    data, terminated = got
    return quote(data) + ("..." if not terminated and length else "")


def _kernel_version(v: int) -> str:
    """print_kernel_version: styled like a constant (-X raw: the number, -X verbose: both)."""
    return print_xlat(v, f"KERNEL_VERSION({v >> 16}, {(v >> 8) & 0xFF}, {v & 0xFF})")


def _u32_array(c: Call, address: int, count: int) -> str:
    return print_array(c, address, count, 4, lambda raw: str(int.from_bytes(raw, "little")))


def _bpf_map_create(a: _Attr) -> str:
    map_flags = a.u32(16)
    out = [f"map_type={xval(a.u32(0), X.BPF_MAP_TYPES, 'BPF_MAP_TYPE_???')}", f"key_size={a.u32(4)}",
           f"value_size={a.u32(8)}", f"max_entries={a.u32(12)}"]
    for offset, render in (
        (16, lambda: [f"map_flags={flags(map_flags, X.BPF_MAP_FLAGS, 'BPF_F_???')}"]),
        (20, lambda: [f"inner_map_fd={a.fd(20)}"]),
        (24, lambda: [f"numa_node={_numa_node(a.u32(24))}"] if map_flags & _BPF_F_NUMA_NODE else []),
        (28, lambda: [f"map_name={_cstring_sz(a.raw[28:44], min(16, a.len - 28))}"]),
        (44, lambda: [f"map_ifindex={_ifindex(a.u32(44))}"]),
        (48, lambda: [f"btf_fd={a.fd(48)}", f"btf_key_type_id={a.u32(52)}", f"btf_value_type_id={a.u32(56)}"]),
        (60, lambda: [f"btf_vmlinux_value_type_id={a.u32(60)}"]),
        (64, lambda: [f"map_extra={a.u64(64)}"]),
    ):
        if a.len <= offset:
            break
        out += render()
    return ", ".join(out)


def _numa_node(value: int) -> str:
    """PRINT_FIELD_XVAL_U_VERBOSE(numa_node): -1 is ``-1 /* NUMA_NO_NODE */`` whatever -X says."""
    return "4294967295 /* NUMA_NO_NODE */" if value == _U32 else str(value)


def _cstring_sz(raw: bytes, n: int) -> str:
    """PRINT_FIELD_CSTRING_SZ: print_quoted_cstring(field, n) shows at most n - 1 characters.

    It stops at a NUL; without one, ``...`` follows unless the n-th byte is the
    NUL (bytes past what the tracee passed are zero in strace's copy).
    """
    limit = max(n - 1, 0)
    head = raw[:limit]
    nul = head.find(b"\0")
    if nul >= 0:
        return quote(head[:nul])
    return quote(head) if raw[limit:limit + 1] in (b"", b"\0") else quote(head) + "..."


def _bpf_elem(a: _Attr, cmd: int) -> str:
    out = [f"map_fd={a.fd(0)}", f"key={a.addr(8)}"]
    if cmd == _BPF["BPF_MAP_DELETE_ELEM"]:
        return ", ".join(out)
    out.append(f"{'next_key' if cmd == _BPF['BPF_MAP_GET_NEXT_KEY'] else 'value'}={a.addr(16)}")
    if cmd == _BPF["BPF_MAP_UPDATE_ELEM"]:
        out.append(f"flags={xval(a.u64(24), X.BPF_MAP_UPDATE_FLAGS, 'BPF_???')}")
    elif cmd in (_BPF["BPF_MAP_LOOKUP_ELEM"], _BPF["BPF_MAP_LOOKUP_AND_DELETE_ELEM"]) and a.len > 24:
        out.append(f"flags={flags(a.u64(24), X.BPF_MAP_LOOKUP_FLAGS, 'BPF_???')}")
    return ", ".join(out)


def _bpf_prog_load(a: _Attr) -> str:
    c = a.c
    out = [f"prog_type={xval(a.u32(0), X.BPF_PROG_TYPES, 'BPF_PROG_TYPE_???')}", f"insn_cnt={a.u32(4)}",
           f"insns={ebpf_prog(c, a.u64(8), a.u32(4))}", f"license={cstring(c, a.u64(16))}"]
    for offset, render in (
        (24, lambda: [f"log_level={a.u32(24)}", f"log_size={a.u32(28)}",
                      f"log_buf={_bpf_str(c, a.u64(32), a.u32(28))}"]),
        (40, lambda: [f"kern_version={_kernel_version(a.u32(40))}"]),
        (44, lambda: [f"prog_flags={flags(a.u32(44), X.BPF_PROG_FLAGS, 'BPF_F_???')}"]),
        (48, lambda: [f"prog_name={_cstring_sz(a.raw[48:64], min(16, a.len - 48))}"]),
        (64, lambda: [f"prog_ifindex={_ifindex(a.u32(64))}"]),
        (68, lambda: [f"expected_attach_type={xval(a.u32(68), X.BPF_ATTACH_TYPES, 'BPF_???')}"]),
        (72, lambda: [f"prog_btf_fd={a.fd(72)}", f"func_info_rec_size={a.u32(76)}", f"func_info={a.addr(80)}",
                      f"func_info_cnt={a.u32(88)}", f"line_info_rec_size={a.u32(92)}",
                      f"line_info={a.addr(96)}", f"line_info_cnt={a.u32(104)}"]),
        (108, lambda: [f"attach_btf_id={a.u32(108)}"]),
        (112, lambda: [f"attach_prog_fd={a.fd(112)}"]),
        (120, lambda: [f"fd_array={a.addr(120)}"]),
    ):
        if a.len <= offset:
            break
        out += render()
    return ", ".join(out)


def _bpf_obj_pin(a: _Attr) -> str:
    text = f"pathname={path(a.c, a.u64(0))}, bpf_fd={a.fd(8)}"
    if a.len > 12:
        text += f", file_flags={flags(a.u32(12), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}"
    return text


def _bpf_prog_attach(a: _Attr) -> str:
    text = (f"target_fd={a.fd(0)}, attach_bpf_fd={a.fd(4)}, "
            f"attach_type={xval(a.u32(8), X.BPF_ATTACH_TYPES, 'BPF_???')}, "
            f"attach_flags={flags(a.u32(12), X.BPF_ATTACH_FLAGS, 'BPF_F_???')}")
    if a.len > 16:
        text += f", replace_bpf_fd={a.fd(16)}"
    return text


def _bpf_prog_detach(a: _Attr) -> str:
    return f"target_fd={a.fd(0)}, attach_type={xval(a.u32(8), X.BPF_ATTACH_TYPES, 'BPF_???')}"


def _bpf_test_run(a: _Attr) -> str:
    out = [f"prog_fd={a.fd(0)}", f"retval={a.u32(4)}", f"data_size_in={a.u32(8)}",
           f"data_size_out={a.u32(12)}", f"data_in={a.addr(16)}", f"data_out={a.addr(24)}",
           f"repeat={a.u32(32)}", f"duration={a.u32(36)}"]
    if a.len > 40:
        out += [f"ctx_size_in={a.u32(40)}", f"ctx_size_out={a.u32(44)}", f"ctx_in={a.addr(48)}",
                f"ctx_out={a.addr(56)}"]
    if a.len > 64:
        out += [f"flags={flags(a.u32(64), X.BPF_TEST_RUN_FLAGS, 'BPF_F_???')}", f"cpu={a.u32(68)}"]
    if a.len > 72:
        out.append(f"batch_size={a.u32(72)}")
    return "test={" + ", ".join(out) + "}"


def _bpf_get_fd_by_id(a: _Attr, cmd: int) -> str:
    if cmd in (_BPF["BPF_BTF_GET_FD_BY_ID"], _BPF["BPF_LINK_GET_FD_BY_ID"]):
        return f"{'btf_id' if cmd == _BPF['BPF_BTF_GET_FD_BY_ID'] else 'link_id'}={a.u32(0)}"
    first = "prog_id" if cmd == _BPF["BPF_PROG_GET_FD_BY_ID"] else "map_id"
    text = f"{first}={a.u32(0)}, next_id={a.u32(4)}"
    if a.len > 8:
        text += f", open_flags={flags(a.u32(8), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}"
    return text


def _bpf_raw_tp(a: _Attr) -> str:
    return f"raw_tracepoint={{name={_bpf_str(a.c, a.u64(0), 128)}, prog_fd={a.fd(8)}}}"


def _bpf_btf_load(a: _Attr) -> str:
    return (f"btf={string_at(a.c, a.u64(0), a.u32(16))}, btf_log_buf={a.addr(8)}, btf_size={a.u32(16)}, "
            f"btf_log_size={a.u32(20)}, btf_log_level={a.u32(24)}")


def _bpf_batch_entry(a: _Attr, cmd: int) -> str:
    out = []
    if cmd in (_BPF["BPF_MAP_LOOKUP_BATCH"], _BPF["BPF_MAP_LOOKUP_AND_DELETE_BATCH"]):
        out += [f"in_batch={a.addr(0)}", f"out_batch={a.addr(8)}"]
    out.append(f"keys={a.addr(16)}")
    if cmd != _BPF["BPF_MAP_DELETE_BATCH"]:
        out.append(f"values={a.addr(24)}")
    out += [f"count={a.u32(32)}", f"map_fd={a.fd(36)}",
            f"elem_flags={flags(a.u64(40), X.BPF_MAP_LOOKUP_FLAGS, 'BPF_???')}", f"flags={hx(a.u64(48))}"]
    return "batch={" + ", ".join(out) + "}"


def _bpf_link_create(a: _Attr) -> tuple[str, int]:
    """The text and the structure size strace then checks extra bytes against (per attach type)."""
    c = a.c
    atype = a.u32(8)
    out = [f"prog_fd={a.fd(0)}", f"target_fd={a.fd(4)}",
           f"attach_type={xval(atype, X.BPF_ATTACH_TYPES, 'BPF_???')}", f"flags={hx(a.u32(12))}"]
    size = 48
    if a.len > 16:
        if atype == 0:
            if a.u32(16):
                out.append(f"target_btf_id={a.u32(16)}")
            size = 20
        elif atype == _BPF_TRACE_ITER:
            info = print_array(c, a.u64(16), a.u32(24), 4,
                               lambda raw: f"{{map={{map_fd={fd(c, int.from_bytes(raw, 'little'))}}}}}")
            out += [f"iter_info={info}", f"iter_info_len={a.u32(24)}"]
            size = 28
        elif atype == _BPF_PERF_EVENT:
            out.append(f"perf_event={{bpf_cookie={hx(a.u64(16))}}}")
            size = 24
        elif atype == _BPF_TRACE_KPROBE_MULTI:
            cnt = a.u32(20)
            syms = print_array(c, a.u64(24), cnt, 8, lambda raw: cstring(c, int.from_bytes(raw, "little")))
            addrs = print_array(c, a.u64(32), cnt, 8, lambda raw: hx(int.from_bytes(raw, "little")))
            cookies = print_array(c, a.u64(40), cnt, 8, lambda raw: hx(int.from_bytes(raw, "little")))
            out.append(f"kprobe_multi={{flags={flags(a.u32(16), X.BPF_KPROBE_MULTI_FLAGS, 'BPF_F_???')}, "
                       f"cnt={cnt}, syms={syms}, addrs={addrs}, cookies={cookies}}}")
            size = 48
        else:
            size = 16
    return "link_create={" + ", ".join(out) + "}", size


def _bpf_link_update(a: _Attr) -> str:
    fl = a.u32(8)
    text = f"link_fd={a.fd(0)}, new_prog_fd={a.fd(4)}, flags={flags(fl, X.BPF_ATTACH_FLAGS, 'BPF_F_???')}"
    if fl & _BPF_F_REPLACE:
        text += f", old_prog_fd={a.fd(12)}"
    return "link_update={" + text + "}"


def _extra_data(data: bytes, struct_size: int) -> str:
    """decode_attr_extra_data: ``, ...`` (``, extra_data=... /* bytes N..M */`` with -v) past the known end."""
    extra = data[struct_size:]
    if not any(extra):
        return ""
    if not OPTS.verbose:
        return ", ..."
    return f", extra_data={quote(extra, force_hex=True)} /* bytes {struct_size}..{len(data) - 1} */"


# Structure sizes strace 6.1 knows (bpf_attr.h).
_BPF_SIZES = {
    "BPF_MAP_CREATE": 72, "BPF_MAP_LOOKUP_ELEM": 32, "BPF_MAP_UPDATE_ELEM": 32, "BPF_MAP_DELETE_ELEM": 16,
    "BPF_MAP_GET_NEXT_KEY": 24, "BPF_MAP_FREEZE": 4, "BPF_PROG_LOAD": 128, "BPF_OBJ_PIN": 16, "BPF_OBJ_GET": 16,
    "BPF_PROG_ATTACH": 20, "BPF_PROG_DETACH": 12, "BPF_PROG_TEST_RUN": 76, "BPF_PROG_GET_NEXT_ID": 12,
    "BPF_MAP_GET_NEXT_ID": 12, "BPF_BTF_GET_NEXT_ID": 12, "BPF_LINK_GET_NEXT_ID": 12, "BPF_PROG_GET_FD_BY_ID": 12,
    "BPF_MAP_GET_FD_BY_ID": 12, "BPF_OBJ_GET_INFO_BY_FD": 16, "BPF_PROG_QUERY": 28,
    "BPF_RAW_TRACEPOINT_OPEN": 12, "BPF_BTF_LOAD": 28, "BPF_BTF_GET_FD_BY_ID": 4, "BPF_TASK_FD_QUERY": 48,
    "BPF_MAP_LOOKUP_AND_DELETE_ELEM": 32, "BPF_MAP_LOOKUP_BATCH": 56, "BPF_MAP_LOOKUP_AND_DELETE_BATCH": 56,
    "BPF_MAP_UPDATE_BATCH": 56, "BPF_MAP_DELETE_BATCH": 56, "BPF_LINK_CREATE": 48, "BPF_LINK_UPDATE": 16,
    "BPF_LINK_GET_FD_BY_ID": 4,
}
_BPF_SIZE_BY_CMD = {_BPF[name]: size for name, size in _BPF_SIZES.items()}
_BPF_FD_RESULT = frozenset(_BPF[n] for n in (
    "BPF_MAP_CREATE", "BPF_PROG_LOAD", "BPF_OBJ_PIN", "BPF_OBJ_GET", "BPF_PROG_GET_FD_BY_ID",
    "BPF_MAP_GET_FD_BY_ID", "BPF_BTF_LOAD", "BPF_BTF_GET_FD_BY_ID", "BPF_LINK_CREATE", "BPF_LINK_GET_FD_BY_ID"))
_BPF_NEXT_ID = frozenset(_BPF[n] for n in (
    "BPF_PROG_GET_NEXT_ID", "BPF_MAP_GET_NEXT_ID", "BPF_BTF_GET_NEXT_ID", "BPF_LINK_GET_NEXT_ID"))
_BPF_BATCH = frozenset(_BPF[n] for n in (
    "BPF_MAP_LOOKUP_BATCH", "BPF_MAP_LOOKUP_AND_DELETE_BATCH", "BPF_MAP_UPDATE_BATCH", "BPF_MAP_DELETE_BATCH"))
_BPF_ELEM = frozenset(_BPF[n] for n in (
    "BPF_MAP_LOOKUP_ELEM", "BPF_MAP_UPDATE_ELEM", "BPF_MAP_DELETE_ELEM", "BPF_MAP_GET_NEXT_KEY",
    "BPF_MAP_LOOKUP_AND_DELETE_ELEM"))
_BPF_BY_ID = frozenset(_BPF[n] for n in (
    "BPF_PROG_GET_FD_BY_ID", "BPF_MAP_GET_FD_BY_ID", "BPF_BTF_GET_FD_BY_ID", "BPF_LINK_GET_FD_BY_ID"))
_BPF_SIMPLE: dict[int, Callable[[_Attr], str]] = {
    _BPF["BPF_MAP_CREATE"]: _bpf_map_create,
    _BPF["BPF_MAP_FREEZE"]: lambda a: f"map_fd={a.fd(0)}",
    _BPF["BPF_PROG_LOAD"]: _bpf_prog_load,
    _BPF["BPF_OBJ_PIN"]: _bpf_obj_pin,
    _BPF["BPF_OBJ_GET"]: _bpf_obj_pin,
    _BPF["BPF_PROG_ATTACH"]: _bpf_prog_attach,
    _BPF["BPF_PROG_DETACH"]: _bpf_prog_detach,
    _BPF["BPF_PROG_TEST_RUN"]: _bpf_test_run,
    _BPF["BPF_RAW_TRACEPOINT_OPEN"]: _bpf_raw_tp,
    _BPF["BPF_BTF_LOAD"]: _bpf_btf_load,
    _BPF["BPF_LINK_UPDATE"]: _bpf_link_update,
}


def _bpf_rv(c: Call) -> str:
    return rv_fd(c) if c.args[0] & _U32 in _BPF_FD_RESULT else rv_dec(c)


def _bpf_read(c: Call, address: int, size: int) -> bytes | None:
    """umoven_or_printaddr_ignore_syserror of the whole attribute (at entry and again at exit)."""
    return fetch(c, address, size, True)


@syscall("bpf", rval=_bpf_rv)
def bpf(c: Call) -> Generator[str, None, None]:
    """SYS_FUNC(bpf): the commands strace 6.1 has decoders for; others (and sizes of 0 or
    more than a page) print the attribute's address."""
    cmd = c.args[0] & _U32
    address, size = c.args[1], c.args[2] & _U32
    head = f"{xval(cmd, X.BPF_COMMANDS, 'BPF_???')}, "
    struct_size = _BPF_SIZE_BY_CMD.get(cmd)
    if struct_size is None or not 0 < size <= _PAGE_SIZE:
        yield f"{head}{addr(address)}, {size}"
        yield ""
        return
    data = _bpf_read(c, address, size)
    if data is None:
        yield f"{head}{addr(address)}, {size}"
        yield ""
        return
    a = _Attr(c, data, struct_size)
    simple = _BPF_SIMPLE.get(cmd)
    if simple is not None or cmd in _BPF_ELEM or cmd in _BPF_BY_ID or cmd == _BPF["BPF_LINK_CREATE"]:
        if simple is not None:
            body = simple(a)
        elif cmd in _BPF_ELEM:
            body = _bpf_elem(a, cmd)
        elif cmd in _BPF_BY_ID:
            body = _bpf_get_fd_by_id(a, cmd)
        else:
            body, struct_size = _bpf_link_create(a)
        yield f"{head}{{{body}{_extra_data(data, struct_size)}}}, {size}"
        yield ""
        return
    yield from _bpf_with_exit(c, cmd, head, a, data, address, size, struct_size)


def _bpf_with_exit(c: Call, cmd: int, head: str, a: _Attr, data: bytes, address: int, size: int,
                   struct_size: int) -> Generator[str, None, None]:
    """The commands whose structure the kernel writes back: entry part, then what changed."""
    if cmd in _BPF_NEXT_ID:
        yield f"{head}{{start_id={a.u32(0)}, next_id={a.u32(4)}"
        b = _exit_attr(c, address, size, struct_size)
        if b is None:
            yield f"{{...}}, {size}"  # unreachable in practice: the entry read succeeded
            return
        text = f" => {b.u32(4)}" if b.u32(4) != a.u32(4) else ""
        if b.len > 8:
            text += f", open_flags={flags(b.u32(8), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}"
        yield f"{text}{_extra_data(b.data, struct_size)}}}, {size}"
    elif cmd in _BPF_BATCH:
        yield f"{head}{{{_bpf_batch_entry(a, cmd)}{_extra_data(data, struct_size)}}}"
        b = _exit_attr(c, address, size, struct_size)
        changed = b is not None and b.u32(32) != a.u32(32)
        yield f"{f' => {{batch={{count={b.u32(32)}}}}}' if changed and b else ''}, {size}"
    elif cmd == _BPF["BPF_PROG_QUERY"]:
        yield (f"{head}{{query={{target_fd={a.fd(0)}, "
               f"attach_type={xval(a.u32(4), X.BPF_ATTACH_TYPES, 'BPF_???')}, "
               f"query_flags={flags(a.u32(8), X.BPF_QUERY_FLAGS, 'BPF_F_QUERY_???')}, "
               f"attach_flags={flags(a.u32(12), X.BPF_ATTACH_FLAGS, 'BPF_F_???')}, prog_ids=")
        b = _exit_attr(c, address, size, struct_size) or a
        cnt = b.u32(24)
        before = f"{a.u32(24)} => " if a.u32(24) != cnt else ""
        # print_array: NULL and an empty array first; tfetch_mem then reads nothing after an error.
        ids = addr(b.u64(16)) if c.failed and b.u64(16) and cnt else _u32_array(c, b.u64(16), cnt)
        yield (f"{ids}, prog_cnt={before}{cnt}}}"
               f"{_extra_data(b.data, struct_size)}}}, {size}")
    elif cmd == _BPF["BPF_TASK_FD_QUERY"]:
        yield (f"{head}{{task_fd_query={{pid={pid(a.u32(0))}, fd={a.fd(4)}, flags={a.u32(8)}, "
               f"buf_len={a.u32(12)}")
        b = _exit_attr(c, address, size, struct_size) or a
        buf_len = b.u32(12)
        text = f" => {buf_len}" if buf_len != a.u32(12) else ""
        yield (f"{text}, buf={_bpf_str(c, b.u64(16), min(a.u32(12), buf_len))}, prog_id={b.u32(24)}, "
               f"fd_type={xval(b.u32(28), X.BPF_TASK_FD_TYPES, 'BPF_FD_TYPE_???')}, "
               f"probe_offset={hx(b.u64(32))}, probe_addr={hx(b.u64(40))}}}"
               f"{_extra_data(b.data, struct_size)}}}, {size}")
    else:  # BPF_OBJ_GET_INFO_BY_FD
        yield f"{head}{{info={{bpf_fd={a.fd(0)}, info_len={a.u32(4)}"
        b = _exit_attr(c, address, size, struct_size) or a
        text = f" => {b.u32(4)}" if b.u32(4) != a.u32(4) else ""  # tprint_value_changed
        yield f"{text}, info={addr(b.u64(8))}}}{_extra_data(b.data, struct_size)}}}, {size}"


class _ExitAttr(_Attr):
    __slots__ = ("data",)


def _exit_attr(c: Call, address: int, size: int, struct_size: int) -> _ExitAttr | None:
    data = _bpf_read(c, address, size)
    if data is None:
        return None
    b = _ExitAttr(c, data, struct_size)
    b.data = data
    return b


# ---------------------------------------------------------------- perf_event_open

_PERF_ATTR_SIZE_VER0 = 64
_PERF_TYPE = {name: value for value, name in X.PERF_TYPES}
_PERF_TYPE_HARDWARE, _PERF_TYPE_SOFTWARE = _PERF_TYPE["PERF_TYPE_HARDWARE"], _PERF_TYPE["PERF_TYPE_SOFTWARE"]
_PERF_TYPE_TRACEPOINT, _PERF_TYPE_HW_CACHE = _PERF_TYPE["PERF_TYPE_TRACEPOINT"], _PERF_TYPE["PERF_TYPE_HW_CACHE"]
_PERF_HW_EVENT_MASK = 0xFFFFFFFF  # the low half of config; the high half is the PMU type id


def _perf_config(ptype: int, config: int) -> str:
    """print_perf_event_attr's config: HARDWARE and HW_CACHE split into their fields, as strace does."""
    if ptype == _PERF_TYPE_SOFTWARE:
        return xval(config, X.PERF_SW_IDS, "PERF_COUNT_SW_???")
    if ptype == _PERF_TYPE_TRACEPOINT:
        return str(config)
    if ptype not in (_PERF_TYPE_HARDWARE, _PERF_TYPE_HW_CACHE):
        return hx(config)
    pmu = f"{hx(config >> 32)}<<32|" if config >> 32 else ""
    event = config & _PERF_HW_EVENT_MASK
    if ptype == _PERF_TYPE_HARDWARE:
        return pmu + xval(event, X.PERF_HW_IDS, "PERF_COUNT_HW_???")
    junk = f"{hx(event >> 24)}<<24|" if event >> 24 else ""
    return (f"{pmu}{junk}"
            f"{xval(event >> 16 & 0xFF, X.PERF_HW_CACHE_OP_RESULT_IDS, 'PERF_COUNT_HW_CACHE_RESULT_???')}<<16|"
            f"{xval(event >> 8 & 0xFF, X.PERF_HW_CACHE_OP_IDS, 'PERF_COUNT_HW_CACHE_OP_???')}<<8|"
            f"{xval(event & 0xFF, X.PERF_HW_CACHE_IDS, 'PERF_COUNT_HW_CACHE_???')}")
_PRECISE_IP = ("arbitrary skid", "constant skid", "requested to have 0 skid", "must have 0 skid")
_PERF_BITS = (
    "disabled", "inherit", "pinned", "exclusive", "exclude_user", "exclude_kernel", "exclude_hv", "exclude_idle",
    "mmap", "comm", "freq", "inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip", "precise_ip",
    "mmap_data", "sample_id_all", "exclude_host", "exclude_guest", "exclude_callchain_kernel",
    "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch", "write_backward",
    "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id", "inherit_thread",
    "remove_on_exec", "sigtrap",
)


def _perf_fetch(c: Call, address: int) -> tuple[bytes, int] | None:
    """fetch_perf_event_attr: the attribute's bytes and the size strace read, None for "print the address".

    strace reads it at entry: the kernel overwrites ``size`` on E2BIG, and a size
    below PERF_ATTR_SIZE_VER0 (or an unreadable one) prints the pointer.  Not
    verbose, strace reads only the fields it shows (up to wakeup_events).
    """
    head = fetch(c, address + 4, 4, True)
    if head is None:
        return None
    size = min(struct.unpack("<I", head)[0], 128) or _PERF_ATTR_SIZE_VER0
    if size < _PERF_ATTR_SIZE_VER0:
        return None
    if not OPTS.verbose:
        size = _PERF_WAKEUP_OFFSET
    data = fetch(c, address, size, True)
    return None if data is None else (data, size)


def _perf_attr(c: Call, address: int) -> str:
    """print_perf_event_attr as strace 6.1 abbreviates it: the head, the set bit fields, precise_ip, ``...``."""
    got = _perf_fetch(c, address)
    return addr(address) if got is None else _perf_attr_text(*got)


_PERF_WAKEUP_OFFSET = 48  # offsetof(struct perf_event_attr, wakeup_events)


def _perf_attr_text(data: bytes, size: int, new_size: str | None = None) -> str:
    """The attribute fetched by _perf_fetch; ``new_size`` is E2BIG's `` => size`` the kernel wrote back."""
    raw = data.ljust(128, b"\0")
    ptype, psize, config, period, sample_type, read_format, bits = struct.unpack_from("<IIQQQQQ", raw)
    out = [f"type={xval(ptype, X.PERF_TYPES, 'PERF_TYPE_???')}",
           f"size={xval(psize, X.PERF_ATTR_SIZES, 'PERF_ATTR_SIZE_???')}{new_size or ''}"]
    out.append(f"config={_perf_config(ptype, config)}")
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
    if bits >> 38:  # printed even abbreviated: it may hold flags strace does not know
        out.append(f"__reserved_1={hx(bits >> 38)} /* Bits 63..38 */")
    if not OPTS.verbose:
        out.append("...")
        return "{" + ", ".join(out) + "}"
    out += _perf_attr_tail(raw, size, ptype, sample_type, bits)
    if psize > size:
        out.append("...")
    return "{" + ", ".join(out) + "}"


_PERF_TYPE_BREAKPOINT = _PERF_TYPE["PERF_TYPE_BREAKPOINT"]
_PERF_SAMPLE_BRANCH_STACK, _PERF_SAMPLE_STACK_USER = 1 << 11, 1 << 13


def _perf_attr_tail(raw: bytes, size: int, ptype: int, sample_type: int, bits: int) -> list[str]:
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
    got = _perf_fetch(c, a[0]) if a[0] else None
    if got is None:
        yield addr(a[0]) + tail
        yield ""
        return
    yield ""
    new_size = None
    if c.error == errno.E2BIG:
        now = fetch(c, a[0] + 4, 4, True)
        new_size = " => ???" if now is None else \
            f" => {xval(struct.unpack('<I', now)[0], X.PERF_ATTR_SIZES, 'PERF_ATTR_SIZE_???')}"
    yield _perf_attr_text(*got, new_size) + tail


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


def _str_omit_trailing_nul(c: Call, address: int, length: int) -> str:
    """printstr_ex(..., QUOTE_OMIT_TRAILING_0): the descriptions end with a NUL strace leaves out."""
    n = min(length, OPTS.max_strlen)
    data = c.mem.read(address, n) if address and n else b""
    if data is None or not address:
        return addr(address)
    if data and data[-1] == 0:
        data = data[:-1]
    return quote(data) + ("..." if length > OPTS.max_strlen else "")


def _uid(value: int) -> str:
    """printuid: ``-1`` for the "unchanged" id, otherwise unsigned."""
    value &= _U32
    return "-1" if value == _U32 else str(value)


def _err_name(err: int) -> str:
    """print_err(error, false): the errno name (styled like a constant), else the number."""
    name = X.ERRNO_NAMES.get(err)
    return str(err) if name is None else print_xlat(err, name, "u")


def _iov_str(c: Call, address: int, count: int) -> str:
    """tprint_iov with iov_decode_str: each buffer as a string of its length."""
    return iovec_array(c, address, count, None)


def _xint_array(values: tuple[int, ...]) -> str:
    """PRINT_FIELD_ARRAY with print_xint_array_member: hex items, cut after -s items unless -v."""
    limit = len(values) if OPTS.verbose else min(len(values), OPTS.max_strlen)
    items = [hx(v) for v in values[:limit]]
    if limit < len(values):
        items.append("...")
    return "[" + ", ".join(items) + "]"


def _spare(values: tuple[int, ...]) -> str:
    """The ``, __spare=[...]`` tail strace adds only when a reserved field is non-zero."""
    return f", __spare={_xint_array(values)}" if any(values) else ""


def _dh_params(c: Call, address: int) -> str:
    """print_dh_params: struct keyctl_dh_params {private, prime, base} key serials."""
    data = fetch(c, address, 12)
    if data is None:
        return addr(address)
    private, prime, base = struct.unpack("<iii", data)
    return f"{{private={key_serial(private)}, prime={key_serial(prime)}, base={key_serial(base)}}}"


def _kdf_params(c: Call, address: int) -> str:
    """struct keyctl_kdf_params as strace's fetch_keyctl_kdf_params + keyctl_dh_compute print it.

    A plain umove (no NULL or error shortcut): anything unreadable, NULL included, is its address.
    Two pointers lead the struct, so an i386 tracee's is 44 bytes, not 56 (strace's mpers).
    """
    head, size = ("<III", 44) if c.arch == "i386" else ("<QQI", 56)
    data = c.mem.read(address, size) if address else None
    if data is None:
        return addr(address)
    hashname, otherinfo, otherinfolen = struct.unpack_from(head, data)
    spare = struct.unpack_from("<8I", data, struct.calcsize(head))
    info = string_at(c, otherinfo, otherinfolen) if otherinfolen else addr(otherinfo)
    return (f"{{hashname={cstring(c, hashname)}, otherinfo={info}, otherinfolen={otherinfolen}"
            f"{_spare(spare)}}}")


def _pkey_query(c: Call, address: int) -> str:
    """print_pkey_query: struct keyctl_pkey_query, read at exit."""
    data = fetch(c, address, 56)
    if data is None:
        return addr(address)
    ops, key_size, max_data, max_sig, max_enc, max_dec = struct.unpack_from("<IIHHHH", data)
    return (f"{{supported_ops={flags(ops, X.KEYCTL_PKEY_OPS, 'KEYCTL_SUPPORTS_???')}, key_size={key_size}, "
            f"max_data_size={max_data}, max_sig_size={max_sig}, max_enc_size={max_enc}, "
            f"max_dec_size={max_dec}{_spare(struct.unpack_from('<10I', data, 16))}}}")


def _pkey_params(c: Call, address: int, out: bool) -> tuple[str, tuple[int, int] | None]:
    """fetch_print_pkey_params: the text and (in_len, out_len or in2_len), None if unreadable."""
    data = fetch(c, address, 40)
    if data is None:
        return addr(address), None
    key_id, in_len, len2 = struct.unpack_from("<iII", data)
    text = (f"{{key_id={key_serial(key_id)}, in_len={in_len}, {'out_len' if out else 'in2_len'}={len2}"
            f"{_spare(struct.unpack_from('<7I', data, 12))}}}")
    return text, (in_len, len2)


def _keyctl_pkey_op(c: Call, head: str, out: bool) -> Generator[str, None, None]:
    """keyctl_pkey_op: ENCRYPT/DECRYPT/SIGN print the output buffer (out_len bytes) at exit."""
    a = c.args
    params, lens = _pkey_params(c, a[1], out)
    text = f"{head}, {params}, {cstring(c, a[2])}, "
    text += string_at(c, a[3], lens[0]) if lens else addr(a[3])
    if not out or lens is None:
        yield f"{text}, {string_at(c, a[4], lens[1]) if lens else addr(a[4])}"
        yield ""
        return
    yield f"{text}, "
    yield addr(a[4]) if c.failed else string_at(c, a[4], lens[1])


def _keyctl_caps(c: Call, address: int, length: int) -> str:
    """keyctl_capabilities: the result bytes, the first two as KEYCTL_CAPS0/1 flags."""
    pos = [0]
    tables = ((X.KEYCTL_CAPS0, "KEYCTL_CAPS0_???"), (X.KEYCTL_CAPS1, "KEYCTL_CAPS1_???"))

    def element(raw: bytes) -> str:
        i = pos[0]
        pos[0] += 1
        return flags(raw[0], *tables[i]) if i < len(tables) else hx(raw[0])

    return print_array(c, address, length, 1, element)


def _keyctl_dh_compute(c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield f"{head}, {_dh_params(c, a[1])}, "
    buf = addr(a[2]) if c.failed else string_at(c, a[2], min(c.rval, a[3]))
    yield f"{buf}, {a[3]}, {_kdf_params(c, a[4])}"


def _keyctl_pkey_query(c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield f"{head}, {key_serial(a[1])}, {hx(a[2])}, {cstring(c, a[3])}, "
    yield _pkey_query(c, a[4])


def _keyctl_capabilities(c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield f"{head}, "
    buf = addr(a[1]) if c.failed else _keyctl_caps(c, a[1], min(a[2], c.rval))
    yield f"{buf}, {a[2]}"


def _keyctl_read_buffer(trim_nul: bool) -> Callable[[Call, str], Generator[str, None, None]]:
    """DESCRIBE/GET_SECURITY return NUL-terminated text strace prints without the NUL; READ raw bytes."""
    def printer(c: Call, head: str) -> Generator[str, None, None]:
        a = c.args
        yield f"{head}, {key_serial(a[1])}, "
        length = min(c.rval, a[3])
        if c.failed:
            buf = addr(a[2])
        elif trim_nul:
            buf = _str_omit_trailing_nul(c, a[2], length)
        else:
            buf = string_at(c, a[2], length)
        yield f"{buf}, {a[3]}"
    return printer


# Commands whose arguments are all known at entry: the text after the command name.
_KEYCTL_AT_ENTRY: dict[str, Callable[[Call, tuple[int, ...]], str]] = {
    "KEYCTL_GET_KEYRING_ID": lambda c, a: f"{key_serial(a[1])}, {signed(a[2], 32)}",
    "KEYCTL_JOIN_SESSION_KEYRING": lambda c, a: cstring(c, a[1]),
    "KEYCTL_UPDATE": lambda c, a: f"{key_serial(a[1])}, {string_at(c, a[2], a[3])}, {a[3]}",
    "KEYCTL_REVOKE": lambda c, a: key_serial(a[1]),
    "KEYCTL_CLEAR": lambda c, a: key_serial(a[1]),
    "KEYCTL_INVALIDATE": lambda c, a: key_serial(a[1]),
    "KEYCTL_ASSUME_AUTHORITY": lambda c, a: key_serial(a[1]),
    "KEYCTL_LINK": lambda c, a: f"{key_serial(a[1])}, {key_serial(a[2])}",
    "KEYCTL_UNLINK": lambda c, a: f"{key_serial(a[1])}, {key_serial(a[2])}",
    "KEYCTL_SET_TIMEOUT": lambda c, a: f"{key_serial(a[1])}, {a[2] & _U32}",
    "KEYCTL_SEARCH": lambda c, a: (f"{key_serial(a[1])}, {cstring(c, a[2])}, {cstring(c, a[3])}, "
                                   f"{key_serial(a[4])}"),
    "KEYCTL_CHOWN": lambda c, a: f"{key_serial(a[1])}, {_uid(a[2])}, {_uid(a[3])}",
    "KEYCTL_SETPERM": lambda c, a: f"{key_serial(a[1])}, {flags(a[2] & _U32, X.KEY_PERMS, 'KEY_???')}",
    "KEYCTL_INSTANTIATE": lambda c, a: (f"{key_serial(a[1])}, {string_at(c, a[2], a[3])}, {a[3]}, "
                                        f"{key_serial(a[4])}"),
    "KEYCTL_INSTANTIATE_IOV": lambda c, a: (f"{key_serial(a[1])}, {_iov_str(c, a[2], a[3])}, {a[3]}, "
                                            f"{key_serial(a[4])}"),
    "KEYCTL_NEGATE": lambda c, a: f"{key_serial(a[1])}, {a[2] & _U32}, {key_serial(a[3])}",
    "KEYCTL_REJECT": lambda c, a: (f"{key_serial(a[1])}, {a[2] & _U32}, {_err_name(a[3] & _U32)}, "
                                   f"{key_serial(a[4])}"),
    "KEYCTL_SET_REQKEY_KEYRING": lambda c, a: xval(signed(a[1], 32), X.KEY_REQKEYS, "KEY_REQKEY_DEFL_???",
                                                   fmt="int"),
    "KEYCTL_GET_PERSISTENT": lambda c, a: f"{_uid(a[1])}, {key_serial(a[2])}",
    "KEYCTL_RESTRICT_KEYRING": lambda c, a: f"{key_serial(a[1])}, {cstring(c, a[2])}, {cstring(c, a[3])}",
    "KEYCTL_MOVE": lambda c, a: (f"{key_serial(a[1])}, {key_serial(a[2])}, {key_serial(a[3])}, "
                                 f"{flags(a[4] & _U32, X.KEYCTL_MOVE_FLAGS, 'KEYCTL_MOVE_???')}"),
}

# Commands that fill a tracee buffer: generators yielding the entry text, then the exit text.
_KEYCTL_AT_EXIT: dict[str, Callable[[Call, str], Generator[str, None, None]]] = {
    "KEYCTL_DH_COMPUTE": _keyctl_dh_compute,
    "KEYCTL_PKEY_QUERY": _keyctl_pkey_query,
    "KEYCTL_PKEY_ENCRYPT": lambda c, head: _keyctl_pkey_op(c, head, True),
    "KEYCTL_PKEY_DECRYPT": lambda c, head: _keyctl_pkey_op(c, head, True),
    "KEYCTL_PKEY_SIGN": lambda c, head: _keyctl_pkey_op(c, head, True),
    "KEYCTL_PKEY_VERIFY": lambda c, head: _keyctl_pkey_op(c, head, False),
    "KEYCTL_CAPABILITIES": _keyctl_capabilities,
    "KEYCTL_DESCRIBE": _keyctl_read_buffer(trim_nul=True),
    "KEYCTL_GET_SECURITY": _keyctl_read_buffer(trim_nul=True),
    "KEYCTL_READ": _keyctl_read_buffer(trim_nul=False),
}
_KEYCTL_ENTRY_BY_CMD = {_KC[name]: printer for name, printer in _KEYCTL_AT_ENTRY.items()}
_KEYCTL_EXIT_BY_CMD = {_KC[name]: printer for name, printer in _KEYCTL_AT_EXIT.items()}
_KEYCTL_SESSION_TO_PARENT = _KC["KEYCTL_SESSION_TO_PARENT"]


@syscall("keyctl")
def keyctl(c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[0] & _U32
    head = xval(cmd, X.KEYCTL_CMDS, "KEYCTL_???")
    at_exit = _KEYCTL_EXIT_BY_CMD.get(cmd)
    if at_exit is not None:
        yield from at_exit(c, head)
        return
    at_entry = _KEYCTL_ENTRY_BY_CMD.get(cmd)
    if at_entry is not None:
        yield f"{head}, {at_entry(c, a)}"
    elif cmd == _KEYCTL_SESSION_TO_PARENT:
        yield head
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


#: struct __sysctl_args: name, nlen, oldval, oldlenp, newval, newlen, 4 unused longs (i386.py rebinds).
_SYSCTL_ARGS = struct.Struct("<Qi4xQQQQ32x")


@syscall("_sysctl")
def sysctl(c: Call) -> str:
    """strace's SYS_FUNC(sysctl): the struct's pointers and lengths, nothing they point to."""
    return umove(c, c.args[0], _SYSCTL_ARGS, lambda name, nlen, oldval, oldlenp, newval, newlen: (
        f"{{name={addr(name)}, nlen={nlen}, oldval={addr(oldval)}, oldlenp={addr(oldlenp)}, "
        f"newval={addr(newval)}, newlen={newlen}}}"))


@syscall("lookup_dcookie")
def lookup_dcookie(c: Call) -> str:
    a = c.args
    return f"{a[0]}, {addr(a[1])}, {a[2]}"

