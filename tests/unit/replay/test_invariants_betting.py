"""Log invariant 1: no slip event outside its round's betting (000 §3.9, §5.1; 004), asked of
wager intake's own guard; a carried slip's choice in the re-run (002/2004 art. 3(4))."""

from datetime import timedelta

from sicbo.replay.findings import BETTING
from sicbo.replay.verify import verify
from sicbo_contracts.wagers import CarriedChoice
from tests.support.common import PLAYER, at
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    fault_cleared,
    round_started,
    suspended,
    uncovered,
)
from tests.support.wagers import chips, placed
from tests.unit.replay.forging import Forgery

BIG, SMALL = chips("big", 100), chips("small", 200)


def test_slips_placed_changed_and_withdrawn_while_betting_is_open_hold() -> None:
    f = Forgery()
    f.log.start(1)
    kept = f.log.slip(1, "ann", BIG)
    gone = f.log.slip(1, "bob", BIG)
    f.log.change(1, "ann", kept, [BIG], [SMALL])
    f.log.withdraw(1, "bob", gone, [BIG])
    f.log.close(1)
    f.log.confirm(1, (2, 3, 5))
    f.stored.settle(1)
    f.log.complete(1, "ann")
    assert f.findings() == []
    assert verify(f.messages()).ok


def test_a_slip_stored_after_no_more_bets_is_found_and_is_no_wager_000_3_9() -> None:
    """A slip stored after "no more bets" (forged: intake's append expects the lifecycle it
    decided on) is no wager of the round: the settlement leaves it out, its recomputation too,
    and the log's invariant names it."""
    f = Forgery()
    f.log.start(1)
    f.log.slip(1, "ann", BIG)
    f.log.add(betting_closed(1, at=at(1)))
    late = f.log.slip(1, "mallory", chips("big", 5_000))
    late_seq = f.log.events[-1][0]
    f.log.add(uncovered(1, at=at(3)))
    f.log.confirm(1, (4, 5, 6))
    f.stored.settle(1)
    f.log.complete(1, "ann", "mallory")
    (finding,) = f.findings()
    assert (finding.seq, finding.check, finding.round) == (late_seq, BETTING, 1)
    assert finding.event == "bets.slip-placed.v1"
    assert f"slip {late} of mallory placed in round 1" in finding.message
    assert "000 §3.9" in finding.message
    result = verify(f.messages())
    assert result.mismatches == [] and not result.ok
    assert [v.seq for v in result.violations] == [late_seq]
    facts = f.log.facts(1)
    assert facts is not None and [w.player for w in facts.wagers] == ["ann"]


def test_a_change_or_withdrawal_after_no_more_bets_is_found_000_3_9() -> None:
    f = Forgery()
    f.log.start(1)
    slip = f.log.slip(1, "ann", BIG)
    other = f.log.slip(1, "bob", BIG)
    f.log.close(1)
    f.log.change(1, "ann", slip, [BIG], [SMALL])
    f.log.withdraw(1, "bob", other, [BIG])
    changed, withdrawn = f.log.events[-2][0], f.log.events[-1][0]
    assert f.found() == [(changed, BETTING), (withdrawn, BETTING)]
    messages = [x.message for x in f.findings()]
    assert "changed in round 1" in messages[0] and "withdrawn in round 1" in messages[1]


def test_a_slip_before_place_your_bets_is_found_000_5_1() -> None:
    f = Forgery()
    f.log.add(round_started(1, at=at(1)))
    early = f.forge(placed("s-early", [BIG], by=PLAYER, player="ann", round_no=1))
    f.log.add(betting_opened(1, at=at(2)))
    f.log.slip(1, "ann", BIG)
    assert f.found() == [(early, BETTING)]
    assert "not open yet" in f.findings()[0].message


def test_a_slip_for_another_round_than_the_current_one_is_found() -> None:
    f = Forgery()
    f.log.start(1)
    ahead = f.forge(placed("s-ahead", [BIG], by=PLAYER, player="ann", round_no=2))
    assert f.found() == [(ahead, BETTING)]
    assert "the current round of T1 is 1" in f.findings()[0].message


def test_an_online_slip_at_the_countdown_s_end_is_found_004() -> None:
    f = Forgery("online-live")
    closes_at = at(10)
    f.log.add(round_started(1, "online-live", at=at(1)))
    f.log.add(betting_opened(1, closes_at=closes_at, at=at(2)))
    f.forge(placed("s-in-time", [BIG], by=PLAYER, round_no=1, at=closes_at - timedelta(seconds=1)))
    late = f.forge(placed("s-late", [BIG], by=PLAYER, round_no=1, at=closes_at))
    assert f.found() == [(late, BETTING)]
    assert "countdown ended" in f.findings()[0].message


def test_a_slip_while_the_table_is_suspended_is_found_000_7_7() -> None:
    f = Forgery()
    f.log.start(1)
    f.log.add(suspended(1, at=at(3)))
    stopped = f.forge(placed("s-stopped", [BIG], by=PLAYER, round_no=1, at=at(4)))
    f.log.add(fault_cleared(at=at(5)))
    f.forge(placed("s-resumed", [BIG], by=PLAYER, round_no=1, at=at(6)))
    assert f.found() == [(stopped, BETTING)]
    assert "000 §7.7" in f.findings()[0].message


def carried(f: Forgery) -> str:
    """macau-2004: ann's slip carried from the void round 1 into the re-run, round 2."""
    f.log.start(1)
    slip = f.log.slip(1, "ann", BIG)
    f.log.close(1)
    f.log.no_result(1, "player-choice")
    f.stored.settle(1)
    f.log.complete(1, "ann")
    f.log.start(2)
    return slip


def test_a_carried_slip_s_choice_while_the_rerun_takes_wagers_holds_002_2004_art_3_4() -> None:
    f = Forgery("macau-2004")
    slip = carried(f)
    f.log.choose(2, "ann", slip, CarriedChoice.CHANGE, [BIG], [SMALL])
    f.log.close(2)
    f.log.confirm(2, (1, 2, 3))
    f.stored.settle(2)
    f.log.complete(2, "ann")
    assert f.findings() == []
    assert verify(f.messages()).ok


def test_a_carried_slip_s_choice_after_the_rerun_s_close_or_in_the_void_round_is_found() -> None:
    f = Forgery("macau-2004")
    slip = carried(f)
    f.log.choose(1, "ann", slip, CarriedChoice.CANCEL, [BIG], [])  # the void round: over
    in_void = f.log.events[-1][0]
    f.log.close(2)
    f.log.choose(2, "ann", slip, CarriedChoice.KEEP, [BIG], [BIG])
    after_close = f.log.events[-1][0]
    assert f.found() == [(in_void, BETTING), (after_close, BETTING)]
    assert "the choice to cancel carried slip" in f.findings()[0].message
