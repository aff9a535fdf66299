"""A whole-history read through a short-lived push consumer, for bulk readers (replay verify's
workers), where Direct Get batches cost the server about three times the CPU per message
(docs/benchmarks.md "Replay verify: the read's per-message cost"; issue 16 item 2).

The consumer is ephemeral, in memory, acknowledges nothing and is deleted after the read (and
by the server after a few idle seconds if the reader dies): creating it is a meta-leader
proposal in a cluster, so a service's hot-path read (a handful of events, many times a second)
stays on Direct Get. Each message comes through the raw route (:mod:`.raw_route`); its stream
sequence, time and the consumer's pending count are in its reply subject, and its headers are
the stored ones, so only the publisher's few are parsed. Any surprise (a delivery out of order:
a message dropped on the way, a status message, a reply subject not JetStream's) raises
:class:`ConsumerReadError`; the store then reads by Direct Get instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from datetime import UTC, datetime, timedelta

from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

from sicbo.eventstore import raw_route
from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.nats_headers import parse_header_lines
from sicbo.eventstore.records import DIRECT_META, HeadersWanted, StoredEvent

__all__ = ["ConsumerReadError", "read_by_consumer"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_LINES_AT = len(b"NATS/1.0") + 2
_SPACE = ord(" ")
#: The server deletes a consumer whose reader went away after this long idle.
_IDLE_NS = 5_000_000_000


class ConsumerReadError(StoreError):
    """The consumer's read could not be trusted or made: read by Direct Get instead."""


async def read_by_consumer(
    nc: NATS,
    api: str,
    stream: str,
    filter_subject: str,
    *,
    after_seq: int,
    timeout: float,
    headers: HeadersWanted = True,
) -> list[StoredEvent]:
    """Every stored message matching ``filter_subject`` after ``after_seq``, in order: the
    same events as a Direct Get read of the same moment, or :class:`ConsumerReadError`.
    ``headers=False``: each event's headers left empty (a reader that reads none: replay's
    tables; parsing them was a fifth of its read); a function of the subject: only the
    headers of the events whose subject it accepts (replay's accounts: the cashier's)."""
    found: list[StoredEvent] = []
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    delivered = [0]

    def stop(error: Exception | None = None) -> None:
        if not done.done():
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

    def on_raw(subject: bytes, reply: bytes, raw: bytes | None, data: bytes) -> None:
        if done.done():
            return
        try:
            tokens = reply.split(b".")
            at = 0 if len(tokens) == 9 else 2  # $JS.ACK.<stream>... or with domain and account
            if tokens[0] != b"$JS" or tokens[1] != b"ACK" or len(tokens) not in (9, 11, 12):
                raise ValueError(f"not a JetStream delivery: {reply!r}")
            if raw is not None and len(raw) > _LINES_AT - 2 and raw[_LINES_AT - 2] == _SPACE:
                raise ValueError("a status message on a consumer without heartbeats")
            if int(tokens[at + 6]) != delivered[0] + 1:
                raise ValueError("a delivery missing (slow consumer?)")
            delivered[0] += 1
            name = subject.decode()
            wanted = headers if isinstance(headers, bool) else headers(name)
            hdrs = (
                parse_header_lines(raw[_LINES_AT:])
                if wanted and raw is not None and len(raw) > _LINES_AT
                else {}
            )
            ns = int(tokens[at + 7])
            found.append(
                StoredEvent(
                    seq=int(tokens[at + 5]),
                    subject=name,
                    data=data,
                    headers={k: v for k, v in hdrs.items() if k not in DIRECT_META},
                    # Microseconds truncated, as a Direct Get reply's RFC 3339 time is read.
                    time=_EPOCH + timedelta(microseconds=ns // 1000),
                )
            )
            if int(tokens[at + 8]) == 0:
                stop()
        except (ValueError, IndexError, UnicodeDecodeError) as exc:
            stop(ConsumerReadError(f"consumer read of {filter_subject}: {exc}"))

    inbox = nc.new_inbox()
    sub = await nc.subscribe(inbox)
    if not raw_route.route(nc, sub._id, on_raw):
        await sub.unsubscribe()
        raise ConsumerReadError("the raw route is not available for this nats-py")
    name = f"read-{uuid.uuid4().hex[:16]}"
    try:
        # No flush needed: the server takes this connection's SUB before its create request.
        config: dict[str, object] = {
            "name": name,
            "deliver_subject": inbox,
            "filter_subject": filter_subject,
            "ack_policy": "none",
            "replay_policy": "instant",
            "mem_storage": True,
            "num_replicas": 1,
            "inactive_threshold": _IDLE_NS,
        }
        if after_seq:
            config.update(deliver_policy="by_start_sequence", opt_start_seq=after_seq + 1)
        else:
            config["deliver_policy"] = "all"
        body = json.dumps({"stream_name": stream, "config": config}).encode()
        try:
            msg = await nc.request(f"{api}.CONSUMER.CREATE.{stream}.{name}", body, timeout)
            created = json.loads(msg.data)
        except (NatsError, ValueError) as exc:
            raise ConsumerReadError(f"no consumer for the read of {filter_subject}") from exc
        if not isinstance(created, dict) or "error" in created:
            raise ConsumerReadError(f"no consumer for the read of {filter_subject}: {created}")
        if int(created.get("num_pending", 0)) == 0:
            stop()
        while not done.done():  # ``timeout`` without a delivery, as Direct Get's per page
            before = delivered[0]
            await asyncio.wait([done], timeout=timeout)
            if not done.done() and delivered[0] == before:
                raise ConsumerReadError(f"consumer read of {filter_subject} stalled")
        done.result()  # raises what stopped it
        return found
    finally:
        raw_route.unroute(nc, sub._id)
        await sub.unsubscribe()
        with contextlib.suppress(NatsError):  # else the server drops it after _IDLE_NS
            await nc.publish(f"{api}.CONSUMER.DELETE.{stream}.{name}", b"")
