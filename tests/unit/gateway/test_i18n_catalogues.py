"""The pages' message catalogues (static/i18n/*.json, issue 15 item 4): every language has
exactly English's keys, every key the pages ask for is in English's, every message fills the
same holes in each language, and the bet names are the seeds' own."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path

import pytest

from sicbo.game.bets import BetKind
from sicbo.game.profiles import IlluminationFaultPolicy
from sicbo.gateway.http import CODE_KEYS, STATIC
from sicbo.gateway.launch import LAUNCH_KEYS, launch_key
from sicbo.gateway.redaction import ANOTHER_PLAYER
from sicbo.illumination.lamps import EQUIPMENT
from sicbo.replay.findings import CHECKS
from sicbo_contracts.accounts import AccountEvent
from sicbo_contracts.base import Role
from sicbo_contracts.settlement import SettlementBasis
from sicbo_contracts.wagers import Medium

CATALOGUES = STATIC / "i18n"
LANGUAGES = ("zh-Hant", "ms")
#: t("key", ...) in the pages' scripts; a key built at run time (t(`phase.${x}`)) is checked
#: by its own test below.
CALL = re.compile(r"""\bt\(\s*["']([^"']+)["']""")
CHOICE = re.compile(r"""\bt\(\s*[^()"'`]+\?\s*["']([^"']+)["']\s*:\s*["']([^"']+)["']""")
MARKED = re.compile(r"""data-i18n(?:-title|-placeholder|-label)?=["']([^"']+)["']""")
HOLE = re.compile(r"\{(\w+)\}")


def catalogue(language: str) -> dict[str, str]:
    data = json.loads((CATALOGUES / f"{language}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def code_lines(path: Path) -> str:
    """The script without its comment lines (a comment may quote t("key") as an example)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("//", "*", "/*")))


def keys_used() -> set[str]:
    used: set[str] = set()
    for path in sorted(STATIC.glob("*.js")):
        text = code_lines(path)
        used.update(CALL.findall(text))
        for pair in CHOICE.findall(text):
            used.update(pair)
    for path in sorted(STATIC.glob("*.html")):
        used.update(MARKED.findall(path.read_text(encoding="utf-8")))
    return used


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_has_exactly_the_english_keys(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    assert sorted(set(english) - set(other)) == [], f"{language} lacks these"
    assert sorted(set(other) - set(english)) == [], f"{language} has these English has not"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_message_has_the_same_holes_in_every_language(language: str) -> None:
    english, other = catalogue("en"), catalogue(language)
    differ = {
        key: (english[key], other[key])
        for key in english
        if set(HOLE.findall(english[key])) != set(HOLE.findall(other.get(key, english[key])))
    }
    assert differ == {}


def test_every_key_the_pages_ask_for_is_in_english() -> None:
    used = keys_used()
    assert len(used) > 100  # the regexes do find the pages' keys
    assert sorted(used - set(catalogue("en"))) == []


def test_keys_built_at_run_time_exist_for_every_value() -> None:
    english = catalogue("en")
    phases = ("started", "betting-open", "betting-closed", "uncovered", "result-entered")
    phases += ("result-confirmed", "completed", "no-result", "cancelled", "invalidated")
    built = [f"phase.{p}" for p in phases]
    built += [f"bet.{kind.value}" for kind in BetKind]
    built += [f"sign.kind.{kind.value}" for kind in BetKind]
    built += [f"profile.{p}" for p in ("cca-1992", "macau-2003", "macau-2004", "online-live")]
    built += [f"play.outcome.{o}" for o in ("win", "lose", "void", "carried", "forfeit")]
    built += [f"play.status.{s}" for s in ("withdrawn", "cancelled")]
    entries = typing.get_args(AccountEvent)  # each statement line's type, by its own words
    built += [f"statement.entry.{str(e.__struct_config__.tag).split('.')[1]}" for e in entries]
    built += [f"dispute.check.{check}" for check in CHECKS]  # the replay's invariant checks
    built += [f"dispute.basis.{basis.value}" for basis in SettlementBasis]
    built += [f"dispute.medium.{m.value}" for m in Medium if m is not Medium.CHIPS]
    built += [f"dispute.status.{s}" for s in ("match", "mismatch", "not-settled")]
    built += [f"equipment.{EQUIPMENT}"] + [f"policy.{p.value}" for p in IlluminationFaultPolicy]
    roles = [f"term.role.{r.value}" for r in Role if f"term.role.{r.value}" in english]
    built += [f"dispute.role.{r.value}" for r in Role if f"term.role.{r.value}" not in roles]
    assert [key for key in built if key not in english] == []
    # the dispute view names the gateway's hidden player by its catalogue's words
    assert f'"{ANOTHER_PLAYER}"' in (STATIC / "dispute.js").read_text(encoding="utf-8")


def test_the_bet_names_are_the_seeds_own() -> None:
    """002 art. 5 (2003 and 2004 editions) and 004's "Jenis Pertaruhan": docs/rules.md."""
    chinese, malay = catalogue("zh-Hant"), catalogue("ms")
    seed_002 = {"small": "小", "big": "大", "single": "三軍", "triple": "圍骰"}
    seed_002 |= {"any-triple": "全骰", "total": "點數", "even": "雙", "odd": "單"}
    seed_002 |= {"combo": "長牌", "double": "短牌"}
    for kind, name in seed_002.items():
        assert chinese[f"bet.{kind}"].startswith(name), kind
    assert chinese["bet.any-triple.macau-2003"] == "全圍"
    seed_004 = {"small": "Kecil", "big": "Besar", "odd": "Ganjil", "even": "Genap"}
    seed_004 |= {"triple": "Ganda Tiga", "any-triple": "Mana-Mana Ganda Tiga"}
    seed_004 |= {"total": "Jumlah", "three": "3 Tunggal", "four": "4 Nombor"}
    seed_004 |= {"all-odd": "Semua Ganjil", "all-even": "Semua Genap"}
    for kind, name in seed_004.items():
        assert malay[f"bet.{kind}"].startswith(name), kind


#: A refusal's message key in the services' code: ``key="round.not-completed"`` beside its
#: English (sicbo.decider.Refused; Rejected.reason_key).
REASON_KEY = re.compile(r"""key="([a-z]+\.[a-z-]+)\"""")
SERVICES = STATIC.parent.parent  # services/sicbo


def reason_keys() -> set[str]:
    """The keys in the services' code, and the gateway's keys by an error's code (CODE_KEYS,
    a refused launch's)."""
    keys: set[str] = set(CODE_KEYS.values()) | set(LAUNCH_KEYS.values()) | {launch_key("")}
    for path in sorted(SERVICES.rglob("*.py")):
        keys.update(REASON_KEY.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_reason_key_the_services_give_has_its_message() -> None:
    """A page writes a refusal's key from the catalogue ("reason.<key>"), so a key without a
    message would fall back to the English in every language."""
    keys = reason_keys()
    assert {"round.not-completed", "wager.below", "cancel.grace", "table.suspended"} <= keys
    assert {"session.bad-pin", "http.never-opened", "command.id-reused", "input.invalid"} <= keys
    english = catalogue("en")
    assert sorted(k for k in keys if f"reason.{k}" not in english) == []
    assert sorted(k for k in english if k.startswith("reason.") and k[7:] not in keys) == []
