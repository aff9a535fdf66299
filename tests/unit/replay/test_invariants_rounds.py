"""Log invariants 4 and 5: no round started before the previous one was settled and completed
(002 art. 4, asked of the lifecycle's own start_round), a round completed only once settled,
and every accepted wager settled exactly once."""

import msgspec

from sicbo.replay.findings import ROUND_ORDER, SETTLEMENT
from sicbo.replay.verify import verify
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.settlement import RoundSettled, WagersSettled
from tests.support.common import DEALER, TABLE, at, default_paytable, event
from tests.support.lifecycle import round_started, table_closed, table_opened
from tests.support.wagers import chips
from tests.unit.replay.forging import Forgery


def test_rounds_started_one_after_the_other_completed_hold_from_the_first() -> None:
    f = Forgery()
    for n in (1, 2, 3):
        f.play(n)
    assert f.findings() == []


def test_a_round_started_before_the_previous_was_completed_is_found_002_art_4() -> None:
    f = Forgery()
    f.play(1, complete=False)  # settled, not completed yet
    early = f.forge(round_started(2, at=at(30)))
    assert f.found() == [(early, ROUND_ORDER)]
    (finding,) = f.findings()
    assert finding.round == 2 and finding.event == "round.started.v1"
    assert "round 1 is not completed" in finding.message and "002 art. 4" in finding.message


def test_a_round_started_before_the_previous_had_an_outcome_is_found_002_art_4() -> None:
    f = Forgery()
    f.log.start(1)
    f.log.slip(1, "ann", chips())
    early = f.forge(round_started(2, at=at(30)))
    assert f.found() == [(early, ROUND_ORDER)]


def test_a_round_out_of_turn_is_found() -> None:
    """Rounds are numbered without gaps or repeats, from round 1."""
    f = Forgery()
    first = f.forge(round_started(2, at=at(1)))  # the first round of a table is round 1
    f2 = Forgery()
    f2.play(1)
    gap = f2.forge(round_started(3, at=at(30)))
    f3 = Forgery()
    f3.play(1)
    again = f3.forge(round_started(1, at=at(30)))
    assert f.found() == [(first, ROUND_ORDER)]
    assert f2.found() == [(gap, ROUND_ORDER)]
    assert f3.found() == [(again, ROUND_ORDER)]
    assert "the next round of T1 is 1" in f.findings()[0].message


def test_numbering_goes_on_across_a_close_and_a_reopening() -> None:
    """The lifecycle's exception: a reopened table goes on from the last round played."""
    f = Forgery()
    f.play(1)
    f.log.add(table_closed(at=at(20)))
    f.log.add(table_opened(at=at(22)))
    f.play(2)
    assert f.findings() == []


def test_a_round_at_a_closed_table_or_tumbled_too_little_is_found() -> None:
    """A round needs the table open and the dice tumbled three times (000 §5.1)."""
    closed = Forgery()
    closed.play(1)
    closed.log.add(table_closed(at=at(20)))
    at_closed = closed.forge(round_started(2, at=at(21)))
    tumbled = Forgery()
    tumbled.play(1)
    once = tumbled.forge(
        event(
            RoundStarted,
            DEALER,
            at=at(23),
            round=2,
            tumbles=1,
            paytable=default_paytable("cca-1992"),
        )
    )
    assert closed.found() == [(at_closed, ROUND_ORDER)]
    assert tumbled.found() == [(once, ROUND_ORDER)]
    assert "was closed" in closed.findings()[0].message
    assert "000 §5.1" in tumbled.findings()[0].message


def test_a_round_at_a_table_of_an_unknown_profile_is_found_not_a_crash() -> None:
    f = Forgery()
    f.log.add(table_closed(at=at(1)))
    opened = table_opened(at=at(2))
    unknown = msgspec.structs.replace(opened.config, profile="x")
    f.forge(msgspec.structs.replace(opened, config=unknown))
    started = f.forge(round_started(1, at=at(3)))
    assert f.found() == [(started, ROUND_ORDER)]
    assert "unknown rule profile 'x'" in f.findings()[0].message


def test_a_round_completed_before_it_was_settled_is_found_002_art_4() -> None:
    f = Forgery()
    f.log.start(1)
    f.log.close(1)
    f.log.confirm(1, (1, 2, 3))
    completed = f.log.complete(1)
    f.log.start(2)  # the lifecycle sees round 1 completed: no second finding
    assert f.found() == [(completed, ROUND_ORDER)]
    assert "completed before it is settled" in f.findings()[0].message


def test_a_round_with_an_outcome_not_settled_yet_is_pending_not_found() -> None:
    f = Forgery()
    f.play(1)
    f.log.start(2)
    f.log.close(2)
    f.log.confirm(2, (1, 2, 3))
    assert f.findings() == []
    result = verify(f.messages())
    assert result.ok and result.unsettled == [(TABLE, 2)]


def test_a_second_settlement_is_found_at_its_summary() -> None:
    f = Forgery()
    f.play(1, complete=False)
    f.stored.settle(1)  # again: one part and its summary
    part, summary = (seq for seq, _, _ in f.stored.settle_events[-2:])
    f.log.complete(1, "ann")
    assert f.found() == [(part, SETTLEMENT), (summary, SETTLEMENT)]
    assert "already settled" in f.findings()[0].message  # its wagers, again
    assert "round 1 is settled again: its RoundSettled is at seq" in f.findings()[1].message
    assert not verify(f.messages()).ok


def test_a_wager_in_two_parts_is_found_naming_it() -> None:
    f = Forgery()
    slip = f.play(1, complete=False)
    part = next(e for _, _, e in f.stored.settle_events if isinstance(e, WagersSettled))
    twice = f.forge(msgspec.structs.replace(part, part=2, wagers=part.wagers[:1]))
    assert f.found() == [(twice, SETTLEMENT)]
    message = f.findings()[0].message
    assert f"part 2 of round 1 settles 1 wager(s) already settled: {slip}#0" in message


def test_a_settlement_before_the_round_s_outcome_is_found() -> None:
    f = Forgery()
    f.play(1)
    f.log.start(2)
    f.log.slip(2, "ann", chips())
    summary = next(e for _, _, e in f.stored.settle_events if isinstance(e, RoundSettled))
    early = f.forge(msgspec.structs.replace(summary, round=2))
    assert f.found() == [(early, SETTLEMENT)]
    assert "round 2 is settled before it has an outcome" in f.findings()[0].message
