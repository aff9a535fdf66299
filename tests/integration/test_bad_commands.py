"""Bad input on every command subject gets a clear error and appends nothing."""

from __future__ import annotations

import json
from collections.abc import Callable

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.replies import Rejected
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import (
    ACCOUNT_SERVICE,
    command,
    history_query,
    recall_query,
    stats_query,
)
from tests.integration.conftest import Floor

TAGS = sorted(SERVICE_OF_TAG)
ACTOR = {"id": "dealer-1", "role": "dealer"}


async def request(nc: NATS, table: str, service: str, payload: bytes) -> Rejected:
    """On the dealer's subject, as the payloads' actor (a bad payload is refused before its
    sender is checked)."""
    msg = await nc.request(command(table, service, ACTOR["role"]), payload, timeout=10)
    reply = msgspec.json.decode(msg.data, type=Rejected)
    assert reply.code == "invalid", reply
    return reply


def bad_payloads(tag: str, table: str) -> list[tuple[bytes, str, str | None]]:
    """(payload, expected words in the reason, expected field)."""
    # A player's account is keyed by its player (the subject's key token), a table by itself.
    key = "player" if SERVICE_OF_TAG[tag] == ACCOUNT_SERVICE else "table"
    head = {"type": tag, "command_id": "c-1", key: table, "actor": ACTOR}
    return [
        (b'{"type": "' + tag.encode() + b'", "command_id": ', "malformed JSON", None),
        (b"not json at all", "malformed JSON", None),
        (
            json.dumps({"type": tag, "bogus": 1, **head}).encode(),
            "unknown field `bogus`",
            "$.bogus",
        ),
        (json.dumps({**head, "command_id": 5}).encode(), "Expected `str`", "$.command_id"),
        (
            json.dumps({**head, "actor": {"id": "x", "role": "croupier"}}).encode(),
            "Invalid enum value 'croupier'",
            "$.actor.role",
        ),
        (json.dumps({**head, "type": "round.teleport.v1"}).encode(), "Invalid value", "$.type"),
        # Bytes that are not UTF-8 inside a JSON string, where the command id would be.
        (
            json.dumps(head).encode().replace(b'"c-1"', b'"c-\xff\xfe"'),
            "not UTF-8",
            None,
        ),
        (b"\xff\xfe\xfd", "malformed JSON", None),
        (b"[" * 100_000, "Expected `object`, got `array`", "$"),
        (b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested too deeply", None),
    ]


@pytest.mark.parametrize("tag", TAGS)
async def test_every_command_subject_refuses_bad_input_and_appends_nothing(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tag: str
) -> None:
    service = SERVICE_OF_TAG[tag]
    for payload, words, field in bad_payloads(tag, table_id):
        reply = await request(nc, table_id, service, payload)
        assert words in reply.reason, (payload, reply)
        if field is not None:
            assert reply.field == field
    assert await store.last_sequence(f"sicbo.evt.{table_id}.>") == 0


@pytest.mark.parametrize(
    ("subject", "payload", "words"),
    [
        (history_query, b'{"player": "p\xff"}', "not UTF-8"),
        (history_query, b"[" * 100_000, "Expected `object`, got `array`"),
        (stats_query, b"\xff", "malformed JSON"),
        (recall_query, b'{"limit":' * 50_000, "Expected `int`, got `object`"),
        (history_query, b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "unknown field `a`"),
    ],
)
async def test_every_query_subject_answers_bad_bytes(
    floor: Floor,
    nc: NATS,
    table_id: str,
    subject: Callable[[str], str],
    payload: bytes,
    words: str,
) -> None:
    msg = await nc.request(subject(table_id), payload, timeout=10)
    reply = msgspec.json.decode(msg.data, type=Rejected)
    assert reply.code == "invalid" and words in reply.reason, reply


@pytest.mark.parametrize("dice", [[0, 2, 3], [1, 2, 7], [1, 2], [1, 2, 3, 4], [1, "2", 3]])
@pytest.mark.parametrize("tag", ["dice.enter.v1", "dice.read.v1", "dice.correct.v1"])
async def test_dice_outside_one_to_six_are_refused(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tag: str, dice: list[object]
) -> None:
    body = {
        "type": tag,
        "command_id": "c-2",
        "table": table_id,
        "actor": ACTOR,
        "round": 1,
        "dice": dice,
        **({"reason": "wrong button"} if tag == "dice.correct.v1" else {}),
    }
    reply = await request(nc, table_id, "dice", json.dumps(body).encode())
    assert reply.field is not None and reply.field.startswith("$.dice")
    assert await store.last_sequence(f"sicbo.evt.{table_id}.>") == 0


async def test_a_command_for_another_table_is_refused(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    body = {
        "type": "round.uncover.v1",
        "command_id": "c-3",
        "table": "elsewhere",
        "actor": ACTOR,
        "round": 1,
    }
    reply = await request(nc, table_id, "lifecycle", json.dumps(body).encode())
    assert reply.field == "$.table"
    assert await store.last_sequence(f"sicbo.evt.{table_id}.>") == 0
