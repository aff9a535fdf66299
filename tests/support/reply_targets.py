"""Reply subjects an attacker would choose (issue 25): one concrete subject under every subject
of every stream on the server, and the JetStream API's delete of a probe consumer made on each
stream for the test. A request with such a reply subject must make nobody publish there: a
core subscription on each target sees whatever is published, stored or not."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import ConsumerConfig
from nats.js.errors import NotFoundError

from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, event, results

PROBE_CONSUMER = "reply-subject-probe"


def concrete(pattern: str, table: str) -> str:
    """A subject matching ``pattern``: each ``*`` a table-like token, ``>`` two tokens."""
    tokens = [table if t == "*" else t for t in pattern.split(".")]
    if tokens[-1] == ">":
        tokens[-1:] = [table, "r1"]
    return ".".join(tokens)


class ReplyTargets:
    """Every target, a subscription on each, and the probe consumers to check afterwards."""

    def __init__(self, nc: NATS, table: str) -> None:
        self.nc = nc
        self.table = table
        self.subjects: list[str] = []
        self.probes: list[str] = []  # streams with a probe consumer
        self.seen: list[Msg] = []
        self._subs: list[Subscription] = []

    async def __aenter__(self) -> ReplyTargets:
        js = self.nc.jetstream()
        for info in await js.streams_info():
            name = info.config.name
            assert name is not None
            self.subjects += [concrete(s, self.table) for s in info.config.subjects or ()]
            if not name.startswith("KV_"):
                await js.add_consumer(name, ConsumerConfig(durable_name=PROBE_CONSUMER))
                self.probes.append(name)
                self.subjects.append(f"$JS.API.CONSUMER.DELETE.{name}.{PROBE_CONSUMER}")
        # The ones outside testers used: a settlement's own subject (a rejected.v1 stored there
        # wedged the table) and the partners' feed.
        self.subjects += [event(self.table, Aggregate.SETTLE, 1, RoundSettled), results(self.table)]
        for subject in self.subjects:
            self._subs.append(await self.nc.subscribe(subject, cb=self._seen))
        await self.nc.flush()
        return self

    async def _seen(self, msg: Msg) -> None:
        self.seen.append(msg)

    def __iter__(self) -> Iterator[str]:
        return iter(self.subjects)

    async def missing_probes(self) -> list[str]:
        """The streams whose probe consumer is gone (deleted by somebody's answer)."""
        js = self.nc.jetstream()
        gone = []
        for stream in self.probes:
            try:
                await js.consumer_info(stream, PROBE_CONSUMER)
            except NotFoundError:
                gone.append(stream)
        return gone

    async def __aexit__(self, *exc: object) -> None:
        for sub in self._subs:
            await sub.unsubscribe()
        js = self.nc.jetstream()
        for stream in self.probes:
            with contextlib.suppress(NotFoundError):
                await js.delete_consumer(stream, PROBE_CONSUMER)
