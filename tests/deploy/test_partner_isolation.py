"""Partners are isolated from each other by the generated configuration, on a real server.

Each rendering of the accounts (deploy/nats/floor.conf with its accounts.conf, and the Helm
values' accounts as the chart writes them) is run by a nats-server of its own, with two
partners registered by ``sicbo partners add`` (an account and an nkey each). The floor
publishes results; the partners' copy in ``PARTNERS`` republishes them into each partner's
account. Then: both receive them live and read their history; partner A's Direct Get with its
reply aimed at a results subject or at B's inbox never reaches B (issue 12: it did, with one
shared account); A is refused everything else; ``sicbo partners rotate`` makes the old key
fail and the new one work, ``remove`` leaves the partner unable to connect, each after the
reload the command asks for, which also closes the connections already open on that key.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.partner_targets import RELOADS
from sicbo.provisioning import provision
from sicbo.results.partners import partner_copy
from sicbo_contracts.results import PublicResult, ResultStatus, RoundResult
from sicbo_contracts.subjects import PARTNER_STREAM, RESULTS_ALL, results
from tests.support.partners import Checkout, reload, start_server, url

_decode = msgspec.json.Decoder(PublicResult).decode
DIRECT_GET = f"$JS.API.DIRECT.GET.{PARTNER_STREAM}"


@pytest.fixture(scope="module", params=["floor.conf", "helm-values"])
def checkout(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Checkout:
    repo = Checkout.copy(tmp_path_factory.mktemp(f"partners-{request.param}"))
    repo.add("acme")
    repo.add("bet-co")
    return repo


@pytest.fixture(scope="module")
def server(checkout: Checkout) -> Iterator[LocalNatsServer]:
    running = start_server(checkout.root / "store", _config(checkout))
    try:
        yield running
    finally:
        running.stop()


def _config(checkout: Checkout) -> Path:
    helm = "helm-values" in checkout.root.name
    return checkout.config("helm-values" if helm else "floor.conf")


@pytest.fixture(scope="module")
async def floor(server: LocalNatsServer) -> AsyncIterator[NATS]:
    """The operator: the floor's streams, and the partners' copy by its admin user."""
    nc = await nats.connect(url(server, "floor"))
    (await provision(nc)).raise_for_conflicts()
    admin = await nats.connect(url(server, "partners-admin"))
    (await provision(admin, resources=[partner_copy()])).raise_for_conflicts()
    await admin.close()
    yield nc
    await nc.close()


class Partner:
    """A partner's connection by its seed file; records the server's errors."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.nc = NATS()
        self.live: asyncio.Queue[Msg] = asyncio.Queue()
        self.dropped = asyncio.Event()  # the server closed the connection

    async def connect(self, server: LocalNatsServer, seed: Path) -> Partner:
        async def on_error(exc: Exception) -> None:
            self.errors.append(str(exc).lower())

        async def on_disconnect() -> None:
            self.dropped.set()

        await self.nc.connect(
            f"nats://127.0.0.1:{server.port}",
            nkeys_seed=str(seed),
            error_cb=on_error,
            disconnected_cb=on_disconnect,
            allow_reconnect=False,
        )
        await self.nc.subscribe(RESULTS_ALL, cb=self.live.put)
        await flush_sent(self.nc)
        return self

    async def refused(self, needle: str) -> None:
        for _ in range(500):
            if any(needle.lower() in e for e in self.errors):
                return
            await asyncio.sleep(0.01)
        pytest.fail(f"not refused: {needle}; errors: {self.errors}")


@pytest.fixture
async def partners(server: LocalNatsServer, checkout: Checkout) -> AsyncIterator[Any]:
    opened: list[Partner] = []

    async def connect(name: str) -> Partner:
        opened.append(await Partner().connect(server, checkout.seed_file(name)))
        return opened[-1]

    yield connect
    for p in opened:
        if not p.nc.is_closed:
            await p.nc.close()


_round = 0


async def publish_result(floor: NATS, table: str) -> int:
    """A result stored in the floor's SICBO_RESULTS (as the feed would); its round number."""
    global _round
    _round += 1
    at = datetime.now(UTC)
    result = RoundResult(
        table=table,
        round=_round,
        status=ResultStatus.VOID,
        paytable="cca-1992@v1",
        reason="dice-not-flat",
        recorded_at=at,
        published_at=at,
        source_seq=_round,
    )
    await floor.jetstream().publish(results(table), msgspec.json.encode(result))
    return _round


async def next_result(partner: Partner, table: str) -> tuple[Msg, RoundResult]:
    """The next live message to ``partner`` on ``table``'s subject (others are skipped)."""
    while True:
        msg = await asyncio.wait_for(partner.live.get(), 30)
        if msg.subject == results(table):
            return msg, _decode(msg.data)


async def test_each_partner_receives_results_live_and_reads_their_history(
    floor: NATS, partners: Any
) -> None:
    acme, bet_co = await partners("acme"), await partners("bet-co")
    first = await publish_result(floor, "ISO1")
    second = await publish_result(floor, "ISO1")
    for partner in (acme, bet_co):
        got = [await next_result(partner, "ISO1") for _ in range(2)]
        assert [r.round for _, r in got] == [first, second]
        assert all(m.headers and m.headers["Nats-Stream"] == PARTNER_STREAM for m, _ in got)
        # History by Direct Get through the import: one message ...
        last = await partner.nc.request(
            DIRECT_GET, json.dumps({"last_by_subj": results("ISO1")}).encode()
        )
        assert _decode(last.data).round == second
        # ... and a batch: every reply arrives (response_type stream), then the 204 that ends it.
        batch: asyncio.Queue[Msg] = asyncio.Queue()
        inbox = partner.nc.new_inbox()
        await partner.nc.subscribe(inbox, cb=batch.put)
        await flush_sent(partner.nc)
        body = {"seq": 1, "next_by_subj": results("ISO1"), "batch": 10}
        await partner.nc.publish(DIRECT_GET, json.dumps(body).encode(), reply=inbox)
        pages = [await asyncio.wait_for(batch.get(), 30) for _ in range(3)]
        assert [_decode(m.data).round for m in pages[:2]] == [first, second]
        assert (pages[2].headers or {}).get("Status") == "204"
    assert acme.errors == bet_co.errors == []


def what(msg: Msg) -> tuple[str, int | str]:
    """A message as (subject, round), or (subject, its status) for a batch's end."""
    status = (msg.headers or {}).get("Status")
    return msg.subject, status if status else _decode(msg.data).round


async def test_a_partners_direct_get_replies_never_reach_another_partner(
    floor: NATS, partners: Any
) -> None:
    acme, bet_co = await partners("acme"), await partners("bet-co")
    await publish_result(floor, "ISO2")
    await next_result(acme, "ISO2")
    await next_result(bet_co, "ISO2")
    # bet-co also listens on every inbox it may (its own account's _INBOX.>).
    bet_co_inboxes: asyncio.Queue[Msg] = asyncio.Queue()
    await bet_co.nc.subscribe("_INBOX.>", cb=bet_co_inboxes.put)
    await flush_sent(bet_co.nc)
    # acme aims Direct Get replies at a results subject (one, then a batch) and at an inbox
    # of bet-co's: with one shared account each was delivered to bet-co as if live.
    spoofs = {
        results("ISO2"): {"last_by_subj": results("ISO2")},
        results("FORGED"): {"seq": 1, "next_by_subj": RESULTS_ALL, "batch": 3},
    }
    for reply, body in spoofs.items():
        await acme.nc.publish(DIRECT_GET, json.dumps(body).encode(), reply=reply)
    await acme.nc.publish(DIRECT_GET, b'{"seq": 1}', reply=bet_co.nc.new_inbox())
    # The server did answer: acme's own subscription gets what it asked for (its own account).
    spoofed = [what(await asyncio.wait_for(acme.live.get(), 30))]
    while spoofed[-1] != (results("FORGED"), "204"):  # the batch's end
        spoofed.append(what(await asyncio.wait_for(acme.live.get(), 30)))
    assert [s for s, _ in spoofed].count(results("FORGED")) >= 2  # results, then the end
    # A real result after them: all bet-co received since is that result, nothing of acme's.
    real = await publish_result(floor, "ISO2")
    since = [what(await asyncio.wait_for(bet_co.live.get(), 30))]
    while since[-1] != (results("ISO2"), real):
        since.append(what(await asyncio.wait_for(bet_co.live.get(), 30)))
    assert since == [(results("ISO2"), real)]
    assert bet_co_inboxes.empty()
    # Nor does acme see bet-co's replies: after both read history, acme's _INBOX.> holds its own.
    acme_inboxes: asyncio.Queue[Msg] = asyncio.Queue()
    await acme.nc.subscribe("_INBOX.>", cb=acme_inboxes.put)
    await flush_sent(acme.nc)
    await bet_co.nc.request(DIRECT_GET, b'{"seq": 1}')
    mine = await acme.nc.request(DIRECT_GET, b'{"seq": 1}')
    seen = [await asyncio.wait_for(acme_inboxes.get(), 30)]
    assert [m.subject for m in seen] == [mine.subject] and acme_inboxes.empty()
    assert bet_co.errors == []


async def test_a_partner_may_do_nothing_else(partners: Any) -> None:
    acme = await partners("acme")
    for subject in (
        results("ISO3"),  # forging a result (nobody else would get it, but refused anyway)
        "sicbo.cmd.ISO3.dice.dealer",
        f"$JS.API.STREAM.INFO.{PARTNER_STREAM}",
        f"$JS.API.CONSUMER.CREATE.{PARTNER_STREAM}",
        f"$JS.API.STREAM.DELETE.{PARTNER_STREAM}",
        "$JS.floor.API.CONSUMER.CREATE.SICBO_RESULTS",
    ):
        await acme.nc.publish(subject, b"{}")
        await acme.refused(f'publish to "{subject}"')
    for pattern in (">", "sicbo.evt.>", "sicbo.partners.deliver.>", "$JS.API.>"):
        await acme.nc.subscribe(pattern)
        await acme.refused(f'subscription to "{pattern}"')
    assert acme.nc.is_connected  # refused, not disconnected


async def test_a_partner_added_to_a_running_floor_reads_its_history_after_the_reloads(
    server: LocalNatsServer, checkout: Checkout, floor: NATS, partners: Any
) -> None:
    """A reload creates the new account, the second wires its service imports (RELOADS):
    the partner then reads history by Direct Get as well as receiving live results."""
    real = await publish_result(floor, "ISO6")
    checkout.add("late-co")
    for _ in range(RELOADS):
        reload_with(server, checkout)
    late = await partners("late-co")
    last = await late.nc.request(
        DIRECT_GET, json.dumps({"last_by_subj": results("ISO6")}).encode(), timeout=10
    )
    assert _decode(last.data).round == real
    live = await publish_result(floor, "ISO6")
    assert (await next_result(late, "ISO6"))[1].round == live
    checkout.remove("late-co")
    reload_with(server, checkout)


async def test_rotate_refuses_the_old_key_and_takes_the_new(
    server: LocalNatsServer, checkout: Checkout, floor: NATS, partners: Any, tmp_path: Path
) -> None:
    old_seed = tmp_path / "acme-old.nk"
    old_seed.write_bytes(checkout.seed_file("acme").read_bytes())
    on_old_key = await partners("acme")
    checkout.rotate("acme")
    assert checkout.seed_file("acme").read_bytes() != old_seed.read_bytes()
    reload_with(server, checkout)
    await asyncio.wait_for(on_old_key.dropped.wait(), 30)  # the reload ends it
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await Partner().connect(server, old_seed)
    acme = await partners("acme")  # the new seed
    real = await publish_result(floor, "ISO4")
    assert (await next_result(acme, "ISO4"))[1].round == real


async def test_a_removed_partner_cannot_connect(
    server: LocalNatsServer, checkout: Checkout, floor: NATS, partners: Any
) -> None:
    seed = checkout.seed_file("bet-co")
    connected = await partners("bet-co")
    checkout.remove("bet-co")
    reload_with(server, checkout)
    await asyncio.wait_for(connected.dropped.wait(), 30)  # the reload ends it
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await Partner().connect(server, seed)
    acme = await partners("acme")  # the others are served as before
    real = await publish_result(floor, "ISO5")
    assert (await next_result(acme, "ISO5"))[1].round == real


def reload_with(server: LocalNatsServer, checkout: Checkout) -> None:
    _config(checkout)  # the Helm rendering is rewritten from the regenerated values
    reload(server, checkout.root / "store")
