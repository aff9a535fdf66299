"""The Node.js example client (examples/node) against a real floor, as a partner runs it.

The server is nats-server with deploy/nats/floor.conf and the partners' copy of the feed, as in
test_partner_access.py; the client is a separate ``node`` process with the seed of a partner
registered by ``sicbo partners add`` in its environment. Outcomes of rounds are stored in the
floor's log and published by the feed; the client prints each one validated (Ajv, Draft
2020-12, strict mode) against contracts/schemas/results.json, and stops with exit code 1 on a
message that does not match.
Every published schema compiles with the same strict Ajv.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.results.feed import public_store
from sicbo.results.heartbeat import Heartbeats
from sicbo.results.project import winners
from sicbo.shell.codec import encode
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.dice import ResultCorrected
from sicbo_contracts.invalidation import InvalidationReason, RoundInvalidated
from sicbo_contracts.lifecycle import RoundCancelled, RoundStarted
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, results, subject_of
from tests.integration.test_partner_access import (  # noqa: F401 - module fixtures
    checkout,
    floor_nc,
    partner_copy_ready,
    publish_through_feed,
    server,
    store_dir,
    store_round,
)
from tests.support.partners import Checkout

ROOT = Path(__file__).resolve().parents[2]
CLIENT_DIR = ROOT / "examples" / "node"
SUPERVISOR = Actor(id="supervisor-1", role=Role.SUPERVISOR)
# Compiles each published schema as the client does; prints the ones Ajv refuses.
COMPILE_ALL = """
const fs = require("node:fs");
const Ajv2020 = require("ajv/dist/2020");
const addFormats = require("ajv-formats");
const refused = [];
for (const path of process.argv.slice(1)) {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  try { ajv.compile(JSON.parse(fs.readFileSync(path, "utf8"))); }
  catch (error) { refused.push(`${path}: ${error.message}`); }
}
console.log(JSON.stringify(refused));
"""


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not on PATH: the Node.js example client needs Node.js 20 and npm")
    return found


@pytest.fixture(scope="module")
def node() -> str:
    """The node binary, with the client's pinned packages installed from its lockfile."""
    node_bin, npm = tool("node"), tool("npm")
    if not (CLIENT_DIR / "node_modules").is_dir():
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=CLIENT_DIR, capture_output=True, text=True
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    return node_bin


class NodeClient:
    """examples/node/results-client.js as a process of its own, stopped by its PID."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, node: str, floor: PartnerFloor, *args: str) -> NodeClient:
        env = {
            **os.environ,
            "NATS_URL": f"nats://127.0.0.1:{floor.port}",
            "NATS_NKEY": str(floor.seed),  # the partner's own account, as docs/partners.md says
        }
        proc = await asyncio.create_subprocess_exec(
            node, "results-client.js", *args, cwd=CLIENT_DIR, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        client = cls(proc)
        assert proc.stdout is not None
        first = await asyncio.wait_for(proc.stdout.readline(), 30)
        if not first.startswith(b"subscribed to "):
            await client.finish()
            pytest.fail(f"the client did not subscribe: {first!r}")
        return client

    async def line(self) -> str:
        """The next line the client prints (waiting for it)."""
        assert self.proc.stdout is not None
        return (await asyncio.wait_for(self.proc.stdout.readline(), 30)).decode().rstrip("\n")

    async def finish(self) -> tuple[int, str, str]:
        """Wait for the client to stop by itself; its exit code and what it printed (after
        the line that says it subscribed)."""
        try:
            out, err = await asyncio.wait_for(self.proc.communicate(), 30)
        finally:
            if self.proc.returncode is None:
                self.proc.kill()
                await self.proc.wait()
        assert self.proc.returncode is not None
        return self.proc.returncode, out.decode(), err.decode()


@dataclass(frozen=True)
class PartnerFloor:
    port: int  # where partners connect
    floor_nc: NATS  # the floor's own user: stores outcomes, runs the feed
    seed: Path  # partner acme's nkey seed, written by `sicbo partners add`


@pytest.fixture(scope="module")
def partner_floor(
    checkout: Checkout,  # noqa: F811 - test_partner_access's fixtures, imported above
    server: LocalNatsServer,  # noqa: F811
    floor_nc: NATS,  # noqa: F811
    partner_copy_ready: None,  # noqa: F811
) -> PartnerFloor:
    return PartnerFloor(server.port, floor_nc, checkout.seed_file("acme"))


@pytest.fixture
async def clients() -> AsyncIterator[list[NodeClient]]:
    started: list[NodeClient] = []
    yield started
    for client in started:
        if client.proc.returncode is None:
            client.proc.kill()
            await client.proc.wait()


async def append(nc: NATS, event: RoundCancelled | RoundInvalidated | ResultCorrected) -> int:
    stored = await EventStore(nc, EVENT_STREAM).append(
        subject_of(event, Aggregate.LIFECYCLE), encode(event)
    )
    return stored.seq


async def store_outcomes(nc: NATS, table: str) -> int:
    """A result, its correction; a result then its invalidation; a cancelled round. Returns
    the sequence of the last one in the floor's log."""
    await store_round(nc, table, 1, (5, 2, 5))
    at = datetime.now(UTC)
    await append(
        nc,
        ResultCorrected(
            table=table, actor=SUPERVISOR, at=at, round=1, before=(2, 5, 5), after=(2, 5, 6),
            reason="die read as 5, shows 6",
        ),
    )  # fmt: skip
    await store_round(nc, table, 2, (1, 1, 4))
    await append(
        nc,
        RoundInvalidated(
            table=table, actor=SUPERVISOR, at=at, round=2, reason=InvalidationReason.FIRE,
            detail="fire in the hall",
        ),
    )  # fmt: skip
    started = RoundStarted(
        table=table, actor=SUPERVISOR, at=at, round=3, tumbles=3, paytable="cca-1992@v1"
    )
    await EventStore(nc, EVENT_STREAM).append(
        subject_of(started, Aggregate.LIFECYCLE), encode(started)
    )
    return await append(
        nc, RoundCancelled(table=table, actor=SUPERVISOR, at=at, round=3, reason="tumbler jammed")
    )


def test_every_published_schema_compiles_with_ajv_2020_in_strict_mode(node: str) -> None:
    paths = sorted(str(p) for p in (ROOT / "contracts" / "schemas").glob("*.json"))
    assert len(paths) > 10
    done = subprocess.run(
        [node, "-e", COMPILE_ALL, *paths], cwd=CLIENT_DIR, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == []


async def test_the_node_client_prints_each_live_result_validated(
    node: str, partner_floor: PartnerFloor, clients: list[NodeClient]
) -> None:
    client = await NodeClient.start(node, partner_floor, "--count", "5")
    clients.append(client)
    last = await store_outcomes(partner_floor.floor_nc, "N1")
    await publish_through_feed(partner_floor.floor_nc, "N1", last)
    code, out, err = await client.finish()
    assert code == 0, err
    lines = out.splitlines()  # after the line that says it subscribed
    assert all(line.startswith("valid result.v1 [") for line in lines), out
    printed = [line.split("] ", 1)[1] for line in lines]

    def won(dice: tuple[int, int, int]) -> str:
        return ", ".join(winners("cca-1992@v1", dice))

    assert printed == [
        f"N1 #1 result: 2-5-5 = 12; winning bets: {won((2, 5, 5))}",
        f"N1 #1 correction: 2-5-6 = 13 (corrects 2-5-5); winning bets: {won((2, 5, 6))}",
        f"N1 #2 result: 1-1-4 = 6; winning bets: {won((1, 1, 4))}",
        "N1 #2 invalidated: no result (fire)",
        "N1 #3 cancelled: no result (tumbler jammed)",
    ]


async def test_the_node_client_stops_with_an_error_on_a_message_the_schema_refuses(
    node: str, partner_floor: PartnerFloor, clients: list[NodeClient]
) -> None:
    client = await NodeClient.start(node, partner_floor, "--table", "N2")
    clients.append(client)
    at = datetime.now(UTC).isoformat()
    bad = {  # a die of 7, written to the floor's results stream as a broken feed would
        "type": "result.v1", "table": "N2", "round": 1, "status": "result",
        "paytable": "cca-1992@v1", "dice": [1, 2, 7], "total": 10, "winning_bets": [],
        "recorded_at": at, "published_at": at, "source_seq": 1,
    }  # fmt: skip
    await partner_floor.floor_nc.jetstream().publish(results("N2"), json.dumps(bad).encode())
    code, out, err = await client.finish()
    assert code == 1
    assert out == ""  # nothing printed as a result
    assert "INVALID message on sicbo.results.N2" in err
    assert "/dice/2 must be <= 6" in err, err


async def test_the_node_client_validates_the_heartbeat_through_the_partners_copy(
    node: str, partner_floor: PartnerFloor, clients: list[NodeClient]
) -> None:
    """docs/feed.md: a table's heartbeat names its last result (as the copy numbers it); it
    comes on its own subject and is validated against its own schema."""
    client = await NodeClient.start(node, partner_floor, "--table", "N3", "--count", "2")
    clients.append(client)
    nc = partner_floor.floor_nc
    await publish_through_feed(nc, "N3", await store_round(nc, "N3", 1, (3, 3, 4)))
    # The result reaches the client through the copy, the heartbeat on its own subject: the
    # beat is sent once the client has the result (else it may arrive first, and name it).
    first = await client.line()
    beats = Heartbeats(nc, public_store(nc), lambda: datetime.now(UTC), 1)
    assert await beats.beat_table("N3", datetime.now(UTC)) == 1
    beat = await client.line()
    await publish_through_feed(nc, "N3", await store_round(nc, "N3", 2, (1, 2, 3)))
    code, out, err = await client.finish()
    assert code == 0, err
    (second,) = out.splitlines()
    assert first.startswith("valid result.v1 [") and first.endswith("N3 #1 result: 3-3-4 = 10;"
        f" winning bets: {', '.join(winners('cca-1992@v1', (3, 3, 4)))}")  # fmt: skip
    assert beat.startswith("valid heartbeat.v1 N3 last result seq "), beat
    assert "(source_seq " in beat, beat
    assert beat.endswith("next within 1 s"), beat
    assert "N3 #2 result: 1-2-3" in second
