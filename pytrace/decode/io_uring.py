"""Asynchronous I/O: Linux aio (io_setup ... io_pgetevents) and io_uring (setup, enter,
register), as strace 6.1's ``aio.c`` and ``io_uring.c`` print them.

An aio context id is printed as an address (it is one, in the tracee).  io_uring_setup
prints the caller's parameters at entry and what the kernel filled in at exit.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.desc import iovec_array
from pytrace.decode.format import (
    addr,
    fd,
    fetch,
    flags,
    signed,
    string_at,
    umove,
    xval,
)
from pytrace.decode.poll import print_array
from pytrace.decode.registry import rv_fd, syscall
from pytrace.decode.sched import ioprio_value, iov_addrs
from pytrace.decode.signal import sigset_at
from pytrace.decode.time import timespec_at
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

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
def io_setup(c: Call) -> Generator[str, None, None]:
    yield f"{c.args[0] & _U32}, "
    yield umove(c, c.args[1], struct.Struct("<Q"), lambda v: f"[{addr(v)}]")


@syscall("io_destroy")
def io_destroy(c: Call) -> str:
    return addr(c.args[0])


def _iocb_header(c: Call, cb: tuple[int, ...]) -> str:
    data, key, rw_flags, opcode, reqprio, fildes, _buf, _nbytes, _off, _res2, aflags, _resfd = cb
    out = [f"aio_data={hx(data)}"]
    if key:
        out.append(f"aio_key={key}")
    if rw_flags:
        out.append(f"aio_rw_flags={flags(rw_flags & _U32, X.AIO_RW_FLAGS, 'RWF_???')}")
    out.append(f"aio_lio_opcode={xval(opcode, X.AIO_CMDS, 'IOCB_CMD_???', 'u')}")
    if aflags & _IOCB_FLAG_IOPRIO:
        out.append(f"aio_reqprio={ioprio_value(reqprio & 0xFFFF)}")
    elif reqprio:
        out.append(f"aio_reqprio={reqprio}")
    out.append(f"aio_fildes={fd(c, fildes)}")
    return ", ".join(out)


def _common_flags(c: Call, aflags: int, resfd: int) -> str:
    text = ""
    if aflags:
        text += f", aio_flags={flags(aflags, X.AIO_IOCB_FLAGS, 'IOCB_FLAG_???')}"
    if aflags & _IOCB_FLAG_RESFD:
        text += f", aio_resfd={fd(c, resfd)}"
    elif resfd:
        text += f", aio_resfd={hx(resfd)}"
    return text


def _iocb(c: Call, raw: bytes) -> str:
    cb = _IOCB.unpack(raw)
    opcode, buf, nbytes, offset, aflags, resfd = cb[3], cb[6], cb[7], cb[8], cb[10], cb[11]
    text = "{" + _iocb_header(c, cb)
    valid = nbytes < (1 << 63)
    if opcode in _SUB_COMMON:
        text += f", aio_buf={string_at(c, buf, nbytes) if opcode == _PWRITE and valid else hx(buf)}"
        text += f", aio_nbytes={nbytes}, aio_offset={offset}{_common_flags(c, aflags, resfd)}"
    elif opcode in _SUB_VECTOR:
        if valid:
            vec = iovec_array(c, buf, nbytes, None) if opcode == _PWRITEV else iov_addrs(c, buf, nbytes)
            text += f", aio_buf={vec}"
        else:
            text += f", aio_buf={hx(buf)}, aio_nbytes={nbytes}"
        text += f", aio_offset={offset}{_common_flags(c, aflags, resfd)}"
    elif opcode == _SUB_POLL:
        text += f", aio_buf={flags(buf, X.POLL_EVENTS, 'POLL???')}{_common_flags(c, aflags, resfd)}"
    return text + "}"


@syscall("io_submit")
def io_submit(c: Call) -> str:
    a = c.args
    nr = signed(a[1], 64)

    def element(raw: bytes) -> str:
        cb_addr = int.from_bytes(raw, "little")
        return umove(c, cb_addr, _IOCB.size, lambda data: _iocb(c, data), ignore_error=True)

    iocbs = addr(a[2]) if nr < 0 else print_array(c, a[2], nr, 8, element)
    return f"{addr(a[0])}, {nr}, {iocbs}"


def _io_event(raw: bytes) -> str:
    data, obj, res, res2 = _IO_EVENT.unpack(raw)
    return f"{{data={hx(data)}, obj={hx(obj)}, res={res}, res2={res2}}}"


@syscall("io_cancel")
def io_cancel(c: Call) -> Generator[str, None, None]:
    a = c.args
    head = umove(c, a[1], _IOCB.size, lambda raw: "{" + _iocb_header(c, _IOCB.unpack(raw)) + "}")
    yield f"{addr(a[0])}, {head}, "
    yield umove(c, a[2], _IO_EVENT.size, _io_event)


def _getevents(c: Call, with_sigset: bool) -> Generator[str, None, None]:
    a = c.args
    yield f"{addr(a[0])}, {signed(a[1], 64)}, {signed(a[2], 64)}, "
    events = addr(a[3]) if c.failed else print_array(c, a[3], c.rval, _IO_EVENT.size, _io_event)
    text = f"{events}, {timespec_at(c, a[4])}"
    if with_sigset:
        text += f", {_kernel_sigset(c, a[5])}"
    yield text


def _kernel_sigset(c: Call, address: int) -> str:
    data = fetch(c, address, 16, True)
    if data is None:
        return addr(address)
    ss, size = struct.unpack("<QQ", data)
    return f"{{sigmask={sigset_at(c, ss, size)}, sigsetsize={size}}}"


@syscall("io_getevents")
def io_getevents(c: Call) -> Generator[str, None, None]:
    yield from _getevents(c, False)


@syscall("io_pgetevents")
def io_pgetevents(c: Call) -> Generator[str, None, None]:
    yield from _getevents(c, True)


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
def io_uring_setup(c: Call) -> Generator[str, None, None]:
    entries, address = c.args[0] & _U32, c.args[1]
    data = fetch(c, address, _PARAMS.size, True)
    if data is None:
        yield f"{entries}, {addr(address)}"
        yield ""
        return
    p = _PARAMS.unpack(data)
    text = (f"{entries}, {{flags={flags(p[2], X.IORING_SETUP_FLAGS, 'IORING_SETUP_???')}, "
            f"sq_thread_cpu={hx(p[3])}, sq_thread_idle={p[4]}")
    if p[2] & _IORING_SETUP_ATTACH_WQ:
        text += f", wq_fd={fd(c, p[6])}"
    if any(p[7:10]):
        text += ", resv=[" + ", ".join(hx(r) for r in p[7:10]) + "]"
    yield text
    after = None if c.failed else c.mem.read(address, _PARAMS.size)
    if after is None:
        yield "}"
        return
    q = _PARAMS.unpack(after)
    yield (f", sq_entries={q[0]}, cq_entries={q[1]}, "
           f"features={flags(q[5], X.IORING_FEATURES, 'IORING_FEAT_???')}, "
           f"sq_off={_sq_off(q[10:18])}, cq_off={_cq_off(q[19:27])}}}")


@syscall("io_uring_enter")
def io_uring_enter(c: Call) -> str:
    a = c.args
    return (f"{fd(c, a[0])}, {a[1] & _U32}, {a[2] & _U32}, "
            f"{flags(a[3] & _U32, X.IORING_ENTER_FLAGS, 'IORING_ENTER_???')}, "
            f"{sigset_at(c, a[4], a[5])}, {a[5]}")


_REG = {name: value for value, name in X.IORING_REGISTER_OPS}


@syscall("io_uring_register")
def io_uring_register(c: Call) -> str:
    a = c.args
    op = a[1] & _U32
    nargs = a[3] & _U32
    arg = a[2]
    if op in (_REG["IORING_REGISTER_FILES"],):
        arg_text = print_array(c, arg, nargs, 4, lambda raw: fd(c, int.from_bytes(raw, "little", signed=True)))
    elif op in (_REG["IORING_REGISTER_EVENTFD"], _REG["IORING_REGISTER_EVENTFD_ASYNC"]):
        arg_text = print_array(c, arg, nargs, 4, lambda raw: fd(c, int.from_bytes(raw, "little", signed=True)))
    elif op == _REG["IORING_REGISTER_BUFFERS"]:
        arg_text = iov_addrs(c, arg, nargs)
    else:
        arg_text = addr(arg)
    return f"{fd(c, a[0])}, {xval(op, X.IORING_REGISTER_OPS, 'IORING_REGISTER_???')}, {arg_text}, {nargs}"
