"""pyltrace's tracer: library-call events from int3 breakpoints, on top of the ptrace backend's loop.

The backend (backends/ptrace/loop.py) keeps doing what it does for pytrace --
process bookkeeping, -f children, attach/detach, signals, exit statuses -- and
calls into this module at three places (hooks decided once at start-up):

* ``breakpoint_handler`` for every SIGTRAP signal-delivery stop: a trap at one of
  our int3s is an entry into a traced function, a return from one, or one of the
  tracer's own breakpoints (the program's entry point, the dynamic linker's
  ``r_brk``).  The handler steps the thread over the original instruction
  (breakpoints.py: emulated or displaced, never removed while other threads
  run) and resumes it;
* ``event_hook`` at exec (the new program gets a breakpoint on its entry point;
  when that is reached every library is loaded and the breakpoints go in);
* ``task_hook`` when a new thread or process appears: a thread shares its
  process's breakpoints; a forked process gets a copy of them (or, without -f,
  gets its memory cleaned and is let go, so it never trips over an int3 we no
  longer watch).

Without -S the tracees run under PTRACE_CONT: no syscall stops at all (ltrace
always uses PTRACE_SYSCALL).  With -S the sink methods ``on_entry``/``on_exit``
receive the backend's syscall events and print them as ``SYS_name(...)`` lines
in the same nesting as the library calls.

Where the breakpoints go (elf_plt.py maps the stubs):

* a traced PLT slot: on its stub's first instruction, in ``.plt`` (lazy or
  ``-z now``), ``.plt.sec`` (IBT) or ``.plt.got``; the stub runs on every call
  whatever the binding mode;
* ``-fno-plt`` calls (``call *GOT(%rip)``, no stub): on the function the GOT slot
  points to once relocated (an IFUNC's slot holds the chosen implementation), and
  a hit counts only when its return address lies in a calling object the filter
  selects;
* ``-x``: on the entry of each matching function in the symbol tables;
* the return: on the return address read from ``*rsp`` at entry, shared by every
  open call returning there (a count, not a fixed-size call stack: no depth limit).
"""

from __future__ import annotations

import ctypes
import operator
import os
import struct
import time

from pytrace.backends.ptrace import binding as B
from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace import prototypes as P
from pytrace.ltrace.breakpoints import (
    R8,
    R9,
    RAX,
    RCX,
    RDI,
    RDX,
    REGS,
    RIP,
    RSI,
    RSP,
    AddressSpace,
    Bp,
    ThreadGone,
    deferred_signals,
    set_rip,
    take_signal,
)
from pytrace.ltrace.filters import Filter
from pytrace.ltrace.format import Output, Summary, signal_text
from pytrace.ltrace.objects import Loaded, loaded_objects

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any

    from pytrace.backends.ptrace.launcher import InheritedSignals
    from pytrace.backends.ptrace.loop import PtraceBackend, Tracee
    from pytrace.events import Call, DetachEvent, ExitEvent, GroupStopEvent, SignalEvent

KIND_PLT, KIND_NOPLT, KIND_X = range(3)
# GOT-called symbols that belong to the C runtime's start-up and tear-down code, not to the program:
# ltrace never shows them (they are not in .rela.plt), and neither do we in any build variant.
CRT_SYMBOLS = frozenset(("__libc_start_main", "__cxa_finalize", "__gmon_start__", "_ITM_registerTMCloneTable",
                         "_ITM_deregisterTMCloneTable"))
_AT_ENTRY = 9
_RT_CONSISTENT = 0
_U64 = struct.Struct("<Q")
_I32 = struct.Struct("<i")
# ltrace 0.7.3's syscall tables end at process_vm_writev (x86-64 311, i386 348); later calls print as
# SYS_<nr>.
_LTRACE_LAST_SYSCALL = {"x86_64": 311, "i386": 348}
_LTRACE_SYSCALL_NAMES = {"pread64": "pread", "pwrite64": "pwrite"}
_FPREGS_SIZE = 512
_XMM_OFFSET = 160
_ST_OFFSET = 32
_fpbuf = ctypes.create_string_buffer(_FPREGS_SIZE)


def _usdt() -> Any:
    """usdt_trace, imported by the first run that arms a probe (-e usdt:...): a default run never does."""
    from pytrace.ltrace import usdt_trace

    return usdt_trace


def _abi_i386() -> Any:
    """abi_i386, imported at the first call of an i386 tracee (most runs trace none)."""
    from pytrace.ltrace import abi_i386

    return abi_i386


class LtraceConfig:
    """The command line, resolved (see cli/ltrace_cli.py).

    LtraceConfig and Symbol are plain classes, not records: every run makes them, and
    pytrace.records' per-class work (~0.2 ms each) is start-up cost (issue 15).
    """

    __slots__ = ("plt_filter", "x_filter", "libraries", "hide_caller", "syscalls", "follow", "strlen", "arraylen",
                 "demangle", "no_signals", "backtrace", "extra_prototypes", "usdt_filter", "ebpf_buffer",
                 "inherited_signals")

    def __init__(self) -> None:
        self.plt_filter: Filter | None = None  # -e (default @MAIN); None with -L and no -e
        self.x_filter: Filter | None = None  # -x
        self.libraries: list[str] = []  # -l
        self.hide_caller = True
        self.syscalls = False  # -S
        self.follow = False  # -f
        self.strlen = 32
        self.arraylen = 4
        self.demangle = False
        self.no_signals = False  # -b
        self.backtrace = 0  # -w
        self.extra_prototypes = False  # --extra-prototypes
        self.usdt_filter: Filter | None = None  # -e usdt:PROVIDER:NAME (over "PROVIDER:NAME"; see usdt_trace.py)
        self.ebpf_buffer = 64 << 20  # --ebpf-buffer: the eBPF backend's ring buffer, bytes (a power of two)
        # (ignored, blocked) signal bits pyltrace started with: the command gets them, as under ltrace.
        self.inherited_signals: tuple[int, int] | None = None

    def signal_state(self) -> InheritedSignals | None:
        """What the command is started with (launcher.spawn_stopped's ``signals``); None: Python's defaults."""
        if self.inherited_signals is None:
            return None
        from pytrace.backends.ptrace.launcher import InheritedSignals

        return InheritedSignals(*self.inherited_signals)


class Symbol:
    """A traced function at one breakpoint address."""

    __slots__ = ("name", "display", "kind", "callers", "short", "proto", "got", "library", "home", "forward")

    def __init__(self, name: str, display: str, kind: int, callers: list[Loaded] | None = None, short: str = "",
                 proto: P.Proto | None = None, got: int = 0, library: str | None = None,
                 home: Loaded | None = None) -> None:
        self.name = name
        self.display = display  # as the call line shows it: "malloc", "prog->malloc", "malloc@libc.so.6"
        self.kind = kind
        self.callers: list[Loaded] = [] if callers is None else callers  # KIND_NOPLT: whose calls count
        self.short = short  # the (demangled) name alone: "<... NAME resumed>" and -c's table
        self.proto = proto  # looked up at the first call
        self.got = got  # KIND_PLT: the run-time address of the stub's GOT slot (where the callee is found)
        self.library = library  # the soname of the object defining it, once known (JSON output only)
        self.home = home  # KIND_PLT: the object whose stub it is
        # KIND_PLT: whether the stub's GOT slot leads to another object's traced PLT stub (a non-PIE program's
        # canonical function address): the call is then shown there, once, as ltrace shows it.  None: not
        # bound yet, asked again at the next call.
        self.forward: bool | None = None


class Frame:
    """One open call of one thread (a library call, or a syscall with -S)."""

    __slots__ = ("name", "display", "short", "ret", "sp", "depth", "t0", "proto", "raws", "src", "ctx",
                 "first_out", "delim", "pid", "syscall", "no_return", "origin", "params")

    def __init__(self, name: str, display: str, ret: int, sp: int, depth: int, pid: int, syscall: bool,
                 short: str = "", origin: Symbol | Call | None = None) -> None:
        self.name = name
        self.display = display
        self.short = short or display
        self.ret = ret
        self.sp = sp
        self.depth = depth
        self.pid = pid
        self.syscall = syscall
        self.t0 = time.monotonic()
        self.proto: P.Proto | None = None
        self.raws: list[Any] = []
        self.src: P.ArgSource | None = None
        self.ctx: P.FmtCtx | None = None
        self.first_out = 0
        self.delim = False  # the left part printed a parameter: the rest starts with ", " (ltrace's need_delim)
        self.no_return = True
        self.origin = origin  # the Symbol (library call) or events.Call (syscall): what the JSON output records
        self.params: list[str] = []  # each parameter's text as printed so far (the JSON records' args)


class Proc:
    """One address space under trace: a thread group (or a vfork child sharing its parent's memory)."""

    def __init__(self, tgid: int) -> None:
        self.tgid = tgid
        self.space: AddressSpace | None = None
        self.objects: list[Loaded] = []
        self.main_path: str | None = None
        self.main_name: str | None = None  # how "-e" lines name the program: "prog->malloc"
        self.r_debug = 0
        self.started = False  # past its first exec (launched) or attached
        self.shared = False  # a vfork child: the space is its parent's
        self.untraced = False  # a vfork child without -f: let go at its exec
        self.word = 8  # its program's pointer size: 8 (x86-64), 4 (i386: ILP32 values, cdecl arguments)
        self.semaphores: set[int] = set()  # USDT semaphores we added one to (run-time addresses)


class Thread:
    __slots__ = ("tid", "proc", "stack", "visible", "last_ip")

    def __init__(self, tid: int, proc: Proc, visible: bool) -> None:
        self.tid = tid
        self.proc = proc
        self.stack: list[Frame] = []
        self.visible = visible
        self.last_ip = 0  # where it last stopped for us: -i's address on signal and exit lines


def _kcmp_vm(a: int, b: int) -> bool:
    """Whether two processes share one address space (kcmp KCMP_VM); False when kcmp is unavailable."""
    try:
        return ctypes.CDLL(None, use_errno=True).syscall(312, a, b, 1, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _status_ids(tid: int) -> tuple[int, int]:
    """(Tgid, PPid) from /proc/TID/status."""
    tgid = ppid = 0
    try:
        with open(f"/proc/{tid}/status") as f:
            for line in f:
                if line.startswith("Tgid:"):
                    tgid = int(line.split()[1])
                elif line.startswith("PPid:"):
                    ppid = int(line.split()[1])
                    break
    except OSError:
        pass
    return tgid or tid, ppid


def _auxv_entry(pid: int, word: int = 8) -> int:
    try:
        with open(f"/proc/{pid}/auxv", "rb") as f:
            data = f.read()
    except OSError:
        return 0
    pair = "<QQ" if word == 8 else "<II"  # an i386 process's auxv holds 32-bit pairs
    for i in range(0, len(data) - 2 * word + 1, 2 * word):
        key, val = struct.unpack_from(pair, data, i)
        if key == _AT_ENTRY:
            return val
        if key == 0:
            break
    return 0


def _program_word(pid: int) -> int:
    """4 when the program ``pid`` runs is an i386 ELF file (ELFCLASS32, EM_386), else 8."""
    try:
        with open(f"/proc/{pid}/exe", "rb") as f:
            head = f.read(20)
    except OSError:
        return 8
    return 4 if head[4:5] == b"\x01" and head[18:20] == b"\x03\x00" else 8


def _st0(tid: int) -> bytes | None:
    """The x87 register st(0) (10 bytes), where an i386 function returns a float or a double.

    PTRACE_GETFPREGS from a 64-bit tracer gives the FXSAVE image (user_fpregs_struct) whatever the
    tracee's mode; its st_space holds st(0)..st(7) in 16-byte slots from offset 32.
    """
    if B.raw_ptrace(14, tid, 0, ctypes.addressof(_fpbuf)) == B.ERROR_RESULT:  # PTRACE_GETFPREGS
        return None
    return _fpbuf.raw[_ST_OFFSET:_ST_OFFSET + 10]


def _xmm(tid: int) -> list[bytes]:
    if B.raw_ptrace(14, tid, 0, ctypes.addressof(_fpbuf)) == B.ERROR_RESULT:  # PTRACE_GETFPREGS
        return []
    raw = _fpbuf.raw
    return [raw[_XMM_OFFSET + 16 * i:_XMM_OFFSET + 16 * (i + 1)] for i in range(8)]


signal_line = signal_text


class LtraceSession:
    """Sink for the backend's events plus the breakpoint logic; one per pyltrace run."""

    #: USDT semaphores are raised by the kernel (uprobe reference counters), not written by the session
    kernel_semaphores = False

    def __init__(self, cfg: LtraceConfig, out: Output, protos: P.Prototypes, summary: Summary | None) -> None:
        self.cfg = cfg
        self.out = out
        self.protos = protos
        self.summary = summary
        self.backend: PtraceBackend | None = None
        self.procs: dict[int, Proc] = {}
        self.threads: dict[int, Thread] = {}
        # New child pid -> the open calls of the thread that forked it, as they were at the fork event
        # (the child's first stop may be seen after the parent has already returned from fork()).
        self.forkers: dict[int, list[Frame]] = {}
        # vfork: the parent is held at its VFORK event until the child execs or exits (as ltrace's
        # continue_after_vfork), so the child's lines come first and nothing else runs in the shared memory.
        self.vfork_held: dict[int, int] = {}  # child -> held parent
        self.vfork_released: set[int] = set()  # children that let go before their parent's event was seen
        self._proto_cache: dict[str, P.Proto] = {}
        self._demangled: dict[str, str] = {}
        self._syscall_names: Any = None
        self.command_name: str | None = None  # basename of the launched command's path
        self._walker: Any = None

    # -- wiring ----------------------------------------------------------------------------

    def hooks(self) -> dict[str, Any]:
        """The TraceOptions fields that connect the backend to this session."""
        return {
            "breakpoint_handler": self.on_trap,
            "event_hook": self.on_ptrace_event,
            "task_hook": self.on_task,
            "resume_cont": not self.cfg.syscalls,
            "follow_forks": True,  # always: a forked child must be cleaned of our int3s even without -f
            "quiet_attach": True,
        }

    def attached(self, pid: int) -> None:
        """-p PID: the process runs its program already; put the breakpoints in now."""
        proc = self.procs.get(pid)
        if proc is None:
            proc = self.procs[pid] = Proc(pid)
            self.threads[pid] = Thread(pid, proc, True)
        proc.started = True
        proc.main_name = "exe"  # ltrace opens /proc/PID/exe and names the program after that file
        try:
            proc.main_path = os.readlink(f"/proc/{pid}/exe")
            proc.word = _program_word(pid)
            proc.space = AddressSpace(pid, proc.word)
        except OSError:
            return
        self._instrument_all(proc, pid)

    # -- new tasks -----------------------------------------------------------------------------

    def on_task(self, tid: int) -> None:
        if tid in self.threads:
            return
        tgid, ppid = _status_ids(tid)
        if tgid != tid:  # a thread: the same breakpoints, shown with -f only (as ltrace)
            self.forkers.pop(tid, None)
            proc = self.procs.get(tgid)
            if proc is None:
                proc = self.procs[tgid] = Proc(tgid)
            self.threads[tid] = Thread(tid, proc, self.cfg.follow)
            return
        parent = self.procs.get(ppid)
        if parent is None or parent.space is None:  # our launched command, or a process being attached
            proc = self.procs[tid] = Proc(tid)
            self.threads[tid] = Thread(tid, proc, True)
            return
        proc = self.procs[tid] = Proc(tid)
        proc.started = True
        proc.objects = list(parent.objects)
        proc.main_path = parent.main_path
        proc.r_debug = parent.r_debug
        proc.word = parent.word
        inherited = self.forkers.pop(tid, None)
        if inherited is None:  # seen before the parent's fork event: the parent is still inside fork()
            forker = self.threads.get(ppid)
            inherited = list(forker.stack) if forker is not None else []
        if _kcmp_vm(tid, ppid):  # vfork / CLONE_VM: our int3s are its int3s
            proc.space = parent.space
            proc.shared = True
            proc.untraced = not self.cfg.follow
            th = self.threads[tid] = Thread(tid, proc, self.cfg.follow)
            if th.visible:  # it returns from vfork too: its copies of the open calls share their breakpoints
                th.stack = [_copy_frame(f, tid) for f in inherited if not f.syscall]
                for f in th.stack:
                    rbp = parent.space.insert(f.ret)
                    if rbp is not None:
                        rbp.ret_refs += 1
            return
        else:
            proc.space = parent.space.fork_copy(tid)
            proc.semaphores = set(parent.semaphores)  # its memory is a copy: the raised semaphores too
            if not self.cfg.follow:
                self._let_go(proc, tid)
                return
            th = self.threads[tid] = Thread(tid, proc, True)
        # The child's memory is the parent's at the fork: int3s the parent has removed since are stale
        # there, and its return breakpoints serve only the frames it inherited from the forking thread.
        space = proc.space
        space.restore_stale()
        if th.visible:
            th.stack = [_copy_frame(f, tid) for f in inherited if not f.syscall]
        for bp in space.bps.values():
            bp.ret_refs = 0
        for f in th.stack:
            rbp = space.insert(f.ret)
            if rbp is not None:
                rbp.ret_refs += 1
        for bp in [b for b in space.bps.values() if _idle(b)]:
            space.remove(bp)

    def _let_go(self, proc: Proc, tid: int) -> None:
        """An untraced fork child: every byte we ever patched gets its original back, then detach."""
        space = proc.space
        assert space is not None
        for addr, orig in space.known.items():
            space.write(addr, bytes((orig,)))
        if proc.semaphores:
            _usdt().release(space, proc.semaphores)
        space.close()
        self.procs.pop(tid, None)
        if self.backend is not None:
            self.backend.tracees.pop(tid, None)
        B.raw_ptrace(B.PTRACE_DETACH, tid, 0, 0)

    # -- exec ------------------------------------------------------------------------------------

    def on_ptrace_event(self, t: Tracee, event: int) -> bool:
        """Fork, vfork, clone and exec stops; True when ``t`` stays stopped (a vfork parent)."""
        if event in (B.PTRACE_EVENT_FORK, B.PTRACE_EVENT_VFORK, B.PTRACE_EVENT_CLONE):
            child = B.get_event_msg(t.pid)
            th = self.threads.get(t.pid)
            if child not in self.threads and th is not None:
                self.forkers[child] = list(th.stack)
            if event != B.PTRACE_EVENT_VFORK or child in self.vfork_released:
                self.vfork_released.discard(child)
                return False
            self.vfork_held[child] = t.pid
            return True
        if event != B.PTRACE_EVENT_EXEC:
            return False
        pid = t.pid
        th = self.threads.get(pid)
        if th is None:
            self.on_task(pid)
            th = self.threads[pid]
        old = th.proc
        if old.tgid != pid:  # a non-leader thread exec'd: it is the leader now
            old = self.procs.get(pid) or old
        # Every other thread of the old program is gone; this one's open calls never return.
        for tid, other in list(self.threads.items()):
            if other.proc is th.proc and tid != pid:
                del self.threads[tid]
        if th.visible and old.started:
            self.out.exec(pid, th.last_ip)
        if old.shared:
            self._vfork_done(th)
        if old.untraced:  # a vfork child of an untraced fork: now it has a memory of its own
            self.procs.pop(pid, None)
            self.threads.pop(pid, None)
            if self.backend is not None:
                self.backend.tracees.pop(pid, None)
            B.raw_ptrace(B.PTRACE_DETACH, pid, 0, 0)
            return False
        proc = Proc(pid)
        proc.started = True
        if not old.started and self.command_name:
            proc.main_name = self.command_name  # the command as given (a symlink keeps its name)
        self.procs[pid] = proc
        if old.space is not None and not old.shared:
            old.space.close()
        th.proc = proc
        th.stack = []
        t.hidden = False
        try:
            proc.main_path = os.readlink(f"/proc/{pid}/exe")
            proc.word = _program_word(pid)
            proc.space = AddressSpace(pid, proc.word)
        except OSError:
            return False
        entry = _auxv_entry(pid, proc.word)
        bp = proc.space.insert(entry) if entry else None
        if bp is None:
            self._instrument_all(proc, pid)
            return False
        bp.internal = self._at_entry
        return False

    def _vfork_done(self, th: Thread) -> None:
        """A vfork child execs or exits: its open calls let go of the shared breakpoints; its parent runs on."""
        space = th.proc.space
        if space is not None:
            for f in th.stack:
                rbp = space.bps.get(f.ret) if not f.syscall else None
                if rbp is not None and rbp.ret_refs > 0:
                    rbp.ret_refs -= 1
                    if _idle(rbp):
                        space.remove(rbp)
        th.stack = []
        if not self._release_vfork_parent(th.tid):
            self.vfork_released.add(th.tid)

    def _release_vfork_parent(self, child: int) -> bool:
        """Resume the parent held at ``child``'s vfork; False when none is held (yet)."""
        parent = self.vfork_held.pop(child, None)
        if parent is None:
            return False
        pt = self.backend.tracees.get(parent) if self.backend is not None else None
        if pt is not None:
            B.fast_ptrace(B.PTRACE_SYSCALL if pt.in_syscall else pt.resume, parent, 0, 0)
        return True

    def _at_entry(self, th: Thread, bp: Bp, regs: tuple[int, ...]) -> None:
        """The program's first instruction: ld.so has loaded and relocated every library."""
        space = th.proc.space
        assert space is not None
        if bp.entry is None and not bp.ret_refs and bp.probes is None:
            space.remove(bp)
        else:
            bp.internal = None
        self._instrument_all(th.proc, th.tid)

    # -- putting breakpoints in ----------------------------------------------------------------

    def _instrument_all(self, proc: Proc, tid: int) -> None:
        proc.objects = loaded_objects(proc.tgid, proc.main_path)
        for obj in proc.objects:
            self._instrument(proc, obj, dlopened=False)
        main = next((o for o in proc.objects if o.is_main), None)
        space = proc.space
        if main is None or main.info.dt_debug is None or space is None:
            return
        r_debug = space.read_word(main.bias + main.info.dt_debug) or 0
        if not r_debug:
            return
        r_brk = space.read_word(r_debug + 2 * space.word)  # struct r_debug: int r_version; r_map; r_brk
        if not r_brk:
            return
        proc.r_debug = r_debug
        bp = space.insert(r_brk)
        if bp is not None:
            bp.internal = self._at_r_brk

    def _at_r_brk(self, th: Thread, bp: Bp, regs: tuple[int, ...]) -> None:
        """_dl_debug_state: the link map changed; on RT_CONSISTENT, instrument what dlopen brought."""
        proc = th.proc
        space = proc.space
        if space is None or not proc.r_debug:
            return
        state = space.read(proc.r_debug + 3 * space.word, 4)  # r_state, after r_brk
        if state is None or _I32.unpack(state)[0] != _RT_CONSISTENT:
            return
        before = {(o.path, o.bias) for o in proc.objects}
        now = loaded_objects(proc.tgid, proc.main_path)
        kept = {(o.path, o.bias) for o in now}
        for o in proc.objects:  # dlclose'd: its breakpoints went with its pages
            if (o.path, o.bias) not in kept:
                for addr in [a for a in space.bps if o.contains(a)]:
                    del space.bps[addr]
                if proc.semaphores:
                    _usdt().forget(o, proc.semaphores)
        proc.objects = now
        for o in now:
            if (o.path, o.bias) not in before:
                self._instrument(proc, o, dlopened=True)

    def _selected(self, name: str, obj: Loaded, proc: Proc) -> bool:
        cfg = self.cfg
        info = obj.info
        if cfg.plt_filter and cfg.plt_filter.matches(name, info.soname, obj.path, obj.is_main):
            return True
        if cfg.libraries:
            from fnmatch import fnmatchcase

            for lib in proc.objects:
                if lib is obj or not any(fnmatchcase(lib.info.soname, pat) or fnmatchcase(lib.path, pat)
                                         for pat in cfg.libraries):
                    continue
                d = lib.info.defined.get(name)
                if d is not None and d[2] in ("STT_FUNC", "STT_LOOS") and d[0]:
                    return True
        return False

    def _wants_object(self, obj: Loaded) -> bool:
        cfg = self.cfg
        if cfg.libraries:
            return True
        return bool(cfg.plt_filter) and cfg.plt_filter.may_match_library(obj.info.soname, obj.path, obj.is_main)

    def _display(self, name: str) -> str:
        if not self.cfg.demangle or not name.startswith("_Z"):
            return name
        out = self._demangled.get(name)
        if out is None:
            out = self._demangled[name] = demangle(name)
        return out

    def _instrument(self, proc: Proc, obj: Loaded, dlopened: bool) -> None:
        space = proc.space
        assert space is not None
        cfg = self.cfg
        info = obj.info
        label = proc.main_name if obj.is_main and proc.main_name else info.soname
        if self._wants_object(obj):
            plt = info.plt
            stub_slots = set()
            for stub in plt.stubs:
                stub_slots.add(stub.got_slot)
                if stub.section == ".plt.got" and stub.name in CRT_SYMBOLS:
                    continue
                if not self._selected(stub.name, obj, proc):
                    continue
                bp = space.insert(obj.bias + stub.address)
                if bp is None or bp.entry is not None:
                    continue
                shown = self._display(stub.name)
                bp.entry = Symbol(stub.name, shown if cfg.hide_caller else f"{label}->{shown}", KIND_PLT,
                                  short=shown, got=obj.bias + stub.got_slot, home=obj)
            if not dlopened:
                self._instrument_got_calls(proc, obj, plt.got_symbols, stub_slots, label)
        if cfg.x_filter and cfg.x_filter.may_match_library(info.soname, obj.path, obj.is_main):
            for value, name in info.functions:
                if not cfg.x_filter.matches(name, info.soname, obj.path, obj.is_main):
                    continue
                bp = space.insert(obj.bias + value)
                if bp is None:
                    continue
                old = bp.entry
                if old is not None and old.kind == KIND_X and old.name.startswith("_") <= name.startswith("_"):
                    continue  # aliases at one address: keep the public name (malloc, not __libc_malloc)
                shown = self._display(name)
                bp.entry = Symbol(name, shown if obj.is_main else f"{shown}@{info.soname}", KIND_X, short=shown,
                                  library=info.soname)
        if cfg.usdt_filter:
            _usdt().arm(space, obj, cfg.usdt_filter, proc.semaphores, not self.kernel_semaphores)

    def _instrument_got_calls(self, proc: Proc, obj: Loaded, got: dict[int, str], stub_slots: set[int],
                              label: str) -> None:
        """-fno-plt call sites: a breakpoint on the function each GOT-only slot resolved to."""
        space = proc.space
        assert space is not None
        candidates = [(slot, name) for slot, name in got.items()
                      if slot not in stub_slots and name not in CRT_SYMBOLS]
        if not candidates:
            return
        called = obj.info.got_calls
        candidates = [(slot, name) for slot, name in candidates if slot in called]
        undefined = obj.info.undefined
        for slot, name in candidates:
            kind = undefined.get(name)
            if kind is None or kind[0] not in ("STT_FUNC", "STT_LOOS"):
                continue  # data (stdout, environ, ...) is reached through GOT slots too
            if not self._selected(name, obj, proc):
                continue
            target = space.read_word(obj.bias + slot)
            callee = next((o for o in proc.objects if o is not obj and o.contains(target)), None) if target else None
            if callee is None:
                continue
            bp = space.insert(target)
            if bp is None:
                continue
            if bp.entry is None:
                shown = self._display(name)
                bp.entry = Symbol(name, shown if self.cfg.hide_caller else f"{label}->{shown}",
                                  KIND_NOPLT, [obj], shown, library=callee.info.soname)
            elif bp.entry.kind == KIND_NOPLT and obj not in bp.entry.callers:
                bp.entry.callers.append(obj)

    # -- the trap -------------------------------------------------------------------------------------

    def on_trap(self, t: Tracee) -> bool:
        tid = t.pid
        th = self.threads.get(tid)
        if th is None:
            self.on_task(tid)
            th = self.threads.get(tid)
            if th is None:
                return False
        space = th.proc.space
        if space is None:
            return False
        regs = REGS.fetch(tid)
        if regs is None:
            return False
        addr = th.last_ip = regs[RIP] - 1
        bp = space.bps.get(addr)
        if bp is None:
            if addr not in space.known:
                return False
            space.write(addr, bytes((space.known[addr],)))  # (a stale copy in a forked child)
            set_rip(tid, addr)  # a trap queued just before we removed that breakpoint
            B.fast_ptrace(t.resume, tid, 0, take_signal(tid))
            return True
        if bp.ret_refs:
            self._returned(th, t, bp, regs)
        if bp.internal is not None:
            bp.internal(th, bp, regs)
        if bp.probes is not None:
            self._probe_hit(th, t, bp, regs)
        if bp.entry is not None:
            self._entered(th, t, bp.entry, regs)
        fault = 0
        if addr in space.bps:
            try:
                fault = space.step_over(tid, bp, regs)
            except ThreadGone as gone:
                if gone.status and self.backend is not None and tid in self.backend.tracees:
                    self.backend._on_gone(self.backend.tracees[tid], gone.status)  # noqa: SLF001
                return True
        else:
            set_rip(tid, addr)
        B.fast_ptrace(t.resume, tid, 0, fault or take_signal(tid))
        return True

    def _probe_hit(self, th: Thread, t: Tracee, bp: Bp, regs: tuple[int, ...]) -> None:
        """A thread at a USDT probe's nop: one line per probe there (usdt_trace.py)."""
        if not th.visible:
            return
        space = th.proc.space
        assert space is not None
        for site in bp.probes:
            if self.summary is not None:
                self.summary.add(site.display, 0.0)
                continue
            args = _usdt().args_text(site, regs, space, t.mem, self.protos, self.cfg.strlen, self.cfg.arraylen)
            self.out.probe(th.tid, bp.addr, len(th.stack) + 1, site.display, args)

    def _proto(self, name: str, syscall: bool = False) -> P.Proto:
        key = ("SYS_" + name) if syscall else name
        proto = self._proto_cache.get(key)
        if proto is None:
            proto = self.protos.get(key) or P.default_proto(key)
            self._proto_cache[key] = proto
        return proto

    def _entered(self, th: Thread, t: Tracee, sym: Symbol, regs: tuple[int, ...]) -> None:
        if not th.visible:
            return
        space = th.proc.space
        assert space is not None
        sp = regs[RSP]
        ret = space.read_word(sp)
        if ret is None:
            return
        if space.word == 4:
            self._entered_i386(th, t, sym, sp, ret, space)
            return
        if sym.kind == KIND_NOPLT and not any(o.contains(ret) for o in sym.callers):
            return  # a call from a library (or the callee's own internals), not from a traced caller
        if sym.forward is not False and sym.kind == KIND_PLT and _forwarded(space, sym):
            return  # it goes on into a traced PLT stub of the program, which shows it
        stack = th.stack
        frame = Frame(sym.name, sym.display, ret, sp, len(stack) + 1, th.tid, False, sym.short, sym)
        proto = sym.proto
        if proto is None:
            proto = sym.proto = self._proto(sym.name)
        frame.proto = proto
        tid = th.tid
        src = frame.src = P.ArgSource(_int_args(regs), sp, t.mem, (lambda: _xmm(tid)) if proto.needs_floats else None)
        if proto.simple:
            n = len(proto.params)
            src.ni = n
            raws = frame.raws = src.ints[:n]
        else:
            raws = frame.raws = P.fetch_raws(proto.params, src, proto.ret)
        frame.ctx = P.FmtCtx(t.mem, self.cfg.strlen, self.cfg.arraylen, raws)
        self._open(th, frame, sym, space)

    def _open(self, th: Thread, frame: Frame, sym: Symbol, space: AddressSpace) -> None:
        """A call entered (either ABI, its arguments read): arm its return, push it, print its left part."""
        proto = frame.proto
        assert proto is not None and frame.ctx is not None
        first_out = frame.first_out = proto.first_out
        rbp = space.insert(frame.ret)
        if rbp is not None:
            rbp.ret_refs += 1
        th.stack.append(frame)
        if self.summary is not None:
            return
        left = frame.params = P.format_params(proto.params, frame.raws, frame.src, frame.ctx, 0,  # type: ignore[arg-type]
                                              first_out)
        frame.delim = bool(left)
        self.out.left(frame, th.tid, frame.ret, frame.depth, f"{sym.display}({', '.join(left)}")

    def _entered_i386(self, th: Thread, t: Tracee, sym: Symbol, sp: int, ret: int, space: AddressSpace) -> None:
        """_entered for an i386 tracee: every argument on the stack (abi_i386), ILP32 values."""
        if sym.kind == KIND_NOPLT and not any(o.contains(ret) for o in sym.callers):
            return
        if sym.forward is not False and sym.kind == KIND_PLT and _forwarded(space, sym):
            return
        stack = th.stack
        frame = Frame(sym.name, sym.display, ret, sp, len(stack) + 1, th.tid, False, sym.short, sym)
        proto = sym.proto
        if proto is None:
            proto = sym.proto = self._proto(sym.name)
        frame.proto = proto
        i386 = _abi_i386()
        src = frame.src = i386.StackArgs(t.mem, sp)  # type: ignore[assignment]
        raws = frame.raws = i386.fetch_raws(proto.params, proto.ret, src)
        frame.ctx = P.FmtCtx(t.mem, self.cfg.strlen, self.cfg.arraylen, raws, model=T.ILP32)
        self._open(th, frame, sym, space)

    def _returned(self, th: Thread, t: Tracee, bp: Bp, regs: tuple[int, ...]) -> None:
        stack = th.stack
        addr = bp.addr
        sp_after = regs[RSP]
        idx = None
        word = th.proc.word
        for i in range(len(stack) - 1, -1, -1):
            f = stack[i]
            if f.ret == addr and not f.syscall:
                if f.sp + word == sp_after:
                    idx = i
                    break
                if idx is None:
                    idx = i
        if idx is None:
            return
        # Calls entered at the same return address and stack pointer return together: a PLT call and
        # the -x entry of the function it reaches, both printed, innermost first (as ltrace).
        while idx > 0 and stack[idx - 1].ret == addr and stack[idx - 1].sp == stack[idx].sp:
            idx -= 1
        space = th.proc.space
        assert space is not None
        popped = stack[idx:]
        del stack[idx:]
        for f in popped:  # the frames that return here, and any a longjmp skipped over
            if f.syscall:
                continue
            rbp = space.bps.get(f.ret)
            if rbp is not None and rbp.ret_refs > 0:
                rbp.ret_refs -= 1
                if _idle(rbp):
                    space.remove(rbp)
        first = popped[0]
        for f in reversed(popped):
            if f.ret == addr and f.sp == first.sp and not f.syscall:
                self._print_return(th, f, regs)

    def _print_return(self, th: Thread, frame: Frame, regs: tuple[int, ...]) -> None:
        duration = time.monotonic() - frame.t0
        if self.summary is not None:
            self.summary.add(frame.short, duration)
            return
        proto = frame.proto
        assert proto is not None and frame.ctx is not None and frame.src is not None
        ctx = frame.ctx
        ret_t = proto.ret
        if th.proc.word == 4:
            raw: Any = _abi_i386().return_raw(ret_t, regs[RAX], lambda: _st0(th.tid))
        else:
            raw = P.return_raw(ret_t, regs[RAX], regs[RDX], lambda: _xmm(th.tid))
        ctx.retval = P.retval_of(ret_t, raw)
        rest = P.format_params(proto.params, frame.raws, frame.src, ctx, frame.first_out, len(proto.params))
        frame.params = frame.params + rest
        value = P.format_value(ret_t, raw, ctx) if ret_t.kind != P.VOID else "<void>"
        self.out.right(frame, th.tid, frame.ret, frame.depth, frame.short, _rest_text(frame, rest), value,
                       duration)
        if self.cfg.backtrace:
            self._backtrace(th.tid)

    def _backtrace(self, tid: int) -> None:
        """-w N: the first N frames of the stack at the return, from the -k unwinder (pytrace/stack)."""
        try:
            if self._walker is None:
                from pytrace.stack.sink import StackWalker

                self._walker = StackWalker(recheck_maps=True)
            lines = self._walker.frames(tid, False)
        except Exception:  # noqa: BLE001 - a backtrace must never take the trace down
            return
        for line in lines[: self.cfg.backtrace]:
            self.out.raw(line)

    # -- Sink: syscalls (-S) ------------------------------------------------------------------------

    def _syscall_name(self, call: Call) -> str:
        last = _LTRACE_LAST_SYSCALL.get(call.arch)
        if last is None or call.nr > last:
            return str(call.nr)
        return _LTRACE_SYSCALL_NAMES.get(call.name, call.name)

    def on_entry(self, call: Call) -> None:
        th = self.threads.get(call.pid)
        if th is None or not th.visible or not th.proc.started:
            return
        name = self._syscall_name(call)
        frame = Frame(name, "SYS_" + name, 0, 0, len(th.stack) + 1, th.tid, True, "", call)
        proto = frame.proto = self._proto(name, syscall=True)
        src = frame.src = P.ArgSource(list(call.args), 0, call.mem, None)
        raws = frame.raws = P.fetch_raws(proto.params, src)
        ctx = frame.ctx = P.FmtCtx(call.mem, self.cfg.strlen, self.cfg.arraylen, raws,
                                   model=T.ILP32 if call.arch == "i386" else T.LP64)
        frame.first_out = proto.first_out
        th.stack.append(frame)
        if self.summary is not None:
            return
        left = frame.params = P.format_params(proto.params, raws, src, ctx, 0, frame.first_out)
        text = f"SYS_{name}({', '.join(left)}"
        frame.delim = bool(left)
        th.last_ip = call.ip
        self.out.left(frame, th.tid, call.ip, frame.depth, text)

    def on_exit(self, call: Call) -> None:
        th = self.threads.get(call.pid)
        if th is None or not th.stack or not th.stack[-1].syscall:
            return
        frame = th.stack.pop()
        rval = -call.error if call.error else call.rval
        duration = time.monotonic() - frame.t0
        if self.summary is not None:
            self.summary.add(frame.display, duration)
            return
        proto = frame.proto
        assert proto is not None and frame.ctx is not None and frame.src is not None
        frame.ctx.retval = rval & ((1 << 64) - 1)
        rest = P.format_params(proto.params, frame.raws, frame.src, frame.ctx, frame.first_out,
                               len(proto.params))
        frame.params = frame.params + rest
        value = P.format_value(proto.ret, rval & ((1 << 64) - 1), frame.ctx) if proto.ret.kind != P.VOID \
            else "<void>"
        self.out.right(frame, th.tid, call.ip, frame.depth, frame.display, _rest_text(frame, rest), value,
                       duration)

    # -- Sink: everything else -------------------------------------------------------------------------

    def on_signal(self, ev: SignalEvent) -> None:
        th = self.threads.get(ev.pid)
        if self.cfg.no_signals or th is None or not th.visible:
            return
        self.out.signal(ev.pid, ev.signo, ev.ip or th.last_ip)

    def on_group_stop(self, ev: GroupStopEvent) -> None:
        pass

    def on_exit_process(self, ev: ExitEvent, unfinished: Call | None) -> None:
        th = self.threads.pop(ev.pid, None)
        if th is None:
            self._release_vfork_parent(ev.pid)  # a vfork child gone before we ever saw it stop
            return
        proc = th.proc
        if th.visible:
            self.out.exited(ev.pid, proc.tgid, ev.status, ev.signo, ev.core_dumped, th.last_ip)
        if proc.shared:
            self._vfork_done(th)
        if ev.pid == proc.tgid:
            self.procs.pop(ev.pid, None)
            if proc.space is not None and not proc.shared:
                proc.space.close()
        deferred_signals.pop(ev.pid, None)

    def on_superseded(self, ev: Any, unfinished: Call | None) -> None:
        self.threads.pop(ev.pid, None)

    def on_personality(self, ev: Any) -> None:
        pass

    def on_detach(self, ev: DetachEvent) -> None:
        """Leaving a tracee running (-p then Ctrl-C): no int3 of ours may stay in its memory."""
        th = self.threads.pop(ev.pid, None)
        if th is None:
            return
        proc = th.proc
        space = proc.space
        if space is None:
            return
        if space.bps:
            space.clear()
        space.restore_stale()
        if proc.semaphores:
            _usdt().release(space, proc.semaphores)
        regs = REGS.fetch(ev.pid)
        if regs is not None and regs[RIP] - 1 in space.known:
            set_rip(ev.pid, regs[RIP] - 1)  # stopped just after one of our traps: run the real instruction

    def on_process_count(self, count: int) -> None:
        pass

    def close(self) -> None:
        self.out.close(self.summary)

    # -- for the JSON output (pytrace/structured/ltrace_records.py), never called by the text output ----

    def tgid(self, tid: int) -> int:
        th = self.threads.get(tid)
        return th.proc.tgid if th is not None else tid

    def locate(self, frame: Frame) -> tuple[str | None, str | None]:
        """(library, caller): the sonames of the object defining a called function and of the calling one.

        The caller is the object holding the return address.  The callee is
        where the breakpoint is for calls caught on the function itself (-x,
        -fno-plt sites); for a PLT call, the object its GOT slot points to once
        bound (read at the return, when even a lazy slot is resolved), else the
        first other object exporting the name.
        """
        th = self.threads.get(frame.pid)
        sym = frame.origin
        if th is None or not isinstance(sym, Symbol):
            return None, None
        objects = th.proc.objects
        caller = next((o.info.soname for o in objects if o.contains(frame.ret)), None)
        if sym.library is None:  # a PLT call (the others know their library from the start)
            space = th.proc.space
            target = space.read_word(sym.got) if space is not None and sym.got else None
            owner = next((o for o in objects if target and o.contains(target)), None)
            if owner is None or owner.info.soname == caller:  # not bound (yet): the lookup ld.so would do
                return next((o.info.soname for o in objects
                             if o.info.soname != caller and _exports(o, sym.name)), None), caller
            sym.library = owner.info.soname
        return sym.library, caller


_int_args = operator.itemgetter(RDI, RSI, RDX, RCX, R8, R9)


def _idle(bp: Bp) -> bool:
    """Whether a breakpoint has no role left (no open call returns there, nothing enters, no probe)."""
    return not bp.ret_refs and bp.entry is None and bp.internal is None and bp.probes is None


def _forwarded(space: AddressSpace, sym: Symbol) -> bool:
    """Whether a PLT call continues into another traced PLT stub (decided once its GOT slot is bound).

    A non-PIE program that takes a library function's address makes its own PLT stub the function's
    address everywhere: libc's GOT slot for malloc then holds the program's ``malloc@plt``.  ltrace,
    which sees only the program's stub, shows such a call once, as the program's; a breakpoint on
    libc's own stub (``.plt.got``) would show it a second time, nested around the first.
    """
    target = space.read_word(sym.got) if sym.got else None
    if target is None:
        return False
    bp = space.bps.get(target)
    if bp is not None and bp.entry is not None and bp.entry.kind == KIND_PLT and bp.entry is not sym:
        sym.forward = True
        return True
    if sym.home is None or not sym.home.contains(target):
        sym.forward = False  # bound to the function itself: it never changes again
    return False


def _exports(obj: Loaded, name: str) -> bool:
    d = obj.info.defined.get(name)
    return d is not None and bool(d[0]) and d[2] in ("STT_FUNC", "STT_LOOS") and d[3] != "STB_LOCAL"


def _rest_text(frame: Frame, rest: list[str]) -> str:
    """The parameters printed at the return: after a ", " when the entry printed some (as ltrace, whose
    cut line reads ``f(3 <unfinished ...>`` and ``<... f resumed> , 6)``)."""
    text = ", ".join(rest)
    return ", " + text if rest and frame.delim else text


def _copy_frame(f: Frame, pid: int) -> Frame:
    g = Frame(f.name, f.display, f.ret, f.sp, f.depth, pid, f.syscall, f.short, f.origin)
    g.t0, g.proto, g.raws, g.src, g.ctx, g.first_out = f.t0, f.proto, f.raws, f.src, f.ctx, f.first_out
    g.params = list(f.params)
    g.delim = f.delim
    if f.ctx is not None:
        from pytrace.backends.ptrace.memory import MemoryReader

        g.ctx = P.FmtCtx(MemoryReader(pid), f.ctx.strlen, f.ctx.arraylen, f.ctx.args, model=f.ctx.model)
    return g


_cxa_demangle: Any = None


def demangle(name: str) -> str:
    """-C: C++ names through libstdc++'s ``__cxa_demangle`` (loaded on first use).

    It is the reference Itanium ABI demangler (ltrace's libiberty and c++filt print the
    same text), and it is present wherever a dynamically linked C++ program runs, which
    is the only time -C has anything to do; without it names stay mangled.
    """
    global _cxa_demangle
    if _cxa_demangle is None:
        from ctypes import util as ctypes_util

        fn: Any = False
        lib = ctypes_util.find_library("stdc++")
        if lib:
            try:
                fn = ctypes.CDLL(lib).__cxa_demangle
                fn.restype = ctypes.c_void_p
                fn.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)]
            except (OSError, AttributeError):
                fn = False
        _cxa_demangle = fn
    if not _cxa_demangle:
        return name
    status = ctypes.c_int(0)
    ptr = _cxa_demangle(name.encode(), None, None, ctypes.byref(status))
    if not ptr or status.value != 0:
        return name
    try:
        return ctypes.string_at(ptr).decode("utf-8", "replace")
    finally:
        _libc_free(ctypes.c_void_p(ptr))


_libc_free = ctypes.CDLL(None).free
