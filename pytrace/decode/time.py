"""Decoders: time family."""

from __future__ import annotations
