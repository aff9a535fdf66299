"""The demo floor's take-over messages: a person takes a demo table over from its simulated
dealer, and hands it back (``make run`` only).

Core NATS request/reply between the web gateway and the demo floor's simulator, on
:func:`~sicbo_contracts.subjects.demo_takeover`, ``demo_release`` and ``demo_control`` (who
plays the table now). Where no simulator answers (a real floor), nobody else is playing the
table and it is the person's already.
"""

import msgspec

from sicbo_contracts.base import Id


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
