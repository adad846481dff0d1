"""Structures passed by an i386 (-m32) tracee are read with 32-bit layouts, as strace 6.1 does (mpers).

tests/programs/breadth32.c is built with ``gcc -m32`` here (the session's
``programs`` fixture builds 64-bit programs) and traced by both tracers; each
call is made with a valid argument and with a bad pointer or descriptor.  The
comparison covers the families whose i386 layouts pytrace/decode/i386.py
provides (``COVERED``); values that change between two runs (clocks, free
blocks) are masked only when they have a plausible size, so a field read with
the wrong layout (a 64-bit garbage number) still fails the comparison.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import build_m32, decode, host_wide_lock, normalise, run_tracer

pytestmark = pytest.mark.differential

SOURCE = Path(__file__).resolve().parent.parent / "programs" / "breadth32.c"

#: Calls whose structures are decoded with i386 layouts (the rest of breadth32.c is pending).
COVERED = (
    "stat64,lstat64,fstat64,fstatat64,stat,fstat,statfs,statfs64,fstatfs,fstatfs64,"
    "nanosleep,clock_gettime,clock_getres,clock_nanosleep,gettimeofday,setitimer,getitimer,"
    "timer_settime,timer_gettime,timerfd_settime,timerfd_gettime,time,"
    "rt_sigaction,readv,writev,preadv,connect,getsockname,uname,prlimit64,sched_getparam,"
    "sched_rr_get_interval,poll,ppoll,epoll_ctl,epoll_wait,rt_sigprocmask,"
    "mmap2,_llseek,fcntl,fcntl64,ugetrlimit,getrlimit,setrlimit,getrusage,wait4,sysinfo,"
    "sendmsg,recvmsg,sendmmsg,recvmmsg,sigaltstack,"
    "socket,socketpair,setsockopt,_newselect,select,sigaction,sigreturn,rt_sigqueueinfo,rt_sigtimedwait,"
    "waitid,clone,timer_create,adjtimex,clock_adjtime,set_thread_area,get_thread_area,send,recv,"
    "ipc,semop,semget,semctl,semtimedop,msgsnd,msgrcv,msgget,msgctl,shmat,shmdt,shmget,shmctl"
)

# Run-dependent values, masked only when they are of a sane size (at most 10 digits).
_VARYING = [
    (re.compile(r"\b(tv_sec|tv_nsec|tv_usec|f_bfree|f_bavail|f_ffree)=\d{1,10}\b"), r"\1=N"),
    (re.compile(r"\btime\(\[\d{1,10} /\* [^*]+ \*/\]\) += \d+ \([^)]+\)"), "time([T]) = T"),
    (re.compile(r"\bhtons\(\d+\)"), "htons(P)"),
    (re.compile(r"\b(ru_\w+|uptime|freeram|sharedram|bufferram|procs)=\d{1,10}\b"), r"\1=N"),
    (re.compile(r"\bloads=\[\d{1,10}, \d{1,10}, \d{1,10}\]"), "loads=[N, N, N]"),
    (re.compile(r"\bcmsg_data=\{pid=\d{1,10}, "), "cmsg_data={pid=P, "),
    # waitid's si_utime/si_stime are whatever the kernel leaves there; SIGCHLD races the waitid line.
    (re.compile(r"\b(si_[us]time)=\d+(?: /\* \d+\.\d+ s \*/)?"), r"\1=N"),
    (re.compile(r"^--- SIGCHLD .*---\n", re.M), ""),
    (re.compile(r"\b(si_pid=|rt_sigqueueinfo\(|waitid\(P_PID, |sigev_notify_thread_id=)\d+"), r"\1P"),
    # System V IPC identifiers: returned by *get, first argument of the others.
    (re.compile(r"^((?:sem|msg|shm)get\(.*\) += )\d+$", re.M), r"\1ID"),
    (re.compile(r"^((?:sem|msg|shm)(?:op|timedop|ctl|snd|rcv|at)\()\d+, ", re.M), r"\1ID, "),
]


@pytest.fixture(scope="module")
def breadth32(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("breadth32") / "breadth32"
    build_m32(SOURCE, target, "-g")
    return target


def _trace(tracer: str, options: list[str], program: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.trace"
    # breadth32 sets record locks on /dev/null, one inode for the whole host: a run in another
    # worker would show in F_GETLK's answer (l_pid=...), so runs of it never overlap.
    with host_wide_lock("breadth32"):
        proc = run_tracer(tracer, [*options, "-o", str(out)], [str(program)], cwd=tmp_path)
    assert proc.returncode == 0, decode(proc.stderr)
    text = decode(out.read_bytes())
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return normalise(text)


@pytest.mark.parametrize("verbose", [False, True], ids=["abbrev", "verbose"])
def test_i386_structures(verbose: bool, breadth32: Path, tmp_path: Path) -> None:
    """stat64/stat, statfs(64), timespec/timeval/itimer*, k_sigaction, iovec, rlimit, rusage, sysinfo,
    msghdr/cmsghdr, stack_t and the i386-only mmap2/_llseek/fcntl64/ugetrlimit: strace's text, valid and bad."""
    options = ["-e", f"trace={COVERED}", *(["-v"] if verbose else [])]
    expected = _trace("strace", options, breadth32, tmp_path)
    actual = _trace("pytrace", options, breadth32, tmp_path)
    assert actual == expected
    assert re.search(r'stat64\("/dev/null", \{.*st_mode=S_IFCHR\|0666, .*st_rdev=makedev\(0x1, 0x3\)', actual)
    assert "nanosleep({tv_sec=N, tv_nsec=N}" in actual and "nanosleep(0x8, NULL) = -1 EFAULT" in actual
    assert "readv(3, [{iov_base=\"\", iov_len=4}, {iov_base=\"\", iov_len=8}], 2) = 0" in actual
    assert "rt_sigaction(SIGUSR1, {sa_handler=" in actual and "sa_mask=[INT], sa_flags=SA_RESTART}" in actual
    # i386-only calls and the 32-bit rlimit, rusage, sysinfo, msghdr/cmsghdr and stack_t layouts.
    assert "mmap2(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0x3000) = -1 ENODEV" in actual
    assert "_llseek(3, 4294967298, [0], SEEK_CUR) = 0" in actual
    assert re.search(r"^fcntl64\(3, F_GETFD\) += 0x1 \(flags FD_CLOEXEC\)$", actual, re.M)
    assert "fcntl64(3, F_SETLK64, {l_type=F_RDLCK, l_whence=SEEK_CUR, l_start=8589934592, l_len=100}) = " in actual
    assert "fcntl(3, F_SETLK, {l_type=F_RDLCK, l_whence=SEEK_SET, l_start=0, l_len=10}) = " in actual
    assert "ugetrlimit(RLIMIT_STACK, {rlim_cur=" in actual and "rlim_max=RLIM_INFINITY}) = 0" in actual
    assert "cmsg_type=SCM_RIGHTS, cmsg_data=[3]}, {cmsg_len=24, cmsg_level=SOL_SOCKET" in actual
    assert re.search(r"sigaltstack\(\{ss_sp=\w+, ss_flags=SS_DISABLE, ss_size=16384\}, NULL\) += 0", actual)
    assert re.search(r"sysinfo\(\{uptime=N, .*, mem_unit=\d+\}\) = 0", actual)
    # socketcall(2) printed as its subcall; select/_newselect; old sigaction, sigreturn; i386 siginfo_t.
    assert re.search(r"^socketpair\(AF_UNIX, SOCK_DGRAM, 0, \[\d+, \d+\]\) = 0$", actual, re.M)
    assert re.search(r"^setsockopt\(\d+, SOL_SOCKET, SO_PASSCRED, \[1\], 4\) = 0$", actual, re.M)
    assert "_newselect(4, [3], NULL, NULL, {tv_sec=N, tv_usec=N}) = 1 (in [3], left {tv_sec=N, tv_usec=N})" in actual
    assert "select(0x8) = -1 EFAULT" in actual
    assert "sigaction(SIGUSR2, NULL, {sa_handler=" in actual and "sa_mask=[TERM], sa_flags=SA_NODEFER}) = 0" in actual
    assert "sigreturn({mask=[]}) = 0" in actual
    assert "si_code=SI_QUEUE, si_pid=P, si_uid=0, si_int=42, si_ptr=0x2a}) = 0" in actual
    # sigevent, timex, user_desc (no lm, set_thread_area's chosen entry), send/recv through socketcall.
    assert "sigev_signo=SIGUSR1, sigev_notify=SIGEV_THREAD_ID, sigev_notify_thread_id=" in actual
    assert re.search(r"adjtimex\(\{modes=0, offset=\d+, .*, tai=\d+\}\) = \d+ \(TIME_\w+\)", actual)
    assert re.search(r"^set_thread_area\(\{entry_number=-1, .*useable=1\}\) = 0 \(entry_number=\d+\)$", actual, re.M)
    assert re.search(r"flags=CLONE_SETTLS\|SIGCHLD, tls=\{entry_number=\d+, base_addr=", actual)
    assert 'send(5, "data", 4, 0) = 4' in actual and 'recv(6, "data", 256, MSG_DONTWAIT) = 4' in actual
    assert re.search(r"waitid\(P_PID, P, \{si_signo=SIGCHLD, si_code=CLD_EXITED, .*si_status=3, ", actual)
    # ipc(2) printed as its subcall, arguments in strace's indirect order; an unknown call stays ipc().
    ipc = re.sub(r" <bad alignment \d+>", "", actual)  # the identifiers' width moves the column
    assert "semop(ID, [{sem_num=0, sem_op=1, sem_flg=IPC_NOWAIT}], 1) = 0" in ipc
    assert "semtimedop(ID, [{sem_num=0, sem_op=1, sem_flg=IPC_NOWAIT}], 1, {tv_sec=N, tv_nsec=N}) = 0" in ipc
    assert "semctl(ID, 0, GETVAL, [NULL]) = 2" in ipc and "semctl(ID, 0, IPC_RMID, NULL) = -1 EINVAL" in ipc
    assert 'msgsnd(ID, {mtype=1, mtext="hello\\0"}, 6, IPC_NOWAIT) = 0' in ipc
    assert 'msgrcv(ID, {mtype=1, mtext="hello\\0\\0\\0"}, 8, 0, IPC_NOWAIT) = 6' in ipc
    assert re.search(r"^shmat\(ID, NULL, SHM_RDONLY\) += (\S+)\nshmdt\(\1\) += 0$", ipc, re.M)
    assert "ipc(99, 0x1, 0x2, 0x3, 0, 0) = -1 ENOSYS" in ipc


@pytest.mark.parametrize("options", [["-e", "trace=semop,shmdt"], ["-e", "trace=%ipc"], ["-e", "trace=ipc"],
                                     ["-e", "trace=!%ipc,sendmsg"]],
                         ids=["names", "class", "bare-class", "negated"])
def test_i386_ipc_subcall_selection(options: list[str], breadth32: Path, tmp_path: Path) -> None:
    """-e trace= selects ipc(2) stops by their subcall's name or class, as strace does."""
    expected = _trace("strace", options, breadth32, tmp_path)
    actual = _trace("pytrace", options, breadth32, tmp_path)
    assert actual == expected
    assert ("semop(ID, [" in actual) != options[1].startswith("trace=!")


def test_i386_ipc_subcall_summary(breadth32: Path, tmp_path: Path) -> None:
    """-c counts ipc(2) stops under their subcall's name (one row each, like strace's subcall slots)."""
    def rows(tracer: str) -> list[tuple[str, ...]]:
        text = _trace(tracer, ["-c", "-e", "trace=%ipc"], breadth32, tmp_path)
        return sorted(tuple(line.split()[3:]) for line in text.splitlines()
                      if re.match(r"^ *\d+\.\d+ ", line) and not line.endswith(" total"))
    expected = rows("strace")
    assert rows("pytrace") == expected
    assert ("1", "semop") in expected and ("2", "1", "msgrcv") in expected


def test_x86_64_run_keeps_the_plain_decoder_lookup(tmp_path: Path) -> None:
    """The per-personality lookup is installed by the first i386 tracee only (no cost for x86_64)."""
    import io

    from pytrace.events import PersonalityEvent
    from pytrace.sinks.strace_text import StraceTextSink, Stream

    sink = StraceTextSink(lambda pid: Stream(io.StringIO()))
    x86_only = sink.decoding.bound
    assert sink.bound == x86_only and not sink.per_personality
    sink.on_personality(PersonalityEvent(1, "x86_64", 0, 0))
    assert sink.bound == x86_only and not sink.per_personality
    sink.on_personality(PersonalityEvent(1, "i386", 0, 0))
    assert sink.bound == sink.decoding.bound_any and sink.per_personality
