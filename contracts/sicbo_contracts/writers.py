"""Which roles write which event, by the event's type tag (:data:`WRITTEN_BY`), for replay's
audit of the log (``sicbo replay verify``): every stored event's actor must be of a role its
type lists. Who may *send* which command is :mod:`.access`.
"""

from collections.abc import Mapping
from typing import Any, get_args

from sicbo_contracts.accounts import (
    AccountOpened,
    BalanceAdjusted,
    FundsDeposited,
    FundsWithdrawn,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.base import Role, tag_of
from sicbo_contracts.dice import (
    CorrectionProposed,
    CorrectionRejected,
    DiceEntered,
    DiceRead,
    ManualModeEntered,
    ManualModeLeft,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.invalidation import InvalidationProposed, InvalidationRejected
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ClosingNoticePosted,
    ExclusionLifted,
    FaultCleared,
    LimitsChanged,
    LimitsNoticePosted,
    NoResultDeclared,
    PaytableApproved,
    PaytableProposed,
    PlayerExcluded,
    PlayerLimitsOverridden,
    PlayerWagersVoided,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    SeatTaken,
    SeatVacated,
    TableClosed,
    TableOpened,
    TableSuspended,
    Uncovered,
    VacateNoticeIssued,
)
from sicbo_contracts.player_limits import (
    PlayerLimitsOverrideProposed,
    PlayerLimitsOverrideRejected,
)
from sicbo_contracts.resumption import BettingResumed
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.wagers import (
    CarriedSlipChosen,
    ColorChecksIssued,
    ColorChecksRedeemed,
    PromoTokenIssued,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
)

_DEALER, _SUPERVISOR, _INSPECTOR = Role.DEALER, Role.SUPERVISOR, Role.INSPECTOR
_OPERATOR, _PLAYER, _SERVICE = Role.OPERATOR, Role.PLAYER, Role.SERVICE
_BETTORS = frozenset({_PLAYER, _DEALER})  # 000 §3.9-3.11: the player, or a dealer for them
_SERVICES_ONLY = frozenset({_SERVICE})  # settlement, illumination: no command produces these


def _written_by() -> dict[str, frozenset[Role]]:
    roles: dict[Any, frozenset[Role]] = {
        # the table (000 §4, §8.8, §8.9; 002/2004 art. 8; DESIGN.md Roles)
        TableOpened: frozenset({_OPERATOR, _SUPERVISOR}),
        LimitsNoticePosted: frozenset({_SUPERVISOR}),  # 000 §4.3
        LimitsChanged: frozenset({_SUPERVISOR}),  # 000 §4.3
        PlayerLimitsOverridden: frozenset({_SUPERVISOR}),  # 000 §4.4
        PlayerLimitsOverrideProposed: frozenset({_SUPERVISOR}),  # TableConfig.dual_control
        PlayerLimitsOverrideRejected: frozenset({_SUPERVISOR}),
        PlayerExcluded: frozenset({_SUPERVISOR}),  # 000 §8.3.2
        ExclusionLifted: frozenset({_SUPERVISOR}),  # 000 §8.3.2
        ClosingNoticePosted: frozenset({_SUPERVISOR}),  # 000 §8.8
        TableClosed: frozenset({_SUPERVISOR}),  # 000 §8.8
        SeatTaken: frozenset({_DEALER, _SUPERVISOR}),
        SeatVacated: frozenset({_DEALER, _SUPERVISOR}),  # a seat left, or the table closed
        VacateNoticeIssued: _SERVICES_ONLY,  # 000 §8.9: with the settlement's CompleteRound
        PaytableProposed: frozenset({_OPERATOR}),  # 002/2004 art. 8: the operator applies
        PaytableApproved: frozenset({_OPERATOR, _SUPERVISOR}),
        # the round (000 §5, §7, §8.4; 002 art. 4; 004)
        RoundStarted: frozenset({_DEALER, _SUPERVISOR}),  # 000 §5.1
        BettingOpened: frozenset({_DEALER}),  # 000 §5.1: "place your bets"
        BettingClosed: frozenset({_DEALER, _SERVICE}),  # 000 §5.2; 004: the countdown
        Uncovered: frozenset({_DEALER}),  # 000 §5.2
        NoResultDeclared: frozenset({_DEALER, _SUPERVISOR}),  # 000 §7.1-7.4
        RoundInvalidated: frozenset({_SUPERVISOR}),  # 000 §8.4
        InvalidationProposed: frozenset({_SUPERVISOR}),  # TableConfig.dual_control
        InvalidationRejected: frozenset({_SUPERVISOR}),
        PlayerWagersVoided: frozenset({_SUPERVISOR}),  # 000 §8.3.1
        TableSuspended: frozenset({_DEALER, _SUPERVISOR, _INSPECTOR, _SERVICE}),  # 000 §7.6-7.7
        # 000 §7.7: an inspector; 004 "Ralat Pengendalian": the supervisor resumes the round
        FaultCleared: frozenset({_INSPECTOR, _SUPERVISOR}),
        BettingResumed: frozenset({_INSPECTOR, _SUPERVISOR}),  # 004: with the FaultCleared
        RoundCancelled: frozenset({_SUPERVISOR}),  # 004 "Ralat Pengendalian"
        RoundCompleted: _SERVICES_ONLY,  # 002 art. 4: settlement completes the round
        # the result (000 §5.3-5.5; GLI-19 §4.18.4)
        DiceEntered: frozenset({_DEALER, _SUPERVISOR}),  # 000 §5.4
        DiceRead: _SERVICES_ONLY,  # the automatic reader
        ResultConfirmed: frozenset({_DEALER, _SUPERVISOR}),  # 000 §5.4-5.5, a held one resolved
        ResultHeld: frozenset({_DEALER, _SUPERVISOR}),
        ResultCorrected: frozenset({_SUPERVISOR}),  # GLI-19 §4.18.4
        ManualModeEntered: frozenset({_SUPERVISOR}),  # GLI-19 §C.6.8(o)
        ManualModeLeft: frozenset({_SUPERVISOR}),
        CorrectionProposed: frozenset({_SUPERVISOR}),  # TableConfig.dual_control
        CorrectionRejected: frozenset({_SUPERVISOR}),
        # the wagers (000 §3.5-3.11; 002/2004 art. 3(4))
        SlipPlaced: _BETTORS,
        SlipChanged: _BETTORS,
        SlipWithdrawn: _BETTORS,
        CarriedSlipChosen: _BETTORS,
        ColorChecksIssued: frozenset({_DEALER, _SUPERVISOR}),  # 000 §3.7; §3.8 a second colour
        ColorChecksRedeemed: frozenset({_DEALER, _OPERATOR}),  # 000 §3.5: the table, the cage
        PromoTokenIssued: frozenset({_OPERATOR}),  # 000 §1.1: issued by the casino operator
        # players' accounts: the operator's cashier (DESIGN.md Roles), and the game's entries,
        # written by wager intake (debits, refunds) and settlement (returns, adjustments)
        AccountOpened: frozenset({_OPERATOR}),
        FundsDeposited: frozenset({_OPERATOR}),
        FundsWithdrawn: frozenset({_OPERATOR}),
        StakeDebited: _SERVICES_ONLY,
        StakeRefunded: _SERVICES_ONLY,
        ReturnCredited: _SERVICES_ONLY,
        BalanceAdjusted: _SERVICES_ONLY,
    }
    for cls in (*get_args(SettlementEvent), *get_args(IlluminationEvent)):
        roles[cls] = _SERVICES_ONLY
    return {tag_of(cls): who for cls, who in roles.items()}


#: Event type tag -> the roles an event of that type may record as its actor: the roles whose
#: commands the deciders accept for it (``require_role``), and the service accounts of the
#: services that append without a command (settlement, illumination) or send the command
#: themselves (the countdown's CloseBetting, settlement's CompleteRound, illumination's
#: ReportMalfunction, the reader's ReadDice). Replay checks every stored event against it;
#: tests/unit/replay/test_written_by.py holds it against the deciders.
WRITTEN_BY: Mapping[str, frozenset[Role]] = _written_by()


def may_write(role: Role, event_type: str) -> bool:
    """Whether an event of ``event_type`` (its tag) may record an actor of ``role``."""
    return role in WRITTEN_BY.get(event_type, frozenset())
