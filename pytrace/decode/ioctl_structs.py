"""ioctl requests whose argument is a structure, printed as strace 6.1's loop.c, fs_x_ioctl.c,
fs_f_ioctl.c, block.c, perf_ioctl.c and kvm.c print it.

Why a module of its own: these printers are larger than decode/ioctl.py's one-liners, and
several of them print in two stages (``BLKTRACESETUP`` shows the request at entry and the
trace name the kernel chose at exit; ``FS_IOC_FIEMAP`` shows ``{...} => {...}``;
``PERF_EVENT_IOC_QUERY_BPF`` shows ``ids_len`` at entry and the ids at exit).  Each handler
here is therefore a generator ``handler(call, arg)`` that yields the text after the request
name at entry, then the text to append at exit; decode/ioctl.py runs it as a "staged"
handler.  Requests are found by name in ``xlat.IOCTL_STRUCT_CODES`` (generated from the
uapi headers), so no request number is typed here.

Layouts are x86_64's; the few whose layout differs on i386 (``struct loop_info``'s longs,
``struct blkpg_ioctl_arg``'s pointer, ``struct blk_user_trace_setup``'s u64 alignment) pick
theirs from ``call.arch``.  ``abbrev`` is strace's abbrev(tcp): not ``-v``.
"""

from __future__ import annotations

import os
import struct
from functools import partial
from typing import TYPE_CHECKING

from pytrace.decode.format import MASK64, addr, print_array, signed
from pytrace.decode.registry import rv_fd
from pytrace.decode.stat import makedev
from pytrace.decode.time import hx
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Callable, Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

    Handler = Callable[[Call, int], Generator[str, None, None]]

_CODES: dict[str, int] = {name: code for code, name in X.IOCTL_STRUCT_CODES + X.IOCTL_PTR_CODES}
_LO_CRYPT_NONE = 0
_LO_KEY_SIZE = 32


def _cstr(p: Printer, data: bytes) -> str:
    """PRINT_FIELD_CSTRING (print_quoted_cstring): up to the NUL, not cut at -s; no NUL: ``"..."...``."""
    end = data.find(b"\0")
    if end < 0:
        return p.quote(data[:-1]) + "..."
    return p.quote(data[:end])


def _x_array(values: tuple[int, ...] | list[int]) -> str:
    """PRINT_FIELD_X_ARRAY: ``[0, 0xabc]``."""
    return "[" + ", ".join(hx(v) for v in values) + "]"


def _u32_array(p: Printer, c: Call, address: int, count: int) -> str:
    """print_array of unsigned ints: at most -s elements, then ``...``."""
    shown = min(count, p.opts.max_strlen)
    data = c.mem.read(address, 4 * shown) if shown else b""
    if data is None:
        return addr(address)
    items = [str(v) for v in struct.unpack(f"<{shown}I", data)]
    if count > shown:
        items.append("...")
    return "[" + ", ".join(items) + "]"


# ---------------------------------------------------------------- loop.c

# struct loop_info: int, old_dev_t (unsigned long on x86_64, unsigned short on i386), unsigned long,
# old_dev_t, int * 4, char[64], unsigned char[32], unsigned long[2], char[4].
_LOOP_INFO = {"x86_64": struct.Struct("<i4xQQQiiii64s32s2Q4s4x"), "i386": struct.Struct("<iH2xIH2xiiii64s32s2I4s")}


def _loop_info(p: Printer, c: Call, address: int) -> str:
    """decode_loop_info: struct loop_info (LOOP_SET_STATUS / LOOP_GET_STATUS)."""
    layout = _LOOP_INFO.get(c.arch, _LOOP_INFO["x86_64"])
    data = p.fetch(c, address, layout.size)
    if data is None:
        return addr(address)
    (number, device, inode, rdevice, offset, etype, key_size, lflags, name, key, init0, init1,
     reserved) = layout.unpack(data)
    full = p.opts.verbose
    out = [('lo_number', number)]
    if full:
        out += [('lo_device', makedev(p, device)), ('lo_inode', inode), ('lo_rdevice', makedev(p, rdevice))]
    out.append(('lo_offset', hx(offset & 0xFFFFFFFF)))
    if full or etype != _LO_CRYPT_NONE:
        out.append(('lo_encrypt_type', p.xval(etype & 0xFFFFFFFF, X.LOOP_CRYPT_TYPE_OPTIONS, 'LO_CRYPT_???')))
        out.append(('lo_encrypt_key_size', key_size & 0xFFFFFFFF))
    out.append(('lo_flags', p.flags(lflags & 0xFFFFFFFF, X.LOOP_FLAGS_OPTIONS, 'LO_FLAGS_???')))
    out.append(('lo_name', _cstr(p, name)))
    if full or etype != _LO_CRYPT_NONE:
        out.append(('lo_encrypt_key', p.quote(key[:min(key_size & 0xFFFFFFFF, _LO_KEY_SIZE)])))
    if full:
        out += [('lo_init', _x_array((init0, init1))), ('reserved', _x_array(list(reserved)))]
    else:
        out.append("...")
    return p.struct(tuple(out))


_LOOP_INFO64 = struct.Struct("<QQQQQIIII64s64s32s2Q")


def _print_loop_info64(p: Printer, data: bytes) -> str:
    """print_loop_info64: struct loop_info64 from its bytes."""
    (device, inode, rdevice, offset, sizelimit, number, etype, key_size, lflags, file_name, crypt_name, key,
     init0, init1) = _LOOP_INFO64.unpack(data)
    full = p.opts.verbose
    if full:
        out = [('lo_device', makedev(p, device)), ('lo_inode', inode), ('lo_rdevice', makedev(p, rdevice)),
               ('lo_offset', hx(offset)), ('lo_sizelimit', sizelimit), ('lo_number', number)]
    else:
        out = [('lo_offset', hx(offset)), ('lo_number', number)]
    if full or etype != _LO_CRYPT_NONE:
        out.append(('lo_encrypt_type', p.xval(etype, X.LOOP_CRYPT_TYPE_OPTIONS, 'LO_CRYPT_???')))
        out.append(('lo_encrypt_key_size', key_size))
    out.append(('lo_flags', p.flags(lflags, X.LOOP_FLAGS_OPTIONS, 'LO_FLAGS_???')))
    out.append(('lo_file_name', _cstr(p, file_name)))
    if full or etype != _LO_CRYPT_NONE:
        out.append(('lo_crypt_name', _cstr(p, crypt_name)))
        out.append(('lo_encrypt_key', p.quote(key[:min(key_size, _LO_KEY_SIZE)])))
    out.append(f"lo_init={_x_array((init0, init1))}" if full else "...")
    return p.struct(tuple(out))


def _loop_info64(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, _LOOP_INFO64.size)
    return addr(address) if data is None else _print_loop_info64(p, data)


_LOOP_CONFIG_HEAD = struct.Struct("<II")
_LOOP_CONFIG_SIZE = 8 + _LOOP_INFO64.size + 64


def _loop_config(p: Printer, c: Call, address: int) -> str:
    """decode_loop_config: struct loop_config (LOOP_CONFIGURE); __reserved only when not all zero."""
    data = p.fetch(c, address, _LOOP_CONFIG_SIZE)
    if data is None:
        return addr(address)
    cfd, block_size = _LOOP_CONFIG_HEAD.unpack_from(data)
    text = f"{{fd={p.fd(c, cfd)}, block_size={block_size}, info={_print_loop_info64(p, data[8:8 + _LOOP_INFO64.size])}"
    reserved = struct.unpack_from("<8Q", data, 8 + _LOOP_INFO64.size)
    if any(reserved):
        text += p.tail((f"__reserved={_x_array(reserved)}",))
    return text + "}"


# ---------------------------------------------------------------- fs_x_ioctl.c, fs_f_ioctl.c

_FSXATTR = struct.Struct("<IIIII")


def _fsxattr(p: Printer, c: Call, address: int, is_get: bool) -> str:
    data = p.fetch(c, address, 28)
    if data is None:
        return addr(address)
    xflags, extsize, nextents, projid, cowextsize = _FSXATTR.unpack_from(data)
    text = f"{{fsx_xflags={p.flags(xflags, X.FS_XFLAGS, 'FS_XFLAG_???')}, fsx_extsize={extsize}"
    if is_get:
        text += p.tail((f"fsx_nextents={nextents}",))
    return text + f", fsx_projid={hx(projid)}, fsx_cowextsize={cowextsize}}}"


def _fs_ioc_flags(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, 4)
    if data is None:
        return addr(address)
    return f"[{p.flags(struct.unpack('<I', data)[0], X.FS_IOC_FLAGS, 'FS_???_FL')}]"


_FIEMAP = struct.Struct("<QQIII4x")  # sizeof(struct fiemap) with fm_reserved: strace reads all 32 bytes
_FIEMAP_EXTENT = struct.Struct("<QQQ16xI12x")


def _fiemap_extents(p: Printer, c: Call, address: int, count: int) -> str:
    """print_array of struct fiemap_extent: at most -s elements."""
    shown = min(count, p.opts.max_strlen)
    items = []
    for i in range(shown):
        data = c.mem.read(address + i * _FIEMAP_EXTENT.size, _FIEMAP_EXTENT.size)
        if data is None:
            if i == 0:
                return addr(address)
            items.append(f"... /* {addr(address + i * _FIEMAP_EXTENT.size)} */")
            break
        logical, physical, length, fe_flags = _FIEMAP_EXTENT.unpack(data)
        items.append(p.struct((('fe_logical', f"{logical}"), ('fe_physical', f"{physical}"), ('fe_length', f"{length}"), ('fe_flags', p.flags(fe_flags, X.FIEMAP_EXTENT_FLAGS, 'FIEMAP_EXTENT_???')))))
    else:
        if count > shown:
            items.append("...")
    return "[" + ", ".join(items) + "]"


def _fiemap(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """decode_fiemap: the request at entry, ``=> {fm_flags, fm_mapped_extents, ...}`` at exit."""
    data = p.fetch(c, arg, _FIEMAP.size)
    if data is None:
        yield p.tail((addr(arg),))
        yield ""
        return
    start, length, fm_flags, _mapped, count = _FIEMAP.unpack(data)
    yield (p.tail((p.struct((('fm_start', f"{start}"), ('fm_length', f"{length}"), ('fm_flags', p.flags(fm_flags, X.FIEMAP_FLAGS, 'FIEMAP_FLAG_???')), ('fm_extent_count', f"{count}"))),)))
    if c.failed:
        yield ""
        return
    data = p.fetch(c, arg, _FIEMAP.size)
    if data is None:
        yield f" => {addr(arg)}"
        return
    _start, _length, fm_flags, mapped, _count = _FIEMAP.unpack(data)
    text = f" => {{fm_flags={p.flags(fm_flags, X.FIEMAP_FLAGS, 'FIEMAP_FLAG_???')}, fm_mapped_extents={mapped}, "
    text += f"fm_extents={_fiemap_extents(p, c, arg + 32, mapped)}}}" if p.opts.verbose else "...}"
    yield text


# ---------------------------------------------------------------- block.c

_BLKPG_ARG = {"x86_64": struct.Struct("<iii4xQ"), "i386": struct.Struct("<iiiI")}
_BLKPG_PARTITION = struct.Struct("<qqi64s64s")


def _blkpg(p: Printer, c: Call, address: int) -> str:
    layout = _BLKPG_ARG.get(c.arch, _BLKPG_ARG["x86_64"])
    data = p.fetch(c, address, layout.size)
    if data is None:
        return addr(address)
    op, bflags, datalen, ptr = layout.unpack(data)
    text = f"{{op={p.xval(op & 0xFFFFFFFF, X.BLKPG_OPS, 'BLKPG_???')}, flags={bflags}, datalen={datalen}, data="
    part = p.fetch(c, ptr, _BLKPG_PARTITION.size)
    if part is None:
        return text + addr(ptr) + "}"
    start, length, pno, devname, volname = _BLKPG_PARTITION.unpack(part)
    return text + (f"{{start={start}, length={length}, pno={pno}, devname={_cstr(p, devname)}, "
                   f"volname={_cstr(p, volname)}}}}}")


# struct blk_user_trace_setup: char name[32]; u16 act_mask; u32 buf_size, buf_nr; u64 start_lba, end_lba;
# u32 pid (u64 is 4-byte aligned on i386).
_BUTS = {"x86_64": struct.Struct("<32sH2xII4xQQI4x"), "i386": struct.Struct("<32sH2xIIQQI")}


def _blktrace_setup(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """BLKTRACESETUP: the request at entry; at exit the name the kernel filled in, then ``}``."""
    layout = _BUTS.get(c.arch, _BUTS["x86_64"])
    data = p.fetch(c, arg, layout.size)
    if data is None:
        yield p.tail((addr(arg),))
        yield ""
        return
    _name, mask, buf_size, buf_nr, start, end, tgid = layout.unpack(data)
    yield (f", {{act_mask={mask}, buf_size={buf_size}, buf_nr={buf_nr}, start_lba={start}, end_lba={end}, "
           f"pid={p.pid(tgid)}")
    data = None if c.failed else c.mem.read(arg, layout.size)
    yield "}" if data is None else f", name={_cstr(p, layout.unpack(data)[0])}}}"


# ---------------------------------------------------------------- perf_ioctl.c


def _perf_query_bpf(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """perf_ioctl_query_bpf: ``{ids_len=N, `` at entry, ``prog_cnt=M, ids=[...]}`` (or ``...}``) at exit."""
    data = p.fetch(c, arg, 4)
    if data is None:
        yield p.tail((addr(arg),))
        yield ""
        return
    yield f", {{ids_len={struct.unpack('<I', data)[0]}, "
    data = None if c.failed else c.mem.read(arg + 4, 4)
    if data is None:
        yield "...}"
        return
    count = struct.unpack("<I", data)[0]
    yield f"prog_cnt={count}, ids={_u32_array(p, c, arg + 8, count)}}}"


def _perf_modify_attributes(p: Printer, c: Call, arg: int) -> str:
    """perf_ioctl_modify_attributes: struct perf_event_attr as perf_event_open(2) prints it."""
    from pytrace.decode.perf import perf_attr

    return perf_attr(p, c, arg) if arg else "NULL"


# ---------------------------------------------------------------- kvm.c

_KVM_REGS = struct.Struct("<18Q")
_KVM_REG_NAMES = ("rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rsp", "rbp", "r8", "r9", "r10", "r11", "r12", "r13",
                  "r14", "r15", "rip", "rflags")
_KVM_ABBREV_REGS = ((0,), (6, 7), (16, 17))  # rax, ..., rsp, rbp, ..., rip, rflags


def _kvm_regs(p: Printer, c: Call, address: int) -> str:
    """arch_print_kvm_regs (x86_64)."""
    data = p.fetch(c, address, _KVM_REGS.size)
    if data is None:
        return addr(address)
    regs = _KVM_REGS.unpack(data)
    if p.opts.verbose:
        return "{" + ", ".join(f"{n}={hx(v)}" for n, v in zip(_KVM_REG_NAMES, regs, strict=True)) + "}"
    groups = [", ".join(f"{_KVM_REG_NAMES[i]}={hx(regs[i])}" for i in g) for g in _KVM_ABBREV_REGS]
    return "{" + ", ..., ".join(groups) + "}"


_KVM_SEGMENT = struct.Struct("<QIHBBBBBBBB2x")
_KVM_DTABLE = struct.Struct("<QH6x")
_KVM_SREGS_SIZE = 8 * _KVM_SEGMENT.size + 2 * _KVM_DTABLE.size + 7 * 8 + 4 * 8
_SEGMENTS = ("cs", "ds", "es", "fs", "gs", "ss", "tr", "ldt")


def _kvm_segment(data: bytes, offset: int) -> str:
    base, limit, selector, stype, present, dpl, db, s, long_mode, g, avl = _KVM_SEGMENT.unpack_from(data, offset)
    return (f"{{base={hx(base)}, limit={limit}, selector={selector}, type={stype}, present={present}, "
            f"dpl={dpl}, db={db}, s={s}, l={long_mode}, g={g}, avl={avl}}}")


def _kvm_sregs(p: Printer, c: Call, address: int) -> str:
    """arch_print_kvm_sregs (x86_64): cs only unless -v."""
    data = p.fetch(c, address, _KVM_SREGS_SIZE)
    if data is None:
        return addr(address)
    if not p.opts.verbose:
        return p.struct((('cs', _kvm_segment(data, 0)), '...'))
    out = [f"{name}={_kvm_segment(data, i * _KVM_SEGMENT.size)}" for i, name in enumerate(_SEGMENTS)]
    offset = 8 * _KVM_SEGMENT.size
    for name in ("gdt", "idt"):
        base, limit = _KVM_DTABLE.unpack_from(data, offset)
        out.append(f"{name}={{base={hx(base)}, limit={limit}}}")
        offset += _KVM_DTABLE.size
    values = struct.unpack_from("<7Q4Q", data, offset)
    out += [f"{n}={v}" for n, v in zip(("cr0", "cr2", "cr3", "cr4", "cr8", "efer"), values, strict=False)]
    out.append(f"apic_base={hx(values[6])}")
    out.append(f"interrupt_bitmap={_x_array(values[7:])}")
    return "{" + ", ".join(out) + "}"


_KVM_REGION = struct.Struct("<IIQQQ")


def _kvm_memory_region(p: Printer, c: Call, address: int) -> str:
    data = p.fetch(c, address, _KVM_REGION.size)
    if data is None:
        return addr(address)
    slot, rflags, gpa, size, uaddr = _KVM_REGION.unpack(data)
    return (p.struct((('slot', f"{slot}"), ('flags', p.flags(rflags, X.KVM_MEM_FLAGS, 'KVM_MEM_???')), ('guest_phys_addr', hx(gpa)), ('memory_size', f"{size}"), ('userspace_addr', hx(uaddr)))))


_KVM_CPUID2_HEAD = struct.Struct("<I4x")  # nent, padding
_KVM_CPUID_ENTRY2 = struct.Struct("<7I12x")  # function, index, flags, eax, ebx, ecx, edx, padding[3]


def _kvm_cpuid_entry(p: Printer, data: bytes) -> str:
    """print_kvm_cpuid_entry."""
    function, index, eflags, eax, ebx, ecx, edx = _KVM_CPUID_ENTRY2.unpack(data)
    return (p.struct((('function', hx(function)), ('index', hx(index)), ('flags', p.flags(eflags, X.KVM_CPUID_FLAGS, 'KVM_CPUID_FLAG_???')), ('eax', hx(eax)), ('ebx', hx(ebx)), ('ecx', hx(ecx)), ('edx', hx(edx)))))


def _kvm_cpuid2(p: Printer, c: Call, address: int) -> str:
    """kvm_ioctl_decode_cpuid2: ``nent`` and, with -v only, every entry (print_array is not cut by -s under -v)."""
    data = p.fetch(c, address, _KVM_CPUID2_HEAD.size)
    if data is None:
        return addr(address)
    nent = _KVM_CPUID2_HEAD.unpack(data)[0]
    if not p.opts.verbose:
        return p.struct((('nent', f"{nent}"), ('entries', f"[{'...' if nent else ''}]")))
    entries = print_array(p, c, address + _KVM_CPUID2_HEAD.size, nent, _KVM_CPUID_ENTRY2.size, partial(_kvm_cpuid_entry, p))
    return p.struct((('nent', f"{nent}"), ('entries', f"{entries}")))


def _kvm_fd_result(p: Printer, c: Call, arg: int, text: str) -> Generator[str, None, None]:
    """KVM_CREATE_VM / KVM_CREATE_VCPU: the argument as given, the result is a descriptor (``-y`` names it)."""
    yield text
    if not c.failed:
        c.ret_text = rv_fd(p, c)
    yield ""


def _kvm_run_plain(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """KVM_RUN: kvm_ioctl_decode_run returns 0 at entry, so strace prints the argument at exit."""
    yield ""
    yield p.tail((hx(arg),))


_VCPU_PREFIX = "anon_inode:kvm-vcpu:"
_KVM_RUN_EXIT_REASON = 8  # offsetof(struct kvm_run, exit_reason): two __u8, __u8 padding1[6]


def _vcpu_exit_reason(p: Printer, c: Call, vcpu_fd: int) -> str | None:
    """kvm.c's vcpu_get_info + kvm_ioctl_run_attach_auxstr: the exit reason in the vCPU's kvm_run.

    The vCPU's name comes from its descriptor (``anon_inode:kvm-vcpu:N``) and its kvm_run from
    the first mapping of that name (device major 0) in /proc/TID/maps, as strace's slow path
    finds it.  strace caches the address per thread until a memory-mapping syscall invalidates
    its maps cache; reading the maps each time gives the same answer without hooking those
    syscalls (and costs only KVM_RUN exits, only under -e kvm=vcpu).  strace reads the whole
    struct kvm_run (2352 bytes, less than the page a mapping has at least) and gives up if it
    cannot: reading the field, on the same first page, fails exactly when that does.
    None: nothing to print.
    """
    try:
        name = os.readlink(f"/proc/{c.pid}/fd/{vcpu_fd}")
        if not name.startswith(_VCPU_PREFIX) or not name[len(_VCPU_PREFIX):].isdigit():
            return None
        with open(f"/proc/{c.pid}/maps", "rb") as maps:
            text = maps.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None
    suffix = " " + name
    for line in text.splitlines():
        if not line.endswith(suffix):
            continue
        fields = line.split(None, 5)
        if len(fields) < 6 or fields[5] != name or int(fields[3].partition(":")[0], 16) != 0:
            continue
        data = c.mem.read(int(fields[0].partition("-")[0], 16) + _KVM_RUN_EXIT_REASON, 4)
        if data is None:
            return None
        return X.KVM_EXIT_REASON.get(struct.unpack("<I", data)[0], "KVM_EXIT_???")
    return None


def kvm_run_vcpu(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """KVM_RUN under -e kvm=vcpu: ``= 0 (KVM_EXIT_IO)`` when the vCPU's kvm_run is mapped."""
    yield ""
    if not c.failed:
        reason = _vcpu_exit_reason(p, c, signed(c.args[0], 32))
        if reason is not None:
            c.ret_text = f"{signed(c.rval, 64)} ({reason})"
    yield p.tail((hx(arg),))


# ---------------------------------------------------------------- evdev.c

_LIMITS = {name: value for value, name in X.EVDEV_LIMITS}
_EV_MAX, _ABS_MAX = _LIMITS["EV_MAX"], _LIMITS["ABS_MAX"]
_IOC_WRITE, _IOC_READ = 1, 2
_EVIOCGABS_NR, _EVIOCSABS_NR, _EVIOCGBIT_NR = 0x40, 0xC0, 0x20
# ``_IOC_NR(EVIOC*(0))`` of the variable-length requests (whose size field is the buffer length).
_NR_MTSLOTS, _NR_NAME, _NR_PHYS, _NR_UNIQ, _NR_PROP = 0x0A, 0x06, 0x07, 0x08, 0x09
_NR_KEY, _NR_LED, _NR_SND, _NR_SW = 0x18, 0x19, 0x1A, 0x1B
_ABSINFO_ORIG, _ABSINFO_RES = 20, 24  # offsetofend(struct input_absinfo, flat / resolution)

# bit_ioctl: EVIOCGBIT(ev, ...)'s table, limit and default per event type (EV_PWR is an int).
_BIT_TABLES: dict[str, tuple[str, str, str]] = {
    "EV_SYN": ("EVDEV_EV", "EV_MAX", "EV_???"), "EV_KEY": ("EVDEV_KEYCODE", "KEY_MAX", "KEY_???"),
    "EV_REL": ("EVDEV_RELATIVE_AXES", "REL_MAX", "REL_???"), "EV_ABS": ("EVDEV_ABS", "ABS_MAX", "ABS_???"),
    "EV_MSC": ("EVDEV_MISC", "MSC_MAX", "MSC_???"), "EV_SW": ("EVDEV_SWITCH", "SW_MAX", "SW_???"),
    "EV_LED": ("EVDEV_LEDS", "LED_MAX", "LED_???"), "EV_SND": ("EVDEV_SND", "SND_MAX", "SND_???"),
    "EV_REP": ("EVDEV_AUTOREPEAT", "REP_MAX", "REP_???"), "EV_FF": ("EVDEV_FF_TYPES", "FF_MAX", "FF_???"),
    "EV_FF_STATUS": ("EVDEV_FF_STATUS", "FF_STATUS_MAX", "FF_STATUS_???"),
}
_BIT_BY_EV: dict[int, tuple[tuple[tuple[int, str], ...], int, str]] = {
    value: (getattr(X, table), _LIMITS[limit], dflt)
    for value, name in X.EVDEV_EV for key, (table, limit, dflt) in _BIT_TABLES.items() if key == name
}
_EV_PWR = next(value for value, name in X.EVDEV_EV if name == "EV_PWR")
_BY_NR: dict[int, tuple[tuple[tuple[int, str], ...], int, str]] = {
    _NR_PROP: (X.EVDEV_PROP, _LIMITS["INPUT_PROP_MAX"], "PROP_???"),
    _NR_SND: (X.EVDEV_SND, _LIMITS["SND_MAX"], "SND_???"),
    _NR_SW: (X.EVDEV_SWITCH, _LIMITS["SW_MAX"], "SW_???"),
    _NR_KEY: (X.EVDEV_KEYCODE, _LIMITS["KEY_MAX"], "KEY_???"),
    _NR_LED: (X.EVDEV_LEDS, _LIMITS["LED_MAX"], "LED_???"),
}


def bitset(p: Printer, names: str, words: str) -> str:
    """decode_bitset's output: the set bits by name (``-X raw``: the words, verbose: both)."""
    if p.style == "abbrev":
        return names
    return words if p.raw else f"{names} /* {words} */"


def _bitset(p: Printer, c: Call, arg: int, table: tuple[tuple[int, str], ...], max_nr: int, dflt: str) -> str:
    """decode_bitset: the bits the kernel wrote (the return value is how many bytes), 4 names then ``...``."""
    rval = c.rval & MASK64
    size_bits = max_nr if rval > max_nr // 8 else rval * 8
    word = 4 if c.arch == "i386" else 8
    size = ((size_bits + 7) // 8 + word - 1) // word * word
    if c.failed or not size:
        return addr(arg)
    data = p.fetch(c, arg, size)
    if data is None:
        return addr(arg)
    value = int.from_bytes(data, "little")
    names = []
    for bit in range(size_bits):
        if value >> bit & 1:
            if len(names) > 3 and not p.opts.verbose:
                names.append("...")
                break
            names.append(p.xval(bit, table, dflt))
    words = [int.from_bytes(data[i:i + word], "little") for i in range(0, size, word)]
    shown = [hx(w) for w in words[:p.opts.max_strlen]] + (["..."] if len(words) > p.opts.max_strlen else [])
    return bitset(p, "[" + " ".join(names) + "]", "[" + ", ".join(shown) + "]")


def _absinfo(p: Printer, c: Call, arg: int, size: int) -> str:
    """abs_ioctl: struct input_absinfo, as much of it as the request's size covers."""
    if size < _ABSINFO_ORIG:
        return addr(arg)
    data = p.fetch(c, arg, min(size, _ABSINFO_RES))
    if data is None:
        return addr(arg)
    fields = struct.unpack_from(f"<{len(data) // 4}I", data)
    out = [('value', fields[0]), ('minimum', fields[1])]
    if p.opts.verbose:
        out += [('maximum', fields[2]), ('fuzz', fields[3]), ('flat', fields[4])]
        if size > _ABSINFO_ORIG:
            if size >= _ABSINFO_RES:
                out.append(('resolution', fields[5]))
            if size != _ABSINFO_RES:
                out.append("...")
    else:
        out.append("...")
    return p.struct(tuple(out))


def _keycode(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, 8)
    if data is None:
        return addr(arg)
    scancode, key = struct.unpack("<II", data)
    return f"[{scancode}, {p.xval(key, X.EVDEV_KEYCODE, 'KEY_???')}]"


def _keycode_v2(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, 40)
    if data is None:
        return addr(arg)
    kflags, length, index, key = struct.unpack_from("<BBHI", data)
    text = f"{{flags={kflags}, len={length}, "
    if not p.opts.verbose:
        return text + "...}"
    return text + (f"index={index}, keycode={p.xval(key, X.EVDEV_KEYCODE, 'KEY_???')}, "
                   f"scancode={_x_array(list(data[8:40]))}}}")


def _input_id(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, 8)
    if data is None:
        return addr(arg)
    return "{{bustype={}, vendor={}, product={}, version={}}}".format(*struct.unpack("<HHHH", data))


def _int_fmt(p: Printer, c: Call, arg: int, fmt: str) -> str:
    """printnum_int with ``%#x``, ``%u`` or ``%d``."""
    data = p.fetch(c, arg, 4)
    if data is None:
        return addr(arg)
    value = struct.unpack("<I", data)[0]
    return f"[{hx(value) if fmt == '#x' else signed(value, 32) if fmt == 'd' else value}]"


def _pair_u32(p: Printer, c: Call, arg: int) -> str:
    """printpair_int with ``%u``."""
    data = p.fetch(c, arg, 8)
    return addr(arg) if data is None else "[{}, {}]".format(*struct.unpack("<II", data))


def _mtslots(p: Printer, c: Call, arg: int, size: int) -> str:
    count = size // 4
    if not count:
        return addr(arg)
    data = p.fetch(c, arg, 4)
    if data is None:
        return addr(arg)
    code = struct.unpack("<I", data)[0]
    shown = min(count - 1, p.opts.max_strlen)
    values = c.mem.read(arg + 4, 4 * shown) if shown else b""
    if values is None:
        items = addr(arg + 4)
    else:
        vals = [str(v) for v in struct.unpack(f"<{shown}i", values)]
        items = "[" + ", ".join(vals + (["..."] if count - 1 > shown else [])) + "]"
    return p.struct((('code', p.xval(code, X.EVDEV_MTSLOTS, 'ABS_MT_???')), ('values', f"{items}")))


def _evdev_read(p: Printer, c: Call, code: int, arg: int) -> str:
    """evdev_read_ioctl (at exit)."""
    name = _CODE_NAMES.get(code)
    if name is not None:
        return _READ_FIXED[name](p, c, arg)
    nr, size = code & 0xFF, (code >> 16) & 0x3FFF
    if nr == _NR_MTSLOTS:
        return _mtslots(p, c, arg, size)
    if nr in (_NR_NAME, _NR_PHYS, _NR_UNIQ):
        return addr(arg) if c.failed else p.string_at(c, arg, c.rval & MASK64)
    bits = _BY_NR.get(nr)
    if bits is not None:
        return _bitset(p, c, arg, *bits)
    if nr & ~_ABS_MAX == _EVIOCGABS_NR:
        return _absinfo(p, c, arg, size)
    if nr & ~_EV_MAX == _EVIOCGBIT_NR:
        ev = nr & _EV_MAX
        if ev == _EV_PWR:
            return _int_fmt(p, c, arg, "d")
        bits = _BIT_BY_EV.get(ev)
        return addr(arg) if bits is None else _bitset(p, c, arg, *bits)
    return addr(arg)


# struct ff_effect: type, id, direction, trigger {button, interval}, replay {length, delay}, then the
# union (at offset 16 on both: 14 bytes aligned to 8 or 4) whose periodic member ends in a pointer.
_FF_HEAD = struct.Struct("<HhHHHHH")
_FF_LAYOUT = {"x86_64": (16, 48, "Q"), "i386": (16, 44, "I")}  # union offset, sizeof, pointer
_FF_TYPES = {name: value for value, name in X.EVDEV_FF_TYPES}


def _ff_envelope(data: bytes, offset: int) -> str:
    attack_length, attack_level, fade_length, fade_level = struct.unpack_from("<4H", data, offset)
    return (f"{{attack_length={attack_length}, attack_level={attack_level}, fade_length={fade_length}, "
            f"fade_level={hx(fade_level)}}}")


def _ff_union(data: bytes, ftype: int, offset: int, pointer: str) -> str:
    """The union member ff_effect_ioctl prints for ``type`` (none for the condition effects)."""
    if ftype == _FF_TYPES["FF_CONSTANT"]:
        level = struct.unpack_from("<h", data, offset)[0]
        return f", constant={{level={level}, envelope={_ff_envelope(data, offset + 2)}}}"
    if ftype == _FF_TYPES["FF_RAMP"]:
        start, end = struct.unpack_from("<hh", data, offset)
        return f", ramp={{start_level={start}, end_level={end}, envelope={_ff_envelope(data, offset + 4)}}}"
    if ftype == _FF_TYPES["FF_PERIODIC"]:
        waveform, period, magnitude, off, phase = struct.unpack_from("<HHhhH", data, offset)
        custom_len, custom_data = struct.unpack_from(f"<I{pointer}", data, offset + 20)
        return (f", periodic={{waveform={waveform}, period={period}, magnitude={magnitude}, offset={off}, "
                f"phase={phase}, envelope={_ff_envelope(data, offset + 10)}, custom_len={custom_len}, "
                f"custom_data={addr(custom_data)}}}")
    if ftype == _FF_TYPES["FF_RUMBLE"]:
        strong, weak = struct.unpack_from("<HH", data, offset)
        return f", rumble={{strong_magnitude={strong}, weak_magnitude={weak}}}"
    return ""


def _ff_effect(p: Printer, c: Call, arg: int) -> str:
    """ff_effect_ioctl (EVIOCSFF, at entry): type, id, direction; -v adds trigger, replay and the union."""
    offset, size, pointer = _FF_LAYOUT.get(c.arch, _FF_LAYOUT["x86_64"])
    data = p.fetch(c, arg, size)
    if data is None:
        return addr(arg)
    ftype, fid, direction, button, interval, length, delay = _FF_HEAD.unpack_from(data)
    text = f"{{type={p.xval(ftype, X.EVDEV_FF_TYPES, 'FF_???')}, id={fid}, direction={direction}, "
    if not p.opts.verbose:
        return text + "...}"
    return (text + p.args((f"trigger={{button={button}, interval={interval}}}", f"replay={{length={length}, delay={delay}}}"))
            + _ff_union(data, ftype, offset, pointer) + "}")


def _evdev_write(p: Printer, c: Call, code: int, arg: int) -> str | None:
    """evdev_write_ioctl (at entry); None for requests strace prints as a hex word."""
    name = _CODE_NAMES.get(code)
    if name is not None:
        printer = _WRITE_FIXED.get(name)
        return None if printer is None else printer(p, c, arg)
    nr = code & 0xFF
    if nr & ~_ABS_MAX == _EVIOCSABS_NR:
        return _absinfo(p, c, arg, (code >> 16) & 0x3FFF)
    if nr == _NR_EVIOCSFF:
        return _ff_effect(p, c, arg)
    return addr(arg)


_NR_EVIOCSFF = 0x80
_READ_FIXED: dict[str, Callable[[Call, int], str]] = {
    "EVIOCGVERSION": lambda p, c, a: _int_fmt(p, c, a, "#x"),
    "EVIOCGEFFECTS": lambda p, c, a: _int_fmt(p, c, a, "u"),
    "EVIOCGID": lambda p, c, a: _input_id(p, c, a),
    "EVIOCGREP": lambda p, c, a: _pair_u32(p, c, a),
    "EVIOCGKEYCODE": lambda p, c, a: _keycode(p, c, a),
    "EVIOCGKEYCODE_V2": lambda p, c, a: _keycode_v2(p, c, a),
}
_WRITE_FIXED: dict[str, Callable[[Call, int], str]] = {
    "EVIOCSREP": lambda p, c, a: _pair_u32(p, c, a),
    "EVIOCSKEYCODE": lambda p, c, a: _keycode(p, c, a),
    "EVIOCSKEYCODE_V2": lambda p, c, a: _keycode_v2(p, c, a),
    "EVIOCRMFF": lambda p, c, a: str(signed(a, 32)),
    "EVIOCGRAB": lambda p, c, a: str(a & MASK64),
    "EVIOCREVOKE": lambda p, c, a: str(a & MASK64),
    "EVIOCSCLOCKID": lambda p, c, a: _int_fmt(p, c, a, "u"),
}
_CODE_NAMES: dict[int, str] = {_CODES[n]: n for n in (*_READ_FIXED, *_WRITE_FIXED) if n in _CODES}


def _evdev_read_handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    yield ""
    yield p.tail((_evdev_read(p, c, c.args[1] & 0xFFFFFFFF, arg),))


def _evdev_write_handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    text = _evdev_write(p, c, c.args[1] & 0xFFFFFFFF, arg)
    yield p.tail((hx(arg),)) if text is None else p.tail((f"{text}",))
    yield ""


def evdev_handler(p: Printer, code: int) -> Handler | None:
    """evdev_ioctl: requests of type 'E' by direction (read: at exit; write: at entry; others: hex)."""
    direction = code >> 30
    if direction == _IOC_READ:
        return _evdev_read_handler
    if direction == _IOC_WRITE:
        return _evdev_write_handler
    return None


EVDEV_TYPE = ord("E")


def _at_entry(printer: Callable[[Call, int], str]) -> Handler:
    """A request printed whole at entry."""
    def handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
        yield p.tail((f"{printer(p, c, arg)}",))
        yield ""
    return handler


def _at_exit(printer: Callable[[Call, int], str]) -> Handler:
    """A request returning data: printed at exit, as its address if the call failed."""
    def handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
        yield ""
        yield p.tail((f"{addr(arg) if c.failed else printer(p, c, arg)}",))
    return handler


# ---------------------------------------------------------------- userfaultfd.c

_UFFD_RANGE = struct.Struct("<QQ")
_UFFDIO_API = struct.Struct("<QQQ")
_UFFDIO_REGISTER = struct.Struct("<QQQQ")
_UFFDIO_COPY = struct.Struct("<QQQQq")
_UFFDIO_ZEROPAGE = struct.Struct("<QQQq")


def _uffd_range(start: int, length: int) -> str:
    """tprintf_uffdio_range."""
    return f"{{start={hx(start)}, len={hx(length)}}}"


def _uffdio_api(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
    """UFFDIO_API: api and features at entry; at exit the features if the kernel changed them, and ioctls."""
    data = p.fetch(c, arg, _UFFDIO_API.size)
    if data is None:
        yield p.tail((addr(arg),))
        yield ""
        return
    api, features, _ioctls = _UFFDIO_API.unpack(data)
    yield f", {{api={hx(api)}, features={p.flags(features, X.UFFD_API_FEATURES, 'UFFD_FEATURE_???')}"
    data = None if c.failed else p.fetch(c, arg, _UFFDIO_API.size)
    if data is None:
        yield "}"
        return
    _api, new_features, ioctls = _UFFDIO_API.unpack(data)
    text = ""
    if new_features != features:
        text += f" => features={p.flags(new_features, X.UFFD_API_FEATURES, 'UFFD_FEATURE_???')}"
    yield text + f", ioctls={p.flags(ioctls, X.UFFD_API_FLAGS, '_UFFDIO_???')}}}"


def _uffd_staged(layout: struct.Struct, entry: Callable[[tuple[int, ...]], str],
                 result: Callable[[tuple[int, ...]], str]) -> Handler:
    """UFFDIO_REGISTER/COPY/ZEROPAGE: the request at entry, then the kernel's result field unless it failed."""
    def handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
        data = p.fetch(c, arg, layout.size)
        if data is None:
            yield p.tail((addr(arg),))
            yield ""
            return
        yield ", {" + entry(p, layout.unpack(data))
        data = None if c.failed else p.fetch(c, arg, layout.size)
        yield ("}" if data is None else f", {result(p, layout.unpack(data))}}}")
    return handler


def _uffd_range_arg(p: Printer, c: Call, arg: int) -> str:
    """UFFDIO_WAKE/UNREGISTER: a struct uffdio_range."""
    data = p.fetch(c, arg, _UFFD_RANGE.size, True)
    return addr(arg) if data is None else _uffd_range(*_UFFD_RANGE.unpack(data))


_UFFD_HANDLERS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("UFFDIO_API",), _uffdio_api),
    (("UFFDIO_REGISTER",), _uffd_staged(
        _UFFDIO_REGISTER,
        lambda p, v: p.args((f"range={_uffd_range(v[0], v[1])}", f"mode={p.flags(v[2], X.UFFD_REGISTER_MODE_FLAGS, 'UFFDIO_REGISTER_MODE_???')}")),
        lambda p, v: f"ioctls={p.flags(v[3], X.UFFD_REGISTER_IOCTL_FLAGS, 'UFFDIO_???')}")),
    (("UFFDIO_COPY",), _uffd_staged(
        _UFFDIO_COPY,
        lambda p, v: p.args((f"dst={hx(v[0])}", f"src={hx(v[1])}", f"len={hx(v[2])}", f"mode={p.flags(v[3], X.UFFD_COPY_FLAGS, 'UFFDIO_COPY_???')}")),
        lambda p, v: f"copy={hx(v[4] & MASK64)}")),
    (("UFFDIO_ZEROPAGE",), _uffd_staged(
        _UFFDIO_ZEROPAGE,
        lambda p, v: p.args((f"range={_uffd_range(v[0], v[1])}", f"mode={p.flags(v[2], X.UFFD_ZEROPAGE_FLAGS, 'UFFDIO_ZEROPAGE_???')}")),
        lambda p, v: f"zeropage={hx(v[3] & MASK64)}")),
)


# ---------------------------------------------------------------- rtc.c

_RTC_TIME = struct.Struct("<9i")
_RTC_WKALRM = struct.Struct("<BB2x9i")
_RTC_PLL = {"x86_64": struct.Struct("<6iq"), "i386": struct.Struct("<6ii")}
_RTC_PARAM = struct.Struct("<QQII")
_RTC_PARAM_FEATURES, _RTC_PARAM_CORRECTION, _RTC_PARAM_BACKUP_SWITCH_MODE = (
    next(v for v, n in X.RTC_PARAMS if n == name)
    for name in ("RTC_PARAM_FEATURES", "RTC_PARAM_CORRECTION", "RTC_PARAM_BACKUP_SWITCH_MODE"))


def _rtc_time_fields(p: Printer, v: tuple[int, ...]) -> str:
    """print_rtc_time: tm_wday, tm_yday and tm_isdst only with -v."""
    text = (f"{{tm_sec={v[0]}, tm_min={v[1]}, tm_hour={v[2]}, tm_mday={v[3]}, tm_mon={v[4]}, "
            f"tm_year={v[5]}")
    if p.opts.verbose:
        return text + f", tm_wday={v[6]}, tm_yday={v[7]}, tm_isdst={v[8]}}}"
    return text + ", ...}"


def _rtc_time(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, _RTC_TIME.size, True)
    return addr(arg) if data is None else _rtc_time_fields(p, _RTC_TIME.unpack(data))


def _rtc_wkalrm(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, _RTC_WKALRM.size, True)
    if data is None:
        return addr(arg)
    v = _RTC_WKALRM.unpack(data)
    return p.struct((('enabled', f"{v[0]}"), ('pending', f"{v[1]}"), ('time', _rtc_time_fields(p, v[2:]))))


def _rtc_pll(p: Printer, c: Call, arg: int) -> str:
    layout = _RTC_PLL.get(c.arch, _RTC_PLL["x86_64"])
    data = p.fetch(c, arg, layout.size, True)
    if data is None:
        return addr(arg)
    v = layout.unpack(data)
    return (p.struct((('pll_ctrl', f"{v[0]}"), ('pll_value', f"{v[1]}"), ('pll_max', f"{v[2]}"), ('pll_min', f"{v[3]}"), ('pll_posmult', f"{v[4]}"), ('pll_negmult', f"{v[5]}"), ('pll_clock', f"{v[6]}"))))


def _rtc_vl(p: Printer, c: Call, arg: int) -> str:
    data = p.fetch(c, arg, 4, True)
    return addr(arg) if data is None else f"[{p.flags(struct.unpack('<I', data)[0], X.RTC_VL_FLAGS, 'RTC_VL_???')}]"


def _rtc_param_value(p: Printer, param: int, value: int) -> str:
    if param == _RTC_PARAM_FEATURES:
        return f"uvalue={p.flags(value, X.RTC_FEATURES, '1<<RTC_FEATURE_???')}"
    if param == _RTC_PARAM_CORRECTION:
        return f"svalue={signed(value, 64)}"
    if param == _RTC_PARAM_BACKUP_SWITCH_MODE:
        return f"uvalue={p.xval(value, X.RTC_BACKUP_SWITCH_MODES, 'RTC_BSM_???')}"
    return f"uvalue={hx(value)}"


def _rtc_param(get: bool) -> Handler:
    """decode_rtc_param: RTC_PARAM_SET whole at entry; RTC_PARAM_GET's value after ``=>`` at exit."""
    def handler(p: Printer, c: Call, arg: int) -> Generator[str, None, None]:
        data = p.fetch(c, arg, _RTC_PARAM.size, True)
        if data is None:
            yield p.tail((addr(arg),))
            yield ""
            return
        param, value, index, pad = _RTC_PARAM.unpack(data)
        parts = [f"param={p.xval(param, X.RTC_PARAMS, 'RTC_PARAM_???')}"]
        if not get:
            parts.append(_rtc_param_value(p, param, value))
        parts.append(f"index={index}")
        if pad:
            parts.append(f"__pad={hx(pad)}")
        yield ", {" + ", ".join(parts) + "}"
        if not get:
            yield ""
            return
        data = p.fetch(c, arg, _RTC_PARAM.size)
        if data is None:
            yield f" => {addr(arg)}"
            return
        param, value, _index, pad = _RTC_PARAM.unpack(data)
        parts = [_rtc_param_value(p, param, value)] + ([f"__pad={hx(pad)}"] if pad else [])
        yield " => {" + ", ".join(parts) + "}"
    return handler


def _ulong(p: Printer, c: Call, arg: int) -> str:
    """printnum_ulong."""
    size, fmt = (4, "<I") if c.arch == "i386" else (8, "<Q")
    data = p.fetch(c, arg, size)
    return addr(arg) if data is None else f"[{struct.unpack(fmt, data)[0]}]"


_RTC_HANDLERS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("RTC_ALM_READ", "RTC_RD_TIME"), _at_exit(lambda p, c, a: _rtc_time(p, c, a))),
    (("RTC_ALM_SET", "RTC_SET_TIME"), _at_entry(lambda p, c, a: _rtc_time(p, c, a))),
    (("RTC_IRQP_READ", "RTC_EPOCH_READ"), _at_exit(lambda p, c, a: _ulong(p, c, a))),
    (("RTC_WKALM_RD",), _at_exit(lambda p, c, a: _rtc_wkalrm(p, c, a))),
    (("RTC_WKALM_SET",), _at_entry(lambda p, c, a: _rtc_wkalrm(p, c, a))),
    (("RTC_PLL_GET",), _at_exit(lambda p, c, a: _rtc_pll(p, c, a))),
    (("RTC_PLL_SET",), _at_entry(lambda p, c, a: _rtc_pll(p, c, a))),
    (("RTC_VL_READ",), _at_exit(lambda p, c, a: _rtc_vl(p, c, a))),
    (("RTC_PARAM_GET",), _rtc_param(True)),
    (("RTC_PARAM_SET",), _rtc_param(False)),
)


# ---------------------------------------------------------------- the table


_HANDLERS: tuple[tuple[tuple[str, ...], Handler], ...] = (
    (("LOOP_SET_STATUS",), _at_entry(lambda p, c, a: _loop_info(p, c, a))),
    (("LOOP_GET_STATUS",), _at_exit(lambda p, c, a: _loop_info(p, c, a))),
    (("LOOP_SET_STATUS64",), _at_entry(lambda p, c, a: _loop_info64(p, c, a))),
    (("LOOP_GET_STATUS64",), _at_exit(lambda p, c, a: _loop_info64(p, c, a))),
    (("LOOP_CONFIGURE",), _at_entry(lambda p, c, a: _loop_config(p, c, a))),
    (("FS_IOC_FSGETXATTR",), _at_exit(lambda p, c, a: _fsxattr(p, c, a, True))),
    (("FS_IOC_FSSETXATTR",), _at_entry(lambda p, c, a: _fsxattr(p, c, a, False))),
    (("FS_IOC_GETFLAGS", "FS_IOC32_GETFLAGS"), _at_exit(lambda p, c, a: _fs_ioc_flags(p, c, a))),
    (("FS_IOC_SETFLAGS", "FS_IOC32_SETFLAGS"), _at_entry(lambda p, c, a: _fs_ioc_flags(p, c, a))),
    (("FS_IOC_FIEMAP",), _fiemap),
    (("FICLONE",), _at_entry(lambda p, c, a: str(signed(a, 32)))),  # fs_0x94_ioctl: the source fd as an int
    (("BLKPG",), _at_entry(lambda p, c, a: _blkpg(p, c, a))),
    (("BLKTRACESETUP",), _blktrace_setup),
    (("PERF_EVENT_IOC_QUERY_BPF",), _perf_query_bpf),
    (("PERF_EVENT_IOC_MODIFY_ATTRIBUTES",), _at_entry(lambda p, c, a: _perf_modify_attributes(p, c, a))),
    (("KVM_SET_USER_MEMORY_REGION",), _at_entry(lambda p, c, a: _kvm_memory_region(p, c, a))),
    (("KVM_SET_REGS",), _at_entry(lambda p, c, a: _kvm_regs(p, c, a))),
    (("KVM_GET_REGS",), _at_exit(lambda p, c, a: _kvm_regs(p, c, a))),
    (("KVM_SET_SREGS",), _at_entry(lambda p, c, a: _kvm_sregs(p, c, a))),
    (("KVM_GET_SREGS",), _at_exit(lambda p, c, a: _kvm_sregs(p, c, a))),
    (("KVM_SET_CPUID2",), _at_entry(lambda p, c, a: _kvm_cpuid2(p, c, a))),
    (("KVM_GET_SUPPORTED_CPUID", "KVM_GET_EMULATED_CPUID"), _at_exit(lambda p, c, a: _kvm_cpuid2(p, c, a))),
    (("KVM_CREATE_VM",), lambda p, c, a: _kvm_fd_result(p, c, a, p.tail((hx(a),)))),
    (("KVM_CREATE_VCPU",), lambda p, c, a: _kvm_fd_result(p, c, a, p.tail((f"{a & 0xFFFFFFFF}",)))),
    (("KVM_RUN",), _kvm_run_plain),
    (("UFFDIO_WAKE", "UFFDIO_UNREGISTER"), _at_entry(lambda p, c, a: _uffd_range_arg(p, c, a))),
) + _UFFD_HANDLERS + _RTC_HANDLERS

# request code -> staged handler; the printers are called through module globals (lambdas), so
# each handler gets the printer of the call it prints.
STAGED: dict[int, Handler] = {_CODES[n]: h for names, h in _HANDLERS for n in names if n in _CODES}
NAMES: dict[str, int] = _CODES
