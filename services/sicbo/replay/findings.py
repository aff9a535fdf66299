"""A violation of the log's invariants, as replay reports it (pure).

The checks (:mod:`.invariants`, :mod:`.ledger`) each name one of :data:`CHECKS`; a finding
points at the offending stored event (its stream sequence, table, round and type) with a
plain sentence citing the rule.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import msgspec

from sicbo_contracts.base import Dice

BETTING = "betting"  # 1. no slip outside its round's betting (000 §3.9)
SUBJECT = "subject"  # 2. on its owner's aggregate, naming its own table, round and type
CONTRACT = "contract"  # 2. a known event type, decoding as it
ROLE = "role"  # 3. an actor of a role that writes it
ROUND_ORDER = "round-order"  # 4. no round before the last was settled and completed
SETTLEMENT = "settlement"  # 5. every accepted wager settled exactly once
CHAIN = "chain"  # 6. corrections and compensations chained to what they follow
TOKEN = "token"  # 7. a promotional token staked as issued, once (000 §1.1)
ACCOUNT = "account"  # 8. a player's account: each entry once, the balance its entries' sum
CHECKS = (BETTING, SUBJECT, CONTRACT, ROLE, ROUND_ORDER, SETTLEMENT, CHAIN, TOKEN, ACCOUNT)


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One violation of the log's invariants, at one stored event."""

    seq: int  # the offending event's stream sequence
    table: str
    round: int  # its subject's round (0: a table-level event)
    check: str  # one of CHECKS
    event: str  # its type tag (or the subject's token, when the message cannot be read)
    message: str  # a plain sentence, citing the rule
    time: datetime  # when the server stored it
    #: A player's account: the finding is about the accounts' stream (``seq`` is of it).
    account: str | None = None


#: How a check reports: ``find(check, message)`` about the event being checked.
Find = Callable[[str, str], None]


def show_dice(dice: Dice) -> str:
    return "-".join(str(d) for d in sorted(dice))
