"""The settlement shell: catch up on a table, compute, append once, complete the round.

Guarantees, all enforced by the server and not by this process (DESIGN.md invariants):

- a round is settled once: the whole settlement (its WagersSettled parts and RoundSettled) is
  ONE atomic batch expecting the last sequence on ``sicbo.evt.<table>.settle.<round>.>`` as
  read (0, or an entry no reader folds, which never wedges the round: issue 25) with
  ``Nats-Msg-Id: settle-<table>-<round>``. A second settler, a redelivery or a restart is
  refused (10071, or 10201 for the msg id) and reads the settlement that won;
- an adjustment for a corrected result expects the last sequence on the same filter as read,
  with ``Nats-Msg-Id: adjust-<table>-<round>-<correction seq>``: never two for one correction,
  never one computed on a stale view;
- a round settled by its result and then cancelled (004 "Ralat Pengendalian": suspended, not
  fixed in time) is voided: every wager refunded by a compensating SettlementVoided batch on the
  same filter, ``Nats-Msg-Id: void-<table>-<round>``, at most once per round.

What is due for a round (settle, void, adjust, complete) is the pure
:func:`~sicbo.settlement.decider.due`, on the state the shell's follower keeps caught up with
the table's log (at least up to the triggering event, and to what the stream leader holds:
never a lagging replica's partial view). This module only carries it out.

Only after the settlement is stored (by us or anyone) is the lifecycle asked to complete the
round (``CompleteRound``, command id ``complete-<table>-<round>``), and only after that is the
JetStream message acknowledged: a crash anywhere in between redelivers it and the job finishes.
Settlement never waits for the layout lamps or a suspension: 000 §7.6 settles by the dice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict, DuplicateBatch
from sicbo.eventstore.records import Expect, StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.settlement import compensation, engine
from sicbo.settlement.decider import (
    Complete,
    Due,
    Settle,
    SettlementState,
    Void,
    due,
    evolve,
    forget_old,
    initial_state,
    stored_on_settle,
)
from sicbo.settlement.facts import FactEvent
from sicbo.settlement.money import RoundMoney
from sicbo.settlement.reads import EarlierRounds, paid_wagers
from sicbo.shell.codec import encode
from sicbo.shell.follower import Follower
from sicbo.shell.headers import COMMAND_ID
from sicbo.shell.reacting import NotDone, ask_lifecycle
from sicbo_contracts.access import ServiceAccount
from sicbo_contracts.base import Actor, Event, Role
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    BettingClosed,
    CompleteRound,
    NoResultDeclared,
    RoundCancelled,
    RoundInvalidated,
    Uncovered,
)
from sicbo_contracts.replies import Accepted
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementVoided,
)
from sicbo_contracts.subjects import (
    Aggregate,
    EventSubject,
    parse_event_subject,
    round_filter,
    subject_of,
    table_filter,
    token,
    tokens,
)

log = logging.getLogger(__name__)

SETTLEMENT_ACTOR = Actor(id=ServiceAccount.SETTLEMENT.value, role=Role.SERVICE)
#: Steps one job takes at most (settle, void or adjust, complete; a lost race reads again).
MAX_STEPS = 6

#: Event types (subject tokens) that end a round and so call for its settlement.
SETTLE_ON = tokens(ResultConfirmed, NoResultDeclared, RoundInvalidated, RoundCancelled)
ADJUST_ON = token(ResultCorrected)
#: Once betting is closed no slip can be stored any more (the server refuses it), so the
#: round's wagers are read ahead then: at the result only the last few events are left to read.
PREFETCH_ON = tokens(BettingClosed, Uncovered)
TRIGGERS = SETTLE_ON | {ADJUST_ON} | PREFETCH_ON
_BETTING_CLOSED = token(BettingClosed)
#: The settlement events folded: the summaries, not the wager results (megabytes a round).
_SUMMARIES = tokens(RoundSettled, SettlementAdjusted, SettlementVoided)


def acts_on(subject: str) -> bool:
    """Whether :meth:`Settler.on_event` does anything for an event of this subject."""
    parsed = parse_event_subject(subject)
    return parsed is not None and parsed.token in TRIGGERS


def settle_msg_id(table: str, round_no: int) -> str:
    return f"settle-{table}-{round_no}"


def adjust_msg_id(table: str, round_no: int, correction_seq: int) -> str:
    return f"adjust-{table}-{round_no}-{correction_seq}"


def void_msg_id(table: str, round_no: int) -> str:
    return f"void-{table}-{round_no}"


def complete_command_id(table: str, round_no: int) -> str:
    return f"complete-{table}-{round_no}"


def _folded(subject: EventSubject) -> bool:
    if subject.aggregate is Aggregate.SETTLE:
        return subject.token in _SUMMARIES
    return subject.aggregate in (Aggregate.LIFECYCLE, Aggregate.BETS)


def _evolve(state: SettlementState, stored: StoredEvent, event: Any) -> SettlementState:
    return evolve(state, stored.seq, event)


def _mark(state: SettlementState, stored: StoredEvent) -> None:
    """Every entry on a round's settlement filter, folded or skipped: its batch expects it."""
    if _SETTLE_INFIX in stored.subject:
        parsed = parse_event_subject(stored.subject)
        if parsed is not None and parsed.aggregate is Aggregate.SETTLE:
            stored_on_settle(state, parsed.round, stored.seq)


_SETTLE_INFIX = f".{Aggregate.SETTLE.value}."


_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
    FactEvent | RoundSettled | SettlementAdjusted | SettlementVoided
)


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
        self._tables: Follower[SettlementState] = Follower(
            store,
            "settlement",
            table_filter,
            initial_state,
            _evolve,
            decoder=_decoder,
            wants=_folded,  # the summaries: the wager results (megabytes a round) are read past
            on_stored=_mark,
            trim=forget_old,
        )
        #: The players' accounts: debits squared at "no more bets", the round paid (issue 14).
        self._money = RoundMoney(store, nc, actor, clock)
        #: Rounds the table's state has forgotten, read again alone (GLI-19 §4.18.4).
        self._earlier = EarlierRounds(store, _evolve, _decoder, _folded)

    async def on_event(self, subject: str, seq: int | None = None) -> None:
        """React to one lifecycle event (by its subject and stream sequence). Returns when the
        job is done; raises (:class:`NotDone`, a store error) when it must be redelivered."""
        parsed = parse_event_subject(subject)
        if parsed is None or parsed.token not in TRIGGERS:
            return  # not an event settlement acts on (or not one the floor writes)
        table, round_no = parsed.table, parsed.round
        async with self._tables.lock(table):
            if parsed.token in PREFETCH_ON:
                # A read ahead up to the event (the result's read is the one that reaches what
                # the leader holds), and the round's wagers folded now, while the dice are
                # thrown: at the result only the events since are (sicbo.settlement.standing).
                state = await self._state(table, seq or 0, consistent=False)
                state.log.facts(round_no)
                if parsed.token == _BETTING_CLOSED and not state.chips_only(round_no):
                    # Before the round can settle: a debit whose slip was never stored.
                    await self._money.reconcile(table, round_no)
                return
            try:  # never on a partial read: up to the event, and to what the leader holds
                await self._steps(table, round_no, seq or 0)
            finally:
                self._earlier.forget(table, round_no)

    async def _steps(self, table: str, round_no: int, at_least: int) -> None:
        for _ in range(MAX_STEPS):
            state, alone = await self._state_of(table, round_no, at_least)
            step = due(state, round_no)
            if step is None:
                # Settled (and adjusted or voided since): paid into the accounts, once each.
                await self._pay(state, round_no)
                return
            if alone and isinstance(step, Settle):
                # A round read alone has no facts to settle from (see sicbo.settlement.reads).
                log.error("round %s of %s is long past and not settled: left", round_no, table)
                return
            at_least = await self._carry_out(state, round_no, step)
            if isinstance(step, Complete):
                return
        raise NotDone(f"round {round_no} of {table}: still due after {MAX_STEPS} steps")

    async def _state(self, table: str, at_least: int, consistent: bool = True) -> SettlementState:
        return (await self._tables.get(table, consistent=consistent, at_least=at_least)).state

    async def _state_of(
        self, table: str, round_no: int, at_least: int
    ) -> tuple[SettlementState, bool]:
        """The table's state, or (True) the round's alone when the table's has forgotten it
        (a correction of an earlier round, GLI-19 §4.18.4)."""
        state = await self._state(table, at_least)
        if round_no >= state.kept_from:
            return state, False
        return await self._earlier.get(table, round_no, at_least), True

    async def _pay(self, state: SettlementState, round_no: int) -> None:
        if not state.chips_only(round_no):  # chips at the table: paid there, no account
            await self._money.pay(state.table, round_no)

    async def _carry_out(self, state: SettlementState, round_no: int, step: Due) -> int:
        """Do one step; the stream sequence the next read must reach (0: what it finds)."""
        table = state.table
        if isinstance(step, Complete):
            # 004 "winnings will be paid to the player": before the round is completed.
            await self._pay(state, round_no)
            await self._complete(table, round_no, list(step.players))
            return 0
        if isinstance(step, Settle):
            events: Sequence[Event] = engine.settle(step.facts, actor=self._actor, at=self._clock())
            # The filter as read: empty, or holding only entries no reader folds (issue 25).
            expect = state.paid_for(round_no).last_seq
            msg_id = settle_msg_id(table, round_no)
            return await self._append(table, round_no, events, msg_id, expect)
        # A compensation (004 void, or a correction's adjustment) of what is paid now.
        current = await paid_wagers(self._store, table, round_no)
        last = current.last
        common: dict[str, Any] = {
            "table": table,
            "round_no": round_no,
            "actor": self._actor,
            "at": self._clock(),
        }
        if isinstance(step, Void):
            cancelled = step.cancellation
            events = compensation.void(
                current.wagers,
                cancel_seq=cancelled.seq,
                reason=cancelled.reason,
                forfeits=cancelled.forfeits,
                **common,
            )
            return await self._append(table, round_no, events, void_msg_id(table, round_no), last)
        summary, correction = step.summary, step.correction
        before = current.before_dice or summary.dice
        assert before is not None  # a correction is adjusted only on a round settled by dice
        events = compensation.adjust(
            current.wagers,
            paytable=summary.paytable,
            unit=summary.unit,
            before=before,
            after=correction.after,
            correction_seq=correction.seq,
            voided_players=summary.voided,
            **common,
        )
        msg_id = adjust_msg_id(table, round_no, correction.seq)
        return await self._append(table, round_no, events, msg_id, last)

    async def _append(
        self, table: str, round_no: int, events: Sequence[Event], msg_id: str, expect_last: int
    ) -> int:
        """Append a settlement batch once: expecting the round's settlement filter where it was
        read (0 for the first), with a msg id; a lost race is read again, never repeated."""
        try:
            batch = await self._store.append_batch(
                [(subject_of(e, Aggregate.SETTLE), encode(e)) for e in events],
                expect=Expect(round_filter(table, Aggregate.SETTLE, round_no), expect_last),
                msg_id=msg_id,
                headers={COMMAND_ID: msg_id},
            )
        except AppendConflict as refused:  # DuplicateBatch included: it is stored already
            kind = "duplicate" if isinstance(refused, DuplicateBatch) else "conflict"
            log.info("%s of round %s of %s: %s, read again", msg_id, round_no, table, kind)
            return 0
        delta = sum(getattr(e, "delta", 0) for e in events)
        log.info(
            "%s of %s round %s: %s events, delta %s", msg_id, table, round_no, len(batch), delta
        )
        return batch[-1].seq

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
        reply = await ask_lifecycle(
            self._nc, cmd, sender=ServiceAccount.SETTLEMENT, timeout=self._timeout
        )
        if isinstance(reply, Accepted):
            return
        if round_no in (await self._state_of(table, round_no, 0))[0].completed:
            return
        raise NotDone(f"CompleteRound {table}/{round_no} refused: {reply.code} {reply.reason}")
