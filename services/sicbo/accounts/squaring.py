"""Pure decisions that square a slip's money with the slip as stored (no I/O).

A slip's *net debit* in an account is what its debits still hold (debited less refunded, every
debit of the account naming that table and slip). Wager intake debits a slip before storing it
(debit-then-slip, docs/architecture.md "Player accounts"), so the net debit may run ahead of
the slip as stored: a slip refused or never stored (a crash in between), a change that lowered
the stakes. :func:`refund_excess` gives back what runs ahead, from the latest debits first,
each refund naming its debit; nothing when the slip is square. Deciding on the account as
read and appending with its last sequence as the expectation, two writers squaring the same
slip (intake after a change, settlement's reconciler at "no more bets") never both refund.
"""

from __future__ import annotations

from datetime import datetime

from sicbo.accounts.entries import Slip, refund_stake
from sicbo.accounts.state import AccountState, Debit
from sicbo_contracts.accounts import StakeRefunded
from sicbo_contracts.base import Actor


def debits_of(state: AccountState, table: str, slip_id: str) -> list[tuple[str, Debit]]:
    """The slip's debits, oldest first, by key."""
    return [(key, state.debits[key]) for key in state.slip_debits.get((table, slip_id), ())]


def net_debit(state: AccountState, table: str, slip_id: str) -> int:
    return sum(d.outstanding for _, d in debits_of(state, table, slip_id))


def debited(state: AccountState, table: str, slip_id: str) -> bool:
    """Whether the slip's stakes came from this account (else: chips at the table)."""
    return bool(debits_of(state, table, slip_id))


def refund_excess(
    state: AccountState,
    table: str,
    slip_id: str,
    stored: int,
    *,
    tag: str,
    reason: str,
    actor: Actor,
    at: datetime,
) -> StakeRefunded | None:
    """One refund towards a net debit of ``stored`` (the slip's chips stake as stored), or
    None when the slip is square. A debit refunded in full is keyed ``refund:<debit key>``
    (whoever refunds it, once); a part of one ``refund:<debit key>:<tag>``. Call again until
    None: each call refunds at most one debit."""
    excess = net_debit(state, table, slip_id) - stored
    if excess <= 0:
        return None
    for key, debit in reversed(debits_of(state, table, slip_id)):
        if debit.outstanding <= 0:
            continue
        amount = min(excess, debit.outstanding)
        whole = amount == debit.outstanding == debit.amount
        refund_key = f"refund:{key}" if whole else f"refund:{key}:{tag}"
        slip: Slip = {"table": table, "round": debit.round, "slip_id": slip_id, "key": refund_key}
        return refund_stake(state, slip, key, amount, reason, actor, at)
    return None
