"""A decider whose aggregate is not a table's (a player's account): the shell reads, expects
and appends on the keyed log's own stream and subjects."""

import dataclasses
from datetime import UTC, datetime

import pytest

from sicbo.accounts.service import SPEC
from sicbo.dice.service import SPEC as DICE
from sicbo_contracts.accounts import AccountOpened
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import ACCOUNT_STREAM, EVENT_STREAM, Aggregate


def test_an_accounts_filters_and_subjects_are_its_own() -> None:
    assert SPEC.stream == ACCOUNT_STREAM and DICE.stream == EVENT_STREAM
    assert SPEC.read_filter("alice") == SPEC.expect_filter("alice") == "sicbo.acct.alice.>"
    opened = AccountOpened(
        player="alice",
        actor=Actor(id="cashier", role=Role.OPERATOR),
        at=datetime(2026, 12, 1, tzinfo=UTC),
        currency="EUR",
    )
    assert SPEC.subject_of(opened) == "sicbo.acct.alice.account-opened-v1"
    assert DICE.read_filter("T1") == "sicbo.evt.T1.lc.>"


def test_a_spec_names_a_table_aggregate_or_a_keyed_log_not_both_nor_neither() -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(SPEC, aggregate=Aggregate.BETS)
    with pytest.raises(ValueError):
        dataclasses.replace(DICE, aggregate=None)
