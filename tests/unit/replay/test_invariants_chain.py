"""Log invariant 6: corrections, adjustments, voids and lamps chained to what they follow: a
correction starts from the result in effect (GLI-19 §4.18.4), an adjustment names a stored
correction of its round, a void a stored cancellation of its round (004), a lamp a stored
result of its round (000 §2.3)."""

import msgspec

from sicbo.illumination.lamps import verdict
from sicbo.replay.findings import CHAIN
from sicbo.replay.verify import verify
from sicbo_contracts.settlement import SettlementAdjusted, SettlementVoided
from tests.support.common import SUPERVISOR, SUPERVISOR_2, TABLE, at
from tests.support.dice import corrected, dual_control_opened, manual_mode_entered, proposed
from tests.unit.replay.forging import Forgery


def test_corrections_each_from_the_result_in_effect_with_their_adjustments_hold() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    first = f.log.correct(1, (4, 5, 6), (1, 2, 3))
    f.stored.adjust(1, (4, 5, 6), (1, 2, 3), first)
    second = f.log.correct(1, (1, 2, 3), (2, 2, 2))
    f.stored.adjust(1, (1, 2, 3), (2, 2, 2), second)
    assert f.findings() == []
    assert verify(f.messages()).ok


def test_a_correction_not_from_the_result_in_effect_is_found() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    f.log.correct(1, (4, 5, 6), (1, 2, 3))
    stale = f.log.correct(1, (4, 5, 6), (2, 2, 2))  # from the confirmed dice, not the last
    assert f.found() == [(stale, CHAIN)]
    assert "starts from 4-5-6, but the result in effect is 1-2-3" in f.findings()[0].message


def test_a_correction_of_a_round_without_a_confirmed_result_is_found() -> None:
    f = Forgery()
    f.play(1)
    f.log.start(2)
    f.forge(manual_mode_entered(at=at(29)))
    early = f.forge(corrected((1, 1, 1), (2, 2, 2), "forged", 2, at=at(30)))
    assert f.found() == [(early, CHAIN)]
    assert "none of round 2 is confirmed before it" in f.findings()[0].message


def test_an_adjustment_naming_no_correction_of_its_round_is_found() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    f.play(2, (4, 5, 6))
    other_round = f.log.correct(2, (4, 5, 6), (1, 2, 3))
    (adjusted,) = f.stored.adjust(1, (4, 5, 6), (1, 2, 3), other_round)
    seq = f.stored.settle_events[-1][0]
    not_a_correction = f.forge(msgspec.structs.replace(adjusted, correction_seq=3))
    assert isinstance(adjusted, SettlementAdjusted)
    assert f.found() == [(seq, CHAIN), (not_a_correction, CHAIN)]
    message = f.findings()[0].message
    assert f"names the correction at seq {other_round}, which is no ResultCorrected of round 1" in (
        message
    )


def test_a_void_naming_no_cancellation_of_its_round_is_found() -> None:
    f = Forgery("online-live")
    f.play(1)
    cancel = f.log.cancel(1)
    f.stored.void(1, cancel)
    assert f.findings() == []
    (voided,) = (e for _, _, e in f.stored.settle_events if isinstance(e, SettlementVoided))
    forged = f.forge(msgspec.structs.replace(voided, cancel_seq=cancel - 1))
    assert f.found() == [(forged, CHAIN)]
    assert '004 "Ralat Pengendalian"' in f.findings()[0].message


def test_a_lamp_for_no_stored_result_of_its_round_or_other_dice_is_found() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    confirmed = next(s for s, e in f.log.events if type(e).__name__ == "ResultConfirmed")

    def lit(source_seq: int, dice: tuple[int, int, int]) -> int:
        return f.forge(
            verdict(
                table=TABLE,
                round_no=1,
                dice=dice,
                source_seq=source_seq,
                expected=["big"],
                lit=["big"],
                at=at(40),
            )
        )

    lit(confirmed, (4, 5, 6))
    elsewhere = lit(confirmed - 1, (4, 5, 6))
    other_dice = lit(confirmed, (1, 2, 3))
    assert f.found() == [(elsewhere, CHAIN), (other_dice, CHAIN)]
    assert "lit for 1-2-3, but the result at seq" in f.findings()[1].message


def test_a_correction_outside_manual_mode_is_found_gli_19_c_6_8_o() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    by_hand = f.log.correct(1, (4, 5, 6), (1, 2, 3))  # in manual mode, as the dice decide
    outside = f.forge(corrected((1, 2, 3), (2, 2, 2), "forged", 1, at=at(40)))
    assert f.found() == [(outside, CHAIN)]
    assert by_hand < outside
    assert "outside manual mode" in f.findings()[0].message
    assert "GLI-19 §C.6.8(o)" in f.findings()[0].message


def test_on_a_dual_control_table_a_correction_approves_another_supervisors_proposal() -> None:
    """TableConfig.dual_control: the ResultCorrected follows a CorrectionProposed of its round by
    another supervisor (its proposed_by); one without, or approved by its proposer, is found."""
    f = Forgery()
    f.forge(msgspec.structs.replace(dual_control_opened(), at=at(1)))
    f.play(1, (4, 5, 6))
    f.forge(manual_mode_entered(at=at(30)))
    f.forge(proposed((4, 5, 6), (1, 2, 3), "camera", 1, by=SUPERVISOR))
    approved = corrected(
        (4, 5, 6), (1, 2, 3), "camera", 1, by=SUPERVISOR_2, proposed_by=SUPERVISOR, at=at(31)
    )
    f.forge(approved)
    assert f.found() == []
    unproposed = f.forge(corrected((1, 2, 3), (2, 2, 2), "no proposal", 1, at=at(32)))
    f.forge(proposed((2, 2, 2), (3, 3, 3), "again", 1, by=SUPERVISOR))
    own = f.forge(corrected((2, 2, 2), (3, 3, 3), "self", 1, by=SUPERVISOR, proposed_by=SUPERVISOR))
    assert f.found() == [(unproposed, CHAIN), (own, CHAIN)]
    assert "TableConfig.dual_control" in f.findings()[1].message
