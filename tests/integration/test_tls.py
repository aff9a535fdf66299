"""TLS end to end: deploy/nats/floor-tls.conf as it is, with certificates made for this test.

trustme makes a CA, the server's certificate (for 127.0.0.1 and localhost) and a client
certificate. The server requires TLS of every client. The floor's processes are configured
the way a pod is (``tls://`` URL, ``NATS_CA_FILE``, ``NATS_USER``/``NATS_PASSWORD_FILE``):
the CLI provisions, the lifecycle service runs as its own user, ``sicbo send`` opens a table
through it, and the partners' example client connects with the CA it is given. A client without
the CA, or trusting another one, is refused ("certificate verify failed"); a client in clear
text is dropped; told "no TLS" by an impostor, the floor's client still sends no password in
clear; a bad ``NATS_CA_FILE`` stops a service at start, naming the variable; under mutual TLS
a client certificate of the CA is required.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import nats
import pytest

from sicbo.infra.nats_accounts import password_envs, users
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_server import HOST, LocalNatsServer
from sicbo.infra.nats_server_tls import CERT_FILE_ENV, KEY_FILE_ENV, ServerTls
from sicbo.infra.nats_tls import CA_FILE_ENV
from sicbo.infra.nats_tls import CERT_FILE_ENV as CLIENT_CERT_ENV
from sicbo.infra.nats_tls import KEY_FILE_ENV as CLIENT_KEY_ENV
from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.subjects import EVENT_STREAM
from tests.support.partners import Checkout
from tests.support.pki import Pki, make_pki, trusting

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "deploy" / "kustomize" / "base" / "tables.jsonl"
PASSWORDS = {env: f"{env.lower()}-tls-test" for env in password_envs()}
VERIFY_FAILED = "certificate verify failed"


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Checkout:
    """deploy/ of this test's own, partner ``acme`` registered by ``sicbo partners add``."""
    repo = Checkout.copy(tmp_path_factory.mktemp("tls-checkout"))
    repo.add("acme")
    return repo


@pytest.fixture(scope="module")
def server(
    pki: Pki, checkout: Checkout, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[LocalNatsServer]:
    """floor-tls.conf; the certificate's files and the passwords from the environment."""
    config = checkout.root / "deploy" / "nats" / "floor-tls.conf"
    env = {CERT_FILE_ENV: str(pki.server_cert), KEY_FILE_ENV: str(pki.server_key), **PASSWORDS}
    with LocalNatsServer(tmp_path_factory.mktemp("tls-nats"), config_file=config, env=env) as s:
        yield s


def tls_url(server: LocalNatsServer) -> str:
    return f"tls://{HOST}:{server.port}"


def password(user: str) -> str:
    return PASSWORDS[users()[user].password_env]


@pytest.fixture(scope="module")
def secrets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tls-secrets")


def pod_env(secrets: Path, pki: Pki, user: str) -> dict[str, str]:
    """What a floor pod has in the tls component: its user, its password file, the CA."""
    path = secrets / f"{user}.password"
    path.write_text(password(user) + "\n")
    return {"NATS_USER": user, "NATS_PASSWORD_FILE": str(path), CA_FILE_ENV: str(pki.ca)}


def sicbo(
    *args: str, env: dict[str, str], stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The ``sicbo`` CLI as a process of its own."""
    command = [sys.executable, "-m", "sicbo.cli.main", *args]
    return subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**_clean_environ(), **env},
    )


#: A developer's own NATS settings, kept from the processes this test starts.
NATS_SETTINGS = (
    *("NATS_URL", "NATS_USER", "NATS_PASSWORD_FILE", "NATS_NKEY"),
    *(CA_FILE_ENV, CLIENT_CERT_ENV),
)


def _clean_environ() -> dict[str, str]:
    """The test's environment without a NATS setting of its own."""
    drop = {*NATS_SETTINGS, CLIENT_KEY_ENV}
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="module")
async def lifecycle(
    server: LocalNatsServer, pki: Pki, secrets: Path, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[ServiceProcess]:
    """Provisioned by the CLI as `floor`, then the lifecycle service as its own user, both
    over tls:// with the CA."""
    provisioned = sicbo("provision", "--nats", tls_url(server), env=pod_env(secrets, pki, "floor"))
    assert provisioned.returncode == 0, provisioned.stderr
    logs = tmp_path_factory.mktemp("tls-logs")
    proc = ServiceProcess(
        "lifecycle",
        tls_url(server),
        log_path=logs / "lifecycle.log",
        env=pod_env(secrets, pki, "lifecycle"),
    ).start()
    try:
        await proc.wait_ready(
            user="floor", password=password("floor"), tls=trusting(pki.ca), tls_handshake_first=True
        )
        yield proc
    finally:
        proc.stop()


async def test_a_service_and_the_cli_work_over_tls(
    server: LocalNatsServer, pki: Pki, secrets: Path, lifecycle: ServiceProcess
) -> None:
    line = TABLES.read_text().splitlines()[0]
    table = json.loads(line)["table"]
    sent = sicbo(
        "send",
        table,
        "-",
        "--nats",
        tls_url(server),
        stdin=line,
        env=pod_env(secrets, pki, "operator"),
    )
    assert sent.returncode == 0, (sent.stdout, sent.stderr)
    assert json.loads(sent.stdout)["type"] == "accepted.v1"
    # The table-opened event is in the log, read by a client of our own over TLS.
    nc = await nats.connect(
        tls_url(server), user="floor", password=password("floor"), tls=trusting(pki.ca)
    )
    try:
        info = await nc.jetstream().stream_info(
            EVENT_STREAM, subjects_filter=f"sicbo.evt.{table}.>"
        )
        assert info.state.subjects, "no event of the opened table in the log"
    finally:
        await nc.close()


def test_the_partners_example_client_connects_with_the_ca(
    server: LocalNatsServer, pki: Pki, checkout: Checkout, tmp_path: Path
) -> None:
    url = tls_url(server)
    nkey = {"NATS_NKEY": str(checkout.seed_file("acme"))}
    example = [sys.executable, str(ROOT / "examples" / "results_client.py"), "--count", "0"]
    with_ca = subprocess.run(
        example,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**_clean_environ(), "NATS_URL": url, **nkey, CA_FILE_ENV: str(pki.ca)},
    )
    assert with_ca.returncode == 0, with_ca.stderr
    # Without the CA it is refused, and keeps trying (nats-py reconnects): read its errors,
    # then stop it by its PID.
    errors = tmp_path / "stderr"
    with errors.open("wb") as out:
        without = subprocess.Popen(
            example,
            stdout=subprocess.DEVNULL,
            stderr=out,
            env={**_clean_environ(), "NATS_URL": url, **nkey},
        )
    try:
        deadline = time.monotonic() + 60
        while VERIFY_FAILED not in errors.read_text() and without.poll() is None:
            assert time.monotonic() < deadline, errors.read_text()
            time.sleep(0.1)
        assert VERIFY_FAILED in errors.read_text()
    finally:
        without.kill()
        without.wait()


@pytest.mark.parametrize("trusted", ["system store", "another CA"])
async def test_a_client_without_the_floors_ca_is_refused(
    server: LocalNatsServer, pki: Pki, trusted: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the floor's own options: NATS_CA_FILE unset (the system's store) or naming
    a CA that did not issue the server's certificate."""
    monkeypatch.delenv(CA_FILE_ENV, raising=False)
    if trusted == "another CA":
        monkeypatch.setenv(CA_FILE_ENV, str(pki.other_ca))
    with pytest.raises(ssl.SSLCertVerificationError, match=VERIFY_FAILED):
        await nats.connect(
            tls_url(server),
            user="floor",
            password=password("floor"),
            allow_reconnect=False,
            max_reconnect_attempts=0,
            **connect_options(tls_url(server)),
        )


def test_a_client_in_clear_text_is_dropped(server: LocalNatsServer) -> None:
    """The server says TLS is required; a CONNECT in clear (with a valid password) gets no
    answer but the closed connection."""
    with socket.create_connection((HOST, server.port), timeout=10) as conn:
        reader = conn.makefile("rb")
        info = json.loads(reader.readline()[len(b"INFO ") :])
        assert info["tls_required"] is True
        connect = {"user": "floor", "pass": password("floor"), "verbose": True}
        conn.sendall(b"CONNECT " + json.dumps(connect).encode() + b"\r\nPING\r\n")
        assert reader.readline() == b""  # closed: no +OK, no PONG


async def test_the_password_never_leaves_before_tls_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Against a server (or a man in the middle) whose INFO says no TLS, the floor's client
    opens with a TLS handshake and sends nothing else: no CONNECT, no password in clear."""
    received = bytearray()

    async def impostor(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b'INFO {"server_id":"x","version":"2.15.1","tls_required":false}\r\n')
        await writer.drain()
        with contextlib.suppress(TimeoutError, ConnectionError):
            received.extend(await asyncio.wait_for(reader.read(4096), timeout=5))
        writer.close()

    listener = await asyncio.start_server(impostor, HOST, 0)
    port = listener.sockets[0].getsockname()[1]
    url = f"tls://{HOST}:{port}"
    monkeypatch.delenv(CA_FILE_ENV, raising=False)
    try:
        with pytest.raises(Exception):  # noqa: B017 - whichever way the handshake fails
            await nats.connect(
                url,
                user="floor",
                password="never-in-clear",
                connect_timeout=5,
                allow_reconnect=False,
                max_reconnect_attempts=0,
                **connect_options(url),
            )
    finally:
        listener.close()
        await listener.wait_closed()
    assert received[:1] == b"\x16", bytes(received[:64])  # a TLS handshake record
    assert b"CONNECT" not in received and b"never-in-clear" not in received


def test_a_bad_ca_file_stops_a_service_at_start_naming_the_variable(
    server: LocalNatsServer, pki: Pki, secrets: Path
) -> None:
    missing = secrets / "no-such-ca.pem"
    env = {**_clean_environ(), **pod_env(secrets, pki, "lifecycle"), CA_FILE_ENV: str(missing)}
    run = subprocess.run(
        ServiceProcess("lifecycle", tls_url(server)).argv(),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith(f"error: {CA_FILE_ENV}={missing}: no such file"), run.stderr


async def test_mutual_tls_requires_a_client_certificate_of_the_ca(
    pki: Pki, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that verifies clients (``verify``): the CA alone is not enough; with
    NATS_CERT_FILE / NATS_KEY_FILE the client presents its certificate and is let in."""
    tls = ServerTls(str(pki.server_cert), str(pki.server_key), ca_file=str(pki.ca), verify=True)
    monkeypatch.setenv(CA_FILE_ENV, str(pki.ca))
    for env in (CLIENT_CERT_ENV, CLIENT_KEY_ENV):
        monkeypatch.delenv(env, raising=False)
    with LocalNatsServer(tmp_path_factory.mktemp("mtls"), tls=tls) as mutual:
        with pytest.raises(ssl.SSLError):
            await nats.connect(
                mutual.url,
                allow_reconnect=False,
                max_reconnect_attempts=0,
                **connect_options(mutual.url),
            )
        monkeypatch.setenv(CLIENT_CERT_ENV, str(pki.client_cert))
        monkeypatch.setenv(CLIENT_KEY_ENV, str(pki.client_key))
        nc = await nats.connect(mutual.url, **connect_options(mutual.url))
        try:
            assert nc.is_connected
        finally:
            await nc.close()
