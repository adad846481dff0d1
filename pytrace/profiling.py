"""cProfile hooks for the two places no outside profiler can see well (benchmarks/PROFILE.md).

``PYTRACE_PROFILE_RENDER=FILE``: the ptrace path's render process (sinks/split.py), a re-parented
grandchild that ends with os._exit.  ``PYTRACE_PROFILE_CONSUMER=FILE``: the eBPF backend's stream
consumer alone (cli/ebpf_main.py), without start-up and exit.  Both profile with a CPU clock, so
time spent asleep (waiting for records) costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable


def profiled(path: str, work: Callable[[], None]) -> None:
    """Run ``work`` under cProfile with a CPU clock and save the statistics to ``path``."""
    import cProfile
    import time

    prof = cProfile.Profile(time.process_time)
    prof.enable()
    try:
        work()
    finally:
        prof.disable()
        prof.dump_stats(path)
