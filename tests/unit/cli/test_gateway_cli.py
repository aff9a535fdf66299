"""``sicbo gateway`` through its real entry point: operator list entries, and refusing to serve
without an operator list."""

from pathlib import Path

from sicbo.gateway.operators import parse_operators
from sicbo_contracts.base import Role
from tests.unit.cli.test_rules_cli import sicbo


def test_hash_pin_prints_an_entry_that_signs_in_with_that_pin() -> None:
    result = sicbo("gateway", "hash-pin", "rosa", "supervisor", "--pin", "482916")
    assert result.returncode == 0, result.stderr
    (operator,) = parse_operators(result.stdout).values()
    assert (operator.id, operator.role) == ("rosa", Role.SUPERVISOR)
    assert operator.pin_matches("482916") and not operator.pin_matches("482917")
    assert "482916" not in result.stdout


def test_hash_pin_asks_on_stderr_so_stdout_is_only_the_entry() -> None:
    result = sicbo("gateway", "hash-pin", "rosa", "dealer", stdin="7391\n7391\n")
    assert result.returncode == 0, result.stderr
    assert "PIN" in result.stderr
    (operator,) = parse_operators(result.stdout).values()
    assert operator.pin_matches("7391")


def test_hash_pin_refuses_a_short_pin_and_a_player() -> None:
    short = sicbo("gateway", "hash-pin", "rosa", "dealer", "--pin", "12")
    assert short.returncode == 2 and "4 to 12 digits" in short.stderr and short.stdout == ""
    player = sicbo("gateway", "hash-pin", "rosa", "player", "--pin", "1234")
    assert player.returncode == 2 and player.stdout == ""


def test_serve_wants_an_operator_list(tmp_path: Path) -> None:
    missing = sicbo("gateway", "serve", "--nats", "nats://127.0.0.1:1")
    assert missing.returncode == 2 and "--operators" in missing.stderr
    bad = tmp_path / "operators.toml"
    bad.write_text('[[operator]]\nid = "ana"\nrole = "croupier"\nsalt = "00"\npin_hash = "00"\n')
    broken = sicbo("gateway", "serve", "--operators", str(bad), "--nats", "nats://127.0.0.1:1")
    assert broken.returncode == 2 and "operator #1 (ana): role must be one of" in broken.stderr
