"""Asynchronous I/O: Linux aio (io_setup ... io_pgetevents) and io_uring (setup, enter,
register), as strace 6.1's ``aio.c`` and ``io_uring.c`` print them.

An aio context id is printed as an address (it is one, in the tracee).  io_uring_setup
prints the caller's parameters at entry and what the kernel filled in at exit.
"""

from __future__ import annotations

import struct
from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    addr,
    print_array,
    signed,
    xlat,
)
from pytrace.decode.process import affinity
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.sched import ioprio_value, iov_addrs
from pytrace.decode.signal import sigset_at
from pytrace.decode.time import timespec_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


def hx(value: int) -> str:
    return f"{value:#x}" if value else "0"


# ---------------------------------------------------------------- Linux aio

# struct iocb: data, key, rw_flags, opcode(u16), reqprio(s16), fildes(u32), buf, nbytes, offset, reserved2,
# flags(u32), resfd(u32)
_IOCB = struct.Struct("<QIiHhIQQqQII")
_IO_EVENT = struct.Struct("<QQqq")
_IOCB_FLAG_RESFD, _IOCB_FLAG_IOPRIO = 1, 2
_SUB_COMMON = (0, 1)  # PREAD, PWRITE
_SUB_VECTOR = (7, 8)  # PREADV, PWRITEV
_SUB_POLL = 5
_PWRITE, _PWRITEV = 1, 8


@syscall("io_setup")
def io_setup(p: Printer, c: Call) -> Generator[str, None, None]:
    yield p.head((f"{c.args[0] & _U32}",))
    yield p.umove(c, c.args[1], p.lay.ULONG, lambda v: f"[{addr(v)}]")


@syscall("io_destroy")
def io_destroy(p: Printer, c: Call) -> str:
    return addr(c.args[0])


def _iocb_header(p: Printer, c: Call, cb: tuple[int, ...]) -> str:
    data, key, rw_flags, opcode, reqprio, fildes, _buf, _nbytes, _off, _res2, aflags, _resfd = cb
    out = [f"aio_data={hx(data)}"]
    if key:
        out.append(f"aio_key={key}")
    if rw_flags:
        out.append(f"aio_rw_flags={p.flags(rw_flags & _U32, X.AIO_RW_FLAGS, 'RWF_???')}")
    out.append(f"aio_lio_opcode={p.xval(opcode, X.AIO_CMDS, 'IOCB_CMD_???', 'u')}")
    if aflags & _IOCB_FLAG_IOPRIO:
        out.append(f"aio_reqprio={ioprio_value(p, reqprio & 0xFFFF)}")
    elif reqprio:
        out.append(f"aio_reqprio={reqprio}")
    out.append(f"aio_fildes={p.fd(c, fildes)}")
    return ", ".join(out)


def _common_flags(p: Printer, c: Call, aflags: int, resfd: int) -> str:
    text = ""
    if aflags:
        text += p.tail((f"aio_flags={p.flags(aflags, X.AIO_IOCB_FLAGS, 'IOCB_FLAG_???')}",))
    if aflags & _IOCB_FLAG_RESFD:
        text += p.tail((f"aio_resfd={p.fd(c, resfd)}",))
    elif resfd:
        text += p.tail((f"aio_resfd={hx(resfd)}",))
    return text


def _iocb(p: Printer, c: Call, raw: bytes) -> str:
    cb = _IOCB.unpack(raw)
    opcode, buf, nbytes, offset, aflags, resfd = cb[3], cb[6], cb[7], cb[8], cb[10], cb[11]
    text = "{" + _iocb_header(p, c, cb)
    valid = nbytes < (1 << 63)
    if opcode in _SUB_COMMON:
        text += p.tail((f"aio_buf={p.string_at(c, buf, nbytes) if opcode == _PWRITE and valid else hx(buf)}",))
        text += p.tail((f"aio_nbytes={nbytes}", f"aio_offset={offset}{_common_flags(p, c, aflags, resfd)}"))
    elif opcode in _SUB_VECTOR:
        if valid:
            vec = iovec_array(p, c, buf, nbytes, None) if opcode == _PWRITEV else iov_addrs(p, c, buf, nbytes)
            text += p.tail((f"aio_buf={vec}",))
        else:
            text += p.tail((f"aio_buf={hx(buf)}", f"aio_nbytes={nbytes}"))
        text += p.tail((f"aio_offset={offset}{_common_flags(p, c, aflags, resfd)}",))
    elif opcode == _SUB_POLL:
        text += p.tail((f"aio_buf={p.flags(buf, X.POLL_EVENTS, 'POLL???')}{_common_flags(p, c, aflags, resfd)}",))
    return text + "}"


#: io_submit's array of iocb pointers, io_setup's aio_context_t: 4 bytes in an i386 tracee (decode/i386.py).


@syscall("io_submit")
def io_submit(p: Printer, c: Call) -> str:
    a = c.args
    nr = signed(a[1], 64)

    def element(raw: bytes) -> str:
        cb_addr = int.from_bytes(raw, "little")
        return p.umove(c, cb_addr, _IOCB.size, lambda data: _iocb(p, c, data), ignore_error=True)

    iocbs = addr(a[2]) if nr < 0 else print_array(p, c, a[2], nr, p.lay.PTR_SIZE, element)
    return p.args((addr(a[0]), f"{nr}", f"{iocbs}"))


def _io_event(raw: bytes) -> str:
    data, obj, res, res2 = _IO_EVENT.unpack(raw)
    return f"{{data={hx(data)}, obj={hx(obj)}, res={res}, res2={res2}}}"


@syscall("io_cancel")
def io_cancel(p: Printer, c: Call) -> Generator[str, None, None]:
    a = c.args
    head = p.umove(c, a[1], _IOCB.size, lambda raw: "{" + _iocb_header(p, c, _IOCB.unpack(raw)) + "}")
    yield p.head((addr(a[0]), f"{head}"))
    yield p.umove(c, a[2], _IO_EVENT.size, _io_event)


def _getevents(p: Printer, c: Call, with_sigset: bool) -> Generator[str, None, None]:
    a = c.args
    yield p.head((addr(a[0]), f"{signed(a[1], 64)}", f"{signed(a[2], 64)}"))
    events = addr(a[3]) if c.failed else print_array(p, c, a[3], c.rval, _IO_EVENT.size, _io_event)
    text = p.args((f"{events}", timespec_at(p, c, a[4])))
    if with_sigset:
        text += p.tail((_kernel_sigset(p, c, a[5]),))
    yield text


def _kernel_sigset(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, 16, True)
    if data is None:
        return addr(address)
    ss, size = struct.unpack("<QQ", data)
    return p.struct((('sigmask', sigset_at(p, c, ss, size)), ('sigsetsize', f"{size}")))


@syscall("io_getevents")
def io_getevents(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _getevents(p, c, False)


@syscall("io_pgetevents")
def io_pgetevents(p: Printer, c: Call) -> Generator[str, None, None]:
    yield from _getevents(p, c, True)


# ---------------------------------------------------------------- io_uring

# struct io_uring_params: sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle, features, wq_fd, resv[3],
# then sq_off (7 u32 + resv1 u32 + user_addr u64) and cq_off (7 u32 + resv1 u32 + user_addr u64).
_PARAMS = struct.Struct("<10I8IQ8IQ")
_IORING_SETUP_ATTACH_WQ = 0x20


def _sq_off(v: tuple[int, ...]) -> str:
    head, tail, mask, entries, fl, dropped, array, resv1 = v
    text = (f"{{head={head}, tail={tail}, ring_mask={mask}, ring_entries={entries}, flags={fl}, "
            f"dropped={dropped}, array={array}")
    return text + (f", resv1={hx(resv1)}}}" if resv1 else "}")


def _cq_off(v: tuple[int, ...]) -> str:
    head, tail, mask, entries, overflow, cqes, fl, resv1 = v
    text = (f"{{head={head}, tail={tail}, ring_mask={mask}, ring_entries={entries}, overflow={overflow}, "
            f"cqes={cqes}, flags={fl}")
    return text + (f", resv1={hx(resv1)}}}" if resv1 else "}")


@syscall("io_uring_setup", rval=rv_fd)
def io_uring_setup(p: Printer, c: Call) -> Generator[str, None, None]:
    entries, address = c.args[0] & _U32, c.args[1]
    data = p.fetch(c, address, _PARAMS.size, True)
    if data is None:
        yield p.args((f"{entries}", addr(address)))
        yield ""
        return
    params = _PARAMS.unpack(data)
    text = (f"{entries}, {{flags={p.flags(params[2], X.IORING_SETUP_FLAGS, 'IORING_SETUP_???')}, "
            f"sq_thread_cpu={hx(params[3])}, sq_thread_idle={params[4]}")
    if params[2] & _IORING_SETUP_ATTACH_WQ:
        text += p.tail((f"wq_fd={p.fd(c, params[6])}",))
    if any(params[7:10]):
        text += ", resv=[" + ", ".join(hx(r) for r in params[7:10]) + "]"
    yield text
    after = None if c.failed else c.mem.read(address, _PARAMS.size)
    if after is None:
        yield "}"
        return
    q = _PARAMS.unpack(after)
    yield (f", sq_entries={q[0]}, cq_entries={q[1]}, "
           f"features={p.flags(q[5], X.IORING_FEATURES, 'IORING_FEAT_???')}, "
           f"sq_off={_sq_off(q[10:18])}, cq_off={_cq_off(q[19:27])}}}")


@syscall("io_uring_enter")
def io_uring_enter(p: Printer, c: Call) -> str:
    a = c.args
    return (p.args((p.fd(c, a[0]), f"{a[1] & _U32}", f"{a[2] & _U32}", p.flags(a[3] & _U32, X.IORING_ENTER_FLAGS, 'IORING_ENTER_???'), sigset_at(p, c, a[4], a[5]), f"{a[5]}")))


_REG = {name: value for value, name in X.IORING_REGISTER_OPS}
_RES = {name: value for value, name in X.IORING_RESTRICTION_OPCODES}
_INT = struct.Struct("<i")
_FILES_UPDATE = struct.Struct("<IIQ")
_PROBE_HEAD = struct.Struct("<BBH3I")
_PROBE_OP = struct.Struct("<BBHI")
_RESTRICTION = struct.Struct("<HBB3I")
_RSRC_UPDATE = struct.Struct("<IIQ")
_RSRC_REGISTER = struct.Struct("<IIQQQ")
_RSRC_UPDATE2 = struct.Struct("<IIQQII")
_BUF_REG = struct.Struct("<QIHH3Q")
_PROBE_MAX_OPS = 256


def _fd_member(p: Printer, c: Call) -> Callable[[bytes], str]:
    return lambda raw: p.fd(c, _INT.unpack(raw)[0])


def _files_update_member(p: Printer, c: Call) -> Callable[[bytes], str]:
    """print_files_update_array_member: IORING_REGISTER_FILES_SKIP and other specials below -1 by name."""
    def show(raw: bytes) -> str:
        value = _INT.unpack(raw)[0]
        if value < -1:
            name = xlat(value, X.IORING_FILES_UPDATE_FDS)
            return str(value) if name is None else p.print_xlat(value & _U32, name, "int")
        return p.fd(c, value)

    return show


def _xint_list(p: Printer, values: tuple[int, ...] | list[int]) -> str:
    """PRINT_FIELD_ARRAY with print_xint_array_member: cut after -s elements unless -v."""
    shown = len(values) if p.opts.verbose else min(len(values), p.opts.max_strlen)
    return "[" + ", ".join([hx(v) for v in values[:shown]] + (["..."] if shown < len(values) else [])) + "]"


def _files_update(p: Printer, c: Call, address: int, nargs: int) -> str:
    def show(offset: int, resv: int, fds: int) -> str:
        text = f"{{offset={offset}" + (p.tail((f"resv={hx(resv)}",)) if resv else "")
        return f"{text}, fds={print_array(p, c, fds, nargs, 4, _files_update_member(p, c))}}}"

    return p.umove(c, address, _FILES_UPDATE, show)


def _probe_op(p: Printer, raw: bytes) -> str:
    op, resv, fl, resv2 = _PROBE_OP.unpack(raw)
    text = f"{{op={p.xval(op, X.IORING_OPS, 'IORING_OP_???', 'u')}" + (p.tail((f"resv={hx(resv)}",)) if resv else "")
    text += p.tail((f"flags={p.flags(fl, X.IORING_OP_FLAGS, 'IO_URING_OP_???')}",))
    return text + (p.tail((f"resv2={hx(resv2)}",)) if resv2 else "") + "}"


def _probe_text(p: Printer, c: Call, data: bytes, nargs: int) -> str:
    last_op, ops_len, resv, *resv2 = _PROBE_HEAD.unpack_from(data)
    text = f"{{last_op={p.xval(last_op, X.IORING_OPS, 'IORING_OP_???', 'u')}, ops_len={ops_len}"
    if resv:
        text += p.tail((f"resv={hx(resv)}",))
    if any(resv2):
        text += p.tail((f"resv2={_xint_list(p, resv2)}",))
    count = min(ops_len, nargs) if c.exited else nargs
    shown = count if p.opts.verbose or count <= p.opts.max_strlen else p.opts.max_strlen
    ops = [_probe_op(p, data[16 + 8 * i:24 + 8 * i]) for i in range(shown)]
    if shown < count or (c.exited and nargs < ops_len):
        ops.append("...")
    return f"{text}, ops=[{', '.join(ops)}]}}"


def _probe(p: Printer, c: Call, address: int, nargs: int) -> Generator[str, None, None]:
    """print_io_uring_probe: printed at entry unless the buffer is all zeroes, and at exit (`` => `` if both)."""
    size = 16 + 8 * nargs
    data = p.fetch(c, address, size) if nargs <= _PROBE_MAX_OPS else None
    if data is None or len(data) < size:
        yield p.args((addr(address), f"{nargs}"))
        yield ""
        return
    printed = any(data)
    yield _probe_text(p, c, data, nargs) if printed else ""
    if c.failed:
        yield ("" if printed else addr(address)) + p.tail((f"{nargs}",))
        return
    data = p.fetch(c, address, size)
    if data is None or len(data) < size:
        yield (" => " if printed else "") + p.args((addr(address), f"{nargs}"))
        return
    yield (" => " if printed else "") + p.args((_probe_text(p, c, data, nargs), f"{nargs}"))


def _restriction(p: Printer, raw: bytes) -> str:
    opcode, op, resv, *resv2 = _RESTRICTION.unpack(raw)
    text = f"{{opcode={p.xval(opcode, X.IORING_RESTRICTION_OPCODES, 'IORING_RESTRICTION_???')}"
    if opcode == _RES["IORING_RESTRICTION_REGISTER_OP"]:
        text += p.tail((f"register_op={p.xval(op, X.IORING_REGISTER_OPS, 'IORING_REGISTER_???')}",))
    elif opcode == _RES["IORING_RESTRICTION_SQE_OP"]:
        text += p.tail((f"sqe_op={p.xval(op, X.IORING_OPS, 'IORING_OP_???')}",))
    elif opcode in (_RES["IORING_RESTRICTION_SQE_FLAGS_ALLOWED"], _RES["IORING_RESTRICTION_SQE_FLAGS_REQUIRED"]):
        text += p.tail((f"sqe_flags={p.flags(op, X.IORING_SQE_FLAGS, 'IOSQE_???')}",))
    else:
        text += f" /* op: {hx(op)} */"
    if resv:
        text += p.tail((f"resv={hx(resv)}",))
    if any(resv2):
        text += p.tail((f"resv2={_xint_list(p, resv2)}",))
    return text + "}"


def _iowq_acct(p: Printer, c: Call, address: int, nargs: int) -> str | None:
    """print_io_uring_iowq_acct: ``[[IO_WQ_BOUND]=N, ...]``, or None when the array cannot be read."""
    if c.exited and c.failed:
        return None
    index = iter(range(nargs))

    def show(raw: bytes) -> str:
        return f"[{p.xval(next(index), X.IORING_IOWQ_ACCT, 'IO_WQ_???', 'u')}]={int.from_bytes(raw, 'little')}"

    text = print_array(p, c, address, nargs, 4, show)
    return text if text.startswith("[") else None


def _ringfd_register(p: Printer, c: Call) -> Callable[[bytes], str]:
    def show(raw: bytes) -> str:
        offset, resv, data = _RSRC_UPDATE.unpack(raw)
        text = "{offset=-1" if offset == _U32 else f"{{offset={offset}"
        text += p.tail((f"resv={hx(resv)}",)) if resv else ""
        return f"{text}, data={p.fd(c, signed(data, 32))}}}"

    return show


def _ringfd_unregister(raw: bytes) -> str:
    offset, resv, data = _RSRC_UPDATE.unpack(raw)
    return (f"{{offset={offset}" + (f", resv={hx(resv)}" if resv else "")
            + (f", data={hx(data)}" if data else "") + "}")


def _rsrc_data(p: Printer, c: Call, data: int, nr: int, op: int) -> str:
    """print_io_uring_rsrc_data: the registered files or buffers."""
    if op == _REG["IORING_REGISTER_FILES2"]:
        return p.tail((f"data={print_array(p, c, data, nr, 4, _fd_member(p, c))}",))
    if op == _REG["IORING_REGISTER_FILES_UPDATE2"]:
        return p.tail((f"data={print_array(p, c, data, nr, 4, _files_update_member(p, c))}",))
    return p.tail((f"data={iov_addrs(p, c, data, nr)}",))


def _rsrc_tags(p: Printer, c: Call, tags: int, nr: int) -> str:
    return p.tail((f"tags={print_array(p, c, tags, nr, 8, lambda raw: hx(int.from_bytes(raw, 'little')))}",))


def _rsrc_register(p: Printer, c: Call, address: int, size: int, op: int) -> str:
    if size < _RSRC_REGISTER.size:
        return addr(address)

    def show(nr: int, fl: int, resv2: int, data: int, tags: int) -> str:
        text = f"{{nr={nr}, flags={p.flags(fl, X.IORING_RSRC_REGISTER_FLAGS, 'IORING_RSRC_REGISTER_???')}"
        text += p.tail((f"resv2={hx(resv2)}",)) if resv2 else ""
        return text + _rsrc_data(p, c, data, nr, op) + _rsrc_tags(p, c, tags, nr) + _nonzero_tail(p, c, address, size) + "}"

    return p.umove(c, address, _RSRC_REGISTER, show)


def _rsrc_update(p: Printer, c: Call, address: int, size: int, op: int) -> str:
    if size < _RSRC_UPDATE2.size:
        return addr(address)

    def show(offset: int, resv: int, data: int, tags: int, nr: int, resv2: int) -> str:
        text = f"{{offset={offset}" + (p.tail((f"resv={hx(resv)}",)) if resv else "")
        text += _rsrc_data(p, c, data, nr, op) + _rsrc_tags(p, c, tags, nr) + p.tail((f"nr={nr}",))
        text += p.tail((f"resv2={hx(resv2)}",)) if resv2 else ""
        return text + _nonzero_tail(p, c, address, size) + "}"

    return p.umove(c, address, _RSRC_UPDATE2, show)


def _nonzero_tail(p: Printer, c: Call, address: int, size: int) -> str:
    """print_nonzero_bytes: bytes past the 32 strace knows, shown only when some are not zero."""
    if size <= 32:
        return ""
    end = min(size, 4096)
    data = p.fetch(c, address + 32, end - 32)
    if data is None:
        return ", ???"
    if not any(data):
        return ""
    return p.tail((f"/* bytes 32..{end - 1} */ {p.string_at(c, address + 32, end - 32, force_hex=True)}",))


def _buf_reg(p: Printer, c: Call, address: int) -> str:
    def show(ring_addr: int, entries: int, bgid: int, pad: int, *resv: int) -> str:
        text = f"{{ring_addr={addr(ring_addr)}, ring_entries={entries}, bgid={bgid}"
        text += p.tail((f"pad={hx(pad)}",)) if pad else ""
        text += p.tail((f"resv={_xint_list(p, resv)}",)) if any(resv) else ""
        return text + "}"

    return p.umove(c, address, _BUF_REG, show)


@syscall("io_uring_register")
def io_uring_register(p: Printer, c: Call) -> Generator[str, None, None]:
    """SYS_FUNC(io_uring_register): each opcode's argument; PROBE and IOWQ_MAX_WORKERS also at exit."""
    a = c.args
    op = a[1] & _U32
    nargs = a[3] & _U32
    arg = a[2]
    head = p.head((p.fd(c, signed(a[0], 32)), p.xval(op, X.IORING_REGISTER_OPS, 'IORING_REGISTER_???')))
    if op == _REG["IORING_REGISTER_PROBE"]:
        probe = _probe(p, c, arg, nargs)
        yield head + next(probe)
        yield next(probe)
        return
    if op == _REG["IORING_REGISTER_IOWQ_MAX_WORKERS"]:
        before = _iowq_acct(p, c, arg, nargs)
        if before is None:
            yield p.args((f"{head}{addr(arg)}", f"{nargs}"))
            yield ""
            return
        if before == "[]" or before.endswith("*/]"):
            # print_array_ex returned false (empty, or unreadable part way): RVAL_DECODED, no exit part.
            yield p.args((f"{head}{before}", f"{nargs}"))
            yield ""
            return
        yield f"{head}{before} => "
        after = _iowq_acct(p, c, arg, nargs)
        yield p.args((f"{addr(arg) if after is None else after}", f"{nargs}"))
        return
    if op in (_REG["IORING_REGISTER_FILES"], _REG["IORING_REGISTER_EVENTFD"], _REG["IORING_REGISTER_EVENTFD_ASYNC"]):
        arg_text = print_array(p, c, arg, nargs, 4, _fd_member(p, c))
    elif op == _REG["IORING_REGISTER_BUFFERS"]:
        arg_text = iov_addrs(p, c, arg, nargs)
    elif op == _REG["IORING_REGISTER_FILES_UPDATE"]:
        arg_text = _files_update(p, c, arg, nargs)
    elif op == _REG["IORING_REGISTER_RESTRICTIONS"]:
        arg_text = print_array(p, c, arg, nargs, _RESTRICTION.size, partial(_restriction, p))
    elif op in (_REG["IORING_REGISTER_FILES2"], _REG["IORING_REGISTER_BUFFERS2"]):
        arg_text = _rsrc_register(p, c, arg, nargs, op)
    elif op in (_REG["IORING_REGISTER_FILES_UPDATE2"], _REG["IORING_REGISTER_BUFFERS_UPDATE"]):
        arg_text = _rsrc_update(p, c, arg, nargs, op)
    elif op == _REG["IORING_REGISTER_IOWQ_AFF"]:
        arg_text = affinity(p, c, arg, nargs) if p.verbose(c) else addr(arg)  # print_affinitylist's umove
    elif op == _REG["IORING_REGISTER_RING_FDS"]:
        arg_text = print_array(p, c, arg, nargs, _RSRC_UPDATE.size, _ringfd_register(p, c))
    elif op == _REG["IORING_UNREGISTER_RING_FDS"]:
        arg_text = print_array(p, c, arg, nargs, _RSRC_UPDATE.size, _ringfd_unregister)
    elif op in (_REG["IORING_REGISTER_PBUF_RING"], _REG["IORING_UNREGISTER_PBUF_RING"]):
        arg_text = _buf_reg(p, c, arg)
    else:
        arg_text = addr(arg)
    yield p.args((f"{head}{arg_text}", f"{nargs}"))
    yield ""
