"""``sicbo rules`` through its real entry point, as a script would call it."""

import json
import subprocess
import sys

import pytest

from sicbo.game.profiles import PROFILE_IDS
from tests.unit.game.oracle import offered


def sicbo(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_profiles_lists_the_four_ids() -> None:
    result = sicbo("rules", "profiles")
    assert result.returncode == 0
    assert result.stdout.split() == list(PROFILE_IDS)


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_table_json_lists_every_bet_with_exact_figures(profile: str) -> None:
    result = sicbo("rules", "table", "--profile", profile, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["profile"] == profile
    assert {row["bet"] for row in report["bets"]} == offered(profile)
    expected_max = 1.0 if profile == "macau-2004" else 210 / 216
    assert report["max_rtp"] == pytest.approx(expected_max)
    for row in report["bets"]:
        assert set(row) >= {"bet", "pays", "wins_out_of_216", "house_edge", "rtp"}
        num, den = row["pays"].split(":")
        assert int(num) > 0 and int(den) > 0
        assert row["rtp"] + row["house_edge"] == pytest.approx(1.0)


def test_online_live_max_rtp_to_four_places() -> None:
    report = json.loads(sicbo("rules", "table", "--profile", "online-live", "--json").stdout)
    assert round(report["max_rtp"], 4) == 0.9722
    small = next(r for r in report["bets"] if r["bet"] == "small")
    assert small == {
        "bet": "small",
        "pays": "1:1",
        "wins_out_of_216": 105,
        "house_edge": pytest.approx(0.0278, abs=1e-4),
        "rtp": pytest.approx(0.9722, abs=1e-4),
    }
    assert next(r for r in report["bets"] if r["bet"] == "two-odd-one-even")["pays"] == "3:2"


def test_readable_table_flags_macau_2004_odd_even() -> None:
    result = sicbo("rules", "table", "--profile", "macau-2004")
    assert result.returncode == 0
    assert "WARNING: odd has no house edge" in result.stdout
    assert "WARNING: even has no house edge" in result.stdout


def test_unknown_profile_is_a_clear_error() -> None:
    result = sicbo("rules", "table", "--profile", "vegas")
    assert result.returncode == 2
    assert "unknown rule profile 'vegas'" in result.stderr


def test_settle_answers_each_line_in_order_and_reports_bad_lines() -> None:
    lines = [
        {"dice": [1, 2, 3], "bet": "small", "stake": 10, "medium": "chips"},
        {"dice": [1, 3, 2], "bet": "two-odd-one-even", "stake": 5, "medium": "chips"},
        "{not json",
        {"dice": [1, 2, 7], "bet": "small", "stake": 10, "medium": "chips"},
        {"dice": [1, 2], "bet": "small", "stake": 10, "medium": "chips"},
        {"dice": [1, 2, 3], "bet": "total:3", "stake": 10, "medium": "chips"},
        {"dice": [1, 2, 3], "bet": "combo:2-5", "stake": 10, "medium": "chips"},
        {"dice": [1, 2, 3], "bet": "small", "stake": 0, "medium": "chips"},
        {"dice": [1, 2, 3], "bet": "small", "stake": 10, "medium": "cash"},
        {"dice": [6, 6, 6], "bet": "triple:6", "stake": 10, "medium": "promo"},
        {"dice": [6, 6, 6], "bet": "big", "stake": 10, "medium": "color"},
        {"dice": [1, 2, 3], "bet": "small", "stake": "10", "medium": "chips"},
    ]
    stdin = "".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines)
    result = sicbo("rules", "settle", "--profile", "online-live", stdin=stdin)
    out = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 2
    assert len(out) == len(lines)
    assert out[0] == {"outcome": "win", "winnings": 10, "returned": 20}
    assert out[1] == {"outcome": "win", "winnings": 7, "returned": 12}  # 7.5 rounded down
    assert "malformed" in out[2]["error"]
    assert "die 3" in out[3]["error"]
    assert "length 3" in out[4]["error"] or "three dice" in out[4]["error"]
    assert "total:3" in out[5]["error"]
    assert out[6] == {"outcome": "lose", "winnings": 0, "returned": 0}
    assert "stake" in out[7]["error"]
    assert "unknown medium 'cash'" in out[8]["error"]
    assert out[9] == {"outcome": "win", "winnings": 1800, "returned": 1800}
    assert out[10] == {"outcome": "lose", "winnings": 0, "returned": 0}
    assert "stake" in out[11]["error"]


def test_settle_refuses_a_bet_the_profile_does_not_offer_and_uses_the_unit() -> None:
    stdin = (
        json.dumps({"dice": [1, 2, 3], "bet": "odd", "stake": 10, "medium": "chips"})
        + "\n"
        + json.dumps({"dice": [1, 3, 2], "bet": "two-odd-one-even", "stake": 25, "medium": "chips"})
        + "\n"
    )
    cca = sicbo("rules", "settle", "--profile", "cca-1992", stdin=stdin)
    assert "not offered under 'cca-1992'" in json.loads(cca.stdout.splitlines()[0])["error"]
    online = sicbo("rules", "settle", "--profile", "online-live", "--unit", "10", stdin=stdin)
    assert json.loads(online.stdout.splitlines()[1]) == {
        "outcome": "win",
        "winnings": 30,
        "returned": 55,
    }


def test_settle_exits_zero_when_every_line_is_good() -> None:
    stdin = json.dumps({"dice": [4, 5, 6], "bet": "big", "stake": 1, "medium": "chips"}) + "\n"
    result = sicbo("rules", "settle", "--profile", "macau-2003", stdin=stdin)
    assert result.returncode == 0
    assert json.loads(result.stdout) == {"outcome": "win", "winnings": 1, "returned": 2}


def test_settle_refuses_a_bad_unit() -> None:
    result = sicbo("rules", "settle", "--profile", "macau-2003", "--unit", "0")
    assert result.returncode == 2
    assert "--unit" in result.stderr
