"""Decoders: memory family."""

from __future__ import annotations
