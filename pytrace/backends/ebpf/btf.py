"""Offsets of kernel struct members, read from the kernel's own BTF (/sys/kernel/btf/vmlinux).

The backpressure check (programs.throttle) reads the current thread's blocked-signal mask
(``task_struct.blocked``), whose place changes with every kernel build: the kernel describes its
own types in BTF, so the offset is looked up there at load time instead of being compiled in.
Only what is needed is decoded: the string section is searched for the two names, and the type
section is walked (each entry's size from its kind) until the struct is found -- about 6-10 ms
(sysfs hands the 5.5 MB file out a page per read), on the eBPF start-up's critical path once the
verifier's walk was cut (docs/ebpf.md, "Start-up and exit").  So ``cached_member_offset`` keeps
the answer in pytrace's on-disk cache (pytrace/cache.py: ``PYTRACE_CACHE=0`` turns it off),
keyed by the running kernel's build (uname release and version) and its BTF's size.
"""

from __future__ import annotations

import marshal
import os
import struct

VMLINUX = "/sys/kernel/btf/vmlinux"
_HEADER = struct.Struct("<HBBIIIII")  # magic, version, flags, hdr_len, type_off, type_len, str_off, str_len
_TYPE = struct.Struct("<III")  # name_off, info (vlen | kind << 24 | kind_flag << 31), size/type
_MEMBER = struct.Struct("<III")  # name_off, type, offset (in bits; with kind_flag: bitfield size << 24)
_MAGIC = 0xEB9F
_STRUCT = 4
# Bytes after the common part, per kind: fixed, and per vlen entry (include/uapi/linux/btf.h).
_FIXED = {1: 4, 3: 12, 14: 4, 17: 4}  # INT, ARRAY, VAR, DECL_TAG
_PER_ENTRY = {4: 12, 5: 12, 6: 8, 13: 8, 15: 12, 19: 12}  # STRUCT, UNION, ENUM, FUNC_PROTO, DATASEC, ENUM64


def member_offset(struct_name: str, member: str, path: str = VMLINUX) -> int | None:
    """The byte offset of ``struct_name.member`` (a direct member), or None when unknown (no BTF)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < _HEADER.size:
        return None
    magic, _, _, hdr_len, type_off, type_len, str_off, str_len = _HEADER.unpack_from(data, 0)
    if magic != _MAGIC:
        return None
    strings = data[hdr_len + str_off: hdr_len + str_off + str_len]
    want_struct, want_member = _name_offset(strings, struct_name), _name_offset(strings, member)
    if want_struct is None or want_member is None:
        return None
    off, end = hdr_len + type_off, hdr_len + type_off + type_len
    while off + _TYPE.size <= end:
        name, info, _ = _TYPE.unpack_from(data, off)
        kind, vlen = (info >> 24) & 0x1F, info & 0xFFFF
        off += _TYPE.size
        if kind == _STRUCT and name == want_struct and vlen:
            for k in range(vlen):
                m_name, _, m_off = _MEMBER.unpack_from(data, off + _MEMBER.size * k)
                if m_name == want_member:
                    bits = m_off & 0xFFFFFF if info >> 31 else m_off
                    return bits // 8
            return None
        off += _FIXED.get(kind, 0) + vlen * _PER_ENTRY.get(kind, 0)
    return None


def cached_member_offset(struct_name: str, member: str, directory: str | None, path: str = VMLINUX) -> int | None:
    """``member_offset``, from the cache ``directory`` (pytrace.cache.cache_dir(); None: no cache) when
    this kernel build's answer is there, else looked up and stored.  Any cache failure is a miss."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return None
    uname = os.uname()
    key = ("btf-member", 1, uname.release, uname.version, size, struct_name, member)
    entry = None
    if directory is not None:
        entry = os.path.join(directory, f"btf-{struct_name}-{member}.marshal")
        try:
            with open(entry, "rb") as f:
                stored = marshal.loads(f.read())
            if isinstance(stored, tuple) and len(stored) == 2 and stored[0] == key:
                value = stored[1]
                if value is None or isinstance(value, int):
                    return value
        except Exception:  # noqa: BLE001 - missing, unreadable or bad marshal data: a miss
            pass
    value = member_offset(struct_name, member, path)
    if entry is not None and directory is not None:
        from pytrace.cache import write_entry

        write_entry(directory, entry, marshal.dumps((key, value)))
    return value


def _name_offset(strings: bytes, name: str) -> int | None:
    at = strings.find(b"\0" + name.encode() + b"\0")
    return None if at < 0 else at + 1
