"""The illumination shell: light the layout after each result, record the verdict once, and
report a fault to the lifecycle.

For each ResultConfirmed and ResultCorrected (by its stream sequence, the "source"):

1. a table whose configuration has no layout controller (``TableConfig.layout_controller``)
   is skipped: there are no lamps to check;
2. if the round's lamp filter already holds the verdict on this source (its msg id
   ``lamp-<table>-<round>-<source seq>``), nothing is asked or appended again; a result whose
   round is over (the next round started: the service caught up after an outage) is not lit;
3. the table's controller is asked to light the winning spots of the result under the round's
   paytable, with a deadline; no report in time is a fault (``timed_out``);
4. the verdict (LayoutIlluminated or IlluminationFault) is appended expecting the round's lamp
   filter to end where it was read, with that msg id: one verdict per (round, result), whatever
   the replicas, redeliveries and restarts;
5. a fault is reported to the lifecycle (ReportMalfunction, command id = the verdict's msg id,
   so a redelivery is answered "duplicate"); the lifecycle suspends the table (000 §7.7) or
   the round (004).

Settlement never waits for any of this (000 §7.6: the wagers settle by the dice).
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import msgspec
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.eventstore.records import Expect, StoredEvent
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import MSG_ID, EventStore
from sicbo.illumination.lamps import (
    ILLUMINATION_ACTOR,
    malfunction,
    msg_id,
    verdict,
    winning_spots,
)
from sicbo.shell.codec import encode
from sicbo.shell.follower import Follower
from sicbo.shell.headers import COMMAND_ID
from sicbo.shell.quarantine import admit, admitted
from sicbo.shell.reacting import NotDone, ask_lifecycle
from sicbo_contracts.access import ServiceAccount
from sicbo_contracts.base import DECODE_ERRORS, Actor, Dice
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.illumination import (
    IlluminationEvent,
    IlluminationFault,
    LayoutReport,
    LightLayout,
)
from sicbo_contracts.lifecycle import (
    NoResultDeclared,
    RoundCancelled,
    RoundInvalidated,
    RoundStarted,
    TableOpened,
)
from sicbo_contracts.replies import Accepted
from sicbo_contracts.subjects import (
    TABLE_ROUND,
    Aggregate,
    events_of_type,
    layout_light,
    parse_event_subject,
    round_filter,
    subject_of,
    token,
    tokens,
)

log = logging.getLogger(__name__)
#: The name its skipped entries are named by (sicbo.shell.quarantine).
_LAMPS = "illumination"

#: Seconds the layout controller has to report what it lit.
DEFAULT_DEADLINE = 2.0


_CONFIRMED = token(ResultConfirmed)
_CORRECTED = token(ResultCorrected)
TRIGGERS = frozenset({_CONFIRMED, _CORRECTED})
_STARTED = token(RoundStarted)
_VOIDS = tokens(NoResultDeclared, RoundInvalidated, RoundCancelled)

_confirmed = msgspec.json.Decoder(ResultConfirmed)
_corrected = msgspec.json.Decoder(ResultCorrected)
_started = msgspec.json.Decoder(RoundStarted)
_opened = msgspec.json.Decoder(TableOpened)
_verdict: msgspec.json.Decoder[IlluminationEvent] = msgspec.json.Decoder(IlluminationEvent)
_report = msgspec.json.Decoder(LayoutReport)


@dataclass
class Openings:
    """How a table was opened, as far as read: whether it has a layout controller."""

    #: (seq, layout_controller) of each TableOpened read so far, in log order.
    openings: list[tuple[int, bool]] = field(default_factory=list)

    def has_controller(self, at_seq: int) -> bool:
        """Whether the table was opened with a layout controller as of ``at_seq``."""
        at = bisect.bisect_right(self.openings, (at_seq, True))
        return at > 0 and self.openings[at - 1][1]


def acts_on(subject: str) -> bool:
    """Whether :meth:`Illuminator.on_event` does anything for an event of this subject."""
    parsed = parse_event_subject(subject)
    return parsed is not None and parsed.token in TRIGGERS


class Illuminator:
    def __init__(
        self,
        store: EventStore,
        nc: NATS,
        clock: Callable[[], datetime],
        *,
        deadline: float = DEFAULT_DEADLINE,
        actor: Actor = ILLUMINATION_ACTOR,
        request_timeout: float = 5.0,
    ) -> None:
        self._store = store
        self._nc = nc
        self._clock = clock
        self._deadline = deadline
        self._actor = actor
        self._timeout = request_timeout
        self._openings: Follower[Openings] = Follower(
            store,
            "illumination",
            lambda table: events_of_type(
                TableOpened, Aggregate.LIFECYCLE, table=table, round_no=TABLE_ROUND
            ),
            lambda _: Openings(),
            _opening,
            decoder=_opened,
        )

    async def on_event(self, subject: str, seq: int, data: bytes) -> IlluminationEvent | None:
        """React to one lifecycle event (its subject, stream sequence and body). Returns the
        verdict stored for a result (None for anything else); raises to be redelivered."""
        parsed = parse_event_subject(subject)
        if parsed is None or parsed.token not in TRIGGERS:
            return None
        table, round_no = parsed.table, parsed.round
        dice: Dice | None = None
        if parsed.token == _CONFIRMED:
            if confirmed := admit(_LAMPS, subject, seq, data, _confirmed):
                dice = confirmed.dice
        elif corrected := admit(_LAMPS, subject, seq, data, _corrected):
            dice = corrected.after
        if dice is None:
            return None  # not the result its subject says (skipped, named once): nothing lit
        async with self._openings.lock(table):
            # The leader's view: a lagging replica must not hide how the table was opened.
            openings = (await self._openings.get(table, consistent=True)).state
            if not openings.has_controller(seq):
                return None
            stored = await retry_on_conflict(
                lambda: self._light(table, round_no, dice, seq), attempts=5
            )
            if isinstance(stored, IlluminationFault):
                await self._report_fault(stored)
            return stored

    # -- steps ------------------------------------------------------------------------------

    async def _light(
        self, table: str, round_no: int, dice: Dice, source_seq: int
    ) -> IlluminationEvent | None:
        """One read-ask-append cycle; an AppendConflict makes the caller run it again."""
        lamps = round_filter(table, Aggregate.LAMP, round_no)
        mid = msg_id(table, round_no, source_seq)
        stored = await self._store.read(lamps)
        for e in stored:
            if e.headers.get(MSG_ID) == mid and (done := admitted(_LAMPS, e, _verdict)):
                return done  # already decided (a redelivery, a replica)
        last = stored[-1].seq if stored else 0
        if await self._store.last_sequence(round_filter(table, Aggregate.LIFECYCLE, round_no + 1)):
            # Caught up late (the service was down): the layout shows a later round now, so
            # lighting this old result would mislead the table. Nothing is lit or recorded.
            log.warning("round %s of %s is over: its result %s is not lit", round_no, table, dice)
            return None
        paytable = await self._paytable(table, round_no, source_seq)
        if paytable is None:
            return None
        expected = winning_spots(paytable, dice)
        lit, why = await self._ask(table, round_no, expected, mid)
        event = verdict(
            table=table,
            round_no=round_no,
            dice=dice,
            source_seq=source_seq,
            expected=expected,
            lit=lit,
            at=self._clock(),
            actor=self._actor,
            why_no_report=why,
        )
        appended = await self._store.append(
            subject_of(event, Aggregate.LAMP),
            encode(event),
            expect=Expect(lamps, last),
            msg_id=mid,
            headers={COMMAND_ID: mid},
        )
        if appended.duplicate:
            again = await self._store.get(appended.seq, table=table)
            return _verdict.decode(again.data) if again is not None else event
        kind = "lit" if not isinstance(event, IlluminationFault) else f"FAULT ({event.detail})"
        log.info("round %s of %s, result %s: layout %s", round_no, table, dice, kind)
        return event

    async def _paytable(self, table: str, round_no: int, source_seq: int) -> str | None:
        """The paytable the round was played under; None when the round was void before the
        result (a late confirmation only records the dice: nothing to light)."""
        paytable = None
        for e in await self._store.read(round_filter(table, Aggregate.LIFECYCLE, round_no)):
            parsed = parse_event_subject(e.subject)
            event_type = parsed.token if parsed is not None else ""
            if event_type == _STARTED and (started := admitted(_LAMPS, e, _started)):
                paytable = started.paytable
            elif event_type in _VOIDS and e.seq < source_seq:
                log.info("round %s of %s was void before its result: not lit", round_no, table)
                return None
        if paytable is None:
            log.warning("round %s of %s has no RoundStarted: not lit", round_no, table)
        return paytable

    async def _ask(
        self, table: str, round_no: int, spots: list[str], request_id: str
    ) -> tuple[list[str] | None, str]:
        """What the controller lit, or None and why there is no report."""
        request = LightLayout(request_id=request_id, table=table, round=round_no, spots=spots)
        subject = layout_light(table)
        try:
            msg = await self._nc.request(subject, encode(request), timeout=self._deadline)
        except NoRespondersError:
            return None, f"no layout controller answers on {subject}"
        except NatsTimeoutError:
            return None, f"no report from the layout controller within {self._deadline:g} s"
        try:
            report = _report.decode(msg.data)
        except DECODE_ERRORS as err:
            return None, f"unreadable report from the layout controller: {err}"
        if report.request_id != request_id:
            return None, f"the layout controller answered request {report.request_id!r}"
        return report.lit, ""

    async def _report_fault(self, fault: IlluminationFault) -> None:
        """Tell the lifecycle (000 §7.7: the inspector is notified, play stops)."""
        cmd = malfunction(fault, actor=self._actor)
        reply = await ask_lifecycle(
            self._nc, cmd, sender=ServiceAccount.ILLUMINATION, timeout=self._timeout
        )
        if isinstance(reply, Accepted):
            log.info("malfunction %s reported (duplicate: %s)", cmd.command_id, reply.duplicate)
            return
        if reply.code in ("conflict", "unavailable"):
            raise NotDone(f"ReportMalfunction {cmd.command_id}: {reply.code} {reply.reason}")
        # Refused by the rules (e.g. the table was closed meanwhile): nothing left to do here.
        log.warning("malfunction %s refused: %s", cmd.command_id, reply.reason)


def _opening(openings: Openings, stored: StoredEvent, opened: TableOpened) -> Openings:
    openings.openings.append((stored.seq, opened.config.layout_controller))
    return openings
