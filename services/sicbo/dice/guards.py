"""Checks shared by the dice capture's command handlers; each refuses with the rule it applies."""

from __future__ import annotations

from sicbo.decider import Refused, refuse
from sicbo.dice.state import DiceState, Entry, Phase, RoundState
from sicbo.game.dice import Roll, make_roll
from sicbo.game.errors import InvalidDice
from sicbo_contracts.base import Dice


def current_round(state: DiceState, number: int) -> RoundState:
    """The current round, if ``number`` names it."""
    current = state.round
    if current is None:
        refuse(
            f"no round has started at table {state.table}: there are no dice to capture",
            key="round.none",
        )
    if number != current.number:
        refuse(
            f"round {number} is not the current round of table {state.table}"
            f" (round {current.number} is): only the current round's dice are captured",
            key="round.not-current",
            params={"round": number, "current": current.number},
        )
    return current


def capturable_round(state: DiceState, number: int) -> RoundState:
    """The current round, if a result can be captured for it now: uncovered, and not void.

    Not checked on purpose: a table suspension (000 §7.6: wagers settle by the dice even
    when the layout is not lit)."""
    current = current_round(state, number)
    if current.void is not None:
        refuse(
            f"round {current.number} has no result: {current.void}",
            key="dice.no-result",
            params={"round": current.number},
        )
    if current.phase is not Phase.UNCOVERED:
        refuse(
            f"round {current.number} is not uncovered yet ({current.phase.value}): the result"
            ' is announced and entered after "no more bets" and the uncover (000 §5.2-5.4)',
            key="dice.not-uncovered",
            params={"round": current.number},
        )
    return current


def pending_entry(current: RoundState) -> Entry:
    """The entry awaiting confirmation."""
    if current.result is not None:
        refuse(
            f"round {current.number}'s result is already confirmed as {show_dice(current.result)};"
            " a supervisor may correct it (GLI-19 §4.18.4)",
            key="dice.already-confirmed",
            params={"round": current.number, "dice": show_dice(current.result)},
        )
    if current.entry is None:
        refuse(
            f"no dice are entered for round {current.number}: enter them first (000 §5.4)",
            key="dice.none-entered",
            params={"round": current.number},
        )
    return current.entry


def as_roll(dice: Dice) -> Roll:
    """The dice as a result (a sorted multiset). Decoded commands are already 1..6; a command
    built in code is not validated by msgspec, so a bad die is refused, never stored."""
    try:
        return make_roll(dice)
    except InvalidDice as error:
        raise Refused(f"{error} (000 §2.5: each die shows 1 to 6)", key="dice.faces") from None


def show_dice(dice: Dice) -> str:
    return "-".join(str(d) for d in dice)


def require_second_person(state: DiceState, actor_id: str, entered_by: str, who: str) -> None:
    """000 §5.4 where the table asks for it: the person who entered the dice does not confirm
    them (``TableConfig.second_person_confirmation``)."""
    if state.second_person_confirmation and actor_id == entered_by:
        refuse(
            f"table {state.table} requires a second person to confirm the dice:"
            f" {entered_by!r} entered them, so {who}"
            " (TableConfig.second_person_confirmation)",
            key="dice.second-person",
            params={"by": entered_by},
        )
