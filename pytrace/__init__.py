"""pytrace: a strace/ltrace-compatible tracer you can read, extend and import."""

__version__ = "0.1.0"
