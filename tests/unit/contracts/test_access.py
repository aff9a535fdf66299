"""Who may send what, by sender (sicbo_contracts.access.SENDERS): the table the shell checks
every command against, held against the deciders (DESIGN.md Roles: authority comes from the
credential). The terminal roles' rows are held cell by cell in tests/unit/gateway/test_access.py.
"""

import pytest

from sicbo_contracts.access import (
    HUMAN_SENDERS,
    SENDERS,
    SERVICE_ACTIONS,
    TERMINAL_ACTIONS,
    ServiceAccount,
    refusal,
    sender_for,
    senders_of,
)
from sicbo_contracts.base import Role, with_article
from sicbo_contracts.routing import SERVICE_OF_TAG
from tests.support.examples import decider_permits

TAGS = sorted(SERVICE_OF_TAG)


def test_every_sender_sends_real_command_types_as_one_role() -> None:
    for name, sender in SENDERS.items():
        assert sender.name == name
        assert sender.actions, name
        assert sender.actions <= set(SERVICE_OF_TAG), sender.actions - set(SERVICE_OF_TAG)
    assert {SENDERS[r.value].actions for r in TERMINAL_ACTIONS} == set(TERMINAL_ACTIONS.values())
    assert set(HUMAN_SENDERS) == {r.value for r in (*TERMINAL_ACTIONS, Role.PLAYER)}


@pytest.mark.parametrize("tag", TAGS)
def test_a_player_may_send_exactly_what_the_wager_intake_takes_from_a_player(tag: str) -> None:
    assert (tag in SENDERS["player"].actions) is decider_permits(tag, Role.PLAYER)[0]


@pytest.mark.parametrize("tag", TAGS)
def test_the_service_accounts_together_send_exactly_what_the_deciders_take_from_a_service(
    tag: str,
) -> None:
    by_services = [a for a, actions in SERVICE_ACTIONS.items() if tag in actions]
    assert bool(by_services) is decider_permits(tag, Role.SERVICE)[0], (tag, by_services)
    assert len(by_services) <= 1, f"{tag}: one service account sends it, not {by_services}"


@pytest.mark.parametrize(
    ("account", "tag"),
    [
        (ServiceAccount.SETTLEMENT, "round.complete.v1"),  # 002 art. 4
        (ServiceAccount.ILLUMINATION, "table.report-malfunction.v1"),  # 000 §7.6-7.7
        (ServiceAccount.READER, "dice.read.v1"),
        (ServiceAccount.COUNTDOWN, "round.close-betting.v1"),  # 004 "Cara Bermain"
    ],
)
def test_each_service_only_command_has_its_one_service_account(
    account: ServiceAccount, tag: str
) -> None:
    assert SERVICE_ACTIONS[account] == {tag}
    assert sender_for(Role.SERVICE, tag) == account.value
    others = [a for a in ServiceAccount if a is not account]
    assert all(refusal(a.value, Role.SERVICE, tag, in_process=True) for a in others)


# ---- refusal: what the shell answers "forbidden" ------------------------------------------------


def test_a_sender_sends_its_own_commands_as_its_own_role() -> None:
    assert refusal("dealer", Role.DEALER, "round.start.v1") is None
    assert refusal("player", Role.PLAYER, "bets.place-slip.v1") is None
    assert refusal("settlement", Role.SERVICE, "round.complete.v1") is None
    assert refusal("illumination", Role.SERVICE, "table.report-malfunction.v1") is None
    assert refusal("reader", Role.SERVICE, "dice.read.v1") is None


@pytest.mark.parametrize("claim", [r for r in Role if r is not Role.DEALER])
def test_a_dealer_claiming_any_other_role_is_refused(claim: Role) -> None:
    why = refusal("dealer", claim, "round.start.v1")
    assert why is not None and f"actor.role {claim.value!r} is not the sender's" in why


@pytest.mark.parametrize("sender", HUMAN_SENDERS)
@pytest.mark.parametrize("tag", sorted(set().union(*SERVICE_ACTIONS.values())))
def test_no_human_sender_sends_a_service_command_as_a_service(sender: str, tag: str) -> None:
    """A fake reader, settlement or countdown on a person's subject (the testers' 13)."""
    assert refusal(sender, Role.SERVICE, tag) is not None


@pytest.mark.parametrize("sender", HUMAN_SENDERS)
@pytest.mark.parametrize("tag", ["round.complete.v1", "dice.read.v1"])
def test_no_person_sends_what_only_a_service_may(sender: str, tag: str) -> None:
    why = refusal(sender, SENDERS[sender].role, tag)
    assert why is not None and f"may not send {tag}" in why


def test_a_sender_may_not_send_another_senders_commands_as_its_own_role() -> None:
    why = refusal("dealer", Role.DEALER, "round.invalidate.v1")  # 000 §8.4: a supervisor's
    assert why == "a dealer may not send round.invalidate.v1 (only: supervisor)"
    assert refusal("settlement", Role.SERVICE, "table.report-malfunction.v1") is not None
    assert refusal("illumination", Role.SERVICE, "round.complete.v1") is not None


@pytest.mark.parametrize("sender", ["croupier", "service", "floor", "*", ""])
def test_an_unknown_sender_is_refused(sender: str) -> None:
    why = refusal(sender, Role.DEALER, "round.start.v1")
    assert why is not None and "nobody sends as" in why


def test_the_countdown_is_sent_in_process_only() -> None:
    tag = "round.close-betting.v1"
    assert refusal("countdown", Role.SERVICE, tag, in_process=True) is None
    why = refusal("countdown", Role.SERVICE, tag)
    assert why is not None and "never over NATS" in why


def test_who_may_send_a_command_type() -> None:
    assert senders_of("table.report-malfunction.v1") == [
        "dealer",
        "supervisor",
        "inspector",
        "illumination",
    ]
    assert senders_of("round.complete.v1") == ["settlement"]
    assert senders_of("round.teleport.v1") == []
    assert sender_for(Role.DEALER, "round.complete.v1") == "dealer"  # refused by the service
    assert sender_for(Role.SERVICE, "round.start.v1") == "service"  # nobody: refused


def test_a_refusal_names_a_sender_with_its_article() -> None:
    """ "an operator", not "a operator" (the roles and senders of the floor)."""
    assert [with_article(n) for n in ("dealer", "operator", "inspector", "service")] == [
        "a dealer",
        "an operator",
        "an inspector",
        "a service",
    ]
