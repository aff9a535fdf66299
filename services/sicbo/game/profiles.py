"""Rule profiles as versioned data documents, and the paytable a table plays under.

A profile is a TOML document in ``profiles/`` (one per rule source); code never branches on a
profile id. A :class:`Paytable` is a profile with the operator's choices applied: it is what a
round is opened under, and what replay settles with.
"""

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import Any

from sicbo.game.bets import TOTALS, Bet, BetKind, bets_of_kind
from sicbo.game.choices import (
    Authorisation,
    Choice,
    ChoiceValue,
    parse_authorisation,
    parse_choice,
    parse_value,
)
from sicbo.game.errors import BetNotOffered, InvalidChoice, UnknownProfile
from sicbo.game.profile_rules import (
    ActivationRule,
    CancellationRule,
    LayoutLampsRule,
    parse_activations,
    parse_cancellation,
    parse_layout_lamps,
)
from sicbo_contracts.lifecycle import Activation

PROFILE_IDS: tuple[str, ...] = ("cca-1992", "macau-2003", "macau-2004", "online-live")
SCHEMA = "sicbo.profile.v1"
#: The time zone of a profile's tables when its document names none (a table may set its own).
DEFAULT_TIME_ZONE = "UTC"

__all__ = ["Authorisation", "Choice", "ChoiceValue"]


class NoResultPolicy(StrEnum):
    """What happens to the round's wagers after "no result" (RULES.md "Irregularities")."""

    REFUND = "refund"  # 000 §7.5: every wager void and returned
    CARRY_OVER_LOCKED = "carry-over-locked"  # 002/2003 art. 3(3), 004: re-run, wagers stay
    PLAYER_CHOICE = "player-choice"  # 002/2004 art. 3(4): cancel, keep or change

    @property
    def carries_wagers(self) -> bool:
        """The void round's wagers stand in the re-run round."""
        return self is not NoResultPolicy.REFUND


def carries_wagers(consequence: str | None) -> bool:
    """Whether a "no result" with this recorded consequence leaves the void round's wagers
    standing in the re-run round (002/2003 art. 3(3) and 004: locked; 002/2004 art. 3(4): the
    player cancels, keeps or changes them). The one place the carry-over rule is decided."""
    try:
        return consequence is not None and NoResultPolicy(consequence).carries_wagers
    except ValueError:  # a consequence this version does not know carries nothing
        return False


class IlluminationFaultPolicy(StrEnum):
    SUSPEND_TABLE = "suspend-table"  # 000 §7.6-7.7: settle by the dice, inspector clears
    SUSPEND_ROUND = "suspend-round"  # 004: resume if fixed in time, else cancel and refund


@dataclass(frozen=True)
class Profile:
    id: str
    version: int
    title: str
    source: str
    triple_kills: frozenset[BetKind]
    no_result_policy: NoResultPolicy
    illumination_fault: IlluminationFaultPolicy
    supervisor_invalidation: bool
    betting_countdown: bool
    #: How a round may be started, and the fewest tumbles each way (000 §5.1, 002 art. 2).
    activations: Mapping[Activation, ActivationRule]
    #: Whether a supervisor may cancel a round into refunds (004 "Ralat Pengendalian").
    cancellation: CancellationRule
    #: Whether the layout's winning areas shall be lit (000 §2.3).
    layout_lamps: LayoutLampsRule
    pays: Mapping[str, Fraction]
    choices: Mapping[str, Choice]
    #: A countdown paused by a suspension resumes with the time left, but at least this many
    #: seconds (004 "Ralat Pengendalian": the round "continues as usual"; docs/rules.md).
    resume_betting_seconds: int = 0
    #: What adopting a choice needs (002/2004 art. 8); None for a profile without choices.
    authorisation: Authorisation | None = None
    #: The IANA time zone of the profile's tables (002: "Asia/Macau"): their days and working
    #: days are counted there. A table's configuration may name another.
    time_zone: str = DEFAULT_TIME_ZONE

    @property
    def takes_remote_players(self) -> bool:
        """Whether players bet from their own devices: 004's online live-dealer table, whose
        players bet in the countdown ("Cara Bermain"). The land rules (000, 002) have the
        players' chips on the layout, placed by them or the dealer at the table."""
        return self.betting_countdown

    def paytable(self, choices: Mapping[str, ChoiceValue] | None = None) -> "Paytable":
        """The profile with the operator's choices; refuses a choice outside the rules."""
        applied: dict[str, ChoiceValue] = {}
        for name, value in (choices or {}).items():
            choice = self.choices.get(name)
            if choice is None:
                allowed = ", ".join(self.choices) or "none"
                raise InvalidChoice(
                    f"profile {self.id!r} has no choice {name!r} (its choices: {allowed})"
                )
            applied[name] = choice.check(value, self.id)
        pays = dict(self.pays)
        in_force = {name: applied.get(name, c.default) for name, c in self.choices.items()}
        withdrawn = {
            c.offers: c
            for name, c in self.choices.items()
            if c.offers is not None and c.withdraws(in_force[name])
        }
        for name, choice in self.choices.items():
            if not choice.totals:
                continue
            if BetKind.TOTAL in withdrawn:
                if name in applied:
                    by = withdrawn[BetKind.TOTAL]
                    raise InvalidChoice(
                        f"choice {name!r} pays total bets, which {by.name}=no takes off the"
                        f" layout ({choice.rule}; {by.rule})"
                    )
                continue
            for t in choice.totals:
                pays[pay_key(BetKind.TOTAL, t)] = Fraction(in_force[name])
        pays = {k: v for k, v in pays.items() if BetKind(k.partition("/")[0]) not in withdrawn}
        if not pays:
            raise InvalidChoice(
                f"a paytable of {self.id!r} offers at least one bet: every one is withdrawn"
                " (002/2004 art. 1(3): a layout printed with the bets)"
            )
        return Paytable(self, MappingProxyType(applied), MappingProxyType(pays))


def pay_key(kind: BetKind, level: int | None = None) -> str:
    """Key of a pay in a paytable: the kind, with the total or the count of matching dice."""
    return kind.value if level is None else f"{kind.value}/{level}"


@dataclass(frozen=True, eq=False)
class Paytable:
    """Equal and hashed by :attr:`ref`, so results computed for it can be cached."""

    profile: Profile
    choices: Mapping[str, ChoiceValue]  # the operator's, as applied (defaults left out)
    pays: Mapping[str, Fraction]
    offered_kinds: frozenset[BetKind] = field(init=False)

    def __post_init__(self) -> None:
        kinds = frozenset(BetKind(key.partition("/")[0]) for key in self.pays)
        object.__setattr__(self, "offered_kinds", kinds)

    @property
    def ref(self) -> str:
        """A stable name of this exact paytable, recorded on every round opened under it."""
        base = f"{self.profile.id}@v{self.profile.version}"
        if not self.choices:
            return base
        return base + "?" + "&".join(f"{k}={v}" for k, v in sorted(self.choices.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Paytable) and other.ref == self.ref

    def __hash__(self) -> int:
        return hash(self.ref)

    def choice(self, name: str) -> ChoiceValue:
        """The value in force of one of the profile's choices (applied, else its default), e.g.
        ``"activation"`` (002/2004 art. 2(1)); raises ``KeyError`` for a choice it has not."""
        return self.choices.get(name, self.profile.choices[name].default)

    def offers(self, bet: Bet) -> bool:
        return bet.kind in self.offered_kinds

    def require_offered(self, bet: Bet) -> None:
        if not self.offers(bet):
            raise BetNotOffered(f"bet {bet.id!r} is not offered under {self.profile.id!r}")

    def offered_bets(self) -> tuple[Bet, ...]:
        return tuple(
            b for kind in BetKind if kind in self.offered_kinds for b in bets_of_kind(kind)
        )

    def kills_on_triple(self, kind: BetKind) -> bool:
        return kind in self.profile.triple_kills


def _ratio(text: object, where: str) -> Fraction:
    if not isinstance(text, str):
        raise ValueError(f"{where}: a pay is written 'N:D', got {text!r}")
    num, sep, den = text.partition(":")
    if not sep or not num.isdigit() or not den.isdigit() or int(den) == 0:
        raise ValueError(f"{where}: a pay is written 'N:D', got {text!r}")
    return Fraction(int(num), int(den))


def _parse_pays(doc: Mapping[str, Any], where: str) -> dict[str, Fraction]:
    pays: dict[str, Fraction] = {}
    for name, value in doc.items():
        kind = BetKind(name)
        if kind is BetKind.SINGLE:
            if sorted(value) != ["1", "2", "3"]:
                raise ValueError(f"{where}: single pays by 1, 2 and 3 dice")
            for count, ratio in value.items():
                pays[pay_key(kind, int(count))] = _ratio(ratio, f"{where}.single.{count}")
        elif kind is BetKind.TOTAL:
            if sorted(int(t) for t in value) != list(TOTALS):
                raise ValueError(f"{where}: totals pay for each of 4..17")
            for t, ratio in value.items():
                pays[pay_key(kind, int(t))] = _ratio(ratio, f"{where}.total.{t}")
        else:
            pays[pay_key(kind)] = _ratio(value, f"{where}.{name}")
    return pays


def parse_profile(doc: Mapping[str, Any]) -> Profile:
    """Build a profile from its document; raises ``ValueError`` naming the bad field."""
    where = str(doc.get("id", "<profile>"))
    if doc.get("schema") != SCHEMA:
        raise ValueError(f"{where}: schema must be {SCHEMA!r}")
    choices = {name: parse_choice(name, c, where) for name, c in doc.get("choices", {}).items()}
    authorisation = doc.get("authorisation")
    if choices and authorisation is None:
        raise ValueError(f"{where}: a profile with choices says what adopting one needs")
    return Profile(
        id=str(doc["id"]),
        version=int(doc["version"]),
        title=str(doc["title"]),
        source=str(doc["source"]),
        triple_kills=frozenset(BetKind(k) for k in doc["triple_kills"]),
        no_result_policy=NoResultPolicy(doc["no_result_policy"]),
        illumination_fault=IlluminationFaultPolicy(doc["illumination_fault"]),
        supervisor_invalidation=bool(doc["supervisor_invalidation"]),
        betting_countdown=bool(doc["betting_countdown"]),
        activations=parse_activations(doc["activation"], f"{where}.activation"),
        cancellation=parse_cancellation(doc["cancellation"], f"{where}.cancellation"),
        layout_lamps=parse_layout_lamps(doc["layout_lamps"], f"{where}.layout_lamps"),
        pays=MappingProxyType(_parse_pays(doc["pays"], f"{where}.pays")),
        choices=MappingProxyType(choices),
        resume_betting_seconds=_seconds(doc.get("resume_betting_seconds", 0), where),
        authorisation=parse_authorisation(authorisation, where) if authorisation else None,
        time_zone=str(doc.get("time_zone", DEFAULT_TIME_ZONE)),
    )


def _seconds(value: object, where: str) -> int:
    if type(value) is not int or value < 0:
        raise ValueError(f"{where}: resume_betting_seconds is a whole number >= 0, got {value!r}")
    return value


_cache: dict[str, Profile] = {}


def load_profile(profile_id: str) -> Profile:
    """The profile document shipped with the library (read once, then cached)."""
    if profile_id not in PROFILE_IDS:
        raise UnknownProfile(
            f"unknown rule profile {profile_id!r}; profiles: {', '.join(PROFILE_IDS)}"
        )
    if profile_id not in _cache:
        text = resources.files("sicbo.game").joinpath(f"profiles/{profile_id}.toml").read_text()
        _cache[profile_id] = parse_profile(tomllib.loads(text))
    return _cache[profile_id]


def load_paytable(profile_id: str, choices: Mapping[str, ChoiceValue] | None = None) -> Paytable:
    return load_profile(profile_id).paytable(choices)


def parse_paytable_ref(ref: str) -> Paytable:
    """Inverse of :attr:`Paytable.ref`: how replay finds the paytable a round was opened under."""
    base, _, query = ref.partition("?")
    profile_id, _, version = base.partition("@v")
    profile = load_profile(profile_id)
    if version != str(profile.version):
        raise UnknownProfile(f"paytable {ref!r}: profile {profile_id!r} is at v{profile.version}")
    choices: dict[str, ChoiceValue] = {}
    for part in filter(None, query.split("&")):
        name, _, value = part.partition("=")
        if not value:
            raise InvalidChoice(f"paytable {ref!r}: choice {name!r} needs a value")
        choices[name] = parse_value(value)
    return profile.paytable(choices)
