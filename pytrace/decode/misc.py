"""Decoders: misc family."""

from __future__ import annotations
