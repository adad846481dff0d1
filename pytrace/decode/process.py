"""Decoders: process family."""

from __future__ import annotations
