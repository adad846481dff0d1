#!/usr/bin/env python3
"""Where ``pytrace ARGS`` spends its CPU at start-up: a sampling profile over many runs.

cProfile multiplies the cost of the many small calls start-up makes (imports above all) and
shifts the picture; this samples the stack on SIGPROF (ITIMER_PROF: CPU time of the tracer
process, user + system) instead and sums the samples of many runs.  The kernel delivers the
timer at its tick (HZ: often 4 ms), so a run gives a few samples and the profile needs tens of
runs; each line is a frame's inclusive time per run, estimated as samples x interval / runs.
The interpreter's own start-up (before the profiler is armed) and the render process (when a
run forks one) are not in it.

    python3 scripts/startup_profile.py --runs 100 -- -o /dev/null true
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile

#: The child's program: arm the sampler, run pytrace's entry point, append the stacks to a file.
_CHILD = r"""
import os, signal, sys
out, interval = sys.argv[1], float(sys.argv[2])
stacks = []
me = os.getpid()  # a forked render process inherits the list: only the tracer writes it

def sample(_sig, frame):
    names = []
    while frame is not None:
        code = frame.f_code
        path = code.co_filename
        names.append((path.split("/pytrace/", 1)[1] if "/pytrace/" in path else os.path.basename(path))
                     + ":" + code.co_name)
        frame = frame.f_back
    stacks.append(";".join(reversed(names)))

def dump():
    signal.setitimer(signal.ITIMER_PROF, 0, 0)
    if os.getpid() != me:
        return
    with open(out, "a") as f:
        f.write("".join(s + "\n" for s in stacks))
    stacks.clear()

signal.signal(signal.SIGPROF, sample)
signal.setitimer(signal.ITIMER_PROF, interval, interval)
sys.argv = ["pytrace", *sys.argv[3:]]
_exit = os._exit
def exit_after_dump(status):  # pytrace ends a finished trace with os._exit
    dump()
    _exit(status)
os._exit = exit_after_dump
import atexit
atexit.register(dump)
from pytrace.cli.entry import strace_main
strace_main()
"""


def profile(args: list[str], runs: int, interval: float) -> tuple[collections.Counter[str], int]:
    """(samples per frame, counted once per stack it is in; total samples) over ``runs`` runs."""
    with tempfile.NamedTemporaryFile("r", suffix=".stacks") as out:
        for _ in range(runs):
            subprocess.run([sys.executable, "-c", _CHILD, out.name, str(interval), *args],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        stacks = [line.strip() for line in out if line.strip()]
    inclusive: collections.Counter[str] = collections.Counter()
    for stack in stacks:
        inclusive.update(set(stack.split(";")))
    return inclusive, len(stacks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument("--interval", type=float, default=0.004, help="seconds of CPU between samples (the tick)")
    parser.add_argument("--all-frames", action="store_true", help="keep importlib's frozen frames")
    parser.add_argument("args", nargs="+", help="pytrace's arguments (after --)")
    ns = parser.parse_args()
    inclusive, total = profile(ns.args, ns.runs, ns.interval)
    ms = 1000 * ns.interval / ns.runs
    print(f"{total} samples in {ns.runs} runs: ~{total * ms:.1f} ms of sampled CPU per run "
          f"(python {sys.version.split()[0]}, pid {os.getpid()})")
    shown = 0
    for frame, count in inclusive.most_common():
        if not ns.all_frames and frame.startswith("<frozen"):
            continue
        print(f"{count * ms:7.2f} ms  {frame}")
        shown += 1
        if shown >= ns.top:
            break


if __name__ == "__main__":
    main()
