"""Network fields that socket (``net.py``) and netlink (``netlink*.py``) decoding both print:
interface indexes, IPv4/IPv6 address fields and network-order numbers.

Why a module of their own: netlink payloads print the same fields as sockaddrs, and
``net.py`` decodes netlink socket buffers, so keeping them in ``net.py`` made ``net`` and
the ``netlink*`` modules import each other.  This module imports neither.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytrace.decode.printer import Printer

import _socket  # the C module: `socket` adds ~2 ms of enum building to every start-up

from pytrace.decode.format import quote
from pytrace.tables import xlat as X

AF_INET, AF_INET6 = (next(v for v, n in X.ADDRESS_FAMILIES if n == name) for name in ("AF_INET", "AF_INET6"))


def ifindex(p: Printer, index: int) -> str:
    """print_ifindex: ``if_nametoindex("lo")`` when the index names an interface, else the number."""
    try:
        name = _socket.if_indextoname(index)
    except (OSError, OverflowError, ValueError):
        return str(index)
    return p.print_xlat(index, f'if_nametoindex({p.quote(name.encode())})', "u")


def styled_field(p: Printer, name: str, data: bytes, size: int, abbrev: str, strip_name: bool = True) -> str:
    """A network-order field under -X raw/verbose: its bytes in hex (all of them: print_inet_addr shows
    ``len`` bytes), then, verbose, the abbrev text in a comment (without the field name)."""
    text = f"{name}={quote(bytes(data[:max(size, len(data))]), force_hex=True)}"
    if p.raw:
        return text
    expr = abbrev[len(name) + 1:] if strip_name else abbrev.replace(f", &{name})", ")")
    return f"{text} /* {expr} */"


def inet_addr_field(p: Printer, name: str, raw: bytes) -> str:
    if p.style != "abbrev":
        return styled_field(p, name, raw, 4, inet_addr_field(p.abbrev, name, raw))
    return f"{name}=inet_addr({p.quote(_socket.inet_ntop(_socket.AF_INET, raw[:4]).encode())})"


def inet_pton_field(p: Printer, name: str, raw: bytes) -> str:
    if p.style != "abbrev":
        return styled_field(p, name, raw, 16, inet_pton_field(p.abbrev, name, raw), strip_name=False)
    return f"inet_pton(AF_INET6, {p.quote(_socket.inet_ntop(_socket.AF_INET6, raw[:16]).encode())}, &{name})"


def htons_field(p: Printer, name: str, raw: bytes) -> str:
    if p.style != "abbrev":
        return styled_field(p, name, raw, 2, htons_field(p.abbrev, name, raw))
    return f"{name}=htons({int.from_bytes(raw[:2], 'big')})"
