"""Network fields that socket (``net.py``) and netlink (``netlink*.py``) decoding both print:
interface indexes, IPv4/IPv6 address fields and network-order numbers.

Why a module of their own: netlink payloads print the same fields as sockaddrs, and
``net.py`` decodes netlink socket buffers, so keeping them in ``net.py`` made ``net`` and
the ``netlink*`` modules import each other.  This module imports neither.
"""

from __future__ import annotations

import _socket  # the C module: `socket` adds ~2 ms of enum building to every start-up

from pytrace.decode.format import print_xlat, quote
from pytrace.tables import xlat as X

AF_INET, AF_INET6 = (next(v for v, n in X.ADDRESS_FAMILIES if n == name) for name in ("AF_INET", "AF_INET6"))


def ifindex(index: int) -> str:
    """print_ifindex: ``if_nametoindex("lo")`` when the index names an interface, else the number."""
    try:
        name = _socket.if_indextoname(index)
    except (OSError, OverflowError, ValueError):
        return str(index)
    return print_xlat(index, f'if_nametoindex({quote(name.encode())})', "u")


def inet_addr_field(name: str, raw: bytes) -> str:
    return f"{name}=inet_addr({quote(_socket.inet_ntop(_socket.AF_INET, raw[:4]).encode())})"


def inet_pton_field(name: str, raw: bytes) -> str:
    return f"inet_pton(AF_INET6, {quote(_socket.inet_ntop(_socket.AF_INET6, raw[:16]).encode())}, &{name})"


def htons_field(name: str, raw: bytes) -> str:
    return f"{name}=htons({int.from_bytes(raw[:2], 'big')})"
