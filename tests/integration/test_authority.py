"""A command acts with its sender's role, never the one its payload claims (DESIGN.md Roles:
authority comes from the credential), against the services as processes.

The sender is the last token of the command subject (``sicbo.cmd.<table>.<service>.<sender>``),
which only that sender's NATS users may publish on (tests/deploy: the permissions); here the
server has no accounts, so every subject is reachable and the services' own check is what is
tested: a payload whose ``actor.role`` is not the subject's, or a command the subject's sender
may not send, is refused "forbidden" at ``$.actor.role`` and appends nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.access import HUMAN_SENDERS, SENDERS
from sicbo_contracts.base import Actor, Command, Role, tag_of, with_article
from sicbo_contracts.dice import ConfirmResult, EnterDice, ReadDice, ResolveHeldResult
from sicbo_contracts.lifecycle import (
    ClearFault,
    CloseBetting,
    CompleteRound,
    InvalidateRound,
    InvalidationReason,
    ReportMalfunction,
    StartRound,
    Uncover,
)
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import command, parse_event_subject, table_filter
from tests.integration.conftest import DEALER, SUPERVISOR, Floor, actor, new_id
from tests.integration.test_round_services import open_table
from tests.integration.test_wagers import open_betting

_reply = msgspec.json.Decoder(Reply)
SERVICE = actor(Role.SERVICE, "svc")
FIRE = InvalidationReason.FIRE


async def send_as(nc: NATS, sender: str, cmd: Command) -> Reply:
    """``cmd`` on ``sender``'s subject of the service that owns it."""
    subject = command(cmd.table, SERVICE_OF_TAG[tag_of(cmd)], sender)
    msg = await nc.request(subject, msgspec.json.encode(cmd), timeout=10)
    return _reply.decode(msg.data)


async def forbidden(nc: NATS, store: EventStore, sender: str, cmd: Command) -> Rejected:
    before = await store.last_sequence(table_filter(cmd.table))
    reply = await send_as(nc, sender, cmd)
    assert isinstance(reply, Rejected), (sender, cmd, reply)
    assert (reply.code, reply.field) == ("forbidden", "$.actor.role"), reply
    assert reply.command_id == cmd.command_id
    assert await store.last_sequence(table_filter(cmd.table)) == before, "something appended"
    return reply


async def entered(floor: Floor, nc: NATS, table: str, dice: tuple[int, int, int]) -> None:
    """Round 1 of a fresh table with its dice entered, not yet confirmed."""
    await open_table(floor, nc, table)
    await open_betting(floor, nc, table, 1)
    for step in (
        CloseBetting(command_id=new_id(), table=table, actor=DEALER, round=1),
        Uncover(command_id=new_id(), table=table, actor=DEALER, round=1),
        EnterDice(command_id=new_id(), table=table, actor=DEALER, round=1, dice=dice),
    ):
        assert isinstance(await floor.send(nc, step), Accepted), step


def service_commands(table: str, actor_: Actor) -> list[Command]:
    """One of each service account's commands, as ``actor_``."""
    head: dict[str, Any] = {"table": table, "actor": actor_}
    return [
        ReadDice(command_id=new_id(), **head, round=1, dice=(6, 6, 6)),
        CompleteRound(command_id=new_id(), **head, round=1),
        ReportMalfunction(command_id=new_id(), **head, equipment="lamp", detail="dark"),
        CloseBetting(command_id=new_id(), **head, round=1),
    ]


async def test_a_payload_claiming_another_role_on_the_dealers_subject_is_forbidden(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """The testers' 13: a claimed supervisor, inspector, operator or service from the dealer."""
    await entered(floor, nc, table_id, (1, 2, 3))
    supervisor, inspector = actor(Role.SUPERVISOR), actor(Role.INSPECTOR)
    head: dict[str, Any] = {"table": table_id}
    claims: list[Command] = [
        ResolveHeldResult(
            command_id=new_id(), **head, actor=supervisor, round=1, dice=(6, 6, 6), reason="x"
        ),
        InvalidateRound(
            command_id=new_id(), **head, actor=supervisor, round=1, reason=FIRE, detail="x"
        ),
        ClearFault(command_id=new_id(), **head, actor=inspector, detail="claimed"),
        StartRound(command_id=new_id(), **head, actor=actor(Role.OPERATOR), round=2, tumbles=3),
        StartRound(command_id=new_id(), **head, actor=actor(Role.PLAYER), round=2, tumbles=3),
        *service_commands(table_id, SERVICE),
    ]
    for cmd in claims:
        reply = await forbidden(nc, store, "dealer", cmd)
        assert f"actor.role {cmd.actor.role.value!r} is not the sender's" in reply.reason
        assert "acts as dealer" in reply.reason
    # The fake reading held nothing, the fake completion completed nothing: the dealer's entry
    # is the result, and the next round waits for settlement (002 art. 4).
    confirm = ConfirmResult(command_id=new_id(), table=table_id, actor=DEALER, round=1)
    assert isinstance(await floor.send(nc, confirm), Accepted)
    kinds = {parse_event_subject(e.subject) for e in await store.read(table_filter(table_id))}
    tokens = {k.token for k in kinds if k is not None}
    assert "dice-result-confirmed-v1" in tokens
    assert not tokens & {"dice-read-v1", "dice-result-held-v1", "round-invalidated-v1"}


@pytest.mark.parametrize("sender", HUMAN_SENDERS)
async def test_no_service_command_is_taken_from_a_persons_subject(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, sender: str
) -> None:
    """Neither claiming the service role nor as the person's own role (a dealer's, supervisor's
    or inspector's own ReportMalfunction is theirs to send: 000 §7.6-7.7)."""
    await entered(floor, nc, table_id, (1, 2, 3))
    own = actor(SENDERS[sender].role)
    for cmd in service_commands(table_id, SERVICE):
        await forbidden(nc, store, sender, cmd)
    for cmd in service_commands(table_id, own):
        if tag_of(cmd) not in SENDERS[sender].actions:
            reply = await forbidden(nc, store, sender, cmd)
            assert f"{with_article(sender)} may not send {tag_of(cmd)}" in reply.reason


@pytest.mark.parametrize("sender", ["croupier", "service", "countdown"])
async def test_an_unknown_sender_and_the_countdown_over_nats_are_forbidden(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, sender: str
) -> None:
    """The countdown closes betting in the lifecycle's own process, never from NATS."""
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    close = CloseBetting(command_id=new_id(), table=table_id, actor=SERVICE, round=1)
    await forbidden(nc, store, sender, close)


async def test_the_readers_and_the_supervisors_own_subjects_work(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """A reading that disagrees holds the result; the supervisor resolves it (DESIGN.md)."""
    await entered(floor, nc, table_id, (2, 6, 6))
    reading = ReadDice(command_id=new_id(), table=table_id, actor=SERVICE, round=1, dice=(2, 2, 6))
    assert isinstance(await send_as(nc, "reader", reading), Accepted)
    confirm = ConfirmResult(command_id=new_id(), table=table_id, actor=DEALER, round=1)
    held = await floor.send(nc, confirm)
    assert isinstance(held, Accepted) and held.events == ["dice.result-held.v1"], held
    resolve = ResolveHeldResult(
        command_id=new_id(), table=table_id, actor=SUPERVISOR, round=1, dice=(2, 2, 6), reason="x"
    )
    assert isinstance(await send_as(nc, "supervisor", resolve), Accepted)
