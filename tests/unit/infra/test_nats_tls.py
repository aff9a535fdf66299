"""TLS to NATS from the environment: what turns it on, what is trusted, and each bad setting
refused at start with the variable and the reason. (On a real server:
tests/integration/test_tls.py.)"""

from __future__ import annotations

import ssl
from pathlib import Path

import pytest
import trustme
from faststream.nats.security import parse_security

from sicbo.infra import nats_auth, nats_tls
from sicbo.infra.nats_server_tls import ServerTls, Variable

VARIABLES = (
    nats_tls.CA_FILE_ENV,
    nats_tls.CERT_FILE_ENV,
    nats_tls.KEY_FILE_ENV,
    nats_auth.USER_ENV,
    nats_auth.PASSWORD_FILE_ENV,
)


@pytest.fixture(autouse=True)
def clean(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> Path:
    path = tmp_path / "ca.crt"
    ca.cert_pem.write_to_path(path)
    return path


def test_plain_nats_without_settings_is_no_tls() -> None:
    assert nats_tls.tls_options("nats://127.0.0.1:4222") == {}
    assert nats_auth.connect_options("nats://127.0.0.1:4222") == {}
    assert nats_auth.broker_security("nats://127.0.0.1:4222") is None


def test_a_tls_url_verifies_against_the_systems_store() -> None:
    options = nats_tls.tls_options("tls://nats:4222")
    context = options["tls"]
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert options["tls_handshake_first"] is True


def test_the_ca_file_turns_tls_on_and_is_the_only_ca_trusted(
    ca_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(nats_tls.CA_FILE_ENV, str(ca_file))
    context = nats_tls.tls_options("nats://nats:4222")["tls"]  # nats:// too: the CA says TLS
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname
    assert [c["subject"] for c in context.get_ca_certs()] == [
        c["subject"] for c in ssl.create_default_context(cafile=str(ca_file)).get_ca_certs()
    ]
    assert len(context.get_ca_certs()) == 1
    assert context.minimum_version >= ssl.TLSVersion.TLSv1_2


def test_the_broker_and_the_clients_get_the_same_tls(
    ca_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(nats_tls.CA_FILE_ENV, str(ca_file))
    alone = parse_security(nats_auth.broker_security("tls://nats:4222"))
    assert isinstance(alone["tls"], ssl.SSLContext) and alone["tls_handshake_first"] is True
    password = tmp_path / "password"
    password.write_text("secret\n")
    monkeypatch.setenv(nats_auth.USER_ENV, "dice")
    monkeypatch.setenv(nats_auth.PASSWORD_FILE_ENV, str(password))
    with_user = parse_security(nats_auth.broker_security("tls://nats:4222"))
    assert with_user["user"] == "dice" and with_user["tls_handshake_first"] is True
    assert isinstance(with_user["tls"], ssl.SSLContext)
    options = nats_auth.connect_options("tls://nats:4222")
    assert options["user"] == "dice" and options["tls_handshake_first"] is True


def bad_ca(tmp_path: Path, case: str, ca: trustme.CA) -> Path:
    path = tmp_path / "ca.crt"
    if case == "missing":
        return path
    if case == "a directory":
        path.mkdir()
    elif case == "a private key":
        ca.private_key_pem.write_to_path(path)
    elif case == "broken PEM":
        path.write_text(
            "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n"
        )
    elif case == "empty":
        path.write_text("")
    return path


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        ("missing", "no such file"),
        ("a directory", "a directory, not a file"),
        ("a private key", "no PEM certificate in it"),
        ("empty", "no PEM certificate in it"),
        ("broken PEM", "not a valid PEM certificate"),
    ],
)
def test_a_bad_ca_file_is_refused_with_the_variable_and_why(
    case: str, reason: str, ca: trustme.CA, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = bad_ca(tmp_path, case, ca)
    monkeypatch.setenv(nats_tls.CA_FILE_ENV, str(path))
    with pytest.raises(nats_tls.NatsTlsError, match=f"^NATS_CA_FILE={path}: {reason}"):
        nats_auth.connect_options("tls://nats:4222")
    with pytest.raises(nats_tls.NatsTlsError, match=reason):
        nats_auth.broker_security("tls://nats:4222")


def test_a_client_certificate_needs_its_key_and_must_match_it(
    ca: trustme.CA, ca_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, other = ca.issue_cert("sicbo-dice"), ca.issue_cert("sicbo-wagers")
    cert, key, other_key = tmp_path / "c.pem", tmp_path / "k.pem", tmp_path / "o.pem"
    mine.cert_chain_pems[0].write_to_path(cert)
    mine.private_key_pem.write_to_path(key)
    other.private_key_pem.write_to_path(other_key)
    monkeypatch.setenv(nats_tls.CA_FILE_ENV, str(ca_file))
    monkeypatch.setenv(nats_tls.CERT_FILE_ENV, str(cert))
    with pytest.raises(nats_tls.NatsTlsError, match="set both NATS_CERT_FILE and NATS_KEY_FILE"):
        nats_tls.tls_options("tls://nats:4222")
    monkeypatch.setenv(nats_tls.KEY_FILE_ENV, str(other_key))
    with pytest.raises(nats_tls.NatsTlsError, match="not a PEM certificate and its private key"):
        nats_tls.tls_options("tls://nats:4222")
    monkeypatch.setenv(nats_tls.KEY_FILE_ENV, str(key))
    assert nats_tls.tls_options("tls://nats:4222")["tls"].verify_mode is ssl.CERT_REQUIRED


def test_a_floor_of_tls_and_plain_servers_is_refused() -> None:
    with pytest.raises(nats_tls.NatsTlsError, match="mixes tls:// with nats://"):
        nats_tls.tls_options("tls://a:4222,nats://b:4222")
    # A bare host:port is nats:// to nats-py, and a list of tls:// servers is fine.
    with pytest.raises(nats_tls.NatsTlsError, match="mixes"):
        nats_tls.tls_options("tls://a:4222,localhost:4222")
    assert nats_tls.tls_options("tls://a:4222, tls://b:4222")["tls_handshake_first"] is True


def test_the_server_block_reads_its_files_from_the_environment() -> None:
    text = ServerTls(Variable("CERT"), Variable("KEY")).conf_text()
    assert "cert_file: $CERT\n" in text and "key_file: $KEY\n" in text
    assert 'handshake_first: "300ms"' in text and "verify" not in text
    mutual = ServerTls("/c.pem", "/k.pem", ca_file="/ca.pem", verify=True).conf_text()
    assert 'ca_file: "/ca.pem"' in mutual and "verify: true" in mutual
    with pytest.raises(ValueError, match="needs ca_file"):
        ServerTls("/c.pem", "/k.pem", verify=True)
