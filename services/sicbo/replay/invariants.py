"""The log's own invariants, checked over each table's stored events in log order (pure).

The settlement audit (:mod:`.audit`) re-computes what was paid from the facts in the log; it
cannot tell facts that no service would have stored. These checks can (DESIGN.md "Replay and
money": replay proves the log, not only the payouts). Each reads only the stored events, never
the NATS accounts or the server's guards, so a forged event is caught wherever it came from:

1. ``betting`` (000 §3.9, §5.1; 004): a slip is placed, changed or withdrawn, or a carried
   slip's choice made (002/2004 art. 3(4)), only where wager intake takes it: the table open
   and not suspended, the event's round the current one, betting opened and not closed, before
   an online countdown's ``closes_at``, and no stake put at play by a player excluded from the
   game (000 §8.3.2) or whose wagers in the round were declared void (000 §8.3.1). Asked of
   wager intake's own guards (:func:`sicbo.wagers.guards.betting_round`,
   :func:`sicbo.wagers.conduct.require_may_wager`) on its state of the lifecycle as of that
   event;
2. ``subject``, ``contract``: an event of a known type, on its owner's aggregate
   (:data:`.owners.OWNER`), its subject naming the event's own table, round (0 for a table-level
   event) and type token;
3. ``role``: its actor's role one that writes it (:data:`sicbo_contracts.writers.WRITTEN_BY`);
4. ``round-order`` (002 art. 4): a round starts only when the lifecycle would start it, asked of
   its own :func:`sicbo.lifecycle.rounds.start_round` on its state as of that event (the
   previous round completed, the next number, the table open, not suspended, the tumbler
   activated as the profile says), and a round is completed only after it is settled;
5. ``settlement``: settled only after an outcome, by one RoundSettled, each wager in one part
   (whether the parts pay every standing wager, and pay it right, is the audit's);
6. ``chain``: a correction starts from the result in effect (GLI-19 §4.18.4), inside a
   recorded manual mode (GLI-19 §C.6.8(o)), on a dual-control table approving another
   supervisor's proposal, as an invalidation (000 §8.4) and a player's own sign (000 §4.4)
   do there (:mod:`.approvals`); an adjustment names a stored correction of its round, a void a
   stored cancellation of its round (004), an illumination a stored result of its round with
   its dice (000 §2.3);
7. ``token`` (000 §1.1): a promotional token is staked only as intake takes it: issued at the
   table to the slip's player, at its face amount, once, not used (:mod:`.tokens`).

Checks 5 and 6, and the completion's half of 4, are :class:`~.ledger.Ledger`'s.

A round with an outcome and no settlement yet is not a finding: the service may be behind
(verify lists it as not settled yet).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sicbo.decider import Refused
from sicbo.game.errors import GameError
from sicbo.lifecycle.evolve import evolve as lifecycle_evolve
from sicbo.lifecycle.rounds import start_round
from sicbo.lifecycle.state import LifecycleState
from sicbo.lifecycle.state import initial_state as lifecycle_initial
from sicbo.replay.approvals import APPROVED, unapproved
from sicbo.replay.findings import (
    BETTING,
    CHAIN,
    CONTRACT,
    ROLE,
    ROUND_ORDER,
    SUBJECT,
    TOKEN,
    Finding,
)
from sicbo.replay.history import Stored
from sicbo.replay.ledger import Ledger
from sicbo.replay.owners import OWNER, TAG_OF, read_event
from sicbo.replay.tokens import Purses
from sicbo.wagers.conduct import require_may_wager
from sicbo.wagers.guards import betting_round
from sicbo.wagers.state import WagerState
from sicbo_contracts.lifecycle import RoundStarted, StartRound
from sicbo_contracts.owners import misfiled
from sicbo_contracts.subjects import (
    TABLE_ROUND,
    Aggregate,
    EventSubject,
    parse_event_subject,
    table_of,
)
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
)
from sicbo_contracts.writers import WRITTEN_BY

__all__ = ["TableChecks", "check_log", "check_tables"]


def check_log(stored: Iterable[Stored], table: str | None = None) -> dict[str, list[Finding]]:
    """The findings of every table of ``stored`` (only ``table``, if given), in log order."""
    return {name: checks.findings for name, checks in check_tables(stored, table).items()}


def check_tables(
    stored: Iterable[Stored],
    table: str | None = None,
    keep: Mapping[str, Iterable[int]] | None = None,
    decoded: Sequence[tuple[Any | None, str]] | None = None,
) -> dict[str, TableChecks]:
    """Every table's checks once done; ``keep``: per table, the stream sequences as of which
    to keep intake's state (:attr:`TableChecks.kept`, replay's re-settlement reuses them);
    ``decoded``: each message's :func:`~.owners.read_event`, by position, if already read."""
    tables: dict[str, TableChecks] = {}
    for i, e in enumerate(stored):
        parsed = parse_event_subject(e.subject)
        name = parsed.table if parsed is not None else table_of(e.subject) or ""
        if table is not None and name != table:
            continue
        checks = tables.get(name)
        if checks is None:
            checks = tables[name] = TableChecks(name)
            checks.wanted = sorted(set((keep or {}).get(name, ())), reverse=True)
        checks.see(e, parsed, decoded[i] if decoded is not None else None)
    for checks in tables.values():
        checks.keep_up_to(None)
    return tables


_SLIPS = (SlipPlaced, SlipChanged, SlipWithdrawn, CarriedSlipChosen)


def _slip_event(event: SlipPlaced | SlipChanged | SlipWithdrawn | CarriedSlipChosen) -> str:
    slip = f"slip {event.slip_id} of {event.player}"
    if isinstance(event, CarriedSlipChosen):
        return f"the choice to {event.choice.value} carried {slip}, stored in round {event.round}"
    done = {SlipPlaced: "placed", SlipChanged: "changed", SlipWithdrawn: "withdrawn"}
    return f"{slip} {done[type(event)]} in round {event.round}"


def _wagers(event: SlipPlaced | SlipChanged | SlipWithdrawn | CarriedSlipChosen) -> bool:
    """The event puts a stake at play (a withdrawal or a cancel takes one back)."""
    if isinstance(event, CarriedSlipChosen):
        return event.choice is not CarriedChoice.CANCEL
    return not isinstance(event, SlipWithdrawn)


def _a(role: str) -> str:
    return f"{'an' if role[0] in 'aeiou' else 'a'} {role}"


@dataclass
class _Here:
    """The event being checked: where a finding points."""

    seq: int = 0
    time: datetime = datetime.min
    round: int = 0
    event: str = ""


@dataclass
class TableChecks:
    """The checks of one table, folded event by event (:meth:`see`) in log order."""

    table: str
    findings: list[Finding] = field(default_factory=list)
    #: The lifecycle decider's state (002 art. 4) and wager intake's (000 §3.9, §1.1), each
    #: folded with its own ``evolve``.
    lifecycle: LifecycleState = field(init=False)
    purses: Purses = field(init=False)
    ledger: Ledger = field(init=False)  # checks 5 and 6
    _here: _Here = field(default_factory=_Here)
    #: Stream sequences (latest first) as of which intake's state is kept, and those kept.
    wanted: list[int] = field(default_factory=list)
    kept: dict[int, WagerState] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.lifecycle = lifecycle_initial(self.table)
        self.purses = Purses(self.table)
        self.ledger = Ledger(self.find)

    def find(self, check: str, message: str) -> None:
        h = self._here
        self.findings.append(
            Finding(
                seq=h.seq,
                table=self.table,
                round=h.round,
                check=check,
                event=h.event,
                message=message,
                time=h.time,
            )
        )

    @property
    def filed_as_owned(self) -> bool:
        """Every event on its owner's subject, of a known type: then the events intake's state
        folds are the lifecycle and bets events settlement's facts fold, in the same order."""
        return not any(f.check in (SUBJECT, CONTRACT) for f in self.findings)

    def keep_up_to(self, seq: int | None) -> None:
        """Keep intake's state as of each wanted sequence before ``seq`` (None: all left)."""
        while self.wanted and (seq is None or self.wanted[-1] < seq):
            self.kept[self.wanted.pop()] = self.purses.state

    def see(
        self,
        stored: Stored,
        parsed: EventSubject | None,
        read: tuple[Any | None, str] | None = None,
    ) -> None:
        """Check one stored message (``read``: its :func:`~.owners.read_event`, if already
        read), then fold it."""
        self.keep_up_to(stored.seq)
        event, why = read if read is not None else read_event(stored.data)
        tag = TAG_OF[type(event)] if event is not None else ""
        in_round = getattr(event, "round", None) or TABLE_ROUND
        self._here = _Here(
            seq=stored.seq,
            time=stored.time,
            round=parsed.round if parsed is not None else in_round,
            event=tag or (parsed.token if parsed else "?"),
        )
        if parsed is None:
            self.find(
                SUBJECT,
                f"stored on {stored.subject}, which is not an event subject of the floor"
                " (sicbo.evt.<table>.<aggregate>.<round>.<event-type>)",
            )
        if event is None:
            self.find(CONTRACT, f"the stored message cannot be read as an event: {why}")
            return
        if parsed is not None and self._subject(parsed, event, tag):
            return  # left out of the fold, as every service's reader leaves it out
        roles = WRITTEN_BY.get(tag, frozenset())
        if event.actor.role not in roles:
            names = " or ".join(_a(r.value) for r in sorted(roles)) or "no one"
            self.find(
                ROLE,
                f"{tag} records {event.actor.id!r} acting as {_a(event.actor.role.value)}:"
                f" only {names} writes it (the deciders' role checks, DESIGN.md Roles)",
            )
        self._fold(stored.seq, event, tag, stored.data)

    def _subject(self, parsed: EventSubject, event: Any, tag: str) -> bool:
        """Name what misfiles the event (what every service's reader skips it by,
        sicbo.shell.quarantine); True when something does."""
        found = misfiled(parsed, event, tag)
        for why in found:
            self.find(SUBJECT, why)
        return bool(found)

    def _fold(self, seq: int, event: Any, tag: str, data: bytes) -> None:
        if isinstance(event, _SLIPS):
            self._betting(event)
            if (problem := self.purses.problem(event)) is not None:
                self.find(TOKEN, f"{_slip_event(event)}, which wager intake refuses: {problem}")
        elif isinstance(event, RoundStarted):
            self._start(event)
        elif isinstance(event, APPROVED) and (why := unapproved(self.lifecycle, event)):
            self.find(CHAIN, why)  # TableConfig.dual_control (000 §8.4, §4.4)
        self.ledger.see(seq, event)
        owner = OWNER[tag]
        if owner is Aggregate.LIFECYCLE:
            self.lifecycle = lifecycle_evolve(self.lifecycle, event)
        self.purses.fold(owner, event, data)

    # -- 1. no wager outside betting (000 §3.9) ---------------------------------------------

    def _betting(self, event: SlipPlaced | SlipChanged | SlipWithdrawn | CarriedSlipChosen) -> None:
        try:
            # The guards read no slip: the state as of now but for the slips waiting to be put in.
            state = self.purses.lifecycle_view
            betting_round(state, event.round, event.at)
            if _wagers(event):  # 000 §8.3: not by an excluded or a voided player
                require_may_wager(state, event.player, event.round, "wager")
        except Refused as refused:
            self.find(
                BETTING,
                f"{_slip_event(event)}, which wager intake refuses:"
                f" {refused.reason.removeprefix('round: ')}",
            )

    # -- 4. no round before the last was settled and completed (002 art. 4) -------------------

    def _start(self, event: RoundStarted) -> None:
        start = StartRound(
            command_id="replay",
            table=self.table,
            actor=event.actor,
            round=event.round,
            tumbles=event.tumbles,
            activation=event.activation,
        )
        try:
            start_round(self.lifecycle, start, event.at)
        except Refused as refused:
            if refused.code != "forbidden":  # the actor's role is check 3's
                self.find(
                    ROUND_ORDER,
                    f"round {event.round} is started where the lifecycle refuses to start it:"
                    f" {refused.reason}",
                )
        except GameError as error:  # a table opened under a profile no decider knows
            self.find(
                ROUND_ORDER,
                f"round {event.round} is started where the lifecycle cannot start it: {error}",
            )
