"""Every subject is built and parsed by the contract package: round trips and refusals."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.subjects import (
    Aggregate,
    CommandSubject,
    EventSubject,
    command,
    commands_of,
    event,
    events_of_type,
    history_query,
    inbox,
    is_inbox,
    parse_command_subject,
    parse_event_subject,
    round_filter,
    subject_matches,
    table_filter,
    table_of,
    token,
)

TABLES = st.from_regex(r"[A-Za-z0-9_-]{1,32}", fullmatch=True)
TOKENS = st.from_regex(r"[a-z][a-z0-9-]{0,30}", fullmatch=True)


@given(TABLES, st.sampled_from(Aggregate), st.integers(0, 10**9), TOKENS)
def test_an_event_subject_parses_back_to_its_parts(
    table: str, aggregate: Aggregate, round_no: int, event_type: str
) -> None:
    subject = event(table, aggregate, round_no, event_type)
    assert parse_event_subject(subject) == EventSubject(table, aggregate, round_no, event_type)
    assert subject_matches(subject, table_filter(table))
    assert subject_matches(subject, round_filter(table, aggregate, round_no))
    assert table_of(subject) == table


@pytest.mark.parametrize(
    "subject",
    [
        "sicbo.cmd.T1.lifecycle.dealer",
        "sicbo.evt.T1.lc.x.round-started-v1",  # a round that is no number
        "sicbo.evt.T1.nope.1.round-started-v1",  # an aggregate the floor does not have
        "sicbo.evt.T1.lc.1",
        "sicbo.evt.T1.lc.1.a.b",
        "other.evt.T1.lc.1.round-started-v1",
        "",
    ],
)
def test_anything_else_is_not_an_event_subject(subject: str) -> None:
    assert parse_event_subject(subject) is None


def test_a_tag_becomes_a_token_without_dots() -> None:
    assert token(RoundStarted) == "round-started-v1" == token("round.started.v1")
    assert events_of_type(RoundStarted, Aggregate.LIFECYCLE, table="T1", round_no=2) == (
        "sicbo.evt.T1.lc.2.round-started-v1"
    )
    assert events_of_type(RoundStarted, Aggregate.LIFECYCLE) == "sicbo.evt.*.lc.*.round-started-v1"


def test_the_table_of_commands_and_queries() -> None:
    assert table_of(command("T9", "wagers", "player")) == "T9"
    assert table_of(history_query("T9")) == "T9"
    assert table_of("sicbo") is None and table_of("nats.x.y") is None


@pytest.mark.parametrize(
    ("subject", "pattern", "matches"),
    [
        ("a.b.c", "a.*.c", True),
        ("a.b.c", "a.>", True),
        ("a", "a.>", False),
        ("a.b", "a.*.c", False),
        ("a.b.c.d", "a.*.c", False),
    ],
)
def test_nats_wildcards(subject: str, pattern: str, matches: bool) -> None:
    assert subject_matches(subject, pattern) is matches


SENDER_TOKENS = st.sampled_from(["dealer", "supervisor", "player", "settlement", "reader"])


@given(TABLES, st.sampled_from(["lifecycle", "dice", "wagers"]), SENDER_TOKENS)
def test_a_command_subject_parses_back_to_its_parts(table: str, service: str, sender: str) -> None:
    subject = command(table, service, sender)
    assert parse_command_subject(subject) == CommandSubject(table, service, sender)
    assert subject_matches(subject, commands_of(service))  # the service's queue subscription
    assert subject_matches(subject, commands_of(service, sender))  # the sender's permission
    assert not subject_matches(subject, commands_of(service, "operator" + sender))
    assert table_of(subject) == table


@pytest.mark.parametrize(
    "subject",
    [
        "sicbo.cmd.T1.lifecycle",  # no sender
        "sicbo.cmd.T1.lifecycle.dealer.x",
        "sicbo.cmd..lifecycle.dealer",
        "sicbo.evt.T1.lifecycle.dealer",
        "",
    ],
)
def test_anything_else_is_not_a_command_subject(subject: str) -> None:
    assert parse_command_subject(subject) is None


@pytest.mark.parametrize(
    ("table", "service", "sender"),
    [("T.1", "dice", "dealer"), ("T1", "dice", "*"), ("T1", "dice", ">"), ("T1", "", "dealer")],
)
def test_a_token_that_would_split_or_widen_a_command_subject_is_refused(
    table: str, service: str, sender: str
) -> None:
    with pytest.raises(ValueError, match="cannot be a subject token"):
        command(table, service, sender)


def test_a_users_inbox() -> None:
    assert inbox("dealer") == "_INBOX.dealer"
    with pytest.raises(ValueError):
        inbox("a.b")


@pytest.mark.parametrize(
    "reply", ["_INBOX.abc", "_INBOX.dealer.x1", "_INBOX.gateway.a.b", inbox("operator") + ".z"]
)
def test_an_inbox_is_answered(reply: str) -> None:
    assert is_inbox(reply)


@pytest.mark.parametrize(
    "reply",
    [
        "sicbo.evt.T.settle.1.settle-round-settled-v1",  # a stream subject (issue 25)
        "sicbo.results.T",
        "sicbo.acct.p1.account-funds-deposited-v1",
        "$JS.API.CONSUMER.DELETE.SICBO.settlement",
        "$KV.sicbo-timers.T",
        "_INBOX",
        "_INBOX.",
        "_INBOX..a",
        "_INBOX.a.",
        "_INBOX.*",
        "_INBOX.>",
        "_INBOXES.a",
        "x._INBOX.a",
        "",
    ],
)
def test_nothing_else_is_an_inbox(reply: str) -> None:
    assert not is_inbox(reply)
