"""The gateway's side of NATS: commands and queries out, the log read in.

Per-table views are the log folded (:mod:`sicbo.gateway.views`), cached and caught up from
the last sequence read before each answer, so the gateway holds nothing the log doesn't have.
"""

import asyncio
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any

import msgspec
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.gateway.views import (
    TableView,
    evolve_lamps,
    evolve_table,
    initial_lamps,
    initial_table,
    table_view,
)
from sicbo.lifecycle.state import TableStatus
from sicbo.replay.report import RoundReport, round_report
from sicbo.shell.follower import Follower, aggregate_follower
from sicbo_contracts.base import tag_of
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent, TableOpened
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    TABLE_ROUND,
    Aggregate,
    command,
    events_of_type,
    parse_event_subject,
    round_history,
    table_filter,
)

#: Round reports kept for the dispute pages (the most recently asked for).
REPORTS_KEPT = 256
#: The follower key of the floor's table list (every table's TableOpened).
_EVERY_TABLE = "*"


def _every_opening(_: str) -> str:
    return events_of_type(TableOpened, Aggregate.LIFECYCLE, round_no=TABLE_ROUND)


def _opened(known: set[str], stored: StoredEvent, _: object) -> set[str]:
    parsed = parse_event_subject(stored.subject)
    if parsed is not None:
        known.add(parsed.table)
    return known


class Unavailable(Exception):
    """No service answered (or not in time): the floor is down or starting."""


class GatewayFloor:
    """The floor as the gateway reaches it over NATS: views and reports read from the log,
    commands and queries sent to the services."""

    def __init__(self, nc: NATS, *, timeout: float = 5.0, store: EventStore | None = None) -> None:
        self.nc = nc
        self.timeout = timeout
        # The floor's log as provisioned (the gateway connects with open_floor_log).
        self.store = store if store is not None else EventStore(nc, EVENT_STREAM)
        lifecycle = LifecycleEvent | DiceEvent
        self._tables = aggregate_follower(
            self.store, Aggregate.LIFECYCLE, lifecycle, initial_table, evolve_table
        )
        self._lamps = aggregate_follower(
            self.store, Aggregate.LAMP, IlluminationEvent, initial_lamps, evolve_lamps
        )
        self._reports: OrderedDict[tuple[str, int], tuple[RoundReport, int]] = OrderedDict()
        # Tables are discovered by their TableOpened, of every table at once.
        self._tables_opened: Follower[set[str]] = Follower(
            self.store, "gateway tables", _every_opening, lambda _: set(), _opened
        )

    async def table_ids(self) -> list[str]:
        """Every table ever opened, from the log."""
        return sorted((await self._tables_opened.get(_EVERY_TABLE)).state)

    async def opened(self, table: str) -> bool:
        """Whether the table was ever opened (the log read on only for an id not known yet)."""
        known = self._tables_opened.peek(_EVERY_TABLE)
        return (known is not None and table in known.state) or table in await self.table_ids()

    async def view(self, table: str) -> TableView | None:
        """The table as its log has it now; None if it was never opened."""
        if not await self.opened(table):
            return None  # nothing cached for ids that anyone may type in a URL
        log, lamps = await asyncio.gather(self._tables.get(table), self._lamps.get(table))
        if log.state.lifecycle.status is TableStatus.NEW:
            return None
        now = datetime.now(UTC)  # what the rules allow is as of the reading
        return table_view(log.state, lamps.state, max(log.last_seq, lamps.last_seq), now)

    async def views(self) -> list[TableView]:
        found = await asyncio.gather(*(self.view(t) for t in await self.table_ids()))
        return [v for v in found if v is not None]

    async def round_report(self, table: str, round_no: int) -> RoundReport:
        """The replay report of a round (sicbo.replay.report), kept until the round's own
        history grows: a round's report is computed from the table's log up to it, and only
        the round's events (a correction, an adjustment, a cancellation) change it later."""
        key = (table, round_no)
        cached = self._reports.get(key)
        if cached is not None:
            report, read_up_to = cached
            if not await self.store.read(round_history(table, round_no), after_seq=read_up_to):
                self._reports.move_to_end(key)
                return report
        # The whole table: limits, and wagers carried in from earlier void rounds, are facts too.
        stored = await self.store.read_all(filter_subject=table_filter(table))
        report = round_report(stored, table, round_no)
        if report.status != "NOT STARTED" and stored:
            # Kept with the last sequence read (the report's own as_of is the settlement's).
            self._reports[key] = (report, stored[-1].seq)
            self._reports.move_to_end(key)
            if len(self._reports) > REPORTS_KEPT:
                self._reports.popitem(last=False)
        return report

    async def send(self, cmd: Any) -> bytes:
        """A command to the service that owns it; the service's reply, as it sent it. Sent as
        the role of its actor, whom the gateway stamped from the sign-in (the operator, or the
        player): the subject's sender is what the service holds the actor to, and the gateway's
        NATS user may send as the human roles only (DESIGN.md Roles)."""
        service = SERVICE_OF_TAG[tag_of(cmd)]
        subject = command(cmd.table, service, cmd.actor.role.value)
        return await self.request(subject, msgspec.json.encode(cmd))

    async def request(self, subject: str, payload: bytes) -> bytes:
        try:
            msg = await self.nc.request(subject, payload, timeout=self.timeout)
        except NoRespondersError:
            raise Unavailable(f"no service answers on {subject}") from None
        except NatsTimeout:
            raise Unavailable(f"no answer on {subject} within {self.timeout:g} s") from None
        return bytes(msg.data)
