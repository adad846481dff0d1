"""Decoders: ioctl family."""

from __future__ import annotations
