"""What each role may do from a terminal (pure).

The services decide: every decider checks the actor's role (``require_role``) and cites the
rule. This table only says which buttons a terminal shows and which commands the gateway
forwards for a signed-in operator, so a dealer never sees a supervisor's action (GLI-19 §C.6:
access by role). It mirrors the deciders' checks; tests/unit/gateway/test_access.py holds each
entry against the service's decider.
"""

from collections.abc import Mapping

from sicbo_contracts.base import Role

_ROUND = (
    "round.start.v1",  # 000 §5.1 (dealer or supervisor)
    "round.open-betting.v1",  # 000 §5.1: the dealer calls "place your bets"
    "round.close-betting.v1",  # 000 §5.2: "no more bets"
    "round.uncover.v1",  # 000 §5.2
)
_RESULT = (
    "dice.enter.v1",  # 000 §5.3-5.4: the dealer or the game supervisor
    "dice.confirm.v1",  # 000 §5.4-5.5
    "round.declare-no-result.v1",  # 000 §7.1-7.4
)
_SEATS = ("table.take-seat.v1", "table.leave-seat.v1")  # 000 §8.9
_MALFUNCTION = ("table.report-malfunction.v1",)  # 000 §7.2, §7.6-7.7

TERMINAL_ACTIONS: Mapping[Role, frozenset[str]] = {
    Role.DEALER: frozenset(
        {
            *_ROUND,
            *_RESULT,
            *_SEATS,
            *_MALFUNCTION,
            "bets.place-slip.v1",  # 000 §3.10-3.11: a dealer places for a player
            "bets.change-slip.v1",  # 000 §3.9-3.11: or changes and withdraws for them
            "bets.withdraw-slip.v1",
            "bets.choose-carried.v1",  # 002/2004 art. 3(4): the player's choice, through the dealer
            "bets.issue-color-checks.v1",  # 000 §3.7
            "bets.redeem-color-checks.v1",  # 000 §3.5
        }
    ),
    Role.SUPERVISOR: frozenset(
        {
            "round.start.v1",
            *_RESULT,
            *_SEATS,
            *_MALFUNCTION,
            "round.invalidate.v1",  # 000 §8.4
            "round.cancel.v1",  # 004 "Ralat Pengendalian"
            "dice.correct.v1",  # GLI-19 §4.18.4
            "dice.resolve-held.v1",  # DESIGN.md Roles: supervisor overrides
            "table.open.v1",
            "table.change-limits.v1",  # 000 §4.3
            "table.post-limits-notice.v1",  # 000 §4.3
            "table.override-player-limits.v1",  # 000 §4.4
            "table.post-closing-notice.v1",  # 000 §8.8
            "table.close.v1",  # 000 §8.8
            "paytable.approve.v1",  # 002/2004 art. 8
        }
    ),
    Role.INSPECTOR: frozenset({*_MALFUNCTION, "table.clear-fault.v1"}),  # 000 §7.7
    Role.OPERATOR: frozenset(
        {
            "table.open.v1",
            "paytable.propose.v1",  # 002/2004 art. 8: the operator applies
            "paytable.approve.v1",
            "bets.redeem-color-checks.v1",  # 000 §3.5: at the cage
        }
    ),
}


def may_send(role: Role, command_type: str) -> bool:
    return command_type in TERMINAL_ACTIONS.get(role, frozenset())
