"""Console-script entry points, kept tiny: fatal signals are held before anything heavy is imported.

A Ctrl-C in the first milliseconds (while modules load and tracees are being
seized) stays pending until the backend knows what to do with it, as the -I
mode says.  Importing ``pytrace`` as a library does not do this.

The signal state pytrace inherited is read here, first: the command it starts
gets exactly that mask and those ignored signals (``nohup pytrace cmd`` keeps
SIGHUP ignored in cmd), as strace passes on what it inherited.  Only ``_signal``
(the C module) is imported before the signals are held.
"""

import _signal

# SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM: strace's -I set.
FATAL_SIGNALS = frozenset((1, 2, 3, 13, 15))


def hold_fatal_signals() -> tuple[int, int]:
    """Block the fatal signals; return (ignored, blocked) as inherited, one bit per signal (bit N-1 = N).

    The mask is what pthread_sigmask returns (exact); the ignored set is SigIgn from
    /proc/self/status, which the block does not change.
    """
    old = _signal.pthread_sigmask(_signal.SIG_BLOCK, FATAL_SIGNALS)
    return _ignored_bits(), _bits(old)


def inherited_signals() -> tuple[int, int]:
    """(ignored, blocked) as this process has them now, for a tool that blocks nothing first (pyltrace)."""
    return _ignored_bits(), _bits(_signal.pthread_sigmask(_signal.SIG_BLOCK, ()))


def _bits(signals: "set[_signal.Signals]") -> int:
    out = 0
    for sig in signals:
        out |= 1 << (int(sig) - 1)
    return out


def _ignored_bits() -> int:
    """SigIgn from /proc/self/status.  Python itself set SIGPIPE and SIGXFSZ to SIG_IGN before any
    of our code ran, so what they were is lost: they are taken as not ignored (the disposition
    Python's own subprocess restores)."""
    ignored = 0
    try:
        with open("/proc/self/status", "rb") as f:
            for line in f:
                if line.startswith(b"SigIgn:"):
                    ignored = int(line.split()[1], 16)
                    break
    except OSError:
        pass
    return ignored & ~((1 << (13 - 1)) | (1 << (25 - 1)))  # SIGPIPE, SIGXFSZ: Python's, not inherited


def ensure_standard_fds() -> tuple[bool, bool]:
    """strace's ensure_standard_fds_opened: fill a closed fd 0, 1 or 2 with a placeholder.

    Otherwise the next file pytrace opens (-o FILE) would become "stdin" or "stdout", and be closed
    behind our back once the command runs (see hold_no_standard_fds).  The placeholder is the read
    end of a pipe with no writer, close-on-exec, so the command still starts with that fd closed, as
    under strace.  Python's sys.stdout/sys.stderr for a closed fd is None: writes to it are dropped
    instead (as strace's fail).  Returns which of fds 0 and 1 are placeholders.
    """
    import os
    import sys

    placeholder = [False, False, False]
    while True:
        r, w = os.pipe2(os.O_CLOEXEC)
        os.close(w)
        if r > 2:
            os.close(r)
            break
        placeholder[r] = True
        if r == 2:
            break
    if placeholder[1] and sys.stdout is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 -- lives as long as the process
    if placeholder[2] and sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115
    return placeholder[0], placeholder[1]


def hold_no_standard_fds(placeholders: tuple[bool, bool]) -> None:
    """strace's redirect_standard_fds, once the command is started: fds 0 and 1 lead nowhere.

    pytrace must not keep the command's stdin/stdout open behind it: in ``pytrace -o log cmd |
    reader`` the reader sees EOF when cmd closes its stdout, not when pytrace exits.  Each becomes
    a pipe read end with no writer (reads give EOF, writes fail), not a closed fd that a later
    open would reuse.  fd 2 stays: our messages (and the trace without -o) go there.
    """
    import os

    for fd in (0, 1):
        if placeholders[fd]:
            continue
        r, w = os.pipe2(os.O_CLOEXEC)
        os.close(w)
        os.dup2(r, fd, inheritable=False)
        os.close(r)


def die_by_interrupt(sig: int = 2) -> None:
    """A fatal signal came before pytrace could act on it: end as its default action would, silently.

    (strace, not having installed its handlers yet, would be killed by it.)
    """
    _signal.signal(sig, _signal.SIG_DFL)
    _signal.pthread_sigmask(_signal.SIG_UNBLOCK, {sig})
    import os

    os.kill(os.getpid(), sig)
    os._exit(128 + sig)


def strace_main() -> None:
    import gc

    gc.disable()  # start-up allocates much and frees little: see strace_cli.main, which turns it back on
    try:
        inherited = hold_fatal_signals()
        from pytrace.cli.strace_cli import main

        main(inherited=inherited)
    except KeyboardInterrupt:  # SIGINT that Python's handler caught before the block above
        die_by_interrupt()
