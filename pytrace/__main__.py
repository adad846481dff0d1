"""``python -m pytrace``: the same as the ``pytrace`` console script."""

from pytrace.cli.entry import strace_main

if __name__ == "__main__":
    strace_main()
