"""Uprobes through perf_event_open(2)'s ``uprobe`` PMU, each linked to a BPF program with a cookie.

One perf event per probed instruction (``config1`` = the file's path,
``config2`` = the offset in the file, ``config`` bit ``retprobe`` for a
uretprobe), attached with BPF_LINK_CREATE so that every event carries its own
64-bit cookie (``bpf_get_attach_cookie``): one program serves every call site
and still knows which site fired.  Scoping: ``pid`` >= 0 installs the probe in
that process only (the kernel removes it from a forked child at its first hit);
``pid`` = -1 (with CPU 0: the program runs on every CPU, as for tracepoints)
installs it in every process mapping the file, for -f, where the program's pid
map check decides.  Closing the fds detaches everything (no tracefs entries are
ever created).
"""

from __future__ import annotations

import ctypes
import os
import struct
from functools import cache
from pathlib import Path
from typing import Any

from pytrace.backends.ebpf.bpf import (
    PERF_EVENT_IOC_ENABLE,
    PERF_FLAG_FD_CLOEXEC,
    SYS_BPF,
    SYS_PERF_EVENT_OPEN,
    BpfError,
    _libc,
    _syscall,
)

PROG_TYPE_KPROBE = 2
BPF_LINK_CREATE = 28
BPF_PERF_EVENT = 41
_PMU = Path("/sys/bus/event_source/devices/uprobe")


@cache
def pmu_type() -> int:
    """The uprobe PMU's dynamic type number; BpfError(ENOENT) when the kernel has none."""
    try:
        return int((_PMU / "type").read_text())
    except OSError as exc:
        raise BpfError(exc.errno or 2, "the uprobe PMU (/sys/bus/event_source/devices/uprobe)") from None


@cache
def retprobe_bit() -> int:
    """The ``config`` bit that makes a uretprobe (``config:0`` on every kernel so far)."""
    try:
        text = (_PMU / "format" / "retprobe").read_text().strip()
        return int(text.split(":", 1)[1].split("-")[0])
    except (OSError, ValueError, IndexError):
        return 0


@cache
def ref_ctr_shift() -> int:
    """The ``config`` bit where a uprobe's reference-counter offset starts (``config:32-63``); BpfError
    when the kernel has none (before Linux 4.20: no USDT semaphores kept by the kernel)."""
    try:
        text = (_PMU / "format" / "ref_ctr_offset").read_text().strip()
        return int(text.split(":", 1)[1].split("-")[0])
    except (OSError, ValueError, IndexError):
        raise BpfError(95, "uprobe reference counters (/sys/bus/event_source/devices/uprobe/format/ref_ctr_offset)") \
            from None


def open_uprobe(path: str, offset: int, retprobe: bool, pid: int, ref_ctr: int = 0) -> int:
    """A perf event for a uprobe (or uretprobe) at ``offset`` in ``path``; its fd.  ``ref_ctr``: the file
    offset of a USDT semaphore the kernel raises while the probe is installed in a process (0: none)."""
    cpath = ctypes.create_string_buffer(os.fsencode(path))
    config = (1 << retprobe_bit()) if retprobe else 0
    if ref_ctr:
        config |= ref_ctr << ref_ctr_shift()
    attr = struct.pack("<IIQQQQQIIQQ", pmu_type(), 112, config, 0, 0, 0, 0, 0, 0,
                       ctypes.addressof(cpath), offset).ljust(112, b"\0")
    buf = ctypes.create_string_buffer(attr, len(attr))
    cpu = -1 if pid >= 0 else 0
    fd = _syscall(SYS_PERF_EVENT_OPEN, buf, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC)
    if fd < 0:
        kind = "uretprobe" if retprobe else "uprobe"
        raise BpfError(ctypes.get_errno(), f"perf_event_open({kind} {path}+{offset:#x})")
    return int(fd)


def link(prog_fd: int, perf_fd: int, cookie: int) -> int:
    """BPF_LINK_CREATE (BPF_PERF_EVENT) with ``cookie``, then enable the event; the link's fd."""
    attr = struct.pack("<IIIIQ", prog_fd, perf_fd, BPF_PERF_EVENT, 0, cookie).ljust(64, b"\0")
    buf = ctypes.create_string_buffer(attr, len(attr))
    fd = _syscall(SYS_BPF, BPF_LINK_CREATE, buf, len(buf))
    if fd < 0:
        raise BpfError(ctypes.get_errno(), "attaching a BPF program to a uprobe")
    if _libc.ioctl(perf_fd, PERF_EVENT_IOC_ENABLE, 0) < 0:
        err = ctypes.get_errno()
        os.close(fd)
        raise BpfError(err, "enabling a uprobe")
    return int(fd)


def attach(prog_fd: int, path: str, offset: int, *, retprobe: bool = False, pid: int = -1,
           cookie: int = 0, ref_ctr: int = 0) -> list[int]:
    """A probe with ``prog_fd`` attached: [perf fd, link fd] (close both to detach)."""
    pfd = open_uprobe(path, offset, retprobe, pid, ref_ctr)
    try:
        return [pfd, link(prog_fd, pfd, cookie)]
    except BpfError:
        os.close(pfd)
        raise


def file_offset(maps: list[tuple[int, int, str, int, str]], addr: int) -> tuple[str, int] | None:
    """(path, offset in the file) of a run-time address, from /proc/PID/maps lines."""
    for lo, hi, _perms, off, path in maps:
        if lo <= addr < hi:
            return path, addr - lo + off
    return None


def _load_segments(f: Any) -> list[tuple[int, int, int]]:
    """(p_vaddr, p_filesz, p_offset) of an ELF64 file's PT_LOAD segments (struct-parsed: no pyelftools
    import on the start-up path)."""
    f.seek(0)
    head = f.read(64)
    if len(head) < 64 or head[:4] != b"\x7fELF" or head[4] != 2:
        return []
    phoff, = struct.unpack_from("<Q", head, 32)
    phentsize, phnum = struct.unpack_from("<HH", head, 54)
    f.seek(phoff)
    table = f.read(phentsize * phnum)
    out = []
    for i in range(phnum):
        p_type, _flags, p_offset, p_vaddr, _paddr, p_filesz = struct.unpack_from("<IIQQQQ", table, i * phentsize)
        if p_type == 1:  # PT_LOAD
            out.append((p_vaddr, p_filesz, p_offset))
    return out


def vaddr_to_offset(path: str, vaddr: int) -> int | None:
    """The file offset of a link-time virtual address (its PT_LOAD segment's mapping)."""
    try:
        with open(path, "rb") as f:
            segments = _load_segments(f)
    except (OSError, struct.error):
        return None
    for v, size, off in segments:
        if v <= vaddr < v + size:
            return vaddr - v + off
    return None


def entry_point(path: str) -> int | None:
    """The file offset of an ELF64 program's entry point (None: not one)."""
    try:
        with open(path, "rb") as f:
            head = f.read(32)
            if len(head) < 32 or head[:4] != b"\x7fELF" or head[4] != 2:
                return None
            entry, = struct.unpack_from("<Q", head, 24)
            segments = _load_segments(f)
    except (OSError, struct.error):
        return None
    for v, size, off in segments:
        if v <= entry < v + size:
            return entry - v + off
    return None


BPF_TRACE_UPROBE_MULTI = 48
UPROBE_MULTI_RETURN = 1


def attach_multi(prog_fd: int, path: str, offsets: list[int], cookies: list[int], *, retprobe: bool = False,
                 pid: int = 0, ref_ctrs: list[int] | None = None) -> int:
    """Many uprobes in one file as one BPF link (BPF_TRACE_UPROBE_MULTI); the link's fd.

    The program must be loaded with expected_attach_type BPF_TRACE_UPROBE_MULTI.  Closing
    the link removes every probe at once, with one grace period instead of one per probe.
    ``ref_ctrs``: per probe, the file offset of a USDT semaphore (0: none) that the kernel
    raises in each process the probe is installed in and lowers when it is removed -- also
    when the link goes because its owner died (SIGKILL included).
    """
    n = len(offsets)
    cpath = ctypes.create_string_buffer(os.fsencode(path))
    offs = (ctypes.c_uint64 * n)(*offsets)
    cooks = (ctypes.c_uint64 * n)(*cookies)
    refs = (ctypes.c_uint64 * n)(*ref_ctrs) if ref_ctrs and any(ref_ctrs) else None
    attr = struct.pack("<IIIIQQQQIII", prog_fd, 0, BPF_TRACE_UPROBE_MULTI, 0, ctypes.addressof(cpath),
                       ctypes.addressof(offs), ctypes.addressof(refs) if refs is not None else 0,
                       ctypes.addressof(cooks), n,
                       UPROBE_MULTI_RETURN if retprobe else 0, max(pid, 0)).ljust(64, b"\0")
    buf = ctypes.create_string_buffer(attr, len(attr))
    fd = _syscall(SYS_BPF, BPF_LINK_CREATE, buf, len(buf))
    if fd < 0:
        kind = "uretprobes" if retprobe else "uprobes"
        raise BpfError(ctypes.get_errno(), f"attaching {kind} to {path}")
    return int(fd)
