"""A corpus of byte-level mutations on every command and query subject, against the services
as processes: every message gets a reply the contracts decode, and nothing is appended."""

from __future__ import annotations

import asyncio
import json
import random

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.access import SENDERS
from sicbo_contracts.replies import Accepted, Reply
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import (
    command,
    history_query,
    recall_query,
    stats_query,
    table_filter,
)
from tests.integration.conftest import Floor

MUTATIONS_PER_SUBJECT = 12
_reply: msgspec.json.Decoder[Reply] = msgspec.json.Decoder(Reply)


def mutated(seed: bytes, rng: random.Random) -> bytes:
    """One mutation of ``seed``: flipped bits, cut, spliced bytes, repeated or nested."""
    data = bytearray(seed)
    kind = rng.randrange(7)
    at = rng.randrange(len(data) + 1)
    if kind == 0 and data:
        data[min(at, len(data) - 1)] ^= 1 << rng.randrange(8)
    elif kind == 1:
        del data[at:]
    elif kind == 2:
        data[at:at] = rng.choice([b"\xff", b"\x00", b"\xc3\x28", b'"', b"\\u0000", b"}"])
    elif kind == 3:
        data[at:at] = rng.randbytes(rng.randrange(1, 16))
    elif kind == 4:
        data = bytearray(b"[" * rng.randrange(1, 50_000)) + data
    elif kind == 5:
        data = data * rng.randrange(2, 50)
    else:
        data[at:at] = b'"' + b"x" * rng.randrange(1, 5_000) + b'"'
    return bytes(data)


def seed_of(tag: str, table: str, role: str) -> bytes:
    head = {"type": tag, "command_id": "fuzz-1", "table": table, "round": 1}
    return json.dumps({**head, "actor": {"id": "fuzzer", "role": role}}).encode()


async def ask(nc: NATS, subject: str, payload: bytes) -> Reply | dict[str, object]:
    """A command's answer is a Reply; a query's is its answer or a Rejected (a mutation may
    still be a valid query), JSON either way."""
    msg = await nc.request(subject, payload, timeout=10)
    if subject.startswith("sicbo.qry."):
        answer = msgspec.json.decode(msg.data)
        assert isinstance(answer, dict), answer
        return answer
    return _reply.decode(msg.data)


async def test_every_mutated_message_is_answered_and_appends_nothing(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    rng = random.Random(20261201)
    asks: list[tuple[str, bytes]] = []
    for tag, service in sorted(SERVICE_OF_TAG.items()):
        for sender in SENDERS.values():
            seed = seed_of(tag, table_id, sender.role.value)
            subject = command(table_id, service, sender.name)
            asks += [(subject, mutated(seed, rng)) for _ in range(MUTATIONS_PER_SUBJECT)]
    for query in (history_query, stats_query, recall_query):
        seed = b'{"player": "p1", "limit": 5}'
        asks += [(query(table_id), mutated(seed, rng)) for _ in range(MUTATIONS_PER_SUBJECT * 4)]
    replies: list[Reply | dict[str, object]] = []
    for start in range(0, len(asks), 200):  # bounded in flight
        chunk = asks[start : start + 200]
        replies += await asyncio.gather(*(ask(nc, s, p) for s, p in chunk))
    assert len(replies) == len(asks) > 1_000
    assert not [r for r in replies if isinstance(r, Accepted)]
    assert await store.last_sequence(table_filter(table_id)) == 0
