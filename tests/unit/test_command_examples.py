"""The command catalogue (tests/support/examples.py) is complete and adequate for the two tables
held against it (the terminal's actions, the writers of each event type)."""

import pytest

from sicbo_contracts.base import Role, tag_of
from sicbo_contracts.routing import COMMANDS_BY_SERVICE
from tests.support.common import TABLE
from tests.support.example_states import dice_held, seated, slip_carried
from tests.support.examples import EXAMPLES, Example, build, outcome


def test_there_is_an_example_of_every_command_type_of_every_service() -> None:
    tags = {tag_of(cls) for classes in COMMANDS_BY_SERVICE.values() for cls in classes}
    assert {e.tag for e in EXAMPLES} == tags
    assert len(tags) == sum(len(classes) for classes in COMMANDS_BY_SERVICE.values())


def test_the_example_states_are_of_the_examples_table() -> None:
    assert {e.table for e in [*seated(), *dice_held(), *slip_carried()]} == {TABLE}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_each_example_is_a_valid_command_of_its_tag(example: Example) -> None:
    cmd = build(example, Role.DEALER)
    assert tag_of(type(cmd)) == example.tag
    assert type(cmd) in COMMANDS_BY_SERVICE[example.service]


CELLS = [(i, role) for i in range(len(EXAMPLES)) for role in Role]


@pytest.mark.parametrize(
    ("index", "role"), CELLS, ids=[f"{EXAMPLES[i].name}-by-{r.value}" for i, r in CELLS]
)
def test_each_example_state_reaches_the_role_check(index: int, role: Role) -> None:
    """Every role is either accepted or forbidden: no other refusal masks a role check."""
    result = outcome(index, role)
    assert result.code in ("accepted", "forbidden"), result.reason


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[e.name for e in EXAMPLES])
def test_each_example_is_accepted_from_some_role(index: int) -> None:
    assert any(outcome(index, role).accepted for role in Role)
