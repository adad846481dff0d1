"""The benchmark suite behind ``python3 benchmarks/run.py``: workloads, tracer rows, timing, report.

It is a package (rather than loose modules next to run.py) so its module names
cannot collide with anything else on ``sys.path``.
"""
