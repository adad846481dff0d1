"""Where the x86-64 System V calling convention puts each argument and the return value.

A value is classified by eightbytes (psABI 3.2.3): each 8-byte piece of a
scalar or aggregate is INTEGER (passed in rdi, rsi, rdx, rcx, r8, r9) or SSE
(xmm0-7) after merging the classes of the fields it holds; an aggregate larger
than 16 bytes, or one with a misaligned field, is MEMORY (copied onto the
stack).  When the registers left cannot take every eightbyte of an argument,
the whole argument goes on the stack.  A MEMORY return value is written where
a hidden first argument (rdi) points, and that address comes back in rax.
"""

from __future__ import annotations

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.ctypes_model import Type

INTEGER, SSE, NO_CLASS = "INTEGER", "SSE", "NO_CLASS"
MEMORY = None  # classify() result for a MEMORY-class value


def _leaves(t: Type, off: int, out: list[tuple[int, Type]], seen: frozenset[int]) -> bool:
    """Scalar fields with their offsets; False when a field is misaligned (then MEMORY)."""
    if t.kind == T.STRUCT:
        if id(t) in seen:
            return True
        offs, _ = T.struct_layout(t)
        return all(_leaves(f, off + o, out, seen | {id(t)}) for f, o in zip(t.fields, offs, strict=True))
    if t.kind == T.ARRAY:
        n = T.const_length(t.length)
        if n is None or t.target is None:
            return False
        es = T.sizeof(t.target)
        return all(_leaves(t.target, off + i * es, out, seen) for i in range(n))
    if t.kind == T.VOID:
        return True
    if off % T.alignof(t):
        return False
    out.append((off, t))
    return True


def classify(t: Type) -> list[str] | None:
    """The class of each eightbyte of a value of type ``t``, or MEMORY (None)."""
    if t.kind in T.FLOATS:
        return [SSE]
    if t.kind not in (T.STRUCT,):
        return [INTEGER]  # integers, pointers, and arrays (which decay to pointers as arguments)
    size = T.sizeof(t)
    if size > 16 or size < 0:
        return MEMORY
    if size == 0:
        return []
    leaves: list[tuple[int, Type]] = []
    if not _leaves(t, 0, leaves, frozenset()):
        return MEMORY
    classes = [NO_CLASS] * ((size + 7) // 8)
    for off, leaf in leaves:
        i = off // 8
        want = SSE if leaf.kind in T.FLOATS else INTEGER
        if classes[i] != INTEGER:
            classes[i] = want if classes[i] == NO_CLASS or want == INTEGER else classes[i]
    return [SSE if c == NO_CLASS else c for c in classes]
