"""Simulated dealers and players: rounds going on at every table until stopped.

Randomness lives here, in the simulator, never in the game or the deciders.

Every demo table has a layout controller (its own process, started by ``make run``); one
land table's controller has a lamp that fails now and then. The dealer looks at the lamps
after each result (000 §5.5); when the table is suspended for a malfunction (000 §7.7, 004) a
simulated inspector clears it after a few seconds and play resumes.
"""

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import msgspec

from sicbo.demo.client import FloorClient, new_id
from sicbo.eventstore.store import StoredEvent
from sicbo.game.profiles import parse_paytable_ref
from sicbo.lifecycle.state import PLAYING, Phase
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.demo import Control
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault
from sicbo_contracts.lifecycle import (
    CancelRound,
    ClearFault,
    CloseBetting,
    DeclareNoResult,
    NoResultReason,
    OpenBetting,
    OpenTable,
    StartRound,
    TableConfig,
    TableSuspended,
    Uncover,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, aggregate_filter, round_filter
from sicbo_contracts.wagers import IssueColorChecks, Medium, PlaceSlip, Wager

DEALER = Actor(id="dealer-1", role=Role.DEALER)
SECOND_DEALER = Actor(id="dealer-2", role=Role.DEALER)
SUPERVISOR = Actor(id="supervisor-1", role=Role.SUPERVISOR)
OPERATOR = Actor(id="operator-1", role=Role.OPERATOR)
INSPECTOR = Actor(id="inspector-1", role=Role.INSPECTOR)
PLAYERS = tuple(f"player-{n}" for n in range(1, 6))
LIMITS = Limits(minimum=100, maximum=50_000, unit=100)
#: A table taken over and left alone this long goes back to the demo dealer.
HOLD_SECONDS = 30 * 60


@dataclass(frozen=True)
class DemoTable:
    table: str
    config: TableConfig
    #: The fault of the table's simulated layout controller (``sicbo layout-controller``).
    layout_fault: str = "none"
    layout_fault_every: int = 1


DEMO_TABLES = (
    DemoTable(
        "demo-cca",
        TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=True),
        # The "big" lamp fails on every 7th round (a fault shows when big wins): 000 §7.6-7.7.
        layout_fault="dark:big",
        layout_fault_every=7,
    ),
    DemoTable(
        "demo-macau03", TableConfig(profile="macau-2003", limits=LIMITS, layout_controller=True)
    ),
    DemoTable(
        "demo-macau04",
        TableConfig(
            profile="macau-2004",
            limits=LIMITS,
            second_person_confirmation=True,
            layout_controller=True,
        ),
    ),
    DemoTable(
        "demo-online",
        TableConfig(
            profile="online-live", limits=LIMITS, betting_seconds=5, layout_controller=True
        ),
    ),
)

_verdict = msgspec.json.Decoder(IlluminationEvent)
_suspended = msgspec.json.Decoder(TableSuspended)


@dataclass(frozen=True)
class RoundLine:
    table: str
    round: int
    dice: tuple[int, int, int] | None
    basis: str
    wagers: int
    staked: int
    returned: int


class TableSimulator:
    def __init__(
        self,
        client: FloorClient,
        demo: DemoTable,
        report: Callable[[RoundLine], None],
        *,
        seed: int | None = None,
        betting_seconds: float = 1.5,
        no_result_every: int = 12,
        notice: Callable[[str], None] | None = None,
        inspector_seconds: float = 4.0,
    ) -> None:
        self.client = client
        self.demo = demo
        self.table = demo.table
        self.report = report
        self.rng = random.Random(seed)
        self.betting_seconds = betting_seconds
        self.no_result_every = no_result_every
        self.notice = notice or (lambda text: None)
        self.inspector_seconds = inspector_seconds
        #: The operator who took the table over from the simulated dealer (``make run``'s web
        #: terminal); the simulator finishes its round, then waits until it is handed back.
        self.held_by: str | None = None
        self.playing: int | None = None  # the round the simulated dealer is playing
        self._handed_back = asyncio.Event()
        self._stopping = False

    async def run(self, rounds: int | None = None) -> None:
        await self._ensure_open()
        played = 0
        while not self._stopping and (rounds is None or played < rounds):
            try:
                if self.held_by is not None:
                    await self._wait_handed_back()
                    if self._stopping:
                        break
                    await self._ensure_open()  # whatever the person left: cancel, or wait
                await self.play_round()
            except (RuntimeError, TimeoutError) as err:
                # A person at the table's terminal may have pressed in the middle of the
                # simulated dealer's round: this table starts over; the floor plays on.
                self.notice(f"{self.table}: {err}; the demo dealer starts over")
                await asyncio.sleep(1.0)
                with contextlib.suppress(RuntimeError, TimeoutError):
                    await self._ensure_open()
            played += 1

    def stop(self) -> None:
        """Play no further round. A cancellation alone may be lost: Python 3.11's
        ``asyncio.wait_for`` can swallow one that lands as its awaitable completes."""
        self._stopping = True
        self._handed_back.set()

    def take_over(self, operator: str) -> Control:
        """A person takes the table: the simulated dealer stops after the round it plays."""
        self.held_by = operator
        self._handed_back.clear()
        self.notice(f"{self.table}: taken over by {operator}")
        return self.control()

    def control(self) -> Control:
        """Who plays the table now."""
        if self.held_by is None:
            return Control(status="demo", round=self.playing)
        if self.playing is not None:
            return Control(status="after-round", round=self.playing, by=self.held_by)
        return Control(status="yours", by=self.held_by)

    def hand_back(self) -> Control:
        if self.held_by is not None:
            self.notice(f"{self.table}: handed back to the demo dealer by {self.held_by}")
        self.held_by = None
        self._handed_back.set()
        return Control(status="released")

    async def _wait_handed_back(self) -> None:
        """Until handed back, or until nobody has played the table for HOLD_SECONDS."""
        while self.held_by is not None and not self._stopping:
            try:
                await asyncio.wait_for(self._handed_back.wait(), HOLD_SECONDS)
            except TimeoutError:
                if await self._idle_seconds() >= HOLD_SECONDS:
                    self.notice(
                        f"{self.table}: unused for {HOLD_SECONDS // 60} minutes, demo resumes"
                    )
                    self.held_by = None
            # Woken by a hand-back: a new take-over since then keeps the table held.

    async def _idle_seconds(self) -> float:
        """Since the table's latest lifecycle event (the person's last press)."""
        store = self.client.store
        latest = await store.get(
            await store.last_sequence(aggregate_filter(self.table, Aggregate.LIFECYCLE))
        )
        if latest is None:
            return float("inf")
        return (datetime.now(UTC) - latest.time).total_seconds()

    async def _send(self, cmd: object) -> None:
        reply = await self.client.send(cmd)
        if isinstance(reply, Rejected):
            raise RuntimeError(f"{self.table}: {type(cmd).__name__} refused: {reply.reason}")

    async def _ensure_open(self) -> None:
        state = await self.client.lifecycle(self.table)
        if not state.is_open:
            await self._send(
                OpenTable(
                    command_id=new_id("open"),
                    table=self.table,
                    actor=OPERATOR,
                    config=self.demo.config,
                )
            )
            if self.demo.config.profile == "cca-1992":
                await self._send(
                    IssueColorChecks(
                        command_id=new_id("checks"),
                        table=self.table,
                        actor=DEALER,
                        player=PLAYERS[0],
                        color="red",
                        marker_value=200,
                        count=500,
                    )
                )
            return
        current = state.round
        if current is not None and current.phase in PLAYING:
            # Left over from an earlier run: a supervisor cancels it, settlement refunds it.
            await self._send(
                CancelRound(
                    command_id=new_id("cancel"),
                    table=self.table,
                    actor=SUPERVISOR,
                    round=current.number,
                    reason="demo floor restarted",
                )
            )
        if current is not None:
            await self._wait_completed(current.number)

    async def play_round(self) -> None:
        state = await self.client.lifecycle(self.table)
        if self.held_by is not None:  # taken over while reading
            return
        number = self.playing = state.next_round
        try:
            if state.suspended:  # e.g. left over from an earlier run
                await self._inspector_clears()
            await self._play(number)
        finally:
            self.playing = None

    async def _play(self, number: int) -> None:
        table = self.table
        await self._send(
            StartRound(
                command_id=new_id("start"),
                table=table,
                actor=DEALER,
                round=number,
                tumbles=self.rng.randint(3, 5),
            )
        )
        await self._send(
            OpenBetting(command_id=new_id("open"), table=table, actor=DEALER, round=number)
        )
        paytable = (await self.client.lifecycle(table)).round
        assert paytable is not None
        await self._place_slips(number, paytable.paytable)
        if self.demo.config.betting_seconds:
            await self._wait_phase(number, Phase.BETTING_CLOSED)  # the countdown closes it
        else:
            await asyncio.sleep(self.betting_seconds)
            await self._send(
                CloseBetting(command_id=new_id("close"), table=table, actor=DEALER, round=number)
            )
        await self._send(
            Uncover(command_id=new_id("uncover"), table=table, actor=DEALER, round=number)
        )
        if self.rng.randrange(self.no_result_every) == 0:
            await self._send(
                DeclareNoResult(
                    command_id=new_id("noresult"),
                    table=table,
                    actor=DEALER,
                    round=number,
                    reason=NoResultReason.DICE_NOT_FLAT,
                    detail="two dice stacked",
                )
            )
        else:
            dice = (self.rng.randint(1, 6), self.rng.randint(1, 6), self.rng.randint(1, 6))
            await self._send(
                EnterDice(
                    command_id=new_id("enter"), table=table, actor=DEALER, round=number, dice=dice
                )
            )
            confirmer = SECOND_DEALER if self.demo.config.second_person_confirmation else DEALER
            await self._send(
                ConfirmResult(
                    command_id=new_id("confirm"), table=table, actor=confirmer, round=number
                )
            )
        await self._wait_completed(number)
        line = await self._summary(number)
        self.report(line)
        if line.dice is not None and self.demo.config.layout_controller:
            await self._look_at_the_lamps(number)

    async def _place_slips(self, number: int, paytable_ref: str) -> None:
        bets = [b.id for b in parse_paytable_ref(paytable_ref).offered_bets()]
        limits = self.demo.config.limits
        for player in self.rng.sample(PLAYERS, self.rng.randint(2, len(PLAYERS))):
            wagers = []
            for _ in range(self.rng.randint(1, 4)):
                stake = limits.minimum + limits.unit * self.rng.randint(0, 20)
                if player == PLAYERS[0] and self.demo.config.profile == "cca-1992":
                    wagers.append(
                        Wager(
                            bet=self.rng.choice(bets), stake=400, medium=Medium.COLOR, color="red"
                        )
                    )
                elif self.rng.random() < 0.05:
                    wagers.append(
                        Wager(bet=self.rng.choice(bets), stake=limits.minimum, medium=Medium.PROMO)
                    )
                else:
                    wagers.append(Wager(bet=self.rng.choice(bets), stake=stake))
            reply = await self.client.send(
                PlaceSlip(
                    command_id=new_id("slip"),
                    table=self.table,
                    actor=Actor(id=player, role=Role.PLAYER),
                    round=number,
                    player=player,
                    wagers=wagers,
                )
            )
            if isinstance(reply, Rejected):
                return  # the countdown closed betting: the rest of the players were too late

    async def _look_at_the_lamps(self, number: int, timeout: float = 10.0) -> None:
        """000 §5.5: the winning areas are lit before the next round. A fault suspends the
        table (the illumination service reports it): wait for the inspector."""
        lamps = round_filter(self.table, Aggregate.LAMP, number)
        for _ in range(int(timeout / 0.1)):
            stored = await self.client.events(lamps)
            if stored:
                break
            await asyncio.sleep(0.1)
        else:
            return  # no verdict (yet): the illumination service may be behind
        verdict = _verdict.decode(stored[0].data)
        if not isinstance(verdict, IlluminationFault):
            return
        self.notice(f"{self.table} #{number}: layout fault, {verdict.detail}")
        for _ in range(int(timeout / 0.1)):
            if (await self.client.lifecycle(self.table)).suspended:
                await self._inspector_clears()
                return
            await asyncio.sleep(0.1)

    async def _inspector_clears(self) -> None:
        """The table is suspended (000 §7.7, 004): an inspector comes and clears the fault."""
        events = await self.client.events(aggregate_filter(self.table, Aggregate.LIFECYCLE))
        last: StoredEvent | None = next(
            (e for e in reversed(events) if e.subject.endswith("table-suspended-v1")), None
        )
        fault = "malfunction"
        if last is not None:
            suspended = _suspended.decode(last.data)
            fault = f"{suspended.equipment}: {suspended.detail} ({suspended.policy})"
        self.notice(f"{self.table} suspended: {fault}")
        await asyncio.sleep(self.inspector_seconds)
        await self._send(
            ClearFault(
                command_id=new_id("clear"),
                table=self.table,
                actor=INSPECTOR,
                detail="lamp replaced by the inspector",
            )
        )
        self.notice(f"{self.table} fault cleared by inspector")

    async def _wait_phase(self, number: int, phase: Phase, timeout: float = 60.0) -> None:
        for _ in range(int(timeout / 0.1)):
            current = (await self.client.lifecycle(self.table)).round
            if current is not None and current.number == number and current.phase == phase:
                return
            await asyncio.sleep(0.1)
        raise TimeoutError(f"{self.table} round {number} never reached {phase}")

    async def _wait_completed(self, number: int) -> None:
        await self._wait_phase(number, Phase.COMPLETED)

    async def _summary(self, number: int) -> RoundLine:
        events = await self.client.events(round_filter(self.table, Aggregate.SETTLE, number))
        for stored in events:
            if stored.subject.endswith("round-settled-v1"):
                s = msgspec.json.decode(stored.data, type=RoundSettled)
                return RoundLine(
                    self.table, number, s.dice, s.basis, s.wagers, s.staked, s.returned
                )
        raise RuntimeError(f"{self.table} round {number} completed without a settlement")
