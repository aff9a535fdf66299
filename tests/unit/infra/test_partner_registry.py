"""The partners' registry: what it accepts, and the specific error for what it does not."""

from __future__ import annotations

from datetime import date

import pytest

from sicbo.infra import partner_registry as registry
from sicbo.infra.partner_registry import Partner, RegistryError

DAY = date(2026, 12, 1)


def key() -> str:
    return registry.new_key_pair()[1]


def test_a_registry_reads_back_what_it_wrote() -> None:
    partners = registry.added(registry.added((), "acme", key(), DAY), "bet-co", key(), DAY)
    partners = registry.rotated(partners, "acme", key(), date(2026, 12, 2))
    assert registry.parse(registry.dump(partners)) == partners
    assert [p.account for p in partners] == ["PARTNER_ACME", "PARTNER_BET_CO"]
    assert registry.parse(registry.HEADER) == ()  # comments only: no partner


def test_a_key_pair_is_a_user_nkey() -> None:
    seed, public = registry.new_key_pair()
    assert seed.startswith("SU") and registry.check_public_key(public) == public
    broken = public[:-1] + ("A" if public[-1] != "A" else "B")  # the checksum no longer fits
    with pytest.raises(RegistryError, match="bad public key"):
        registry.check_public_key(broken)
    account_key = "A" + public[1:]  # not a user's
    with pytest.raises(RegistryError, match="bad public key"):
        registry.check_public_key(account_key)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("[[partner]\n", "not valid TOML"),
        ('owner = "x"\n', "unknown keys ['owner']"),
        ('partner = "x"\n', "must be [[partner]] tables"),
        ('[[partner]]\nname = "acme"\npublic_key = "K"\nadded = "yesterday"\n', "must be dates"),
        ('[[partner]]\nname = "acme"\npublic_key = "K"\nadded = 2026-12-01\nx = 1\n', "'x'"),
        ('[[partner]]\nname = "Acme"\npublic_key = "K"\nadded = 2026-12-01\n', "partner 1: bad"),
        ('[[partner]]\nname = 7\npublic_key = "K"\nadded = 2026-12-01\n', "must be strings"),
    ],
)
def test_a_broken_file_is_refused_with_what_is_wrong(text: str, error: str) -> None:
    with pytest.raises(RegistryError) as refused:
        registry.parse(text.replace('"K"', f'"{key()}"'), "partners.toml")
    assert error in str(refused.value) and "partners.toml" in str(refused.value)


def test_names_and_keys_are_unique_in_a_file_too() -> None:
    one = key()
    twice = registry.dump([Partner("acme", one, DAY), Partner("acme", key(), DAY)])
    with pytest.raises(RegistryError, match="'acme' is already registered"):
        registry.parse(twice)
    shared = registry.dump([Partner("acme", one, DAY), Partner("bet-co", one, DAY)])
    with pytest.raises(RegistryError, match="already 'acme''s"):
        registry.parse(shared)
