"""The kernel key retention calls: add_key, request_key and keyctl with its commands, as
strace 6.1 prints them (``keyctl.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    addr,
    print_array,
    signed,
    xlat,
)
from pytrace.decode.registry import syscall
from pytrace.decode.time import hx
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def key_serial(p: Printer, value: int) -> str:
    """print_keyring_serial_number: a KEY_SPEC_* name or the signed serial."""
    v = signed(value, 32)
    name = xlat(v, X.KEY_SPECS)
    return p.print_xlat(v, name, "int") if name is not None else str(v)


@syscall("add_key")
def add_key(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.cstring(c, a[0]), p.cstring(c, a[1]), p.string_at(c, a[2], a[3]), f"{a[3]}", key_serial(p, a[4]))))


@syscall("request_key")
def request_key(p: Printer, c: Call) -> str:
    a = c.args
    return p.args((p.cstring(c, a[0]), p.cstring(c, a[1]), p.cstring(c, a[2]), key_serial(p, a[3])))


_KC = {name: value for value, name in X.KEYCTL_CMDS}


def _str_omit_trailing_nul(p: Printer, c: Call, address: int, length: int) -> str:
    """printstr_ex(..., QUOTE_OMIT_TRAILING_0): the descriptions end with a NUL strace leaves out."""
    n = min(length, p.opts.max_strlen)
    data = c.mem.read(address, n) if address and n else b""
    if data is None or not address:
        return addr(address)
    if data and data[-1] == 0:
        data = data[:-1]
    return p.quote(data) + ("..." if length > p.opts.max_strlen else "")


def _uid(value: int) -> str:
    """printuid: ``-1`` for the "unchanged" id, otherwise unsigned."""
    value &= _U32
    return "-1" if value == _U32 else str(value)


def _err_name(p: Printer, err: int) -> str:
    """print_err(error, false): the errno name (styled like a constant), else the number."""
    name = X.ERRNO_NAMES.get(err)
    return str(err) if name is None else p.print_xlat(err, name, "u")


def _iov_str(p: Printer, c: Call, address: int, count: int) -> str:
    """tprint_iov with iov_decode_str: each buffer as a string of its length."""
    return iovec_array(p, c, address, count, None)


def _xint_array(p: Printer, values: tuple[int, ...]) -> str:
    """PRINT_FIELD_ARRAY with print_xint_array_member: hex items, cut after -s items unless -v."""
    limit = len(values) if p.opts.verbose else min(len(values), p.opts.max_strlen)
    items = [hx(v) for v in values[:limit]]
    if limit < len(values):
        items.append("...")
    return "[" + ", ".join(items) + "]"


def _spare(p: Printer, values: tuple[int, ...]) -> str:
    """The ``, __spare=[...]`` tail strace adds only when a reserved field is non-zero."""
    return p.tail((f"__spare={_xint_array(p, values)}",)) if any(values) else ""


def _dh_params(p: Printer, c: Call, address: int) -> str:
    """print_dh_params: struct keyctl_dh_params {private, prime, base} key serials."""
    data = p.fetch(c, address, 12)
    if data is None:
        return addr(address)
    private, prime, base = struct.unpack("<iii", data)
    return p.struct((('private', key_serial(p, private)), ('prime', key_serial(p, prime)), ('base', key_serial(p, base))))


def _kdf_params(p: Printer, c: Call, address: int) -> str:
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
    info = p.string_at(c, otherinfo, otherinfolen) if otherinfolen else addr(otherinfo)
    return (p.struct((('hashname', p.cstring(c, hashname)), ('otherinfo', f"{info}"), ('otherinfolen', f"{otherinfolen}{_spare(p, spare)}"))))


def _pkey_query(p: Printer, c: Call, address: int) -> str:
    """print_pkey_query: struct keyctl_pkey_query, read at exit."""
    data = p.fetch(c, address, 56)
    if data is None:
        return addr(address)
    ops, key_size, max_data, max_sig, max_enc, max_dec = struct.unpack_from("<IIHHHH", data)
    return (p.struct((('supported_ops', p.flags(ops, X.KEYCTL_PKEY_OPS, 'KEYCTL_SUPPORTS_???')), ('key_size', f"{key_size}"), ('max_data_size', f"{max_data}"), ('max_sig_size', f"{max_sig}"), ('max_enc_size', f"{max_enc}"), ('max_dec_size', f"{max_dec}{_spare(p, struct.unpack_from('<10I', data, 16))}"))))


def _pkey_params(p: Printer, c: Call, address: int, out: bool) -> tuple[str, tuple[int, int] | None]:
    """fetch_print_pkey_params: the text and (in_len, out_len or in2_len), None if unreadable."""
    data = p.fetch(c, address, 40)
    if data is None:
        return addr(address), None
    key_id, in_len, len2 = struct.unpack_from("<iII", data)
    text = (f"{{key_id={key_serial(p, key_id)}, in_len={in_len}, {'out_len' if out else 'in2_len'}={len2}"
            f"{_spare(p, struct.unpack_from('<7I', data, 12))}}}")
    return text, (in_len, len2)


def _keyctl_pkey_op(p: Printer, c: Call, head: str, out: bool) -> Generator[str, None, None]:
    """keyctl_pkey_op: ENCRYPT/DECRYPT/SIGN print the output buffer (out_len bytes) at exit."""
    a = c.args
    params, lens = _pkey_params(p, c, a[1], out)
    text = p.head((f"{head}", f"{params}", p.cstring(c, a[2])))
    text += p.string_at(c, a[3], lens[0]) if lens else addr(a[3])
    if not out or lens is None:
        yield p.args((f"{text}", f"{p.string_at(c, a[4], lens[1]) if lens else addr(a[4])}"))
        yield ""
        return
    yield p.head((f"{text}",))
    yield addr(a[4]) if c.failed else p.string_at(c, a[4], lens[1])


def _keyctl_caps(p: Printer, c: Call, address: int, length: int) -> str:
    """keyctl_capabilities: the result bytes, the first two as KEYCTL_CAPS0/1 flags."""
    pos = [0]
    tables = ((X.KEYCTL_CAPS0, "KEYCTL_CAPS0_???"), (X.KEYCTL_CAPS1, "KEYCTL_CAPS1_???"))

    def element(raw: bytes) -> str:
        i = pos[0]
        pos[0] += 1
        return p.flags(raw[0], *tables[i]) if i < len(tables) else hx(raw[0])

    return print_array(p, c, address, length, 1, element)


def _keyctl_dh_compute(p: Printer, c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield p.head((f"{head}", _dh_params(p, c, a[1])))
    buf = addr(a[2]) if c.failed else p.string_at(c, a[2], min(c.rval, a[3]))
    yield p.args((f"{buf}", f"{a[3]}", _kdf_params(p, c, a[4])))


def _keyctl_pkey_query(p: Printer, c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield p.head((f"{head}", key_serial(p, a[1]), hx(a[2]), p.cstring(c, a[3])))
    yield _pkey_query(p, c, a[4])


def _keyctl_capabilities(p: Printer, c: Call, head: str) -> Generator[str, None, None]:
    a = c.args
    yield p.head((f"{head}",))
    buf = addr(a[1]) if c.failed else _keyctl_caps(p, c, a[1], min(a[2], c.rval))
    yield p.args((f"{buf}", f"{a[2]}"))


def _keyctl_read_buffer(trim_nul: bool) -> Callable[[Call, str], Generator[str, None, None]]:
    """DESCRIBE/GET_SECURITY return NUL-terminated text strace prints without the NUL; READ raw bytes."""
    def printer(p: Printer, c: Call, head: str) -> Generator[str, None, None]:
        a = c.args
        yield p.head((f"{head}", key_serial(p, a[1])))
        length = min(c.rval, a[3])
        if c.failed:
            buf = addr(a[2])
        elif trim_nul:
            buf = _str_omit_trailing_nul(p, c, a[2], length)
        else:
            buf = p.string_at(c, a[2], length)
        yield p.args((f"{buf}", f"{a[3]}"))
    return printer


# Commands whose arguments are all known at entry: the text after the command name.
_KEYCTL_AT_ENTRY: dict[str, Callable[[Call, tuple[int, ...]], str]] = {
    "KEYCTL_GET_KEYRING_ID": lambda p, c, a: p.args((key_serial(p, a[1]), f"{signed(a[2], 32)}")),
    "KEYCTL_JOIN_SESSION_KEYRING": lambda p, c, a: p.cstring(c, a[1]),
    "KEYCTL_UPDATE": lambda p, c, a: p.args((key_serial(p, a[1]), p.string_at(c, a[2], a[3]), f"{a[3]}")),
    "KEYCTL_REVOKE": lambda p, c, a: key_serial(p, a[1]),
    "KEYCTL_CLEAR": lambda p, c, a: key_serial(p, a[1]),
    "KEYCTL_INVALIDATE": lambda p, c, a: key_serial(p, a[1]),
    "KEYCTL_ASSUME_AUTHORITY": lambda p, c, a: key_serial(p, a[1]),
    "KEYCTL_LINK": lambda p, c, a: p.args((key_serial(p, a[1]), key_serial(p, a[2]))),
    "KEYCTL_UNLINK": lambda p, c, a: p.args((key_serial(p, a[1]), key_serial(p, a[2]))),
    "KEYCTL_SET_TIMEOUT": lambda p, c, a: p.args((key_serial(p, a[1]), f"{a[2] & _U32}")),
    "KEYCTL_SEARCH": lambda p, c, a: (p.args((key_serial(p, a[1]), p.cstring(c, a[2]), p.cstring(c, a[3]), key_serial(p, a[4])))),
    "KEYCTL_CHOWN": lambda p, c, a: p.args((key_serial(p, a[1]), _uid(a[2]), _uid(a[3]))),
    "KEYCTL_SETPERM": lambda p, c, a: p.args((key_serial(p, a[1]), p.flags(a[2] & _U32, X.KEY_PERMS, 'KEY_???'))),
    "KEYCTL_INSTANTIATE": lambda p, c, a: (p.args((key_serial(p, a[1]), p.string_at(c, a[2], a[3]), f"{a[3]}", key_serial(p, a[4])))),
    "KEYCTL_INSTANTIATE_IOV": lambda p, c, a: (p.args((key_serial(p, a[1]), _iov_str(p, c, a[2], a[3]), f"{a[3]}", key_serial(p, a[4])))),
    "KEYCTL_NEGATE": lambda p, c, a: p.args((key_serial(p, a[1]), f"{a[2] & _U32}", key_serial(p, a[3]))),
    "KEYCTL_REJECT": lambda p, c, a: (p.args((key_serial(p, a[1]), f"{a[2] & _U32}", _err_name(p, a[3] & _U32), key_serial(p, a[4])))),
    "KEYCTL_SET_REQKEY_KEYRING": lambda p, c, a: p.xval(signed(a[1], 32), X.KEY_REQKEYS, "KEY_REQKEY_DEFL_???",
                                                   fmt="int"),
    "KEYCTL_GET_PERSISTENT": lambda p, c, a: p.args((_uid(a[1]), key_serial(p, a[2]))),
    "KEYCTL_RESTRICT_KEYRING": lambda p, c, a: p.args((key_serial(p, a[1]), p.cstring(c, a[2]), p.cstring(c, a[3]))),
    "KEYCTL_MOVE": lambda p, c, a: (p.args((key_serial(p, a[1]), key_serial(p, a[2]), key_serial(p, a[3]), p.flags(a[4] & _U32, X.KEYCTL_MOVE_FLAGS, 'KEYCTL_MOVE_???')))),
}

# Commands that fill a tracee buffer: generators yielding the entry text, then the exit text.
_KEYCTL_AT_EXIT: dict[str, Callable[[Call, str], Generator[str, None, None]]] = {
    "KEYCTL_DH_COMPUTE": _keyctl_dh_compute,
    "KEYCTL_PKEY_QUERY": _keyctl_pkey_query,
    "KEYCTL_PKEY_ENCRYPT": lambda p, c, head: _keyctl_pkey_op(p, c, head, True),
    "KEYCTL_PKEY_DECRYPT": lambda p, c, head: _keyctl_pkey_op(p, c, head, True),
    "KEYCTL_PKEY_SIGN": lambda p, c, head: _keyctl_pkey_op(p, c, head, True),
    "KEYCTL_PKEY_VERIFY": lambda p, c, head: _keyctl_pkey_op(p, c, head, False),
    "KEYCTL_CAPABILITIES": _keyctl_capabilities,
    "KEYCTL_DESCRIBE": _keyctl_read_buffer(trim_nul=True),
    "KEYCTL_GET_SECURITY": _keyctl_read_buffer(trim_nul=True),
    "KEYCTL_READ": _keyctl_read_buffer(trim_nul=False),
}
_KEYCTL_ENTRY_BY_CMD = {_KC[name]: printer for name, printer in _KEYCTL_AT_ENTRY.items()}
_KEYCTL_EXIT_BY_CMD = {_KC[name]: printer for name, printer in _KEYCTL_AT_EXIT.items()}
_KEYCTL_SESSION_TO_PARENT = _KC["KEYCTL_SESSION_TO_PARENT"]


@syscall("keyctl")
def keyctl(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    cmd = a[0] & _U32
    head = p.xval(cmd, X.KEYCTL_CMDS, "KEYCTL_???")
    at_exit = _KEYCTL_EXIT_BY_CMD.get(cmd)
    if at_exit is not None:
        yield from at_exit(p, c, head)
        return
    at_entry = _KEYCTL_ENTRY_BY_CMD.get(cmd)
    if at_entry is not None:
        yield p.args((f"{head}", f"{at_entry(p, c, a)}"))
    elif cmd == _KEYCTL_SESSION_TO_PARENT:
        yield head
    else:
        yield p.args((f"{head}", hx(a[1]), hx(a[2]), hx(a[3]), hx(a[4])))
    yield ""
