"""The i386 personality: every decoder re-bound, once, to 32-bit structure layouts (strace's mpers).

A -m32 tracee passes ``struct timespec`` as two 32-bit ints, ``struct iovec``
as two 32-bit words, ``struct stat64`` in its own packed order, and so on.
The decoders are written once, against module-level layout objects
(``time._PAIR``, ``desc._IOVEC``, ``stat._STAT``...).  This module builds an
i386 *copy* of them: each function of ``pytrace.decode.*`` is cloned with
the same code but a globals dict in which those layout objects are replaced
by their i386 versions and every other decode function by its clone, so a
helper such as ``timespec_at`` reads 8 bytes as ``<ii`` in the copy and 16
bytes as ``<qq`` in the original.

Cost: nothing for x86_64 tracees.  The text sink keeps its plain
``decoder_for`` until a tracee is first seen in the i386 personality (the
``[ Process PID=N runs in 32 bit mode. ]`` event), then switches to
``decoder_for_arch``, which builds the copy on its first i386 call (after
-X/-e raw=/verbose= and -y have rewritten the originals, so the copy has them
too) and then costs one comparison per printed call.

Names that exist only on i386 (``stat64``, ``fstatat64``, ``statfs64``...)
reuse the x86_64 decoder of their counterpart, bound to the other layout
they need (``VARIANTS``).  i386-only calls with an argument convention of their
own (``mmap2``'s offset in pages, ``_llseek``'s split offset) or that share a
decoder outright (``fcntl64``, ``ugetrlimit``) are registered with ``@syscall``
in their family module like any other name: an x86_64 tracee never makes them.
"""

from __future__ import annotations

import struct
import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.registry import Decoder
    from pytrace.events import Call


class Reordered:
    """A struct layout whose ``unpack`` returns the fields in another layout's order.

    i386 ``struct stat64`` has the fields of x86_64's ``struct stat`` in a
    different order (and more padding); the decoder unpacks a tuple in the
    x86_64 order, so the i386 layout hands it one.  ``order[i]`` is the index,
    in the i386 tuple, of the decoder's i-th field (None: a constant 0).
    """

    __slots__ = ("_struct", "_order", "size")

    def __init__(self, fmt: str, order: tuple[int | None, ...]) -> None:
        self._struct = struct.Struct(fmt)
        self._order = order
        self.size = self._struct.size

    def unpack(self, data: bytes) -> tuple[int, ...]:
        raw = self._struct.unpack(data)
        return tuple(0 if i is None else raw[i] for i in self._order)

    def unpack_from(self, data: bytes, offset: int = 0) -> tuple[int, ...]:
        raw = self._struct.unpack_from(data, offset)
        return tuple(0 if i is None else raw[i] for i in self._order)


# x86_64 ``struct stat`` order the decoder expects: dev, ino, nlink, mode, uid, gid, pad, rdev, size,
# blksize, blocks, atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns.
#: i386 struct stat64 (96 bytes, packed): dev, pad, __st_ino, mode, nlink, uid, gid, rdev, pad, size,
#: blksize, blocks, atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns, ino.
STAT64 = Reordered("<Q4xIIIIIQ4xqIQIIIIIIQ", (0, 16, 3, 2, 4, 5, None, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#: i386 (old) struct stat (64 bytes): dev, ino (u32), mode, nlink, uid, gid (u16), rdev, size, blksize, blocks,
#: atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns (u32), 2 unused words.
STAT32 = Reordered("<IIHHHHIiIIIIIIII8x", (0, 1, 3, 2, 4, 5, None, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#: i386 struct statfs (64 bytes): type, bsize, blocks, bfree, bavail, files, ffree (32-bit), fsid[2],
#: namelen, frsize, flags, spare[4].
STATFS32 = struct.Struct("<iiIIIIIIIiii16x")
#: i386 struct statfs64 (84 bytes, 4-aligned): type, bsize (u32), blocks..ffree (u64), fsid[2], namelen,
#: frsize, flags, spare[4].
STATFS64 = struct.Struct("<iiQQQQQIIiii16x")

#: Module global -> its i386 value, for every decoder module whose structures differ.
LAYOUTS: dict[str, dict[str, Any]] = {
    # struct sigevent: 32-bit sigval and union (tid / function, attributes).
    "pytrace.decode.time": {"_PAIR": struct.Struct("<iI"), "_FOUR": struct.Struct("<iIiI"),
                            "_SIGEVENT": struct.Struct("<IiiII")},
    # struct timex: 32-bit longs and timeval, 44 bytes of padding (128 in all); kexec_segment: 4 longs.
    "pytrace.decode.timex": {"_TIMEX": struct.Struct("<I20i44x")},
    "pytrace.decode.kexec": {"_KEXEC_SEGMENT": struct.Struct("<IIII")},
    "pytrace.decode.obsolete": {"_SYSCTL_ARGS": struct.Struct("<IiIIII16x")},
    # struct flock (32-bit off_t) of F_GETLK/F_SETLK(W); struct flock64 packed to 4 bytes (24).
    "pytrace.decode.desc": {"_IOVEC": struct.Struct("<II"), "_FLOCK": struct.Struct("<hhiii"),
                            "_FLOCK64": struct.Struct("<hhqqi")},
    "pytrace.decode.memory": {"_IOVEC": struct.Struct("<II")},
    "pytrace.decode.io_uring": {"_PTR_SIZE": 4, "_ULONG": struct.Struct("<I")},
    # fd_sets read in 4-byte words; old select's argument block of five 32-bit longs.
    "pytrace.decode.poll": {"_WORD": 4, "_OLDSELECT_ARGS": struct.Struct("<5I"),
                            "_SIGSET_PAIR": struct.Struct("<II")},
    # nodemasks of 32-bit longs; modify_ldt's struct user_desc has no ``lm`` bit on i386.
    "pytrace.decode.sched": {"_STACK_T": struct.Struct("<IiI"), "_LONG_SIZE": 4,
                             "_user_desc": lambda entry, base, limit, bits:
                             f"{{entry_number={_entry_number(entry)}{_user_desc_rest(base, limit, bits)}"},
    "pytrace.decode.stat": {"_STAT": STAT32, "_STATFS": STATFS32, "_STATFS64": STATFS64},
    # k_sigaction; siginfo_t with its union at 12, 32-bit pointers/longs and clock_t.
    "pytrace.decode.signal": {"_KSIGACTION": struct.Struct("<IIIQ"), "_SI_U": 12, "_SI_VAL": 20,
                              "_SI_PTR": struct.Struct("<I"), "_SI_CLOCKS": struct.Struct("<ii"),
                              "_SI_CLOCK_OFF": 24},
    # struct rlimit (32-bit rlim_t: print_rlimit32), struct rusage (longs), struct sysinfo (longs + 8 pad).
    "pytrace.decode.process": {"_tls_arg": lambda c, address: _user_desc_at(c, address),
                               "_CLONE_ORDER": (0, 1, 2, 4, 3), "_RLIMIT": struct.Struct("<II"), "_RUSAGE": struct.Struct("<4i14I"),
                               "_SYSINFO": struct.Struct("<i3I6IH2xIII"),
                               "_WORD": 4, "_WORD_CODE": "I"},
    # struct msghdr / cmsghdr / mmsghdr with 32-bit pointers and size_t; old_timespec32 of recvmmsg.
    "pytrace.decode.net": {"_MSGHDR": struct.Struct("<IIIIIII"), "_CMSGHDR": struct.Struct("<Iii"),
                           "_CMSG_ALIGN": 3, "_MMSGHDR_SIZE": 32, "_TIMESPEC": struct.Struct("<iI"),
                           "_SOCK_FPROG_SIZE": 8, "_GROUP_REQ_SIZE": 132, "_GR_GROUP_OFF": 4,
                           "_OLD_TIME_PAIR": struct.Struct("<iI")},
    # struct sock_fprog: u16 len, a 32-bit filter pointer.
    "pytrace.decode.bpf_insns": {"_SOCK_FPROG": struct.Struct("<H2xI")},
    # utimbuf, timeval[2] and old_timespec32[2] of utime, utimes, futimesat, utimensat.
    "pytrace.decode.utime": {"_UTIMBUF": struct.Struct("<2i"), "_PAIR2": struct.Struct("<iIiI")},
    "pytrace.decode.splice": {"_OFF_T": struct.Struct("<I")},  # printnum_ulong: unsigned
    # msgbuf's long mtype; ipc(2)'s {msgp, msgtyp} pair of an old msgrcv, shmat's stored address, semun.
    "pytrace.decode.ipc": {"_LONG": struct.Struct("<i"), "_MSGRCV_PAIR": struct.Struct("<Ii"),
                           "_ULONG": struct.Struct("<I"), "_IPC_PERM": struct.Struct("<iIIIIH2xH6x16x"),
                           "_SHM_INFO_S": struct.Struct("<i5I")},
}

#: The *_time64 calls (and futex_waitv): everything 32-bit but the times, which are 64-bit
#: (struct __kernel_timespec, __kernel_itimerspec, __kernel_timex), as in the x86_64 layouts.
TIME64: dict[str, dict[str, Any]] = {
    "pytrace.decode.time": {"_PAIR": struct.Struct("<qQ"), "_FOUR": struct.Struct("<qQqQ")},
    "pytrace.decode.net": {"_TIMESPEC": struct.Struct("<qQ")},
    "pytrace.decode.utime": {"_PAIR2": struct.Struct("<qQqQ")},
    "pytrace.decode.timex": {"_TIMEX": struct.Struct("<I4xqqqqi4xqqqqqqqqi4xqqqqqi44x")},
}

#: i386-only names: (x86_64 decoder to reuse, extra overrides for this name).
VARIANTS: dict[str, tuple[str, dict[str, dict[str, Any]]]] = {
    "stat64": ("stat", {"pytrace.decode.stat": {"_STAT": STAT64}}),
    "lstat64": ("lstat", {"pytrace.decode.stat": {"_STAT": STAT64}}),
    "fstat64": ("fstat", {"pytrace.decode.stat": {"_STAT": STAT64}}),
    "fstatat64": ("newfstatat", {"pytrace.decode.stat": {"_STAT": STAT64}}),
    # printnum_int64(..., "%" PRIu64): the loff_t unsigned too.
    "sendfile64": ("sendfile", {"pytrace.decode.splice": {"_OFF_T": struct.Struct("<Q")}}),
    **{name: (base, TIME64) for name, base in (
        ("clock_gettime64", "clock_gettime"), ("clock_settime64", "clock_settime"),
        ("clock_getres_time64", "clock_getres"), ("clock_nanosleep_time64", "clock_nanosleep"),
        ("clock_adjtime64", "clock_adjtime"), ("timer_gettime64", "timer_gettime"),
        ("timer_settime64", "timer_settime"), ("timerfd_gettime64", "timerfd_gettime"),
        ("timerfd_settime64", "timerfd_settime"), ("futex_time64", "futex"),
        ("io_pgetevents_time64", "io_pgetevents"), ("mq_timedsend_time64", "mq_timedsend"),
        ("mq_timedreceive_time64", "mq_timedreceive"), ("ppoll_time64", "ppoll"),
        ("pselect6_time64", "pselect6"), ("recvmmsg_time64", "recvmmsg"),
        ("rt_sigtimedwait_time64", "rt_sigtimedwait"), ("semtimedop_time64", "semtimedop"),
        ("sched_rr_get_interval_time64", "sched_rr_get_interval"), ("utimensat_time64", "utimensat"),
        # futex_waitv takes a struct __kernel_timespec on every architecture.
        ("futex_waitv", "futex_waitv"))},
}


# ---------------------------------------------------------------- struct user_desc (ldt.c)

#: entry_number, base_addr, limit, then the bit fields (i386: no ``lm``, strace ignores it there).
_USER_DESC = struct.Struct("<IIII")
_USER_DESC_BITS = (("seg_32bit", 1), ("contents", 2), ("read_exec_only", 1), ("limit_in_pages", 1),
                   ("seg_not_present", 1), ("useable", 1))


def _entry_number(value: int) -> str:
    """PRINT_VAL_ID: -1 as such, any other value unsigned."""
    return "-1" if value == 0xFFFFFFFF else str(value)


def _c_0x(value: int, width: int) -> str:
    """C's ``%#0*x`` (PRINT_FIELD_0X): zero-padded, ``0x`` counted in the width, no prefix for zero."""
    return "0" * width if value == 0 else f"{value:#0{width}x}"


def _user_desc_rest(base: int, limit: int, bits: int) -> str:
    fields = [f", base_addr={_c_0x(base, 8)}, limit={_c_0x(limit, 8)}"]
    shift = 0
    for name, width in _USER_DESC_BITS:
        fields.append(f", {name}={(bits >> shift) & ((1 << width) - 1)}")
        shift += width
    return "".join(fields) + "}"


def _user_desc_at(c: Call, address: int) -> str:
    """print_user_desc(USER_DESC_BOTH) of a 32-bit tracee: the whole structure, or its address."""
    from pytrace.decode.format import umove

    return umove(c, address, _USER_DESC, lambda entry, base, limit, bits:
                 f"{{entry_number={_entry_number(entry)}{_user_desc_rest(base, limit, bits)}")


def _set_thread_area(c: Call) -> Generator[str, None, None]:
    """The descriptor at entry; the kernel's choice of entry at exit, as ``= 0 (entry_number=N)``."""
    yield _user_desc_at(c, c.args[0])
    data = None if c.failed or not c.args[0] else c.mem.read(c.args[0], 4)
    if data is not None:
        c.ret_text = f"{c.rval} (entry_number={struct.unpack('<I', data)[0]})"
    yield ""


def _get_thread_area(c: Call) -> Generator[str, None, None]:
    """USER_DESC_ENTERING then USER_DESC_EXITING: ``{entry_number=N`` at entry, the rest at exit."""
    from pytrace.decode.format import addr

    address = c.args[0]
    head = c.mem.read(address, 4) if address else None
    if head is None:
        yield addr(address)
        yield ""
        return
    entry = struct.unpack("<I", head)[0]
    yield f"{{entry_number={_entry_number(entry)}"
    data = None if c.failed else c.mem.read(address, _USER_DESC.size)
    if data is None:
        yield ", ...}"
        return
    now, base, limit, bits = _USER_DESC.unpack(data)
    changed = "" if now == entry else f" => {_entry_number(now)}"
    yield changed + _user_desc_rest(base, limit, bits)


#: i386 decoders of calls whose x86_64 printer differs by more than a layout.
OWN: dict[str, Any] = {"set_thread_area": _set_thread_area, "get_thread_area": _get_thread_area}


def _ipc_raw(printargs: Any) -> Any:
    """-e raw= of an ipc(2) subcall: strace's shifted ``u_arg`` words (subcalls.IpcArgs), not the
    direct call's order the decoders get; a direct call (semget...) is printed by ``printargs``."""
    from pytrace.tables.subcalls import IpcArgs

    def raw(c: Call) -> str:
        args = c.args
        if type(args) is not IpcArgs:
            return printargs(c)  # type: ignore[no-any-return]
        return ", ".join(f"{v:#x}" if v else "0" for v in args.shifted)

    return raw


def _pairs(*firsts: int) -> Any:
    """strace's getllval: each 64-bit argument is two registers, low word first; joined into one."""
    def join(args: tuple[int, ...]) -> tuple[int, ...]:
        out = list(args)
        for i in reversed(firsts):
            out[i:i + 2] = [(out[i] & 0xFFFFFFFF) | (out[i + 1] & 0xFFFFFFFF) << 32]
        return tuple(out)
    return join


def _low_high(args: tuple[int, ...]) -> tuple[int, ...]:
    """print_lld_from_low_high_val: preadv's (pos_l, pos_h) are one offset; pos_h stays where it is."""
    return (*args[:3], (args[3] & 0xFFFFFFFF) | (args[4] & 0xFFFFFFFF) << 32, *args[4:])


def _signed_long(*indexes: int) -> Any:
    """A signed 32-bit ``long`` (off_t...) sign-extended to the 64 bits the x86_64 decoder reads."""
    def extend(args: tuple[int, ...]) -> tuple[int, ...]:
        out = list(args)
        for i in indexes:
            out[i] = (out[i] & 0xFFFFFFFF) - ((out[i] & 0x80000000) << 1) & 0xFFFFFFFFFFFFFFFF
        return tuple(out)
    return extend


#: i386 calls whose arguments are laid out otherwise than the x86_64 decoder of ``base`` reads them:
#: name -> (base, rewrite of the argument tuple), applied once at entry before that decoder runs.
ARGS: dict[str, tuple[str, Any]] = {
    "pread64": ("pread64", _pairs(3)), "pwrite64": ("pwrite64", _pairs(3)),
    "truncate64": ("truncate", _pairs(1)), "ftruncate64": ("ftruncate", _pairs(1)),
    "fallocate": ("fallocate", _pairs(2, 4)), "readahead": ("readahead", _pairs(1)),
    "sync_file_range": ("sync_file_range", _pairs(1, 3)), "fanotify_mark": ("fanotify_mark", _pairs(2)),
    "fadvise64": ("fadvise64", _pairs(1)), "fadvise64_64": ("fadvise64", _pairs(1, 3)),
    "lookup_dcookie": ("lookup_dcookie", _pairs(0)),
    "preadv": ("preadv", _low_high), "pwritev": ("pwritev", _low_high),
    "preadv2": ("preadv2", _low_high), "pwritev2": ("pwritev2", _low_high),
    "lseek": ("lseek", _signed_long(1)), "io_submit": ("io_submit", _signed_long(1)),
}


#: strace's i386 argument counts of those calls (each 64-bit argument is two words): what
#: ``-e raw=NAME`` prints; the syscall tables list the logical arguments (syscall_tables/README.md).
RAW_NARGS: dict[str, int] = {
    "pread64": 5, "pwrite64": 5, "truncate64": 3, "ftruncate64": 3, "fallocate": 6, "readahead": 4,
    "sync_file_range": 6, "fanotify_mark": 6, "fadvise64": 5, "fadvise64_64": 6, "lookup_dcookie": 4,
}


def _raw_words(count: int) -> Any:
    """printargs over the registers themselves: ``count`` words as ``%#lx``."""
    from pytrace.decode.styles import hexnum

    return lambda c: ", ".join(hexnum(a & 0xFFFFFFFF) for a in c.args[:count])


def _rewritten(func: Any, rewrite: Any) -> Any:
    """``func`` called on the call with its arguments rewritten (kept so: the exit half sees them too)."""
    def decode(c: Call) -> Any:
        c.args = rewrite(c.args)
        return func(c)
    return decode


#: Names whose i386 call is another one than x86_64's of that name: name -> decoder registered for it.
RENAMED: dict[str, str] = {"select": "oldselect"}


class _World:
    """One re-bound copy of the decode package: module namespaces with overrides, and the clones."""

    def __init__(self, overrides: dict[str, dict[str, Any]]) -> None:
        self.overrides = overrides
        self.clones: dict[int, Any] = {}
        self.namespaces: dict[str, dict[str, Any]] = {}
        self.modules = {
            name: module for name, module in list(sys.modules.items())
            if module is not None and (name == "pytrace.decode" or name.startswith("pytrace.decode."))
            and name != __name__
        }

    def namespace(self, module_name: str) -> dict[str, Any]:
        """The copy's globals for one module; created empty and registered before it is filled, so
        mutually recursive clones share it."""
        ns = self.namespaces.get(module_name)
        if ns is None:
            ns = self.namespaces[module_name] = {}
            own = self.overrides.get(module_name, {})
            for key, value in list(vars(self.modules[module_name]).items()):
                ns[key] = own[key] if key in own else self.map(value)
        return ns

    def map(self, value: Any) -> Any:
        """``value`` as seen from the copy: decode functions cloned, containers of them copied."""
        if isinstance(value, types.FunctionType):
            return self.clone(value)
        if type(value) is dict and value and any(_holds_function(v) for v in value.values()):
            # Values may be (printer, size) tuples too: cloned alike, so an identity check against
            # the module's function (``printer[0] is _scm_rights``) still holds in the copy.
            return {k: self.map(v) for k, v in value.items()}
        if type(value) is tuple and value and any(isinstance(v, types.FunctionType) for v in value):
            return tuple(self.map(v) for v in value)
        return value

    def clone(self, func: types.FunctionType) -> types.FunctionType:
        done = self.clones.get(id(func))
        if done is not None:
            return done
        if func.__module__ not in self.modules:
            return func
        first = func.__module__ not in self.namespaces
        ns = self.namespaces.setdefault(func.__module__, {}) if first else self.namespaces[func.__module__]
        cells = tuple(types.CellType() for _ in func.__closure__) if func.__closure__ else None
        new = types.FunctionType(func.__code__, ns, func.__name__, func.__defaults__, cells)
        new.__kwdefaults__ = func.__kwdefaults__
        new.__dict__.update(func.__dict__)
        new.__qualname__ = func.__qualname__
        self.clones[id(func)] = new  # registered before anything it refers to is cloned
        if first:
            own = self.overrides.get(func.__module__, {})
            for key, value in list(vars(self.modules[func.__module__]).items()):
                ns[key] = own[key] if key in own else self.map(value)
        if cells is not None:
            for cell, old in zip(cells, func.__closure__, strict=True):
                if _filled(old):
                    cell.cell_contents = self.map(old.cell_contents)
        return new

    def decoder(self, dec: Decoder) -> Decoder:
        from pytrace.decode.registry import Decoder

        return Decoder(self.map(dec.func), dec.split, self.map(dec.rval))


def _holds_function(value: Any) -> bool:
    """A function, or a tuple with one (the values of the decoders' printer tables)."""
    return isinstance(value, types.FunctionType) or (
        type(value) is tuple and any(isinstance(v, types.FunctionType) for v in value))


def _filled(cell: types.CellType) -> bool:
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


def build(decoders: dict[str, Decoder], generic: Decoder) -> tuple[dict[str, Decoder], Decoder]:
    """The i386 decoder table (and fallback) for the current x86_64 ones."""
    world = _World(LAYOUTS)
    out = {name: world.decoder(dec) for name, dec in decoders.items()}
    for name, (base, extra) in VARIANTS.items():
        dec = decoders.get(base)
        own = decoders.get(name)
        if own is not None and getattr(own.rval, "__name__", "") == "rv_raw":
            continue  # -e raw=NAME: the raw printer registered under the i386 name itself
        if dec is not None:
            merged = {m: {**LAYOUTS.get(m, {}), **extra.get(m, {})} for m in {*LAYOUTS, *extra}}
            out[name] = _World(merged).decoder(dec)
    from pytrace.decode.registry import Decoder

    for name, func in OWN.items():
        own = decoders.get(name)
        if own is not None and getattr(own.rval, "__name__", "") != "rv_raw":
            out[name] = Decoder(func, True, own.rval)
    for name in IPC_SUBCALL_NAMES:
        own = decoders.get(name)
        if own is not None and getattr(own.rval, "__name__", "") == "rv_raw":
            out[name] = Decoder(_ipc_raw(out[name].func), False, out[name].rval)
    layout_only = dict(out)
    for name, (base, rewrite) in ARGS.items():
        own = decoders.get(name)
        dec = layout_only.get(base)
        if own is not None and getattr(own.rval, "__name__", "") == "rv_raw":
            if name in RAW_NARGS:
                out[name] = Decoder(_raw_words(RAW_NARGS[name]), False, own.rval)
        elif dec is not None:
            out[name] = Decoder(_rewritten(dec.func, rewrite), dec.split, dec.rval)
    for name, base in RENAMED.items():
        own = decoders.get(name)
        if base in decoders and not (own is not None and getattr(own.rval, "__name__", "") == "rv_raw"):
            out[name] = world.decoder(decoders[base])
    return out, world.decoder(generic)


#: ipc(2)'s subcalls (tables/subcalls.py), whose -e raw= printer needs strace's argument order.
IPC_SUBCALL_NAMES = ("semop", "semget", "semctl", "semtimedop", "msgsnd", "msgrcv", "msgget", "msgctl",
                     "shmat", "shmdt", "shmget", "shmctl")

_I386: tuple[dict[str, Decoder], Decoder] | None = None


def decoder_for_arch(call: Call) -> Decoder:
    """decoder_for() that knows personalities: installed by the text sink once an i386 tracee appears."""
    from pytrace.decode import _GENERIC, DECODERS

    if call.arch != "i386":
        return DECODERS.get(call.name, _GENERIC)
    global _I386
    if _I386 is None:
        _I386 = build(DECODERS, _GENERIC)
    return _I386[0].get(call.name) or _I386[1]
