"""Scale-out, proven locally: a 3-node JetStream cluster, two replicas of each round service,
three tables playing at once; one NATS node and one replica of every service are SIGKILLed in
the middle of play. Play goes on, and every wager is settled exactly once.

- Three ``nats-server`` processes on 127.0.0.1 with cluster routes (a config file per node,
  each including the floor's accounts as ``make nats-config`` renders them for a log of 3
  partitions), streams provisioned with 3 replicas and 3 partitions (``sicbo provision
  --partitions 3``), each partition stream led from another node (a leader stepdown naming
  the preferred server: :mod:`sicbo.log_leaders`). The services are pinned to 3
  (``SICBO_PARTITIONS``), as a deployment pins them. Every service runs as its own NATS user
  (deploy/nats) and is given the three URLs (``--nats a,b,c``), so it reconnects to a
  surviving node. Illumination (with a layout controller), the results feed and the board
  run too, one replica each, not killed: no service of the floor needs more than its user
  may do, before or after the failover.
- The tables are played by the demo's simulated dealers through a terminal client that
  does what a real terminal must across a failover: on a timeout or a "try again" answer it
  sends the same command again (same command id: it takes effect once).
- The node killed leads one partition stream, so that part of the log fails over; the other
  partitions keep their leaders (their writes never stop: no election), the dead node's
  partition elects a leader on a survivor, and every table (one in each partition) plays on.
- Checked on the log: more rounds complete on every table after the kills; each (slip, index)
  has exactly one result in its round's settlement, each settled round one ``RoundSettled``,
  every slip the terminals were told was accepted is in the log, and every slip of a
  completed round is settled; the feed and the lamps went on; no permission violation.

Run alone (``make test-cluster``): 3 servers and 8 service processes on a small machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.demo.client import FloorClient
from sicbo.demo.dealer import RoundLine, SimulatedDealer
from sicbo.demo.run import simulated_table
from sicbo.demo.tables import LIMITS, DemoTable
from sicbo.eventstore.layout import PARTITIONS_ENV, open_floor_log
from sicbo.eventstore.store import EventStore
from sicbo.infra import nats_config, partner_registry
from sicbo.infra.nats_accounts import accounts, password_envs, users
from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess
from sicbo.lifecycle.state import Phase
from sicbo.log_leaders import cluster_of, leaders, spread
from sicbo.provisioning import ProvisionError, provision
from sicbo_contracts.lifecycle import TableConfig
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.settlement import RoundSettled, WagersSettled
from sicbo_contracts.subjects import RESULTS_STREAM, partition_of, partition_stream, results
from sicbo_contracts.wagers import PlaceSlip, SlipPlaced
from tests.deploy.nats_users import passwords_in_environment

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]
PARTITIONS = 3
PASSWORDS = {env: f"{env.lower()}-cluster" for env in password_envs()}
SERVICES = ("lifecycle", "dice", "wagers", "settlement")
REPLICAS = 2
#: The rest of the floor, one replica each and not killed: it runs as its own users through
#: the failover too (and a layout controller answers for cl-cca and cl-macau03).
ALSO = ("illumination", "results", "board")
#: One table in each partition of 3 (partition_of: cl-live 0, cl-cca 1, cl-macau 2).
TABLES = (
    DemoTable("cl-cca", TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=True)),
    # 002/2003 art. 3(2): its layout is lit too (a controller answers, as for cl-cca).
    DemoTable("cl-macau", TableConfig(profile="macau-2003", limits=LIMITS, layout_controller=True)),
    # The online countdown closes betting by itself (the lifecycle's KV timers).
    DemoTable("cl-live", TableConfig(profile="online-live", limits=LIMITS, betting_seconds=2)),
)
LIT = ("cl-cca", "cl-macau")
LOG_STREAMS = [partition_stream(p, PARTITIONS) for p in range(PARTITIONS)]
ROUNDS_BEFORE = 2  # rounds every table completes before the kills
ROUNDS_AFTER = 2  # and after them
BOUND = 75.0  # seconds: the longest wait for either


# -- the cluster -----------------------------------------------------------------------------


@dataclass
class Node:
    name: str
    server: LocalNatsServer
    monitor_port: int
    log: Path

    def connz(self) -> list[dict[str, Any]]:
        url = f"http://127.0.0.1:{self.monitor_port}/connz?auth=true&limit=1024"
        with urllib.request.urlopen(url, timeout=5) as response:
            connections: list[dict[str, Any]] = json.load(response).get("connections") or []
        return connections


def node_config(directory: Path, name: str, cluster_port: int, routes: list[int], mon: int) -> Path:
    path = directory / f"{name}.conf"
    path.write_text(
        f"server_name: {name}\n"
        f"http: 127.0.0.1:{mon}\n"
        "cluster {\n"
        "  name: sicbo-local\n"
        f"  listen: 127.0.0.1:{cluster_port}\n"
        # As the Helm chart: clients use the URLs they are given (no discovered servers).
        "  no_advertise: true\n"
        f"  routes: [{', '.join(f'nats://127.0.0.1:{p}' for p in routes)}]\n"
        "}\n"
        "# The floor's accounts and users, as checked in (deploy/nats/accounts.conf).\n"
        "include ./accounts.conf\n"
    )
    return path


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Node]]:
    directory = tmp_path_factory.mktemp("cluster")
    # The accounts as `make nats-config` renders them with partitions = 3 (floor-log.toml).
    floor = accounts(partner_registry.load(ROOT / nats_config.PARTNERS), PARTITIONS)
    (directory / "accounts.conf").write_text(nats_config.conf_text(floor), encoding="utf-8")
    cluster_ports = [free_port() for _ in range(3)]
    nodes: list[Node] = []
    try:
        with passwords_in_environment(PASSWORDS):  # only while the servers start (they inherit it)
            for n, port in enumerate(cluster_ports, start=1):
                name, mon = f"n{n}", free_port()
                config = node_config(directory, name, port, cluster_ports, mon)
                server = LocalNatsServer(directory / name, config_file=config)
                nodes.append(Node(name, server, mon, directory / name / "nats-server.log"))
                server.start()
        yield nodes
    finally:
        for node in nodes:
            node.server.stop()


def urls(nodes: list[Node], *, user: str | None = None) -> str:
    """Every node, comma-separated (``--nats``); with a user's credentials in each URL."""
    if user is None:
        return ",".join(n.server.url for n in nodes)
    return ",".join(f"nats://{user}:{password(user)}@127.0.0.1:{n.server.port}" for n in nodes)


def password(user: str) -> str:
    return PASSWORDS[users()[user].password_env]


async def connect_as(nodes: list[Node], user: str) -> NATS:
    return await nats.connect(urls(nodes).split(","), user=user, password=password(user))


def credentials(directory: Path, user: str) -> dict[str, str]:
    """As in production: the user, and its password in a file (a mounted Secret)."""
    path = directory / f"{user}.password"
    path.write_text(password(user) + "\n")
    return {"NATS_USER": user, "NATS_PASSWORD_FILE": str(path)}


async def provisioned(nc: NATS, seconds: float = 30) -> None:
    """Streams and consumers with 3 replicas, once the cluster has a JetStream leader."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            report = await provision(nc, replicas=3, partitions=PARTITIONS, request_timeout=5)
            report.raise_for_conflicts()
            return
        except ProvisionError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.5)


async def replicas_current(nc: NATS, stream: str, dead: str, seconds: float = 30) -> dict[str, Any]:
    """Until every replica of a log stream but the dead node's is current (reads by Direct Get
    are then complete, whichever replica answers). A dead peer shows as not current, lagging."""
    deadline = time.monotonic() + seconds
    cluster: dict[str, Any] = {}
    while True:
        with contextlib.suppress(NatsTimeoutError, NoRespondersError, RuntimeError):
            cluster = await cluster_of(nc, stream)
            alive = [r for r in cluster.get("replicas", []) if r.get("name") != dead]
            if cluster.get("leader") and all(r.get("current") and not r.get("lag") for r in alive):
                return cluster
        if time.monotonic() > deadline:
            pytest.fail(f"the surviving replicas of {stream} did not catch up: {cluster}")
        await asyncio.sleep(0.2)


async def new_leader(nc: NATS, stream: str, dead: str, since: float) -> tuple[str, float]:
    """The first leader of ``stream`` other than ``dead``, and the seconds from ``since`` to
    when it was seen (polled: an upper bound of the election)."""
    while True:
        # Any client error: the connection may be moving off the dead node right now.
        with contextlib.suppress(nats.errors.Error, RuntimeError):
            leader = (await cluster_of(nc, stream, timeout=1)).get("leader")
            if leader and leader != dead:
                return leader, time.monotonic() - since
        await asyncio.sleep(0.05)


# -- the services ----------------------------------------------------------------------------


class LayoutController(ServiceProcess):
    """``sicbo layout-controller TABLE`` (a table's lamps), stopped by its PID like a service."""

    def __init__(self, nats_url: str, table: str, logs: Path) -> None:
        super().__init__("layout", nats_url, log_path=logs / f"layout-{table}.log")
        self.table = table

    def argv(self) -> list[str]:
        return [*super().argv()[:3], "layout-controller", self.table, "--nats", self.nats_url]

    @property
    def ready_line(self) -> str:
        return f"layout controller of {self.table} ready"


async def ready(proc: ServiceProcess, seconds: float = 60) -> None:
    """Until this very process logs that it serves (its commands are subscribed)."""
    assert proc.log_path is not None
    line = getattr(proc, "ready_line", f"sicbo-{proc.service} ready")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.proc is not None and proc.proc.poll() is not None:
            pytest.fail(f"{proc.service} exited: {proc.log_path.read_text()[-2000:]}")
        if proc.log_path.exists() and line in proc.log_path.read_text():
            return
        await asyncio.sleep(0.2)
    pytest.fail(f"{proc.service} not ready in {seconds} s")


@pytest.fixture(scope="module")
async def services(
    cluster: list[Node], tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[dict[str, list[ServiceProcess]]]:
    logs = tmp_path_factory.mktemp("service-logs")
    admin = await connect_as(cluster, "floor")
    procs: dict[str, list[ServiceProcess]] = {}
    try:
        await provisioned(admin)
        for service in (*SERVICES, *ALSO):
            for n in range(REPLICAS if service in SERVICES else 1):
                log = logs / f"{service}-{n}.log"
                env = {**credentials(logs, service), PARTITIONS_ENV: str(PARTITIONS)}
                proc = ServiceProcess(service, urls(cluster), log_path=log, env=env)
                procs.setdefault(service, []).append(proc.start())
        procs["layout"] = [
            LayoutController(urls(cluster, user="layout"), table, logs).start() for table in LIT
        ]
        await asyncio.gather(*(ready(p) for ps in procs.values() for p in ps))
        yield procs
    finally:
        for ps in procs.values():
            for proc in ps:
                proc.stop(timeout=5)
        await admin.close()


# -- the terminals ---------------------------------------------------------------------------

RETRY_CODES = frozenset({"conflict", "unavailable", "internal"})


class RetryingClient(FloorClient):
    """Sends a command again, unchanged, after a timeout or a "try again" answer: the command
    id makes the retry a duplicate if the first attempt took effect."""

    retries: Counter[str]

    def __init__(self, nc: NATS, store: EventStore) -> None:
        super().__init__(nc, timeout=3.0, store=store)
        self.retries = Counter()
        #: table -> the slips the wager intake accepted (a slip's id is its command's id)
        self.accepted_slips: dict[str, set[str]] = defaultdict(set)

    async def send(self, cmd: Any) -> Reply:
        deadline = time.monotonic() + 45
        while True:
            try:
                reply = await super().send(cmd)
                if isinstance(reply, Accepted) and isinstance(cmd, PlaceSlip):
                    self.accepted_slips[cmd.table].add(cmd.command_id)
                if not (isinstance(reply, Rejected) and reply.code in RETRY_CODES):
                    return reply
                why = reply.code
            except (NatsTimeoutError, NoRespondersError) as exc:
                why = type(exc).__name__
            if time.monotonic() > deadline:
                raise TimeoutError(f"{type(cmd).__name__} {cmd.command_id}: still {why}")
            self.retries[why] += 1
            await asyncio.sleep(0.3)


class Simulator(SimulatedDealer):
    async def _summary(self, number: int) -> RoundLine:
        # The round is completed in the log, so its settlement is stored; a read served by a
        # replica that has not applied it yet (after a reconnect) is read again.
        for _ in range(50):
            with contextlib.suppress(RuntimeError):
                return await super()._summary(number)
            await asyncio.sleep(0.1)
        return await super()._summary(number)


@dataclass
class Play:
    completed: dict[str, list[tuple[int, float]]] = field(default_factory=lambda: defaultdict(list))
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    #: the tables' simulated dealers, playing
    dealers: list[asyncio.Task[None]] = field(default_factory=list)
    #: what the dealers noticed (a round started over, say)
    notices: list[str] = field(default_factory=list)

    def report(self, line: RoundLine) -> None:
        self.completed[line.table].append((line.round, time.monotonic()))

    def rounds_since(self, table: str, since: float) -> int:
        return sum(1 for _, at in self.completed[table] if at > since)

    async def until(self, rounds: int, since: float, seconds: float = BOUND) -> None:
        deadline = time.monotonic() + seconds
        while any(self.rounds_since(t.table, since) < rounds for t in TABLES):
            for dealer in self.dealers:
                if dealer.done():  # stopped playing: say why now, not at the deadline
                    pytest.fail(f"a simulated dealer stopped: {dealer.exception()!r}")
            if time.monotonic() > deadline:
                got = {t.table: self.rounds_since(t.table, since) for t in TABLES}
                pytest.fail(
                    f"not {rounds} rounds per table within {seconds} s: {got}; "
                    f"the dealers noticed: {self.notices[-12:]}"
                )
            await asyncio.sleep(0.1)


async def mid_round(client: FloorClient, seconds: float = 10) -> dict[str, str]:
    """Until every table is in the middle of a round (not between two); their phases."""
    deadline = time.monotonic() + seconds
    while True:
        rounds = {t.table: (await client.lifecycle(t.table)).round for t in TABLES}
        phases = {table: str(r.phase) if r else "-" for table, r in rounds.items()}
        if all(r is not None and r.phase is not Phase.COMPLETED for r in rounds.values()):
            return phases
        if time.monotonic() > deadline:
            pytest.fail(f"the tables were never all in the middle of a round: {phases}")
        await asyncio.sleep(0.02)


async def play_until_stopped(sim: SimulatedDealer, play: Play) -> None:
    while not play.stop.is_set():
        await sim.run(1)  # ends between rounds only


# -- checking the log ------------------------------------------------------------------------

_placed = msgspec.json.Decoder(SlipPlaced)
_parts = msgspec.json.Decoder(WagersSettled)
_settled = msgspec.json.Decoder(RoundSettled)


async def check_settled_once(store: EventStore, table: str, accepted: set[str]) -> tuple[int, int]:
    """(invariant) on one table's log; returns (completed rounds, wagers settled). Every slip
    the terminals were told was accepted is in the log (none lost with the dead leader)."""
    slips: dict[int, set[tuple[str, int]]] = defaultdict(set)
    results: dict[int, Counter[tuple[str, int]]] = defaultdict(Counter)
    summaries: Counter[int] = Counter()
    completed: set[int] = set()
    for e in await store.read(f"sicbo.evt.{table}.>"):
        kind = e.subject.rsplit(".", 1)[1]
        if kind == "bets-slip-placed-v1":
            slip = _placed.decode(e.data)
            slips[slip.round].update((slip.slip_id, i) for i in range(len(slip.wagers)))
        elif kind == "settle-wagers-settled-v1":
            part = _parts.decode(e.data)
            results[part.round].update((w.slip_id, w.index) for w in part.wagers)
        elif kind == "settle-round-settled-v1":
            summaries[_settled.decode(e.data).round] += 1
        elif kind == "round-completed-v1":
            completed.add(int(e.subject.split(".")[4]))
    every_slip = set().union(*slips.values()) if slips else set()
    lost = accepted - {slip for slip, _ in every_slip}
    assert not lost, f"{table}: accepted slips missing from the log: {lost}"
    for n, counts in results.items():
        twice = [key for key, c in counts.items() if c > 1]
        assert not twice, f"{table} round {n}: settled more than once: {twice}"
        assert set(counts) <= every_slip, f"{table} round {n}: results for unknown slips"
    assert all(c == 1 for c in summaries.values()), f"{table}: RoundSettled {summaries}"
    assert set(results) <= set(summaries), f"{table}: wager results without a RoundSettled"
    for n in completed:
        assert summaries[n] == 1, f"{table} round {n} completed without one RoundSettled"
        missing = slips[n] - set(results[n])
        assert not missing, f"{table} round {n}: accepted slips not settled: {missing}"
    return len(completed), sum(sum(c.values()) for c in results.values())


def violations(nodes: list[Node]) -> list[str]:
    """Permission violations in the nodes' logs, but for late replies: a service that answers
    a request after its connection moved to another node is refused the reply (the response
    permission lives on the node that delivered the request); the caller times out and sends
    the same command again, which is a duplicate. Anything else is a missing permission."""
    found = []
    for node in nodes:
        text = node.log.read_text(errors="replace")
        for line in text.splitlines():
            late_reply = "Publish Violation" in line and 'Subject "_INBOX.' in line
            if "Violation" in line and not late_reply:
                found.append(f"{node.name}: {line}")
    return found


# -- the test --------------------------------------------------------------------------------


async def test_play_goes_on_and_every_wager_is_settled_once_after_a_node_and_replicas_die(
    cluster: list[Node], services: dict[str, list[ServiceProcess]]
) -> None:
    started = time.monotonic()
    nc = await connect_as(cluster, "floor")
    assert sorted({partition_of(t.table, PARTITIONS) for t in TABLES}) == [0, 1, 2]
    # Each partition led from its own node: writes spread over the cluster.
    led = await spread(nc, PARTITIONS, attempts=60)  # a loaded machine elects slowly
    assert sorted(str(leader) for leader in led.values()) == [n.name for n in cluster], led
    store = await open_floor_log(nc)
    client = RetryingClient(nc, store)
    play = Play()
    sims = [
        simulated_table(
            client,
            t,
            play.report,
            seed=n,
            betting_seconds=0.3,
            dealer=Simulator,
            notice=play.notices.append,
        )
        for n, t in enumerate(TABLES)
    ]
    tasks = [asyncio.create_task(play_until_stopped(s, play)) for s in sims]
    play.dealers = tasks
    try:
        await play.until(ROUNDS_BEFORE, since=0)
        before = time.monotonic() - started

        # Mid-round: the node leading one partition stream, and one replica of every service.
        before_kill = await leaders(nc, PARTITIONS)
        failing = partition_stream(partition_of("cl-cca", PARTITIONS), PARTITIONS)
        victim = next(n for n in cluster if n.name == before_kill[failing])
        on_victim = sorted(
            c.get("authorized_user", "?") for c in await asyncio.to_thread(victim.connz)
        )
        phases = await mid_round(client)
        killed_at = time.monotonic()
        assert victim.server.pid is not None
        os.kill(victim.server.pid, signal.SIGKILL)
        for service in SERVICES:
            services[service][0].kill()
        elected = asyncio.create_task(new_leader(nc, failing, victim.name, killed_at))
        await play.until(ROUNDS_AFTER, since=killed_at)
        took_over, election = await asyncio.wait_for(elected, BOUND)
        first = {
            t.table: min(at for _, at in play.completed[t.table] if at > killed_at) for t in TABLES
        }
        first_after = {table: round(at - killed_at, 1) for table, at in first.items()}
        play.stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks), BOUND)

        survivors = [n for n in cluster if n is not victim]
        states = {s: await replicas_current(nc, s, victim.name) for s in LOG_STREAMS}
        after = {s: state["leader"] for s, state in states.items()}
        # The partitions led elsewhere kept their leader: their writes never waited for an
        # election. The dead node's partition is led by a survivor.
        for stream in LOG_STREAMS:
            if stream != failing:
                assert after[stream] == before_kill[stream], (stream, before_kill, after)
        assert after[failing] in [n.name for n in survivors], after
        checked = {
            t.table: await check_settled_once(store, t.table, client.accepted_slips[t.table])
            for t in TABLES
        }
        for table, (rounds, _) in checked.items():
            assert rounds >= ROUNDS_BEFORE + ROUNDS_AFTER, (table, rounds)
        for service in (*SERVICES, *ALSO, "layout"):
            alive = services[service][-1]
            assert alive.proc is not None and alive.proc.poll() is None, f"{service} died"
        # The rest of the floor went on too: the public feed and the layout's lamps.
        feed = EventStore(nc, RESULTS_STREAM)
        assert all([await feed.last_sequence(results(t.table)) for t in TABLES])
        assert await store.read("sicbo.evt.cl-cca.lamp.>")
        assert violations(cluster) == []
        print(
            f"\ncluster: {[n.name for n in cluster]}, leaders {before_kill}; killed"
            f" {victim.name} (leader of {failing}; "
            f"its clients: {on_victim}) and one replica of {list(SERVICES)} "
            f"(also running: {[*ALSO, 'layout']})"
            f"\ntable phases at the kill: {phases}"
            f"\nrounds before the kill in {before:.1f} s; first round completed after it, per "
            f"table (s): {first_after}"
            f"\n{failing} led by {took_over} after {election:.2f} s (seen by polling); leaders"
            f" after: {after} on {[n.name for n in survivors]}; "
            f"per table (completed rounds, wagers settled): {checked}"
            f"\nterminal retries: {dict(client.retries)}; dealers noticed: {play.notices}; "
            f"whole test {time.monotonic() - started:.1f} s"
        )
    finally:
        play.stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await nc.close()
