"""The calls tests/faults/test_wild_args.py makes: every decoded x86_64 syscall with wild arguments.

Arguments come from pools chosen by each argument's kernel C type (the ``widths`` column of
syscall_tables/x86_64.tsv): 32-bit types get values with junk in the upper half
(``0xdeadbeef00000000 | small``), -1, INT_MIN...; 64-bit counts get -1 and huge lengths;
pointers get NULL, 0x10, a non-canonical 0xdeadbeef... address, 0xffffffffffff0000 and
two real areas of the fuzzing process (SCRATCH, refilled before each call with zeros,
random bytes, small integers or self-pointers; ZERO, always zeros).  What must not happen
(rebooting, killing the tracer, unmapping the fuzzer, hanging) is decided here, in DENIED
and in the constrained pools, each with its reason; tests/programs/wild_args.c only
replays the records.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from pathlib import Path

from pytrace.decode import DECODERS, rv_fd
from pytrace.tables.syscalls import SyscallInfo, table

SEED = 20261127
SCRATCH = 0x200000000  # tests/programs/wild_args.c: SCRATCH, 64 KiB, refilled before each call
SCRATCH_SIZE = 0x10000
ZERO = 0x200010000  # 4 KiB of zeros: an empty struct, a zero timeout
HIGH = 0xDEADBEEF00000000  # junk in the upper half of a register
MASK64 = (1 << 64) - 1
FILL_MODES = 4  # wild_args.c fill_scratch: zeros, random bytes, small integers, self-pointers
CLEANUP_FDS = 0x100  # wild_args.c: close_range(10, ~0U) after the call

#: Never called, with the reason.  Everything else the decoders know is fuzzed.
DENIED: dict[str, str] = {
    "reboot": "reboots or halts the machine",
    "kexec_load": "replaces the running kernel",
    "kexec_file_load": "replaces the running kernel",
    "init_module": "loads kernel code",
    "finit_module": "loads kernel code",
    "delete_module": "unloads kernel modules",
    "exit": "ends the fuzzing thread (the program exits by itself after the last record)",
    "exit_group": "ends the fuzzing process (the program exits by itself after the last record)",
    "fork": "a second fuzzer would interleave its calls (RLIMIT_NPROC=0 stops it too)",
    "vfork": "the child would run on the parent's stack and corrupt it",
    "clone": "wild flags make threads on wild stacks or share the fuzzer's memory",
    "clone3": "wild flags make threads on wild stacks or share the fuzzer's memory",
    "execve": "replaces the fuzzer's image",
    "execveat": "replaces the fuzzer's image",
    "pause": "blocks until a signal by definition: each call would cost the 2 s alarm",
    "rt_sigsuspend": "blocks until a signal by definition: each call would cost the 2 s alarm",
    "rt_sigreturn": "loads every register from a wild signal frame: the fuzzer dies",
    "ptrace": "the fuzzer is already traced; PTRACE_TRACEME/ATTACH/DETACH would interfere with the tracer",
    "seccomp": "a filter or strict mode kills the fuzzer on its next call",
    "personality": "changes the ABI flags (address layout, uname) of the rest of the run",
    "unshare": "would change the sandbox's own namespaces and credentials mid-run",
    "setns": "would change the sandbox's own namespaces mid-run",
    "add_key": "key serials are random per run and keys outlive the run in uid 65534's keyring",
    "request_key": "key serials are random per run and keys outlive the run in uid 65534's keyring",
    "keyctl": "key serials are random per run and keys outlive the run in uid 65534's keyring",
    "sync": "flushes every filesystem of the shared host",
    "vhangup": "hangs up the controlling terminal of the session the tests run in (EPERM as nobody, but never worth it)",
}

#: Memory-management calls: address and length arguments come from MM_ADDRS/MM_LENS, which can
#: never cover the fuzzer's own code, stack, heap or SCRATCH/ZERO (munmap/mremap/mprotect/madvise/
#: brk/mmap MAP_FIXED of the harness's memory would crash it).
MM_CALLS = frozenset({
    "mmap", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise", "brk", "mlock", "mlock2",
    "munlock", "msync", "mincore", "remap_file_pages", "mbind", "get_mempolicy", "shmat", "shmdt",
    "move_pages", "migrate_pages",
})
MM_ADDRS = (0, 0x10, 0x1000, 0x400000000, 0x400001234, HIGH, 0xFFFFFFFFFFFF0000)  # below the heap or invalid
#: Small, or -1 (page-aligned to 0: EINVAL everywhere).  Not HIGH|4096: madvise(0x1000,
#: 0xdeadbeef00000000, MADV_DONTNEED) returns EINVAL only after zapping every mapping above
#: 0x1000, the fuzzer's stack included (found by this fuzz: the fuzzer then faults forever).
MM_LENS = (0, 1, 4096, 0x10000, MASK64)
#: Arguments naming a process: only the fuzzer itself (pid 1 of its pid namespace, a session of
#: its own, so 0 and 1 reach nothing else) or pids that do not exist.  Never -1.
PIDS = (0, 1, 0x7FFFFFF0, HIGH | 1, 0xFFFFFFFF00000001, 0x100000000)
#: Waits: zero timeouts only (a NULL or random timeout would block until the alarm).
TIMEOUT_PTRS = (ZERO, 0x10, HIGH | ZERO, 0xFFFFFFFFFFFF0000)
TIMEOUT_INTS = (0, HIGH)
#: Pointers to settings that must not take effect: signal handlers, resource limits, timers.
WILD_PTRS = (0, 0x10, HIGH | SCRATCH, 0xFFFFFFFFFFFF0000)
#: prctl options that cannot break the run (no PR_SET_SECCOMP, PR_SET_SYSCALL_USER_DISPATCH,
#: PR_SET_TSC, PR_SET_MM, PR_SET_DUMPABLE): reads, harmless settings and unknown numbers.
PRCTL_OPTIONS = (1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 19, 21, 23, 24, 25, 27, 36, 37,
                 38, 39, 40, 42, 43, 44, 45, 46, 47, 0x53564D41, 0x59616D61, 99, 0x1234)
#: arch_prctl codes that only read state or fail (no ARCH_SET_FS/GS, ARCH_SET_CPUID,
#: ARCH_MAP_VDSO_*, ARCH_SHSTK_*).
ARCH_PRCTL_CODES = (0x1003, 0x1004, 0x1011, 0x1021, 0x1022, 0x1023, 0x4001, 0x9999)

#: Per (syscall, argument name): the pool to draw that argument from, instead of its type's.
CONSTRAINED: dict[tuple[str, str], tuple[int, ...]] = {
    **{(name, arg): PIDS for name, arg in (
        ("kill", "pid"), ("tkill", "pid"), ("tgkill", "tgid"), ("tgkill", "pid"),
        ("rt_sigqueueinfo", "pid"), ("rt_tgsigqueueinfo", "tgid"), ("rt_tgsigqueueinfo", "pid"),
        ("pidfd_open", "pid"), ("prlimit64", "pid"), ("kcmp", "pid1"), ("kcmp", "pid2"),
        ("process_vm_readv", "pid"), ("process_vm_writev", "pid"), ("move_pages", "pid"),
        ("migrate_pages", "pid"), ("perf_event_open", "pid"), ("get_robust_list", "pid"),
        ("sched_setaffinity", "pid"), ("sched_setparam", "pid"), ("sched_setscheduler", "pid"),
        ("sched_setattr", "pid"), ("setpgid", "pid"), ("setpgid", "pgid"), ("wait4", "upid"),
        ("waitid", "upid"), ("setpriority", "who"), ("ioprio_set", "who"),
    )},
    # PRIO_USER/IOPRIO_WHO_USER with who=0 would reach every process of uid 65534 on the host.
    ("setpriority", "which"): (0, 1, HIGH | 1, 7),
    ("ioprio_set", "which"): (1, 2, HIGH | 1, 7),
    ("prctl", "option"): PRCTL_OPTIONS + tuple(HIGH | o for o in PRCTL_OPTIONS[:6]),
    ("arch_prctl", "option"): ARCH_PRCTL_CODES + (HIGH | 0x1003,),
    ("arch_prctl", "code"): ARCH_PRCTL_CODES + (HIGH | 0x1003,),
    ("rt_sigaction", "act"): WILD_PTRS,
    ("setrlimit", "rlim"): WILD_PTRS,
    ("prlimit64", "new_rlim"): WILD_PTRS,
    ("setitimer", "value"): WILD_PTRS,
    ("timer_create", "timer_event_spec"): WILD_PTRS,
    ("timer_settime", "new_setting"): (*WILD_PTRS, ZERO),
    ("nanosleep", "rqtp"): TIMEOUT_PTRS,
    ("clock_nanosleep", "rqtp"): TIMEOUT_PTRS,
    ("select", "tvp"): TIMEOUT_PTRS,
    ("pselect6", "tsp"): TIMEOUT_PTRS,
    ("ppoll", "tsp"): TIMEOUT_PTRS,
    ("poll", "timeout_msecs"): TIMEOUT_INTS,
    ("epoll_wait", "timeout"): TIMEOUT_INTS,
    ("epoll_pwait", "timeout"): TIMEOUT_INTS,
    ("epoll_pwait2", "timeout"): TIMEOUT_PTRS,
    ("io_getevents", "timeout"): TIMEOUT_PTRS,
    ("io_pgetevents", "timeout"): TIMEOUT_PTRS,
    ("mq_timedsend", "u_abs_timeout"): TIMEOUT_PTRS,
    ("mq_timedreceive", "u_abs_timeout"): TIMEOUT_PTRS,
    ("semtimedop", "timeout"): TIMEOUT_PTRS,
    ("rt_sigtimedwait", "uts"): TIMEOUT_PTRS,
    ("futex", "utime"): TIMEOUT_PTRS,
    ("futex_waitv", "timeout"): TIMEOUT_PTRS,
    ("recvmmsg", "timeout"): TIMEOUT_PTRS,
    # IORING_ENTER_GETEVENTS (1) and SQ_WAIT (4) wait for completions.
    ("io_uring_enter", "flags"): (0, 2, 8, HIGH | 2, 0x100),
    ("msgrcv", "msgflg"): (0o4000, HIGH | 0o4000, 0o4000 | 0o10000, 0o24000),  # IPC_NOWAIT always set
    ("semop", "nsops"): (0,),  # an op on a semaphore set the run created could wait forever
    ("syslog", "type"): (0, 1, 3, 4, 5, 6, 7, 8, 9, 10, HIGH | 10, 99),  # not 2 (SYSLOG_ACTION_READ waits)
}


def fuzzed_syscalls() -> list[SyscallInfo]:
    """Every x86_64 syscall with a decoder of its own, minus DENIED, in table order."""
    tab = table("x86_64")
    return [info for nr, info in sorted(tab.by_nr.items())
            if info.name in DECODERS and info.name not in DENIED]


_FD_NAMES = frozenset({"fd", "oldfd", "newfd", "dfd", "olddfd", "newdfd", "epfd", "fd_in", "fd_out", "out_fd",
                       "in_fd", "ufd", "pidfd", "mqdes", "fdin", "fdout", "ring_fd"})


def _is_fd(name: str) -> bool:
    """An argument that names a descriptor: mostly small numbers, so calls reach real files."""
    return name in _FD_NAMES or name.endswith(("_fd", "dirfd"))


def _pool(rng: random.Random, info: SyscallInfo, i: int) -> int:
    """One value for argument ``i`` of ``info``: its constrained pool, else one for its kernel type."""
    arg, typ, width = info.arg_names[i], info.arg_types[i], info.arg_widths[i]
    fixed = CONSTRAINED.get((info.name, arg))
    if fixed is not None:
        return rng.choice(fixed)
    if info.name in MM_CALLS and ("*" in typ or width == "u64"):
        if arg in {"len", "old_len", "new_len", "size", "maxnode", "nr_pages"}:
            return rng.choice(MM_LENS)
        return rng.choice(MM_ADDRS)
    small = rng.randrange(16)
    if "*" in typ or typ.endswith("_t") and typ.startswith("cap_user"):
        return rng.choice((0, 0x10, HIGH | SCRATCH, 0xFFFFFFFFFFFF0000, SCRATCH, SCRATCH, SCRATCH + 1,
                           ZERO, SCRATCH + SCRATCH_SIZE - 8))
    if _is_fd(arg):
        return rng.choice((rng.randrange(10), rng.randrange(10), HIGH | rng.randrange(10), MASK64,
                           0xFFFFFF9C, 0xFFFFFFFFFFFFFF9C, 63, 0x100000003))
    if width.endswith("32") or width.endswith("16"):
        return rng.choice((small, small, HIGH | small, 0x100000000 | small, MASK64, 0xFFFFFFFF,
                           0x80000000, rng.getrandbits(32), rng.getrandbits(64), HIGH | rng.getrandbits(32)))
    return rng.choice((small, small, HIGH | small, MASK64, 0x7FFFFFFFFFFFFFFF, 4096, 1 << 32,
                       rng.getrandbits(64), 0x8000000000000000))


def generate(seed: int, count: int) -> Iterator[tuple[SyscallInfo, tuple[int, ...], int]]:
    """``count`` calls: (syscall, 6 argument words, wild_args.c control word), deterministic in ``seed``.

    Syscalls are taken round-robin in a shuffled order, so every one is called about
    ``count / len(fuzzed_syscalls())`` times whatever the seed.
    """
    rng = random.Random(seed)
    infos = fuzzed_syscalls()
    order: list[SyscallInfo] = []
    for _ in range(count):
        if not order:
            order = infos[:]
            rng.shuffle(order)
        info = order.pop()
        args = [_pool(rng, info, i) for i in range(info.nargs)]
        args += [rng.choice((0, HIGH, MASK64))] * (6 - info.nargs)  # unused registers: junk too
        control = rng.randrange(FILL_MODES) | (rng.getrandbits(31) << 32)
        if DECODERS[info.name].rval is rv_fd or info.name in {"pipe", "pipe2", "socketpair"}:
            control |= CLEANUP_FDS
        yield info, tuple(args), control


def write_records(path: Path, calls: list[tuple[SyscallInfo, tuple[int, ...], int]]) -> Path:
    """The binary file wild_args.c replays: per call, nr, 6 arguments and the control word."""
    record = struct.Struct("<8Q")
    path.write_bytes(b"".join(record.pack(info.nr, *args, control) for info, args, control in calls))
    return path


def chunks(seed: int, count: int, parts: int) -> list[list[tuple[SyscallInfo, tuple[int, ...], int]]]:
    """The ``count`` calls of ``seed`` split into ``parts`` runs (one traced process each)."""
    calls = list(generate(seed, count))
    size = -(-count // parts)
    return [calls[i:i + size] for i in range(0, count, size)]

