"""Who sees which player's wagers: floor staff everyone's, a player their own, anyone else no
player id (sicbo.gateway.redaction)."""

import json
from datetime import UTC, datetime

import msgspec
import pytest

from sicbo.gateway.redaction import (
    ANONYMOUS,
    ANOTHER_PLAYER,
    STAFF,
    Viewer,
    own_signs_for,
    pending_for,
    recall_for,
    report_for,
    seats_for,
)
from sicbo.gateway.views import PendingInvalidationView, PendingSignView
from sicbo.replay.report import HistoryRow, RoundReport, WagerRow
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.board import (
    Recall,
    RecallAdjustment,
    RecallRefund,
    RecallRound,
    RecallVoid,
    RecallWager,
)
from sicbo_contracts.settlement import (
    SettlementBasis,
    WagerAdjustment,
    WagerOutcome,
    WagerResult,
)

AT = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
PAT = Viewer(player="pat")
DEALER = Actor(id="ana", role=Role.DEALER)


def wager_row(player: str, stake: int, recorded: int) -> WagerRow:
    return WagerRow(
        slip_id=f"slip-{player}",
        index=0,
        player=player,
        bet="big",
        stake=stake,
        medium="chips",
        outcome="win" if recorded else "lose",
        settled=recorded,
        adjusted=0,
        recorded=recorded,
        recomputed_outcome="win" if recorded else "lose",
        recomputed=recorded,
        status="MATCH",
    )


def history(seq: int, actor: str) -> HistoryRow:
    return HistoryRow(seq=seq, time=AT, type="bets.slip-placed.v1", actor=actor)


REPORT = RoundReport(
    table="t1",
    round=3,
    status="MATCH",
    basis="result",
    paytable="cca-1992@v1",
    dice=(2, 4, 5),
    final_dice=(2, 4, 5),
    as_of=40,
    staked=1_500,
    returned=1_000,
    recomputed_returned=1_000,
    house_result=500,
    problems=[],
    pending_corrections=[],
    history=[
        history(10, "ana (dealer)"),
        history(11, "pat (player)"),
        history(12, "eve (player)"),
        history(13, "settlement (service)"),
    ],
    wagers=[wager_row("pat", 500, 1_000), wager_row("eve", 1_000, 0)],
)


def players_named(body: object) -> set[str]:
    text = json.dumps(body)
    return {p for p in ("pat", "eve", "sam") if f'"{p}' in text or f"{p} (" in text}


def test_floor_staff_see_every_wager_of_a_report() -> None:
    shown = report_for(REPORT, STAFF)
    assert shown.pop("hidden") == {"wagers": 0, "staked": 0, "returned": 0}
    assert shown == msgspec.to_builtins(REPORT)


def test_a_player_sees_their_own_wagers_and_the_others_as_totals() -> None:
    shown = report_for(REPORT, PAT)
    assert [w["player"] for w in shown["wagers"]] == ["pat"]
    assert shown["hidden"] == {"wagers": 1, "staked": 1_000, "returned": 0}
    assert [h["actor"] for h in shown["history"]] == [
        "ana (dealer)",
        "pat (player)",
        f"{ANOTHER_PLAYER} (player)",
        "settlement (service)",
    ]
    assert players_named(shown) == {"pat"}
    assert (shown["staked"], shown["returned"], shown["house_result"]) == (1_500, 1_000, 500)


def test_anyone_else_sees_the_result_and_totals_and_no_player_id() -> None:
    shown = report_for(REPORT, ANONYMOUS)
    assert shown["wagers"] == [] and players_named(shown) == set()
    assert shown["hidden"] == {"wagers": 2, "staked": 1_500, "returned": 1_000}
    assert list(shown["dice"]) == [2, 4, 5] and shown["status"] == "MATCH"


def recall_wager(player: str, stake: int, returned: int | None) -> RecallWager:
    return RecallWager(
        slip_id=f"slip-{player}",
        index=0,
        player=player,
        bet="small",
        stake=stake,
        medium="chips",
        returned=returned,
        final_returned=returned,
    )


def result(player: str, returned: int) -> WagerResult:
    return WagerResult(
        slip_id=f"slip-{player}",
        index=0,
        player=player,
        bet="small",
        stake=100,
        medium="chips",
        outcome=WagerOutcome.WIN if returned else WagerOutcome.LOSE,
        winnings=max(0, returned - 100),
        returned=returned,
    )


def adjustment(player: str, before: int, after: int) -> WagerAdjustment:
    return WagerAdjustment(
        slip_id=f"slip-{player}",
        index=0,
        player=player,
        before=result(player, before),
        after=result(player, after),
        delta=after - before,
    )


RECALL = Recall(
    table="t1",
    limit=10,
    as_of=99,
    rounds=[
        RecallRound(
            round=1,
            paytable="cca-1992@v1",
            started_at=AT,
            basis=SettlementBasis.RESULT,
            dice=(1, 2, 3),
            final_dice=(1, 2, 4),
            wagers=[recall_wager("pat", 100, 200), recall_wager("eve", 300, None)],
            adjustments=[
                RecallAdjustment(
                    correction_seq=50,
                    before=(1, 2, 3),
                    after=(1, 2, 4),
                    delta=-200,
                    wagers=[adjustment("pat", 200, 0), adjustment("eve", 0, 0)],
                )
            ],
            refund=RecallRefund(
                cancel_seq=60, reason="r", delta=100, wagers=[adjustment("eve", 0, 100)]
            ),
            staked=400,
            returned=200,
            house_result=200,
        ),
        RecallRound(
            round=2,
            paytable="cca-1992@v1",
            started_at=AT,
            basis=SettlementBasis.INVALIDATED,
            void=RecallVoid(
                basis=SettlementBasis.INVALIDATED,
                reason="fraud",
                forfeits=["eve", "pat", "sam"],
                actor=Actor(id="sofia", role=Role.SUPERVISOR),
                at=AT,
            ),
        ),
    ],
)


def test_floor_staff_see_the_whole_recall() -> None:
    shown = recall_for(RECALL, STAFF)
    for played in shown["rounds"]:
        assert played.pop("hidden") == {"wagers": 0, "staked": 0, "returned": 0}
    assert shown == msgspec.to_builtins(RECALL)
    assert shown["type"] == "board.recall.v1"


def test_a_player_sees_their_own_wagers_in_the_recall() -> None:
    first, second = recall_for(RECALL, PAT)["rounds"]
    assert [w["player"] for w in first["wagers"]] == ["pat"]
    assert first["hidden"] == {"wagers": 1, "staked": 300, "returned": 0}
    assert [w["player"] for w in first["adjustments"][0]["wagers"]] == ["pat"]
    assert first["adjustments"][0]["delta"] == -200  # the totals stand
    assert first["refund"]["wagers"] == [] and first["refund"]["delta"] == 100
    assert second["void"]["forfeits"] == [ANOTHER_PLAYER, "pat", ANOTHER_PLAYER]
    assert second["void"]["actor"] == {"id": "sofia", "role": "supervisor"}
    assert players_named(recall_for(RECALL, PAT)) == {"pat"}


def test_anyone_else_sees_no_player_id_in_the_recall() -> None:
    shown = recall_for(RECALL, ANONYMOUS)
    assert players_named(shown) == set()
    first = shown["rounds"][0]
    assert first["wagers"] == [] and first["hidden"] == {
        "wagers": 2,
        "staked": 400,
        "returned": 200,
    }
    assert (first["staked"], first["returned"], list(first["final_dice"])) == (400, 200, [1, 2, 4])


@pytest.mark.parametrize(
    ("viewer", "seats"),
    [
        (STAFF, {1: "pat", 2: "eve"}),
        (PAT, {1: "pat", 2: ANOTHER_PLAYER}),
        (ANONYMOUS, {1: ANOTHER_PLAYER, 2: ANOTHER_PLAYER}),
    ],
)
def test_seats_name_only_the_players_the_viewer_may_see(
    viewer: Viewer, seats: dict[int, str]
) -> None:
    assert seats_for({1: "pat", 2: "eve"}, viewer) == seats


def test_a_player_named_like_the_placeholder_sees_nobody_elses() -> None:
    assert not Viewer(player=None).sees("pat")
    assert Viewer(player=ANOTHER_PLAYER).sees(ANOTHER_PLAYER)  # harmless: it is no one's id
    assert not Viewer(player="pat").sees("eve")


@pytest.mark.parametrize(
    "viewer,signs,vacating",
    [
        (STAFF, {"pat", "eve"}, ["eve"]),
        (Viewer(player="pat"), {"pat"}, []),
        (Viewer(player="eve"), {"eve"}, ["eve"]),
        (ANONYMOUS, set(), []),
    ],
    ids=["staff", "pat", "eve", "anyone"],
)
def test_a_players_own_signs_are_shown_to_that_player_and_staff_only_000_4_4_and_8_9(
    viewer: Viewer, signs: set[str], vacating: list[str]
) -> None:
    own = {"pat": Limits(minimum=100, maximum=5_000), "eve": Limits(minimum=100, maximum=9_000)}
    shown, asked = own_signs_for(own, ["eve"], viewer)
    assert set(shown) == signs and all(shown[p] == own[p] for p in shown)
    assert asked == vacating


@pytest.mark.parametrize(
    ("viewer", "forfeits", "signs"),
    [
        (STAFF, ["pat", "eve"], ["pat", "eve"]),
        (Viewer(player="pat"), ["pat"], ["pat"]),
        (Viewer(), [], []),
    ],
)
def test_what_waits_for_a_second_supervisor_is_shown_as_the_viewer_may_see_it_000_4_4(
    viewer: Viewer, forfeits: list[str], signs: list[str]
) -> None:
    invalidation = PendingInvalidationView(
        round=1, reason="fraud", detail="camera", forfeits=["pat", "eve"], by="s1"
    )
    waiting = [
        PendingSignView(player=p, limits=Limits(minimum=100, maximum=5_000), reason="vip", by="s1")
        for p in ("pat", "eve")
    ]
    shown, shown_signs = pending_for(invalidation, waiting, viewer)
    assert shown is not None and shown.forfeits == forfeits  # the round is everyone's
    assert [s.player for s in shown_signs] == signs
