"""Console-script entry points, kept tiny: fatal signals are blocked before anything heavy is imported.

A Ctrl-C in the first milliseconds (while modules load and tracees are being
seized) stays pending until the backend can detach cleanly, as strace blocks
them during its start-up.  Importing ``pytrace`` as a library does not do this.
"""

import signal

FATAL_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGPIPE, signal.SIGTERM)


def strace_main() -> None:
    signal.pthread_sigmask(signal.SIG_BLOCK, FATAL_SIGNALS)
    from pytrace.cli.strace_cli import main

    main()
