"""Replies go to inboxes only (issue 25 item 1), on a server with the floor's accounts (each
generated configuration).

The server's side: no user that answers requests may publish an answer anywhere but an inbox.
nats-server's ``allow_responses`` let an answer through to any reply subject, past the publish
deny list too (checked on a real server when this was written: a deny of ``sicbo.>`` and
``$JS.>`` beside ``allow_responses: true`` still delivered an answer on ``sicbo.evt...``), so
the floor's users answer through a publish allow of ``_INBOX.>`` instead: here each of them,
answering raw as a compromised or buggy process would, is refused on every stream subject and
the JetStream API, and still answers an inbox.

The attack itself: each terminal user, the reader and the gateway send every command they may
send with every such reply subject, to the command services running as their own users:
nothing is published there, nothing is stored.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.infra.nats_accounts import SERVICES, users
from sicbo.infra.nats_permissions import ANSWERS, sends_as
from sicbo.infra.nats_server import LocalNatsServer
from sicbo_contracts.access import HUMAN_SENDERS
from sicbo_contracts.subjects import (
    HISTORY_QUERY,
    RECALL_QUERY,
    STATS_QUERY,
    inbox,
    layout_ping,
    query,
    service_ping,
    subject_matches,
)
from tests.deploy.nats_users import As
from tests.deploy.test_command_authority import floor as command_floor
from tests.support.reply_targets import ReplyTargets

floor = command_floor  # the command services as their own users, for the attack below

#: Every user that answers requests, and a subject it takes them on.
ANSWERING = {
    **{user.name: service_ping(user.name) for user in SERVICES if user.name != "layout"},
    "layout": layout_ping("T1"),
    "gateway": service_ping("gateway"),
}


@pytest.mark.parametrize("user", sorted(ANSWERING))
async def test_no_user_may_answer_a_request_anywhere_but_an_inbox(
    user: str, server: LocalNatsServer, admin: NATS
) -> None:
    permissions = users()[user].permissions
    assert permissions is not None and ANSWERS in permissions.publish
    own = [p for p in permissions.publish if p != ANSWERS]
    who = await As(user).connect(server)
    answered = 0

    async def answer_raw(msg: Msg) -> None:  # no check of the reply subject: the server's
        nonlocal answered
        answered += 1
        await msg.respond(b'{"forged":"answer"}')

    try:
        await who.nc.subscribe(ANSWERING[user], cb=answer_raw)
        await who.nc.flush()
        async with ReplyTargets(admin, "T1") as all_targets:
            # A subject the user may publish on by its own right is its own (the gateway's
            # launch tokens, a service's event types): there only the process's own check
            # stands (tests/integration/test_reply_subjects.py).
            targets = [t for t in all_targets if not any(subject_matches(t, p) for p in own)]
            assert [t for t in all_targets if t.startswith("$JS.API.")] == [
                t for t in targets if t.startswith("$JS.API.")
            ]
            for target in targets:
                await admin.publish(ANSWERING[user], b"", reply=target)
            await admin.flush()
            own = admin.new_inbox()
            sub = await admin.subscribe(own, max_msgs=1)
            await admin.publish(ANSWERING[user], b"", reply=own)
            assert (await sub.next_msg(timeout=5)).data == b'{"forged":"answer"}'
            await asyncio.sleep(0.5)
            assert answered == len(targets) + 1
            assert [m.subject for m in all_targets.seen] == []
            assert await all_targets.missing_probes() == []
            for target in targets:
                assert who._refused(f'publish to "{target}"'), target
    finally:
        await who.close()


def asked_by(user: str, table: str) -> list[str]:
    """Every command and query subject ``user`` may publish, for ``table``."""
    if user == "gateway":
        subjects = [*sends_as(*HUMAN_SENDERS)]
        subjects += [query(table, q) for q in (HISTORY_QUERY, STATS_QUERY, RECALL_QUERY)]
    else:
        subjects = [*sends_as(user)]
    return [s.replace("*", table, 1) for s in subjects]


@pytest.mark.parametrize(
    "user", ["dealer", "supervisor", "inspector", "operator", "reader", "gateway"]
)
async def test_the_reply_subject_attack_stores_nothing(
    user: str,
    floor: Path,
    connect: Any,
    admin: NATS,
) -> None:
    table = f"R{user[:3]}"
    who = await connect(user, inbox_prefix=inbox(user))
    subjects = asked_by(user, table)
    assert subjects
    async with ReplyTargets(admin, table) as targets:
        for subject in subjects:
            for target in targets:
                for body in (b"{}", b"\xff"):
                    await who.nc.publish(subject, body, reply=target)
        await who.nc.flush()
        await asyncio.sleep(1.0)
        assert [m.subject for m in targets.seen] == []
        assert await targets.missing_probes() == []
    assert who.errors == []  # the sends themselves are its own to make
