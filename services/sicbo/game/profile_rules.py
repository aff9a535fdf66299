"""The parts of a rule profile that govern the round's procedure rather than its pays: how a
round is started (``[activation.*]``), whether a supervisor may cancel a round into refunds
(``[cancellation]``) and whether the layout must be lit (``[layout_lamps]``).

Each is data in the profile document with the clause it comes from (``rule``), so that a
refusal names the rule of the table's own profile; code never branches on a profile id.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from sicbo_contracts.lifecycle import Activation


@dataclass(frozen=True, slots=True)
class ActivationRule:
    """One way the profile's rules start a round, and the fewest tumbles it needs (0: none
    counted, 002/2004 art. 2(1) "或啟動電動搖骰裝置")."""

    activation: Activation
    min_tumbles: int
    rule: str


class CancellationPolicy(StrEnum):
    """When a supervisor may cancel a round and refund every wager."""

    NEVER = "never"  # no rule of the profile provides it
    AFTER_FAULT = "after-fault"  # 004 "Ralat Pengendalian": suspended, no quick fix


@dataclass(frozen=True, slots=True)
class CancellationRule:
    when: CancellationPolicy
    rule: str

    @property
    def allowed(self) -> bool:
        return self.when is not CancellationPolicy.NEVER


@dataclass(frozen=True, slots=True)
class LayoutLampsRule:
    """Whether the rules say the winning areas of the layout shall be lit (000 §2.3)."""

    required: bool
    rule: str


def _rule(doc: Mapping[str, Any], where: str) -> str:
    rule = doc.get("rule")
    if not isinstance(rule, str) or not rule.strip():
        raise ValueError(f"{where}: rule must name the clause it comes from")
    return rule


def parse_activations(doc: Mapping[str, Any], where: str) -> Mapping[Activation, ActivationRule]:
    """``[activation.<way>]`` tables: ``min_tumbles`` and ``rule`` for each allowed way."""
    if not doc:
        raise ValueError(f"{where}: a profile starts its rounds in at least one way")
    rules: dict[Activation, ActivationRule] = {}
    for name, entry in doc.items():
        try:
            activation = Activation(name)
        except ValueError:
            ways = ", ".join(a.value for a in Activation)
            raise ValueError(f"{where}.{name}: unknown activation (one of {ways})") from None
        tumbles = entry.get("min_tumbles")
        if type(tumbles) is not int or not 0 <= tumbles <= 100:
            raise ValueError(f"{where}.{name}.min_tumbles: a whole number 0..100")
        rules[activation] = ActivationRule(activation, tumbles, _rule(entry, f"{where}.{name}"))
    return MappingProxyType(rules)


def parse_cancellation(doc: Mapping[str, Any], where: str) -> CancellationRule:
    return CancellationRule(CancellationPolicy(doc["when"]), _rule(doc, where))


def parse_layout_lamps(doc: Mapping[str, Any], where: str) -> LayoutLampsRule:
    required = doc.get("required")
    if not isinstance(required, bool):
        raise ValueError(f"{where}.required: true or false")
    return LayoutLampsRule(required, _rule(doc, where))
