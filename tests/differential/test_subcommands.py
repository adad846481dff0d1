"""Sub-commands and options of multiplexed syscalls, decoded as strace 6.1 decodes each one.

One small program per syscall family (tests/programs/subcmd_*.c) calls every sub-command
strace's decoder distinguishes (prctl.c's PR_* options, net.c's socket options, fcntl.c's
F_* commands, futex.c's FUTEX_* operations, the mount API's commands and flags, and smaller
multiplexers: seccomp, membarrier, syslog, SysV IPC, NUMA modes...), with valid and invalid
arguments; its trace under pytrace must equal real strace's with the same flags, in the
default, raw and verbose constant styles.  The programs need root (AF_PACKET and raw
sockets, mount-API calls), as the rest of the differential suite does.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import decode, normalise, run_tracer

# program -> (trace expression, texts the program must keep exercising in the default style)
CASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "subcmd_prctl": (
        "prctl",
        (
            "prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_OFF, 0, 0, NULL) = 0",
            "prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, 0x2 /* PIDTYPE_PGID */, NULL)",
            "prctl(PR_SVE_SET_VL, PR_SVE_SET_VL_ONEXEC|0x80000|0x20)",
            "PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_ASYNC|0x5<<PR_MTE_TAG_SHIFT|0x40000000, 0x1, 0x2, 0x3)",
            "prctl(PR_PAC_RESET_KEYS, PR_PAC_APIAKEY|PR_PAC_APIBKEY|PR_PAC_APGAKEY, 0, 0, 0)",
            "prctl(PR_GET_SECUREBITS) = 0x15 (SECBIT_NOROOT|SECBIT_NO_SETUID_FIXUP|SECBIT_KEEP_CAPS)",
            "prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY)",
            "prctl(PR_GET_PDEATHSIG, [SIGRT_8])",
        ),
    ),
    "subcmd_sockopt": (
        "getsockopt,setsockopt",
        (
            "getsockopt(6, SOL_PACKET, PACKET_STATISTICS, {tp_packets=0, tp_drops=\"\\x00\\x00\"}, [6]) = 0",
            "setsockopt(6, SOL_PACKET, PACKET_RX_RING, {tp_block_size=4096, tp_block_nr=0, tp_frame_size=2048, "
            "tp_frame_nr=0}, 16) = 0",
            "{mr_ifindex=if_nametoindex(\"lo\"), mr_type=PACKET_MR_MULTICAST, mr_alen=3, mr_address=01:02:03}, 16)",
            "setsockopt(8, SOL_RAW, ICMP_FILTER, [ICMP_ECHO ICMP_TIMESTAMP 0x1e /* ICMP_??? */], 4) = 0",
            "setsockopt(8, SOL_RAW, ICMP_FILTER, ~[ICMP_ECHOREPLY ICMP_DEST_UNREACH], 2) = 0",
            "setsockopt(3, SOL_IP, IPT_SO_SET_REPLACE, ",
            "getsockopt(4, SOL_IPV6, IP6T_SO_GET_INFO, ",
            "setsockopt(3, AF_VSOCK, SO_VM_SOCKETS_BUFFER_MAX_SIZE, [0], 4)",
            "getsockopt(3, SOL_TLS, TLS_TX, ",
            "SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0",
        ),
    ),
    "subcmd_fcntl": (
        "fcntl",
        (
            "fcntl(3, F_SETOWN_EX, {type=0x9 /* F_OWNER_??? */, pid=1}) = -1 EINVAL (Invalid argument)",
            "fcntl(3, F_GETOWN_EX, {type=F_OWNER_PGRP, pid=0}) = 0",
            "fcntl(3, F_GETSIG) = 12 (SIGUSR2)",
            "fcntl(3, F_GETLEASE) = 0x2 (F_UNLCK)",
            "fcntl(7, F_NOTIFY, DN_CREATE|DN_DELETE|DN_MULTISHOT) = 0",
            "fcntl(6, F_GET_SEALS) = 0x6 (seals F_SEAL_SHRINK|F_SEAL_GROW)",
            "fcntl(3, F_OFD_GETLK, {l_type=F_UNLCK, l_whence=SEEK_SET, l_start=200, l_len=10, l_pid=0}) = 0",
            "fcntl(3, 0x40c /* F_??? */, ",
        ),
    ),
    "subcmd_futex": (
        "futex,futex_waitv",
        (
            "FUTEX_OP_OPARG_SHIFT<<28|FUTEX_OP_OR<<28|0x3<<12|FUTEX_OP_CMP_EQ<<24|0x5) = 0",
            "0x7<<28 /* FUTEX_OP_??? */|0xabc<<12|0x9<<24 /* FUTEX_OP_CMP_??? */|0x123)",
            "FUTEX_BITSET_MATCH_ANY) = 0",
            "flags=FUTEX_32|FUTEX_PRIVATE_FLAG, __reserved=0x1}]",
        ),
    ),
    "subcmd_mount": (
        "mount,umount2,fsopen,fsconfig,fsmount,fspick,open_tree,move_mount,mount_setattr,sched_setattr,"
        "sched_getattr,capget,capset,arch_prctl,personality",
        (
            'fsconfig(3, FSCONFIG_SET_BINARY, "blob", "\\x01\\x02\\x03", 3) = -1 EINVAL (Invalid argument)',
            "propagation=0 /* MS_??? */, userns_fd=99}, 32) = -1 EBADF (Bad file descriptor)",
            "arch_prctl(ARCH_REQ_XCOMP_PERM, 0x12 /* XFEATURE_XTILE_DATA */)",
            "arch_prctl(ARCH_GET_XCOMP_SUPP, [0x",
        ),
    ),
    "subcmd_misc": (
        "seccomp,membarrier,kcmp,syslog,reboot,msgctl,semctl,shmctl,madvise,mbind,set_mempolicy,get_mempolicy,"
        "ioprio_get,ioprio_set,sysfs",
        (
            "syslog(8 /* SYSLOG_ACTION_CONSOLE_LEVEL */, NULL, 99 /* LOGLEVEL_??? */) = -1 EINVAL (Invalid argument)",
            "64, 0x80 /* MPOL_??? */) = -1 EINVAL (Invalid argument)",
            "membarrier(0x4000 /* MEMBARRIER_CMD_??? */, 0) = -1 EINVAL (Invalid argument)",
        ),
    ),
    "subcmd_ops": (
        "epoll_ctl,io_uring_register,shutdown,setns,sched_setscheduler,sched_getscheduler,sched_get_priority_max,"
        "sched_get_priority_min,clock_adjtime,lseek,msync,mremap,mlockall,getrandom,pidfd_send_signal,rseq",
        (
            ", 0x7 /* SHUT_??? */) = -1 EINVAL (Invalid argument)",
            ", 0x63 /* IORING_REGISTER_??? */, 0xbadc0de0, 3) = -1 EINVAL (Invalid argument)",
            "getrandom(\"\", 0, GRND_NONBLOCK|GRND_RANDOM) = 0",
        ),
    ),
}
# SO_PEERCRED shows the tracee's own pid.
_PEER_PID = re.compile(r"\bpid=\d+")


def _trace(tracer: str, args: list[str], program: Path, tmp_path: Path) -> str:
    out = tmp_path / f"{tracer}.txt"
    proc = run_tracer(tracer, [*args, "-o", str(out)], [str(program)])
    assert proc.returncode == 0, decode(proc.stderr)
    return out.read_text()


@pytest.mark.differential
@pytest.mark.parametrize("extra", [[], ["-X", "raw"], ["-X", "verbose"]], ids=["abbrev", "xraw", "xverbose"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_subcommands(name: str, extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """Each program's trace in one -X style; in the default one, the program still reaches its key cases."""
    expr, texts = CASES[name]
    args = [*extra, "-e", f"trace={expr}"]
    strace = _trace("strace", args, programs[name], tmp_path)
    pytrace = _trace("pytrace", args, programs[name], tmp_path)
    assert _PEER_PID.sub("pid=N", normalise(pytrace)) == _PEER_PID.sub("pid=N", normalise(strace))
    if not extra:
        # checked before normalisation, which renumbers big hex values as addresses
        strace = re.sub(r"\)( +)= ", ") = ", strace)
        for text in texts:
            assert text in strace, f"{name} no longer exercises {text!r}:\n{strace}"


@pytest.mark.differential
@pytest.mark.parametrize(
    ("name", "extra"),
    [("subcmd_sockopt", ["-e", "verbose=none"]), ("subcmd_sockopt", ["-Y", "-y"]), ("subcmd_mount", ["-y"]),
     ("subcmd_prctl", ["-Y"]), ("subcmd_fcntl", ["-Y"])],
    ids=["sockopt-verbose-none", "sockopt-pids-fds", "mount-fds", "prctl-pids", "fcntl-pids"],
)
def test_subcommands_other_flags(name: str, extra: list[str], programs: dict[str, Path], tmp_path: Path) -> None:
    """-e verbose=none leaves option values as addresses; -Y names the pids (SO_PEERCRED, PR_SET_PTRACER,
    PR_SCHED_CORE's for PIDTYPE_PID/TGID, F_SETOWN and F_GETOWN's result: pid 1, the same for both tracers);
    -y decorates fds (and mount_setattr's result, which strace 6.1 prints as a descriptor)."""
    args = [*extra, "-e", f"trace={CASES[name][0]}"]
    strace = _trace("strace", args, programs[name], tmp_path)
    pytrace = _trace("pytrace", args, programs[name], tmp_path)
    assert _PEER_PID.sub("pid=N", normalise(pytrace)) == _PEER_PID.sub("pid=N", normalise(strace))
