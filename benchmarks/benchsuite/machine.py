"""What the figures were taken on: CPU, cores, memory, kernel, distribution, Python, the checkout."""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _cpuinfo() -> tuple[str, bool]:
    model, hypervisor = "unknown", False
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return model, hypervisor
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and model == "unknown":
            model = value.strip()
        elif key.strip() == "flags" and " hypervisor" in f" {value}":
            hypervisor = True
    return model, hypervisor


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError):
        pass
    return "unknown"


def _distribution() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def _git_commit() -> str:
    """The checkout's commit (read-only git queries), '+dirty' when the work tree has changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10, check=False,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (head or "unknown") + ("+dirty" if dirty else "")


def describe() -> dict[str, object]:
    model, hypervisor = _cpuinfo()
    return {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpu": model,
        "cores": os.cpu_count(),
        "virtual_machine": hypervisor,
        "memory": _memory(),
        "kernel": platform.release(),
        "distribution": _distribution(),
        "python": platform.python_version(),
        "commit": _git_commit(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }


def summary_line(machine: dict[str, object]) -> str:
    vm = ", virtual machine" if machine.get("virtual_machine") else ""
    return (
        f"{machine['cpu']}, {machine['cores']} cores{vm}, {machine['memory']} RAM; "
        f"Linux {machine['kernel']} ({machine['distribution']}); Python {machine['python']}"
    )
