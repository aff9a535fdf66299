"""The terminal's action table (``sicbo.gateway.access``) held against the services' deciders.

For every command type of the three services and every terminal role, the examples of the
command catalogue (tests/support/examples.py: plain dicts, converted as the gateway would
receive them) are decided by the owning service's pure decider. A role may send a command
from a terminal exactly when its decider does not refuse it as ``forbidden`` in some example
state (``require_role``, DESIGN.md "Roles").
"""

import pytest

from sicbo.gateway.operators import TERMINAL_ROLES
from sicbo_contracts.access import TERMINAL_ACTIONS, may_send
from sicbo_contracts.base import Role
from sicbo_contracts.routing import SERVICE_OF_TAG
from tests.support.examples import decider_permits

TERMINAL = sorted(TERMINAL_ROLES)


# ---- the table mirrors the deciders --------------------------------------------------------------

MATRIX = [
    pytest.param(tag, role, id=f"{tag}-{role.value}")
    for tag in sorted(SERVICE_OF_TAG)
    for role in TERMINAL
]


@pytest.mark.parametrize(("tag", "role"), MATRIX)
def test_a_terminal_role_may_send_exactly_what_its_decider_permits(tag: str, role: Role) -> None:
    permitted, reasons = decider_permits(tag, role)
    listed = tag in TERMINAL_ACTIONS[role]
    assert listed == permitted, (
        f"TERMINAL_ACTIONS[{role.value}] {'lists' if listed else 'omits'} {tag}, but the"
        f" {SERVICE_OF_TAG[tag]} decider {'permits' if permitted else 'forbids'} it: {reasons}"
    )
    assert may_send(role, tag) is permitted


def test_the_table_names_only_terminal_roles_and_real_command_types() -> None:
    assert set(TERMINAL_ACTIONS) == set(TERMINAL_ROLES)
    for role, actions in TERMINAL_ACTIONS.items():
        assert actions, role
        assert actions <= set(SERVICE_OF_TAG), actions - set(SERVICE_OF_TAG)


# ---- may_send ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "tag", "expected"),
    [
        (Role.DEALER, "round.open-betting.v1", True),  # 000 §5.1: the dealer calls it
        (Role.SUPERVISOR, "round.open-betting.v1", False),
        (Role.SUPERVISOR, "round.invalidate.v1", True),  # 000 §8.4
        (Role.DEALER, "round.invalidate.v1", False),
        (Role.INSPECTOR, "table.clear-fault.v1", True),  # 000 §7.7
        (Role.SUPERVISOR, "table.clear-fault.v1", False),
        (Role.OPERATOR, "paytable.propose.v1", True),  # 002/2004 art. 8
        (Role.SUPERVISOR, "paytable.propose.v1", False),
        (Role.INSPECTOR, "dice.enter.v1", False),
    ],
)
def test_may_send_by_role(role: Role, tag: str, expected: bool) -> None:
    assert may_send(role, tag) is expected


@pytest.mark.parametrize("role", [Role.PLAYER, Role.SERVICE])
@pytest.mark.parametrize("tag", sorted(SERVICE_OF_TAG))
def test_players_and_service_accounts_send_nothing_from_a_terminal(role: Role, tag: str) -> None:
    """Even what their decider takes from them (a player's slip, the settlement's
    CompleteRound): they never sign in at a terminal."""
    assert may_send(role, tag) is False


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("tag", ["round.start.v2", "round.start", "", "ROUND.START.V1"])
def test_an_unknown_command_type_is_never_sent(role: Role, tag: str) -> None:
    assert may_send(role, tag) is False
