"""Function names for frames: libunwind's ``get_proc_name`` and strace's frame line formats.

libunwind (``_Uelf64_get_proc_name``) opens the file of the first maps line
containing the address, computes the load offset from the ``PT_LOAD`` whose
``p_offset`` equals the mapping's offset (0 if none does), and takes the defined
``STT_FUNC`` symbol with the smallest distance below the address, from the
symbol tables and from MiniDebugInfo; a distance not smaller than the file's
size means "not found".  Symbol sizes are not looked at, so an address in a
function whose own symbol was stripped gets the name of the closest exported
function before it (``__libc_start_call_main`` shows as
``__libc_init_first+0x8a``), exactly as under strace.

For every frame but the first (and those after a signal frame) the lookup is
made at ``ip - 1`` -- the call instruction, not the return address -- and the
printed offset is then incremented back, so it stays relative to ``ip``.

strace prints C++ names demangled (``cplus_demangle`` with ``DMGL_PARAMS``);
here ``_Z`` names go through ``__cxa_demangle`` from libstdc++, the same
demangler, when that library is installed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import TYPE_CHECKING, Any

from pytrace.stack.elfcache import image_for

if TYPE_CHECKING:
    from pytrace.stack.maps import Mapping, Maps


def mapping_image(m: Mapping) -> Any:
    """The ElfImage of a maps line (memoised on the line, with its load bias), or None."""
    img = m.image
    if img is None:
        img = image_for(m.path) if m.path else None
        m.image = img if img is not None else False
        if img is not None:
            ptxt = img.ptxt(m.offset)
            if ptxt is not None:
                m.bias = m.symoff = m.start - ptxt[1]
        return img
    return img or None


def proc_name(maps: Maps, ip: int, prev_instr: bool) -> tuple[str, int] | None:
    """(name, offset from the name) for a frame at ``ip``, None when libunwind finds none."""
    lookup = ip - 1 if prev_instr else ip
    m = maps.line_for(lookup)
    if m is None:
        return None
    return name_in(m, lookup, prev_instr)


def name_in(m: Mapping, lookup: int, prev_instr: bool) -> tuple[str, int] | None:
    """proc_name once the maps line of ``lookup`` is known."""
    img = m.image
    if img is None:
        img = mapping_image(m)
    if not img:
        return None
    key = lookup - m.symoff
    cache = img.syms
    if key in cache:
        found = cache[key]
    else:
        found = _lookup(img, lookup, m.symoff)
        if not img.symbols.abs_values:  # SHN_ABS symbols do not move with the load offset
            cache[key] = found
    if found is None:
        return None
    dist, name = found
    return name, dist + 1 if prev_instr else dist


def _lookup(img: Any, lookup: int, load_offset: int) -> tuple[int, str] | None:
    best = img.symbols.closest(lookup, load_offset)
    mini = img.mini_symbols
    if mini is not None:
        alt = mini.closest(lookup, load_offset)
        if alt is not None and (best is None or alt[0] < best[0]):
            best = alt
    if best is None or best[0] >= img.size:
        return None
    return best[0], _demangle(best[1])


_cxa_demangle = None
_demangled: dict[str, str] = {}


def _demangle(name: str) -> str:
    if not name.startswith("_Z"):
        return name
    out = _demangled.get(name)
    if out is None:
        out = _demangled[name] = _cxa(name) or name
    return out


def _cxa(name: str) -> str | None:
    global _cxa_demangle
    if _cxa_demangle is None:
        lib = ctypes.util.find_library("stdc++")
        fn = None
        if lib:
            try:
                fn = ctypes.CDLL(lib).__cxa_demangle
                fn.restype = ctypes.c_void_p
                fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
            except (OSError, AttributeError):
                fn = None
        _cxa_demangle = fn or False
    if not _cxa_demangle:
        return None
    status = ctypes.c_int(0)
    ptr = _cxa_demangle(name.encode(), None, None, ctypes.byref(status))
    if not ptr or status.value != 0:
        return None
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        ctypes.CDLL(None).free(ctypes.c_void_p(ptr))


def format_frame(path: str, sym: tuple[str, int] | None, true_offset: int, queued: bool) -> str:
    """One `` > ...`` line, in strace's ``print_call_cb`` / ``sprint_call_or_error`` formats.

    A live walk prints ``path() [0x...]`` for a frame without a name; a walk
    captured at syscall entry (exit, exit_group, execve) and printed later goes
    through strace's queue, whose formatter tests only that the name pointer is
    set, so it prints ``path(+0x0) [0x...]`` instead.
    """
    if sym is not None and sym[0]:
        return f" > {path}({sym[0]}+0x{sym[1]:x}) [0x{true_offset:x}]\n"
    if queued:
        off = sym[1] if sym is not None else 0
        return f" > {path}(+0x{off:x}) [0x{true_offset:x}]\n"
    return f" > {path}() [0x{true_offset:x}]\n"


def format_error(message: str, ip: int) -> str:
    return f" > {message} [0x{ip:x}]\n" if ip else f" > {message}\n"
