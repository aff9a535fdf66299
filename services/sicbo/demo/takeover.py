"""A person takes a demo table over from its simulated dealer, and hands it back.

Core NATS request/reply between the web gateway and ``make run``'s simulator, demo only:
``sicbo.demo.<table>.takeover``, ``.release`` and ``.control`` (who plays the table now).
Where no simulator answers (a real floor), nobody else is playing the table and it is the
person's already.
"""

import msgspec

from sicbo_contracts.base import Id


def takeover_subject(table: str) -> str:
    return f"sicbo.demo.{table}.takeover"


def release_subject(table: str) -> str:
    return f"sicbo.demo.{table}.release"


def control_subject(table: str) -> str:
    return f"sicbo.demo.{table}.control"


class TakeoverRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    by: Id  # the operator taking the table


class Control(msgspec.Struct, frozen=True, kw_only=True):
    """``demo``: the simulated dealer plays the table; ``after-round``: it finishes ``round``
    and then stops; ``yours``: no simulated dealer is playing (``by`` took the table over);
    ``released``: the simulated dealer plays again; ``none``: the table has no simulated
    dealer (a real floor)."""

    status: str
    round: int | None = None
    by: str | None = None
