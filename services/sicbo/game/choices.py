"""The operator's optional choices of a profile, and the rule that governs adopting them.

A profile document lists its options under ``[choices]`` (002/2004 arts. 1, 2, 5 and 6: the
"may" and the "one or the other" of the text) and, under ``[authorisation]``, what adopting one
needs (002/2004 art. 8: the regulator's prior permission, applied for three working days
before the adoption date). A choice is one of three shapes:

- a whole number in a range (``min``/``max``): a pay "X to 1" of the ``totals`` it names
  (002/2004 art. 6(6)), or a count (002/2004 art. 1(3): one or more layouts);
- one of named ``values`` (002/2004 art. 1(2)(1) and 2(1): the handle or the electric shaker);
- ``offers`` a bet kind: "yes" keeps it on the layout, "no" takes it off (002/2004 art. 5).

A choice with no effect on the pays (equipment, procedure) is still part of the paytable
reference every round records, so the log says which approved options a round was played with.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sicbo.game.bets import BetKind
from sicbo.game.errors import InvalidChoice

ChoiceValue = int | str

#: The values of a choice that ``offers`` a bet kind.
OFFER_VALUES = ("yes", "no")


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a profile: its name, the clause that gives it, what it may be."""

    name: str
    rule: str  # the clause that gives the option, e.g. "002/2004 art. 6(6)"
    default: ChoiceValue  # what the table plays until another value is approved
    minimum: int | None = None  # a whole-number choice: its range
    maximum: int | None = None
    values: tuple[str, ...] = ()  # a named choice: its alternatives
    totals: tuple[int, ...] = ()  # the totals whose pay "X to 1" this is
    offers: BetKind | None = None  # the bet kind this choice keeps on or takes off the layout

    @property
    def numeric(self) -> bool:
        return self.minimum is not None

    def allowed(self) -> str:
        if self.minimum is not None:
            unit = " to 1" if self.totals else ""
            verb = "pays" if self.totals else "is"
            return f"{verb} {self.minimum} to {self.maximum}{unit}"
        return "is one of " + ", ".join(self.values)

    def check(self, value: object, profile_id: str) -> ChoiceValue:
        """``value`` if this choice may take it, else raise :class:`InvalidChoice`."""
        if self.minimum is not None and self.maximum is not None:
            if type(value) is int and self.minimum <= value <= self.maximum:
                return value
        elif type(value) is str and value in self.values:
            return value
        raise InvalidChoice(
            f"choice {self.name!r} of {profile_id!r} {self.allowed()}, got {value!r} ({self.rule})"
        )

    def withdraws(self, value: ChoiceValue) -> bool:
        """Whether ``value`` takes this choice's bet kind off the layout."""
        return self.offers is not None and value == "no"


@dataclass(frozen=True, slots=True)
class Authorisation:
    """What adopting a choice of the profile needs (002/2004 art. 8)."""

    rule: str
    regulator: str
    notice_working_days: int  # the application goes in this many working days before
    reference_required: bool  # the approval names the regulator's permission


def parse_value(text: str) -> ChoiceValue:
    """A choice's value as a paytable reference or the command line writes it: digits are a
    whole number, anything else a name."""
    return int(text) if text.isdigit() else text


def parse_choice(name: str, doc: Mapping[str, Any], where: str) -> Choice:
    """One ``[choices.NAME]`` table; raises ``ValueError`` naming the bad field."""
    here = f"{where}.choices.{name}"
    rule = doc.get("rule")
    if not isinstance(rule, str) or not rule:
        raise ValueError(f"{here}: every choice names the clause that gives it (rule)")
    offers = BetKind(doc["offers"]) if "offers" in doc else None
    if offers is not None:
        values: tuple[str, ...] = OFFER_VALUES
    else:
        values = tuple(str(v) for v in doc.get("values", ()))
    ranged = "min" in doc or "max" in doc
    if ranged == bool(values):
        raise ValueError(f"{here}: a choice has either min and max, or values (or offers)")
    default = doc.get("default")
    choice = Choice(
        name=name,
        rule=rule,
        default=default if isinstance(default, int | str) else "",
        minimum=int(doc["min"]) if ranged else None,
        maximum=int(doc["max"]) if ranged else None,
        values=values,
        totals=tuple(int(t) for t in doc.get("totals", ())),
        offers=offers,
    )
    if choice.totals and not ranged:
        raise ValueError(f"{here}: a pay of totals is a whole number (min and max)")
    try:
        choice.check(default, where)
    except InvalidChoice:
        raise ValueError(f"{here}: the default {default!r} {choice.allowed()}") from None
    return choice


def parse_authorisation(doc: Mapping[str, Any], where: str) -> Authorisation:
    here = f"{where}.authorisation"
    try:
        return Authorisation(
            rule=str(doc["rule"]),
            regulator=str(doc["regulator"]),
            notice_working_days=int(doc["notice_working_days"]),
            reference_required=bool(doc["reference_required"]),
        )
    except KeyError as missing:
        raise ValueError(f"{here}: {missing.args[0]} is required") from None
