"""Replies go to inboxes only (issue 25 item 1), on the session's floor (no NATS accounts, so
the services' own check is all there is): a request whose reply subject is a stream subject,
or the JetStream API, is neither acted on nor answered, whoever sends it, on every command,
query and ping subject of the floor. Before, 21 of 21 such requests stored an entry (one
``rejected.v1`` on settlement's subject wedged its table for good).

The server's side of the same rule (no user may answer on a stream subject) is
tests/deploy/test_reply_subjects.py.
"""

from __future__ import annotations

import asyncio

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_permissions import sends_as
from sicbo_contracts.access import SENDERS
from sicbo_contracts.base import Limits, Role
from sicbo_contracts.illumination import LightLayout
from sicbo_contracts.lifecycle import OpenTable, TableConfig
from sicbo_contracts.subjects import (
    HISTORY_QUERY,
    RECALL_QUERY,
    STATS_QUERY,
    layout_light,
    layout_ping,
    query,
    service_ping,
    table_filter,
)
from tests.floor import FLOOR_SERVICES, Floor, actor, new_id
from tests.support.reply_targets import ReplyTargets


def requests_of(table: str) -> list[tuple[str, bytes]]:
    """Every subject a request reaches a service on, with a body that it would act on where
    there is one (the operator opening ``table``), and refuse otherwise."""
    open_table = OpenTable(
        command_id=new_id("reply"),
        table=table,
        actor=actor(Role.OPERATOR),
        config=TableConfig(profile="macau-2003", limits=Limits(minimum=100, maximum=10_000)),
    )
    asks: list[tuple[str, bytes]] = []
    for sender in SENDERS:
        for pattern in sends_as(sender):
            subject = pattern.replace("*", table, 1)
            body = msgspec.json.encode(open_table) if sender == Role.OPERATOR else b"{}"
            asks += [(subject, body), (subject, b"\xff not json")]
    asks += [(query(table, q), b"{}") for q in (HISTORY_QUERY, STATS_QUERY, RECALL_QUERY)]
    asks += [(service_ping(s), b"") for s in FLOOR_SERVICES]
    return asks


async def test_a_request_answered_on_a_stream_subject_is_neither_acted_on_nor_answered(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    asks = requests_of(table_id)
    async with ReplyTargets(nc, table_id) as targets:
        for subject, body in asks:
            for target in targets:
                await nc.publish(subject, body, reply=target)
        await nc.flush()
        # Every service still answers an inbox, after every misdirected request it was sent.
        for service in FLOOR_SERVICES:
            assert (await nc.request(service_ping(service), b"", timeout=10)).data
        await asyncio.sleep(1.0)  # commands run in tasks: give any answer its time to land
        assert [m.subject for m in targets.seen] == []
        assert await targets.missing_probes() == []
    assert await store.last_sequence(table_filter(table_id)) == 0  # the table was not opened
    lifecycle_logs = "".join(
        p.log_path.read_text() for p in floor.processes["lifecycle"] if p.log_path
    )
    assert (
        f"ignored a request on sicbo.cmd.{table_id}.lifecycle.operator from sender operator"
        in lifecycle_logs
    )


async def test_a_request_answered_on_an_inbox_still_is(floor: Floor, nc: NATS) -> None:
    """The positive side: nats-py's own inboxes and a user's prefix (``_INBOX.<user>.``)."""
    for inbox in (nc.new_inbox(), f"_INBOX.dealer.{new_id()}"):
        sub = await nc.subscribe(inbox, max_msgs=1)
        await nc.publish(service_ping("lifecycle"), b"", reply=inbox)
        assert (await sub.next_msg(timeout=10)).data == b'{"ok":true}'


async def test_the_gateway_and_a_layout_controller_answer_inboxes_only(
    floor: Floor, gateway: str, nc: NATS, table_id: str
) -> None:
    """The two answerers outside the services' shell: the gateway's ping, and a table's layout
    controller (its ping, and a light request that it would light and report)."""
    assert await floor.lamps_for(table_id, "cca-1992")  # a healthy controller for the table
    light = LightLayout(request_id=new_id("light"), table=table_id, round=1, spots=["big"])
    asks = [
        (service_ping("gateway"), b""),
        (layout_ping(table_id), b""),
        (layout_light(table_id), msgspec.json.encode(light)),
    ]
    async with ReplyTargets(nc, table_id) as targets:
        for subject, body in asks:
            for target in targets:
                await nc.publish(subject, body, reply=target)
        await nc.flush()
        for subject, body in asks:  # each still answers an inbox
            assert (await nc.request(subject, body, timeout=10)).data
        await asyncio.sleep(0.5)
        assert [m.subject for m in targets.seen] == []
        assert await targets.missing_probes() == []
