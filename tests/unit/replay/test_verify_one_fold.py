"""``verify`` folds the wager state once per slip: the re-settle facts of each round take its
standing wagers from the state the invariant checks keep as of the round's settlement
(:func:`sicbo.replay.invariants.check_tables`), which must be what the facts' own fold of the
round's events gives (a table with an event off its owner's subject keeps the facts' own
fold)."""

from typing import Any

from sicbo.replay.audit import settled_as_of
from sicbo.replay.history import read_tables
from sicbo.replay.invariants import check_tables
from sicbo.replay.verify import verify
from sicbo.wagers.state import wagers_of_round
from tests.support.common import TABLE
from tests.support.stream import Stored, StoredLog
from tests.unit.replay.test_player_void import voided_round
from tests.unit.replay.test_verify import busy_table


def carried_log() -> StoredLog:
    """macau-2003: round 1 "no result" carries bob's slip into round 2 (ann's voided)."""
    log = voided_round("macau-2003")
    log.no_result(1, "carry-over-locked")
    stored = StoredLog(log)
    stored.settle(1)
    log.complete(1, "ann", "bob")
    log.start(2)
    log.close(2)
    log.confirm(2, (4, 5, 6))
    stored.settle(2)
    return stored


def kept_and_folded(events: list[Stored]) -> list[tuple[tuple[Any, ...], tuple[Any, ...]]]:
    """Per settled round: its standing wagers in the checks' kept state, and the facts' own."""
    history = read_tables(events)[TABLE]
    as_ofs = {r: settled_as_of(s) for r, s in history.settlements.items()}
    checks = check_tables(events, keep={TABLE: [a for a in as_ofs.values() if a is not None]})
    assert checks[TABLE].filed_as_owned
    pairs = []
    for round_no, as_of in sorted(as_ofs.items()):
        assert as_of is not None
        facts = history.log.facts(round_no, as_of)
        assert facts is not None
        pairs.append((tuple(wagers_of_round(checks[TABLE].kept[as_of], round_no)), facts.wagers))
    return pairs


def test_the_kept_state_stands_the_same_wagers_as_the_facts_fold() -> None:
    for log in (busy_table("online-live"), busy_table("macau-2003"), carried_log()):
        pairs = kept_and_folded(log.stored())
        assert pairs and all(kept == folded for kept, folded in pairs), pairs
        assert any(folded for _, folded in pairs)
        assert verify(log.stored()).ok


def test_a_carried_round_stands_the_carried_slip_in_the_rerun() -> None:
    (void_round, void_facts), (rerun, rerun_facts) = kept_and_folded(carried_log().stored())
    assert void_round == void_facts and rerun == rerun_facts
    assert [(w.player, w.carried) for w in rerun] == [("bob", True)]
