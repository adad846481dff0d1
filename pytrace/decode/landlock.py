"""landlock_create_ruleset, landlock_add_rule and landlock_restrict_self as strace 6.1 prints
them (``landlock.c``).
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from pytrace.decode.format import (
    addr,
)
from pytrace.decode.registry import rv_dec, rv_fd, syscall
from pytrace.decode.time import hx
from pytrace.tables import xlat as X

if TYPE_CHECKING:
    from collections.abc import Generator

    from pytrace.decode.printer import Printer
    from pytrace.events import Call

_U32 = 0xFFFFFFFF


_LANDLOCK_CREATE_RULESET_VERSION = 1
_LANDLOCK_RULE_PATH_BENEATH = 1


@syscall("landlock_create_ruleset", rval=rv_fd)
def landlock_create_ruleset(p: Printer, c: Call) -> Generator[str, None, None]:
    """A new ruleset fd, except for the version query, whose result is a plain number."""
    yield _landlock_create_args(p, c)
    if c.args[2] & _LANDLOCK_CREATE_RULESET_VERSION and not c.failed:
        c.ret_text = rv_dec(p, c)
    yield ""


def _landlock_create_args(p: Printer, c: Call) -> str:
    a = c.args
    size = a[1]
    if size < 8:
        attr = addr(a[0])
    else:
        attr = p.umove(c, a[0], struct.Struct("<Q"), lambda acc: (
            f"{{handled_access_fs={p.flags(acc, X.LANDLOCK_ACCESS_FS, 'LANDLOCK_ACCESS_FS_???')}"
            + (", ..." if size > 8 else "") + "}"), ignore_error=True)
    return p.args((f"{attr}", f"{size}", p.flags(a[2] & _U32, X.LANDLOCK_CREATE_FLAGS, 'LANDLOCK_CREATE_RULESET_???')))


@syscall("landlock_add_rule")
def landlock_add_rule(p: Printer, c: Call) -> str:
    a = c.args
    rtype = a[1] & _U32
    if rtype == _LANDLOCK_RULE_PATH_BENEATH:
        attr = p.umove(c, a[2], struct.Struct("<Qi"), lambda acc, pfd: (
            p.struct((('allowed_access', p.flags(acc, X.LANDLOCK_ACCESS_FS, 'LANDLOCK_ACCESS_FS_???')), ('parent_fd', p.fd(c, pfd))))), ignore_error=True)
    else:
        attr = addr(a[2])
    return (p.args((p.fd(c, a[0]), p.xval(rtype, X.LANDLOCK_RULE_TYPES, 'LANDLOCK_RULE_???'), f"{attr}", hx(a[3] & _U32))))


@syscall("landlock_restrict_self")
def landlock_restrict_self(p: Printer, c: Call) -> str:
    return p.args((p.fd(c, c.args[0]), hx(c.args[1] & _U32)))
