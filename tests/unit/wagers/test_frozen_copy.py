"""sicbo.wagers.frozen.replace gives what dataclasses.replace gives (issue 16 item 2: the copy
is now a function generated per class)."""

from __future__ import annotations

import dataclasses

import pytest

from sicbo.wagers.frozen import replace
from sicbo.wagers.pmap import PMap
from sicbo.wagers.state import WagerState


@dataclasses.dataclass(frozen=True)
class Plain:  # not slotted: fields live in the instance's __dict__
    x: int
    y: str = "a"


@dataclasses.dataclass(frozen=True, slots=True)
class Slotted:
    x: int
    y: str = "a"
    obj: int = 0  # a field named like the generated copy's own parameter


@dataclasses.dataclass(frozen=True, slots=True)
class Later:
    x: int

    def __post_init__(self) -> None:
        pass


def test_the_wager_state_is_copied_with_its_changes() -> None:
    state = WagerState(table="t1", placed=2, excluded=frozenset({"p1"}))
    slips: PMap[str, int] = PMap()
    copy = replace(state, placed=5, slips=slips)
    assert copy == dataclasses.replace(state, placed=5, slips=slips)
    assert copy is not state
    assert state.placed == 2  # the original is unchanged
    assert replace(state) == state


@pytest.mark.parametrize("cls", [Plain, Slotted])
def test_every_field_is_copied_and_changed_as_dataclasses_does(cls: type) -> None:
    obj = cls(1, "b")
    assert replace(obj, y="c") == dataclasses.replace(obj, y="c")
    assert replace(obj, x=9, y="d") == cls(9, "d")
    assert replace(obj) == obj
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(obj).x = 3  # the copy is as frozen as the original


def test_a_slotted_field_named_obj_is_copied() -> None:
    assert replace(Slotted(1, obj=7), x=2) == Slotted(2, obj=7)


def test_an_unknown_field_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="Slotted has no field nope"):
        replace(Slotted(1), nope=2)


def test_a_class_with_post_init_is_refused() -> None:
    with pytest.raises(TypeError, match="cannot be copied slot by slot"):
        replace(Later(1), x=2)
