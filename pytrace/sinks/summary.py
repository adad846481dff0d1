"""strace's ``-c`` / ``-C`` call summary: counting (``Summary``), the sink that feeds it, and its options.

The table is a port of strace 6.1's ``src/count.c`` (``count_syscall`` and
``call_summary_pers``), down to the arithmetic that decides the digits:
times are kept as integer nanoseconds (strace's ``struct timespec``), the
average is ``ts_div`` (rounded to the nearest ns), and every float that is
printed is computed with the same double operations as strace's
``ts_float`` so ``%.6f`` and the truncated ``usecs/call`` come out the same.

The counting half knows nothing about ptrace: ``Summary.add`` takes an arch,
a syscall number, a duration and whether the call failed, so any backend (the
eBPF one included) can feed it.  ``SummarySink`` adapts the ``Call`` event
stream to it and never decodes anything.  How a duration is measured is
chosen once, when the sink is built:

* default (strace without ``-w``): the tracee's *system CPU time* spent in the
  call, i.e. the difference of wait4's ``ru_stime`` between the syscall's
  entry and exit stops.  The ptrace backend records those on the Call
  (``entry_stime``/``exit_stime``) only when asked to (``TraceOptions.cpu_times``);
* ``-w``: wall-clock latency, ``exit_time - entry_time``.

The options (``-S``/``-U``/``-O`` and the checks the command-line parser makes) are in
pytrace/sinks/summary_options.py, which every command line imports; this module only when
a summary is asked for.
"""

from __future__ import annotations

from pytrace.sinks import histogram
from pytrace.sinks.summary_options import (  # noqa: F401 -- the options' names, as before the split
    AVG_TIME,
    CALLS,
    COLUMN_ALIASES,
    DEFAULT_COLUMNS,
    ERRORS,
    MAX_TIME,
    MIN_TIME,
    NAME,
    NS_IN_S,
    TIME_PERCENT,
    TOTAL_TIME,
    SummaryOptionError,
    check_options,
    parse_columns,
    parse_overhead,
    parse_sortby,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import IO

    from pytrace.events import (
        Call,
        DetachEvent,
        ExecSupersededEvent,
        ExitEvent,
        GroupStopEvent,
        LostEvent,
        PersonalityEvent,
        SignalEvent,
        Sink,
    )


# Header text and minimum ("historical") width of each column.
_HEADERS = {
    TIME_PERCENT: ("% time", 6), MIN_TIME: ("shortest", 8), MAX_TIME: ("longest", 7),
    TOTAL_TIME: ("seconds", 11), AVG_TIME: ("usecs/call", 11), CALLS: ("calls", 9),
    ERRORS: ("errors", 9), NAME: ("syscall", 16),
}


# -- counting -----------------------------------------------------------------------------------------

# strace numbers personalities per build; on x86_64: 0 = 64 bit, 1 = 32 bit (i386), 2 = x32.
_PERSONALITY = {"x86_64": 0, "aarch64": 0, "i386": 1}
_PERSONALITY_NAMES = {1: "32 bit", 2: "x32"}

_MAX_NS = 1 << 127  # strace's max_ts: the initial minimum of a syscall that has not been seen


class Summary:
    """Per-personality, per-syscall-number counts of calls, errors and time (strace's ``countv``).

    Each entry is a list ``[calls, errors, total_ns, min_ns, max_ns]``,
    mutated in place: ``add`` runs once per traced syscall.
    """

    def __init__(self, overhead_ns: int = 0, histogram: bool = False) -> None:
        self.overhead_ns = overhead_ns
        self.counts: dict[str, dict[int, list[int]]] = {}
        # --histogram: per arch and number, bpftrace's log2 slots (sinks/histogram.py) of the same durations.
        self.hists: dict[str, dict[int, list[int]]] | None = None
        if histogram:  # chosen once: without it ``add`` is the plain method
            self.hists = {}
            self.add = self._add_with_histogram  # type: ignore[method-assign]

    def add(self, arch: str, nr: int, duration_ns: int, failed: bool) -> None:
        """Count one finished call; the overhead is subtracted and the result clamped at 0 (count_syscall)."""
        per_arch = self.counts.get(arch)
        if per_arch is None:
            per_arch = self.counts[arch] = {}
        entry = per_arch.get(nr)
        if entry is None:
            entry = per_arch[nr] = [0, 0, 0, _MAX_NS, 0]
        entry[0] += 1
        if failed:
            entry[1] += 1
        d = duration_ns - self.overhead_ns
        if d < 0:
            d = 0
        entry[2] += d
        if d < entry[3]:
            entry[3] = d
        if d > entry[4]:
            entry[4] = d

    def _add_with_histogram(self, arch: str, nr: int, duration_ns: int, failed: bool) -> None:
        """``add``, and the duration (after -O, as the table has it) counted in its histogram slot."""
        Summary.add(self, arch, nr, duration_ns, failed)
        assert self.hists is not None
        per_arch = self.hists.setdefault(arch, {})
        values = per_arch.get(nr)
        if values is None:
            values = per_arch[nr] = [0] * histogram.SLOTS
        d = duration_ns - self.overhead_ns
        values[histogram.slot(d if d > 0 else 0)] += 1

    def add_totals(
        self, arch: str, nr: int, calls: int, errors: int, total_ns: int, min_ns: int, max_ns: int,
        hist: list[int] | None = None,
    ) -> None:
        """Merge counts aggregated elsewhere (e.g. in the kernel by the eBPF backend).

        Durations are taken as they come: the per-call overhead of ``-O``
        cannot be subtracted from a sum, so an aggregating backend applies it
        itself (or reports a minimum/maximum of 0 when it does not know them).
        """
        if calls <= 0:
            return
        per_arch = self.counts.setdefault(arch, {})
        entry = per_arch.get(nr)
        if entry is None:
            entry = per_arch[nr] = [0, 0, 0, _MAX_NS, 0]
        entry[0] += calls
        entry[1] += errors
        entry[2] += total_ns
        entry[3] = min(entry[3], min_ns)
        entry[4] = max(entry[4], max_ns)
        if self.hists is not None and hist is not None:
            values = self.hists.setdefault(arch, {}).setdefault(nr, [0] * histogram.SLOTS)
            for i, n in enumerate(hist[:histogram.SLOTS]):
                values[i] += n

    def render(self, sortby: int | None = TIME_PERCENT, columns: tuple[int, ...] = DEFAULT_COLUMNS,
               hist_name: str = "latency_ns") -> str:
        """All tables, 64-bit personality first; each other one under its "System call usage summary" line.

        With --histogram each table is followed by a blank line and its syscalls' histograms, in the
        table's row order, as bpftrace prints a map ``@hist_name[syscall]`` of ``hist()`` values.

        Only numbers strace 6.1 has a name for are shown: it does not count
        numbers beyond its table (e.g. 451, cachestat), and for a hole in the
        table (e.g. 335) it crashes, which is not worth copying.  An empty
        summary renders as nothing (strace prints no table at all).
        """
        from pytrace.tables.subcalls import pseudo_names
        from pytrace.tables.syscalls import table

        out: list[str] = []
        for arch in sorted(self.counts, key=lambda a: _PERSONALITY.get(a, 3)):
            pers = _PERSONALITY.get(arch, 3)
            names = table(arch).names
            # i386 ipc(2) subcalls are counted under strace's slot for them, past the table.
            subcall_names = pseudo_names(arch)
            rows = {
                nr: (names[nr] if nr < len(names) else subcall_names[nr], entry)
                for nr, entry in self.counts[arch].items()
                if (0 <= nr < len(names) and names[nr] is not None) or nr in subcall_names
            }
            if not rows:
                continue
            if pers:
                out.append(f"System call usage summary for {_PERSONALITY_NAMES.get(pers, arch)} mode:\n")
            out.append(_render_table(rows, sortby, columns))
            hists = self.hists.get(arch) if self.hists is not None else None
            if hists:
                out.append("\n" + histogram.render_map(hist_name, [
                    (rows[nr][0], hists[nr]) for nr in _row_order(rows, sortby) if nr in hists]))
        return "".join(out)


def ts_float(ns: int) -> float:
    """strace's ts_float(): ``tv_sec + tv_nsec / 1e9`` with the same double rounding."""
    sec, nsec = divmod(ns, NS_IN_S)
    return sec + nsec / 1000000000.0


def ts_div(ns: int, n: int) -> int:
    """strace's ts_div(): a timespec divided by n, rounded to the nearest nanosecond."""
    sec, nsec = divmod(ns, NS_IN_S)
    q = (sec % n * NS_IN_S + nsec + n // 2) // n
    return (sec // n + q // NS_IN_S) * NS_IN_S + q % NS_IN_S


def to_usecs(ns: int) -> int:
    """``(uint64_t) (ts_float(ts) * 1e6)``: truncated, so an average of exactly 249 us prints as 248."""
    return int(ts_float(ns) * 1e6)


# Sort keys of strace's comparators: all "descending", except names (strcmp, ascending).
# glibc's qsort is a stable merge sort, so ties stay in syscall-number order.
_SORT_KEYS = {
    TIME_PERCENT: lambda nr, name, e, avg: -e[2],
    TOTAL_TIME: lambda nr, name, e, avg: -e[2],
    MIN_TIME: lambda nr, name, e, avg: -e[3],
    MAX_TIME: lambda nr, name, e, avg: -e[4],
    AVG_TIME: lambda nr, name, e, avg: -avg,
    CALLS: lambda nr, name, e, avg: -(e[0] & 0xFFFFFFFF),  # strace compares them as unsigned int
    ERRORS: lambda nr, name, e, avg: -(e[1] & 0xFFFFFFFF),
    NAME: lambda nr, name, e, avg: name.encode(),
}


def _row_order(rows: dict[int, tuple[str, list[int]]], sortby: int | None,
               avgs: dict[int, int] | None = None) -> list[int]:
    """The table's row order (syscall numbers): strace's qsort by ``sortby``, stable over number order."""
    if avgs is None:
        avgs = {nr: ts_div(e[2], e[0]) for nr, (_, e) in rows.items()}
    order = sorted(rows)
    if sortby is not None:
        key = _SORT_KEYS[sortby]
        order.sort(key=lambda nr: key(nr, rows[nr][0], rows[nr][1], avgs[nr]))
    return order


def _render_table(rows: dict[int, tuple[str, list[int]]], sortby: int | None, columns: tuple[int, ...]) -> str:
    """One personality's table: strace's call_summary_pers()."""
    tv_cum = call_cum = error_cum = 0
    tv_min, tv_min_max, tv_max, tv_avg_max = _MAX_NS, 0, 0, 0
    name_max = 0
    avgs: dict[int, int] = {}
    for nr, (name, (calls, errors, total, tmin, tmax)) in rows.items():
        tv_cum += total
        tv_min = min(tv_min, tmin)
        tv_min_max = max(tv_min_max, tmin)
        tv_max = max(tv_max, tmax)
        call_cum += calls
        error_cum += errors
        avg = avgs[nr] = ts_div(total, calls)
        tv_avg_max = max(tv_avg_max, avg)
        name_max = max(name_max, len(name))
    float_tv_cum = ts_float(tv_cum)
    order = _row_order(rows, sortby, avgs)

    widths = {c: size for c, (_, size) in _HEADERS.items()}
    widths[TOTAL_TIME] = max(11, len(f"{float_tv_cum:.6f}"))
    widths[MIN_TIME] = max(8, len(f"{tv_min_max // NS_IN_S}.000000"))
    widths[MAX_TIME] = max(7, len(f"{tv_max // NS_IN_S}.000000"))
    widths[AVG_TIME] = max(11, len(str(to_usecs(tv_avg_max))))
    widths[CALLS] = max(9, len(str(call_cum)))
    widths[ERRORS] = max(9, len(str(error_cum)))
    widths[NAME] = max(16, name_max + 1)
    last = len(columns) - 1

    def cell(i: int, column: int, value: float | int | str) -> str:
        w = widths[column]
        if column == NAME:
            return str(value) if i == last else f"{value:<{w}}"
        if column == TIME_PERCENT:
            return f"{value:{w}.2f}"
        if column in (TOTAL_TIME, MIN_TIME, MAX_TIME):
            return f"{value:{w}.6f}"
        if column == ERRORS and not value:
            return " " * w  # "%*.0lu": a zero prints as nothing at all
        return f"{value:{w}d}"

    lines = [
        " ".join(
            (_HEADERS[c][0] if i == last else f"{_HEADERS[c][0]:<{widths[c]}}") if c == NAME
            else f"{_HEADERS[c][0]:>{widths[c]}}"
            for i, c in enumerate(columns)
        ),
    ]
    divider = " ".join("-" * widths[c] for c in columns)
    lines.append(divider)
    for nr in order:
        name, (calls, errors, total, tmin, tmax) = rows[nr]
        seconds = ts_float(total)
        percent = 100.0 * seconds
        if percent != 0.0:  # else: the total can be 0 too, and 0/0 would be NaN
            percent /= float_tv_cum
        values = {
            TIME_PERCENT: percent, TOTAL_TIME: seconds, MIN_TIME: ts_float(tmin), MAX_TIME: ts_float(tmax),
            AVG_TIME: to_usecs(avgs[nr]), CALLS: calls, ERRORS: errors, NAME: name,
        }
        lines.append(" ".join(cell(i, c, values[c]) for i, c in enumerate(columns)))
    lines.append(divider)
    totals = {
        TIME_PERCENT: 100.0, TOTAL_TIME: float_tv_cum, MIN_TIME: ts_float(tv_min), MAX_TIME: ts_float(tv_max),
        AVG_TIME: int(float_tv_cum / call_cum * 1e6), CALLS: call_cum, ERRORS: error_cum, NAME: "total",
    }
    lines.append(" ".join(cell(i, c, totals[c]) for i, c in enumerate(columns)))
    return "".join(line + "\n" for line in lines)


# -- the sink -----------------------------------------------------------------------------------------


class SummarySink:
    """Counts every finished syscall into a ``Summary`` and writes the tables when tracing ends.

    Calls that never return (``exit_group``, a thread killed or detached in a
    call) are not counted, as in strace, which counts at syscall exit.  With
    ``-c`` strace still prints the ``[ Process PID=N runs in 32 bit mode. ]``
    notice; ``notices`` (a text sink) receives the personality and
    process-count events for that and nothing else.  With ``-C`` this sink is
    one branch of a TeeSink and ``notices`` is None.
    """

    def __init__(
        self,
        out: IO[str],
        *,
        wall_clock: bool = False,
        overhead_ns: int = 0,
        sortby: int | None = TIME_PERCENT,
        columns: tuple[int, ...] = DEFAULT_COLUMNS,
        notices: Sink | None = None,
        histogram: bool = False,
    ) -> None:
        self.out = out
        self.summary = Summary(overhead_ns, histogram)
        # What the histograms measure: the table's time, latency with -w (and eBPF), else system CPU time.
        self.hist_name = "latency_ns" if wall_clock else "cpu_ns"
        self.sortby = sortby
        self.columns = columns
        self.notices = notices
        self._add = self.summary.add
        if wall_clock:  # chosen once: the per-call code has no mode test
            self.on_exit = self._exit_wall  # type: ignore[method-assign]

    def counter(self) -> Callable[[str, int, int, bool], None]:
        """``Summary.add`` for a backend that counts calls without Call objects (the ptrace loop under -c
        alone); it must measure durations as ``on_exit`` would (CPU time, or wall clock with -w)."""
        return self._add

    def on_entry(self, call: Call) -> None:
        pass

    def _exit_cpu(self, call: Call) -> None:
        # ru_stime comes as float seconds of whole microseconds; round back to them before subtracting.
        usecs = round(call.exit_stime * 1e6) - round(call.entry_stime * 1e6)
        self._add(call.arch, call.nr, usecs * 1000, call.error != 0)

    def _exit_wall(self, call: Call) -> None:
        self._add(call.arch, call.nr, round((call.exit_time - call.entry_time) * 1e9), call.error != 0)

    on_exit = _exit_cpu

    def on_signal(self, ev: SignalEvent) -> None:
        pass

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        pass

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        pass

    def on_superseded(self, ev: ExecSupersededEvent, unfinished: Call | None) -> None:
        pass

    def on_personality(self, ev: PersonalityEvent) -> None:
        if self.notices is not None:
            self.notices.on_personality(ev)

    def on_detach(self, ev: DetachEvent) -> None:
        pass

    def on_lost(self, ev: LostEvent) -> None:
        pass  # -C: the text output beside the table carries the line

    def on_process_count(self, count: int) -> None:
        if self.notices is not None:
            self.notices.on_process_count(count)

    def close(self) -> None:
        """Write the tables (nothing at all if no call was counted, as strace)."""
        if self.notices is not None:
            self.notices.close()
        text = self.summary.render(self.sortby, self.columns, self.hist_name)
        if text:
            try:
                self.out.write(text)
                self.out.flush()
            except OSError:
                pass


def build_sink(
    text_sink: Sink | None, out: IO[str], *, mode: str, wall_clock: bool, sortby: str | None, columns: str | None,
    overhead: str | None, histogram: bool = False,
) -> Sink:
    """The sink for ``-c`` (mode "only": counting, plus the text sink's personality notices; None where
    no notice can come, the eBPF backend's in-kernel count) or ``-C`` (mode "also": the full trace, then
    the table).  The option values were validated by the parser."""
    summary = SummarySink(
        out,
        wall_clock=wall_clock,
        overhead_ns=parse_overhead(overhead) if overhead is not None else 0,
        sortby=parse_sortby(sortby) if sortby is not None else TIME_PERCENT,
        columns=parse_columns(columns) if columns is not None else DEFAULT_COLUMNS,
        notices=text_sink if mode == "only" else None,
        histogram=histogram,
    )
    if mode == "only":
        return summary
    assert text_sink is not None, "-C prints the trace too"
    from pytrace.sinks.tee import TeeSink

    return TeeSink(text_sink, summary)
