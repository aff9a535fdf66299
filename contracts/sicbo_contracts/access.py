"""Who may send which command, by the command's type tag: the one table the services, the NATS
accounts and the gateway read (DESIGN.md Roles: authority comes from the credential).

A command is sent on ``sicbo.cmd.<table>.<service>.<sender>`` (:mod:`.subjects`). The sender is
a human role (``dealer``, ``supervisor``, ``inspector``, ``operator``, ``player``) or a service
account (``countdown``, ``settlement``, ``illumination``, ``reader``): service accounts all act
as ``Role.SERVICE`` in the payload, but each may send only its own command, and NATS tells
them apart only by subject. The NATS accounts (sicbo.infra.nats_accounts) let each user publish
on its own sender's subjects only; the shell (sicbo.shell.commands) refuses, as "forbidden", a
command whose ``actor.role`` is not its sender's role, or whose type its sender may not send.
The deciders still check the role themselves (``require_role``).

:data:`TERMINAL_ACTIONS` also says which buttons a terminal shows and which commands the
gateway forwards for a signed-in operator, so a dealer never sees a supervisor's action
(GLI-19 §C.6: access by role). It mirrors the deciders' checks; tests/unit/gateway/test_access.py
holds each entry against the service's decider, tests/unit/contracts/test_access.py the rest.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from sicbo_contracts.base import Role, with_article

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
_SLIP = (
    "bets.place-slip.v1",  # 000 §3.10-3.11: a player wagers, or a dealer for them
    "bets.change-slip.v1",  # 000 §3.9-3.11: and changes or withdraws it before no more bets
    "bets.withdraw-slip.v1",
    "bets.choose-carried.v1",  # 002/2004 art. 3(4): the player's choice (or the dealer's for them)
)

# DESIGN.md Roles: the operator's cashier opens players' accounts, takes deposits, pays out.
_CASHIER = ("account.open.v1", "account.deposit.v1", "account.withdraw.v1")

# 000 §5.6: only the dealer and the supervisors operate the game; each role its own commands.
TERMINAL_ACTIONS: Mapping[Role, frozenset[str]] = {
    Role.DEALER: frozenset(
        {
            *_ROUND,
            *_RESULT,
            *_SEATS,
            *_MALFUNCTION,
            *_SLIP,  # 000 §3.10-3.11: a dealer places, changes and withdraws for a player
            "bets.issue-color-checks.v1",  # 000 §3.7: a player's first colour
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
            "round.approve-invalidation.v1",  # TableConfig.dual_control
            "round.reject-invalidation.v1",
            "round.cancel.v1",  # 004 "Ralat Pengendalian"
            "round.resume.v1",  # 004 "Ralat Pengendalian": fixed quickly, the round resumes
            "dice.correct.v1",  # GLI-19 §4.18.4
            "dice.enter-manual-mode.v1",  # GLI-19 §C.6.8(o)
            "dice.leave-manual-mode.v1",
            "dice.approve-correction.v1",  # TableConfig.dual_control
            "dice.reject-correction.v1",
            "dice.resolve-held.v1",  # DESIGN.md Roles: supervisor overrides
            "table.open.v1",
            "table.change-limits.v1",  # 000 §4.3
            "table.post-limits-notice.v1",  # 000 §4.3
            "table.override-player-limits.v1",  # 000 §4.4
            "table.approve-player-limits.v1",  # TableConfig.dual_control
            "table.reject-player-limits.v1",
            "round.void-player-wagers.v1",  # 000 §8.3.1
            "table.exclude-player.v1",  # 000 §8.3.2
            "table.lift-exclusion.v1",  # 000 §8.3.2
            "table.post-closing-notice.v1",  # 000 §8.8
            "table.close.v1",  # 000 §8.8
            "paytable.approve.v1",  # 002/2004 art. 8
            "bets.issue-color-checks.v1",  # 000 §3.8: a second colour, at his discretion
        }
    ),
    Role.INSPECTOR: frozenset({*_MALFUNCTION, "table.clear-fault.v1"}),  # 000 §7.7
    Role.OPERATOR: frozenset(
        {
            "table.open.v1",
            "paytable.propose.v1",  # 002/2004 art. 8: the operator applies
            "paytable.approve.v1",
            "bets.redeem-color-checks.v1",  # 000 §3.5: at the cage
            "bets.issue-promo-token.v1",  # 000 §1.1: issued by the casino operator
            *_CASHIER,
        }
    ),
}

#: A player's own commands (never from a terminal: through the gateway's play page).
PLAYER_ACTIONS: frozenset[str] = frozenset(_SLIP)  # 000 §3.9-3.11, 002/2004 art. 3(4)


class ServiceAccount(StrEnum):
    """The services that send commands, each under its own name (``actor.role`` = service)."""

    COUNTDOWN = "countdown"  # the lifecycle's online betting countdown, to itself
    SETTLEMENT = "settlement"
    ILLUMINATION = "illumination"
    READER = "reader"  # an automatic dice reader (DESIGN.md: a second source of the result)


#: The one command each service account may send. Nobody else sends these as a service.
SERVICE_ACTIONS: Mapping[ServiceAccount, frozenset[str]] = {
    # 004 "Cara Bermain": the countdown closes betting; in-process only, never over NATS.
    ServiceAccount.COUNTDOWN: frozenset({"round.close-betting.v1"}),
    # 002 art. 4: the round completes (the next may start) once every winner is paid.
    ServiceAccount.SETTLEMENT: frozenset({"round.complete.v1"}),
    # 000 §7.6-7.7: the layout lit wrongly is an equipment malfunction.
    ServiceAccount.ILLUMINATION: frozenset({"table.report-malfunction.v1"}),
    ServiceAccount.READER: frozenset({"dice.read.v1"}),  # DESIGN.md Roles: the automatic reader
}


@dataclass(frozen=True, slots=True)
class Sender:
    """Who sends on a command subject: the role its commands must name, and what it may send."""

    name: str  # the last token of its command subjects
    role: Role
    actions: frozenset[str]
    #: False: only a service to itself, in its own process (the countdown); refused from NATS.
    over_nats: bool = True


SENDERS: Mapping[str, Sender] = {
    **{role.value: Sender(role.value, role, actions) for role, actions in TERMINAL_ACTIONS.items()},
    Role.PLAYER.value: Sender(Role.PLAYER.value, Role.PLAYER, PLAYER_ACTIONS),
    **{
        account.value: Sender(
            account.value, Role.SERVICE, actions, over_nats=account is not ServiceAccount.COUNTDOWN
        )
        for account, actions in SERVICE_ACTIONS.items()
    },
}

#: The senders a person is (the web gateway sends for them, stamping the one signed in).
HUMAN_SENDERS: tuple[str, ...] = tuple(
    s.name for s in SENDERS.values() if s.role is not Role.SERVICE
)


def may_send(role: Role, command_type: str) -> bool:
    """Whether a terminal of this role offers the command (the gateway forwards it)."""
    return command_type in TERMINAL_ACTIONS.get(role, frozenset())


def senders_of(command_type: str) -> list[str]:
    """Every sender that may send this command type."""
    return [s.name for s in SENDERS.values() if command_type in s.actions]


def sender_for(role: Role, command_type: str) -> str:
    """The sender a command of this type by this role goes out as: the role itself, or for
    ``Role.SERVICE`` the service account whose command it is (``role.value`` if none is)."""
    if role is Role.SERVICE:
        for name in senders_of(command_type):
            if SENDERS[name].role is Role.SERVICE:
                return name
    return role.value


def refusal(sender: str, role: Role, command_type: str, *, in_process: bool = False) -> str | None:
    """Why ``sender`` may not send this command with this ``actor.role``; None if it may.
    DESIGN.md Roles: the role a command acts with is its sender's, never the payload's."""
    known = SENDERS.get(sender)
    if known is None:
        return (
            f"nobody sends as {sender!r}: a command subject ends with its sender, one of"
            f" {', '.join(SENDERS)}"
        )
    if not (known.over_nats or in_process):
        return f"{with_article(sender)} command is sent by its service to itself, never over NATS"
    if role is not known.role:
        return (
            f"actor.role {role.value!r} is not the sender's: a command sent as {sender} acts"
            f" as {known.role.value} (authority comes from the credential, not the payload)"
        )
    if command_type not in known.actions:
        allowed = ", ".join(senders_of(command_type)) or "nobody"
        return f"{with_article(sender)} may not send {command_type} (only: {allowed})"
    return None
