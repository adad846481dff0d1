"""pyltrace against ltrace 0.7.3 on Debian's own binaries and on calls through ``.plt.got`` (issue 16).

A program that both calls a library function and takes its address in code
(Debian's ls takes malloc's and free's, git strcmp's) has the linker bind the
function through a GLOB_DAT GOT slot and route the calls through an 8-byte
``.plt.got`` stub.  ltrace 0.7.3 puts no breakpoint there and never shows those
calls; pyltrace shows them, and ``-e``, ``-c`` and ``-x`` treat them like any
other PLT call.  Everything else must read as ltrace's: a run's lines with the
``.plt.got`` calls taken out (a call they interrupted joined back into one
line) equal ltrace's lines, and ``-c`` rows without them equal ltrace's rows.

Which calls went through ``.plt.got`` is read from the binaries by objdump (an
oracle independent of pyltrace's own ELF reader): ``<NAME@plt>`` entries of the
section, per calling object (``prog->`` prefix with ``-e``, none by default,
where only the program's calls are traced).

Determinism: both tracers run under ``setarch -R`` (personality inherited by
the tracee), so the two runs lay memory out identically: pointers copied as
bytes (``memcpy`` of a pointer array shows them as a string) and leftover
registers read the same.  What still differs between any two runs is normalised
explicitly: addresses (renumbered), ``time()`` results and the date strings
made from them, ``syscall(SYS_gettid)``'s result, and (as in
test_pyltrace.py::test_python) the arguments of functions ltrace.conf has no
prototype for, which ltrace prints as four raw registers whose unused ones hold
leftovers (a clock reading in curl's ``clock_gettime``).
"""

from __future__ import annotations

import functools
import http.server
import re
import subprocess
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from helpers import REPO_ROOT, tracer_env
from lthelp import TIMEOUT, normalise, pyltrace_cmd, summary_rows

SRC = Path(__file__).resolve().parent / "src"
LTRACE_CONF = "/etc/ltrace.conf"
CONF = ["-F", LTRACE_CONF]
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
ENV = tracer_env() | {"PYTHONHASHSEED": "0"}


def _run(tracer: str, opts: Sequence[str], cmd: Sequence[str | Path]) -> subprocess.CompletedProcess[str]:
    """``setarch -R TRACER -F /etc/ltrace.conf OPTS CMD``: no address randomisation, trace on stderr.

    Run in ``/``, not in the checkout: a program that lists its working directory (python3 does,
    for its '' path entry, again whenever the directory's mtime changed) would otherwise call more
    functions in one of the two runs when another test adds or removes a file there meanwhile."""
    argv = ["setarch", "-R", *(["ltrace"] if tracer == "ltrace" else pyltrace_cmd()), *CONF, *opts,
            *[str(c) for c in cmd]]
    return subprocess.run(argv, capture_output=True, text=True, errors="backslashreplace",
                          stdin=subprocess.DEVNULL, env=ENV, timeout=TIMEOUT, cwd="/", check=False)


@functools.cache
def pltgot_names(path: str) -> frozenset[str]:
    """The functions an object calls through its .plt.got stubs (objdump's ``<NAME@plt>`` labels there)."""
    out = subprocess.run(["objdump", "-d", "-j", ".plt.got", path], capture_output=True, text=True,
                         timeout=TIMEOUT, check=False).stdout
    # __cxa_finalize is only ever called by the C runtime's exit code; neither tracer traces it.
    return frozenset(re.findall(r"<([^>@]+)@plt>:", out)) - {"__cxa_finalize"}


@functools.cache
def prototyped() -> frozenset[str]:
    """Names ltrace.conf declares: the last identifier before a top-level ``(`` of each declaration line."""
    names = set()
    for line in Path(LTRACE_CONF).read_text().splitlines():
        s = line.strip()
        if not s or s[0] in ";#" or s.startswith("typedef"):
            continue
        depth, last = 0, None
        for m in re.finditer(r"(\w+)\s*\(|\(|\)", s):
            if m.group(1) and depth == 0:
                last = m.group(1)
            depth += 1 if m.group(0) != ")" else -1
        if last:
            names.add(last)
    return frozenset(names)


_CALL = re.compile(r"^(?:(\S+?)->)?([^\s(]+)\((.*)$")
_RESUMED = re.compile(r"^<\.\.\. (\S+) resumed> (.*)$")
_UNFINISHED = " <unfinished ...>"


def without(text: str, hidden: dict[str, frozenset[str]]) -> list[str]:
    """The trace's lines without the calls ``hidden`` names (caller prefix, "" for none -> names).

    A hidden call's own ``<... NAME resumed>`` goes with it; a shown call that
    a hidden one cut in two (``qsort(... <unfinished ...>`` / ``<... qsort
    resumed> )``) is joined back into the one line ltrace prints.
    """
    out: list[str] = []
    open_calls: list[bool] = []  # per open (unfinished) call: hidden?
    for line in text.splitlines():
        resumed = _RESUMED.match(line)
        if resumed:
            hid = open_calls.pop() if open_calls else False
            if hid:
                continue
            if out and out[-1].endswith(_UNFINISHED):
                out[-1] = out[-1][:-len(_UNFINISHED)] + resumed.group(2)
                continue
            out.append(line)
            continue
        m = _CALL.match(line)
        hid = bool(m) and m.group(2) in hidden.get(m.group(1) or "", ())
        if line.endswith(_UNFINISHED):
            open_calls.append(hid)
        if not hid:
            out.append(line)
    return out


_UNPROTO_DONE = re.compile(r"^((?:\S+->)?[^\s(]+)\(.*\) += (.*)$")
_UNPROTO_OPEN = re.compile(r"^((?:\S+->)?[^\s(]+)\(.* <unfinished \.\.\.>$")
_VOLATILE = [
    (re.compile(r"^((?:\S+->)?time\(.*\) += )\d+$"), r"\1SECONDS"),
    (re.compile(r"^((?:\S+->)?syscall\(186,.*\) += )\S+$"), r"\1TID"),  # SYS_gettid
    (re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"), "DATE"),  # wget's log time (strftime)
]


def comparable(lines: list[str]) -> list[str]:
    """normalise()d, padding before ``=`` collapsed, run-dependent values named, unprototyped arguments out."""
    names = prototyped()
    out = []
    for line in normalise("\n".join(lines)).splitlines():
        line = re.sub(r" {2,}= ", " = ", line)
        for rx, repl in _VOLATILE:
            line = rx.sub(repl, line)
        m = _CALL.match(line)
        if m and m.group(2) not in names:
            done = _UNPROTO_DONE.match(line)
            line = (f"{done.group(1)}(...) = {done.group(2)}" if done else
                    _UNPROTO_OPEN.sub(r"\1(... <unfinished ...>", line))
        out.append(line)
    return out


def compare(ours: str, theirs: str, hidden: dict[str, frozenset[str]]) -> None:
    assert comparable(without(ours, hidden)) == comparable(theirs.splitlines())


# -- a program built to call through .plt.got -------------------------------------------------------


@pytest.fixture(scope="module")
def pltgot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pltgot") / "pltgot"
    r = subprocess.run(["gcc", "-O2", "-o", str(out), str(SRC / "pltgot.c")], capture_output=True, text=True,
                       timeout=120, check=False)
    if r.returncode:
        pytest.fail(r.stderr)
    assert pltgot_names(str(out)) == {"malloc", "free", "strcmp"}, "the build must call through .plt.got"
    assert pltgot_names(LIBC) == {"malloc", "free"}, "libc's own malloc/free calls go through its .plt.got"
    return out


def _both(prog: Path, opts: list[str]) -> tuple[str, str]:
    ours, theirs = _run("pyltrace", opts, [prog]), _run("ltrace", opts, [prog])
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout == "apple\nfig\npear\n4 0\n"
    return ours.stderr, theirs.stderr


def test_pltgot_default(pltgot: Path) -> None:
    """Default: the program's malloc/free/strcmp calls shown, the rest as ltrace."""
    ours, theirs = _both(pltgot, [])
    assert re.search(r"^malloc\(16\) += 0x[0-9a-f]+$", ours, re.M)
    assert len(re.findall(r"^free\(0x[0-9a-f]+\) += <void>$", ours, re.M)) == 4
    assert re.search(r'^strcmp\("pear", "pear"\) += 0$', ours, re.M)
    assert not re.search(r"^(malloc|free|strcmp)\(", theirs, re.M)  # ltrace misses them all
    # The comparator's calls, through .plt.got, inside qsort: ltrace's qsort is one line.
    assert 'strcmp("apple", "fig")' in ours and "<... qsort resumed> )" in ours
    compare(ours, theirs, {"": pltgot_names(str(pltgot))})


def test_pltgot_e_include(pltgot: Path) -> None:
    """-e malloc: every malloc call, the program's through .plt.got and libc's (strdup's, stdio's buffer)
    through libc's .plt.got; ltrace shows none of them."""
    ours, theirs = _both(pltgot, ["-e", "malloc"])
    assert theirs == "+++ exited (status 0) +++\n"
    assert [re.sub(r"0x[0-9a-f]+", "A", ln) for ln in normalise(ours).splitlines()] == [
        "libc.so.6->malloc(5)                             = ADDR1",
        "libc.so.6->malloc(6)                             = ADDR2",
        "libc.so.6->malloc(4)                             = ADDR3",
        "pltgot->malloc(16)                               = ADDR4",
        "libc.so.6->malloc(4096)                          = ADDR5",
        "+++ exited (status 0) +++",
    ]


def test_pltgot_e_include_plt_and_pltgot(pltgot: Path) -> None:
    """-e strcmp+puts: puts (.plt) as ltrace, strcmp (.plt.got) shown as well."""
    ours, theirs = _both(pltgot, ["-e", "strcmp+puts"])
    assert len(re.findall(r"^pltgot->strcmp\(", ours, re.M)) == 4
    assert len(re.findall(r"^pltgot->puts\(", theirs, re.M)) == 3
    compare(ours, theirs, {"pltgot": pltgot_names(str(pltgot))})


_LIBC_LINE = re.compile(r"^libc\.so\.6->[^\s(]*\(.*\) += (.*)$")


@pytest.mark.parametrize("rule", ["!free", "@libc.so.6"])
def test_pltgot_e_exclude_and_library(pltgot: Path, rule: str) -> None:
    """-e '!free' and -e '@libc.so.6' (libc's own calls too): the .plt.got calls follow the rule, the rest
    as ltrace.

    ltrace 0.7.3 names libc's own PLT calls wrongly: those to IFUNC-resolved functions (IRELATIVE slots:
    strlen, memcpy, strchrnul) and to ld.so's private ones (__tunable_get_val) print without a name
    (``libc.so.6->(0x..., ...)``), and __mempcpy's as ``__tls_get_addr``.  pyltrace names each by its
    slot.  So libc's calls are compared by position and result (the raw register ltrace prints for an
    unnamed call equals what the prototype prints here); the program's are compared whole.
    """
    ours, theirs = _both(pltgot, ["-e", rule])
    if rule == "!free":
        assert not re.search(r"->free\(", ours) and re.search(r"^pltgot->malloc\(16\)", ours, re.M)
        assert re.search(r"^pltgot->strcmp\(", ours, re.M)
    else:
        assert not re.search(r"^pltgot->", ours, re.M)
        assert re.search(r"^libc\.so\.6->malloc\(4096\)", ours, re.M)  # stdio's buffer, libc's .plt.got
        assert re.search(r"^libc\.so\.6->free\(", ours, re.M)
    assert not re.search(r"->(malloc|free)\(", theirs)
    assert re.search(r"^libc\.so\.6->\(", theirs, re.M)  # ltrace's unnamed calls
    assert re.search(r'^libc\.so\.6->__mempcpy\(0x[0-9a-f]+, 0x[0-9a-f]+, 4, \d+\) += 0x', ours, re.M)

    def positions(lines: list[str]) -> list[str]:
        return comparable([_LIBC_LINE.sub(r"libc.so.6->? = \1", ln) for ln in lines])
    hidden = {"pltgot": pltgot_names(str(pltgot)), "libc.so.6": pltgot_names(LIBC)}
    assert positions(without(ours, hidden)) == positions(theirs.splitlines())


def test_pltgot_summary(pltgot: Path) -> None:
    """-c: the .plt.got calls counted, every other row as ltrace's."""
    ours, theirs = _both(pltgot, ["-c"])
    rows = summary_rows(ours)
    assert {n: rows.pop(n) for n in ("malloc", "free", "strcmp")} == {"malloc": 1, "free": 4, "strcmp": 4}
    assert rows == summary_rows(theirs)
    assert rows["puts"] == 3 and rows["strdup"] == 3


def test_pltgot_x(pltgot: Path) -> None:
    """-x malloc@libc.so.6: the function entry caught whichever stub led there; a .plt.got call around it
    shows as ltrace shows a .plt call around one (strdup's ``<unfinished ...>`` pair)."""
    ours, theirs = _both(pltgot, ["-x", "malloc@libc.so.6"])
    nested = r"^{0}\({1} <unfinished \.\.\.>\nmalloc@libc\.so\.6\({2}\) += (0x[0-9a-f]+)\n<\.\.\. {0} resumed> \) += \1$"
    assert re.search(nested.format("strdup", '"pear"', "5"), theirs, re.M)
    assert re.search(nested.format("malloc", "16", "16"), ours, re.M)
    assert re.search(r"^malloc@libc\.so\.6\(16\) += 0x[0-9a-f]+$", theirs, re.M)
    compare(ours, theirs, {"": pltgot_names(str(pltgot))})


# -- Debian's binaries -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small text file and a two-commit git repository."""
    d = tmp_path_factory.mktemp("real")
    (d / "fruits.txt").write_text("pear\napple\nfig\nbanana\n")
    git_env = ENV | {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
                     "GIT_COMMITTER_EMAIL": "a@b", "GIT_AUTHOR_DATE": "2020-01-01T00:00:00Z",
                     "GIT_COMMITTER_DATE": "2020-01-01T00:00:00Z"}
    for cmd in (["git", "init", "-q", "repo"], ["git", "-C", "repo", "commit", "-q", "--allow-empty", "-m", "one"],
                ["git", "-C", "repo", "commit", "-q", "--allow-empty", "-m", "two"]):
        subprocess.run(cmd, cwd=d, env=git_env, check=True, timeout=TIMEOUT, capture_output=True)
    return d


class _OneWrite(http.server.BaseHTTPRequestHandler):
    """The whole response in one write: wget's recv() then reads what was sent, not what had arrived
    (headers and body written apart arrive in one read or two, as it happens)."""

    body = b"pear\napple\nfig\nbanana\n"

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                         b"Content-Length: %d\r\n\r\n%s" % (len(self.body), self.body))

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """A local HTTP server for wget (which has no file:// scheme), on a free port of 127.0.0.1."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _OneWrite)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/fruits.txt"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


PROGRAMS = {
    "ls": lambda f, u: ["/usr/bin/ls", "/usr/share/doc/bash"],
    "python3": lambda f, u: ["/usr/bin/python3", "-c", "pass"],
    "git-version": lambda f, u: ["/usr/bin/git", "--version"],
    "git-log": lambda f, u: ["/usr/bin/git", "-C", f / "repo", "log", "--oneline"],
    "gzip": lambda f, u: ["/usr/bin/gzip", "-c", f / "fruits.txt"],
    "sort": lambda f, u: ["/usr/bin/sort", f / "fruits.txt"],
    "curl": lambda f, u: ["/usr/bin/curl", "-s", "file:///etc/hostname"],
    "wget": lambda f, u: ["/usr/bin/wget", "-q", "-O", "-", u],
}

#: What each program calls through its .plt.got (checked, so a rebuilt Debian package shows up here).
PLTGOT = {"ls": {"malloc", "free", "localtime_r", "gmtime_r", "strcmp"}, "python3": set(),
          "git-version": {"free", "strcasecmp", "strncmp", "memcmp", "strcmp", "strncasecmp"},
          "gzip": set(), "sort": {"malloc", "free"}, "curl": set(), "wget": {"strcasecmp", "fnmatch", "strcmp"}}
PLTGOT["git-log"] = PLTGOT["git-version"]
#: Of those, the ones each invocation really calls (pyltrace shows them; ltrace never does).
CALLED = {"ls": {"malloc", "free"}, "git-version": {"free", "strcmp"}, "git-log": {"free", "strcmp", "strncmp", "strcasecmp", "memcmp"},
          "sort": {"malloc", "free"}, "wget": {"strcmp"}}


#: Programs that do not repeat themselves: curl run twice under ltrace itself allocates and frees in a
#: different pattern about 1 run in 6 (its cleanup order and free(NULL) calls vary).  They are compared
#: as the set of distinct calls with every address blanked (lines) and the set of functions called (-c).
UNSTABLE = {"curl"}


def _addresses_blanked(lines: list[str]) -> set[str]:
    return {re.sub(r"ADDR\d+", "ADDR", line) for line in lines}


@pytest.mark.parametrize("summary", [False, True], ids=["lines", "-c"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_real_binary(name: str, summary: bool, files: Path, http_url: str) -> None:
    """The real binary's trace as ltrace's but for the .plt.got calls, which pyltrace shows."""
    cmd = PROGRAMS[name](files, http_url)
    prog = str(cmd[0])
    assert pltgot_names(prog) == PLTGOT[name]
    opts = ["-c"] if summary else []
    ours, theirs = _run("pyltrace", opts, cmd), _run("ltrace", opts, cmd)
    assert ours.returncode == theirs.returncode == 0, ours.stderr
    assert ours.stdout == theirs.stdout
    called = CALLED.get(name, set())
    if summary:
        rows = summary_rows(ours.stderr)
        assert {n for n in PLTGOT[name] if rows.get(n)} == called
        assert not called & set(summary_rows(theirs.stderr))
        ours_rows = {n: c for n, c in rows.items() if n not in PLTGOT[name]}
        if name in UNSTABLE:
            assert set(ours_rows) == set(summary_rows(theirs.stderr))
        else:
            assert ours_rows == summary_rows(theirs.stderr)
    else:
        shown = {m.group(2) for m in map(_CALL.match, ours.stderr.splitlines()) if m}
        assert shown & PLTGOT[name] == called
        if name in UNSTABLE:
            hidden = {"": pltgot_names(prog)}
            assert (_addresses_blanked(comparable(without(ours.stderr, hidden)))
                    == _addresses_blanked(comparable(theirs.stderr.splitlines())))
        else:
            compare(ours.stderr, theirs.stderr, {"": pltgot_names(prog)})


@pytest.mark.parametrize("extra", [{}, {"LC_CTYPE": "C.UTF-8"}], ids=["LANG=C", "LANG=C LC_CTYPE=C.UTF-8"])
def test_c_locale_environment(extra: dict[str, str]) -> None:
    """Started in the C locale without LC_ALL, Python coerces its own locale by putting LC_CTYPE=C.UTF-8 in
    its environment (PEP 538); the command must not inherit that (ls's setlocale() then returned
    "LC_CTYPE=C.UTF-8;..." where under ltrace it returns "C"), while a LC_CTYPE the user set stays."""
    env = {"PATH": ENV["PATH"], "PYTHONPATH": ENV["PYTHONPATH"], "LANG": "C", **extra}
    cmd = ["-e", "setlocale", "/usr/bin/ls", "/usr/share/doc/bash"]
    ours, theirs = ([*pyltrace_cmd(), *CONF, *cmd], ["ltrace", *CONF, *cmd])
    res = [subprocess.run(argv, capture_output=True, text=True, env=env, timeout=TIMEOUT, cwd=str(REPO_ROOT),
                          check=False) for argv in (ours, theirs)]
    assert res[0].returncode == 0 and res[0].stdout == res[1].stdout
    assert res[0].stderr == res[1].stderr
    expect = '"C"' if not extra else '"LC_CTYPE=C.UTF-8;LC_NUMERIC=C;LC"...'
    assert re.match(rf'ls->setlocale\(LC_ALL, ""\) += {re.escape(expect)}\n', res[0].stderr)
