"""A simulated dealer over a fake floor client, for testing one of its steps alone."""

from types import SimpleNamespace
from typing import Any, cast

from sicbo.demo.dealer import SimulatedDealer


def dealer_over(client: object, table: str) -> SimulatedDealer:
    """The dealer of ``table`` reading and sending through ``client``; no players, no control,
    no randomness (the steps tested here use none)."""
    unused = cast(Any, None)
    return SimulatedDealer(
        cast(Any, client),
        cast(Any, SimpleNamespace(table=table)),
        lambda line: None,
        control=unused,
        players=unused,
        rng=unused,
        betting_seconds=0.0,
        no_result_every=1,
        notice=None,
        inspector_seconds=0.0,
    )
