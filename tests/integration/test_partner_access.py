"""Partner access with the real deploy/nats/floor.conf on a server of this test's own.

The FLOOR account runs the floor (provisioned as its user, results published by the feed);
the PARTNERS account holds a mirror of SICBO_RESULTS (created by its admin user) that
republishes each stored result into the account of each partner registered by ``sicbo
partners add`` (here: ``acme``, connecting with the seed file the command wrote). A partner
receives results and reads their history from that copy, and can do nothing else: every other
publish, every subscription to an internal subject and every JetStream call on the internal
log is refused by the server. The refusals are printed as the server words them (run with
``-s`` to see them). Partners' isolation from each other: tests/deploy/test_partner_isolation.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from opentelemetry.sdk.trace import TracerProvider

from sicbo.eventstore.store import EventStore
from sicbo.infra import partner_registry
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.provisioning import Outcome, provision
from sicbo.results.feed import Feed, public_store
from sicbo.results.heartbeat import Heartbeats
from sicbo.results.partners import partner_copy
from sicbo.results.reader import last_results
from sicbo.shell.codec import encode
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.results import FeedHeartbeat, PublicResult, ResultStatus, RoundResult
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    PARTNER_STREAM,
    RESULTS_ALL,
    RESULTS_STREAM,
    Aggregate,
    heartbeat,
    results,
    subject_of,
)
from tests.support.partners import ROOT, Checkout, start_server, url

DEALER = Actor(id="dealer-1", role=Role.DEALER)
_result = msgspec.json.Decoder(PublicResult)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Checkout:
    """deploy/ of this test's own, partner ``acme`` registered by ``sicbo partners add``."""
    repo = Checkout.copy(tmp_path_factory.mktemp("partners"))
    repo.add("acme")
    return repo


@pytest.fixture(scope="module")
def store_dir(checkout: Checkout) -> Path:
    return checkout.root / "store"


@pytest.fixture(scope="module")
def server(checkout: Checkout, store_dir: Path) -> Iterator[LocalNatsServer]:
    """nats-server with floor.conf; the port and store directory come from the command line
    (-p, -sd), the passwords from the server's environment."""
    running = start_server(store_dir, checkout.floor_conf())
    try:
        yield running
    finally:
        running.stop()


def partner_url(server: LocalNatsServer) -> str:
    return f"nats://127.0.0.1:{server.port}"  # no user: the partner signs with its nkey


class Client:
    """A connection that records the errors the server sends it (permission violations)."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.nc = NATS()

    async def connect(self, address: str, seed: Path) -> NATS:
        async def on_error(exc: Exception) -> None:
            self.errors.append(str(exc))

        await self.nc.connect(
            address, nkeys_seed=str(seed), error_cb=on_error, max_reconnect_attempts=0
        )
        return self.nc

    async def refused(self, text: str, seconds: float = 5) -> str:
        """Wait for the server's error that contains ``text``; return it. (nats-py lowercases
        the server's ``-ERR`` text; the server log keeps the original, see ``violations``.)"""
        for _ in range(int(seconds * 20)):
            found = [e for e in self.errors if text.lower() in e]
            if found:
                return found[0]
            await asyncio.sleep(0.05)
        pytest.fail(f"no error with {text!r}; got {self.errors}")


@pytest.fixture(scope="module")
async def floor_nc(server: LocalNatsServer) -> AsyncIterator[NATS]:
    nc = await nats.connect(url(server, "floor"))
    (await provision(nc)).raise_for_conflicts()  # the floor's own resources, as its user
    yield nc
    await nc.close()


@pytest.fixture(scope="module")
async def partner_copy_ready(server: LocalNatsServer, floor_nc: NATS) -> None:
    admin = await nats.connect(url(server, "partners-admin"))
    try:
        report = await provision(admin, resources=[partner_copy()])
        report.raise_for_conflicts()
        again = await provision(admin, resources=[partner_copy()])
        assert again.outcome_of("stream", PARTNER_STREAM) is Outcome.UNCHANGED
    finally:
        await admin.close()


async def store_round(nc: NATS, table: str, round_no: int, dice: tuple[int, int, int]) -> int:
    """Append a round's start and confirmed result to the floor's log, as the floor's
    services would (the partner test has no services running); returns the result's seq."""
    log_store = EventStore(nc, EVENT_STREAM)
    at = datetime.now(UTC)
    started = RoundStarted(
        table=table, actor=DEALER, at=at, round=round_no, tumbles=3, paytable="cca-1992@v1"
    )
    confirmed = ResultConfirmed(
        table=table,
        actor=DEALER,
        at=at,
        round=round_no,
        dice=dice,
        total=sum(dice),
        entered_by=DEALER.id,
    )
    await log_store.append(subject_of(started, Aggregate.LIFECYCLE), encode(started))
    stored = await log_store.append(subject_of(confirmed, Aggregate.LIFECYCLE), encode(confirmed))
    return stored.seq


async def publish_through_feed(nc: NATS, table: str, seq: int) -> None:
    feed = Feed(EventStore(nc, EVENT_STREAM), public_store(nc), lambda: datetime.now(UTC))
    subject = f"sicbo.evt.{table}.lc.1.dice-result-confirmed-v1"
    assert await feed.on_event(subject, seq) >= 1


async def test_a_partner_receives_results_and_reads_their_history_from_its_copy(
    server: LocalNatsServer, checkout: Checkout, floor_nc: NATS, partner_copy_ready: None
) -> None:
    partner = Client()
    seed = checkout.seed_file("acme")
    nc = await partner.connect(partner_url(server), seed)
    received: asyncio.Queue[Msg] = asyncio.Queue()
    await nc.subscribe(RESULTS_ALL, cb=received.put)
    await flush_sent(nc)
    seq = await store_round(floor_nc, "P1", 1, (5, 2, 5))
    tracer = TracerProvider().get_tracer("test")
    with tracer.start_as_current_span("the feed's job"):  # as the service runs it, traced
        await publish_through_feed(floor_nc, "P1", seq)
    msg = await asyncio.wait_for(received.get(), 10)
    result = _result.decode(msg.data)
    assert (result.table, result.round, result.status, result.dice, result.source_seq) == (
        "P1",
        1,
        ResultStatus.RESULT,
        (2, 5, 5),
        seq,
    )
    assert msg.subject == results("P1")
    headers = msg.headers or {}
    floor_copy = await EventStore(floor_nc, RESULTS_STREAM).read(results("P1"))
    # Republished by the partners' copy once stored: the copy keeps the floor's sequence.
    assert headers["Nats-Stream"] == PARTNER_STREAM
    assert int(headers["Nats-Sequence"]) == floor_copy[-1].seq
    assert "traceparent" not in headers and "tracestate" not in headers  # the floor's insides
    history = await last_results(nc, PARTNER_STREAM, results("P1"), 5)
    assert history == [result]
    # The command line and the example client work with a partner's credentials: its seed
    # file in NATS_NKEY.
    env = {k: v for k, v in os.environ.items() if not k.startswith("NATS_")}
    env |= {"NATS_URL": partner_url(server), "NATS_NKEY": str(seed)}
    tail = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sicbo.cli.main", "results", "tail", "--stream", PARTNER_STREAM,
        "--last", "1", "--count", "1", "--json", env=env, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(tail.communicate(), 30)
    assert _result.decode(out) == result
    example = await asyncio.create_subprocess_exec(
        sys.executable, str(ROOT / "examples" / "results_client.py"), "--history", "1",
        "--count", "1", env=env,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(example.communicate(), 30)
    assert "P1 #1 result: 2-5-5 = 12; winning bets: big, single:2, single:5" in out.decode()
    assert partner.errors == []  # nothing above needed more than a partner may do
    await nc.close()


async def test_a_partner_receives_the_heartbeat_through_its_copy_which_lets_it_expire(
    server: LocalNatsServer, checkout: Checkout, floor_nc: NATS, partner_copy_ready: None
) -> None:
    """The heartbeat takes the results' own path (stored in SICBO_RESULTS, mirrored into the
    copy, republished there), names the table's last result as the partner numbers it
    (Nats-Sequence), and leaves the copy by its TTL as it leaves the floor's stream."""
    partner = Client()
    nc = await partner.connect(partner_url(server), checkout.seed_file("acme"))
    received: asyncio.Queue[Msg] = asyncio.Queue()
    await nc.subscribe(RESULTS_ALL, cb=received.put)
    await flush_sent(nc)
    await publish_through_feed(floor_nc, "P2", await store_round(floor_nc, "P2", 1, (1, 4, 6)))
    seq = await store_round(floor_nc, "P2", 2, (2, 2, 3))
    await publish_through_feed(floor_nc, "P2", seq)
    beats = Heartbeats(floor_nc, public_store(floor_nc), lambda: datetime.now(UTC), 1)
    assert await beats.beat_table("P2", datetime.now(UTC)) == 1
    first, result_msg, beat_msg = [await asyncio.wait_for(received.get(), 10) for _ in range(3)]
    assert [m.subject for m in (first, result_msg, beat_msg)] == [results("P2")] * 2 + [
        heartbeat("P2")
    ]
    beat = msgspec.json.decode(beat_msg.data, type=FeedHeartbeat)
    result_headers, beat_headers = result_msg.headers or {}, beat_msg.headers or {}
    # Each republished result names the table's previous one (a gap shows at once).
    assert (first.headers or {})["Nats-Last-Sequence"] == "0"
    assert result_headers["Nats-Last-Sequence"] == (first.headers or {})["Nats-Sequence"]
    assert beat_headers["Nats-Stream"] == PARTNER_STREAM  # stored in the copy, republished
    assert beat.last_seq == int(result_headers["Nats-Sequence"])  # as the partner numbers it
    assert beat.last_source_seq == _result.decode(result_msg.data).source_seq == seq
    direct = f"$JS.API.DIRECT.GET.{PARTNER_STREAM}"
    ask = json.dumps({"last_by_subj": heartbeat("P2")}).encode()
    assert (await nc.request(direct, ask, timeout=5)).data == beat_msg.data  # readable back
    for _ in range(300):  # its TTL is 3 s: then the copy no longer holds it
        gone = (await nc.request(direct, ask, timeout=5)).headers or {}
        if gone.get("Status") == "404":
            break
        await asyncio.sleep(0.1)
    assert gone.get("Status") == "404"
    assert await last_results(nc, PARTNER_STREAM, results("P2"), 5) == [
        _result.decode(m.data) for m in (first, result_msg)
    ]  # the results stay
    assert partner.errors == []
    await nc.close()


def violations(store_dir: Path) -> list[str]:
    """The server's own record of each refusal (its log, ``... - Publish Violation - ...``)."""
    text = (store_dir / "nats-server.log").read_text(errors="replace")
    return [line.split(" - ", 2)[-1] for line in text.splitlines() if "Violation" in line]


async def test_a_partner_can_publish_nothing_nor_touch_internal_subjects_or_streams(
    server: LocalNatsServer,
    checkout: Checkout,
    floor_nc: NATS,
    partner_copy_ready: None,
    store_dir: Path,
) -> None:
    partner = Client()
    nc = await partner.connect(partner_url(server), checkout.seed_file("acme"))
    refusals: list[str] = []
    forged = RoundResult(
        table="P1",
        round=99,
        status=ResultStatus.RESULT,
        paytable="cca-1992@v1",
        dice=(6, 6, 6),
        total=18,
        recorded_at=datetime.now(UTC),
        published_at=datetime.now(UTC),
        source_seq=999_999,
    )
    before = await EventStore(floor_nc, RESULTS_STREAM).last_sequence(RESULTS_ALL)

    # Publishing anywhere: a forged result, a command, an event, the partners' copy's subject.
    anywhere = ("sicbo.results.P1", "sicbo.cmd.P1.dice.dealer", "sicbo.evt.P1.lc.1.x", "anything")
    for subject in anywhere:
        await nc.publish(subject, msgspec.json.encode(forged))
        refusals.append(await partner.refused(f'Publish to "{subject}"'))
    # Subscribing to internal subjects (and to the mirror's delivery subjects).
    for subject in ("sicbo.evt.>", "sicbo.cmd.>", "sicbo.partners.deliver.>", ">"):
        await nc.subscribe(subject)
        refusals.append(await partner.refused(f'Subscription to "{subject}"'))
    # JetStream API calls on the internal log, in the partner's account or through the
    # import of the floor's API; and deleting its own copy.
    calls: list[tuple[str, dict[str, Any]]] = [
        ("$JS.API.STREAM.INFO.SICBO", {}),
        ("$JS.API.DIRECT.GET.SICBO", {"last_by_subj": "sicbo.evt.>"}),
        ("$JS.API.CONSUMER.CREATE.SICBO", {"stream_name": "SICBO", "config": {}}),
        ("$JS.floor.API.CONSUMER.CREATE.SICBO_RESULTS", {"stream_name": "SICBO_RESULTS"}),
        ("$JS.API.STREAM.DELETE.RESULTS", {}),
    ]
    for subject, body in calls:
        with pytest.raises(nats.errors.TimeoutError):  # dropped by the server: no reply
            await nc.request(subject, json.dumps(body).encode(), timeout=1)
        refusals.append(await partner.refused(f'Publish to "{subject}"'))

    await flush_sent(nc)
    assert await EventStore(floor_nc, RESULTS_STREAM).last_sequence(RESULTS_ALL) == before
    copy = await last_results(nc, PARTNER_STREAM, RESULTS_ALL, 100)
    assert copy and forged.source_seq not in {r.source_seq for r in copy}  # nothing forged
    assert nc.is_connected  # refused, not disconnected
    logged = violations(store_dir)
    assert len(logged) >= len(refusals)
    (acme,) = partner_registry.load(checkout.root / "deploy/nats/partners.toml")
    assert all(f'"PARTNER_ACME/nkey:{acme.public_key}"' in line for line in logged)
    print("\nthe partner was told:\n  " + "\n  ".join(refusals))
    print("the server logged:\n  " + "\n  ".join(logged))
    await nc.close()


async def test_the_copy_catches_up_on_a_backlog_thanks_to_the_flow_control_export(
    server: LocalNatsServer, floor_nc: NATS, partner_copy_ready: None
) -> None:
    """A mirror paces its consumer with flow control; without the $JS.FC export the copy
    stalls after about a thousand messages (error 10228), with it a backlog arrives whole."""
    js = floor_nc.jetstream()
    at = datetime.now(UTC)
    for start in range(0, 3000, 500):
        await asyncio.gather(
            *(
                js.publish(
                    results("BACKLOG"),
                    msgspec.json.encode(
                        RoundResult(
                            table="BACKLOG",
                            round=n + 1,
                            status=ResultStatus.VOID,
                            paytable="cca-1992@v1",
                            reason="dice-not-flat",
                            recorded_at=at,
                            published_at=at,
                            source_seq=10_000_000 + n,
                        )
                    ),
                )
                for n in range(start, start + 500)
            )
        )
    floor_last = await EventStore(floor_nc, RESULTS_STREAM).last_sequence(RESULTS_ALL)
    admin = await nats.connect(url(server, "partners-admin"))
    try:
        for _ in range(200):
            reply = await admin.request(f"$JS.API.STREAM.INFO.{PARTNER_STREAM}", b"", timeout=5)
            info = json.loads(reply.data)
            if info["state"]["last_seq"] >= floor_last:
                break
            await asyncio.sleep(0.1)
        assert info["state"]["last_seq"] == floor_last, info.get("mirror")
        assert "error" not in info["mirror"], info["mirror"]
    finally:
        await admin.close()
