"""Supersession on the public feed, against a real nats-server and the floor's services as
processes: each message that replaces an earlier one of its round names that message's
``source_seq`` in ``supersedes`` (docs/feed.md "Supersession").

Round 1 is corrected twice after rounds 2 and 3 were played and paid (GLI-19 §4.18.4, in
manual mode), round 3 is invalidated after it was paid (000 §8.4; only the current round may
be, the lifecycle refuses an older one): every later message points
at the one it replaces, the rounds' first results replace nothing, and following the chain
from any message leads to its round's first result.
"""

from __future__ import annotations

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.results import ResultStatus
from tests.integration.conftest import Floor
from tests.integration.test_results_feed import (
    assert_once_each,
    play,
    sources,
    wait_published,
)
from tests.integration.test_settlement import correct, invalidate, open_table


async def test_earlier_round_corrections_and_a_paid_round_invalidated_name_what_they_supersede(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    for n, dice in ((1, (5, 5, 4)), (2, (1, 2, 3)), (3, (6, 6, 6))):
        await play(floor, nc, store, table_id, n, dice)  # each completed: paid
    await correct(floor, nc, table_id, 1, (6, 5, 4))  # two rounds later
    await correct(floor, nc, table_id, 1, (6, 5, 3))  # and corrected again
    await invalidate(floor, nc, table_id, 3)  # round 3 was paid (completed) already
    expected = await sources(store, table_id)
    got = await wait_published(nc, table_id, len(expected))
    assert_once_each(got, expected)
    by_seq = {r.source_seq: r for _, r in got}
    results_of = {r.round: r.source_seq for _, r in got if r.status is ResultStatus.RESULT}
    summary = [(r.round, r.status, r.supersedes) for _, r in got]
    first_correction = got[3][1].source_seq
    assert summary == [
        (1, ResultStatus.RESULT, None),
        (2, ResultStatus.RESULT, None),
        (3, ResultStatus.RESULT, None),
        (1, ResultStatus.CORRECTION, results_of[1]),
        (1, ResultStatus.CORRECTION, first_correction),
        (3, ResultStatus.INVALIDATED, results_of[3]),
    ]
    for _, message in got:  # every chain ends at its round's first result, in order
        seq = message.source_seq
        while (previous := by_seq[seq].supersedes) is not None:
            assert previous < seq and by_seq[previous].round == message.round
            seq = previous
        assert seq == results_of[message.round]
