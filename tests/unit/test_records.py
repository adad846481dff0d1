"""pytrace.records: the start-up-cheap @dataclass behaves as the standard one for what pytrace uses.

Each check defines the same class with both decorators and compares what
instances do: construction (positional, keyword, defaults, factories),
repr, equality and hashing, frozen and slots behaviour, __post_init__,
ClassVar and inherited fields; a record's first instances bind their arguments
without a compiled __init__, later ones with it, and both are checked.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from pytrace import records


def _pair(frozen: bool = False, slots: bool = False, eq: bool = True) -> tuple[type, type]:
    made = []
    for deco in (dataclasses.dataclass, records.dataclass):
        fld = dataclasses.field if deco is dataclasses.dataclass else records.field

        class Sample:
            """A record."""

            kind: ClassVar[str] = "sample"
            pid: int
            name: str = "x"
            items: list[int] = fld(default_factory=list)
            cb: object = fld(default=None)

        made.append(deco(frozen=frozen, slots=slots, eq=eq)(Sample))
    return made[0], made[1]


def _compile(cls: type) -> None:
    """Make enough instances that a record's __init__ is the compiled one from here on."""
    for _ in range(records.COMPILE_AT):
        cls(0)


@pytest.mark.parametrize("compiled", [False, True])
@pytest.mark.parametrize("frozen", [False, True])
@pytest.mark.parametrize("slots", [False, True])
def test_same_behaviour_as_dataclasses(frozen: bool, slots: bool, compiled: bool) -> None:
    """Both ways a record binds its arguments: interpreted (its first instances) and compiled."""
    std, ours = _pair(frozen, slots)
    if compiled:
        _compile(ours)
    for cls in (std, ours):
        a = cls(1)
        b = cls(1, "y", [2], cb=print)
        assert (a.pid, a.name, a.items, a.cb) == (1, "x", [], None)
        assert (b.pid, b.name, b.items, b.cb) == (1, "y", [2], print)
        assert cls(1).items is not cls(1).items  # a fresh list per instance
        assert cls(1) == cls(1) and cls(1) != cls(2) and cls(1) != (1, "x", [], None)
        assert cls.kind == "sample" and cls.__match_args__ == ("pid", "name", "items", "cb")
        assert hasattr(a, "__dict__") != slots
        with pytest.raises(TypeError):
            cls()
        if frozen:
            with pytest.raises(AttributeError):
                a.pid = 2
            assert hash(cls(1, items=None)) == hash(cls(1, items=None))  # type: ignore[arg-type]
        else:
            a.pid = 3
            assert a.pid == 3
            with pytest.raises(TypeError):
                hash(a)
    assert repr(ours(1, "y")).replace("records", "dataclasses") == repr(std(1, "y"))
    assert repr(ours(1)).split("(", 1)[1] == repr(std(1)).split("(", 1)[1]


def test_eq_false_keeps_identity() -> None:
    std, ours = _pair(eq=False)
    for cls in (std, ours):
        a, b = cls(1), cls(1)
        assert a != b and hash(a) != hash(b) and {a: 1}[a] == 1


def test_post_init_inheritance_and_explicit_methods() -> None:
    for deco in (dataclasses.dataclass, records.dataclass):

        class Base:
            a: int
            b: int = 2

        Base = deco(Base)  # noqa: N806

        class Child(Base):
            c: int = 3

            def __post_init__(self) -> None:
                self.total = self.a + self.b + self.c

            def __repr__(self) -> str:
                return "mine"

        Child = deco(Child)  # noqa: N806
        child = Child(1, c=10)
        assert (child.a, child.b, child.c, child.total) == (1, 2, 10, 13)
        assert repr(child) == "mine"


def test_default_order_is_checked() -> None:
    class Bad:
        a: int = 1
        b: int

    with pytest.raises(TypeError):
        records.dataclass(Bad)


@pytest.mark.parametrize("slots", [False, True])
def test_init_is_compiled_after_a_few_instances(slots: bool) -> None:
    """The generated __init__ replaces the class's first-use one at the COMPILE_AT-th instance,
    subclasses' included; before, the same calls bind the same way and fail the same way."""

    @records.dataclass(slots=slots)
    class Rec:
        a: int
        b: int = 2

    class Sub(Rec):  # not a record: inherits whatever __init__ Rec has
        pass

    first = Rec.__init__
    bad_calls = (((), {}), ((1, 2, 3), {}), ((1,), {"c": 3}), ((1,), {"a": 1}))
    for bad_args, bad_kwargs in bad_calls:
        with pytest.raises(TypeError):  # as with dataclasses: missing, too many, unknown, twice
            Sub(*bad_args, **bad_kwargs)
    made = [Sub(1), Rec(1, b=5)]
    assert [(r.a, r.b) for r in made] == [(1, 2), (1, 5)] and Rec.__init__ is first
    while Rec.__init__ is first:
        made.append(Rec(len(made)))
        assert len(made) <= records.COMPILE_AT
    compiled = Rec.__init__
    assert len(bad_calls) + len(made) == records.COMPILE_AT  # calls, the failed ones included
    assert Rec(3, b=4) == Rec(3, 4) and Rec.__init__ is compiled
    assert (Sub(7).a, Sub(7).b) == (7, 2)
    for bad_args, bad_kwargs in bad_calls:
        with pytest.raises(TypeError):
            Sub(*bad_args, **bad_kwargs)
