"""The bet history read model (004 "Rekod Pertaruhan"): a player's slips, newest first, with
how each round settled them."""

from sicbo.wagers.history import History
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementBasis,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import CarriedChoice, SlipStatus
from tests.support.common import ALICE, BOB, DEALER, NOW, SERVICE, TABLE
from tests.support.wagers import chips, chosen, placed, withdrawn


def result(slip: str, outcome: WagerOutcome, returned: int) -> WagerResult:
    return WagerResult(
        slip_id=slip,
        index=0,
        player="alice",
        bet="big",
        stake=100,
        medium="chips",
        outcome=outcome,
        winnings=max(0, returned - 100),
        returned=returned,
    )


def settled(
    round_no: int,
    *results: WagerResult,
    basis: SettlementBasis = SettlementBasis.RESULT,
    dice: tuple[int, int, int] | None = (2, 4, 6),
) -> list[object]:
    return [
        WagersSettled(
            table=TABLE, actor=SERVICE, at=NOW, round=round_no, part=1, wagers=list(results)
        ),
        RoundSettled(
            table=TABLE,
            actor=SERVICE,
            at=NOW,
            round=round_no,
            basis=basis,
            paytable="cca-1992@v1",
            dice=dice,
            wagers=len(results),
            parts=1,
            staked=100,
            returned=0,
            house_result=100,
        ),
    ]


def test_newest_first_with_settlements_and_limit() -> None:
    history = History(TABLE)
    events = [
        placed("s-1", [chips("big")]),
        placed("s-b", [chips("small")], by=BOB, player="bob"),
        placed("s-2", [chips("big")], by=DEALER),
        *settled(1, result("s-1", WagerOutcome.WIN, 200), result("s-2", WagerOutcome.WIN, 200)),
        placed("s-3", [chips("big")], round_no=2),
        withdrawn("s-3", [chips("big")], round_no=2),
    ]
    for seq, event in enumerate(events, start=10):
        history.apply(seq, event)  # type: ignore[arg-type]
    answer = history.of_player("alice", 10)
    assert [s.slip_id for s in answer.slips] == ["s-3", "s-2", "s-1"]
    assert [s.seq for s in answer.slips] == sorted((s.seq for s in answer.slips), reverse=True)
    s3, s2, s1 = answer.slips
    assert s3.status is SlipStatus.WITHDRAWN and s3.wagers == [] and s3.settlements == []
    assert s2.placed_by == DEALER and s1.placed_by == ALICE
    (settlement,) = s1.settlements
    assert settlement.round == 1 and settlement.basis == "result" and settlement.dice == (2, 4, 6)
    assert [r.returned for r in settlement.results] == [200]
    assert [s.slip_id for s in history.of_player("alice", 2).slips] == ["s-3", "s-2"]
    assert history.of_player("nobody", 5).slips == []
    assert history.last_seq == 10 + len(events) - 1


def test_a_carried_slip_shows_both_rounds() -> None:
    history = History(TABLE)
    events = [
        placed("s-1", [chips("big", 200)]),
        *settled(
            1, result("s-1", WagerOutcome.CARRIED, 0), basis=SettlementBasis.NO_RESULT, dice=None
        ),
        chosen("s-1", CarriedChoice.CHANGE, [chips("big", 200)], [chips("big", 100)]),
        *settled(2, result("s-1", WagerOutcome.LOSE, 0)),
    ]
    for seq, event in enumerate(events, start=1):
        history.apply(seq, event)  # type: ignore[arg-type]
    (slip,) = history.of_player("alice", 5).slips
    assert slip.rounds == [1, 2] and slip.changes == 1
    assert slip.placed == [chips("big", 200)] and slip.wagers == [chips("big", 100)]
    assert [(s.round, s.basis) for s in slip.settlements] == [(1, "no-result"), (2, "result")]
