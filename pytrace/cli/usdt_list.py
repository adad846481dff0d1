"""``pyltrace --list-usdt PROGRAM`` / ``--list-usdt -p PID``: every USDT probe of a program and its libraries.

One line per probe (usdt.list_line): ``FILE PROVIDER:NAME semaphore=yes|no ARGS...``,
the program first, then its libraries in the order the dynamic linker loads them.

Which libraries: for a program, the ones its dynamic linker would load, asked of the
linker itself as ``ldd`` does (``INTERP --list PROGRAM``: it maps them and exits
without running any of the program's code), so RUNPATH, ``$ORIGIN``,
``LD_LIBRARY_PATH``, ld.so.cache and hwcaps directories resolve exactly as at run
time; a static program (no PT_INTERP) is listed alone.  For ``-p PID``, the objects
mapped in the process now (objects.loaded_objects), dlopen'ed ones included.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

from pytrace.ltrace.usdt import list_line, read_probes

PROG = "pyltrace"
_LDD_LINE = re.compile(r"^\s*(?:\S+ => )?(/\S+) \(0x[0-9a-f]+\)$")


def _interpreter(path: str) -> str | None:
    """PT_INTERP's path; OSError / ELFError for a file that is not ELF, None when damaged past that."""
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as f:
        elf = ELFFile(f)
        try:
            for seg in elf.iter_segments():
                if seg["p_type"] == "PT_INTERP":
                    return str(seg.get_interp_name())
        except Exception:  # noqa: BLE001 - damaged headers: the file alone (its notes say the rest)
            return None
    return None


def program_objects(path: str) -> list[str]:
    """The program's file and every library its dynamic linker loads for it (ldd's list)."""
    files = [path]
    interp = _interpreter(path)
    if interp is None:
        return files
    r = subprocess.run([interp, "--list", path], capture_output=True, text=True, errors="replace",
                       timeout=60, check=False)
    for line in r.stdout.splitlines():
        m = _LDD_LINE.match(line)
        if m and os.path.realpath(m.group(1)) != os.path.realpath(path) and m.group(1) not in files:
            files.append(m.group(1))
    return files


def process_objects(pid: int) -> list[str]:
    from pytrace.ltrace.objects import loaded_objects

    try:
        main = os.readlink(f"/proc/{pid}/exe")
    except OSError as exc:
        raise OSError(exc.errno, f"Cannot attach to pid {pid}: {os.strerror(exc.errno or 0)}") from None
    objs = loaded_objects(pid, main)
    return [o.path for o in sorted(objs, key=lambda o: not o.is_main)]


def list_usdt(program: str | None, pids: list[int]) -> int:
    """Print the probes; the exit status (1, with one line on stderr, when the program cannot be read)."""
    from elftools.common.exceptions import ELFError

    from pytrace.backends.ptrace import launcher

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head`: end as a C tool does, killed by SIGPIPE
    try:
        if pids:
            files = [f for pid in pids for f in process_objects(pid)]
        else:
            assert program is not None
            try:
                path = launcher.resolve_command(program)
            except launcher.LaunchError:
                sys.stderr.write(f"{PROG}: Can't open `{program}': No such file or directory\n")
                return 1
            files = program_objects(path)
    except OSError as exc:
        where = f'can\'t open "{program}": ' if program and not pids else ""
        sys.stderr.write(f"{PROG}: {where}{exc.strerror or exc}\n")
        return 1
    except (ELFError, ValueError) as exc:
        sys.stderr.write(f'{PROG}: "{program}" is not an ELF file ({exc})\n')
        return 1
    out = []
    status = 0
    for i, f in enumerate(files):
        try:
            out.extend(list_line(p) for p in read_probes(f))
        except Exception as exc:  # noqa: BLE001 - a damaged file (pyelftools raises many kinds): say so, go on
            sys.stderr.write(f"{PROG}: {f}: cannot read its notes: {exc}\n")
            status = status or int(i == 0 and not pids)
    sys.stdout.write("".join(line + "\n" for line in out))
    sys.stdout.flush()
    return status
