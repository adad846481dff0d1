"""Parity of the memory and process decoders (pytrace/decode/memory.py, process.py) with strace.

Every test runs one program under real strace and under pytrace with the same
``-e trace=`` set and compares the two traces after a small normalisation:
only values that legitimately differ between two runs (ASLR addresses, pids,
clocks, random bytes, free memory) are blanked, everything else must be
identical.  The expected text is always the oracle's output, never ours.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers import group_by_process, run_tracer

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace as the oracle")

# Blank what varies between two runs of the same program; anchored so that wrong values elsewhere still show.
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\b0x[0-9a-f]{5,}\b"), "ADDR"),
    # Return values that are pids, tids or clock ticks.
    (
        re.compile(
            r"^((?:\d+ +)?(?:clone3?|v?fork|wait4|times|set_tid_address|getp?pid|gettid)\(.*\) += )\d+$", re.M
        ),
        r"\1N",
    ),
    (re.compile(r"\b(parent_tid|pidfd|si_pid|si_utime|si_stime)=(\[?)\d+"), r"\1=\2N"),
    (re.compile(r"\b(wait4|kill)\(\d+"), r"\1(PID"),
    (re.compile(r"\b(P_PID), \d+"), r"\1, PID"),
    (re.compile(r"\b(tv_usec|tv_sec|ru_\w+|uptime|freeram|sharedram|bufferram|procs)=\d+"), r"\1=N"),
    (re.compile(r"loads=\[\d+, \d+, \d+\]"), "loads=[N]"),
    (re.compile(r"(getrandom\(\")[^\"]*"), r"\1RANDOM"),
    (re.compile(r"^\d+ +", re.M), "PID "),
]


def _normalise(text: str) -> str:
    for pattern, repl in _RULES:
        text = pattern.sub(repl, text)
    # Normalised values change width, which moves strace's column-40 padding; the differential
    # suite checks alignment on raw lines, so here the padding before "= " is collapsed.
    return re.sub(r"\) +(= )", r") \1", text)


def _compile(tmp_path: Path, name: str, source: str) -> Path:
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    exe = tmp_path / name
    subprocess.run(["gcc", "-O0", "-w", "-o", str(exe), str(src), "-lpthread"], check=True, timeout=60)
    return exe


def _both(tmp_path: Path, args: list[str], cmd: list[str]) -> tuple[str, str]:
    """The normalised traces of ``cmd`` from strace and from pytrace, with the same tracer options."""
    out = {}
    for tracer in ("strace", "pytrace"):
        path = tmp_path / f"{tracer}.txt"
        run_tracer(tracer, ["-o", str(path), *args], cmd)
        text = path.read_text(errors="backslashreplace")
        # -f: each process's own sequence is deterministic, the interleaving is the scheduler's.
        text = group_by_process(text) if "-f" in args else _merge_split_lines(text)
        out[tracer] = _normalise(text)
    return out["strace"], out["pytrace"]


_UNFINISHED = re.compile(r"^(?P<pid>\d+) +(?P<head>.*) <unfinished \.\.\.>$")
_RESUMED = re.compile(r"^(?P<pid>\d+) +<\.\.\. \w+ resumed>(?P<tail>.*)$")


def _merge_split_lines(text: str) -> str:
    """Rejoin ``<unfinished ...>`` / ``<... resumed>`` pairs (-f): where another thread cuts in is scheduling."""
    pending: dict[str, int] = {}
    out: list[str] = []
    for line in text.splitlines():
        if m := _UNFINISHED.match(line):
            pending[m["pid"]] = len(out)
            out.append(f"{m['pid']} {m['head']}")
        elif (m := _RESUMED.match(line)) and m["pid"] in pending:
            out[pending.pop(m["pid"])] += m["tail"]
        else:
            out.append(line)
    return "\n".join(out)


def _assert_same(tmp_path: Path, args: list[str], cmd: list[str], keep: str | None = None) -> str:
    ref, got = _both(tmp_path, args, cmd)
    if keep is not None:  # compare only the lines about the calls under test (threads interleave the rest)
        ref = "\n".join(line for line in ref.splitlines() if re.search(keep, line))
        got = "\n".join(line for line in got.splitlines() if re.search(keep, line))
    assert got == ref
    assert ref.strip(), "the oracle printed nothing: the test exercises nothing"
    return ref


MEM_CALLS = (
    "trace=%memory,mlock2,mlockall,munlockall,mincore,membarrier,process_madvise,set_robust_list,"
    "remap_file_pages,pkey_mprotect"
)

MEMORY_EXTRA = r"""
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/membarrier.h>
int main(void)
{
    char *p = mmap(NULL, 40960, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char vec[64];
    p[0] = 1; p[8192] = 2;
    syscall(SYS_pkey_mprotect, p, 4096, PROT_READ, -1);
    msync(p, 4096, MS_SYNC | MS_INVALIDATE);
    msync(p, 4096, 0x40);
    mlock(p, 4096);
    munlock(p, 4096);
    syscall(SYS_mlock2, p, 4096, 1);
    mlockall(MCL_CURRENT);
    mlockall(0x100);
    munlockall();
    mincore(p, 40960, vec);
    mincore(p, 4096 * 40, vec);
    mincore(p, 4096, (void *)1);
    mincore(p, 0, vec);
    remap_file_pages(p, 4096, 0, 0, 0);
    syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0);
    struct iovec iov = { p, 4096 };
    syscall(SYS_process_madvise, -1, &iov, 1, MADV_COLD, 0);
    madvise(p, 4096, 77);
    mprotect(p, 4096, 0x10 | PROT_READ);
    mprotect(p, 4096, 0x10);
    mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | (21 << 26), -1, 0);
    mmap(NULL, 4096, PROT_READ, MAP_SHARED_VALIDATE | MAP_ANONYMOUS | 0x800000, -1, 0x1000);
    mmap(NULL, 4096, PROT_READ, 0xf, -1, 0);
    char *q = mmap(NULL, 8192, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    mremap(p, 4096, 8192, MREMAP_MAYMOVE | MREMAP_FIXED, q);
    syscall(SYS_set_robust_list, 0, 24);
    return 0;
}
"""


def test_memory_program(tmp_path: Path, programs: dict[str, Path]) -> None:
    """tests/programs/memory.c: mmap/mprotect/madvise/mremap/munmap/brk, including failures."""
    _assert_same(tmp_path, ["-e", "trace=%memory"], [str(programs["memory"])])


def test_memory_rarer_calls(tmp_path: Path) -> None:
    """msync/mlock*/mincore/membarrier/process_madvise and the odd flag combinations of mmap/mprotect."""
    exe = _compile(tmp_path, "mem", MEMORY_EXTRA)
    _assert_same(tmp_path, ["-e", MEM_CALLS], [str(exe)])


PROCESS_ATTRS = r"""
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <asm/prctl.h>

int main(void)
{
    char name[32];
    int i;
    unsigned long fs;
    prctl(PR_SET_NAME, "worker-thread-name-long");
    prctl(PR_GET_NAME, name);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    prctl(PR_GET_PDEATHSIG, &i);
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_GET_CHILD_SUBREAPER, &i);
    prctl(PR_GET_KEEPCAPS);
    prctl(PR_SET_TIMERSLACK, 50000);
    prctl(9999, 1, 2, 3, 4);
    prctl(PR_SET_PTRACER, -1);
    prctl(PR_GET_TID_ADDRESS, &fs);
    prctl(PR_GET_NAME, (void *)1);
    syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
    syscall(SYS_arch_prctl, 0x3001, &fs);
    syscall(SYS_arch_prctl, ARCH_GET_CPUID, 0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    getrusage(RUSAGE_CHILDREN, &ru);
    getrusage(RUSAGE_THREAD, NULL);
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    setrlimit(RLIMIT_NOFILE, &rl);
    rl.rlim_cur = 1000; rl.rlim_max = 4096;
    setrlimit(RLIMIT_CORE, &rl);
    syscall(SYS_getrlimit, 99, &rl);
    syscall(SYS_prlimit64, 0, RLIMIT_AS, NULL, (void *)8);
    getpriority(PRIO_PROCESS, 0);
    setpriority(PRIO_PROCESS, 0, 5);
    getpriority(5, 0);
    personality(0xffffffff);
    personality(PER_LINUX | ADDR_NO_RANDOMIZE);
    personality(0xffffffff);
    personality(PER_LINUX);
    syscall(SYS_personality, 0x12345678);
    uid_t r, e, s;
    getresuid(&r, &e, &s);
    getresgid(&r, &e, &s);
    syscall(SYS_getresuid, NULL, &e, (void *)1);
    setuid(0); setgid(0); setreuid(-1, 0); setresuid(-1, 0, -1); setresgid(0, 0, 0);
    gid_t groups[64];
    int n = getgroups(0, NULL);
    n = getgroups(64, groups);
    setgroups(n, groups);
    setgroups(0, NULL);
    struct sysinfo si;
    sysinfo(&si);
    struct tms t;
    times(&t);
    times(NULL);
    cpu_set_t cs;
    sched_getaffinity(0, sizeof cs, &cs);
    sched_setaffinity(0, sizeof cs, &cs);
    sched_getaffinity(0, 4, &cs);
    static char big[256];
    big[0] = 3;
    sched_setaffinity(0, 256, (cpu_set_t *)big);
    sched_setaffinity(0, 0, (cpu_set_t *)big);
    sched_yield();
    struct utsname un;
    uname(&un);
    uname(NULL);
    unsigned char rnd[8];
    getrandom(rnd, sizeof rnd, GRND_NONBLOCK);
    getrandom(NULL, 8, 0);
    syscall(SYS_set_tid_address, NULL);
    syscall(SYS_rseq, 0, 0, 0, 0);
    return 0;
}
"""

ATTR_CALLS = (
    "trace=prctl,arch_prctl,getrusage,getrlimit,setrlimit,prlimit64,getpriority,setpriority,"
    "personality,getresuid,getresgid,setuid,setgid,setreuid,setresuid,setresgid,getgroups,setgroups,"
    "sysinfo,times,sched_getaffinity,sched_setaffinity,sched_yield,uname,getrandom,set_tid_address,"
    "rseq"
)


@pytest.mark.parametrize("opts", [[], ["-v"], ["-s", "4"]], ids=["default", "verbose", "short-strings"])
def test_process_attributes(tmp_path: Path, opts: list[str]) -> None:
    """prctl, arch_prctl, rlimits, rusage, ids, groups, personality, affinity, uname, getrandom, rseq."""
    exe = _compile(tmp_path, "attrs", PROCESS_ATTRS)
    _assert_same(tmp_path, [*opts, "-e", ATTR_CALLS], [str(exe)])


WAITS = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/sched.h>

int main(void)
{
    sigset_t chld;
    int status;
    struct rusage ru;
    siginfo_t info;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);

    pid_t pid = fork();
    if (pid == 0) { raise(SIGKILL); _exit(1); }
    wait4(pid, &status, 0, &ru);
    pid = fork();
    if (pid == 0) _exit(7);
    waitid(P_PID, pid, &info, WEXITED);
    waitid(P_ALL, 0, &info, WEXITED | WNOHANG);
    waitid(P_ALL, 0, NULL, WEXITED | WNOHANG);
    wait4(-1, &status, __WALL | WNOHANG, NULL);

    int pidfd = -1;
    pid_t ptid = 0;
    struct clone_args ca = {0};
    ca.flags = CLONE_PIDFD | CLONE_PARENT_SETTID;
    ca.pidfd = (unsigned long)&pidfd;
    ca.parent_tid = (unsigned long)&ptid;
    ca.exit_signal = SIGCHLD;
    pid = syscall(SYS_clone3, &ca, sizeof ca);
    if (pid == 0) _exit(0);
    wait4(pid, &status, 0, NULL);
    ca.flags = 0;
    pid = syscall(SYS_clone3, &ca, 64);
    if (pid == 0) _exit(0);
    wait4(pid, &status, 0, NULL);
    syscall(SYS_clone3, &ca, 10);
    syscall(SYS_clone3, NULL, 88);
    pid = syscall(SYS_clone, CLONE_PARENT_SETTID | SIGCHLD, 0, &ptid, 0, 0);
    if (pid == 0) _exit(0);
    wait4(pid, &status, 0, NULL);
    pid = syscall(SYS_clone, 0, 0, 0, 0, 0);
    if (pid == 0) _exit(0);
    wait4(-1, &status, __WCLONE, NULL);
    pid = vfork();
    if (pid == 0) _exit(5);
    wait4(pid, &status, 0, NULL);
    return 0;
}
"""


def test_fork_clone_wait(tmp_path: Path) -> None:
    """clone/clone3 (pidfd, parent_tid, short and bad sizes), vfork, wait4/waitid statuses and rusage."""
    exe = _compile(tmp_path, "waits", WAITS)
    _assert_same(tmp_path, ["-e", "trace=clone,clone3,fork,vfork,wait4,waitid"], [str(exe)])


def test_forker_follow(tmp_path: Path, programs: dict[str, Path]) -> None:
    """tests/programs/forker.c under -f: the parent's clone/vfork/wait4 lines (children interleave)."""
    _assert_same(
        tmp_path,
        ["-f", "-e", "trace=clone,vfork,wait4,execve,exit_group"],
        [str(programs["forker"])],
        keep=r"^PID (clone|vfork|wait4|execve|exit_group)\(.*\) += ",
    )


def test_threads_clone3(tmp_path: Path, programs: dict[str, Path]) -> None:
    """tests/programs/threads.c under -f: pthread_create's clone3 with ``=> {parent_tid=[N]}``."""
    ref = _assert_same(
        tmp_path, ["-f", "-e", "trace=clone3"], [str(programs["threads"])], keep=r"clone3\(.*\) += "
    )
    assert "=> {parent_tid=[N]}, 88" in ref


EXECS = r"""
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void)
{
    char *argv[] = {"/nonexistent", "a", "b", NULL};
    char *envp[] = {"A=1", "B=2", NULL};
    char *many[40];
    for (int i = 0; i < 39; i++) many[i] = "x";
    many[39] = NULL;
    execve("/nonexistent", argv, envp);
    execve("/nonexistent", NULL, NULL);
    execve("/nonexistent", (char **)1, (char **)1);
    syscall(SYS_execveat, AT_FDCWD, "/nonexistent", argv, envp, AT_SYMLINK_NOFOLLOW);
    execve("/nonexistent", many, many);
    execve("/bin/true", argv, envp);
    return 1;
}
"""


@pytest.mark.parametrize(
    "opts",
    [[], ["-v"], ["-s", "4"], ["-v", "-s", "4"]],
    ids=["default", "verbose", "short-strings", "verbose-short"],
)
def test_execve(tmp_path: Path, opts: list[str]) -> None:
    """argv cut at -s entries, env as ``/* N vars */`` (or the array with -v), failures decoded at entry."""
    exe = _compile(tmp_path, "execs", EXECS)
    _assert_same(tmp_path, [*opts, "-e", "trace=execve,execveat,exit_group"], [str(exe)])


@pytest.mark.parametrize("cmd", [["ls", "/"], ["sh", "-c", "exit 3"]], ids=["ls", "sh-exit"])
def test_startup_calls(tmp_path: Path, cmd: list[str]) -> None:
    """The dynamic loader's and libc's start-up calls of ordinary programs."""
    calls = (
        "trace=execve,brk,mmap,munmap,mprotect,arch_prctl,set_tid_address,set_robust_list,rseq,prlimit64,"
        "getrandom,exit_group,wait4,clone,uname,getuid,geteuid,getgid,getegid,getpid,getppid"
    )
    _assert_same(tmp_path, ["-e", calls], cmd)
