"""ltrace 0.7.3's reader of prototype files (``read_config_file.c``), line by line as ltrace reads them.

ltrace reads a file with ``fgets`` into a 1024-byte buffer: every line (or
1023-byte piece of a longer one) is one item, and a trailing ``;`` is not
needed: the argument list is the last ``)`` of the line and the ``(`` that
matches it, whatever follows.  A line starting (after spaces: tabs are not
skipped) with ``;`` is a comment.  The parse walks the line with a cursor,
exactly as ltrace's C code does, so that the same malformed line gives the
same messages (``FILE:LINE: error: ...``), the same partial results, and then
the rest of the file is still read.  Where ltrace itself crashes (a
``typedef`` whose name is not an identifier dereferences NULL), the error is
reported and the line skipped.

Typedefs are global to every file read by one run (a redefinition in a later
file is an error), and a prototype read later replaces an earlier one of the
same name, as ltrace's list of functions (prepended, searched from the head).
"""

from __future__ import annotations

from collections.abc import Callable

from pytrace.ltrace import ctypes_model as T
from pytrace.ltrace.ctypes_model import Expr, Lens, Type

LINE_BUFFER = 1024
MESSAGE_MAX = 127  # ltrace formats a message into a 128-byte buffer: longer ones are cut
_LONG_MAX = (1 << 63) - 1
_LONG_MIN = -(1 << 63)


class Function:
    """One prototype: ``params`` excludes ltrace's "stop" marker, whose place is ``first_out``.

    ``pack`` is the index of the parameter a ``format`` parameter pack expands
    (its values follow every declared parameter, as ltrace appends the pack at
    the end of the list), or None.  (A plain class: records' per-class work is start-up cost.)
    """

    __slots__ = ("name", "ret", "params", "first_out", "pack")

    def __init__(self, name: str, ret: Type, params: list[Type] | None = None, first_out: int | None = None,
                 pack: int | None = None) -> None:
        self.name = name
        self.ret = ret
        self.params: list[Type] = [] if params is None else params
        self.first_out = first_out
        self.pack = pack


def _isalpha(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _isdigit(c: str) -> bool:
    return "0" <= c <= "9"


def _isalnum(c: str) -> bool:
    return _isalpha(c) or _isdigit(c)


def _isspace(c: str) -> bool:
    return c in " \t\n\v\f\r"


def strtol(s: str, pos: int) -> tuple[int, int]:
    """C's ``strtol(s + pos, &end, 0)``: (value, end); end == pos when no number was read."""
    i = pos
    n = len(s)
    while i < n and _isspace(s[i]):
        i += 1
    neg = False
    if i < n and s[i] in "+-":
        neg = s[i] == "-"
        i += 1
    base = 10
    if i < n and s[i] == "0":
        if i + 2 < n + 1 and i + 1 < n and s[i + 1] in "xX" and i + 2 < n and s[i + 2] in "0123456789abcdefABCDEF":
            base = 16
            i += 2
        else:
            base = 8
    digits = "0123456789abcdef"[:base]
    start = i
    v = 0
    while i < n and s[i].lower() in digits and s[i] != "":
        v = v * base + int(s[i], 16)
        i += 1
    if i == start:
        return 0, pos
    v = -v if neg else v
    return max(_LONG_MIN, min(_LONG_MAX, v)), i


class _Line:
    """The cursor over one line (``char **str`` in ltrace); reading past the end gives NUL."""

    __slots__ = ("s", "i")

    def __init__(self, s: str, i: int = 0) -> None:
        self.s = s
        self.i = i

    def ch(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if 0 <= j < len(self.s) else "\0"

    def rest(self) -> str:
        """What C sees from here: up to the NUL ltrace wrote at the argument list's "(", or the end."""
        return self.s[self.i:].split("\0", 1)[0]

    def startswith(self, kwd: str) -> bool:
        return self.s.startswith(kwd, self.i)

    def eat_spaces(self) -> None:
        while self.ch() == " ":
            self.i += 1


class _Fail(Exception):
    """A parse step failed (its message, if any, is already reported)."""


class Reader:
    """The state ltrace keeps across files: typedefs, the primitive types, the functions read."""

    def __init__(self, report: Callable[[str], None]) -> None:
        self.report = report  # receives "FILE:LINE: error: MSG" lines
        self.typedefs: dict[str, Type] = {}
        self.forward: set[str] = set()
        self.functions: dict[str, Function] = {}
        # Shared simple types (type_get_simple): string(TYPE) sets its lens on the very object it names.
        self.simple = {k: Type(k) for k in (T.VOID, T.INT, T.UINT, T.LONG, T.ULONG, T.CHAR, T.SHORT, T.USHORT,
                                             T.FLOAT, T.DOUBLE)}
        void_ptr = Type(T.POINTER, target=Type(T.VOID))
        self.typedefs["addr"] = void_ptr
        self.typedefs["file"] = void_ptr
        self.filename = ""
        self.line_no = 0
        self._hidden_int: Type | None = None

    # -- reporting -------------------------------------------------------------------------------

    def error(self, msg: str) -> None:
        self.report(f"{self.filename}:{self.line_no}: error: {msg[:MESSAGE_MAX]}")

    def warning(self, msg: str) -> None:
        self.report(f"{self.filename}:{self.line_no}: warning: {msg[:MESSAGE_MAX]}")

    # -- files --------------------------------------------------------------------------------------

    def read_text(self, text: str, filename: str) -> None:
        self.filename = filename
        self.line_no = 0
        for buf in _fgets_lines(text):
            fun = self.process_line(buf)
            if fun is not None:
                self.functions[fun.name] = fun

    # -- the pieces -------------------------------------------------------------------------------

    def parse_arg_type(self, c: _Line) -> int | None:
        for kwd, kind in (("void", T.VOID), ("int", T.INT), ("uint", T.UINT), ("long", T.LONG), ("ulong", T.ULONG),
                          ("char", T.CHAR), ("short", T.SHORT), ("ushort", T.USHORT), ("float", T.FLOAT),
                          ("double", T.DOUBLE), ("array", T.ARRAY), ("struct", T.STRUCT), ("itn", T.INT)):
            if c.startswith(kwd):
                if _isalnum(c.ch(len(kwd))):
                    return None
                c.i += len(kwd)
                return kind
        return None

    def parse_ident(self, c: _Line) -> str:
        if not _isalpha(c.ch()) and c.ch() != "_":
            self.error("bad identifier")
            raise _Fail
        start = c.i
        while c.ch() != "\0" and (_isalnum(c.ch()) or c.ch() == "_"):
            c.i += 1
        return c.s[start:c.i]

    def parse_int(self, c: _Line) -> int:
        v, end = strtol(c.s, c.i)
        if end == c.i:
            self.error("bad number")
            raise _Fail
        c.i = end
        return v

    def check_int(self, v: int) -> None:
        if not -(1 << 31) <= v < (1 << 31):
            self.error(f"Number too large: {v}")
            raise _Fail

    def parse_char(self, c: _Line, expected: str) -> bool:
        if c.ch() != expected:
            self.error(f"expected '{expected}', got '{c.ch()}'")
            return False
        c.i += 1
        return True

    def parse_argnum(self, c: _Line, zero: bool) -> Expr:
        if _isdigit(c.ch()):
            v = self.parse_int(c)
            if v < 0:
                self.error(f"expected non-negative value, got {v}")
                raise _Fail
            self.check_int(v)
            e = Expr("const", v)
            return Expr("zero", inner=e) if zero else e
        name = self.parse_ident(c)
        if name.startswith(("arg", "elt")):
            num = _Line(name, 3)
            v = self.parse_int(num)
            self.check_int(v)
            if name.startswith("arg"):
                e = Expr("retval") if v == 0 else Expr("arg", v - 1)
            else:
                e = Expr("elt", v - 1)
        elif name == "retval":
            e = Expr("retval")
        elif name == "zero":
            c.eat_spaces()
            if c.ch() == "(":
                c.i += 1
                arg = self.parse_argnum(c, False)
                if not self.parse_char(c, ")"):
                    raise _Fail
                return Expr("zero", inner=arg)
            return T.ZERO
        else:
            self.error(f"Unknown length specifier: '{name}'")
            raise _Fail
        return Expr("zero", inner=e) if zero else e

    def parse_typedef_name(self, c: _Line) -> Type | None:
        start = c.i
        while c.ch() != "\0" and (_isalnum(c.ch()) or c.ch() == "_"):
            c.i += 1
        if c.i == start:
            return None
        return self.typedefs.get(c.s[start:c.i])

    def parse_typedef(self, c: _Line) -> None:
        c.i += len("typedef")
        c.eat_spaces()
        name = self.parse_ident(c)  # (ltrace 0.7.3 crashes when this fails)
        fwd = self.typedefs.get(name)
        if fwd is not None and (fwd.kind != T.STRUCT or name not in self.forward):
            self.error(f"Redefinition of typedef '{name}'")
            return
        c.eat_spaces()
        if not self.parse_char(c, "="):
            return
        c.eat_spaces()
        td: list[str] = [name]  # marks "directly after a typedef" for a forward struct
        info = self.parse_lens(c, None, 0, td)
        is_forward = len(td) > 1
        if fwd is None:
            self.typedefs[name] = info
            if is_forward:
                self.forward.add(name)
            return
        if info.kind != T.STRUCT:
            self.error(f"Definition of forward '{name}' must be a structure.")
            return
        fwd.assign(info)
        self.forward.discard(name)

    def parse_struct(self, c: _Line, in_typedef: list[str] | None) -> Type:
        c.eat_spaces()
        if c.ch() == ";":
            if in_typedef is None:
                self.error("Forward struct can be declared only directly after a typedef.")
                raise _Fail
            in_typedef.append("forward")
            return Type(T.STRUCT)
        if not self.parse_char(c, "("):
            raise _Fail
        c.eat_spaces()
        info = Type(T.STRUCT)
        while True:
            c.eat_spaces()
            if c.ch() in ("\0", ")"):
                self.parse_char(c, ")")
                return info
            if info.fields:
                self.parse_char(c, ",")
            c.eat_spaces()
            info.fields.append(self.parse_lens(c, None, 0, None))

    def parse_string(self, c: _Line) -> Type:
        if _isdigit(c.ch()):
            v = self.parse_int(c)
            self.check_int(v)
            arg = Expr("retval") if v == 0 else Expr("arg", v - 1)
            length = Expr("zero", inner=arg)
        else:
            c.eat_spaces()
            if c.ch() == "[":
                c.i += 1
                c.eat_spaces()
                length = self.parse_argnum(c, True)
                c.eat_spaces()
                self.parse_char(c, "]")
            elif c.ch() == "(":
                c.i += 1
                c.eat_spaces()
                info = self.parse_type(c, None, 0, None)
                c.eat_spaces()
                self.parse_char(c, ")")
                info.lens = T.STRING  # on the named type itself, shared or not (as ltrace)
                return info
            else:
                length = T.ZERO
        arr = Type(T.ARRAY, target=self.simple[T.CHAR], length=length)
        return Type(T.POINTER, lens=T.STRING, target=arr)

    def parse_alias(self, c: _Line, pack: list[int] | None, param_num: int) -> Type | None:
        if c.startswith("string"):
            c.i += 6
            return self.parse_string(c)
        if c.startswith("format") and not _isalnum(c.ch(6)):
            c.i += 6
            if pack is not None:
                info = self.parse_string(c)
                if not pack:
                    pack.append(param_num)
                    info = info.copy()
                    info.pack = True
                    return info
                self.error("only one 'format' type per function supported")
                raise _Fail
            # (ltrace consumed the keyword and goes on looking for an enum or a typedef name)
        if c.startswith("enum") and not _isalnum(c.ch(4)):
            c.i += 4
            return self.parse_enum(c)
        return None

    def parse_array(self, c: _Line) -> Type:
        c.eat_spaces()
        if not self.parse_char(c, "("):
            raise _Fail
        c.eat_spaces()
        elt = self.parse_lens(c, None, 0, None)
        c.eat_spaces()
        self.parse_char(c, ",")
        c.eat_spaces()
        length = self.parse_argnum(c, False)
        c.eat_spaces()
        self.parse_char(c, ")")
        return Type(T.ARRAY, target=elt, length=length)

    def parse_enum(self, c: _Line) -> Type:
        c.eat_spaces()
        if c.ch() == "[":
            c.i += 1
            c.eat_spaces()
            base = self.parse_nonpointer_type(c, None, 0, None)
            if base.kind not in T.INTEGRAL:
                self.error("integral type required as enum argument")
                raise _Fail
            c.eat_spaces()
            if not self.parse_char(c, "]"):
                raise _Fail
        else:
            base = self.simple[T.INT]
        info = base.copy()
        c.eat_spaces()
        if not self.parse_char(c, "("):
            raise _Fail
        lens = Lens("enum")
        info.lens = lens
        last = 0
        while True:
            c.eat_spaces()
            if c.ch() in ("\0", ")"):
                self.parse_char(c, ")")
                return info
            if lens.entries:
                self.parse_char(c, ",")
            c.eat_spaces()
            key = self.parse_ident(c)
            if c.ch() == "=":
                c.i += 1
                c.eat_spaces()
                last = self.parse_int(c)
            lens.entries.append((key, last))
            last += 1

    def parse_nonpointer_type(self, c: _Line, pack: list[int] | None, param_num: int,
                              in_typedef: list[str] | None) -> Type:
        kind = self.parse_arg_type(c)
        if kind is None:
            simple = self.parse_alias(c, pack, param_num)
            if simple is None:
                simple = self.parse_typedef_name(c)
            if simple is not None:
                return simple
            self.error(f"unknown type around '{c.rest()}'")
            raise _Fail
        if kind == T.ARRAY:
            return self.parse_array(c)
        if kind == T.STRUCT:
            return self.parse_struct(c, in_typedef)
        return self.simple[kind]

    def parse_type(self, c: _Line, pack: list[int] | None, param_num: int, in_typedef: list[str] | None) -> Type:
        info = self.parse_nonpointer_type(c, pack, param_num, in_typedef)
        while True:
            c.eat_spaces()
            if c.ch() != "*":
                return info
            info = Type(T.POINTER, target=info)
            c.i += 1

    def parse_lens(self, c: _Line, pack: list[int] | None, param_num: int, in_typedef: list[str] | None) -> Type:
        lens: Lens | None = None
        for kwd, lns in T.NAMED_LENSES:
            if c.startswith(kwd) and not _isalnum(c.ch(len(kwd))):
                c.i += len(kwd)
                lens = lns
                break
        has_args = True
        if lens is not None:
            c.eat_spaces()
            if lens is T.OCTAL and c.ch() != "(":
                has_args = False
                info = self.simple[T.INT]
            elif not self.parse_char(c, "("):
                self.error("expected type argument after the lens")
                raise _Fail
        if has_args:
            c.eat_spaces()
            info = self.parse_type(c, pack, param_num, in_typedef)
            if lens is not None:
                c.eat_spaces()
                self.parse_char(c, ")")
        if lens is not None:
            info = info.copy()
            info.lens = lens
        return info

    def hidden_int(self) -> Type:
        if self._hidden_int is None:
            self._hidden_int = Type(T.INT, lens=T.HIDE)
        return self._hidden_int

    def process_line(self, buf: str) -> Function | None:
        self.line_no += 1
        c = _Line(buf)
        c.eat_spaces()
        if c.ch() in (";", "\0", "\n"):
            return None
        try:
            if c.startswith("typedef"):
                self.parse_typedef(c)
                return None
            return self._function(c)
        except (_Fail, RecursionError):  # (a line holds at most ~200 nested types: never in practice)
            return None

    def _function(self, c: _Line) -> Function | None:
        ret = self.parse_lens(c, None, 0, None)
        c.eat_spaces()
        open_at = _start_of_arg_sig(c.s, c.i)
        if open_at is None:
            self.error("syntax error")
            return None
        fun = Function(c.s[c.i:open_at], ret)
        c = _Line(c.s[:open_at] + "\0" + c.s[open_at + 1:], open_at + 1)  # *tmp = '\0'
        pack: list[int] = []
        have_stop = False
        while True:
            c.eat_spaces()
            if c.ch() == ")":
                break
            if c.ch() == "\0":  # (ltrace reads before the buffer here)
                self.error('syntax error around ""')
                return None
            if c.ch() == "+":
                if not have_stop:
                    fun.first_out = len(fun.params)
                    have_stop = True
                c.i += 1
            try:
                ptype = self.parse_lens(c, pack, len(fun.params), None)
            except _Fail:
                self.error("unknown argument type")
                return None
            fun.params.append(ptype)
            c.eat_spaces()
            if c.ch() == ",":
                c.i += 1
                continue
            if c.ch() == ")":
                continue
            rest = c.rest()
            if rest.endswith("\n"):
                rest = rest[:-1]
            self.error(f'syntax error around "{rest}"')
            return None
        if len(fun.params) == 1 and fun.params[0].kind == T.VOID and fun.first_out is None:
            fun.params = []
        else:
            for i, p in enumerate(fun.params):
                if p.kind == T.VOID:
                    self.warning("void parameter assumed to be 'hide(int)'")
                    fun.params[i] = self.hidden_int()
        if pack:
            fun.pack = pack[0]
        return fun


def _start_of_arg_sig(s: str, start: int) -> int | None:
    """The ``(`` matching the line's last ``)`` (searching back from the end), as ltrace finds it."""
    if start >= len(s):
        return None
    pos = len(s)
    stacked = 0
    while True:
        pos -= 1
        if pos < start:
            return None
        while pos > start and s[pos] not in "()":
            pos -= 1
        if s[pos] == ")":
            stacked += 1
        elif s[pos] == "(":
            stacked -= 1
        else:
            return None
        if stacked <= 0:
            break
    return pos if stacked == 0 else None


def _fgets_lines(text: str) -> list[str]:
    """The pieces ``fgets(buf, 1024, f)`` returns, each cut at its first NUL (C string functions stop there)."""
    out = []
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if k < len(lines) - 1:
            line += "\n"
        for at in range(0, len(line), LINE_BUFFER - 1):
            out.append(line[at:at + LINE_BUFFER - 1].split("\0", 1)[0])
    return out
