"""Promotional tokens and settlement's results as wager intake reads them: the builders of the
media tests (colour checks themselves are :mod:`tests.support.wagers`' ``issue``/``issued``).

Settlement's events are built as the settlement service writes them (its service actor), one
wager result per part unless told: what intake reads of them is each wager's outcome.
"""

import msgspec

from sicbo_contracts.base import Actor
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementVoided,
    WagerAdjustment,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import IssuePromoToken, Medium, PromoTokenIssued, Wager
from tests.support.common import NOW, OPERATOR, SERVICE, command, event


def token_issued(token: str = "tk-1", player: str = "alice", amount: int = 100) -> PromoTokenIssued:
    return event(PromoTokenIssued, OPERATOR, at=NOW, token=token, player=player, amount=amount)


def issue_token(
    token: str = "tk-1", player: str = "alice", amount: int = 100, *, by: Actor = OPERATOR
) -> IssuePromoToken:
    return command(IssuePromoToken, by, token=token, player=player, amount=amount)


def result(
    wager: Wager,
    outcome: WagerOutcome,
    *,
    winnings: int = 0,
    slip: str = "s-1",
    player: str = "alice",
    index: int = 0,
) -> WagerResult:
    """One wager's result as settlement pays it: a win returns the stake and the winnings (a
    token its winnings only, 000 §1.1), a void the stake, a loss nothing."""
    returned = {
        WagerOutcome.WIN: winnings + (0 if wager.medium is Medium.PROMO else wager.stake),
        WagerOutcome.VOID: wager.stake,
    }.get(outcome, 0)
    return WagerResult(
        slip_id=slip,
        index=index,
        player=player,
        bet=wager.bet,
        stake=wager.stake,
        medium=wager.medium,
        outcome=outcome,
        winnings=winnings,
        returned=returned,
    )


def settled(round_no: int, *results: WagerResult, part: int = 1) -> WagersSettled:
    return event(WagersSettled, SERVICE, round=round_no, part=part, wagers=list(results))


def _adjustment(before: WagerResult, after: WagerResult) -> WagerAdjustment:
    return WagerAdjustment(
        slip_id=before.slip_id,
        index=before.index,
        player=before.player,
        before=before,
        after=after,
        delta=after.returned - before.returned,
    )


def adjusted(round_no: int, before: WagerResult, after: WagerResult) -> SettlementAdjusted:
    """A corrected result's adjustment of one wager (the dice only name the correction)."""
    return event(
        SettlementAdjusted,
        SERVICE,
        round=round_no,
        correction_seq=99,
        before=(1, 2, 3),
        after=(4, 5, 6),
        adjustments=[_adjustment(before, after)],
        delta=after.returned - before.returned,
    )


def voided(round_no: int, before: WagerResult) -> SettlementVoided:
    """004: a round settled by its result, then cancelled: the wager refunded."""
    after = msgspec.structs.replace(
        before, outcome=WagerOutcome.VOID, winnings=0, returned=before.stake
    )
    return event(
        SettlementVoided,
        SERVICE,
        round=round_no,
        cancel_seq=99,
        reason="not fixed in time",
        adjustments=[_adjustment(before, after)],
        delta=after.returned - before.returned,
    )
