"""Decoders: net family."""

from __future__ import annotations
