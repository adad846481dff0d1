"""A non-editable ``pip install .`` ships every subpackage: pyproject lists them explicitly."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_subpackage_is_listed_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "pytrace").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert on_disk - listed == set(), "subpackages missing from [tool.setuptools] packages"
