"""End-to-end benchmarks of the running floor: intake, settlement, replay verify.

Everything runs on one machine in one run: a nats-server of its own (temporary data), the
services as separate processes, and the clients in this process.
"""

import asyncio
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import nats
from nats.aio.client import Client as NATS

from sicbo.bench.jetstream import REFERENCE_IN_FLIGHT, RateFigure, bench_raw_appends
from sicbo.demo.client import FloorClient, new_id
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.lifecycle.state import Phase
from sicbo.provisioning import provision
from sicbo.replay.floor import verify_floor
from sicbo_contracts.accounts import DepositFunds, OpenAccount
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.lifecycle import (
    CloseBetting,
    OpenBetting,
    OpenTable,
    StartRound,
    TableConfig,
    Uncover,
)
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.subjects import round_history
from sicbo_contracts.wagers import PlaceSlip, Wager

DEALER = Actor(id="bench-dealer", role=Role.DEALER)
DEALER_PACE_SECONDS = 1.0
OPERATOR = Actor(id="bench-operator", role=Role.OPERATOR)
LIMITS = Limits(minimum=100, maximum=1_000_000, unit=100)
CURRENCY = "EUR"  # the wallet's table: each slip is debited from the player's account
SLIP = [
    Wager(bet="small", stake=1_000),
    Wager(bet="total:9", stake=200),
    Wager(bet="combo:2-5", stake=300),
    Wager(bet="single:4", stake=500),
]  # four wagers a slip


def percentile(values: list[float], p: float) -> float:
    """The value below which a fraction ``p`` of ``values`` falls (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


@dataclass(frozen=True)
class IntakeFigure:
    wagers: int
    seconds: float
    latencies_ms: list[float]
    clients: int

    @property
    def per_second(self) -> float:
        return self.wagers / self.seconds

    def percentile(self, p: float) -> float:
        return percentile(self.latencies_ms, p)


@dataclass(frozen=True)
class SettleFigure:
    wagers: int
    milliseconds: float


@dataclass(frozen=True)
class VerifyFigure:
    """The run of median rate among ``rates`` (every run's wagers/s, in order)."""

    wagers: int
    rounds: int
    read_seconds: float
    check_seconds: float
    ok: bool
    rates: tuple[float, ...] = ()

    @property
    def per_second(self) -> float:
        return self.wagers / (self.read_seconds + self.check_seconds)


@dataclass(frozen=True)
class FloorFigures:
    #: The raw append rate measured right before and right after the 16 clients' intake (the
    #: machine's speed drifts: the intake is set against both runs together).
    references: tuple[RateFigure, RateFigure]
    intake: IntakeFigure
    wallet: IntakeFigure  # the same intake at a table in a currency, debiting each slip
    #: The same intake with as many slips in flight as the reference has appends (100).
    matched: IntakeFigure
    settlements: list[SettleFigure]
    verify: VerifyFigure
    #: The wallet round: result confirmed -> settled and every return paid into the accounts.
    wallet_paid: SettleFigure


async def provision_and_start(nc: NATS, processes: list[ServiceProcess]) -> None:
    """The floor's resources, then every process started and ready (in that order)."""
    (await provision(nc)).raise_for_conflicts()
    for proc in processes:
        proc.start()
    for proc in processes:
        await proc.wait_ready()


async def _ok(client: FloorClient, cmd: object) -> None:
    reply = await client.send(cmd)
    if not isinstance(reply, Accepted):
        raise RuntimeError(f"{type(cmd).__name__}: {reply}")


async def _open_round(
    client: FloorClient, table: str, round_no: int, currency: str | None = None
) -> None:
    if round_no == 1:
        # 000 §2.3: the lamps are required; the bench runs no illumination service to ask them.
        config = TableConfig(
            profile="cca-1992", limits=LIMITS, layout_controller=True, currency=currency
        )
        await _ok(
            client, OpenTable(command_id=new_id("open"), table=table, actor=OPERATOR, config=config)
        )
    await _ok(
        client,
        StartRound(
            command_id=new_id("start"), table=table, actor=DEALER, round=round_no, tumbles=3
        ),
    )
    await _ok(
        client, OpenBetting(command_id=new_id("bet"), table=table, actor=DEALER, round=round_no)
    )


async def _slips(
    client: FloorClient, table: str, round_no: int, count: int, clients: int, prefix: str = "p"
) -> list[float]:
    """``clients`` concurrent players each sending their share of ``count`` slips, one at a
    time; returns each accept latency in ms."""
    latencies: list[float] = []

    async def player(n: int) -> None:
        actor = Actor(id=f"{prefix}{n}", role=Role.PLAYER)
        for _ in range(count // clients):
            cmd = PlaceSlip(
                command_id=new_id("s"),
                table=table,
                actor=actor,
                round=round_no,
                player=actor.id,
                wagers=SLIP,
            )
            start = time.perf_counter()
            reply = await client.send(cmd)
            latencies.append((time.perf_counter() - start) * 1000)
            if isinstance(reply, Rejected):
                raise RuntimeError(f"slip refused: {reply.reason}")

    await asyncio.gather(*(player(n) for n in range(clients)))
    return latencies


async def _finish(
    client: FloorClient, table: str, round_no: int, pace: float = DEALER_PACE_SECONDS
) -> None:
    await _ok(
        client, CloseBetting(command_id=new_id("close"), table=table, actor=DEALER, round=round_no)
    )
    await _ok(client, Uncover(command_id=new_id("unc"), table=table, actor=DEALER, round=round_no))
    # A dealer announces and enters the dice seconds after "no more bets" (000 §5.2-5.4);
    # the bench keeps a human pace there, as settlement reads the wagers ahead meanwhile.
    await asyncio.sleep(pace)
    await _ok(
        client,
        EnterDice(
            command_id=new_id("dice"), table=table, actor=DEALER, round=round_no, dice=(2, 4, 5)
        ),
    )
    await _ok(
        client, ConfirmResult(command_id=new_id("conf"), table=table, actor=DEALER, round=round_no)
    )


async def _settle_time(
    client: FloorClient, table: str, round_no: int, until: str = "settle-round-settled-v1"
) -> float:
    """Stream time from ResultConfirmed stored to RoundSettled stored (or ``until``), in ms."""
    for _ in range(600):
        state = await client.lifecycle(table)
        if (
            state.round is not None
            and state.round.number == round_no
            and state.round.phase is Phase.COMPLETED
        ):
            break
        await asyncio.sleep(0.05)
    log = await client.events(round_history(table, round_no))
    confirmed = next(e.time for e in log if e.subject.endswith("dice-result-confirmed-v1"))
    settled = next(e.time for e in log if e.subject.endswith(until))
    return (settled - confirmed).total_seconds() * 1000


async def _fund(client: FloorClient, player: str, amount: int) -> None:
    await _ok(
        client,
        OpenAccount(command_id=new_id("acct"), player=player, actor=OPERATOR, currency=CURRENCY),
    )
    await _ok(
        client,
        DepositFunds(
            command_id=new_id("fund"),
            player=player,
            actor=OPERATOR,
            amount=amount,
            currency=CURRENCY,
        ),
    )


async def bench_intake(
    client: FloorClient,
    slips: int = 4_000,
    clients: int = 16,
    *,
    wallet: bool = False,
    table: str = "bench-intake",
) -> IntakeFigure:
    """Slips at a table without a currency (chips at the table: no account read), or with
    ``wallet`` at a table in a currency whose players each have an account funded for every
    slip they send: each slip reads the account and appends the debit before the slip."""
    table, prefix = ("bench-wallet", "w") if wallet else (table, "p")
    await _open_round(client, table, 1, CURRENCY if wallet else None)
    if wallet:
        stake = sum(w.stake for w in SLIP) * (slips // clients)
        await asyncio.gather(*(_fund(client, f"{prefix}{n}", stake) for n in range(clients)))
    start = time.perf_counter()
    latencies = await _slips(client, table, 1, slips, clients, prefix)
    elapsed = time.perf_counter() - start
    await _finish(client, table, 1)
    return IntakeFigure(len(latencies) * len(SLIP), elapsed, latencies, clients)


async def bench_settlement(client: FloorClient, wagers: int) -> SettleFigure:
    table = f"bench-settle-{wagers}"
    await _open_round(client, table, 1)
    await _slips(client, table, 1, wagers // len(SLIP), 16)
    await _finish(client, table, 1)
    return SettleFigure(wagers, await _settle_time(client, table, 1))


async def bench_verify(nats_url: str, runs: int = 3) -> VerifyFigure:
    """Verify the whole floor as `sicbo replay verify` does (:func:`verify_floor`): the tables
    over the cores, every invariant, the accounts re-folded and joined with the tables (read:
    until the tables were read; re-settle: the rest of the wall time, accounts included).
    ``runs`` times on the same log: the run of median rate, and every run's rate."""
    done = [
        await asyncio.to_thread(verify_floor, nats_url, jobs=os.cpu_count() or 1)
        for _ in range(runs)
    ]
    rates = tuple(d.result.wagers / d.seconds for d in done)
    median = done[sorted(range(runs), key=rates.__getitem__)[runs // 2]]
    result, checks = median.result, median.seconds - median.read_seconds
    ok = all(d.result.ok for d in done)
    return VerifyFigure(result.wagers, result.rounds, median.read_seconds, checks, ok, rates)


async def bench_floor() -> FloorFigures:
    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        processes = [
            ServiceProcess(name, server.url, log_path=Path(tmp) / f"{name}.log")
            for name in ("lifecycle", "dice", "wagers", "settlement", "accounts")
        ]
        try:
            await provision_and_start(nc, processes)
            before = await bench_raw_appends(server.url)
            client = FloorClient(nc)
            intake = await bench_intake(client)
            after = await bench_raw_appends(server.url)
            wallet = await bench_intake(client, wallet=True)
            # Its payments (an entry per winning wager) done before settlement is timed.
            paid = await _settle_time(client, "bench-wallet", 1, "round-completed-v1")
            settlements = [await bench_settlement(client, n) for n in (1_000, 10_000)]
            await asyncio.sleep(1)  # let the intake round's settlement land before verifying
            checked = await bench_verify(server.url)
            # After the verify, so its log (and figure) is the one of the runs before.
            matched = await bench_intake(
                client, clients=REFERENCE_IN_FLIGHT, table="bench-intake-matched"
            )
        finally:
            for proc in processes:
                proc.stop()
            await nc.close()
    return FloorFigures(
        (before, after),
        intake,
        wallet,
        matched,
        settlements,
        checked,
        SettleFigure(wallet.wagers, paid),
    )
