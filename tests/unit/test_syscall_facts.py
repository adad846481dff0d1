"""The per-syscall fact columns of syscall_tables/*.tsv agree with what the code knew before them.

Before issue 13 these facts were code lists: ``fds.FD_RETURNING``, ``pids.PID_RETURNING``,
``pathtrace.RULES``, the eBPF backend's argument-name sets, ``_EXECVE_NAMES`` (loop.py and
tamper.py).  The lists as they stood are kept here (``OLD_*``) as the record the generated columns
must reproduce; the live code that still holds such knowledge (the decoders' registered result
printers, the i386 decoders built from the ``variant`` column) is checked directly.  That the columns are regenerated
identically is tests/unit/test_syscall_tables.py's ``test_committed_table_matches_generator``.
"""

from __future__ import annotations

import pytest

from pytrace.tables.capture_plan import SP_INDEX, ArgPlan
from pytrace.tables.syscalls import ARCHES, rval_kinds, table

OLD_FD_RETURNING = frozenset((
    "open", "openat", "openat2", "creat", "open_by_handle_at", "dup", "dup2", "dup3", "socket", "accept",
    "accept4", "epoll_create", "epoll_create1", "eventfd", "eventfd2", "signalfd", "signalfd4",
    "timerfd_create", "inotify_init", "inotify_init1", "memfd_create", "memfd_secret", "fanotify_init",
    "perf_event_open", "userfaultfd", "pidfd_open", "pidfd_getfd", "fsopen", "fsmount", "fspick", "open_tree",
    "mq_open", "io_uring_setup", "landlock_create_ruleset",
))
OLD_PID_RETURNING = frozenset(("getpid", "getppid", "gettid", "fork", "vfork", "clone", "clone3", "wait4", "waitpid"))
OLD_EXECVE_NAMES = frozenset(("execve", "execveat"))

# pathtrace.RULES: shape -> names ("@x": checked by pathtrace's function x; (): nothing to test).
OLD_PATHTRACE_RULES: dict[tuple[str, ...] | str, tuple[str, ...]] = {
    ("fd", "fd"): ("dup2", "dup3", "kexec_file_load", "sendfile", "sendfile64", "tee"),
    ("fd", "path"): ("execveat", "faccessat", "faccessat2", "fchmodat", "fchmodat2", "fchownat", "fspick",
                     "fstatat64", "futimesat", "inotify_add_watch", "mkdirat", "mknodat", "mount_setattr",
                     "name_to_handle_at", "newfstatat", "open_tree", "openat", "openat2", "readlinkat", "statx",
                     "unlinkat", "utimensat", "utimensat_time64"),
    ("path", "path"): ("link", "mount", "pivot_root"),
    ("-", "path"): ("quotactl", "symlink"),
    ("fd", "path", "fd", "path"): ("linkat", "move_mount", "renameat2", "renameat"),
    ("-", "-", "-", "-", "fd"): ("mmap", "mmap2"),
    ("-", "fd", "path"): ("symlinkat",),
    ("fd", "-", "fd"): ("copy_file_range", "splice"),
    ("-", "-", "fd"): ("epoll_ctl",),
    "@fanotify_mark": ("fanotify_mark",),
    "@select": ("select", "_newselect", "pselect6", "pselect6_time64"),
    "@poll": ("poll", "ppoll", "ppoll_time64"),
    "@fsconfig": ("fsconfig",),
    (): ("bpf", "epoll_create", "epoll_create1", "eventfd2", "eventfd", "fanotify_init", "fsopen",
         "inotify_init", "inotify_init1", "io_uring_setup", "landlock_create_ruleset", "memfd_create",
         "memfd_secret", "mq_open", "perf_event_open", "pidfd_open", "pipe", "pipe2", "socket", "socketpair",
         "timerfd_create", "userfaultfd", "getpmsg", "putpmsg", "tuxcall"),
}
OLD_I386_PATHTRACE = {"mmap": "@old_mmap", "select": "@oldselect"}

# The eBPF backend's name heuristics (backend.py before the capture plans).
OLD_EBPF_PATH_NAMES = frozenset(("filename", "pathname", "path", "oldname", "newname", "oldpath", "newpath",
                                 "specialfile", "dev_name", "dir_name", "new_root", "put_old", "library"))
OLD_EBPF_BUF_NAMES = frozenset(("buf", "ubuf"))
OLD_EBPF_LEN_NAMES = frozenset(("count", "len", "size"))


def _rule_text(shape: tuple[str, ...] | str) -> str:
    if isinstance(shape, str):
        return shape
    return ";".join(shape) if shape else "none"


def test_rval_column_keeps_the_old_lists() -> None:
    assert OLD_FD_RETURNING <= rval_kinds("fd")
    assert OLD_PID_RETURNING == rval_kinds("pid")
    # strace 6.1 quirk the decoders knew and the list did not: mount_setattr is RVAL_FD.
    assert rval_kinds("fd") - OLD_FD_RETURNING == {"mount_setattr"}


@pytest.mark.parametrize(("kind", "printer"), [("fd", "rv_fd"), ("pid", "rv_pid"), ("addr", "rv_hex")])
def test_rval_column_equals_the_decoders_result_printers(kind: str, printer: str) -> None:
    """Each registered decoder prints its result the way the column says, and the column names all of them."""
    from pytrace.decode import load_all, registry

    decoders = load_all()
    names = {info.name for arch in ("x86_64", "i386") for info in table(arch).by_nr.values()}
    wanted = getattr(registry, printer)
    printed = {n for n, dec in decoders.items() if dec.rval is wanted and n in names}
    assert printed == rval_kinds(kind)


@pytest.mark.parametrize("arch", ARCHES)
def test_exec_flag(arch: str) -> None:
    tab = table(arch)
    assert {tab.by_nr[nr].name for nr in tab.with_flag("exec")} == OLD_EXECVE_NAMES
    assert tab.with_flag("exec") is tab.with_flag("exec"), "computed once"


@pytest.mark.parametrize("arch", ["x86_64", "i386"])
def test_pathtrace_column_is_the_old_rules(arch: str) -> None:
    expected = {name: _rule_text(shape) for shape, names in OLD_PATHTRACE_RULES.items() for name in names}
    if arch == "i386":
        expected.update(OLD_I386_PATHTRACE)
    tab = table(arch)
    got = {info.name: info.pathtrace for info in tab.by_nr.values() if info.pathtrace}
    assert got == {name: rule for name, rule in expected.items() if name in tab.by_name}


@pytest.mark.parametrize("arch", ["x86_64", "i386"])
def test_roles_agree_with_the_pathtrace_rules(arch: str) -> None:
    """Two data files, one meaning: an argument -P tests as an fd (a path) has the fd or dirfd (path) role."""
    wrong = []
    for info in table(arch).by_nr.values():
        rule = info.pathtrace
        if not rule or rule.startswith("@") or rule == "none":
            continue
        for i, kind in enumerate(rule.split(";")):
            role = info.roles[i]
            if (kind == "fd" and role not in ("fd", "dirfd")) or (kind == "path" and role != "path"):
                wrong.append((info.name, i, kind, role))
    assert wrong == []


def test_roles_spot_checks() -> None:
    tab = table("x86_64")
    assert tab.by_name["openat"].roles == ("dirfd", "path", "-", "-")
    assert tab.by_name["renameat2"].args_with_role("dirfd") == (0, 2)
    assert tab.by_name["renameat2"].args_with_role("path") == (1, 3)
    assert tab.by_name["symlink"].roles == ("str", "path")  # the target is not looked up
    assert tab.by_name["kill"].roles == ("pid", "-")
    assert tab.by_name["mmap"].args_with_role("fd") == (4,)


def test_i386_variant_column_drives_the_i386_decoders() -> None:
    """Each variant names an x86_64 decoder and a layout family the i386 printer knows."""
    from pytrace.decode import decoder_for_name, i386
    from pytrace.decode.layouts import I386, I386_TIME64, VARIANT_FAMILIES
    from pytrace.decode.reordered import STAT64

    got = {info.name: info.variant for info in table("i386").by_nr.values() if info.variant}
    assert got["stat64"] == ("stat", "stat64") and got["clock_gettime64"] == ("clock_gettime", "time64")
    assert got["sendfile64"] == ("sendfile", "off64")
    assert set(i386.variants()) == set(got)
    for name, (base, family) in got.items():
        assert decoder_for_name(base).func is not None
        assert i386.variants()[name] == (base, VARIANT_FAMILIES[family])
    assert VARIANT_FAMILIES["stat64"].STAT is STAT64 and VARIANT_FAMILIES["time64"] is I386_TIME64
    assert VARIANT_FAMILIES["off64"].OFF_T.size == 8 and I386.OFF_T.size == 4
    assert all(info.variant is None for arch in ("x86_64", "aarch64") for info in table(arch).by_nr.values())


def _old_ebpf_picks(arch: str) -> dict[str, tuple[str, tuple[int, ...]]]:
    """What the name heuristics made the eBPF program copy: kind and argument positions."""
    out: dict[str, tuple[str, tuple[int, ...]]] = {}
    for info in table(arch).by_nr.values():
        names, types = info.arg_names, info.arg_types
        paths = tuple(i for i, (n, t) in enumerate(zip(names, types, strict=True))
                      if "char *" in t and n in OLD_EBPF_PATH_NAMES and "const" in t)
        if paths:
            out[info.name] = ("str", paths[:2])
            continue
        for i, (n, t) in enumerate(zip(names, types, strict=True)):
            if n in OLD_EBPF_BUF_NAMES and "*" in t and i + 1 < len(names) and names[i + 1] in OLD_EBPF_LEN_NAMES:
                out[info.name] = ("buf_entry" if "const" in t else "buf_exit", (i,))
                break
    return out


def test_ebpf_captures_at_least_what_the_name_heuristics_did() -> None:
    """Every argument the old name heuristics copied, the plan-driven programs copy too, at that stop."""
    from pytrace.backends.ebpf import capture_table as T
    from pytrace.backends.ebpf.programs import MAX_SYSCALLS

    tab = table("x86_64")
    copied = T.build_table(T.CaptureOptions(), max_nr=MAX_SYSCALLS)
    lost = []
    for name, (kind, where) in _old_ebpf_picks("x86_64").items():
        nr = tab.by_name[name].nr
        if nr >= MAX_SYSCALLS:
            continue
        slots = (copied.exit if kind == "buf_exit" else copied.entry).get(nr, ())
        if not set(where) <= {s.pointer for s in slots}:
            lost.append((name, kind, where, slots))
    assert lost == []
    # and where the plans know more: write's buffer from its count (-s + 1 bytes), read's from the
    # result, stat's structure at exit, execve's vectors, readv's iovecs
    assert copied.entry[tab.by_name["write"].nr] == (T.Slot(T.K_ARG, 1, 2, 1, 33),)
    assert copied.exit[tab.by_name["read"].nr] == (T.Slot(T.K_RET, 1, 0, 1, 33),)
    assert copied.exit[tab.by_name["newfstatat"].nr] == (T.Slot(T.K_FIXED, 2, 0, 144, 144),)
    assert [s.kind for s in copied.entry[tab.by_name["execve"].nr]] == [T.K_STR, T.K_STRV, T.K_STRV]
    assert copied.exit[tab.by_name["readv"].nr] == (T.Slot(T.K_IOV, 1, 2),)
    whole = T.build_table(T.CaptureOptions(max_strlen=8, whole_buffers=True), max_nr=MAX_SYSCALLS)
    assert whole.entry[tab.by_name["write"].nr][0].cap == T.CHUNK


@pytest.mark.parametrize(("arch", "name", "plans"), [
    ("x86_64", "read", ("1:buf:ret:exit",)),
    ("x86_64", "write", ("1:buf:arg2:entry",)),
    ("x86_64", "connect", ("1:bytes:arg2:entry",)),  # a sockaddr: decoded whole, not a -s prefix
    ("x86_64", "getcwd", ("0:path:ret:exit",)),
    ("x86_64", "readv", ("1:iovec:arg2:exit",)),
    ("x86_64", "recvmsg", ("1:msghdr:56:both",)),
    ("i386", "sendmsg", ("1:msghdr:28:entry",)),
    ("x86_64", "newfstatat", ("1:path:nul:entry", "2:stat:144:exit")),
    ("x86_64", "wait4", ("1:int:4:exit", "3:rusage:144:exit")),
    ("x86_64", "poll", ("0:pollfd:arg1*8:both",)),
    ("x86_64", "accept4", ("1:bytes:*arg2:exit", "2:int:4:both")),
    ("x86_64", "execve", ("0:path:nul:entry", "1:strv:nul:entry", "2:strv:nul:entry")),
    ("x86_64", "set_tid_address", ()),  # printed as an address: nothing to copy
    ("x86_64", "rt_sigaction", ("1:new_sigaction:88:entry", "2:new_sigaction:88:exit")),  # strace's struct
    ("x86_64", "rt_sigreturn", ("sp+296:bytes:8:entry",)),  # the signal frame's mask, at the stack pointer
    ("i386", "rt_sigreturn", ("sp:deep",)),
    ("i386", "fstat", ("1:stat:64:exit",)),
    ("i386", "fstat64", ("1:stat64:96:exit",)),
    ("i386", "clock_gettime", ("1:timespec:8:exit",)),
    ("i386", "clock_gettime64", ("1:timespec:16:exit",)),  # the time64 variant: 64-bit layout
    ("aarch64", "fstat", ("1:stat:128:exit",)),
    ("aarch64", "epoll_pwait", ("1:epoll_event:ret*16:exit", "4:bytes:arg5:entry")),
    ("x86_64", "epoll_pwait", ("1:epoll_event:ret*12:exit", "4:bytes:arg5:entry")),
])
def test_capture_plans(arch: str, name: str, plans: tuple[str, ...]) -> None:
    """Spot checks, struct sizes per personality included (measured by gcc, see capture_structs.tsv)."""
    assert table(arch).by_name[name].capture == tuple(ArgPlan.parse(p) for p in plans)


@pytest.mark.parametrize("arch", ARCHES)
def test_capture_plans_are_well_formed(arch: str) -> None:
    for info in table(arch).by_nr.values():
        seen = set()
        for plan in info.capture:
            if plan.index == SP_INDEX:  # memory at the stack pointer: rt_sigreturn's frame
                assert info.name == "rt_sigreturn" and (plan.deep or plan.offset > 0), plan
                continue
            assert 0 <= plan.index < info.nargs and plan.index not in seen, (info.name, plan)
            seen.add(plan.index)
            if plan.deep:
                continue
            assert plan.when in ("entry", "exit", "both"), (info.name, plan)
            size = plan.size
            if size.startswith(("arg", "*arg", "bitmask(arg")):
                n = int(size.removeprefix("*").removeprefix("bitmask(").removeprefix("arg").split("*")[0].rstrip(")"))
                assert 0 <= n < info.nargs and n != plan.index, (info.name, plan)
            else:
                assert size in ("nul", "ret") or size.removeprefix("ret*").isdigit(), (info.name, plan)


@pytest.mark.parametrize("arch", ["x86_64", "i386"])
def test_classes_column_is_straces_class_dump(arch: str) -> None:
    """The runtime reads classes from the one row per syscall; ARCH.classes.tsv is the generator's input."""
    from pathlib import Path

    from pytrace.tables import syscall_classes

    dump = Path(__file__).resolve().parents[2] / "syscall_tables" / f"{arch}.classes.tsv"
    expected = {}
    for line in dump.read_text(encoding="utf-8").splitlines()[1:]:
        nr, _name, classes = line.split("\t")
        expected[int(nr)] = frozenset(classes.split(","))
    tab = table(arch)
    assert {nr: info.classes for nr, info in tab.by_nr.items() if info.classes} == expected
    assert syscall_classes.members(arch, "file") >= {nr for nr, c in expected.items() if "file" in c}
