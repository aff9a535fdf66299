"""The public message of each stored outcome (pure): status, dice, winners, reasons."""

from datetime import timedelta

import msgspec
import pytest

from sicbo.game.dice import make_roll
from sicbo.game.evaluation import winning_bets
from sicbo.game.profiles import parse_paytable_ref
from sicbo.results.project import SOURCE_TOKENS, SourceEvent, is_source, round_result, winners
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    InvalidationReason,
    NoResultDeclared,
    NoResultReason,
    RoundCancelled,
    RoundInvalidated,
    Uncovered,
)
from sicbo_contracts.results import PublicResult, ResultStatus, RoundResult
from tests.support.common import DEALER, NOW, SUPERVISOR

PUBLISHED = NOW + timedelta(seconds=1)  # a second after the outcome was stored (at NOW)
PAYTABLE = "macau-2004@v1"


def publish(event: SourceEvent, seq: int = 41) -> RoundResult:
    return round_result(event, paytable=PAYTABLE, source_seq=seq, published_at=PUBLISHED)


def test_a_confirmed_result_has_sorted_dice_total_and_the_paytables_winners() -> None:
    event = ResultConfirmed(
        table="T1", actor=DEALER, at=NOW, round=3, dice=(2, 5, 5), total=12, entered_by="dealer-1"
    )
    got = publish(event)
    assert (got.status, got.dice, got.total, got.corrects, got.reason) == (
        ResultStatus.RESULT,
        (2, 5, 5),
        12,
        None,
        None,
    )
    roll = make_roll((2, 5, 5))
    expected = [b.id for b in winning_bets(parse_paytable_ref(PAYTABLE), roll)]
    assert got.winning_bets == expected
    assert {"big", "even", "double:5", "total:12", "combo:2-5", "pair-single:5-2"} <= set(expected)
    assert "small" not in expected and "triple:5" not in expected
    assert (got.table, got.round, got.paytable, got.source_seq) == ("T1", 3, PAYTABLE, 41)
    assert (got.recorded_at, got.published_at) == (NOW, PUBLISHED)


def test_a_triple_kills_small_and_big_under_the_paytable() -> None:
    assert "big" not in winners("cca-1992@v1", (6, 6, 6))
    assert {"triple:6", "any-triple", "double:6", "single:6"} <= set(
        winners("cca-1992@v1", (6, 6, 6))
    )


def test_a_correction_names_the_dice_it_replaces_and_the_new_winners() -> None:
    event = ResultCorrected(
        table="T1", actor=SUPERVISOR, at=NOW, round=3, before=(2, 5, 5), after=(6, 2, 5),
        reason="die read as 5, shows 6",
    )  # fmt: skip
    got = publish(event, 57)
    assert (got.status, got.dice, got.total, got.corrects) == (
        ResultStatus.CORRECTION,
        (2, 5, 6),
        13,
        (2, 5, 5),
    )
    assert got.reason == "die read as 5, shows 6"
    assert got.winning_bets == winners(PAYTABLE, (2, 5, 6))


@pytest.mark.parametrize(
    ("event", "status", "reason"),
    [
        (
            NoResultDeclared(
                table="T1", actor=DEALER, at=NOW, round=3,
                reason=NoResultReason.DICE_NOT_FLAT, detail="cocked die", consequence="refund",
            ),
            ResultStatus.VOID,
            "dice-not-flat",
        ),
        (
            RoundInvalidated(
                table="T1", actor=SUPERVISOR, at=NOW, round=3,
                reason=InvalidationReason.FIRE, detail="kitchen fire, floor evacuated",
            ),
            ResultStatus.INVALIDATED,
            "fire",
        ),
        (
            RoundCancelled(table="T1", actor=SUPERVISOR, at=NOW, round=3, reason="lamps not fixed"),
            ResultStatus.CANCELLED,
            "lamps not fixed",
        ),
    ],
)  # fmt: skip
def test_rounds_without_a_result_carry_the_reason_and_no_dice(
    event: SourceEvent, status: ResultStatus, reason: str
) -> None:
    got = publish(event)
    assert (got.status, got.reason, got.dice, got.total, got.winning_bets) == (
        status,
        reason,
        None,
        None,
        [],
    )


def test_the_wire_form_round_trips_and_ignores_unknown_fields() -> None:
    event = ResultConfirmed(
        table="T1", actor=DEALER, at=NOW, round=3, dice=(1, 2, 3), total=6, entered_by="dealer-1"
    )
    wire = msgspec.json.encode(publish(event))
    body = msgspec.json.decode(wire)
    assert body["type"] == "result.v1" and body["dice"] == [1, 2, 3]
    assert "actor" not in body  # who entered the dice stays on the floor
    body["added_later"] = {"x": 1}
    assert msgspec.json.decode(msgspec.json.encode(body), type=PublicResult) == publish(event)


def test_only_outcome_events_of_a_round_are_sources() -> None:
    tokens = set(SOURCE_TOKENS)
    assert tokens == {
        "dice-result-confirmed-v1",
        "round-no-result-declared-v1",
        "round-invalidated-v1",
        "round-cancelled-v1",
        "dice-result-corrected-v1",
    }
    assert is_source("sicbo.evt.T1.lc.3.dice-result-confirmed-v1")
    assert is_source("sicbo.evt.T1.lc.3.dice-result-corrected-v1")
    assert not is_source("sicbo.evt.T1.lc.3.dice-entered-v1")  # entered, not confirmed
    assert not is_source("sicbo.evt.T1.lc.3.round-uncovered-v1")
    assert not is_source("sicbo.evt.T1.settle.3.dice-result-confirmed-v1")
    assert not is_source("sicbo.evt.T1.lc.0.round-cancelled-v1")
    assert Uncovered.__struct_config__.tag == "round.uncovered.v1"


def test_a_message_supersedes_the_latest_earlier_outcome_of_its_round() -> None:
    from sicbo.results.project import superseded

    assert superseded([], 10) is None  # the round's first outcome replaces nothing
    assert superseded([10], 10) is None  # itself is not earlier
    assert superseded([4, 10, 7, 12], 10) == 7  # the latest before it, whatever the order
    assert superseded({4, 7}, 30) == 7


def test_supersedes_is_optional_on_the_wire_and_named_when_given() -> None:
    corrected = ResultCorrected(
        table="T1", actor=SUPERVISOR, at=NOW, round=3, before=(2, 5, 5), after=(6, 2, 5),
        reason="die read as 5, shows 6",
    )  # fmt: skip
    got = round_result(
        corrected, paytable=PAYTABLE, source_seq=57, published_at=PUBLISHED, supersedes=41
    )
    assert got.supersedes == 41
    assert msgspec.json.decode(msgspec.json.encode(got))["supersedes"] == 41
    first = publish(
        ResultConfirmed(
            table="T1", actor=DEALER, at=NOW, round=3, dice=(2, 5, 5), total=12,
            entered_by="dealer-1",
        )
    )  # fmt: skip
    body = msgspec.json.decode(msgspec.json.encode(first))
    assert first.supersedes is None and body["supersedes"] is None
    del body["supersedes"]  # a message from before the field decodes as "replaces nothing"
    assert msgspec.json.decode(msgspec.json.encode(body), type=PublicResult) == first
