"""``python -m pytrace``: the same as the ``pytrace`` console script."""

from pytrace.cli.strace_cli import main

if __name__ == "__main__":
    main()
