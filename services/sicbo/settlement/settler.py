"""The settlement shell: catch up on a table, compute, append once, complete the round.

Guarantees, all enforced by the server and not by this process (DESIGN.md invariants):

- a round is settled once: the whole settlement (its WagersSettled parts and RoundSettled) is
  ONE atomic batch expecting last sequence 0 on ``sicbo.evt.<table>.settle.<round>.>`` with
  ``Nats-Msg-Id: settle-<table>-<round>``. A second settler, a redelivery or a restart is
  refused (10071, or 10201 for the msg id) and reads the settlement that won;
- an adjustment for a corrected result expects the last sequence on the same filter as read,
  with ``Nats-Msg-Id: adjust-<table>-<round>-<correction seq>``: never two for one correction,
  never one computed on a stale view;
- a round settled by its result and then cancelled (004 "Ralat Pengendalian": suspended, not
  fixed in time) is voided: every wager refunded by a compensating SettlementVoided batch on the
  same filter, ``Nats-Msg-Id: void-<table>-<round>``, at most once per round.

Only after the settlement is stored (by us or anyone) is the lifecycle asked to complete the
round (``CompleteRound``, command id ``complete-<table>-<round>``), and only after that is the
JetStream message acknowledged: a crash anywhere in between redelivers it and the job finishes.
Settlement never waits for the layout lamps or a suspension: 000 §7.6 settles by the dice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import msgspec
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.eventstore.errors import AppendConflict, DuplicateBatch, StoreError
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore, Expect
from sicbo.settlement import engine
from sicbo.settlement.facts import Cancellation, RoundFacts, TableLog
from sicbo.shell.codec import encode, subject_of, tag_of
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    BettingClosed,
    CompleteRound,
    NoResultDeclared,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    Uncovered,
)
from sicbo_contracts.replies import Accepted, Reply
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagersSettled,
)
from sicbo_contracts.subjects import Aggregate, command, round_filter

log = logging.getLogger(__name__)

SETTLEMENT_ACTOR = Actor(id="settlement", role=Role.SERVICE)
#: Rounds of a table kept in memory before the current one (older ones are re-read if needed).
KEEP_ROUNDS = 20


def _token(event_type: type) -> str:
    return tag_of(event_type).replace(".", "-")


#: Event types (subject tokens) that end a round and so call for its settlement.
SETTLE_ON = frozenset(
    _token(t) for t in (ResultConfirmed, NoResultDeclared, RoundInvalidated, RoundCancelled)
)
ADJUST_ON = _token(ResultCorrected)
#: Once betting is closed no slip can be stored any more (the server refuses it), so the
#: round's wagers are read ahead then: at the result only the last few events are left to read.
PREFETCH_ON = frozenset(_token(t) for t in (BettingClosed, Uncovered))
TRIGGERS = SETTLE_ON | {ADJUST_ON} | PREFETCH_ON
_ROUND_SETTLED = _token(RoundSettled)
_ADJUSTED = _token(SettlementAdjusted)
_VOIDED = _token(SettlementVoided)
_WAGERS_SETTLED = _token(WagersSettled)
_COMPLETED = _token(RoundCompleted)


def settle_msg_id(table: str, round_no: int) -> str:
    return f"settle-{table}-{round_no}"


def adjust_msg_id(table: str, round_no: int, correction_seq: int) -> str:
    return f"adjust-{table}-{round_no}-{correction_seq}"


def void_msg_id(table: str, round_no: int) -> str:
    return f"void-{table}-{round_no}"


def complete_command_id(table: str, round_no: int) -> str:
    return f"complete-{table}-{round_no}"


class NotDone(Exception):
    """The job is not finished (e.g. the lifecycle is unavailable): redeliver it later."""


class _Head(msgspec.Struct):
    """The part of a SettlementAdjusted the cache needs."""

    correction_seq: int


@dataclass
class TableCache:
    table: str
    log: TableLog
    settled: dict[int, RoundSettled] = field(default_factory=dict)
    adjusted_to: dict[int, int] = field(default_factory=dict)  # round -> last correction_seq
    completed: set[int] = field(default_factory=set)
    voided: set[int] = field(default_factory=set)  # rounds refunded after a cancellation (004)
    kept_from: int = 0  # rounds before this one were forgotten
    read_to: int = 0  # the log is read up to this stream sequence
    #: (aggregate, round) -> the last stream sequence read there: to check a read is complete.
    seen: dict[tuple[str, int], int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def covered(self, round_no: int) -> int:
        """The last sequence of corrections already reflected in what was paid."""
        settled = self.settled.get(round_no)
        return max(settled.as_of if settled else 0, self.adjusted_to.get(round_no, 0))


_round_settled = msgspec.json.Decoder(RoundSettled)
_head = msgspec.json.Decoder(_Head)
_wagers_settled = msgspec.json.Decoder(WagersSettled)
_adjusted = msgspec.json.Decoder(SettlementAdjusted)
_voided = msgspec.json.Decoder(SettlementVoided)
_reply = msgspec.json.Decoder(Reply)


class Settler:
    def __init__(
        self,
        store: EventStore,
        nc: NATS,
        clock: Callable[[], datetime],
        *,
        actor: Actor = SETTLEMENT_ACTOR,
        request_timeout: float = 5.0,
    ) -> None:
        self._store = store
        self._nc = nc
        self._clock = clock
        self._actor = actor
        self._timeout = request_timeout
        self._tables: dict[str, TableCache] = {}

    # -- entry point ------------------------------------------------------------------------

    async def on_event(self, subject: str, seq: int | None = None) -> None:
        """React to one lifecycle event (by its subject and stream sequence). Returns when the
        job is done; raises (:class:`NotDone`, a store error) when it must be redelivered."""
        tokens = subject.split(".")
        if len(tokens) != 6 or tokens[5] not in TRIGGERS or not tokens[4].isdigit():
            return  # not an event settlement acts on (or not one the floor writes)
        table, round_no, event_type = tokens[2], int(tokens[4]), tokens[5]
        cache = self._tables.get(table)
        if cache is None:
            cache = self._tables[table] = TableCache(table, TableLog(table))
        async with cache.lock:
            if round_no < cache.kept_from:  # an old redelivery: read the table afresh
                cache = TableCache(table, TableLog(table))
            await self._catch_up(cache)
            if event_type in PREFETCH_ON:
                return
            await self._require_complete(cache, round_no, seq)
            facts = cache.log.facts(round_no)
            if facts is None or not facts.ended:
                log.warning("%s on %s: round %s has no outcome", event_type, table, round_no)
                return
            settled = await self._ensure_settled(cache, facts)
            cancelled = cache.log.cancellation(round_no)
            if (  # 004: cancelled after it was settled by its result: refund every wager
                cancelled is not None
                and cancelled.seq > settled.as_of
                and settled.basis is SettlementBasis.RESULT
            ):
                if round_no not in cache.voided:
                    await retry_on_conflict(
                        lambda: self._void(cache, settled, cancelled), attempts=8
                    )
            elif facts.corrections and facts.corrections[-1].seq > cache.covered(round_no):
                await retry_on_conflict(lambda: self._adjust(cache, settled), attempts=8)
            if round_no not in cache.completed:
                await self._complete(table, round_no, settled.players)
                cache.completed.add(round_no)
            self._forget_old(cache, round_no)

    # -- reading ----------------------------------------------------------------------------

    async def _catch_up(self, cache: TableCache) -> None:
        """Read what the table's log gained since the last catch-up: its lifecycle and bets
        events, and its settlement summaries and adjustments (not the wager results: a big
        round's are megabytes). The reads are cut at one sequence read first, so together
        they are one consistent prefix of the log."""
        table = cache.table
        upto = await self._store.last_sequence(f"sicbo.evt.{table}.>")
        if upto <= cache.read_to:
            return
        reads = await asyncio.gather(
            *(
                self._store.read(subject_filter, after_seq=cache.read_to)
                for subject_filter in (
                    f"sicbo.evt.{table}.lc.>",
                    f"sicbo.evt.{table}.bets.>",
                    f"sicbo.evt.{table}.settle.*.{_ROUND_SETTLED}",
                    f"sicbo.evt.{table}.settle.*.{_ADJUSTED}",
                    f"sicbo.evt.{table}.settle.*.{_VOIDED}",
                )
            )
        )
        stored = sorted((e for read in reads for e in read if e.seq <= upto), key=lambda e: e.seq)
        for e in stored:
            _, _, _, aggregate, round_token, _ = e.subject.split(".", 5)
            if round_token.isdigit():
                cache.seen[(aggregate, int(round_token))] = e.seq
            if cache.log.add_stored(e.seq, e.subject, e.data):
                if e.subject.endswith(_COMPLETED):
                    cache.completed.add(int(e.subject.split(".")[4]))
                continue
            _, _, _, aggregate, round_token, event_type = e.subject.split(".", 5)
            if aggregate != Aggregate.SETTLE.value or not round_token.isdigit():
                continue
            round_no = int(round_token)
            if event_type == _ROUND_SETTLED:
                cache.settled[round_no] = _round_settled.decode(e.data)
            elif event_type == _ADJUSTED:
                seq = _head.decode(e.data).correction_seq
                cache.adjusted_to[round_no] = max(cache.adjusted_to.get(round_no, 0), seq)
            elif event_type == _VOIDED:
                cache.voided.add(round_no)
        cache.read_to = upto

    async def _require_complete(self, cache: TableCache, round_no: int, seq: int | None) -> None:
        """Never settle on a partial read. In a cluster any replica may answer a history read
        and a lagging one answers with an older prefix of the log; the stream leader's last
        sequence on the round's bets (and the previous round's, for carried slips) and the
        triggering event itself must be in what was read, or the job is redelivered later."""
        table = cache.table
        lc_seen = max((v for (agg, _), v in cache.seen.items() if agg == "lc"), default=0)
        missing = seq is not None and lc_seen < seq
        for r in (round_no - 1, round_no):
            if r < 1 or missing:
                continue
            leader = await self._store.last_sequence(round_filter(table, Aggregate.BETS, r))
            missing = leader > cache.seen.get((Aggregate.BETS.value, r), 0)
        if missing:
            self._tables.pop(table, None)  # read the table afresh on the redelivery
            raise NotDone(f"round {round_no} of {table}: the history read was not complete")

    def _forget_old(self, cache: TableCache, round_no: int) -> None:
        keep_from = round_no - KEEP_ROUNDS
        if keep_from > cache.kept_from:
            cache.log.forget_before(keep_from)
            for mapping in (cache.settled, cache.adjusted_to):
                for r in [r for r in mapping if r < keep_from]:
                    del mapping[r]
            cache.completed = {r for r in cache.completed if r >= keep_from}
            cache.seen = {k: v for k, v in cache.seen.items() if k[1] >= keep_from}
            cache.voided = {r for r in cache.voided if r >= keep_from}
            cache.kept_from = keep_from

    async def _stored_settlement(
        self, table: str, round_no: int
    ) -> tuple[
        list[WagersSettled],
        RoundSettled | None,
        list[SettlementAdjusted],
        list[SettlementVoided],
        int,
    ]:
        """The round's settlement as stored: parts, summary, adjustments, voids, last seq."""
        parts: list[WagersSettled] = []
        summary: RoundSettled | None = None
        adjustments: list[SettlementAdjusted] = []
        voids: list[SettlementVoided] = []
        last = 0
        for e in await self._store.read(round_filter(table, Aggregate.SETTLE, round_no)):
            last = e.seq
            event_type = e.subject.rsplit(".", 1)[1]
            if event_type == _WAGERS_SETTLED:
                parts.append(_wagers_settled.decode(e.data))
            elif event_type == _ROUND_SETTLED:
                summary = _round_settled.decode(e.data)
            elif event_type == _ADJUSTED:
                adjustments.append(_adjusted.decode(e.data))
            elif event_type == _VOIDED:
                voids.append(_voided.decode(e.data))
        return parts, summary, adjustments, voids, last

    # -- settling ---------------------------------------------------------------------------

    async def _ensure_settled(self, cache: TableCache, facts: RoundFacts) -> RoundSettled:
        """The round's settlement: the one in the log, or the one we append now."""
        table, round_no = cache.table, facts.round
        known = cache.settled.get(round_no)
        if known is not None:
            return known
        events = engine.settle(facts, actor=self._actor, at=self._clock())
        items = [(subject_of(e, Aggregate.SETTLE), encode(e)) for e in events]
        try:
            await self._store.append_batch(
                items,
                expect=Expect(round_filter(table, Aggregate.SETTLE, round_no), 0),
                msg_id=settle_msg_id(table, round_no),
                headers={COMMAND_ID: settle_msg_id(table, round_no)},
            )
        except AppendConflict as refused:  # DuplicateBatch included: it is settled already
            kind = "duplicate" if isinstance(refused, DuplicateBatch) else "conflict"
            _, summary, _, _, _ = await self._stored_settlement(table, round_no)
            if summary is None:
                raise NotDone(f"round {round_no} of {table}: {kind} but no settlement") from None
            log.info("round %s of %s was already settled (%s)", round_no, table, kind)
            cache.settled[round_no] = summary
            return summary
        last = events[-1]
        assert isinstance(last, RoundSettled)
        summary = last
        log.info(
            "settled round %s of %s: %s wagers, staked %s, returned %s",
            round_no,
            table,
            summary.wagers,
            summary.staked,
            summary.returned,
        )
        cache.settled[round_no] = summary
        return summary

    async def _adjust(self, cache: TableCache, settled: RoundSettled) -> None:
        """Bring what was paid up to the latest correction of the round (one read-decide-append
        cycle; an AppendConflict makes the caller run it again on a fresh read)."""
        table, round_no = cache.table, settled.round
        await self._catch_up(cache)
        facts = cache.log.facts(round_no)
        if facts is None or not facts.corrections:
            return
        latest = facts.corrections[-1]
        if settled.basis is not SettlementBasis.RESULT or settled.dice is None:
            log.warning("correction of round %s of %s, settled %s", round_no, table, settled.basis)
            cache.adjusted_to[round_no] = latest.seq
            return
        parts, _, adjustments, _, last = await self._stored_settlement(table, round_no)
        covered = max([settled.as_of, *(a.correction_seq for a in adjustments)])
        if latest.seq <= covered:
            cache.adjusted_to[round_no] = covered
            return
        current = engine.apply_adjustments([w for p in parts for w in p.wagers], adjustments)
        before = adjustments[-1].after if adjustments else settled.dice
        events = engine.adjust(
            current,
            table=table,
            round_no=round_no,
            paytable=settled.paytable,
            unit=settled.unit,
            before=before,
            after=latest.after,
            correction_seq=latest.seq,
            actor=self._actor,
            at=self._clock(),
        )
        msg_id = adjust_msg_id(table, round_no, latest.seq)
        try:
            await self._store.append_batch(
                [(subject_of(e, Aggregate.SETTLE), encode(e)) for e in events],
                expect=Expect(round_filter(table, Aggregate.SETTLE, round_no), last),
                msg_id=msg_id,
                headers={COMMAND_ID: msg_id},
            )
        except DuplicateBatch:
            log.info("adjustment %s was already stored", msg_id)
        else:
            delta = sum(e.delta for e in events)
            log.info(
                "adjusted round %s of %s to %s: delta %s", round_no, table, latest.after, delta
            )
        cache.adjusted_to[round_no] = latest.seq

    async def _void(
        self, cache: TableCache, settled: RoundSettled, cancelled: Cancellation
    ) -> None:
        """Refund every wager of a round settled by its result and then cancelled (004), once
        (one read-decide-append cycle; an AppendConflict makes the caller run it again)."""
        table, round_no = cache.table, settled.round
        parts, _, adjustments, voids, last = await self._stored_settlement(table, round_no)
        if voids:
            cache.voided.add(round_no)
            return
        current = engine.apply_adjustments([w for p in parts for w in p.wagers], adjustments)
        events = engine.void(
            current,
            table=table,
            round_no=round_no,
            cancel_seq=cancelled.seq,
            reason=cancelled.reason,
            actor=self._actor,
            at=self._clock(),
        )
        msg_id = void_msg_id(table, round_no)
        try:
            await self._store.append_batch(
                [(subject_of(e, Aggregate.SETTLE), encode(e)) for e in events],
                expect=Expect(round_filter(table, Aggregate.SETTLE, round_no), last),
                msg_id=msg_id,
                headers={COMMAND_ID: msg_id},
            )
        except DuplicateBatch:
            log.info("void %s was already stored", msg_id)
        else:
            delta = sum(e.delta for e in events)
            log.info("voided round %s of %s (cancelled): refunds delta %s", round_no, table, delta)
        cache.voided.add(round_no)

    # -- completing -------------------------------------------------------------------------

    async def _complete(self, table: str, round_no: int, players: list[str]) -> None:
        """Ask the lifecycle to complete the round; done when accepted, a duplicate, or the
        round is completed in the log (e.g. refused "already completed")."""
        cmd = CompleteRound(
            command_id=complete_command_id(table, round_no),
            table=table,
            actor=self._actor,
            round=round_no,
            players=players,
        )
        try:
            msg = await self._nc.request(
                command(table, "lifecycle"), encode(cmd), timeout=self._timeout
            )
        except (NoRespondersError, NatsTimeoutError) as exc:
            raise NotDone(f"lifecycle did not answer CompleteRound for {table}/{round_no}") from exc
        reply = _reply.decode(msg.data)
        if isinstance(reply, Accepted):
            return
        if await self._completed_in_log(table, round_no):
            return
        raise NotDone(f"CompleteRound {table}/{round_no} refused: {reply.code} {reply.reason}")

    async def _completed_in_log(self, table: str, round_no: int) -> bool:
        try:
            stored = await self._store.read(round_filter(table, Aggregate.LIFECYCLE, round_no))
        except StoreError:
            return False
        return any(e.subject.endswith(_COMPLETED) for e in stored)
