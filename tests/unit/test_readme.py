"""The README is what a new user sees first: keep its commands, links and examples from going stale.

* The two set-up commands are what newcomers paste and what CI runs; they must not drift apart.
* Every relative link (and ``#anchor``) in README.md and docs/*.md must lead somewhere.
* Every fenced example that starts with ``$ pytrace`` / ``$ pyltrace`` must still run: its
  ``$`` lines are executed in order in a fresh directory and each must exit 0.  Only the exit
  status is checked, not the output (addresses, pids and times differ on every run), so the test
  is deterministic; the output shown was captured from the same commands.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))

_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
_LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)")


def _readme_commands() -> list[str]:
    text = README.read_text()
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


# -- links -------------------------------------------------------------------------------------


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(md: Path) -> set[str]:
    text = _FENCE.sub("", md.read_text())  # a "# comment" inside a code block is no heading
    slugs: set[str] = set()
    for m in re.finditer(r"^#{1,6} +(.+?) *#*$", text, re.M):
        base = _slug(m.group(1))
        slug, n = base, 0
        while slug in slugs:  # repeated headings get -1, -2, ... as on GitHub
            n += 1
            slug = f"{base}-{n}"
        slugs.add(slug)
    return slugs


def _relative_links(md: Path) -> list[str]:
    text = _FENCE.sub("", md.read_text())
    return [t for t in _LINK.findall(text) if not re.match(r"[a-z][a-z0-9+.-]*:", t)]


def _broken_links(md: Path) -> list[str]:
    broken = []
    for target in _relative_links(md):
        path_part, _, anchor = target.partition("#")
        dest = (md.parent / path_part).resolve() if path_part else md
        if not dest.exists():
            broken.append(f"{target}: no such file")
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(f"{target}: no heading with that anchor in {dest.name}")
    return broken


def test_the_link_checker_can_fail(tmp_path: Path) -> None:
    """The checker below must see a missing page, a missing anchor and ignore web links."""
    (tmp_path / "a.md").write_text("# Top\n\n## Some `code` here\n")
    page = tmp_path / "b.md"
    page.write_text("[ok](a.md#some-code-here) [web](https://example.org/x) [top](#b)\n"
                    "[gone](nothere.md) [bad anchor](a.md#nope)\n```\n[in code](ignored.md)\n```\n# B\n")
    assert _broken_links(page) == ["nothere.md: no such file", "a.md#nope: no heading with that anchor in a.md"]


def test_readme_links_docs_pages_that_exist() -> None:
    linked = {t.partition("#")[0] for t in _relative_links(README) if t.startswith("docs/") and ".md" in t}
    assert linked, "the README links its docs/ pages"
    assert sorted(p for p in linked if not (ROOT / p).is_file()) == []
    unlinked = sorted(p.name for p in DOCS if f"docs/{p.name}" not in linked)
    assert unlinked == [], f"docs pages the README does not link: {unlinked}"


@pytest.mark.parametrize("md", [README, *DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(md: Path) -> None:
    assert _broken_links(md) == []


# -- examples ----------------------------------------------------------------------------------


def _examples() -> list[list[str]]:
    """The ``$`` command lines of each README code block that starts with ``$ pytrace``/``$ pyltrace``."""
    body = README.read_text().split("\n## ", 1)[1]
    blocks = []
    for m in _FENCE.finditer(body):
        lines = m.group(1).splitlines()
        if lines and re.match(r"\$ (pytrace|pyltrace) ", lines[0]):
            blocks.append([line[2:] for line in lines if line.startswith("$ ")])
    return blocks


def test_readme_has_runnable_examples() -> None:
    assert len(_examples()) >= 4, _examples()


@pytest.fixture(scope="module")
def tool_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``pytrace`` and ``pyltrace`` of this checkout, first on PATH (the README's examples assume .venv/bin)."""
    bindir = tmp_path_factory.mktemp("bin")
    for name, module in (("pytrace", "pytrace"), ("pyltrace", "pytrace.cli.ltrace_cli")):
        script = bindir / name
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m {module} "$@"\n')
        script.chmod(0o755)
    return bindir


@pytest.mark.parametrize("commands", _examples(), ids=lambda cmds: cmds[0][:60])
def test_readme_example_runs(commands: list[str], tool_dir: Path, tmp_path: Path) -> None:
    assert shutil.which("bash"), "bash runs the examples (pipefail)"
    env = {
        "PATH": f"{tool_dir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": os.environ.get("HOME", "/root"),
        "LC_ALL": "C",
        "PYTHONPATH": str(ROOT),
    }
    for cmd in commands:
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=tmp_path, env=env, capture_output=True,
                              text=True, errors="backslashreplace", timeout=120, check=False)
        assert proc.returncode == 0, f"$ {cmd}\nexit {proc.returncode}\n{proc.stderr[-3000:]}"
