"""``@dataclass`` for the modules on pytrace's start-up path, without the standard module's cost.

``dataclasses`` imports ``inspect`` (and with it ``ast``, ``dis``, ``tokenize``,
``copy``...) and spends about half a millisecond per decorated class: it
``exec``s three to five generated methods and, for classes without a
docstring, computes an ``inspect.signature``.  pytrace defines about twenty
such classes before it traces anything, which made the standard module the
largest single item of ``pytrace true``'s start-up (measured in
benchmarks/PROFILE.md).  This module implements the subset pytrace uses, with
the same semantics, in one ``exec`` per class:

* ``@dataclass``, ``@dataclass(frozen=..., slots=..., eq=...)``;
* fields from class annotations (``ClassVar`` ones skipped), in order, bases first;
* defaults, ``field(default=...)``, ``field(default_factory=...)``, ``field(repr=False)``;
* ``__init__`` (positional or keyword, calling ``__post_init__`` if defined; the first
  instances bind their arguments without compiling anything, the ``COMPILE_AT``-th compiles it),
  ``__repr__``, ``__eq__``, ``__match_args__``; with eq, ``__hash__`` is
  None unless frozen (then it hashes the fields), as dataclasses does;
* frozen: assignment raises FrozenInstanceError (an AttributeError);
* slots: the class is rebuilt with ``__slots__`` for its own fields.

Methods the class body defines itself are never replaced.  Everything else of
the standard module (``fields()``, ``replace()``, ``asdict()``, ``order=``,
``kw_only``, ``InitVar``) is deliberately absent: modules that need it import
``dataclasses``.
"""

from __future__ import annotations

from collections.abc import Callable

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (~2 ms of every start-up)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

MISSING: Any = type("MISSING", (), {"__repr__": lambda self: "MISSING"})()
#: The construction of a record class (counting failed calls) that compiles its ``__init__`` (``_make``'s ``init``).
COMPILE_AT = 16


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen record."""


class Field:
    """What ``field()`` returns: a default or a default factory for one field."""

    __slots__ = ("default", "default_factory", "repr")

    def __init__(self, default: Any, default_factory: Any, repr: bool = True) -> None:  # noqa: A002
        self.default = default
        self.default_factory = default_factory
        self.repr = repr


def field(*, default: Any = MISSING, default_factory: Callable[[], Any] | Any = MISSING, repr: bool = True) -> Any:  # noqa: A002
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, repr)


def dataclass(
    cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False, eq: bool = True
) -> Any:
    def wrap(c: type[T]) -> type[T]:
        return _make(c, frozen=frozen, slots=slots, eq=eq)

    return wrap if cls is None else wrap(cls)


def _is_classvar(annotation: object) -> bool:
    text = annotation if isinstance(annotation, str) else repr(annotation)
    return text.startswith(("ClassVar", "typing.ClassVar", "t.ClassVar"))


def _make(cls: type[T], *, frozen: bool, slots: bool, eq: bool) -> type[T]:
    fields: dict[str, tuple[Any, Any]] = {}
    hidden: set[str] = set()  # field(repr=False)
    for base in reversed(cls.__mro__[1:]):
        fields.update(getattr(base, "__record_fields__", {}))
        hidden.update(getattr(base, "__record_hidden__", ()))
    own: list[str] = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, Field):
            fields[name] = (value.default, value.default_factory)
            if not value.repr:
                hidden.add(name)
            if value.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, value.default)
        else:
            fields[name] = (value, MISSING)
        own.append(name)
    names = tuple(fields)
    shown = tuple(n for n in names if n not in hidden)

    namespace: dict[str, Any] = {"MISSING": MISSING, "_setattr": object.__setattr__}
    params: list[str] = []
    body: list[str] = []
    seen_default = False
    for i, name in enumerate(names):
        default, factory = fields[name]
        if factory is not MISSING:
            namespace[f"_factory{i}"] = factory
            params.append(f"{name}=MISSING")
            value = f"_factory{i}() if {name} is MISSING else {name}"
            seen_default = True
        elif default is not MISSING:
            namespace[f"_default{i}"] = default
            params.append(f"{name}=_default{i}")
            value = name
            seen_default = True
        else:
            if seen_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            params.append(name)
            value = name
        body.append(f"    _setattr(self, {name!r}, {value})" if frozen else f"    self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) if body else "    pass")
    owner = [cls]  # the class frozen instances check against (rebuilt below for slots)
    made = [0]  # calls of ``init`` (failed ones too)
    assign = object.__setattr__ if frozen else setattr
    post_init = hasattr(cls, "__post_init__")
    qualname = cls.__qualname__

    def bind(self: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """What the compiled ``__init__`` does, interpreted: the arguments matched to the fields in
        order, defaults and factories for the rest, the same TypeErrors for bad calls."""
        if len(args) > len(names):
            raise TypeError(f"{qualname}.__init__() takes {len(names) + 1} positional arguments "
                            f"but {len(args) + 1} were given")
        values = dict(zip(names, args, strict=False))  # fewer args than fields: the rest below
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{qualname}.__init__() got multiple values for argument {key!r}")
            values[key] = value
        for name in names:
            if name in values:
                value = values[name]
            else:
                default, factory = fields[name]
                if factory is not MISSING:
                    value = factory()
                elif default is not MISSING:
                    value = default
                else:
                    raise TypeError(f"{qualname}.__init__() missing 1 required positional argument: {name!r}")
            assign(self, name, value)
        if post_init:
            self.__post_init__()

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        """The first instances bind their arguments in ``bind``; the COMPILE_AT-th compiles the real
        ``__init__`` and puts it on the class.

        Compiling costs 0.1-0.3 ms a class (more with many fields), and most records of a run are
        made once or never (the options of one run, of features not asked for): for those the
        interpreted binding (a few microseconds) is far cheaper.  A record made again and again
        (events, table rows, decoders) gets the compiled one after its first few.
        """
        made[0] += 1
        if made[0] < COMPILE_AT:
            bind(self, args, kwargs)
            return
        exec(source, namespace)  # noqa: S102 -- the same technique as dataclasses, on names we built
        real = namespace["__init__"]
        real.__qualname__ = f"{cls.__qualname__}.__init__"
        if owner[0].__dict__.get("__init__") is init:
            type.__setattr__(owner[0], "__init__", real)
        real(self, *args, **kwargs)


    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in shown)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self: Any, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in names)

    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, n) for n in names))

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is owner[0] or name in fields:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        object.__setattr__(self, name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner[0] or name in fields:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        object.__delattr__(self, name)

    def add(key: str, value: Any, replace: bool = False) -> None:
        """Like dataclasses: never replace what the class body defines."""
        if replace or key not in cls.__dict__:
            if callable(value):
                value.__qualname__ = f"{cls.__qualname__}.{key}"
            setattr(cls, key, value)

    add("__init__", init)
    add("__repr__", __repr__)
    add("__match_args__", names)
    if eq:
        add("__eq__", __eq__)
        class_hash = cls.__dict__.get("__hash__", MISSING)
        explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))
        if not explicit_hash:  # dataclasses' table: eq without frozen makes instances unhashable
            add("__hash__", __hash__ if frozen else None, replace=True)
    if frozen:
        add("__setattr__", __setattr__)
        add("__delattr__", __delattr__)
    cls.__record_fields__ = fields  # type: ignore[attr-defined]
    cls.__record_hidden__ = frozenset(hidden)  # type: ignore[attr-defined]
    if not slots:
        return cls
    cls_dict = dict(cls.__dict__)
    cls_dict["__slots__"] = tuple(own)
    for name in own:
        cls_dict.pop(name, None)
    cls_dict.pop("__dict__", None)
    cls_dict.pop("__weakref__", None)
    new_cls = type(cls)(cls.__name__, cls.__bases__, cls_dict)
    new_cls.__qualname__ = cls.__qualname__
    owner[0] = new_cls
    return new_cls
