"""-c / -C / -w / -S / -U / -O: pytrace's call-summary tables against strace 6.1's, on the same programs.

Only the timing cells differ legitimately between two runs (and between two
tracers: a syscall's CPU time or latency is not reproducible), so
``normalise_tables`` masks exactly those -- the ``% time``, ``seconds``,
``usecs/call``, ``shortest`` and ``longest`` cells of the data rows and the
timing cells of the ``total`` row -- after checking that each one has the
printf shape strace gives it (``%6.2f``, ``%11.6f``, an integer) and sits
exactly in its column.  Everything else is compared verbatim: headers and
dividers (so the column widths), syscall names, calls, errors (blank when
zero), the ``total`` row's counts and ``100.00``, the personality tables, and
the row order whenever it does not depend on timing (-S calls, errors, name,
nothing; with the default time order, rows are compared as a sorted list).
``-O 1s`` makes every time zero, and then the whole table is compared
byte for byte with no masking at all.
"""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import (
    build_m32,
    decode,
    group_by_process,
    normalise,
    read_line,
    run_tracer,
    start_tracer,
    stop_process,
    tracer_name,
)

from pytrace.sinks.summary import (
    CALLS,
    ERRORS,
    NAME,
    TIME_PERCENT,
    Summary,
    parse_overhead,
    to_usecs,
    ts_div,
    ts_float,
)
from pytrace.tables.syscalls import table

pytestmark = pytest.mark.differential

_DIVIDER = re.compile(r"-+(?: -+)*")
# The printf shape of each timing column (strace's cdesc[] formats).
_TIMING = {
    "% time": re.compile(r" *\d+\.\d\d"),
    "seconds": re.compile(r" *\d+\.\d{6}"),
    "shortest": re.compile(r" *\d+\.\d{6}"),
    "longest": re.compile(r" *\d+\.\d{6}"),
    "usecs/call": re.compile(r" *\d+"),
}


def normalise_tables(text: str, sort_rows: bool) -> str:
    """Mask the timing cells of every summary table in ``text`` (see the module doc); the rest is kept."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and _DIVIDER.fullmatch(lines[i + 1]) and not _DIVIDER.fullmatch(line):
            spans = [m.span() for m in re.finditer(r"-+", lines[i + 1])]
            heads = [line[a:b].strip() for a, b in spans[:-1]] + [line[spans[-1][0]:].strip()]
            out += [line, lines[i + 1]]
            i += 2
            rows: list[str] = []
            while i < len(lines) and not _DIVIDER.fullmatch(lines[i]):
                rows.append(_mask_row(lines[i], spans, heads, total=False))
                i += 1
            out += sorted(rows) if sort_rows else rows
            if i < len(lines):  # the footer divider and the total row
                out.append(lines[i])
                if i + 1 < len(lines):
                    out.append(_mask_row(lines[i + 1], spans, heads, total=True))
                i += 2
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _mask_row(row: str, spans: list[tuple[int, int]], heads: list[str], total: bool) -> str:
    """One row with its timing cells replaced by ``T`` (right-aligned, same width), if well formed."""
    cells = []
    for n, ((a, b), head) in enumerate(zip(spans, heads, strict=True)):
        last = n == len(spans) - 1
        cell = row[a:] if last else row[a:b]
        if not last and row[b:b + 1] not in (" ",):
            return row  # not aligned to the columns: leave it raw, the comparison will show it
        shape = _TIMING.get(head)
        if shape is not None and shape.fullmatch(cell) and not (total and head == "% time"):
            cell = "T".rjust(len(cell))
        cells.append(cell)
    return " ".join(cells)


def _run(tracer: str, args: list[str], cmd: list[str], tmp_path: Path) -> tuple[str, str, int, str]:
    """(stderr, the -o file or "", status, stdout) of one run; the -o path is ``{out}`` in args."""
    out = tmp_path / f"{tracer}.out"
    real_args = [a.replace("{out}", str(out)) for a in args]
    proc = run_tracer(tracer, real_args, cmd, cwd=tmp_path)
    stderr = re.sub(r"^pytrace: ", "strace: ", decode(proc.stderr), flags=re.M)
    stderr = stderr.replace("Try 'pytrace -h'", "Try 'strace -h'")
    stderr = re.sub(r"Process \d+ ", "Process PID ", stderr)
    stderr = re.sub(r"PID=\d+", "PID=N", stderr)
    return stderr, decode(out.read_bytes()) if out.exists() else "", proc.returncode, decode(proc.stdout)


def _compare(args: list[str], cmd: list[str], tmp_path: Path, sort_rows: bool = False) -> tuple[str, str]:
    """Run both tracers; assert equal tables/streams and status; return pytrace's (stderr, file)."""
    results = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir(exist_ok=True)
        results[tracer] = _run(tracer, args, cmd, d)
    (s_err, s_file, s_rc, s_out), (p_err, p_file, p_rc, p_out) = results["strace"], results["pytrace"]
    assert normalise_tables(p_err, sort_rows) == normalise_tables(s_err, sort_rows)
    assert normalise_tables(p_file, sort_rows) == normalise_tables(s_file, sort_rows)
    assert (p_rc, p_out) == (s_rc, s_out)
    return p_err, p_file


# -- -c on the summary program ------------------------------------------------------------------------


def test_c_default_order_on_stderr(programs: dict[str, Path], tmp_path: Path) -> None:
    """-c: only the table, on stderr; no trace line, no "+++ exited" line.  Rows sorted by time: compared as a set."""
    err, _ = _compare(["-c"], [str(programs["summary"])], tmp_path, sort_rows=True)
    assert err.startswith("% time     seconds  usecs/call     calls    errors syscall\n")
    assert "+++" not in err and "getppid()" not in err
    assert re.search(r"^ +T +T +T +1000 +getppid$", normalise_tables(err, True), re.M)
    assert re.search(r"^ +T +T +T +502 +500 openat$", normalise_tables(err, True), re.M)  # 2 by ld.so


@pytest.mark.parametrize("sortby", ["calls", "count", "errors", "error", "name", "syscall", "nothing", "none"])
def test_c_sort_orders(sortby: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """-S keys that do not depend on timing give strace's exact row order (ties in syscall-number order)."""
    err, _ = _compare(["-c", "-S", sortby], [str(programs["summary"])], tmp_path)
    names = [line.split()[-1] for line in err.splitlines()[2:] if line and not line.startswith("-")]
    if sortby in ("name", "syscall"):
        assert names[:-1] == sorted(names[:-1])


@pytest.mark.parametrize("sortby", ["time", "total_time", "min_time", "shortest", "max_time", "longest", "avg_time"])
def test_c_time_sort_keys(sortby: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """Time keys are accepted under all their aliases; the order depends on timing, the rows must not."""
    _compare(["-c", "-S", sortby], [str(programs["summary"])], tmp_path, sort_rows=True)


def test_c_all_times_zero_is_byte_exact(programs: dict[str, Path], tmp_path: Path) -> None:
    """-O 1s: every call's time minus the overhead clamps to 0, so nothing needs masking: 0.00 rows, 100.00 total."""
    args = ["-c", "-w", "-O", "1s", "-U", "time-percent,total-time,min-time,max-time,avg-time,calls,errors,name"]
    results = [run_tracer(t, args, [str(programs["summary"])], cwd=tmp_path) for t in ("strace", "pytrace")]
    assert decode(results[1].stderr) == decode(results[0].stderr)
    text = decode(results[1].stderr)
    assert text.splitlines()[0] == "% time     seconds shortest  longest  usecs/call     calls    errors syscall"
    assert text.splitlines()[-1] == "100.00    0.000000 0.000000 0.000000           0      1554       523 total"


@pytest.mark.parametrize(
    "columns",
    [
        "name,calls,errors",
        "calls,errors",  # the name column is always added, last
        "calls,syscall,errors,min-time,max-time,avg-time,total-time,time-percent",
        "errors,count,shortest,longest,time_avg,time_total,time,syscall_name",
    ],
)
def test_c_columns(columns: str, programs: dict[str, Path], tmp_path: Path) -> None:
    """-U picks and orders columns; headers shortest/longest; the name column is padded unless it is last."""
    _compare(["-c", "-S", "calls", "-U", columns], [str(programs["summary"])], tmp_path)


def test_c_columns_without_time_are_byte_exact(programs: dict[str, Path], tmp_path: Path) -> None:
    """No timing column at all: strace's table verbatim."""
    args = ["-c", "-S", "errors", "-U", "name,calls,errors"]
    results = [run_tracer(t, args, [str(programs["summary"])], cwd=tmp_path) for t in ("strace", "pytrace")]
    assert decode(results[1].stderr) == decode(results[0].stderr)
    assert decode(results[1].stderr).splitlines()[:3] == [
        "syscall              calls    errors",
        "---------------- --------- ---------",
        "openat                 502       500",
    ]


def test_c_wall_clock(programs: dict[str, Path], tmp_path: Path) -> None:
    """-w: same table from wall-clock latencies."""
    _compare(["-c", "-w", "-S", "calls"], [str(programs["summary"])], tmp_path)


def test_c_to_file(programs: dict[str, Path], tmp_path: Path) -> None:
    """-c -o FILE: the table goes to the file, stderr stays empty."""
    err, file = _compare(["-c", "-o", "{out}", "-S", "name"], [str(programs["summary"])], tmp_path)
    assert err == "" and "total" in file


def test_c_trace_filter(programs: dict[str, Path], tmp_path: Path) -> None:
    """-e trace= restricts what is counted; with nothing traced strace prints no table at all."""
    err, _ = _compare(["-c", "-e", "trace=getppid,close", "-S", "calls"], [str(programs["summary"])], tmp_path)
    assert [line.split()[-1] for line in err.splitlines()[2:4]] == ["getppid", "close"]
    err, _ = _compare(["-c", "-e", "trace=none"], [str(programs["summary"])], tmp_path)
    assert err == ""


def test_c_follow_forks(programs: dict[str, Path], tmp_path: Path) -> None:
    """-c -f: the children's calls are summed in (1200 getppid); "Process N attached" messages still show."""
    err, _ = _compare(["-c", "-f", "-S", "calls"], [str(programs["summary"]), "fork"], tmp_path)
    assert err.startswith("strace: Process PID attached\nstrace: Process PID attached\n% time")
    assert re.search(r" 1200 +getppid$", err, re.M)


def test_c_killed_tracee(programs: dict[str, Path], tmp_path: Path) -> None:
    """A tracee killed by a signal: the table is printed, then the tracer dies of the same signal."""
    _compare(["-c", "-S", "name"], [str(programs["killed"])], tmp_path)


# -- -C -----------------------------------------------------------------------------------------------


def _split_trace(text: str) -> tuple[str, str]:
    """(trace, table): the table starts at the header line above the first divider."""
    lines = text.split("\n")
    for i in range(1, len(lines)):
        if _DIVIDER.fullmatch(lines[i]):
            return "\n".join(lines[: i - 1]), "\n".join(lines[i - 1:])
    return text, ""


def test_C_trace_then_table_on_stderr(programs: dict[str, Path], tmp_path: Path) -> None:
    """-C: the usual trace, "+++ exited with 0 +++", then the table, all on stderr."""
    args = ["-C", "-e", "trace=getppid,close,chdir", "-S", "calls"]
    outs = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir()
        proc = run_tracer(tracer, args, [str(programs["summary"])], cwd=d)
        trace, table = _split_trace(decode(proc.stderr))
        outs[tracer] = (normalise(trace), normalise_tables(table, False), proc.returncode)
    assert outs["pytrace"] == outs["strace"]
    trace, table, _ = outs["pytrace"]
    assert trace.endswith("+++ exited with 0 +++")
    assert table.splitlines()[2].split()[-2:] == ["1000", "getppid"]


def test_C_follow_forks_to_file(programs: dict[str, Path], tmp_path: Path) -> None:
    """-C -f -o FILE: the (multi-process) trace and then the table in the file."""
    args = ["-C", "-f", "-o", "OUT", "-e", "trace=getppid,close,wait4,clone,exit_group", "-S", "calls"]
    outs = {}
    for tracer in ("strace", "pytrace"):
        d = tmp_path / tracer
        d.mkdir()
        proc = run_tracer(tracer, args, [str(programs["summary"]), "fork"], cwd=d)
        trace, table = _split_trace(decode((d / "OUT").read_bytes()))
        outs[tracer] = (normalise(group_by_process(trace + "\n"), None), normalise_tables(table, False),
                        proc.returncode, decode(proc.stderr))
    assert outs["pytrace"] == outs["strace"]
    assert outs["pytrace"][3] == ""  # "-o FILE PROG" implies -q: no attach messages


# -- 32-bit personality -----------------------------------------------------------------------------------

M32_SOURCE = r"""
#include <fcntl.h>
#include <unistd.h>
int main(void) {
    for (int i = 0; i < 10; i++) getppid();
    for (int i = 0; i < 5; i++) open("/nonexistent/m32", O_RDONLY);
    return 0;
}
"""


@pytest.fixture(scope="module")
def m32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("m32summary")
    (d / "m32.c").write_text(M32_SOURCE)
    build_m32(d / "m32.c", d / "m32", "-static")
    return d / "m32"


@pytest.mark.parametrize("to_file", [False, True], ids=["stderr", "o-file"])
def test_c_i386_gets_its_own_table(m32: Path, tmp_path: Path, to_file: bool) -> None:
    """execve counts in the 64-bit table; the rest under "System call usage summary for 32 bit mode:".

    On stderr the "[ Process PID=N runs in 32 bit mode. ]" notice is printed even with -c, as strace does.
    """
    args = ["-c", "-S", "calls"] + (["-o", "{out}"] if to_file else [])
    err, file = _compare(args, [str(m32)], tmp_path)
    text = file if to_file else err
    assert "\nSystem call usage summary for 32 bit mode:\n" in text
    assert re.search(r" 10 +getppid\n", text) and re.search(r" 5 +5 openat\n", text)
    assert ("runs in 32 bit mode" in err) is (not to_file)


# -- attach -------------------------------------------------------------------------------------------------


def test_c_attach_then_interrupt(tmp_path: Path) -> None:
    """-c -p PID, then SIGINT: "attached", "detached", then the table of what was counted meanwhile."""
    src = tmp_path / "loop.c"
    src.write_text("#include <unistd.h>\nint main(void){for(;;){getppid();usleep(2000);}}\n")
    subprocess.run(["gcc", "-o", str(tmp_path / "loop"), str(src)], check=True)
    tables = {}
    for tracer in ("strace", "pytrace"):
        loop = subprocess.Popen([str(tmp_path / "loop")])
        tr = None
        try:
            tr = start_tracer(tracer, ["-c", "-S", "name", "-p", str(loop.pid)], [])
            first = read_line(tr.stderr, 30)  # attached: from now on calls are counted
            time.sleep(0.3)
            tr.send_signal(signal.SIGINT)
            _, err = tr.communicate(timeout=30)
        finally:
            stop_process(tr)
            stop_process(loop)
        lines = decode(first + err).splitlines()
        name = tracer_name(tracer)
        assert lines[:2] == [f"{name}: Process {loop.pid} attached", f"{name}: Process {loop.pid} detached"]
        assert tr.returncode == -signal.SIGINT
        tables[tracer] = lines[2:]
    assert tables["pytrace"][:2] == tables["strace"][:2]
    names = {line.split()[-1] for line in tables["pytrace"][2:-2]}
    assert {"clock_nanosleep", "getppid"} <= names <= {"clock_nanosleep", "getppid", "restart_syscall"}


# -- errors and warnings --------------------------------------------------------------------------------------

ERRORS_CASES = [
    (["-c", "-S", "foo"], "invalid sortby: 'foo'"),
    (["-c", "-S", "TIME"], "invalid sortby: 'TIME'"),
    (["-S", "bar"], "invalid sortby: 'bar'"),  # checked as read: before "must have PROG"
    (["-c", "-U", "foo"], "unknown column name: 'foo'"),
    (["-c", "-U", "none"], "unknown column name: 'none'"),
    (["-c", "-U", "calls,,name"], "unknown column name: ''"),
    (["-c", "-U", "calls,name,"], "unknown column name: ''"),
    (["-c", "-U", "calls,name,count,errors"],
     "call summary column has been provided more than once: 'count' (-U option residual: 'count,errors')"),
    (["-c", "-O", "foo"], "invalid -O argument: 'foo'"),
    (["-c", "-O", "-1"], "invalid -O argument: '-1'"),
    (["-c", "-O", "1x"], "invalid -O argument: '1x'"),
    (["-c", "-O", "5MS"], "invalid -O argument: '5MS'"),
    (["-c", "-O", "5 "], "invalid -O argument: '5 '"),
    (["-c", "-O", "1e999"], "invalid -O argument: '1e999'"),
    (["-c", "-O", ""], "invalid -O argument: ''"),
    (["-c", "--summary-syscall-overhead=x"], "invalid --summary-syscall-overhead argument: 'x'"),
    (["-c", "--summary-sort-by=x"], "invalid sortby: 'x'"),
    (["-c", "--summary-columns", "x"], "unknown column name: 'x'"),
    (["-c", "-C"], "-c/--summary-only and -C/--summary are mutually exclusive"),
    (["-C", "-c"], "-c/--summary-only and -C/--summary are mutually exclusive"),
    (["-c", "-ff", "-o", "x"], "(-c/--summary-only or -C/--summary) and -ff/--output-separately are mutually exclusive"),
    (["-C", "-ff"], "(-c/--summary-only or -C/--summary) and -ff/--output-separately are mutually exclusive"),
    (["-w"], "-w/--summary-wall-clock must be given with (-c/--summary-only or -C/--summary)"),
    (["-U", "calls"], "-U/--summary-columns must be given with (-c/--summary-only or -C/--summary)"),
]


@pytest.mark.parametrize(("args", "message"), ERRORS_CASES, ids=[" ".join(a) for a, _ in ERRORS_CASES])
def test_bad_options(args: list[str], message: str, tmp_path: Path) -> None:
    """strace's wording and status for bad summary options, with the "Try ... -h" hint."""
    for tracer in ("strace", "pytrace"):
        name = tracer_name(tracer)
        proc = run_tracer(tracer, args, ["true"], cwd=tmp_path)
        assert decode(proc.stderr).splitlines() == [f"{name}: {message}", f"Try '{name} -h' for more information."]
        assert proc.returncode == 1


@pytest.mark.parametrize("overhead", ["10ms", " 5", ".5", "1.5e3us", "-0", "+5ns", "2s"])
def test_good_overheads(overhead: str, tmp_path: Path) -> None:
    """Values strace's parse_ts() accepts (strtod / strtoll forms, unit suffixes) are accepted."""
    for tracer in ("strace", "pytrace"):
        proc = run_tracer(tracer, ["-c", "-O", overhead, "-e", "trace=none"], ["true"], cwd=tmp_path)
        assert (proc.returncode, decode(proc.stderr)) == (0, "")


def test_warnings(tmp_path: Path) -> None:
    """-S without -c/-C only warns, and the trace goes on; with -c, options acting on trace lines warn."""
    no_effect = ["i/--instruction-pointer", "n/--syscall-number", "r/--relative-timestamps",
                 "t/--absolute-timestamps", "T/--syscall-times", "y/--decode-fds"]
    cases = [
        (["-qq", "-S", "calls", "-e", "trace=none"],
         ["-S/--summary-sort-by has no effect without (-c/--summary-only or -C/--summary)"]),
        (["-c", "-t", "-T", "-r", "-n", "-i", "-y", "-e", "trace=none"],
         [f"-{o} has no effect with -c/--summary-only" for o in no_effect]),
    ]
    for args, messages in cases:
        for tracer in ("strace", "pytrace"):
            name = tracer_name(tracer)
            proc = run_tracer(tracer, args, ["true"], cwd=tmp_path)
            assert decode(proc.stderr).splitlines() == [f"{name}: {m}" for m in messages]
            assert proc.returncode == 0


# -- the arithmetic, against C's ----------------------------------------------------------------------------

C_ORACLE = r"""
#include <stdio.h>
#include <stdint.h>
#include <time.h>
static double ts_float(const struct timespec *tv) { return tv->tv_sec + tv->tv_nsec/1000000000.0; }
static void ts_div(struct timespec *tv, const struct timespec *a, uint64_t n) {
    long long nsec = (a->tv_sec % n * 1000000000LL + a->tv_nsec + n / 2) / n;
    tv->tv_sec = a->tv_sec / n + nsec / 1000000000;
    tv->tv_nsec = nsec % 1000000000;
}
int main(void) {
    long long ns, calls, cum;
    while (scanf("%lld %lld %lld", &ns, &calls, &cum) == 3) {
        struct timespec t = { ns / 1000000000, ns % 1000000000 }, avg, c = { cum / 1000000000, cum % 1000000000 };
        ts_div(&avg, &t, calls);
        double pct = 100.0 * ts_float(&t);
        if (pct != 0.0) pct /= ts_float(&c);
        printf("%6.2f|%11.6f|%11lu|%lu\n", pct, ts_float(&t), (uint64_t) (ts_float(&avg) * 1e6),
               (uint64_t) (ts_float(&c) / calls * 1e6));
    }
    return 0;
}
"""


def test_arithmetic_matches_c(tmp_path: Path) -> None:
    """ts_float/ts_div/percent/usecs and printf rounding, computed in Python, equal strace's C for many values."""
    (tmp_path / "oracle.c").write_text(C_ORACLE)
    subprocess.run(["gcc", "-O0", "-o", str(tmp_path / "oracle"), str(tmp_path / "oracle.c")], check=True)
    import random

    rng = random.Random(3)
    cases = [(249000, 1, 249000), (46000, 2, 92000), (1, 3, 7), (999_999_999, 7, 1_000_000_001), (0, 5, 0)]
    cases += [(rng.randrange(0, 5 * 10**10), rng.randrange(1, 10**6), 0) for _ in range(400)]
    cases = [(ns, calls, cum or ns + rng.randrange(0, 10**9)) for ns, calls, cum in cases]
    c_out = subprocess.run([str(tmp_path / "oracle")], input="".join(f"{a} {b} {c}\n" for a, b, c in cases),
                           capture_output=True, text=True, check=True).stdout.splitlines()
    for (ns, calls, cum), expected in zip(cases, c_out, strict=True):
        pct = 100.0 * ts_float(ns)
        if pct != 0.0:
            pct /= ts_float(cum)
        mine = f"{pct:6.2f}|{ts_float(ns):11.6f}|{to_usecs(ts_div(ns, calls)):11d}|{int(ts_float(cum) / calls * 1e6)}"
        assert mine == expected, (ns, calls, cum)


def test_table_widths_and_ties() -> None:
    """Wide counts widen their columns; long names widen the name column; ties keep syscall-number order."""
    nr = table("x86_64").by_name
    s = Summary()
    for name, n in (("read", 3), ("write", 3), ("open", 1)):  # read and write tie on calls
        for _ in range(n):
            s.add("x86_64", nr[name].nr, 0, failed=False)
    s.counts["x86_64"][nr["rseq"].nr] = [1234567890, 1234567890, 0, 0, 0]  # counts too big to make
    s.add("x86_64", nr["clone3"].nr, 0, failed=True)
    s.add("x86_64", nr["gettid"].nr, 0, failed=False)
    s.add("x86_64", nr["faccessat2"].nr, 0, failed=False)
    for _ in range(2):
        s.add("x86_64", nr["fanotify_init"].nr, 0, failed=False)
    text = s.render(CALLS, (CALLS, ERRORS, NAME, TIME_PERCENT))
    assert text.splitlines() == [
        "     calls     errors syscall          % time",
        "---------- ---------- ---------------- ------",
        "1234567890 1234567890 rseq               0.00",
        "         3            read               0.00",
        "         3            write              0.00",
        "         2            fanotify_init      0.00",
        "         1            open               0.00",
        "         1            gettid             0.00",
        "         1          1 clone3             0.00",
        "         1            faccessat2         0.00",
        "---------- ---------- ---------------- ------",
        "1234567902 1234567891 total            100.00",
    ]
    merged = Summary()
    merged.add_totals("x86_64", nr["read"].nr, 4, 1, 249000 * 4, 1000, 900000)
    assert merged.render(CALLS).splitlines()[2] == (
        "100.00    0.000996         248         4         1 read"  # 249 us on average, printed truncated
    )
    long_name = Summary()
    long_name.add("x86_64", nr["io_uring_register"].nr, 0, failed=False)  # 17 characters
    assert long_name.render(NAME, (NAME,)).splitlines()[:2] == ["syscall", "------------------"]


def test_overhead_parsing() -> None:
    """parse_ts() conversions: default unit us, strtod and strtoll forms."""
    assert parse_overhead("10ms") == 10_000_000
    assert parse_overhead(".5") == 500
    assert parse_overhead("1.5e3us") == 1_500_000
    assert parse_overhead(" 5") == 5000
    assert parse_overhead("2s") == 2_000_000_000
    assert parse_overhead("7ns") == 7
