"""bpf(2) and perf_event_open(2) through ctypes: maps, program loading, tracepoint attachment.

Everything returns plain file descriptors owned by a ``Resources`` object, so
one ``close()`` (also run on Ctrl-C via the backend's ``finally``) releases
every map, program and perf event; the kernel then detaches the programs.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct

_libc = ctypes.CDLL(None, use_errno=True)
_syscall = _libc.syscall
_syscall.restype = ctypes.c_long

SYS_BPF = 321  # x86_64
SYS_PERF_EVENT_OPEN = 298

# bpf commands
BPF_MAP_CREATE, BPF_MAP_LOOKUP_ELEM, BPF_MAP_UPDATE_ELEM, BPF_MAP_DELETE_ELEM, BPF_MAP_GET_NEXT_KEY = 0, 1, 2, 3, 4
BPF_PROG_LOAD = 5
BPF_BTF_LOAD = 18
BPF_MAP_LOOKUP_BATCH = 24  # Linux 5.6 (array maps too)
BPF_MAP_UPDATE_BATCH = 26  # Linux 5.6
BPF_PROG_GET_NEXT_ID = 11
BPF_RAW_TRACEPOINT_OPEN = 17  # Linux 4.17

# map types
MAP_HASH, MAP_ARRAY, MAP_PERCPU_HASH, MAP_PERCPU_ARRAY, MAP_RINGBUF = 1, 2, 5, 6, 27
BPF_F_NO_PREALLOC = 1  # map_flags: a hash's elements allocated as they are added
MAP_TASK_STORAGE = 29  # Linux 5.11
PROG_TYPE_TRACEPOINT = 5
PROG_TYPE_RAW_TRACEPOINT = 17  # Linux 4.17

PERF_TYPE_TRACEPOINT = 2
PERF_SAMPLE_RAW = 1 << 10
PERF_FLAG_FD_CLOEXEC = 1 << 3
PERF_EVENT_IOC_ENABLE = 0x2400
PERF_EVENT_IOC_DISABLE = 0x2401
PERF_EVENT_IOC_SET_BPF = 0x40042408

# Plain paths, not pathlib: an installed pytrace's eBPF path imports nothing else that needs it (~2-3 ms).
TRACEFS_ROOTS = ("/sys/kernel/tracing", "/sys/kernel/debug/tracing")


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


class BpfError(OSError):
    """A bpf(2)/perf failure, with the verifier log when the kernel gave one."""

    def __init__(self, err: int, what: str, log: str = "") -> None:
        super().__init__(err, f"{what}: {os.strerror(err)}")
        self.log = log

    def __str__(self) -> str:
        text = f"{self.strerror}"
        if self.log:
            text += "\nverifier log:\n" + self.log.rstrip()
        return text


def _bpf(cmd: int, attr: bytes | ctypes.Array[ctypes.c_char], what: str) -> int:
    buf = attr if isinstance(attr, ctypes.Array) else ctypes.create_string_buffer(attr, len(attr))
    rc = _syscall(SYS_BPF, cmd, buf, len(buf))
    if rc < 0:
        raise BpfError(ctypes.get_errno(), what)
    return rc


def cpu_count() -> int:
    """Possible CPUs: per-CPU maps have one slot per possible CPU, perf events one per online CPU."""
    text = _read_text("/sys/devices/system/cpu/possible").strip()
    n = 0
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        n += (int(hi) if hi else int(lo)) - int(lo) + 1
    return n


def online_cpus() -> list[int]:
    text = _read_text("/sys/devices/system/cpu/online").strip()
    cpus: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        cpus.extend(range(int(lo), int(hi or lo) + 1))
    return cpus


class Map:
    """A BPF map with fixed-size byte keys and values."""

    def __init__(self, map_type: int, key_size: int, value_size: int, max_entries: int, name: str,
                 flags: int = 0, btf: tuple[int, int, int] | None = None) -> None:
        """``btf``: (BTF fd, key type id, value type id), for the maps that need their types
        described (task storage)."""
        attr = struct.pack("<IIIIIII16s", map_type, key_size, value_size, max_entries, flags, 0, 0,
                           name.encode()[:15])
        if btf is not None:
            attr += struct.pack("<IIII", 0, *btf)  # map_ifindex, btf_fd, btf_key_type_id, btf_value_type_id
        self.fd = _bpf(BPF_MAP_CREATE, attr.ljust(72, b"\0"), f"creating BPF map {name}")
        self.key_size = key_size
        self.value_size = value_size
        self.map_type = map_type
        self.name = name

    def _elem_attr(self, key: ctypes.Array[ctypes.c_char], value: ctypes.Array[ctypes.c_char] | None,
                   flags: int = 0) -> bytes:
        vaddr = ctypes.addressof(value) if value is not None else 0
        return struct.pack("<I4xQQQ", self.fd, ctypes.addressof(key), vaddr, flags)

    def update(self, key: bytes, value: bytes) -> None:
        k = ctypes.create_string_buffer(key, self.key_size)
        v = ctypes.create_string_buffer(value, len(value))
        _bpf(BPF_MAP_UPDATE_ELEM, self._elem_attr(k, v), f"updating BPF map {self.name}")

    def update_all(self, items: dict[bytes, bytes]) -> None:
        """Store every (key, value) in one BPF_MAP_UPDATE_BATCH: one bpf(2) instead of one each.

        The capture table's rows are hundreds of updates at start-up (~3 ms one by one).  Values are
        padded to the map's value size.  A kernel without batches (before 5.6: EINVAL) gets the
        single updates.
        """
        if not items:
            return
        keys = ctypes.create_string_buffer(b"".join(k.ljust(self.key_size, b"\0") for k in items),
                                           self.key_size * len(items))
        values = ctypes.create_string_buffer(b"".join(v.ljust(self.value_size, b"\0") for v in items.values()),
                                             self.value_size * len(items))
        # union bpf_attr's batch: in_batch, out_batch, keys, values, count, map_fd, elem_flags, flags
        attr = struct.pack("<QQQQIIQQ", 0, 0, ctypes.addressof(keys), ctypes.addressof(values),
                           len(items), self.fd, 0, 0)
        try:
            _bpf(BPF_MAP_UPDATE_BATCH, attr, f"updating BPF map {self.name}")
        except BpfError as exc:
            if exc.errno not in (errno.EINVAL, errno.EOPNOTSUPP, 524):  # 524: the kernel's ENOTSUPP
                raise
            for key, value in items.items():
                self.update(key, value)

    def lookup(self, key: bytes, value_size: int | None = None) -> bytes | None:
        k = ctypes.create_string_buffer(key, self.key_size)
        v = ctypes.create_string_buffer(value_size or self.value_size)
        try:
            _bpf(BPF_MAP_LOOKUP_ELEM, self._elem_attr(k, v), f"reading BPF map {self.name}")
        except BpfError as exc:
            if exc.errno == errno.ENOENT:
                return None
            raise
        return v.raw

    def lookup_array(self, count: int, value_size: int) -> list[bytes]:
        """Elements 0..count-1 of an array map (``value_size``: a per-CPU map's value for every CPU),
        in one BPF_MAP_LOOKUP_BATCH: one bpf(2) instead of one each (``-c`` reads its 512 rows of
        statistics after the command: ~4 ms one by one).  A kernel without batches (EINVAL) gets
        the single lookups."""
        keys = ctypes.create_string_buffer(4 * count)
        values = ctypes.create_string_buffer(value_size * count)
        out_batch = ctypes.create_string_buffer(4)
        attr = ctypes.create_string_buffer(struct.pack(
            "<QQQQIIQQ", 0, ctypes.addressof(out_batch), ctypes.addressof(keys), ctypes.addressof(values),
            count, self.fd, 0, 0), 56)
        rc = _syscall(SYS_BPF, BPF_MAP_LOOKUP_BATCH, attr, len(attr))
        err = ctypes.get_errno() if rc < 0 else 0
        if err in (errno.EINVAL, errno.EOPNOTSUPP, 524):  # no batches here: one by one
            return [self.lookup(struct.pack("<I", i), value_size) or bytes(value_size) for i in range(count)]
        if err and err != errno.ENOENT:  # ENOENT: the end of the map came first; count says how many
            raise BpfError(err, f"reading BPF map {self.name}")
        got = struct.unpack_from("<I", attr, 32)[0]
        out = [b""] * count
        raw = values.raw
        for i, (key,) in enumerate(struct.iter_unpack("<I", keys.raw[:4 * got])):
            if key < count:
                out[key] = raw[i * value_size:(i + 1) * value_size]
        return [v or bytes(value_size) for v in out]

    def delete(self, key: bytes) -> None:
        k = ctypes.create_string_buffer(key, self.key_size)
        try:
            _bpf(BPF_MAP_DELETE_ELEM, self._elem_attr(k, None), f"deleting from BPF map {self.name}")
        except BpfError as exc:
            if exc.errno != errno.ENOENT:
                raise

    def keys(self) -> list[bytes]:
        out: list[bytes] = []
        cur: ctypes.Array[ctypes.c_char] | None = None
        nxt = ctypes.create_string_buffer(self.key_size)
        while True:
            kaddr = ctypes.addressof(cur) if cur is not None else 0
            attr = struct.pack("<I4xQQQ", self.fd, kaddr, ctypes.addressof(nxt), 0)
            try:
                _bpf(BPF_MAP_GET_NEXT_KEY, attr, f"iterating BPF map {self.name}")
            except BpfError as exc:
                if exc.errno == errno.ENOENT:
                    return out
                raise
            out.append(nxt.raw)
            cur = ctypes.create_string_buffer(nxt.raw, self.key_size)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def load_program(bytecode: bytes, prog_type: int = PROG_TYPE_TRACEPOINT, name: str = "pytrace",
                 license_: str = "GPL", expected_attach_type: int = 0, functions: tuple[int, ...] = (0,)) -> int:
    """BPF_PROG_LOAD; on rejection the error carries the verifier's log.

    Loaded without a log first: the log of an accepted program of many slots can overflow any
    buffer (ENOSPC, though the program was fine) and writing it costs load time.  Only a
    rejected program is loaded again, with the log, to say why.  ``expected_attach_type``: what
    the program is for where the kernel asks at load time (uprobe_multi links).  ``functions``:
    where each function starts (asm.Linked); with subprograms (bpf_loop callbacks) the kernel
    wants BTF saying each one is a static function (func_info), made here.
    """
    fd, err, _ = _prog_load(bytecode, prog_type, name, license_, expected_attach_type, functions, 0)
    if fd >= 0:
        return fd
    log = ""
    if err != errno.EPERM:  # no privilege: the log would say nothing more (EACCES is the verifier's)
        fd, err, log = _prog_load(bytecode, prog_type, name, license_, expected_attach_type, functions, 1)
        if fd >= 0:
            return fd
    raise BpfError(err, f"loading BPF program {name}", log)


def verifier_stats(bytecode: bytes, name: str = "pytrace", functions: tuple[int, ...] = (0,),
                   prog_type: int = PROG_TYPE_TRACEPOINT) -> str:
    """Load the program once more with the verifier's statistics (BPF_LOG_STATS) and return them:
    ``processed N insns (limit 1000000) max_states_per_insn ...``; N, the instructions it walked,
    is what verification costs (scripts/ebpf_startup_phases.py, the verifier tests)."""
    fd, err, log = _prog_load(bytecode, prog_type, name, "GPL", 0, functions, 4)
    if fd < 0:
        raise BpfError(err, f"loading BPF program {name}", log)
    os.close(fd)
    for line in log.splitlines():
        if line.startswith("processed "):
            return line
    return log.strip()


def _prog_load(bytecode: bytes, prog_type: int, name: str, license_: str, expected_attach_type: int,
               functions: tuple[int, ...], log_level: int) -> tuple[int, int, str]:
    """One BPF_PROG_LOAD: (fd or -1, errno, the log when ``log_level`` asked for one)."""
    insns = ctypes.create_string_buffer(bytecode, len(bytecode))
    lic = ctypes.create_string_buffer(license_.encode())
    log_size = (1 << 24 if log_level & 1 else 1 << 12) if log_level else 0
    log = ctypes.create_string_buffer(max(log_size, 1))
    attr = struct.pack(
        "<IIQQIIQII16s", prog_type, len(bytecode) // 8, ctypes.addressof(insns), ctypes.addressof(lic),
        log_level, log_size, ctypes.addressof(log) if log_size else 0, 0, 0, name.encode()[:15],
    ).ljust(68, b"\0") + struct.pack("<I", expected_attach_type)
    btf_fd = -1
    if len(functions) > 1:
        btf_fd = load_btf(func_btf(len(functions)))
        info = ctypes.create_string_buffer(b"".join(struct.pack("<II", off, _FIRST_FUNC + i)
                                                    for i, off in enumerate(functions)))
        attr += struct.pack("<IIQI", btf_fd, 8, ctypes.addressof(info), len(functions))
    try:
        buf = ctypes.create_string_buffer(attr.ljust(128, b"\0"), 128)
        rc = _syscall(SYS_BPF, BPF_PROG_LOAD, buf, len(buf))
        return rc, (0 if rc >= 0 else ctypes.get_errno()), log.value.decode(errors="replace")
    finally:
        if btf_fd >= 0:
            os.close(btf_fd)  # the program holds its own reference


# BTF (Documentation/bpf/btf.rst): just enough to name a program's functions for func_info.
_BTF_KIND_INT, _BTF_KIND_STRUCT, _BTF_KIND_FUNC, _BTF_KIND_FUNC_PROTO = 1, 4, 12, 13
_FIRST_FUNC = 3  # type ids: 1 int, 2 int (*)(void), then one FUNC per function


def func_btf(count: int) -> bytes:
    """A BTF blob with ``count`` static functions ``f0``, ``f1``... of type ``int (void)``.

    The verifier takes a static function's arguments from the call (bpf_loop's index and
    context), not from BTF, so one prototype without parameters does for every function.
    """
    names = b"\0int\0" + b"".join(f"f{i}".encode() + b"\0" for i in range(count))
    types = struct.pack("<IIII", 1, _BTF_KIND_INT << 24, 4, (1 << 24) | 32)  # signed, 32 bits
    types += struct.pack("<III", 0, _BTF_KIND_FUNC_PROTO << 24, 1)
    at = 5
    for i in range(count):
        types += struct.pack("<III", at, _BTF_KIND_FUNC << 24, 2)  # linkage (vlen) 0: static
        at += len(f"f{i}") + 1
    return struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(names)) + types + names


def task_storage(value_size: int, name: str) -> Map:
    """A BPF_MAP_TYPE_TASK_STORAGE map: a value of ``value_size`` bytes (u64s) per task, made by
    ``bpf_task_storage_get`` and freed with the task by the kernel.  The kernel wants its key
    (int) and value types in BTF: described here, the value as a struct of u64s."""
    names = b"\0int\0u64\0v\0" + b"".join(f"m{i}".encode() + b"\0" for i in range(value_size // 8))
    types = struct.pack("<IIII", 1, _BTF_KIND_INT << 24, 4, (1 << 24) | 32)  # [1] int: signed, 32 bits
    types += struct.pack("<IIII", 5, _BTF_KIND_INT << 24, 8, 64)  # [2] u64
    types += struct.pack("<III", 9, (_BTF_KIND_STRUCT << 24) | (value_size // 8), value_size)  # [3] struct v
    at = 11
    for i in range(value_size // 8):
        types += struct.pack("<III", at, 2, 64 * i)
        at += len(f"m{i}") + 1
    blob = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(names)) + types + names
    btf_fd = load_btf(blob)
    try:
        return Map(MAP_TASK_STORAGE, 4, value_size, 0, name, BPF_F_NO_PREALLOC, (btf_fd, 1, 3))
    finally:
        os.close(btf_fd)  # the map holds its own reference


def load_btf(blob: bytes) -> int:
    """BPF_BTF_LOAD; the fd of the kernel's copy (the error carries the kernel's BTF log)."""
    data = ctypes.create_string_buffer(blob, len(blob))
    log = ctypes.create_string_buffer(1 << 12)
    attr = struct.pack("<QQIII", ctypes.addressof(data), ctypes.addressof(log), len(blob), len(log), 1)
    try:
        return _bpf(BPF_BTF_LOAD, attr.ljust(40, b"\0"), "loading BTF")
    except BpfError as exc:
        exc.log = log.value.decode(errors="replace")
        raise


def tracefs_root() -> str:
    """Where tracefs is mounted; a BpfError (ENOENT, or EACCES for an unprivileged user) otherwise.

    An unprivileged user gets EACCES on ``/sys/kernel/tracing/events`` itself, which is
    reported as such instead of as "not mounted" (the cure is privilege, not a mount).
    Root on a machine where nothing mounted tracefs yet gets it mounted at
    ``/sys/kernel/tracing``, as perf does (``tracefs__mount``): the kernel provides that
    empty directory for it, and nothing else in the eBPF path needs it missing.
    """
    denied: OSError | None = None
    for root in TRACEFS_ROOTS:
        try:
            os.stat(f"{root}/events")
        except PermissionError as exc:
            denied = denied or exc
            continue
        except OSError:
            continue
        if os.path.isdir(f"{root}/events"):
            return root
    if denied is not None:
        raise BpfError(errno.EACCES, f"reading tracefs ({denied.filename})")
    if _mount_tracefs(TRACEFS_ROOTS[0]):
        return TRACEFS_ROOTS[0]
    hint = ("mounting it failed" if os.geteuid() == 0 else f"as root: mount -t tracefs nodev {TRACEFS_ROOTS[0]}")
    raise BpfError(errno.ENOENT, "no tracefs at " + " or ".join(str(r) for r in TRACEFS_ROOTS) + f" ({hint})")


def _mount_tracefs(root: str) -> bool:
    """mount -t tracefs nodev ROOT, for root only; whether tracefs is there now."""
    if os.geteuid() != 0 or not os.path.isdir(root):
        return False
    if _libc.mount(b"nodev", os.fsencode(root), b"tracefs", ctypes.c_ulong(0), None) != 0:
        return False
    return os.path.isdir(f"{root}/events")


def tracepoint_id(category: str, name: str) -> int:
    path = f"{tracefs_root()}/events/{category}/{name}/id"
    try:
        return int(_read_text(path))
    except OSError as exc:
        raise BpfError(exc.errno or errno.ENOENT, f"tracepoint {category}:{name}") from None


def tracepoint_fields(category: str, name: str) -> dict[str, tuple[int, int]]:
    """Field name -> (offset, size) from the tracepoint's format file (layouts differ between kernels)."""
    path = f"{tracefs_root()}/events/{category}/{name}/format"
    try:
        text = _read_text(path)
    except OSError as exc:
        raise BpfError(exc.errno or errno.ENOENT, f"reading {path}") from None
    fields: dict[str, tuple[int, int]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("field:"):
            continue
        parts = dict(p.strip().split(":", 1) for p in line.split(";") if ":" in p)
        decl = parts["field"].strip()
        fname = decl.split()[-1].split("[")[0]
        fields[fname] = (int(parts["offset"]), int(parts["size"]))
    return fields


def attach_raw_tracepoint(prog_fd: int, name: str) -> int:
    """BPF_RAW_TRACEPOINT_OPEN: a RAW_TRACEPOINT program on tracepoint ``name``; the fd is the link
    (closing it, or our death, detaches the program).

    Why the counting programs are raw: a perf-event tracepoint program runs only after the kernel
    has built the tracepoint's record (a per-CPU buffer, the six syscall arguments copied in), on
    every syscall of the machine; a raw one is called with the tracepoint's own arguments (for
    raw_syscalls: the registers and the syscall number, or the return value), and nothing is built.
    """
    cname = ctypes.create_string_buffer(name.encode())
    attr = struct.pack("<QI", ctypes.addressof(cname), prog_fd).ljust(16, b"\0")
    return _bpf(BPF_RAW_TRACEPOINT_OPEN, attr, f"attaching BPF program to raw tracepoint {name}")


def attach_tracepoint(prog_fd: int, category: str, name: str) -> list[int]:
    """Attach a tracepoint program; returns the perf event fds.

    The program hangs off the tracepoint itself (its prog array), so it runs on
    every CPU from one perf event -- a second event for the same program gets
    EEXIST.  One event on the first online CPU is what bcc does too.
    """
    tp = tracepoint_id(category, name)
    # struct perf_event_attr (PERF_ATTR_SIZE_VER5 = 112 bytes is enough)
    attr = struct.pack("<IIQQQQQ", PERF_TYPE_TRACEPOINT, 112, tp, 1, PERF_SAMPLE_RAW, 0, 0).ljust(112, b"\0")
    fds: list[int] = []
    try:
        for cpu in online_cpus()[:1]:
            buf = ctypes.create_string_buffer(attr, len(attr))
            fd = _syscall(SYS_PERF_EVENT_OPEN, buf, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC)
            if fd < 0:
                raise BpfError(ctypes.get_errno(), f"perf_event_open({category}:{name}, cpu {cpu})")
            fds.append(fd)
            if _libc.ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) < 0:
                raise BpfError(ctypes.get_errno(), f"attaching BPF program to {category}:{name}")
            if _libc.ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0:
                raise BpfError(ctypes.get_errno(), f"enabling {category}:{name}")
    except BpfError:
        for fd in fds:
            os.close(fd)
        raise
    return fds


class MapInThread:
    """A map made in a thread of its own while the caller goes on: the 32 MiB ring takes the kernel
    ~5 ms (allocating and zeroing its pages), which the capture table's Python can run beside.  Its
    fd number is reserved first, so that it does not depend on which of the two finishes first: the
    programs embed the map fds, and the program cache's keys hold them."""

    def __init__(self, res: Resources, *args: object) -> None:
        import _thread

        self.res = res
        self.reserved = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
        self.made: Map | None = None
        self.error: BaseException | None = None
        self.done = _thread.allocate_lock()
        self.done.acquire()
        running = _thread.allocate_lock()
        running.acquire()
        _thread.start_new_thread(self._make, (running, *args))
        running.acquire()  # on its way into bpf(2): the kernel's part starts now, not at our next GIL release

    def _make(self, running: object, *args: object) -> None:
        try:
            running.release()  # type: ignore[attr-defined]
            self.made = Map(*args)  # type: ignore[arg-type]
        except BaseException as exc:  # noqa: BLE001 -- raised by result(), in the caller's thread
            self.error = exc
        finally:
            self.done.release()

    def result(self) -> Map:
        """The map, at the reserved fd and owned by the Resources; its creation's error, if any."""
        if self.done.locked():
            self.done.acquire()
        m = self.made
        if m is None:
            os.close(self.reserved)
            assert self.error is not None
            raise self.error
        os.dup2(m.fd, self.reserved, inheritable=False)
        os.close(m.fd)
        m.fd = self.reserved
        self.res.maps.append(m)
        return m


class Resources:
    """Every fd the eBPF backend opened, released together."""

    def __init__(self) -> None:
        self.maps: list[Map] = []
        self.fds: list[int] = []
        self._holder = -1  # close_later: the write end of the holder's pipe, closed by our exit

    def map(self, *args: object, **kw: object) -> Map:
        return self.keep(Map(*args, **kw))  # type: ignore[arg-type]

    def keep(self, m: Map) -> Map:
        """``m`` released with everything else."""
        self.maps.append(m)
        return m

    def close_later(self) -> bool:
        """Release everything without waiting for the kernel to detach the programs; False: not done.

        Detaching a tracepoint program waits for RCU grace periods in the closing process (~60 ms
        per tracepoint here, ~0.2 s for the stream mode's six, serialised by the kernel), so
        every fd is handed to a small holder process (``cat`` on a pipe of ours, which has
        inherited nothing else) that closes them when it exits: at our own exit, when the pipe's
        write end closes.  Our own closes then drop references only.  The caller makes the
        programs harmless first (an empty scope): they stay attached that long after we exit.

        Started with posix_spawn (a vfork and an exec, no Python in between), not ``subprocess``:
        importing it (threading, selectors, locale...) and its fork-exec protocol were ~7 ms of
        every eBPF run's exit, on its critical path (issue 14, the fixed cost of ``-c``).
        """
        fds = [*self.fds, *(m.fd for m in self.maps if m.fd >= 0)]
        try:
            self._holder = spawn_holder(fds)
        except OSError:
            return False
        for fd in self.fds:
            os.close(fd)
        for m in self.maps:
            m.close()
        self.fds.clear()
        self.maps.clear()
        return True

    def close(self) -> None:
        """Release everything; the closes run concurrently because each program detach waits
        for an RCU grace period (~20 ms here), which would otherwise add up at every exit."""
        import threading

        def close_fd(fd: int) -> None:
            try:
                os.close(fd)
            except OSError:
                pass

        threads = [threading.Thread(target=close_fd, args=(fd,)) for fd in self.fds]
        threads += [threading.Thread(target=m.close) for m in self.maps]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.fds.clear()
        self.maps.clear()


def spawn_holder(fds: list[int]) -> int:
    """Start ``cat`` holding ``fds`` (and nothing else of ours) with its stdin on a pipe whose write
    end, returned, is close-on-exec: when our process ends, cat reads EOF, exits, and the kernel
    releases what it held.  Its own session (no terminal's signals), stdout and stderr /dev/null.

    Every other descriptor we have open is closed in the child before the exec (as subprocess's
    close_fds does): an inherited one without close-on-exec (a pipe a caller reads to its end)
    must not be held open by the holder after we are gone.
    """
    import _signal as signal  # the C module: the standard one builds enums at import (~1 ms)

    if any(fd <= 2 for fd in fds):  # the holder's own 0, 1 and 2 would replace them (not on the CLI's path)
        raise OSError(errno.EBADF, "a BPF fd among the standard descriptors")
    read_end, write_end = os.pipe2(os.O_CLOEXEC)
    keep = set(fds)
    try:
        actions: list[tuple[object, ...]] = [
            (os.POSIX_SPAWN_DUP2, read_end, 0),
            (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
            (os.POSIX_SPAWN_DUP2, 1, 2),
        ]
        actions += [(os.POSIX_SPAWN_CLOSE, fd) for fd in _open_fds() if fd > 2 and fd not in keep]
        for fd in fds:
            os.set_inheritable(fd, True)
        os.posix_spawnp("cat", ["cat"], os.environ, file_actions=actions, setsid=True, setsigmask=(),
                        setsigdef=(signal.SIGPIPE, signal.SIGXFSZ))
    except BaseException:
        os.close(write_end)
        for fd in fds:
            try:
                os.set_inheritable(fd, False)
            except OSError:
                pass
        raise
    finally:
        os.close(read_end)
    return write_end


def _open_fds() -> list[int]:
    """This process's open descriptors (/proc/self/fd; the listing's own is closed by then)."""
    return [int(name) for name in os.listdir("/proc/self/fd")]


def loaded_program_ids() -> list[int]:
    """Ids of every BPF program loaded in the system (what ``bpftool prog`` lists)."""
    ids: list[int] = []
    start = 0
    while True:
        attr = ctypes.create_string_buffer(struct.pack("<III", start, 0, 0), 12)
        if _syscall(SYS_BPF, BPF_PROG_GET_NEXT_ID, attr, len(attr)) < 0:
            return ids
        start = struct.unpack_from("<I", attr, 4)[0]
        ids.append(start)
