"""bpf(2) as strace 6.1 prints it (``bpf.c``): each command's ``union bpf_attr``, field group
by field group as far as the caller's size reaches, with the map, program, link and BTF commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytrace.decode.bpf_insns import ebpf_prog
from pytrace.decode.format import (
    addr,
    print_array,
)
from pytrace.decode.inet import ifindex as _ifindex
from pytrace.decode.registry import rv_dec, rv_fd, syscall
from pytrace.decode.time import hx
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


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

    __slots__ = ("p", "c", "raw", "len")

    def __init__(self, p: Printer, c: Call, data: bytes, struct_size: int) -> None:
        self.p = p
        self.c = c
        self.len = min(len(data), struct_size)
        self.raw = data[:struct_size].ljust(struct_size, b"\0")

    def u32(self, off: int) -> int:
        return int.from_bytes(self.raw[off:off + 4], "little")

    def u64(self, off: int) -> int:
        return int.from_bytes(self.raw[off:off + 8], "little")

    def fd(self, off: int) -> str:
        return self.p.fd(self.c, self.u32(off))

    def addr(self, off: int) -> str:
        return addr(self.u64(off))


def _bpf_str(p: Printer, c: Call, address: int, length: int) -> str:
    """printstr_ex(..., QUOTE_0_TERMINATED): up to ``length`` bytes, ending at a NUL."""
    if not address:
        return "NULL"
    n = min(length, p.opts.max_strlen)
    got = c.mem.read_cstring(address, n) if n else (b"", True)
    if got is None:
        data = c.mem.read(address, n)  # no NUL but readable within n: umovestr succeeds
        if data is None:
            return addr(address)
        got = (data, False)
    data, terminated = got
    return p.quote(data) + ("..." if not terminated and length else "")


def _kernel_version(p: Printer, v: int) -> str:
    """print_kernel_version: styled like a constant (-X raw: the number, -X verbose: both)."""
    return p.print_xlat(v, f"KERNEL_VERSION({v >> 16}, {(v >> 8) & 0xFF}, {v & 0xFF})")


def _u32_array(p: Printer, c: Call, address: int, count: int) -> str:
    return print_array(p, c, address, count, 4, lambda raw: str(int.from_bytes(raw, "little")))


def _bpf_map_create(p: Printer, a: _Attr) -> str:
    map_flags = a.u32(16)
    out = [f"map_type={p.xval(a.u32(0), X.BPF_MAP_TYPES, 'BPF_MAP_TYPE_???')}", f"key_size={a.u32(4)}",
           f"value_size={a.u32(8)}", f"max_entries={a.u32(12)}"]
    for offset, render in (
        (16, lambda: [f"map_flags={p.flags(map_flags, X.BPF_MAP_FLAGS, 'BPF_F_???')}"]),
        (20, lambda: [f"inner_map_fd={a.fd(20)}"]),
        (24, lambda: [f"numa_node={_numa_node(a.u32(24))}"] if map_flags & _BPF_F_NUMA_NODE else []),
        (28, lambda: [f"map_name={_cstring_sz(p, a.raw[28:44], min(16, a.len - 28))}"]),
        (44, lambda: [f"map_ifindex={_ifindex(p, a.u32(44))}"]),
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


def _cstring_sz(p: Printer, raw: bytes, n: int) -> str:
    """PRINT_FIELD_CSTRING_SZ: print_quoted_cstring(field, n) shows at most n - 1 characters.

    It stops at a NUL; without one, ``...`` follows unless the n-th byte is the
    NUL (bytes past what the tracee passed are zero in strace's copy).
    """
    limit = max(n - 1, 0)
    head = raw[:limit]
    nul = head.find(b"\0")
    if nul >= 0:
        return p.quote(head[:nul])
    return p.quote(head) if raw[limit:limit + 1] in (b"", b"\0") else p.quote(head) + "..."


def _bpf_elem(p: Printer, a: _Attr, cmd: int) -> str:
    out = [f"map_fd={a.fd(0)}", f"key={a.addr(8)}"]
    if cmd == _BPF["BPF_MAP_DELETE_ELEM"]:
        return ", ".join(out)
    out.append(f"{'next_key' if cmd == _BPF['BPF_MAP_GET_NEXT_KEY'] else 'value'}={a.addr(16)}")
    if cmd == _BPF["BPF_MAP_UPDATE_ELEM"]:
        out.append(f"flags={p.xval(a.u64(24), X.BPF_MAP_UPDATE_FLAGS, 'BPF_???')}")
    elif cmd in (_BPF["BPF_MAP_LOOKUP_ELEM"], _BPF["BPF_MAP_LOOKUP_AND_DELETE_ELEM"]) and a.len > 24:
        out.append(f"flags={p.flags(a.u64(24), X.BPF_MAP_LOOKUP_FLAGS, 'BPF_???')}")
    return ", ".join(out)


def _bpf_prog_load(p: Printer, a: _Attr) -> str:
    c = a.c
    out = [f"prog_type={p.xval(a.u32(0), X.BPF_PROG_TYPES, 'BPF_PROG_TYPE_???')}", f"insn_cnt={a.u32(4)}",
           f"insns={ebpf_prog(p, c, a.u64(8), a.u32(4))}", f"license={p.cstring(c, a.u64(16))}"]
    for offset, render in (
        (24, lambda: [f"log_level={a.u32(24)}", f"log_size={a.u32(28)}",
                      f"log_buf={_bpf_str(p, c, a.u64(32), a.u32(28))}"]),
        (40, lambda: [f"kern_version={_kernel_version(p, a.u32(40))}"]),
        (44, lambda: [f"prog_flags={p.flags(a.u32(44), X.BPF_PROG_FLAGS, 'BPF_F_???')}"]),
        (48, lambda: [f"prog_name={_cstring_sz(p, a.raw[48:64], min(16, a.len - 48))}"]),
        (64, lambda: [f"prog_ifindex={_ifindex(p, a.u32(64))}"]),
        (68, lambda: [f"expected_attach_type={p.xval(a.u32(68), X.BPF_ATTACH_TYPES, 'BPF_???')}"]),
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


def _bpf_obj_pin(p: Printer, a: _Attr) -> str:
    text = p.args((f"pathname={p.path(a.c, a.u64(0))}", f"bpf_fd={a.fd(8)}"))
    if a.len > 12:
        text += p.tail((f"file_flags={p.flags(a.u32(12), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}",))
    return text


def _bpf_prog_attach(p: Printer, a: _Attr) -> str:
    text = (p.args((f"target_fd={a.fd(0)}", f"attach_bpf_fd={a.fd(4)}", f"attach_type={p.xval(a.u32(8), X.BPF_ATTACH_TYPES, 'BPF_???')}", f"attach_flags={p.flags(a.u32(12), X.BPF_ATTACH_FLAGS, 'BPF_F_???')}")))
    if a.len > 16:
        text += p.tail((f"replace_bpf_fd={a.fd(16)}",))
    return text


def _bpf_prog_detach(p: Printer, a: _Attr) -> str:
    return p.args((f"target_fd={a.fd(0)}", f"attach_type={p.xval(a.u32(8), X.BPF_ATTACH_TYPES, 'BPF_???')}"))


def _bpf_test_run(p: Printer, a: _Attr) -> str:
    out = [f"prog_fd={a.fd(0)}", f"retval={a.u32(4)}", f"data_size_in={a.u32(8)}",
           f"data_size_out={a.u32(12)}", f"data_in={a.addr(16)}", f"data_out={a.addr(24)}",
           f"repeat={a.u32(32)}", f"duration={a.u32(36)}"]
    if a.len > 40:
        out += [f"ctx_size_in={a.u32(40)}", f"ctx_size_out={a.u32(44)}", f"ctx_in={a.addr(48)}",
                f"ctx_out={a.addr(56)}"]
    if a.len > 64:
        out += [f"flags={p.flags(a.u32(64), X.BPF_TEST_RUN_FLAGS, 'BPF_F_???')}", f"cpu={a.u32(68)}"]
    if a.len > 72:
        out.append(f"batch_size={a.u32(72)}")
    return "test={" + ", ".join(out) + "}"


def _bpf_get_fd_by_id(p: Printer, a: _Attr, cmd: int) -> str:
    if cmd in (_BPF["BPF_BTF_GET_FD_BY_ID"], _BPF["BPF_LINK_GET_FD_BY_ID"]):
        return f"{'btf_id' if cmd == _BPF['BPF_BTF_GET_FD_BY_ID'] else 'link_id'}={a.u32(0)}"
    first = "prog_id" if cmd == _BPF["BPF_PROG_GET_FD_BY_ID"] else "map_id"
    text = p.args((f"{first}={a.u32(0)}", f"next_id={a.u32(4)}"))
    if a.len > 8:
        text += p.tail((f"open_flags={p.flags(a.u32(8), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}",))
    return text


def _bpf_raw_tp(p: Printer, a: _Attr) -> str:
    return f"raw_tracepoint={{name={_bpf_str(p, a.c, a.u64(0), 128)}, prog_fd={a.fd(8)}}}"


def _bpf_btf_load(p: Printer, a: _Attr) -> str:
    return (p.args((f"btf={p.string_at(a.c, a.u64(0), a.u32(16))}", f"btf_log_buf={a.addr(8)}", f"btf_size={a.u32(16)}", f"btf_log_size={a.u32(20)}", f"btf_log_level={a.u32(24)}")))


def _bpf_batch_entry(p: Printer, a: _Attr, cmd: int) -> str:
    out = []
    if cmd in (_BPF["BPF_MAP_LOOKUP_BATCH"], _BPF["BPF_MAP_LOOKUP_AND_DELETE_BATCH"]):
        out += [f"in_batch={a.addr(0)}", f"out_batch={a.addr(8)}"]
    out.append(f"keys={a.addr(16)}")
    if cmd != _BPF["BPF_MAP_DELETE_BATCH"]:
        out.append(f"values={a.addr(24)}")
    out += [f"count={a.u32(32)}", f"map_fd={a.fd(36)}",
            f"elem_flags={p.flags(a.u64(40), X.BPF_MAP_LOOKUP_FLAGS, 'BPF_???')}", f"flags={hx(a.u64(48))}"]
    return "batch={" + ", ".join(out) + "}"


def _bpf_link_create(p: Printer, a: _Attr) -> tuple[str, int]:
    """The text and the structure size strace then checks extra bytes against (per attach type)."""
    c = a.c
    atype = a.u32(8)
    out = [f"prog_fd={a.fd(0)}", f"target_fd={a.fd(4)}",
           f"attach_type={p.xval(atype, X.BPF_ATTACH_TYPES, 'BPF_???')}", f"flags={hx(a.u32(12))}"]
    size = 48
    if a.len > 16:
        if atype == 0:
            if a.u32(16):
                out.append(f"target_btf_id={a.u32(16)}")
            size = 20
        elif atype == _BPF_TRACE_ITER:
            info = print_array(p, c, a.u64(16), a.u32(24), 4,
                               lambda raw: p.struct((('map', p.struct((('map_fd', p.fd(c, int.from_bytes(raw, 'little'))),))),)))
            out += [f"iter_info={info}", f"iter_info_len={a.u32(24)}"]
            size = 28
        elif atype == _BPF_PERF_EVENT:
            out.append(f"perf_event={{bpf_cookie={hx(a.u64(16))}}}")
            size = 24
        elif atype == _BPF_TRACE_KPROBE_MULTI:
            cnt = a.u32(20)
            syms = print_array(p, c, a.u64(24), cnt, 8, lambda raw: p.cstring(c, int.from_bytes(raw, "little")))
            addrs = print_array(p, c, a.u64(32), cnt, 8, lambda raw: hx(int.from_bytes(raw, "little")))
            cookies = print_array(p, c, a.u64(40), cnt, 8, lambda raw: hx(int.from_bytes(raw, "little")))
            out.append(f"kprobe_multi={{flags={p.flags(a.u32(16), X.BPF_KPROBE_MULTI_FLAGS, 'BPF_F_???')}, "
                       f"cnt={cnt}, syms={syms}, addrs={addrs}, cookies={cookies}}}")
            size = 48
        else:
            size = 16
    return "link_create={" + ", ".join(out) + "}", size


def _bpf_link_update(p: Printer, a: _Attr) -> str:
    fl = a.u32(8)
    text = p.args((f"link_fd={a.fd(0)}", f"new_prog_fd={a.fd(4)}", f"flags={p.flags(fl, X.BPF_ATTACH_FLAGS, 'BPF_F_???')}"))
    if fl & _BPF_F_REPLACE:
        text += p.tail((f"old_prog_fd={a.fd(12)}",))
    return "link_update={" + text + "}"


def _extra_data(p: Printer, data: bytes, struct_size: int) -> str:
    """decode_attr_extra_data: ``, ...`` (``, extra_data=... /* bytes N..M */`` with -v) past the known end."""
    extra = data[struct_size:]
    if not any(extra):
        return ""
    if not p.opts.verbose:
        return ", ..."
    return p.tail((f"extra_data={p.quote(extra, force_hex=True)} /* bytes {struct_size}..{len(data) - 1} */",))


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
    _BPF["BPF_MAP_FREEZE"]: lambda p, a: f"map_fd={a.fd(0)}",
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


def _bpf_rv(p: Printer, c: Call) -> str:
    return rv_fd(p, c) if c.args[0] & _U32 in _BPF_FD_RESULT else rv_dec(p, c)


def _bpf_read(p: Printer, c: Call, address: int, size: int) -> bytes | None:
    """umoven_or_printaddr_ignore_syserror of the whole attribute (at entry and again at exit)."""
    return p.fetch(c, address, size, True)


@syscall("bpf", rval=_bpf_rv)
def bpf(p: Printer, c: Call) -> Generator[str, None, None]:
    """SYS_FUNC(bpf): the commands strace 6.1 has decoders for; others (and sizes of 0 or
    more than a page) print the attribute's address."""
    cmd = c.args[0] & _U32
    address, size = c.args[1], c.args[2] & _U32
    head = p.head((p.xval(cmd, X.BPF_COMMANDS, 'BPF_???'),))
    struct_size = _BPF_SIZE_BY_CMD.get(cmd)
    if struct_size is None or not 0 < size <= _PAGE_SIZE:
        yield p.args((f"{head}{addr(address)}", f"{size}"))
        yield ""
        return
    data = _bpf_read(p, c, address, size)
    if data is None:
        yield p.args((f"{head}{addr(address)}", f"{size}"))
        yield ""
        return
    a = _Attr(p, c, data, struct_size)
    simple = _BPF_SIMPLE.get(cmd)
    if simple is not None or cmd in _BPF_ELEM or cmd in _BPF_BY_ID or cmd == _BPF["BPF_LINK_CREATE"]:
        if simple is not None:
            body = simple(p, a)
        elif cmd in _BPF_ELEM:
            body = _bpf_elem(p, a, cmd)
        elif cmd in _BPF_BY_ID:
            body = _bpf_get_fd_by_id(p, a, cmd)
        else:
            body, struct_size = _bpf_link_create(p, a)
        yield p.args((f"{head}{{{body}{_extra_data(p, data, struct_size)}}}", f"{size}"))
        yield ""
        return
    yield from _bpf_with_exit(p, c, cmd, head, a, data, address, size, struct_size)


def _bpf_with_exit(p: Printer, c: Call, cmd: int, head: str, a: _Attr, data: bytes, address: int, size: int,
                   struct_size: int) -> Generator[str, None, None]:
    """The commands whose structure the kernel writes back: entry part, then what changed."""
    if cmd in _BPF_NEXT_ID:
        yield f"{head}{{start_id={a.u32(0)}, next_id={a.u32(4)}"
        b = _exit_attr(p, c, address, size, struct_size)
        if b is None:
            yield p.args(('{...}', f"{size}"))  # unreachable in practice: the entry read succeeded
            return
        text = f" => {b.u32(4)}" if b.u32(4) != a.u32(4) else ""
        if b.len > 8:
            text += p.tail((f"open_flags={p.flags(b.u32(8), X.BPF_FILE_MODE_FLAGS, 'BPF_F_???')}",))
        yield f"{text}{_extra_data(p, b.data, struct_size)}}}, {size}"
    elif cmd in _BPF_BATCH:
        yield f"{head}{{{_bpf_batch_entry(p, a, cmd)}{_extra_data(p, data, struct_size)}}}"
        b = _exit_attr(p, c, address, size, struct_size)
        changed = b is not None and b.u32(32) != a.u32(32)
        yield f"{f' => {{batch={{count={b.u32(32)}}}}}' if changed and b else ''}, {size}"
    elif cmd == _BPF["BPF_PROG_QUERY"]:
        yield (f"{head}{{query={{target_fd={a.fd(0)}, "
               f"attach_type={p.xval(a.u32(4), X.BPF_ATTACH_TYPES, 'BPF_???')}, "
               f"query_flags={p.flags(a.u32(8), X.BPF_QUERY_FLAGS, 'BPF_F_QUERY_???')}, "
               f"attach_flags={p.flags(a.u32(12), X.BPF_ATTACH_FLAGS, 'BPF_F_???')}, prog_ids=")
        b = _exit_attr(p, c, address, size, struct_size) or a
        cnt = b.u32(24)
        before = f"{a.u32(24)} => " if a.u32(24) != cnt else ""
        # print_array: NULL and an empty array first; tfetch_mem then reads nothing after an error.
        ids = addr(b.u64(16)) if c.failed and b.u64(16) and cnt else _u32_array(p, c, b.u64(16), cnt)
        yield (f"{ids}, prog_cnt={before}{cnt}}}"
               f"{_extra_data(p, b.data, struct_size)}}}, {size}")
    elif cmd == _BPF["BPF_TASK_FD_QUERY"]:
        yield (f"{head}{{task_fd_query={{pid={p.pid(a.u32(0))}, fd={a.fd(4)}, flags={a.u32(8)}, "
               f"buf_len={a.u32(12)}")
        b = _exit_attr(p, c, address, size, struct_size) or a
        buf_len = b.u32(12)
        text = f" => {buf_len}" if buf_len != a.u32(12) else ""
        yield (f"{text}, buf={_bpf_str(p, c, b.u64(16), min(a.u32(12), buf_len))}, prog_id={b.u32(24)}, "
               f"fd_type={p.xval(b.u32(28), X.BPF_TASK_FD_TYPES, 'BPF_FD_TYPE_???')}, "
               f"probe_offset={hx(b.u64(32))}, probe_addr={hx(b.u64(40))}}}"
               f"{_extra_data(p, b.data, struct_size)}}}, {size}")
    else:  # BPF_OBJ_GET_INFO_BY_FD
        yield f"{head}{{info={{bpf_fd={a.fd(0)}, info_len={a.u32(4)}"
        b = _exit_attr(p, c, address, size, struct_size) or a
        text = f" => {b.u32(4)}" if b.u32(4) != a.u32(4) else ""  # tprint_value_changed
        yield f"{text}, info={addr(b.u64(8))}}}{_extra_data(p, b.data, struct_size)}}}, {size}"


class _ExitAttr(_Attr):
    __slots__ = ("data",)


def _exit_attr(p: Printer, c: Call, address: int, size: int, struct_size: int) -> _ExitAttr | None:
    data = _bpf_read(p, c, address, size)
    if data is None:
        return None
    b = _ExitAttr(p, c, data, struct_size)
    b.data = data
    return b
