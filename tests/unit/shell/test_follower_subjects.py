"""A read model folds only events that name the table and round of the subject they are stored
on: a forged or misfiled entry (another table's event, another round's) is skipped, so it
cannot move a table's state (``sicbo replay verify`` reports it as a finding)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from sicbo.shell.follower import Follower
from sicbo_contracts.subjects import on_its_own_subject
from tests.support.stream import FakeStore, Stored, list_follower


class Started(msgspec.Struct, frozen=True, tag="test.started.v1", tag_field="type"):
    table: str
    round: int


class Noted(msgspec.Struct, frozen=True, tag="test.noted.v1", tag_field="type"):
    table: str


NOW = datetime(2026, 12, 1, tzinfo=UTC)
_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(Started | Noted)


def stored(seq: int, subject: str, event: Any) -> Stored:
    return Stored(seq, subject, msgspec.json.encode(event), NOW)


def rounds(store: FakeStore) -> Follower[list[int]]:
    return list_follower(store, _decoder, lambda event: getattr(event, "round", 0))


async def test_an_event_naming_another_table_or_round_than_its_subject_is_not_folded() -> None:
    store = FakeStore(
        [
            stored(1, "sicbo.evt.T2.lc.76.test-started-v1", Started(table="T2", round=76)),
            stored(2, "sicbo.evt.T2.lc.77.test-started-v1", Started(table="T2", round=77)),
            # another table's round 1, filed under T2's subject, and a round under another's
            stored(3, "sicbo.evt.T2.lc.1.test-started-v1", Started(table="T1", round=1)),
            stored(4, "sicbo.evt.T2.lc.78.test-started-v1", Started(table="T2", round=1)),
            stored(5, "sicbo.evt.T2.lc.0.test-noted-v1", Noted(table="T2")),
        ]
    )
    followed = await rounds(store).get("T2")
    assert followed.state == [76, 77, 0]
    assert followed.last_seq == 5  # read past: the next read starts after them


@pytest.mark.parametrize(
    ("subject", "event", "own"),
    [
        ("sicbo.evt.T1.lc.3.test-started-v1", Started(table="T1", round=3), True),
        ("sicbo.evt.T1.lc.3.test-started-v1.p1of3", Started(table="T1", round=3), True),
        ("sicbo.evt.T1.lc.0.test-noted-v1", Noted(table="T1"), True),
        ("sicbo.evt.T1.lc.3.test-noted-v1", Noted(table="T1"), False),
        ("sicbo.evt.T1.lc.0.test-started-v1", Started(table="T1", round=3), False),
        ("sicbo.evt.T9.lc.3.test-started-v1", Started(table="T1", round=3), False),
        ("sicbo.acct.p-1.account-deposited-v1", Started(table="T1", round=3), True),
    ],
)
def test_own_subject(subject: str, event: Any, own: bool) -> None:
    assert on_its_own_subject(subject, event) is own
