"""Starting the command to trace: PATH search, fork, and the pre-exec stop.

The child stops itself with SIGSTOP before execve so the tracer can
PTRACE_SEIZE it (SEIZE, not TRACEME: only a seized tracee supports
PTRACE_LISTEN, which is what keeps ``kill -STOP``/``-CONT`` behaving as without
tracing).  Everything the child does is prepared in the parent, because the
child's Python code between fork and execve would otherwise show up as traced
syscalls; the tracer hides the child's calls until its execve anyway.
"""

from __future__ import annotations

import os
import pwd
import signal
import stat
import sys


class LaunchError(Exception):
    """A problem found before forking, worded as strace words it."""


def resolve_command(name: str) -> str:
    """strace's PATH search: ``Can't stat 'x'`` when nothing executable is found."""
    if "/" in name:
        candidate = name
    else:
        candidate = name
        for d in os.environ.get("PATH", "/bin:/usr/bin").split(":"):
            p = os.path.join(d or ".", name)
            try:
                st = os.stat(p)
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode) and st.st_mode & 0o111:
                candidate = p
                break
    try:
        os.stat(candidate)
    except OSError as exc:
        raise LaunchError(f"Can't stat '{name}': {os.strerror(exc.errno or 0)}") from None
    return candidate


def build_env(assignments: list[str]) -> dict[str, str]:
    """-E VAR=VAL sets, -E VAR unsets, applied in order over our own environment."""
    env = dict(os.environ)
    for item in assignments:
        if "=" in item:
            k, v = item.split("=", 1)
            env[k] = v
        else:
            env.pop(item, None)
    return env


def lookup_user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise LaunchError(f"Cannot find user '{name}'") from None


def spawn_stopped(path: str, argv: list[str], env: dict[str, str], user: pwd.struct_passwd | None) -> int:
    """Fork a child that SIGSTOPs itself and then execs ``path``; returns its pid (not yet stopped-for-sure)."""
    env_b = {k.encode(): v.encode(errors="surrogateescape") for k, v in env.items()}
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    # Child: undo what the Python runtime changed that execve would otherwise inherit.
    try:
        for sig in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                    signal.SIGQUIT, signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCHLD):
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        if user is not None:
            os.initgroups(user.pw_name, user.pw_gid)
            os.setregid(user.pw_gid, user.pw_gid)
            os.setreuid(user.pw_uid, user.pw_uid)
        os.kill(os.getpid(), signal.SIGSTOP)
        os.execve(path, argv, env_b)
    except OSError as exc:
        prog = os.path.basename(sys.argv[0]) if sys.argv[0] else "pytrace"
        os.write(2, f"{prog}: exec: {os.strerror(exc.errno or 0)}\n".encode())
    os._exit(1)
