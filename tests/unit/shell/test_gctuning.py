"""A started service's collector: start-up's objects frozen, the young generation collected
less often (sicbo.shell.gctuning)."""

import gc
from collections.abc import Iterator

import pytest

from sicbo.shell.gctuning import YOUNG_THRESHOLD, settle_heap


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's own collector as it was, afterwards."""
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("collector")
def test_startup_objects_frozen_and_the_young_generation_collected_less_often() -> None:
    _, middle, old = gc.get_threshold()
    settle_heap()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (YOUNG_THRESHOLD, middle, old)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector")
def test_cycles_made_after_it_are_still_collected() -> None:
    settle_heap()

    class Node:
        partner: "Node"

    a, b = Node(), Node()
    a.partner, b.partner = b, a
    made = id(a)
    del a, b
    gc.collect()
    assert made not in {id(o) for o in gc.get_objects() if isinstance(o, Node)}
