"""``sicbo partners`` on a copy of deploy/: what each command writes, and that bad input gets
a specific error (exit 2) and changes nothing (registry, generated accounts, Helm values, no
seed file)."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sicbo.cli.main import app
from sicbo.infra import partner_registry
from sicbo.infra.partner_registry import new_key_pair
from tests.support.partners import Checkout

runner = CliRunner()
GENERATED = ("deploy/nats/accounts.conf", "deploy/nats-helm/values.yaml")


@pytest.fixture
def repo(tmp_path: Path) -> Checkout:
    return Checkout.copy(tmp_path / "repo")


def sicbo(repo: Checkout, *args: str) -> tuple[int, str]:
    done = runner.invoke(app, ["partners", *args, "--repo", str(repo.root)])
    return done.exit_code, done.output


def snapshot(repo: Checkout) -> dict[str, bytes]:
    """Every file under the checkout, by path (the generated ones, the registry, seeds)."""
    return {
        str(p.relative_to(repo.root)): p.read_bytes() for p in repo.root.rglob("*") if p.is_file()
    }


def registered(repo: Checkout) -> dict[str, str]:
    partners = partner_registry.load(repo.root / "deploy/nats/partners.toml")
    return {p.name: p.public_key for p in partners}


def test_add_list_rotate_remove(repo: Checkout) -> None:
    seed_file = repo.seed_file("acme")
    code, out = sicbo(repo, "add", "acme", "--seed-file", str(seed_file))
    assert code == 0, out
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    assert str(seed_file) in out and "PARTNER_ACME" in out and "reload" in out
    key = registered(repo)["acme"]
    assert key in out and key in (repo.root / GENERATED[0]).read_text()
    assert key in (repo.root / GENERATED[1]).read_text()
    assert seed_file.read_text().startswith("SU")  # a user seed: the secret stays in the file
    assert seed_file.read_text().strip() not in (repo.root / GENERATED[0]).read_text()

    _, own_key = new_key_pair()  # a partner that made its key pair itself
    code, out = sicbo(repo, "add", "bet-co", "--public-key", own_key)
    assert code == 0, out
    assert registered(repo) == {"acme": key, "bet-co": own_key}
    code, out = sicbo(repo, "list")
    assert code == 0 and "acme\tPARTNER_ACME" in out and "bet-co\tPARTNER_BET_CO" in out

    code, out = sicbo(repo, "rotate", "acme", "--seed-file", str(seed_file))
    assert code == 0, out
    new_key = registered(repo)["acme"]
    assert new_key != key and key not in (repo.root / GENERATED[0]).read_text()
    assert "rotated" in (repo.root / "deploy/nats/partners.toml").read_text()

    code, out = sicbo(repo, "remove", "bet-co")
    assert code == 0, out
    assert registered(repo) == {"acme": new_key}
    assert own_key not in (repo.root / GENERATED[0]).read_text()
    assert "PARTNER_BET_CO" not in (repo.root / GENERATED[1]).read_text()


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("add", "Acme"), "bad partner name 'Acme'"),
        (("add", "acme_1"), "bad partner name"),
        (("add", "acme-"), "bad partner name"),
        (("add", "../etc"), "bad partner name"),
        (("add", "a"), "bad partner name"),
        (("add", "acme"), "partner 'acme' is already registered (rotate its key instead)"),
        (("add", "other", "--public-key", "UABC"), "bad public key 'UABC'"),
        (("add", "other", "--public-key", "SEED"), "that is a seed (a secret)"),
        (("add", "other", "--public-key", "KEY_OF_ACME"), "already 'acme''s"),
        (("rotate", "nobody"), "no partner 'nobody' (registered: acme)"),
        (("rotate", "Bad!"), "bad partner name"),
        (("rotate", "acme", "--public-key", "KEY_OF_ACME"), "already has that public key"),
        (("remove", "nobody"), "no partner 'nobody' (registered: acme)"),
        (("add", "other", "--seed-file", "EXISTING"), "exists already"),
        (("add", "other", "--public-key", "NEW_KEY", "--seed-file", "x.nk"), "--seed-file"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    repo: Checkout, args: tuple[str, ...], error: str
) -> None:
    assert sicbo(repo, "add", "acme", "--seed-file", str(repo.seed_file("acme")))[0] == 0
    existing = repo.root / "existing.nk"
    existing.write_text("the partner's seed, not to be overwritten\n")
    acme_key = registered(repo)["acme"]
    seed, new_key = new_key_pair()
    words = {"KEY_OF_ACME": acme_key, "SEED": seed, "EXISTING": str(existing), "NEW_KEY": new_key}
    before = snapshot(repo)
    code, out = sicbo(repo, *(words.get(a, a) for a in args))
    assert (code, error in out) == (2, True), out
    assert snapshot(repo) == before


def test_a_broken_registry_is_named_and_left_alone(repo: Checkout) -> None:
    registry = repo.root / "deploy/nats/partners.toml"
    registry.write_text('[[partner]]\nname = "acme"\npublic_key = "UABC"\nadded = 2026-12-01\n')
    before = snapshot(repo)
    code, out = sicbo(repo, "add", "bet-co")
    assert code == 2 and "partners.toml, partner 1: bad public key 'UABC'" in out
    assert snapshot(repo) == before


def test_not_a_checkout_nor_a_floor(tmp_path: Path) -> None:
    done = runner.invoke(app, ["partners", "list", "--repo", str(tmp_path)])
    assert done.exit_code == 2 and "not a checkout of the floor" in done.output
    done = runner.invoke(app, ["partners", "add", "acme", "--floor", str(tmp_path)])
    assert done.exit_code == 2 and "holds no floor" in done.output
    assert list(tmp_path.iterdir()) == []
