"""``python -m pytrace``: the same as the ``pytrace`` console script.

The fatal signals are held before anything else is imported (see pytrace.cli.entry);
a KeyboardInterrupt from a Ctrl-C that came even earlier ends pytrace silently.
"""

try:
    from pytrace.cli.entry import strace_main
except KeyboardInterrupt:
    import os
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)
    os._exit(130)

if __name__ == "__main__":
    strace_main()
