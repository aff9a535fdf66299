"""The facts a settlement is computed from, folded from the log as of a stream sequence."""

import msgspec

from sicbo.settlement.engine import wager_results
from sicbo.settlement.facts import TableLog, facts_of_round
from sicbo.shell.codec import encode
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.settlement import SettlementBasis
from sicbo_contracts.subjects import Aggregate, subject_of
from tests.support.common import TABLE
from tests.support.log import Log
from tests.support.wagers import chips


def test_facts_as_of_a_sequence_ignore_what_came_later() -> None:
    """Replay settles as of ``RoundSettled.as_of``: an invalidation stored after the settlement
    was computed does not change what the settlement should have been."""
    log = Log(profile="cca-1992").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    confirmed = log.confirm(1, (4, 5, 6))
    log.invalidate(1, fraud=False)
    assert log.facts(1, as_of=confirmed).basis is SettlementBasis.RESULT
    assert log.facts(1).basis is SettlementBasis.INVALIDATED


def test_a_correction_before_the_settlement_is_settled_directly() -> None:
    log = Log(profile="cca-1992").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.confirm(1, (1, 2, 3))
    seq = log.correct(1, (1, 2, 3), (4, 5, 6))
    facts = log.facts(1)
    assert facts.dice == (4, 5, 6) and [c.seq for c in facts.corrections] == [seq]
    assert wager_results(facts)[0].returned == 200


def test_facts_of_round_is_the_same_fold_as_the_table_log() -> None:
    log = Log(profile="macau-2003").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.no_result(1, "carry-over-locked")
    log.complete(1, "ann")
    log.start(2)
    log.close(2)
    log.confirm(2, (4, 5, 6))
    facts = facts_of_round(TABLE, 2, log.events)
    assert facts == log.facts(2)
    assert facts.paytable == "macau-2003@v1" and facts.as_of == log.events[-1][0]
    assert [(w.player, w.carried) for w in facts.wagers] == [("ann", True)]
    assert not facts.completed and facts_of_round(TABLE, 1, log.events).completed


def test_a_round_not_started_has_no_facts() -> None:
    log = Log()
    assert log.table_log().facts(1) is None


def _caught_up(log: Log, table_log: TableLog, added: int) -> int:
    """Add the log's events after the first ``added`` to ``table_log``; how many it holds."""
    for seq, fact in log.events[added:]:
        table_log.add(seq, fact)
    return len(log.events)


def test_a_kept_table_log_folds_the_standing_wagers_as_a_fresh_one() -> None:
    """Settlement keeps one TableLog a table and folds a round's wagers at "no more bets",
    then catches the fold up at the result: the same facts as folded from the whole log,
    also as of an earlier sequence, and for a re-run whose carried round changed since."""
    log = Log(profile="macau-2003").start(1)
    kept = TableLog(TABLE)
    ann = log.slip(1, "ann", chips("big", 100))
    log.slip(1, "bob", chips("small", 50))
    added = _caught_up(log, kept, 0)
    assert kept.facts(1) == log.facts(1)  # folded while betting is open
    log.change(1, "ann", ann, [chips("big", 100)], [chips("big", 300)])
    closed = log.close(1).events[-1][0]
    added = _caught_up(log, kept, added)
    assert kept.facts(1) == log.facts(1)  # caught up: the change and the close
    log.no_result(1, "carry-over-locked")
    added = _caught_up(log, kept, added)
    assert kept.facts(1, as_of=closed) == log.facts(1, as_of=closed)  # an earlier sequence
    assert kept.facts(1) == log.facts(1)
    log.complete(1, "ann", "bob")
    log.start(2)
    added = _caught_up(log, kept, added)
    assert kept.facts(2) == log.facts(2)  # carried from round 1
    log.void_wagers(1, "bob")  # round 1's events grow after round 2's fold was kept
    log.close(2)
    log.confirm(2, (4, 5, 6))
    _caught_up(log, kept, added)
    assert kept.facts(2) == log.facts(2)
    assert [(w.player, w.wager.stake) for w in kept.facts(2).wagers] == [("ann", 300), ("bob", 50)]


def test_a_forged_event_naming_another_table_or_round_than_its_subject_is_no_fact() -> None:
    """A settlement is computed from the round's own events: an event stored on round 1's
    subject that names another table (a copy of its start, another paytable), or a result of
    round 1 filed under round 2, is skipped (replay verify reports it, check "subject")."""
    log = Log(profile="cca-1992").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.confirm(1, (4, 5, 6))
    table_log = TableLog(TABLE)
    for seq, fact in log.events:
        aggregate = (
            Aggregate.BETS if type(fact).__module__.endswith("wagers") else Aggregate.LIFECYCLE
        )
        assert table_log.add_stored(seq, subject_of(fact, aggregate), encode(fact))
    honest = table_log.facts(1)
    assert honest is not None and honest.paytable == "cca-1992@v1" and honest.dice == (4, 5, 6)
    started = next(f for _, f in log.events if isinstance(f, RoundStarted))
    foreign = msgspec.structs.replace(started, table="other", paytable="macau-2003@v1")
    subject = subject_of(started, Aggregate.LIFECYCLE)
    assert not table_log.add_stored(90, subject, encode(foreign))
    confirmed = next(f for _, f in log.events if isinstance(f, ResultConfirmed))
    misfiled = msgspec.structs.replace(confirmed, dice=(1, 1, 1), total=3)
    round_two = subject_of(msgspec.structs.replace(confirmed, round=2), Aggregate.LIFECYCLE)
    assert not table_log.add_stored(91, round_two, encode(misfiled))
    facts = table_log.facts(1)
    assert facts is not None and (facts.paytable, facts.dice) == ("cca-1992@v1", (4, 5, 6))


def test_an_event_of_another_table_added_decoded_is_no_fact() -> None:
    """The same holds for an event added already decoded (replay decodes each message once)."""
    log = Log(profile="cca-1992").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.confirm(1, (4, 5, 6))
    table_log = log.table_log()
    confirmed = next(f for _, f in log.events if isinstance(f, ResultConfirmed))
    table_log.add(90, msgspec.structs.replace(confirmed, table="other", dice=(1, 1, 1)))
    facts = table_log.facts(1)
    assert facts is not None and facts.dice == (4, 5, 6)


def test_a_settled_rounds_fold_is_not_kept_and_is_folded_again_the_same() -> None:
    """Settlement keeps a round's fold from "no more bets" to its settlement only: a round of
    100,000 wagers is tens of MiB a table. Asked again (an adjustment), it is folded anew."""
    log = Log(profile="macau-2003").start(1)
    kept = TableLog(TABLE)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.confirm(1, (4, 5, 6))
    _caught_up(log, kept, 0)
    before = kept.facts(1)
    assert kept.folded_rounds() == {1}
    kept.settled(1)
    assert kept.folded_rounds() == set()
    assert kept.facts(1) == before == log.facts(1)
