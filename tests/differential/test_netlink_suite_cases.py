"""nfnetlink, SELinux and kobject-uevent netlink decoding, diag/route attribute fixes and SOL_NETLINK
getsockopt, against strace 6.1 on tests/programs/netlink_suite_families.c.

The program sends crafted messages (strace decodes what was sent whatever the kernel answers):
``NFNL_SUBSYS_*<<8|*`` types with their per-message NLM_F_* sets, ``struct nfgenmsg`` (nftables'
host-order res_id quirk included) and unnamed attributes, batch messages, SELNL_MSG_* payloads,
libudev monitor headers, UNIX_DIAG_VFS, RTA_CACHEINFO, and getsockopt(NETLINK_LIST_MEMBERSHIPS)
failing after the kernel stored a new length.  Only addresses are normalised.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from helpers import decode, normalise, run_tracer

_FLAGS = ("-e", "trace=sendto,getsockopt")


def _trace(tracer: str, binary: Path, tmp: Path, extra: tuple[str, ...] = ()) -> str:
    out = tmp / f"{tracer}.trace"
    proc = run_tracer(tracer, [*_FLAGS, *extra, "-o", str(out)], [str(binary)])
    assert proc.returncode == 0, decode(proc.stderr)
    return normalise(out.read_text())


def _compare(binary: Path, tmp: Path, extra: tuple[str, ...] = ()) -> str:
    want = _trace("strace", binary, tmp, extra)
    got = _trace("pytrace", binary, tmp, extra)
    assert got == want, "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "strace", "pytrace",
                                                        lineterm=""))
    return got


def test_suite_program(programs: dict[str, Path], tmp_path: Path) -> None:
    text = _compare(programs["netlink_suite_families"], tmp_path)
    # the decoders did run (not both tracers falling back to hex)
    for needle in ("NFNL_SUBSYS_NFTABLES<<8|NFT_MSG_NEWTABLE", "res_id=htons(NFNL_SUBSYS_NFTABLES)",
                   "nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP", "0xee /* NFNL_SUBSYS_??? */<<8|0x7",
                   "NFNL_MSG_BATCH_BEGIN", "{val=-2}", '{prefix="libudev", magic=htonl(',
                   "udiag_vfs_dev=makedev(0x8, 0x1)", "rta_expires=4294967280",
                   "NETLINK_LIST_MEMBERSHIPS, 0x", "[1, 0], [8]",
                   "{code=INET_DIAG_BC_S_COND, yes=4, no=8}, {family=AF_INET, prefix_len=8, port=80, addr=",
                   "IPPROTO_MPTCP", "tcpv_minrtt=4294967294"):
        assert needle in text, needle


def test_suite_program_short_strings(programs: dict[str, Path], tmp_path: Path) -> None:
    """-s 4 cuts the hex payloads and the uevent properties the same way."""
    _compare(programs["netlink_suite_families"], tmp_path, ("-s", "4"))
