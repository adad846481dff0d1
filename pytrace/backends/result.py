"""How a trace ended, as either backend reports it to the CLI (exit status, the signal, lost events).

A module of its own so that the eBPF path, which returns it after the trace, does not import the
ptrace loop (~1-2 ms at the end of every ``--backend=ebpf`` run) for one small class.
"""

from __future__ import annotations

from pytrace.records import dataclass  # not dataclasses: start-up cost


@dataclass
class RunResult:
    exit_status: int = 0
    killed_by: int = 0
    core_dumped: bool = False
    interrupted_by: int = 0  # the fatal signal that made us detach, if any
    events_lost: int = 0  # eBPF records dropped (ring buffer full): the trace has gaps
