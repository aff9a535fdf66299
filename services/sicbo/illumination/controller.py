"""A simulated layout controller: the lamp panel of one table, with fault injection.

It answers :class:`~sicbo_contracts.illumination.LightLayout` on ``sicbo.layout.<table>.light``
as the table's electronic equipment would (000 §2.3): every lamp off, then the requested spots
lit, and a :class:`~sicbo_contracts.illumination.LayoutReport` of what is lit. Faults, for the
demo floor and the tests, on every round or only on every Nth round (by round number):

- ``dark:BET``: the lamp of BET does not light (a missing winning area, 000 §7.6);
- ``extra:BET``: BET lights although it was not asked for (lit wrongly);
- ``silent``: no answer at all;
- ``slow:SECONDS``: the answer comes SECONDS late (a fault only beyond the service's deadline).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from enum import StrEnum

import msgspec
import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from sicbo.game.bets import parse_bet
from sicbo.game.errors import InvalidBet
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_urls import servers
from sicbo.infra.replies import answer, misdirected
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.illumination import LayoutReport, LightLayout
from sicbo_contracts.subjects import layout_light, layout_ping

log = logging.getLogger(__name__)

_request = msgspec.json.Decoder(LightLayout)
_encode = msgspec.json.Encoder().encode


class FaultKind(StrEnum):
    NONE = "none"
    DARK = "dark"  # dark:BET
    EXTRA = "extra"  # extra:BET
    SILENT = "silent"
    SLOW = "slow"  # slow:SECONDS


@dataclass(frozen=True, slots=True)
class Fault:
    kind: FaultKind = FaultKind.NONE
    bet: str | None = None  # dark / extra
    seconds: float = 0.0  # slow
    every: int = 1  # on rounds whose number is a multiple of this

    def on(self, round_no: int) -> bool:
        return self.kind is not FaultKind.NONE and round_no % self.every == 0

    def __str__(self) -> str:
        what = self.kind.value
        if self.bet is not None:
            what += f":{self.bet}"
        elif self.kind is FaultKind.SLOW:
            what += f":{self.seconds:g}"
        return what if self.every == 1 else f"{what} every {self.every} rounds"


def parse_fault(text: str, every: int = 1) -> Fault:
    """``none``, ``dark:BET``, ``extra:BET``, ``silent`` or ``slow:SECONDS``; raises
    ``ValueError`` with the reason."""
    if every < 1:
        raise ValueError(f"--fault-every must be at least 1, got {every}")
    name, _, arg = text.partition(":")
    try:
        kind = FaultKind(name)
    except ValueError:
        kinds = "none, dark:BET, extra:BET, silent, slow:SECONDS"
        raise ValueError(f"unknown fault {text!r}: one of {kinds}") from None
    if kind in (FaultKind.DARK, FaultKind.EXTRA):
        try:
            bet = parse_bet(arg).id
        except InvalidBet as err:
            raise ValueError(f"fault {text!r}: {err}") from None
        return Fault(kind, bet=bet, every=every)
    if kind is FaultKind.SLOW:
        try:
            seconds = float(arg)
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 3600:
            raise ValueError(f"fault {text!r}: slow takes seconds, e.g. slow:3")
        return Fault(kind, seconds=seconds, every=every)
    if arg:
        raise ValueError(f"fault {text!r}: {kind.value} takes no argument")
    return Fault(kind, every=every)


class LampPanel:
    """The lamps of a layout (pure: no clock, no I/O)."""

    def __init__(self, fault: Fault | None = None) -> None:
        self.fault = fault or Fault()
        self.lit: tuple[str, ...] = ()

    def light(self, round_no: int, spots: list[str]) -> list[str]:
        """All lamps off, then ``spots`` on (a faulty lamp as the fault says); what is lit."""
        lamps = list(dict.fromkeys(spots))
        fault = self.fault
        if fault.on(round_no) and fault.bet is not None:
            if fault.kind is FaultKind.DARK:
                lamps = [s for s in lamps if s != fault.bet]
            elif fault.kind is FaultKind.EXTRA and fault.bet not in lamps:
                lamps.append(fault.bet)
        self.lit = tuple(lamps)
        return lamps

    def delay(self, round_no: int) -> float | None:
        """Seconds before the report goes out; None: it never does (silent)."""
        if not self.fault.on(round_no):
            return 0.0
        if self.fault.kind is FaultKind.SILENT:
            return None
        return self.fault.seconds if self.fault.kind is FaultKind.SLOW else 0.0


class LayoutController:
    """The panel behind the table's controller subject."""

    def __init__(self, nc: NATS, table: str, fault: Fault | None = None) -> None:
        self.nc = nc
        self.table = table
        self.panel = LampPanel(fault)
        self._subs: list[Subscription] = []
        self._late: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._subs.append(await self.nc.subscribe(layout_light(self.table), cb=self._on_light))
        self._subs.append(await self.nc.subscribe(layout_ping(self.table), cb=self._on_ping))

    async def stop(self) -> None:
        for sub in self._subs:
            await sub.unsubscribe()
        self._subs.clear()
        for task in list(self._late):
            task.cancel()

    async def _on_ping(self, msg: Msg) -> None:
        await answer(msg, b'{"ok":true}')

    async def _on_light(self, msg: Msg) -> None:
        if misdirected(msg):  # lit for nobody: a reply subject that is not an inbox
            return
        try:
            request = _request.decode(msg.data)
        except DECODE_ERRORS as err:
            log.warning("%s: unreadable request: %s", self.table, err)
            return
        if request.table != self.table or not msg.reply:
            return
        lit = self.panel.light(request.round, request.spots)
        delay = self.panel.delay(request.round)
        report = LayoutReport(
            request_id=request.request_id, table=self.table, round=request.round, lit=lit
        )
        shown = ", ".join(lit) or "nothing"
        if delay is None:
            log.info(
                "%s round %s: lit %s, reports nothing (silent)", self.table, request.round, shown
            )
            return
        log.info("%s round %s: lit %s", self.table, request.round, shown)
        if delay == 0:
            await answer(msg, _encode(report))
            return
        # Late, without holding up the subscription (nats-py awaits this callback).
        task = asyncio.create_task(self._respond_late(msg, _encode(report), delay))
        self._late.add(task)
        task.add_done_callback(self._late.discard)

    async def _respond_late(self, msg: Msg, data: bytes, delay: float) -> None:
        await asyncio.sleep(delay)
        with contextlib.suppress(Exception):  # the requester may be long gone
            await answer(msg, data)


async def run_controller(nats_url: str, table: str, fault: Fault) -> None:
    """Serve the table's lamps until cancelled (SIGINT / SIGTERM)."""
    nc = await nats.connect(
        servers(nats_url), name=f"sicbo-layout-{table}", **connect_options(nats_url)
    )
    controller = LayoutController(nc, table, fault)
    try:
        await controller.start()
        await flush_sent(nc)
        log.info("layout controller of %s ready (fault: %s)", table, fault)
        await asyncio.Event().wait()
    finally:
        await controller.stop()
        with contextlib.suppress(Exception):
            await nc.drain()
