"""The players' accounts contracts: the conventions of every contract (frozen, keyword-only,
versioned tags; commands refuse unknown fields, events accept them), money in whole minor
units of at least 1, ISO 4217 currencies, account ids that are one subject token."""

import inspect
from typing import Any, get_args

import msgspec
import pytest

from sicbo_contracts.accounts import (
    AccountCommand,
    AccountEvent,
    FundsDeposited,
    OpenAccount,
    StakeDebited,
)
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import (
    account_event,
    account_filter,
    account_subject_of,
    command,
    parse_account_subject,
    parse_command_subject,
    round_entries,
    subject_matches,
)

MESSAGES = [*get_args(AccountCommand), *get_args(AccountEvent)]
HEAD = {"command_id": "c-1", "player": "alice", "actor": {"id": "cashier", "role": "operator"}}


@pytest.mark.parametrize("cls", MESSAGES, ids=lambda c: c.__name__)
def test_frozen_keyword_only_with_a_versioned_tag(cls: Any) -> None:
    config = cls.__struct_config__
    assert config.frozen and config.tag.startswith("account.") and config.tag.endswith(".v1")
    parameters = inspect.signature(cls).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    assert config.forbid_unknown_fields is (cls in get_args(AccountCommand))


def test_an_event_accepts_fields_it_does_not_know_and_records_who_and_when() -> None:
    raw = {
        "type": "account.funds-deposited.v1",
        "player": "alice",
        "actor": {"id": "cashier", "role": "operator"},
        "at": "2026-12-01T12:00:00Z",
        "currency": "EUR",
        "amount": 5,
        "balance": 5,
        "later": "a field of a newer version",
    }
    event = msgspec.convert(raw, AccountEvent)
    assert isinstance(event, FundsDeposited) and event.balance == 5


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"amount": 0}, "$.amount"),
        ({"amount": -1}, "$.amount"),
        ({"amount": 1.5}, "$.amount"),
        ({"amount": "5"}, "$.amount"),
        ({"currency": "eur"}, "$.currency"),
        ({"currency": "EURO"}, "$.currency"),
        ({"player": "a.b"}, "$.player"),  # a dot would split the account's subject
        ({"player": ""}, "$.player"),
    ],
)
def test_a_deposit_is_whole_minor_units_in_an_iso_currency_of_a_subject_safe_account(
    fields: dict[str, Any], where: str
) -> None:
    body = {"type": "account.deposit.v1", **HEAD, "amount": 100, "currency": "EUR", **fields}
    with pytest.raises(msgspec.ValidationError, match=rf"at `\{where}`"):
        msgspec.json.decode(msgspec.json.encode(body), type=AccountCommand)


def test_a_command_refuses_a_table_an_account_has_none() -> None:
    body = {"type": "account.open.v1", **HEAD, "currency": "EUR", "table": "T1"}
    with pytest.raises(msgspec.ValidationError, match="unknown field `table`"):
        msgspec.json.decode(msgspec.json.encode(body), type=AccountCommand)


def test_an_accounts_subjects_and_its_commands_key() -> None:
    cashier = Actor(id="cashier", role=Role.OPERATOR)
    opened = OpenAccount(command_id="c", player="op1:alice@x", actor=cashier, currency="EUR")
    assert opened.key == "op1:alice@x"
    subject = account_event("op1:alice@x", "account.opened.v1")
    assert subject == "sicbo.acct.op1:alice@x.account-opened-v1"
    assert subject_matches(subject, account_filter("op1:alice@x"))
    assert not subject_matches(subject, account_filter("op1:alice"))
    parsed = parse_account_subject(subject)
    assert parsed is not None and parsed.player == "op1:alice@x"
    assert parse_account_subject("sicbo.evt.T1.lc.0.table-opened-v1") is None
    cmd = parse_command_subject(command(opened.key, "accounts", "operator"))
    assert cmd is not None and (cmd.table, cmd.service, cmd.sender) == (
        "op1:alice@x",
        "accounts",
        "operator",
    )
    with pytest.raises(ValueError):
        account_filter("a.b")


def test_a_game_entry_is_filed_under_its_tables_round() -> None:
    """(contracts 1.2.0) so one filter holds a round's debits across every account, and the
    account's own filter still holds every entry of it."""
    debit = StakeDebited(
        player="op1:alice",
        actor=Actor(id="wagers", role=Role.SERVICE),
        at="2026-12-01T00:00:00Z",  # type: ignore[arg-type]
        currency="EUR",
        balance=0,
        table="T1",
        round=3,
        slip_id="s-1",
        key="debit:T1:3:s-1:v1",
        amount=100,
    )
    subject = account_subject_of(debit)
    assert subject == "sicbo.acct.op1:alice.account-stake-debited-v1.T1.3"
    assert parse_account_subject(subject) == ("op1:alice", "account-stake-debited-v1", "T1", 3)
    assert subject_matches(subject, account_filter("op1:alice"))
    assert subject_matches(subject, round_entries(StakeDebited, "T1", 3))
    for other in (round_entries(StakeDebited, "T1", 30), round_entries(StakeDebited, "T10", 3)):
        assert not subject_matches(subject, other)
    assert parse_account_subject("sicbo.acct.alice.account-stake-debited-v1.T1.x") is None
    assert parse_account_subject("sicbo.acct.alice.account-stake-debited-v1.T1") is None
    cashier = account_subject_of(
        FundsDeposited(
            player="alice",
            actor=Actor(id="cashier", role=Role.OPERATOR),
            at="2026-12-01T00:00:00Z",  # type: ignore[arg-type]
            currency="EUR",
            balance=5,
            amount=5,
        )
    )
    assert cashier == "sicbo.acct.alice.account-funds-deposited-v1"
