"""``sicbo_contracts.writers.WRITTEN_BY`` (event type -> the roles it may record) held against
the deciders and the services' own actors, as test_access.py holds TERMINAL_ACTIONS.

Every role is tried on every example of the command catalogue (tests/support/examples.py): it
is accepted (its events are collected) or forbidden. An event type then lists exactly the roles
some accepted command produced it for. The events no command produces (settlement's,
illumination's) list the role of the service's actor.
"""

from typing import get_args

import pytest

from sicbo.illumination.lamps import ILLUMINATION_ACTOR
from sicbo.lifecycle.countdown import COUNTDOWN_ACTOR
from sicbo.settlement.settler import SETTLEMENT_ACTOR
from sicbo_contracts.accounts import AccountEvent, GameEntry
from sicbo_contracts.base import Role, tag_of
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.wagers import WagerEvent
from sicbo_contracts.writers import WRITTEN_BY, may_write
from tests.support.examples import EXAMPLES, outcome


def produced() -> dict[str, set[Role]]:
    """Event tag -> the roles whose accepted commands produced it, over every example."""
    seen: dict[str, set[Role]] = {}
    for index in range(len(EXAMPLES)):
        for role in Role:
            result = outcome(index, role)
            if result.accepted:
                for e in result.events:
                    seen.setdefault(tag_of(e), set()).add(role)
    return seen


EVENT_TAGS = {
    tag_of(cls)
    for union in (
        LifecycleEvent,
        DiceEvent,
        WagerEvent,
        SettlementEvent,
        IlluminationEvent,
        AccountEvent,
    )
    for cls in get_args(union)
}
#: Appended by a service without a command: settlement and illumination.
SERVICE_EVENTS = {tag_of(c) for c in (*get_args(SettlementEvent), *get_args(IlluminationEvent))}
#: A player account's entries by the game (wager intake, settlement): no cashier command.
GAME_ENTRIES = {tag_of(c) for c in get_args(AccountEvent) if issubclass(c, GameEntry)}


# ---- the examples are complete and adequate ----------------------------------------------------


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[e.name for e in EXAMPLES])
def test_each_example_is_accepted_from_some_role_and_stamped_with_its_actor(index: int) -> None:
    accepted = [
        (role, outcome(index, role).events) for role in Role if outcome(index, role).accepted
    ]
    assert accepted
    for role, events in accepted:
        assert {e.actor.role for e in events} == {role}


# ---- the table mirrors the deciders and the services --------------------------------------------


def test_every_event_type_is_listed_once() -> None:
    assert set(WRITTEN_BY) == EVENT_TAGS
    assert all(WRITTEN_BY.values())


@pytest.mark.parametrize("tag", sorted(EVENT_TAGS - SERVICE_EVENTS - GAME_ENTRIES))
def test_an_event_lists_exactly_the_roles_whose_commands_produce_it(tag: str) -> None:
    assert WRITTEN_BY[tag] == produced().get(tag, set()), tag


@pytest.mark.parametrize("tag", sorted(GAME_ENTRIES))
def test_the_games_account_entries_are_written_by_services_only(tag: str) -> None:
    assert WRITTEN_BY[tag] == {Role.SERVICE}


@pytest.mark.parametrize("tag", sorted(SERVICE_EVENTS))
def test_settlement_and_illumination_events_list_their_services_role(tag: str) -> None:
    writer = SETTLEMENT_ACTOR if tag.startswith("settle.") else ILLUMINATION_ACTOR
    assert WRITTEN_BY[tag] == {writer.role} == {Role.SERVICE}


def test_the_services_that_send_commands_act_as_the_service_role() -> None:
    """The countdown closes betting, settlement completes rounds, illumination reports faults:
    as the service role, which the table lists for the events of those commands."""
    assert {COUNTDOWN_ACTOR.role, SETTLEMENT_ACTOR.role, ILLUMINATION_ACTOR.role} == {Role.SERVICE}
    for tag in ("round.betting-closed.v1", "round.completed.v1", "table.suspended.v1"):
        assert may_write(Role.SERVICE, tag)


@pytest.mark.parametrize(
    ("role", "tag", "expected"),
    [
        (Role.PLAYER, "bets.slip-placed.v1", True),  # 000 §3.10-3.11
        (Role.SERVICE, "bets.slip-placed.v1", False),
        (Role.DEALER, "round.completed.v1", False),  # 002 art. 4: settlement completes
        (Role.DEALER, "dice.result-corrected.v1", False),  # GLI-19 §4.18.4: a supervisor
        (Role.SUPERVISOR, "settle.round-settled.v1", False),
        (Role.DEALER, "round.started.v2", False),  # an unknown type is written by no one
    ],
)
def test_may_write(role: Role, tag: str, expected: bool) -> None:
    assert may_write(role, tag) is expected
