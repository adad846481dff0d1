"""Decoders: poll family."""

from __future__ import annotations
