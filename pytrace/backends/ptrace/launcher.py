"""Starting the command to trace: PATH search, fork, and the pre-exec stop.

The child stops itself with SIGSTOP before execve so the tracer can
PTRACE_SEIZE it (SEIZE, not TRACEME: only a seized tracee supports
PTRACE_LISTEN, which is what keeps ``kill -STOP``/``-CONT`` behaving as without
tracing).  Everything the child does is prepared in the parent, because the
child's Python code between fork and execve would otherwise show up as traced
syscalls; the tracer hides the child's calls until its execve anyway.
"""

from __future__ import annotations

import _signal as signal  # the C module: the standard one builds enums at import (~0.7 ms of start-up)
import ctypes
import os
import pwd
import stat
import sys

from pytrace.progname import prog_name
from pytrace.records import dataclass  # not dataclasses: start-up cost


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


def build_env(assignments: list[str], base: dict[str, str] | None = None) -> dict[str, str]:
    """-E VAR=VAL sets, -E VAR unsets, applied in order over the environment we were started with
    (or over ``base``, the Python API's ``env=``, taken as given)."""
    if base is None:
        env = dict(os.environ)
        if _coerced_locale(env):
            del env["LC_CTYPE"]
    else:
        env = dict(base)
    for item in assignments:
        if "=" in item:
            k, v = item.split("=", 1)
            env[k] = v
        else:
            env.pop(item, None)
    return env


def _coerced_locale(env: dict[str, str]) -> bool:
    """Whether LC_CTYPE=C.UTF-8 was put there by Python's own start-up, not by whoever started us.

    In the C locale (e.g. LANG=C, no LC_ALL) the interpreter coerces the locale (PEP 538) by setting
    LC_CTYPE=C.UTF-8 in its environment and turns UTF-8 mode on; strace and ltrace pass the command
    the environment they were given, so the command's setlocale() must not see the coercion.  UTF-8
    mode is on with that LC_CTYPE only after a coercion, unless asked for by PYTHONUTF8.
    """
    return (sys.flags.utf8_mode == 1 and env.get("LC_CTYPE") == "C.UTF-8" and "LC_ALL" not in env
            and "PYTHONUTF8" not in env and "utf8" not in sys._xoptions)


def lookup_user(name: str) -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise LaunchError(f"Cannot find user '{name}'") from None


class InheritedSignals:
    """The signal dispositions and mask pytrace was started with, to hand on to the command unchanged.

    strace passes on what it inherited: ``nohup strace -o log cmd`` runs cmd with SIGHUP
    ignored, and a signal its parent blocked stays blocked in cmd.  pytrace reads that state
    before Python or pytrace change it (cli/entry.py) and the child restores exactly that
    before its execve.  ``changes`` is computed in the parent so the child only makes the calls.
    """

    __slots__ = ("ignored", "blocked")

    def __init__(self, ignored_bits: int, blocked_bits: int) -> None:
        self.ignored = frozenset(n for n in range(1, 65) if ignored_bits >> (n - 1) & 1)
        self.blocked = frozenset(n for n in range(1, 65) if blocked_bits >> (n - 1) & 1)

    def disposition(self, sig: int) -> int:
        """What ``sig`` was set to when pytrace started: SIG_IGN or SIG_DFL (caught ones do not survive exec)."""
        return signal.SIG_IGN if sig in self.ignored else signal.SIG_DFL

    def changes(self) -> list[tuple[int, int]]:
        """The (signal, disposition) pairs to set: every inherited SIG_IGN, and what differs now from SIG_DFL."""
        out = []
        for sig in signal.valid_signals():
            if sig in (signal.SIGKILL, signal.SIGSTOP):
                continue
            want = self.disposition(sig)
            if want == signal.SIG_IGN or signal.getsignal(sig) != want:
                out.append((int(sig), want))
        return out


def _default_exec_state() -> tuple[list[tuple[int, int]], list[int]]:
    """Without a known inherited state (library use): default dispositions for what Python changes, no mask."""
    sigs = (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT,
            signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGCHLD, signal.SIGALRM)
    return [(int(sig), signal.SIG_DFL) for sig in sigs], []


def exec_state(signals: InheritedSignals | None) -> tuple[list[tuple[int, int]], list[int]]:
    """What the child sets before execve: dispositions to change, and the signal mask."""
    if signals is None:
        return _default_exec_state()
    return signals.changes(), sorted(signals.blocked)


class SeccompFilter:
    """A --seccomp-bpf program made ready in the parent, for the child to install just before execve.

    Everything is prepared here (the ``struct sock_fprog``, the ctypes functions, the syscall
    number) so the child, which is Python, only makes the calls: its work between fork and
    execve stays minimal.  ``install`` first tries without no_new_privs, which the kernel
    allows a tracee that has CAP_SYS_ADMIN (pytrace run as root without -u): then setuid and
    file-capability programs behave as they do untraced.  Otherwise it sets no_new_privs, as
    strace always does, and tries again.
    """

    def __init__(self, code: bytes) -> None:
        from pytrace.backends.ptrace.seccomp import C
        from pytrace.tables.syscalls import table

        class SockFprog(ctypes.Structure):
            _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.c_void_p))

        self._insns = ctypes.create_string_buffer(code, len(code))
        self._fprog = SockFprog(len(code) // 8, ctypes.addressof(self._insns))
        self._fprog_ref = ctypes.byref(self._fprog)
        libc = ctypes.CDLL(None, use_errno=True)
        self._prctl = libc.prctl
        self._syscall = libc.syscall
        self._nr_seccomp = table("x86_64").by_name["seccomp"].nr
        self._set_mode_filter = C["SECCOMP_SET_MODE_FILTER"]
        self._no_new_privs = C["PR_SET_NO_NEW_PRIVS"]

    @staticmethod
    def kernel_supports() -> bool:
        """strace's probe: prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL) fails with EFAULT, not EINVAL."""
        from pytrace.backends.ptrace.seccomp import C

        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(C["PR_SET_SECCOMP"], C["SECCOMP_MODE_FILTER"], None, 0, 0) == 0:
            return True  # cannot happen with a NULL program; would mean filtering is on anyway
        return ctypes.get_errno() == 14  # EFAULT

    def install(self) -> str | None:
        """In the child: install the filter; an error text (strace's wording) if it cannot be done."""
        if self._syscall(self._nr_seccomp, self._set_mode_filter, 0, self._fprog_ref) == 0:
            return None
        if self._prctl(self._no_new_privs, 1, 0, 0, 0) != 0:
            return f"init_seccomp_filter: prctl(PR_SET_NO_NEW_PRIVS): {os.strerror(ctypes.get_errno())}"
        if self._syscall(self._nr_seccomp, self._set_mode_filter, 0, self._fprog_ref) != 0:
            return f"init_seccomp_filter: seccomp(SECCOMP_SET_MODE_FILTER): {os.strerror(ctypes.get_errno())}"
        return None


def spawn_stopped(
    path: str, argv: list[str], env: dict[str, str], user: pwd.struct_passwd | None,
    seccomp_filter: SeccompFilter | None = None, signals: InheritedSignals | None = None,
    stdio: tuple[int | None, int | None, int | None] = (None, None, None), cwd: str | None = None,
) -> int:
    """Fork a child that SIGSTOPs itself and then execs ``path``; returns its pid (not yet stopped-for-sure).

    With ``seccomp_filter`` the child installs it after the SIGSTOP handshake, right before
    execve (as strace's exec_or_die does), so only the command's own syscalls are filtered.
    ``signals``: the state pytrace inherited, restored in the child (see InheritedSignals).

    The child asks for SIGKILL should we die while it waits stopped for us (PR_SET_PDEATHSIG):
    a tracer killed in that window must not leave a stopped process behind.  It clears that
    again once resumed, so the command itself outlives its tracer, as under strace.

    ``stdio`` (fds for the command's 0, 1, 2; None keeps ours) and ``cwd``: the Python API's
    ``stdin=``/``stdout=``/``stderr=``/``cwd=``, applied in the child before its exec.
    """
    env_b = {k.encode(): v.encode(errors="surrogateescape") for k, v in env.items()}
    state = exec_state(signals)
    prctl = _libc_prctl()
    parent = os.getpid()
    for stream in (sys.stdout, sys.stderr):
        _flush_quietly(stream)
    pid = os.fork()
    if pid:
        return pid
    # Child: undo what the Python runtime changed that execve would otherwise inherit.
    try:
        _restore_exec_state(user, state)
        for target, fd in enumerate(stdio):
            if fd is not None:
                os.dup2(fd, target)  # inheritable: the command gets it
        if cwd is not None:
            os.chdir(cwd)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
            if os.getppid() != parent:  # we lost the race with the tracer's death
                os._exit(1)
        os.kill(os.getpid(), signal.SIGSTOP)
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, 0, 0, 0, 0)
        if seccomp_filter is not None:
            problem = seccomp_filter.install()
            if problem:
                os.write(2, f"{prog_name()}: {problem}\n".encode())
                os._exit(1)
        os.execve(path, argv, env_b)
    except OSError as exc:
        _exec_failed(exc)
    os._exit(1)


_PR_SET_PDEATHSIG = 1


def _libc_prctl() -> object | None:
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _flush_quietly(stream: object) -> None:
    """Flush a standard stream before fork; it may be None (pytrace started with that fd closed) or broken."""
    try:
        stream.flush()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        pass


def _restore_exec_state(
    user: pwd.struct_passwd | None, state: tuple[list[tuple[int, int]], list[int]] | None = None,
) -> None:
    """The inherited dispositions and mask (Python and pytrace changed both), then -u's identity."""
    changes, mask = state if state is not None else _default_exec_state()
    for sig, disposition in changes:
        try:
            signal.signal(sig, disposition)
        except (OSError, ValueError):
            pass  # e.g. glibc's reserved real-time signals
    signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    if user is not None:
        os.initgroups(user.pw_name, user.pw_gid)
        os.setregid(user.pw_gid, user.pw_gid)
        os.setreuid(user.pw_uid, user.pw_uid)


def _exec_failed(exc: OSError) -> None:
    os.write(2, f"{prog_name()}: exec: {os.strerror(exc.errno or 0)}\n".encode())


# prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY): under Yama's ptrace_scope=1 a process may only be traced
# by its ancestors; -D's tracer is a grandchild, so the tracee allows it explicitly, as strace does.
_PR_SET_PTRACER = 0x59616D61
_PR_SET_PTRACER_ANY = (1 << 64) - 1


@dataclass(frozen=True)
class Daemonized:
    """-D, seen from the tracer (the grandchild): whom to attach, and whom to kill to let it exec."""

    tracee: int  # the process that started pytrace; it becomes the command once released
    middle: int  # our parent, paused; its death unblocks the tracee's wait

    def release(self) -> None:
        """strace's kill(parent_pid, SIGKILL): the tracee's wait returns and it execs the command."""
        try:
            os.kill(self.middle, signal.SIGKILL)
        except OSError:
            pass


def daemonize(
    path: str, argv: list[str], env: dict[str, str], user: pwd.struct_passwd | None, level: int,
    signals: InheritedSignals | None = None,
) -> Daemonized:
    """strace's -D/-DD/-DDD: the command stays our caller's direct child, the tracer runs detached.

    The calling process forks; it waits for that child to die and then execs
    the command.  The child forks the tracer and pauses; the tracer (returned
    to, in the grandchild) moves to its own process group (-DD) or session
    (-DDD), attaches to the waiting process and kills the paused one.  The
    command's exit status is the caller's to collect, and the tracer is not
    killed by what is sent to the command's process group (-DD) or session
    (-DDD).  Returns only in the tracer.
    """
    env_b = {k.encode(): v.encode(errors="surrogateescape") for k, v in env.items()}
    state = exec_state(signals)
    prctl = _libc_prctl()
    if prctl is not None:  # without Yama the call fails harmlessly: no restriction to lift
        prctl(_PR_SET_PTRACER, ctypes.c_ulong(_PR_SET_PTRACER_ANY), 0, 0, 0)
    tracee = os.getpid()
    for stream in (sys.stdout, sys.stderr):
        _flush_quietly(stream)
    middle = os.fork()
    if middle:  # the original process: becomes the command once the tracer holds it
        try:
            for sig in (signal.SIGALRM, signal.SIGCHLD):  # alarm() below, and a wait() that blocks
                signal.signal(sig, signal.SIG_DFL)
            signal.alarm(3)  # strace's guard: never wait forever for a tracer that failed to start
            os.waitpid(middle, 0)
            signal.alarm(0)
            _restore_exec_state(user, state)
            os.execve(path, argv, env_b)
        except OSError as exc:
            _exec_failed(exc)
        os._exit(1)
    tracer = os.fork()
    if tracer:  # the middle process: killed by the tracer once it is attached
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        try:
            os.waitpid(tracer, 0)  # (should the tracer die first, the tracee must not wait for us forever)
        finally:
            os._exit(0)
    # The tracer.
    if level == 2:
        os.setpgid(0, 0)
    elif level == 3:
        os.setsid()
    # Like strace, hold no reference to the caller's stdin/stdout (a pipe there must see EOF when the
    # command is done, not when the tracer is); stderr stays, it carries the trace and our messages.
    dummy_r, dummy_w = os.pipe()
    os.close(dummy_w)
    for fd in (0, 1):
        os.dup2(dummy_r, fd)
    os.close(dummy_r)
    return Daemonized(tracee, os.getppid())
