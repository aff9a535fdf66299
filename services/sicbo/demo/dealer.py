"""The simulated dealer of a demo table: plays rounds until stopped.

Randomness lives here and in the simulated players, never in the game or the deciders.

Every demo table has a layout controller (its own process, started by ``make run``); one
land table's controller has a lamp that fails now and then. The dealer looks at the lamps
after each result (000 §5.5); when the table is suspended for a malfunction a few seconds pass
and play resumes: a simulated inspector clears a land table's fault (000 §7.7), the supervisor
resumes a suspended online round (004 "Ralat Pengendalian"; its betting countdown, paused
meanwhile, runs on with the time that was left).
"""

import asyncio
import contextlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec
from nats.errors import NoRespondersError

from sicbo.demo.client import FloorClient, new_id
from sicbo.demo.control import TableControl
from sicbo.demo.players import SimulatedPlayers
from sicbo.demo.tables import (
    DEALER,
    INSPECTOR,
    OPERATOR,
    PLAYERS,
    SECOND_DEALER,
    SUPERVISOR,
    DemoTable,
)
from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.records import StoredEvent
from sicbo.lifecycle.resumption import resumable_round
from sicbo.lifecycle.state import PLAYING, Phase
from sicbo_contracts.base import Actor
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault
from sicbo_contracts.lifecycle import (
    ClearFault,
    CloseBetting,
    DeclareNoResult,
    NoResultReason,
    OpenBetting,
    OpenTable,
    StartRound,
    TableSuspended,
    Uncover,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.resumption import ResumeRound
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, aggregate_filter, round_filter
from sicbo_contracts.wagers import IssueColorChecks

#: The detail of the "no result" announced for a round the simulated dealer finds in play.
LEFT_OVER = "left in play by an earlier run or a person: the demo dealer cannot vouch for it"

#: What makes the simulated dealer start its table over rather than stop playing it.
STARTS_OVER = (RuntimeError, TimeoutError, StoreError, NoRespondersError)

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


class SimulatedDealer:
    """Plays the table's rounds, with ``players`` betting; steps aside while a person holds the
    table (``control``). ``rng`` is the players' too, so one seed replays the same rounds."""

    def __init__(
        self,
        client: FloorClient,
        demo: DemoTable,
        report: Callable[[RoundLine], None],
        *,
        control: TableControl,
        players: SimulatedPlayers,
        rng: random.Random,
        betting_seconds: float,
        no_result_every: int,
        notice: Callable[[str], None] | None,
        inspector_seconds: float,
    ) -> None:
        self.client = client
        self.demo = demo
        self.table = demo.table
        self.report = report
        self.control = control
        self.players = players
        self.rng = rng
        self.betting_seconds = betting_seconds
        self.no_result_every = no_result_every
        self.notice = notice or (lambda text: None)
        self.inspector_seconds = inspector_seconds

    async def run(self, rounds: int | None = None) -> None:
        await self._ensure_open()
        played = 0
        while not self.control.stopped and (rounds is None or played < rounds):
            try:
                if self.control.held_by is not None:
                    await self.control.wait_handed_back()
                    if self.control.stopped:
                        break
                    await self._ensure_open()  # whatever the person left: void it, or wait
                await self.play_round()
            except STARTS_OVER as err:
                # A person at the table's terminal may have pressed in the middle of the
                # simulated dealer's round, or the log was out of reach a while (a node
                # failing over): this table starts over; the floor plays on.
                self.notice(f"{self.table}: {err}; the demo dealer starts over")
                await asyncio.sleep(1.0)
                with contextlib.suppress(*STARTS_OVER):
                    await self._ensure_open()
            played += 1

    def stop(self) -> None:
        """Play no further round. A cancellation alone may be lost: Python 3.11's
        ``asyncio.wait_for`` can swallow one that lands as its awaitable completes."""
        self.control.stop()

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
            # Left over from an earlier run, or handed back in the middle: the simulated dealer
            # did not tumble it and cannot vouch for it. No rule but 004's (after a fault) lets a
            # supervisor cancel a round into refunds, and 002/2003 art. 3(3) forbids withdrawing
            # the wagers, so the game supervisor announces "no result" (000 §7.3): its wagers
            # go as the profile says (refunded, 000 §7.5; carried into the re-run, 002 art.
            # 3(3)(4), 004), and settlement completes it.
            await self._send(
                DeclareNoResult(
                    command_id=new_id("no-result"),
                    table=self.table,
                    actor=SUPERVISOR,
                    round=current.number,
                    reason=NoResultReason.NOT_ACTIVATED_PROPERLY,
                    detail=LEFT_OVER,
                )
            )
        if current is not None:
            await self._wait_completed(current.number)

    async def play_round(self) -> None:
        state = await self.client.lifecycle(self.table)
        if self.control.held_by is not None:  # taken over while reading
            return
        number = self.control.playing = state.next_round
        try:
            if state.suspended:  # e.g. left over from an earlier run
                await self._fault_fixed()
            await self._play(number)
        finally:
            self.control.playing = None

    def _dealt(self, cls: Any, number: int, *, by: Actor = DEALER, **fields: Any) -> Any:
        """A command of the simulated dealer (or ``by`` someone else) for round ``number``."""
        name = cls.__name__.lower()
        return cls(command_id=new_id(name), table=self.table, actor=by, round=number, **fields)

    async def _play(self, number: int) -> None:
        table = self.table
        await self._send(self._dealt(StartRound, number, tumbles=self.rng.randint(3, 5)))
        await self._send(self._dealt(OpenBetting, number))
        paytable = (await self.client.lifecycle(table)).round
        assert paytable is not None
        await self.players.place_slips(number, paytable.paytable)
        if self.demo.config.betting_seconds:
            await self._wait_phase(number, Phase.BETTING_CLOSED)  # the countdown closes it
        else:
            await asyncio.sleep(self.betting_seconds)
            await self._send(self._dealt(CloseBetting, number))
        await self._send(self._dealt(Uncover, number))
        if self.rng.randrange(self.no_result_every) == 0:
            reason = NoResultReason.DICE_NOT_FLAT
            await self._send(
                self._dealt(DeclareNoResult, number, reason=reason, detail="two dice stacked")
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
        await self._let_the_result_be_seen()

    async def _let_the_result_be_seen(self) -> None:
        """The table's pause after a result (DemoTable.result_seconds), cut short when the
        floor stops or a person takes the table over."""
        for _ in range(int(self.demo.result_seconds / 0.1)):
            if self.control.stopped or self.control.held_by is not None:
                return
            await asyncio.sleep(0.1)

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
                await self._fault_fixed()
                return
            await asyncio.sleep(0.1)

    async def _fault_fixed(self) -> None:
        """The table is suspended (000 §7.7, 004): the fault is fixed, then an inspector clears
        it, or at an online table the supervisor resumes the suspended round (004)."""
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
        resumable = resumable_round(await self.client.lifecycle(self.table))
        if resumable is not None:
            detail = "fixed quickly: the round resumes (004)"
            await self._send(self._dealt(ResumeRound, resumable, detail=detail, by=SUPERVISOR))
            self.notice(f"{self.table} round {resumable} resumed by the supervisor")
            return
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
            try:
                current = (await self.client.lifecycle(self.table)).round
            except StoreError:  # the log out of reach for a moment: look again
                current = None
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
