"""Decoders: futex (strace futex.c)."""

from __future__ import annotations
