"""Reference: the raw JetStream append rate from nats-py, pipelined with 100 in flight."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import nats

from sicbo.provisioning import provision
from sicbo.resources import event_stream

#: Appends the reference keeps in flight (intake is also measured at as many slips).
REFERENCE_IN_FLIGHT = 100

#: A stream configured exactly like the floor's log, so the reference pays the same costs
#: (file storage, dedupe window, atomic batches allowed) without writing into the audit log.
REFERENCE_STREAM = "BENCH_REFERENCE"


@dataclass(frozen=True)
class RateFigure:
    count: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.count / self.seconds

    @staticmethod
    def together(figures: tuple[RateFigure, ...]) -> RateFigure:
        """Several runs as one: every item over all their time."""
        return RateFigure(sum(f.count for f in figures), sum(f.seconds for f in figures))


async def bench_raw_appends(
    nats_url: str, count: int = 20_000, in_flight: int = REFERENCE_IN_FLIGHT
) -> RateFigure:
    """``js.publish`` of small messages to the event stream, ``in_flight`` awaited at once
    (``publish_async`` hangs on refusals, nats.py#985, so the floor never uses it)."""
    nc = await nats.connect(nats_url)
    spec = event_stream(1, name=REFERENCE_STREAM, subjects=("bench.ref.>",))
    (await provision(nc, resources=[spec])).raise_for_conflicts()
    js = nc.jetstream()
    payload = b'{"type":"bench.v1","wagers":[{"bet":"small","stake":100}]}'
    sem = asyncio.Semaphore(in_flight)

    async def one(i: int) -> None:
        async with sem:
            await js.publish(f"bench.ref.{i % 50}", payload, stream=REFERENCE_STREAM)

    try:
        start = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(count)))
        return RateFigure(count, time.perf_counter() - start)
    finally:
        await nc.close()
