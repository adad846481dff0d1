"""Session fixtures shared by the differential and system tests: markers and the compiled C test programs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

# helpers.py sits next to this file; make it importable as "helpers" whatever
# pytest's import mode or whether tests/ ever becomes a package.
sys.path.insert(0, str(Path(__file__).resolve().parent))

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"


def _default_signal_state() -> None:
    """The tracers the tests start inherit this process's ignored signals, and the -I tests compare
    what strace and pytrace do when those arrive: so the suite starts them as a terminal session
    would, whatever started the suite.  ``nohup`` ignores SIGHUP; a non-interactive shell's
    background job ignores SIGINT and SIGQUIT.  The tests that need an inherited ignore or mask
    set it up themselves, per tracer run (fault_launcher's options)."""
    import signal

    for sig in (signal.SIGHUP, signal.SIGQUIT, signal.SIGTERM):
        if signal.getsignal(sig) == signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM))


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers so ``-m differential`` / ``-m system`` select suites and typos are caught;
    the signal state every test starts from (``_default_signal_state``), in each xdist worker too."""
    _default_signal_state()
    config.addinivalue_line(
        "markers", "differential: compares pytrace's output with real strace's, byte for byte"
    )
    config.addinivalue_line(
        "markers", "system: runs a tracer end to end (attach, signals, errors, exit status)"
    )


def _compile(source: Path, build_dir: Path) -> tuple[str, Path, subprocess.CompletedProcess[str]]:
    """Build one program exactly as documented: gcc -O0 -g -o BUILD/NAME NAME.c -lpthread."""
    target = build_dir / source.stem
    result = subprocess.run(
        ["gcc", "-O0", "-g", "-o", str(target), str(source), "-lpthread"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return source.stem, target, result


@pytest.fixture(scope="session")
def programs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Compile every tests/programs/*.c once per session (per xdist worker) and map name -> binary.

    Each xdist worker has its own basetemp, so workers never race on the
    build directory; the programs are tiny, building them twice costs less
    than a lock.  gcc is a declared test dependency: its absence is a failure,
    never a silent skip.
    """
    if shutil.which("gcc") is None:
        pytest.fail("gcc is required to build tests/programs/*.c (it is a test dependency)")
    sources = sorted(PROGRAMS_DIR.glob("*.c"))
    if not sources:
        pytest.fail(f"no C test programs found in {PROGRAMS_DIR}")
    build_dir = tmp_path_factory.mktemp("programs")
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda source: _compile(source, build_dir), sources))
    failures = [f"{name}:\n{result.stderr}" for name, _, result in results if result.returncode != 0]
    if failures:
        pytest.fail("compiling test programs failed:\n" + "\n".join(failures))
    return {name: target for name, target, _ in results}
