"""Log invariant 6 for the lifecycle's dual control (``TableConfig.dual_control``): on a
dual-control table a RoundInvalidated (000 §8.4) or PlayerLimitsOverridden (000 §4.4) approves
another supervisor's proposal stored before it, as a correction does (GLI-19 §4.18.4)."""

import msgspec

from sicbo.replay.findings import CHAIN
from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import PlayerLimitsOverridden, RoundInvalidated
from tests.support.common import SUPERVISOR, SUPERVISOR_2, Who, at, event
from tests.support.dual_control import (
    DETAIL,
    FRAUD,
    HIGH_ROLLER,
    SIGN_REASON,
    dual_control_opened,
    invalidation_proposed,
    override_proposed,
)
from tests.unit.replay.forging import Forgery


def _dual_table() -> Forgery:
    f = Forgery()
    f.forge(msgspec.structs.replace(dual_control_opened(), at=at(1)))
    return f


def _invalidated(by: Who, proposed_by: str | None, *forfeits: str) -> RoundInvalidated:
    return event(
        RoundInvalidated,
        by,
        at=at(40),
        round=1,
        reason=FRAUD,
        detail=DETAIL,
        forfeits=list(forfeits),
        proposed_by=proposed_by,
    )


def _sign(by: Who, proposed_by: str | None, limits: Limits = HIGH_ROLLER) -> PlayerLimitsOverridden:
    return event(
        PlayerLimitsOverridden,
        by,
        at=at(2),
        player="p1",
        before=None,
        after=limits,
        reason=SIGN_REASON,
        proposed_by=proposed_by,
    )


def test_an_invalidation_approved_by_a_second_supervisor_holds_000_8_4() -> None:
    f = _dual_table()
    f.play(1, (4, 5, 6))
    f.forge(invalidation_proposed(1, "ann", at=at(39)))
    f.forge(_invalidated(SUPERVISOR_2, SUPERVISOR.id, "ann"))
    assert f.findings() == []


def test_an_invalidation_without_a_proposal_is_found_000_8_4() -> None:
    f = _dual_table()
    f.play(1, (4, 5, 6))
    alone = f.forge(_invalidated(SUPERVISOR, None))
    assert f.found() == [(alone, CHAIN)]
    message = f.findings()[0].message
    assert "without approving another supervisor's proposal" in message
    assert "TableConfig.dual_control, 000 §8.4" in message


def test_an_invalidation_approved_by_its_proposer_is_found_000_8_4() -> None:
    f = _dual_table()
    f.play(1, (4, 5, 6))
    f.forge(invalidation_proposed(1, at=at(39)))
    own = f.forge(_invalidated(SUPERVISOR, SUPERVISOR.id))
    assert f.found() == [(own, CHAIN)]


def test_an_invalidation_other_than_the_proposed_is_found_000_8_4() -> None:
    f = _dual_table()
    f.play(1, (4, 5, 6))
    f.forge(invalidation_proposed(1, at=at(39)))  # no forfeits proposed
    other = f.forge(_invalidated(SUPERVISOR_2, SUPERVISOR.id, "ann"))
    assert f.found() == [(other, CHAIN)]
    assert "other content than" in f.findings()[0].message


def test_a_players_sign_approved_by_a_second_supervisor_holds_000_4_4() -> None:
    f = _dual_table()
    f.forge(override_proposed(at=at(1)))
    f.forge(_sign(SUPERVISOR_2, SUPERVISOR.id))
    assert f.findings() == []


def test_a_players_sign_without_a_proposal_is_found_000_4_4() -> None:
    f = _dual_table()
    alone = f.forge(_sign(SUPERVISOR, None))
    assert f.found() == [(alone, CHAIN)]
    assert "the sign of player 'p1'" in f.findings()[0].message


def test_without_dual_control_a_supervisor_acts_alone() -> None:
    f = Forgery()
    f.play(1, (4, 5, 6))
    f.forge(_invalidated(SUPERVISOR, None))
    f.forge(_sign(SUPERVISOR, None))
    assert f.findings() == []
