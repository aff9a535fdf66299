"""What the wallet's kill test checks afterwards, from the logs alone (its docstring says
what): every accepted slip debited once, every debit with its slip or refunded once, every
return credited once, every void refunded once, each balance the re-fold, verify clean."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.replay.statement import statement
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.accounts import (
    AccountEvent,
    FundsDeposited,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.settlement import WagerOutcome, WagersSettled
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    ACCOUNTS_ALL,
    EVENT_STREAM,
    Aggregate,
    round_filter,
)
from sicbo_contracts.wagers import SlipPlaced
from tests.integration.test_replay_money import verify

_entry = msgspec.json.Decoder(AccountEvent)
_settled = msgspec.json.Decoder(WagersSettled)
_placed = msgspec.json.Decoder(SlipPlaced)


@dataclass
class Bets:
    """What the players were told, and what the cashier paid in beside their first funds."""

    players: list[str]
    #: slip id -> (player, round, stake) of each slip answered accepted
    accepted: dict[str, tuple[str, int, int]] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)  # slip id -> the refusal's reason
    deposits: Counter[str] = field(default_factory=Counter)


async def check_the_money(
    nc: NATS,
    url: str,
    table: str,
    bets: Bets,
    rounds: Mapping[int, object],
    funds: int,
) -> None:
    """The kill test's afterwards (tests/integration/test_wallet_kills.py): ``rounds`` maps each
    round to how it ended (a str: void), ``funds`` each player's first deposit."""
    store, accounts = EventStore(nc, EVENT_STREAM), EventStore(nc, ACCOUNT_STREAM)
    stored_slips: dict[str, tuple[str, int, int]] = {}
    results: list[Any] = []
    for n in rounds:
        for s in await store.read(round_filter(table, Aggregate.BETS, n)):
            if s.subject.endswith("slip-placed-v1"):
                slip = _placed.decode(s.data)
                stored_slips[slip.slip_id] = (slip.player, n, sum(w.stake for w in slip.wagers))
        for s in await store.read(round_filter(table, Aggregate.SETTLE, n)):
            if s.subject.endswith("wagers-settled-v1"):
                results.extend(_settled.decode(s.data).wagers)
    raw = await accounts.read(ACCOUNTS_ALL)
    entries = [_entry.decode(s.data) for s in raw]

    # Every accepted slip stored, debited once for its stake; a refused one never stored.
    for slip_id, accepted in bets.accepted.items():
        assert stored_slips.get(slip_id) == accepted, (slip_id, accepted)
    assert not set(bets.refused) & set(stored_slips), "a refused slip was stored"
    debits: dict[str, list[StakeDebited]] = defaultdict(list)
    refunds: dict[str, list[StakeRefunded]] = defaultdict(list)  # by the debit's key
    for e in entries:
        if isinstance(e, StakeDebited):
            debits[e.slip_id].append(e)
        elif isinstance(e, StakeRefunded):
            refunds[e.debit_key].append(e)
    for slip_id, (_, _, stake) in stored_slips.items():
        assert [d.amount for d in debits[slip_id]] == [stake], (slip_id, debits[slip_id])
    # A debit without its stored slip is refunded in full once; none is left hanging.
    assert any(slip_id not in stored_slips for slip_id in debits), "no debit lost its slip"
    for slip_id, ds in debits.items():
        if slip_id not in stored_slips:
            for d in ds:
                assert [r.amount for r in refunds[d.key]] == [d.amount], (d, refunds[d.key])

    # Each settled wager's return credited once; each void wager's stake refunded once.
    credits = Counter(e.key for e in entries if isinstance(e, ReturnCredited))
    for w in results:
        if w.returned <= 0:
            continue
        key = "void" if w.outcome is WagerOutcome.VOID else "return"
        expected = f"{key}:{table}:{stored_slips[w.slip_id][1]}:{w.slip_id}:{w.index}"
        if key == "return":
            assert credits[expected] == 1, (expected, credits[expected])
        else:
            debit = debits[w.slip_id][0]
            assert [(r.key, r.amount) for r in refunds[debit.key]] == [(expected, w.returned)]
    voided = {n for n, end in rounds.items() if isinstance(end, str)}
    assert {stored_slips[w.slip_id][1] for w in results if w.outcome is WagerOutcome.VOID} == voided

    # Each key once per account; each balance = the re-fold = what the money says.
    keys = Counter((e.player, e.key) for e in entries if hasattr(e, "key"))
    assert [k for k, c in keys.items() if c > 1] == []
    for p in bets.players:
        mine = [e for e in entries if e.player == p]
        folded = statement(raw, p, command_header=COMMAND_ID)
        assert folded.ok, folded.violations
        deposited = sum(e.amount for e in mine if isinstance(e, FundsDeposited))
        assert deposited == funds + bets.deposits[p]
        kept = sum(s for who, n, s in stored_slips.values() if who == p and n not in voided)
        returned = sum(
            w.returned for w in results if w.player == p and w.outcome is not WagerOutcome.VOID
        )
        assert folded.balance == mine[-1].balance == deposited - kept + returned, p

    verified = verify(url)
    assert verified.returncode == 0, verified.stdout + verified.stderr
