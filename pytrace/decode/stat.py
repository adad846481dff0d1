"""Decoders: stat family."""

from __future__ import annotations
