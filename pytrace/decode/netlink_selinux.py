"""NETLINK_SELINUX payloads (strace 6.1 netlink_selinux.c): the two messages the kernel sends."""
from __future__ import annotations

import struct
from typing import Any

from pytrace.decode.format import addr
from pytrace.decode.nlattr import Mem, hexstr
from pytrace.decode.nlattr import value_of as _v
from pytrace.tables import xlat as X

_SETENFORCE = _v(X.NL_SELINUX_TYPES, "SELNL_MSG_SETENFORCE")
_POLICYLOAD = _v(X.NL_SELINUX_TYPES, "SELNL_MSG_POLICYLOAD")


def decode_selinux(m: Mem, hdr: tuple[int, int, int, int, int], address: int, length: int) -> str | None:
    """``{val=1}`` (struct selnl_msg_setenforce, signed) or ``{seqno=3}`` (selnl_msg_policyload)."""
    mtype = hdr[1]
    if mtype == _SETENFORCE:
        fmt, field = "<i", "val"
    elif mtype == _POLICYLOAD:
        fmt, field = "<I", "seqno"
    else:
        return None
    if length < 4:
        return hexstr(m, address, length)
    raw = m.get(address, 4)
    if raw is None:
        return addr(address)
    return f"{{{field}={struct.unpack(fmt, raw)[0]}}}"


def register(decoders: dict[int, Any], selinux: int) -> None:
    """Hook the payload decoder into netlink.py's family table."""
    decoders[selinux] = decode_selinux
