"""NETLINK_KOBJECT_UEVENT buffers (strace 6.1 netlink_kobject_uevent.c).

A buffer that starts with libudev's ``struct udev_monitor_netlink_header``
(prefix "libudev") is shown as that structure, followed by the properties as
a string; anything else (kernel uevents, short or unreadable buffers) is one
string, as strace prints it.
"""
from __future__ import annotations

import struct
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_HDR = struct.Struct("<8s4s3I16s")  # prefix, magic (BE), header_size/properties_off/_len, 4 BE hashes
_PREFIX = b"libudev\0"


def _x(v: int) -> str:
    return f"{v:#x}" if v else "0"


def decode_uevent(p: Printer, c: Call, address: int, length: int) -> str:
    """``{prefix="libudev", magic=htonl(0xfeedcafe), ...}`` (+ the properties), else the bytes as a string."""
    raw = c.mem.read(address, _HDR.size) if address and length >= _HDR.size and p.verbose(c) else None
    if raw is None or raw[:8].split(b"\0", 1)[0] != _PREFIX[:7]:
        return p.string_at(c, address, length)
    _prefix, magic_raw, hsize, poff, plen, hashes = _HDR.unpack(raw)
    magic = int.from_bytes(magic_raw, "big")
    h1, h2, b1, b2 = struct.unpack(">4I", hashes)
    text = (p.struct((('prefix', '"libudev"'), ('magic', f"htonl({_x(magic)})"), ('header_size', f"{hsize}"), ('properties_off', f"{poff}"), ('properties_len', f"{plen}"), ('filter_subsystem_hash', f"htonl({_x(h1)})"), ('filter_devtype_hash', f"htonl({_x(h2)})"), ('filter_tag_bloom_hi', f"htonl({_x(b1)})"), ('filter_tag_bloom_lo', f"htonl({_x(b2)})"))))
    if length > _HDR.size:
        text = f"[{text}, {p.string_at(c, address + _HDR.size, length - _HDR.size)}]"
    return text
