"""pyltrace test fixtures: the test programs, compiled once per session (per xdist worker).

The main program is built the five ways the issue names, because each one
lays the library calls out differently: classic lazy ``.plt``, ``-z now``,
``-fno-plt`` (calls through the GOT, no stub), IBT's ``.plt.sec`` lazy and with
``-z now``.  Every build links the test's own shared library ``libltlib.so``
(found through its RUNPATH).
"""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from lthelp import VARIANTS

SRC = Path(__file__).resolve().parent / "src"


def _run(cmd: list[str]) -> str:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    return "" if r.returncode == 0 else f"{' '.join(cmd)}:\n{r.stderr}"


@pytest.fixture(scope="session")
def lt(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """name -> binary: ltprog_<variant> for each variant, forkthreads, looper, dl, recurse, signals, cxx, lib."""
    for tool in ("gcc", "ltrace"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is required by the pyltrace tests (a declared test dependency)")
    out = tmp_path_factory.mktemp("ltrace")
    lib = out / "libltlib.so"
    err = _run(["gcc", "-O0", "-shared", "-fPIC", "-o", str(lib), str(SRC / "ltlib.c")])
    if err:
        pytest.fail(err)
    link = [f"-L{out}", "-lltlib", f"-Wl,-rpath,{out}"]
    jobs: list[list[str]] = []
    paths: dict[str, Path] = {"lib": lib, "dir": out}
    for name, flags in VARIANTS.items():
        paths[name] = out / f"ltprog_{name}"
        jobs.append(["gcc", "-O0", "-fno-builtin", *flags, "-o", str(paths[name]), str(SRC / "ltprog.c"), *link])
    for name, extra in (("forkthreads", ["-pthread"]), ("looper", []), ("dl", ["-ldl"]),
                        ("recurse", ["-fno-optimize-sibling-calls"]), ("signals", [])):
        paths[name] = out / name
        jobs.append(["gcc", "-O0", "-fno-builtin", "-o", str(paths[name]), str(SRC / f"{name}.c"), *extra])
    paths["cxx"] = out / "cxx"
    jobs.append(["sh", "-c", f"gcc -O0 -shared -fPIC -DLIBRARY -o {out}/libcxx.so {SRC}/cxx.c && "
                 f"gcc -O0 -o {paths['cxx']} {SRC}/cxx.c -L{out} -lcxx -Wl,-rpath,{out}"])
    with ThreadPoolExecutor(max_workers=4) as pool:
        errors = [e for e in pool.map(_run, jobs) if e]
    if errors:
        pytest.fail("compiling the pyltrace test programs failed:\n" + "\n".join(errors))
    return paths
