"""Ctrl-C at any moment of an attach, even while pytrace is still starting, never harms the tracee."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest
from helpers import tracer_command, tracer_env


@pytest.mark.system
@pytest.mark.parametrize("delay", [0.05, 0.15, 0.3, 0.6])
def test_sigint_during_attach_leaves_tracee_running(delay: float) -> None:
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        time.sleep(0.05)
        tracer = subprocess.Popen([*tracer_command("pytrace"), "-p", str(sleeper.pid), "-o", "/dev/null"],
                                  stderr=subprocess.PIPE, env=tracer_env())
        time.sleep(delay)
        tracer.send_signal(signal.SIGINT)
        _, err = tracer.communicate(timeout=20)
        text = err.decode()
        time.sleep(0.2)
        assert sleeper.poll() is None, "the tracee died"
        with open(f"/proc/{sleeper.pid}/stat") as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        assert state in ("S", "R"), f"tracee left in state {state}"
        if "attached" in text:  # our code was running: a clean detach, in strace's words
            assert f"Process {sleeper.pid} detached" in text
            assert "Traceback" not in text
    finally:
        sleeper.kill()
        sleeper.wait()
