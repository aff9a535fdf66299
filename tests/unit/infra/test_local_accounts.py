"""The local floor's accounts (``sicbo run``): a password per user, in files only the user reads."""

from __future__ import annotations

import stat
from datetime import date
from pathlib import Path

from sicbo.infra import local_accounts
from sicbo.infra.nats_accounts import password_envs, users
from sicbo.infra.nats_config import conf_text
from sicbo.infra.partner_registry import added, new_key_pair, save


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_every_user_gets_a_password_file_readable_by_the_user_only(tmp_path: Path) -> None:
    accounts = local_accounts.create(tmp_path)
    assert mode(accounts.secrets_dir) == 0o700
    for user in users():
        assert mode(accounts.password_file(user)) == 0o600, user
        assert len(accounts.password(user)) > 32
    assert sorted(accounts.server_env()) == sorted(password_envs())
    pid_file = (tmp_path / "nats-server.pid").resolve()
    settings = f'jetstream: "enabled"\npid_file: "{pid_file}"\n'  # a reload finds the server
    assert accounts.config.read_text() == settings + conf_text()
    assert accounts.password("floor") not in accounts.config.read_text()


def test_a_new_run_has_new_passwords_in_the_same_files(tmp_path: Path) -> None:
    first = local_accounts.create(tmp_path)
    before = first.password("dealer")
    first.password_file("dealer").chmod(0o644)  # widened by hand since
    second = local_accounts.create(tmp_path)
    assert second.password_file("dealer") == first.password_file("dealer")
    assert second.password("dealer") != before
    assert mode(second.password_file("dealer")) == 0o600


def test_a_password_is_never_read_as_a_number_by_the_server() -> None:
    # nats-server parses a variable's value: one starting with a digit or '-' is a number.
    assert all(local_accounts.new_password()[0].isalpha() for _ in range(500))


def test_a_process_gets_its_password_file_never_its_password(tmp_path: Path) -> None:
    accounts = local_accounts.create(tmp_path)
    env = accounts.env_of("lifecycle")
    assert env == {
        "NATS_USER": "lifecycle",
        "NATS_PASSWORD_FILE": str(tmp_path / "secrets" / "lifecycle.password"),
    }
    assert accounts.password("lifecycle") not in str(env)
    assert accounts.connect_options("dealer")["inbox_prefix"] == "_INBOX.dealer"


def test_the_floors_partners_get_their_accounts(tmp_path: Path) -> None:
    """``sicbo partners add NAME --floor DATA`` registers in DATA/partners.toml: each run
    renders those partners' accounts (their public keys; the seeds stay with them)."""
    seed, public = new_key_pair()
    save(tmp_path / "partners.toml", added((), "demo", public, date(2026, 12, 1)))
    config = local_accounts.create(tmp_path).config.read_text()
    assert "PARTNER_DEMO" in config and public in config and seed not in config
