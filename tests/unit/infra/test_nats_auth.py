"""NATS credentials from the environment: a user and a password file (a mounted Secret)."""

from __future__ import annotations

from pathlib import Path

import pytest
from faststream.nats.security import parse_security

from sicbo.infra import nats_auth


@pytest.fixture
def password_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "password"
    path.write_text("first-secret\n")  # a Secret written by hand often ends with a newline
    monkeypatch.setenv(nats_auth.USER_ENV, "floor")
    monkeypatch.setenv(nats_auth.PASSWORD_FILE_ENV, str(path))
    return path


def test_nothing_set_means_no_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(nats_auth.USER_ENV, raising=False)
    monkeypatch.delenv(nats_auth.PASSWORD_FILE_ENV, raising=False)
    assert nats_auth.connect_options() == {}
    assert nats_auth.broker_security() is None


def test_the_password_is_read_again_at_each_connect(password_file: Path) -> None:
    options = nats_auth.connect_options()
    assert options["user"] == "floor"
    password = options["password"]
    assert callable(password)  # nats-py calls it on every (re)connect
    assert password() == "first-secret"
    password_file.write_text("rotated-secret")  # the kubelet refreshed the Secret
    assert password() == "rotated-secret"


def test_the_broker_gets_the_same_credentials(password_file: Path) -> None:
    # What FastStream hands to nats.connect.
    options = parse_security(nats_auth.broker_security())
    assert options["user"] == "floor"
    assert options["password"]() == "first-secret"


def test_half_a_configuration_is_an_error(
    password_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(nats_auth.USER_ENV)
    with pytest.raises(ValueError, match="both"):
        nats_auth.connect_options()


def test_a_missing_or_empty_password_file_fails_at_start(
    password_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    password_file.write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        nats_auth.connect_options()
    monkeypatch.setenv(nats_auth.PASSWORD_FILE_ENV, str(password_file.parent / "nothing"))
    with pytest.raises(FileNotFoundError):
        nats_auth.connect_options()


def test_a_url_with_its_own_user_wins_over_the_environment(password_file: Path) -> None:
    # An operator in a service's pod: `sicbo results tail --nats nats://partner:...@nats:4222`.
    assert nats_auth.connect_options("nats://partner:secret@nats:4222") == {}
    assert nats_auth.connect_options("nats://a:4222, nats://tok@b:4222") == {}
    assert nats_auth.broker_security("nats://partner:secret@nats:4222") is None
    assert nats_auth.connect_options("nats://nats:4222")["user"] == "floor"


def test_the_inbox_is_the_users_own(password_file: Path) -> None:
    """A terminal user may read replies on ``_INBOX.<user>.>`` only (deploy/nats)."""
    assert nats_auth.user_of() == "floor"
    assert nats_auth.inbox_options() == {"inbox_prefix": "_INBOX.floor"}
    assert nats_auth.inbox_options("nats://dealer:pw@a:4222") == {"inbox_prefix": "_INBOX.dealer"}
    assert nats_auth.inbox_options("nats://TOKEN@a:4222") == {}  # a token is no user name


def test_no_user_no_inbox_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(nats_auth.USER_ENV, raising=False)
    monkeypatch.delenv(nats_auth.PASSWORD_FILE_ENV, raising=False)
    assert nats_auth.inbox_options("nats://a:4222") == {}


def test_a_partner_connects_with_the_seed_file_of_nats_nkey(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(nats_auth.USER_ENV, raising=False)
    monkeypatch.delenv(nats_auth.PASSWORD_FILE_ENV, raising=False)
    seed = tmp_path / "acme.nk"
    monkeypatch.setenv(nats_auth.NKEY_ENV, str(seed))
    with pytest.raises(ValueError, match="no such file"):
        nats_auth.connect_options()
    seed.write_text("SUA...\n")
    assert nats_auth.connect_options() == {"nkeys_seed": str(seed)}
    assert nats_auth.connect_options("nats://floor:pw@a:4222") == {}  # the URL's user wins
    monkeypatch.setenv(nats_auth.USER_ENV, "floor")
    with pytest.raises(ValueError, match="not both"):
        nats_auth.connect_options()
