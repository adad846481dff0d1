"""pytrace's on-disk cache directory and the helpers every cache in it shares.

Several parts of pytrace keep what they derived in an earlier run, each in its
own entries of one directory, ``$XDG_CACHE_HOME/pytrace`` (``~/.cache/pytrace``):
pyltrace's ELF facts (ltrace/elf_cache.py) and parsed prototype files
(ltrace/proto_cache.py), the eBPF backend's assembled programs
(backends/ebpf/prog_cache.py) and its BTF answers (backends/ebpf/btf.py).
``PYTRACE_CACHE=0`` in the environment turns all of them off.

What they share is here, in a module of its own so that none of them imports
another's code (and its start-up cost) for it: where the directory is
(``cache_dir``), writing an entry atomically (``write_entry``), bounding the
number of entries of one kind (``prune``) and naming an entry after a key
without importing zlib or hashlib (``digest``).  Every cache is only an
optimisation: any failure here is silent and leaves no partial entry.
"""

from __future__ import annotations

import os

#: ``PYTRACE_CACHE=0`` in the environment: no cache at all (nothing read, nothing written).
CACHE_ENV = "PYTRACE_CACHE"


def cache_dir(environ: os._Environ[str] | dict[str, str] | None = None) -> str | None:
    """``$XDG_CACHE_HOME/pytrace``, else ``~/.cache/pytrace``; None when neither can be named or
    ``PYTRACE_CACHE=0`` turns the cache off."""
    env = os.environ if environ is None else environ
    if env.get(CACHE_ENV) == "0":
        return None
    base = env.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec: a relative value is to be ignored
        home = env.get("HOME") or os.path.expanduser("~")
        if not home or not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return os.path.join(base, "pytrace")


def digest(data: bytes) -> str:
    """16 hex digits that name an entry after ``data`` (a key's bytes), the same in every run.

    Not a checksum: an entry stores its whole key and is used only when that compares
    equal, so a collision is a miss.  A tuple of ints hashes the same in every process
    (str and bytes hashes are salted per process), and needs no zlib or hashlib import.
    """
    return f"{hash(tuple(data)) & 0xFFFF_FFFF_FFFF_FFFF:016x}"


def write_entry(directory: str, final: str, data: bytes) -> None:
    """Put ``data`` at ``final`` inside the cache ``directory`` (made 0700) atomically: a private
    temporary file renamed over the entry, so a concurrent reader sees the old entry or the new one.
    Any failure (read-only or full disk, no home) leaves no entry and no temporary file behind."""
    tmp = None
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        tmp = f"{final}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, final)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def prune(directory: str, keep: int, prefix: str, suffix: str = ".marshal") -> None:
    """Past ``keep`` entries named ``prefix``*``suffix``, delete the least recently written ones
    down to three quarters of it.  Called after a store (a miss), never on a hit.

    Racing runs may delete the same file or one just rewritten: a miss for the next run, no error.
    """
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix) and n.endswith(suffix)]
    except OSError:
        return
    if len(names) <= keep:
        return
    aged = []
    for name in names:
        try:
            aged.append((os.stat(os.path.join(directory, name)).st_mtime_ns, name))
        except OSError:
            continue
    aged.sort()
    for _mtime, name in aged[:len(aged) - keep * 3 // 4]:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass
