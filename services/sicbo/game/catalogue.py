"""The bet catalogue of every paytable the floor ships, for the partners' kit (docs/feed.md).

A result's ``winning_bets`` are bet ids of the round's ``paytable``; the same dice win
different bets under different paytables (a profile may not offer a bet, or lose it on a
triple). This is the machine-readable answer to "what is ``pair-single:5-2`` and what does it
pay under ``macau-2004@v1``": every bet id with its name and rule, and for each profile's
paytable the bets it offers with their pays, the bets a triple kills, and the operator's
choices that change a paytable's reference (``macau-2004@v1?total-5-16=24``).

Generated from the profile documents (``make schemas`` writes ``contracts/catalogue/
paytables.json`` and ``docs/paytables.md``); a test compares the checked-in files with a fresh
generation, so they never go stale.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sicbo.game.bets import Bet, BetKind, bets_of_kind, catalogue
from sicbo.game.house_edge import format_pay
from sicbo.game.profiles import PROFILE_IDS, Paytable, load_profile, pay_key

#: The kit's copies, in the repository (beside contracts/schemas/, and in docs/).
ROOT = Path(__file__).resolve().parents[3]
JSON_PATH = ROOT / "contracts" / "catalogue" / "paytables.json"
MARKDOWN_PATH = ROOT / "docs" / "paytables.md"
#: Bumped when the document's shape changes (not when a paytable does).
FORMAT = "sicbo.paytables.v1"

#: kind -> (a bet's name, what it wins on, the name of the kind)
_NAMES: dict[BetKind, tuple[str, str, str]] = {
    BetKind.SMALL: ("Small", "total 4 to 10", "Small"),
    BetKind.BIG: ("Big", "total 11 to 17", "Big"),
    BetKind.ODD: ("Odd", "an odd total", "Odd"),
    BetKind.EVEN: ("Even", "an even total", "Even"),
    BetKind.SINGLE: (
        "Single {0}",
        "{0} shows on one, two or three dice (paid by how many)",
        "Single number",
    ),
    BetKind.DOUBLE: ("Double {0}", "{0} shows on at least two dice", "Double (specific)"),
    BetKind.TRIPLE: ("Triple {0}", "all three dice show {0}", "Triple (specific)"),
    BetKind.ANY_TRIPLE: ("Any triple", "all three dice show the same face", "Any triple"),
    BetKind.TOTAL: ("Total {0}", "the dice add up to {0}", "Total"),
    BetKind.COMBO: ("Combination {0}-{1}", "both {0} and {1} show", "Two-dice combination"),
    BetKind.THREE: (
        "Three singles {0}-{1}-{2}",
        "the dice show exactly {0}, {1} and {2}",
        "Three singles",
    ),
    BetKind.PAIR_SINGLE: (
        "Pair {0}, single {1}",
        "the dice show {0}, {0} and {1}",
        "Pair and single",
    ),
    BetKind.FOUR: (
        "Four numbers {0}-{1}-{2}-{3}",
        "three different faces show, all of {0}, {1}, {2} and {3}",
        "Four numbers",
    ),
    BetKind.ALL_ODD: ("All odd", "every die shows an odd face", "All odd"),
    BetKind.ALL_EVEN: ("All even", "every die shows an even face", "All even"),
    BetKind.TWO_ODD_ONE_EVEN: ("Two odd, one even", "two dice odd, one even", "Two odd, one even"),
    BetKind.TWO_EVEN_ONE_ODD: ("Two even, one odd", "two dice even, one odd", "Two even, one odd"),
}


def bet_name(bet: Bet) -> str:
    return _NAMES[bet.kind][0].format(*bet.numbers)


def bet_rule(bet: Bet) -> str:
    return _NAMES[bet.kind][1].format(*bet.numbers)


def _pays(paytable: Paytable, bet: Bet) -> dict[str, Any]:
    """``pays`` ("N:D", N to D), or ``pays_by_dice`` for a single (by how many dice show it)."""
    if bet.kind is BetKind.SINGLE:
        by_dice = {str(n): format_pay(paytable.pays[pay_key(bet.kind, n)]) for n in (1, 2, 3)}
        return {"pays_by_dice": by_dice}
    level = bet.numbers[0] if bet.kind is BetKind.TOTAL else None
    return {"pays": format_pay(paytable.pays[pay_key(bet.kind, level)])}


def _choice(paytable: Paytable, name: str) -> dict[str, Any]:
    choice = paytable.profile.choices[name]
    out: dict[str, Any] = {"name": name, "rule": choice.rule, "default": choice.default}
    if choice.minimum is not None:
        out |= {"min": choice.minimum, "max": choice.maximum}
    else:
        out["values"] = list(choice.values)
    if choice.totals:
        out["pays_totals"] = list(choice.totals)  # the pay "X to 1" of these totals
    if choice.offers is not None:
        out["offers"] = choice.offers.value  # "no" takes this kind off the layout
    return out


def paytable_entry(paytable: Paytable) -> dict[str, Any]:
    profile = paytable.profile
    return {
        "ref": paytable.ref,
        "profile": profile.id,
        "version": profile.version,
        "title": profile.title,
        "source": profile.source,
        "lose_on_a_triple": sorted(k.value for k in profile.triple_kills),
        "bets": [{"id": bet.id, **_pays(paytable, bet)} for bet in paytable.offered_bets()],
        "choices": [_choice(paytable, name) for name in profile.choices],
    }


def shipped_paytables() -> list[Paytable]:
    """Each profile's own paytable (the one a table plays until a choice is approved)."""
    return [load_profile(profile_id).paytable() for profile_id in PROFILE_IDS]


def document() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "pays": "'N:D' is N to D: the profit per D staked; the stake comes back with a win",
        "bets": [
            {"id": bet.id, "kind": bet.kind.value, "name": bet_name(bet), "wins": bet_rule(bet)}
            for bet in catalogue()
        ],
        "paytables": [paytable_entry(p) for p in shipped_paytables()],
    }


def render_json() -> str:
    return json.dumps(document(), indent=2, ensure_ascii=False) + "\n"


def _cell(paytable: Paytable, bet: Bet) -> str:
    """The pay of ``bet`` (one of its kind stands for all) under ``paytable``, or blank."""
    if not paytable.offers(bet):
        return ""
    pays = _pays(paytable, bet)
    return " / ".join(pays["pays_by_dice"].values()) if "pays_by_dice" in pays else pays["pays"]


def _rows(papers: list[Paytable]) -> list[str]:
    """One row per kind (its bets pay alike), one per total (each pays its own)."""
    rows = []
    for kind in BetKind:
        bets = bets_of_kind(kind)
        groups = [[b] for b in bets] if kind is BetKind.TOTAL else [list(bets)]
        for group in groups:
            ids = f"`{group[0].id}`" if len(group) == 1 else f"`{group[0].id}` … `{group[-1].id}`"
            label = bet_name(group[0]) if len(group) == 1 else _NAMES[kind][2]
            cells = " | ".join(_cell(p, group[0]) for p in papers)
            rows.append(f"| {label} | {ids} | {cells} |")
    return rows


def render_markdown() -> str:
    papers = shipped_paytables()
    head = "| bet | ids | " + " | ".join(f"`{p.ref}`" for p in papers) + " |"
    rows = [head, "|---|---|" + "---|" * len(papers), *_rows(papers)]
    kills = " ".join(
        f"`{p.ref}`: {', '.join(sorted(k.value for k in p.profile.triple_kills))}." for p in papers
    )
    return "\n".join(
        [
            "# Paytables",
            "",
            "<!-- Generated by `make schemas` (sicbo.game.catalogue); do not edit. -->",
            "",
            "The bet catalogue of every paytable the floor ships, as the results feed names",
            'the bets (`winning_bets`). Pays are "N:D", N to D: the profit per D staked; the',
            "stake comes back with a win. A blank cell: the paytable does not offer the bet.",
            "Singles pay by how many dice show the number (one / two / three). The",
            "machine-readable copy, with every bet id, its name and rule, and each profile's",
            "choices, is [contracts/catalogue/paytables.json](../contracts/catalogue/"
            "paytables.json).",
            "",
            *rows,
            "",
            f"Lose on a triple, whatever the total: {kills}",
            "",
            "A table may play a paytable with approved choices (002/2004 art. 8); its reference",
            "names them, e.g. `macau-2004@v1?total-5-16=24`: the choices and their ranges are",
            "under `choices` in the JSON copy.",
            "",
        ]
    )


def write() -> list[Path]:
    JSON_PATH.parent.mkdir(parents=True, exist_ok=True)
    JSON_PATH.write_text(render_json(), encoding="utf-8")
    MARKDOWN_PATH.write_text(render_markdown(), encoding="utf-8")
    return [JSON_PATH, MARKDOWN_PATH]


def stale() -> list[str]:
    """The checked-in copies that differ from a fresh generation (or are missing)."""
    wanted = {JSON_PATH: render_json(), MARKDOWN_PATH: render_markdown()}
    return [
        path.name
        for path, text in wanted.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
