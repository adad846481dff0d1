"""The README's set-up commands are what newcomers paste and what CI runs; keep them from drifting apart."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    head = text.split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", head, re.S)


def test_readme_opens_with_exactly_two_setup_commands() -> None:
    cmds = _readme_commands()
    assert len(cmds) == 2, cmds
    assert all("\n" not in c for c in cmds), "each set-up command is one line a newcomer can paste"
    assert "pytrace" in cmds[0] and "pip install" in cmds[0]
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    block = ci.split("# README-TEST-COMMAND-BEGIN\n", 1)[1].split("\n# README-TEST-COMMAND-END", 1)[0]
    assert block.strip() == _readme_commands()[1].strip()
